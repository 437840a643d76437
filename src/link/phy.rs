//! APEphy lane: an Aurora-64B/66B-like PHY, one direction of a full-duplex link.
//!
//! ```text
//!   tx_valid_i, tx_data_i --+--> [pipe_q[0]] -> [pipe_q[1]] -> ... -> [pipe_q[LATENCY-1]] --> rx_valid_o, rx_data_o
//!   err_mask_i ---- XOR ----+
//!   tx_ready_o <-- tx_ready_q  (low before lane up, one cycle in GB_PERIOD with the gearbox
//!                               pause on, CC_LEN cycles in every CC_PERIOD with clock compensation on)
//! ```
//!
//! Cycle contract: a beat accepted in cycle `c` (`tx_valid_i && tx_ready_o`) is presented at
//! `rx_valid_o` in cycle `c + LATENCY` (default 42, the Aurora latency the thesis measured,
//! Biagioni 2017 §5.3.4). The RX side has no back-pressure (as Aurora's RX user interface); cycles
//! with nothing accepted come out as idles (`rx_valid_o` low, data zero). Clock compensation
//! and gearbox pauses only lower TX ready; nothing else of the 64B/66B coding is modelled
//! (the coding's 3 % lives in the line rate, not in the user interface).
//!
//! Bit errors: `err_mask_i` is XORed into the accepted beat. The mask is produced by the test
//! bench ([`super::errors::BitErrorInjector`]), so the same errors reach the model and the RTL.
//!
//! RTL twin: `rtl/exanet_phy_lane.sv`.

use crate::block::Block;
use crate::probe::{b, clk_rst, Visitor};

mod window;

/// Structural parameters of a lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhyParams {
    pub latency: u32,
    pub gb_period: u32,
    pub cc_period: u32,
    pub cc_len: u32,
    pub lane_up_cycles: u32,
}

/// Run-time options (inputs of the RTL lane).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PhyCfg {
    pub gearbox_en: bool,
    pub cc_en: bool,
}

/// Inputs of one cycle.
#[derive(Debug, Clone, Copy, Default)]
pub struct PhyIn {
    pub cfg: PhyCfg,
    pub tx_valid: bool,
    pub tx_data: u64,
    pub err_mask: u64,
}

#[derive(Debug, Clone, Copy)]
pub struct PhyNext {
    tx_ready: bool,
    /// The beat accepted this cycle (bit errors applied).
    accept: Option<u64>,
}

/// The lane's registers. The counters (`up_cnt_q`, `gb_cnt_q`, `cc_cnt_q`) count every cycle
/// from reset, so they are functions of `now`, the cycles since reset; the delay line
/// (`pipe_q`) holds at most `LATENCY` beats, kept in a ring indexed by the cycle each is
/// presented at `rx_valid_o` (the RTL's shift register, seen from its output end). The same
/// registers as the RTL's (the probes show them stage by stage), in a form a network-scale run
/// can leave alone while the lane is idle (`catch_up`) and read at any cycle (`out_at`).
#[derive(Debug, Clone)]
pub struct PhyLane {
    p: PhyParams,
    /// Cycles since reset (commits so far).
    now: u64,
    /// The gearbox's and the clock compensation's counters (`gb_cnt_q`, `cc_cnt_q`): `now`
    /// modulo their periods, counted one a commit (no division in a cycle's step), set from
    /// `now` when the lane is brought to a later cycle at once (`catch_up`).
    gb: u32,
    cc: u32,
    tx_ready: bool,
    /// The beats in flight and those presented in the last `keep` cycles
    /// (`keep_presented`): slot `t % len` holds (t, data) for the beat presented in cycle `t`;
    /// a slot whose cycle is not `t` holds no beat for `t` (an older beat's, or `NO_BEAT`).
    /// Its length, a power of two, exceeds `latency + keep`, so the cycles a lane can answer
    /// for, `[now - keep, now + latency)`, each have a slot of their own. (A ring rather than
    /// a queue of the beats in flight: a commit writes one slot and reads none, where the
    /// queue read its oldest beat every cycle to drop it, a cache miss a cycle on a large
    /// network.)
    ring: Vec<(u64, u64)>,
    keep: u64,
}

/// The cycle of a ring slot that holds no beat (no cycle is this one).
const NO_BEAT: u64 = u64::MAX;

/// The ring's length for `latency` and `keep`.
fn ring_len(latency: u32, keep: u64) -> usize {
    (latency as u64 + keep + 1).next_power_of_two() as usize
}

impl PhyLane {
    pub fn params(&self) -> PhyParams {
        self.p
    }

    /// The ring's slot of cycle `t`.
    #[inline(always)]
    fn slot(&self, t: u64) -> usize {
        t as usize & (self.ring.len() - 1)
    }

    /// The cycles the lane answers for: `[now - keep, now + latency)`.
    fn span(&self) -> std::ops::Range<u64> {
        self.now.saturating_sub(self.keep)..self.now + self.p.latency as u64
    }

