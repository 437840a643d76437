//! One rank's message-passing state: MPI point-to-point semantics over packets (Minkenberg and Rodriguez 2008 §5;
//! the MPI standard's matching rules).
//!
//! - **Matching** by source and tag, either a wildcard (`None`), in a matching space per context
//!   (user messages; collectives' messages). A receive takes the first message, in arrival order,
//!   that it matches; an arriving message takes the first posted receive it matches.
//! - **Non-overtaking**: the messages of a (source, destination) pair are numbered (`seq`), and
//!   an arriving message is matched only after every earlier message of its pair, even when an
//!   adaptive routing delivers its packets first (it waits in `held`).
//! - **Unexpected messages** (no receive posted) wait in `unexpected`, their packets collected.
//! - **Eager** below `eager_threshold` bytes: the data goes at once, the first packet carrying
//!   the tag and length. **Rendezvous** at or above it: a request (RTS) goes first; the receiver
//!   answers with an acknowledge (CTS) when a receive matches it, and only then does the sender
//!   send the data.
//!
//! Time: this module is told the cycle of each event and records when requests complete; the
//! software costs are the endpoint's (`endpoint.rs`). Packets it wants sent come back as
//! [`OutPkt`]s for the NIC.

use super::api::{Match, Payload, Request, Status};
use super::envelope::{Envelope, Kind, ENVELOPE_BYTES, SEQ_MOD};
use super::matchq::SrcQueue;
use super::pktrun::{Message, PktRun};
use super::record::RecvLog;
use std::collections::HashMap;
use std::sync::Arc;

/// Message-protocol parameters (`[app]` of the configuration).
#[derive(Debug, Clone, Copy)]
pub struct Proto {
    /// Message bytes a packet carries after its envelope.
    pub chunk: u32,
    /// Messages of this many bytes or more go by rendezvous.
    pub eager_threshold: u64,
}

impl Proto {
    /// Packets a message of `len` bytes takes (at least one).
    pub fn packets(&self, len: u64) -> u64 {
        len.div_ceil(self.chunk as u64).max(1)
    }
}

/// A packet to send: its envelope, its message bytes (`data`, from `off`, `len` of them), and
/// the send request whose completion counts it (None: a protocol packet).
#[derive(Debug, Clone)]
pub struct OutPkt {
    pub env: Envelope,
    pub data: Option<Arc<[u8]>>,
    pub off: u64,
    pub len: u32,
    pub req: Option<Request>,
}

impl OutPkt {
    /// Payload bytes: the envelope and the message bytes.
    pub fn size(&self) -> u32 {
        ENVELOPE_BYTES + self.len
    }
}

/// A message being received (or waiting to be).
#[derive(Debug, Default)]
struct Msg {
    /// The first packet (EAGER or RTS) has arrived: `tag`, `len`, `coll` are known.
    head: bool,
    rendezvous: bool,
    tag: i32,
    len: u64,
    coll: bool,
    has_data: bool,
    /// Packets of data expected (known with the head) and arrived.
    expected: u64,
    got: u64,
    data: Vec<u8>,
    /// The receive it completes, once matched.
    bound: Option<Request>,
    last: u64,
}

#[derive(Debug)]
struct Posted {
    req: Request,
    src: Match<u32>,
    tag: Match<i32>,
    coll: bool,
    /// The cycle it was posted.
    at: u64,
}

#[derive(Debug)]
struct SendState {
    dst: u32,
    seq: u32,
    tag: i32,
    msg: Payload,
    coll: bool,
    left: u64,
}

/// What a request is waiting for, for the deadlock report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    Recv {
        src: Match<u32>,
        tag: Match<i32>,
        coll: bool,
    },
    /// A receive matched, waiting for `left` more packets from `src`.
    RecvData { src: u32, left: u64 },
    /// A rendezvous send waiting for the receiver's acknowledge.
    SendCts { dst: u32 },
    /// Packets not yet written by the NIC.
    SendOut { dst: u32, left: u64 },
}

/// A message that arrived and that no receive took: (source, tag, bytes).
pub type Unreceived = (u32, i32, u64);

