//! The packet layout exists three times: the Rust table (`packet::layout::FIELDS`), the tables of
//! `docs/packet.md` and the localparams of `rtl/exanet_base_pkg.sv`. This test parses the other two
//! and requires both to equal the Rust table exactly, so they cannot drift apart. It checks the
//! wire constants and type codes the same way.

use exanet::packet::layout::{Field, Word, FIELDS};
use exanet::packet::{wire, PacketType};
use std::collections::BTreeMap;

mod common;
use common::{read, sv_number};

/// The cells of every row of the first Markdown table after the line `heading`, header row
/// included, separator row dropped.
fn md_table(doc: &str, heading: &str) -> Vec<Vec<String>> {
    let mut lines = doc.lines().skip_while(|l| l.trim() != heading);
    assert!(
        lines.next().is_some(),
        "docs/packet.md has no heading `{heading}`"
    );
    lines
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("|---"))
        .map(|l| {
            let inner = l.trim().trim_start_matches('|').trim_end_matches('|');
            inner.split('|').map(|c| c.trim().to_string()).collect()
        })
        .collect()
}

fn rust_fields(word: Word) -> Vec<Field> {
    FIELDS.iter().copied().filter(|f| f.word == word).collect()
}

#[test]
fn docs_tables_equal_the_rust_table() {
    let doc = read("docs/packet.md");
    for (word, heading) in [(Word::Header, "## Header"), (Word::Footer, "## Footer")] {
        let table = md_table(&doc, heading);
        assert_eq!(
            table[0],
            ["field", "lsb", "width", "meaning"],
            "{heading} columns"
        );
        let rows: Vec<(String, u32, u32, String)> = table[1..]
            .iter()
            .map(|r| {
                assert_eq!(r.len(), 4, "{heading}: row {r:?}");
                let num = |s: &str| {
                    s.parse::<u32>()
                        .unwrap_or_else(|_| panic!("{heading}: {r:?}"))
                };
                (r[0].clone(), num(&r[1]), num(&r[2]), r[3].clone())
            })
            .collect();
        let want: Vec<(String, u32, u32, String)> = rust_fields(word)
            .iter()
            .map(|f| {
                (
                    f.name.to_string(),
                    f.lsb,
                    f.width,
                    f.description.to_string(),
                )
            })
            .collect();
        assert_eq!(
            rows, want,
            "docs/packet.md {heading} differs from packet::layout::FIELDS"
        );
    }
}

/// Every `localparam <type> NAME = VALUE;` of the package whose value is a number.
fn sv_localparams() -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for (name, value, _) in common::sv_localparams("rtl/exanet_base_pkg.sv") {
        if let Some(v) = value {
            assert!(
                out.insert(name.clone(), v).is_none(),
                "{name} declared twice"
            );
        }
    }
    out
}

#[test]
fn sv_localparams_equal_the_rust_table() {
    let sv = sv_localparams();
    let mut want = BTreeMap::new();
    for f in &FIELDS {
        let base = format!("{}{}", f.word.sv_prefix(), f.name.to_uppercase());
        want.insert(format!("{base}_LSB"), u64::from(f.lsb));
        want.insert(format!("{base}_W"), u64::from(f.width));
    }
    let got: BTreeMap<String, u64> = sv
        .iter()
        .filter(|(n, _)| {
            (n.starts_with("HDR_") || n.starts_with("FTR_"))
                && (n.ends_with("_LSB") || n.ends_with("_W"))
        })
        .map(|(n, v)| (n.clone(), *v))
        .collect();
    assert_eq!(
        got, want,
        "rtl/exanet_base_pkg.sv HDR_*/FTR_* localparams differ from FIELDS"
    );
}

#[test]
fn sv_type_codes_equal_rust() {
    let sv = sv_localparams();
    for (name, kind) in [
        ("TYPE_RDMA", PacketType::Rdma),
        ("TYPE_ACK", PacketType::Ack),
        ("TYPE_RATE", PacketType::Rate),
        ("TYPE_RSVD", PacketType::Reserved),
    ] {
        assert_eq!(sv.get(name), Some(&kind.code()), "{name}");
    }
}

