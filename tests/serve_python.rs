//! The co-simulation server's Python client (`python/exanet_serve.py`, issue 31 §4), run by
//! Debian's Python 3 (`/usr/bin/python3`, installed with python3-otf2 by the test command;
//! `EXANET_PYTHON` replaces it) against `exanet network serve`: its ping-pong example
//! (`python/examples/pingpong.py`), a task simulator that spends no time of its own, measures
//! what `exanet app run pingpong` measures in process with no software overheads, to the cycle,
//! and the session's END is the in-process run's last cycle. A wrong token reaches the script
//! as the server's error.

mod common;

use common::{exanet_json, TempDir};
use serde_json::Value;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

fn python() -> String {
    std::env::var("EXANET_PYTHON").unwrap_or_else(|_| "/usr/bin/python3".into())
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// `exanet network serve --ranks 2 ARGS --json --token-file DIR/token`, its address once it
/// listens, and the token file.
fn serve(dir: &Path, args: &[&str]) -> (Child, String, PathBuf) {
    let token = dir.join("token");
    let base = ["--ranks", "2", "--json", "--timeout-s", "20"];
    let (p, mut err, addr) = common::spawn_serve(&[&base[..], args].concat(), &token);
    // the token is in the file once the second line is printed
    let mut l = String::new();
    err.read_line(&mut l).unwrap();
    assert!(l.starts_with("session token in "), "{l}");
    (p, addr, token)
}

#[test]
fn the_python_pingpong_measures_what_the_in_process_pingpong_does() {
    let py = python();
    for (bytes, topology, mapping) in [
        ("0", "torus:4x4", "linear"),
        ("2000", "torus:4x4", "random"),
        ("4000", "mesh:3x3", "random"),
    ] {
        let what = format!("{bytes} bytes on {topology}, mapping {mapping}");
        let tmp = TempDir::new(&format!("serve-python-{bytes}"));
        let net = ["--topology", topology, "--mapping", mapping];
        let (server, addr, token) = serve(&tmp.0, &net);
        let o = Command::new(&py)
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .arg(repo("python/examples/pingpong.py"))
            .args(["--address", &addr, "--bytes", bytes, "--iterations", "3"])
            .arg("--token-file")
            .arg(&token)
            .output()
            .unwrap_or_else(|e| panic!("{py} runs (the test command installs python3): {e}"));
        let out = server.wait_with_output().unwrap();
        assert!(
            o.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.status.success(), "{what}: {out:?}");
        let client: Value = serde_json::from_slice(&o.stdout).unwrap();
        let session: Value = serde_json::from_slice(&out.stdout).unwrap();
        let in_process = exanet_json(&[
            "app",
            "run",
            "pingpong",
            "--bytes",
            bytes,
            "--iterations",
            "3",
            "--topology",
            topology,
            "--mapping",
            mapping,
            "--set",
            "app.send_overhead_ns=0",
            "--set",
            "app.recv_overhead_ns=0",
            "--json",
        ]);
        let f = &in_process["figures"];
        // (the in-process figure is printed to 9 decimals; a cycle's difference is 1/6)
        let (a, b) = (
            client["half_round_trip_cycles"].as_f64().unwrap(),
            f["half_round_trip_cycles"].as_f64().unwrap(),
        );
        assert!((a - b).abs() < 1e-6, "{what}: {a} against {b}: {client}");
        assert_eq!(client["messages"], 6, "{what}");
        assert_eq!(client["deadlock"], false, "{what}");
        assert_eq!(session["messages"], 6, "{what}");
        assert_eq!(session["packets"], in_process["packets"], "{what}");
        assert_eq!(session["deadlock"], false, "{what}");
        // the session ends with the last pong's arrival: the in-process run's last cycle
        let last =
            in_process["start_cycle"].as_u64().unwrap() + in_process["cycles"].as_u64().unwrap();
        assert_eq!(session["end_cycle"], last, "{what}");
        assert_eq!(client["end_cycle"], last, "{what}");
        // every message left its NIC before it arrived
        let left = client["left_cycles"].as_array().unwrap();
        let one_way = client["one_way_cycles"].as_array().unwrap();
        assert_eq!(left.len(), 6, "{what}");
        for (l, a) in left.iter().zip(one_way) {
            assert!(l.as_u64() < a.as_u64(), "{what}: {client}");
        }
    }
}

#[test]
fn a_python_client_with_a_wrong_token_gets_the_servers_error() {
    let tmp = TempDir::new("serve-python-token");
    let (mut server, addr, _) = serve(&tmp.0, &["--clients", "1"]);
    let script = format!(
        "import sys\nsys.path.insert(0, {:?})\nimport exanet_serve as es\ntry:\n    \
         es.Client({addr:?}, [0, 1], 'guess', timeout=20)\nexcept es.ServerError as e:\n    \
         print(e)\n    sys.exit(3)\n",
        repo("python").to_str().unwrap()
    );
    let o = Command::new(python())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{o:?}");
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("wrong session token"), "{said}");
    // the session waits on for its client; this test ends it
    server.kill().unwrap();
    server.wait().unwrap();
}
