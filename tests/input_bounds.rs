//! Inputs that crashed, hung or exhausted memory (issue 29), each held to its promise: exit 2
//! naming what is wrong, or the run's results printed before an output that cannot be written.

mod common;

use common::{exanet, refused_each};
use std::path::PathBuf;

/// A fresh folder of the test's own, removed by the caller.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("exanet-inputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_seed_beyond_toml_integers_is_refused_by_name_everywhere() {
    let d = scratch("seed");
    let f = d.join("seed.toml");
    std::fs::write(&f, "[sim]\nseed = 18446744073709551615\n").unwrap();
    let f = f.to_str().unwrap();
    let field = "sim.seed: 18446744073709551615";
    refused_each(
        &[],
        &[
            (&["config", "--print", "--config", f], field),
            (
                &["network", "run", "--config", f, "--set", "net.load=0.2"],
                field,
            ),
            (
                &["network", "sweep", "--seed", "18446744073709551615"],
                "is not a seed (0 to 9223372036854775807)",
            ),
            (
                &["network", "sweep", "--seeds", "1,9223372036854775808"],
                "is not a seed (0 to 9223372036854775807)",
            ),
        ],
    );
    // the largest seed TOML holds runs, prints and takes --set
    std::fs::write(d.join("max.toml"), "[sim]\nseed = 9223372036854775807\n").unwrap();
    let m = d.join("max.toml");
    let o = exanet(&["config", "--print", "--config", m.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("seed = 9223372036854775807"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn an_endless_or_oversized_input_is_refused_unread() {
    let d = scratch("zero");
    let z = d.join("zero.toml");
    std::os::unix::fs::symlink("/dev/zero", &z).unwrap();
    let big = d.join("big.toml");
    std::fs::write(&big, vec![b'#'; (16 << 20) + 1]).unwrap();
    refused_each(
        &[],
        &[
            (
                &["network", "run", "--config", z.to_str().unwrap()],
                "zero.toml: a device, not a file",
            ),
            (
                &["network", "run", "--config", big.to_str().unwrap()],
                "big.toml: 16777217 bytes, larger than the 16 MiB",
            ),
            (
                &["app", "replay", "/dev/zero"],
                "/dev/zero: a device, not a file",
            ),
        ],
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_send_beyond_the_envelope_with_a_receive_pending_is_an_error_not_a_panic() {
    let d = scratch("bigsend");
    let t = d.join("t.txt");
    std::fs::write(
        &t,
        "0 init\n1 init\n0 irecv 1 0 10 1\n0 send 1 0 5000000000 1\n0 wait 1 0 0\n\
         1 send 0 0 10 1\n1 recv 0 0 5000000000 1\n0 finalize\n1 finalize\n",
    )
    .unwrap();
    refused_each(
        &["app", "replay"],
        &[(
            &[t.to_str().unwrap()],
            "rank 0: a message of 20000000000 bytes; a message is at most 4294967295 bytes",
        )],
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_collective_of_gigabytes_runs_in_the_memory_of_a_few_packets() {
    // four ranks, an alltoall of 4 GiB a pair: 53 million packets a rank, which cut at once
    // aborted on allocation (issue 29); cut as the NIC's writer takes them, the run goes on
    // in megabytes to app.max_cycles, under a 1 GiB address-space limit
    let d = scratch("alltoall");
    let t = d.join("t.txt");
    let mut lines: Vec<String> = (0..4).map(|r| format!("{r} init")).collect();
    lines.extend((0..4).map(|r| format!("{r} alltoall 1073741823 1073741823 1 1")));
    lines.extend((0..4).map(|r| format!("{r} finalize")));
    std::fs::write(&t, lines.join("\n") + "\n").unwrap();
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_exanet"))
        .args(["app", "replay", t.to_str().unwrap(), "--threads", "1"])
        .args(["--set", "app.max_cycles=200000"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("had not finished after") && err.contains("app.max_cycles"),
        "{err}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn runs_that_cannot_fit_are_refused_up_front_with_their_estimate() {
    // each aborted on allocation (issue 29); under a 2 GiB address-space limit each is refused
    // with exit 2 at once, naming what would take the memory
    let d = scratch("footprint");
    let t = d.join("a4096.txt");
    let n = 4096;
    let mut lines: Vec<String> = (0..n).map(|r| format!("{r} init")).collect();
    lines.extend((0..n).map(|r| format!("{r} alltoall 10 10 1 1")));
    lines.extend((0..n).map(|r| format!("{r} finalize")));
    std::fs::write(&t, lines.join("\n") + "\n").unwrap();
    let t = t.to_str().unwrap();
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "app",
                "dpsnn",
                "--columns",
                "2x2",
                "--iterations",
                "100000000",
            ],
            "a spike trace of 100000000 iterations would need at least 5.2 GB of memory (the \
             spike counts of 1 processes over 100000000 iterations: 5.2 GB)",
        ),
        (
            &["app", "run", "alltoall", "--ranks", "65536"],
            "app run alltoall on 65536 ranks would need at least",
        ),
        (&["app", "replay", t], "16773120 messages in flight at once"),
    ];
    for (args, want) in cases {
        let t0 = std::time::Instant::now();
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 2097152 && exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_exanet"))
            .args(args)
            .args(["--threads", "1"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(
            err.contains(
                "this machine can give (the address space left under the process's \
                          limit, ulimit -v); make the run smaller"
            ),
            "{args:?}: {err}"
        );
        assert!(t0.elapsed().as_secs() < 20, "{args:?}: {:?}", t0.elapsed());
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn waves_on_a_full_disk_are_an_error_naming_the_file() {
    // `/dev/full` fails every write with ENOSPC: the demo's waves stopped there and the demo
    // still exited 0 (issue 29)
    use exanet::wave::WaveFormat;
    let cfg = exanet::config::Config::default();
    let full = std::path::Path::new("/dev/full");
    for format in [WaveFormat::Vcd, WaveFormat::Fst] {
        let e = exanet::link::demo::write_demo_wave(&cfg, full, format).unwrap_err();
        assert!(
            e.contains("/dev/full: No space left on device"),
            "{format:?}: {e}"
        );
    }
}

#[test]
fn a_plot_that_cannot_be_drawn_loses_nothing_else() {
    let d = scratch("plot");
    let svg = d.join("lat.svg");
    let o = exanet(&[
        "network",
        "run",
        "--set",
        "net.load=0.0001",
        "--set",
        "net.warmup_cycles=0",
        "--set",
        "net.measure_cycles=100",
        "--latency-bin",
        "10",
        "--latency-plot",
        svg.to_str().unwrap(),
        "--json",
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("--latency-plot: ")
            && e.contains("has no points (the run's results are printed above)"),
        "{e}"
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("the run's JSON");
    assert!(v["run"]["tool"] == "exanet", "{v}");
    assert!(!svg.exists());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn outputs_are_checked_before_the_run_with_one_rule_for_missing_folders() {
    let d = scratch("outputs");
    let dir = d.to_str().unwrap().to_string();
    let missing = d.join("no/such/x.vcd");
    let as_dir = d.join("taken.csv");
    std::fs::create_dir(&as_dir).unwrap();
    let vcd_dir_under_missing = d.join("no/such/waves");
    refused_each(
        &[],
        &[
            (
                &["demo", "--vcd", missing.to_str().unwrap()],
                "the directory",
            ),
            (
                &["network", "run", "--csv", as_dir.to_str().unwrap()],
                "taken.csv: a directory, not a file",
            ),
            (
                &["network", "run", "--csv", "/proc/exanet.csv"],
                "/proc/exanet.csv: cannot write",
            ),
            (
                &[
                    "cosim",
                    "--design",
                    "link",
                    "--cycles",
                    "10",
                    "--vcd-dir",
                    vcd_dir_under_missing.to_str().unwrap(),
                ],
                "does not exist",
            ),
        ],
    );
    // nothing was left behind by the checks
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn the_server_refuses_lossy_links_before_it_listens() {
    for set in ["link.phy.ber=1e-6", "net.faults=link:0-1@10..20"] {
        let o = exanet(&[
            "network",
            "serve",
            "--ranks",
            "2",
            "--listen",
            "127.0.0.1:0",
            "--set",
            set,
        ]);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{set}: {e}");
        assert!(!e.contains("listening on"), "{set}: {e}");
        assert!(e.contains(set.split('=').next().unwrap()), "{set}: {e}");
    }
}
