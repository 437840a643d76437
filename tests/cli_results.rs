//! Results that carry their run and configuration a user can read and change: the JSON `run`
//! object, `--csv` with the JSON's fields, rounded floats, `--set`, `config --print` with
//! every field documented, fixed-value options listed in `--help`, shell completions.

mod common;
use common::{exanet, exanet_json as json, json_leaves};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_results");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn every_json_document_starts_with_its_run() {
    let v = json(&[
        "link",
        "latency",
        "--json",
        "--set",
        "link.phy.latency_cycles=40",
    ]);
    let o = v.as_object().unwrap();
    assert_eq!(o.keys().next().map(String::as_str), Some("run"), "{v}");
    let run = &v["run"];
    assert_eq!(run["tool"], "exanet");
    assert_eq!(run["version"], env!("CARGO_PKG_VERSION"));
    let rev = run["git_revision"].as_str().unwrap();
    assert!(
        rev == "unknown" || (rev.len() == 40 && rev.chars().all(|c| c.is_ascii_hexdigit())),
        "{rev}"
    );
    assert!(run["rtl_built_in"].is_boolean());
    assert_eq!(
        run["command_line"].as_array().unwrap()[1..],
        [
            "link",
            "latency",
            "--json",
            "--set",
            "link.phy.latency_cycles=40"
        ]
    );
    // the effective configuration, --set applied; the seed it ran with
    assert_eq!(run["config"]["link"]["phy"]["latency_cycles"], 40);
    assert_eq!(run["config"]["sim"]["seed"], 1);
    assert_eq!(run["seeds"], serde_json::json!([1]));
    // and the result moved with it: 2 cycles less PHY
    assert_eq!(v["total_cycles"], 49);
}

#[test]
fn options_that_change_the_configuration_show_in_the_run() {
    let v = json(&[
        "link",
        "efficiency",
        "--credit",
        "usedword",
        "--payload",
        "64",
        "--json",
    ]);
    assert_eq!(v["run"]["config"]["link"]["credit"]["flavour"], "usedword");
}

#[test]
fn a_sweeps_seed_is_the_seed_in_its_run_record() {
    let v = json(&[
        "network",
        "sweep",
        "--seed",
        "7",
        "--loads",
        "0.1",
        "--set",
        "net.topology=torus:4x4",
        "--set",
        "net.warmup_cycles=0",
        "--set",
        "net.measure_cycles=200",
        "--json",
    ]);
    assert_eq!(v["run"]["config"]["sim"]["seed"], 7, "{}", v["run"]);
    assert_eq!(v["run"]["seeds"], serde_json::json!([7]));
}

#[test]
fn floats_carry_no_binary_noise() {
    let o = exanet(&[
        "link",
        "efficiency",
        "--payload",
        "16,48,100,4096",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // a float printed with more than 12 significant digits
    let floats = text
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
        .filter(|t| t.contains('.'))
        .count();
    assert!(floats > 20, "only {floats} floats in:\n{text}");
    for tok in text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-')) {
        if tok.contains('.') {
            let mantissa = tok.split('e').next().unwrap();
            let digits = mantissa
                .chars()
                .filter(char::is_ascii_digit)
                .collect::<String>();
            let sig = digits.trim_start_matches('0').len();
            assert!(sig <= 12, "{tok} has {sig} significant digits");
        }
    }
}

#[test]
fn csv_tables_have_the_json_row_fields() {
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["link", "efficiency", "--payload", "64,512"], "rows"),
        (vec!["link", "latency"], ""),
        (vec!["link", "bandwidth", "--payload", "256"], ""),
        (vec!["router", "latency"], "paths"),
        (
            vec![
                "router",
                "bandwidth",
                "--payload",
                "64",
                "--intra-ports",
                "1",
            ],
            "rows",
        ),
        (
            vec![
                "karma",
                "pingpong",
                "--hops",
                "1",
                "--sizes",
                "16,64",
                "--iterations",
                "2",
            ],
            "rows",
        ),
        (vec!["karma", "selftest", "--payload", "128"], "rows"),
    ];
    for (i, (args, rows_key)) in cases.iter().enumerate() {
        let csv = tmp(&format!("t{i}.csv"));
        let mut a: Vec<&str> = args.clone();
        a.extend(["--json", "--csv", csv.to_str().unwrap()]);
        let v = json(&a);
        let rows: Vec<Value> = if rows_key.is_empty() {
            let mut o = v.as_object().unwrap().clone();
            o.shift_remove("run");
            vec![Value::Object(o)]
        } else {
            v[rows_key].as_array().unwrap().clone()
        };
        let mut leaves = Vec::new();
        json_leaves("", &rows[0], &mut leaves);
        let want: Vec<String> = leaves.into_iter().map(|(k, _)| k).collect();
        // arrays of scalars are one column
        let mut r = csv::Reader::from_path(&csv).unwrap();
        let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
        assert_eq!(header, want, "{args:?}");
        let records: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), rows.len(), "{args:?}");
        // the cells are the JSON values
        for (rec, row) in records.iter().zip(&rows) {
            for (h, cell) in header.iter().zip(rec.iter()) {
                let j = h.split('.').fold(row, |v, k| &v[k]);
                let text = match j {
                    Value::Null => String::new(),
                    Value::String(s) => s.clone(),
                    Value::Array(a) => a
                        .iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(";"),
                    x => x.to_string(),
                };
                assert_eq!(cell, text, "{args:?} column {h}");
            }
        }
    }
}

