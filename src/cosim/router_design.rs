//! The router as a lockstep [`Design`]: the Rust [`Router`](crate::router::Router) with its test
//! bench against the Verilated `exanet_router_top`. Every port sends packets of 0..4 KB on random
//! VCs to random destinations of the lattice (a few outside it or to a missing port, which the
//! router must drop and count), every consumer applies alternating back-pressure, the credit
//! state presented for the links changes at random, and the arbiter mode and dimension order are
//! rewritten at run time.

use super::lockstep::{
    run_config_on, CosimError, CosimReport, Design, Options, Simulator, Stimulus,
};
use super::rtl::RtlTop;
use crate::block::Block;
use crate::config::Config;
use crate::counters::DepositSchedule;
use crate::probe::{clk_rst, Visitor};
use crate::router::bench::{PortStimulus, RouterBench};
use crate::router::params::{RouterCfg, RouterParams, MAX_DIMS};
use crate::router::{probe_cfg, RouterIn, GEN_IN};
use crate::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};
use rand_mt::Mt64;
use std::collections::BTreeMap;

/// Cycles between run-time register changes and credit-state changes (the constrained
/// stimulus: [`CHANGE_PERIOD_CONSTRAINED`]).
const CHANGE_PERIOD: u64 = 5000;
const CHANGE_PERIOD_CONSTRAINED: u64 = 1500;

/// The largest lattice side the constrained stimulus configures: other lattice sizes than
/// KARMA's 2x2.
const MAX_SIDE: u8 = 4;

/// Lattices of more places than this get a sample of destinations, not the whole list.
const MAX_LISTED: u64 = 64;

pub struct RouterDesign {
    pub bench: RouterBench,
    /// The Verilated top of the configuration's shape.
    top: RtlTop,
    last: RouterIn,
    rng: Mt64,
    order_changes: u64,
    arb_changes: u64,
    place_changes: u64,
    port_changes: u64,
    credit_changes: u64,
    stimulus: Stimulus,
    /// The constrained stimulus's resets during traffic (`link_design::next_reset`).
    next_reset: u64,
    reset_rng: Mt64,
    resets: u64,
    /// Packets in flight (sent, neither delivered nor dropped) at the resets.
    reset_lost: u64,
    /// The router's drop counters before its last reset.
    drops_before: u64,
    /// The deposits into the router's counters (constrained stimulus, decision 0044).
    deposits: DepositSchedule,
}

/// Full scope of the router in `exanet_router_top`.
const ROUTER_SCOPE: &str = "TOP.exanet_router_top.u_router";

/// The structure `exanet_router_top` is built with: KARMA's (the defaults) or one of the
/// network shapes (`shapes.rs`); the Verilated top of that structure. The router's run-time
/// configuration (coordinates, lattice, torus, order) is the test bench's input and may be
/// anything.
pub fn check_structural(cfg: &Config) -> Result<RtlTop, String> {
    super::shapes::of(cfg).map(|(_, router, _)| router)
}

/// Icarus compiles the modules at their default parameters: KARMA's shape only.
pub fn check_simulator(cfg: &Config, sim: Simulator) -> Result<(), String> {
    match (sim, super::shapes::of(cfg)?.0) {
        (Simulator::Icarus, Some(s)) => Err(format!(
            "--simulator icarus runs the RTL at its default parameters (the {} shape);              shape {} runs under Verilator",
            super::shapes::KARMA,
            s.name
        )),
        _ => Ok(()),
    }
}

