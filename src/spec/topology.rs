//! Topology descriptions, as the configuration (`net.topology`) and the command line
//! (`--topology`) name them; `net::topology` builds the `Topology` a description names.
//!
//! ```text
//!   torus:X[xY[xZ]]   mesh:X[xY[xZ]]     sizes 1..255, 1 to 3 dimensions (torus:8 is a ring)
//!   dragonfly:p=P,a=A,h=H[,g=G]          keys in any order, values >= 1, g = a h + 1 by default
//!   exanest:torus6x6 | torus3x3 | torus3x3xC | dragonfly
//!   graph:N:A-B,C-D,...                  N nodes (0..N-1) and the links between them
//! ```
//!
//! Every error quotes the whole name, names the part at fault and says what is accepted.
//! `Display` writes the name back (keys in the order p, a, h, g; `g` when the name gave it).

/// Most dimensions: the header carries three coordinates (`dst_x`, `dst_y`, `dst_z`).
pub const MAX_DIMS: usize = 3;

const KINDS: &str =
    "torus:AxB[xC], mesh:AxB[xC], dragonfly:p=P,a=A,h=H[,g=G], exanest:PRESET, graph:N:A-B,C-D,...";

/// A topology as named: every parameter checked, nothing built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopologySpec {
    /// `torus:AxB[xC]` (`shape.wrap`) or `mesh:AxB[xC]`.
    Torus(Shape),
    /// `dragonfly:p=P,a=A,h=H[,g=G]`; `g_given`: the name wrote `g` (else `g = a h + 1`).
    Dragonfly { df: DragonflyParams, g_given: bool },
    /// `exanest:PRESET`.
    Exanest(Preset),
    /// `graph:N:A-B,...`: an explicit list of nodes and links (`net/topology/graph.rs`).
    Graph(GraphSpec),
}

/// `graph:N:A-B,C-D,...`: nodes 0..N-1 and the links between them, in the order given (a
/// node's links take its ports in that order: `net/topology/graph.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphSpec {
    pub nodes: u32,
    pub links: Vec<(u32, u32)>,
}

impl GraphSpec {
    /// `N:A-B,C-D,...`, checked.
    fn parse(args: &str) -> Result<GraphSpec, String> {
        let (n, links) = args
            .split_once(':')
            .ok_or("expected graph:N:A-B,C-D,... (N nodes, then the links)")?;
        let nodes: u32 = n
            .trim()
            .parse()
            .map_err(|_| format!("'{n}' is not a number of nodes"))?;
        let mut out = Vec::new();
        let links = links.trim();
        for (i, l) in links.split(',').map(str::trim).enumerate() {
            if links.is_empty() {
                break;
            }
            let pair = l.split_once('-').and_then(|(a, b)| {
                Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?))
            });
            out.push(
                pair.ok_or_else(|| format!("link {i}, '{l}': expected A-B, two node numbers"))?,
            );
        }
        let g = GraphSpec { nodes, links: out };
        g.check()?;
        Ok(g)
    }

    /// Nodes 2 to 65,536; every link between two different nodes of the graph, no pair twice;
    /// at most `MAX_INTER` links a node (the router's inter-tile ports); connected.
    pub fn check(&self) -> Result<(), String> {
        use crate::router::params::MAX_INTER;
        let n = self.nodes as usize;
        if !(2..=1 << 16).contains(&n) {
            return Err(format!(
                "{n} node{}: a graph has 2 to 65536",
                if n == 1 { "" } else { "s" }
            ));
        }
        let mut seen = std::collections::HashMap::new();
        let mut adj = vec![Vec::new(); n];
        for (i, &(a, b)) in self.links.iter().enumerate() {
            for x in [a, b] {
                if x as usize >= n {
                    return Err(format!(
                        "link {i}, {a}-{b}: node {x} is not one of the {n} nodes 0..{}",
                        n - 1
                    ));
                }
            }
            if a == b {
                return Err(format!("link {i}, {a}-{b}: joins node {a} to itself"));
            }
            if let Some(j) = seen.insert((a.min(b), a.max(b)), i) {
                return Err(format!(
                    "link {i}, {a}-{b}: joins nodes {a} and {b} again (link {j})"
                ));
            }
            adj[a as usize].push(b as usize);
            adj[b as usize].push(a as usize);
        }
        if let Some(x) = (0..n).find(|&x| adj[x].len() > MAX_INTER) {
            return Err(format!(
                "node {x} has {} links: a router has at most {MAX_INTER} inter-tile ports",
                adj[x].len()
            ));
        }
        let mut reached = vec![false; n];
        let mut stack = vec![0];
        reached[0] = true;
        while let Some(x) = stack.pop() {
            for &y in &adj[x] {
                if !reached[y] {
                    reached[y] = true;
                    stack.push(y);
                }
            }
        }
        let apart: Vec<usize> = (0..n).filter(|&x| !reached[x]).collect();
        if let Some(&first) = apart.first() {
            return Err(format!(
                "not connected: {} node{} (node {first}{}) cannot reach node 0",
                apart.len(),
                if apart.len() == 1 { "" } else { "s" },
                if apart.len() > 1 { " and others" } else { "" }
            ));
        }
        Ok(())
    }
}

