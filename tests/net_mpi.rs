//! `exanet network run` over MPI ranks (cargo feature `mpi`, decision 0027), run by Debian's
//! Open MPI `mpirun` (installed by the test command, `scripts/setup.sh`'s `need_mpi`): 1, 2 and
//! 4 ranks, with one or two threads each, give the statistics of one process bit for bit, and
//! every rank sees the world `mpirun` started (a wrong `mpirun` would run N one-rank
//! simulations). Bad input (a world larger than the network, ranks given different
//! configurations or commands, one rank that cannot read its configuration) makes every rank
//! exit 2, with one message, and never leaves a rank waiting: every `mpirun` runs under a time
//! limit. `bench network --case` over the ranks gives one process's statistics hash, with every
//! rank's own figures, and holds on each rank only its share of the nodes. A launcher's count
//! that MPI does not see (a program started with `OMPI_COMM_WORLD_SIZE` set, not by that
//! `mpirun`) exits 2, naming the problem.
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

/// `bench network` of one case, short: the warm-up past the lanes' start-up (500 cycles), so
/// that packets cross the ranks' boundaries in the timed cycles.
const BENCH: [&str; 8] = [
    "bench",
    "network",
    "--case",
    "torus32-10",
    "--warmup",
    "600",
    "--cycles",
    "400",
];

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn bench_network_over_one_two_and_four_ranks_gives_one_process_s_hash() {
    let mut args = BENCH.to_vec();
    args.push("--json");
    let one = json(&Command::new(EXE).args(&args).output().unwrap());
    assert!(one["packets_delivered"].as_u64().unwrap() > 100, "{one:?}");
    // what one rank's resident set grows by when it holds all the nodes
    let mut all_nodes_growth = 0.0;
    for (n, threads) in [(1, 1), (2, 1), (4, 1)] {
        let set = format!("net.threads={threads}");
        let got = json(&ranks(n, &[&args[..], &["--set", &set]].concat()));
        // the world the program saw, and the figures of one process, bit for bit
        assert_eq!(got["mpi_world_size"], n, "{n} ranks");
        for k in ["stats_hash", "packets_delivered", "accepted_load", "nodes"] {
            assert_eq!(got[k], one[k], "{k}: {n} ranks of {threads} thread(s)");
        }
        assert_eq!(got["timed_cycles"], 400);
        assert_eq!(got["warmup_cycles"], 600);
        let ranks = got["ranks"].as_array().expect("ranks[]");
        assert_eq!(ranks.len(), n as usize);
        let latency = exanet::config::Config::default().link.phy.latency_cycles as u64;
        let (mut next, mut slowest, mut cpu) = (0, 0.0f64, 0.0);
        for (r, x) in ranks.iter().enumerate() {
            let nodes = x["nodes"].as_u64().unwrap();
            assert_eq!(
                (x["rank"].as_u64(), x["first_node"].as_u64()),
                (Some(r as u64), Some(next))
            );
            next += nodes;
            // a rank holds its share of the nodes only
            assert_eq!(x["nodes_held"], nodes, "rank {r} of {n}");
            assert_eq!(x["threads"], threads);
            // one exchange a window of the timed cycles, and one before the first
            assert_eq!(x["windows"], 400u64.div_ceil(latency));
            assert_eq!(x["exchanges"], 400u64.div_ceil(latency) + 1);
            // a 32x32 torus in blocks of rows: a rank's neighbours are the ranks before and
            // after it (the same one of two ranks), none of one
            assert_eq!(x["neighbours"], n.min(3) - 1, "rank {r} of {n}");
            let (wall, cpu_r, ex) = (
                num(&x["wall_seconds"]),
                num(&x["cpu_seconds"]),
                num(&x["exchange_seconds"]),
            );
            assert!(wall > 0.0 && cpu_r > 0.0, "rank {r} of {n}: {x}");
            assert!(
                (0.0..=wall).contains(&ex),
                "rank {r}: exchanged {ex} s of {wall} s"
            );
            let per = num(&x["exchange_seconds_per_window"]);
            assert!(
                (per * num(&x["exchanges"]) - ex).abs() <= 1e-9 + ex * 1e-9,
                "{x}"
            );
            slowest = slowest.max(wall);
            cpu += cpu_r;
            let (start, end, peak) = (
                num(&x["resident_bytes_start"]),
                num(&x["resident_bytes_end"]),
                num(&x["resident_bytes_peak"]),
            );
            assert!(start < end && end <= peak, "rank {r} of {n}: {x}");
            let growth = end - start;
            assert!(
                (num(&x["bytes_per_node"]) - growth / nodes as f64).abs() < 1e-6,
                "{x}"
            );
            if n == 1 {
                all_nodes_growth = growth;
            } else if n == 4 {
                // a quarter of the nodes: far less than all of them (about 0.37 measured)
                assert!(
                    growth < 0.6 * all_nodes_growth,
                    "rank {r} of 4 grew by {growth} B, one rank of all the nodes by \
                     {all_nodes_growth} B"
                );
            }
        }
        assert_eq!(next, 1024);
        // the case's speed: its node-cycles over the slowest rank's wall time and over the
        // ranks' CPU time summed (JSON floats carry 12 significant digits)
        let close = |a: f64, b: f64| (a - b).abs() <= b * 1e-11;
        assert!(close(num(&got["wall_seconds"]), slowest), "{got:?}");
        assert!(close(num(&got["cpu_seconds"]), cpu), "{got:?}");
        let nc = 1024.0 * 400.0;
        assert!(close(
            num(&got["node_cycles_per_wall_second"]),
            nc / slowest
        ));
        assert!(close(num(&got["node_cycles_per_cpu_second"]), nc / cpu));
    }
    // the text, two threads a rank: rank 0's table, a line a rank, the hash once
    let o = ranks(2, &[&BENCH[..], &["--set", "net.threads=2"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("over 2 MPI ranks: torus32-10"), "{text}");
    let hash = one["stats_hash"].as_str().unwrap();
    assert_eq!(text.matches(hash).count(), 1, "{text}");
    assert_eq!(
        text.matches("\n     1    512    512       2 ").count(),
        1,
        "{text}"
    );
}

#[test]
fn bench_network_of_the_dragonfly_over_three_ranks_gives_one_process_s_hash() {
    // its global channels make every rank every other's neighbour
    let a = [
        "bench",
        "network",
        "--case",
        "dragonfly1056-30",
        "--warmup",
        "300",
        "--cycles",
        "300",
        "--json",
    ];
    let one = json(&Command::new(EXE).args(a).output().unwrap());
    assert!(one["packets_delivered"].as_u64().unwrap() > 100, "{one:?}");
    let got = json(&ranks(3, &a));
    for k in ["stats_hash", "packets_delivered", "nodes"] {
        assert_eq!(got[k], one[k], "{k}");
    }
    for x in got["ranks"].as_array().unwrap() {
        assert_eq!(
            (x["nodes"].as_u64(), x["neighbours"].as_u64()),
            (Some(88), Some(2))
        );
    }
}

#[test]
fn bench_network_over_the_ranks_needs_one_case() {
    let o = ranks(2, &["bench", "network", "--cycles", "10"]);
    refused(
        &o,
        "under mpirun, bench network runs one case on the ranks: give --case NAME",
    );
}

#[test]
fn a_launcher_count_that_mpi_does_not_see_exits_2() {
    // a program started with a launcher's variables but not by that launcher (or by the
    // mpirun of another MPI library): MPI sees a world of one process, not the two the
    // variable says; running on would make each of them simulate the whole network alone
    for (var, args) in [
        ("OMPI_COMM_WORLD_SIZE", &RUN[..]),
        ("OMPI_COMM_WORLD_SIZE", &BENCH[..]),
        ("PMI_SIZE", &RUN[..]),
    ] {
        let mut c = Command::new("timeout");
        c.args(["-s", "TERM", LIMIT_S, EXE]).args(args);
        for v in [
            "OMPI_COMM_WORLD_SIZE",
            "OMPI_COMM_WORLD_RANK",
            "PMI_SIZE",
            "PMI_RANK",
        ] {
            c.env_remove(v);
        }
        let o = c
            .env(var, "2")
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .unwrap();
        assert_ne!(
            o.status.code(),
            Some(124),
            "{var}=2 {args:?}: still running"
        );
        refused(
            &o,
            "process 0 of 2 (the launcher's count): MPI sees a world of 1: the mpirun used is \
             not the one of the MPI library this exanet was built with",
        );
    }
}

/// Faults over the ranks (issue 14 §2): lanes cut across rank boundaries, a node down, the
/// fault manager's pass summing the ports marked down over every rank, up*/down*'s tables
/// rebuilt in each: two ranks give one process's statistics, books and fault summary.
#[test]
fn faults_over_two_ranks_give_the_statistics_of_one_process() {
    let args = [
        "network",
        "run",
        "--set",
        "net.topology=torus:8x8",
        "--set",
        "net.routing=updown",
        "--set",
        "net.load=0.04",
        "--set",
        "net.measure_cycles=4000",
        "--set",
        "net.drain_cycles=2000",
        "--set",
        "net.faults=link:27-35@1500..4000; node:36@2100; link:0-7@2500",
        "--json",
    ];
    let mut one = json(&Command::new(EXE).args(args).output().unwrap());
    one.remove("run");
    assert!(
        one["faults"]["ports_marked_down"].as_u64().unwrap() >= 8,
        "{:?}",
        one["faults"]
    );
    let mut got = json(&ranks(2, &args));
    got.remove("run");
    got.remove("mpi_world_size");
    assert_eq!(got, one);
}

/// `mpirun -n 3 exanet network sweep`: the ranks share the points (`cli/sweep_parts.rs`) and
/// rank 0 writes the results: stdout, the CSV and the packets file are the one-process sweep's
/// byte for byte (the same command line, so the run record too). With `--ranks-per-point 2`
/// on 4 ranks each point runs on a group of 2 with the MPI engine: the same results again.
/// `--saturation` and `--part` are refused under mpirun.
#[test]
fn a_sweep_over_three_ranks_writes_the_one_process_sweep_byte_for_byte() {
    let dir = std::env::temp_dir().join(format!("exanet-mpi-sweep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, packets) = (dir.join("s.csv"), dir.join("p.csv"));
    let args = [
        "network",
        "sweep",
        "--topology",
        "torus:4x4",
        "--topology",
        "mesh:3x3",
        "--loads",
        "0.1,0.3,0.5",
        "--seeds",
        "1,2",
        "--set",
        "net.measure_cycles=800",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
        "--packets",
        packets.to_str().unwrap(),
    ];
    let read = || {
        let r = (
            std::fs::read(&csv).unwrap(),
            std::fs::read(&packets).unwrap(),
        );
        std::fs::remove_file(&csv).unwrap();
        std::fs::remove_file(&packets).unwrap();
        r
    };
    let one = Command::new(EXE).args(args).output().unwrap();
    assert!(one.status.success(), "{}", stderr(&one));
    let one_files = read();
    let three = ranks(3, &args);
    assert!(three.status.success(), "{}", stderr(&three));
    assert_eq!(
        String::from_utf8_lossy(&three.stdout),
        String::from_utf8_lossy(&one.stdout),
        "stdout"
    );
    let three_files = read();
    assert!(one_files.0 == three_files.0, "the CSV differs");
    assert!(one_files.1 == three_files.1, "the packets file differs");
    assert!(one_files.1.len() > 10_000);
    let left = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(left, 0, "no part file is left");
    // each point on a group of 2 of 4 ranks (the MPI engine), the groups sharing the points:
    // the same results (the command line differs by the flag)
    let no_packets = &args[..args.len() - 2];
    let one = Command::new(EXE).args(no_packets).output().unwrap();
    let one_csv = std::fs::read(&csv).unwrap();
    let grouped = ranks(4, &[no_packets, &["--ranks-per-point", "2"]].concat());
    let without_line = |o: &Output| {
        let mut v = json(o);
        v["run"].as_object_mut().unwrap().remove("command_line");
        serde_json::to_string_pretty(&v).unwrap()
    };
    assert_eq!(without_line(&grouped), without_line(&one));
    assert!(std::fs::read(&csv).unwrap() == one_csv, "the CSV differs");
    std::fs::remove_file(&csv).unwrap();
    let o = ranks(4, &[&args[..2], &["--ranks-per-point", "3"]].concat());
    refused(&o, "--ranks-per-point 3: the 4 ranks go in groups of it");
    let o = ranks(2, &[&args[..], &["--ranks-per-point", "2"]].concat());
    refused(&o, "--packets with --ranks-per-point");
    let o = Command::new(EXE)
        .args([&args[..2], &["--ranks-per-point", "2"]].concat())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("start the sweep with mpirun"),
        "{}",
        stderr(&o)
    );
    let o = ranks(2, &[&args[..2], &["--saturation"]].concat());
    refused(&o, "--saturation runs in one process");
    let parts = dir.to_str().unwrap();
    let o = ranks(
        2,
        &[&args[..2], &["--part", "0/2", "--parts-dir", parts]].concat(),
    );
    refused(&o, "under mpirun the ranks are the parts");
    std::fs::remove_dir_all(&dir).ok();
}
