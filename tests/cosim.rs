//! Lockstep co-simulation of the link, the router and the node, model against Verilated RTL, and
//! the wave tooling on the waves both sides write. These tests need the RTL: a binary built without
//! Verilator fails them with the reason (never skips them).

mod common;
use exanet::config::{Config, CreditFlavour};
use exanet::cosim::link_design::run_link;
use exanet::cosim::lockstep::{CosimError, CosimReport, Options, Simulator, Stimulus};
use exanet::cosim::node_design::run_node;
use exanet::cosim::router_design::run_router;
use exanet::wave::{diff_files, DiffOptions, WaveFormat};
use std::path::{Path, PathBuf};

fn run(cfg: &Config, opts: &Options) -> Result<exanet::cosim::lockstep::CosimReport, CosimError> {
    match run_link(cfg, opts, Simulator::Verilator) {
        Err(CosimError::Setup(m)) => panic!("co-simulation could not start: {m}"),
        other => other,
    }
}

/// Every signal of the model's waves is in the RTL's, and every register of the RTL's waves
/// (`<name>_q`) is in the model's, but for memory arrays (`mem_q`), which neither side dumps
/// alike.
fn assert_same_register_names(rep: &exanet::wave::DiffReport) {
    assert!(
        rep.only_in_a.is_empty(),
        "signals only in the model's waves: {:?}",
        rep.only_in_a
    );
    let rtl_only: Vec<&String> = rep
        .only_in_b
        .iter()
        .filter(|n| {
            let leaf = n.rsplit('.').next().unwrap_or(n);
            let leaf = leaf.split('[').next().unwrap_or(leaf);
            leaf.ends_with("_q") && leaf != "mem_q"
        })
        .collect();
    assert!(
        rtl_only.is_empty(),
        "registers only in the RTL's waves: {rtl_only:?}"
    );
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("exanet-cosim-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_million_cycles_with_bit_errors_are_identical() {
    let mut cfg = Config::default();
    cfg.link.phy.ber = 1e-5;
    cfg.sim.seed = 2026;
    let rep = run(
        &cfg,
        &Options {
            cycles: 1_000_000,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.cycles, 1_000_000);
    assert!(rep.signals_compared > 500, "{rep:?}");
    // the run must really exercise the paths it claims to
    assert!(rep.stat("packets_delivered") > 2000, "{rep:?}");
    assert!(rep.stat("bits_flipped") > 500, "{rep:?}");
    assert!(rep.stat("crc_errors") > 100, "{rep:?}");
    assert!(rep.stat("ecc_corrected") > 0, "{rep:?}");
    assert!(rep.stat("credit_stall_cycles") > 10_000, "{rep:?}");
    assert_link_accounting(&rep);
}

/// The links' packet accounting of a finished run. The invariant itself is checked every cycle
/// by the run (`Link::check_accounts`: a run where it breaks fails); here the report must
/// carry every count, the links must have carried packets, and the counts must agree with what
/// the scoreboards saw, which they do not compute from: the RX delivered (intact or flagged)
/// at least what the consumers took, and its CRC count is the one the link reports.
fn assert_link_accounting(rep: &CosimReport) {
    for k in [
        "link_sent",
        "link_delivered",
        "link_crc_failed",
        "link_discarded_header",
        "link_discarded_framing",
        "link_discarded_resync",
        "link_in_flight",
        "link_lost_unseen",
        "packets_silent",
    ] {
        assert!(rep.stats.contains_key(k), "no {k} in {rep:?}");
    }
    assert!(rep.stat("link_sent") > 0, "{rep:?}");
    if rep.stats.contains_key("packets_lost") {
        // the link design: every packet its consumers took crossed the link
        assert!(
            rep.stat("link_delivered") + rep.stat("link_crc_failed")
                >= rep.stat("packets_delivered"),
            "{rep:?}"
        );
        // a packet the scoreboard found missing was lost on the link: the RX has counted it
        // discarded, or has not learnt of it yet (lost unseen, or still in flight)
        let discarded = rep.stat("link_discarded_header")
            + rep.stat("link_discarded_framing")
            + rep.stat("link_discarded_resync");
        assert!(
            rep.stat("packets_lost")
                <= discarded + rep.stat("link_in_flight") + rep.stat("link_lost_unseen"),
            "{rep:?}"
        );
    }
    if rep.stats.contains_key("crc_errors") {
        assert_eq!(
            rep.stat("link_crc_failed"),
            rep.stat("crc_errors"),
            "{rep:?}"
        );
    }
    assert_eq!(rep.stat("packets_silent"), 0, "{rep:?}");
}

/// Issue 16: the rates that used to lose packets with every counter at 0 (0.1 and above) or to
/// stop on a silent corruption (1e-3) run identical, and every packet is accounted for.
/// Issue 30: the constrained stimulus resets each design during traffic (the top's `rst_ni`
/// between two cycles); model and RTL stay identical through it, and what the reset cut short is
/// counted.
#[test]
fn resets_during_traffic_are_identical_and_what_they_cut_is_counted() {
    let opts = Options {
        cycles: 20_000,
        ..Default::default()
    };
    let cfg = Config::default();
    let link = run(&cfg, &opts).unwrap_or_else(|e| panic!("link: {e}"));
    assert!(link.stat("resets") >= 1, "{link:?}");
    assert!(link.stat("packets_reset_lost") > 0, "{link:?}");
    // the counters the resets cleared are reported with those of before: more packets
    // delivered than the last reset's epoch shows, and the accounting still adds up
    assert_link_accounting(&link);
    assert!(link.stat("link_delivered") >= link.stat("packets_delivered"));
    let router = run_r(&cfg, &opts).unwrap_or_else(|e| panic!("router: {e}"));
    assert!(router.stat("resets") >= 1, "{router:?}");
    assert!(router.stat("packets_reset_lost") > 0, "{router:?}");
    let node = run_n(&cfg, &opts).unwrap_or_else(|e| panic!("node: {e}"));
    assert!(node.stat("resets") >= 1, "{node:?}");
    assert!(node.stat("packets_outstanding_at_resets") > 0, "{node:?}");
    assert_link_accounting(&node);
    // the plain stimulus never resets
    let plain = run(
        &cfg,
        &Options {
            stimulus: Stimulus::Plain,
            ..opts
        },
    )
    .unwrap_or_else(|e| panic!("plain link: {e}"));
    assert!(!plain.stats.contains_key("resets"), "{plain:?}");
}

#[test]
fn high_bit_error_rates_are_identical_and_every_packet_is_accounted_for() {
    // (from 1e-2 on, the plain stimulus: payload halves equal to MAGIC or START, which the
    // constrained one sends, let the RX's loss accounting over-count after bit errors,
    // decision 0042 finding 3; 1e-2 seed 1 does at cycle 21478)
    for (ber, seed, cycles) in [
        (1e-3, 1, 100_000),
        (1e-3, 2, 100_000),
        (1e-3, 3, 100_000),
        (1e-2, 1, 50_000),
        (0.1, 1, 30_000),
        (0.5, 1, 30_000),
    ] {
        let mut cfg = Config::default();
        cfg.link.phy.ber = ber;
        cfg.sim.seed = seed;
        let stimulus = if ber >= 1e-2 {
            Stimulus::Plain
        } else {
            Stimulus::Constrained
        };
        let rep = run(
            &cfg,
            &Options {
                cycles,
                stimulus,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("ber {ber}, seed {seed}: {e}"));
        assert_link_accounting(&rep);
        assert!(rep.stat("link_sent") > 100, "ber {ber}: {rep:?}");
        if ber >= 0.1 {
            // nothing recognisable arrives: the RX accounts for no packet sent. What the two
            // directions can hold is in flight (issue 32 §1), every other one is lost unseen,
            // and the dropped beats show why
            let hold = 2 * exanet::link::account::capacity(cfg.link.phy.latency_cycles);
            assert_eq!(hold, 18, "a 42-cycle lane holds 9 packets each way");
            assert_eq!(rep.stat("link_in_flight"), hold, "{rep:?}");
            assert_eq!(
                rep.stat("link_in_flight") + rep.stat("link_lost_unseen"),
                rep.stat("link_sent"),
                "{rep:?}"
            );
            assert!(rep.stat("link_beats_dropped") > 10_000, "{rep:?}");
        } else if ber <= 1e-3 {
            assert!(rep.stat("link_discarded_framing") > 0, "ber {ber}: {rep:?}");
        }
    }
    // the node: every link both ways (seed 2 at 1e-3 overruns a neighbour's RX FIFO after
    // lost credits, a known fault outside this accounting: decision 0017; the constrained
    // stimulus at 1e-3 over-counts losses, decision 0042, so the plain one here)
    for (ber, seed, cycles) in [(1e-3, 1, 60_000), (0.1, 1, 30_000)] {
        let mut cfg = Config::default();
        cfg.link.phy.ber = ber;
        cfg.sim.seed = seed;
        let rep = run_n(
            &cfg,
            &Options {
                cycles,
                stimulus: Stimulus::Plain,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("node, ber {ber}, seed {seed}: {e}"));
        assert_link_accounting(&rep);
        assert!(rep.stat("link_sent") > 50, "node, ber {ber}: {rep:?}");
    }
}

#[test]
fn usedword_credits_with_heavy_bit_errors_are_identical() {
    let mut cfg = Config::default();
    cfg.link.phy.ber = 1e-4;
    cfg.link.credit.flavour = CreditFlavour::Usedword;
    cfg.link.phy.gearbox_pause = true;
    cfg.sim.seed = 77;
    let rep = run(
        &cfg,
        &Options {
            cycles: 200_000,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        rep.stat("packets_delivered") + rep.stat("packets_crc_bad") > 200,
        "{rep:?}"
    );
    assert!(
        rep.stat("ecc_corrected") > 0 && rep.stat("packets_lost") > 0,
        "{rep:?}"
    );
    assert!(rep.stat("link_discarded_framing") > 0, "{rep:?}");
    assert_link_accounting(&rep);
}

#[test]
fn whole_packet_credits_are_identical_and_never_stop_inside_a_packet() {
    let stalls = |whole: bool, flavour: CreditFlavour| {
        let mut cfg = Config::default();
        cfg.link.credit.whole_packet = whole;
        cfg.link.credit.flavour = flavour;
        // a started packet (up to 4 KB) may follow the stop: the TRED that covers it on top
        // of the credit round trip (the same for both, so that only the check differs)
        cfg.link.credit.tred_words =
            exanet::link::tred::safe_tred_units(&cfg.link, 4096, 4096, true);
        cfg.link.phy.ber = 1e-5;
        cfg.sim.seed = 2027;
        // (the plain stimulus: the constrained one changes the credit settings under traffic,
        // and a whole-packet link gets a larger TRED than a word-by-word one)
        let rep = run(
            &cfg,
            &Options {
                cycles: 200_000,
                stimulus: Stimulus::Plain,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("whole_packet {whole}, {flavour:?}: {e}"));
        assert!(rep.stat("packets_delivered") > 300, "{rep:?}");
        rep.stat("credit_stall_cycles")
    };
    for flavour in [CreditFlavour::StartStop, CreditFlavour::Usedword] {
        // the same saturating traffic is held back by credit less often when a started
        // packet always finishes (the stall count then holds only waits between packets)
        let (word, whole) = (stalls(false, flavour), stalls(true, flavour));
        assert!(
            whole < word,
            "{flavour:?}: {whole} stall cycles, word by word {word}"
        );
    }
}

#[test]
fn a_difference_in_the_model_is_reported_with_cycle_signal_and_values() {
    let cfg = Config::default();
    let e = run(
        &cfg,
        &Options {
            cycles: 5000,
            fault_at: Some(1234),
            ..Default::default()
        },
    )
    .unwrap_err();
    let CosimError::Mismatch(m) = e else {
        panic!("expected a mismatch, got {e}")
    };
    assert_eq!(m.cycle, 1234);
    assert_eq!(m.signal, "TOP.exanet_link_top.u_a.u_tcl.u_tx.credit_age_q");
    assert_ne!(m.model, m.rtl);
}

/// Flip one bit of the value of `signal` at the first change after `after_ps` in a VCD file.
fn plant(path: &Path, signal_leaf: &str, scope: &str, after_ps: u64) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    let mut code = None;
    let mut scopes: Vec<String> = Vec::new();
    for line in text.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        match t.as_slice() {
            ["$scope", _, name, ..] => scopes.push(name.to_string()),
            ["$upscope", ..] => {
                scopes.pop();
            }
            ["$var", _, _, c, name, ..] if *name == signal_leaf && scopes.join(".") == scope => {
                code = Some(c.to_string())
            }
            ["$enddefinitions", ..] => break,
            _ => {}
        }
    }
    let code = code.expect("the signal is declared");
    let mut out = String::with_capacity(text.len());
    let mut now = 0u64;
    let mut planted = None;
    for line in text.lines() {
        if let Some(t) = line.strip_prefix('#') {
            now = t.parse().unwrap();
        }
        let mut l = line.to_string();
        if planted.is_none()
            && now > after_ps
            && line.starts_with('b')
            && line.ends_with(&format!(" {code}"))
        {
            // flip the last bit of the vector
            let (v, rest) = line.split_at(line.find(' ').unwrap());
            let mut v = v.to_string();
            let last = v.pop().unwrap();
            v.push(if last == '0' { '1' } else { '0' });
            l = format!("{v}{rest}");
            planted = Some(now);
        }
        out.push_str(&l);
        out.push('\n');
    }
    std::fs::write(path, out).unwrap();
    planted.expect("a change to plant into")
}

#[test]
fn both_sides_write_waves_with_the_same_names_and_wave_diff_finds_a_planted_difference() {
    let dir = tmp("waves");
    let mut cfg = Config::default();
    cfg.link.phy.ber = 1e-4;
    cfg.sim.seed = 9;
    run(
        &cfg,
        &Options {
            cycles: 3000,
            vcd_dir: Some(dir.clone()),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (m, r) = (dir.join("model.vcd"), dir.join("rtl.vcd"));
    let rep = diff_files(&m, &r, &DiffOptions { strict: false }).unwrap();
    assert!(rep.identical(false), "{rep}");
    assert!(
        rep.compared > 500,
        "every model signal has a twin in the RTL waves: {rep}"
    );
    assert_same_register_names(&rep);
    let t = plant(
        &m,
        "credit_age_q",
        "TOP.exanet_link_top.u_b.u_tcl.u_tx",
        6_400_000,
    );
    let rep = diff_files(&m, &r, &DiffOptions { strict: false }).unwrap();
    assert!(!rep.identical(false));
    let d = rep.first_difference.as_ref().unwrap();
    assert_eq!(d.signal, "TOP.exanet_link_top.u_b.u_tcl.u_tx.credit_age_q");
    assert_eq!(d.time_fs, t * 1000);
    assert_ne!(d.value_a, d.value_b);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fst_waves_of_model_and_rtl_are_identical_and_identical_to_the_vcd_of_the_same_run() {
    let mut cfg = Config::default();
    cfg.link.phy.ber = 1e-4;
    cfg.sim.seed = 9;
    let (vdir, fdir) = (tmp("vcd-twin"), tmp("fst"));
    for (dir, wave_format) in [(&vdir, WaveFormat::Vcd), (&fdir, WaveFormat::Fst)] {
        let rep = run(
            &cfg,
            &Options {
                cycles: 3000,
                vcd_dir: Some(dir.clone()),
                wave_format,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let (m, r) = rep.vcd.unwrap();
        assert!(
            m.ends_with(&format!("model.{}", wave_format.extension())),
            "{m}"
        );
        assert!(
            r.ends_with(&format!("rtl.{}", wave_format.extension())),
            "{r}"
        );
    }
    let (mf, rf) = (fdir.join("model.fst"), fdir.join("rtl.fst"));
    assert!(exanet::wave::is_fst_file(&mf).unwrap() && exanet::wave::is_fst_file(&rf).unwrap());
    // model.fst against rtl.fst: as model.vcd against rtl.vcd.
    let rep = diff_files(&mf, &rf, &DiffOptions { strict: false }).unwrap();
    assert!(rep.identical(false), "{rep}");
    assert!(rep.compared > 500, "{rep}");
    assert_same_register_names(&rep);
    // Each FST against the VCD of the same run, every signal (strict).
    for side in ["model", "rtl"] {
        let (v, f) = (
            vdir.join(format!("{side}.vcd")),
            fdir.join(format!("{side}.fst")),
        );
        let rep = diff_files(&v, &f, &DiffOptions { strict: true }).unwrap();
        assert!(rep.identical(true), "{side}: {rep}");
        assert_eq!(
            rep.last_time_fs,
            (2999 * 6400 + 3200) * 1000,
            "{side}: {rep}"
        );
    }
    // And a planted difference in the model's FST is found: rewrite it from its VCD with one
    // register changed (the same planting as the VCD test above).
    let t = plant(
        &vdir.join("model.vcd"),
        "credit_age_q",
        "TOP.exanet_link_top.u_b.u_tcl.u_tx",
        6_400_000,
    );
    let planted = fdir.join("planted.fst");
    let input = std::io::BufReader::new(std::fs::File::open(vdir.join("model.vcd")).unwrap());
    exanet::wave::vcd_to_fst(input, "model.vcd", &planted).unwrap();
    let rep = diff_files(&planted, &rf, &DiffOptions { strict: false }).unwrap();
    let d = rep
        .first_difference
        .as_ref()
        .unwrap_or_else(|| panic!("{rep}"));
    assert_eq!(d.signal, "TOP.exanet_link_top.u_b.u_tcl.u_tx.credit_age_q");
    assert_eq!(d.time_fs, t * 1000);
    std::fs::remove_dir_all(&vdir).ok();
    std::fs::remove_dir_all(&fdir).ok();
}

#[test]
fn the_command_prints_cycles_identical_and_rejects_bad_input() {
    let exe = env!("CARGO_BIN_EXE_exanet");
    let out = std::process::Command::new(exe)
        .args([
            "cosim", "--design", "link", "--cycles", "3000", "--seed", "4", "--ber", "1e-4",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.lines().next() == Some("3000 cycles identical"),
        "{stdout}"
    );
    for (args, needle) in [
        (
            vec!["cosim", "--design", "ring", "--cycles", "10"],
            "--design",
        ),
        (
            vec!["cosim", "--design", "link", "--cycles", "0"],
            "--cycles",
        ),
        (
            vec!["cosim", "--design", "link", "--ber", "2"],
            "link.phy.ber",
        ),
        (
            vec!["cosim", "--design", "link", "--credit", "often"],
            "--credit",
        ),
    ] {
        let out = std::process::Command::new(exe)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

fn run_r(cfg: &Config, opts: &Options) -> Result<CosimReport, CosimError> {
    match run_router(cfg, opts, Simulator::Verilator) {
        Err(CosimError::Setup(m)) => panic!("co-simulation could not start: {m}"),
        other => other,
    }
}

#[test]
fn the_router_is_identical_with_both_credit_flavours() {
    // issue 3: at least 500,000 cycles
    for (flavour, seed) in [(CreditFlavour::StartStop, 3), (CreditFlavour::Usedword, 4)] {
        let mut cfg = Config::default();
        cfg.link.credit.flavour = flavour;
        cfg.sim.seed = seed;
        let rep = run_r(
            &cfg,
            &Options {
                cycles: 500_000,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{flavour:?}: {e}"));
        assert_eq!(rep.cycles, 500_000);
        // every gate, arbiter, crossbar and FIFO register of the 7 slots, and the ports
        assert!(rep.signals_compared > 1000, "{rep:?}");
        // the run must really exercise the paths it claims to
        assert!(rep.stat("packets_delivered") > 2000, "{flavour:?}: {rep:?}");
        assert!(rep.stat("packets_dropped") > 250, "{flavour:?}: {rep:?}");
        assert!(
            rep.stat("arbiter_mode_changes") > 20,
            "{flavour:?}: {rep:?}"
        );
        assert!(
            rep.stat("dimension_order_changes") > 20,
            "{flavour:?}: {rep:?}"
        );
    }
}

#[test]
fn a_difference_in_the_router_model_is_reported() {
    let e = run_r(
        &Config::default(),
        &Options {
            cycles: 3000,
            fault_at: Some(777),
            ..Default::default()
        },
    )
    .unwrap_err();
    let CosimError::Mismatch(m) = e else {
        panic!("expected a mismatch, got {e}")
    };
    assert_eq!(m.cycle, 777);
    assert_eq!(
        m.signal,
        "TOP.exanet_router_top.u_router.gen_in[0].u_in.stat_words_q"
    );
    assert_ne!(m.model, m.rtl);
}

#[test]
fn the_router_waves_have_the_same_names_on_both_sides() {
    let dir = tmp("router-waves");
    run_r(
        &Config::default(),
        &Options {
            cycles: 3000,
            vcd_dir: Some(dir.clone()),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (m, r) = (dir.join("model.vcd"), dir.join("rtl.vcd"));
    let rep = diff_files(&m, &r, &DiffOptions { strict: false }).unwrap();
    assert!(rep.identical(false), "{rep}");
    assert!(rep.compared > 1000, "{rep}");
    assert_same_register_names(&rep);
    std::fs::remove_dir_all(&dir).ok();
}

fn run_n(cfg: &Config, opts: &Options) -> Result<CosimReport, CosimError> {
    match run_node(cfg, opts, Simulator::Verilator) {
        Err(CosimError::Setup(m)) => panic!("co-simulation could not start: {m}"),
        other => other,
    }
}

#[test]
fn the_node_is_identical_under_register_traffic_self_tests_and_bit_errors() {
    // issue 3: at least 500,000 cycles
    let mut cfg = Config::default();
    cfg.link.phy.ber = 1e-5;
    cfg.sim.seed = 5;
    let rep = run_n(
        &cfg,
        &Options {
            cycles: 500_000,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.cycles, 500_000);
    // router, TCLs, lanes, Target Controller, self-test IPs and the neighbours' link ends
    assert!(rep.signals_compared > 2000, "{rep:?}");
    // the run must really exercise the paths it claims to
    assert!(rep.stat("packets_delivered") > 1500, "{rep:?}");
    assert!(rep.stat("packets_crc_bad") > 25, "{rep:?}");
    assert!(rep.stat("packets_dropped") > 120, "{rep:?}");
    assert!(rep.stat("selftest_runs") > 120, "{rep:?}");
    assert!(rep.stat("invalid_writes") > 25, "{rep:?}");
    assert!(rep.stat("read_only_writes") > 25, "{rep:?}");
    assert!(rep.stat("unknown_address_reads") > 25, "{rep:?}");
    assert!(rep.stat("status_reads") > 250, "{rep:?}");
    assert!(rep.stat("register_errors") > 250, "{rep:?}");
    assert_link_accounting(&rep);
}

#[test]
fn the_node_answers_a_read_between_registers_as_the_rtl_does() {
    // docs/validation.md's node command: at cycle 96559 the test bench reads link 1's offset
    // 0x31, between two reserved registers; the model once answered it as a register, the RTL
    // (rightly) with an unknown-address error
    let mut cfg = Config::default();
    cfg.link.phy.ber = 1e-5;
    cfg.sim.seed = 2026;
    let rep = run_n(
        &cfg,
        &Options {
            cycles: 100_000,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.cycles, 100_000);
    assert!(rep.stat("unknown_address_reads") > 0, "{rep:?}");
}

#[test]
fn a_difference_in_the_node_model_is_reported() {
    let e = run_n(
        &Config::default(),
        &Options {
            cycles: 3000,
            fault_at: Some(555),
            ..Default::default()
        },
    )
    .unwrap_err();
    let CosimError::Mismatch(m) = e else {
        panic!("expected a mismatch, got {e}")
    };
    assert_eq!(m.cycle, 555);
    assert_eq!(m.signal, "TOP.exanet_node_top.u_node.u_tc.err_count_q");
    assert_ne!(m.model, m.rtl);
}

#[test]
fn the_node_refuses_run_time_settings_its_rtl_does_not_reset_to() {
    let mut cfg = Config::default();
    cfg.link.credit.flavour = CreditFlavour::Usedword;
    match run_node(&cfg, &Options::default(), Simulator::Verilator) {
        Err(CosimError::Setup(m)) => assert!(m.contains("link.credit.flavour"), "{m}"),
        Err(e) => panic!("expected a setup error, got {e}"),
        Ok(r) => panic!("expected a setup error, got {r:?}"),
    }
}

#[test]
fn the_node_waves_have_the_same_names_on_both_sides() {
    let dir = tmp("node-waves");
    run_n(
        &Config::default(),
        &Options {
            cycles: 3000,
            vcd_dir: Some(dir.clone()),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (m, r) = (dir.join("model.vcd"), dir.join("rtl.vcd"));
    let rep = diff_files(&m, &r, &DiffOptions { strict: false }).unwrap();
    assert!(rep.identical(false), "{rep}");
    assert!(rep.compared > 2000, "{rep}");
    assert_same_register_names(&rep);
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 28 §2: the router and the node in lockstep with their RTL at every shape a network
/// command builds (1 local port, 4 or 6 link ports, 2, 3 and 4 VCs, a node inside its torus),
/// each against the top Verilated at that shape, with traffic on every output.
#[test]
fn router_and_node_are_identical_at_the_network_shapes() {
    use exanet::cosim::shapes::{apply, SHAPES};
    for s in SHAPES {
        let mut cfg = apply(&Config::default(), Some(s));
        cfg.sim.seed = 28;
        let rep = run_r(
            &cfg,
            &Options {
                cycles: 60_000,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("router {}: {e}", s.name));
        assert_eq!(rep.rtl_top, format!("router_{}", s.ident()));
        assert!(
            rep.stat("packets_delivered") > 100,
            "router {}: {rep:?}",
            s.name
        );
        cfg.link.phy.ber = 1e-5;
        let rep = run_n(
            &cfg,
            &Options {
                cycles: 40_000,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("node {}: {e}", s.name));
        assert_eq!(rep.rtl_top, format!("node_{}", s.ident()));
        assert!(
            rep.stat("packets_delivered") > 100,
            "node {}: {rep:?}",
            s.name
        );
        assert!(rep.signals_compared > 2000, "node {}: {rep:?}", s.name);
        assert_link_accounting(&rep);
    }
}

/// What the RTL cannot take is refused with exit 2 and the reason; the limit named is the
/// RTL's own (`MAX_INTER` of `rtl/exanet_base_router_pkg.sv`).
#[test]
fn shapes_the_rtl_is_not_built_at_are_refused() {
    let rtl_max = common::sv_localparams("rtl/exanet_base_router_pkg.sv")
        .into_iter()
        .find(|(n, _, _)| n == "MAX_INTER")
        .and_then(|(_, v, _)| v);
    assert_eq!(rtl_max, Some(exanet::cosim::shapes::RTL_MAX_INTER as u64));
    let shape_of = |args: &[&str]| {
        let mut a = vec!["cosim", "--cycles", "10"];
        a.extend(args);
        common::exanet(&a)
    };
    for (args, says) in [
        (
            &["--design", "node", "--set", "link.num_vcs=5"][..],
            "5 VCs",
        ),
        (
            &["--design", "router", "--set", "router.intra_ports=2"][..],
            "torus2d",
        ),
        (&["--design", "link", "--shape", "torus2d"][..], "--shape"),
        (
            &[
                "--design",
                "router",
                "--shape",
                "torus2d",
                "--simulator",
                "icarus",
            ][..],
            "icarus",
        ),
    ] {
        let o = shape_of(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let o = shape_of(&["--design", "node", "--shape", "torus3d", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["rtl_top"], "node_torus3d");
    assert_eq!(v["run"]["config"]["link"]["num_vcs"], 2);
}
