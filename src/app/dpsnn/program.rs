//! The DPSNN program (Pisani 2016 Ch. 3, "DPSNN traffic injector"), on the SPMD API: every process
//! runs, per iteration of a spike trace,
//!
//! ```text
//!   CALC              compute for (spikes it receives in the iteration) x calc_ns_per_spike
//!   MPI_BARRIER_SEND  tell the root (rank 0, or a local root: the hierarchical barrier)
//!   MPI_BARRIER_ACK   wait for its acknowledge
//!   ALLTOALLV counts  a 4-byte spike count to every other process
//!   ALLTOALLV spikes  12-byte spikes to every process it has spikes for (none: nothing sent)
//! ```
//!
//! The states are the thesis's; the messages are ordinary point-to-point messages through the
//! NICs, and a packet of a later state that arrives early waits in the receiving rank's
//! unexpected queue, as the thesis's consumer buffers it. The spike counts a process receives
//! in the first exchange are what it expects in the second (as DPSNN learns them).
//!
//! Each rank adds up the cycles it spends in each state ([`STATE_NAMES`]) into a [`Profile`].

use super::trace::SpikeTrace;
use crate::app::api::{program as prog, Payload, Program};
use std::sync::Arc;

/// The profiled states, in the order of an iteration (the order of a [`Profile`] entry): CALC,
/// the barrier (SEND and ACK), the counts' alltoallv, the spikes' alltoallv.
pub const STATE_NAMES: [&str; 4] = ["calc", "barrier", "counts", "spikes"];

/// The barrier of an iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Barrier {
    /// Every process to rank 0 (OpenMPI's root-based barrier).
    Root,
    /// Local roots of this many consecutive ranks, then rank 0.
    Hierarchical(u32),
}

impl std::str::FromStr for Barrier {
    type Err = String;
    fn from_str(s: &str) -> Result<Barrier, String> {
        match s.split_once(':') {
            None if s == "root" => Ok(Barrier::Root),
            None if s == "hierarchical" => Ok(Barrier::Hierarchical(8)),
            Some(("hierarchical", g)) => match g.parse::<u32>() {
                Ok(g) if g >= 1 => Ok(Barrier::Hierarchical(g)),
                _ => Err(format!(
                    "barrier '{s}': hierarchical:G needs a group of G >= 1 ranks"
                )),
            },
            _ => Err(format!(
                "barrier '{s}': accepted are root, hierarchical (groups of 8) and hierarchical:G"
            )),
        }
    }
}

/// What the program needs besides the trace.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// CALC's time for each spike a process receives, ns.
    pub calc_ns_per_spike: f64,
    /// Bytes of a spike (Pisani 2016 §3: 12).
    pub spike_bytes: u64,
    pub barrier: Barrier,
}

/// Cycles each rank spent in each state, summed over the iterations.
pub type Profile = crate::app::programs::PerRank<4>;

/// The program of `trace` (one rank per process of the trace).
pub fn program(trace: Arc<SpikeTrace>, p: Params, prof: Profile) -> Arc<dyn Program> {
    prog(move |r| {
        let (trace, prof) = (trace.clone(), prof.clone());
        async move {
            let me = r.rank() as usize;
            let n = trace.processes;
            let mut acc = [0u64; 4];
            for it in 0..trace.iterations() {
                let row = &trace.counts[it][me];
                let t0 = r.cycle().await;
                r.consume_time(trace.received(it, me) as f64 * p.calc_ns_per_spike)
                    .await;
                let t1 = r.cycle().await;
                match p.barrier {
                    Barrier::Root => r.barrier().await,
                    Barrier::Hierarchical(g) => r.barrier_hierarchical(g).await,
                }
                let t2 = r.cycle().await;
                let counts: Vec<Payload> = (0..n)
                    .map(|d| Payload::bytes(&row[d].to_le_bytes()))
                    .collect();
                let got = r.alltoall(counts).await;
                let t3 = r.cycle().await;
                let expect: Vec<u64> = got
                    .iter()
                    .enumerate()
                    .map(|(s, m)| match m {
                        Payload::Bytes(b) if s != me && b.len() == 4 => {
                            u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64 * p.spike_bytes
                        }
                        _ => 0,
                    })
                    .collect();
                let spikes: Vec<Payload> = (0..n)
                    .map(|d| {
                        let c = if d == me { 0 } else { row[d] as u64 };
                        Payload::Size(c * p.spike_bytes)
                    })
                    .collect();
                r.alltoallv(spikes, &expect).await;
                let t4 = r.cycle().await;
                for (a, d) in acc.iter_mut().zip([t1 - t0, t2 - t1, t3 - t2, t4 - t3]) {
                    *a += d;
                }
            }
            prof.set(me, acc);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barriers_parse_and_bad_ones_are_named() {
        assert_eq!("root".parse(), Ok(Barrier::Root));
        assert_eq!("hierarchical:6".parse(), Ok(Barrier::Hierarchical(6)));
        assert_eq!("hierarchical".parse(), Ok(Barrier::Hierarchical(8)));
        for bad in ["hierarchical:0", "tree", "root:2"] {
            let e = bad.parse::<Barrier>().unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
    }
}
