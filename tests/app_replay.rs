//! Replay of real MPI traces (issue 12 §1): the repository's MPI programs compiled with
//! SimGrid's `smpicc`, traced with `smpirun -trace-ti` (installed by the test command,
//! `scripts/setup.sh`'s `need_simgrid`), and replayed on the network by `exanet app replay`.
//! The replayed point-to-point messages and bytes are the program's.

mod common;

use common::{exanet, exanet_json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/simgrid")
}

/// Compile `prog.c` of the fixtures with smpicc and trace it on `ranks` ranks in a fresh
/// directory (its computations measured, or not: `compute`); the index file smpirun wrote.
fn trace(prog: &str, ranks: u32, compute: bool) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("exanet-smpi-{prog}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
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
    dir.join("ti.txt")
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
        let t = ti.to_str().unwrap();
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
    let dir = std::env::temp_dir().join(format!("exanet-badti-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
