//! Topology names, as the command line and configuration files give them, and a one-line
//! summary of a topology.
//!
//! ```text
//!   torus:X[xY[xZ]]   mesh:X[xY[xZ]]     sizes 1..255, 1 to 3 dimensions (torus:8 is a ring)
//!   dragonfly:p=P,a=A,h=H[,g=G]          keys in any order, values >= 1, g = a h + 1 by default
//!   exanest:torus6x6 | torus3x3 | torus3x3xC | dragonfly
//! ```
//!
//! Every error quotes the whole name, names the part at fault and says what is accepted.
//! `parse(t.name())` gives `t` back: names are canonical (a dragonfly's `g` is always written).

use super::dragonfly::Dragonfly;
use super::exanest::{self, Exanest, Preset};
use super::lattice::MAX_DIMS;
use super::torus::Torus;
use super::{DragonflyParams, Topology};

const KINDS: &str = "torus:AxB[xC], mesh:AxB[xC], dragonfly:p=P,a=A,h=H[,g=G], exanest:PRESET";

/// The topology named `name`.
pub fn parse(name: &str) -> Result<Box<dyn Topology>, String> {
    let e = |m: String| format!("topology '{name}': {m}");
    let Some((kind, args)) = name.split_once(':') else {
        return Err(e(format!("no ':'; accepted: {KINDS}")));
    };
    match kind {
        "torus" | "mesh" => {
            let size = sizes(args).map_err(e)?;
            let t = if kind == "torus" {
                Torus::torus_of(&size)
            } else {
                Torus::mesh_of(&size)
            };
            Ok(Box::new(t.map_err(e)?))
        }
        "dragonfly" => {
            let df = dragonfly_params(args).map_err(e)?;
            Ok(Box::new(Dragonfly::new(df).map_err(e)?))
        }
        "exanest" => {
            let preset = preset(args).map_err(e)?;
            Ok(Box::new(Exanest::new(preset).map_err(e)?))
        }
        _ => Err(e(format!("unknown kind '{kind}'; accepted: {KINDS}"))),
    }
}

/// `10x10x10` -> [10, 10, 10].
fn sizes(args: &str) -> Result<Vec<u8>, String> {
    if args.is_empty() {
        return Err(format!(
            "no sizes after ':'; accepted: 1 to {MAX_DIMS} sizes 1..255 joined by 'x' (10x10)"
        ));
    }
    let parts: Vec<&str> = args.split('x').collect();
    if parts.len() > MAX_DIMS {
        return Err(format!(
            "'{args}' has {} dimensions; 1 to {MAX_DIMS} are accepted (the header carries three \
             coordinates)",
            parts.len()
        ));
    }
    parts
        .iter()
        .map(|p| match p.parse::<u32>() {
            Ok(n @ 1..=255) => Ok(n as u8),
            Ok(n) => Err(format!("size '{n}': sizes 1 to 255 are accepted")),
            Err(_) => Err(format!(
                "size '{p}' is not a number; sizes 1 to 255 are accepted"
            )),
        })
        .collect()
}

/// `p=2,a=4,h=2[,g=9]` in any order.
fn dragonfly_params(args: &str) -> Result<DragonflyParams, String> {
    const ACCEPTED: &str = "p=P,a=A,h=H[,g=G] with numbers >= 1, keys in any order";
    let mut v: [Option<u32>; 4] = [None; 4];
    for part in args.split(',') {
        let Some((key, val)) = part.split_once('=') else {
            return Err(format!("'{part}' is not key=value; accepted: {ACCEPTED}"));
        };
        let slot = match key {
            "p" => 0,
            "a" => 1,
            "h" => 2,
            "g" => 3,
            _ => return Err(format!("unknown key '{key}'; accepted: {ACCEPTED}")),
        };
        let n = match val.parse::<u32>() {
            Ok(0) => return Err(format!("'{part}': {key} must be at least 1")),
            Ok(n) => n,
            Err(_) => {
                return Err(format!(
                    "'{part}': '{val}' is not a number; accepted: {ACCEPTED}"
                ))
            }
        };
        if v[slot].replace(n).is_some() {
            return Err(format!(
                "key '{key}' given twice; each key must be given once"
            ));
        }
    }
    let missing: Vec<&str> = ["p", "a", "h"]
        .iter()
        .zip(&v)
        .filter(|(_, x)| x.is_none())
        .map(|(k, _)| *k)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "missing {}; accepted: {ACCEPTED}",
            missing.join(", ")
        ));
    }
    let [Some(p), Some(a), Some(h), g] = v else {
        unreachable!("checked above")
    };
    let g = match g {
        Some(g) => g,
        // Too large a product is left for Dragonfly::new to reject with its range.
        None => a.saturating_mul(h).saturating_add(1),
    };
    Ok(DragonflyParams { p, a, h, g })
}

/// `torus6x6`, `torus3x3`, `torus3x3x4`, `dragonfly`.
fn preset(args: &str) -> Result<Preset, String> {
    match args {
        "torus6x6" => Ok(Preset::Torus6x6),
        "torus3x3" => Ok(Preset::Torus3x3),
        "dragonfly" => Ok(Preset::Dragonfly),
        _ => match args.strip_prefix("torus3x3x") {
            Some(c) => match c.parse::<u32>() {
                Ok(c @ 1..=255) => Ok(Preset::Torus3x3xC(c as u8)),
                _ => Err(format!(
                    "'{args}': C = '{c}' must be a number of chassis from 1 to 255"
                )),
            },
            None => Err(format!(
                "unknown preset '{args}'; accepted: {}",
                exanest::FORMS
            )),
        },
    }
}

