//! The ExaNet Network IP node (Biagioni 2017 §5.3, §5.4, Figure 5.13, Table 5.5): the APErouter, one
//! APElink (TCL + outgoing PHY lane) per inter-tile port, the Target Controller, and the
//! self-test IPs (a Traffic Generator and a Consumer per intra-tile port, the Performance
//! Counter).
//!
//! ```text
//!   reg_* (AXI-lite-like) --> u_tc (Target Controller) --> configuration of everything below
//!   ps_* (processing system) --+--> u_router intra-tile port p <--+-- gen_st[p].u_gen (self-test)
//!                              +--< ...                         --+--> gen_st[p].u_cons
//!   link_in_* (neighbour lane) --> gen_link[q].u_tcl.u_rx --> u_router inter-tile port q
//!   link_out_* <-- gen_link[q].u_lane <-- gen_link[q].u_tcl.u_tx <-- u_router inter-tile port q
//! ```
//!
//! The outgoing PHY lane of each link belongs to the node that transmits on it; `link_out_*` is
//! what arrives at the neighbour, and the neighbour's lane drives `link_in_*`. On an intra-tile
//! port whose generator (consumer) is enabled in ST_GEN_EN (ST_CONS_EN), the generator writes
//! (the consumer reads) the port's FIFOs instead of the processing system.
//!
//! RTL twin: `rtl/exanet_node.sv`.

pub mod datapath;
pub mod regs;
pub mod selftest;
pub mod target;
pub mod top;

use crate::block::Block;
use crate::config::Config;
use crate::link::phy::{PhyCfg, PhyIn, PhyNext};
use crate::link::tcl::TclIn;
use crate::link::tcl_rx::{RxEvents, RxIn, TclRx};
use crate::link::tcl_tx::{TclCfg, TclParams, TclTx, TxEvents, TxIn};
use crate::link::LinkParams;
use crate::probe::{b, clk_rst, Visitor};
use crate::router::params::{RouterCfg, RouterParams, MAX_INTER, MAX_INTRA};
use crate::router::{IntraIn, RouterIn, RouterNext};
use datapath::{DataPath, Heads};
use regs::*;
use selftest::{
    ConsFifoIn, ConsIn, GenCfg, GenFifoIn, GenIn, PerfCounter, PerfIn, StConsumer, TrafficGen,
};
use target::{unpack3, unpack_order, RegReq, TargetCtrl, TcIn, TcParams};

/// A node's structure.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeParams {
    pub router: RouterParams,
    pub link: LinkParams,
    pub tc: TcParams,
}

impl NodeParams {
    pub fn from_config(c: &Config) -> NodeParams {
        let router = RouterParams::from_config(c);
        let link = LinkParams::from_config(&c.link);
        let tc = TcParams {
            dims: router.dims,
            n_intra: router.n_intra,
            n_inter: router.inter.len() as u32,
            num_vcs: router.num_vcs,
            rx_capacity: c.link.rx_fifo_depth_words,
        };
        NodeParams { router, link, tc }
    }
}

/// Everything a node sees from outside in a cycle (registers of whoever drives it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeIn {
    pub reg: RegReq,
    /// The processing system's side of each intra-tile port.
    pub ps: [IntraIn; MAX_INTRA],
    /// What arrives from each neighbour (its outgoing lane's output).
    pub link_in: [(bool, u64); MAX_INTER],
    /// Bit errors on each outgoing lane.
    pub err_mask: [u64; MAX_INTER],
}

pub struct Node {
    pub p: NodeParams,
    /// The router and every inter-tile port's link (`datapath.rs`; the co-simulated node wires
    /// every port).
    pub dp: DataPath,
    pub tc: TargetCtrl,
    pub gens: Vec<TrafficGen>,
    pub cons: Vec<StConsumer>,
    pub perf: PerfCounter,
}

pub struct NodeNext {
    router: RouterNext,
    tcl: Vec<((TclTx, TxEvents), (TclRx, RxEvents))>,
    lanes: Vec<PhyNext>,
    tc: TargetCtrl,
    gens: Vec<TrafficGen>,
    cons: Vec<StConsumer>,
    perf: PerfCounter,
}