/// Every destination of the lattice (all intra-tile ports; in a lattice of more than
/// [`MAX_LISTED`] places, a sample of them), plus one outside the lattice and one to a port that
/// does not exist.
fn destinations(p: &RouterParams, c: &RouterCfg) -> Vec<([u8; 3], u8)> {
    let mut d = Vec::new();
    let nodes: u64 = c.size.iter().map(|&s| u64::from(s.max(1))).product();
    if nodes <= MAX_LISTED {
        for z in 0..c.size[2] {
            for y in 0..c.size[1] {
                for x in 0..c.size[0] {
                    for port in 0..p.n_intra as u8 {
                        d.push(([x, y, z], port));
                    }
                }
            }
        }
    } else {
        // a large lattice: the router's own place (every port), its neighbours one step away
        // in each direction (wrapped) and a spread of places from a grid over the lattice
        let own = c.coord;
        for port in 0..p.n_intra as u8 {
            d.push((own, port));
        }
        for dim in 0..3 {
            let side = c.size[dim].max(1);
            for step in [1, side - 1] {
                let mut n = own;
                n[dim] = ((u16::from(own[dim]) + u16::from(step)) % u16::from(side)) as u8;
                d.push((n, 0));
            }
        }
        for k in 0..MAX_LISTED as u16 {
            let at = |dim: usize, salt: u16| {
                let side = u16::from(c.size[dim].max(1));
                ((k.wrapping_mul(salt) + k / 7) % side) as u8
            };
            d.push((
                [at(0, 37), at(1, 101), at(2, 173)],
                (k % 8) as u8 % p.n_intra as u8,
            ));
        }
    }
    d.push(([c.size[0], 0, 0], 0));
    d.push(([0, 0, 0], 7));
    d
}

impl RouterDesign {
    pub fn new(cfg: &Config) -> RouterDesign {
        RouterDesign::with_stimulus(cfg, Stimulus::Plain)
    }

    pub fn with_stimulus(cfg: &Config, stimulus: Stimulus) -> RouterDesign {
        let p = RouterParams::from_config(cfg);
        let c = RouterCfg::from_config(cfg);
        let seed = cfg.sim.seed;
        let dests = destinations(&p, &c);
        let port = |k: u64| PortStimulus {
            traffic: TrafficSpec::new(
                SizeDist::Uniform { min: 0, max: 4096 },
                p.num_vcs,
                p.size_in_words,
            )
            .to(dests.clone()),
            mode: SourceMode::Saturate,
            back_pressure: BackPressure::alternating(
                [0.1, 0.9],
                20_000,
                seed.wrapping_mul(31).wrapping_add(k),
            ),
            seed: seed.wrapping_mul(0x9E37_79B9).wrapping_add(k),
        };
        let intra = (0..p.n_intra as u64).map(port).collect();
        let inter = (0..p.inter.len() as u64).map(|q| port(100 + q)).collect();
        let mut bench = RouterBench::new(p, c, intra, inter);
        for s in bench.intra_src.iter_mut().chain(bench.inter_src.iter_mut()) {
            s.gen.set_corners(stimulus == Stimulus::Constrained);
        }
        let last = bench.inputs();
        let mut reset_rng = Mt64::new(seed ^ 0x7e5e7);
        RouterDesign {
            next_reset: super::link_design::next_reset(0, &mut reset_rng),
            reset_rng,
            resets: 0,
            reset_lost: 0,
            drops_before: 0,
            top: check_structural(cfg).unwrap_or(RtlTop::Router),
            bench,
            last,
            rng: Mt64::new(seed ^ 0x5eed),
            order_changes: 0,
            arb_changes: 0,
            place_changes: 0,
            port_changes: 0,
            credit_changes: 0,
            stimulus,
            deposits: DepositSchedule::new(cfg.sim.seed, super::link_design::DEPOSIT_GAP),
        }
    }

    /// Packets the router dropped since its last reset (its gates' counters, the deposits
    /// taken off).
    fn drops(&self) -> u64 {
        let r = &self.bench.router;
        r.ins
            .iter()
            .enumerate()
            .map(|(s, slot)| {
                let name = format!("{ROUTER_SCOPE}.{}.u_in.stat_drops_q", GEN_IN[s]);
                u64::from(
                    slot.gate
                        .stat_drops
                        .wrapping_sub(self.deposits.deposits.offset(&name)),
                )
            })
            .sum()
    }

