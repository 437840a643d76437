//! Latency against time (`exanet network run --latency-bin CYCLES`): the packets delivered in
//! each bin of cycles, their mean and largest latency and the payload they brought, for a
//! transient such as a link failing and recovering (issue 14 §4; docs/validation.md,
//! "Network with failed links"). A sink of the packet log (`packet_log.rs`), so the run's
//! statistics are those of the run without it.

use super::packet_log::{PacketRecord, PacketSink};
use serde::Serialize;
use std::sync::{Arc, Mutex};

/// One bin: the packets delivered in cycles [from_cycle, from_cycle + bin).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct LatencyBin {
    pub from_cycle: u64,
    /// Packets delivered in the bin (probe packets left out).
    pub packets: u64,
    /// Their mean and largest latency, cycles (injection into the source TX FIFO to the
    /// destination NIC's pop of the footer); 0 for an empty bin.
    pub latency_mean_cycles: f64,
    pub latency_max_cycles: u64,
    /// Payload bytes they brought, per cycle and endpoint.
    pub bytes_per_cycle_per_endpoint: f64,
}

#[derive(Debug, Default)]
struct Acc {
    packets: u64,
    latency_sum: u64,
    latency_max: u64,
    bytes: u64,
}

/// The bins as the sink fills them; shared with whoever reads them after the run.
#[derive(Debug, Clone)]
pub struct LatencyBins {
    bin: u64,
    bins: Arc<Mutex<Vec<Acc>>>,
}

impl LatencyBins {
    /// Bins of `bin` cycles (at least 1).
    pub fn new(bin: u64) -> LatencyBins {
        LatencyBins {
            bin: bin.max(1),
            bins: Arc::default(),
        }
    }

    /// The bins up to the last delivery, for a network of `endpoints`.
    pub fn bins(&self, endpoints: usize) -> Vec<LatencyBin> {
        let b = self.bins.lock().unwrap_or_else(|p| p.into_inner());
        b.iter()
            .enumerate()
            .map(|(k, a)| LatencyBin {
                from_cycle: k as u64 * self.bin,
                packets: a.packets,
                latency_mean_cycles: if a.packets > 0 {
                    a.latency_sum as f64 / a.packets as f64
                } else {
                    0.0
                },
                latency_max_cycles: a.latency_max,
                bytes_per_cycle_per_endpoint: a.bytes as f64
                    / (self.bin as f64 * endpoints.max(1) as f64),
            })
            .collect()
    }
}

impl PacketSink for LatencyBins {
    fn record(&mut self, r: &PacketRecord) {
        if r.probe {
            return;
        }
        let k = (r.delivered / self.bin) as usize;
        let mut b = self.bins.lock().unwrap_or_else(|p| p.into_inner());
        if b.len() <= k {
            b.resize_with(k + 1, Acc::default);
        }
        let lat = r.delivered.saturating_sub(r.injected);
        let a = &mut b[k];
        a.packets += 1;
        a.latency_sum += lat;
        a.latency_max = a.latency_max.max(lat);
        a.bytes += r.size as u64;
    }

    fn finish(&mut self) -> Result<(), String> {
        Ok(())
    }
}

/// Every record to both sinks.
pub struct Tee(pub Box<dyn PacketSink>, pub Box<dyn PacketSink>);

impl PacketSink for Tee {
    fn record(&mut self, r: &PacketRecord) {
        self.0.record(r);
        self.1.record(r);
    }

    fn finish(&mut self) -> Result<(), String> {
        let a = self.0.finish();
        let b = self.1.finish();
        a.and(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_fall_in_the_bin_of_their_delivery() {
        let mut s = LatencyBins::new(100);
        let r = |injected, delivered, probe| PacketRecord {
            src: Some(0),
            dst: 1,
            vc: 0,
            size: 64,
            injected,
            delivered,
            hops: 1,
            window: true,
            probe,
            created: Some(injected),
            split: None,
        };
        s.record(&r(10, 90, false));
        s.record(&r(50, 150, false));
        s.record(&r(60, 190, false));
        s.record(&r(60, 190, true));
        let b = s.bins(2);
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].packets, b[0].latency_max_cycles), (1, 80));
        assert_eq!((b[1].packets, b[1].latency_mean_cycles), (2, 115.0));
        assert_eq!(b[1].bytes_per_cycle_per_endpoint, 128.0 / 200.0);
    }
}
