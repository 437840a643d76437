//! `exanet network sweep` and `network run` end to end: `--vary`, `--seeds` with their
//! confidence intervals, `--jobs` giving byte-identical output, unstable points, the CSV
//! holding the JSON's fields, the packets file (`--packets`) against the JSON's counts, and
//! `bench network` handing its `--set`s to its children. Tiny networks and short windows, so
//! that each test takes seconds. (The packet log itself: `tests/net_packet_log.rs`.)

mod common;
use common::{exanet, json_leaves};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Short phases: a run of a 4x4 torus takes milliseconds.
const SHORT: [&str; 6] = [
    "--set",
    "net.warmup_cycles=300",
    "--set",
    "net.measure_cycles=1000",
    "--set",
    "net.drain_cycles=3000",
];

fn sweep(args: &[&str]) -> Output {
    let mut a = vec!["network", "sweep"];
    a.extend_from_slice(&SHORT);
    a.extend_from_slice(args);
    exanet(&a)
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_str(&ok(o)).expect("JSON on stdout")
}

fn refused(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "not refused: {err}");
    assert!(err.contains(needle), "'{needle}' not in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A fresh directory for one test.
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("exanet-net-sweep-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A JSON value as the CSV writes it.
fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        // a list of numbers (a histogram's counts) is one cell, its items joined by ';'
        Value::Array(a) => a.iter().map(cell).collect::<Vec<_>>().join(";"),
        x => x.to_string(),
    }
}

/// The CSV's rows as (header, cells); no field in these files holds a quote or a line break.
fn read_csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let split = |l: &str| -> Vec<String> {
        // a dragonfly's name is quoted; the tests here use tori and meshes only
        assert!(!l.contains('"'), "{l}");
        l.split(',').map(str::to_string).collect()
    };
    let mut lines = text.lines();
    let header = split(lines.next().expect("a header"));
    (header, lines.map(split).collect())
}

/// Every point's JSON, in curve order.
fn points(v: &Value) -> Vec<Value> {
    v["curves"]
        .as_array()
        .expect("curves")
        .iter()
        .flat_map(|c| c["points"].as_array().expect("points").clone())
        .collect()
}

/// The CSV holds exactly the JSON points' fields, in the same order, with the same values.
fn csv_matches_points(csv: &str, pts: &[Value]) {
    let (header, rows) = read_csv(csv);
    assert_eq!(rows.len(), pts.len(), "one CSV row a JSON point");
    for (row, p) in rows.iter().zip(pts) {
        let mut leaves = Vec::new();
        json_leaves("", p, &mut leaves);
        let names: Vec<&String> = leaves.iter().map(|(k, _)| k).collect();
        assert_eq!(header.iter().collect::<Vec<_>>(), names, "CSV columns");
        let cells: Vec<String> = leaves.iter().map(|(_, v)| cell(v)).collect();
        let values: Vec<&String> = cells.iter().collect();
        assert_eq!(row.iter().collect::<Vec<_>>(), values, "CSV values");
    }
}

// ---- --vary ----

#[test]
fn vary_makes_a_curve_per_value_named_in_json_csv_table_and_plot() {
    let d = dir("vary");
    let (csv, svg) = (d.join("v.csv"), d.join("v.svg"));
    let args = [
        "--topology",
        "torus:4x4",
        "--routing",
        "ecube",
        "--loads",
        "0.1,0.3",
        "--vary",
        "link.credit.period_cycles=20,50",
    ];
    let mut with_out = args.to_vec();
    with_out.extend(["--json", "--csv", s(&csv), "--plot", s(&svg)]);
    let v = json(&sweep(&with_out));
    assert_eq!(
        v["varied"],
        serde_json::json!(["link.credit.period_cycles"])
    );
    let curves = v["curves"].as_array().unwrap();
    assert_eq!(curves.len(), 2);
    let mut hashes = Vec::new();
    for (c, period) in curves.iter().zip([20, 50]) {
        assert_eq!(c["vary"]["link.credit.period_cycles"], period, "{c}");
        let pts = c["points"].as_array().unwrap();
        assert_eq!(pts.len(), 2);
        for p in pts {
            assert_eq!(p["vary"]["link.credit.period_cycles"], period, "{p}");
            assert_eq!(p["topology"], "torus:4x4");
            hashes.push(p["stats_hash"].as_str().unwrap().to_string());
        }
    }
    // the value reached the runs: the credit beats come at another rate, the packets move
    // otherwise
    assert_ne!(hashes[0], hashes[2]);
    assert_ne!(hashes[1], hashes[3]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with("topology,routing,routing_rtl_twin,vary.link.credit.period_cycles,seed,")
    );
    csv_matches_points(&text, &points(&v));
    let plot = std::fs::read_to_string(&svg).unwrap();
    for period in [20, 50] {
        assert!(plot.contains(&format!(
            "torus:4x4 ecube link.credit.period_cycles={period}"
        )));
    }
    let table = ok(&sweep(&args));
    assert!(table.contains("torus:4x4 ecube link.credit.period_cycles=20 (16 endpoints"));
    assert!(table.contains("torus:4x4 ecube link.credit.period_cycles=50 (16 endpoints"));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn several_varies_form_every_combination_the_first_slowest() {
    let v = json(&sweep(&[
        "--loads",
        "0.1",
        "--vary",
        "link.credit.period_cycles=20,50",
        "--vary",
        "net.pattern=uniform,transpose",
        "--json",
    ]));
    let got: Vec<(Value, Value)> = v["curves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["vary"]["link.credit.period_cycles"].clone(),
                c["vary"]["net.pattern"].clone(),
            )
        })
        .collect();
    let want: Vec<(Value, Value)> = [
        (20, "uniform"),
        (20, "transpose"),
        (50, "uniform"),
        (50, "transpose"),
    ]
    .iter()
    .map(|&(a, b)| (Value::from(a), Value::from(b)))
    .collect();
    assert_eq!(got, want);
    // transpose leaves the diagonal at home: the pattern reached the runs
    for c in v["curves"].as_array().unwrap() {
        let home = c["points"][0]["self_addressed"].as_u64().unwrap();
        assert_eq!(home > 0, c["vary"]["net.pattern"] == "transpose", "{c}");
    }
}

