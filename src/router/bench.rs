//! The router test bench: the router alone, with a packet source and a consumer on every port.
//! Intra-tile ports: the source writes the port's TX packet FIFO (as the processing system does),
//! the consumer drains its RX packet FIFO. Inter-tile ports: the source writes the RX packet
//! FIFOs one word a cycle as a TCL RX does, the consumer pops the TX packet FIFOs as a TCL TX
//! does, and the port's credit state says the neighbour's buffers are empty (so the VCT check
//! towards a link is limited by the words granted and not yet taken, `inflight_q`).
//!
//! Used by `exanet router latency`, the tests, and the router co-simulation.

use super::params::{RouterCfg, RouterParams};
use super::{InterIn, IntraIn, Router, RouterIn};
use crate::block::Block;
use crate::pktfifo::PktFifo;
use crate::probe::Visitor;
use crate::stimulus::{
    BackPressure, Consumer, PacketGen, RouteBoard, Source, SourceMode, TrafficSpec,
};

/// How one port is driven.
#[derive(Debug, Clone)]
pub struct PortStimulus {
    pub traffic: TrafficSpec,
    pub mode: SourceMode,
    pub back_pressure: BackPressure,
    pub seed: u64,
}

impl PortStimulus {
    /// No packets, no back-pressure.
    pub fn idle(num_vcs: u32) -> PortStimulus {
        PortStimulus {
            traffic: TrafficSpec::new(crate::stimulus::SizeDist::Fixed(0), num_vcs, false),
            mode: SourceMode::Idle,
            back_pressure: BackPressure::None,
            seed: 0,
        }
    }
}

pub struct RouterBench {
    pub router: Router,
    pub cfg: RouterCfg,
    pub intra_src: Vec<Source>,
    pub intra_con: Vec<Consumer>,
    pub inter_src: Vec<Source>,
    pub inter_con: Vec<Consumer>,
    /// Every packet sent anywhere, accounted for wherever it arrives.
    pub board: RouteBoard,
    /// The credit state the test bench presents for each inter-tile port (as its TCL TX would).
    pub credit_cnt: Vec<[u32; 8]>,
    pub credit_stop: Vec<u8>,
    pub cycle: u64,
    /// Clock the router with `eval` and `commit` instead of its in-place `step` (a test holds
    /// the two equal).
    pub pure: bool,
}

impl RouterBench {
    /// `intra[p]` drives intra-tile port p, `inter[q]` inter-tile port q.
    pub fn new(
        p: RouterParams,
        cfg: RouterCfg,
        intra: Vec<PortStimulus>,
        inter: Vec<PortStimulus>,
    ) -> RouterBench {
        assert_eq!(
            intra.len() as u32,
            p.n_intra,
            "one stimulus per intra-tile port"
        );
        assert_eq!(
            inter.len(),
            p.inter.len(),
            "one stimulus per inter-tile port"
        );
        let nv = p.num_vcs;
        let siw = p.size_in_words;
        let mk_src = |s: &PortStimulus, per_vc: bool, salt: u64| {
            let gen = PacketGen::with_base(s.traffic.clone(), s.seed ^ salt, salt << 24);
            let mut src = Source::new(gen, s.mode.clone(), per_vc);
            src.keep_packets = true;
            src
        };
        RouterBench {
            intra_src: intra
                .iter()
                .enumerate()
                .map(|(k, s)| mk_src(s, false, 1 + k as u64))
                .collect(),
            intra_con: intra
                .iter()
                .map(|s| Consumer::new(1, siw, s.back_pressure.clone()))
                .collect(),
            inter_src: inter
                .iter()
                .enumerate()
                .map(|(k, s)| mk_src(s, true, 0x100 + k as u64))
                .collect(),
            inter_con: inter
                .iter()
                .map(|s| Consumer::new(nv, siw, s.back_pressure.clone()))
                .collect(),
            board: RouteBoard::default(),
            credit_cnt: vec![[p.inter_rx_fifo.pay_depth; 8]; p.inter.len()],
            credit_stop: vec![0; p.inter.len()],
            router: Router::new(p),
            cfg,
            cycle: 0,
            pure: false,
        }
    }

