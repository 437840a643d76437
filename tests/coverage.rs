//! Coverage of the RTL by the lockstep (issue 30, decision 0042): the constrained-random
//! stimulus of the link, the router and the node, measured on the Verilated RTL, holds the
//! floors of `testbench/coverage.toml`; the figures are printed (run with `--nocapture`, as the
//! test command does). These tests need the RTL: a binary built without Verilator fails them.

mod common;
use exanet::config::Config;
use exanet::cosim::coverage::{definitions, merge_all, CoverageData, Summary};
use exanet::cosim::lockstep::{CosimReport, Options, Simulator, Stimulus};
use exanet::cosim::router_design::run_router;

/// Cycles of a router run below (the campaign's runs have their own).
const CYCLES: u64 = 10_000;

fn opts(stimulus: Stimulus) -> Options {
    Options {
        cycles: CYCLES,
        stimulus,
        coverage: true,
        ..Default::default()
    }
}

fn data(rep: CosimReport) -> CoverageData {
    *rep.coverage.expect("coverage was asked for")
}

/// The runs of testbench/coverage.toml's campaign for `design`, each identical between model
/// and RTL, merged: every FSM arc taken is listed, and the top holds its floor.
fn campaign_holds_its_floor(design: &str) {
    let defs = definitions().unwrap();
    let mine: Vec<_> = defs.run.iter().filter(|r| r.design == design).collect();
    assert!(
        !mine.is_empty(),
        "testbench/coverage.toml lists no {design} run"
    );
    let mut runs = Vec::new();
    for r in mine {
        let t = std::time::Instant::now();
        runs.push(r.run().unwrap_or_else(|e| panic!("{e}")));
        println!("ran {} ({:.1} s)", r.label(), t.elapsed().as_secs_f64());
    }
    let merged = merge_all(runs).unwrap();
    let mut below = Vec::new();
    for m in &merged {
        let s = Summary::of(m, &defs).unwrap();
        println!("{}", s.text(10));
        for f in &s.fsms {
            assert!(
                f.illegal.is_empty(),
                "{}: fsm {} took arcs not in testbench/coverage.toml: {:?}",
                s.top,
                f.fsm,
                f.illegal
            );
        }
        below.extend(s.below_floor(&defs));
        // issue 30's bar: every legal arc taken, every register written and read
        assert_eq!(s.arcs_taken, s.arcs, "{}: FSM arcs not taken", s.top);
        assert_eq!(
            s.registers_covered, s.registers,
            "{}: registers not written and read: {:?}",
            s.top, s.registers_missing
        );
    }
    assert!(below.is_empty(), "below the floor: {below:?}");
}

/// Issue 30's bar for toggle coverage: each co-simulated top's floor is at least 98 % of the
/// bits not waived, so a floor cannot be lowered under the bar unnoticed.
#[test]
fn every_floor_is_at_the_bar() {
    let defs = definitions().unwrap();
    for top in ["link", "router", "node"] {
        let f = defs
            .floor
            .iter()
            .find(|f| f.top == top)
            .unwrap_or_else(|| panic!("no floor for {top}"));
        assert!(
            f.toggle_pct >= 98.0,
            "{top}: floor {} % under the bar of 98 %",
            f.toggle_pct
        );
    }
}

// (one test per design, so that the test command's two cores run them side by side)
#[test]
fn the_campaign_holds_the_link_at_its_floor() {
    campaign_holds_its_floor("link");
}

#[test]
fn the_campaign_holds_the_router_at_its_floor() {
    campaign_holds_its_floor("router");
}

#[test]
fn the_campaign_holds_the_node_at_its_floor() {
    campaign_holds_its_floor("node");
}

#[test]
fn every_floor_has_campaign_runs_and_every_run_a_floor() {
    let defs = definitions().unwrap();
    for f in &defs.floor {
        assert!(
            defs.run.iter().any(|r| r.design == f.top),
            "a floor for {} but no run of it",
            f.top
        );
    }
    for r in &defs.run {
        assert!(
            defs.floor.iter().any(|f| f.top == r.design),
            "a {} run but no floor for it",
            r.design
        );
    }
}