/// A document without the command line that made it.
fn without_command_line(mut v: Value) -> Value {
    v["run"]
        .as_object_mut()
        .expect("run")
        .shift_remove("command_line");
    v
}

#[test]
fn vary_net_load_is_loads_and_not_both() {
    let a = json(&sweep(&["--loads", "0.1:0.3:0.1", "--json"]));
    let b = json(&sweep(&["--vary", "net.load=0.1:0.3:0.1", "--json"]));
    assert_eq!(without_command_line(a.clone()), without_command_line(b));
    assert_eq!(points(&a).len(), 3);
    let c = json(&sweep(&["--vary", "net.load=0.1,0.2,0.3", "--json"]));
    assert_eq!(without_command_line(a), without_command_line(c));
    refused(
        &sweep(&["--loads", "0.1", "--vary", "net.load=0.2"]),
        "--vary net.load and --loads both give the loads",
    );
}

#[test]
fn bad_varied_values_are_refused_naming_the_field() {
    for (args, needle) in [
        (
            vec!["--vary", "link.credit.period=20,30"],
            "--vary link.credit.period=20: unknown field 'period'",
        ),
        (
            vec!["--vary", "link.credit.period_cycles=20,x"],
            "--vary link.credit.period_cycles=x",
        ),
        (
            vec!["--vary", "net.topology=torus:4x4,ring:3"],
            "--vary net.topology=ring:3: topology",
        ),
        (
            vec!["--vary", "net.load=0.1,1.5"],
            "--vary net.load: loads '0.1,1.5': load 1.5 is outside (0, 1]",
        ),
        (
            vec!["--vary", "sim.seed=1,2"],
            "give the seeds with --seeds",
        ),
        (
            vec![
                "--vary",
                "net.topology=torus:3x3",
                "--topology",
                "torus:4x4",
            ],
            "--vary net.topology and --topology set the same field",
        ),
        (
            vec!["--vary", "net.sizes=16,32", "--size", "64"],
            "--vary net.sizes and --size set the same field",
        ),
        (
            vec!["--vary", "net.sizes=16", "--vary", "net.sizes=32"],
            "the field is varied twice",
        ),
        (vec!["--vary", "net.sizes"], "expected section.key=V1,V2"),
        (
            vec!["--vary", "net.injection=constant:2"],
            "set net.injection = \"bernoulli\"",
        ),
    ] {
        refused(&sweep(&args), needle);
    }
    // an absurd sweep is refused before any curve is set up
    let periods: Vec<String> = (1..=1000).map(|p| p.to_string()).collect();
    let vary = format!("link.credit.period_cycles={}", periods.join(","));
    refused(
        &sweep(&["--vary", &vary, "--loads", "0.01:1:0.01", "--seeds", "1..2"]),
        "1000 curves x 100 loads x 2 seeds = 200000 runs; a sweep makes at most 100000",
    );
}

// ---- --seeds ----

/// t(0.975, 2), R's qt(0.975, 2).
const T975_2DOF: f64 = 4.302652729911275;

