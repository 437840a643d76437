//! Statistics of a network-scale run (Pisani 2016 §4.1), fed by the NICs' events: injections
//! (headers written into a TX FIFO) and arrivals (footers popped at the destination).
//!
//! Phases: warm-up, then a measurement window of `measure` cycles, then a drain. The packets
//! *injected* in the window are the measured ones: their latency (arrival - injection: network
//! time only) is kept for the mean, standard deviation and percentiles, and every one of them is
//! accounted for at the end: delivered, lost (`window_books.rs`) or still in flight. Accepted
//! traffic counts the payload bytes *arriving* during the window. Each partition of the
//! network keeps its own `Stats`; `merge` adds them up and the summary sorts, so the result
//! does not depend on the partitioning or on the order of the nodes.

use super::account::{LinkLoss, PacketAccount};
use super::ber_model::BerPrediction;
use super::nic::{Arrival, Injection};
use super::window_books::WindowLosses;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The measurement window, cycles `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub start: u64,
    pub end: u64,
}

impl Window {
    pub fn contains(&self, c: u64) -> bool {
        (self.start..self.end).contains(&c)
    }
}

#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Packets (and their payload bytes) the sources' software made in the window: the load
    /// they offered, measured (probe packets aside).
    pub generated_window: u64,
    pub generated_bytes_window: u64,
    /// Every packet injected, and those injected in the window.
    pub injected: u64,
    pub injected_window: u64,
    pub injected_bytes_window: u64,
    /// Window packets delivered so far, and their latencies (cycles).
    pub delivered_window: u64,
    pub latencies: Vec<u32>,
    /// Of the window packets delivered with their source's timestamp (`Arrival::created`):
    /// their packet latencies (made to delivered, cycles), and their cycles in the source's
    /// software queue, summed.
    pub packet_latencies: Vec<u32>,
    pub source_queue_cycles: u64,
    /// Payload bytes and packets arriving during the window (any injection time).
    pub arrived_bytes_window: u64,
    pub arrived_window: u64,
    /// All packets delivered.
    pub delivered: u64,
    pub crc_bad: u64,
    pub payload_errors: u64,
    /// Packets that arrived before an earlier one of the same source (check mode).
    pub order_errors: u64,
    /// Probe packets: their latencies.
    pub probe_latencies: Vec<u32>,
    /// Per (destination, source) endpoint: the last sequence number (check mode).
    last_seq: HashMap<(u32, u32), u32>,
}

impl Stats {
    /// A packet of `size` payload bytes made by a source's software in `cycle`.
    pub fn generate(&mut self, cycle: u64, size: u32, w: &Window) {
        if w.contains(cycle) {
            self.generated_window += 1;
            self.generated_bytes_window += size as u64;
        }
    }

    pub fn inject(&mut self, x: &Injection, w: &Window) {
        self.injected += 1;
        if w.contains(x.cycle) && !x.probe {
            self.injected_window += 1;
            self.injected_bytes_window += x.size as u64;
        }
    }

    /// An arrival at endpoint `dst`; `check_order`: the routing keeps each pair in order.
    pub fn arrive(&mut self, dst: usize, a: &Arrival, w: &Window, check_order: bool) {
        self.delivered += 1;
        self.crc_bad += a.crc_bad as u64;
        self.payload_errors += a.payload_errors as u64;
        let lat = a.arrived.saturating_sub(a.injected).min(u32::MAX as u64) as u32;
        // A packet whose footer names no endpoint (a failed node's PAD ended it, or bit errors
        // cost its framing) is delivered, flagged, and counted as a payload error above. Its
        // header, which SECDED keeps, says when it was injected and whether it is a probe
        // (`Arrival::probe`), so it counts in the window with its latency, as any packet whose
        // CRC failed does; it has no place in its pair's order.
        if a.probe {
            if w.contains(a.injected) {
                self.probe_latencies.push(lat);
            }
            return;
        }
        if w.contains(a.injected) {
            self.delivered_window += 1;
            self.latencies.push(lat);
            if let Some(c) = a.created {
                let plat = a.arrived.saturating_sub(c).min(u32::MAX as u64) as u32;
                self.packet_latencies.push(plat);
                self.source_queue_cycles += a.injected - c;
            }
        }
        if w.contains(a.arrived) {
            self.arrived_window += 1;
            self.arrived_bytes_window += a.size as u64;
        }
        if a.src == usize::MAX {
            return;
        }
        if check_order {
            let key = (dst as u32, a.src as u32);
            if let Some(&last) = self.last_seq.get(&key) {
                if a.seq <= last {
                    self.order_errors += 1;
                }
            }
            self.last_seq.insert(key, a.seq);
        }
    }

    pub fn merge(&mut self, o: &Stats) {
        self.generated_window += o.generated_window;
        self.generated_bytes_window += o.generated_bytes_window;
        self.packet_latencies.extend_from_slice(&o.packet_latencies);
        self.source_queue_cycles += o.source_queue_cycles;
        self.injected += o.injected;
        self.injected_window += o.injected_window;
        self.injected_bytes_window += o.injected_bytes_window;
        self.delivered_window += o.delivered_window;
        self.latencies.extend_from_slice(&o.latencies);
        self.arrived_bytes_window += o.arrived_bytes_window;
        self.arrived_window += o.arrived_window;
        self.delivered += o.delivered;
        self.crc_bad += o.crc_bad;
        self.payload_errors += o.payload_errors;
        self.order_errors += o.order_errors;
        self.probe_latencies.extend_from_slice(&o.probe_latencies);
    }

    /// The statistics as words, for another process to `merge` (`net/dist.rs`): the counts,
    /// then each list of latencies after its length. The order checks' last sequence numbers
    /// stay behind (a pair's packets all arrive at one endpoint, in one process).
    pub fn to_words(&self) -> Vec<u64> {
        // every field named, so that a new one cannot be left out unnoticed
        let Stats {
            generated_window,
            generated_bytes_window,
            packet_latencies,
            source_queue_cycles,
            injected,
            injected_window,
            injected_bytes_window,
            delivered_window,
            latencies,
            arrived_bytes_window,
            arrived_window,
            delivered,
            crc_bad,
            payload_errors,
            order_errors,
            probe_latencies,
            last_seq: _,
        } = self;
        let mut w = vec![
            *injected,
            *injected_window,
            *injected_bytes_window,
            *delivered_window,
            *arrived_bytes_window,
            *arrived_window,
            *delivered,
            *crc_bad,
            *payload_errors,
            *order_errors,
            *generated_window,
            *generated_bytes_window,
            *source_queue_cycles,
        ];
        for l in [latencies, probe_latencies, packet_latencies] {
            w.push(l.len() as u64);
            w.extend(l.iter().map(|&x| x as u64));
        }
        w
    }

    /// [`Stats::to_words`] read back; `None` for words it did not write.
    pub fn from_words(w: &[u64]) -> Option<Stats> {
        let (counts, mut rest) = w.split_at_checked(13)?;
        let mut list = || -> Option<Vec<u32>> {
            let (&n, r) = rest.split_first()?;
            let (l, r) = r.split_at_checked(usize::try_from(n).ok()?)?;
            rest = r;
            l.iter().map(|&x| u32::try_from(x).ok()).collect()
        };
        let latencies = list()?;
        let probe_latencies = list()?;
        let packet_latencies = list()?;
        if !rest.is_empty() {
            return None;
        }
        Some(Stats {
            injected: counts[0],
            injected_window: counts[1],
            injected_bytes_window: counts[2],
            delivered_window: counts[3],
            latencies,
            arrived_bytes_window: counts[4],
            arrived_window: counts[5],
            delivered: counts[6],
            crc_bad: counts[7],
            payload_errors: counts[8],
            order_errors: counts[9],
            probe_latencies,
            generated_window: counts[10],
            generated_bytes_window: counts[11],
            source_queue_cycles: counts[12],
            packet_latencies,
            last_seq: HashMap::new(),
        })
    }
}

/// One point of a load sweep. (Read back from a sweep's part files, `cli/sweep_parts.rs`.)
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Summary {
    pub offered_load: f64,
    /// Payload bytes the sources' software made in the window, normalised like the load: the
    /// offered load as the run drew it.
    pub generated_load: f64,
    /// Payload bytes injected into the NICs' FIFOs in the window, normalised like the load.
    pub injected_load: f64,
    /// Payload bytes arriving in the window, per endpoint and cycle, over the injection
    /// bandwidth.
    pub accepted_load: f64,
    /// Network latency (injection to delivery) of the window's delivered packets.
    pub latency_mean_cycles: f64,
    pub latency_std_cycles: f64,
    pub latency_p50_cycles: u32,
    pub latency_p90_cycles: u32,
    pub latency_p99_cycles: u32,
    pub latency_p999_cycles: u32,
    pub latency_max_cycles: u32,
    pub latency_mean_ns: f64,
    /// The network latencies' histogram: bins of `bin_cycles` from 0.
    pub latency_histogram: Histogram,
    /// Packet latency (made by the source's software to delivery: the software queue
    /// included, BookSim's "packet latency") of the window's delivered packets that carry
    /// their source's timestamp (every generator's packet); 0 when none does.
    pub packet_latency_mean_cycles: f64,
    pub packet_latency_p50_cycles: u32,
    pub packet_latency_p99_cycles: u32,
    pub packet_latency_max_cycles: u32,
    /// Their mean time in the source's software queue (packet latency less network latency).
    pub source_queue_mean_cycles: f64,
    /// Packets made in the window less packets injected in it: what the sources' queues grew
    /// by.
    pub source_queue_growth_packets: i64,
    /// The network did not keep up with the load the sources offered (`net.saturation_margin`):
    /// accepted fell short of generated, or the source queues grew, by more than the margin.
    /// A saturated point's latencies are not steady-state figures.
    pub saturated: bool,
    pub packets_injected: u64,
    pub packets_delivered: u64,
    /// Window packets lost (`window_books.rs`): the sum of the next four.
    pub packets_lost: u64,
    /// Dropped by a router's gate (no live hop, an unreachable destination, an unroutable
    /// header).
    pub packets_dropped: u64,
    /// Sent on a link whose lane lost beats to a fault, and never out of its RX.
    pub packets_lost_on_failed_links: u64,
    /// Sent on a link that never failed, and discarded by its RX (bit errors).
    pub packets_lost_to_bit_errors: u64,
    /// Reached a node that was down.
    pub packets_lost_at_dead_nodes: u64,
    /// Window packets neither delivered nor lost when the run stopped: still in the network.
    pub packets_in_flight: u64,
    /// No window packet was left in the network at the end of the drain (`packets_in_flight`
    /// is 0): the network kept up with the load. An unstable point's latency leaves out the
    /// packets still in flight, so it understates the latency.
    pub stable: bool,
    /// Every packet delivered in the run: warm-up, window and drain, probe packets included
    /// (the lines of a packets file, `PacketLog`).
    pub packets_delivered_total: u64,
    pub crc_errors: u64,
    pub payload_errors: u64,
    pub order_errors: u64,
    pub probe_packets: u64,
    pub probe_latency_mean_cycles: Option<f64>,
    /// Words written into a full FIFO or read from an empty one, over every router FIFO of the
    /// network (0 unless the credit threshold is unsafe: `net.tred_units`).
    pub fifo_errors: u64,
    /// Packets the injection process made whose pattern addressed them to their own source
    /// (a permutation's fixed points): never sent, counted here (not in the hash).
    pub self_addressed: u64,
    pub cycles: u64,
    /// Where every packet of the run is, and what bit errors did on the links (from the
    /// blocks' counters; not in the hash, which the NICs' figures already decide).
    pub accounting: PacketAccount,
    /// What SECDED and the CRC predict at the run's bit-error rate (`ber_model.rs`): for
    /// uniform traffic with every link at `link.phy.ber`, else every field null.
    pub ber_prediction: BerPrediction,
    /// The links that discarded packets or failed a CRC check, by receiving node and port (a
    /// list, not a point's fields: `network run --json` adds it beside the point, CSV rows and
    /// sweep points leave it out).
    #[serde(skip)]
    pub link_losses: Vec<LinkLoss>,
    /// What the run's faults did (`faults.rs`); absent for a run without faults.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faults: Option<crate::net::engine::FaultSummary>,
    /// A hash of every figure and latency, to compare runs bit for bit.
    pub stats_hash: String,
}

impl Summary {
    /// The window's packets that were lost (`window_books.rs`): no longer counted in flight.
    pub fn set_losses(&mut self, l: &WindowLosses) {
        self.packets_lost = l.total();
        self.packets_dropped = l.dropped;
        self.packets_lost_on_failed_links = l.on_failed_links;
        self.packets_lost_to_bit_errors = l.to_bit_errors;
        self.packets_lost_at_dead_nodes = l.at_dead_nodes;
        self.packets_in_flight = self
            .packets_injected
            .saturating_sub(self.packets_delivered + self.packets_lost);
        self.stable = self.packets_in_flight == 0;
    }
}

/// A histogram of latencies from 0 in bins of `bin_cycles` (1, 2 or 5 times a power of ten,
/// the smallest that covers the largest latency in at most [`Histogram::MAX_BINS`] bins):
/// `counts[k]` latencies in `[k x bin_cycles, (k + 1) x bin_cycles)`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    pub bin_cycles: u32,
    pub counts: Vec<u64>,
}

impl Histogram {
    pub const MAX_BINS: u32 = 40;

    /// Of `sorted` latencies (ascending).
    pub fn of(sorted: &[u32]) -> Histogram {
        let Some(&max) = sorted.last() else {
            return Histogram::default();
        };
        let mut width = 1u32;
        'find: for decade in 0..10 {
            for m in [1u32, 2, 5] {
                let w = m.saturating_mul(10u32.saturating_pow(decade));
                if (max / w) < Self::MAX_BINS {
                    width = w;
                    break 'find;
                }
            }
        }
        let mut counts = vec![0u64; (max / width) as usize + 1];
        for &x in sorted {
            counts[(x / width) as usize] += 1;
        }
        Histogram {
            bin_cycles: width,
            counts,
        }
    }
}

fn percentile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let k = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[k]
}

impl Stats {
    /// `endpoints`, `window` and `bytes_per_cycle` normalise the loads; `ns_per_cycle` converts;
    /// `margin` is `net.saturation_margin`.
    #[allow(clippy::too_many_arguments)]
    pub fn summary(
        &self,
        offered: f64,
        endpoints: usize,
        window: &Window,
        bytes_per_cycle: f64,
        ns_per_cycle: f64,
        cycles: u64,
        margin: f64,
    ) -> Summary {
        let mut lat = self.latencies.clone();
        lat.sort_unstable();
        let n = lat.len() as f64;
        let mean = if lat.is_empty() {
            0.0
        } else {
            lat.iter().map(|&x| x as f64).sum::<f64>() / n
        };
        let var = if lat.len() < 2 {
            0.0
        } else {
            lat.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0)
        };
        let norm = endpoints as f64 * (window.end - window.start) as f64 * bytes_per_cycle;
        let probe_mean = (!self.probe_latencies.is_empty()).then(|| {
            self.probe_latencies.iter().map(|&x| x as f64).sum::<f64>()
                / self.probe_latencies.len() as f64
        });
        let mut plat = self.packet_latencies.clone();
        plat.sort_unstable();
        let pmean = |sum: f64| {
            if plat.is_empty() {
                0.0
            } else {
                sum / plat.len() as f64
            }
        };
        let generated_load = self.generated_bytes_window as f64 / norm;
        let accepted_load = self.arrived_bytes_window as f64 / norm;
        let growth = self.generated_window as i64 - self.injected_window as i64;
        let mut s = Summary {
            offered_load: offered,
            generated_load,
            injected_load: self.injected_bytes_window as f64 / norm,
            accepted_load,
            latency_mean_cycles: mean,
            latency_std_cycles: var.sqrt(),
            latency_p50_cycles: percentile(&lat, 0.5),
            latency_p90_cycles: percentile(&lat, 0.9),
            latency_p99_cycles: percentile(&lat, 0.99),
            latency_p999_cycles: percentile(&lat, 0.999),
            latency_max_cycles: lat.last().copied().unwrap_or(0),
            latency_mean_ns: mean * ns_per_cycle,
            latency_histogram: Histogram::of(&lat),
            packet_latency_mean_cycles: pmean(plat.iter().map(|&x| x as f64).sum()),
            packet_latency_p50_cycles: percentile(&plat, 0.5),
            packet_latency_p99_cycles: percentile(&plat, 0.99),
            packet_latency_max_cycles: plat.last().copied().unwrap_or(0),
            source_queue_mean_cycles: pmean(self.source_queue_cycles as f64),
            source_queue_growth_packets: growth,
            saturated: accepted_load < generated_load * (1.0 - margin)
                || growth as f64 > margin * self.generated_window as f64,
            packets_injected: self.injected_window,
            packets_delivered: self.delivered_window,
            packets_lost: 0,
            packets_dropped: 0,
            packets_lost_on_failed_links: 0,
            packets_lost_to_bit_errors: 0,
            packets_lost_at_dead_nodes: 0,
            packets_in_flight: self.injected_window - self.delivered_window,
            stable: self.injected_window == self.delivered_window,
            packets_delivered_total: self.delivered,
            crc_errors: self.crc_bad,
            payload_errors: self.payload_errors,
            order_errors: self.order_errors,
            probe_packets: self.probe_latencies.len() as u64,
            probe_latency_mean_cycles: probe_mean,
            fifo_errors: 0,
            self_addressed: 0,
            cycles,
            accounting: PacketAccount::default(),
            ber_prediction: BerPrediction::default(),
            link_losses: Vec::new(),
            faults: None,
            stats_hash: String::new(),
        };
        // FNV-1a over the counts and the sorted latencies
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u64| {
            for b in x.to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x100_0000_01b3);
            }
        };
        for x in [
            self.injected,
            self.injected_window,
            self.injected_bytes_window,
            self.delivered_window,
            self.arrived_bytes_window,
            self.arrived_window,
            self.delivered,
            self.crc_bad,
            self.payload_errors,
            self.order_errors,
            cycles,
        ] {
            eat(x);
        }
        for &x in &lat {
            eat(x as u64);
        }
        let mut p = self.probe_latencies.clone();
        p.sort_unstable();
        for x in p {
            eat(x as u64);
        }
        s.stats_hash = format!("{h:016x}");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_read_back_from_their_words_merge_to_the_same_summary() {
        let mut s = Stats {
            injected: 9,
            injected_window: 7,
            injected_bytes_window: 700,
            delivered_window: 6,
            latencies: vec![40, 12, 99, 12, 50, 61],
            arrived_bytes_window: 640,
            arrived_window: 6,
            delivered: 8,
            crc_bad: 1,
            payload_errors: 2,
            order_errors: 3,
            probe_latencies: vec![33],
            ..Stats::default()
        };
        s.last_seq.insert((1, 2), 3);
        let back = Stats::from_words(&s.to_words()).expect("its own words");
        let w = Window { start: 0, end: 100 };
        let sum = |x: &Stats| x.summary(0.5, 4, &w, 8.0, 1.0, 200, 0.05);
        assert_eq!(sum(&back).stats_hash, sum(&s).stats_hash);
        assert_eq!(back.to_words(), s.to_words());
        let words = s.to_words();
        assert!(Stats::from_words(&words[..words.len() - 1]).is_none());
        assert!(Stats::from_words(&[words.clone(), vec![0]].concat()).is_none());
        assert!(Stats::from_words(&words[..9]).is_none());
    }
}