#[test]
fn csv_is_refused_before_the_run_with_a_bad_name() {
    let o = exanet(&["link", "latency", "--csv", "out.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--csv"), "{}", stderr(&o));
    let o = exanet(&["link", "latency", "--csv", "/no/such/dir/x.csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
}

#[test]
fn set_changes_a_field_and_is_validated_like_a_file() {
    // later wins, and a file's value is overridden
    let f = tmp("phy44.toml");
    std::fs::write(&f, "[link.phy]\nlatency_cycles = 44\n").unwrap();
    let v = json(&[
        "link",
        "latency",
        "--json",
        "--config",
        f.to_str().unwrap(),
        "--set",
        "link.phy.latency_cycles=41",
    ]);
    assert_eq!(v["phy_cycles"], 41);
    // a file value that --set corrects is not refused first
    std::fs::write(&f, "[link.phy]\nlatency_cycles = 0\n").unwrap();
    let v = json(&[
        "link",
        "latency",
        "--json",
        "--config",
        f.to_str().unwrap(),
        "--set",
        "link.phy.latency_cycles=42",
    ]);
    assert_eq!(v["phy_cycles"], 42);
    for (set, needle) in [
        ("link.phy.latency_cycles=0", "link.phy.latency_cycles"),
        ("link.phy.latency=3", "unknown field 'latency'"),
        ("link.num_vcs=two", "link.num_vcs"),
        ("link.phy=3", "is a section"),
        ("nonsense", "section.key=value"),
    ] {
        let o = exanet(&["link", "latency", "--set", set]);
        assert_eq!(o.status.code(), Some(2), "{set}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{set}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{set}");
    }
}

#[test]
fn config_print_documents_every_field_and_parses_back() {
    let o = exanet(&["config", "--print"]);
    assert!(o.status.success());
    let text = stdout(&o);
    // every `key = value` line is preceded by a comment
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.contains(" = ") && !l.starts_with('#') {
            assert!(
                i > 0 && lines[i - 1].starts_with('#'),
                "field without a comment: {l}"
            );
        }
    }
    assert!(text.contains("# Clock frequency"), "{text}");
    assert!(text.contains("MHz"), "{text}");
    let cfg: toml::Value = toml::from_str(&text).unwrap();
    assert_eq!(cfg["link"]["phy"]["latency_cycles"].as_integer(), Some(42));
    // with --set and a file
    let o = exanet(&["config", "--print", "--set", "link.num_vcs=4"]);
    let cfg: toml::Value = toml::from_str(&stdout(&o)).unwrap();
    assert_eq!(cfg["link"]["num_vcs"].as_integer(), Some(4));
    let p = tmp("printed.toml");
    std::fs::write(&p, &text).unwrap();
    let v = json(&["link", "latency", "--json", "--config", p.to_str().unwrap()]);
    assert_eq!(v["total_cycles"], 51);
}

/// The values `--help` lists for `option` (`--design`): the `[possible values: a, b]` line or
/// the `Possible values:` list (`- a: ...`) of that option's entry, nothing else of the text.
fn listed_values(help: &str, option: &str) -> Vec<String> {
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(&format!("{option} ")) && l.trim() != option);
    let Some(first) = lines.next() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // the short help gives the list at the end of the option's line or of a wrapped line
    let inline = |t: &str, out: &mut Vec<String>| {
        if let Some((_, rest)) = t.split_once("[possible values: ") {
            let list = rest.split(']').next().unwrap_or("");
            out.extend(list.split(", ").map(str::to_string));
        }
    };
    inline(first, &mut out);
    for l in lines {
        let t = l.trim();
        if t.starts_with("--") || t.starts_with("-h,") {
            break; // the next option
        }
        inline(t, &mut out);
        if let Some(item) = t.strip_prefix("- ") {
            out.push(item.split(':').next().unwrap_or("").trim().to_string());
        }
    }
    out
}

