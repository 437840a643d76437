//! Each block's register list (`registers!`, `src/block.rs`) names exactly the registers its RTL
//! twin declares: every `<name>_q` of the model is a `_q` of the module and every `_q` of the
//! module is the model's, except the storage a model keeps in another form (named here, with
//! where it lives). The lockstep co-simulation compares the registers probed; this test catches
//! a register added to one side and forgotten on the other before any cycle runs.

use exanet::fifo::FifoRegs;
use exanet::link::tcl_rx::TclRx;
use exanet::link::tcl_tx::TclTx;
use exanet::router::gate::Gate;
use exanet::router::output::OutRegs;
use std::collections::BTreeSet;

/// Every identifier ending in `_q` declared in `rtl/<file>`: on a line that starts with `logic`
/// or with an enumeration or typedef (`..._e`, `..._t`).
fn rtl_registers(file: &str) -> BTreeSet<String> {
    let path = format!("{}/rtl/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut regs = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let first = code.split_whitespace().next().unwrap_or("");
        if !(first == "logic" || first.ends_with("_e") || first.ends_with("_t")) {
            continue;
        }
        for word in code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if word.ends_with("_q") && word.len() > 2 {
                regs.insert(word.to_string());
            }
        }
    }
    assert!(!regs.is_empty(), "{path} declares no _q register");
    regs
}

fn check(block: &str, list: &[&str], file: &str, elsewhere: &[&str]) {
    let rtl = rtl_registers(file);
    let model: BTreeSet<String> = list.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        model.len(),
        list.len(),
        "{block}: a register is listed twice"
    );
    let missing: Vec<_> = rtl
        .iter()
        .filter(|r| !model.contains(*r) && !elsewhere.contains(&r.as_str()))
        .collect();
    let extra: Vec<_> = model.iter().filter(|r| !rtl.contains(*r)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{block} against rtl/{file}: the RTL's {missing:?} are not in the model's register list, \
         the model's {extra:?} are not declared in the RTL"
    );
    for r in elsewhere {
        assert!(rtl.contains(*r), "{block}: rtl/{file} has no {r} any more");
    }
}

#[test]
fn every_register_list_matches_its_rtl_module() {
    // the FIFO's storage is the model's `FifoMem` (src/fifo_mem.rs)
    check(
        "Fifo",
        FifoRegs::RTL_REGISTERS,
        "exanet_fifo.sv",
        &["mem_q"],
    );
    check("Gate", Gate::RTL_REGISTERS, "exanet_rt_in.sv", &[]);
    check("OutSlot", OutRegs::RTL_REGISTERS, "exanet_rt_out.sv", &[]);
    check("TclTx", TclTx::RTL_REGISTERS, "exanet_tcl_tx.sv", &[]);
    check("TclRx", TclRx::RTL_REGISTERS, "exanet_tcl_rx.sv", &[]);
}

#[test]
fn the_rtl_scan_sees_a_register_the_model_lacks() {
    // the check can fail: drop one name from a list and it must complain
    let short = &TclTx::RTL_REGISTERS[1..];
    let r = std::panic::catch_unwind(|| check("TclTx", short, "exanet_tcl_tx.sv", &[]));
    assert!(
        r.is_err(),
        "a register missing from the list went unnoticed"
    );
}
