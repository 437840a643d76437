#!/usr/bin/python3
"""OTF2 traces for tests/app_replay_otf2.rs, written by the reference OTF2 library's own writer
(its Python bindings, Debian's python3-otf2 3.0.2), with the definitions and events Score-P
writes for MPI programs: one process and one thread (location) per rank, the MPI paradigm's
COMM_LOCATIONS group listing them in rank order, MPI_COMM_WORLD, MPI regions entered and left
around every call, and the collectives' byte totals as Score-P counts them
(src/adapters/mpi/scorep_mpi_coll.inc.c, without MPI_IN_PLACE).

    /usr/bin/python3 write.py OUTDIR

writes OUTDIR/NAME/traces.otf2 for each trace below and prints, as JSON, what each holds:
ranks, point-to-point messages and bytes, each rank's time outside MPI calls (ns), and the
block sizes of its collectives. The timer counts nanoseconds.

    pingpong     2 ranks, blocking MPI_Send/MPI_Recv back and forth
    ring         4 ranks, MPI_Irecv/MPI_Isend/MPI_Waitall around a ring (a failed MPI_Test
                 between), then an MPI_Sendrecv the other way
    collectives  4 ranks, MPI_Barrier, MPI_Bcast (root 1), MPI_Allreduce, MPI_Alltoall
    rma          the ring, with an MPI_Put at rank 1 (refused: one-sided)
    alltoallv    the collectives with an MPI_Alltoallv (refused: no per-peer sizes)
    subcomm      an MPI_Barrier on a communicator of ranks 0 and 1 of 3
    halo         4 ranks in a line, not periodic: an MPI_Sendrecv each way, with MPI_PROC_NULL
                 at the ends (Score-P writes no message event for MPI_PROC_NULL)
    sendrecvmix  2 ranks: rank 0's MPI_Sendrecv against rank 1's MPI_Recv, then MPI_Send
    rowcoll      4 ranks as a 2x2 grid: an MPI_Bcast on each row's communicator, an
                 MPI_Allreduce on each column's
    ibcast       2 ranks: an MPI_Ibcast and the MPI_Wait that completes it (refused: a
                 non-blocking collective)
    deadlock     2 ranks, each receives before it sends: a program that deadlocks
"""

import json
import os
import sys

import otf2
from otf2.enums import CollectiveOp, GroupType, Paradigm, RegionRole

ROOT_NONE = 0xFFFFFFFF


class Rank:
    """One rank's event writer and clock (ns); it adds up its time outside MPI calls."""

    def __init__(self, writer, rank, regions):
        self.w = writer
        self.rank = rank
        self.regions = regions
        self.t = 0
        self.compute_ns = 0

    def compute(self, ns):
        self.t += ns
        self.compute_ns += ns

    def call(self, name, duration, events=()):
        """An MPI call: its region entered, its events (functions of the time), its region left."""
        region = self.regions[name]
        self.w.enter(self.t, region)
        for e in events:
            e(self.t + 1)
        self.t += duration
        self.w.leave(self.t, region)


def gap(rank, k):
    """A computing gap that differs per rank and step, in ns."""
    return 1000 + 37 * rank + 11 * k


