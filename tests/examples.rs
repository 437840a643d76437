//! The ready configurations of `examples/` (issue 32 §2): each runs as its header comment shows,
//! gives what it is there for, and is named from the README or docs/validation.md. The large
//! setups (`big.toml`, `long.toml`, `longer.toml`: measurement phases only, the topology from
//! the command line) run on a 4x4 torus here; their 32x32 runs are docs/validation.md's.

mod common;

use common::{exanet, exanet_json as json, read};
use std::path::Path;

fn example(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    assert!(p.exists(), "{} is missing", p.display());
    p.to_str().unwrap().to_string()
}

#[test]
fn every_example_is_named_from_the_readme_or_the_validation_doc_and_validates() {
    let docs = read("README.md") + &read("docs/validation.md");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            let name = format!("examples/{}", p.file_name().unwrap().to_str().unwrap());
            assert!(docs.contains(&name), "{name} is named nowhere");
            let o = exanet(&["config", "--print", "--config", p.to_str().unwrap()]);
            assert!(o.status.success(), "{name}: {o:?}");
            n += 1;
        }
    }
    assert_eq!(n, 8, "the examples");
}

#[test]
fn the_first_run_is_a_stable_8x8_torus_at_load_0_3() {
    let v = json(&[
        "network",
        "run",
        "--config",
        &example("first-run.toml"),
        "--json",
    ]);
    assert_eq!(v["topology"], "torus:8x8");
    assert_eq!(v["routing"], "ecube");
    assert_eq!(v["stable"], true, "{v}");
    let acc = v["accepted_load"].as_f64().unwrap();
    assert!((acc - 0.3).abs() < 0.02, "{acc}");
    // the README's flags-only form is the same run
    let f = json(&[
        "network",
        "run",
        "--topology",
        "torus:8x8",
        "--routing",
        "ecube",
        "--load",
        "0.3",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(f["stats_hash"], v["stats_hash"]);
}

#[test]
fn the_cnf_setups_set_their_phases() {
    for (name, warmup, measure, drain) in [
        ("big.toml", 3000, 5000, 10000),
        ("long.toml", 20000, 10000, 0),
        ("longer.toml", 60000, 20000, 0),
    ] {
        let v = json(&[
            "network",
            "sweep",
            "--config",
            &example(name),
            "--topology",
            "torus:4x4",
            "--routing",
            "ecube",
            "--loads",
            "0.1",
            "--seed",
            "1",
            "--json",
        ]);
        let net = &v["run"]["config"]["net"];
        assert_eq!(net["warmup_cycles"], warmup, "{name}");
        assert_eq!(net["measure_cycles"], measure, "{name}");
        assert_eq!(net["drain_cycles"], drain, "{name}");
        let p = &v["curves"][0]["points"][0];
        assert!(p["packets_delivered"].as_u64().unwrap() > 0, "{name}: {p}");
    }
}

#[test]
fn the_bit_error_run_accounts_for_its_damaged_packets() {
    let v = json(&[
        "network",
        "run",
        "--config",
        &example("bit-errors.toml"),
        "--json",
    ]);
    let a = &v["accounting"];
    assert!(a["bits_flipped"].as_u64().unwrap() > 0, "{a}");
    assert!(a["crc_failed"].as_u64().unwrap() > 0, "{a}");
    // every packet somewhere
    let sum: u64 = [
        "delivered_intact",
        "crc_failed",
        "discarded",
        "dropped",
        "lost_at_dead_nodes",
        "in_flight",
    ]
    .iter()
    .map(|k| a[k].as_u64().unwrap())
    .sum::<u64>()
        + a["lost_on_failed_links"].as_i64().unwrap() as u64;
    assert_eq!(sum, a["injected"].as_u64().unwrap(), "{a}");
}

#[test]
fn the_fault_run_marks_the_failed_links_ports_down_and_routes_around() {
    let v = json(&[
        "network",
        "run",
        "--config",
        &example("faults.toml"),
        "--latency-bin",
        "500",
        "--json",
    ]);
    let f = &v["faults"];
    assert_eq!(f["planted"], 1, "{f}");
    assert_eq!(f["ports_marked_down"], 2, "{f}");
    assert!(f["reroutes"].as_u64().unwrap() >= 1, "{f}");
}

#[test]
fn the_dpsnn_and_replay_examples_run_as_shown() {
    let v = json(&[
        "app",
        "dpsnn",
        "--config",
        &example("dpsnn.toml"),
        "--columns",
        "4x4",
        "--iterations",
        "20",
        "--json",
    ]);
    assert_eq!(v["topology"], "torus:4x4", "{v}");
    let v = json(&[
        "app",
        "replay",
        &example("traces/ring/ti.txt"),
        "--config",
        &example("replay.toml"),
        "--json",
    ]);
    assert_eq!(v["traced_messages"], 8);
    assert_eq!(v["p2p_messages_sent"], v["traced_messages"]);
    assert_eq!(v["traced_bytes"], 4160);
}

/// Issue 32 §4: docs/tutorial.md's commands run as shown, from the repository's root, and
/// what the page quotes is what they print: each line of a `text` block in the output of the
/// command before it, each quoted phrase with a figure in the output of one of them (spaces
/// and line breaks alike).
#[test]
fn the_tutorial_runs_as_written_and_quotes_what_it_prints() {
    let page = read("docs/tutorial.md");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = root.join("out/tutorial");
    let _ = std::fs::remove_dir_all(&out);
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (mut block, mut last, mut all) = (None::<String>, String::new(), String::new());
    let mut commands = 0;
    for line in page.lines() {
        if let Some(kind) = line.strip_prefix("```") {
            block = match block {
                None => Some(kind.to_string()),
                Some(_) => None,
            };
            continue;
        }
        match block.as_deref() {
            Some("sh") if line.starts_with("mkdir -p ") => {
                std::fs::create_dir_all(root.join(&line["mkdir -p ".len()..])).unwrap();
            }
            Some("sh") => {
                let args: Vec<&str> = line
                    .strip_prefix("exanet ")
                    .unwrap_or_else(|| panic!("not an exanet command: {line}"))
                    .split_whitespace()
                    .collect();
                let o = std::process::Command::new(env!("CARGO_BIN_EXE_exanet"))
                    .args(&args)
                    .current_dir(root)
                    .output()
                    .unwrap();
                let text = String::from_utf8_lossy(&o.stdout).into_owned();
                assert!(
                    o.status.success(),
                    "{line}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                // the files it names were written
                for w in args.windows(2) {
                    if w[1].starts_with("out/tutorial/") {
                        assert!(root.join(w[1]).exists(), "{line}: no {}", w[1]);
                    }
                }
                last = text.clone();
                all.push_str(&text);
                commands += 1;
            }
            Some("text") => {
                assert!(
                    last.contains(line),
                    "'{line}' is not in what the command printed:\n{last}"
                );
            }
            _ => {}
        }
    }
    assert_eq!(commands, 7, "the tutorial's commands");
    let (flat, printed) = (squash(&page), squash(&all));
    let mut quoted = 0;
    for (k, q) in flat.split('"').enumerate() {
        if k % 2 == 1 && q.chars().any(|c| c.is_ascii_digit()) {
            assert!(
                printed.contains(q),
                "\"{q}\" is not in what the commands printed"
            );
            quoted += 1;
        }
    }
    assert!(quoted >= 8, "{quoted} quoted figures");
    let _ = std::fs::remove_dir_all(&out);
}
