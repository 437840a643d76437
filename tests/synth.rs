//! FPGA synthesis of the RTL (scripts/synth.sh, decisions 0034 and 0036): one inter-tile
//! payload FIFO, 1024 x 128 bit, must map to block RAM (four RAMB36, the 128 Kib it stores),
//! with no storage left in LUTs or flip-flops. `--breakdown` must charge every LUT and
//! flip-flop, each where it computes; the TCL RX's CRC register must hold one engine, more
//! than a 64-bit step and less than a 64-bit and a 128-bit one together. Needs Yosys
//! (Debian's) and YoWASP's Yosys, which the test command installs (scripts/setup.sh
//! need_yosys); without them this test fails, never skips.

use std::process::Command;

/// `scripts/synth.sh ARGS --json`: its one JSON object per block.
fn synth(args: &[&str]) -> Vec<serde_json::Value> {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/scripts/synth.sh"))
        .args(args)
        .arg("--json")
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "scripts/synth.sh {args:?} failed (Yosys: scripts/setup.sh need_yosys):\n{}\n{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect()
}

#[test]
fn the_breakdown_charges_each_lut_where_it_computes_and_the_rx_crc_is_one_engine() {
    let n = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap_or_else(|| panic!("{k} in {v}"));
    // A block without registers: every LUT computes its one output port.
    let k64 = synth(&["--block", "crc32c_64", "--breakdown"]).remove(0);
    let regs = k64["breakdown"]["registers"].as_array().expect("registers");
    assert_eq!(regs.len(), 1, "{k64}");
    assert_eq!(regs[0]["register"], "port crc_o", "{k64}");
    assert_eq!(n(&regs[0], "lut"), n(&k64, "lut"), "{k64}");
    let k64 = n(&k64, "lut");
    let k128 = n(&synth(&["--block", "crc32c_128"])[0], "lut");
    assert!(k128 > 1.5 * k64, "the kernels: {k64} and {k128} LUTs");

    let row = synth(&["--block", "tcl_rx", "--breakdown"]).remove(0);
    let bd = &row["breakdown"];
    let regs = bd["registers"].as_array().expect("registers");
    let reg = |name: &str| {
        regs.iter()
            .find(|r| r["register"] == name)
            .unwrap_or_else(|| panic!("no {name} in {bd}"))
    };
    // every LUT and flip-flop of the block is charged, to registers with their RTL names
    assert_eq!(n(&bd["totals"], "lut"), n(&row, "lut"), "{bd}");
    let lut: f64 = regs.iter().map(|r| n(r, "lut")).sum();
    assert!(
        (lut - n(&row, "lut")).abs() < 1.0,
        "LUT shares sum to {lut}: {row}"
    );
    let ff: f64 = regs.iter().map(|r| n(r, "ff")).sum();
    assert_eq!(ff, n(&row, "ff"), "{bd}");
    // INV cells: one on each flip-flop's active-low reset, the rest in logic
    assert_eq!(n(&bd["totals"], "inv_reset"), n(&row, "ff"), "{bd}");
    assert_eq!(
        n(&bd["totals"], "inv_reset") + n(&bd["totals"], "inv_logic"),
        n(&row, "inv")
    );
    // the input register takes the PHY's beat as it is: nothing to compute
    assert_eq!(n(reg("in_data_q"), "ff"), 64.0, "{bd}");
    assert_eq!(n(reg("in_data_q"), "lut"), 0.0, "{bd}");
    // The CRC's register holds the engine: at least a 64-bit step, with the header
    // correction and the state's mux, and less than a 128-bit engine and a 64-bit one
    // together (the RX that computed a corrected header's CRC, a payload word's and the
    // footer's at each word's second beat had three engines, 1241 LUTs here).
    let crc = reg("crc_q");
    assert_eq!(n(crc, "ff"), 32.0, "{crc}");
    assert!(
        n(crc, "lut") > k64,
        "crc_q's {} LUTs: the engine is not there",
        n(crc, "lut")
    );
    assert!(
        n(crc, "lut") < k64 + k128,
        "crc_q's {} LUTs: more than a 64-bit ({k64}) and a 128-bit ({k128}) CRC engine",
        n(crc, "lut")
    );
}

#[test]
fn the_payload_fifo_maps_to_block_ram() {
    let row = synth(&["--block", "fifo"]).remove(0);
    let n = |k: &str| row[k].as_f64().unwrap_or_else(|| panic!("{k} in {row}"));
    // 1024 words x 128 bits = 131072 bits = four 36-Kib block RAMs (32 Kib of data each)
    assert_eq!(n("bram36"), 4.0, "{row}");
    assert_eq!(n("lutram"), 0.0, "no distributed RAM: {row}");
    // the pointers (11 bits each, LATENCY - 1 visibility copies), two 32-bit error counters and
    // the read port's 128-bit pass-through: far below the 131072 bits of storage
    assert!(n("ff") < 400.0, "storage in flip-flops: {row}");
    assert!(n("lut") > 0.0, "{row}");
}

#[test]
fn bad_arguments_are_refused() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (args, want) in [
        (&["--block", "nope"][..], "unknown block 'nope'"),
        (&["--frobnicate"][..], "unknown argument '--frobnicate'"),
        (&["--block"][..], "--block needs a name"),
        (&["--breakdown"][..], "--breakdown needs --block NAME"),
        (
            &["--block", "tcl", "--depth", "1"][..],
            "--depth goes with --breakdown",
        ),
        (
            &["--block", "tcl", "--breakdown", "--depth", "0"][..],
            "--depth needs a whole number",
        ),
    ] {
        let out = Command::new("bash")
            .arg(format!("{root}/scripts/synth.sh"))
            .args(args)
            .output()
            .expect("bash runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
