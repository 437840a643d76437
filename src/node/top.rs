//! The node co-simulation top `exanet_node_top`: one node and, on each inter-tile port, a
//! neighbour's link end (its per-VC packet FIFOs and TCL, `src/link/system.rs`) with the
//! neighbour's outgoing lane towards the node.
//!
//! ```text
//!   test bench --reg_*, ps_*--> u_node --link_out[q]--> gen_nb[q].u_end --> test bench (nb RX FIFOs)
//!   test bench (nb TX FIFOs) --> gen_nb[q].u_end --> gen_nb[q].u_lane --link_in[q]--> u_node
//! ```

use super::{Node, NodeIn};
use crate::block::Block;
use crate::config::Config;
use crate::link::phy::{PhyIn, PhyLane};
use crate::link::system::{EndTbIn, LinkEnd, LinkEndIn};
use crate::link::LinkParams;
use crate::probe::{b, clk_rst, Visitor};
use crate::router::params::MAX_INTER;

/// The test bench's inputs of one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeTopIn {
    /// Register requests, processing-system ports, and the error masks of the node's lanes
    /// (`link_in` is filled from the neighbours' lanes).
    pub node: NodeIn,
    /// Each neighbour's FIFO strobes.
    pub nb: [EndTbIn; MAX_INTER],
    /// Bit errors on each neighbour's lane towards the node.
    pub nb_err_mask: [u64; MAX_INTER],
}

pub struct NodeTop {
    pub node: Node,
    /// The neighbours' link ends and their outgoing lanes.
    pub nbs: Vec<LinkEnd>,
    pub nb_lanes: Vec<PhyLane>,
    /// The neighbours' link configuration (the configuration's, fixed).
    pub nb_p: LinkParams,
    /// When set, the node's sub-blocks step in place in a fresh random order every cycle
    /// (`Node::step_in_order`; the clock rule says the order cannot matter, a test checks it).
    shuffle: Option<rand_mt::Mt64>,
}

pub const GEN_NB: [&str; 64] = crate::gen_names!("gen_nb");

impl NodeTop {
    pub fn new(c: &Config) -> NodeTop {
        let node = Node::reset(c);
        let nq = node.p.router.inter.len();
        let nb_p = LinkParams::from_config(&c.link);
        NodeTop {
            nbs: (0..nq).map(|_| LinkEnd::reset(&nb_p)).collect(),
            nb_lanes: (0..nq).map(|_| PhyLane::reset(&nb_p.phy)).collect(),
            node,
            nb_p,
            shuffle: None,
        }
    }

    /// The asynchronous reset of `exanet_node_top` (`rst_ni` low between two edges), `c` the
    /// configuration it was built from: the node ([`Node::async_reset`]) and the neighbours'
    /// link ends and lanes; the neighbours' settings (inputs of the top) stay.
    pub fn async_reset(&mut self, c: &Config) {
        self.node.async_reset(c);
        for e in &mut self.nbs {
            e.async_reset(&self.nb_p);
        }
        for l in &mut self.nb_lanes {
            *l = PhyLane::reset(&self.nb_p.phy);
        }
    }

    /// Step the node's sub-blocks in place in a random order, drawn every cycle from `seed`.
    pub fn shuffle_blocks(&mut self, seed: u64) {
        self.shuffle = Some(rand_mt::Mt64::new(seed));
    }

    /// The node's inputs, with what the neighbours' lanes deliver.
    pub fn node_in(&self, i: &NodeTopIn) -> NodeIn {
        let mut n = i.node;
        for (q, l) in self.nb_lanes.iter().enumerate() {
            n.link_in[q] = (l.rx_valid(), l.rx_data());
        }
        n
    }

