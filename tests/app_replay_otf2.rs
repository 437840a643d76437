//! Replay of OTF2 traces (`exanet app replay --format otf2`): traces written by the reference
//! OTF2 library's own writer (its Python bindings, Debian's python3-otf2, installed by the
//! test command: `scripts/setup.sh`'s `need_otf2`), run by `tests/data/otf2/write.py`, which
//! also says what each trace holds. The replay must carry exactly the trace's messages and
//! bytes, compute exactly the time between its MPI calls, size its collectives from their
//! byte totals, and refuse what it cannot do with a clear error.
//!
//! These tests need a binary built with the feature `otf2`; the test command builds with it,
//! and `tests/setup_scripts.rs` checks that it does, so they cannot silently drop out.

#![cfg(feature = "otf2")]

mod common;

use common::{exanet, exanet_json};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The Python that Debian's python3-otf2 installs its module for (`EXANET_OTF2_PYTHON`
/// replaces it, as in `scripts/setup.sh`).
fn python() -> String {
    std::env::var("EXANET_OTF2_PYTHON").unwrap_or_else(|_| "/usr/bin/python3".into())
}

/// The traces, written once for this test binary, and the writer's summary of them.
fn traces() -> &'static (PathBuf, Value) {
    static T: OnceLock<(PathBuf, Value)> = OnceLock::new();
    T.get_or_init(|| {
        // under cargo's temporary folder for tests (in `target/`), emptied by every run: the
        // traces outlive the tests that share them, and none piles up in the system's
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exanet-otf2");
        let _ = std::fs::remove_dir_all(&dir);
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/otf2/write.py");
        let py = python();
        let o = Command::new(&py)
            .arg(&script)
            .arg(&dir)
            .output()
            .unwrap_or_else(|e| panic!("{py} runs (the test command installs python3-otf2): {e}"));
        assert!(
            o.status.success(),
            "{} failed: {}",
            script.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        let summary: Value = serde_json::from_slice(&o.stdout).expect("the writer's summary");
        (dir, summary)
    })
}

fn anchor(name: &str) -> String {
    let p = traces().0.join(name).join("traces.otf2");
    p.to_str().unwrap().to_string()
}

/// `exanet app replay --format otf2 TRACE ARGS --json` at a 1 GHz clock (a nanosecond of the
/// trace is a cycle) on a 2x2 torus.
fn replay(name: &str, args: &[&str]) -> Value {
    let t = anchor(name);
    let mut a = vec![
        "app",
        "replay",
        "--format",
        "otf2",
        &t,
        "--topology",
        "torus:2x2",
        "--routing",
        "ecube",
        "--set",
        "clock.freq_mhz=1000",
        "--json",
    ];
    a.extend(args);
    exanet_json(&a)
}

#[test]
fn traces_written_by_the_otf2_library_replay_their_messages_bytes_and_computing() {
    let summary = &traces().1;
    for name in ["pingpong", "ring", "collectives"] {
        let s = &summary[name];
        let v = replay(name, &[]);
        assert_eq!(v["format"], "otf2", "{name}");
        assert_eq!(v["ranks"], s["ranks"], "{name}");
        for (k, want) in [
            ("traced_messages", &s["messages"]),
            ("traced_bytes", &s["bytes"]),
            ("p2p_messages_sent", &s["messages"]),
            ("p2p_bytes_sent", &s["bytes"]),
        ] {
            assert_eq!(&v[k], want, "{name}: {k}");
        }
        assert_eq!(v["messages_sent"], v["messages_received"], "{name}");
        // the time outside MPI calls, nanoseconds at 1 GHz: cycles, to the cycle
        let rt = v["ranks_times"].as_array().unwrap();
        let compute = s["compute_ns"].as_array().unwrap();
        assert_eq!(rt.len(), compute.len(), "{name}");
        for (r, (t, ns)) in rt.iter().zip(compute).enumerate() {
            assert_eq!(&t["compute_cycles"], ns, "{name} rank {r}");
            let busy: u64 = ["compute_cycles", "communication_cycles", "wait_cycles"]
                .iter()
                .map(|k| t[k].as_u64().unwrap())
                .sum();
            assert!(
                busy <= t["finished_cycles"].as_u64().unwrap(),
                "{name}: {t}"
            );
        }
        assert!(
            v["cycles"].as_u64().unwrap()
                > compute.iter().map(|c| c.as_u64().unwrap()).max().unwrap(),
            "{name}: the run takes its computing and its messages"
        );
    }
    // the collectives' per-peer sizes, from the totals: the replay's algorithms send a barrier
    // 2(N-1) empty messages, a bcast (binomial) N-1 blocks, an allreduce (reduce then bcast)
    // 2(N-1), an alltoall (linear) N(N-1)
    let s = &summary["collectives"];
    let n = s["ranks"].as_u64().unwrap();
    let b = |k: &str| s["blocks"][k].as_u64().unwrap();
    let v = replay("collectives", &[]);
    assert_eq!(
        v["messages_sent"].as_u64().unwrap(),
        2 * (n - 1) + (n - 1) + 2 * (n - 1) + n * (n - 1)
    );
    assert_eq!(
        v["bytes_sent"].as_u64().unwrap(),
        (n - 1) * b("bcast") + 2 * (n - 1) * b("allreduce") + n * (n - 1) * b("alltoall")
    );
}

#[test]
fn the_replay_is_deterministic_and_writes_its_rows_as_csv() {
    let dir = traces().0.join("csv");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("ring.csv");
    let a = replay("ring", &["--csv", csv.to_str().unwrap()]);
    let b = replay("ring", &[]);
    assert_eq!(a["cycles"], b["cycles"]);
    assert_eq!(a["ranks_times"], b["ranks_times"]);
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("rank,compute_cycles,communication_cycles,wait_cycles,finished_cycles")
    );
    assert_eq!(lines.count(), 4, "{text}");
}

