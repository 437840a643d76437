//! A run's timeline, recorded by an observer of the application layer: what each rank does from
//! its start to its finish, and when each message was posted, sent, taken and delivered (seed
//! 004 §3.2 and Table 1: the MPI-level state and communication records Dimemas writes for
//! Paraver). With recording off (the default) nothing here runs; with it on, the simulated
//! cycles are the same (it only reads what the endpoint and the message tables do).
//!
//! ```text
//!   rank futures --calls + composite context (api.rs)--> endpoint --call, finish--> RankRec
//!   endpoint: isend effect --posted--> SendEntry;  packets to the NIC --started--> SendEntry
//!   mpi.rs: a receive completes --------------------------------------> RecvRecord
//!   run.rs: every endpoint's record --collect()--> Timeline { ranks' spans, messages }
//! ```
//!
//! **Spans.** A rank's time is tiled by its calls: a call's span runs from the cycle it is made
//! to the cycle the next call is made (or the program returns). A rank's program runs in zero
//! simulated time between calls and resumes in the cycle its call is answered, so the spans
//! cover [start, finish] without gap or overlap. The activity of a span: compute
//! (`consume_*`), send (`isend` and its software cost; a whole blocking `send`), receive (a
//! whole blocking `recv*`), wait (`wait`, `waitall`, `probe*`), collective (everything inside
//! a collective: the outermost composite call names the activity). Spans of one activity in a
//! row are one span, but two collectives in a row stay two. Before the first call (none in
//! practice) a rank computes; after its program returned a rank has no span (docs/decisions/
//! 0021).
//!
//! **Messages** (collectives' included, `coll` set): logical send = the cycle the `isend` was
//! made (the send posted); physical send = the cycle the first packet carrying the message's
//! bytes went to the NIC's queue (or to memory, for a rank of the same endpoint): at once after
//! the send's software cost for an eager message, after the receiver's acknowledge (CTS) for a
//! rendezvous one; logical receive = the cycle the receive that took it was posted (for an
//! unexpected message, later than its arrival); arrival = the cycle its last packet arrived;
//! delivered = the cycle the receive had the whole message (the later of arrival and the
//! match: for an unexpected message, the receive's post).

use super::api::{Call, Request};
use super::envelope::Kind;
use super::mpi::OutPkt;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};

/// What a rank does in a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Activity {
    Compute,
    Send,
    Receive,
    Wait,
    Collective,
}

impl Activity {
    pub const ALL: [Activity; 5] = [
        Activity::Compute,
        Activity::Send,
        Activity::Receive,
        Activity::Wait,
        Activity::Collective,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Activity::Compute => "Compute",
            Activity::Send => "Send",
            Activity::Receive => "Receive",
            Activity::Wait => "Wait",
            Activity::Collective => "Collective",
        }
    }
}

/// Which collective of the SPMD API (`api.rs`), or which MPI collective a program built from
/// the API's (`Rank::as_collective`: a trace replay names each collective by its MPI call).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Collective {
    Barrier,
    BarrierHierarchical,
    Bcast,
    Reduce,
    Allreduce,
    Gather,
    Scatter,
    Allgatherv,
    Alltoall,
    Alltoallv,
    ReduceSized,
    ScanSized,
    ReduceScatterSized,
    Allgather,
    Gatherv,
    Scatterv,
    Scan,
    Exscan,
    ReduceScatter,
}

impl Collective {
    /// In the order of their codes (new ones at the end: a code never changes).
    pub const ALL: [Collective; 19] = [
        Collective::Barrier,
        Collective::BarrierHierarchical,
        Collective::Bcast,
        Collective::Reduce,
        Collective::Allreduce,
        Collective::Gather,
        Collective::Scatter,
        Collective::Allgatherv,
        Collective::Alltoall,
        Collective::Alltoallv,
        Collective::ReduceSized,
        Collective::ScanSized,
        Collective::ReduceScatterSized,
        Collective::Allgather,
        Collective::Gatherv,
        Collective::Scatterv,
        Collective::Scan,
        Collective::Exscan,
        Collective::ReduceScatter,
    ];

