"""The DPSNN cortical simulation's spike exchange on a 4x4 torus under several routing
algorithms: the time of the run and the packets' mean latency.

    python examples/python/dpsnn_routings.py [--quick] [--out DIR]
"""

import os

import matplotlib.pyplot as plt

import exanet
from _common import options

a = options(__doc__)
routings = ["ecube", "min-adapt", "star-channel"]
iterations = 3 if a.quick else 20
runs = {r: exanet.app_dpsnn(exanet.Config(net={"topology": "torus:4x4"}), routing=r,
                            columns="4x4", iterations=iterations)
        for r in routings}

fig, (t, lat) = plt.subplots(1, 2, figsize=(9, 3.5))
t.bar(routings, [runs[r]["time_us"] for r in routings])
t.set(ylabel="simulated time (us)", title=f"DPSNN 4x4 columns, {iterations} iterations")
lat.bar(routings, [runs[r]["packet_latency_mean_cycles"] for r in routings])
lat.set(ylabel="packet latency (cycles)", title="mean packet latency")
fig.tight_layout()
path = os.path.join(a.out, "dpsnn_routings.png")
fig.savefig(path, dpi=100)
print(f"wrote {path}; " + ", ".join(
    f"{r} {runs[r]['time_us']:.1f} us" for r in routings))