/// Every sub-block's inputs in one cycle: values, all taken from the registers of this cycle
/// (`Node::inputs`) before any sub-block steps, so the sub-blocks may step one after another in
/// any order (`Node::step_in_order`).
struct NodeInputs {
    router: RouterIn,
    tx: Vec<TxIn>,
    rx: Vec<RxIn>,
    lanes: Vec<PhyIn>,
    /// The Target Controller's: the register request, the status read, the generators' busy.
    reg: RegReq,
    status: Option<u32>,
    busy: bool,
    /// The TCLs' configuration and the self-test's, from the Target Controller's registers.
    tcl_cfg: TclCfg,
    gen_cfg: GenCfg,
    /// The Target Controller's start pulse and the ST_GEN_EN / ST_CONS_EN masks.
    start: bool,
    gen_en: u32,
    cons_en: u32,
    gen_fifo: Vec<GenFifoIn>,
    /// None on a port without an RX FIFO.
    cons_fifo: Vec<Option<ConsFifoIn>>,
    expect: u32,
    consumed: u32,
}

/// A sub-block of the node: what `Node::step_in_order` steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeBlock {
    Router,
    Tcl(usize),
    Lane(usize),
    Tc,
    Gen(usize),
    Cons(usize),
    Perf,
}

/// Scope names of the link generate blocks (`gen_link[q]`), shared with the network node's probe.
pub const GEN_LINK: [&str; 64] = crate::gen_names!("gen_link");
const GEN_ST: [&str; 64] = crate::gen_names!("gen_st");

impl Node {
    /// The asynchronous reset of `exanet_node` (`rst_ni` low between two edges), `c` the
    /// configuration it was built from (the Target Controller's reset values are the RTL's
    /// parameters): every register to its reset value, the Target Controller's settings
    /// included; the FIFOs' block RAMs keep their contents (`Router::async_reset`).
    pub fn async_reset(&mut self, c: &Config) {
        self.dp.router.async_reset();
        for l in self.dp.links.iter_mut().flatten() {
            *l = datapath::NodeLink::reset(&self.p.link);
        }
        self.tc = TargetCtrl::reset(c);
        let ni = self.gens.len();
        self.gens = vec![TrafficGen::reset(&()); ni];
        self.cons = vec![StConsumer::reset(&()); ni];
        self.perf = PerfCounter::reset(&());
    }

    /// The router's run-time configuration, from the Target Controller's registers.
    pub fn router_cfg(&self) -> RouterCfg {
        let t = &self.tc;
        RouterCfg {
            coord: unpack3(t.coord),
            size: unpack3(t.lattice),
            torus: t.torus as u8,
            order: unpack_order(t.order),
            intra_en: t.port_en as u8,
            inter_en: (t.port_en >> 8) as u8 as u16,
            arb_fixed: t.arb_fixed,
            usedword: t.credit_mode & 1 == 1,
            tred: t.tred,
        }
    }

    /// The TCLs' run-time configuration.
    pub fn tcl_cfg(&self) -> TclCfg {
        let t = &self.tc;
        TclCfg {
            credit_period: t.credit_period,
            max_interval: t.max_interval,
            tred: t.tred,
            usedword: t.credit_mode & 1 == 1,
            after_pkt: t.credit_mode & 2 == 2,
            whole_pkt: t.credit_mode & 4 == 4,
        }
    }

    pub fn phy_cfg(&self) -> PhyCfg {
        PhyCfg {
            gearbox_en: self.tc.phy_ctrl & 1 == 1,
            cc_en: self.tc.phy_ctrl & 2 == 2,
        }
    }

    pub fn gen_cfg(&self) -> GenCfg {
        let t = &self.tc;
        GenCfg {
            pkt: t.st_pkt,
            dest: t.st_dest,
            count: t.st_count,
            coord: t.coord,
            size_in_words: self.p.router.size_in_words,
        }
    }

    /// What arrives at the neighbour on inter-tile port `q`.
    pub fn link_out(&self, q: usize) -> (bool, u64) {
        self.dp.link(q).out()
    }

