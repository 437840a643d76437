//! Figures that `docs/` states about the program's own output, held against the program, so
//! that the documents stay true when the designs change (the signal counts of
//! `docs/validation.md` once lagged the co-simulation by 8 and 12 signals).

mod common;
use common::{exanet, read};

/// The `N signals` that docs/validation.md's "Model against RTL" table gives for `design`.
fn documented_signals(design: &str) -> u64 {
    let doc = read("docs/validation.md");
    let line = doc
        .lines()
        .find(|l| l.contains(&format!("cosim --design {design} ")) && l.contains(" signals"))
        .unwrap_or_else(|| panic!("docs/validation.md gives no signal count for {design}"));
    let before = line.split(" signals").next().unwrap();
    before
        .rsplit(|c: char| !c.is_ascii_digit())
        .find(|w| !w.is_empty())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no number before 'signals' in: {line}"))
}

#[test]
fn validation_md_gives_the_signal_counts_cosim_compares() {
    for design in ["link", "router", "node"] {
        let o = exanet(&[
            "cosim", "--design", design, "--cycles", "200", "--seed", "2026", "--json",
        ]);
        assert!(
            o.status.success(),
            "{design}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            v["signals_compared"].as_u64(),
            Some(documented_signals(design)),
            "docs/validation.md's signal count for {design}"
        );
    }
}