    /// The API call's name.
    pub fn name(self) -> &'static str {
        match self {
            Collective::Barrier => "barrier",
            Collective::BarrierHierarchical => "barrier_hierarchical",
            Collective::Bcast => "bcast",
            Collective::Reduce => "reduce",
            Collective::Allreduce => "allreduce",
            Collective::Gather => "gather",
            Collective::Scatter => "scatter",
            Collective::Allgatherv => "allgatherv",
            Collective::Alltoall => "alltoall",
            Collective::Alltoallv => "alltoallv",
            Collective::ReduceSized => "reduce_sized",
            Collective::ScanSized => "scan_sized",
            Collective::ReduceScatterSized => "reduce_scatter_sized",
            Collective::Allgather => "allgather",
            Collective::Gatherv => "gatherv",
            Collective::Scatterv => "scatterv",
            Collective::Scan => "scan",
            Collective::Exscan => "exscan",
            Collective::ReduceScatter => "reduce_scatter",
        }
    }

    /// A code from 1 (the order of [`Self::ALL`]).
    pub fn code(self) -> u32 {
        Collective::ALL
            .iter()
            .position(|&c| c == self)
            .expect("every collective is in ALL") as u32
            + 1
    }
}

/// The composite call a rank is in (set by `api.rs`): a blocking send, a blocking receive, or
/// a collective and its number among the rank's collectives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ctx {
    Send,
    Receive,
    Collective(Collective, u32),
}

/// A stretch of a rank's time, cycles [begin, end).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Span {
    pub begin: u64,
    pub end: u64,
    pub activity: Activity,
    /// Which collective, for a collective span.
    pub collective: Option<Collective>,
}

/// One rank's timeline: its spans tile [start, finish).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RankTimeline {
    pub rank: u32,
    pub endpoint: u32,
    /// The cycle it started (the lanes up) and the cycle its program returned.
    pub start: u64,
    pub finish: u64,
    pub spans: Vec<Span>,
}

/// One delivered message (absolute cycles; see the module header for each time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MessageRecord {
    pub src: u32,
    pub dst: u32,
    pub tag: i32,
    pub bytes: u64,
    /// A collective's message (its tag is the collective's).
    pub coll: bool,
    /// Logical send: the `isend` made.
    pub send_posted: u64,
    /// Physical send: its first packet with message bytes to the NIC (or memory).
    pub send_started: u64,
    /// Logical receive: the receive that took it posted.
    pub recv_posted: u64,
    /// Physical receive: its last packet arrived.
    pub arrived: u64,
    /// The receive had the whole message (the later of `arrived` and the match).
    pub delivered: u64,
}

/// A run's timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timeline {
    /// The clock (cycles a microsecond).
    pub freq_mhz: f64,
    /// The cycle the ranks started and the cycle the last finished.
    pub start_cycle: u64,
    pub end_cycle: u64,
    /// By rank.
    pub ranks: Vec<RankTimeline>,
    /// Delivered messages, by delivery cycle (then source, destination, send posted).
    pub messages: Vec<MessageRecord>,
}

/// What a rank's message tables (`mpi.rs`) note for a timeline, kept only when recording (so
/// the tables are the same size without it).
#[derive(Debug, Default)]
pub struct RecvLog {
    /// Receives posted and not yet complete: the cycle each was posted.
    posted: HashMap<Request, u64>,
    /// Messages arriving: (source, pair's number) -> their last packet's arrival so far.
    arrived: HashMap<(u32, u32), u64>,
    /// The messages received, in the order they completed.
    pub received: Vec<RecvRecord>,
}

impl RecvLog {
    /// Receive `q` posted at `cycle`.
    pub(crate) fn posted(&mut self, q: Request, cycle: u64) {
        self.posted.insert(q, cycle);
    }

    /// A packet with bytes of message `key` (source, pair's number) arrived at `cycle`.
    pub(crate) fn arrived(&mut self, key: (u32, u32), cycle: u64) {
        let a = self.arrived.entry(key).or_insert(cycle);
        *a = (*a).max(cycle);
    }

    /// Receive `q` has the whole of message `key` at `delivered`.
    pub(crate) fn done(
        &mut self,
        key: (u32, u32),
        q: Request,
        tag: i32,
        len: u64,
        coll: bool,
        delivered: u64,
    ) {
        self.received.push(RecvRecord {
            src: key.0,
            seq: key.1,
            tag,
            len,
            coll,
            posted: self
                .posted
                .remove(&q)
                .expect("a completed receive was posted"),
            arrived: self
                .arrived
                .remove(&key)
                .expect("a received message's packets arrived"),
            delivered,
        });
    }
}

/// A message a rank received (kept by `mpi.rs` when recording): its pair's message number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecvRecord {
    pub src: u32,
    pub seq: u32,
    pub tag: i32,
    pub len: u64,
    pub coll: bool,
    pub posted: u64,
    pub arrived: u64,
    pub delivered: u64,
}

