//! Fault schedules, as the configuration (`net.faults`, `net.random_faults`) and the command
//! line (`--set net.faults=...`) give them (issue 14 §2; docs/network.md, "Links and nodes that
//! fail"). Which nodes and links exist is the topology's to say: `net::faults` resolves a
//! schedule against it.
//!
//! ```text
//!   net.faults        = "link:3-4@1000..5000; link:5>6@2000; node:7@3000..9000"
//!                        link:A-B@T..U   both directions between nodes A and B fail at cycle
//!                                        T and come back at cycle U (..U left out: for good)
//!                        link:A>B@T..U   only the lane from A to B
//!                        node:N@T..U     node N: every link of it, and its NICs
//!   net.random_faults = "links=4,nodes=1,from=1000,to=20000,for=5000"
//!                        K links and M nodes drawn from sim.seed, each failing at a cycle drawn
//!                        uniformly in [from, to), for `for` cycles (left out: for good)
//! ```

/// What fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultTarget {
    /// The link between nodes `a` and `b`: both directions, or only the lane from `a` to `b`.
    Link { a: usize, b: usize, one_way: bool },
    /// A node: every link of it, and its NICs.
    Node(usize),
}

/// One fault: its target fails at cycle `down` and recovers at cycle `up` (None: never).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fault {
    pub target: FaultTarget,
    pub down: u64,
    pub up: Option<u64>,
}

/// The faults a run plants at given cycles (`net.faults`), in the order written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FaultSchedule(pub Vec<Fault>);

/// Faults drawn from the run's seed (`net.random_faults`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomFaults {
    pub links: usize,
    pub nodes: usize,
    /// Failure cycles are drawn uniformly in [from, to).
    pub from: u64,
    pub to: u64,
    /// Cycles each fault lasts; None: for good.
    pub duration: Option<u64>,
}

/// The latest cycle a fault may name (a run is at most 3e9 cycles: warm-up, window and drain
/// of at most 1e9 each).
pub const MAX_FAULT_CYCLE: u64 = 1 << 40;

/// The forms accepted, for error messages.
pub const FAULT_FORMS: &str =
    "link:A-B@T[..U] (both directions), link:A>B@T[..U] (the lane from A to B), node:N@T[..U]; \
     several separated by ';'";

fn number<T: std::str::FromStr>(what: &str, s: &str, item: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("fault '{item}': {what} '{}' is not a number", s.trim()))
}

impl std::str::FromStr for Fault {
    type Err = String;
    fn from_str(item: &str) -> Result<Fault, String> {
        let item = item.trim();
        let (target, when) = item
            .split_once('@')
            .ok_or_else(|| format!("fault '{item}': no '@cycle'; accepted: {FAULT_FORMS}"))?;
        let (kind, what) = target.split_once(':').ok_or_else(|| {
            format!("fault '{item}': expected link: or node:; accepted: {FAULT_FORMS}")
        })?;
        let target = match kind.trim() {
            "link" => {
                let (sep, one_way) = if what.contains('>') {
                    ('>', true)
                } else {
                    ('-', false)
                };
                let (a, b) = what.split_once(sep).ok_or_else(|| {
                    format!("fault '{item}': a link is A-B or A>B; accepted: {FAULT_FORMS}")
                })?;
                let (a, b) = (number("node", a, item)?, number("node", b, item)?);
                if a == b {
                    return Err(format!("fault '{item}': a link joins two different nodes"));
                }
                FaultTarget::Link { a, b, one_way }
            }
            "node" => FaultTarget::Node(number("node", what, item)?),
            k => {
                return Err(format!(
                    "fault '{item}': '{k}' is neither link nor node; accepted: {FAULT_FORMS}"
                ))
            }
        };
        let (down, up) = match when.split_once("..") {
            Some((d, u)) => (
                number::<u64>("cycle", d, item)?,
                Some(number::<u64>("cycle", u, item)?),
            ),
            None => (number::<u64>("cycle", when, item)?, None),
        };
        if down.max(up.unwrap_or(0)) > MAX_FAULT_CYCLE {
            return Err(format!(
                "fault '{item}': a cycle past {MAX_FAULT_CYCLE}, after any run has ended"
            ));
        }
        if let Some(u) = up {
            if u <= down {
                return Err(format!(
                    "fault '{item}': recovers at cycle {u}, not after it fails at cycle {down}"
                ));
            }
        }
        Ok(Fault { target, down, up })
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.target {
            FaultTarget::Link { a, b, one_way } => {
                write!(f, "link:{a}{}{b}", if one_way { '>' } else { '-' })?
            }
            FaultTarget::Node(n) => write!(f, "node:{n}")?,
        }
        write!(f, "@{}", self.down)?;
        if let Some(u) = self.up {
            write!(f, "..{u}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for FaultSchedule {
    type Err = String;
    fn from_str(s: &str) -> Result<FaultSchedule, String> {
        s.split(';')
            .filter(|x| !x.trim().is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map(FaultSchedule)
    }
}

impl std::fmt::Display for FaultSchedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, x) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{x}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for RandomFaults {
    type Err = String;
    fn from_str(s: &str) -> Result<RandomFaults, String> {
        let mut r = RandomFaults {
            links: 0,
            nodes: 0,
            from: u64::MAX,
            to: u64::MAX,
            duration: None,
        };
        let forms = "links=K,nodes=M,from=T0,to=T1[,for=D]";
        let mut seen: Vec<&str> = Vec::new();
        for kv in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("random faults '{s}': '{kv}' is not key=value; {forms}"))?;
            if seen.contains(&k.trim()) {
                return Err(format!(
                    "random faults '{s}': {} is given twice; give each key once",
                    k.trim()
                ));
            }
            seen.push(k.trim());
            let n: u64 = v.trim().parse().map_err(|_| {
                format!("random faults '{s}': {k} = '{}' is not a number", v.trim())
            })?;
            match k.trim() {
                "links" => r.links = n as usize,
                "nodes" => r.nodes = n as usize,
                "from" => r.from = n,
                "to" => r.to = n,
                "for" if n > 0 => r.duration = Some(n),
                "for" => {
                    return Err(format!(
                        "random faults '{s}': for = 0: a fault lasts a cycle or more"
                    ))
                }
                other => {
                    return Err(format!(
                        "random faults '{s}': unknown key '{other}'; accepted: {forms}"
                    ))
                }
            }
        }
        if r.from == u64::MAX || r.to == u64::MAX {
            return Err(format!(
                "random faults '{s}': from and to are needed; {forms}"
            ));
        }
        if r.to.max(r.duration.unwrap_or(0)) > MAX_FAULT_CYCLE {
            return Err(format!(
                "random faults '{s}': a cycle past {MAX_FAULT_CYCLE}, after any run has ended"
            ));
        }
        if r.to <= r.from {
            return Err(format!(
                "random faults '{s}': to = {} is not after from = {}",
                r.to, r.from
            ));
        }
        if r.links + r.nodes == 0 {
            return Err(format!(
                "random faults '{s}': no links and no nodes to fail"
            ));
        }
        Ok(r)
    }
}

impl std::fmt::Display for RandomFaults {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "links={},nodes={},from={},to={}",
            self.links, self.nodes, self.from, self.to
        )?;
        if let Some(d) = self.duration {
            write!(f, ",for={d}")?;
        }
        Ok(())
    }
}

