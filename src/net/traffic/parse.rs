//! The traffic a `PatternSpec` names, built (`spec/traffic.rs` reads the names of patterns,
//! sizes and probes), and the loads of a sweep: a list `0.05,0.2,0.5` or a range
//! `start:stop:step`, stop included when a step lands on it within 1e-9, each load in (0, 1],
//! at most `MAX_LOADS` points; range points are rounded to 12 decimals (so `0.1:0.3:0.1` gives
//! 0.1, 0.2, 0.3, not 0.30000000000000004). Every parser returns an error that quotes the bad
//! part (never a panic).

use super::bitcomp::BitComp;
use super::bitrev::BitRev;
use super::hotspot::Hotspot;
use super::neighbour::Neighbour;
use super::shuffle::Shuffle;
use super::tornado::Tornado;
use super::transpose::Transpose;
use super::uniform::Uniform;
use super::{Pattern, PatternSpec, Probe, SizeDist};

/// The most points a load list or range may hold.
pub const MAX_LOADS: usize = 1000;

impl PatternSpec {
    /// The pattern this names (an error only for a hot spot's fraction outside 0..=1, which
    /// the parser refuses).
    pub fn build(&self) -> Result<Box<dyn Pattern>, String> {
        Ok(match *self {
            PatternSpec::Uniform => Box::new(Uniform),
            PatternSpec::Transpose => Box::new(Transpose),
            PatternSpec::BitComp => Box::new(BitComp),
            PatternSpec::BitRev => Box::new(BitRev),
            PatternSpec::Shuffle => Box::new(Shuffle),
            PatternSpec::Tornado => Box::new(Tornado),
            PatternSpec::Neighbour => Box::new(Neighbour),
            PatternSpec::Hotspot { node, frac } => Box::new(Hotspot::new(node, frac)?),
        })
    }
}

/// A destination pattern from its command-line name.
pub fn parse_pattern(s: &str) -> Result<Box<dyn Pattern>, String> {
    s.parse::<PatternSpec>()?.build()
}

/// Packet sizes: `64` or `16:256` (payload bytes, 1..=4096).
pub fn parse_sizes(s: &str) -> Result<SizeDist, String> {
    s.parse()
}

/// A ping probe: `src=S,dst=D,period=P`.
pub fn parse_probe(s: &str) -> Result<Probe, String> {
    s.parse()
}

/// Loads: `0.05,0.2` or `start:stop:step`, each in (0, 1].
pub fn parse_loads(s: &str) -> Result<Vec<f64>, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("loads: empty (expected a list 0.1,0.5 or a range start:stop:step)".into());
    }
    if t.contains(':') {
        parse_range(t)
    } else {
        parse_list(t)
    }
}

fn number(t: &str, what: &str, part: &str) -> Result<f64, String> {
    part.trim()
        .parse::<f64>()
        .map_err(|_| format!("loads '{t}': {what}'{}' is not a number", part.trim()))
}

fn check_load(t: &str, what: &str, v: f64) -> Result<f64, String> {
    if v > 0.0 && v <= 1.0 {
        Ok(v)
    } else {
        Err(format!(
            "loads '{t}': {what}{v} is outside (0, 1] (a fraction of an endpoint's bandwidth)"
        ))
    }
}