    /// The value of status register `addr` (None if `addr` names none).
    pub fn status(&self, addr: u16) -> Option<u32> {
        let r = &self.dp.router;
        let sum =
            |f: &dyn Fn(usize) -> u32, n: usize| (0..n).fold(0u32, |a, k| a.wrapping_add(f(k)));
        let ni = self.p.router.n_intra as usize;
        let nslots = self.p.router.slots();
        match addr {
            DROPS => return Some(sum(&|s| r.ins[s].gate.stat_drops, nslots as usize)),
            PERF_CYCLES => return Some(self.perf.cycles),
            PERF_STATUS => return Some(self.perf.running as u32 | (self.perf.done as u32) << 1),
            ST_CONS_PKTS => return Some(sum(&|p| self.cons[p].pkts, ni)),
            ST_CONS_WORDS => return Some(sum(&|p| self.cons[p].words, ni)),
            ST_GEN_PKTS => return Some(sum(&|p| self.gens[p].sent, ni)),
            IRQ_STATUS => {
                return Some((0..ni).fold(0u32, |m, p| {
                    m | ((r.intra_rx(p as u32).is_some_and(|f| !f.hf.empty()) as u32) << p)
                }))
            }
            _ => {}
        }
        if (SLOT_BASE..SLOT_BASE + SLOT_STRIDE * MAX_SLOTS).contains(&addr) {
            let s = ((addr - SLOT_BASE) / SLOT_STRIDE) as u32;
            if s >= nslots {
                return None;
            }
            let g = &r.ins[s as usize];
            let o = r.outs[s as usize].as_ref();
            let level = |f: &crate::pktfifo::PktFifo| f.pay.usedw() | f.hf.usedw() << 16;
            return Some(match (addr - SLOT_BASE) % SLOT_STRIDE {
                0x00 => g.gate.stat_pkts,
                0x04 => g.gate.stat_words,
                0x08 => g.gate.stat_drops,
                0x0C => level(&g.fifo) & 0x3fff_ffff | (g.gate.drop_reason as u32) << 30,
                0x10 => o.map_or(0, |o| o.r.stat_pkts),
                0x14 => o.map_or(0, |o| o.r.stat_words),
                0x18 => o.map_or(0, |o| level(&o.fifo)),
                0x1C => 0,
                _ => return None,
            });
        }
        if (LINK_BASE..LINK_BASE + LINK_STRIDE * MAX_LINKS).contains(&addr) {
            let q = ((addr - LINK_BASE) / LINK_STRIDE) as usize;
            if q >= self.p.router.inter.len() {
                return None;
            }
            let l = self.dp.link(q);
            let (tx, rx) = (&l.tcl.tx, &l.tcl.rx);
            return Some(match (addr - LINK_BASE) % LINK_STRIDE {
                0x00 => l.lane.lane_up() as u32 | (tx.pkt as u32) << 1,
                0x04 => rx.stat_ecc_corr,
                0x08 => rx.stat_ecc_uncorr,
                0x0C => rx.stat_crc_err,
                0x10 => tx.stat_stall,
                0x14 => tx.stat_pkts,
                0x18 => rx.stat_pkts,
                0x1C => rx.stat_lost,
                0x20 => rx.stat_disc_hdr,
                0x24 => rx.stat_disc_framing,
                0x28 => rx.stat_disc_resync,
                0x2C => rx.stat_dropped,
                // the reserved registers, at their own addresses only (the RTL's decode)
                0x30 | 0x34 | 0x38 | 0x3C => 0,
                _ => return None,
            });
        }
        None
    }

    /// A self-test generator is active.
    pub fn st_busy(&self) -> bool {
        self.gens.iter().any(|g| g.active)
    }

    /// Packets the transfer being measured must deliver to the consumers.
    fn expect(&self) -> u32 {
        if self.tc.st_expect != 0 {
            self.tc.st_expect
        } else {
            self.tc
                .st_count
                .wrapping_mul(self.tc.st_gen_en.count_ones())
        }
    }

    fn inputs(&self, i: &NodeIn) -> NodeInputs {
        let rp = &self.p.router;
        let nq = rp.inter.len();
        let mut ri = RouterIn {
            cfg: self.router_cfg(),
            ..Default::default()
        };
        // an intra-tile port's driver: its generator (consumer) when enabled, else the PS; the
        // generator keeps the port while it finishes a packet after its enable clears
        // (decision 0043)
        let intra = |p: usize| {
            let (g, c) = (&self.gens[p], &self.cons[p]);
            let gen_owns = self.tc.st_gen_en & (1 << p) != 0 || g.active;
            let cons_on = self.tc.st_cons_en & (1 << p) != 0;
            let ps = &i.ps[p];
            IntraIn {
                wr_hf: if gen_owns { g.wr_hf } else { ps.wr_hf },
                wr_pay: if gen_owns { g.wr_pay } else { ps.wr_pay },
                wdata: if gen_owns { g.wdata } else { ps.wdata },
                rd_hf: if cons_on { c.rd_hf } else { ps.rd_hf },
                rd_pay: if cons_on { c.rd_pay } else { ps.rd_pay },
            }
        };
        let dp = &self.dp;
        dp.router_in(intra, &mut ri);
        let phy = self.phy_cfg();
        let tx = (0..nq)
            .map(|q| dp.tx_in(q, dp.link(q).lane.tx_ready(), Heads::All))
            .collect();
        let rx = (0..nq).map(|q| datapath::rx_in(i.link_in[q])).collect();
        let lanes = (0..nq).map(|q| dp.lane_in(q, phy, i.err_mask[q])).collect();
        let consumed = self.cons.iter().fold(0u32, |a, c| a.wrapping_add(c.pkts));
        let ni = rp.n_intra;
        NodeInputs {
            router: ri,
            tx,
            rx,
            lanes,
            reg: i.reg,
            status: self.status(i.reg.addr),
            busy: self.st_busy(),
            tcl_cfg: self.tcl_cfg(),
            gen_cfg: self.gen_cfg(),
            start: self.tc.st_start,
            gen_en: self.tc.st_gen_en,
            cons_en: self.tc.st_cons_en,
            gen_fifo: (0..ni)
                .map(|k| GenFifoIn::of(self.dp.router.intra_tx(k)))
                .collect(),
            cons_fifo: (0..ni)
                .map(|k| self.dp.router.intra_rx(k).map(ConsFifoIn::of))
                .collect(),
            expect: self.expect(),
            consumed,
        }
    }

