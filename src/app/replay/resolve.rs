//! What one rank's SimGrid TI trace leaves out, recovered from the traces of all ranks before a
//! replay (issue 31): which receives are from `MPI_PROC_NULL`, which tags a `sendRecv`'s two
//! halves carry, and whether every message has a receive and every receive a message.
//!
//! SimGrid 3.32's writer (see `simgrid.rs`) loses three things:
//! - **`MPI_PROC_NULL` receives.** An `irecv` from `MPI_PROC_NULL` is written with source -333,
//!   the same as one from `MPI_ANY_SOURCE`. A halo exchange on a non-periodic grid
//!   (`MPI_Cart_shift` at the edges) posts such receives every step. Read as wildcards, they
//!   take a neighbour's message, and the receive that waited for it blocks for ever.
//! - **A `sendRecv`'s tags.** They are not written, so its halves must pair with whatever the
//!   peer posted: another `sendRecv`, or a plain send and receive with a tag.
//! - **Communicators.** A collective on a row communicator reads as one on MPI_COMM_WORLD.
//!
//! # How
//! Messages are paired with receives from the traces alone, the most specific receives first.
//! A receive takes, in its rank's program order, the first message still free that it accepts:
//! of the source's sends to it, in the source's program order (MPI's messages do not overtake
//! on a channel), and for a receive from -333 of the lowest source rank that has one (the order
//! a wildcard sees messages in is timing, not in the trace; the counts are). A receive with
//! `MPI_ANY_TAG`, and a `sendRecv`'s receive half, accept any tag; a `sendRecv`'s send half
//! fits any receive. The stages:
//! 1. receives naming source and tag, from plain sends;
//! 2. `sendRecv` receive halves, from the peer's `sendRecv` send halves (the usual exchange);
//! 3. the other receives naming their source;
//! 4. receives from -333 with a tag, from plain sends first;
//! 5. receives from -333 with any tag.
//!
//! A wildcard receive comes after the specific ones so that it does not take the message a later
//! specific receive needs (the traced run gave the wildcard another one, or the specific receive
//! would have blocked).
//!
//! Then, what is left:
//! - an `irecv` from -333 that took no message is from `MPI_PROC_NULL`. It completes at once,
//!   and moves nothing. Where a rank's -333 receives of one tag are some paired and some not,
//!   which of them were `MPI_PROC_NULL` is timing, not in the trace: refused;
//! - a blocking `recv` or `sendRecv` from -333 is from `MPI_ANY_SOURCE` (SimGrid writes nothing
//!   for these from `MPI_PROC_NULL`). If it took no message, no rank's trace sends it one:
//!   refused;
//! - a receive naming its source that took no message: the source's trace is silent about it.
//!   The cause is most often a `sendRecv` with `MPI_PROC_NULL` at one end, of which SimGrid
//!   writes nothing, not even the other half. Refused;
//! - a message no receive took would be left unreceived at the end. Refused.
//!
//! A `sendRecv`'s send half goes out with the tag of the receive that took it (any tag when that
//! is a wildcard or another `sendRecv`: [`SENDRECV_TAG`]). Its receive half accepts the tag of
//! the message it took.
//!
//! Every rank must call the same collectives in the same order, with the same root: MPI requires
//! it of the ranks of one communicator. A rank that calls one more, or another, or with another
//! root, is calling it on a communicator not every rank is in. That is refused, because the
//! replay would run it on MPI_COMM_WORLD. What cannot be seen this way: every rank calling a
//! collective of one size, each on its own row communicator. That reads as one collective of
//! the world, and [`Resolution::collectives`] says so to the user.
//!
//! Every refusal names the file and line, the rank, and the reason.

use super::simgrid::{Action, Loc, TiTrace};
use crate::app::record::Collective;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The tag a `sendRecv`'s half goes out with, or accepts, when its partner accepts any: a tag no
/// program uses (MPI's tags are at most `MPI_TAG_UB`, 2^31 - 1 in SimGrid, and programs stay far
/// below).
pub const SENDRECV_TAG: i32 = i32::MAX - 1;

/// What the replay takes from the pairing.
#[derive(Debug, Clone, Default)]
pub struct Resolution {
    /// Per rank, the positions (in its action list) of the receives from `MPI_PROC_NULL`.
    pub null_receives: Vec<HashSet<usize>>,
    /// Per rank, by position of a `sendRecv`: the tag its send half goes out with, and the tag
    /// its receive half accepts (`None`: any).
    pub sendrecv_tags: Vec<HashMap<usize, (i32, Option<i32>)>>,
    /// Collective calls a rank makes (every rank the same).
    pub collectives: u64,
}