fn parse_list(t: &str) -> Result<Vec<f64>, String> {
    let items: Vec<&str> = t.split(',').collect();
    if items.len() > MAX_LOADS {
        return Err(format!(
            "loads '{t}': {} loads, at most {MAX_LOADS}",
            items.len()
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            if item.trim().is_empty() {
                return Err(format!("loads '{t}': load {} is empty", i + 1));
            }
            check_load(t, "load ", number(t, "", item)?)
        })
        .collect()
}

fn parse_range(t: &str) -> Result<Vec<f64>, String> {
    let parts: Vec<&str> = t.split(':').collect();
    let [start, stop, step] = parts[..] else {
        return Err(format!(
            "loads '{t}': a range is start:stop:step (e.g. 0.1:0.9:0.1), got {} parts",
            parts.len()
        ));
    };
    let start = check_load(t, "start ", number(t, "start ", start)?)?;
    let stop = check_load(t, "stop ", number(t, "stop ", stop)?)?;
    let step = number(t, "step ", step)?;
    if !(step > 0.0 && step.is_finite()) {
        return Err(format!("loads '{t}': step {step} must be above 0"));
    }
    if start > stop {
        return Err(format!("loads '{t}': start {start} is above stop {stop}"));
    }
    const TOL: f64 = 1e-9;
    let last = ((stop - start + TOL) / step).floor();
    if last + 1.0 > MAX_LOADS as f64 {
        return Err(format!(
            "loads '{t}': {} points, at most {MAX_LOADS} (use a larger step)",
            last + 1.0
        ));
    }
    Ok((0..=last as usize)
        .map(|i| {
            let v = start + i as f64 * step;
            ((v * 1e12).round() / 1e12).min(stop)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_round_trip() {
        for name in [
            "uniform",
            "transpose",
            "bitcomp",
            "bitrev",
            "shuffle",
            "tornado",
            "neighbour",
            "hotspot:node=3,frac=0.2",
            "hotspot:node=0,frac=1",
        ] {
            let p = parse_pattern(name).unwrap();
            assert_eq!(p.name(), name);
        }
        assert_eq!(parse_pattern("neighbor").unwrap().name(), "neighbour");
        assert_eq!(parse_pattern(" uniform ").unwrap().name(), "uniform");
        assert_eq!(
            parse_pattern("hotspot: frac = 0.5 , node = 7")
                .unwrap()
                .name(),
            "hotspot:node=7,frac=0.5"
        );
    }

    #[test]
    fn pattern_errors() {
        for (s, want) in [
            ("", "empty traffic pattern"),
            ("   ", "empty traffic pattern"),
            ("random", "unknown traffic pattern 'random'"),
            ("Uniform", "unknown traffic pattern 'Uniform'"),
            ("uniform:x=1", "'uniform' takes no parameters (got 'x=1')"),
            ("tornado:", "'tornado' takes no parameters"),
            ("hotspot", "'hotspot' needs parameters"),
            ("hotspot:", "'' is not key=value"),
            ("hotspot:node=3", "missing parameter 'frac'"),
            ("hotspot:frac=0.2", "missing parameter 'node'"),
            ("hotspot:node=3,frac=0.2,x=1", "unknown parameter 'x'"),
            (
                "hotspot:node=3,node=4,frac=0.2",
                "parameter 'node' given twice",
            ),
            ("hotspot:node3,frac=0.2", "'node3' is not key=value"),
            ("hotspot:node=,frac=0.2", "parameter 'node' has no value"),
            (
                "hotspot:node=-1,frac=0.2",
                "node='-1' is not an endpoint index",
            ),
            (
                "hotspot:node=x,frac=0.2",
                "node='x' is not an endpoint index",
            ),
            ("hotspot:node=1,frac=abc", "frac='abc' is not a number"),
            ("hotspot:node=1,frac=1.5", "frac=1.5 is outside 0..=1"),
            ("hotspot:node=1,frac=-0.5", "frac=-0.5 is outside"),
            ("hotspot:node=1,frac=NaN", "frac=NaN is outside"),
        ] {
            match parse_pattern(s) {
                Ok(p) => panic!("'{s}' parsed as {}", p.name()),
                Err(e) => assert!(e.contains(want), "'{s}': {e}"),
            }
        }
        let e = parse_pattern("foo").unwrap_err();
        assert!(e.contains(crate::spec::traffic::PATTERN_NAMES), "{e}");
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_sizes("64").unwrap(), SizeDist::Fixed(64));
        assert_eq!(
            parse_sizes(" 16 : 256 ").unwrap(),
            SizeDist::Uniform { min: 16, max: 256 }
        );
        assert_eq!(parse_sizes("4096").unwrap(), SizeDist::Fixed(4096));
        for (s, want) in [
            ("", "empty"),
            ("abc", "'abc' is not a whole number"),
            ("-5", "'-5' is not a whole number"),
            ("1.5", "'1.5' is not a whole number"),
            ("0", "0 bytes is outside 1..=4096 (in '0')"),
            ("4097", "4097 bytes is outside"),
            ("16:", "maximum '' is not a whole number"),
            (":16", "minimum '' is not a whole number"),
            ("16:x", "maximum 'x' is not"),
            ("256:16", "minimum 256 is above maximum 16"),
            ("0:16", "minimum 0 bytes"),
            ("16:5000", "maximum 5000 bytes"),
            ("1:2:3", "expected a size (64) or a range min:max"),
            ("99999999999", "not a whole number"),
        ] {
            match parse_sizes(s) {
                Ok(d) => panic!("'{s}' parsed as {d:?}"),
                Err(e) => assert!(e.contains(want), "'{s}': {e}"),
            }
        }
    }

    #[test]
    fn loads() {
        assert_eq!(parse_loads("0.05,0.2").unwrap(), [0.05, 0.2]);
        assert_eq!(parse_loads(" 1 ").unwrap(), [1.0]);
        assert_eq!(parse_loads("0.1:0.3:0.1").unwrap(), [0.1, 0.2, 0.3]);
        assert_eq!(
            parse_loads("0.1:1:0.1").unwrap(),
            [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
        );
        // Stop not on a step: the last point below it.
        assert_eq!(parse_loads("0.1:0.35:0.1").unwrap(), [0.1, 0.2, 0.3]);
        // Stop within the tolerance is included, and never exceeded.
        assert_eq!(parse_loads("0.1:0.3:0.1000000001").unwrap().len(), 3);
        assert_eq!(parse_loads("0.5:0.5:0.1").unwrap(), [0.5]);
        assert_eq!(parse_loads("0.001:1:0.001").unwrap().len(), 1000);
        let r = parse_loads("0.01:0.99:0.01").unwrap();
        assert_eq!(r.len(), 99);
        assert_eq!(r[98], 0.99);
        assert!(r.iter().all(|&v| v > 0.0 && v <= 1.0));
    }

    #[test]
    fn load_errors() {
        let many = vec!["0.5"; 1001].join(",");
        for (s, want) in [
            ("", "empty"),
            (",", "load 1 is empty"),
            ("0.1,,0.2", "load 2 is empty"),
            ("0.1,abc", "'abc' is not a number"),
            ("0", "load 0 is outside (0, 1]"),
            ("0.5,1.5", "load 1.5 is outside (0, 1]"),
            ("-0.1", "load -0.1 is outside"),
            ("NaN", "load NaN is outside"),
            ("inf", "load inf is outside"),
            (many.as_str(), "1001 loads, at most 1000"),
            ("0.1:0.5", "a range is start:stop:step"),
            ("0.1:0.5:0.1:0.2", "got 4 parts"),
            ("x:0.5:0.1", "start 'x' is not a number"),
            ("0.1:y:0.1", "stop 'y' is not a number"),
            ("0.1:0.5:z", "step 'z' is not a number"),
            ("0.1:0.5:", "step '' is not a number"),
            ("0:0.5:0.1", "start 0 is outside (0, 1]"),
            ("0.1:1.5:0.1", "stop 1.5 is outside (0, 1]"),
            ("0.1:0.5:0", "step 0 must be above 0"),
            ("0.1:0.5:-0.1", "step -0.1 must be above 0"),
            ("0.1:0.5:NaN", "step NaN must be above 0"),
            ("0.5:0.1:0.1", "start 0.5 is above stop 0.1"),
            ("0.0001:1:0.0001", "10000 points, at most 1000"),
            ("0.1:1:1e-300", "at most 1000"),
            ("0.1:0.5:0.1,0.7", "step '0.1,0.7' is not a number"),
        ] {
            match parse_loads(s) {
                Ok(v) => panic!("'{s}' parsed as {v:?}"),
                Err(e) => assert!(e.contains(want), "'{s}': {e}"),
            }
        }
    }

    #[test]
    fn probes() {
        let p = parse_probe("src=0,dst=15,period=100").unwrap();
        assert_eq!(
            p,
            Probe {
                src: 0,
                dst: 15,
                period: 100
            }
        );
        assert_eq!(parse_probe(&p.to_string()).unwrap(), p);
        for (s, want) in [
            ("", "empty"),
            ("src=0,dst=1", "missing parameter 'period'"),
            ("src=0,dst=1,period=0", "period=0"),
            ("src=a,dst=1,period=5", "src='a' is not a whole number"),
            ("src=0,dst=-1,period=5", "dst='-1' is not a whole number"),
            ("src=0,dst=1,period=5,x=2", "unknown parameter 'x'"),
            ("src=0,src=1,period=5", "'src' given twice"),
        ] {
            match parse_probe(s) {
                Ok(p) => panic!("'{s}' parsed as {p:?}"),
                Err(e) => assert!(e.contains(want), "'{s}': {e}"),
            }
        }
    }
}