impl std::fmt::Display for GraphSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "graph:{}:", self.nodes)?;
        for (i, (a, b)) in self.links.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{a}-{b}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for TopologySpec {
    type Err = String;
    fn from_str(name: &str) -> Result<Self, String> {
        let e = |m: String| format!("topology '{name}': {m}");
        let Some((kind, args)) = name.split_once(':') else {
            return Err(e(format!("no ':'; accepted: {KINDS}")));
        };
        match kind {
            "torus" | "mesh" => Ok(TopologySpec::Torus(Shape {
                size: sizes(args).map_err(e)?,
                wrap: kind == "torus",
            })),
            "dragonfly" => {
                let (df, g_given) = dragonfly_params(args).map_err(e)?;
                df.check().map_err(e)?;
                Ok(TopologySpec::Dragonfly { df, g_given })
            }
            "exanest" => Ok(TopologySpec::Exanest(preset(args).map_err(e)?)),
            "graph" => Ok(TopologySpec::Graph(GraphSpec::parse(args).map_err(e)?)),
            _ => Err(e(format!("unknown kind '{kind}'; accepted: {KINDS}"))),
        }
    }
}

impl std::fmt::Display for TopologySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TopologySpec::Torus(s) => {
                let dims: Vec<String> = s.size.iter().map(|n| n.to_string()).collect();
                let kind = if s.wrap { "torus" } else { "mesh" };
                write!(f, "{kind}:{}", dims.join("x"))
            }
            TopologySpec::Dragonfly { df, g_given } => {
                let DragonflyParams { p, a, h, g } = df;
                write!(f, "dragonfly:p={p},a={a},h={h}")?;
                if *g_given {
                    write!(f, ",g={g}")?;
                }
                Ok(())
            }
            TopologySpec::Exanest(p) => write!(f, "exanest:{}", p.form()),
            TopologySpec::Graph(g) => write!(f, "{g}"),
        }
    }
}

super::text_serde!(TopologySpec);

/// The shape of a torus or mesh: a size per dimension (1 to 3 dimensions: the header carries
/// three coordinates; sizes 1..=255), all wrapping (torus) or none (mesh).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub size: Vec<u8>,
    pub wrap: bool,
}

/// Dragonfly parameters (Pisani 2016 §2.2.2): `p` terminals a router, `a` routers a group, `h`
/// global channels a router, `g` groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DragonflyParams {
    pub p: u32,
    pub a: u32,
    pub h: u32,
    pub g: u32,
}

/// Most terminals a router: the header's `dst_port` has 3 bits.
pub const MAX_P: u32 = 8;
/// Most routers a group: the router index is the header's 8-bit `dst_x`.
pub const MAX_A: u32 = 255;
/// Most groups: the group index is the header's 8-bit `dst_y`.
pub const MAX_G: u32 = 255;
/// Most inter-tile ports a router (`a - 1 + h`): routing numbers them with a `u8`.
pub const MAX_PORTS: u32 = 256;

