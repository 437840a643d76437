//! `--set section.key=value`: one configuration field changed from the command line, like
//! BookSim's `key=value` arguments and OMNeT++'s `--x=y`. The value goes through the same
//! deserialisation as a configuration file (types, unknown fields) and the run validates the
//! result exactly as it validates a file.
//!
//! The value is read as a TOML value (`42`, `0.5`, `true`, `[0, 1]`, `"text"`); for a field
//! that holds text, an unquoted value is taken as the text itself (`net.topology=torus:4x4`).

use crate::config::{Config, ConfigError};
use toml::Value;

/// One `--set` assignment, parsed: the dotted field name and the value as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    pub key: String,
    pub value: String,
}

impl std::str::FromStr for Assignment {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (k, v) = s.split_once('=').ok_or_else(|| {
            format!("'{s}': expected section.key=value (for example link.num_vcs=4)")
        })?;
        let key = k.trim();
        if key.is_empty() || key.split('.').any(|p| p.is_empty()) {
            return Err(format!("'{s}': '{key}' is not a dotted field name"));
        }
        Ok(Assignment {
            key: key.to_string(),
            value: v.trim().to_string(),
        })
    }
}

fn set_err(a: &Assignment, message: impl Into<String>) -> ConfigError {
    ConfigError {
        field: a.key.clone(),
        message: format!("--set {}={}: {}", a.key, a.value, message.into()),
    }
}

/// The fields a configuration has, dotted (`clock.freq_mhz`, `link.credit.period_cycles`...).
pub fn field_names(cfg: &Config) -> Vec<String> {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Table(t) => {
                for (k, x) in t {
                    let name = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    // a table of fields is a section; an array of tables is one field
                    if x.is_table() {
                        walk(&name, x, out);
                    } else {
                        out.push(name);
                    }
                }
            }
            _ => out.push(prefix.to_string()),
        }
    }
    let mut out = Vec::new();
    walk("", &to_value(cfg), &mut out);
    out
}

fn to_value(cfg: &Config) -> Value {
    Value::try_from(cfg).expect("a configuration serialises to TOML")
}

/// The value text as TOML, or as a string when the field holds text and the value is not a
/// TOML string literal.
fn parse_value(old: &Value, text: &str) -> Result<Value, String> {
    let parsed = toml::from_str::<toml::Table>(&format!("v = {text}"))
        .ok()
        .and_then(|mut t| t.remove("v"));
    match (old, parsed) {
        (Value::String(_), Some(v @ Value::String(_))) => Ok(v),
        (Value::String(_), _) => Ok(Value::String(text.to_string())),
        (_, Some(v)) => Ok(v),
        (_, None) => Err(format!(
            "'{text}' is not a value (a number, true/false, a [list] or \"text\")"
        )),
    }
}

/// `cfg` with the assignments applied in order. Not validated: the caller validates the result
/// as it would a file, so a value is refused with the same message either way.
pub fn apply(cfg: &Config, sets: &[Assignment]) -> Result<Config, ConfigError> {
    if sets.is_empty() {
        return Ok(cfg.clone());
    }
    let mut root = to_value(cfg);
    for a in sets {
        let parts: Vec<&str> = a.key.split('.').collect();
        let mut at = &mut root;
        for (i, p) in parts.iter().enumerate() {
            let known = |t: &toml::Table| t.keys().cloned().collect::<Vec<_>>().join(", ");
            let Value::Table(t) = at else {
                return Err(set_err(
                    a,
                    format!("'{}' is a field, not a section", parts[..i].join(".")),
                ));
            };
            if !t.contains_key(*p) {
                let here = if i == 0 {
                    "sections".to_string()
                } else {
                    format!("fields of [{}]", parts[..i].join("."))
                };
                return Err(set_err(
                    a,
                    format!("unknown field '{p}' (the {here}: {})", known(t)),
                ));
            }
            at = t.get_mut(*p).expect("checked above");
        }
        if at.is_table() {
            return Err(set_err(
                a,
                "is a section: name one of its fields (exanet config --print lists them)",
            ));
        }
        *at = parse_value(at, &a.value).map_err(|m| set_err(a, m))?;
    }
    // one field at a time would blame the wrong assignment for a type error: find it
    let text = toml::to_string(&root).expect("a TOML table serialises");
    toml::from_str::<Config>(&text).map_err(|e| {
        let culprit = sets
            .iter()
            .find(|a| {
                let one = apply_one_unchecked(cfg, a);
                one.is_err()
            })
            .unwrap_or(&sets[0]);
        set_err(culprit, e.message().trim())
    })
}

