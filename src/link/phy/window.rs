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
        let held: Vec<(u64, u64)> = self.held(0..u64::MAX).collect();
        self.keep = cycles;
        self.ring = vec![(super::NO_BEAT, 0); super::ring_len(self.p.latency, cycles)];
        for (at, d) in held {
            let s = self.slot(at);
            self.ring[s] = (at, d);
        }
    }

    /// Append the beats presented in cycles `[t0, t1)` (in time order) to `out`: `t0` at
    /// least `now - keep`, `t1` at most `now` + latency.
    pub fn beats_between(&self, t0: u64, t1: u64, out: &mut Vec<(u64, u64)>) {
        // (a node reads its neighbours' lanes once a window: a window's slots, in order)
        out.extend(self.held(t0..t1));
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
        self.held(t..u64::MAX).next().map_or(u64::MAX, |(at, _)| at)
    }
    /// Cycles since reset.
    pub fn now(&self) -> u64 {
        self.now
    }
    /// No beat in flight.
    pub fn empty(&self) -> bool {
        self.held(self.now..u64::MAX).next().is_none()
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
    /// of `eval` and `commit` would do. A network-scale run leaves an idle lane alone and calls
    /// this when it needs the lane again.
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
    }
}

#[cfg(test)]
mod tests {
    use super::super::{PhyCfg, PhyIn, PhyParams};
    use super::*;
    use crate::block::Block;

    #[test]
    fn beats_between_are_the_beats_presented_in_the_range_in_order() {
        // beats offered at random, the ring wrapping as old ones leave, some cycles caught up
        // over; every range against a list of the beats accepted, (cycle + latency, data),
        // within the cycles the lane answers for; `out_at`, `next_arrival` and `empty` too
        let mut rng = rand_mt::Mt64::new(5);
        for (latency, keep) in [(8u32, 6u64), (8, 0), (5, 11), (1, 1)] {
            let mut l = PhyLane::reset(&PhyParams {
                latency,
                gb_period: 32,
                cc_period: 4992,
                cc_len: 8,
                lane_up_cycles: 2,
            });
            l.keep_presented(keep);
            let cfg = PhyCfg {
                gearbox_en: true,
                cc_en: true,
            };
            let mut sent = Vec::new();
            let mut seen = 0;
            for c in 0..600u64 {
                if rng.next_u64().is_multiple_of(7) {
                    l.catch_up(l.now + 1 + rng.next_u64() % 4, cfg);
                }
                let now = l.now;
                let i = PhyIn {
                    cfg,
                    tx_valid: !rng.next_u64().is_multiple_of(3),
                    tx_data: c,
                    err_mask: 0,
                };
                if i.tx_valid && l.tx_ready() {
                    sent.push((now + latency as u64, c));
                }
                let n = l.eval(&i);
                l.commit(n);
                let span = (now + 1).saturating_sub(keep)..now + 1 + latency as u64;
                for t0 in now.saturating_sub(keep + 2)..now + 12 {
                    for t1 in t0.saturating_sub(2)..now + 12 {
                        let mut got = Vec::new();
                        l.beats_between(t0, t1, &mut got);
                        let want: Vec<_> = (sent.iter().copied())
                            .filter(|b| b.0 >= t0 && b.0 < t1 && span.contains(&b.0))
                            .collect();
                        assert_eq!(got, want, "cycle {c}, [{t0}, {t1})");
                        seen += got.len();
                    }
                    let want = sent.iter().find(|b| b.0 == t0 && span.contains(&b.0));
                    assert_eq!(l.out_at(t0), want.map_or((false, 0), |b| (true, b.1)));
                    let next = sent.iter().find(|b| b.0 >= t0 && span.contains(&b.0));
                    assert_eq!(l.next_arrival(t0), next.map_or(u64::MAX, |b| b.0));
                }
                assert_eq!(l.empty(), !sent.iter().any(|b| b.0 >= l.now));
                // a cut from a cycle on loses the beats held from then on, and only those
                let at = l.now + c % 3;
                let mut cut = l.clone();
                let lost = (sent.iter()).filter(|b| b.0 >= at && span.contains(&b.0));
                assert_eq!(cut.cut_from(at), lost.count() as u64);
                let mut left = Vec::new();
                cut.beats_between(0, u64::MAX, &mut left);
                let want: Vec<_> = (sent.iter().copied())
                    .filter(|b| b.0 < at && span.contains(&b.0))
                    .collect();
                assert_eq!(left, want);
            }
            assert!(seen > 1000, "the ranges held beats");
        }
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
                let (mut a, mut b) = (Vec::new(), Vec::new());
                caught.beats_between(0, u64::MAX, &mut a);
                stepped.beats_between(0, u64::MAX, &mut b);
                assert_eq!(
                    (caught.now, caught.gb, caught.cc, caught.tx_ready, a),
                    (stepped.now, stepped.gb, stepped.cc, stepped.tx_ready, b),
                    "from {t} to {want}"
                );
            }
            assert!(waits > 0, "some cycles were not ready");
        }
    }
}