impl Resolution {
    /// Receives from `MPI_PROC_NULL`, all ranks.
    pub fn null_receive_count(&self) -> u64 {
        self.null_receives.iter().map(|s| s.len() as u64).sum()
    }
}

/// One end of a point-to-point message, as pairing sees it.
#[derive(Debug, Clone, Copy)]
struct End {
    /// Position in the rank's action list.
    at: usize,
    /// The other rank (`None`: -333).
    peer: Option<u32>,
    /// The tag (`None`: any, for a receive; unknown, for a `sendRecv`'s half).
    tag: Option<i32>,
    /// A `sendRecv`'s half.
    sendrecv: bool,
    /// A non-blocking receive (only these can be from `MPI_PROC_NULL`).
    nonblocking: bool,
}

/// Which sends a pairing stage takes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum From {
    /// Plain sends (their tag must fit).
    Plain,
    /// `sendRecv` send halves (they fit any receive).
    SendRecv,
    /// Either: the first in the sender's program order that fits.
    Any,
}

/// The sends still free on each channel, in the sender's program order, for pairing in time
/// linear in the trace: per channel (source, destination) its plain sends by tag, all its plain
/// sends, and its `sendRecv` send halves, each a list of positions in the source's sends with a
/// cursor at the first that may be free (a taken send stays taken, so a cursor only moves on).
struct Queues {
    by_tag: HashMap<(usize, usize, i32), Queue>,
    plain: HashMap<(usize, usize), Queue>,
    sendrecv: HashMap<(usize, usize), Queue>,
    /// `used[s][j]`: send j of rank s is taken.
    used: Vec<Vec<bool>>,
}

#[derive(Default)]
struct Queue {
    at: Vec<usize>,
    next: usize,
}

impl Queue {
    /// The first send still free.
    fn head(&mut self, used: &[bool]) -> Option<usize> {
        while self.next < self.at.len() && used[self.at[self.next]] {
            self.next += 1;
        }
        self.at.get(self.next).copied()
    }
}

impl Queues {
    fn new(sends: &[Vec<End>]) -> Queues {
        let mut q = Queues {
            by_tag: HashMap::new(),
            plain: HashMap::new(),
            sendrecv: HashMap::new(),
            used: sends.iter().map(|v| vec![false; v.len()]).collect(),
        };
        for (s, list) in sends.iter().enumerate() {
            for (j, sd) in list.iter().enumerate() {
                let Some(d) = sd.peer else { continue };
                let d = d as usize;
                match sd.tag {
                    Some(t) if !sd.sendrecv => {
                        q.by_tag.entry((s, d, t)).or_default().at.push(j);
                        q.plain.entry((s, d)).or_default().at.push(j);
                    }
                    _ => q.sendrecv.entry((s, d)).or_default().at.push(j),
                }
            }
        }
        q
    }

    /// Take the first send from `s` to `d` that a receive of `tag` (`None`: any) accepts,
    /// among those `from` names; its position in `s`'s sends.
    fn take(&mut self, s: usize, d: usize, tag: Option<i32>, from: From) -> Option<usize> {
        let used = &self.used[s];
        let plain = match tag {
            Some(t) => self.by_tag.get_mut(&(s, d, t)),
            None => self.plain.get_mut(&(s, d)),
        };
        let plain = match from {
            From::SendRecv => None,
            _ => plain.and_then(|q| q.head(used)),
        };
        let sendrecv = match from {
            From::Plain => None,
            _ => self.sendrecv.get_mut(&(s, d)).and_then(|q| q.head(used)),
        };
        let j = match (plain, sendrecv) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        self.used[s][j] = true;
        Some(j)
    }
}