    /// Every sub-block, in the order `eval` evaluates them.
    pub fn blocks(&self) -> Vec<NodeBlock> {
        let nq = self.p.router.inter.len();
        let ni = self.p.router.n_intra as usize;
        let mut v = vec![NodeBlock::Router];
        for q in 0..nq {
            v.extend([NodeBlock::Tcl(q), NodeBlock::Lane(q)]);
        }
        v.push(NodeBlock::Tc);
        v.extend((0..ni).map(NodeBlock::Gen));
        v.extend((0..ni).map(NodeBlock::Cons));
        v.push(NodeBlock::Perf);
        v
    }

    /// One cycle with the sub-blocks stepped in place one after another in `order` (each once;
    /// the router steps its slots in place, `Router::step`): the same registers as
    /// `commit(eval(i))` in any order, because every sub-block's inputs are taken before any
    /// steps (a test shuffles the order).
    pub fn step_in_order(&mut self, i: &NodeIn, order: &[NodeBlock]) {
        let ins = self.inputs(i);
        for &b in order {
            match b {
                NodeBlock::Router => {
                    self.dp.router.step(&ins.router);
                }
                NodeBlock::Tcl(q) => {
                    let p = self.p.link.tcl;
                    (self.dp.link_mut(q).tcl).step_in_place(&Self::tcl_in(&p, &ins, q));
                }
                NodeBlock::Lane(q) => {
                    self.dp.link_mut(q).lane.step_in_place(&ins.lanes[q]);
                }
                NodeBlock::Tc => self.tc = self.eval_tc(&ins),
                NodeBlock::Gen(k) => self.gens[k] = self.eval_gen(&ins, k),
                NodeBlock::Cons(k) => self.cons[k] = self.eval_cons(&ins, k),
                NodeBlock::Perf => self.perf = self.eval_perf(&ins),
            }
        }
    }

    /// TCL `q`'s inputs (`p`: the TCLs' parameters).
    fn tcl_in<'a>(p: &'a TclParams, ins: &'a NodeInputs, q: usize) -> TclIn<'a> {
        TclIn {
            p,
            cfg: &ins.tcl_cfg,
            tx: &ins.tx[q],
            rx: ins.rx[q],
        }
    }

    fn eval_tc(&self, ins: &NodeInputs) -> TargetCtrl {
        self.tc.eval(&self.tc_in(ins))
    }

    fn eval_gen(&self, ins: &NodeInputs, k: usize) -> TrafficGen {
        let on = ins.gen_en & (1 << k) != 0;
        self.gens[k].eval(&GenIn {
            port: k as u32,
            cfg: &ins.gen_cfg,
            start: ins.start,
            enabled: on,
            fifo: &ins.gen_fifo[k],
        })
    }

    fn eval_cons(&self, ins: &NodeInputs, k: usize) -> StConsumer {
        let on = ins.cons_en & (1 << k) != 0;
        match &ins.cons_fifo[k] {
            Some(f) => self.cons[k].eval(&ConsIn {
                start: ins.start,
                enabled: on,
                size_in_words: self.p.router.size_in_words,
                fifo: f,
            }),
            None => self.cons[k].clone(),
        }
    }

    fn eval_perf(&self, ins: &NodeInputs) -> PerfCounter {
        self.perf.eval(&Self::perf_in(ins))
    }