    /// The beats presented in the cycles of `range` within `span()`, in time order.
    fn held(&self, range: std::ops::Range<u64>) -> impl Iterator<Item = (u64, u64)> + '_ {
        let span = self.span();
        (range.start.max(span.start)..range.end.min(span.end)).filter_map(move |t| {
            let (at, d) = self.ring[self.slot(t)];
            (at == t).then_some((t, d))
        })
    }

    fn up_cnt(&self) -> u32 {
        self.now.min(self.p.lane_up_cycles as u64) as u32
    }
    fn gb_cnt(&self) -> u32 {
        self.gb
    }
    fn cc_cnt(&self) -> u32 {
        self.cc
    }

    /// The counters of cycle `t`, from `t` (after a jump).
    fn counters_at(&self, t: u64) -> (u32, u32) {
        let p = &self.p;
        (
            (t % p.gb_period as u64) as u32,
            (t % p.cc_period as u64) as u32,
        )
    }

    /// The counters one cycle on: each counts up and wraps at its period.
    fn counters_next(&self) -> (u32, u32) {
        let p = &self.p;
        let inc = |c: u32, period: u32| if c + 1 == period { 0 } else { c + 1 };
        (inc(self.gb, p.gb_period), inc(self.cc, p.cc_period))
    }

    /// TX ready in the cycle after `t - 1`, computed from the counters of `t`, `(gb, cc)`.
    fn ready_at(&self, t: u64, (gb, cc): (u32, u32), cfg: PhyCfg) -> bool {
        let p = &self.p;
        let up = t.min(p.lane_up_cycles as u64) as u32;
        let gb_pause = cfg.gearbox_en && gb == p.gb_period - 1;
        let cc_pause = cfg.cc_en && cc >= p.cc_period - p.cc_len;
        up == p.lane_up_cycles && !gb_pause && !cc_pause
    }

    /// Pipeline stage `s` (0 = newest): the beat accepted `s + 1` cycles ago.
    fn stage(&self, s: usize) -> (bool, u64) {
        let at = (self.now + self.p.latency as u64).checked_sub(1 + s as u64);
        match at {
            Some(at) => self.out_at(at),
            None => (false, 0),
        }
    }

    /// What `rx_valid_o`/`rx_data_o` show in cycle `t` (`t` at least `now - keep`, less than
    /// `now` + latency): a beat in flight presented then, or nothing.
    pub fn out_at(&self, t: u64) -> (bool, u64) {
        self.held(t..t.saturating_add(1))
            .next()
            .map_or((false, 0), |(_, d)| (true, d))
    }

    pub fn tx_ready(&self) -> bool {
        self.tx_ready
    }

    /// The lane is cut (a network run's fault, `net/faults.rs`): the beats in flight that
    /// would be presented from cycle `t` on are lost. Returns how many.
    pub fn cut_from(&mut self, t: u64) -> u64 {
        let lost: Vec<u64> = self.held(t..u64::MAX).map(|(at, _)| at).collect();
        for &at in &lost {
            let s = self.slot(at);
            self.ring[s].0 = NO_BEAT;
        }
        lost.len() as u64
    }
    pub fn lane_up(&self) -> bool {
        self.up_cnt() == self.p.lane_up_cycles
    }
    pub fn rx_valid(&self) -> bool {
        self.out_at(self.now).0
    }
    pub fn rx_data(&self) -> u64 {
        self.out_at(self.now).1
    }
}

impl Block for PhyLane {
    type Spec = PhyParams;
    type In<'a> = PhyIn;
    type Next = PhyNext;
    type Events = ();

    fn reset(p: &PhyParams) -> PhyLane {
        assert!(
            p.latency >= 1,
            "PHY latency must be validated before construction"
        );
        PhyLane {
            p: *p,
            now: 0,
            gb: 0,
            cc: 0,
            tx_ready: false,
            ring: vec![(NO_BEAT, 0); ring_len(p.latency, 0)],
            keep: 0,
        }
    }

    // (eval and commit inline: a node steps a lane every cycle it offers a beat)
    #[inline(always)]
    fn eval(&self, i: &PhyIn) -> PhyNext {
        let accept = i.tx_valid && self.tx_ready;
        PhyNext {
            tx_ready: self.ready_at(self.now + 1, self.counters_next(), i.cfg),
            accept: accept.then_some(i.tx_data ^ i.err_mask),
        }
    }

    #[inline(always)]
    fn commit(&mut self, n: PhyNext) {
        if let Some(d) = n.accept {
            let at = self.now + self.p.latency as u64;
            let s = self.slot(at);
            self.ring[s] = (at, d);
        }
        self.now += 1;
        (self.gb, self.cc) = self.counters_next();
        self.tx_ready = n.tx_ready;
    }