def trace(out, name, n, body):
    """Write trace `name` of `n` ranks; `body(ranks, defs)` writes the calls. Returns its
    summary."""
    path = os.path.join(out, name)
    summary = {"ranks": n, "messages": 0, "bytes": 0, "blocks": {}}
    with otf2.writer.open(path, timer_resolution=1_000_000_000) as tr:
        d = tr.definitions
        node = d.system_tree_node("node")
        locations = []
        for r in range(n):
            process = d.location_group("MPI Rank %d" % r, system_tree_parent=node)
            locations.append(d.location("Master thread", group=process))
        d.group("MPI locations", group_type=GroupType.COMM_LOCATIONS,
                paradigm=Paradigm.MPI, members=locations)
        world_group = d.group("MPI_COMM_WORLD", group_type=GroupType.COMM_GROUP,
                              paradigm=Paradigm.MPI, members=list(range(n)))
        defs = {"world": d.comm("MPI_COMM_WORLD", group=world_group, parent=None), "d": d}
        regions = {"main": d.region("main")}
        for call, role in [
                ("MPI_Init", RegionRole.ARTIFICIAL), ("MPI_Finalize", RegionRole.ARTIFICIAL),
                ("MPI_Send", RegionRole.POINT2POINT), ("MPI_Recv", RegionRole.POINT2POINT),
                ("MPI_Isend", RegionRole.POINT2POINT), ("MPI_Irecv", RegionRole.POINT2POINT),
                ("MPI_Test", RegionRole.POINT2POINT), ("MPI_Waitall", RegionRole.POINT2POINT),
                ("MPI_Sendrecv", RegionRole.POINT2POINT), ("MPI_Barrier", RegionRole.BARRIER),
                ("MPI_Bcast", RegionRole.COLL_ONE2ALL), ("MPI_Allreduce", RegionRole.COLL_ALL2ALL),
                ("MPI_Alltoall", RegionRole.COLL_ALL2ALL),
                ("MPI_Alltoallv", RegionRole.COLL_ALL2ALL), ("MPI_Put", RegionRole.RMA),
                ("MPI_Ibcast", RegionRole.COLL_ONE2ALL), ("MPI_Wait", RegionRole.POINT2POINT)]:
            regions[call] = d.region(call, paradigm=Paradigm.MPI, region_role=role)
        ranks = [Rank(tr.event_writer_from_location(locations[r]), r, regions) for r in range(n)]
        for rk in ranks:
            rk.w.enter(rk.t, regions["main"])
            rk.compute(500 + 3 * rk.rank)
            rk.call("MPI_Init", 20_000)
        body(ranks, defs, summary)
        for rk in ranks:
            rk.compute(700)
            rk.call("MPI_Finalize", 5_000)
            rk.compute(100)
            rk.w.leave(rk.t, regions["main"])
        summary["compute_ns"] = [rk.compute_ns for rk in ranks]
    return summary


def pingpong(ranks, defs, s):
    world = defs["world"]
    a, b = ranks
    for k in range(5):
        size = 64 << k
        a.compute(gap(0, k))
        a.call("MPI_Send", 300, [lambda t, size=size: a.w.mpi_send(t, 1, world, 7, size)])
        b.compute(gap(1, k))
        b.call("MPI_Recv", 2_000, [lambda t, size=size: b.w.mpi_recv(t, 0, world, 7, size)])
        b.compute(gap(1, k + 10))
        b.call("MPI_Send", 300, [lambda t, size=size: b.w.mpi_send(t, 0, world, 8, size)])
        a.compute(gap(0, k + 10))
        a.call("MPI_Recv", 4_000, [lambda t, size=size: a.w.mpi_recv(t, 1, world, 8, size)])
        s["messages"] += 2
        s["bytes"] += 2 * size


def ring(ranks, defs, s):
    world = defs["world"]
    n = len(ranks)
    for k in range(3):
        size = 1000 + 8 * k
        for rk in ranks:
            r = rk.rank
            left, right = (r - 1) % n, (r + 1) % n
            rk.compute(gap(r, k))
            rk.call("MPI_Irecv", 100, [lambda t, rk=rk: rk.w.mpi_irecv_request(t, 1)])
            rk.call("MPI_Isend", 200, [
                lambda t, rk=rk, right=right: rk.w.mpi_isend(t, right, world, 5, size, 2)])
            rk.compute(gap(r, k + 20))
            rk.call("MPI_Test", 50, [lambda t, rk=rk: rk.w.mpi_request_test(t, 2)])
            rk.compute(gap(r, k + 40))
            rk.call("MPI_Waitall", 3_000, [
                lambda t, rk=rk: rk.w.mpi_isend_complete(t, 2),
                lambda t, rk=rk, left=left: rk.w.mpi_irecv(t, left, world, 5, size, 1)])
            s["messages"] += 1
            s["bytes"] += size
    for rk in ranks:
        r = rk.rank
        left, right = (r - 1) % n, (r + 1) % n
        rk.compute(gap(r, 60))
        rk.call("MPI_Sendrecv", 5_000, [
            lambda t, rk=rk, left=left: rk.w.mpi_send(t, left, world, 9, 48),
            lambda t, rk=rk, right=right: rk.w.mpi_recv(t, right, world, 9, 48)])
        s["messages"] += 1
        s["bytes"] += 48