    /// Test-bench registers that change now and then: run-time configuration and credit state.
    fn change(&mut self) {
        let b = &mut self.bench;
        let dims = b.router.p.dims as usize;
        let r = self.rng.next_u64();
        if r & 1 == 1 {
            b.cfg.arb_fixed = !b.cfg.arb_fixed;
            self.arb_changes += 1;
        }
        if r & 2 == 2 && dims > 1 {
            b.cfg.order[..dims].rotate_left(1);
            self.order_changes += 1;
        }
        // the router's place and its lattice (KARMA's node is (0, 0, 0) of a 2x2 mesh; a network
        // node sits anywhere, in a torus): every output's VCs carry traffic
        let constrained = self.stimulus == Stimulus::Constrained;
        if constrained && r & 0xc == 0xc {
            // mostly small lattices, one move in four a large one (sides up to 255: every
            // coordinate and size bit)
            let large = self.rng.next_u64().is_multiple_of(4);
            for d in 0..dims {
                let x = self.rng.next_u64();
                let side = if large { 255 } else { MAX_SIDE as u64 };
                b.cfg.size[d] = 1 + (x % side) as u8;
                b.cfg.coord[d] = ((x >> 8) % u64::from(b.cfg.size[d])) as u8;
            }
            b.cfg.torus = (self.rng.next_u64() & ((1 << dims) - 1)) as u8;
            // the fields of the dimensions the router lacks are the inputs' too, which it must
            // ignore (software may write any value there): any value, and a last order entry
            // that names no dimension of this router
            let junk = self.rng.next_u64();
            for d in dims..MAX_DIMS {
                b.cfg.size[d] = (junk >> (16 * (d - dims))) as u8;
                b.cfg.coord[d] = (junk >> (16 * (d - dims) + 8)) as u8;
            }
            if dims < MAX_DIMS {
                b.cfg.order[MAX_DIMS - 1] = (junk >> 48) as u8 & 3;
            }
            self.place_changes += 1;
            // the sources send into the new lattice (and, now and then, anywhere)
            let dests = destinations(&b.router.p, &b.cfg);
            for s in b.intra_src.iter_mut().chain(b.inter_src.iter_mut()) {
                s.gen.set_dests(dests.clone());
            }
        }
        // now and then a port disabled: its gate stops, packets routed to it are dropped
        if constrained && r & 0x30 == 0x30 {
            let (ni, nq) = (b.router.p.n_intra, b.router.p.inter.len());
            let x = self.rng.next_u64();
            // (with any value in the bits of ports the router does not have, which it ignores)
            let (no_intra, no_inter) = (!((1u32 << ni) - 1) as u8, !((1u32 << nq) - 1) as u8);
            b.cfg.intra_en = ((1u32 << ni) - 1) as u8 & !(1 << (x % u64::from(ni))) as u8
                | (x >> 16) as u8 & no_intra;
            b.cfg.inter_en = (((1u32 << nq) - 1) as u16
                & !(1 << ((x >> 8) % nq.max(1) as u64)) as u16)
                | u16::from((x >> 24) as u8 & no_inter);
            self.port_changes += 1;
        } else if constrained && r & 0x30 != 0 {
            b.cfg.intra_en = ((1u32 << b.router.p.n_intra) - 1) as u8;
            b.cfg.inter_en = ((1u32 << b.router.p.inter.len()) - 1) as u16;
        }
        // now and then the links' credit flavour and TRED as a Target Controller would give
        // them (TRED 1 to the receive FIFO's capacity less one, mostly small): the credit state
        // the inter-tile outputs see is the test bench's, so any setting is safe here
        if constrained && r & 0xc0 == 0xc0 {
            let x = self.rng.next_u64();
            let cap = b.router.p.inter_rx_fifo.pay_depth;
            b.cfg.usedword = x & 1 == 1;
            b.cfg.tred = if (x >> 1).is_multiple_of(4) {
                1 + (x >> 8) as u32 % (cap - 1)
            } else {
                1 + (x >> 8) as u32 % 128
            };
            self.credit_changes += 1;
        }
        let depth = b.router.p.inter_rx_fifo.pay_depth;
        for q in 0..b.credit_cnt.len() {
            for v in 0..8 {
                // mostly room, sometimes too little for a big packet
                let x = self.rng.next_u64();
                b.credit_cnt[q][v] = if x.is_multiple_of(4) {
                    (x >> 8) as u32 % depth
                } else {
                    depth
                };
            }
            b.credit_stop[q] = (self.rng.next_u64() & (self.rng.next_u64() & 0xff)) as u8;
        }
    }
}

