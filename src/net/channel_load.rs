//! The channel-load bound of uniform traffic (Dally and Towles §3.3): what a network can accept
//! at most when every endpoint sends to every other endpoint equally often, from the load its
//! routing puts on its busiest channel.
//!
//! Each endpoint injects one unit; a packet from `s` to `d` (every `d != s` equally likely) adds
//! `1 / (E - 1)` to every inter-tile channel on its path. The busiest channel's load `gamma`
//! (units of one endpoint's injection) bounds the accepted load: the channel can carry at most
//! `capacity` payload bytes a cycle, so no endpoint can inject more than `capacity / gamma`. The
//! capacity is the lane's 8 bytes a cycle times the framing of the packet sizes on the wire (a
//! packet of `s` bytes takes MAGIC, START, a two-beat header, `2 ceil(s / 16)` payload beats and
//! a two-beat footer; credit beats come on top, so this is an upper bound), expressed like the
//! sweep's loads as a fraction of `net.injection_bytes_per_cycle`.
//!
//! Paths: a deterministic routing's own (`path::last`, the hop each packet waits for: e-cube's
//! dimension order with its half-way ties going `+`, min-routing's local-global-local). An
//! adaptive routing can spread its packets over every minimal path, so its bound on a torus is
//! the ideal one of perfectly balanced minimal routing, `k / 8` a channel for a ring of even `k`
//! and `(k^2 - 1) / (8 k)` for odd `k` (the largest over the dimensions); on other topologies an
//! adaptive routing gets no bound here.

use super::routing::path::last;
use super::routing::{Port, Routing};
use super::topology::Topology;
use super::traffic::SizeDist;

/// The bound of one routing on one topology.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ChannelLoadBound {
    /// The busiest channel's load, in units of one endpoint's injection.
    pub max_channel_load: f64,
    /// Payload bytes a cycle a link carries at most with these packet sizes.
    pub link_payload_bytes_per_cycle: f64,
    /// The accepted load no run can exceed, as a fraction of the injection bandwidth.
    pub accepted_load: f64,
    /// Whose paths: `routing` (its own) or `ideal` (perfectly balanced minimal paths).
    pub paths: &'static str,
}

/// Beats a packet of `s` payload bytes takes on the wire, credits apart.
fn wire_beats(s: u32) -> u64 {
    6 + 2 * s.div_ceil(16) as u64
}

/// Payload bytes a cycle a link carries at most, for packets drawn from `sizes`.
pub fn link_payload_bytes_per_cycle(sizes: &SizeDist) -> f64 {
    let (mut bytes, mut beats) = (0u64, 0u64);
    for s in sizes.min()..=sizes.max() {
        if let SizeDist::Fixed(f) = sizes {
            if s != *f {
                continue;
            }
        }
        bytes += s as u64;
        beats += wire_beats(s);
    }
    8.0 * bytes as f64 / (8 * beats) as f64
}

/// Endpoints up to which every pair's path is walked; a larger torus is walked from one source
/// (every node of a torus routes alike, so every channel of a port carries the same load), a
/// larger other network gets no bound.
pub const MAX_WALKED_ENDPOINTS: usize = 4096;

/// The busiest channel's load under `r`'s deterministic paths; None for a network too large to
/// walk.
fn routed_max_load(t: &dyn Topology, r: &dyn Routing) -> Result<Option<f64>, String> {
    let e = t.endpoints();
    if e < 2 {
        return Err("one endpoint: no uniform traffic".into());
    }
    let torus = t.shape().is_some_and(|s| s.wrap) && t.terminals() == 1;
    let sources = if e <= MAX_WALKED_ENDPOINTS {
        0..e
    } else if torus {
        0..1
    } else {
        return Ok(None);
    };
    let one_source = sources.len() == 1;
    let mut load = vec![0u64; t.nodes() * t.ports()];
    for src in sources {
        for dst in (0..e).filter(|&d| d != src) {
            for h in last(t, r, src, dst)? {
                if let Port::Inter(q) = h.hop.port {
                    load[h.node * t.ports() + q as usize] += 1;
                }
            }
        }
    }
    let max = if one_source {
        // every node's port-q channel carries what node 0's paths put on all port-q channels
        (0..t.ports())
            .map(|q| (0..t.nodes()).map(|n| load[n * t.ports() + q]).sum::<u64>())
            .max()
            .unwrap_or(0)
    } else {
        load.into_iter().max().unwrap_or(0)
    };
    Ok(Some(max as f64 / (e - 1) as f64))
}

