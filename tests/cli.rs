//! The `exanet` command line: outputs, JSON fields, and bad input (exit status 2, a message
//! naming what is wrong).

mod common;
use common::{exanet, refused_each};
use std::path::PathBuf;
use std::process::{Command, Output};

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = exanet(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)))
}

/// A file of this test binary's own, under cargo's temporary folder for tests (in `target/`):
/// written again by every run, so none piles up in the system's.
fn tmp_file(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("exanet-cli-{name}"));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn help_lists_the_subcommands() {
    let o = exanet(&["--help"]);
    let s = stdout(&o);
    // the names in the Commands section, each the first word of its line
    let listed: Vec<&str> = s
        .split("Commands:")
        .nth(1)
        .and_then(|c| c.split("Options:").next())
        .unwrap_or_else(|| panic!("no Commands section:\n{s}"))
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        listed,
        [
            "demo",
            "link",
            "router",
            "karma",
            "network",
            "app",
            "model",
            "cosim",
            "coverage",
            "wave-diff",
            "wave-filter",
            "wave-translate",
            "config",
            "completions",
            "bench",
            "help"
        ],
        "{s}"
    );
}

#[test]
fn latency_json_has_the_documented_fields() {
    let v = json(&["link", "latency", "--json"]);
    assert_eq!(v["fifo_cycles"], 3);
    assert_eq!(v["tcl_cycles"], 6);
    assert_eq!(v["phy_cycles"], 42);
    assert_eq!(v["total_cycles"], 51);
    assert!((v["total_ns"].as_f64().unwrap() - 326.4).abs() < 1e-9);
}

#[test]
fn efficiency_and_bandwidth_json_have_the_documented_fields() {
    let v = json(&[
        "link",
        "efficiency",
        "--credit",
        "usedword",
        "--payload",
        "64,512",
        "--json",
    ]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for r in rows {
        for f in [
            "payload_bytes",
            "credit",
            "simulated",
            "formula",
            "thesis",
            "n",
            "k",
        ] {
            assert!(!r[f].is_null(), "field {f} missing: {r}");
        }
        assert_eq!(r["credit"], "usedword");
    }
    assert_eq!(rows[1]["payload_bytes"], 512);
    let v = json(&["link", "bandwidth", "--payload", "512", "--json"]);
    assert_eq!(v["payload_bytes"], 512);
    let g = v["gbps"].as_f64().unwrap();
    assert!((8.9..9.1).contains(&g), "{v}");
    assert!((v["efficiency"].as_f64().unwrap() - g / 10.0).abs() < 1e-9);
}

#[test]
fn the_default_configuration_round_trips_through_a_file() {
    let o = exanet(&["config", "--print"]);
    assert!(o.status.success());
    let p = tmp_file("defaults.toml", &stdout(&o));
    let v = json(&["link", "latency", "--json", "--config", p.to_str().unwrap()]);
    assert_eq!(v["total_cycles"], 51);
    // a changed PHY latency moves the hop by exactly the change
    let text = stdout(&o).replace("latency_cycles = 42", "latency_cycles = 40");
    let p = tmp_file("phy40.toml", &text);
    let v = json(&["link", "latency", "--json", "--config", p.to_str().unwrap()]);
    assert_eq!(v["total_cycles"], 49);
    let j = tmp_file("cfg.json", r#"{"link": {"phy": {"latency_cycles": 44}}}"#);
    let v = json(&["link", "latency", "--json", "--config", j.to_str().unwrap()]);
    assert_eq!(v["total_cycles"], 53);
}

#[test]
fn bad_input_exits_2_and_names_what_is_wrong() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "link".into(),
                "efficiency".into(),
                "--payload".into(),
                "5000".into(),
            ],
            "--payload",
        ),
        (
            vec![
                "link".into(),
                "efficiency".into(),
                "--payload".into(),
                "0".into(),
            ],
            "--payload",
        ),
        (
            vec![
                "link".into(),
                "bandwidth".into(),
                "--payload".into(),
                "lots".into(),
            ],
            "--payload",
        ),
        (
            vec![
                "link".into(),
                "efficiency".into(),
                "--credit".into(),
                "sometimes".into(),
            ],
            "--credit",
        ),
        (
            vec![
                "link".into(),
                "latency".into(),
                "--config".into(),
                "/no/such/file.toml".into(),
            ],
            "/no/such/file.toml",
        ),
        (vec!["link".into(), "frobnicate".into()], "frobnicate"),
    ];
    let bad_files = [
        ("unknown.toml", "[link]\nnum_vc = 2\n", "num_vc"),
        (
            "latency0.toml",
            "[link.phy]\nlatency_cycles = 0\n",
            "link.phy.latency_cycles",
        ),
        (
            "period0.toml",
            "[link.credit]\nperiod_cycles = 0\n",
            "link.credit.period_cycles",
        ),
        (
            "tred.toml",
            "[link.credit]\ntred_words = 2048\n",
            "link.credit.tred_words",
        ),
        (
            "vcs.toml",
            "[link]\nnum_vcs = 4\n[link.credit]\nflavour = \"usedword\"\nusedword_beats = 1\n",
            "link.num_vcs",
        ),
        ("vcs9.toml", "[link]\nnum_vcs = 9\n", "link.num_vcs"),
        ("type.toml", "[link]\nnum_vcs = \"two\"\n", "num_vcs"),
        ("syntax.toml", "[link\n", "syntax.toml"),
        (
            "bad.json",
            "{\"link\": {\"phy\": {\"ber\": 3}}}",
            "link.phy.ber",
        ),
        ("ext.yaml", "link: {}\n", ".toml or .json"),
    ];
    let mut all = cases;
    for (name, text, needle) in bad_files {
        let p = tmp_file(name, text);
        all.push((
            vec![
                "link".into(),
                "latency".into(),
                "--config".into(),
                p.display().to_string(),
            ],
            needle,
        ));
    }
    for (args, needle) in all {
        let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let o = exanet(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(needle),
            "{a:?}: the message must name '{needle}': {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{a:?}");
    }
}