/// Decision 0044: the constrained stimulus deposits into the link's statistics counters, and a
/// counter that counts often (the RX's payload words) then carries into (nearly) each of its 32
/// bits and falls from each, in the model and the RTL alike (the run is identical), within a
/// short run.
#[test]
fn deposits_carry_a_counter_over_every_bit_and_wrap_it() {
    let c = Config::default();
    let rep = exanet::cosim::link_design::run_link(
        &c,
        &Options {
            cycles: 30_000,
            stimulus: Stimulus::Constrained,
            coverage: true,
            ..Default::default()
        },
        Simulator::Verilator,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(rep.stat("counter_deposits") > 0, "{}", rep.summary());
    let d = data(rep);
    let name = "TOP.exanet_link_top.u_a.u_tcl.u_rx.stat_words_q";
    let s = d.signals.iter().find(|s| s.name == name).expect(name);
    let (rose, fell) = (
        u32::from_str_radix(&s.rose, 16).unwrap(),
        u32::from_str_radix(&s.fell, 16).unwrap(),
    );
    // (without deposits, bits above 13 never move in such a run; a deposit that a reset
    // overtakes before the counter's next event is lost, so one or two bits may not rise)
    assert!(
        rose.count_ones() >= 30 && rose >> 31 == 1 && fell == u32::MAX,
        "{name}: rose {rose:#010x}, fell {fell:#010x}"
    );
}

#[test]
fn the_constrained_stimulus_covers_more_than_the_plain_one() {
    let c = Config::default();
    let defs = definitions().unwrap();
    let pct = |s: Stimulus| {
        let d = data(run_router(&c, &opts(s), Simulator::Verilator).unwrap());
        Summary::of(&d, &defs).unwrap().toggle_pct
    };
    let (plain, constrained) = (pct(Stimulus::Plain), pct(Stimulus::Constrained));
    assert!(
        constrained > plain + 5.0,
        "router toggle coverage: plain {plain:.1} %, constrained {constrained:.1} %"
    );
}

#[test]
fn cosim_writes_coverage_and_the_summary_merges_and_checks_it() {
    let dir = std::env::temp_dir().join(format!("exanet-coverage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = |n: &str| dir.join(n).display().to_string();
    for (seed, name) in [("1", "a.json"), ("2", "b.json")] {
        let out = common::exanet(&[
            "cosim",
            "--design",
            "router",
            "--cycles",
            "3000",
            "--stimulus",
            "constrained",
            "--seed",
            seed,
            "--coverage",
            &f(name),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = common::exanet(&["coverage", &f("a.json"), &f("b.json"), "--out-dir", &f("m")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("router: 2 run(s), 6000 cycles; toggle "),
        "{text}"
    );
    let merged = CoverageData::read(&dir.join("m/router.json")).unwrap();
    let one = CoverageData::read(&dir.join("a.json")).unwrap();
    let defs = definitions().unwrap();
    assert!(
        Summary::of(&merged, &defs).unwrap().bits_toggled
            >= Summary::of(&one, &defs).unwrap().bits_toggled
    );
    // a 3,000-cycle router run is below the router's floor: --check says so, exit 1
    let out = common::exanet(&["coverage", "--check", &f("a.json")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("below the floor: router: toggle coverage")
    );
    // neither files nor --campaign: refused, exit 2
    let out = common::exanet(&["coverage"]);
    assert_eq!(out.status.code(), Some(2));
    // bad input: exit 2 naming the file
    std::fs::write(dir.join("bad.json"), "{}").unwrap();
    let out = common::exanet(&["coverage", &f("bad.json")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.json: not a coverage file"));
    let out = common::exanet(&[
        "cosim",
        "--design",
        "link",
        "--cycles",
        "10",
        "--simulator",
        "icarus",
        "--coverage",
        &f("x.json"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn with_the_coverage_dir_set_every_lockstep_run_writes_its_coverage_there() {
    let dir = std::env::temp_dir().join(format!("exanet-coverage-env-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_exanet"))
        .args(["cosim", "--design", "link", "--cycles", "500"])
        .env(exanet::cosim::coverage::DIR_ENV, &dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("link-") && name.ends_with(".json"),
        "{name}"
    );
    let d = CoverageData::read(&files[0]).unwrap();
    assert_eq!((d.top.as_str(), d.runs, d.cycles), ("link", 1, 500));
    std::fs::remove_dir_all(&dir).unwrap();
}