#[test]
fn fixed_value_options_list_their_values() {
    for (args, option, values) in [
        (
            vec!["cosim"],
            "--design",
            vec!["link", "router", "node", "network"],
        ),
        (vec!["cosim"], "--credit", vec!["start-stop", "usedword"]),
        (vec!["cosim"], "--wave-format", vec!["vcd", "fst"]),
        (vec!["karma", "pingpong"], "--mode", vec!["user", "kernel"]),
        (vec!["karma", "pingpong"], "--backend", vec!["model", "rtl"]),
        (vec!["karma", "pingpong"], "--hops", vec!["1", "2"]),
        (vec!["router", "bandwidth"], "--intra-ports", vec!["1", "2"]),
        (
            vec!["network", "sweep"],
            "--routing",
            vec![
                "ecube",
                "ecube-dateline",
                "star-channel",
                "min-adapt",
                "smart-dor",
                "min",
                "updown",
                "ecube-1vc",
                "min-1vc",
            ],
        ),
        (
            vec!["bench", "network"],
            "--case",
            vec![
                "torus32-10",
                "torus32-sat",
                "torus96-10",
                "dragonfly1056-30",
            ],
        ),
    ] {
        let mut a = args.clone();
        a.push("--help");
        let help = stdout(&exanet(&a));
        assert_eq!(
            listed_values(&help, option),
            values,
            "{args:?} {option}:\n{help}"
        );
    }
    // the parser above finds nothing for an option without a list
    let help = stdout(&exanet(&["cosim", "--help"]));
    assert!(listed_values(&help, "--cycles").is_empty());
    let o = exanet(&["cosim", "--design", "bogus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("possible values"), "{}", stderr(&o));
}

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let o = exanet(&["completions", shell]);
        assert!(o.status.success(), "{shell}");
        let s = stdout(&o);
        assert!(s.contains("exanet"), "{shell}");
        // the subcommands and an option's values are in the script
        assert!(
            s.contains("pingpong") && s.contains("star-channel"),
            "{shell}: {s}"
        );
    }
    let o = exanet(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn options_never_silently_replace_a_set() {
    // cosim takes the configuration's seed unless --seed is given
    let v = json(&[
        "cosim",
        "--design",
        "link",
        "--cycles",
        "100",
        "--set",
        "sim.seed=7",
        "--json",
    ]);
    assert_eq!(v["run"]["config"]["sim"]["seed"], 7);
    let v = json(&[
        "cosim",
        "--design",
        "link",
        "--cycles",
        "100",
        "--set",
        "sim.seed=7",
        "--seed",
        "9",
        "--json",
    ]);
    assert_eq!(v["run"]["config"]["sim"]["seed"], 9);
    // a sweep refuses a --set its options would replace
    for (set, extra) in [
        ("net.load=0.3", vec![]),
        ("net.topology=torus:8x8", vec!["--topology", "torus:4x4"]),
        ("sim.seed=3", vec!["--seed", "4"]),
    ] {
        let mut a = vec!["network", "sweep", "--loads", "0.1", "--set", set];
        a.extend(extra);
        let o = exanet(&a);
        assert_eq!(o.status.code(), Some(2), "{set}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("--set {set}")),
            "{set}: {}",
            stderr(&o)
        );
    }
    // a wave format without a wave file is refused
    for a in [
        vec!["cosim", "--design", "link", "--wave-format", "fst"],
        vec!["karma", "pingpong", "--wave-format", "fst"],
    ] {
        let o = exanet(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", stderr(&o));
    }
}