/// A message a receive with a wildcard (any source, any tag or both) took: the deadlock
/// report names it when a receive that waits forever matches the message (the wildcard took
/// what the other waited for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct WildcardTake {
    /// The receive's source and tag (`None`: any), and the cycle it was posted.
    pub src: Match<u32>,
    pub tag: Match<i32>,
    pub posted: u64,
    /// The cycle it took the message (its head matched), and the message's source, tag and
    /// bytes.
    pub taken: u64,
    pub msg_src: u32,
    pub msg_tag: i32,
    pub bytes: u64,
}

/// A request: done (cycle, status) or pending.
#[derive(Debug)]
enum ReqState {
    /// Done at a cycle; `true` for a receive.
    Done(u64, Status, bool),
    Pending,
}

/// One rank's message tables.
#[derive(Debug, Default)]
pub struct Mpi {
    pub rank: u32,
    next_seq: HashMap<u32, u32>,
    expect_seq: HashMap<u32, u32>,
    /// Heads arrived before an earlier message of their pair was matched.
    held: HashMap<(u32, u32), ()>,
    msgs: HashMap<(u32, u32), Msg>,
    posted: SrcQueue<Posted>,
    unexpected: SrcQueue<(u32, u32)>,
    sends: HashMap<Request, SendState>,
    /// Rendezvous sends waiting for an acknowledge: (destination, seq) -> request.
    rts: HashMap<(u32, u32), Request>,
    reqs: HashMap<Request, ReqState>,
    recv_of: HashMap<Request, (u32, u32)>,
    next_req: u32,
    /// Counters for the run's report.
    pub messages_sent: u64,
    pub messages_received: u64,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    /// Of the messages sent, those of the program's own point-to-point calls (not collectives').
    pub p2p_messages_sent: u64,
    pub p2p_bytes_sent: u64,
    /// The messages received and their times, when a timeline is recorded (`record.rs`).
    pub log: Option<Box<RecvLog>>,
    /// The last message a wildcard receive took, by the message's (context, source, tag):
    /// bounded by the (source, tag) pairs the rank receives, not by the messages, and at most
    /// [`WILDCARD_KEYS`] of them (`wildcard_keys_full`: a pair beyond was not kept).
    wildcard_takes: HashMap<(bool, u32, i32), WildcardTake>,
    pub wildcard_keys_full: bool,
}

/// The (source, tag) pairs whose last wildcard take a rank keeps for the deadlock report.
pub const WILDCARD_KEYS: usize = 1024;

fn matches(p: &Posted, src: u32, m: &Msg) -> bool {
    p.coll == m.coll && p.src.is_none_or(|s| s == src) && p.tag.is_none_or(|t| t == m.tag)
}

impl Mpi {
    /// Bytes a message in flight holds at least in the tables of its two ranks (the memory
    /// estimate, `footprint.rs`): the sender's state and its request, the receiver's message and
    /// its request, each a hash-table entry (its control byte included), and the receive's
    /// entry in the posted or the unexpected queue, whichever is smaller.
    pub fn bytes_per_message() -> u64 {
        use std::mem::size_of;
        let entry = |kv: usize| kv + 1;
        (entry(size_of::<(Request, SendState)>())
            + 2 * entry(size_of::<(Request, ReqState)>())
            + entry(size_of::<((u32, u32), Msg)>())
            + size_of::<Posted>().min(size_of::<(u32, u32)>())) as u64
    }

    pub fn new(rank: u32) -> Mpi {
        Mpi {
            rank,
            ..Mpi::default()
        }
    }

    fn new_req(&mut self) -> Request {
        let q = Request(self.next_req);
        self.next_req = self.next_req.wrapping_add(1);
        self.reqs.insert(q, ReqState::Pending);
        q
    }