/// Pair the messages of `t` with their receives; an error names the first action that cannot
/// be replayed as the program ran, and why.
pub fn resolve(t: &TiTrace) -> Result<Resolution, String> {
    let n = t.size();
    let mut sends: Vec<Vec<End>> = vec![Vec::new(); n];
    let mut recvs: Vec<Vec<End>> = vec![Vec::new(); n];
    for (r, list) in t.ranks.iter().enumerate() {
        for (at, (a, _)) in list.iter().enumerate() {
            let end = |peer, tag, sendrecv, nonblocking| End {
                at,
                peer,
                tag,
                sendrecv,
                nonblocking,
            };
            match a {
                Action::Send { dst, tag, .. }
                | Action::Isend { dst, tag, .. }
                | Action::Ssend { dst, tag, .. }
                | Action::Issend { dst, tag, .. }
                | Action::Bsend { dst, tag, .. }
                | Action::Ibsend { dst, tag, .. } => {
                    sends[r].push(end(Some(*dst), Some(*tag), false, false))
                }
                Action::Recv { src, tag, .. } => recvs[r].push(end(*src, *tag, false, false)),
                Action::Irecv { src, tag, .. } => recvs[r].push(end(*src, *tag, false, true)),
                Action::SendRecv { dst, src, .. } => {
                    sends[r].push(end(Some(*dst), None, true, false));
                    recvs[r].push(end(*src, None, true, false));
                }
                _ => {}
            }
        }
    }
    // taken[d][k]: the message (source rank, index in its sends) receive k of rank d took
    let mut taken: Vec<Vec<Option<(usize, usize)>>> =
        recvs.iter().map(|v| vec![None; v.len()]).collect();
    let mut queues = Queues::new(&sends);
    // stages, from the most specific receives to the least (see the module header): which
    // receives a stage pairs, and with which sends
    type Takes = fn(&End) -> bool;
    let stages: [(Takes, From); 6] = [
        // 1. a receive naming its source and tag takes a plain send's message of that tag
        (
            |r| r.peer.is_some() && r.tag.is_some() && !r.sendrecv,
            From::Plain,
        ),
        // 2. a sendRecv's receive half takes the peer's sendRecv's message
        (|r| r.peer.is_some() && r.sendrecv, From::SendRecv),
        // 3. any other receive naming its source, any message of the source
        (|r| r.peer.is_some(), From::Any),
        // 4. from -333 with a tag: plain sends' messages first, then sendRecvs'
        (
            |r| r.peer.is_none() && r.tag.is_some() && !r.sendrecv,
            From::Plain,
        ),
        (
            |r| r.peer.is_none() && r.tag.is_some() && !r.sendrecv,
            From::Any,
        ),
        // 5. from -333 with any tag
        (|r| r.peer.is_none(), From::Any),
    ];
    for (takes, from) in stages {
        for d in 0..n {
            for (k, rv) in recvs[d].iter().enumerate() {
                if taken[d][k].is_some() || !takes(rv) {
                    continue;
                }
                let sources = match rv.peer {
                    Some(s) if (s as usize) < n => s as usize..s as usize + 1,
                    Some(_) => continue,
                    None => 0..n,
                };
                for s in sources {
                    if let Some(j) = queues.take(s, d, rv.tag, from) {
                        taken[d][k] = Some((s, j));
                        break;
                    }
                }
            }
        }
    }
    let used = queues.used;
    // what is left
    let loc = |r: usize, at: usize| -> &Loc { &t.ranks[r][at].1 };
    let tag_text = |tag: Option<i32>| match tag {
        Some(t) => format!("tag {t}"),
        None => "any tag".to_string(),
    };
    let mut res = Resolution {
        null_receives: vec![HashSet::new(); n],
        sendrecv_tags: vec![HashMap::new(); n],
        collectives: 0,
    };
    for d in 0..n {
        // -333 receives by tag: (paired, unpaired non-blocking) positions
        let mut wild: BTreeMap<Option<i32>, (Vec<usize>, Vec<usize>)> = BTreeMap::new();
        for (k, rv) in recvs[d].iter().enumerate() {
            let paired = taken[d][k].is_some();
            match rv.peer {
                Some(src) if !paired => {
                    let l = loc(d, rv.at);
                    let what = if rv.sendrecv {
                        "the receive half of an MPI_Sendrecv".to_string()
                    } else {
                        format!("a receive with {}", tag_text(rv.tag))
                    };
                    return Err(format!(
                        "{}:{}: rank {d} posts {what} from rank {src}, and rank {src}'s trace \
                         sends it no message left for it: the replay would block here for ever. \
                         SimGrid's TI trace writes nothing for an MPI_Sendrecv with \
                         MPI_PROC_NULL at one end (not even its other half), and no \
                         communicator for a message on a sub-communicator; an OTF2 trace of the \
                         run (Score-P) keeps both",
                        l.file, l.line
                    ));
                }
                None if !paired && !rv.nonblocking => {
                    let l = loc(d, rv.at);
                    return Err(format!(
                        "{}:{}: rank {d} posts a blocking receive from MPI_ANY_SOURCE ({}) that \
                         no rank's trace sends a message left for: the replay would block here \
                         for ever (a receive of a message the traces do not show; SimGrid \
                         writes nothing for a blocking receive from MPI_PROC_NULL)",
                        l.file,
                        l.line,
                        tag_text(rv.tag)
                    ));
                }
                None => {
                    let e = wild.entry(rv.tag).or_default();
                    if paired {
                        e.0.push(rv.at);
                    } else {
                        e.1.push(rv.at);
                    }
                }
                Some(_) => {}
            }
        }
        for (tag, (paired, null)) in &wild {
            if null.is_empty() {
                continue;
            }
            if let Some(&p) = paired.first() {
                let l = loc(d, null[0]);
                let lp = loc(d, p);
                return Err(format!(
                    "{}:{}: rank {d} posts {} non-blocking receives from source -333 with {}, \
                     which SimGrid writes for MPI_ANY_SOURCE and MPI_PROC_NULL alike; the other \
                     ranks' traces send it {} messages for them (one is taken at {}:{}), so \
                     {} of them are from MPI_PROC_NULL, and which ones the trace does not say. \
                     An OTF2 trace of the run (Score-P) names every receive's source",
                    l.file,
                    l.line,
                    paired.len() + null.len(),
                    tag_text(*tag),
                    paired.len(),
                    lp.file,
                    lp.line,
                    null.len()
                ));
            }
            res.null_receives[d].extend(null.iter().copied());
        }
    }
    for (s, list) in sends.iter().enumerate() {
        for (j, sd) in list.iter().enumerate() {
            if !used[s][j] {
                let l = loc(s, sd.at);
                let dst = sd.peer.unwrap_or(u32::MAX);
                let what = if sd.sendrecv {
                    "the send half of an MPI_Sendrecv".to_string()
                } else {
                    format!("a message with {}", tag_text(sd.tag))
                };
                return Err(format!(
                    "{}:{}: rank {s} sends {what} to rank {dst}, and rank {dst}'s trace has no \
                     receive left for it: the message would be left unreceived at the end. \
                     SimGrid's TI trace writes no communicator (a message on a sub-communicator \
                     names its rank there) and nothing for an MPI_Sendrecv with MPI_PROC_NULL \
                     at one end; an OTF2 trace of the run (Score-P) keeps both",
                    l.file, l.line
                ));
            }
        }
    }
    // the sendRecv halves' tags, from their partners
    for d in 0..n {
        for (k, rv) in recvs[d].iter().enumerate() {
            let Some((s, j)) = taken[d][k] else { continue };
            let sd = &sends[s][j];
            if sd.sendrecv {
                // the send half goes out with the tag this receive accepts
                let tag = rv.tag.unwrap_or(SENDRECV_TAG);
                let e = res.sendrecv_tags[s].entry(sd.at).or_insert((0, None));
                e.0 = tag;
            }
            if rv.sendrecv {
                let tag = match sd.tag {
                    Some(t) => Some(t),
                    None => rv.tag.or(Some(SENDRECV_TAG)),
                };
                let e = res.sendrecv_tags[d].entry(rv.at).or_insert((0, None));
                e.1 = tag;
            }
        }
    }
    res.collectives = check_collectives(t)?;
    Ok(res)
}

