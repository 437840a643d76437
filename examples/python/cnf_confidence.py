"""Accepted traffic and latency against offered load (CNF) on a 4x4 torus, e-cube against
minimal adaptive routing, each point the mean over seeds with its 95 % confidence band.

    python examples/python/cnf_confidence.py [--quick] [--out DIR]
"""

import os

import matplotlib.pyplot as plt

import exanet
from _common import options

a = options(__doc__)
loads = [0.1, 0.3, 0.5] if a.quick else [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
seeds = range(1, 3) if a.quick else range(1, 6)
cfg = exanet.Config(net={"measure_cycles": 2000 if a.quick else 10000})
r = exanet.network_sweep(cfg, topologies=["torus:4x4", "torus:4x4"],
                         routings=["ecube", "min-adapt"], loads=loads, seeds=seeds, jobs=2)

fig, (acc, lat) = plt.subplots(1, 2, figsize=(10, 4))
for curve in r["curves"]:
    m = curve["means"]
    x = [p["offered_load"] for p in m]
    for ax, key in [(acc, "accepted_load"), (lat, "latency_mean_cycles")]:
        y = [p[key]["mean"] for p in m]
        ci = [p[key]["ci95"] for p in m]
        ax.plot(x, y, marker="o", label=curve["routing"])
        ax.fill_between(x, [v - c for v, c in zip(y, ci)], [v + c for v, c in zip(y, ci)],
                        alpha=0.25)
acc.set(xlabel="offered load", ylabel="accepted load", title="accepted traffic")
lat.set(xlabel="offered load", ylabel="latency (cycles)", title="latency, 95 % CI")
lat.legend()
fig.suptitle(f"torus:4x4, {len(seeds)} seeds a point")
path = os.path.join(a.out, "cnf_confidence.png")
fig.savefig(path, dpi=100)
last = {c["routing"]: c["means"][-1]["accepted_load"]["mean"] for c in r["curves"]}
print(f"wrote {path}; accepted at load {loads[-1]}: "
      + ", ".join(f"{k} {v:.3f}" for k, v in last.items()))
