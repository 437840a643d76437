"""A parameter study: the APElink's protocol efficiency against its credit period (the cycles
between two credit messages), for several payload sizes, simulated link by link. Usedword
credits (4 beats each) sent on the period alone, not between every two packets: under
saturating traffic the credit period is then what the link pays for its flow control.

    python examples/python/credit_period.py [--quick] [--out DIR]
"""

import os

import matplotlib.pyplot as plt

import exanet
from _common import options

a = options(__doc__)
periods = [20, 50, 100] if a.quick else [10, 20, 35, 50, 75, 100, 150, 200]
payloads = [64, 1024] if a.quick else [64, 256, 1024, 4096]

eff = {p: [] for p in payloads}
for period in periods:
    credit = {"flavour": "usedword", "after_every_packet": False, "period_cycles": period,
              # (a credit inside a packet waits at least the period)
              "max_interval_cycles": max(period, 110)}
    rows = exanet.link_efficiency(exanet.Config(link={"credit": credit}),
                                  payloads=payloads)["rows"]
    for row in rows:
        eff[row["payload_bytes"]].append(row["simulated"])

fig, ax = plt.subplots(figsize=(6, 4))
for p in payloads:
    ax.plot(periods, eff[p], marker="o", label=f"{p} B")
ax.set(xlabel="credit period (cycles)", ylabel="efficiency (payload beats / beats)",
       title="APElink efficiency against the usedword credit period")
ax.legend(title="payload")
path = os.path.join(a.out, "credit_period.png")
fig.savefig(path, dpi=100)
print(f"wrote {path}; {payloads[-1]} B: " + ", ".join(
    f"{t} cycles {e:.3f}" for t, e in zip(periods, eff[payloads[-1]])))
