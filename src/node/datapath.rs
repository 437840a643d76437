//! The data path of the ExaNet Network IP node (Biagioni 2017 §5.3, Figure 5.13): the APErouter
//! (`u_router`) and, per inter-tile port q, the link `gen_link[q]`: its TCL (`u_tcl`, TX and RX)
//! and its outgoing PHY lane (`u_lane`).
//!
//! ```text
//!   intra-tile port t (driver: PS, self-test or NIC) <--> u_router intra-tile port t
//!   link_in[q] --> gen_link[q].u_tcl.u_rx --> u_router inter-tile port q (RX FIFOs)
//!   link_out[q] <-- gen_link[q].u_lane <-- gen_link[q].u_tcl.u_tx <-- u_router port q (TX FIFOs)
//! ```
//!
//! This is the one composition and the one wiring of the node's data path: the co-simulated
//! node (`Node`: `cosim --design node`, KARMA) adds the Target Controller and the self-test
//! IPs around it; the network node (`src/net/node.rs`) adds the NICs, faults, idle skipping
//! and the partitions' scheduling around it, outside the block files. Both take every
//! sub-block's inputs from the functions here (`router_in`, `tx_in`, `lane_in`, `rx_in`) and
//! probe it with `probe_router` and `NodeLink::probe`, so the two cannot wire it differently;
//! what each adds is which sub-blocks it steps in a cycle, and in which order.
//!
//! Cycle contract: none of its own. Every input is a value of this cycle's registers (the
//! router's FIFOs, the TCLs', the lanes'); a caller takes the inputs of every sub-block it
//! steps before the first one steps (or, for the ones it steps first, knows that nothing they
//! read has stepped yet).
//!
//! RTL twin: the data path of `rtl/exanet_node.sv` (its `u_router` and `gen_link` generate).

use crate::block::Block;
use crate::link::phy::{PhyCfg, PhyIn, PhyLane};
use crate::link::tcl::{router_side, Tcl};
use crate::link::tcl_rx::RxIn;
use crate::link::tcl_tx::{TclCfg, TclParams, TxFifoView, TxIn};
use crate::link::LinkParams;
use crate::probe::Visitor;
use crate::router::params::RouterParams;
use crate::router::{IntraIn, Router, RouterIn};

/// `gen_link[q]`: one inter-tile port's TCL and its outgoing PHY lane.
#[derive(Debug, Clone)]
pub struct NodeLink {
    pub tcl: Tcl,
    pub lane: PhyLane,
}

/// Which TX packet FIFO heads `DataPath::tx_in` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heads {
    /// Every VC's, empty or not, as the RTL's `rdata` ports show them (the co-simulated node,
    /// every probe).
    All,
    /// Only those of FIFOs that show a word (from the router's scheduler marks); an empty FIFO
    /// reads 0 and its memory is left untouched. The TCL TX reads a head only while its FIFO
    /// shows a word, so its registers are the same as with `All` (the network node's hot
    /// path; the node lockstep and `tests/net_node_equiv.rs` hold them equal).
    Shown,
}

/// The router and, per inter-tile port, its link; `None` for a port a network leaves unwired
/// (the co-simulated node wires every port).
pub struct DataPath {
    pub router: Router,
    pub links: Vec<Option<NodeLink>>,
}

impl NodeLink {
    pub fn reset(p: &LinkParams) -> NodeLink {
        NodeLink {
            tcl: Tcl::reset(&p.tcl),
            lane: PhyLane::reset(&p.phy),
        }
    }

    /// What arrives at the neighbour: the lane's output.
    pub fn out(&self) -> (bool, u64) {
        (self.lane.rx_valid(), self.lane.rx_data())
    }

    /// `gen_link[q]`'s registers and ports in the scope the caller opened (`u_tcl`, `u_lane`).
    pub fn probe(
        &self,
        p: &TclParams,
        cfg: &TclCfg,
        tx: &TxIn,
        rx: &RxIn,
        lane: &PhyIn,
        v: &mut dyn Visitor,
    ) {
        v.enter("u_tcl");
        crate::link::tcl::probe_halves(p, cfg, &self.tcl.tx, &self.tcl.rx, tx, rx, v);
        v.leave();
        v.enter("u_lane");
        self.lane.probe(lane, v);
        v.leave();
    }
}

