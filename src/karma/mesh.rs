//! The KARMA test bed's hardware (Biagioni 2017 §5.3.1, §5.4, Figure 5.13): four ExaNet Network IP
//! nodes (`src/node/`) on Trenz boards, wired as a 2x2 mesh by their APElinks, one SFP+ link per
//! neighbour.
//!
//! ```text
//!   (0,1) node 2 --port 0-- node 3 (1,1)    node k = x + 2y: gen_node[k].u_node
//!     |port 1                |port 1        inter-tile port 0: the X neighbour
//!   (0,0) node 0 --port 0-- node 1 (1,0)    inter-tile port 1: the Y neighbour
//! ```
//!
//! Each node's outgoing PHY lane q drives the neighbour's `link_in` q (a register output: the
//! wiring adds no combinational path). The test bench (the emulated ARM of each board,
//! `src/karma/arm.rs`) drives each node's register interface and processing-system ports and
//! sees the node's outputs through [`NodeOut`], whatever simulates the mesh: the Rust model here
//! or the Verilated `exanet_karma_top` (`src/karma/rtl_mesh.rs`), behind [`MeshBackend`].
//!
//! RTL twin: `testbench/rtl/exanet_karma_top.sv`.

use crate::block::Block;
use crate::config::Config;
use crate::node::target::RegReq;
use crate::node::{Node, NodeIn};
use crate::probe::{b, clk_rst, Visitor};
use crate::router::params::{Dir, MAX_INTRA};
use crate::router::IntraIn;
use crate::wave::{ProbedWave, WaveFormat};
use std::path::Path;

/// Nodes of the test bed.
pub const NODES: usize = 4;
/// Inter-tile ports of a node (X, Y).
pub const LINKS: usize = 2;

/// Coordinates of node `k`.
pub fn coord(k: usize) -> [u8; 3] {
    [(k % 2) as u8, (k / 2) as u8, 0]
}

/// The node at the other end of node `k`'s inter-tile port `q`.
pub fn neighbour(k: usize, q: usize) -> usize {
    k ^ (1 << q)
}

/// The test bench's inputs to one node in one cycle (registers of the emulated ARM and of the
/// error injectors).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeTbIn {
    pub reg: RegReq,
    pub ps: [IntraIn; MAX_INTRA],
    /// Bit errors on the node's outgoing lanes.
    pub err_mask: [u64; LINKS],
}

/// What the test bench sees of one node in a cycle (register outputs of the node).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeOut {
    pub reg_ack: bool,
    pub reg_rdata: u32,
    pub reg_err: bool,
    /// Bit p: intra-tile port p's RX header/footer (payload) FIFO is empty.
    pub ps_rx_hf_empty: u8,
    pub ps_rx_pay_empty: u8,
    pub ps_rx_hf_rdata: [u128; MAX_INTRA],
    pub ps_rx_pay_rdata: [u128; MAX_INTRA],
}

/// Internal registers the ping-pong measurement timestamps (the same registers in model and
/// RTL, by their RTL names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tap {
    /// Output slot `slot`'s write stage of node `node`: bit 0 `owr_valid_q`, bit 1 `owr_hf_q`.
    OutWrite { node: usize, slot: u32 },
    /// TCL RX `q`'s write into the router's RX FIFOs: bit 0 `wr_valid_q`, bit 1 `wr_hf_q`.
    RxWrite { node: usize, q: usize },
}

impl Tap {
    /// The registers' full names in `exanet_karma_top` (bit 0, bit 1).
    pub fn names(&self) -> [String; 2] {
        match *self {
            Tap::OutWrite { node, slot } => {
                let s = format!(
                    "TOP.exanet_karma_top.gen_node[{node}].u_node.u_router.gen_out[{slot}].u_out"
                );
                [format!("{s}.owr_valid_q"), format!("{s}.owr_hf_q")]
            }
            Tap::RxWrite { node, q } => {
                let s = format!(
                    "TOP.exanet_karma_top.gen_node[{node}].u_node.gen_link[{q}].u_tcl.u_rx"
                );
                [format!("{s}.wr_valid_q"), format!("{s}.wr_hf_q")]
            }
        }
    }
}

/// Whatever simulates the four nodes.
pub trait MeshBackend {
    /// One clock cycle with these test-bench inputs.
    fn step(&mut self, tb: &[NodeTbIn; NODES]);
    /// Node `k`'s outputs in the current cycle.
    fn out(&self, k: usize) -> NodeOut;
    /// The value of a tapped register pair (bit 0, bit 1) in the current cycle.
    fn tap(&self, t: Tap) -> u8;
    /// A failure the backend detected (an RTL assertion), if any.
    fn error(&self) -> Option<String> {
        None
    }
    /// Start writing every signal to a wave file at `path` in `format` (clock period
    /// `period_ps`), from the next cycle on.
    fn wave_open(&mut self, path: &Path, format: WaveFormat, period_ps: u64) -> Result<(), String>;
    /// Stop writing waves and close the file.
    fn wave_close(&mut self) -> Result<(), String>;
}

