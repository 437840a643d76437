//! The demonstration run behind `exanet demo`: a few packets each way across an idle link,
//! with the model's waves written to a VCD.

use super::bench::{EndStimulus, LinkBench};
use super::errors::ErrorPlan;
use super::LinkParams;
use crate::config::Config;
use crate::stimulus::{BackPressure, SizeDist, SourceMode, TrafficSpec};
use crate::wave::WaveFormat;
use std::path::Path;

/// Sends four packets from A and two from B after lane up, writes the waves of the whole run
/// to `vcd` (a VCD file), and returns how many packets were delivered.
pub fn write_demo_vcd(cfg: &Config, vcd: &Path) -> Result<u64, String> {
    write_demo_wave(cfg, vcd, WaveFormat::Vcd)
}

/// [`write_demo_vcd`] in either wave format.
pub fn write_demo_wave(cfg: &Config, vcd: &Path, format: WaveFormat) -> Result<u64, String> {
    let p = LinkParams::from_config(&cfg.link);
    let t0 = cfg.link.phy.lane_up_cycles as u64 + 20;
    // payload bytes; the header's size field counts words with `link.size_in_words`
    let unit = |b: u32| {
        if p.tcl.size_in_words {
            b.div_ceil(16)
        } else {
            b
        }
    };
    let spec = |min, max| TrafficSpec {
        sizes: SizeDist::Uniform {
            min: unit(min),
            max: unit(max),
        },
        num_vcs: p.tcl.num_vcs,
        size_in_words: p.tcl.size_in_words,
        dests: Vec::new(),
    };
    let a = EndStimulus {
        traffic: spec(16, 128),
        mode: SourceMode::AtCycles([t0, t0 + 1, t0 + 2, t0 + 60].into_iter().collect()),
        back_pressure: BackPressure::None,
        seed: cfg.sim.seed,
    };
    let b = EndStimulus {
        traffic: spec(16, 64),
        mode: SourceMode::AtCycles([t0 + 10, t0 + 11].into_iter().collect()),
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
    bench.open_wave_as(vcd, format, cfg.clock().period_ps())?;
    let end = t0 + 60 + 4 * cfg.link.phy.latency_cycles as u64 + 200;
    bench.run(end);
    bench.close_wave()?;
    let delivered = bench.a.board.delivered + bench.b.board.delivered;
    if delivered != 6 {
        return Err(format!("demo: {delivered} of 6 packets delivered"));
    }
    Ok(delivered)
}
