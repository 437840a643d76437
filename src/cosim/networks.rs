//! The networks whose RTL is Verilated whole (`testbench/networks.rs`, one table with
//! `build.rs`): generated tops of `exanet_node`s wired as the network engine wires a torus or a
//! mesh, which `exanet cosim --design network` runs in lockstep with the engine
//! (`net_design.rs`). This module finds the network of a configuration; its tests hold the
//! table's wiring, coordinates and TRED to the engine's, so the generated tops cannot drift from
//! what the engine builds.

#[path = "../../testbench/networks.rs"]
mod table;

pub use table::{RtlNetwork, CREDIT_MODE, NETWORKS, TRED};

use super::rtl::RtlTop;
use crate::config::Config;
use crate::spec::topology::TopologySpec;

/// The topologies `--design network` runs, as `net.topology` names them.
pub fn names() -> Vec<&'static str> {
    NETWORKS.iter().map(|n| n.topology).collect()
}

/// The Verilated network of `cfg.net.topology`, and its top; an error naming the networks there
/// are when it has none.
pub fn of(cfg: &Config) -> Result<(&'static RtlNetwork, RtlTop), String> {
    let found = NETWORKS.iter().find(|n| {
        n.topology
            .parse::<TopologySpec>()
            .is_ok_and(|t| t == cfg.net.topology)
    });
    let Some(net) = found else {
        return Err(format!(
            "net.topology = {}: no Verilated network of that topology; the RTL networks are {} \
             (testbench/networks.rs; each costs its build, decision 0038)",
            cfg.net.topology,
            names().join(", ")
        ));
    };
    let top = RtlTop::ALL
        .into_iter()
        .find(|t| t.name() == net.top_name())
        .expect("build.rs makes a top of every network");
    Ok((net, top))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::Topology;

    fn topology(net: &RtlNetwork) -> Box<dyn Topology> {
        net.topology
            .parse::<TopologySpec>()
            .unwrap()
            .build()
            .unwrap()
    }

    /// The generated tops are wired as the engine wires its nodes, and every node sits where
    /// the engine puts it.
    #[test]
    fn the_tables_wiring_is_the_engines() {
        for net in NETWORKS {
            let t = topology(net);
            assert_eq!(t.nodes(), net.nodes(), "{}", net.name);
            assert_eq!(t.terminals(), 1, "{}", net.name);
            let shape = super::super::shapes::by_name(net.shape).unwrap().unwrap();
            assert_eq!(t.ports(), shape.inter.len(), "{}", net.name);
            for id in 0..net.nodes() {
                let a = t.addr(id);
                let c = net.coord(id);
                assert_eq!(
                    [a[0] as u32, a[1] as u32, a[2] as u32],
                    c,
                    "{} node {id}",
                    net.name
                );
                for q in 0..t.ports() {
                    assert_eq!(
                        t.link(id, q),
                        net.link(id, q),
                        "{} node {id} port {q}",
                        net.name
                    );
                }
            }
        }
    }

    /// [`TRED`] is the safe TRED of the worst packets a network run takes (1 to 4096 bytes,
    /// whole-packet credits): a run's own safe TRED is never above it.
    #[test]
    fn the_network_tops_tred_is_the_worst_case_safe_one() {
        let l = Config::default().link;
        let worst = crate::link::tred::safe_tred_units(&l, 1, 4096, true);
        assert_eq!(TRED, worst);
        for (lo, hi) in [(16, 16), (16, 4096), (64, 64), (4096, 4096), (1, 1)] {
            assert!(crate::link::tred::safe_tred_units(&l, lo, hi, true) <= TRED);
        }
        assert!(TRED <= l.rx_fifo_depth_words);
    }

    #[test]
    fn a_topology_without_a_verilated_network_is_refused_naming_those_there_are() {
        let mut c = Config::default();
        c.net.topology = "torus:8x8".parse().unwrap();
        let e = of(&c).unwrap_err();
        assert!(e.contains("torus:8x8") && e.contains("torus:4x4"), "{e}");
        c.net.topology = "torus:4x4".parse().unwrap();
        assert_eq!(of(&c).unwrap().0.name, "torus4x4");
    }
}
