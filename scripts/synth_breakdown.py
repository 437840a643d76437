#!/usr/bin/env python3
"""Where a synthesised block's LUTs go, register by register (scripts/synth.sh --breakdown).

Reads the flattened netlist Yosys wrote (`write_json` after `synth_xilinx`) and charges every
combinational cell to the registers it computes: a LUT, MUXF, CARRY or INV cell belongs to each
flip-flop (or block RAM, or top output port) that its output reaches through combinational
cells only, up to the next register. A register group is the RTL's name of the register
(`u_rx.crc_q`, its bits together), read from the netlist's names of the flip-flops' Q nets. A
flip-flop the front end made without an RTL name (`_11529_`: a FIFO's write-first bypass,
which Yosys builds beside the block RAM) is named after the first RTL-named net its output
reaches (through logic or another flip-flop), with " (feeds)" after it:
`gen_in[0].u_in.u_fifo.u_pay.rdata_q (feeds)`.

A cell that feeds one group only is that group's own; a cell that feeds several is shared and
split evenly among them, so the groups' LUT column sums to the block's LUT count. The INV
cells are told apart by what they drive: an asynchronous clear or preset (the inverter Yosys
puts in front of each flip-flop's active-low reset, which Vivado folds into the flip-flop) or
logic (a carry chain's input, most often).

With --depth N the cells are charged to instances instead of registers, an instance being the
first N levels of a register's instance path (`--depth 1`: `gen_in[0]`, `u_rx`, ...; a
register of the top itself keeps its name, an output port stays `port NAME`): a cell that
feeds registers of one instance only is that instance's, so an instance's figure is not the
sum of its registers' rows.

    python3 scripts/synth_breakdown.py NETLIST.json TOP [--json] [--depth N]
"""

import collections
import json
import re
import sys

COMB_PREFIXES = ("LUT", "MUXF", "CARRY", "INV")


def kind(cell_type):
    if cell_type.startswith("FD"):
        return "ff"
    if cell_type.startswith("RAMB"):
        return "bram"
    if cell_type.startswith(COMB_PREFIXES):
        return "comb"
    return "other"


def generated(name):
    """A name the front end made up (`_11529_`), not the RTL's."""
    return re.fullmatch(r"_\d+_", name) is not None


def group_name(name):
    """`u_rx.crc_q [3]` and `u_rx.crc_q` are one group: drop a bit index."""
    return re.sub(r"\s*\[\d+\]$", "", name)


