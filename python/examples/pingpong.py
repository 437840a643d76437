#!/usr/bin/env python3
"""Ping-pong through exanet's co-simulation server: a task simulator in a few lines of Python.

Rank 0 sends a message of --bytes to rank 1 at the start; rank 1 returns it the cycle it
arrives; --iterations round trips. The program spends no time of its own (no software
overheads), so every time printed is the network's: the one-way time of a message is the
cycle its last packet arrived less the cycle it was queued at the source NIC.

    exanet network serve --ranks 2 --token-file T &       # prints: listening on ADDR
    python3 python/examples/pingpong.py --address ADDR --token-file T

Prints JSON: the one-way times of every message, the round trips, the LEFT times (the cycle
each message's last packet left its NIC, less the cycle it was queued) and the session's END.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import exanet_serve as es  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--address", required=True, help="the server's, as it prints it")
    p.add_argument("--token-file", required=True, help="the file `--token-file` gave the server")
    p.add_argument("--bytes", type=int, default=64)
    p.add_argument("--iterations", type=int, default=10)
    a = p.parse_args()
    if a.bytes < 0 or a.iterations < 1:
        p.error("--bytes is at least 0 and --iterations at least 1")
    with open(a.token_file) as f:
        token = f.read().strip()

    with es.Client(a.address, [0, 1], token) as c:
        queued = {}  # message id -> cycle it was queued at
        one_way, left_after, round_trips = [], [], []
        state = {"next_id": 0, "ping_at": c.start, "pending": []}

        def send(src, dst, time):
            m = es.Send(state["next_id"], src, dst, a.bytes, 0, time)
            state["next_id"] += 1
            queued[m.id] = time
            state["pending"].append(m)

        send(0, 1, c.start)

        def answer(at: es.At):
            for l in at.left:
                left_after.append(l.time - queued[l.id])
            for m in at.completed:
                one_way.append(m.time - queued[m.id])
                if m.dst == 1:  # the ping arrived: return it at once
                    send(1, 0, m.time)
                else:  # the pong arrived: a round trip done
                    round_trips.append(m.time - state["ping_at"])
                    if len(round_trips) < a.iterations:
                        state["ping_at"] = m.time
                        send(0, 1, m.time)
            # this endpoint's SENDs now; any other's when its endpoint stops
            mine = [m for m in state["pending"] if c.endpoint_of[m.src] == at.endpoint]
            state["pending"] = [m for m in state["pending"] if m not in mine]
            if len(round_trips) == a.iterations:
                return mine, es.DONE
            later = [m.time for m in state["pending"]]
            return mine, (min(later) if later else None)

        end = c.run(answer)
    print(
        json.dumps(
            {
                "bytes": a.bytes,
                "iterations": a.iterations,
                "one_way_cycles": one_way,
                "left_cycles": left_after,
                "round_trip_cycles": round_trips,
                "half_round_trip_cycles": sum(round_trips) / len(round_trips) / 2,
                "messages": c.sent,
                "end_cycle": end.cycle,
                "deadlock": end.deadlock,
            }
        )
    )
    return 1 if end.deadlock else 0


if __name__ == "__main__":
    sys.exit(main())