/// A collective call: its MPI name, the collective it is on the timelines, and its root.
type Coll = (&'static str, Collective, Option<u32>);

/// A collective call as every rank of a communicator must make it: its MPI name and root.
fn collective(a: &Action) -> Option<Coll> {
    Some(match a {
        Action::Barrier => ("MPI_Barrier", Collective::Barrier, None),
        Action::Bcast { root, .. } => ("MPI_Bcast", Collective::Bcast, Some(*root)),
        Action::Reduce { root, .. } => ("MPI_Reduce", Collective::Reduce, Some(*root)),
        Action::Allreduce { .. } => ("MPI_Allreduce", Collective::Allreduce, None),
        Action::Scan { .. } => ("MPI_Scan", Collective::Scan, None),
        Action::Exscan { .. } => ("MPI_Exscan", Collective::Exscan, None),
        Action::Alltoall { .. } => ("MPI_Alltoall", Collective::Alltoall, None),
        Action::Alltoallv { .. } => ("MPI_Alltoallv", Collective::Alltoallv, None),
        Action::Gather { root, .. } => ("MPI_Gather", Collective::Gather, Some(*root)),
        Action::Gatherv { root, .. } => ("MPI_Gatherv", Collective::Gatherv, Some(*root)),
        Action::Allgather { .. } => ("MPI_Allgather", Collective::Allgather, None),
        Action::Allgatherv { .. } => ("MPI_Allgatherv", Collective::Allgatherv, None),
        Action::Scatter { root, .. } => ("MPI_Scatter", Collective::Scatter, Some(*root)),
        Action::Scatterv { root, .. } => ("MPI_Scatterv", Collective::Scatterv, Some(*root)),
        Action::Reducescatter { .. } => ("MPI_Reduce_scatter", Collective::ReduceScatter, None),
        Action::OnComm { action, .. } => return collective(action),
        _ => return None,
    })
}

/// The MPI name of a collective action (`None` for any other action).
pub fn collective_name(a: &Action) -> Option<&'static str> {
    collective(a).map(|c| c.0)
}