    /// Start a send of `msg` to `dst` at `cycle`: the request and the packets to send now.
    pub fn isend(
        &mut self,
        p: &Proto,
        dst: u32,
        tag: i32,
        msg: Payload,
        coll: bool,
        out: &mut Vec<PktRun>,
    ) -> Request {
        let q = self.new_req();
        let seq = {
            let s = self.next_seq.entry(dst).or_insert(0);
            let v = *s;
            *s = (v + 1) % SEQ_MOD;
            v
        };
        let len = msg.len();
        self.messages_sent += 1;
        self.bytes_sent += len;
        if !coll {
            self.p2p_messages_sent += 1;
            self.p2p_bytes_sent += len;
        }
        let st = SendState {
            dst,
            seq,
            tag,
            msg,
            coll,
            left: p.packets(len),
        };
        if len < p.eager_threshold {
            self.data_packets(p, q, &st, true, out);
        } else {
            out.push(PktRun::one(OutPkt {
                env: Envelope {
                    kind: Kind::Rts,
                    coll,
                    has_data: false,
                    src: self.rank,
                    dst,
                    seq,
                    tag,
                    len: len as u32,
                },
                data: None,
                off: 0,
                len: 0,
                req: None,
            }));
            self.rts.insert((dst, seq), q);
        }
        self.sends.insert(q, st);
        q
    }

    /// The packets of a message: EAGER then DATA (eager), or DATA only (after the acknowledge),
    /// as a run the NIC's writer cuts a packet at a time (`pktrun.rs`).
    fn data_packets(
        &self,
        p: &Proto,
        q: Request,
        st: &SendState,
        eager: bool,
        out: &mut Vec<PktRun>,
    ) {
        out.push(PktRun::message(Message {
            src: self.rank,
            dst: st.dst,
            seq: st.seq,
            tag: st.tag,
            coll: st.coll,
            len: st.msg.len(),
            data: match &st.msg {
                Payload::Bytes(b) => Some(b.clone()),
                Payload::Size(_) => None,
            },
            chunk: p.chunk,
            eager,
            req: Some(q),
            req_on_last_only: false,
        }));
    }

    /// The NIC wrote the last word of a packet of send `q` at `cycle`.
    pub fn written(&mut self, q: Request, cycle: u64) {
        let Some(st) = self.sends.get_mut(&q) else {
            return;
        };
        st.left -= 1;
        if st.left == 0 {
            self.sends.remove(&q);
            self.reqs.insert(
                q,
                ReqState::Done(
                    cycle,
                    Status {
                        src: self.rank,
                        tag: 0,
                        len: 0,
                        data: None,
                    },
                    false,
                ),
            );
        }
    }

    /// Post a receive at `cycle`.
    pub fn irecv(
        &mut self,
        src: Match<u32>,
        tag: Match<i32>,
        coll: bool,
        cycle: u64,
        out: &mut Vec<PktRun>,
    ) -> Request {
        let q = self.new_req();
        if let Some(l) = self.log.as_mut() {
            l.posted(q, cycle);
        }
        let p = Posted {
            req: q,
            src,
            tag,
            coll,
            at: cycle,
        };
        let msgs = &self.msgs;
        let found = self.unexpected.first_from(src, |&(s, n)| {
            msgs.get(&(s, n)).is_some_and(|m| matches(&p, s, m))
        });
        match found {
            Some(i) => {
                let key = self.unexpected.remove(i).expect("found above");
                self.note_wildcard(&p, key, cycle);
                self.bind(key, q, cycle, out);
            }
            None => self.posted.push(src, p),
        }
        q
    }

    /// Receive `p` takes message `key` at `cycle`: noted when `p` has a wildcard.
    fn note_wildcard(&mut self, p: &Posted, key: (u32, u32), cycle: u64) {
        if p.src.is_some() && p.tag.is_some() {
            return;
        }
        let m = &self.msgs[&key];
        let k = (m.coll, key.0, m.tag);
        if self.wildcard_takes.len() >= WILDCARD_KEYS && !self.wildcard_takes.contains_key(&k) {
            self.wildcard_keys_full = true;
            return;
        }
        self.wildcard_takes.insert(
            k,
            WildcardTake {
                src: p.src,
                tag: p.tag,
                posted: p.at,
                taken: cycle,
                msg_src: key.0,
                msg_tag: m.tag,
                bytes: m.len,
            },
        );
    }