/// What a span is: activity, collective, the collective's number (0 outside one).
type Label = (Activity, Option<Collective>, u32);

/// One rank's record while it runs.
#[derive(Debug)]
struct RankRec {
    rank: u32,
    start: u64,
    /// The span under way: since, what.
    open: (u64, Label),
    spans: Vec<Span>,
    last: Option<Label>,
    /// The cycle of the call under way (an `isend`'s logical send).
    call_at: u64,
    finish: Option<u64>,
}

/// A message sent: its pair's number, what the receiver's record names it by.
#[derive(Debug, Clone, Copy)]
struct SendEntry {
    src: u32,
    dst: u32,
    seq: u32,
    posted: u64,
    started: Option<u64>,
}

/// The record of one endpoint's ranks.
#[derive(Debug)]
pub struct EndpointRecord {
    endpoint: u32,
    ranks: Vec<RankRec>,
    sends: Vec<SendEntry>,
    /// Sends whose first data packet has not gone: (src, dst, seq) -> index in `sends`.
    unstarted: HashMap<(u32, u32, u32), usize>,
}

/// The activity of a call made in composite call `ctx` (the outermost one wins).
fn label(call: &Call, ctx: Option<Ctx>) -> Label {
    match ctx {
        Some(Ctx::Collective(c, n)) => (Activity::Collective, Some(c), n),
        Some(Ctx::Send) => (Activity::Send, None, 0),
        Some(Ctx::Receive) => (Activity::Receive, None, 0),
        None => (
            match call {
                Call::Now | Call::Sent | Call::Consume(_) => Activity::Compute,
                Call::Isend { .. } => Activity::Send,
                Call::Irecv { .. } => Activity::Receive,
                Call::Wait(_) | Call::Probe { .. } => Activity::Wait,
            },
            None,
            0,
        ),
    }
}

impl EndpointRecord {
    /// The record of endpoint `endpoint`'s ranks `ranks` (global numbers, by local index),
    /// which start at `start`.
    pub(crate) fn new(endpoint: u32, ranks: &[u32], start: u64) -> EndpointRecord {
        let compute = (Activity::Compute, None, 0);
        EndpointRecord {
            endpoint,
            ranks: ranks
                .iter()
                .map(|&rank| RankRec {
                    rank,
                    start,
                    open: (start, compute),
                    spans: Vec::new(),
                    last: None,
                    call_at: start,
                    finish: None,
                })
                .collect(),
            sends: Vec::new(),
            unstarted: HashMap::new(),
        }
    }

    /// Close local rank `i`'s open span at `cycle`.
    fn close(r: &mut RankRec, cycle: u64) {
        let (since, l) = r.open;
        if cycle <= since {
            return;
        }
        let merge = r.last == Some(l) && r.spans.last().is_some_and(|s| s.end == since);
        if merge {
            r.spans.last_mut().expect("checked").end = cycle;
        } else {
            r.spans.push(Span {
                begin: since,
                end: cycle,
                activity: l.0,
                collective: l.1,
            });
            r.last = Some(l);
        }
    }

    /// Local rank `i` made `call` at `cycle`, in composite call `ctx`.
    pub(crate) fn call(&mut self, i: usize, call: &Call, ctx: Option<Ctx>, cycle: u64) {
        let r = &mut self.ranks[i];
        Self::close(r, cycle);
        r.open = (cycle, label(call, ctx));
        r.call_at = cycle;
    }

    /// Local rank `i`'s program returned at `cycle`.
    pub(crate) fn finish(&mut self, i: usize, cycle: u64) {
        let r = &mut self.ranks[i];
        Self::close(r, cycle);
        r.open = (cycle, r.open.1);
        r.finish = Some(cycle);
    }

    /// Local rank `i`'s `isend` took effect: `first` is the message's first packet (EAGER or
    /// RTS, carrying its pair's number).
    pub(crate) fn posted(&mut self, i: usize, first: &OutPkt) {
        let e = &first.env;
        self.unstarted
            .insert((e.src, e.dst, e.seq), self.sends.len());
        self.sends.push(SendEntry {
            src: e.src,
            dst: e.dst,
            seq: e.seq,
            posted: self.ranks[i].call_at,
            started: None,
        });
    }

