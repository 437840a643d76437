//! FPGA synthesis of the RTL (scripts/synth.sh, decision 0034): one inter-tile payload FIFO,
//! 1024 x 128 bit, must map to block RAM (four RAMB36, the 128 Kib it stores), with no storage
//! left in LUTs or flip-flops. Needs Yosys (Debian's) and YoWASP's Yosys, which the test command
//! installs (scripts/setup.sh need_yosys); without them this test fails, never skips.

use std::process::Command;

#[test]
fn the_payload_fifo_maps_to_block_ram() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/scripts/synth.sh"))
        .args(["--block", "fifo", "--json"])
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "scripts/synth.sh --block fifo failed (Yosys: scripts/setup.sh need_yosys):\n{}\n{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    let row: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
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
