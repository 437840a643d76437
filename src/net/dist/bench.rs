//! `exanet bench network --case C` over MPI ranks (decision 0029): what each rank measures of
//! itself, and the case's figures rank 0 makes of them.
//!
//! No rank starts a child process (an MPI process should not fork one, and the child would
//! not be a rank): every rank measures itself in its own process, from MPI's start. The ranks
//! meet at a barrier after the warm-up, so their timed cycles start together; each times the
//! timed cycles by its own wall clock and CPU time (every thread of the process, MPI's own
//! included: a rank that polls for a message spends CPU time on it). The job's wall time is the
//! slowest rank's; its CPU time the sum over the ranks.
//!
//! - speed: the network's node-cycles (nodes x timed cycles) per second of the job's wall time,
//!   and per CPU second summed over the ranks;
//! - exchange: what a rank spent in the exchanges of the timed cycles (one a window and one
//!   before the first: encoding, sending, waiting for and decoding its neighbours' beats), per
//!   exchange;
//! - memory: a rank's resident set when its set-up begins (MPI already running), at the end of
//!   the timed cycles, and its peak (the kernel's high-water mark, `VmHWM`, over the process's
//!   life); `bytes_per_node` is end minus start over the nodes of its share, `peak_bytes_per_node`
//!   peak minus start over the same nodes.

use super::super::bench::Case;
use crate::config::Config;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What one rank measured of itself over a case's timed cycles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankResult {
    pub rank: usize,
    /// Its share: the first node it steps and how many.
    pub first_node: usize,
    pub nodes: usize,
    /// Nodes whose state the rank holds: its share (other ranks' nodes are not built).
    pub nodes_held: usize,
    pub threads: usize,
    pub partitions: usize,
    pub cpu_seconds: f64,
    pub wall_seconds: f64,
    /// Exchanges with the neighbouring ranks in the timed cycles (one a window and one before
    /// the first), the seconds they took, and the mean.
    pub exchanges: u64,
    pub exchange_seconds: f64,
    pub exchange_seconds_per_window: f64,
    /// Neighbouring ranks (with a lane into or out of this rank's nodes).
    pub neighbours: usize,
    /// Windows of the timed cycles (`exchanges` is one more: the one before the first window).
    pub windows: u64,
    /// What a thread waited at a window's barrier, on average (0 on one thread).
    pub barrier_seconds_per_window: f64,
    /// Resident set at the start of the set-up, at the end of the timed cycles, and the peak
    /// over the process's life (bytes).
    pub resident_bytes_start: u64,
    pub resident_bytes_end: u64,
    pub resident_bytes_peak: u64,
    /// (end - start) / `nodes`, and (peak - start) / `nodes`.
    pub bytes_per_node: f64,
    pub peak_bytes_per_node: f64,
    /// Router FIFO words held at the end, over the nodes of its share.
    pub fifo_words_held: u64,
}

/// A rank's share and what its process measured, before [`RankResult::new`] divides.
pub struct RankMeasure {
    pub rank: usize,
    pub share: std::ops::Range<usize>,
    pub nodes_held: usize,
    pub threads: usize,
    pub partitions: usize,
    pub cpu_seconds: f64,
    pub wall_seconds: f64,
    pub exchanges: u64,
    pub exchange_seconds: f64,
    pub neighbours: usize,
    pub barrier_wait_seconds: f64,
    pub windows: u64,
    pub resident_bytes: [u64; 3],
    pub fifo_words_held: u64,
}

impl RankResult {
    pub fn new(m: RankMeasure) -> RankResult {
        let nodes = m.share.len();
        let [start, end, peak] = m.resident_bytes;
        let per_node = |b: u64| b.saturating_sub(start) as f64 / nodes.max(1) as f64;
        RankResult {
            rank: m.rank,
            first_node: m.share.start,
            nodes,
            nodes_held: m.nodes_held,
            threads: m.threads,
            partitions: m.partitions,
            cpu_seconds: m.cpu_seconds,
            wall_seconds: m.wall_seconds,
            exchanges: m.exchanges,
            exchange_seconds: m.exchange_seconds,
            exchange_seconds_per_window: if m.exchanges == 0 {
                0.0
            } else {
                m.exchange_seconds / m.exchanges as f64
            },
            neighbours: m.neighbours,
            windows: m.windows,
            barrier_seconds_per_window: if m.windows == 0 {
                0.0
            } else {
                m.barrier_wait_seconds / m.threads as f64 / m.windows as f64
            },
            resident_bytes_start: start,
            resident_bytes_end: end,
            resident_bytes_peak: peak,
            bytes_per_node: per_node(end),
            peak_bytes_per_node: per_node(peak),
            fifo_words_held: m.fifo_words_held,
        }
    }
}

