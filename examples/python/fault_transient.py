"""A fault transient: a link of a 4x4 torus fails for 3000 cycles and recovers; the latency
and delivered traffic of the packets against time, the fault's window shaded.

    python examples/python/fault_transient.py [--quick] [--out DIR]
"""

import os

import matplotlib.pyplot as plt

import exanet
from _common import options

a = options(__doc__)
fail, recover = 5000, 8000
cfg = exanet.Config(net={"topology": "torus:4x4", "load": 0.3,
                         "faults": f"link:0-1@{fail}..{recover}"})
r = exanet.network_run(cfg, seed=1, threads=1, latency_bin=250 if a.quick else 100)
bins = r["latency_over_time"]

fig, (lat, tput) = plt.subplots(2, 1, figsize=(8, 5), sharex=True)
x = [b["from_cycle"] for b in bins]
lat.plot(x, [b["latency_mean_cycles"] for b in bins], drawstyle="steps-post")
tput.plot(x, [b["bytes_per_cycle_per_endpoint"] for b in bins], drawstyle="steps-post")
for ax in (lat, tput):
    ax.axvspan(fail, recover, color="red", alpha=0.15, label="link 0-1 down")
lat.set(ylabel="latency (cycles)", title="link 0-1 of torus:4x4 down, load 0.3")
tput.set(xlabel="delivery cycle", ylabel="bytes / cycle / endpoint")
lat.legend()
path = os.path.join(a.out, "fault_transient.png")
fig.savefig(path, dpi=100)
worst = max(bins, key=lambda b: b["latency_mean_cycles"])
print(f"wrote {path}; {r['packets_lost']} packets lost, worst bin at cycle "
      f"{worst['from_cycle']}: {worst['latency_mean_cycles']:.0f} cycles")
