//! The shipped example programs (`exanet app run <name>`), each an ordinary SPMD program on the
//! API of `api.rs`. A program reports its own figures (round-trip times, iteration times) into
//! a [`Figures`] table that the command prints.

pub mod alltoall;
pub mod halo;
pub mod pingpong;
pub mod ring;
pub mod wrf;

use super::api::Program;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Named figures a program measured (kept in name order, so output is deterministic).
#[derive(Debug, Clone, Default)]
pub struct Figures(Arc<Mutex<BTreeMap<String, f64>>>);

impl Figures {
    pub fn set(&self, name: &str, v: f64) {
        self.0.lock().expect("figures").insert(name.to_string(), v);
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.lock().expect("figures").get(name).copied()
    }

    pub fn all(&self) -> BTreeMap<String, f64> {
        self.0.lock().expect("figures").clone()
    }
}

/// `N` counters a rank, filled by each rank's program at its end (DPSNN's state profile, a
/// replay's compute/communication/wait times).
#[derive(Debug, Clone)]
pub struct PerRank<const N: usize>(Arc<Mutex<Vec<[u64; N]>>>);

impl<const N: usize> Default for PerRank<N> {
    fn default() -> Self {
        PerRank(Arc::default())
    }
}

impl<const N: usize> PerRank<N> {
    /// Every rank's counters, in rank order (a rank that has not set them: zeros).
    pub fn ranks(&self) -> Vec<[u64; N]> {
        self.0.lock().expect("per-rank table").clone()
    }

    pub fn set(&self, rank: usize, v: [u64; N]) {
        let mut t = self.0.lock().expect("per-rank table");
        if t.len() <= rank {
            t.resize(rank + 1, [0; N]);
        }
        t[rank] = v;
    }
}

/// The examples' parameters (`exanet app run` options).
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// Message bytes.
    pub bytes: u64,
    /// Iterations (round trips, exchanges).
    pub iterations: u32,
}

/// The example programs by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Example {
    /// Ping-pong between ranks 0 and 1 (Nüssle et al. §3).
    Pingpong,
    /// A message around a ring of every rank and back to rank 0 (Nüssle et al. §3, 4 ranks).
    Ring,
    /// 2-D halo exchange with the four neighbours on a periodic grid of ranks.
    Halo,
    /// Personalised all-to-all.
    Alltoall,
    /// Seed 004 §5.4's WRF exchange: rank n sends to n+16, then to n-16 (none past either
    /// end).
    Wrf,
    /// The WRF exchange with partners modulo the rank count.
    WrfPeriodic,
    /// Seed 004's WRF exchange with both sends started at once (non-blocking).
    WrfAtOnce,
}

impl Example {
    /// The program, the figures it fills, and the fewest ranks it needs.
    pub fn program(self, p: Params) -> (Arc<dyn Program>, Figures, u32) {
        let f = Figures::default();
        let prog = match self {
            Example::Pingpong => pingpong::program(p, f.clone()),
            Example::Ring => ring::program(p, f.clone()),
            Example::Halo => halo::program(p, f.clone()),
            Example::Alltoall => alltoall::program(p, f.clone()),
            Example::Wrf => wrf::program(p, f.clone(), false, false),
            Example::WrfPeriodic => wrf::program(p, f.clone(), true, false),
            Example::WrfAtOnce => wrf::program(p, f.clone(), false, true),
        };
        let min = match self {
            Example::Pingpong | Example::Ring => 2,
            Example::Halo | Example::Alltoall => 1,
            Example::Wrf | Example::WrfPeriodic | Example::WrfAtOnce => wrf::MIN_RANKS,
        };
        (prog, f, min)
    }

    /// Messages the program has in flight at once on `ranks` ranks, at most (its memory
    /// estimate, `footprint.rs`): every rank's sends and receives of one step posted together.
    pub fn messages_at_once(self, ranks: u64) -> u64 {
        match self {
            Example::Pingpong | Example::Ring => 1,
            // four neighbours each
            Example::Halo => ranks.saturating_mul(4),
            // every rank to every other
            Example::Alltoall => ranks.saturating_mul(ranks.saturating_sub(1)),
            // two partners each
            Example::Wrf | Example::WrfPeriodic | Example::WrfAtOnce => ranks.saturating_mul(2),
        }
    }
}