#[test]
fn bad_otf2_inputs_exit_2_naming_the_problem() {
    let dir = traces().0.join("bad");
    std::fs::create_dir_all(&dir).unwrap();
    // a corrupt anchor file: the ring's archive with garbage in its anchor
    let broken = dir.join("broken");
    let _ = std::fs::remove_dir_all(&broken);
    std::fs::create_dir_all(broken.join("traces")).unwrap();
    let ring = traces().0.join("ring");
    for f in ["traces.def", "traces/0.evt", "traces/0.def"] {
        std::fs::copy(ring.join(f), broken.join(f)).unwrap();
    }
    std::fs::write(broken.join("traces.otf2"), "not an anchor file\n").unwrap();
    let missing = dir.join("none/traces.otf2");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let cases: Vec<(String, Vec<&str>)> = vec![
        (s(&missing), vec!["none/traces.otf2", "cannot read"]),
        (
            s(&broken.join("traces.otf2")),
            vec!["broken/traces.otf2", "the OTF2 library"],
        ),
        (s(&ring), vec!["a directory", "traces.otf2"]),
        (
            anchor("rma"),
            vec!["rma/traces.otf2", "rank 1", "event", "RmaPut", "one-sided"],
        ),
        (
            anchor("alltoallv"),
            vec!["rank 0", "event", "MPI_Alltoallv", "each peer"],
        ),
        (
            anchor("ibcast"),
            vec![
                "rank 0",
                "event",
                "NonBlockingCollectiveRequest",
                "non-blocking collective",
                "not supported",
                "blocking",
            ],
        ),
    ];
    for (trace, want) in cases {
        let o = exanet(&["app", "replay", "--format", "otf2", &trace]);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{trace}: {err}");
        assert!(!err.contains("panicked"), "{trace}: {err}");
        for w in want {
            assert!(err.contains(w), "{trace}: {w:?} not in: {err}");
        }
    }
}

/// Issue 31 §5: the patterns of real programs that a SimGrid TI trace loses, written as OTF2
/// by the reference library, replay with exactly the program's messages: a halo exchange with
/// `MPI_PROC_NULL` at its ends, an `MPI_Sendrecv` against a plain `MPI_Recv` and `MPI_Send`,
/// and collectives on communicators of some ranks (OTF2 names each collective's
/// communicator): a barrier of 2 of 3 ranks, and a 2x2 grid's row broadcasts and column
/// allreduces, each run among its communicator's members only.
#[test]
fn the_patterns_a_ti_trace_loses_replay_exactly_from_otf2() {
    let summary = &traces().1;
    for name in ["halo", "sendrecvmix", "subcomm", "rowcoll"] {
        let s = &summary[name];
        let v = replay(name, &[]);
        assert_eq!(v["ranks"], s["ranks"], "{name}");
        for (k, want) in [
            ("traced_messages", &s["messages"]),
            ("traced_bytes", &s["bytes"]),
            ("p2p_messages_sent", &s["messages"]),
            ("p2p_bytes_sent", &s["bytes"]),
        ] {
            assert_eq!(&v[k], want, "{name}: {k}");
        }
        assert_eq!(v["messages_unreceived"], 0, "{name}");
        assert_eq!(v["messages_sent"], v["messages_received"], "{name}");
        // an OTF2 trace's collectives are on their own communicators: no note of the world
        assert!(
            v["notes"].as_array().is_none_or(|n| n.is_empty()),
            "{name}: {v}"
        );
    }
    // the collectives' messages, from the replay's algorithms on each communicator's k ranks:
    // a barrier 2(k-1) empty messages, a binomial bcast k-1 blocks, an allreduce (reduce, then
    // bcast) 2(k-1) blocks
    let coll = |v: &Value, call: &str| -> [u64; 3] {
        let c = v["collectives"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["call"] == call)
            .unwrap_or_else(|| panic!("{call} in {v}"));
        ["calls", "messages", "bytes"].map(|k| c[k].as_u64().unwrap())
    };
    let v = replay("subcomm", &[]);
    assert_eq!(coll(&v, "MPI_Barrier"), [1, 2, 0], "{v}");
    assert_eq!(v["messages_sent"], 2);
    let s = &summary["rowcoll"];
    let b = |k: &str| s["blocks"][k].as_u64().unwrap();
    let v = replay("rowcoll", &[]);
    // two rows of 2 ranks, two columns of 2: a call on each
    assert_eq!(coll(&v, "MPI_Bcast"), [2, 2, 2 * b("bcast")], "{v}");
    assert_eq!(coll(&v, "MPI_Allreduce"), [2, 4, 4 * b("allreduce")], "{v}");
    assert_eq!(v["messages_sent"], 6);
    assert_eq!(v["bytes_sent"], 2 * b("bcast") + 4 * b("allreduce"));
}

/// A program that deadlocks (each rank receives before it sends), written as OTF2, still
/// reports a deadlock (exit 1): how many ranks wait, what each waits for, and the call it is
/// in with its place in the trace.
#[test]
fn an_otf2_trace_of_a_deadlocking_program_reports_a_deadlock() {
    let t = anchor("deadlock");
    let o = exanet(&[
        "app",
        "replay",
        "--format",
        "otf2",
        &t,
        "--topology",
        "torus:2x2",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("2 ranks wait for a message"), "{err}");
    assert!(
        err.contains("rank 0 waits for a receive from 1 tag 0"),
        "{err}"
    );
    assert!(err.contains("rank 1 is in MPI_Recv at "), "{err}");
    assert!(err.contains("deadlock/traces.otf2 rank 1:"), "{err}");
}