    /// The last message, of each source and tag, that a receive wider than `src`/`tag` (a
    /// wildcard where this has none) took and that `src`/`tag` match: what a receive waiting
    /// forever could have had (the deadlock report).
    pub fn taken_by_wildcards(
        &self,
        src: Match<u32>,
        tag: Match<i32>,
        coll: bool,
    ) -> Vec<WildcardTake> {
        let mut v: Vec<WildcardTake> = self
            .wildcard_takes
            .iter()
            .filter(|(&(c, s, t), w)| {
                c == coll
                    && src.is_none_or(|x| x == s)
                    && tag.is_none_or(|x| x == t)
                    && ((w.src.is_none() && src.is_some()) || (w.tag.is_none() && tag.is_some()))
            })
            .map(|(_, w)| *w)
            .collect();
        v.sort();
        v
    }

    /// The first unexpected message `src`/`tag` match, as a status without data.
    pub fn probe(&self, src: Match<u32>, tag: Match<i32>, coll: bool) -> Option<Status> {
        let p = Posted {
            req: Request(0),
            src,
            tag,
            coll,
            at: 0,
        };
        self.unexpected.iter().find_map(|&(s, n)| {
            let m = self.msgs.get(&(s, n))?;
            matches(&p, s, m).then_some(Status {
                src: s,
                tag: m.tag,
                len: m.len,
                data: None,
            })
        })
    }

    /// Receive `q` takes message `key` at `cycle`.
    fn bind(&mut self, key: (u32, u32), q: Request, cycle: u64, out: &mut Vec<PktRun>) {
        let m = self.msgs.get_mut(&key).expect("a bound message exists");
        m.bound = Some(q);
        m.last = m.last.max(cycle);
        self.recv_of.insert(q, key);
        if m.rendezvous {
            out.push(PktRun::one(OutPkt {
                env: Envelope {
                    kind: Kind::Cts,
                    coll: m.coll,
                    has_data: false,
                    src: self.rank,
                    dst: key.0,
                    seq: key.1,
                    tag: 0,
                    len: 0,
                },
                data: None,
                off: 0,
                len: 0,
                req: None,
            }));
        }
        self.complete_if_whole(key);
    }

    fn complete_if_whole(&mut self, key: (u32, u32)) {
        let Some(m) = self.msgs.get(&key) else {
            return;
        };
        let (Some(q), true) = (m.bound, m.head && m.got == m.expected) else {
            return;
        };
        let m = self.msgs.remove(&key).expect("checked above");
        self.recv_of.remove(&q);
        if let Some(l) = self.log.as_mut() {
            l.done(key, q, m.tag, m.len, m.coll, m.last);
        }
        self.messages_received += 1;
        self.bytes_received += m.len;
        let mut data = m.data;
        data.truncate(m.len as usize);
        self.reqs.insert(
            q,
            ReqState::Done(
                m.last,
                Status {
                    src: key.0,
                    tag: m.tag,
                    len: m.len,
                    data: m.has_data.then_some(data),
                },
                true,
            ),
        );
    }

    /// A packet arrived at `cycle`: its envelope and message bytes.
    pub fn arrive(
        &mut self,
        p: &Proto,
        env: &Envelope,
        bytes: &[u8],
        cycle: u64,
        out: &mut Vec<PktRun>,
    ) {
        let key = (env.src, env.seq);
        match env.kind {
            Kind::Cts => {
                if let Some(q) = self.rts.remove(&(env.src, env.seq)) {
                    let st = self.sends.get(&q).expect("a rendezvous send waits");
                    self.data_packets(p, q, st, false, out);
                }
            }
            Kind::Eager | Kind::Rts | Kind::Data => {
                let m = self.msgs.entry(key).or_default();
                m.last = m.last.max(cycle);
                let index = match env.kind {
                    Kind::Eager => 0,
                    Kind::Data => env.tag as u32 as u64,
                    _ => u64::MAX,
                };
                if env.kind != Kind::Rts {
                    m.got += 1;
                    if let Some(l) = self.log.as_mut() {
                        l.arrived(key, cycle);
                    }
                    if env.has_data && !bytes.is_empty() {
                        let off = (index * p.chunk as u64) as usize;
                        if m.data.len() < off + bytes.len() {
                            m.data.resize(off + bytes.len(), 0);
                        }
                        m.data[off..off + bytes.len()].copy_from_slice(bytes);
                    }
                    m.has_data |= env.has_data;
                }
                if env.kind == Kind::Data {
                    self.complete_if_whole(key);
                    return;
                }
                m.head = true;
                m.rendezvous = env.kind == Kind::Rts;
                m.tag = env.tag;
                m.len = env.len as u64;
                m.coll = env.coll;
                m.expected = p.packets(m.len);
                let want = *self.expect_seq.entry(env.src).or_insert(0);
                if env.seq != want {
                    self.held.insert(key, ());
                    return;
                }
                self.match_head(key, cycle, out);
                // and the heads of later messages of the pair that came first
                let mut next = (env.seq + 1) % SEQ_MOD;
                while self.held.remove(&(env.src, next)).is_some() {
                    self.match_head((env.src, next), cycle, out);
                    next = (next + 1) % SEQ_MOD;
                }
            }
        }
    }