super::text_serde!(FaultSchedule);

/// `net.random_faults` as text: empty for none.
pub mod random_text {
    use super::RandomFaults;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(r: &Option<RandomFaults>, s: S) -> Result<S::Ok, S::Error> {
        match r {
            Some(r) => s.collect_str(r),
            None => s.serialize_str(""),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RandomFaults>, D::Error> {
        let text = String::deserialize(d)?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_parses_and_prints_back() {
        let s: FaultSchedule = "link:3-4@1000..5000; link:5>6@2000;node:7@3000..9000"
            .parse()
            .unwrap();
        assert_eq!(
            s.0[1],
            Fault {
                target: FaultTarget::Link {
                    a: 5,
                    b: 6,
                    one_way: true
                },
                down: 2000,
                up: None
            }
        );
        assert_eq!(s.to_string().parse::<FaultSchedule>().unwrap(), s);
        assert_eq!("".parse::<FaultSchedule>().unwrap().0.len(), 0);
        let r: RandomFaults = "links=4,nodes=1,from=1000,to=20000,for=5000"
            .parse()
            .unwrap();
        assert_eq!(r.to_string().parse::<RandomFaults>().unwrap(), r);
    }

    #[test]
    fn bad_faults_name_the_problem() {
        for (text, says) in [
            ("link:3-4@5000..1000", "recovers at cycle 1000, not after"),
            ("link:3-4@1000..1000", "not after"),
            ("link:3-3@10", "two different nodes"),
            ("link:3@10", "A-B or A>B"),
            ("wire:3-4@10", "'wire' is neither"),
            ("node:7", "no '@cycle'"),
            ("node:x@10", "node 'x' is not a number"),
            ("node:1@soon", "cycle 'soon'"),
            ("node:1@18446744073709551615", "a cycle past"),
        ] {
            let e = text.parse::<FaultSchedule>().unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
        for (text, says) in [
            ("links=2,from=10", "from and to are needed"),
            ("links=2,from=10,to=5", "not after from"),
            ("from=1,to=5", "no links and no nodes"),
            ("links=2,from=1,to=5,for=0", "for = 0"),
            ("links=2,from=1,to=5,when=3", "unknown key 'when'"),
            ("links=2,from=1,to=5,links=3", "links is given twice"),
            ("links=two,from=1,to=5", "'two' is not a number"),
            (
                "links=1,from=1,to=5,for=18446744073709551615",
                "a cycle past",
            ),
        ] {
            let e = text.parse::<RandomFaults>().unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
