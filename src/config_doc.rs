//! `exanet config --print`: the configuration as TOML, every section and field preceded by its
//! doc comment (meaning, unit, valid range, default, source). The text comes from the doc
//! comments of the structs in `src/config.rs` through `schemars`, which keeps each Rust doc
//! comment as the `description` of the field's JSON schema: one text, read by `rustdoc` and
//! printed here, so the two cannot drift. `every_field_is_documented` fails for a field without
//! one.

use crate::config::Config;
use serde_json::Value as Json;
use toml::Value;

/// The JSON schema of [`Config`], descriptions from the doc comments.
pub fn schema() -> Json {
    schemars::schema_for!(Config).as_value().clone()
}

/// Follows a `$ref` into `$defs`.
fn resolve<'a>(root: &'a Json, s: &'a Json) -> &'a Json {
    match s.get("$ref").and_then(Json::as_str) {
        Some(r) => r
            .strip_prefix("#/$defs/")
            .and_then(|name| root.get("$defs").and_then(|d| d.get(name)))
            .unwrap_or(s),
        None => s,
    }
}

/// The description of a property schema: its own (the field's doc), else its type's.
fn description(root: &Json, s: &Json) -> Option<String> {
    s.get("description")
        .or_else(|| resolve(root, s).get("description"))
        .and_then(Json::as_str)
        .map(str::to_string)
}

/// Every field of the configuration, dotted, with its description (`None`: undocumented).
/// Sections (a struct field) are listed too, before their fields.
pub fn field_docs() -> Vec<(String, bool, Option<String>)> {
    let root = schema();
    let mut out = Vec::new();
    fn walk(root: &Json, s: &Json, prefix: &str, out: &mut Vec<(String, bool, Option<String>)>) {
        let s = resolve(root, s);
        let Some(props) = s.get("properties").and_then(Json::as_object) else {
            return;
        };
        for (k, p) in props {
            let name = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            let target = resolve(root, p);
            let is_section = target.get("properties").is_some();
            out.push((name.clone(), is_section, description(root, p)));
            if is_section {
                walk(root, p, &name, out);
            }
        }
    }
    walk(&root, &root, "", &mut out);
    out
}

fn comment(text: &str, out: &mut String) {
    const WIDTH: usize = 96;
    for para in text.split("\n\n") {
        let words: Vec<&str> = para.split_whitespace().collect();
        let mut line = String::from("#");
        for w in words {
            if line.len() + 1 + w.len() > WIDTH && line.len() > 1 {
                out.push_str(&line);
                out.push('\n');
                line = String::from("#");
            }
            line.push(' ');
            line.push_str(w);
        }
        if line.len() > 1 {
            out.push_str(&line);
            out.push('\n');
        }
    }
}