    fn tc_in<'a>(&'a self, ins: &NodeInputs) -> TcIn<'a> {
        TcIn {
            p: &self.p.tc,
            req: ins.reg,
            status: ins.status,
            busy: ins.busy,
        }
    }

    fn perf_in(ins: &NodeInputs) -> PerfIn {
        PerfIn {
            start: ins.start,
            consumed: ins.consumed,
            expect: ins.expect,
        }
    }

    /// The register response of this cycle (answering last cycle's request).
    pub fn reg_response(&self) -> (bool, u32, bool) {
        (self.tc.ack, self.tc.rdata, self.tc.err)
    }

    /// The ports of `exanet_node`.
    /// The ports the node shares with `exanet_node_top`: the register interface and the
    /// processing system's side of the intra-tile ports (strobes, write data, RX empty flags).
    pub fn probe_host_ports(&self, i: &NodeIn, v: &mut dyn Visitor) {
        let ni = self.p.router.n_intra as usize;
        v.sig("reg_wr_i", 1, b(i.reg.wr));
        v.sig("reg_rd_i", 1, b(i.reg.rd));
        v.sig("reg_addr_i", 12, i.reg.addr as u128);
        v.sig("reg_wdata_i", 32, i.reg.wdata as u128);
        v.sig("reg_ack_o", 1, b(self.tc.ack));
        v.sig("reg_rdata_o", 32, self.tc.rdata as u128);
        v.sig("reg_err_o", 1, b(self.tc.err));
        let mask = |f: &dyn Fn(usize) -> bool, n: usize| {
            (0..n).fold(0u128, |m, k| m | ((f(k) as u128) << k))
        };
        v.sig("ps_wr_hf_i", ni as u32, mask(&|k| i.ps[k].wr_hf, ni));
        v.sig("ps_wr_pay_i", ni as u32, mask(&|k| i.ps[k].wr_pay, ni));
        for k in 0..ni {
            v.sig_idx("ps_wdata_i", k, 128, i.ps[k].wdata);
        }
        v.sig("ps_rd_hf_i", ni as u32, mask(&|k| i.ps[k].rd_hf, ni));
        v.sig("ps_rd_pay_i", ni as u32, mask(&|k| i.ps[k].rd_pay, ni));
        let rx = |k: usize| self.dp.router.intra_rx(k as u32);
        v.sig(
            "ps_rx_hf_empty_o",
            ni as u32,
            mask(&|k| rx(k).is_none_or(|f| f.hf.empty()), ni),
        );
        v.sig(
            "ps_rx_pay_empty_o",
            ni as u32,
            mask(&|k| rx(k).is_none_or(|f| f.pay.empty()), ni),
        );
    }

    pub fn probe_ports(&self, i: &NodeIn, v: &mut dyn Visitor) {
        let rp = &self.p.router;
        let ni = rp.n_intra as usize;
        let nq = rp.inter.len();
        self.probe_host_ports(i, v);
        let rx = |k: usize| self.dp.router.intra_rx(k as u32);
        let mask = |f: &dyn Fn(usize) -> bool, n: usize| {
            (0..n).fold(0u128, |m, k| m | ((f(k) as u128) << k))
        };
        for k in 0..ni {
            v.sig_idx(
                "ps_rx_hf_rdata_o",
                k,
                128,
                rx(k).map_or(0, |f| f.hf.rdata()),
            );
            v.sig_idx(
                "ps_rx_pay_rdata_o",
                k,
                128,
                rx(k).map_or(0, |f| f.pay.rdata()),
            );
        }
        if nq > 0 {
            v.sig("link_in_valid_i", nq as u32, mask(&|q| i.link_in[q].0, nq));
            v.sig(
                "link_out_valid_o",
                nq as u32,
                mask(&|q| self.link_out(q).0, nq),
            );
        }
        for q in 0..nq {
            v.sig_idx("link_in_data_i", q, 64, i.link_in[q].1 as u128);
            v.sig_idx("link_err_mask_i", q, 64, i.err_mask[q] as u128);
            v.sig_idx("link_out_data_o", q, 64, self.link_out(q).1 as u128);
        }
    }
}

/// `exanet_node`: a block of blocks, every sub-block evaluated from this cycle's registers
/// before any commits.
impl Block for Node {
    type Spec = Config;
    type In<'a> = NodeIn;
    type Next = NodeNext;
    type Events = ();

