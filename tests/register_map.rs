//! The register map exists three times: `REGS` in `src/node/regs.rs` (the model), the tables of
//! `docs/registers.md`, and the address constants of `rtl/exanet_base_regs_pkg.sv`. They must agree
//! row for row.

use exanet::node::regs::{
    Access, ERR_BAD_VALUE, ERR_READ_ONLY, ERR_UNKNOWN_ADDR, FIRST_LINK_REG, FIRST_SLOT_REG,
    ID_VALUE, LINK_BASE, LINK_STRIDE, MAX_LINKS, MAX_SLOTS, REGS, SLOT_BASE, SLOT_STRIDE,
};
use std::collections::BTreeMap;

mod common;
use common::{read, sv_localparams};

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

/// `REG_<NAME>` of the RTL package, in order, is every register of `REGS` with its address (the
/// offset in its block for slot and link registers) and, in its comment, its access kind; the
/// block constants, the ID value and the error bits are the model's.
#[test]
fn the_rtl_package_carries_every_register() {
    let sv = sv_localparams("rtl/exanet_base_regs_pkg.sv");
    let got: Vec<(String, u64, String)> = sv
        .iter()
        .filter(|(n, _, _)| n.starts_with("REG_") && n != "REG_ADDR_W")
        .map(|(n, v, c)| {
            (
                n.trim_start_matches("REG_").to_string(),
                v.unwrap_or_else(|| panic!("{n}: not a number")),
                c.clone(),
            )
        })
        .collect();
    let want: Vec<(String, u64, String)> = REGS
        .iter()
        .map(|r| {
            (
                r.name.to_string(),
                u64::from(r.addr),
                r.access.name().to_string(),
            )
        })
        .collect();
    assert_eq!(
        got, want,
        "rtl/exanet_base_regs_pkg.sv REG_* differs from node::regs::REGS"
    );
    let get = |name: &str| {
        sv.iter()
            .find(|(n, _, _)| n == name)
            .and_then(|(_, v, _)| *v)
            .unwrap_or_else(|| panic!("{name} missing from rtl/exanet_base_regs_pkg.sv"))
    };
    assert_eq!(get("ID_VALUE"), u64::from(ID_VALUE));
    assert_eq!(get("SLOT_BASE"), u64::from(SLOT_BASE));
    assert_eq!(get("SLOT_STRIDE"), u64::from(SLOT_STRIDE));
    assert_eq!(get("MAX_SLOTS"), u64::from(MAX_SLOTS));
    assert_eq!(get("LINK_BASE"), u64::from(LINK_BASE));
    assert_eq!(get("LINK_STRIDE"), u64::from(LINK_STRIDE));
    assert_eq!(get("MAX_LINKS"), u64::from(MAX_LINKS));
    assert_eq!(get("ERR_UNKNOWN_ADDR"), u64::from(ERR_UNKNOWN_ADDR));
    assert_eq!(get("ERR_BAD_VALUE"), u64::from(ERR_BAD_VALUE));
    assert_eq!(get("ERR_READ_ONLY"), u64::from(ERR_READ_ONLY));
}