#[test]
fn seeds_repeat_every_point_and_report_a_student_t_interval() {
    let v = json(&sweep(&[
        "--topology",
        "torus:4x4",
        "--routing",
        "ecube",
        "--loads",
        "0.1,0.3",
        "--seeds",
        "1..3",
        "--json",
    ]));
    assert_eq!(v["run"]["seeds"], serde_json::json!([1, 2, 3]));
    let c = &v["curves"][0];
    let pts = c["points"].as_array().unwrap();
    assert_eq!(pts.len(), 6, "2 loads x 3 seeds");
    let means = c["means"].as_array().unwrap();
    assert_eq!(means.len(), 2);
    for (l, m) in means.iter().enumerate() {
        let runs = &pts[3 * l..3 * l + 3];
        let seeds: Vec<u64> = runs.iter().map(|p| p["seed"].as_u64().unwrap()).collect();
        assert_eq!(seeds, [1, 2, 3]);
        for p in runs {
            assert_eq!(p["offered_load"], m["offered_load"]);
        }
        // the seeds reach the generators: three different runs
        assert_ne!(runs[0]["stats_hash"], runs[1]["stats_hash"]);
        assert_ne!(runs[1]["stats_hash"], runs[2]["stats_hash"]);
        assert_eq!(m["runs"], 3);
        for field in ["accepted_load", "latency_mean_cycles"] {
            let x: Vec<f64> = runs.iter().map(|p| p[field].as_f64().unwrap()).collect();
            // by hand: mean, sample standard deviation, t(0.975, 2) s / sqrt(3)
            let mean = (x[0] + x[1] + x[2]) / 3.0;
            let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / 2.0;
            let half = T975_2DOF * var.sqrt() / 3f64.sqrt();
            let got = &m[field];
            // the JSON's figures are rounded to 12 significant digits, the program's sums are not
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1e-12);
            assert!(close(got["mean"].as_f64().unwrap(), mean), "{field}: {got}");
            assert!(
                close(got["std"].as_f64().unwrap(), var.sqrt()),
                "{field}: {got}"
            );
            assert!(close(got["ci95"].as_f64().unwrap(), half), "{field}: {got}");
            assert!(half > 0.0, "{field}: three seeds that agree exactly");
        }
    }
    // a list works too, and one seed has no interval
    let v = json(&sweep(&["--loads", "0.1", "--seeds", "2,7", "--json"]));
    assert_eq!(v["run"]["seeds"], serde_json::json!([2, 7]));
    let v = json(&sweep(&["--loads", "0.1", "--seed", "5", "--json"]));
    assert_eq!(v["run"]["seeds"], serde_json::json!([5]));
    let m = &v["curves"][0]["means"][0];
    assert_eq!(m["runs"], 1);
    assert_eq!(m["accepted_load"]["ci95"], Value::Null);
    assert_eq!(
        m["accepted_load"]["mean"],
        v["curves"][0]["points"][0]["accepted_load"]
    );
    refused(
        &sweep(&["--seed", "1", "--seeds", "1..3"]),
        "--seed and --seeds both give the seed",
    );
    refused(
        &sweep(&["--seeds", "3..1"]),
        "--seeds 3..1: the range 3..1 runs backwards",
    );
    refused(&sweep(&["--seeds", "1,x"]), "'x' is not a seed");
}

#[test]
fn the_table_of_several_seeds_gives_mean_and_interval() {
    let t = ok(&sweep(&["--loads", "0.1", "--seeds", "1..3"]));
    assert!(
        t.contains("(3 seeds; mean ± half-width of the 95 % interval)"),
        "{t}"
    );
    let row = t
        .lines()
        .find(|l| l.trim_start().starts_with("0.100"))
        .expect("a row");
    assert_eq!(row.matches('±').count(), 2, "{row}");
    assert!(row.trim_end().ends_with("0/3"), "{row}");
    // every column says its unit (issue 32 §2)
    assert!(t.contains("(load)") && t.contains("(runs)"), "{t}");
    let one = ok(&sweep(&["--loads", "0.1"]));
    let units = one
        .lines()
        .find(|l| l.trim_start().starts_with("(load)"))
        .expect("a line of units");
    assert_eq!(units.split_whitespace().count(), 10, "{units}");
    assert!(
        units.contains("(cycles)") && units.contains("(packets)"),
        "{units}"
    );
}

// ---- --jobs ----

#[test]
fn jobs_give_byte_identical_json_csv_and_packets() {
    let d = dir("jobs");
    let run = |jobs: &str| -> (Value, String, String) {
        let (csv, pk) = (
            d.join(format!("j{jobs}.csv")),
            d.join(format!("p{jobs}.csv")),
        );
        let o = sweep(&[
            "--topology",
            "torus:4x4",
            "--routing",
            "ecube",
            "--topology",
            "mesh:3x3",
            "--routing",
            "ecube",
            "--loads",
            "0.1,0.4",
            "--seeds",
            "1,2",
            "--jobs",
            jobs,
            "--json",
            "--csv",
            s(&csv),
            "--packets",
            s(&pk),
        ]);
        let v = json(&o);
        (
            v,
            std::fs::read_to_string(&csv).unwrap(),
            std::fs::read_to_string(&pk).unwrap(),
        )
    };
    let (v1, c1, p1) = run("1");
    let (v3, c3, p3) = run("3");
    assert_eq!(points(&v1).len(), 8);
    let text = |v: Value| serde_json::to_string_pretty(&without_command_line(v)).unwrap();
    assert_eq!(text(v1), text(v3), "JSON");
    assert_eq!(c1, c3, "CSV");
    assert_eq!(p1, p3, "packets file");
    // no part file is left behind
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".part"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    refused(&sweep(&["--jobs", "0"]), "--jobs 0: give 1 to 256 threads");
    refused(
        &sweep(&["--jobs", "100000"]),
        "--jobs 100000: give 1 to 256 threads",
    );
    std::fs::remove_dir_all(&d).ok();
}