def collective(rk, name, op, comm, root, sent, received):
    rk.call(name, 4_000, [
        lambda t: rk.w.mpi_collective_begin(t),
        lambda t: rk.w.mpi_collective_end(t + 1, op, comm, root, sent, received)])


def collectives(ranks, defs, s, alltoallv=False):
    world = defs["world"]
    n = len(ranks)
    bcast, allreduce, alltoall = 96, 24, 40
    s["blocks"] = {"bcast": bcast, "allreduce": allreduce, "alltoall": alltoall}
    for rk in ranks:
        r = rk.rank
        rk.compute(gap(r, 1))
        collective(rk, "MPI_Barrier", CollectiveOp.BARRIER, world, ROOT_NONE, 0, 0)
        rk.compute(gap(r, 2))
        # Score-P: the root sends N blocks, every rank receives one
        collective(rk, "MPI_Bcast", CollectiveOp.BCAST, world, 1,
                   n * bcast if r == 1 else 0, bcast)
        rk.compute(gap(r, 3))
        collective(rk, "MPI_Allreduce", CollectiveOp.ALLREDUCE, world, ROOT_NONE,
                   n * allreduce, n * allreduce)
        rk.compute(gap(r, 4))
        collective(rk, "MPI_Alltoall", CollectiveOp.ALLTOALL, world, ROOT_NONE,
                   n * alltoall, n * alltoall)
        if alltoallv:
            rk.compute(gap(r, 5))
            collective(rk, "MPI_Alltoallv", CollectiveOp.ALLTOALLV, world, ROOT_NONE,
                       100 + r, 100 + r)


def rma(ranks, defs, s):
    ring(ranks, defs, s)
    win = defs["d"].rma_win("window", defs["world"])
    rk = ranks[1]
    rk.compute(10)
    rk.call("MPI_Put", 100, [lambda t: rk.w.rma_put(t, win, 2, 64, 0)])


def subcomm(ranks, defs, s):
    d = defs["d"]
    group = d.group("ranks 0 and 1", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                    members=[0, 1])
    sub = d.comm("sub", group=group, parent=defs["world"])
    for rk in ranks[:2]:
        rk.compute(gap(rk.rank, 1))
        collective(rk, "MPI_Barrier", CollectiveOp.BARRIER, sub, ROOT_NONE, 0, 0)


def halo(ranks, defs, s):
    world = defs["world"]
    n = len(ranks)
    for k in range(2):
        size = 800 + 16 * k
        # to the right, then to the left; MPI_PROC_NULL beyond the ends
        for step, (to, frm) in enumerate([(1, -1), (-1, 1)]):
            tag = 10 + step
            for rk in ranks:
                r = rk.rank
                dst, src = r + to, r + frm
                events = []
                if 0 <= dst < n:
                    events.append(lambda t, rk=rk, dst=dst, tag=tag, size=size:
                                  rk.w.mpi_send(t, dst, world, tag, size))
                    s["messages"] += 1
                    s["bytes"] += size
                if 0 <= src < n:
                    events.append(lambda t, rk=rk, src=src, tag=tag, size=size:
                                  rk.w.mpi_recv(t, src, world, tag, size))
                rk.compute(gap(r, 10 * k + step))
                rk.call("MPI_Sendrecv", 3_000, events)


