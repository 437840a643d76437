//! Replay of real MPI traces (issue 12 §1): the repository's MPI programs compiled with
//! SimGrid's `smpicc`, traced with `smpirun -trace-ti` (installed by the test command,
//! `scripts/setup.sh`'s `need_simgrid`), and replayed on the network by `exanet app replay`.
//! The replayed point-to-point messages and bytes are the program's.

mod common;

use common::{exanet, exanet_json, TempDir};
use std::path::{Path, PathBuf};
use std::process::Command;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/simgrid")
}

/// A program traced by [`trace`]: the index file smpirun wrote, in a directory removed when
/// this is dropped.
struct Traced {
    _dir: TempDir,
    index: PathBuf,
}

impl Traced {
    fn index(&self) -> &str {
        self.index.to_str().unwrap()
    }
}

/// Compile `prog.c` of the fixtures with smpicc and trace it on `ranks` ranks in a fresh
/// directory (its computations measured, or not: `compute`).
fn trace(prog: &str, ranks: u32, compute: bool) -> Traced {
    let tmp = TempDir::new(&format!("smpi-{prog}"));
    let dir = tmp.0.clone();
    let src = data().join(prog).join(format!("{prog}.c"));
    let o = Command::new("smpicc")
        .arg("-o")
        .arg(dir.join(prog))
        .arg(&src)
        .output()
        .expect("smpicc runs (the test command installs libsimgrid-dev)");
    assert!(
        o.status.success(),
        "smpicc: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = Command::new("smpirun")
        .current_dir(&dir)
        .args(["-np", &ranks.to_string(), "-platform"])
        .arg(data().join("platform.xml"))
        .arg("-hostfile")
        .arg(data().join("hosts.txt"))
        .args(["-trace-ti", "--cfg=tracing/filename:ti.txt"])
        .args((!compute).then_some("--cfg=smpi/simulate-computation:no"))
        .arg(format!("./{prog}"))
        .output()
        .expect("smpirun runs");
    assert!(
        o.status.success(),
        "smpirun: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    Traced {
        index: dir.join("ti.txt"),
        _dir: tmp,
    }
}

#[test]
fn traces_of_real_mpi_programs_replay_with_the_programs_messages() {
    // (program, ranks, point-to-point messages and bytes the program sends: ring.c sends 256
    // ints around the ring and 4 ints to each neighbour; p2p.c's are counted in its comments;
    // whether SimGrid traces its measured computations). p2p.c's wildcard receives take whichever
    // message comes first, and a TI trace records the wildcard, not the message it took: with
    // measured (so varying) computations the replay may pair them otherwise than the traced run,
    // and a rank then waiting for the message a wildcard took is a deadlock, which the replay
    // reports (exit 1). Without computations the trace, and so the replay, is the same each time.
    for (prog, ranks, messages, bytes, compute) in [
        ("ring", 4, 8, 4160, true),
        ("p2p", 3, 17, 759, false),
        ("colls", 4, 0, 0, true),
    ] {
        let ti = trace(prog, ranks, compute);
        let t = ti.index();
        for topo in ["torus:2x2", "dragonfly:p=2,a=2,h=1"] {
            let routing = if topo.starts_with("dragonfly") {
                "min"
            } else {
                "ecube"
            };
            let v = exanet_json(&[
                "app",
                "replay",
                t,
                "--topology",
                topo,
                "--routing",
                routing,
                "--json",
            ]);
            assert_eq!(v["traced_messages"], messages, "{prog} {topo}");
            assert_eq!(v["traced_bytes"], bytes, "{prog} {topo}");
            assert_eq!(v["p2p_messages_sent"], messages, "{prog} {topo}");
            assert_eq!(v["p2p_bytes_sent"], bytes, "{prog} {topo}");
            assert_eq!(v["messages_sent"], v["messages_received"], "{prog} {topo}");
            assert_eq!(v["ranks"], ranks, "{prog} {topo}");
            assert!(v["cycles"].as_u64().unwrap() > 0, "{prog} {topo}");
            let rt = v["ranks_times"].as_array().unwrap();
            assert_eq!(rt.len(), ranks as usize);
            for r in rt {
                let sum: u64 = ["compute_cycles", "communication_cycles", "wait_cycles"]
                    .iter()
                    .map(|k| r[k].as_u64().unwrap())
                    .sum();
                assert!(sum <= r["finished_cycles"].as_u64().unwrap(), "{prog}: {r}");
            }
            if prog == "colls" {
                assert!(
                    v["messages_sent"].as_u64().unwrap() > 0,
                    "the collectives' messages"
                );
            }
            // issue 31 §3: per collective, by its MPI call; they and the point-to-point
            // messages are all the messages sent
            let colls = v["collectives"].as_array().unwrap();
            let coll_msgs: u64 = colls.iter().map(|c| c["messages"].as_u64().unwrap()).sum();
            assert_eq!(
                coll_msgs + messages,
                v["messages_sent"].as_u64().unwrap(),
                "{prog}: {v}"
            );
            let calls: u64 = colls.iter().map(|c| c["calls"].as_u64().unwrap()).sum();
            assert_eq!(calls, v["collectives_per_rank"].as_u64().unwrap(), "{prog}");
            if prog == "ring" {
                let names: Vec<&str> = colls.iter().map(|c| c["call"].as_str().unwrap()).collect();
                assert_eq!(
                    names,
                    [
                        "MPI_Allreduce",
                        "MPI_Alltoall",
                        "MPI_Barrier",
                        "MPI_Bcast",
                        "MPI_Gather"
                    ],
                    "{v}"
                );
            }
        }
    }
}

#[test]
fn computing_takes_the_traced_amount_at_the_flop_rate() {
    // the same trace twice as fast computes in about half the time
    let t = data().join("ring/ti.txt");
    let t = t.to_str().unwrap();
    let at = |rate: &str| {
        let v = exanet_json(&[
            "app",
            "replay",
            t,
            "--topology",
            "torus:2x2",
            "--flops-per-second",
            rate,
            "--json",
        ]);
        v["ranks_times"][0]["compute_cycles"].as_f64().unwrap()
    };
    let (slow, fast) = (at("20000"), at("40000"));
    assert!((slow / fast - 2.0).abs() < 0.01, "{slow} {fast}");
}

#[test]
fn bad_traces_and_options_exit_2_naming_the_problem() {
    let tmp = TempDir::new("badti");
    let dir = &tmp.0;
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "0 init\n0 send 1 7 x 1\n0 finalize\n").unwrap();
    let ring = data().join("ring/ti.txt");
    for (args, want) in [
        (
            vec![bad.to_str().unwrap().to_string()],
            "bad.txt:2".to_string(),
        ),
        (
            vec![dir.join("none.txt").to_str().unwrap().to_string()],
            "none.txt".to_string(),
        ),
        (
            vec![
                ring.to_str().unwrap().to_string(),
                "--flops-per-second".into(),
                "0".into(),
            ],
            "--flops-per-second".to_string(),
        ),
        (
            vec![
                ring.to_str().unwrap().to_string(),
                "--format".into(),
                "otf3".into(),
            ],
            "otf3".to_string(),
        ),
    ] {
        let mut a = vec!["app".to_string(), "replay".to_string()];
        a.extend(args);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = exanet(&a);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{a:?}: {err}");
        assert!(err.contains(&want), "{a:?}: {err}");
    }
}