/// A TOML value on one line (inline tables for an array of tables).
fn inline(v: &Value) -> String {
    match v {
        Value::Table(t) => {
            let items: Vec<String> = t
                .iter()
                .map(|(k, x)| format!("{k} = {}", inline(x)))
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        x => x.to_string(),
    }
}

/// `cfg` as a TOML document with every section and field commented (see the module doc).
/// Parsing it gives `cfg` back.
pub fn annotated_toml(cfg: &Config) -> String {
    let root = schema();
    let value = Value::try_from(cfg).expect("a configuration serialises to TOML");
    let mut out = String::new();
    if let Some(d) = root.get("description").and_then(Json::as_str) {
        comment(d, &mut out);
        comment(
            "Written by `exanet config --print`; every field may be left out (its default \
             applies) or changed with `--set section.key=value`.",
            &mut out,
        );
    }
    fn section(root: &Json, schema: &Json, table: &toml::Table, path: &str, out: &mut String) {
        let schema = resolve(root, schema);
        let props = schema.get("properties").and_then(Json::as_object);
        let prop = |k: &str| props.and_then(|p| p.get(k));
        // fields first, then sub-sections (TOML puts a table's keys before its sub-tables)
        for (k, v) in table {
            if v.is_table() {
                continue;
            }
            out.push('\n');
            if let Some(d) = prop(k).and_then(|p| description(root, p)) {
                comment(&d, out);
            }
            out.push_str(&format!("{k} = {}\n", inline(v)));
        }
        for (k, v) in table {
            let Value::Table(t) = v else { continue };
            let name = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            out.push('\n');
            let p = prop(k).cloned().unwrap_or(Json::Null);
            if let Some(d) = description(root, &p) {
                comment(&d, out);
            }
            out.push_str(&format!("[{name}]\n"));
            section(root, &p, t, &name, out);
        }
    }
    let Value::Table(t) = value else {
        unreachable!("a struct serialises to a table")
    };
    section(&root, &root, &t, "", &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_annotated_document_parses_back_to_the_configuration() {
        let mut c = Config::default();
        c.net.topology = "dragonfly:p=2,a=4,h=2".parse().unwrap();
        c.router.tx_only_ports = vec![2];
        let text = annotated_toml(&c);
        let back: Config = toml::from_str(&text).unwrap();
        assert_eq!(back, c);
        assert!(text.contains("[link.credit]"), "{text}");
        assert!(
            text.contains("inter_ports = [{ dim = 0, dir = \"both\" }"),
            "{text}"
        );
    }

    /// Whole words that name a unit of a numeric field, or say what kind of number it is.
    const UNITS: &[&str] = &[
        "cycles",
        "ns",
        "us",
        "MHz",
        "words",
        "bytes",
        "VCs",
        "ports",
        "dimensions",
        "beats",
        "units",
        "partitions",
        "packets",
        "fraction",
        "seed",
        "coordinates",
    ];
    /// Phrases that state a valid range without numbers on both sides.
    const RANGES: &[&str] = &[
        "..=",
        "between",
        "at least",
        "at most",
        "power of two",
        "(0, 1]",
        "positive",
        "any 64-bit value",
        "one of",
        "permutation",
    ];

    /// What a numeric field's doc lacks: a unit (a whole word of [`UNITS`], in any case, or "per
    /// transmitted bit") and a range (a phrase of [`RANGES`], or `N to M` with a number, or
    /// a field in backquotes, on each side).
    fn numeric_doc_problems(doc: &str) -> Vec<&'static str> {
        let words: Vec<&str> = doc
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        let mut out = Vec::new();
        let has_word = |u: &str| words.iter().any(|w| w.eq_ignore_ascii_case(u));
        if !UNITS.iter().any(|u| has_word(u)) && !doc.contains("per transmitted bit") {
            out.push("no unit");
        }
        let tokens: Vec<&str> = doc.split_whitespace().collect();
        let number_to = tokens.windows(3).any(|w| {
            let num = |t: &str| {
                t.trim_start_matches(['(', '-'])
                    .starts_with(|c: char| c.is_ascii_digit())
                    || t.starts_with('`')
            };
            w[1] == "to" && num(w[0]) && num(w[2])
        });
        if !number_to && !RANGES.iter().any(|r| doc.contains(r)) {
            out.push("no valid range");
        }
        out
    }

    #[test]
    fn the_unit_and_range_check_refuses_a_doc_that_gives_neither() {
        assert_eq!(
            numeric_doc_problems("How many lanes are used to send any of. Default 2."),
            ["no unit", "no valid range"]
        );
        assert_eq!(
            numeric_doc_problems("Lanes, 1 to 4 cycles. Default 2."),
            Vec::<&str>::new()
        );
        assert_eq!(
            numeric_doc_problems("Status bits used, at most 3. Default 2."),
            ["no unit"]
        );
        assert_eq!(
            numeric_doc_problems("Cycles of wait, at most 3. Default 2."),
            Vec::<&str>::new()
        );
        assert_eq!(
            numeric_doc_problems("Cyclesof wait, at most 3. Default 2."),
            ["no unit"]
        );
    }

    #[test]
    fn every_field_is_documented_with_meaning_unit_range_and_default() {
        let cfg = serde_json::to_value(Config::default()).unwrap();
        let mut bad = Vec::new();
        let docs = field_docs();
        for (name, is_section, doc) in &docs {
            let Some(doc) = doc else {
                bad.push(format!("{name}: no doc comment"));
                continue;
            };
            let doc = &doc.split_whitespace().collect::<Vec<_>>().join(" ");
            if *is_section {
                continue;
            }
            if !doc.contains("Default") {
                bad.push(format!("{name}: no default named"));
            }
            let value = name
                .split('.')
                .try_fold(&cfg, |v, k| v.get(k))
                .unwrap_or_else(|| panic!("{name} is not in the configuration"));
            let numeric = value.is_number()
                || value
                    .as_array()
                    .is_some_and(|a| a.first().is_some_and(Json::is_number));
            if numeric {
                for p in numeric_doc_problems(doc) {
                    bad.push(format!("{name}: {p} in '{doc}'"));
                }
            }
        }
        // every leaf of the configuration is listed, and nothing else
        let leaves = crate::config_set::field_names(&Config::default());
        for l in &leaves {
            if !docs.iter().any(|(n, s, _)| n == l && !s) {
                bad.push(format!("{l}: not in the schema"));
            }
        }
        assert!(bad.is_empty(), "{} fields:\n{}", bad.len(), bad.join("\n"));
    }

    #[test]
    fn the_check_fails_on_an_undocumented_field() {
        #[derive(schemars::JsonSchema)]
        #[allow(dead_code)]
        struct S {
            /// Documented. Default 1.
            a: u32,
            b: u32,
        }
        let s = schemars::schema_for!(S).as_value().clone();
        let props = s["properties"].as_object().unwrap();
        assert!(description(&s, &props["a"]).is_some());
        assert!(description(&s, &props["b"]).is_none());
    }
}
