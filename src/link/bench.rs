//! The link test bench: the link plus a source and a consumer at each end and a bit-error
//! injector on each lane, all clocked together. Used by the measurements, the tests and the
//! co-simulation (which drives the same test-bench inputs into the RTL).
//!
//! Per cycle: the test bench's registers give the link's inputs; the test-bench blocks
//! compute their next state from the link's registers of this cycle; then the link steps.

use super::errors::{BitErrorInjector, ErrorPlan};
use super::system::{EndTbIn, Link, LinkEnd, LinkEvents, LinkParams, LinkTbIn};
use crate::pktfifo::PktFifo;
use crate::probe::{Declarer, Sampler};
use crate::stimulus::{
    BackPressure, Consumer, PacketGen, Scoreboard, Source, SourceMode, TrafficSpec,
};
use crate::wave::{SignalDecl, WaveFormat, WaveSink};

/// One end's test-bench blocks.
#[derive(Debug, Clone)]
pub struct EndBench {
    pub src: Source,
    pub con: Consumer,
    /// Accounts for the packets this end's source sends (delivered at the other end).
    pub board: Scoreboard,
}

/// How one end is driven.
#[derive(Debug, Clone)]
pub struct EndStimulus {
    pub traffic: TrafficSpec,
    pub mode: SourceMode,
    pub back_pressure: BackPressure,
    pub seed: u64,
}

pub struct LinkBench {
    pub link: Link,
    pub a: EndBench,
    pub b: EndBench,
    pub inj_ab: BitErrorInjector,
    pub inj_ba: BitErrorInjector,
    pub cycle: u64,
    wave: Option<Wave>,
    /// The first error writing the waves (they stop there; `close_wave` reports it).
    wave_error: Option<String>,
    /// When set, the link's blocks step in place (each evaluated and committed in turn) in a
    /// fresh random order every cycle (the clock rule says the order cannot matter; a test
    /// checks it).
    shuffle: Option<rand_mt::Mt64>,
}

struct Wave {
    writer: WaveSink,
    sampler: Sampler,
    period_ps: u64,
}

fn end_tb(e: &EndBench) -> EndTbIn {
    EndTbIn {
        tx_wr_hf: e.src.wr_hf,
        tx_wr_pay: e.src.wr_pay,
        tx_wdata: e.src.wdata,
        rx_rd_hf: e.con.rd_hf,
        rx_rd_pay: e.con.rd_pay,
    }
}

fn end_bench(p: &LinkParams, s: EndStimulus) -> EndBench {
    EndBench {
        src: Source::new(PacketGen::new(s.traffic, s.seed), s.mode, true),
        con: Consumer::new(p.tcl.num_vcs, p.tcl.size_in_words, s.back_pressure),
        board: Scoreboard::new(p.tcl.num_vcs, p.tcl.size_in_words),
    }
}

impl LinkBench {
    pub fn new(
        p: LinkParams,
        a: EndStimulus,
        b: EndStimulus,
        ab: ErrorPlan,
        ba: ErrorPlan,
    ) -> LinkBench {
        LinkBench {
            a: end_bench(&p, a),
            b: end_bench(&p, b),
            link: Link::new(p),
            inj_ab: BitErrorInjector::new(ab),
            inj_ba: BitErrorInjector::new(ba),
            cycle: 0,
            wave: None,
            wave_error: None,
            shuffle: None,
        }
    }

    /// Visit the link's blocks in a random order, drawn every cycle from `seed`.
    pub fn shuffle_blocks(&mut self, seed: u64) {
        self.shuffle = Some(rand_mt::Mt64::new(seed));
    }

    /// The test bench's outputs (the link's inputs) in this cycle.
    pub fn tb_inputs(&self) -> LinkTbIn {
        LinkTbIn {
            a: end_tb(&self.a),
            b: end_tb(&self.b),
            ab_err_mask: self.inj_ab.mask(),
            ba_err_mask: self.inj_ba.mask(),
        }
    }

    fn step_end(cycle: u64, e: &mut EndBench, end: &LinkEnd) {
        let tx: Vec<&PktFifo> = end.tx_fifos.iter().collect();
        let rx: Vec<&PktFifo> = end.rx_fifos.iter().collect();
        e.src.step(cycle, &tx);
        e.con.step(cycle, &rx);
    }