/// Issue 31 §1: ordinary, correct MPI programs that a SimGrid TI trace describes only in part
/// replay with the program's messages: a halo exchange whose edge ranks receive from
/// MPI_PROC_NULL (written -333, as MPI_ANY_SOURCE), and an MPI_Sendrecv against a plain
/// MPI_Recv and MPI_Send. Collectives every rank makes on its own row communicator cannot be
/// told from world ones: the replay says so.
#[test]
fn correct_programs_the_trace_describes_in_part_replay_the_programs_messages() {
    // (program, ranks, messages and bytes the program sends (see its comment), receives from
    // MPI_PROC_NULL)
    for (prog, ranks, messages, bytes, null) in [
        ("halo", 4, 18, 576, 6),
        ("sendrecvmix", 4, 4, 48, 0),
        ("rowcoll", 4, 0, 0, 0),
    ] {
        let ti = trace(prog, ranks, false);
        let v = exanet_json(&[
            "app",
            "replay",
            ti.index(),
            "--topology",
            "torus:2x2",
            "--json",
        ]);
        assert_eq!(v["traced_messages"], messages, "{prog}");
        assert_eq!(v["traced_bytes"], bytes, "{prog}");
        assert_eq!(v["p2p_messages_sent"], messages, "{prog}");
        assert_eq!(v["p2p_bytes_sent"], bytes, "{prog}");
        assert_eq!(v["messages_sent"], v["messages_received"], "{prog}");
        assert_eq!(v["messages_unreceived"], 0, "{prog}");
        assert_eq!(v["procnull_receives"], null, "{prog}");
        let notes = v["notes"].as_array().unwrap();
        if prog == "rowcoll" {
            assert_eq!(v["collectives_per_rank"], 1);
            assert!(
                notes[0]
                    .as_str()
                    .unwrap()
                    .contains("replayed on MPI_COMM_WORLD"),
                "{v}"
            );
            // and in the text
            let o = exanet(&["app", "replay", ti.index(), "--topology", "torus:2x2"]);
            let text = String::from_utf8_lossy(&o.stdout);
            assert!(
                text.contains("note: every rank makes the same 1 collective"),
                "{text}"
            );
            assert!(text.contains("unreceived           0 message(s)"), "{text}");
        } else {
            assert!(notes.is_empty(), "{prog}: {v}");
        }
    }
}