/// `TOP.<name>` for each input of `exanet_router_top`.
fn router_inputs(p: &RouterParams) -> Vec<String> {
    let mut n: Vec<String> = [
        "cfg_coord_i",
        "cfg_size_i",
        "cfg_torus_i",
        "cfg_order_i",
        "cfg_intra_en_i",
        "cfg_inter_en_i",
        "cfg_arb_fixed_i",
        "cfg_usedword_i",
        "cfg_tred_i",
        "intra_wr_hf_i",
        "intra_wr_pay_i",
        "intra_rd_hf_i",
        "intra_rd_pay_i",
    ]
    .iter()
    .map(|s| format!("TOP.{s}"))
    .collect();
    for k in 0..p.n_intra {
        n.push(format!("TOP.intra_wdata_i[{k}]"));
    }
    if !p.inter.is_empty() {
        n.push("TOP.inter_wr_valid_i".into());
        n.push("TOP.inter_wr_hf_i".into());
    }
    for q in 0..p.inter.len() {
        for s in [
            "inter_wr_vc_i",
            "inter_wr_data_i",
            "inter_hf_rd_i",
            "inter_pay_rd_i",
            "inter_credit_cnt_i",
            "inter_credit_stop_i",
        ] {
            n.push(format!("TOP.{s}[{q}]"));
        }
    }
    n
}

/// Their values, in the same order.
fn router_input_values(p: &RouterParams, i: &RouterIn) -> Vec<u128> {
    let c = &i.cfg;
    let pack3 = |a: [u8; 3]| (a[0] as u128) | ((a[1] as u128) << 8) | ((a[2] as u128) << 16);
    let order = (c.order[0] as u128) | ((c.order[1] as u128) << 2) | ((c.order[2] as u128) << 4);
    let ni = p.n_intra as usize;
    let mask =
        |f: &dyn Fn(usize) -> bool, n: usize| (0..n).fold(0u128, |m, k| m | ((f(k) as u128) << k));
    let mut v = vec![
        pack3(c.coord),
        pack3(c.size),
        c.torus as u128,
        order,
        c.intra_en as u128,
        c.inter_en as u128,
        c.arb_fixed as u128,
        c.usedword as u128,
        c.tred as u128,
        mask(&|k| i.intra[k].wr_hf, ni),
        mask(&|k| i.intra[k].wr_pay, ni),
        mask(&|k| i.intra[k].rd_hf, ni),
        mask(&|k| i.intra[k].rd_pay, ni),
    ];
    for k in 0..ni {
        v.push(i.intra[k].wdata);
    }
    let nq = p.inter.len();
    if nq > 0 {
        v.push(mask(&|k| i.inter[k].wr_valid, nq));
        v.push(mask(&|k| i.inter[k].wr_hf, nq));
    }
    let nv = p.num_vcs as usize;
    for x in &i.inter[..nq] {
        v.extend([
            x.wr_vc as u128,
            x.wr_data,
            x.hf_rd as u128,
            x.pay_rd as u128,
            crate::link::tcl_tx::pack16(&x.credit_cnt[..nv]),
            x.credit_stop as u128,
        ]);
    }
    v
}

impl Design for RouterDesign {
    fn top(&self) -> RtlTop {
        self.top
    }

    fn view_kind(&self) -> Option<super::views::ViewKind> {
        let p = &self.bench.router.p;
        Some(super::views::ViewKind::Router {
            n_intra: p.n_intra,
            vcs: p.num_vcs,
        })
    }

    fn input_names(&self) -> Vec<String> {
        router_inputs(&self.bench.router.p)
    }