USAGE = "usage: synth_breakdown.py NETLIST.json TOP [--json] [--depth N]\n"


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(USAGE)
        return 2
    path, top = argv[0], argv[1]
    if path.startswith("--") or top.startswith("--"):
        sys.stderr.write(USAGE)
        return 2
    as_json = False
    depth = None
    rest = argv[2:]
    while rest:
        if rest[0] == "--json":
            as_json = True
            rest = rest[1:]
        elif rest[0] == "--depth" and len(rest) >= 2 and re.fullmatch(r"[1-9][0-9]*", rest[1]):
            depth = int(rest[1])
            rest = rest[2:]
        else:
            sys.stderr.write(f"error: bad argument '{rest[0]}' (--depth takes a whole number "
                             f"from 1)\n{USAGE}")
            return 2
    with open(path) as f:
        design = json.load(f)
    if top not in design.get("modules", {}):
        sys.stderr.write(f"error: no module '{top}' in {path}\n")
        return 1
    mod = design["modules"][top]
    cells = mod["cells"]

    # the visible name of each net bit: prefer a register's `_q`, then any name Yosys kept
    bit_name = {}
    for name, net in mod["netnames"].items():
        if net.get("hide_name", 0):
            continue
        rank = 2 if generated(name) else 0 if name.endswith("_q") else 1
        for i, b in enumerate(net["bits"]):
            if isinstance(b, str):
                continue
            old = bit_name.get(b)
            if old is None or (rank, len(name)) < old[0]:
                bit_name[b] = ((rank, len(name)), name, i)

    sinks = collections.defaultdict(list)
    for cname, c in cells.items():
        for port, bits in c["connections"].items():
            if c["port_directions"][port] == "input":
                for b in bits:
                    if not isinstance(b, str):
                        sinks[b].append((cname, port))
    port_of_bit = {}
    for pname, p in mod["ports"].items():
        if p["direction"] == "output":
            for b in p["bits"]:
                if not isinstance(b, str):
                    port_of_bit[b] = f"port {pname}"

    def outputs(c):
        return [b for p, bits in c["connections"].items()
                if c["port_directions"][p] == "output" for b in bits if not isinstance(b, str)]

    def named_after(bits):
        """The first RTL-named net reached forward from `bits`, through combinational cells
        and flip-flops, four cells deep at most."""
        seen, frontier = set(), list(bits)
        for _ in range(4):
            nxt = []
            for b in frontier:
                if b in bit_name and not generated(bit_name[b][1]):
                    return group_name(bit_name[b][1]) + " (feeds)"
                for s, _ in sinks[b]:
                    if s not in seen and kind(cells[s]["type"]) in ("comb", "ff"):
                        seen.add(s)
                        nxt.extend(outputs(cells[s]))
            frontier = nxt
        return None

    def register_of(cname):
        """The group of a flip-flop or block RAM: the name of the net its output drives."""
        c = cells[cname]
        outs = outputs(c)
        for b in outs:
            if b in bit_name and not generated(bit_name[b][1]):
                return group_name(bit_name[b][1])
        fed = named_after(outs)
        if fed is not None:
            return fed
        for b in outs:
            if b in bit_name:
                return group_name(bit_name[b][1])
        for b in outs:
            if b in port_of_bit:
                return port_of_bit[b]
        return f"{c['type']} (unnamed)"

    def instance_of(group):
        """The group's first `depth` instance levels (a register's own name is not a level)."""
        if depth is None or group.startswith("port ") or "." not in group:
            return group
        path = group.removesuffix(" (feeds)").split(".")[:-1]
        return ".".join(path[:depth])

    reg_group = {n: instance_of(register_of(n))
                 for n, c in cells.items() if kind(c["type"]) in ("ff", "bram")}

    def direct(cname):
        """What a cell's outputs drive: its combinational sinks and the groups it reaches at once."""
        c = cells[cname]
        comb, reached = [], set()
        for b in outputs(c):
            if b in port_of_bit:
                reached.add(port_of_bit[b])  # a port is its own group at every depth
            for s, _ in sinks[b]:
                k = kind(cells[s]["type"])
                if k == "comb":
                    comb.append(s)
                elif k in ("ff", "bram"):
                    reached.add(reg_group[s])
        return comb, reached

    memo = {}

    def endpoints(start):
        """The register groups a combinational cell's outputs reach, through combinational
        cells (depth first, without recursion: carry chains are long)."""
        if start in memo:
            return memo[start]
        stack, open_ = [start], set()
        while stack:
            cname = stack[-1]
            if cname in memo:
                stack.pop()
                continue
            comb, reached = direct(cname)
            todo = [s for s in comb if s not in memo]
            if todo and cname not in open_:
                open_.add(cname)
                for s in todo:
                    if s in open_:
                        raise SystemExit(f"error: a combinational loop through {s}")
                    stack.append(s)
                continue
            for s in comb:
                reached |= memo[s]
            memo[cname] = frozenset(reached)
            open_.discard(cname)
            stack.pop()
        return memo[start]

    rows = collections.defaultdict(lambda: collections.Counter())
    inv_reset = inv_logic = 0
    for n, c in cells.items():
        k = kind(c["type"])
        if k in ("ff", "bram"):
            rows[reg_group[n]]["ff" if k == "ff" else "bram"] += 1
            continue
        if k != "comb":
            continue
        t = c["type"]
        col = "lut" if t.startswith("LUT") else "inv" if t == "INV" else \
            "carry" if t.startswith("CARRY") else "muxf"
        if t == "INV":
            o = c["connections"]["O"][0]
            if sinks[o] and all(p in ("CLR", "PRE") for _, p in sinks[o]):
                inv_reset += 1
                col = "inv_reset"
            else:
                inv_logic += 1
        ends = endpoints(n)
        if not ends:
            rows["(drives nothing)"][col] += 1
            continue
        share = 1.0 / len(ends)
        for g in ends:
            rows[g][col] += share
            if len(ends) == 1:
                rows[g][col + "_own"] += 1

    table = []
    for g, r in rows.items():
        table.append({
            "register": g,
            "ff": int(r["ff"]),
            "bram": int(r["bram"]),
            "lut": round(r["lut"], 1),
            "lut_own": int(r["lut_own"]),
            "carry": round(r["carry"], 1),
            "muxf": round(r["muxf"], 1),
            "inv_logic": round(r["inv"], 1),
        })
    table.sort(key=lambda row: (-row["lut"], row["register"]))
    luts = sum(1 for c in cells.values() if c["type"].startswith("LUT"))
    totals = {
        "lut": luts,
        "lut_own": sum(r["lut_own"] for r in table),
        "ff": sum(r["ff"] for r in table),
        "inv_reset": inv_reset,
        "inv_logic": inv_logic,
    }
    if as_json:
        print(json.dumps({"top": top, "depth": depth, "registers": table, "totals": totals}))
        return 0
    print(f"{'register' if depth is None else 'instance':<32} {'FF':>5} {'LUT':>8} {'own':>6} {'CARRY':>6} {'MUXF':>6} {'INV':>6}")
    for r in table:
        print(f"{r['register']:<32} {r['ff']:>5} {r['lut']:>8.1f} {r['lut_own']:>6} "
              f"{r['carry']:>6.1f} {r['muxf']:>6.1f} {r['inv_logic']:>6.1f}")
    print(f"{'total':<32} {totals['ff']:>5} {totals['lut']:>8} {totals['lut_own']:>6}")
    print(f"INV: {inv_reset} on asynchronous clears and presets, {inv_logic} in logic")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