    /// A message's head, in its pair's order: take the first matching posted receive, or wait.
    fn match_head(&mut self, key: (u32, u32), cycle: u64, out: &mut Vec<PktRun>) {
        self.expect_seq.insert(key.0, (key.1 + 1) % SEQ_MOD);
        let m = &self.msgs[&key];
        match self.posted.first_for(key.0, |p| matches(p, key.0, m)) {
            Some(i) => {
                let p = self.posted.remove(i).expect("found above");
                self.note_wildcard(&p, key, cycle);
                self.bind(key, p.req, cycle, out);
            }
            None => self.unexpected.push(Some(key.0), key),
        }
    }

    /// When every request of `qs` is done: the last completion cycle. Unknown requests are
    /// an error naming them.
    pub fn done_at(&self, qs: &[Request]) -> Result<Option<u64>, String> {
        let mut at = 0;
        for q in qs {
            match self.reqs.get(q) {
                None => return Err(format!("request {} is not pending (waited twice?)", q.0)),
                Some(ReqState::Pending) => return Ok(None),
                Some(ReqState::Done(c, _, _)) => at = at.max(*c),
            }
        }
        Ok(Some(at))
    }

    /// Request `q` is done.
    pub fn is_done(&self, q: Request) -> bool {
        matches!(self.reqs.get(&q), Some(ReqState::Done(..)))
    }

    /// The statuses of done requests `qs`, which are forgotten, and how many were receives.
    pub fn take(&mut self, qs: &[Request]) -> (Vec<Status>, u64) {
        let mut recvs = 0;
        let st = qs
            .iter()
            .map(|q| match self.reqs.remove(q) {
                Some(ReqState::Done(_, s, r)) => {
                    recvs += r as u64;
                    s
                }
                r => unreachable!("take of a request not done: {r:?}"),
            })
            .collect();
        (st, recvs)
    }

    /// What request `q` waits for.
    pub fn pending(&self, q: Request) -> Option<Pending> {
        if let Some(p) = self.posted.iter().find(|p| p.req == q) {
            return Some(Pending::Recv {
                src: p.src,
                tag: p.tag,
                coll: p.coll,
            });
        }
        if let Some(key) = self.recv_of.get(&q) {
            let m = &self.msgs[key];
            return Some(Pending::RecvData {
                src: key.0,
                left: m.expected.saturating_sub(m.got),
            });
        }
        if let Some(st) = self.sends.get(&q) {
            return Some(if self.rts.values().any(|r| *r == q) {
                Pending::SendCts { dst: st.dst }
            } else {
                Pending::SendOut {
                    dst: st.dst,
                    left: st.left,
                }
            });
        }
        None
    }

    /// Messages that arrived and that no receive took.
    pub fn unreceived(&self) -> usize {
        self.unexpected.len() + self.held.len()
    }

