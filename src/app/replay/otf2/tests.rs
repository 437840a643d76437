//! The conversion of OTF2 events into actions, on traces made by hand (no OTF2 library):
//! `tests/app_replay_otf2.rs` reads traces the library's own writer wrote.

use super::collective::actions;
use super::*;
use crate::app::replay::simgrid::Action;

const RES: u64 = 1_000_000_000;
const MAIN: u64 = 1;
/// Any MPI call (the replay looks at the paradigm, not the name).
const MPI: u64 = 2;
const WORLD: u64 = 0;
/// Ranks 2 and 0 of the world, in that order.
const SUB: u64 = 5;

/// A world of `n` ranks as Score-P defines it, without events.
fn world(n: u64) -> Raw {
    let mut d = Defs {
        clock: Some(Clock {
            resolution: RES,
            offset: 0,
            length: 0,
        }),
        ..Defs::default()
    };
    for (id, s) in [(0, ""), (1, "main"), (2, "MPI_Call"), (3, "MPI_COMM_WORLD")] {
        d.strings.insert(id, s.into());
    }
    for l in 0..n {
        d.locations.push(LocationDef {
            id: l,
            name: 0,
            group: l,
            events: 0,
        });
    }
    d.regions.insert(
        MAIN,
        RegionDef {
            name: 1,
            mpi: false,
        },
    );
    d.regions.insert(MPI, RegionDef { name: 2, mpi: true });
    let group = |kind, members: Vec<u64>| GroupDef {
        name: 0,
        kind,
        mpi: true,
        members,
    };
    d.groups
        .insert(0, group(GroupKind::CommLocations, (0..n).collect()));
    d.groups
        .insert(1, group(GroupKind::CommGroup, (0..n).collect()));
    d.groups.insert(2, group(GroupKind::CommGroup, vec![2, 0]));
    let comm = |group| CommDef {
        name: 3,
        group,
        parent: u64::MAX,
    };
    d.comms.insert(WORLD, comm(1));
    d.comms.insert(SUB, comm(2));
    Raw {
        defs: d,
        locations: (0..n).map(|l| (l, Vec::new())).collect(),
        other_names: Vec::new(),
    }
}

/// `raw` converted, a rank without events given one region (a rank always has events).
fn conv(raw: &Raw) -> Result<TiTrace, String> {
    let mut raw = raw.clone();
    for (_, evs) in raw.locations.iter_mut().filter(|(_, e)| e.is_empty()) {
        for (pos, ev) in [(1, Ev::Enter(MAIN)), (2, Ev::Leave(MAIN))] {
            evs.push(Event { pos, time: 0, ev });
        }
    }
    convert(&raw, "t.otf2")
}

/// Append event `ev` at `time` to rank `r`'s location.
fn ev(raw: &mut Raw, r: usize, time: u64, ev: Ev) {
    let evs = &mut raw.locations[r].1;
    let pos = evs.len() as u64 + 1;
    evs.push(Event { pos, time, ev });
}

/// An MPI call at rank `r` from `t0` to `t1` holding `evs` (at `t0`).
fn call(raw: &mut Raw, r: usize, t0: u64, t1: u64, evs: &[Ev]) {
    ev(raw, r, t0, Ev::Enter(MPI));
    for &e in evs {
        ev(raw, r, t0, e);
    }
    ev(raw, r, t1, Ev::Leave(MPI));
}

fn p2p(peer: u32, tag: u32, bytes: u64) -> P2p {
    P2p {
        peer,
        comm: WORLD,
        tag,
        bytes,
    }
}

fn other(raw: &mut Raw, name: &str) -> Ev {
    raw.other_names.push(name.into());
    Ev::Other(raw.other_names.len() as u16 - 1)
}

/// Rank `r`'s actions, without locations.
fn acts(t: &TiTrace, r: usize) -> Vec<Action> {
    t.actions(r).cloned().collect()
}

fn secs(ns: u64) -> Action {
    Action::ComputeTime {
        seconds: ns as f64 / RES as f64,
    }
}