/// A sweep's points shared among processes (`--part K/N --parts-dir`, then `--join`: a job
/// array's tasks) give, joined, the one-process sweep's results byte for byte; joins of
/// incomplete or foreign parts are refused.
#[test]
fn parts_joined_give_the_one_process_sweep_byte_for_byte() {
    let d = dir("parts");
    let parts = d.join("parts");
    std::fs::create_dir_all(&parts).unwrap();
    let base = [
        "--topology",
        "torus:4x4",
        "--routing",
        "ecube",
        "--topology",
        "mesh:3x3",
        "--routing",
        "min-adapt",
        "--loads",
        "0.1,0.4",
        "--seeds",
        "1,2",
        "--vary",
        "link.num_vcs=2,4",
    ];
    let with = |more: &[&str]| -> Output { sweep(&[&base[..], more].concat()) };
    let outputs = |tag: &str| {
        (
            d.join(format!("{tag}.csv")),
            d.join(format!("{tag}-packets.csv")),
            d.join(format!("{tag}.svg")),
        )
    };
    let (wc, wp, ws) = outputs("whole");
    let whole = json(&with(&[
        "--json",
        "--csv",
        s(&wc),
        "--packets",
        s(&wp),
        "--plot",
        s(&ws),
    ]));
    assert_eq!(points(&whole).len(), 16);
    let (jc, jp, js) = outputs("joined");
    for k in 0..3 {
        let part = format!("{k}/3");
        let o = with(&[
            "--part",
            &part,
            "--parts-dir",
            s(&parts),
            "--packets",
            s(&jp),
        ]);
        assert_eq!(ok(&o), "", "a part prints no results");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("part {k} of 3: ")), "{err}");
        // (the last part runs points 2, 5, .., 14: 5 of them)
        let n = (k..16).step_by(3).count();
        assert!(
            err.contains(&format!("{n} of the sweep's 16 points")),
            "{err}"
        );
    }
    let joined = json(&with(&[
        "--join",
        s(&parts),
        "--json",
        "--csv",
        s(&jc),
        "--packets",
        s(&jp),
        "--plot",
        s(&js),
    ]));
    let text = |v: &Value| serde_json::to_string_pretty(&without_command_line(v.clone())).unwrap();
    assert_eq!(text(&whole), text(&joined), "JSON");
    for (a, b) in [(&wc, &jc), (&wp, &jp), (&ws, &js)] {
        assert_eq!(
            std::fs::read(a).unwrap(),
            std::fs::read(b).unwrap(),
            "{} against {}",
            a.display(),
            b.display()
        );
    }
    // the packet parts were joined and removed
    let left = std::fs::read_dir(&d)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".part")
        })
        .count();
    assert_eq!(left, 0);
    // refusals: another sweep's parts, a missing part, a mixed split, bad splits
    refused(
        &sweep(&[
            "--topology",
            "torus:4x4",
            "--loads",
            "0.2",
            "--join",
            s(&parts),
        ]),
        "a part of another sweep",
    );
    std::fs::rename(parts.join("part-1-of-3.json"), d.join("aside.json")).unwrap();
    refused(&with(&["--join", s(&parts)]), "part 1 of 3 is missing");
    std::fs::copy(d.join("aside.json"), parts.join("part-1-of-3.json")).unwrap();
    let o = with(&["--part", "0/2", "--parts-dir", s(&parts)]);
    ok(&o);
    refused(
        &with(&["--join", s(&parts)]),
        "mixes parts of different splits",
    );
    refused(
        &with(&["--part", "3/3", "--parts-dir", s(&parts)]),
        "--part 3/3: expected K/N",
    );
    refused(
        &with(&["--part", "0/3", "--parts-dir", "/nonexistent/dir"]),
        "--parts-dir /nonexistent/dir: not a folder",
    );
    let e = with(&["--parts-dir", s(&parts)]);
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("--part"));
    refused(
        &with(&["--saturation", "--part", "0/3", "--parts-dir", s(&parts)]),
        "--saturation runs in one process",
    );
    std::fs::remove_dir_all(&d).ok();
}

