//! The MPI calls of a network run spread over ranks (cargo feature `mpi`: rsmpi over the
//! system's MPI library, Debian's Open MPI; decision 0027): initialising, the start-up check
//! every rank takes part in before it builds anything, and the engine's [`Peers`]: the exchange
//! of the boundary lanes once a window, the sums of the drain's test and the statistics.
//!
//! Every call here is collective or pairs with the same call on the peer, made by every rank at
//! the same point of the run: a rank never waits for one that has left. The calls go to the
//! world's ranks, or to a group of them ([`Mpi::group`]: a sweep's point run on a group of
//! ranks while the other groups run other points, `cli/sweep_parts.rs`).

use super::{decode, encode, launcher_world_size, verdict, Halo};
use crate::net::engine::{Outbox, Peers};
use crate::net::stats::Stats;
use crate::net::topology::Topology;
use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::raw::{AsRaw, FromRaw};
use mpi::topology::{Color, SimpleCommunicator};
use mpi::traits::*;
use mpi::{Count, Threading};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// MPI, initialised for the life of this value (finalised when it is dropped), or a group of
/// its ranks ([`Mpi::group`]): the ranks a run's calls go to.
pub struct Mpi {
    _universe: Option<mpi::environment::Universe>,
    comm: Comm,
    pub rank: usize,
    pub size: usize,
}

/// The communicator of a run's ranks: the world, or a group of it.
#[derive(Clone, Copy)]
struct Comm(Option<mpi::ffi::MPI_Comm>);

// SAFETY: a communicator handle is an opaque value that any thread may pass to MPI under
// MPI_THREAD_SERIALIZED (checked by `Mpi::init`); the engine makes one MPI call at a time.
unsafe impl Send for Comm {}
unsafe impl Sync for Comm {}

impl Comm {
    /// `f` on the communicator.
    fn with<R>(self, f: impl FnOnce(&SimpleCommunicator) -> R) -> R {
        match self.0 {
            None => f(&SimpleCommunicator::world()),
            Some(raw) => {
                // SAFETY: a group's communicator lives until MPI is finalised (it is never
                // freed: `Mpi::group` forgets its owner); ManuallyDrop keeps this wrapper from
                // freeing it
                let c = std::mem::ManuallyDrop::new(unsafe { SimpleCommunicator::from_raw(raw) });
                f(&c)
            }
        }
    }
}

impl Mpi {
    /// Initialise MPI when a launcher started this process ([`launcher_world_size`]); `None`
    /// when none did (a plain run: one process, no MPI). An error when the launcher's world
    /// and MPI's differ (an `mpirun` of another MPI library: every process would run the whole
    /// network alone) or the library cannot be called from the engine's threads.
    pub fn init() -> Result<Option<Mpi>, String> {
        let Some(expected) = launcher_world_size() else {
            return Ok(None);
        };
        // the exchange runs on the engine's first thread, never two MPI calls at once
        let (universe, threading) = mpi::initialize_with_threading(Threading::Serialized)
            .ok_or("MPI was initialised twice")?;
        let world = universe.world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        if size != expected as usize {
            return Err(format!(
                "process {} of {expected} (the launcher's count): MPI sees a world of {size}: the \
                 mpirun used is not the one of the MPI library this exanet was built with \
                 (Debian's Open MPI, /usr/bin/mpirun); each process would run the whole network \
                 on its own",
                super::launcher_rank().unwrap_or(0)
            ));
        }
        if threading < Threading::Serialized {
            return Err(format!(
                "the MPI library offers threads {threading:?}; the engine calls it from one thread \
                 at a time, not always the main one (MPI_THREAD_SERIALIZED)"
            ));
        }
        Ok(Some(Mpi {
            _universe: Some(universe),
            comm: Comm(None),
            rank,
            size,
        }))
    }

    /// The ranks in groups of `per` consecutive ones (`size` a multiple of `per`): this rank's
    /// group, whose calls (the start-up check, the exchanges, the sums) stay inside it. Every
    /// rank must call it (the split is collective).
    pub fn group(&self, per: usize) -> Mpi {
        assert!(
            per >= 1 && self.size.is_multiple_of(per),
            "groups of {per} of {}",
            self.size
        );
        let color = Color::with_value((self.rank / per) as i32);
        let c = self
            .comm
            .with(|w| w.split_by_color(color))
            .expect("every rank has a colour");
        let raw = c.as_raw();
        // (kept until MPI is finalised: see `Comm::with`)
        std::mem::forget(c);
        Mpi {
            _universe: None,
            comm: Comm(Some(raw)),
            rank: self.rank % per,
            size: per,
        }
    }

    /// The start-up check: every rank gives its stage (`super::stage`) and the hash of its
    /// command line and configuration, every rank learns all of them. `Ok` when every rank is
    /// ready with the same hash. Otherwise every rank must exit 2: rank 0 gets the message to
    /// print (`Err(Some)`, from every rank's `error`), the others `Err(None)`.
    pub fn agree(&self, stage: u64, hash: u64, error: &str) -> Result<(), Option<String>> {
        let mut all = vec![0u64; 2 * self.size];
        self.comm
            .with(|world| world.all_gather_into(&[stage, hash][..], &mut all[..]));
        let status: Vec<[u64; 2]> = all.chunks_exact(2).map(|c| [c[0], c[1]]).collect();
        if verdict(&status, &vec![String::new(); self.size]).is_none() {
            return Ok(());
        }
        // every rank knows now that the run stops; rank 0 gathers the reasons to say them
        let Some(parts) = self.gather(error.as_bytes()) else {
            return Err(None);
        };
        let errors: Vec<String> = parts
            .iter()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .collect();
        Err(verdict(&status, &errors))
    }