/// The incoming lane's beat as the TCL RX takes it.
pub fn rx_in(link_in: (bool, u64)) -> RxIn {
    RxIn {
        rx_valid: link_in.0,
        rx_data: link_in.1,
    }
}

impl DataPath {
    /// Out of reset, with a link on the ports `wired` says (bit q: port q).
    pub fn reset(p: &RouterParams, link: &LinkParams, wired: u64) -> DataPath {
        DataPath {
            router: Router::new(p.clone()),
            links: (0..p.inter.len())
                .map(|q| (wired >> q & 1 != 0).then(|| NodeLink::reset(link)))
                .collect(),
        }
    }

    /// Port `q`'s link (a wired port).
    #[inline(always)]
    pub fn link(&self, q: usize) -> &NodeLink {
        self.links[q].as_ref().expect("a wired port")
    }

    #[inline(always)]
    pub fn link_mut(&mut self, q: usize) -> &mut NodeLink {
        self.links[q].as_mut().expect("a wired port")
    }

    /// The router's inputs from this cycle's registers: intra-tile port t's from its driver
    /// (`intra(t)`), each wired inter-tile port's from its TCL (`router_side`). Only those are
    /// written: the router reads no others, so the rest of `ri` (with its configuration) is
    /// left as it is.
    #[inline(always)]
    pub fn router_in(&self, intra: impl Fn(usize) -> IntraIn, ri: &mut RouterIn) {
        for t in 0..self.router.p.n_intra as usize {
            ri.intra[t] = intra(t);
        }
        for (q, l) in self.links.iter().enumerate() {
            if let Some(l) = l {
                ri.inter[q] = router_side(&l.tcl.tx, &l.tcl.rx);
            }
        }
    }

    /// Port `q`'s TCL TX inputs (`TxIn::wire`): the credit update of its RX, its lane's ready
    /// (`tx_ready`: the lane's register of this cycle, which the caller may have read before
    /// the lane stepped), the occupancy of the router's RX FIFOs of the port and its TX FIFOs'
    /// heads (`heads`).
    #[inline(always)]
    pub fn tx_in(&self, q: usize, tx_ready: bool, heads: Heads) -> TxIn {
        let r = &self.router;
        let l = self.link(q);
        TxIn::wire(
            &l.tcl.rx,
            tx_ready,
            r.marked_inter_rx_units(q as u32),
            r.p.num_vcs as usize,
            |v| match heads {
                Heads::All => TxFifoView::of(r.inter_tx(q as u32, v as u32)),
                Heads::Shown => {
                    let slot = r.p.inter_slot(q as u32, v as u32);
                    let (hr, pr, _) = r.out_fifo_state(slot);
                    let f = (hr || pr).then(|| r.inter_tx(q as u32, v as u32));
                    TxFifoView {
                        hf_empty: !hr,
                        hf_rdata: f.filter(|_| hr).map_or(0, |f| f.hf.rdata()),
                        pay_empty: !pr,
                        pay_rdata: f.filter(|_| pr).map_or(0, |f| f.pay.rdata()),
                    }
                }
            },
        )
    }

    /// Port `q`'s lane's inputs: its TCL TX's output, with the bit errors `err_mask` of the
    /// beat it accepts.
    #[inline(always)]
    pub fn lane_in(&self, q: usize, cfg: PhyCfg, err_mask: u64) -> PhyIn {
        let tx = &self.link(q).tcl.tx;
        PhyIn {
            cfg,
            tx_valid: tx.out_valid,
            tx_data: tx.out_data,
            err_mask,
        }
    }

    /// `u_router` in the scope the caller opened, with inputs `ri`.
    pub fn probe_router(&self, ri: &RouterIn, v: &mut dyn Visitor) {
        v.enter("u_router");
        self.router.probe(ri, v);
        v.leave();
    }
}
