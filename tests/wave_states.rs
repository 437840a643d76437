//! The one table of enumerated registers (`src/wave/states.rs`) against the RTL that defines
//! the same names, and against the translate files the save files apply
//! (`waves/translate/`): a code renamed, renumbered, added or removed on one side only fails
//! here.

mod common;

use common::{read, sv_number};
use exanet::wave::states::{RtlDef, StateTable, TABLES};
use std::collections::BTreeMap;

/// `logic [H:0]` → `H + 1`; anything else → `None`.
fn logic_width(ty: &str) -> Option<u32> {
    let t = ty.trim();
    let inner = t.strip_prefix("logic")?.trim();
    let inner = inner.strip_prefix('[')?.strip_suffix(']')?;
    let (hi, lo) = inner.split_once(':')?;
    if lo.trim() != "0" {
        return None;
    }
    hi.trim().parse::<u32>().ok().map(|h| h + 1)
}

/// Code without `//` comments.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split_once("//").map_or(l, |(c, _)| c))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `localparam logic [W-1:0] NAME = V;` of `text` whose name starts with `prefix`:
/// name -> (value, width).
fn localparams(text: &str, prefix: &str) -> Result<BTreeMap<String, (u64, u32)>, String> {
    let mut out = BTreeMap::new();
    for stmt in code(text).split(';') {
        let Some(decl) = stmt.trim().strip_prefix("localparam ") else {
            continue;
        };
        let Some((lhs, rhs)) = decl.split_once('=') else {
            continue;
        };
        let lhs = lhs.trim();
        let Some((ty, name)) = lhs.rsplit_once(char::is_whitespace) else {
            continue;
        };
        if !name.starts_with(prefix) {
            continue;
        }
        let value = sv_number(rhs.trim()).ok_or_else(|| format!("{name}: value `{rhs}`"))?;
        let width = logic_width(ty).ok_or_else(|| format!("{name}: type `{ty}`"))?;
        out.insert(name.to_string(), (value, width));
    }
    Ok(out)
}

/// The members of `typedef enum logic [W-1:0] { A = V, ... } type_name;` of `text`:
/// name -> (value, width).
fn enum_members(text: &str, type_name: &str) -> Result<BTreeMap<String, (u64, u32)>, String> {
    let text = code(text);
    let end = text
        .find(&format!("}} {type_name};"))
        .ok_or_else(|| format!("no `}} {type_name};`"))?;
    let start = text[..end]
        .rfind("typedef enum")
        .ok_or_else(|| format!("no `typedef enum` before `{type_name}`"))?;
    let decl = &text[start + "typedef enum".len()..end];
    let (ty, body) = decl
        .split_once('{')
        .ok_or_else(|| format!("{type_name}: no `{{`"))?;
    let width = logic_width(ty).ok_or_else(|| format!("{type_name}: base type `{ty}`"))?;
    let mut out = BTreeMap::new();
    for m in body.split(',').map(str::trim).filter(|m| !m.is_empty()) {
        let (n, v) = m
            .split_once('=')
            .ok_or_else(|| format!("{type_name}: member `{m}` without a value"))?;
        let v = sv_number(v.trim()).ok_or_else(|| format!("{type_name}: `{m}`"))?;
        out.insert(n.trim().to_string(), (v, width));
    }
    Ok(out)
}

/// What the RTL defines for `t`: name -> (value, width).
fn rtl_codes(t: &StateTable, text: &str) -> Result<BTreeMap<String, (u64, u32)>, String> {
    match t.rtl_def {
        RtlDef::Localparams { prefix } => localparams(text, prefix),
        RtlDef::Enum { type_name } => enum_members(text, type_name),
    }
}

/// Differences between the table and what the RTL text defines, as sentences.
fn check_table(t: &StateTable, text: &str) -> Vec<String> {
    let rtl = match rtl_codes(t, text) {
        Ok(r) => r,
        Err(e) => return vec![format!("{}: cannot read {}: {e}", t.name, t.rtl_file)],
    };
    let mut errs = Vec::new();
    if rtl.is_empty() {
        errs.push(format!(
            "{}: {} defines none of its names",
            t.name, t.rtl_file
        ));
    }
    for (v, n) in t.values {
        match rtl.get(*n) {
            None => errs.push(format!("{}: {n} is not in {}", t.name, t.rtl_file)),
            Some(&(rv, _)) if rv != u64::from(*v) => errs.push(format!(
                "{}: {n} is {v} in the table, {rv} in {}",
                t.name, t.rtl_file
            )),
            Some(&(_, w)) if w != t.width => errs.push(format!(
                "{}: {n} is {w} bits wide in {}, the table says {}",
                t.name, t.rtl_file, t.width
            )),
            _ => {}
        }
    }
    for n in rtl.keys() {
        if !t.values.iter().any(|(_, m)| m == n) {
            errs.push(format!(
                "{}: {} defines {n}, which the table lacks",
                t.name, t.rtl_file
            ));
        }
    }
    errs
}