/// The ideal channel load of uniform traffic on a torus's rings (per endpoint of a node).
fn ideal_torus_load(t: &dyn Topology) -> Option<f64> {
    let s = t.shape().filter(|s| s.wrap)?;
    let ring = |k: f64| {
        if (k as u64).is_multiple_of(2) {
            k / 8.0
        } else {
            (k * k - 1.0) / (8.0 * k)
        }
    };
    let g = s.size.iter().map(|&k| ring(k as f64)).fold(0.0, f64::max);
    Some(g * t.terminals() as f64)
}

/// The channel-load bound of uniform traffic of `sizes` under `r` on `t`, loads relative to
/// `injection_bytes_per_cycle`; None for an adaptive routing off a torus, or a network other
/// than a torus of more than [`MAX_WALKED_ENDPOINTS`] endpoints.
pub fn uniform(
    t: &dyn Topology,
    r: &dyn Routing,
    sizes: &SizeDist,
    injection_bytes_per_cycle: f64,
) -> Result<Option<ChannelLoadBound>, String> {
    let (gamma, paths) = if r.adapts() {
        match ideal_torus_load(t) {
            Some(g) => (g, "ideal"),
            None => return Ok(None),
        }
    } else {
        match routed_max_load(t, r)? {
            Some(g) => (g, "routing"),
            None => return Ok(None),
        }
    };
    let cap = link_payload_bytes_per_cycle(sizes);
    Ok(Some(ChannelLoadBound {
        max_channel_load: gamma,
        link_payload_bytes_per_cycle: cap,
        accepted_load: cap / gamma / injection_bytes_per_cycle,
        paths,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::routing::parse_routing;
    use crate::net::topology::parse;

    fn bound(topo: &str, routing: &str, sizes: SizeDist) -> Option<ChannelLoadBound> {
        let t = parse(topo).unwrap();
        let r = parse_routing(routing).unwrap();
        uniform(t.as_ref(), r.as_ref(), &sizes, 8.0).unwrap()
    }

    #[test]
    fn ecube_loads_its_plus_channels_with_the_half_way_ties() {
        // a ring of 10: distances 1..5 go +, so the + channel carries (1+2+3+4+5)/9 of every
        // node's other nine destinations... per unit: 15 / 9 of a node's injection a channel
        // when all nine are equally likely
        let b = bound("torus:10", "ecube", SizeDist::Fixed(64)).unwrap();
        assert!((b.max_channel_load - 15.0 / 9.0).abs() < 1e-12, "{b:?}");
        assert_eq!(b.paths, "routing");
        // 64 bytes: 8 payload beats of 14
        assert!((b.link_payload_bytes_per_cycle - 64.0 / 14.0).abs() < 1e-12);
        // a 10x10 torus: a + channel of X carries 1.5 units (the Y hops use other channels)
        let b = bound("torus:10x10", "ecube", SizeDist::Fixed(64)).unwrap();
        assert!((b.max_channel_load - 150.0 / 99.0).abs() < 1e-12, "{b:?}");
        assert!((b.accepted_load - (64.0 / 14.0) / (150.0 / 99.0) / 8.0).abs() < 1e-12);
        // a torus too large to walk pair by pair: from one source, the same loads
        let t = parse("torus:66x66").unwrap();
        let r = parse_routing("ecube").unwrap();
        let big = routed_max_load(t.as_ref(), r.as_ref()).unwrap().unwrap();
        let ring: f64 = (1..=33).map(|d| d as f64).sum::<f64>() * 66.0;
        assert!((big - ring / (66.0 * 66.0 - 1.0)).abs() < 1e-9, "{big}");
    }

    #[test]
    fn adaptive_routings_get_the_ideal_torus_bound_and_none_elsewhere() {
        let b = bound("torus:10x10", "star-channel", SizeDist::Fixed(64)).unwrap();
        assert_eq!((b.max_channel_load, b.paths), (1.25, "ideal"));
        let b = bound("torus:5x5", "smart-dor", SizeDist::Fixed(64)).unwrap();
        assert!((b.max_channel_load - 24.0 / 40.0).abs() < 1e-12);
        assert!(bound("dragonfly:p=2,a=4,h=2", "updown", SizeDist::Fixed(64)).is_none());
        // min-routing is deterministic: its own paths
        let b = bound("dragonfly:p=2,a=4,h=2", "min", SizeDist::Fixed(64)).unwrap();
        assert_eq!(b.paths, "routing");
        assert!(b.accepted_load > 0.0 && b.accepted_load <= 1.0, "{b:?}");
    }

    #[test]
    fn long_packets_carry_more_payload_a_cycle() {
        let u = link_payload_bytes_per_cycle(&SizeDist::Uniform { min: 16, max: 4096 });
        let f = link_payload_bytes_per_cycle(&SizeDist::Fixed(64));
        assert!(u > 7.7 && u < 8.0 && f < u, "{u} {f}");
        // whole words on the wire: 17 bytes take as long as 32
        assert_eq!(wire_beats(17), wire_beats(32));
    }
}