    /// The router's inputs in this cycle (registers of the test bench).
    pub fn inputs(&self) -> RouterIn {
        let mut i = RouterIn {
            cfg: self.cfg,
            ..Default::default()
        };
        for (k, (s, c)) in self.intra_src.iter().zip(&self.intra_con).enumerate() {
            i.intra[k] = IntraIn {
                wr_hf: s.wr_hf != 0,
                wr_pay: s.wr_pay != 0,
                wdata: s.wdata,
                rd_hf: c.rd_hf != 0,
                rd_pay: c.rd_pay != 0,
            };
        }
        for (k, (s, c)) in self.inter_src.iter().zip(&self.inter_con).enumerate() {
            let bits = s.wr_hf | s.wr_pay;
            i.inter[k] = InterIn {
                wr_valid: bits != 0,
                wr_hf: s.wr_hf != 0,
                wr_vc: bits.trailing_zeros().min(7) as u8,
                wr_data: s.wdata,
                hf_rd: c.rd_hf,
                pay_rd: c.rd_pay,
                credit_cnt: self.credit_cnt[k],
                credit_stop: self.credit_stop[k],
            };
        }
        i
    }

    /// One cycle: the test bench's next state from the router's registers, then the router.
    pub fn step(&mut self) -> RouterIn {
        let i = self.inputs();
        let r = &self.router;
        let nv = r.p.num_vcs;
        for (k, s) in self.intra_src.iter_mut().enumerate() {
            s.step(self.cycle, &[r.intra_tx(k as u32)]);
        }
        for (k, c) in self.intra_con.iter_mut().enumerate() {
            if let Some(f) = r.intra_rx(k as u32) {
                c.step(self.cycle, &[f]);
            }
        }
        for (q, s) in self.inter_src.iter_mut().enumerate() {
            let f: Vec<&PktFifo> = (0..nv).map(|v| r.inter_rx(q as u32, v)).collect();
            s.step(self.cycle, &f);
        }
        for (q, c) in self.inter_con.iter_mut().enumerate() {
            let f: Vec<&PktFifo> = (0..nv).map(|v| r.inter_tx(q as u32, v)).collect();
            c.step(self.cycle, &f);
        }
        if self.pure {
            let n = self.router.eval(&i);
            self.router.commit(n);
        } else {
            self.router.step(&i);
        }
        self.account();
        self.cycle += 1;
        i
    }

    /// Take every delivered packet into the scoreboard.
    fn account(&mut self) {
        let srcs: Vec<&mut Source> = self
            .intra_src
            .iter_mut()
            .chain(self.inter_src.iter_mut())
            .collect();
        let mut srcs = srcs;
        for c in self.intra_con.iter_mut().chain(self.inter_con.iter_mut()) {
            while let Some(r) = c.done.pop_front() {
                self.board.check(&mut srcs, r);
            }
        }
    }

    /// The router's asynchronous reset during traffic, the test bench's registers with it
    /// (`Router::async_reset`, `Source::reset`, `Consumer::reset`); the settings and credit
    /// state the bench presents stay. Returns the packets sent and not yet delivered, now
    /// forgotten (those the router dropped since its last reset among them).
    pub fn reset(&mut self) -> u64 {
        self.router.async_reset();
        for c in self.intra_con.iter_mut().chain(self.inter_con.iter_mut()) {
            c.reset();
        }
        let mut forgotten = 0;
        for s in self.intra_src.iter_mut().chain(self.inter_src.iter_mut()) {
            s.reset();
            forgotten += s.forget_sent();
        }
        forgotten
    }

    pub fn run(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.step();
        }
    }

    /// Every signal of the router, under its RTL names, in the scope the caller opened.
    pub fn probe(&self, i: &RouterIn, v: &mut dyn Visitor) {
        self.router.probe(i, v);
    }
}