#[test]
fn wave_diff_exit_codes() {
    let a = tmp_file(
        "a.vcd",
        "$timescale 1ps $end\n$scope module TOP $end\n$var wire 1 ! x $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n#10\n1!\n",
    );
    let b = tmp_file(
        "b.vcd",
        "$timescale 1ps $end\n$scope module TOP $end\n$var wire 1 ! x $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n#20\n1!\n",
    );
    let o = exanet(&["wave-diff", a.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).lines().any(|l| l == "identical"),
        "{}",
        stdout(&o)
    );
    let o = exanet(&["wave-diff", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("10 ps") && stdout(&o).contains("TOP.x"),
        "{}",
        stdout(&o)
    );
    let bad = tmp_file("bad.vcd", "$timescale 1ps $end\n$scope module TOP $end\n$var wire 1 ! x $end\n$enddefinitions $end\n#0\n0?\n");
    let o = exanet(&["wave-diff", a.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad.vcd") && !stderr(&o).contains("panicked"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn cosim_warns_before_a_run_whose_waves_would_be_huge() {
    // The estimate comes from a pilot co-simulation of the run's first cycles, written into a
    // scratch directory inside the wave directory; the run itself then ends at once because
    // its own wave file cannot be made (a directory holds its name).
    let dir = std::env::temp_dir().join(format!("exanet-cli-{}-waves", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("model.vcd")).unwrap();
    std::fs::create_dir_all(dir.join("model.fst")).unwrap();
    let o = exanet(&[
        "cosim",
        "--design",
        "link",
        "--cycles",
        "500000",
        "--vcd-dir",
        dir.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let first = err.lines().next().unwrap_or("");
    let gb: f64 = first
        .strip_prefix("warning: the waves of this run will take about ")
        .and_then(|r| r.split(" GB").next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no estimate: {err}"));
    // 500,000 link cycles write 9 to 12 GB of VCD (decision 0014, issue 10); the first
    // cycles carry the header and the initial values of every signal, so the pilot errs high
    // rather than low
    assert!((6.0..16.0).contains(&gb), "{first}");
    assert!(first.contains("--wave-format fst (about "), "{err}");
    assert!(
        !dir.join(".exanet-size-pilot").exists(),
        "the pilot's files stay"
    );
    // No warning for a run that writes little: the same run in FST, about 1 GB.
    let o = exanet(&[
        "cosim",
        "--design",
        "link",
        "--cycles",
        "500000",
        "--wave-format",
        "fst",
        "--vcd-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_demo_runs_and_writes_its_waves() {
    let vcd = std::env::temp_dir().join(format!("exanet-cli-{}-demo.vcd", std::process::id()));
    let o = exanet(&["demo", "--vcd", vcd.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("51 cycles") && s.contains("326.4 ns"), "{s}");
    assert!(s.contains("start-stop") && s.contains("usedword"), "{s}");
    let waves = std::fs::read_to_string(&vcd).unwrap();
    assert!(waves.contains("$enddefinitions"));
    // The same waves as FST: wave-diff finds them identical to the VCD, every signal, in
    // either order (the FST is read by a child process of wave-diff).
    let fst = vcd.with_extension("fst");
    let o = exanet(&[
        "demo",
        "--vcd",
        fst.to_str().unwrap(),
        "--wave-format",
        "fst",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (a, b) in [(&vcd, &fst), (&fst, &vcd)] {
        let o = exanet(&[
            "wave-diff",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--strict",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        assert_eq!(stdout(&o).lines().next(), Some("identical"));
    }
    std::fs::remove_file(&vcd).ok();
    std::fs::remove_file(&fst).ok();
}

#[test]
fn wave_filter_decodes_one_line_per_value() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_exanet"))
        .args(["wave-filter", "beat"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"B5A55AA5C33C0FF0\n9e3779b97f4a7c15\nxxxxxxxxxxxxxxxx\n1234\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(
        lines,
        ["MAGIC", "START", "xxxxxxxxxxxxxxxx", "0000000000001234"]
    );
    let o = exanet(&["wave-filter", "trailer"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("trailer"));
}

#[test]
fn router_measurements_print_the_documented_json() {
    let v = json(&["router", "latency", "--json"]);
    let paths = v["paths"].as_array().unwrap();
    let names: Vec<&str> = paths.iter().map(|p| p["path"].as_str().unwrap()).collect();
    assert_eq!(names, ["loopback", "send", "receive", "intermediate"]);
    for p in paths {
        assert_eq!(p["cycles"], 11, "{p}");
        assert_eq!(p["ns"], 70.4, "{p}");
    }
    let v = json(&["router", "bandwidth", "--payload", "64,512", "--json"]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for r in rows {
        let e = r["efficiency"].as_f64().unwrap();
        assert!(e > 0.0 && e < 1.0, "{r}");
        assert!(
            r["payload_bytes"].is_u64() && r["intra_ports"].is_u64(),
            "{r}"
        );
    }
    let v = json(&[
        "router",
        "bandwidth",
        "--payload",
        "512",
        "--intra-ports",
        "2",
        "--json",
    ]);
    assert_eq!(v["rows"].as_array().unwrap().len(), 1);
    assert_eq!(v["rows"][0]["intra_ports"], 2);
    let v = json(&["router", "cdg", "--topology", "torus:4x4", "--json"]);
    assert_eq!(v["acyclic"], true);
    // a cyclic graph exits 1, its JSON printed all the same (issue 32 §2)
    let o = exanet(&[
        "router",
        "cdg",
        "--topology",
        "torus:4x4",
        "--no-vc-rule",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["acyclic"], false);
    let cycle = v["cycle"].as_array().unwrap();
    assert!(
        cycle.len() >= 3 && cycle.first() == cycle.last(),
        "{cycle:?}"
    );
    // the table form says the same
    let o = exanet(&["router", "cdg", "--topology", "torus:4x4", "--no-vc-rule"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("cycle"), "{}", stdout(&o));
}

#[test]
fn router_bad_input_exits_2_and_names_what_is_wrong() {
    let mut cases: Vec<(Vec<String>, &str)> = vec![
        (
            ["router", "bandwidth", "--intra-ports", "3"]
                .map(String::from)
                .to_vec(),
            "--intra-ports",
        ),
        (
            ["router", "bandwidth", "--payload", "5000"]
                .map(String::from)
                .to_vec(),
            "--payload",
        ),
        (
            ["router", "cdg", "--topology", "ring:4"]
                .map(String::from)
                .to_vec(),
            "--topology",
        ),
        (
            ["router", "cdg", "--topology", "torus:4x0"]
                .map(String::from)
                .to_vec(),
            "--topology",
        ),
    ];
    let bad_files = [
        (
            "intra0.toml",
            "[router]\nintra_ports = 0\n",
            "router.intra_ports",
        ),
        ("coord.toml", "[node]\ncoord = [2, 0, 0]\n", "node.coord"),
        (
            "order.toml",
            "[node]\ndim_order = [0, 0, 2]\n",
            "node.dim_order",
        ),
        ("dims.toml", "[router]\ndims = 4\n", "router.dims"),
        (
            "port.toml",
            "[[router.inter_ports]]\ndim = 3\ndir = \"plus\"\n",
            "router.inter_ports",
        ),
        (
            "txonly.toml",
            "[router]\ntx_only_ports = [5]\n",
            "router.tx_only_ports",
        ),
        (
            "lattice.toml",
            "[node]\nlattice = [2, 2, 3]\n",
            "node.lattice",
        ),
        ("arb.toml", "[node]\narbiter = \"lottery\"\n", "lottery"),
    ];
    for (name, text, needle) in bad_files {
        let p = tmp_file(name, text).display().to_string();
        for sub in ["latency", "bandwidth"] {
            cases.push((
                vec!["router".into(), sub.into(), "--config".into(), p.clone()],
                needle,
            ));
        }
    }
    for (args, needle) in cases {
        let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let o = exanet(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(needle),
            "{a:?}: must name '{needle}': {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{a:?}");
    }
}

#[test]
fn the_benches_run_and_print_their_fields() {
    for design in ["link", "node"] {
        let v = json(&["bench", design, "--cycles", "20000", "--json"]);
        assert_eq!(v["design"], design);
        assert_eq!(v["cycles"], 20000);
        for f in [
            "model_cycles_per_s",
            "rtl_cycles_per_s",
            "lockstep_cycles_per_s",
            "model_with_bench_cycles_per_s",
            "model_over_rtl",
        ] {
            assert!(v[f].as_f64().unwrap() > 0.0, "{design}: {f}: {v}");
        }
        // the saturating traffic really flows
        assert!(
            v["payload_beats_per_cycle"].as_f64().unwrap() > 0.3,
            "{design}: {v}"
        );
        let o = exanet(&["bench", design, "--cycles", "0"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("--cycles"));
    }
}

#[test]
fn run_lengths_beyond_what_fits_are_refused_naming_the_bound() {
    let link_max = exanet::cosim::bench::MAX_LINK_CYCLES.to_string();
    let node_max = exanet::cosim::bench_node::MAX_NODE_CYCLES.to_string();
    let node_min = exanet::cosim::bench_node::min_cycles(&exanet::config::Config::default());
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["bench", "link", "--cycles", "4294967295"],
            link_max.clone(),
        ),
        (
            vec!["bench", "node", "--cycles", "4294967295"],
            node_max.clone(),
        ),
        (
            vec!["bench", "node", "--cycles", &(node_min - 1).to_string()],
            node_min.to_string(),
        ),
        (
            vec!["cosim", "--design", "link", "--cycles", "4294967295"],
            exanet::cosim::lockstep::MAX_CYCLES.to_string(),
        ),
        (
            vec!["karma", "pingpong", "--iterations", "4294967295"],
            exanet::karma::pingpong::MAX_ITERATIONS.to_string(),
        ),
    ]
    .into_iter()
    .map(|(a, n)| (a.into_iter().map(String::from).collect(), n))
    .collect();
    for (args, bound) in cases {
        let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let t = std::time::Instant::now();
        let o = exanet(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&bound) && stderr(&o).contains(a[a.len() - 2]),
            "{a:?}: must name {} and {bound}: {}",
            a[a.len() - 2],
            stderr(&o)
        );
        assert!(t.elapsed().as_secs() < 5, "{a:?}: refused only after a run");
    }
    // the bounds themselves run (the node's minimum sends its first packet)
    let v = json(&["bench", "node", "--cycles", &node_min.to_string(), "--json"]);
    assert_eq!(v["cycles"], node_min);
}

/// One way to set the common things (issue 32 §2): `--seed` on every command whose run draws
/// random numbers, and on `network run` `--topology`, `--routing`, `--load` as on its siblings;
/// each is the same as its `--set`, and wins over one.
#[test]
fn seed_topology_routing_and_load_flags_are_their_fields() {
    let shape = ["--threads", "1", "--json"];
    let flags = json(
        &[
            &[
                "network",
                "run",
                "--topology",
                "mesh:3x3",
                "--routing",
                "ecube",
            ][..],
            &["--load", "0.05", "--seed", "7"],
            &shape,
        ]
        .concat(),
    );
    let sets = json(
        &[
            &["network", "run", "--set", "net.topology=mesh:3x3"][..],
            &["--set", "net.routing=ecube", "--set", "net.load=0.05"],
            &["--set", "sim.seed=7"],
            &shape,
        ]
        .concat(),
    );
    assert_eq!(flags["stats_hash"], sets["stats_hash"]);
    assert_eq!(flags["run"]["config"], sets["run"]["config"]);
    assert_eq!(flags["seed"], 7);
    assert_eq!(flags["topology"], "mesh:3x3");
    // the flag wins over a --set of the same field
    let won = json(
        &[
            &["network", "run", "--set", "net.topology=torus:4x4"][..],
            &["--topology", "mesh:3x3", "--set", "net.routing=ecube"],
            &[
                "--set",
                "net.load=0.05",
                "--set",
                "sim.seed=3",
                "--seed",
                "7",
            ],
            &shape,
        ]
        .concat(),
    );
    assert_eq!(won["stats_hash"], sets["stats_hash"]);
    // another seed, another run
    let other = json(
        &[
            &[
                "network",
                "run",
                "--topology",
                "mesh:3x3",
                "--routing",
                "ecube",
            ][..],
            &["--load", "0.05", "--seed", "8"],
            &shape,
        ]
        .concat(),
    );
    assert_ne!(other["stats_hash"], sets["stats_hash"]);
    // the application and co-simulation-server commands take --seed too
    for cmd in [
        &[
            "app",
            "run",
            "ring",
            "--topology",
            "mesh:2x2",
            "--mapping",
            "random",
        ][..],
        &[
            "app",
            "dpsnn",
            "--columns",
            "2x2",
            "--iterations",
            "1",
            "--topology",
            "mesh:2x2",
        ],
    ] {
        let a = json(&[cmd, &["--seed", "5", "--json"]].concat());
        assert_eq!(a["run"]["seeds"], serde_json::json!([5]), "{cmd:?}");
    }
    let o = exanet(&["network", "run", "--seed", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'x' is not a seed"), "{}", stderr(&o));
}

/// The README lists every command and subcommand `exanet --help` has, and every routing
/// (issue 32 §2).
#[test]
fn the_readme_lists_every_command_and_routing() {
    let readme = common::read("README.md");
    let commands = |args: &[&str]| -> Vec<String> {
        let o = exanet(&[args, &["--help"]].concat());
        let text = stdout(&o);
        text.lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .filter_map(|l| l.split_whitespace().next().map(String::from))
            .filter(|c| c != "help")
            .collect()
    };
    let top = commands(&[]);
    assert!(top.len() > 10, "{top:?}");
    for c in &top {
        let subs = commands(&[c.as_str()]);
        let leaves: Vec<String> = if subs.is_empty() {
            vec![format!("exanet {c}")]
        } else {
            subs.iter().map(|s| format!("exanet {c} {s}")).collect()
        };
        for l in leaves {
            assert!(readme.contains(&l), "README.md does not list '{l}'");
        }
    }
    for r in exanet::spec::RoutingSpec::ALL {
        assert!(
            readme.contains(&format!("`{}`", r.name())),
            "README.md does not list routing '{}'",
            r.name()
        );
    }
}

/// A fresh folder `exanet-cli-<pid>-<name>` under the system's temporary folder, and a runner of
/// `cosim --design DESIGN --cycles CYCLES --seed 1 --vcd-dir <folder>/<run> EXTRA...` that
/// must succeed and returns `<folder>/<run>`.
fn cosim_runs(
    name: &str,
    design: &'static str,
    cycles: &'static str,
) -> (PathBuf, impl Fn(&str, &[&str]) -> PathBuf) {
    let base = std::env::temp_dir().join(format!("exanet-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let b = base.clone();
    let run = move |run: &str, extra: &[&str]| {
        let d = b.join(run);
        let mut a = vec![
            "cosim", "--design", design, "--cycles", cycles, "--seed", "1",
        ];
        a.extend_from_slice(&["--vcd-dir", d.to_str().unwrap()]);
        a.extend_from_slice(extra);
        let o = exanet(&a);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).starts_with(&format!("{cycles} cycles identical")),
            "{}",
            stdout(&o)
        );
        d
    };
    (base, run)
}

/// Issue 32 §3: `cosim --from/--to` writes the waves of a window of cycles only, on both sides,
/// and the warning before a huge run measures the window, not the run. The comparison still
/// covers every cycle; the window's waves are the full run's, cut.
#[test]
fn cosim_writes_the_waves_of_a_window_of_cycles() {
    let (base, run) = cosim_runs("window", "link", "3000");
    let (all, cut) = (
        run("all", &[]),
        run("cut", &["--from", "1000", "--to", "1500"]),
    );
    // the clock period of the default 156.25 MHz: 6400 ps
    let times = |f: &std::path::Path| -> Vec<u64> {
        std::fs::read_to_string(f)
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix('#').and_then(|t| t.parse().ok()))
            .collect()
    };
    for side in ["model.vcd", "rtl.vcd"] {
        let t = times(&cut.join(side));
        assert_eq!(t.first(), Some(&(1000 * 6400)), "{side}");
        assert_eq!(t.last(), Some(&(1499 * 6400 + 3200)), "{side}");
        let (a, c) = (
            std::fs::metadata(all.join(side)).unwrap().len(),
            std::fs::metadata(cut.join(side)).unwrap().len(),
        );
        assert!(
            c * 3 < a,
            "{side}: {c} bytes of 500 cycles against {a} of 3000"
        );
    }
    // model and RTL agree over the window
    let o = exanet(&[
        "wave-diff",
        cut.join("model.vcd").to_str().unwrap(),
        cut.join("rtl.vcd").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    let d = base.join("refused");
    refused_each(
        &[
            "cosim",
            "--design",
            "link",
            "--cycles",
            "3000",
            "--vcd-dir",
            d.to_str().unwrap(),
        ],
        &[
            (&["--from", "5", "--to", "5"], "an empty window"),
            (&["--to", "4000"], "past the run's end"),
        ],
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// Issue 32 §3: `cosim --scope S` writes only the signals under the scopes named (and the
/// top's ports), on both sides alike, VCD and FST; model and RTL still agree on them, and a
/// scope that names nothing is refused.
#[test]
fn cosim_writes_the_waves_of_the_scopes_asked_for() {
    use exanet::wave::list_signals_in_file;
    let (base, run) = cosim_runs("scopes", "router", "600");
    let all = run("all", &[]);
    let scope = "u_router.gen_in[0]";
    for (name, fmt) in [("vcd", "vcd"), ("fst", "fst")] {
        let cut = run(name, &["--scope", scope, "--wave-format", fmt]);
        for side in ["model", "rtl"] {
            let f = cut.join(format!("{side}.{fmt}"));
            let list = |f: &std::path::Path| -> Vec<String> {
                list_signals_in_file(f)
                    .unwrap()
                    .into_iter()
                    .map(|d| d.path)
                    .collect()
            };
            let names = list(&f);
            let every = list(&all.join(format!("{side}.vcd")));
            assert!(
                names.len() * 4 < every.len(),
                "{side}.{fmt}: {} of {}",
                names.len(),
                every.len()
            );
            let inside = |n: &str| n.contains(".u_router.gen_in[0].");
            assert!(names.iter().any(|n| inside(n)), "{side}.{fmt}");
            for n in &names {
                assert!(
                    inside(n) || n.split('.').count() == 2,
                    "{side}.{fmt}: {n} is neither under {scope} nor a port of the top"
                );
            }
            // every signal of the scope that the whole wave has
            let want = every.iter().filter(|n| inside(n)).count();
            assert_eq!(
                names.iter().filter(|n| inside(n)).count(),
                want,
                "{side}.{fmt}"
            );
        }
        let o = exanet(&[
            "wave-diff",
            cut.join(format!("model.{fmt}")).to_str().unwrap(),
            cut.join(format!("rtl.{fmt}")).to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stdout(&o));
        assert!(stdout(&o).starts_with("identical"), "{}", stdout(&o));
    }
    let d = base.join("refused");
    refused_each(
        &[
            "cosim",
            "--design",
            "router",
            "--cycles",
            "100",
            "--vcd-dir",
            d.to_str().unwrap(),
        ],
        &[
            (&["--scope", "no_such_block"], "no signal of router"),
            (&["--scope", "a..b"], "dotted names"),
        ],
    );
    let _ = std::fs::remove_dir_all(&base);
}
