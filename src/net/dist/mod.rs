//! A network run spread over processes (MPI ranks, decision 0027). Every process builds the
//! whole network from the same configuration (construction is deterministic) and steps only its
//! share of the nodes, `split(nodes, processes)`: rank r the r-th contiguous block. Its nodes are
//! split into partitions and threads as one process splits all of them (`Network::distribute`).
//!
//! Once a window, after the threads have filled the outboxes of their boundary lanes, each
//! process sends every neighbouring process the beats of its lanes into that process's nodes
//! and receives theirs into the outboxes of their nodes ([`Halo`]): the same double-buffered
//! exchange the threads of one process make, over MPI messages. A message is, for every node of
//! the pair's list in node order, its number of beats and then each beat as three words (port,
//! cycle, data); both sides compute the same lists from the topology, so nothing else is sent.
//!
//! This module holds what needs no MPI library (the shares, the lists, the messages, the
//! verdict of the start-up check, the figures of `bench network` over the ranks in `bench.rs`);
//! `mpi.rs` (cargo feature `mpi`) the MPI calls.

pub mod bench;
#[cfg(feature = "mpi")]
pub mod mpi;

use super::engine::{Beat, Outbox};
use super::topology::Topology;
use std::ops::Range;

/// The processes the launcher started, from its environment: Open MPI's `mpirun`
/// (`OMPI_COMM_WORLD_SIZE`), or a PMI launcher (`PMI_SIZE`: MPICH's and Intel MPI's Hydra,
/// Slurm's `srun`); `None` when no launcher started this process, or when another program
/// owns it ([`embedded`]).
pub fn launcher_world_size() -> Option<u32> {
    if EMBEDDED.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    env_number(&["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"])
}

/// This process's rank among [`launcher_world_size`]'s processes.
pub fn launcher_rank() -> Option<u32> {
    if EMBEDDED.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    env_number(&["OMPI_COMM_WORLD_RANK", "PMI_RANK"])
}

static EMBEDDED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says that this process belongs to another program that calls the library (the Python
/// module): the processes a launcher started are that program's to share out (with mpi4py),
/// so every command runs in this process alone, as without a launcher.
pub fn embedded() {
    EMBEDDED.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn env_number(names: &[&str]) -> Option<u32> {
    names
        .iter()
        .find_map(|n| std::env::var(n).ok().and_then(|v| v.trim().parse().ok()))
}

/// The nodes rank `rank` of `world` steps: the `rank`-th of `world` contiguous blocks, as
/// equal as they come (the engine splits threads and partitions the same way).
pub fn share(nodes: usize, world: usize, rank: usize) -> Range<usize> {
    rank * nodes / world..(rank + 1) * nodes / world
}

/// The lanes between this process's nodes and one other process's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerLanes {
    pub rank: usize,
    /// This process's nodes with a lane into the peer's nodes, in node order, each with those
    /// ports (bit q: port q): what it sends.
    pub send: Vec<(usize, u16)>,
    /// The peer's nodes with a lane into this process's nodes, likewise: what it receives.
    pub recv: Vec<(usize, u16)>,
}

/// Every lane that crosses between this process and another, by peer in rank order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Halo {
    pub peers: Vec<PeerLanes>,
}

impl Halo {
    /// The lanes of rank `rank` of `world` on `topo`.
    pub fn new(topo: &dyn Topology, world: usize, rank: usize) -> Halo {
        let n = topo.nodes();
        let mut owner = vec![0; n];
        for r in 0..world {
            owner[share(n, world, r)].fill(r);
        }
        let rank_of = |m: usize| owner[m];
        let mut peers: Vec<PeerLanes> = (0..world)
            .map(|r| PeerLanes {
                rank: r,
                send: Vec::new(),
                recv: Vec::new(),
            })
            .collect();
        let own = share(n, world, rank);
        for id in 0..n {
            let mine = own.contains(&id);
            for q in 0..topo.ports() {
                let Some((m, _)) = topo.link(id, q) else {
                    continue;
                };
                let (other, list) = match (mine, own.contains(&m)) {
                    // a lane of mine into another process's node: sent
                    (true, false) => (rank_of(m), 0),
                    // another process's lane into my node: received
                    (false, true) => (rank_of(id), 1),
                    _ => continue,
                };
                let l = if list == 0 {
                    &mut peers[other].send
                } else {
                    &mut peers[other].recv
                };
                match l.last_mut() {
                    Some((last, mask)) if *last == id => *mask |= 1 << q,
                    _ => l.push((id, 1 << q)),
                }
            }
        }
        peers.retain(|p| !p.send.is_empty() || !p.recv.is_empty());
        Halo { peers }
    }
}