    fn input_values(&self) -> Vec<u128> {
        router_input_values(&self.bench.router.p, &self.bench.inputs())
    }

    fn step(&mut self) {
        self.last = self.bench.step();
        let period = match self.stimulus {
            Stimulus::Plain => CHANGE_PERIOD,
            Stimulus::Constrained => CHANGE_PERIOD_CONSTRAINED,
        };
        if self.bench.cycle.is_multiple_of(period) {
            self.change();
        }
    }

    /// The constrained stimulus resets the router during traffic (as the link's, every
    /// `link_design::RESET_GAP` to twice that cycles); its settings stay, the packets in
    /// flight are counted (`packets_reset_lost`).
    fn reset_now(&mut self) -> bool {
        if self.stimulus != Stimulus::Constrained || self.bench.cycle != self.next_reset {
            return false;
        }
        let drops = self.drops();
        let forgotten = self.bench.reset();
        match forgotten.checked_sub(drops) {
            Some(n) => self.reset_lost += n,
            None => self.bench.board.errors.push(format!(
                "reset at cycle {}: {drops} packets dropped but only {forgotten} outstanding",
                self.bench.cycle
            )),
        }
        self.drops_before += drops;
        self.deposits.reset();
        self.last = self.bench.inputs();
        self.resets += 1;
        self.next_reset = super::link_design::next_reset(self.bench.cycle, &mut self.reset_rng);
        true
    }

    /// The constrained stimulus deposits into the router's counters as the link's
    /// (`LinkDesign::deposits`, decision 0044).
    fn deposits(&mut self) -> Vec<(String, u32)> {
        if self.stimulus != Stimulus::Constrained {
            return Vec::new();
        }
        (self.deposits).step(self.bench.cycle, ROUTER_SCOPE, &mut self.bench.router)
    }

    fn probe(&self, after_edge: bool, v: &mut dyn Visitor) {
        let i = if after_edge {
            self.last
        } else {
            self.bench.inputs()
        };
        let r = &self.bench.router;
        v.enter("TOP");
        clk_rst(v);
        probe_cfg(&i.cfg, v);
        r.probe_ports(&i, v);
        v.enter("exanet_router_top");
        clk_rst(v);
        probe_cfg(&i.cfg, v);
        r.probe_ports(&i, v);
        v.enter("u_router");
        r.probe(&i, v);
        v.leave();
        v.leave();
        v.leave();
    }

    fn check(&self) -> Result<(), String> {
        match self.bench.board.errors.first() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn stats(&self) -> BTreeMap<String, u64> {
        let mut s = BTreeMap::from([
            ("packets_delivered".into(), self.bench.board.delivered),
            ("packets_dropped".into(), self.drops_before + self.drops()),
            ("arbiter_mode_changes".into(), self.arb_changes),
            ("dimension_order_changes".into(), self.order_changes),
            ("place_changes".into(), self.place_changes),
            ("port_enable_changes".into(), self.port_changes),
        ]);
        if self.stimulus == Stimulus::Constrained {
            s.insert("resets".into(), self.resets);
            s.insert("counter_deposits".into(), self.deposits.made);
            s.insert("credit_setting_changes".into(), self.credit_changes);
            s.insert("packets_reset_lost".into(), self.reset_lost);
        }
        s
    }

    fn inject_fault(&mut self) {
        self.bench.router.ins[0].gate.stat_words ^= 1;
    }

    fn fault_signal(&self) -> String {
        "TOP.exanet_router_top.u_router.gen_in[0].u_in.stat_words_q".into()
    }
}

/// Run the router against its RTL on `sim`: in lockstep under Verilator.
pub fn run_router(cfg: &Config, opts: &Options, sim: Simulator) -> Result<CosimReport, CosimError> {
    check_structural(cfg).map_err(CosimError::Setup)?;
    check_simulator(cfg, sim).map_err(CosimError::Setup)?;
    run_config_on(
        &mut RouterDesign::with_stimulus(cfg, opts.stimulus),
        cfg,
        opts,
        sim,
    )
}
