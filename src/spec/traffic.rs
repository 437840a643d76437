//! Traffic descriptions, as the configuration's `[net]` section and the command line give
//! them, each parser returning an error that quotes the bad part (never a panic):
//!
//! - pattern: `uniform`, `transpose`, `bitcomp`, `bitrev`, `shuffle`, `tornado`, `neighbour`
//!   (BookSim's spelling `neighbor` is accepted too), `hotspot:node=K,frac=F`;
//! - packet sizes, payload bytes: `64` (fixed) or `16:256` (uniform, bounds included);
//! - injection process: `bernoulli` or `constant:N`;
//! - probe: `src=S,dst=D,period=P` (endpoint indices and cycles).
//!
//! `net::traffic` builds the pattern and the injectors they describe.

/// The smallest payload a packet can carry here, bytes (one payload word on the wire).
pub const MIN_SIZE: u32 = 1;
/// The largest payload, bytes (APElink maximum, 4 KB).
pub const MAX_SIZE: u32 = 4096;

/// A destination pattern, by name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PatternSpec {
    Uniform,
    Transpose,
    BitComp,
    BitRev,
    Shuffle,
    Tornado,
    Neighbour,
    /// `frac` of the packets to endpoint `node`, the others uniform.
    Hotspot {
        node: usize,
        frac: f64,
    },
}

/// The names a pattern may have, as its errors list them.
pub const PATTERN_NAMES: &str =
    "uniform, transpose, bitcomp, bitrev, shuffle, tornado, neighbour, hotspot:node=K,frac=F";

impl std::str::FromStr for PatternSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        parse_pattern(s)
    }
}

impl std::fmt::Display for PatternSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match self {
            PatternSpec::Uniform => "uniform",
            PatternSpec::Transpose => "transpose",
            PatternSpec::BitComp => "bitcomp",
            PatternSpec::BitRev => "bitrev",
            PatternSpec::Shuffle => "shuffle",
            PatternSpec::Tornado => "tornado",
            PatternSpec::Neighbour => "neighbour",
            PatternSpec::Hotspot { node, frac } => {
                return write!(f, "hotspot:node={node},frac={frac}")
            }
        };
        f.write_str(name)
    }
}

super::text_serde!(PatternSpec);

/// The fraction of a hotspot's packets sent to the hot spot: 0 to 1.
pub fn check_hotspot_frac(frac: f64) -> Result<(), String> {
    if (0.0..=1.0).contains(&frac) {
        Ok(())
    } else {
        Err(format!(
            "hotspot: frac={frac} is outside 0..=1 (the fraction of packets sent to the hot spot)"
        ))
    }
}

fn parse_pattern(s: &str) -> Result<PatternSpec, String> {
    let s = s.trim();
    let (name, params) = match s.split_once(':') {
        Some((n, p)) => (n.trim(), Some(p)),
        None => (s, None),
    };
    let simple = match name {
        "" => {
            return Err(format!(
                "empty traffic pattern; expected one of: {PATTERN_NAMES}"
            ))
        }
        "hotspot" => return parse_hotspot(params),
        "uniform" => PatternSpec::Uniform,
        "transpose" => PatternSpec::Transpose,
        "bitcomp" => PatternSpec::BitComp,
        "bitrev" => PatternSpec::BitRev,
        "shuffle" => PatternSpec::Shuffle,
        "tornado" => PatternSpec::Tornado,
        "neighbour" | "neighbor" => PatternSpec::Neighbour,
        _ => {
            return Err(format!(
                "unknown traffic pattern '{name}'; expected one of: {PATTERN_NAMES}"
            ))
        }
    };
    if let Some(p) = params {
        return Err(format!(
            "traffic pattern '{name}' takes no parameters (got '{p}')"
        ));
    }
    Ok(simple)
}

fn parse_hotspot(params: Option<&str>) -> Result<PatternSpec, String> {
    let Some(params) = params else {
        return Err("traffic pattern 'hotspot' needs parameters: hotspot:node=K,frac=F".into());
    };
    let v = key_values("hotspot", params, &["node", "frac"])?;
    let node = v[0].parse::<usize>().map_err(|_| {
        format!(
            "hotspot: node='{}' is not an endpoint index (a whole number from 0)",
            v[0]
        )
    })?;
    let frac = v[1]
        .parse::<f64>()
        .map_err(|_| format!("hotspot: frac='{}' is not a number", v[1]))?;
    check_hotspot_frac(frac)?;
    Ok(PatternSpec::Hotspot { node, frac })
}

/// The values of `keys`, in that order, from `k1=v1,k2=v2` (each key exactly once, no
/// others). `what` prefixes the errors.
fn key_values<'a>(what: &str, s: &'a str, keys: &[&str]) -> Result<Vec<&'a str>, String> {
    let mut values: Vec<Option<&'a str>> = vec![None; keys.len()];
    for item in s.split(',') {
        let item = item.trim();
        let Some((k, v)) = item.split_once('=') else {
            return Err(format!(
                "{what}: '{item}' is not key=value (expected {})",
                expected(keys)
            ));
        };
        let (k, v) = (k.trim(), v.trim());
        let Some(i) = keys.iter().position(|&x| x == k) else {
            return Err(format!(
                "{what}: unknown parameter '{k}' (expected {})",
                expected(keys)
            ));
        };
        if values[i].is_some() {
            return Err(format!("{what}: parameter '{k}' given twice"));
        }
        if v.is_empty() {
            return Err(format!("{what}: parameter '{k}' has no value"));
        }
        values[i] = Some(v);
    }
    keys.iter()
        .zip(values)
        .map(|(k, v)| v.ok_or_else(|| format!("{what}: missing parameter '{k}'")))
        .collect()
}