fn apply_one_unchecked(cfg: &Config, a: &Assignment) -> Result<Config, String> {
    let mut root = to_value(cfg);
    let mut at = &mut root;
    for p in a.key.split('.') {
        at = at
            .as_table_mut()
            .and_then(|t| t.get_mut(p))
            .ok_or("unknown")?;
    }
    *at = parse_value(at, &a.value)?;
    let text = toml::to_string(&root).map_err(|e| e.to_string())?;
    toml::from_str::<Config>(&text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> Assignment {
        s.parse().unwrap()
    }

    #[test]
    fn numbers_bools_lists_and_text_reach_their_fields() {
        let c = apply(
            &Config::default(),
            &[
                set("link.num_vcs=4"),
                set("clock.freq_mhz=200"),
                set("link.phy.gearbox_pause=true"),
                set("router.tx_only_ports=[1]"),
                set("net.topology=torus:8x8"),
                set("net.sizes=64"),
                set("net.probe=\"src=0,dst=3,period=100\""),
            ],
        )
        .unwrap();
        assert_eq!(c.link.num_vcs, 4);
        assert_eq!(c.clock.freq_mhz, 200.0);
        assert!(c.link.phy.gearbox_pause);
        assert_eq!(c.router.tx_only_ports, vec![1]);
        assert_eq!(c.net.topology.to_string(), "torus:8x8");
        assert_eq!(c.net.sizes.to_string(), "64");
        assert_eq!(c.net.probe.unwrap().to_string(), "src=0,dst=3,period=100");
    }

    #[test]
    fn later_assignments_win_and_nothing_else_changes() {
        let c = apply(&Config::default(), &[set("sim.seed=5"), set("sim.seed=7")]).unwrap();
        let mut want = Config::default();
        want.sim.seed = 7;
        assert_eq!(c, want);
    }

    #[test]
    fn bad_assignments_name_the_field_and_the_reason() {
        let cases = [
            ("link.num_vc=4", "link.num_vc", "unknown field 'num_vc'"),
            ("lnk.num_vcs=4", "lnk.num_vcs", "unknown field 'lnk'"),
            ("link.num_vcs=four", "link.num_vcs", "is not a value"),
            ("link.num_vcs=-1", "link.num_vcs", "invalid"),
            ("link.credit=3", "link.credit", "is a section"),
            (
                "link.num_vcs.x=3",
                "link.num_vcs.x",
                "is a field, not a section",
            ),
            (
                "link.phy.gearbox_pause=3",
                "link.phy.gearbox_pause",
                "invalid",
            ),
        ];
        for (s, field, msg) in cases {
            let e = apply(&Config::default(), &[set(s)]).unwrap_err();
            assert_eq!(e.field, field, "{s}: {e}");
            assert!(e.message.contains(msg), "{s}: {e}");
            assert!(e.message.contains(s), "{s}: {e}");
        }
        // the type error is blamed on the assignment that made it
        let e = apply(
            &Config::default(),
            &[set("sim.seed=3"), set("link.num_vcs=x")],
        )
        .unwrap_err();
        assert_eq!(e.field, "link.num_vcs");
    }

    #[test]
    fn malformed_assignments_are_refused() {
        for s in ["link.num_vcs", "=3", "link..x=3", ".a=1"] {
            assert!(s.parse::<Assignment>().is_err(), "{s}");
        }
    }

    #[test]
    fn field_names_lists_every_leaf() {
        let names = field_names(&Config::default());
        for n in [
            "clock.freq_mhz",
            "link.credit.period_cycles",
            "link.phy.ber",
            "router.inter_ports",
            "net.topology",
            "sim.seed",
        ] {
            assert!(names.iter().any(|x| x == n), "{n} missing from {names:?}");
        }
        assert!(!names.iter().any(|x| x == "link.credit"));
    }
}
