//! Hop latency of the APElink (Biagioni 2017 §5.3.4, Figure 5.12): from the cycle the header is
//! written into the sender's inter-tile TX FIFO (`wr_i` high) to the cycle it is written into
//! the receiver's inter-tile RX FIFO (`wr_i` high at that FIFO), split at the stage boundaries
//! observed in the simulated registers:
//!
//! | part | from | to |
//! |---|---|---|
//! | FIFO (L_F) | TX FIFO `wr_i` with the header | TX FIFO not empty |
//! | TCL TX | TX FIFO not empty | header's last beat accepted by the PHY |
//! | PHY (L_W) | header's last beat accepted at TX | the same beat valid at RX |
//! | TCL RX | header's last beat valid at RX | RX FIFO `wr_i` with the header |
//!
//! Why the hop ends at the RX FIFO's write port and not at its not-empty flag: see
//! docs/decisions/0003-hop-latency-span.md. The not-empty time is reported too.
//!
//! The header can meet a credit that is due in the same cycle and wait behind it, so the
//! measurement injects one packet per phase of the credit period, each in a fresh link, and
//! reports the split of the fastest (no credit in the way) and the range over all phases.

use crate::config::Config;
use crate::link::bench::{EndStimulus, LinkBench};
use crate::link::errors::ErrorPlan;
use crate::link::LinkParams;
use crate::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};
use serde::Serialize;
use std::collections::VecDeque;

/// Cycle stamps of one header's journey.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HopStamps {
    pub tx_fifo_write: u64,
    pub tx_fifo_not_empty: u64,
    pub phy_tx_accept: u64,
    pub phy_rx_valid: u64,
    pub rx_fifo_write: u64,
    pub rx_fifo_not_empty: u64,
}

impl HopStamps {
    pub fn fifo(&self) -> u64 {
        self.tx_fifo_not_empty - self.tx_fifo_write
    }
    pub fn tcl_tx(&self) -> u64 {
        self.phy_tx_accept - self.tx_fifo_not_empty
    }
    pub fn phy(&self) -> u64 {
        self.phy_rx_valid - self.phy_tx_accept
    }
    pub fn tcl_rx(&self) -> u64 {
        self.rx_fifo_write - self.phy_rx_valid
    }
    pub fn total(&self) -> u64 {
        self.rx_fifo_write - self.tx_fifo_write
    }
}

/// The `exanet link latency` result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LatencyReport {
    pub fifo_cycles: u64,
    pub tcl_cycles: u64,
    pub tcl_tx_cycles: u64,
    pub tcl_rx_cycles: u64,
    pub phy_cycles: u64,
    pub total_cycles: u64,
    pub total_ns: f64,
    /// Header written at the receiver to its RX FIFO not empty (one more L_F).
    pub rx_fifo_not_empty_cycles: u64,
    /// Over all phases of the credit period: fastest and slowest hop.
    pub min_total_cycles: u64,
    pub max_total_cycles: u64,
    pub phases: u32,
    pub stamps: HopStamps,
}

/// Follow one packet sent from end A at `inject_at` (after lane up) through an idle link.
pub fn one_hop(cfg: &Config, inject_at: u64) -> Result<HopStamps, String> {
    let p = LinkParams::from_config(&cfg.link);
    let traffic = TrafficSpec {
        sizes: SizeDist::Fixed(64),
        num_vcs: 1,
        size_in_words: p.tcl.size_in_words,
        dests: Vec::new(),
    };
    let a = EndStimulus {
        traffic: traffic.clone(),
        mode: SourceMode::AtCycles(VecDeque::from(vec![inject_at])),
        back_pressure: BackPressure::None,
        seed: cfg.sim.seed,
    };
    let b = EndStimulus {
        traffic,
        mode: SourceMode::Idle,
        back_pressure: BackPressure::None,
        seed: cfg.sim.seed.wrapping_add(1),
    };
    let mut bench = LinkBench::new(
        p,
        a,
        b,
        ErrorPlan::of_lane(cfg, 0),
        ErrorPlan::of_lane(cfg, 1),
    );
    let limit = inject_at + 4 * (p.phy.latency as u64 + 64) + 1000;
    let mut header: Option<u128> = None;
    let mut s = HopStamps {
        tx_fifo_write: 0,
        tx_fifo_not_empty: 0,
        phy_tx_accept: 0,
        phy_rx_valid: 0,
        rx_fifo_write: 0,
        rx_fifo_not_empty: 0,
    };
    let mut seen = [false; 5];
    while bench.cycle < limit {
        let c = bench.cycle;
        let l = &bench.link;
        // Observe the registers of cycle c.
        if !seen[0] && bench.a.src.wr_hf != 0 {
            header = Some(bench.a.src.wdata);
            s.tx_fifo_write = c;
            seen[0] = true;
        }
        if let Some(h) = header {
            let hi = (h >> 64) as u64;
            let vc = (h & 7) as usize;
            let txf = &l.a.tx_fifos[vc].hf;
            if seen[0] && !seen[1] && !txf.empty() && txf.rdata() == h {
                s.tx_fifo_not_empty = c;
                seen[1] = true;
            }
            if seen[1]
                && !seen[2]
                && l.a.tx.out_valid
                && l.lane_ab.tx_ready()
                && l.a.tx.out_data == hi
            {
                s.phy_tx_accept = c;
                seen[2] = true;
            }
            if seen[2] && !seen[3] && l.lane_ab.rx_valid() && l.lane_ab.rx_data() == hi {
                s.phy_rx_valid = c;
                seen[3] = true;
            }
            if seen[3] && !seen[4] && l.b.rx.wr_valid && l.b.rx.wr_data == h {
                s.rx_fifo_write = c;
                seen[4] = true;
            }
            if seen[4] && !l.b.rx_fifos[vc].hf.empty() {
                s.rx_fifo_not_empty = c;
                return Ok(s);
            }
        }
        bench.step();
    }
    Err(format!("the header sent at cycle {inject_at} did not reach the receiver's RX FIFO within {limit} cycles"))
}

/// Hop latency over every phase of the credit period; the split is the fastest one's.
pub fn measure(cfg: &Config) -> Result<LatencyReport, String> {
    let period = cfg.link.credit.period_cycles as u64;
    let start = cfg.link.phy.lane_up_cycles as u64 + 2 * (cfg.link.phy.latency_cycles as u64) + 100;
    let mut all = Vec::new();
    for k in 0..period {
        all.push(one_hop(cfg, start + k)?);
    }
    let best = *all
        .iter()
        .min_by_key(|s| (s.total(), s.tx_fifo_write))
        .expect("at least one phase");
    let max = all
        .iter()
        .map(|s| s.total())
        .max()
        .expect("at least one phase");
    let clock = cfg.clock();
    Ok(LatencyReport {
        fifo_cycles: best.fifo(),
        tcl_cycles: best.tcl_tx() + best.tcl_rx(),
        tcl_tx_cycles: best.tcl_tx(),
        tcl_rx_cycles: best.tcl_rx(),
        phy_cycles: best.phy(),
        total_cycles: best.total(),
        total_ns: clock.ns(best.total() as f64),
        rx_fifo_not_empty_cycles: best.rx_fifo_not_empty - best.tx_fifo_write,
        min_total_cycles: best.total(),
        max_total_cycles: max,
        phases: period as u32,
        stamps: best,
    })
}
