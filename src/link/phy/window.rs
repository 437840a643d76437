//! Model-only, no RTL twin: what a network-scale run needs of a lane besides its ports
//! (`net::engine`, `net::node`). The run advances each node through a whole window before the
//! next (the window no longer than the lane's latency), leaves an idle lane alone and catches
//! it up when it needs it again, and reads the beats a lane will present in the cycles ahead,
//! which its delay line already holds. None of this changes what a port shows.

use super::{PhyCfg, PhyLane};

impl PhyLane {
    /// Keep every beat for `cycles` cycles after it was presented, so that `out_at` and
    /// `beats_between` also answer for those past cycles. A network-scale run advances each
    /// node through a whole window before the next node (`Network`), so a lane may be ahead
    /// of the node reading it by up to a window (at most the latency). Nothing a port shows
    /// changes.
    pub fn keep_presented(&mut self, cycles: u64) {
        self.keep = cycles;
    }

    /// Append the beats presented in cycles `[t0, t1)` (in time order) to `out`: `t0` at
    /// least `now - keep`, `t1` at most `now` + latency.
    pub fn beats_between(&self, t0: u64, t1: u64, out: &mut Vec<(u64, u64)>) {
        // The beats are in time order, the ring's two slices one after the other: each
        // slice's run in [t0, t1) by two binary searches, copied as a block (a node reads
        // its neighbours' lanes once a window; an iterator over the ring cost a call a beat).
        let (a, b) = self.beats.as_slices();
        for s in [a, b] {
            let lo = s.partition_point(|x| x.0 < t0);
            let hi = s.partition_point(|x| x.0 < t1).max(lo);
            out.extend_from_slice(&s[lo..hi]);
        }
    }

    /// What `rx_valid_o`/`rx_data_o` will show `k` cycles from now (`k` < latency), whatever the
    /// lane accepts meanwhile: the delay line already holds it. A network split into partitions
    /// exchanges these at the start of each window.
    pub fn ahead(&self, k: usize) -> (bool, u64) {
        self.out_at(self.now + k as u64)
    }
    /// The first cycle at or after `t` in which a beat in flight is presented (`u64::MAX`:
    /// none).
    pub fn next_arrival(&self, t: u64) -> u64 {
        self.beats
            .iter()
            .find(|b| b.0 >= t)
            .map_or(u64::MAX, |b| b.0)
    }
    /// Cycles since reset.
    pub fn now(&self) -> u64 {
        self.now
    }
    /// No beat in flight.
    pub fn empty(&self) -> bool {
        self.beats.iter().all(|b| b.0 < self.now)
    }

    /// The first cycle at or after `t` in which `tx_ready_o` is high, with the run-time options
    /// `cfg` (a function of the cycle only: low before lane up and in the gearbox's and the
    /// clock compensation's pauses). A node whose TCL TX holds a beat the lane does not take
    /// sleeps until then (`net::node`).
    pub fn ready_from(&self, t: u64, cfg: PhyCfg) -> u64 {
        // (the register is low at reset; the pauses are short, so the walk is a few cycles)
        let mut t = t.max(self.p.lane_up_cycles as u64).max(1);
        while !self.ready_at(t, self.counters_at(t), cfg) {
            t += 1;
        }
        t
    }

    /// Advance to cycle `t` (>= `now`) over cycles in which nothing was accepted (`tx_valid_i`
    /// low, or `tx_ready_o` low) with the run-time options `cfg`: exactly what `t - now` cycles
    /// of `eval` and `commit` would do. A network-scale run leaves an idle lane alone and calls this when
    /// it needs the lane again.
    #[inline]
    pub fn catch_up(&mut self, t: u64, cfg: PhyCfg) {
        // (inline: called for every lane every cycle a node steps, and a lane stepped in the
        // last cycle has nothing to catch up)
        if t > self.now {
            self.jump(t, cfg);
        }
    }

    #[inline(never)]
    fn jump(&mut self, t: u64, cfg: PhyCfg) {
        self.now = t;
        (self.gb, self.cc) = self.counters_at(t);
        self.tx_ready = self.ready_at(t, (self.gb, self.cc), cfg);
        self.drop_old();
    }
}

#[cfg(test)]
mod tests {
    use super::super::{PhyCfg, PhyIn, PhyParams};
    use super::*;
    use crate::block::Block;

    #[test]
    fn beats_between_are_the_beats_presented_in_the_range_in_order() {
        // beats offered at random, the ring wrapping as old ones leave; every range against
        // a filter of the beats held
        let mut rng = rand_mt::Mt64::new(5);
        let mut l = PhyLane::reset(&PhyParams {
            latency: 8,
            gb_period: 32,
            cc_period: 4992,
            cc_len: 8,
            lane_up_cycles: 2,
        });
        l.keep_presented(6);
        let cfg = PhyCfg {
            gearbox_en: true,
            cc_en: true,
        };
        let mut seen = 0;
        for c in 0..600u64 {
            let i = PhyIn {
                cfg,
                tx_valid: !rng.next_u64().is_multiple_of(3),
                tx_data: c,
                err_mask: 0,
            };
            let n = l.eval(&i);
            l.commit(n);
            for t0 in c.saturating_sub(8)..c + 10 {
                for t1 in t0.saturating_sub(2)..c + 10 {
                    let mut got = Vec::new();
                    l.beats_between(t0, t1, &mut got);
                    let want: Vec<_> = l
                        .beats
                        .iter()
                        .copied()
                        .filter(|b| b.0 >= t0 && b.0 < t1)
                        .collect();
                    assert_eq!(got, want, "cycle {c}, [{t0}, {t1})");
                    seen += got.len();
                }
            }
        }
        assert!(seen > 10_000, "the ranges held beats");
    }

    #[test]
    fn ready_from_is_the_first_cycle_a_stepped_lane_shows_ready() {
        // a lane offered a beat every cycle, stepped: from every cycle, the first in which it
        // shows TX ready; and a copy caught up over the cycles that took nothing is the same
        for (gearbox_en, cc_en, up) in [(true, true, 20), (false, true, 0), (true, false, 3)] {
            let p = PhyParams {
                latency: 3,
                gb_period: 7,
                cc_period: 50,
                cc_len: 4,
                lane_up_cycles: up,
            };
            let cfg = PhyCfg { gearbox_en, cc_en };
            let mut l = PhyLane::reset(&p);
            let mut ready = Vec::new();
            let mut lanes = Vec::new();
            for c in 0..400u64 {
                ready.push(l.tx_ready());
                lanes.push(l.clone());
                let n = l.eval(&PhyIn {
                    cfg,
                    tx_valid: true,
                    tx_data: c,
                    err_mask: 0,
                });
                l.commit(n);
            }
            let mut waits = 0;
            for t in 0..300usize {
                let want = (t..).find(|&c| ready[c]).expect("ready within the run");
                assert_eq!(lanes[t].ready_from(t as u64, cfg), want as u64, "from {t}");
                waits += want - t;
                // the cycles t..want took nothing: catching up over them is stepping them
                let mut caught = lanes[t].clone();
                caught.catch_up(want as u64, cfg);
                let stepped = &lanes[want];
                assert_eq!(
                    (
                        caught.now,
                        caught.gb,
                        caught.cc,
                        caught.tx_ready,
                        &caught.beats
                    ),
                    (
                        stepped.now,
                        stepped.gb,
                        stepped.cc,
                        stepped.tx_ready,
                        &stepped.beats
                    ),
                    "from {t} to {want}"
                );
            }
            assert!(waits > 0, "some cycles were not ready");
        }
    }
}