/// The test bed simulated by the Rust model.
pub struct Mesh {
    pub nodes: Vec<Node>,
    cycle: u64,
    wave: Option<(ProbedWave, u64)>,
    /// The first failure to write the waves (the waves stop there).
    wave_err: Option<String>,
}

/// The KARMA node: the default "3 x 2" node of a 2x2 mesh (decision 0008).
pub fn check_config(cfg: &Config) -> Result<(), String> {
    let r = &cfg.router;
    let ports_ok = r.inter_ports.len() == LINKS
        && r.inter_ports
            .iter()
            .enumerate()
            .all(|(q, p)| p.dim as usize == q && p.dir == Dir::Both);
    if !ports_ok || r.dims != 2 {
        return Err(
            "karma: the test bed is a 2x2 mesh: the router needs 2 dimensions and two inter-tile \
             ports, {dim 0, both} and {dim 1, both} (the default [router])"
                .into(),
        );
    }
    if cfg.node.lattice != [2, 2, 1] || cfg.node.torus != [false; 3] {
        return Err(
            "karma: the test bed is a 2x2 mesh: node.lattice must be [2, 2, 1] and no dimension \
             a torus"
                .into(),
        );
    }
    if !cfg.router.tx_only_ports.is_empty() {
        // the boards read intra-tile ports (the ping-pong's replies, the self-test's
        // Consumer) and the test bench watches their output slots: a port without its RX side
        // has none
        return Err(format!(
            "karma: router.tx_only_ports = {:?}: the test bed's intra-tile ports all receive \
             (KARMA's \"3 x 2\" router has no TX-only port); leave it empty",
            cfg.router.tx_only_ports
        ));
    }
    Ok(())
}

impl Mesh {
    /// Four nodes out of reset with the configuration's reset values (coordinates (0, 0): the
    /// software sets each node's coordinates through its registers).
    pub fn new(cfg: &Config) -> Result<Mesh, String> {
        check_config(cfg)?;
        Ok(Mesh {
            nodes: (0..NODES).map(|_| Node::reset(cfg)).collect(),
            cycle: 0,
            wave: None,
            wave_err: None,
        })
    }

    /// Node `k`'s inputs: the test bench's, and the neighbours' lanes.
    pub fn node_in(&self, k: usize, tb: &NodeTbIn) -> NodeIn {
        let mut i = NodeIn {
            reg: tb.reg,
            ps: tb.ps,
            ..Default::default()
        };
        for q in 0..LINKS {
            i.link_in[q] = self.nodes[neighbour(k, q)].link_out(q);
            i.err_mask[q] = tb.err_mask[q];
        }
        i
    }

    /// Every port and register of `exanet_karma_top`, under RTL names.
    pub fn probe(&self, tb: &[NodeTbIn; NODES], v: &mut dyn Visitor) {
        v.enter("TOP");
        self.probe_ports(tb, v);
        v.enter("exanet_karma_top");
        self.probe_ports(tb, v);
        for (k, n) in self.nodes.iter().enumerate() {
            v.enter(NODE_SCOPES[k]);
            v.enter("u_node");
            n.probe(&self.node_in(k, &tb[k]), v);
            v.leave();
            v.leave();
        }
        v.leave();
        v.leave();
    }

    fn probe_ports(&self, tb: &[NodeTbIn; NODES], v: &mut dyn Visitor) {
        clk_rst(v);
        let ni = self.nodes[0].p.router.n_intra as usize;
        let mask = |f: &dyn Fn(usize) -> bool| (0..ni).fold(0u128, |m, p| m | (f(p) as u128) << p);
        for (k, t) in tb.iter().enumerate() {
            let o = self.out(k);
            v.sig_idx("reg_wr_i", k, 1, b(t.reg.wr));
            v.sig_idx("reg_rd_i", k, 1, b(t.reg.rd));
            v.sig_idx("reg_addr_i", k, 12, t.reg.addr as u128);
            v.sig_idx("reg_wdata_i", k, 32, t.reg.wdata as u128);
            v.sig_idx("reg_ack_o", k, 1, b(o.reg_ack));
            v.sig_idx("reg_rdata_o", k, 32, o.reg_rdata as u128);
            v.sig_idx("reg_err_o", k, 1, b(o.reg_err));
            v.sig_idx("ps_wr_hf_i", k, ni as u32, mask(&|p| t.ps[p].wr_hf));
            v.sig_idx("ps_wr_pay_i", k, ni as u32, mask(&|p| t.ps[p].wr_pay));
            v.sig_idx("ps_rd_hf_i", k, ni as u32, mask(&|p| t.ps[p].rd_hf));
            v.sig_idx("ps_rd_pay_i", k, ni as u32, mask(&|p| t.ps[p].rd_pay));
            v.sig_idx("ps_rx_hf_empty_o", k, ni as u32, o.ps_rx_hf_empty as u128);
            v.sig_idx("ps_rx_pay_empty_o", k, ni as u32, o.ps_rx_pay_empty as u128);
            for p in 0..ni {
                let j = k * ni + p;
                v.sig_idx("ps_wdata_i", j, 128, t.ps[p].wdata);
                v.sig_idx("ps_rx_hf_rdata_o", j, 128, o.ps_rx_hf_rdata[p]);
                v.sig_idx("ps_rx_pay_rdata_o", j, 128, o.ps_rx_pay_rdata[p]);
            }
            for q in 0..LINKS {
                v.sig_idx("link_err_mask_i", k * LINKS + q, 64, t.err_mask[q] as u128);
            }
        }
    }
}

