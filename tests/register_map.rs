//! The register map exists three times: `REGS` in `src/node/regs.rs` (the model), the tables of
//! `docs/registers.md`, and the address constants of `rtl/exanet_regs_pkg.sv`. They must agree
//! row for row.

use exanet::node::regs::{
    Access, FIRST_LINK_REG, FIRST_SLOT_REG, LINK_BASE, LINK_STRIDE, REGS, SLOT_BASE, SLOT_STRIDE,
};
use std::collections::BTreeMap;

fn read(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The row the documentation must carry for register `k` of `REGS`.
fn doc_row(k: usize) -> String {
    let r = &REGS[k];
    let addr = if k < FIRST_SLOT_REG {
        format!("`0x{:03X}`", r.addr)
    } else if k < FIRST_LINK_REG {
        format!("`0x{SLOT_BASE:X} + 0x{SLOT_STRIDE:X} s + 0x{:02X}`", r.addr)
    } else {
        format!("`0x{LINK_BASE:X} + 0x{LINK_STRIDE:X} q + 0x{:02X}`", r.addr)
    };
    format!(
        "| `{}` | {addr} | {} | {} |",
        r.name,
        r.access.name(),
        r.description
    )
}

#[test]
fn the_documentation_lists_every_register_as_the_model_does() {
    let doc = read("docs/registers.md");
    let rows: Vec<&str> = doc
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter(|l| !l.starts_with("| `ERR_STATUS` bit"))
        .collect();
    let want: Vec<String> = (0..REGS.len()).map(doc_row).collect();
    for (k, w) in want.iter().enumerate() {
        assert_eq!(
            rows.get(k).copied(),
            Some(w.as_str()),
            "docs/registers.md row {k} differs from REGS; the expected table is:\n{}",
            want.join("\n")
        );
    }
    assert_eq!(rows.len(), want.len(), "docs/registers.md has extra rows");
}

#[test]
fn addresses_are_unique_aligned_and_inside_their_blocks() {
    let mut seen = BTreeMap::new();
    for (k, r) in REGS.iter().enumerate() {
        assert_eq!(r.addr % 4, 0, "{}", r.name);
        let block = if k < FIRST_SLOT_REG {
            assert!(r.addr < SLOT_BASE, "{}", r.name);
            0
        } else if k < FIRST_LINK_REG {
            assert!(r.addr < SLOT_STRIDE, "{}", r.name);
            1
        } else {
            assert!(r.addr < LINK_STRIDE, "{}", r.name);
            2
        };
        assert!(
            seen.insert((block, r.addr), r.name).is_none(),
            "{} shares its address",
            r.name
        );
        if block > 0 {
            assert_eq!(
                r.access,
                Access::Ro,
                "status registers are read-only: {}",
                r.name
            );
        }
    }
    assert_eq!(FIRST_LINK_REG - FIRST_SLOT_REG, (SLOT_STRIDE / 4) as usize);
    assert_eq!(REGS.len() - FIRST_LINK_REG, (LINK_STRIDE / 4) as usize);
}
