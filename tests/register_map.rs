//! The register map exists three times: the Rust table (`node::regs::REGS`), the table of
//! `docs/registers.md` and the localparams of `rtl/exanet_regs_pkg.sv`. This test parses the
//! other two and requires both to equal the Rust table exactly (names, addresses, access kinds,
//! and in the document the descriptions), so they cannot drift apart.

use exanet::node::regs::*;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    let path = format!("{ROOT}/{rel}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// A SystemVerilog sized literal (`12'h07C`, `5'h1C`, `32'h4558_4E31`) or a decimal.
fn sv_number(text: &str) -> Option<u64> {
    let t = text.replace('_', "");
    match t.split_once('\'') {
        None => t.parse().ok(),
        Some((_, lit)) => {
            let (radix, digits) = lit.split_at(1);
            let radix = match radix {
                "h" | "H" => 16,
                "d" | "D" => 10,
                "b" | "B" => 2,
                _ => return None,
            };
            u64::from_str_radix(digits, radix).ok()
        }
    }
}

/// Every `localparam <type> NAME = VALUE;  // comment` of the package: (name, value, comment).
fn sv_localparams() -> Vec<(String, Option<u64>, String)> {
    let pkg = read("rtl/exanet_regs_pkg.sv");
    let mut out = Vec::new();
    for line in pkg.lines() {
        let (code, comment) = line.split_once("//").unwrap_or((line, ""));
        let Some(decl) = code.trim().strip_prefix("localparam ") else {
            continue;
        };
        let Some((lhs, rhs)) = decl.split_once('=') else {
            continue;
        };
        let name = lhs.split_whitespace().last().unwrap_or("").to_string();
        let value = sv_number(rhs.trim().trim_end_matches(';').trim());
        out.push((name, value, comment.trim().to_string()));
    }
    out
}

#[test]
fn sv_package_equals_the_rust_table() {
    let sv = sv_localparams();
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
        "rtl/exanet_regs_pkg.sv REG_* differs from node::regs::REGS"
    );
    let get = |name: &str| {
        sv.iter()
            .find(|(n, _, _)| n == name)
            .and_then(|(_, v, _)| *v)
            .unwrap_or_else(|| panic!("{name} missing"))
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

#[test]
fn docs_table_equals_the_rust_table() {
    let doc = read("docs/registers.md");
    let rows: Vec<Vec<String>> = doc
        .lines()
        .skip_while(|l| l.trim() != "## Map")
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("|---"))
        .map(|l| {
            let inner = l.trim().trim_start_matches('|').trim_end_matches('|');
            inner.split('|').map(|c| c.trim().to_string()).collect()
        })
        .collect();
    assert!(
        !rows.is_empty(),
        "docs/registers.md has no table under `## Map`"
    );
    assert_eq!(rows[0], ["name", "address", "access", "description"]);
    let got: Vec<Vec<String>> = rows[1..].to_vec();
    let want: Vec<Vec<String>> = REGS
        .iter()
        .map(|r| {
            vec![
                r.name.to_string(),
                format!("0x{:03X}", r.addr),
                r.access.name().to_string(),
                r.description.to_string(),
            ]
        })
        .collect();
    assert_eq!(got, want, "docs/registers.md differs from node::regs::REGS");
}