#[test]
fn a_blocking_send_and_receive_become_send_and_recv_and_the_time_between_calls_computing() {
    let mut raw = world(2);
    ev(&mut raw, 0, 100, Ev::Enter(MAIN));
    call(&mut raw, 0, 600, 650, &[Ev::MpiSend(p2p(1, 7, 64))]);
    ev(&mut raw, 0, 900, Ev::Leave(MAIN));
    ev(&mut raw, 1, 0, Ev::Enter(MAIN));
    call(&mut raw, 1, 200, 700, &[Ev::MpiRecv(p2p(0, 7, 64))]);
    ev(&mut raw, 1, 700, Ev::Leave(MAIN));
    let t = conv(&raw).unwrap();
    assert_eq!(
        acts(&t, 0),
        [
            Action::Init,
            secs(500),
            Action::Send {
                dst: 1,
                tag: 7,
                bytes: 64
            },
            secs(250),
            Action::Finalize
        ]
    );
    assert_eq!(
        acts(&t, 1),
        [
            Action::Init,
            secs(200),
            Action::Recv {
                src: Some(0),
                tag: Some(7),
                bytes: 64
            },
            Action::Finalize
        ]
    );
    // every action says where it came from: the rank and the event's position
    let (_, loc) = &t.ranks[0][2];
    assert_eq!((loc.file.as_str(), loc.line), ("t.otf2 rank 0", 3));
}

#[test]
fn a_wait_waits_for_the_requests_its_call_completed() {
    let mut raw = world(2);
    for r in 0..2usize {
        let peer = 1 - r as u32;
        call(&mut raw, r, 10, 11, &[Ev::MpiIrecvRequest(5)]);
        call(&mut raw, r, 20, 21, &[Ev::MpiIsend(p2p(peer, 3, 100), 6)]);
        call(
            &mut raw,
            r,
            30,
            90,
            &[Ev::MpiIsendComplete(6), Ev::MpiIrecv(p2p(peer, 3, 100), 5)],
        );
    }
    let t = conv(&raw).unwrap();
    let a = acts(&t, 1);
    // Init, Irecv, computing, Isend, computing, the wait
    assert_eq!(
        a[1],
        Action::Irecv {
            src: Some(0),
            tag: Some(3),
            bytes: 100
        },
        "the receive takes the sender and tag of the message it got: {a:?}"
    );
    assert_eq!(
        a[3],
        Action::Isend {
            dst: 0,
            tag: 3,
            bytes: 100
        }
    );
    assert_eq!(
        a[5],
        Action::WaitStarted {
            starts: vec![3, 1],
            blocking: false
        },
        "{a:?}"
    );
}

#[test]
fn a_sendrecv_starts_both_halves_and_ends_them_together() {
    let mut raw = world(2);
    for r in 0..2usize {
        let peer = 1 - r as u32;
        call(
            &mut raw,
            r,
            0,
            5,
            &[Ev::MpiSend(p2p(peer, 1, 8)), Ev::MpiRecv(p2p(peer, 1, 8))],
        );
    }
    let t = conv(&raw).unwrap();
    assert_eq!(
        acts(&t, 0)[1..4],
        [
            Action::Isend {
                dst: 1,
                tag: 1,
                bytes: 8
            },
            Action::Irecv {
                src: Some(1),
                tag: Some(1),
                bytes: 8
            },
            Action::WaitStarted {
                starts: vec![1, 2],
                blocking: true
            }
        ]
    );
}