    /// Every rank's `bytes` at rank 0, in rank order (`Some` there, `None` on the others).
    pub fn gather(&self, bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
        self.comm.with(|world| self.gather_on(world, bytes))
    }

    fn gather_on(&self, world: &SimpleCommunicator, bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
        let root = world.process_at_rank(0);
        // (a byte after each: Open MPI refuses an empty part of a gather)
        let part = [bytes, b"\n"].concat();
        let len = count(part.len());
        if self.rank != 0 {
            root.gather_into(&len);
            root.gather_varcount_into(&part[..]);
            return None;
        }
        let mut counts = vec![0 as Count; self.size];
        root.gather_into_root(&len, &mut counts[..]);
        let displs = offsets(&counts);
        let mut buf = vec![0u8; counts.iter().map(|&c| c as usize).sum()];
        root.gather_varcount_into_root(
            &part[..],
            &mut PartitionMut::new(&mut buf[..], &counts[..], &displs[..]),
        );
        Some(
            (0..self.size)
                .map(|r| {
                    let (at, n) = (displs[r] as usize, counts[r] as usize);
                    buf[at..at + n - 1].to_vec()
                })
                .collect(),
        )
    }

    /// Wait until every rank is here.
    pub fn barrier(&self) {
        self.comm.with(|w| w.barrier());
    }

    /// The engine's link to the other ranks for a network on `topo`, and what its exchanges
    /// cost as they happen.
    pub fn peers(&self, topo: &dyn Topology) -> (Box<dyn Peers>, Arc<ExchangeMeter>) {
        let halo = Halo::new(topo, self.size, self.rank);
        let meter = Arc::new(ExchangeMeter {
            neighbours: halo.peers.len(),
            ..Default::default()
        });
        let peers = MpiPeers {
            halo,
            comm: self.comm,
            size: self.size,
            meter: meter.clone(),
        };
        (Box::new(peers), meter)
    }
}

/// The exchanges of a rank with its neighbours so far (`bench network`).
#[derive(Debug, Default)]
pub struct ExchangeMeter {
    /// The ranks this one exchanges with.
    pub neighbours: usize,
    exchanges: AtomicU64,
    nanos: AtomicU64,
}

impl ExchangeMeter {
    /// Exchanges so far, and the seconds they took (encoding, sending, waiting for the
    /// neighbours' messages, decoding).
    pub fn read(&self) -> (u64, f64) {
        (
            self.exchanges.load(Ordering::Relaxed),
            self.nanos.load(Ordering::Relaxed) as f64 * 1e-9,
        )
    }
}

fn count(n: usize) -> Count {
    Count::try_from(n).expect("an MPI message of fewer than 2^31 elements")
}

/// Where each rank's part starts in a buffer of the parts one after the other.
fn offsets(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect()
}

struct MpiPeers {
    halo: Halo,
    comm: Comm,
    size: usize,
    meter: Arc<ExchangeMeter>,
}

impl Peers for MpiPeers {
    fn exchange(&self, outbox: &[Outbox], par: usize) {
        self.comm.with(|world| self.exchange_on(world, outbox, par));
    }

    fn sum(&self, x: &mut [u64]) {
        let mine = x.to_vec();
        self.comm
            .with(|world| world.all_reduce_into(&mine[..], x, SystemOperation::sum()));
    }

    fn merge(&self, s: Stats) -> Stats {
        self.comm.with(|world| self.merge_on(world, s))
    }
}

impl MpiPeers {
    fn exchange_on(&self, world: &SimpleCommunicator, outbox: &[Outbox], par: usize) {
        let t0 = std::time::Instant::now();
        let sends: Vec<Vec<u64>> = self
            .halo
            .peers
            .iter()
            .map(|p| encode(outbox, &p.send, par))
            .collect();
        // every send posted before any receive: no two ranks wait for each other
        mpi::request::scope(|scope| {
            let requests: Vec<_> = self
                .halo
                .peers
                .iter()
                .zip(&sends)
                .map(|(p, w)| {
                    world
                        .process_at_rank(p.rank as i32)
                        .immediate_send(scope, &w[..])
                })
                .collect();
            for p in &self.halo.peers {
                let (w, _) = world.process_at_rank(p.rank as i32).receive_vec::<u64>();
                // both ends compute the lists from the same topology: a bad message is a bug
                decode(&w, outbox, &p.recv, par).unwrap_or_else(|e| {
                    panic!("the lanes from rank {}: {e}", p.rank);
                });
            }
            for r in requests {
                r.wait();
            }
        });
        let m = &self.meter;
        m.exchanges.fetch_add(1, Ordering::Relaxed);
        m.nanos
            .fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }

    fn merge_on(&self, world: &SimpleCommunicator, s: Stats) -> Stats {
        let w = s.to_words();
        let mut counts = vec![0 as Count; self.size];
        world.all_gather_into(&count(w.len()), &mut counts[..]);
        let displs = offsets(&counts);
        let mut buf = vec![0u64; counts.iter().map(|&c| c as usize).sum()];
        world.all_gather_varcount_into(
            &w[..],
            &mut PartitionMut::new(&mut buf[..], &counts[..], &displs[..]),
        );
        let mut m = Stats::default();
        for r in 0..self.size {
            let (at, n) = (displs[r] as usize, counts[r] as usize);
            let part = Stats::from_words(&buf[at..at + n])
                .unwrap_or_else(|| panic!("the statistics of rank {r}: unreadable"));
            m.merge(&part);
        }
        m
    }
}