    /// Neighbour `q`'s link end's inputs: the node's lane `q` comes in, its own lane goes out.
    fn nb_in(&self, q: usize, i: &NodeTopIn) -> LinkEndIn<'_> {
        LinkEndIn::of(
            &self.nb_p,
            &i.nb[q],
            &self.node.dp.link(q).lane,
            &self.nb_lanes[q],
        )
    }

    fn nb_lane_in(&self, q: usize, i: &NodeTopIn) -> PhyIn {
        let e = &self.nbs[q];
        PhyIn {
            cfg: self.nb_p.phy_cfg,
            tx_valid: e.tx.out_valid,
            tx_data: e.tx.out_data,
            err_mask: i.nb_err_mask[q],
        }
    }

    pub fn step(&mut self, i: &NodeTopIn) {
        let ni = self.node_in(i);
        let nb_next: Vec<_> = self
            .nbs
            .iter()
            .enumerate()
            .map(|(q, e)| e.eval(&self.nb_in(q, i)))
            .collect();
        let lane_next: Vec<_> = self
            .nb_lanes
            .iter()
            .enumerate()
            .map(|(q, l)| l.eval(&self.nb_lane_in(q, i)))
            .collect();
        match self.shuffle.as_mut() {
            None => {
                let n = self.node.eval(&ni);
                self.node.commit(n);
            }
            Some(rng) => {
                let mut order = self.node.blocks();
                crate::block::shuffle(&mut order, rng);
                self.node.step_in_order(&ni, &order);
            }
        }
        for (e, n) in self.nbs.iter_mut().zip(nb_next) {
            e.commit(n);
        }
        for (l, n) in self.nb_lanes.iter_mut().zip(lane_next) {
            l.commit(n);
        }
    }

    /// Every signal of `exanet_node_top`, under its RTL names.
    pub fn probe(&self, i: &NodeTopIn, v: &mut dyn Visitor) {
        let ni = self.node_in(i);
        v.enter("TOP");
        self.probe_ports(i, v);
        v.enter("exanet_node_top");
        self.probe_ports(i, v);
        v.enter("u_node");
        self.node.probe(&ni, v);
        v.leave();
        for (q, (e, name)) in self.nbs.iter().zip(GEN_NB).enumerate() {
            v.enter(name);
            v.enter("u_end");
            e.probe(&self.nb_in(q, i), v);
            v.leave();
            v.enter("u_lane");
            self.nb_lanes[q].probe(&self.nb_lane_in(q, i), v);
            v.leave();
            v.leave();
        }
        v.leave();
        v.leave();
    }

    /// The ports of `exanet_node_top`.
    fn probe_ports(&self, i: &NodeTopIn, v: &mut dyn Visitor) {
        let node = &self.node;
        let rp = &node.p.router;
        let (nq, nv) = (rp.inter.len(), rp.num_vcs);
        clk_rst(v);
        node.probe_host_ports(&i.node, v);
        let c = &self.nb_p.cfg;
        v.sig("nb_cfg_credit_period_i", 16, c.credit_period as u128);
        v.sig("nb_cfg_max_interval_i", 16, c.max_interval as u128);
        v.sig("nb_cfg_tred_i", 16, c.tred as u128);
        v.sig("nb_cfg_usedword_i", 1, b(c.usedword));
        v.sig("nb_cfg_after_pkt_i", 1, b(c.after_pkt));
        v.sig("nb_cfg_whole_pkt_i", 1, b(c.whole_pkt));
        v.sig("nb_cfg_gearbox_en_i", 1, b(self.nb_p.phy_cfg.gearbox_en));
        v.sig("nb_cfg_cc_en_i", 1, b(self.nb_p.phy_cfg.cc_en));
        for q in 0..nq {
            let t = &i.nb[q];
            v.sig_idx("link_err_mask_i", q, 64, i.node.err_mask[q] as u128);
            v.sig_idx("nb_err_mask_i", q, 64, i.nb_err_mask[q] as u128);
            v.sig_idx("nb_tx_wr_hf_i", q, nv, t.tx_wr_hf as u128);
            v.sig_idx("nb_tx_wr_pay_i", q, nv, t.tx_wr_pay as u128);
            v.sig_idx("nb_tx_wdata_i", q, 128, t.tx_wdata);
            v.sig_idx("nb_rx_rd_hf_i", q, nv, t.rx_rd_hf as u128);
            v.sig_idx("nb_rx_rd_pay_i", q, nv, t.rx_rd_pay as u128);
            let (h, p) = self.nbs[q].rx_empty_masks();
            v.sig_idx("nb_rx_hf_empty_o", q, nv, h as u128);
            v.sig_idx("nb_rx_pay_empty_o", q, nv, p as u128);
        }
    }
}

impl crate::counters::Counters for NodeTop {
    /// The node's and its neighbours' link ends' counters, from `TOP` (as [`NodeTop::probe`]).
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.enter("TOP");
        v.enter("exanet_node_top");
        v.enter("u_node");
        self.node.counters(v);
        v.leave();
        for (e, name) in self.nbs.iter_mut().zip(GEN_NB) {
            v.enter(name);
            v.enter("u_end");
            e.counters(v);
            v.leave();
            v.leave();
        }
        v.leave();
        v.leave();
    }
}