#[test]
fn a_cancelled_request_is_left_out_and_the_waits_renumbered() {
    let mut raw = world(2);
    call(&mut raw, 0, 0, 1, &[Ev::MpiIrecvRequest(1)]);
    call(&mut raw, 0, 2, 3, &[Ev::MpiRequestCancelled(1)]);
    call(&mut raw, 0, 4, 5, &[Ev::MpiIsend(p2p(1, 0, 4), 2)]);
    call(&mut raw, 0, 6, 7, &[Ev::MpiRequestTest(2)]);
    call(&mut raw, 0, 8, 9, &[Ev::MpiIsendComplete(2)]);
    call(&mut raw, 1, 0, 9, &[Ev::MpiRecv(p2p(0, 0, 4))]);
    let t = conv(&raw).unwrap();
    let a = acts(&t, 0);
    // a failed test is time inside MPI: nothing
    assert_eq!(
        a[1..],
        [
            secs(1),
            secs(1),
            Action::Isend {
                dst: 1,
                tag: 0,
                bytes: 4
            },
            secs(1),
            secs(1),
            Action::WaitStarted {
                starts: vec![3],
                blocking: false
            },
            Action::Finalize
        ],
        "{a:?}"
    );
}

#[test]
fn a_sub_communicators_ranks_are_world_ranks_and_its_tags_kept_apart() {
    let mut raw = world(3);
    // SUB = world ranks (2, 0): its rank 0 is world rank 2
    let sub = |peer, tag| P2p {
        peer,
        comm: SUB,
        tag,
        bytes: 16,
    };
    call(&mut raw, 0, 0, 1, &[Ev::MpiSend(sub(0, 9))]);
    call(&mut raw, 0, 2, 3, &[Ev::MpiSend(p2p(2, 9, 16))]);
    call(&mut raw, 2, 0, 1, &[Ev::MpiRecv(sub(1, 9))]);
    call(&mut raw, 2, 2, 3, &[Ev::MpiRecv(p2p(0, 9, 16))]);
    let t = conv(&raw).unwrap();
    let a = acts(&t, 0);
    // WORLD is communicator number 0, SUB number 1: 9 + 2^24
    assert_eq!(
        a[1],
        Action::Send {
            dst: 2,
            tag: 9 + (1 << 24),
            bytes: 16
        }
    );
    assert_eq!(
        a[3],
        Action::Send {
            dst: 2,
            tag: 9,
            bytes: 16
        }
    );
    assert_eq!(
        acts(&t, 2)[1],
        Action::Recv {
            src: Some(0),
            tag: Some(9 + (1 << 24)),
            bytes: 16
        }
    );
    // with two communicators a tag of 2^24 could not be told apart
    let mut raw2 = raw.clone();
    call(&mut raw2, 1, 0, 1, &[Ev::MpiSend(p2p(0, 1 << 24, 1))]);
    let e = conv(&raw2).unwrap_err();
    assert!(e.contains("rank 1") && e.contains("tag 16777216"), "{e}");
}

fn coll(op: u32, root: u32, sent: u64, received: u64) -> Ev {
    Ev::MpiCollectiveEnd(Coll {
        op,
        comm: WORLD,
        root,
        sent,
        received,
    })
}

#[test]
fn a_collective_is_matched_across_ranks_and_sized_from_their_totals() {
    let n = 4;
    let mut raw = world(n);
    let b = 24;
    for r in 0..n as usize {
        // Score-P's totals: a bcast's root sends N blocks, everyone receives one
        let sent = if r == 1 { n * b } else { 0 };
        call(
            &mut raw,
            r,
            0,
            9,
            &[Ev::MpiCollectiveBegin, coll(op::BCAST, 1, sent, b)],
        );
        call(
            &mut raw,
            r,
            10,
            19,
            &[
                Ev::MpiCollectiveBegin,
                coll(op::ALLREDUCE, op::ROOT_NONE, n * 8, n * 8),
            ],
        );
    }
    let t = conv(&raw).unwrap();
    for r in 0..n as usize {
        let a = acts(&t, r);
        assert_eq!(a[1], Action::Bcast { bytes: b, root: 1 }, "rank {r}");
        assert_eq!(
            a[3],
            Action::Allreduce {
                bytes: 8,
                flops: 0.0
            },
            "rank {r}"
        );
    }
}