/// The collective a collective action is on the timelines: its MPI call's (`None` for any
/// other action).
pub fn timeline_collective(a: &Action) -> Option<Collective> {
    collective(a).map(|c| c.1)
}

/// The MPI call an action is (or what it stands for: computing between calls).
pub fn call_name(a: &Action) -> &'static str {
    if let Some(c) = collective_name(a) {
        return c;
    }
    match a {
        Action::Init => "MPI_Init",
        Action::Finalize => "MPI_Finalize",
        Action::Compute { .. } | Action::ComputeTime { .. } => "computing",
        Action::Sleep { .. } => "sleep",
        Action::Send { .. } => "MPI_Send",
        Action::Isend { .. } => "MPI_Isend",
        Action::Ssend { .. } => "MPI_Ssend",
        Action::Issend { .. } => "MPI_Issend",
        Action::Bsend { .. } => "MPI_Bsend",
        Action::Ibsend { .. } => "MPI_Ibsend",
        Action::ProcNullSend { .. } => "a send to MPI_PROC_NULL",
        Action::Recv { .. } => "MPI_Recv",
        Action::Irecv { .. } => "MPI_Irecv",
        Action::SendRecv { .. } => "MPI_Sendrecv",
        Action::Test { .. } => "MPI_Test",
        Action::Wait { .. } => "MPI_Wait",
        Action::Waitany { .. } => "MPI_Waitany",
        Action::Waitall { .. } => "MPI_Waitall",
        Action::WaitStarted { blocking: true, .. } => "a blocking call's completion",
        Action::WaitStarted { .. } => "a wait (MPI_Wait, MPI_Waitall, ...)",
        Action::Testany => "MPI_Testany",
        Action::Testall => "MPI_Testall",
        Action::Testsome => "MPI_Testsome",
        _ => "an MPI call",
    }
}