/// The message of `lanes`: for every node, its beats of those ports in the outbox of parity
/// `par`, counted, then three words each.
pub fn encode(outbox: &[Outbox], lanes: &[(usize, u16)], par: usize) -> Vec<u64> {
    let mut w = Vec::new();
    for &(id, mask) in lanes {
        let out = outbox[id][par].lock().expect("outbox");
        let at = w.len();
        w.push(0);
        for b in out.iter().filter(|b| mask >> b.port & 1 != 0) {
            w.extend([b.port as u64, b.at, b.data]);
        }
        w[at] = ((w.len() - at - 1) / 3) as u64;
    }
    w
}

/// A message of `lanes` ([`encode`]) into the outboxes of parity `par` of their nodes; an error
/// for words `encode` could not have written.
pub fn decode(
    words: &[u64],
    outbox: &[Outbox],
    lanes: &[(usize, u16)],
    par: usize,
) -> Result<(), String> {
    let mut rest = words;
    for &(id, mask) in lanes {
        let (&k, r) = rest
            .split_first()
            .ok_or_else(|| format!("message ends before node {id}"))?;
        let (beats, r) = usize::try_from(k)
            .ok()
            .and_then(|k| r.split_at_checked(k.checked_mul(3)?))
            .ok_or_else(|| format!("node {id}: {k} beats, past the message's end"))?;
        rest = r;
        let mut out = outbox[id][par].lock().expect("outbox");
        out.clear();
        for b in beats.chunks_exact(3) {
            let port = u8::try_from(b[0])
                .ok()
                .filter(|&p| (p as usize) < 16 && mask >> p & 1 != 0)
                .ok_or_else(|| format!("node {id}: a beat of port {}, not a lane", b[0]))?;
            out.push(Beat {
                port,
                at: b[1],
                data: b[2],
            });
        }
    }
    if rest.is_empty() {
        Ok(())
    } else {
        Err(format!("{} words past the last node", rest.len()))
    }
}

/// How far a process got setting up a run, for the start-up check ([`verdict`]).
pub mod stage {
    /// Its configuration could not be read or refused.
    pub const NO_CONFIG: u64 = 0;
    /// Configuration read (its hash is valid), but the run could not be set up.
    pub const FAILED: u64 = 1;
    /// Ready to run.
    pub const READY: u64 = 2;
}