/// Generate scopes of the four nodes (each holds `u_node`).
pub const NODE_SCOPES: [&str; NODES] = ["gen_node[0]", "gen_node[1]", "gen_node[2]", "gen_node[3]"];

impl MeshBackend for Mesh {
    fn step(&mut self, tb: &[NodeTbIn; NODES]) {
        let mut wave = self.wave.take();
        if let Some((w, p)) = wave.as_mut() {
            // a failed write stops the waves; `wave_close` reports it
            if let Err(e) = w.sample(*p * self.cycle, false, |v| self.probe(tb, v)) {
                self.wave_err = Some(e);
                wave = None;
            }
        }
        let next: Vec<_> = (0..NODES)
            .map(|k| self.nodes[k].eval(&self.node_in(k, &tb[k])))
            .collect();
        for (n, x) in self.nodes.iter_mut().zip(next) {
            n.commit(x);
        }
        if let Some((w, p)) = wave.as_mut() {
            if let Err(e) = w.sample(*p * self.cycle + *p / 2, true, |v| self.probe(tb, v)) {
                self.wave_err = Some(e);
                wave = None;
            }
        }
        self.wave = wave;
        self.cycle += 1;
    }

    fn wave_open(&mut self, path: &Path, format: WaveFormat, period_ps: u64) -> Result<(), String> {
        let tb = [NodeTbIn::default(); NODES];
        let w = ProbedWave::create(path, format, |v| self.probe(&tb, v))?;
        self.wave = Some((w, period_ps));
        Ok(())
    }

    fn wave_close(&mut self) -> Result<(), String> {
        if let Some(e) = self.wave_err.take() {
            return Err(e);
        }
        match self.wave.take() {
            Some((w, _)) => w.finish(),
            None => Ok(()),
        }
    }

    fn out(&self, k: usize) -> NodeOut {
        let n = &self.nodes[k];
        let (reg_ack, reg_rdata, reg_err) = n.reg_response();
        let mut o = NodeOut {
            reg_ack,
            reg_rdata,
            reg_err,
            ..Default::default()
        };
        for p in 0..n.p.router.n_intra as usize {
            match n.dp.router.intra_rx(p as u32) {
                Some(f) => {
                    o.ps_rx_hf_empty |= (f.hf.empty() as u8) << p;
                    o.ps_rx_pay_empty |= (f.pay.empty() as u8) << p;
                    o.ps_rx_hf_rdata[p] = f.hf.rdata();
                    o.ps_rx_pay_rdata[p] = f.pay.rdata();
                }
                None => {
                    o.ps_rx_hf_empty |= 1 << p;
                    o.ps_rx_pay_empty |= 1 << p;
                }
            }
        }
        o
    }

    fn tap(&self, t: Tap) -> u8 {
        match t {
            Tap::OutWrite { node, slot } => {
                let r = &self.nodes[node].dp.router.outs[slot as usize]
                    .as_ref()
                    .expect("tapped output slots exist")
                    .r;
                r.owr_valid as u8 | (r.owr_hf as u8) << 1
            }
            Tap::RxWrite { node, q } => {
                let r = &self.nodes[node].dp.link(q).tcl.rx;
                r.wr_valid as u8 | (r.wr_hf as u8) << 1
            }
        }
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;

    #[test]
    fn a_tx_only_port_is_refused_naming_the_field() {
        let mut cfg = Config::default();
        check_config(&cfg).unwrap();
        cfg.router.tx_only_ports = vec![0];
        let e = check_config(&cfg).unwrap_err();
        assert!(e.contains("router.tx_only_ports"), "{e}");
    }
}
