//! The RTL under a second simulator, Icarus Verilog (Debian's `iverilog`, 11.0; issue 15 §2,
//! docs/rtl-portability.md): every IP top compiles, the self-checking link bench passes, and the
//! link and the router run the model's cycles identically (`exanet cosim --simulator icarus`:
//! every probed signal after every rising edge). Needs `iverilog` and `vvp`, which the test
//! command installs (scripts/setup.sh need_iverilog); without them these tests fail, never skip.

use exanet::config::Config;
use exanet::cosim::icarus::{rtl_dir, rtl_sources};
use exanet::cosim::link_design::run_link;
use exanet::cosim::lockstep::{CosimError, Options, Simulator};
use exanet::cosim::node_design::run_node;
use exanet::cosim::router_design::run_router;
use std::path::PathBuf;
use std::process::Command;

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("exanet-icarus-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn srcs() -> Vec<PathBuf> {
    rtl_sources(&rtl_dir()).expect("the RTL sources")
}

/// `iverilog -g2012` of the RTL with `extra` files and top `top`: its stderr, after asserting
/// it compiled.
fn compile(top: &str, extra: &[PathBuf], out: &PathBuf) -> String {
    let o = Command::new("iverilog")
        .args(["-g2012", "-o"])
        .arg(out)
        .args(["-s", top])
        .args(srcs())
        .args(extra)
        .output()
        .expect("iverilog runs (scripts/setup.sh need_iverilog installs it)");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "iverilog -s {top} failed:\n{err}");
    err
}

#[test]
fn every_ip_top_compiles_with_only_the_known_notes() {
    let dir = out_dir("tops");
    for top in ["exanet_link_top", "exanet_router_top", "exanet_node_top"] {
        let err = compile(top, &[], &dir.join(format!("{top}.vvp")));
        // What Icarus 11.0 says of this RTL, and nothing else: it ignores `unique` on a case
        // (a lint check, not logic) and widens an always block's sensitivity to a whole
        // variable when it reads a constant part of it (more wake-ups, the same values).
        for line in err.lines() {
            assert!(
                line.contains("sorry: Case unique/unique0 qualities are ignored")
                    || line.contains("sorry: constant selects in always_* processes"),
                "{top}: iverilog said: {line}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_self_checking_link_bench_passes() {
    let dir = out_dir("smoke");
    let tb =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testbench/icarus/exanet_link_smoke_tb.sv");
    let vvp = dir.join("smoke.vvp");
    compile("exanet_link_smoke_tb", &[tb], &vvp);
    let o = Command::new("vvp")
        .arg("-n")
        .arg(&vvp)
        .output()
        .expect("vvp runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(!out.contains("FAIL"), "{out}");
    assert_eq!(out.lines().last(), Some("PASS"), "{out}");
    for dir in ["A>B", "B>A"] {
        assert!(
            out.contains(&format!("dir {dir} packets 4 words 8 ")),
            "{dir}: {out}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn opts(cycles: u64) -> Options {
    Options {
        cycles,
        ..Default::default()
    }
}

#[test]
fn the_link_runs_identically_under_icarus_with_bit_errors() {
    let mut cfg = Config::default();
    cfg.link.phy.ber = 1e-5;
    cfg.sim.seed = 7;
    let rep = run_link(&cfg, &opts(11_000), Simulator::Icarus).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rep.cycles, 11_000);
    assert_eq!(rep.signals_compared, 966);
    // the run carried traffic and bit errors, and the RTL under Icarus delivered the same
    assert!(rep.stat("link_delivered") > 10, "{rep:?}");
    assert!(rep.stat("bits_flipped") > 0, "{rep:?}");
    // and a reset during traffic (seed 7's first, between cycles 10,000 and 11,000), the
    // replayed inputs' reset flag pulsing rst_ni in the Icarus bench
    assert_eq!(rep.stat("resets"), 1, "{rep:?}");
    assert!(rep.stat("packets_reset_lost") > 0, "{rep:?}");
}

#[test]
fn the_router_runs_identically_under_icarus() {
    let cfg = Config::default();
    let rep = run_router(&cfg, &opts(3000), Simulator::Icarus).unwrap_or_else(|e| panic!("{e}"));
    // the 1283 signals of the Verilator lockstep but 94 names of the top's unpacked-array
    // port elements (47 elements, each named at TOP and inside the top), whose values
    // u_router's ports carry
    assert_eq!(rep.signals_compared, 1283 - 94);
    assert!(rep.stat("packets_delivered") > 0, "{rep:?}");
}

#[test]
fn a_model_register_changed_alone_is_caught() {
    let cfg = Config::default();
    let o = Options {
        fault_at: Some(700),
        ..opts(1000)
    };
    match run_link(&cfg, &o, Simulator::Icarus) {
        Err(CosimError::Mismatch(m)) => {
            assert_eq!(m.cycle, 700, "{m}");
            // the register the link design's fault hook changes (LinkDesign::inject_fault)
            assert_eq!(m.signal, "TOP.exanet_link_top.u_a.u_tcl.u_tx.credit_age_q");
        }
        other => panic!("expected a mismatch at cycle 700, got {other:?}"),
    }
}

#[test]
fn the_node_and_waves_are_refused_with_the_reason() {
    let cfg = Config::default();
    match run_node(&cfg, &opts(10), Simulator::Icarus) {
        Err(CosimError::Setup(m)) => assert!(m.contains("unpacked-array ports"), "{m}"),
        other => panic!("{other:?}"),
    }
    let o = Options {
        vcd_dir: Some(out_dir("waves")),
        ..opts(10)
    };
    match run_link(&cfg, &o, Simulator::Icarus) {
        Err(CosimError::Setup(m)) => assert!(m.contains("writes no waves"), "{m}"),
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(o.vcd_dir.as_ref().unwrap()).unwrap();
}