/// FNV-1a over `bytes`, continuing from `h` (start: [`FNV_START`]).
pub fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// What every process decides from every process's (stage, hash of command line and
/// configuration) of the start-up check: `None`, run; else the message rank 0 prints from every
/// process's error (`errors[r]`, empty for a process without one) before they all exit 2.
pub fn verdict(status: &[[u64; 2]], errors: &[String]) -> Option<String> {
    let ready = status.iter().all(|s| s[0] == stage::READY);
    let read: Vec<(usize, u64)> = status
        .iter()
        .enumerate()
        .filter(|(_, s)| s[0] != stage::NO_CONFIG)
        .map(|(r, s)| (r, s[1]))
        .collect();
    let differ: Vec<usize> = match read.first() {
        Some(&(_, h0)) => read.iter().filter(|x| x.1 != h0).map(|x| x.0).collect(),
        None => Vec::new(),
    };
    if ready && differ.is_empty() {
        return None;
    }
    let world = status.len();
    let mut lines = Vec::new();
    if !differ.is_empty() {
        let list = differ
            .iter()
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        lines.push(format!(
            "the {world} MPI ranks were not given the same command line and configuration: \
             rank{} {list} differ{} from rank {} (every rank runs the same `exanet network run` \
             with the same options and configuration file contents)",
            if differ.len() == 1 { "" } else { "s" },
            if differ.len() == 1 { "s" } else { "" },
            read[0].0
        ));
    }
    let failed: Vec<usize> = (0..world)
        .filter(|&r| status[r][0] != stage::READY)
        .collect();
    let same = failed.len() == world && errors.iter().all(|e| *e == errors[0]);
    if same && differ.is_empty() {
        // every rank refused the same input: as one process would say it
        lines.push(errors[0].clone());
    } else {
        for r in failed {
            lines.push(format!("rank {r} of {world}: {}", errors[r]));
        }
    }
    Some(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::parse;

    #[test]
    fn the_shares_cover_the_nodes_and_every_lane_is_sent_by_one_rank_and_received_by_the_other() {
        for (topo, world) in [
            ("torus:8x8", 4),
            ("torus:4x4x2", 3),
            ("dragonfly:p=2,a=4,h=2,g=5", 5),
        ] {
            let t = parse(topo).unwrap();
            let t = t.as_ref();
            let n = t.nodes();
            let halos: Vec<Halo> = (0..world).map(|r| Halo::new(t, world, r)).collect();
            let mut next = 0;
            for r in 0..world {
                let s = share(n, world, r);
                assert_eq!(s.start, next);
                next = s.end;
            }
            assert_eq!(next, n);
            let mut lanes = 0;
            for (r, h) in halos.iter().enumerate() {
                for p in &h.peers {
                    assert_ne!(p.rank, r, "{topo}");
                    let back = halos[p.rank].peers.iter().find(|x| x.rank == r).unwrap();
                    assert_eq!(p.send, back.recv, "{topo}: {r} to {}", p.rank);
                    lanes += p.send.iter().map(|x| x.1.count_ones()).sum::<u32>();
                }
            }
            // every lane whose ends two ranks step, counted once
            let own = |m: usize| {
                (0..world)
                    .find(|&r| share(n, world, r).contains(&m))
                    .unwrap()
            };
            let crossing = (0..n)
                .flat_map(|id| (0..t.ports()).filter_map(move |q| t.link(id, q).map(|l| (id, l.0))))
                .filter(|&(a, b)| own(a) != own(b))
                .count();
            assert_eq!(lanes as usize, crossing, "{topo}");
        }
    }

    #[test]
    fn a_message_carries_the_beats_of_its_lanes_only_and_refuses_what_it_could_not_hold() {
        let outbox: Vec<Outbox> = (0..4).map(|_| Default::default()).collect();
        let beat = |port, at| Beat {
            port,
            at,
            data: at * 7,
        };
        outbox[1][1]
            .lock()
            .unwrap()
            .extend([beat(0, 10), beat(2, 11), beat(3, 12)]);
        outbox[3][1].lock().unwrap().push(beat(1, 13));
        let lanes = [(1, 0b0101), (2, 0b1), (3, 0b10)];
        let w = encode(&outbox, &lanes, 1);
        assert_eq!(w, [2, 0, 10, 70, 2, 11, 77, 0, 1, 1, 13, 91]);
        let other: Vec<Outbox> = (0..4).map(|_| Default::default()).collect();
        other[2][1].lock().unwrap().push(beat(0, 1));
        decode(&w, &other, &lanes, 1).unwrap();
        assert_eq!(*other[1][1].lock().unwrap(), [beat(0, 10), beat(2, 11)]);
        assert!(other[2][1].lock().unwrap().is_empty(), "cleared");
        assert_eq!(*other[3][1].lock().unwrap(), [beat(1, 13)]);
        assert!(
            other[1][0].lock().unwrap().is_empty(),
            "the other parity untouched"
        );
        assert!(decode(&w[..5], &other, &lanes, 1).is_err());
        assert!(decode(&[w.clone(), vec![0]].concat(), &other, &lanes, 1).is_err());
        assert!(
            decode(&[1, 1, 0, 0, 0, 0], &other, &lanes, 1).is_err(),
            "port 1 of node 1"
        );
    }

    #[test]
    fn the_start_up_check_runs_only_when_every_rank_is_ready_with_the_same_input() {
        let none = vec![String::new(); 3];
        assert_eq!(verdict(&[[2, 5], [2, 5], [2, 5]], &none), None);
        let m = verdict(&[[2, 5], [2, 6], [2, 5]], &none).unwrap();
        assert!(m.contains("rank 1 differs from rank 0"), "{m}");
        // every rank refusing the same input says it once, as one process would
        let same = vec!["topology: bad".to_string(); 3];
        assert_eq!(
            verdict(&[[0, 0], [0, 0], [0, 0]], &same).unwrap(),
            "topology: bad"
        );
        let errs = vec![String::new(), "cannot read f.toml".into(), String::new()];
        let m = verdict(&[[2, 5], [0, 0], [2, 5]], &errs).unwrap();
        assert_eq!(m, "rank 1 of 3: cannot read f.toml");
        let errs = vec!["a".into(), String::new(), "b".into()];
        let m = verdict(&[[1, 5], [2, 5], [1, 5]], &errs).unwrap();
        assert_eq!(m, "rank 0 of 3: a\nrank 2 of 3: b");
    }
}