#[test]
fn per_peer_sizes_follow_score_ps_totals_in_place_or_not() {
    let n = 4u64;
    let view = |f: &dyn Fn(u64) -> (u64, u64)| -> Vec<(u64, u64)> { (0..n).map(f).collect() };
    // gather(v): each rank's block is what it sent; the root gets them all
    let g = actions(
        op::GATHERV,
        2,
        &view(&|j| if j == 2 { (3, 11) } else { (j * j % 8, 0) }),
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        g[2],
        Action::Gatherv {
            send_bytes: 3,
            recv_bytes: vec![0, 1, 3, 1],
            root: 2
        }
    );
    // scatter: what each rank received
    let s = actions(
        op::SCATTER,
        0,
        &view(&|j| if j == 0 { (20, 5) } else { (0, 5) }),
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        s[0],
        Action::Scatterv {
            send_bytes: vec![5; 4],
            recv_bytes: 5,
            root: 0
        }
    );
    assert_eq!(
        s[3],
        Action::Scatterv {
            send_bytes: vec![],
            recv_bytes: 5,
            root: 0
        }
    );
    // allgatherv: rank j sent N b_j and received every block; in place N-1 and all but its own
    let bj = [1u64, 2, 3, 4];
    let sum: u64 = bj.iter().sum();
    for in_place in [false, true] {
        let k = if in_place { n - 1 } else { n };
        let v = view(&|j| {
            let b = bj[j as usize];
            (k * b, if in_place { sum - b } else { sum })
        });
        let a = actions(op::ALLGATHERV, op::ROOT_NONE, &v).unwrap().unwrap();
        assert_eq!(
            a[1],
            Action::Allgatherv {
                send_bytes: 2,
                recv_bytes: bj.to_vec()
            },
            "in place: {in_place}"
        );
    }
    // reduce_scatter: rank j received N r_j and sent the whole vector
    let rj = [8u64, 0, 16, 8];
    let tot: u64 = rj.iter().sum();
    let a = actions(
        op::REDUCE_SCATTER,
        op::ROOT_NONE,
        &view(&|j| (tot, n * rj[j as usize])),
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        a[0],
        Action::Reducescatter {
            recv_bytes: rj.to_vec(),
            flops: 0.0
        }
    );
    // scan: rank j sent (N-j) b and received (j+1) b; exscan one block fewer each
    let a = actions(
        op::SCAN,
        op::ROOT_NONE,
        &view(&|j| ((n - j) * 8, (j + 1) * 8)),
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        a[3],
        Action::Scan {
            bytes: 8,
            flops: 0.0
        }
    );
    let a = actions(
        op::EXSCAN,
        op::ROOT_NONE,
        &view(&|j| ((n - j - 1) * 8, j * 8)),
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        a[0],
        Action::Exscan {
            bytes: 8,
            flops: 0.0
        }
    );
    // alltoall: N blocks, or N-1 when N does not divide the total (in place)
    for (total, b) in [(64u64, 16u64), (30, 10)] {
        let a = actions(op::ALLTOALL, op::ROOT_NONE, &view(&|_| (total, total)))
            .unwrap()
            .unwrap();
        assert_eq!(
            a[0],
            Action::Alltoall {
                send_bytes: b,
                recv_bytes: b
            },
            "{total}"
        );
    }
    // reduce: the non-roots' blocks
    let a = actions(
        op::REDUCE,
        3,
        &view(&|j| if j == 3 { (8, 32) } else { (8, 0) }),
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        a[0],
        Action::Reduce {
            bytes: 8,
            root: 3,
            flops: 0.0
        }
    );
    // handles move nothing
    assert_eq!(
        actions(op::CREATE_HANDLE, op::ROOT_NONE, &view(&|_| (0, 0))).unwrap(),
        None
    );
}

