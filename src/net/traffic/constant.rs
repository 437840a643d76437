//! Constant packet number injection (Pisani 2016 §3.4.5 "uniform constant packet number
//! injector"): an endpoint generates `initial` packets at the start, then one new packet
//! each time a packet is delivered to it, which mimics an application that sends after it
//! receives and keeps the number of packets in flight in the whole network constant (every
//! delivery, anywhere, is answered by exactly one new packet at the receiver).
//!
//! Cycle contract: the first `tick` (cycle 0 in the engine) returns `initial`; a packet
//! delivered in cycle `c` adds one packet to the first `tick` of a cycle after `c` (cycle
//! `c + 1` when ticked every cycle), whether `delivered(c)` is called before or after
//! `tick(c)`, so the order in which the engine visits endpoints changes nothing. No random
//! draw (destinations and sizes are drawn by the pattern and the size distribution).

use super::Injector;
use rand_mt::Mt64;
use std::collections::VecDeque;

/// `initial` packets at the first tick, then one a delivery to this endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantPacketNumber {
    initial: u32,
    started: bool,
    /// Deliveries not answered yet: (cycle, how many), by increasing cycle. The engine reports
    /// deliveries in cycle order and ticks every cycle, so this holds one or two entries.
    pending: VecDeque<(u64, u32)>,
}

impl ConstantPacketNumber {
    /// `initial` packets at the first tick (0 is allowed: the endpoint then only answers
    /// deliveries, of which there will be none unless others send to it).
    pub fn new(initial: u32) -> ConstantPacketNumber {
        ConstantPacketNumber {
            initial,
            started: false,
            pending: VecDeque::new(),
        }
    }

    /// The packets generated at the first tick.
    pub fn initial(&self) -> u32 {
        self.initial
    }

    /// Deliveries not answered yet.
    pub fn pending(&self) -> u32 {
        self.pending.iter().map(|&(_, n)| n).sum()
    }
}

impl Injector for ConstantPacketNumber {
    fn tick(&mut self, cycle: u64, _rng: &mut Mt64) -> u32 {
        let mut n = 0;
        if !self.started {
            self.started = true;
            n += self.initial;
        }
        while let Some(&(c, k)) = self.pending.front() {
            if c >= cycle {
                break;
            }
            n += k;
            self.pending.pop_front();
        }
        n
    }

    fn delivered(&mut self, cycle: u64) {
        // Usually the last entry's cycle or a later one; an earlier cycle (which the engine does
        // not report) still finds its place, so no delivery is lost or answered early.
        let i = self.pending.partition_point(|&(c, _)| c < cycle);
        match self.pending.get_mut(i) {
            Some((c, k)) if *c == cycle => *k += 1,
            _ => self.pending.insert(i, (cycle, 1)),
        }
    }

    fn next_due(&self, now: u64) -> u64 {
        if !self.started {
            return now;
        }
        self.pending
            .front()
            .map_or(u64::MAX, |&(c, _)| (c + 1).max(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_then_one_per_delivery() {
        let mut rng = Mt64::new(0);
        let mut c = ConstantPacketNumber::new(4);
        assert_eq!(c.tick(0, &mut rng), 4);
        assert_eq!(c.tick(1, &mut rng), 0);
        c.delivered(5);
        c.delivered(5);
        c.delivered(7);
        assert_eq!(c.tick(5, &mut rng), 0, "not in the delivery cycle");
        assert_eq!(c.tick(6, &mut rng), 2);
        assert_eq!(c.tick(7, &mut rng), 0);
        assert_eq!(c.pending(), 1);
        assert_eq!(c.tick(8, &mut rng), 1);
        assert_eq!(c.tick(9, &mut rng), 0);
        assert_eq!(c.pending(), 0);
    }

    #[test]
    fn call_order_within_a_cycle_does_not_matter() {
        let mut rng = Mt64::new(0);
        let (mut a, mut b) = (ConstantPacketNumber::new(1), ConstantPacketNumber::new(1));
        let deliveries = [3u64, 3, 4, 9, 9, 9, 10];
        let mut out_a = vec![];
        let mut out_b = vec![];
        for cycle in 0..15 {
            let here = deliveries.iter().filter(|&&d| d == cycle).count();
            // a: deliveries before the tick; b: after.
            for _ in 0..here {
                a.delivered(cycle);
            }
            out_a.push(a.tick(cycle, &mut rng));
            out_b.push(b.tick(cycle, &mut rng));
            for _ in 0..here {
                b.delivered(cycle);
            }
        }
        assert_eq!(out_a, out_b);
        assert_eq!(out_a, [1, 0, 0, 0, 2, 1, 0, 0, 0, 0, 3, 1, 0, 0, 0]);
    }

    #[test]
    fn keeps_the_count() {
        // Generated = initial + delivered, whatever the delivery times.
        let mut rng = Mt64::new(3);
        let mut c = ConstantPacketNumber::new(8);
        let mut generated = 0u64;
        let mut delivered = 0u64;
        for cycle in 0..10_000u64 {
            generated += c.tick(cycle, &mut rng) as u64;
            for _ in 0..(rng.next_u64() % 3) {
                c.delivered(cycle);
                delivered += 1;
            }
        }
        generated += c.tick(10_000, &mut rng) as u64;
        assert_eq!(generated, 8 + delivered);
    }

    #[test]
    fn out_of_order_delivery_is_not_lost() {
        let mut rng = Mt64::new(0);
        let mut c = ConstantPacketNumber::new(0);
        c.delivered(10);
        c.delivered(4);
        assert_eq!(c.pending(), 2);
        assert_eq!(c.tick(5, &mut rng), 1);
        assert_eq!(c.tick(10, &mut rng), 0);
        assert_eq!(c.tick(11, &mut rng), 1);
    }
}