    /// Packet `p` went to the NIC's queue (or to memory) at `cycle`: the physical send of its
    /// message when it is the first packet with message bytes.
    pub(crate) fn handed(&mut self, p: &OutPkt, cycle: u64) {
        let e = &p.env;
        let first = e.kind == Kind::Eager || (e.kind == Kind::Data && e.tag == 0);
        if !first {
            return;
        }
        if let Some(k) = self.unstarted.remove(&(e.src, e.dst, e.seq)) {
            self.sends[k].started = Some(cycle);
        }
    }
}

/// The timeline of a run from its endpoints' records, each with the messages its ranks
/// received (by local rank). Ranks that did not finish end at their last call.
pub fn collect<'a>(
    parts: impl IntoIterator<Item = (&'a EndpointRecord, Vec<&'a [RecvRecord]>)>,
    freq_mhz: f64,
) -> Timeline {
    let mut ranks = Vec::new();
    let mut sends: HashMap<(u32, u32, u32), VecDeque<SendEntry>> = HashMap::new();
    let mut recvs: Vec<(u32, RecvRecord)> = Vec::new();
    for (rec, got) in parts {
        for (r, received) in rec.ranks.iter().zip(got) {
            let finish = r.finish.unwrap_or(r.open.0);
            ranks.push(RankTimeline {
                rank: r.rank,
                endpoint: rec.endpoint,
                start: r.start,
                finish,
                spans: r.spans.clone(),
            });
            recvs.extend(received.iter().map(|m| (r.rank, *m)));
        }
        // a pair's message numbers wrap: the k-th send of a number goes with its k-th receive
        for s in &rec.sends {
            sends
                .entry((s.src, s.dst, s.seq))
                .or_default()
                .push_back(*s);
        }
    }
    ranks.sort_by_key(|r| r.rank);
    let mut messages = Vec::new();
    for (dst, m) in recvs {
        let Some(s) = sends
            .get_mut(&(m.src, dst, m.seq))
            .and_then(|q| q.pop_front())
        else {
            continue;
        };
        messages.push(MessageRecord {
            src: m.src,
            dst,
            tag: m.tag,
            bytes: m.len,
            coll: m.coll,
            send_posted: s.posted,
            send_started: s
                .started
                .expect("a delivered message's first data packet went"),
            recv_posted: m.posted,
            arrived: m.arrived,
            delivered: m.delivered,
        });
    }
    messages.sort_by_key(|m| (m.delivered, m.src, m.dst, m.send_posted, m.tag));
    let start_cycle = ranks.iter().map(|r| r.start).min().unwrap_or(0);
    let end_cycle = ranks.iter().map(|r| r.finish).max().unwrap_or(0);
    Timeline {
        freq_mhz,
        start_cycle,
        end_cycle,
        ranks,
        messages,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::api::Payload;

    #[test]
    fn spans_tile_and_merge_and_two_collectives_stay_apart() {
        let mut e = EndpointRecord::new(3, &[7], 100);
        let consume = Call::Consume(5);
        let wait = Call::Wait(Vec::new());
        e.call(0, &consume, None, 100);
        e.call(0, &consume, None, 105);
        e.call(0, &wait, Some(Ctx::Collective(Collective::Barrier, 1)), 110);
        e.call(0, &wait, Some(Ctx::Collective(Collective::Barrier, 1)), 120);
        e.call(0, &wait, Some(Ctx::Collective(Collective::Barrier, 2)), 130);
        e.call(
            0,
            &Call::Isend {
                dst: 0,
                tag: 0,
                msg: Payload::Size(1),
                coll: false,
            },
            Some(Ctx::Send),
            140,
        );
        e.call(0, &wait, Some(Ctx::Send), 141);
        e.call(0, &wait, None, 150);
        e.finish(0, 150);
        let t = collect([(&e, vec![&[][..]])], 156.25);
        let r = &t.ranks[0];
        assert_eq!((r.rank, r.endpoint, r.start, r.finish), (7, 3, 100, 150));
        let got: Vec<(u64, u64, Activity)> = r
            .spans
            .iter()
            .map(|s| (s.begin, s.end, s.activity))
            .collect();
        assert_eq!(
            got,
            [
                (100, 110, Activity::Compute),
                (110, 130, Activity::Collective),
                (130, 140, Activity::Collective),
                (140, 150, Activity::Send),
            ],
            "the zero-length wait at 150 leaves nothing"
        );
    }

    #[test]
    fn collective_codes_are_distinct_from_one() {
        let codes: Vec<u32> = Collective::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(codes, (1..=19).collect::<Vec<_>>());
        // (a code never changes: the first ones are those of the API's collectives)
        assert_eq!(Collective::ReduceScatterSized.code(), 13);
    }
}
