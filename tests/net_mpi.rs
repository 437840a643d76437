//! `exanet network run` over MPI ranks (cargo feature `mpi`, decision 0027), run by Debian's
//! Open MPI `mpirun` (installed by the test command, `scripts/setup.sh`'s `need_mpi`): 1, 2 and
//! 4 ranks, with one or two threads each, give the statistics of one process bit for bit, and
//! every rank sees the world `mpirun` started (a wrong `mpirun` would run N one-rank
//! simulations). Bad input (a world larger than the network, ranks given different
//! configurations or commands, one rank that cannot read its configuration) makes every rank
//! exit 2, with one message, and never leaves a rank waiting: every `mpirun` runs under a time
//! limit.
//!
//! Cargo.toml builds this file only with the feature (`required-features`); the test command
//! enables it (tests/setup_scripts.rs holds it to that).

use serde_json::Value;
use std::process::{Command, Output};

const EXE: &str = env!("CARGO_BIN_EXE_exanet");

/// A small run: a torus of 64 nodes, a short window, high enough a load to cross every lane.
const RUN: [&str; 12] = [
    "network",
    "run",
    "--set",
    "net.topology=torus:8x8",
    "--set",
    "net.load=0.3",
    "--set",
    "net.warmup_cycles=300",
    "--set",
    "net.measure_cycles=1200",
    "--set",
    "net.drain_cycles=20000",
];

/// Seconds an `mpirun` may take before the test calls it a hang.
const LIMIT_S: &str = "120";

/// `mpirun ARGS` (as root too: Open MPI's own variables allow it), under `timeout`.
fn mpirun(args: &[&str]) -> Output {
    let o = Command::new("timeout")
        .args(["-s", "TERM", LIMIT_S, "mpirun", "--oversubscribe"])
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("mpirun runs (Debian's openmpi-bin: scripts/setup.sh need_mpi)");
    assert_ne!(
        o.status.code(),
        Some(124),
        "mpirun {args:?} still running after {LIMIT_S} s: a rank waits for another\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// `mpirun -n N exanet ARGS`.
fn ranks(n: u32, args: &[&str]) -> Output {
    let n = n.to_string();
    let mut all = vec!["-n", &n, EXE];
    all.extend_from_slice(args);
    mpirun(&all)
}

fn json(o: &Output) -> serde_json::Map<String, Value> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    match serde_json::from_slice(&o.stdout) {
        Ok(Value::Object(m)) => m,
        _ => panic!("not a JSON object: {}", String::from_utf8_lossy(&o.stdout)),
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn one_two_and_four_ranks_give_the_statistics_of_one_process() {
    let mut args = RUN.to_vec();
    args.push("--json");
    let one = Command::new(EXE).args(&args).output().unwrap();
    let mut one = json(&one);
    // (the run's record: its command line differs)
    one.remove("run");
    assert!(!one.contains_key("mpi_world_size"), "one process, no MPI");
    assert!(one["packets_injected"].as_u64().unwrap() > 1000, "{one:?}");
    assert_eq!(one["packets_in_flight"], 0);
    for (n, threads) in [(1, "1"), (2, "1"), (4, "1"), (2, "2")] {
        let mut a = args.clone();
        a.extend(["--threads", threads]);
        let o = ranks(n, &a);
        let mut got = json(&o);
        got.remove("run");
        // the world the program saw is the one mpirun started
        assert_eq!(
            got.remove("mpi_world_size"),
            Some(Value::from(n)),
            "{n} ranks"
        );
        assert!(
            stderr(&o).contains(&format!("mpi: {n} rank")),
            "{}",
            stderr(&o)
        );
        // rank 0 alone prints: one JSON document
        assert_eq!(got, one, "{n} ranks of {threads} thread(s)");
    }
    // the text output says the ranks too
    let o = ranks(2, &RUN);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("2 MPI ranks"), "{text}");
    assert_eq!(text.matches("statistics hash").count(), 1, "{text}");
    let hash = one.remove("stats_hash").unwrap();
    assert!(text.contains(hash.as_str().unwrap()), "{text}");
}

/// Every rank of a refused run exits 2 (mpirun passes the status on) and the message is said
/// once.
fn refused(o: &Output, says: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.matches(says).count(), 1, "'{says}' once:\n{err}");
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_world_larger_than_the_network_is_refused_by_every_rank() {
    let mut a = RUN.to_vec();
    a[3] = "net.topology=torus:2x2";
    let o = ranks(5, &a);
    refused(&o, "an MPI world of 5 ranks for the 4 nodes of torus:2x2");
    // more threads than a rank's nodes: a torus of 6 nodes over 4 ranks gives ranks 0 and 2
    // one node, 1 and 3 two; ranks 0 and 2 refuse, every rank exits
    a[3] = "net.topology=torus:2x3";
    let o = ranks(4, &[&a[..], &["--threads", "2"]].concat());
    refused(&o, "rank 0 of 4: its share, nodes 0 to 0: threads: 2");
    refused(&o, "rank 2 of 4: its share, nodes 3 to 3: threads: 2");
    assert!(!stderr(&o).contains("rank 1 of 4"), "{}", stderr(&o));
}

#[test]
fn ranks_given_different_configurations_or_commands_all_exit_2() {
    // mpirun's MPMD form: rank 0 runs `exanet A`, rank 1 `exanet B`
    let two = |a: &[&str], b: &[&str]| {
        let all = [&["-n", "1", EXE], a, &[":", "-n", "1", EXE], b].concat();
        mpirun(&all)
    };
    let o = two(
        &[&RUN[..], &["--set", "sim.seed=1"]].concat(),
        &[&RUN[..], &["--set", "sim.seed=2"]].concat(),
    );
    refused(&o, "rank 1 differs from rank 0");
    // one rank that cannot read its configuration file: it is named
    let o = two(
        &[&RUN[..], &["--config", "/nonexistent/exanet.toml"]].concat(),
        &RUN,
    );
    refused(&o, "rank 0 of 2: ");
    assert!(
        stderr(&o).contains("/nonexistent/exanet.toml"),
        "{}",
        stderr(&o)
    );
    // a command that runs in one process, under mpirun
    let o = ranks(
        2,
        &["network", "cdg", "--topology=torus:4x4", "--routing=ecube"],
    );
    refused(&o, "this command runs in one process");
    // and what needs every node in one process
    let o = ranks(2, &[&RUN[..], &["--packets", "p.csv"]].concat());
    refused(&o, "--packets: the packet log sees every node");
}