def sendrecvmix(ranks, defs, s):
    world = defs["world"]
    a, b = ranks
    for k in range(3):
        size = 200 + 8 * k
        a.compute(gap(0, k))
        a.call("MPI_Sendrecv", 4_000, [
            lambda t, size=size: a.w.mpi_send(t, 1, world, 3, size),
            lambda t, size=size: a.w.mpi_recv(t, 1, world, 4, size)])
        b.compute(gap(1, k))
        b.call("MPI_Recv", 2_000, [lambda t, size=size: b.w.mpi_recv(t, 0, world, 3, size)])
        b.call("MPI_Send", 300, [lambda t, size=size: b.w.mpi_send(t, 0, world, 4, size)])
        s["messages"] += 2
        s["bytes"] += 2 * size


def rowcoll(ranks, defs, s):
    """A 2x2 grid: rank r is in row r // 2 and column r % 2."""
    d = defs["d"]

    def comm(name, members):
        g = d.group(name, group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                    members=members)
        return d.comm(name, group=g, parent=defs["world"])

    rows = [comm("row 0", [0, 1]), comm("row 1", [2, 3])]
    cols = [comm("column 0", [0, 2]), comm("column 1", [1, 3])]
    bcast, allreduce = 96, 24
    s["blocks"] = {"bcast": bcast, "allreduce": allreduce}
    for rk in ranks:
        r = rk.rank
        row, col, me_in_row = rows[r // 2], cols[r % 2], r % 2
        rk.compute(gap(r, 1))
        # Score-P: the root (rank 0 of the row) sends 2 blocks, each rank receives one
        collective(rk, "MPI_Bcast", CollectiveOp.BCAST, row, 0,
                   2 * bcast if me_in_row == 0 else 0, bcast)
        rk.compute(gap(r, 2))
        collective(rk, "MPI_Allreduce", CollectiveOp.ALLREDUCE, col, ROOT_NONE,
                   2 * allreduce, 2 * allreduce)


def ibcast(ranks, defs, s):
    world = defs["world"]
    for rk in ranks:
        r = rk.rank
        rk.compute(gap(r, 1))
        rk.call("MPI_Ibcast", 200, [
            lambda t, rk=rk: rk.w.non_blocking_collective_request(t, 9)])
        rk.compute(gap(r, 2))
        rk.call("MPI_Wait", 2_000, [
            lambda t, rk=rk, r=r: rk.w.non_blocking_collective_complete(
                t, CollectiveOp.BCAST, world, 0, 64 if r == 0 else 0, 32, 9)])


def deadlock(ranks, defs, s):
    world = defs["world"]
    for rk in ranks:
        other = 1 - rk.rank
        rk.compute(gap(rk.rank, 1))
        rk.call("MPI_Recv", 1_000, [lambda t, rk=rk, o=other: rk.w.mpi_recv(t, o, world, 0, 4)])
        rk.call("MPI_Send", 300, [lambda t, rk=rk, o=other: rk.w.mpi_send(t, o, world, 0, 4)])
        s["messages"] += 1
        s["bytes"] += 4


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    summary = {
        "pingpong": trace(out, "pingpong", 2, pingpong),
        "ring": trace(out, "ring", 4, ring),
        "collectives": trace(out, "collectives", 4, collectives),
        "rma": trace(out, "rma", 4, rma),
        "alltoallv": trace(out, "alltoallv", 4,
                           lambda r, d, s: collectives(r, d, s, alltoallv=True)),
        "subcomm": trace(out, "subcomm", 3, subcomm),
        "halo": trace(out, "halo", 4, halo),
        "sendrecvmix": trace(out, "sendrecvmix", 2, sendrecvmix),
        "rowcoll": trace(out, "rowcoll", 4, rowcoll),
        "ibcast": trace(out, "ibcast", 2, ibcast),
        "deadlock": trace(out, "deadlock", 2, deadlock),
    }
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