fn expected(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("{k}=..."))
        .collect::<Vec<_>>()
        .join(",")
}

/// Payload sizes, bytes (1..=4096).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeDist {
    Fixed(u32),
    /// Uniform in `min..=max`.
    Uniform {
        min: u32,
        max: u32,
    },
}

impl SizeDist {
    /// Sizes within `MIN_SIZE..=MAX_SIZE` and `min <= max`, or an error naming the bad value.
    pub fn validate(&self) -> Result<(), String> {
        let in_range = |what: &str, s: u32| {
            if (MIN_SIZE..=MAX_SIZE).contains(&s) {
                Ok(())
            } else {
                Err(format!(
                    "packet size: {what}{s} bytes is outside {MIN_SIZE}..={MAX_SIZE}"
                ))
            }
        };
        match *self {
            SizeDist::Fixed(s) => in_range("", s),
            SizeDist::Uniform { min, max } => {
                in_range("minimum ", min)?;
                in_range("maximum ", max)?;
                if min > max {
                    return Err(format!(
                        "packet size: minimum {min} is above maximum {max} bytes"
                    ));
                }
                Ok(())
            }
        }
    }
}

/// As `FromStr` reads it: `64`, or `16:256`.
impl std::fmt::Display for SizeDist {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizeDist::Fixed(s) => write!(f, "{s}"),
            SizeDist::Uniform { min, max } => write!(f, "{min}:{max}"),
        }
    }
}

impl std::str::FromStr for SizeDist {
    type Err = String;
    /// `64` or `16:256` (payload bytes, 1..=4096).
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        let whole = |part: &str, what: &str| {
            part.trim().parse::<u32>().map_err(|_| {
                format!(
                    "packet sizes '{t}': {what}'{}' is not a whole number of bytes",
                    part.trim()
                )
            })
        };
        let parts: Vec<&str> = t.split(':').collect();
        let d = match parts[..] {
            [""] => return Err("packet sizes: empty (expected 64 or 16:256)".into()),
            [one] => SizeDist::Fixed(whole(one, "")?),
            [min, max] => SizeDist::Uniform {
                min: whole(min, "minimum ")?,
                max: whole(max, "maximum ")?,
            },
            _ => {
                return Err(format!(
                    "packet sizes '{t}': expected a size (64) or a range min:max (16:256)"
                ))
            }
        };
        d.validate().map_err(|e| format!("{e} (in '{t}')"))?;
        Ok(d)
    }
}

super::text_serde!(SizeDist);

/// An injection process (`net.injection`): `bernoulli` or `constant:N`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Injection {
    Bernoulli,
    /// Packets each endpoint keeps in flight.
    Constant(u32),
}

impl std::str::FromStr for Injection {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.split_once(':') {
            None if s == "bernoulli" => Ok(Injection::Bernoulli),
            Some(("constant", n)) => n
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=4096).contains(&n))
                .map(Injection::Constant)
                .ok_or_else(|| {
                    format!("injection '{s}': constant:N needs N packets per endpoint, 1 to 4096")
                }),
            _ => Err(format!(
                "injection '{s}': accepted are bernoulli and constant:N (N packets per endpoint)"
            )),
        }
    }
}

impl std::fmt::Display for Injection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Injection::Bernoulli => f.write_str("bernoulli"),
            Injection::Constant(n) => write!(f, "constant:{n}"),
        }
    }
}

super::text_serde!(Injection);

/// A ping probe (Pisani 2016 §3.4.5) from endpoint `src` to endpoint `dst`, one packet every
/// `period` cycles (`net::traffic::probe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    /// Source endpoint index.
    pub src: usize,
    /// Sink endpoint index.
    pub dst: usize,
    /// Cycles between probe packets, at least 1.
    pub period: u64,
}

impl std::fmt::Display for Probe {
    /// As `FromStr` reads it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "src={},dst={},period={}",
            self.src, self.dst, self.period
        )
    }
}

impl std::str::FromStr for Probe {
    type Err = String;
    /// `src=S,dst=D,period=P`. Endpoints are checked against the topology by `Probe::validate`;
    /// the period must be at least 1.
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        if t.is_empty() {
            return Err("probe: empty (expected src=S,dst=D,period=P)".into());
        }
        let v = key_values("probe", t, &["src", "dst", "period"])?;
        let whole = |k: &str, x: &str| {
            x.parse::<u64>()
                .map_err(|_| format!("probe: {k}='{x}' is not a whole number"))
        };
        let src = whole("src", v[0])? as usize;
        let dst = whole("dst", v[1])? as usize;
        let period = whole("period", v[2])?;
        if period == 0 {
            return Err("probe: period=0 cycles (at least 1)".into());
        }
        Ok(Probe { src, dst, period })
    }
}

/// `net.probe`: a probe, or none, written as the empty text.
pub mod probe_text {
    use super::Probe;

    pub fn serialize<S: serde::Serializer>(p: &Option<Probe>, s: S) -> Result<S::Ok, S::Error> {
        match p {
            Some(p) => s.collect_str(p),
            None => s.serialize_str(""),
        }
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Probe>, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(d)?;
        if text.is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(serde::de::Error::custom)
    }
}