#[test]
fn totals_that_fit_no_reading_and_per_peer_sizes_no_total_gives_are_errors() {
    let e = actions(
        op::ALLTOALL,
        op::ROOT_NONE,
        &[(7, 7), (7, 7), (7, 7), (7, 7)],
    )
    .unwrap_err();
    assert!(e.contains("rank 0 sent 7"), "{e}");
    let e = actions(op::ALLREDUCE, op::ROOT_NONE, &[(8, 8), (16, 16)]).unwrap_err();
    assert!(e.contains("disagree"), "{e}");
    let e = actions(op::BCAST, 0, &[(16, 8), (0, 8), (0, 4)]).unwrap_err();
    assert!(e.contains("rank 2 received 4"), "{e}");
    let e = actions(op::ALLTOALLV, op::ROOT_NONE, &[(8, 8), (8, 8)]).unwrap_err();
    assert!(e.contains("each peer"), "{e}");
    let e = actions(op::BCAST, 5, &[(0, 0); 2]).unwrap_err();
    assert!(e.contains("root 5"), "{e}");
    let e = actions(99, op::ROOT_NONE, &[(0, 0)]).unwrap_err();
    assert!(e.contains("99"), "{e}");
}

/// `raw` fails to convert with a message holding every one of `parts`.
fn fails(raw: &Raw, parts: &[&str]) {
    let e = conv(raw).unwrap_err();
    for p in parts {
        assert!(e.contains(p), "{p:?} not in: {e}");
    }
}

#[test]
fn what_the_replay_cannot_do_is_an_error_naming_the_rank_and_the_event() {
    // a collective on a sub-communicator by a rank that is not one of its members
    let mut raw = world(3);
    for r in [0, 1] {
        let c = Coll {
            op: op::BARRIER,
            comm: SUB,
            root: op::ROOT_NONE,
            sent: 0,
            received: 0,
        };
        call(&mut raw, r, 0, 1, &[Ev::MpiCollectiveEnd(c)]);
    }
    fails(
        &raw,
        &[
            "rank 1",
            "event 2",
            "MPI_Barrier",
            "members are ranks [2, 0]",
            "not one of them",
        ],
    );
    // ... and by one member only
    let mut raw = world(3);
    let c = Coll {
        op: op::BARRIER,
        comm: SUB,
        root: op::ROOT_NONE,
        sent: 0,
        received: 0,
    };
    call(&mut raw, 2, 0, 1, &[Ev::MpiCollectiveEnd(c)]);
    fails(
        &raw,
        &[
            "MPI_Barrier",
            "rank 0 has 0 collectives on it, rank 2 1",
            "misses",
        ],
    );

    // one-sided communication
    let mut raw = world(2);
    ev(&mut raw, 1, 0, Ev::Enter(MAIN));
    let put = other(&mut raw, "RmaPut");
    ev(&mut raw, 1, 5, put);
    fails(&raw, &["rank 1", "event 2", "RmaPut", "one-sided"]);

    // a receive that never completes: its sender is unknown
    let mut raw = world(2);
    call(&mut raw, 1, 0, 1, &[Ev::MpiIrecvRequest(4)]);
    fails(&raw, &["rank 1", "event 2", "request 4", "never completes"]);

    // a completion of a request nobody started
    let mut raw = world(2);
    call(&mut raw, 0, 0, 1, &[Ev::MpiIsendComplete(3)]);
    fails(
        &raw,
        &["rank 0", "event 2", "request 3", "no event started"],
    );

    // a peer outside its communicator, a communicator that is not defined
    let mut raw = world(2);
    call(&mut raw, 0, 0, 1, &[Ev::MpiSend(p2p(2, 0, 1))]);
    fails(&raw, &["rank 0", "event 2", "peer rank 2", "of 2 ranks"]);
    let mut raw = world(2);
    let mut p = p2p(1, 0, 1);
    p.comm = 77;
    call(&mut raw, 0, 0, 1, &[Ev::MpiSend(p)]);
    fails(&raw, &["rank 0", "communicator 77 is not defined"]);

    // a rank that misses a collective the others call
    let mut raw = world(2);
    call(&mut raw, 0, 0, 1, &[coll(op::BARRIER, op::ROOT_NONE, 0, 0)]);
    fails(&raw, &["rank 0", "event 2", "rank 1 has 0 collectives"]);

    // ranks calling different collectives at the same place
    let mut raw = world(2);
    call(&mut raw, 0, 0, 1, &[coll(op::BARRIER, op::ROOT_NONE, 0, 0)]);
    call(
        &mut raw,
        1,
        0,
        1,
        &[coll(op::ALLREDUCE, op::ROOT_NONE, 8, 8)],
    );
    fails(
        &raw,
        &["rank 1", "MPI_Allreduce", "MPI_Barrier", "do not match"],
    );

    // the trace cut inside an MPI call; time running backwards; an unbalanced Leave
    let mut raw = world(2);
    ev(&mut raw, 0, 0, Ev::Enter(MPI));
    fails(
        &raw,
        &["rank 0", "event 1", "ends inside MPI call", "cut short"],
    );
    let mut raw = world(2);
    ev(&mut raw, 0, 10, Ev::Enter(MAIN));
    ev(&mut raw, 0, 5, Ev::Leave(MAIN));
    fails(&raw, &["rank 0", "event 2", "timestamp 5"]);
    let mut raw = world(2);
    ev(&mut raw, 1, 0, Ev::Enter(MAIN));
    ev(&mut raw, 1, 1, Ev::Leave(MPI));
    fails(&raw, &["rank 1", "event 2", "\"MPI_Call\"", "\"main\""]);

    // an MPI event on a thread that is no rank's
    let mut raw = world(2);
    raw.defs.locations.push(LocationDef {
        id: 9,
        name: 0,
        group: 0,
        events: 1,
    });
    raw.locations.push((9, Vec::new()));
    ev(&mut raw, 2, 0, Ev::MpiSend(p2p(1, 0, 1)));
    fails(&raw, &["location 9", "event 1", "no MPI rank's"]);

    // a rank without events
    let mut raw = world(2);
    ev(&mut raw, 0, 0, Ev::Enter(MAIN));
    let e = convert(&raw, "t.otf2").unwrap_err();
    assert!(e.contains("rank 1 (location 1) has no events"), "{e}");

    // no list of MPI ranks, no clock
    let mut raw = world(2);
    raw.defs.groups.remove(&0);
    fails(&raw, &["no list of MPI ranks"]);
    let mut raw = world(2);
    raw.defs.clock = None;
    fails(&raw, &["no clock properties"]);
}