/// A topology given as its links (`graph:N:A-B,...`): up*/down* routes it, every packet
/// arrives, its channel dependency graph is acyclic; a bad graph is refused naming its fault.
#[test]
fn a_graph_of_links_runs_under_updown_and_bad_graphs_are_refused() {
    // a ring of 6 with two chords
    let g = "graph:6:0-1,1-2,2-3,3-4,4-5,5-0,0-3,1-4";
    let o = exanet(&[
        "network",
        "run",
        "--topology",
        g,
        "--routing",
        "updown",
        "--load",
        "0.3",
        "--json",
    ]);
    let v = json(&o);
    assert_eq!(v["topology"], g);
    assert_eq!(v["stable"], true);
    assert_eq!(v["packets_lost"], 0);
    assert!(v["packets_delivered"].as_u64().unwrap() > 500, "{v}");
    let o = exanet(&[
        "network",
        "cdg",
        "--topology",
        g,
        "--routing",
        "updown",
        "--json",
    ]);
    let cdg = json(&o);
    assert_eq!(cdg["acyclic"], true, "{cdg}");
    for (bad, says) in [
        (
            "graph:4:0-1,2-3",
            "not connected: 2 nodes (node 2 and others) cannot reach node 0",
        ),
        (
            "graph:3:0-1,1-2,2-1",
            "link 2, 2-1: joins nodes 2 and 1 again (link 1)",
        ),
        (
            "graph:3:0-1,1-3",
            "link 1, 1-3: node 3 is not one of the 3 nodes 0..2",
        ),
        ("graph:2:0-x", "link 0, '0-x': expected A-B"),
        ("graph:1:", "1 node: a graph has 2 to 65536"),
    ] {
        let o = exanet(&["network", "run", "--topology", bad, "--routing", "updown"]);
        refused(&o, says);
    }
    // a torus routing on a graph
    let o = exanet(&["network", "run", "--topology", g, "--routing", "ecube"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

// ---- unstable points ----

#[test]
fn unstable_points_are_marked_in_table_json_csv_and_plot() {
    let d = dir("unstable");
    let (csv, svg) = (d.join("u.csv"), d.join("u.svg"));
    // no drain: the window's last packets are still in flight at the end of the run at 0.4,
    // while at 0.05 over a long drain every packet arrives
    let base = [
        "--topology",
        "torus:4x4",
        "--routing",
        "ecube",
        "--loads",
        "0.4",
        "--set",
        "net.drain_cycles=0",
    ];
    let mut a = base.to_vec();
    a.extend(["--json", "--csv", s(&csv), "--plot", s(&svg)]);
    let v = json(&sweep(&a));
    let p = &v["curves"][0]["points"][0];
    assert!(p["packets_in_flight"].as_u64().unwrap() > 0, "{p}");
    assert_eq!(p["stable"], false);
    assert_eq!(v["curves"][0]["means"][0]["stable"], false);
    let text = std::fs::read_to_string(&csv).unwrap();
    let (header, rows) = read_csv(&text);
    let col = header.iter().position(|h| h == "stable").unwrap();
    assert_eq!(rows[0][col], "false");
    // one hollow marker a panel, and one in each legend beside what hollow means
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(plot.matches("class=\"hollow\"").count(), 4, "{plot}");
    assert_eq!(
        plot.matches(">hollow: saturated or not drained<").count(),
        2
    );
    let t = ok(&sweep(&base));
    let row = t
        .lines()
        .find(|l| l.trim_start().starts_with("0.400"))
        .unwrap();
    assert!(row.ends_with(" *"), "{row}");
    assert!(
        t.contains("* unstable: window packets were still in flight"),
        "{t}"
    );
    // a stable point: no mark, no legend line, filled markers
    let mut a = vec!["--loads", "0.05", "--json", "--plot", s(&svg)];
    a.extend(["--topology", "torus:4x4", "--routing", "ecube"]);
    let v = json(&sweep(&a));
    assert_eq!(v["curves"][0]["points"][0]["stable"], true);
    assert_eq!(v["curves"][0]["points"][0]["packets_in_flight"], 0);
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(!plot.contains("hollow"));
    let t = ok(&sweep(&["--loads", "0.05"]));
    assert!(!t.contains('*'), "{t}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn the_load_axis_says_what_a_load_of_1_is() {
    let d = dir("axis");
    let svg = d.join("a.svg");
    ok(&sweep(&["--loads", "0.1", "--plot", s(&svg)]));
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(
        plot.matches(">applied load (1 = 8 payload bytes/cycle per endpoint)<")
            .count(),
        2
    );
    ok(&sweep(&[
        "--loads",
        "0.1",
        "--set",
        "net.injection_bytes_per_cycle=4",
        "--plot",
        s(&svg),
    ]));
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.contains(">applied load (1 = 4 payload bytes/cycle per endpoint)<"));
    std::fs::remove_dir_all(&d).ok();
}

// ---- CSV = JSON ----

#[test]
fn csv_columns_are_the_json_point_fields_for_sweep_and_run() {
    let d = dir("csv");
    let csv = d.join("s.csv");
    for extra in [
        vec![],
        vec!["--seeds", "1,2"],
        vec!["--vary", "net.sizes=16,64"],
    ] {
        let mut a = vec!["--loads", "0.1,0.2", "--json", "--csv", s(&csv)];
        a.extend(extra.iter().copied());
        let v = json(&sweep(&a));
        csv_matches_points(&std::fs::read_to_string(&csv).unwrap(), &points(&v));
    }
    let cfg = d.join("r.toml");
    std::fs::write(
        &cfg,
        "[net]\ntopology = \"mesh:3x3\"\nload = 0.2\nwarmup_cycles = 300\nmeasure_cycles = 1000\n\
         probe = \"src=0,dst=8,period=200\"\n",
    )
    .unwrap();
    let rc = d.join("r.csv");
    let v = json(&exanet(&[
        "network",
        "run",
        "--config",
        s(&cfg),
        "--json",
        "--csv",
        s(&rc),
    ]));
    let mut point = v.clone();
    point.as_object_mut().unwrap().shift_remove("run");
    // the per-link list is JSON only (a list of objects is no CSV row)
    assert!(point
        .as_object_mut()
        .unwrap()
        .shift_remove("link_losses")
        .is_some());
    csv_matches_points(&std::fs::read_to_string(&rc).unwrap(), &[point]);
    assert_eq!(v["topology"], "mesh:3x3");
    assert_eq!(v["seed"], 1);
    assert_eq!(v["stable"], true);
    refused(
        &exanet(&["network", "run", "--config", s(&cfg), "--csv", "x.txt"]),
        "--csv: x.txt: give a file name ending in .csv",
    );
    std::fs::remove_dir_all(&d).ok();
}

// ---- the packets file ----

/// The packets file's lines as maps from column to value.
fn packet_lines(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let (header, rows) = read_csv(&std::fs::read_to_string(path).unwrap());
    assert_eq!(
        header.join(","),
        "curve,point,offered_load,seed,src,dst,vc,size_bytes,injected_cycle,delivered_cycle,\
         latency_cycles,hops,window,probe,created_cycle,source_queue_cycles,router_cycles,\
         link_cycles,link_wait_cycles,ejection_cycles,hop_router_cycles,hop_link_cycles,\
         hop_link_wait_cycles"
    );
    rows.into_iter()
        .map(|r| header.iter().cloned().zip(r).collect())
        .collect()
}

fn num(m: &std::collections::HashMap<String, String>, k: &str) -> u64 {
    m[k].parse().unwrap_or_else(|_| panic!("{k} = {}", m[k]))
}

#[test]
fn the_packets_file_of_a_run_has_a_line_per_delivered_packet() {
    let d = dir("packets");
    let cfg = d.join("p.toml");
    std::fs::write(
        &cfg,
        "[net]\ntopology = \"torus:4x4\"\nload = 0.3\nsizes = \"16:160\"\nwarmup_cycles = 500\n\
         measure_cycles = 1500\nprobe = \"src=0,dst=5,period=200\"\n",
    )
    .unwrap();
    let pk = d.join("p.csv");
    let v = json(&exanet(&[
        "network",
        "run",
        "--config",
        s(&cfg),
        "--json",
        "--packets",
        s(&pk),
    ]));
    let lines = packet_lines(&pk);
    // every packet delivered in the run: warm-up, window and drain, probes included
    assert_eq!(
        lines.len() as u64,
        v["packets_delivered_total"].as_u64().unwrap()
    );
    let is = |m: &std::collections::HashMap<String, String>, k: &str| m[k] == "true";
    let window: Vec<_> = lines
        .iter()
        .filter(|m| is(m, "window") && !is(m, "probe"))
        .collect();
    assert_eq!(
        window.len() as u64,
        v["packets_delivered"].as_u64().unwrap()
    );
    let probes = lines
        .iter()
        .filter(|m| is(m, "window") && is(m, "probe"))
        .count();
    assert_eq!(probes as u64, v["probe_packets"].as_u64().unwrap());
    assert!(probes > 0);
    assert!(
        lines.len() > window.len() + probes,
        "warm-up and drain packets too"
    );
    // the window's latencies are the JSON's
    let sum: u64 = window.iter().map(|m| num(m, "latency_cycles")).sum();
    let mean = sum as f64 / window.len() as f64;
    let want = v["latency_mean_cycles"].as_f64().unwrap();
    assert!((mean - want).abs() <= 1e-8 * want, "{mean} vs {want}");
    let max = window
        .iter()
        .map(|m| num(m, "latency_cycles"))
        .max()
        .unwrap();
    assert_eq!(max, v["latency_max_cycles"].as_u64().unwrap());
    // and the packet latencies (the source queue added) too
    let psum: u64 = window
        .iter()
        .map(|m| num(m, "latency_cycles") + num(m, "source_queue_cycles"))
        .sum();
    let pmean = psum as f64 / window.len() as f64;
    let want = v["packet_latency_mean_cycles"].as_f64().unwrap();
    assert!((pmean - want).abs() <= 1e-8 * want, "{pmean} vs {want}");
    for m in &lines {
        assert_eq!(
            num(m, "source_queue_cycles"),
            num(m, "injected_cycle") - num(m, "created_cycle")
        );
        assert_eq!(
            num(m, "latency_cycles"),
            num(m, "delivered_cycle") - num(m, "injected_cycle")
        );
        assert_eq!(
            (&m["curve"][..], &m["point"][..], &m["seed"][..]),
            ("0", "0", "1")
        );
        assert_eq!(m["offered_load"], "0.3");
        let size = num(m, "size_bytes");
        if is(m, "probe") {
            assert_eq!((num(m, "src"), num(m, "dst")), (0, 5));
        } else {
            assert!((16..=160).contains(&size), "{size}");
        }
        assert!((1..=4).contains(&num(m, "hops")), "{m:?}");
        // the latency split hop by hop: h + 1 routers and h links, adding up to the latency
        let list = |k: &str| -> Vec<u64> { m[k].split(';').map(|x| x.parse().unwrap()).collect() };
        let (routers, links) = (list("hop_router_cycles"), list("hop_link_cycles"));
        assert_eq!(routers.len() as u64, num(m, "hops") + 1, "{m:?}");
        assert_eq!(links.len() as u64, num(m, "hops"), "{m:?}");
        assert_eq!(routers.iter().sum::<u64>(), num(m, "router_cycles"));
        assert_eq!(links.iter().sum::<u64>(), num(m, "link_cycles"));
        assert_eq!(
            num(m, "router_cycles") + num(m, "link_cycles") + num(m, "ejection_cycles"),
            num(m, "latency_cycles"),
            "{m:?}"
        );
    }
    // the summary's split is the window's lines'
    let sp = &v["latency_split"];
    assert_eq!(sp["packets"].as_u64().unwrap(), window.len() as u64);
    assert_eq!(sp["packets_without_split"].as_u64().unwrap(), 0);
    let mean = |k: &str| window.iter().map(|m| num(m, k)).sum::<u64>() as f64 / window.len() as f64;
    for k in ["router", "link", "link_wait", "ejection"] {
        let got = sp[format!("{k}_mean_cycles")].as_f64().unwrap();
        let want = mean(&format!("{k}_cycles"));
        assert!(
            (got - want).abs() <= 1e-9 * want.max(1.0),
            "{k}: {got} vs {want}"
        );
    }
    let parts =
        ["router", "link", "ejection"].map(|k| sp[format!("{k}_mean_cycles")].as_f64().unwrap());
    let lat = v["latency_mean_cycles"].as_f64().unwrap();
    assert!((parts.iter().sum::<f64>() - lat).abs() <= 1e-8 * lat);
    // the window's payload bytes are the accepted load's... of the packets injected in it
    let bytes: u64 = window.iter().map(|m| num(m, "size_bytes")).sum();
    let injected = v["injected_load"].as_f64().unwrap() * 16.0 * 1500.0 * 8.0;
    assert!(
        (bytes as f64 - injected).abs() < 0.5,
        "{bytes} vs {injected}"
    );
    refused(
        &exanet(&[
            "network",
            "run",
            "--config",
            s(&cfg),
            "--packets",
            "/nonexistent/p.csv",
        ]),
        "--packets: /nonexistent/p.csv: the directory /nonexistent does not exist",
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn the_packets_file_of_a_sweep_names_each_line_s_point() {
    let d = dir("sweep-packets");
    let pk = d.join("p.csv");
    let v = json(&sweep(&[
        "--topology",
        "torus:4x4",
        "--routing",
        "ecube",
        "--topology",
        "mesh:3x3",
        "--routing",
        "ecube",
        "--loads",
        "0.1,0.3",
        "--seeds",
        "4,9",
        "--json",
        "--packets",
        s(&pk),
    ]));
    let lines = packet_lines(&pk);
    let mut total = 0;
    for (c, curve) in v["curves"].as_array().unwrap().iter().enumerate() {
        for (i, p) in curve["points"].as_array().unwrap().iter().enumerate() {
            let mine: Vec<_> = lines
                .iter()
                .filter(|m| num(m, "curve") == c as u64 && num(m, "point") == i as u64)
                .collect();
            assert_eq!(
                mine.len() as u64,
                p["packets_delivered_total"].as_u64().unwrap(),
                "curve {c} point {i}"
            );
            for m in &mine {
                assert_eq!(m["seed"], cell(&p["seed"]));
                assert_eq!(m["offered_load"], cell(&p["offered_load"]));
            }
            let window = mine
                .iter()
                .filter(|m| m["window"] == "true" && m["probe"] == "false")
                .count();
            assert_eq!(window as u64, p["packets_delivered"].as_u64().unwrap());
            total += mine.len();
        }
    }
    assert_eq!(total, lines.len(), "every line belongs to a point");
    std::fs::remove_dir_all(&d).ok();
}

// ---- bench network hands its --set on ----

#[test]
fn bench_network_children_run_the_parent_s_set_assignments() {
    // a network run refuses sizes in words; the parent itself does not build a network, so
    // only a child that got the assignment fails, with the child's reason
    let o = exanet(&[
        "bench",
        "network",
        "--cycles",
        "1",
        "--set",
        "link.size_in_words=true",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("case torus32-10 failed"), "{err}");
    assert!(err.contains("network runs size packets in bytes"), "{err}");
}

/// Issue 28 §5: each curve of uniform traffic carries its channel-load bound, and a fixed-size
/// e-cube sweep past saturation accepts no more than the bound, and most of it (the credit beats,
/// which the bound leaves out, and the arbitration take the rest).
#[test]
fn fixed_size_saturation_stays_under_the_channel_load_bound() {
    let v = json(&sweep(&[
        "--topology",
        "torus:8x8",
        "--routing",
        "ecube",
        "--size",
        "64",
        "--loads",
        "0.3,0.4,0.5,0.6,0.8",
        "--set",
        "net.warmup_cycles=3000",
        "--set",
        "net.measure_cycles=4000",
        "--set",
        "net.drain_cycles=4000",
        "--json",
    ]));
    let c = &v["curves"][0];
    let b = &c["channel_load_bound"];
    assert_eq!(b["paths"], "routing");
    // a ring of 8: the + channel carries (1+2+3+4) x 8 of the 63 destinations' traffic
    let gamma = b["max_channel_load"].as_f64().unwrap();
    assert!((gamma - 80.0 / 63.0).abs() < 1e-9, "{b}");
    let bound = b["accepted_load"].as_f64().unwrap();
    let peak = c["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["accepted_load"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert!(peak <= bound, "accepted {peak} above the bound {bound}");
    assert!(
        peak >= 0.8 * bound,
        "accepted {peak}, far below the bound {bound}"
    );
    // another pattern has no bound
    let v = json(&sweep(&[
        "--topology",
        "torus:4x4",
        "--pattern",
        "transpose",
        "--loads",
        "0.1",
        "--json",
    ]));
    assert!(v["curves"][0]
        .get("channel_load_bound")
        .is_none_or(|b| b.is_null()));
}

// ---- --saturation ----

/// Issue 32 §1: the saturation search brackets each curve's saturation by bisection, and what it
/// reports is what plain sweeps at the two loads of its bracket say: the load below keeps up in
/// a majority of the seeds, the load above saturates, and the throughput is the accepted load at
/// the load below, with its interval over the seeds.
#[test]
fn the_saturation_search_brackets_what_the_sweep_says_at_its_two_loads() {
    let win = [
        "--set",
        "net.measure_cycles=4000",
        "--topology",
        "torus:4x4",
    ];
    let mut a = win.to_vec();
    a.extend_from_slice(&[
        "--saturation",
        "--resolution",
        "0.05",
        "--seeds",
        "1..2",
        "--json",
    ]);
    let v = json(&sweep(&a));
    assert_eq!(v["resolution"], 0.05);
    let c = &v["saturation"][0];
    let (below, above) = (
        c["load_below"].as_f64().unwrap(),
        c["load_above"].as_f64().unwrap(),
    );
    assert!((above - below - 0.05).abs() < 1e-9, "{c}");
    let probes = c["probes"].as_array().unwrap();
    assert_eq!(probes[0]["offered_load"], 1.0, "{c}");
    // 1, 0.5, 0.75, then two or three more halvings of 20 steps
    assert!((4..=7).contains(&probes.len()), "{c}");
    let mut b = win.to_vec();
    let loads = format!("{below},{above}");
    b.extend_from_slice(&["--loads", &loads, "--seeds", "1..2", "--json"]);
    let s = json(&sweep(&b));
    let means = s["curves"][0]["means"].as_array().unwrap();
    assert!(2 * means[0]["saturated_runs"].as_u64().unwrap() < 2, "{s}");
    assert!(2 * means[1]["saturated_runs"].as_u64().unwrap() >= 2, "{s}");
    assert_eq!(c["throughput"], means[0]["accepted_load"], "{c} {s}");
    // the text names the bracket, and every option the search cannot take is refused
    let t = ok(&sweep(
        &[&win[..], &["--saturation", "--resolution", "0.05"]].concat(),
    ));
    assert!(
        t.contains(&format!("which keeps up; offered {above} saturates")),
        "{t}"
    );
    for (extra, why) in [
        (
            &["--saturation", "--loads", "0.1"][..],
            "--loads cannot go with it",
        ),
        (
            &["--saturation", "--vary", "net.load=0.1"],
            "--vary net.load cannot go with it",
        ),
        (
            &["--saturation", "--resolution", "0.03"],
            "must divide 1 into whole steps",
        ),
        (&["--saturation", "--resolution", "0"], "must be above 0"),
        (&["--resolution", "0.05"], "give --saturation with it"),
    ] {
        refused(&sweep(extra), why);
    }
}

/// Issue 32 §1: per-channel figures outside the HTML report. `network run --channels` writes a
/// row for each direction of each link, and the JSON carries the same rows. What the channels
/// received is every link crossing of the run: at least the hops of the packets delivered (the
/// packets file counts them), and each channel has received what it sent but for what a link
/// can hold.
#[test]
fn network_run_writes_per_channel_figures_as_csv_and_json() {
    let d = dir("channels");
    let (ch, pk) = (d.join("ch.csv"), d.join("p.csv"));
    let mut a = vec!["network", "run", "--threads", "1"];
    a.extend_from_slice(&SHORT);
    a.extend_from_slice(&[
        "--set",
        "net.load=0.3",
        "--channels",
        s(&ch),
        "--packets",
        s(&pk),
    ]);
    a.push("--json");
    let v = json(&exanet(&a));
    let rows = v["channels"].as_array().expect("channels in the JSON");
    assert_eq!(rows.len(), 64, "a 4x4 torus: 32 links, both ways");
    let (header, cells) = read_csv(&std::fs::read_to_string(&ch).unwrap());
    assert_eq!(cells.len(), 64);
    let col = |k: &str| header.iter().position(|h| h == k).unwrap();
    let n = |r: &Value, k: &str| r[k].as_u64().unwrap();
    for (r, c) in rows.iter().zip(&cells) {
        assert_eq!(
            c[col("packets_received")],
            n(r, "packets_received").to_string()
        );
        assert!(n(r, "packets_sent") - n(r, "packets_received") <= 9, "{r}");
        let u = r["utilisation"].as_f64().unwrap();
        assert!(u > 0.0 && u < 1.0, "{r}");
    }
    let received: u64 = rows.iter().map(|r| n(r, "packets_received")).sum();
    let (ph, pc) = read_csv(&std::fs::read_to_string(&pk).unwrap());
    let hops = ph.iter().position(|h| h == "hops").unwrap();
    let delivered_hops: u64 = pc.iter().map(|r| r[hops].parse::<u64>().unwrap()).sum();
    assert!(
        received >= delivered_hops && received < delivered_hops + 500,
        "{received} {delivered_hops}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