impl DragonflyParams {
    /// `1 <= p <= 8`, `1 <= a <= 255`, `h >= 1`, `2 <= g <= 255`, `g - 1` dividing `a h`, at
    /// most 256 inter-tile ports (`a - 1 + h`).
    pub fn check(&self) -> Result<(), String> {
        let DragonflyParams { p, a, h, g } = *self;
        if !(1..=MAX_P).contains(&p) {
            return Err(format!(
                "p = {p}: 1 to {MAX_P} terminals a router are accepted (dst_port has 3 bits)"
            ));
        }
        if !(1..=MAX_A).contains(&a) {
            return Err(format!(
                "a = {a}: 1 to {MAX_A} routers a group are accepted (8-bit coordinate)"
            ));
        }
        if h == 0 {
            return Err("h = 0: h must be at least 1 (global channels a router)".into());
        }
        let ports = u64::from(a) - 1 + u64::from(h);
        if ports > u64::from(MAX_PORTS) {
            return Err(format!(
                "a - 1 + h = {ports} inter-tile ports: at most {MAX_PORTS} are accepted"
            ));
        }
        if !(2..=MAX_G).contains(&g) {
            return Err(format!(
                "g = {g}: 2 to {MAX_G} groups are accepted (8-bit coordinate)"
            ));
        }
        let channels = a * h;
        if !channels.is_multiple_of(g - 1) {
            return Err(format!(
                "g = {g}: g - 1 = {} must divide a h = {channels} (the group's global channels) \
                 so that every pair of groups gets as many links; accepted g: {}",
                g - 1,
                accepted_g(a, h)
            ));
        }
        Ok(())
    }
}

/// The group counts `g` for which `g - 1` divides `a h`, as a list for an error message.
fn accepted_g(a: u32, h: u32) -> String {
    let c = a * h;
    let gs: Vec<String> = (1..=c.min(MAX_G - 1))
        .filter(|&d| c.is_multiple_of(d))
        .map(|d| (d + 1).to_string())
        .collect();
    gs.join(", ")
}

/// The preset names `parse` accepts after `exanest:`.
pub const FORMS: &str = "torus6x6, torus3x3, torus3x3xC (C = 1..255 chassis), dragonfly";

/// An ExaNeSt Track-1 configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// 6x6 2-D torus of the 36 QFDBs of a chassis.
    Torus6x6,
    /// One of the four 3x3 2-D tori of counterpart QFDBs across the 9 mezzanines.
    Torus3x3,
    /// 3x3xC 3-D torus of counterpart QFDBs across C chassis (C >= 1).
    Torus3x3xC(u8),
    /// Dragonfly of mezzanine supernodes: p = 4, a = 4, h = 1, g = 5.
    Dragonfly,
}

impl Preset {
    /// The part of the name after `exanest:`.
    pub fn form(&self) -> String {
        match self {
            Preset::Torus6x6 => "torus6x6".into(),
            Preset::Torus3x3 => "torus3x3".into(),
            Preset::Torus3x3xC(c) => format!("torus3x3x{c}"),
            Preset::Dragonfly => "dragonfly".into(),
        }
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
fn dragonfly_params(args: &str) -> Result<(DragonflyParams, bool), String> {
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
    let g_given = g.is_some();
    let g = match g {
        Some(g) => g,
        // Too large a product is left for Dragonfly::new to reject with its range.
        None => a.saturating_mul(h).saturating_add(1),
    };
    Ok((DragonflyParams { p, a, h, g }, g_given))
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
            None => Err(format!("unknown preset '{args}'; accepted: {}", FORMS)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_as_written() {
        for (name, back) in [
            ("torus:10x10", "torus:10x10"),
            ("mesh:1x255", "mesh:1x255"),
            ("torus:8", "torus:8"),
            ("dragonfly:p=2,a=4,h=2", "dragonfly:p=2,a=4,h=2"),
            ("dragonfly:h=2,g=9,p=2,a=4", "dragonfly:p=2,a=4,h=2,g=9"),
            ("exanest:torus3x3x4", "exanest:torus3x3x4"),
        ] {
            let t: TopologySpec = name.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(t.to_string(), back);
            assert_eq!(back.parse::<TopologySpec>().unwrap(), t);
        }
    }
}