/// Every rank calls the same collectives, in the same order, with the same root; the number of
/// collective calls of a rank.
fn check_collectives(t: &TiTrace) -> Result<u64, String> {
    let seq = |r: usize| -> Vec<(usize, Coll)> {
        t.ranks[r]
            .iter()
            .enumerate()
            // (a collective on a communicator of some ranks, an OTF2 trace's, was checked
            // among its members when the trace was read)
            .filter(|(_, (a, _))| !matches!(a, Action::OnComm { .. }))
            .filter_map(|(at, (a, _))| collective(a).map(|c| (at, c)))
            .collect()
    };
    let Some(first) = (0..t.size()).next().map(seq) else {
        return Ok(0);
    };
    let why = "MPI requires the same collectives in the same order, with the same root, of every \
               rank of a communicator, so this one is on a communicator not every rank is in; \
               SimGrid's TI trace writes no communicator and the replay would run it on \
               MPI_COMM_WORLD. An OTF2 trace of the run (Score-P) names each collective's \
               communicator";
    let name = |c: Coll| match c.2 {
        Some(root) => format!("{} (root {root})", c.0),
        None => c.0.to_string(),
    };
    for r in 1..t.size() {
        let mine = seq(r);
        for k in 0..first.len().max(mine.len()) {
            let (a, b) = (first.get(k), mine.get(k));
            if a.map(|x| x.1) == b.map(|x| x.1) {
                continue;
            }
            let at = |r: usize, x: Option<&(usize, Coll)>| match x {
                Some((at, c)) => {
                    let l = &t.ranks[r][*at].1;
                    format!("{} at {}:{}", name(*c), l.file, l.line)
                }
                None => "no more collectives".to_string(),
            };
            let (r_here, here, other) = match b {
                Some(_) => (r, at(r, b), format!("rank 0 calls {}", at(0, a))),
                None => (0, at(0, a), format!("rank {r} calls {}", at(r, b))),
            };
            return Err(format!(
                "rank {r_here}'s collective call {} is {here}, where {other}: {why}",
                k + 1
            ));
        }
    }
    Ok(first.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::replay::simgrid::parse_one_file;

    fn trace(text: &str) -> TiTrace {
        parse_one_file("t.txt", text, None).unwrap()
    }

    #[test]
    fn procnull_receives_at_a_halo_edge_are_told_from_wildcards() {
        // a 1-D non-periodic halo of 3 ranks, twice: the edges irecv from MPI_PROC_NULL (-333)
        let mut s = String::new();
        for r in 0..3 {
            s += &format!("{r} init\n");
        }
        for _ in 0..2 {
            s += "0 irecv -333 0 1 1\n0 irecv 1 0 1 1\n0 send 1 0 1 1\n0 waitall 2\n";
            s += "1 irecv 0 0 1 1\n1 irecv 2 0 1 1\n1 send 0 0 1 1\n1 send 2 0 1 1\n1 waitall 2\n";
            s += "2 irecv 1 0 1 1\n2 irecv -333 0 1 1\n2 send 1 0 1 1\n2 waitall 2\n";
        }
        for r in 0..3 {
            s += &format!("{r} finalize\n");
        }
        let res = resolve(&trace(&s)).unwrap();
        assert_eq!(res.null_receives[0].len(), 2);
        assert_eq!(res.null_receives[1].len(), 0);
        assert_eq!(res.null_receives[2].len(), 2);
    }

    #[test]
    fn a_sendrecv_takes_the_tags_of_a_plain_send_and_receive() {
        let s = "0 init\n1 init\n0 sendRecv 4 1 4 1 1 1\n1 recv 0 5 4 1\n1 send 0 7 4 1\n\
                 0 finalize\n1 finalize\n";
        let res = resolve(&trace(s)).unwrap();
        assert_eq!(res.sendrecv_tags[0][&1], (5, Some(7)));
        let s = "0 init\n1 init\n0 sendRecv 4 1 4 1 1 1\n1 sendRecv 4 0 4 0 1 1\n\
                 0 finalize\n1 finalize\n";
        let res = resolve(&trace(s)).unwrap();
        assert_eq!(res.sendrecv_tags[0][&1], (SENDRECV_TAG, Some(SENDRECV_TAG)));
        assert_eq!(res.sendrecv_tags[1][&1], (SENDRECV_TAG, Some(SENDRECV_TAG)));
    }

    #[test]
    fn what_the_traces_cannot_pair_is_refused_with_its_line_and_reason() {
        for (text, want) in [
            // rank 1's partner wrote nothing (a sendrecv with MPI_PROC_NULL at one end)
            ("0 init\n1 init\n1 recv 0 3 4 1\n0 finalize\n1 finalize\n", "t.txt:3: rank 1 posts a receive with tag 3 from rank 0"),
            ("0 init\n1 init\n0 send 1 3 4 1\n0 finalize\n1 finalize\n", "t.txt:3: rank 0 sends a message with tag 3 to rank 1"),
            ("0 init\n1 init\n1 recv -333 3 4 1\n0 finalize\n1 finalize\n", "blocking receive from MPI_ANY_SOURCE"),
            // two -333 irecvs, one message: which one is MPI_PROC_NULL?
            ("0 init\n1 init\n0 send 1 3 4 1\n1 irecv -333 3 4 1\n1 irecv -333 3 4 1\n1 waitall 2\n0 finalize\n1 finalize\n", "which ones the trace does not say"),
            // a bcast only rank 0 calls (a sub-communicator)
            ("0 init\n1 init\n0 bcast 4 0 1\n0 finalize\n1 finalize\n", "rank 0's collective call 1 is MPI_Bcast (root 0) at t.txt:3, where rank 1 calls no more collectives"),
            ("0 init\n1 init\n0 bcast 4 0 1\n1 bcast 4 1 1\n0 finalize\n1 finalize\n", "rank 1's collective call 1 is MPI_Bcast (root 1)"),
        ] {
            let e = resolve(&trace(text)).unwrap_err();
            assert!(e.contains(want), "{e}\nwanted: {want}");
        }
    }
}