#[test]
fn events_that_move_nothing_are_read_and_left_out() {
    let mut raw = world(2);
    for name in [
        "Metric",
        "ThreadFork",
        "IoOperationBegin",
        "ProgramBegin",
        "BufferFlush",
    ] {
        let e = other(&mut raw, name);
        ev(&mut raw, 0, 0, e);
    }
    // a handle's creation moves nothing, even on a sub-communicator
    let c = Coll {
        op: op::CREATE_HANDLE,
        comm: SUB,
        root: op::ROOT_NONE,
        sent: 0,
        received: 0,
    };
    call(&mut raw, 0, 0, 1, &[Ev::MpiCollectiveEnd(c)]);
    let t = conv(&raw).unwrap();
    assert_eq!(acts(&t, 0), [Action::Init, Action::Finalize]);
    for name in [
        "CallingContextEnter",
        "MeasurementOnOff",
        "Unknown",
        "NonBlockingCollectiveRequest",
    ] {
        let mut raw = world(2);
        let e = other(&mut raw, name);
        ev(&mut raw, 1, 0, e);
        fails(&raw, &["rank 1", "event 1", name]);
    }
}

#[test]
fn an_mpi_event_outside_any_region_is_a_call_of_its_own() {
    let mut raw = world(2);
    ev(&mut raw, 0, 0, Ev::Enter(MAIN));
    ev(&mut raw, 0, 40, Ev::MpiSend(p2p(1, 0, 2)));
    ev(&mut raw, 0, 100, Ev::Leave(MAIN));
    ev(&mut raw, 1, 0, Ev::MpiRecv(p2p(0, 0, 2)));
    let t = conv(&raw).unwrap();
    assert_eq!(
        acts(&t, 0)[1..4],
        [
            secs(40),
            Action::Send {
                dst: 1,
                tag: 0,
                bytes: 2
            },
            secs(60)
        ]
    );
}