/// One line: name, structure, nodes, endpoints, ports and radix.
pub fn describe(t: &dyn Topology) -> String {
    let structure = match (t.shape(), t.dragonfly()) {
        (Some(s), _) => {
            let dims: Vec<String> = s.size.iter().map(|n| n.to_string()).collect();
            let kind = if s.wrap { "torus" } else { "mesh" };
            format!("{}-D {kind} {}", s.size.len(), dims.join("x"))
        }
        (None, Some(d)) => format!(
            "fully connected dragonfly, {} groups of {} routers, {} global link{} a pair of groups",
            d.g,
            d.a,
            d.a * d.h / (d.g - 1),
            if d.a * d.h / (d.g - 1) == 1 { "" } else { "s" }
        ),
        (None, None) => "custom".into(),
    };
    format!(
        "{}: {structure}; {} nodes, {} endpoints; {} inter-tile + {} intra-tile ports a node \
         (radix {})",
        t.name(),
        t.nodes(),
        t.endpoints(),
        t.ports(),
        t.terminals(),
        t.ports() + t.terminals()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_names_round_trip() {
        for (name, canonical) in [
            ("torus:10x10", "torus:10x10"),
            ("mesh:4x4", "mesh:4x4"),
            ("torus:10x10x10", "torus:10x10x10"),
            ("torus:8", "torus:8"),
            ("mesh:1x255", "mesh:1x255"),
            ("dragonfly:p=2,a=4,h=2", "dragonfly:p=2,a=4,h=2,g=9"),
            ("dragonfly:h=2,g=9,p=2,a=4", "dragonfly:p=2,a=4,h=2,g=9"),
            ("dragonfly:p=2,a=4,h=2,g=5", "dragonfly:p=2,a=4,h=2,g=5"),
            ("exanest:torus6x6", "exanest:torus6x6"),
            ("exanest:torus3x3", "exanest:torus3x3"),
            ("exanest:torus3x3x4", "exanest:torus3x3x4"),
            ("exanest:dragonfly", "exanest:dragonfly"),
        ] {
            let t = parse(name).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(t.name(), canonical);
            assert_eq!(parse(canonical).unwrap().name(), canonical);
        }
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        for (name, want) in [
            ("torus", "no ':'"),
            ("torus:", "no sizes"),
            ("torus:4x0", "size '0'"),
            ("torus:4x", "size ''"),
            ("torus:4xy", "size 'y'"),
            ("torus:2x2x2x2", "4 dimensions"),
            ("torus:300", "size '300'"),
            ("ring:4", "unknown kind 'ring'"),
            ("dragonfly:p=2,a=4", "missing h"),
            ("dragonfly:", "'' is not key=value"),
            ("dragonfly:p=2,a=4,h=2,g=4", "g - 1 = 3 must divide a h = 8"),
            ("dragonfly:p=9,a=2,h=1", "p = 9"),
            ("dragonfly:p=2,a=4,h=2,x=1", "unknown key 'x'"),
            ("dragonfly:p=2,a=4,h=0", "'h=0': h must be at least 1"),
            ("dragonfly:p=2,a=four,h=2", "'four' is not a number"),
            ("dragonfly:p=2,a=4,h=2,p=3", "key 'p' given twice"),
            ("dragonfly:p=2,a=200,h=2", "g = 401"),
            ("exanest:cube", "unknown preset 'cube'"),
            ("exanest:torus3x3x0", "C = '0'"),
            ("exanest:torus3x3x", "C = ''"),
        ] {
            let err = parse(name).map(|t| t.name()).unwrap_err();
            assert!(err.contains(&format!("'{name}'")), "{name}: {err}");
            assert!(err.contains(want), "{name}: {err} (expected '{want}')");
        }
    }

    #[test]
    fn errors_say_what_is_accepted() {
        assert!(parse("ring:4").unwrap_err().contains("torus:AxB"));
        assert!(parse("exanest:cube").unwrap_err().contains("torus3x3xC"));
        assert!(parse("dragonfly:p=2")
            .unwrap_err()
            .contains("p=P,a=A,h=H[,g=G]"));
        assert!(parse("dragonfly:p=2,a=4,h=2,g=4")
            .unwrap_err()
            .contains("accepted g: 2, 3, 5, 9"));
    }

    #[test]
    fn descriptions() {
        let d = describe(parse("dragonfly:p=2,a=4,h=2").unwrap().as_ref());
        assert_eq!(
            d,
            "dragonfly:p=2,a=4,h=2,g=9: fully connected dragonfly, 9 groups of 4 routers, 1 \
             global link a pair of groups; 36 nodes, 72 endpoints; 5 inter-tile + 2 intra-tile \
             ports a node (radix 7)"
        );
        let d = describe(parse("exanest:torus3x3x4").unwrap().as_ref());
        assert_eq!(
            d,
            "exanest:torus3x3x4: 3-D torus 3x3x4; 36 nodes, 36 endpoints; 6 inter-tile + 1 \
             intra-tile ports a node (radix 7)"
        );
        assert!(
            describe(parse("dragonfly:p=1,a=4,h=2,g=5").unwrap().as_ref())
                .contains("2 global links")
        );
    }
}