/// Issue 31 §1: where the trace lost what the replay needs, the replay exits 2 naming the
/// file, line, rank and reason, and the way out, instead of a wrong result with exit 0.
#[test]
fn what_a_trace_lost_is_refused_by_file_line_rank_and_reason() {
    for (prog, ranks, want) in [
        // only the first row calls an allreduce on its row communicator
        (
            "rowonly",
            4,
            vec!["rank 0's collective call 1 is MPI_Allreduce at ", "rank-1.txt:2", "where rank 2 calls no more collectives", "OTF2"],
        ),
        // SimGrid writes nothing for a sendrecv with MPI_PROC_NULL at one end
        (
            "sendrecvnull",
            2,
            vec!["rank-2.txt:2: rank 1 posts a receive with tag 3 from rank 0", "MPI_Sendrecv with MPI_PROC_NULL", "OTF2"],
        ),
        // a non-blocking collective
        (
            "ibcast",
            2,
            vec!["rank-1.txt:2: rank 0: ibcast: a non-blocking collective (MPI_Ibcast), not supported"],
        ),
    ] {
        let ti = trace(prog, ranks, false);
        let o = exanet(&["app", "replay", ti.index(), "--topology", "torus:2x2"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{prog}: {err}");
        for w in want {
            assert!(err.contains(w), "{prog}: {err}\nwanted: {w}");
        }
    }
}

/// Replay the TI trace `text`, written as `name` in a temporary folder, on a 2x2 torus; it must
/// end in a deadlock (exit 1): its report.
fn replay_deadlock(name: &str, text: &str) -> String {
    let tmp = TempDir::new(name.trim_end_matches(".txt"));
    let t = tmp.0.join(name);
    std::fs::write(&t, text).unwrap();
    let o = exanet(&[
        "app",
        "replay",
        t.to_str().unwrap(),
        "--topology",
        "torus:2x2",
    ]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    err
}

/// Issue 31 §5: a program that deadlocks (each rank receives before it sends) still reports a
/// deadlock: its messages pair, and the replay finds the ranks blocked (exit 1).
#[test]
fn a_program_that_deadlocks_still_reports_a_deadlock() {
    let err = replay_deadlock(
        "dead.txt",
        "0 init\n1 init\n0 recv 1 0 4 1\n1 recv 0 0 4 1\n0 send 1 0 4 1\n1 send 0 0 4 1\n\
         0 finalize\n1 finalize\n",
    );
    assert!(err.contains("deadlock"), "{err}");
    // §2: how many ranks, and the call each waits in, from the trace
    assert!(err.contains("2 ranks wait for a message"), "{err}");
    assert!(err.contains("rank 0 is in MPI_Recv at "), "{err}");
    assert!(err.contains("dead.txt:4"), "{err}");
    assert!(err.contains("dead.txt:3"), "{err}");
}

/// Issue 31 §2: a TI trace records a wildcard receive, not the message it took. Here rank 0
/// computes before it sends, so in the replay rank 2's message arrives first and rank 1's
/// `MPI_ANY_SOURCE` receive takes it; its receive from rank 2 then waits forever. The report
/// names the wildcard receive, the message it took and when, beside the message left in the
/// queue.
#[test]
fn a_deadlock_names_the_wildcard_receive_that_took_the_message() {
    let err = replay_deadlock(
        "steal.txt",
        "0 init\n1 init\n2 init\n0 compute 100\n0 send 1 7 64 1\n1 recv -333 7 64 1\n\
         1 recv 2 7 64 1\n2 send 1 7 64 1\n0 finalize\n1 finalize\n2 finalize\n",
    );
    assert!(err.contains("1 rank waits for a message"), "{err}");
    assert!(
        err.contains("unreceived in its queue: from rank 0 tag 7"),
        "{err}"
    );
    assert!(
        err.contains(
            "a wildcard receive took a message it waits for: the receive (source any, tag 7) \
             posted at cycle "
        ),
        "{err}"
    );
    assert!(err.contains("took rank 2's message (tag 7, "), "{err}");
    assert!(err.contains("rank 1 is in MPI_Recv at "), "{err}");
    assert!(err.contains("steal.txt:7"), "{err}");
}

#[test]
fn the_replay_bench_replays_a_recorded_trace_to_the_cycle_and_times_the_readers() {
    let v = exanet_json(&[
        "bench",
        "replay",
        "--topology",
        "torus:2x2",
        "--repeat",
        "1",
        "--min-records",
        "5000",
        "--json",
    ]);
    assert_eq!(v["ranks"], 4);
    assert!(v["packets"].as_u64().unwrap() > 0, "{v}");
    // the trace holds the program's calls: its replay is the program's run
    assert_eq!(v["replay_cycles"], v["program_cycles"], "{v}");
    let (a, b) = (
        v["program_cpu_seconds"].as_f64().unwrap(),
        v["replay_cpu_seconds"].as_f64().unwrap(),
    );
    // a run whose CPU time reads 0 has no ratio
    if a > 0.0 {
        assert!((v["ratio"].as_f64().unwrap() - b / a).abs() < 1e-9, "{v}");
        assert_eq!(
            v["within_30_percent"].as_bool().unwrap(),
            v["ratio"].as_f64().unwrap() <= 1.30
        );
    } else {
        assert!(
            v["ratio"].is_null() && v["within_30_percent"].is_null(),
            "{v}"
        );
    }
    // each rank: init, 3 irecv, 3 isend, waitall, the barrier's calls, finalize
    assert!(v["trace_records"].as_u64().unwrap() >= 4 * 9, "{v}");
    assert!(v["parse_records"].as_u64().unwrap() >= 5000, "{v}");
    assert!(v["parse_seconds_per_million_records"].as_f64().unwrap() > 0.0);
    let o = &v["otf2"];
    if cfg!(feature = "otf2") {
        assert!(o["events"].as_u64().unwrap() > 0, "{v}");
        assert!(o["read_events"].as_u64().unwrap() >= 5000, "{v}");
        assert!(o["read_seconds_per_million_events"].as_f64().unwrap() > 0.0);
    } else {
        assert!(
            o.is_null(),
            "a binary without the feature has no OTF2 figures: {v}"
        );
    }
}