    fn probe(&self, i: &PhyIn, v: &mut dyn Visitor) {
        clk_rst(v);
        v.sig("cfg_gearbox_en_i", 1, b(i.cfg.gearbox_en));
        v.sig("cfg_cc_en_i", 1, b(i.cfg.cc_en));
        v.sig("tx_valid_i", 1, b(i.tx_valid));
        v.sig("tx_data_i", 64, i.tx_data as u128);
        v.sig("err_mask_i", 64, i.err_mask as u128);
        v.sig("tx_ready_o", 1, b(self.tx_ready));
        v.sig("rx_valid_o", 1, b(self.rx_valid()));
        v.sig("rx_data_o", 64, self.rx_data() as u128);
        v.sig("lane_up_o", 1, b(self.lane_up()));
        v.sig("up_cnt_q", 16, self.up_cnt() as u128);
        v.sig("gb_cnt_q", 16, self.gb_cnt() as u128);
        v.sig("cc_cnt_q", 16, self.cc_cnt() as u128);
        v.sig("tx_ready_q", 1, b(self.tx_ready));
        for s in 0..self.p.latency as usize {
            let (valid, data) = self.stage(s);
            v.sig_idx("pipe_valid_q", s, 1, b(valid));
            v.sig_idx("pipe_data_q", s, 64, data as u128);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(latency: u32, up: u32) -> PhyLane {
        PhyLane::reset(&PhyParams {
            latency,
            gb_period: 32,
            cc_period: 4992,
            cc_len: 8,
            lane_up_cycles: up,
        })
    }

    #[test]
    fn beat_accepted_at_c_appears_at_c_plus_latency() {
        for lat in [1u32, 2, 42] {
            let mut l = lane(lat, 0);
            // cycle 0: ready comes up at cycle 1 (registered)
            let n = l.eval(&PhyIn::default());
            l.commit(n);
            assert!(l.tx_ready());
            // cycle 1: send
            let n = l.eval(&PhyIn {
                tx_valid: true,
                tx_data: 0x1234,
                ..Default::default()
            });
            l.commit(n);
            for c in 2..1 + lat as u64 {
                assert!(!l.rx_valid(), "latency {lat}: nothing yet in cycle {c}");
                let n = l.eval(&PhyIn::default());
                l.commit(n);
            }
            assert!(l.rx_valid(), "latency {lat}: beat out at cycle 1 + {lat}");
            assert_eq!(l.rx_data(), 0x1234);
        }
    }

    #[test]
    fn gearbox_pause_one_cycle_in_32_and_cc_8_in_4992() {
        let mut l = lane(4, 0);
        let cfg = PhyCfg {
            gearbox_en: true,
            cc_en: true,
        };
        let mut low = Vec::new();
        for c in 1..=4 * 4992u32 {
            let n = l.eval(&PhyIn {
                cfg,
                ..Default::default()
            });
            l.commit(n);
            if !l.tx_ready() {
                low.push(c);
            }
        }
        // the gearbox takes cycle 31 of every 32; clock compensation the last 8 of every 4992
        assert!(low.contains(&31) && low.contains(&63) && !low.contains(&30) && !low.contains(&32));
        assert!(
            (4984..4992).all(|c| low.contains(&c)) && !low.contains(&4983) && !low.contains(&4992)
        );
        // 624 gearbox cycles + 32 CC cycles - 4 cycles that are both
        assert_eq!(low.len(), 652);
    }

    #[test]
    fn the_counters_are_the_cycle_modulo_their_periods_stepped_or_caught_up() {
        // counted one a commit, or set at a jump (`catch_up`, idle skipping): always the cycle
        // modulo the period, and TX ready what the counters of the cycle give
        let mut l = PhyLane::reset(&PhyParams {
            latency: 3,
            gb_period: 7,
            cc_period: 50,
            cc_len: 4,
            lane_up_cycles: 20,
        });
        let cfg = PhyCfg {
            gearbox_en: true,
            cc_en: true,
        };
        let mut rng = rand_mt::Mt64::new(5);
        for _ in 0..5000 {
            let x = rng.next_u64();
            if x.is_multiple_of(5) {
                l.catch_up(l.now + 1 + (x >> 8) % 90, cfg);
            } else {
                let n = l.eval(&PhyIn {
                    cfg,
                    ..Default::default()
                });
                l.commit(n);
            }
            assert_eq!(
                (l.gb_cnt(), l.cc_cnt()),
                ((l.now % 7) as u32, (l.now % 50) as u32)
            );
            let t = l.now;
            let paused = t % 7 == 6 || t % 50 >= 46;
            assert_eq!(l.tx_ready(), t >= 20 && !paused, "cycle {t}");
        }
    }

    #[test]
    fn lane_comes_up_after_configured_cycles() {
        let mut l = lane(3, 10);
        for c in 1..=10 {
            let n = l.eval(&PhyIn::default());
            l.commit(n);
            assert_eq!(l.tx_ready(), c == 10, "cycle {c}");
        }
    }
}