/// A case run by the ranks of an MPI world (rank 0's report).
#[derive(Debug, Clone, Serialize)]
pub struct MpiCaseResult {
    pub case: String,
    pub topology: String,
    pub routing: String,
    pub load: f64,
    pub payload_sizes: String,
    pub nodes: usize,
    pub warmup_cycles: u64,
    pub timed_cycles: u64,
    pub mpi_world_size: usize,
    /// The slowest rank's wall-clock seconds of the timed cycles, and the ranks' CPU seconds
    /// summed.
    pub wall_seconds: f64,
    pub cpu_seconds: f64,
    /// nodes x timed cycles over `wall_seconds`, and over `cpu_seconds`.
    pub node_cycles_per_wall_second: f64,
    pub node_cycles_per_cpu_second: f64,
    /// Over every rank's exchanges of the timed cycles: seconds per exchange.
    pub exchange_seconds_per_window: f64,
    /// Packets delivered over the whole run, and the accepted load of the timed cycles (payload
    /// bytes per cycle per endpoint over `injection_bytes_per_cycle`): the ranks' statistics
    /// merged, as one process has them.
    pub packets_delivered: u64,
    pub accepted_load: f64,
    /// The statistics hash of the run (warm-up, then the timed cycles as the measurement
    /// window, no drain): one process's for the same case and cycles.
    pub stats_hash: String,
    /// Every rank's own figures, in rank order.
    pub ranks: Vec<RankResult>,
}

/// The statistics of the run the ranks merged (`Summary`'s figures that the report carries).
pub struct Merged {
    pub packets_delivered: u64,
    pub accepted_load: f64,
    pub stats_hash: String,
}

impl MpiCaseResult {
    /// From `cfg` (the case's configuration, `bench::case_config`), the network's `nodes`,
    /// what the ranks merged and every rank's figures, in rank order. An error when the ranks
    /// do not cover the network's nodes.
    pub fn new(
        case: &Case,
        cfg: &Config,
        nodes: usize,
        merged: Merged,
        ranks: Vec<RankResult>,
    ) -> Result<MpiCaseResult, String> {
        let mut next = 0;
        for r in &ranks {
            if r.first_node != next {
                return Err(format!(
                    "rank {}: its share starts at node {}, not {next}",
                    r.rank, r.first_node
                ));
            }
            next += r.nodes;
        }
        if next != nodes || ranks.is_empty() {
            return Err(format!(
                "the {} ranks' shares cover {next} nodes of {nodes}",
                ranks.len()
            ));
        }
        let wall = ranks.iter().map(|r| r.wall_seconds).fold(0.0, f64::max);
        let cpu: f64 = ranks.iter().map(|r| r.cpu_seconds).sum();
        let exchanges: u64 = ranks.iter().map(|r| r.exchanges).sum();
        let exchange_s: f64 = ranks.iter().map(|r| r.exchange_seconds).sum();
        let node_cycles = (nodes as u64 * case.cycles) as f64;
        Ok(MpiCaseResult {
            case: case.name.to_string(),
            topology: cfg.net.topology.to_string(),
            routing: cfg.net.routing.to_string(),
            load: cfg.net.load,
            payload_sizes: cfg.net.sizes.to_string(),
            nodes,
            warmup_cycles: case.warmup,
            timed_cycles: case.cycles,
            mpi_world_size: ranks.len(),
            wall_seconds: wall,
            cpu_seconds: cpu,
            node_cycles_per_wall_second: node_cycles / wall.max(1e-9),
            node_cycles_per_cpu_second: node_cycles / cpu.max(1e-9),
            exchange_seconds_per_window: if exchanges == 0 {
                0.0
            } else {
                exchange_s / exchanges as f64
            },
            packets_delivered: merged.packets_delivered,
            accepted_load: merged.accepted_load,
            stats_hash: merged.stats_hash,
            ranks,
        })
    }
}