    fn reset(c: &Config) -> Node {
        let p = NodeParams::from_config(c);
        let nq = p.router.inter.len();
        let ni = p.router.n_intra as usize;
        Node {
            dp: DataPath::reset(&p.router, &p.link, (1u64 << nq) - 1),
            tc: TargetCtrl::reset(c),
            gens: vec![TrafficGen::reset(&()); ni],
            cons: vec![StConsumer::reset(&()); ni],
            perf: PerfCounter::reset(&()),
            p,
        }
    }

    /// Next state of every block. Pure.
    fn eval(&self, i: &NodeIn) -> NodeNext {
        let ins = self.inputs(i);
        let ni = self.gens.len();
        NodeNext {
            router: self.dp.router.eval(&ins.router),
            tcl: (0..ins.tx.len())
                .map(|q| (self.dp.link(q).tcl).eval(&Self::tcl_in(&self.p.link.tcl, &ins, q)))
                .collect(),
            lanes: (ins.lanes.iter().enumerate())
                .map(|(q, li)| self.dp.link(q).lane.eval(li))
                .collect(),
            tc: self.eval_tc(&ins),
            gens: (0..ni).map(|k| self.eval_gen(&ins, k)).collect(),
            cons: (0..ni).map(|k| self.eval_cons(&ins, k)).collect(),
            perf: self.eval_perf(&ins),
        }
    }

    fn commit(&mut self, n: NodeNext) {
        self.dp.router.commit(n.router);
        for ((l, t), x) in self.dp.links.iter_mut().flatten().zip(n.tcl).zip(n.lanes) {
            l.tcl.commit(t);
            l.lane.commit(x);
        }
        self.tc = n.tc;
        self.gens = n.gens;
        self.cons = n.cons;
        self.perf = n.perf;
    }

    /// Every port and register of `exanet_node`, under RTL names, in the scope the caller opened.
    fn probe(&self, i: &NodeIn, v: &mut dyn Visitor) {
        let ins = self.inputs(i);
        let rp = &self.p.router;
        let ni = rp.n_intra as usize;
        let nq = rp.inter.len();
        clk_rst(v);
        self.probe_ports(i, v);
        v.enter("u_tc");
        self.tc.probe(&self.tc_in(&ins), v);
        v.leave();
        self.dp.probe_router(&ins.router, v);
        for (q, name) in GEN_LINK.iter().enumerate().take(nq) {
            v.enter(name);
            let (p, cfg) = (&self.p.link.tcl, &ins.tcl_cfg);
            (self.dp.link(q)).probe(p, cfg, &ins.tx[q], &ins.rx[q], &ins.lanes[q], v);
            v.leave();
        }
        let start = ins.start;
        for (p, name) in GEN_ST.iter().enumerate().take(ni) {
            v.enter(name);
            v.enter("u_gen");
            self.gens[p].probe(
                &GenIn {
                    port: p as u32,
                    cfg: &ins.gen_cfg,
                    start,
                    enabled: ins.gen_en & (1 << p) != 0,
                    fifo: &ins.gen_fifo[p],
                },
                v,
            );
            v.leave();
            if rp.has_output(p as u32) {
                v.enter("u_cons");
                let fifo = ins.cons_fifo[p]
                    .as_ref()
                    .expect("a port with an output has an RX FIFO");
                self.cons[p].probe(
                    &ConsIn {
                        start,
                        enabled: ins.cons_en & (1 << p) != 0,
                        size_in_words: rp.size_in_words,
                        fifo,
                    },
                    v,
                );
                v.leave();
            }
            v.leave();
        }
        v.enter("u_perf");
        self.perf.probe(&Self::perf_in(&ins), v);
        v.leave();
    }
}

impl crate::counters::Counters for Node {
    /// The Target Controller's, the router's, every link's TCL's and the performance counter's
    /// counters, under the scopes of the node's probe. (Not the self-test generators' and
    /// consumers': their counts decide when a test ends.)
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.enter("u_tc");
        self.tc.counters(v);
        v.leave();
        v.enter("u_router");
        self.dp.router.counters(v);
        v.leave();
        for (q, name) in GEN_LINK.iter().enumerate().take(self.p.router.inter.len()) {
            v.enter(name);
            v.enter("u_tcl");
            let tcl = &mut self.dp.link_mut(q).tcl;
            crate::link::tcl::counters_halves(&mut tcl.tx, &mut tcl.rx, v);
            v.leave();
            v.leave();
        }
        v.enter("u_perf");
        self.perf.counters(v);
        v.leave();
    }
}