#[cfg(not(feature = "otf2"))]
#[test]
fn without_the_feature_reading_says_how_to_build_with_it() {
    let anchor = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let e = read(Path::new(anchor)).unwrap_err();
    assert!(
        e.contains("without OTF2 support") && e.contains("--features otf2"),
        "{e}"
    );
}

#[cfg(feature = "otf2")]
#[test]
fn with_the_feature_the_library_reads_and_names_what_it_cannot() {
    let anchor = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let e = read(Path::new(anchor)).unwrap_err();
    assert!(e.contains("the OTF2 library"), "{e}");
}

#[cfg(feature = "otf2")]
#[test]
fn what_the_writer_writes_the_reader_reads_back() {
    let mut raw = world(2);
    call(&mut raw, 0, 5, 9, &[Ev::MpiIsend(p2p(1, 4, 100), 7)]);
    call(&mut raw, 0, 9, 20, &[Ev::MpiIsendComplete(7)]);
    call(&mut raw, 1, 0, 3, &[Ev::MpiIrecvRequest(2)]);
    call(&mut raw, 1, 3, 30, &[Ev::MpiIrecv(p2p(0, 4, 100), 2)]);
    call(&mut raw, 1, 31, 32, &[Ev::MpiSend(p2p(0, 1, 8))]);
    call(&mut raw, 0, 21, 40, &[Ev::MpiRecv(p2p(1, 1, 8))]);
    let ranks: Vec<Vec<Event>> = raw.locations.iter().map(|(_, e)| e.clone()).collect();
    let dir = std::env::temp_dir().join(format!("exanet-otf2-rw-{}", std::process::id()));
    // region k of the writer is the k-th name
    write(&dir, RES, &["unused", "main", "MPI_Call"], &ranks).unwrap();
    let back = read(&dir.join("traces.otf2")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let got: Vec<Vec<Event>> = back.locations.iter().map(|(_, e)| e.clone()).collect();
    assert_eq!(got, ranks);
    assert_eq!(back.defs.clock.map(|c| c.resolution), Some(RES));
    assert_eq!(
        conv(&back)
            .unwrap()
            .ranks
            .iter()
            .map(|r| r.len())
            .collect::<Vec<_>>(),
        conv(&raw)
            .unwrap()
            .ranks
            .iter()
            .map(|r| r.len())
            .collect::<Vec<_>>()
    );
    let mut bad = ranks.clone();
    bad[0].push(Event {
        pos: 9,
        time: 50,
        ev: Ev::MpiCollectiveBegin,
    });
    let e = write(&dir, RES, &["a", "b", "c"], &bad).unwrap_err();
    assert!(e.contains("rank 0, event 9"), "{e}");
}

/// A collective on a communicator of some ranks runs among its members (issue 31 §5): every
/// member gets the action worked out in the communicator's rank order (its root a rank in
/// it), on the trace's communicator of their world ranks in that order; the others get none.
#[test]
fn a_collective_on_a_sub_communicator_runs_among_its_members() {
    // SUB = world ranks (2, 0); a bcast from its rank 1 (world rank 0) of 48 bytes, as
    // Score-P counts it: the root sends 2 blocks, every member receives one
    let mut raw = world(3);
    for (r, sent) in [(0, 96), (2, 0)] {
        let c = Coll {
            op: op::BCAST,
            comm: SUB,
            root: 1,
            sent,
            received: 48,
        };
        call(&mut raw, r, 0, 1, &[Ev::MpiCollectiveEnd(c)]);
    }
    let t = conv(&raw).unwrap();
    assert_eq!(t.comms.len(), 1);
    assert_eq!(&*t.comms[0], &[2, 0]);
    let on = Action::OnComm {
        comm: 0,
        action: Box::new(Action::Bcast { bytes: 48, root: 1 }),
    };
    for r in [0, 2] {
        assert!(acts(&t, r).contains(&on), "rank {r}: {:?}", acts(&t, r));
    }
    assert!(acts(&t, 1)
        .iter()
        .all(|a| !matches!(a, Action::OnComm { .. } | Action::Bcast { .. })));
}