#[test]
fn wire_constants_agree_in_rust_sv_and_docs() {
    let sv = sv_localparams();
    // (Rust name, SV name, value or None, msb, lsb)
    let rust: [(&str, &str, Option<u64>, u32, u32); 5] = [
        ("MAGIC", "WIRE_MAGIC", Some(wire::MAGIC), 63, 0),
        ("START", "WIRE_START", Some(wire::START), 63, 0),
        (
            "CREDIT_SS_TAG",
            "CREDIT_SS_TAG",
            Some(wire::CREDIT_SS_TAG),
            wire::CREDIT_SS_TAG_LSB + wire::CREDIT_SS_TAG_W - 1,
            wire::CREDIT_SS_TAG_LSB,
        ),
        (
            "CREDIT_UW_TAG",
            "CREDIT_UW_TAG",
            Some(wire::CREDIT_UW_TAG),
            wire::CREDIT_UW_TAG_LSB + wire::CREDIT_UW_TAG_W - 1,
            wire::CREDIT_UW_TAG_LSB,
        ),
        (
            "CREDIT_UW_IDX",
            "CREDIT_UW_IDX",
            None,
            wire::CREDIT_UW_IDX_LSB + wire::CREDIT_UW_IDX_W - 1,
            wire::CREDIT_UW_IDX_LSB,
        ),
    ];

    // SystemVerilog: values, and positions of the partial-beat fields.
    for (_, sv_name, value, msb, lsb) in rust {
        if let Some(v) = value {
            assert_eq!(sv.get(sv_name), Some(&v), "{sv_name}");
        }
        if msb - lsb + 1 < 64 {
            assert_eq!(
                sv.get(&format!("{sv_name}_LSB")),
                Some(&u64::from(lsb)),
                "{sv_name}"
            );
            assert_eq!(
                sv.get(&format!("{sv_name}_W")),
                Some(&u64::from(msb - lsb + 1))
            );
        }
    }

    // Docs.
    let table = md_table(&read("docs/packet.md"), "## Wire constants");
    assert_eq!(
        table[0],
        ["Rust", "SystemVerilog", "value", "bits", "meaning"]
    );
    let rows = &table[1..];
    assert_eq!(rows.len(), rust.len(), "wire constants table rows");
    for (row, (rname, sv_name, value, msb, lsb)) in rows.iter().zip(rust) {
        assert_eq!(row[0], format!("`{rname}`"));
        assert_eq!(row[1], format!("`{sv_name}`"));
        if let Some(v) = value {
            let cell = row[2].trim_matches('`').replace('_', "");
            let parsed = if let Some(h) = cell.strip_prefix("0x") {
                u64::from_str_radix(h, 16)
            } else if let Some(b) = cell.strip_prefix("0b") {
                u64::from_str_radix(b, 2)
            } else {
                panic!("{rname}: value cell {:?}", row[2])
            };
            assert_eq!(parsed, Ok(v), "{rname} in docs");
        }
        assert_eq!(row[3], format!("{msb}:{lsb}"), "{rname} bits in docs");
    }
}

#[test]
fn the_parsers_reject_what_they_should() {
    // Guards against a parser that silently matches nothing.
    assert_eq!(
        sv_number("64'hB5A5_5AA5_C33C_0FF0"),
        Some(0xB5A5_5AA5_C33C_0FF0)
    );
    assert_eq!(sv_number("2'b11"), Some(3));
    assert_eq!(sv_number("120"), Some(120));
    assert_eq!(sv_number("HDR_ECC_LSB"), None);
    assert!(sv_localparams().len() > 2 * FIELDS.len());
    assert!(md_table(&read("docs/packet.md"), "## Header").len() > 1);
}