#[test]
fn every_table_equals_the_rtl_definitions() {
    let mut errs = Vec::new();
    for t in TABLES {
        errs.extend(check_table(t, &read(t.rtl_file)));
    }
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

#[test]
fn the_registers_are_declared_with_the_tables_width_or_type() {
    for t in TABLES {
        for (module, reg) in t.registers {
            let text = code(&read(&format!("rtl/{module}.sv")));
            let decl = text
                .split(';')
                .map(str::trim)
                .find(|s| {
                    s.split(|c: char| c == ',' || c.is_whitespace())
                        .any(|w| w == *reg)
                        && !s.contains("<=")
                        && !s.contains('=')
                })
                .unwrap_or_else(|| {
                    panic!("{}: no declaration of {reg} in rtl/{module}.sv", t.name)
                });
            let ty = decl.split(*reg).next().unwrap().trim();
            let ok = match t.rtl_def {
                RtlDef::Enum { type_name } => ty == type_name || logic_width(ty) == Some(t.width),
                RtlDef::Localparams { .. } => logic_width(ty) == Some(t.width),
            };
            assert!(
                ok,
                "{}: {module}.{reg} is declared `{ty}`, the table says {} bits",
                t.name, t.width
            );
        }
    }
}

#[test]
fn the_check_fails_on_a_renumbered_renamed_or_missing_code() {
    let t = exanet::wave::states::table("tcl_rx_mode").unwrap();
    let good = read(t.rtl_file);
    assert!(check_table(t, &good).is_empty());
    let renumbered = good.replace("M_DISCARD = 3'd4", "M_DISCARD = 3'd5");
    assert_ne!(renumbered, good, "the fixture text moved: update this test");
    let e = check_table(t, &renumbered);
    assert!(
        e.iter()
            .any(|m| m.contains("M_DISCARD is 4 in the table, 5")),
        "{e:?}"
    );
    let renamed = good.replace("M_DISCARD", "M_DROP");
    let e = check_table(t, &renamed);
    assert!(e.iter().any(|m| m.contains("M_DISCARD is not in")), "{e:?}");
    assert!(e.iter().any(|m| m.contains("defines M_DROP")), "{e:?}");
    let g = exanet::wave::states::table("gate_state").unwrap();
    let pkg = read(g.rtl_file);
    let widened = pkg.replace("typedef enum logic [2:0]", "typedef enum logic [3:0]");
    assert_ne!(widened, pkg);
    let e = check_table(g, &widened);
    assert!(e.iter().any(|m| m.contains("4 bits wide")), "{e:?}");
    let shrunk = pkg.replace(
        "    S_DROP  = 3'd6   // reading an unroutable packet out of the FIFO\n",
        "",
    );
    assert_ne!(shrunk, pkg);
    let e = check_table(g, &shrunk.replace("S_EOP   = 3'd5,", "S_EOP   = 3'd5"));
    assert!(e.iter().any(|m| m.contains("S_DROP is not in")), "{e:?}");
}

#[test]
fn the_committed_translate_files_are_what_the_table_generates() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("waves/translate");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut want: Vec<String> = TABLES.iter().map(|t| format!("{}.txt", t.name)).collect();
    want.sort();
    assert_eq!(
        on_disk, want,
        "waves/translate/ holds other files than the tables': run `exanet wave-translate`"
    );
    for t in TABLES {
        let got = read(&format!("waves/translate/{}.txt", t.name));
        assert_eq!(
            got,
            t.translate_file(),
            "waves/translate/{}.txt differs from src/wave/states.rs: run `exanet wave-translate`",
            t.name
        );
    }
}

#[test]
fn wave_translate_writes_the_files() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("wave_translate");
    let _ = std::fs::remove_dir_all(&dir);
    let o = common::exanet(&["wave-translate", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for t in TABLES {
        let got = std::fs::read_to_string(dir.join(format!("{}.txt", t.name))).unwrap();
        assert_eq!(got, t.translate_file());
    }
    // An output path that cannot be a directory is bad input: exit 2, named.
    let file = dir.join("gate_state.txt");
    let o = common::exanet(&["wave-translate", "--out", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--out") && err.contains("gate_state.txt") && !err.contains("panicked"),
        "{err}"
    );
}