    /// The messages that arrived and that no receive took, oldest first from each source (the
    /// deadlock report).
    pub fn unreceived_messages(&self) -> Vec<Unreceived> {
        let mut keys: Vec<(u32, u32)> = self.unexpected.iter().copied().collect();
        keys.extend(self.held.keys().copied());
        keys.sort();
        keys.iter()
            .filter_map(|k| self.msgs.get(k).map(|m| (k.0, m.tag, m.len)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Proto = Proto {
        chunk: 32,
        eager_threshold: 64,
    };

    /// Every packet of `runs`, in order.
    fn flat(runs: &[PktRun]) -> Vec<OutPkt> {
        runs.iter().flat_map(|r| r.clone()).collect()
    }

    /// Deliver every packet of `out` whose destination is `to`, in order (or reversed).
    fn deliver(to: &mut Mpi, out: &mut Vec<PktRun>, cycle: u64, reverse: bool) -> Vec<PktRun> {
        let mut back = Vec::new();
        let mut pk: Vec<OutPkt> = flat(&std::mem::take(out));
        if reverse {
            pk.reverse();
        }
        for o in pk {
            assert_eq!(o.env.dst, to.rank);
            let bytes: Vec<u8> = o
                .data
                .as_ref()
                .map(|d| d[o.off as usize..o.off as usize + o.len as usize].to_vec())
                .unwrap_or_default();
            to.arrive(&P, &o.env, &bytes, cycle, &mut back);
        }
        back
    }

    fn done(m: &mut Mpi, q: Request) -> Status {
        assert!(m.done_at(&[q]).unwrap().is_some(), "{q:?} not done");
        m.take(&[q]).0.pop().unwrap()
    }

    fn write_all(m: &mut Mpi, out: &[PktRun], cycle: u64) {
        for o in flat(out) {
            if let Some(q) = o.req {
                m.written(q, cycle);
            }
        }
    }

    #[test]
    fn wildcards_take_the_first_arrival_and_tags_select() {
        let (mut a, mut b, mut c) = (Mpi::new(0), Mpi::new(1), Mpi::new(2));
        let mut out = Vec::new();
        a.isend(&P, 2, 5, Payload::bytes(b"a5"), false, &mut out);
        deliver(&mut c, &mut out, 10, false);
        b.isend(&P, 2, 6, Payload::bytes(b"b6"), false, &mut out);
        deliver(&mut c, &mut out, 11, false);
        let mut o = Vec::new();
        let by_tag = c.irecv(None, Some(6), false, 20, &mut o);
        let any = c.irecv(None, None, false, 20, &mut o);
        assert_eq!(done(&mut c, by_tag).src, 1);
        let s = done(&mut c, any);
        assert_eq!((s.src, s.tag, s.data.unwrap()), (0, 5, b"a5".to_vec()));
        // a collective's message never matches a user receive
        a.isend(&P, 2, 5, Payload::Size(3), true, &mut out);
        deliver(&mut c, &mut out, 30, false);
        let user = c.irecv(None, None, false, 31, &mut o);
        assert_eq!(c.done_at(&[user]).unwrap(), None);
        assert!(c.probe(None, None, true).is_some());
        assert!(c.probe(None, None, false).is_none());
    }

    #[test]
    fn a_wildcard_take_is_kept_for_the_narrower_receives_it_could_have_served() {
        let (mut a, mut c) = (Mpi::new(0), Mpi::new(2));
        let mut out = Vec::new();
        let mut o = Vec::new();
        // posted first (the message then matches it on arrival), and from the queue
        let first = c.irecv(None, Some(5), false, 8, &mut o);
        a.isend(&P, 2, 5, Payload::Size(3), false, &mut out);
        deliver(&mut c, &mut out, 10, false);
        assert_eq!(done(&mut c, first).src, 0);
        a.isend(&P, 2, 6, Payload::Size(4), false, &mut out);
        deliver(&mut c, &mut out, 12, false);
        let any = c.irecv(None, None, false, 20, &mut o);
        assert_eq!(done(&mut c, any).tag, 6);
        // a receive from 0 tag 5 could have had the first: the wildcard's source was wider
        let w = c.taken_by_wildcards(Some(0), Some(5), false);
        assert_eq!(w.len(), 1);
        assert_eq!(
            (
                w[0].src,
                w[0].tag,
                w[0].posted,
                w[0].taken,
                w[0].msg_tag,
                w[0].bytes
            ),
            (None, Some(5), 8, 10, 5, 3)
        );
        // any source, tag 6: the second wildcard was wider in its tag
        let w = c.taken_by_wildcards(None, Some(6), false);
        assert_eq!((w.len(), w[0].posted, w[0].msg_tag), (1, 20, 6));
        // a receive as wide as the wildcard (any source, tag 5) was not robbed: it was served
        // in order; another context or tag matches nothing
        assert!(c.taken_by_wildcards(None, Some(5), false).is_empty());
        assert!(c.taken_by_wildcards(Some(0), Some(7), false).is_empty());
        assert!(c.taken_by_wildcards(Some(0), Some(5), true).is_empty());
        // a receive without wildcards is not kept
        a.isend(&P, 2, 9, Payload::Size(1), false, &mut out);
        deliver(&mut c, &mut out, 30, false);
        let exact = c.irecv(Some(0), Some(9), false, 31, &mut o);
        done(&mut c, exact);
        assert!(c
            .taken_by_wildcards(Some(0), None, false)
            .iter()
            .all(|w| w.msg_tag != 9));
        assert!(!c.wildcard_keys_full);
    }

    #[test]
    fn a_pair_never_overtakes_even_when_the_network_reorders() {
        let (mut a, mut b) = (Mpi::new(0), Mpi::new(1));
        let mut out = Vec::new();
        for k in 0..3u8 {
            a.isend(&P, 1, 9, Payload::bytes(&[k; 70]), false, &mut out);
        }
        // rendezvous (70 >= 64): three RTS, delivered last first
        let mut cts = deliver(&mut b, &mut out, 5, true);
        assert!(cts.is_empty(), "no receive posted: no acknowledge yet");
        let qs: Vec<_> = (0..3)
            .map(|_| b.irecv(Some(0), Some(9), false, 6, &mut cts))
            .collect();
        assert_eq!(cts.len(), 3);
        let mut data = deliver(&mut a, &mut cts, 7, false);
        assert_eq!(data.len(), 3, "three messages");
        assert_eq!(
            flat(&data).len(),
            9,
            "three messages of three 32-byte packets"
        );
        write_all(&mut a, &data, 8);
        deliver(&mut b, &mut data, 9, true);
        for (k, q) in qs.into_iter().enumerate() {
            assert_eq!(done(&mut b, q).data.unwrap(), vec![k as u8; 70]);
        }
    }

    #[test]
    fn the_eager_rendezvous_switch_is_at_the_threshold_exactly() {
        for (len, kind) in [(63u64, Kind::Eager), (64, Kind::Rts)] {
            let mut a = Mpi::new(0);
            let mut out = Vec::new();
            a.isend(&P, 1, 0, Payload::Size(len), false, &mut out);
            let p = flat(&out);
            assert_eq!(p[0].env.kind, kind, "{len} bytes");
            let n = if kind == Kind::Eager { 2 } else { 1 };
            assert_eq!(p.len(), n, "{len} bytes");
        }
    }

    #[test]
    fn an_unexpected_eager_message_completes_a_later_receive_at_the_later_cycle() {
        let (mut a, mut b) = (Mpi::new(0), Mpi::new(1));
        let mut out = Vec::new();
        let s = a.isend(&P, 1, 3, Payload::bytes(&[7; 40]), false, &mut out);
        assert_eq!(a.done_at(&[s]).unwrap(), None);
        write_all(&mut a, &out, 4);
        assert_eq!(a.done_at(&[s]).unwrap(), Some(4));
        deliver(&mut b, &mut out, 10, false);
        assert_eq!(b.unreceived(), 1);
        let mut o = Vec::new();
        let q = b.irecv(Some(0), Some(3), false, 50, &mut o);
        assert_eq!(b.done_at(&[q]).unwrap(), Some(50));
        assert_eq!(b.unreceived(), 0);
        assert_eq!(done(&mut b, q).len, 40);
        assert!(b.done_at(&[q]).is_err(), "a request is taken once");
    }

    #[test]
    fn what_a_waiting_request_waits_for() {
        let (mut a, mut b) = (Mpi::new(0), Mpi::new(1));
        let mut out = Vec::new();
        let r = b.irecv(Some(0), None, false, 0, &mut out);
        assert_eq!(
            b.pending(r),
            Some(Pending::Recv {
                src: Some(0),
                tag: None,
                coll: false
            })
        );
        let s = a.isend(&P, 1, 0, Payload::Size(100), false, &mut out);
        assert_eq!(a.pending(s), Some(Pending::SendCts { dst: 1 }));
    }
}