impl fmt::Display for MpiCaseResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "network engine over {} MPI rank{}: {} ({} {}, load {}, {} nodes, {} + {} cycles)",
            self.mpi_world_size,
            if self.mpi_world_size == 1 { "" } else { "s" },
            self.case,
            self.topology,
            self.routing,
            self.load,
            self.nodes,
            self.warmup_cycles,
            self.timed_cycles
        )?;
        writeln!(
            f,
            "  {:>4} {:>6} {:>6} {:>7} {:>8} {:>8} {:>10} {:>15} {:>10} {:>10} {:>11}",
            "rank",
            "first",
            "nodes",
            "threads",
            "wall s",
            "CPU s",
            "exchanges",
            "exchange us/win",
            "RSS MB",
            "B/node",
            "peak B/node"
        )?;
        for r in &self.ranks {
            writeln!(
                f,
                "  {:>4} {:>6} {:>6} {:>7} {:>8.2} {:>8.2} {:>10} {:>15.1} {:>10.1} {:>10.0} {:>11.0}",
                r.rank,
                r.first_node,
                r.nodes,
                r.threads,
                r.wall_seconds,
                r.cpu_seconds,
                r.exchanges,
                r.exchange_seconds_per_window * 1e6,
                r.resident_bytes_end as f64 / 1e6,
                r.bytes_per_node,
                r.peak_bytes_per_node
            )?;
        }
        writeln!(
            f,
            "  (B/node: resident set at the end minus at the start of the set-up, over the rank's \
             nodes; peak: the high-water mark minus the start)"
        )?;
        writeln!(
            f,
            "  {:.0} node-cycles per wall second (the slowest rank's {:.2} s), {:.0} per CPU \
             second ({:.2} s over the ranks)",
            self.node_cycles_per_wall_second,
            self.wall_seconds,
            self.node_cycles_per_cpu_second,
            self.cpu_seconds
        )?;
        writeln!(
            f,
            "  exchange {:.1} us a window on average; {} packets delivered, accepted load {:.3}; \
             statistics hash {}",
            self.exchange_seconds_per_window * 1e6,
            self.packets_delivered,
            self.accepted_load,
            self.stats_hash
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::bench::{case_config, CASES};

    fn rank(rank: usize, share: std::ops::Range<usize>, wall: f64, cpu: f64) -> RankResult {
        RankResult::new(RankMeasure {
            rank,
            nodes_held: share.len(),
            share,
            threads: 1,
            partitions: 1,
            cpu_seconds: cpu,
            wall_seconds: wall,
            exchanges: 10,
            exchange_seconds: 0.5,
            neighbours: 1,
            barrier_wait_seconds: 0.0,
            windows: 0,
            resident_bytes: [1000, 1000 + 4096 * 64, 1000 + 8192 * 64],
            fifo_words_held: 3,
        })
    }

    #[test]
    fn the_case_s_speed_takes_the_slowest_rank_s_wall_time_and_the_ranks_cpu_time() {
        let case = CASES[0];
        let cfg = case_config(&Config::default(), &case).unwrap();
        let merged = || Merged {
            packets_delivered: 5,
            accepted_load: 0.1,
            stats_hash: "ab".into(),
        };
        let a = rank(0, 0..512, 2.0, 1.5);
        assert_eq!(a.bytes_per_node, 512.0);
        assert_eq!(a.peak_bytes_per_node, 1024.0);
        assert_eq!(a.exchange_seconds_per_window, 0.05);
        let r = MpiCaseResult::new(
            &case,
            &cfg,
            1024,
            merged(),
            vec![a.clone(), rank(1, 512..1024, 4.0, 2.5)],
        )
        .unwrap();
        let nc = 1024.0 * case.cycles as f64;
        assert_eq!(r.mpi_world_size, 2);
        assert_eq!(r.wall_seconds, 4.0);
        assert_eq!(r.cpu_seconds, 4.0);
        assert_eq!(r.node_cycles_per_wall_second, nc / 4.0);
        assert_eq!(r.node_cycles_per_cpu_second, nc / 4.0);
        assert_eq!(r.exchange_seconds_per_window, 0.05);
        assert!(r.to_string().contains("statistics hash ab"), "{r}");
        // shares that leave a gap, overlap or fall short of the network are refused
        for ranks in [
            vec![a.clone(), rank(1, 513..1024, 1.0, 1.0)],
            vec![a.clone(), rank(1, 511..1024, 1.0, 1.0)],
            vec![a.clone()],
            vec![],
        ] {
            assert!(MpiCaseResult::new(&case, &cfg, 1024, merged(), ranks).is_err());
        }
    }
}