    /// One cycle: test bench and link together. Returns the link's events and the inputs used.
    pub fn step(&mut self) -> (LinkEvents, LinkTbIn) {
        let tb = self.tb_inputs();
        if self.wave.is_some() {
            self.sample(&tb, false);
        }
        let acc_ab = self.link.a.tx.out_valid && self.link.lane_ab.tx_ready();
        let acc_ba = self.link.b.tx.out_valid && self.link.lane_ba.tx_ready();
        Self::step_end(self.cycle, &mut self.a, &self.link.a);
        Self::step_end(self.cycle, &mut self.b, &self.link.b);
        self.inj_ab
            .commit_beat(acc_ab, Some(self.link.a.tx.out_data));
        self.inj_ba
            .commit_beat(acc_ba, Some(self.link.b.tx.out_data));
        let ev = match self.shuffle.as_mut() {
            None => self.link.step(&tb),
            Some(rng) => {
                let mut order = self.link.blocks();
                crate::block::shuffle(&mut order, rng);
                self.link.step_in_order(&tb, &order)
            }
        };
        if self.wave.is_some() {
            self.sample(&tb, true);
        }
        // A's source is delivered at B's consumer, and the other way round.
        self.a.board.update(&mut self.a.src, &mut self.b.con);
        self.b.board.update(&mut self.b.src, &mut self.a.con);
        self.cycle += 1;
        (ev, tb)
    }

    /// The link's asynchronous reset during traffic, the test bench's registers with it
    /// (`Link::async_reset`, `Source::reset`, `Consumer::reset`): the packets in flight in either
    /// direction are counted in the scoreboards' `reset_lost`.
    pub fn reset(&mut self) {
        self.link.async_reset();
        for e in [&mut self.a, &mut self.b] {
            e.src.reset();
            e.con.reset();
        }
        self.a.board.reset(&mut self.a.src);
        self.b.board.reset(&mut self.b.src);
    }

    pub fn run(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.step();
        }
    }

    /// Write the link's waves (model side) to the VCD file `path` from now on.
    pub fn open_wave(&mut self, path: &std::path::Path, period_ps: u64) -> Result<(), String> {
        self.open_wave_as(path, WaveFormat::Vcd, period_ps)
    }

    /// Write the link's waves (model side) to `path` in `format` from now on.
    pub fn open_wave_as(
        &mut self,
        path: &std::path::Path,
        format: WaveFormat,
        period_ps: u64,
    ) -> Result<(), String> {
        let decls = signal_decls(&self.link, &self.tb_inputs());
        let writer = WaveSink::create(path, format, 1, &decls).map_err(|e| e.to_string())?;
        self.wave = Some(Wave {
            writer,
            sampler: Sampler::default(),
            period_ps,
        });
        Ok(())
    }

    fn sample(&mut self, tb: &LinkTbIn, after_edge: bool) {
        let w = self
            .wave
            .as_mut()
            .expect("sample is only called with a wave open");
        w.sampler.clear();
        w.sampler.clk = after_edge;
        self.link.probe(tb, &mut w.sampler);
        let t = w.period_ps * self.cycle + if after_edge { w.period_ps / 2 } else { 0 };
        if let Err(e) = w.writer.sample(t, &w.sampler.values) {
            self.wave_error = Some(e.to_string());
            self.wave = None;
        }
    }

    /// Finish the wave file, if one is open; an error if writing it failed at any point.
    pub fn close_wave(&mut self) -> Result<(), String> {
        if let Some(e) = self.wave_error.take() {
            return Err(format!("writing waves: {e}"));
        }
        if let Some(w) = self.wave.take() {
            w.writer.finish().map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// Names and widths of every probed signal of the link.
pub fn signal_decls(link: &Link, tb: &LinkTbIn) -> Vec<SignalDecl> {
    let mut d = Declarer::default();
    link.probe(tb, &mut d);
    d.names
        .into_iter()
        .map(|(path, width)| SignalDecl { path, width })
        .collect()
}
