//! The software of one endpoint: the ranks placed on it, each a future of the SPMD program
//! (`api.rs`) with its message tables (`mpi.rs`), run by the endpoint's NIC (`net/nic.rs`)
//! in the cycles it is evaluated.
//!
//! ```text
//!   rank futures --calls--> endpoint --PktRuns--> NIC software queue --> TX FIFO --> network
//!   rank futures <--answers-- endpoint <--envelope + bytes-- NIC reader <-- RX FIFO <-- network
//! ```
//!
//! Cycle contract. A rank runs at a cycle: it is polled until it waits (for time or for the
//! network). An `isend` costs `send_cycles` of software before its packets reach the NIC's
//! queue (and before the rank goes on); posting a receive costs nothing; a wait returns in the
//! cycle its last request completed (the NIC wrote a send's last footer; a receive's last
//! packet's footer was popped), or at once when they already had, plus `recv_cycles` for each
//! message it received (Nüssle et al. Table 1; the defaults' reading: docs/decisions/0019).
//! `consume_cycles` returns that many cycles later. A packet to a rank on the same endpoint
//! goes through memory, not the NIC: it arrives in the cycle it is handed over. Ranks on one
//! endpoint are independent processors sharing the NIC; they run in rank order within a cycle.

use super::api::{Call, Io, Program, Rank, Request, Ret};
use super::envelope::Envelope;
use super::mpi::{Mpi, OutPkt, Pending, Proto};
use super::pktrun::PktRun;
use super::record::{EndpointRecord, RecvRecord};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

/// What every endpoint of a run shares: the placement, the program and the costs.
pub struct Shared {
    /// Endpoint of every rank.
    pub endpoint_of: Vec<u32>,
    /// Index of every rank among its endpoint's ranks.
    pub local_of: Vec<u32>,
    pub program: Arc<dyn Program>,
    pub proto: Proto,
    /// Software cost of a send call, cycles.
    pub send_cycles: u64,
    /// Software cost of posting a receive, cycles.
    pub recv_cycles: u64,
    pub freq_mhz: f64,
    /// Width of the bins of packet latency against arrival time, cycles (0: none kept).
    pub latency_bin_cycles: u64,
    /// The cycle every rank starts at: when the links' lanes are up (`link.phy.lane_up_cycles`),
    /// as the processors of a machine run their programs on a network that has come up.
    pub start_cycle: u64,
    /// Record a timeline (`record.rs`): an observer, the run is the same without it.
    pub record: bool,
    /// Where every rank's calls are recorded, if anywhere (`calls.rs`; an observer).
    pub log: Option<super::calls::CallLog>,
}

/// Where a rank is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// To be polled at this cycle (its answer, if any, set).
    Ready(u64),
    /// Waiting for the network.
    Blocked,
    Done,
    /// Stopped by an error of its own call (`AppEndpoint::error`): waits in no call, is never
    /// polled or woken again, and the run ends with the error.
    Failed,
}

/// One rank: its future, its mailbox, its tables.
struct RankRun {
    fut: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
    io: Arc<Mutex<Io>>,
    mpi: Mpi,
    st: St,
    /// The call in effect when the rank is Ready: its effect happens at the Ready cycle.
    due: Option<Call>,
    /// The blocking call it waits in.
    blocked: Option<Call>,
    /// In a wait: its requests before this one are done (they stay done, so a wait's checks
    /// cost its length in all, not its length each time).
    wait_pos: usize,
    pub finished_at: Option<u64>,
}

/// A packet for the NIC: its destination endpoint, the packet, and the local rank it is from.
#[derive(Debug, Clone)]
pub struct NicPkt {
    pub endpoint: u32,
    pub pkt: OutPkt,
    pub from_local: u32,
}

/// Packets for the NIC, made one at a time as its writer takes them (`pktrun.rs`): their
/// destination endpoint, the run, and the local rank it is from.
#[derive(Debug, Clone)]
pub struct NicRun {
    pub endpoint: u32,
    pub run: PktRun,
    pub from_local: u32,
}

/// The ranks of one endpoint.
pub struct AppEndpoint {
    pub endpoint: u32,
    ranks: Vec<RankRun>,
    shared: Arc<Shared>,
    /// Packets for the NIC's software queue, in order.
    pub out: VecDeque<NicRun>,
    /// Packets handed to the NIC, and packets the NIC delivered here (the run's in-flight count).
    pub handed: u64,
    pub delivered: u64,
    /// A program error (it awaited something that is not an exanet call, or waited twice).
    pub error: Option<String>,
    /// The last cycle a rank of this endpoint ran or a packet arrived for one (the cycle a
    /// deadlock began: the ranks stopped progressing after it).
    pub last_progress: u64,
    /// Packets that came through the network by arrival time (`latency_bin_cycles` a bin): the
    /// sum and the largest of their latencies and their count.
    pub latency_bins: Vec<LatencyBin>,
    /// The timeline's record, when one is kept.
    record: Option<Box<EndpointRecord>>,
}

/// Packets that arrived in one stretch of time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LatencyBin {
    pub sum: u64,
    pub max: u32,
    pub packets: u32,
}

impl LatencyBin {
    pub fn add(&mut self, o: &LatencyBin) {
        self.sum += o.sum;
        self.max = self.max.max(o.max);
        self.packets += o.packets;
    }
}

impl std::fmt::Debug for AppEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppEndpoint")
            .field("endpoint", &self.endpoint)
            .field("ranks", &self.ranks.len())
            .field("handed", &self.handed)
            .field("delivered", &self.delivered)
            .finish()
    }
}

/// Bytes a rank holds at least (the memory estimate, `footprint.rs`): its state and message
/// tables, its mailbox, and its entries in the placement.
pub fn bytes_per_rank() -> u64 {
    use std::mem::size_of;
    (size_of::<RankRun>() + size_of::<Mutex<Io>>() + 2 * size_of::<usize>() + 2 * size_of::<u32>())
        as u64
}

/// Bytes a message in flight holds at least: its ranks' tables (`Mpi::bytes_per_message`) and
/// its run of packets in the NIC's queue.
pub fn bytes_per_message() -> u64 {
    Mpi::bytes_per_message() + std::mem::size_of::<NicRun>() as u64
}

impl AppEndpoint {
    /// The endpoint's ranks, each started on `program` at `shared.start_cycle`.
    pub fn new(endpoint: u32, ranks: &[u32], shared: Arc<Shared>) -> AppEndpoint {
        let size = shared.endpoint_of.len() as u32;
        let record = shared
            .record
            .then(|| Box::new(EndpointRecord::new(endpoint, ranks, shared.start_cycle)));
        let ranks = ranks
            .iter()
            .map(|&r| {
                let io = Arc::new(Mutex::new(Io::default()));
                let h = Rank::new(io.clone(), r, size, shared.freq_mhz, shared.log.clone());
                let mut mpi = Mpi::new(r);
                mpi.log = shared.record.then(Box::default);
                RankRun {
                    fut: Some(shared.program.start(h)),
                    io,
                    mpi,
                    st: St::Ready(shared.start_cycle),
                    due: None,
                    blocked: None,
                    wait_pos: 0,
                    finished_at: None,
                }
            })
            .collect();
        AppEndpoint {
            endpoint,
            ranks,
            shared,
            out: VecDeque::new(),
            handed: 0,
            delivered: 0,
            error: None,
            last_progress: 0,
            latency_bins: Vec::new(),
            record,
        }
    }

    /// The timeline's record and the messages each rank received (by local rank), when kept.
    pub fn recorded(&self) -> Option<(&EndpointRecord, Vec<&[RecvRecord]>)> {
        let rec = self.record.as_deref()?;
        let got = self
            .ranks
            .iter()
            .map(|r| r.mpi.log.as_deref().map_or(&[][..], |l| &l.received))
            .collect();
        Some((rec, got))
    }

    /// The first cycle from `now` on in which a rank has work without the network.
    pub fn due(&self, now: u64) -> u64 {
        self.ranks
            .iter()
            .filter_map(|r| match r.st {
                St::Ready(c) => Some(c.max(now)),
                _ => None,
            })
            .min()
            .unwrap_or(u64::MAX)
    }

    /// Some rank is computing or about to run (not waiting for the network, not done).
    pub fn computing(&self) -> bool {
        self.ranks.iter().any(|r| matches!(r.st, St::Ready(_)))
    }

    /// Every rank's program has returned.
    pub fn done(&self) -> bool {
        self.ranks.iter().all(|r| r.st == St::Done)
    }

    /// The ranks of this endpoint and when each finished.
    pub fn finished(&self) -> impl Iterator<Item = (u32, Option<u64>)> + '_ {
        self.ranks.iter().map(|r| (r.mpi.rank, r.finished_at))
    }

    /// Message counters of this endpoint's ranks: (sent, received, bytes sent, bytes received,
    /// messages that arrived and that no receive took, point-to-point messages and bytes sent).
    pub fn counters(&self) -> [u64; 7] {
        let mut c = [0; 7];
        for r in &self.ranks {
            c[0] += r.mpi.messages_sent;
            c[1] += r.mpi.messages_received;
            c[2] += r.mpi.bytes_sent;
            c[3] += r.mpi.bytes_received;
            c[4] += r.mpi.unreceived() as u64;
            c[5] += r.mpi.p2p_messages_sent;
            c[6] += r.mpi.p2p_bytes_sent;
        }
        c
    }

    /// Per rank of this endpoint, the messages that arrived and that no receive took (source,
    /// tag, bytes), for the ranks that have any (the deadlock report).
    pub fn unreceived_messages(&self) -> Vec<(u32, Vec<crate::app::mpi::Unreceived>)> {
        self.ranks
            .iter()
            .map(|r| (r.mpi.rank, r.mpi.unreceived_messages()))
            .filter(|(_, m)| !m.is_empty())
            .collect()
    }

    /// What each blocked rank waits for (the deadlock report).
    pub fn blocked(&self) -> Vec<(u32, String)> {
        let mut v = Vec::new();
        for r in &self.ranks {
            if r.st != St::Blocked {
                continue;
            }
            let what = match &r.blocked {
                Some(Call::Wait(qs)) => qs
                    .iter()
                    .filter_map(|q| r.mpi.pending(*q))
                    .map(|p| describe(&p))
                    .collect::<Vec<_>>()
                    .join("; "),
                Some(Call::Probe { src, tag, coll }) => format!(
                    "probe of {}",
                    describe(&Pending::Recv {
                        src: *src,
                        tag: *tag,
                        coll: *coll
                    })
                ),
                c => format!("{c:?}"),
            };
            v.push((r.mpi.rank, what));
        }
        v
    }

    /// Per blocked rank of this endpoint, the messages wildcard receives took that a receive
    /// (or probe) it waits in matches, and whether some wildcard takes were not kept (the
    /// deadlock report).
    pub fn wildcard_takes(&self) -> Vec<(u32, Vec<crate::app::mpi::WildcardTake>, bool)> {
        let mut v = Vec::new();
        for r in &self.ranks {
            if r.st != St::Blocked {
                continue;
            }
            let waits: Vec<(Option<u32>, Option<i32>, bool)> = match &r.blocked {
                Some(Call::Wait(qs)) => qs
                    .iter()
                    .filter_map(|q| match r.mpi.pending(*q) {
                        Some(Pending::Recv { src, tag, coll }) => Some((src, tag, coll)),
                        _ => None,
                    })
                    .collect(),
                Some(Call::Probe { src, tag, coll }) => vec![(*src, *tag, *coll)],
                _ => Vec::new(),
            };
            let mut takes: Vec<_> = waits
                .iter()
                .flat_map(|&(s, t, c)| r.mpi.taken_by_wildcards(s, t, c))
                .collect();
            takes.sort();
            takes.dedup();
            if !takes.is_empty() || (!waits.is_empty() && r.mpi.wildcard_keys_full) {
                v.push((r.mpi.rank, takes, r.mpi.wildcard_keys_full));
            }
        }
        v
    }

    /// The NIC wrote the footer of a packet of local rank `local`'s send `req` at `cycle`.
    pub fn written(&mut self, local: u32, req: Request, cycle: u64) {
        let r = &mut self.ranks[local as usize];
        r.mpi.written(req, cycle);
        self.recheck(local as usize, cycle);
    }

    /// A packet came through the network: injected at `injected`, its footer popped at `cycle`.
    pub fn arrive_from_network(&mut self, env: &Envelope, bytes: &[u8], injected: u64, cycle: u64) {
        self.last_progress = self.last_progress.max(cycle);
        if let Some(k) = cycle.checked_div(self.shared.latency_bin_cycles) {
            let k = k as usize;
            if self.latency_bins.len() <= k {
                self.latency_bins.resize(k + 1, LatencyBin::default());
            }
            let l = cycle.saturating_sub(injected).min(u32::MAX as u64) as u32;
            let b = &mut self.latency_bins[k];
            b.sum += l as u64;
            b.max = b.max.max(l);
            b.packets += 1;
        }
        self.arrive(env, bytes, cycle);
    }

    /// A packet arrived at `cycle` (its footer popped, or handed over in memory).
    pub fn arrive(&mut self, env: &Envelope, bytes: &[u8], cycle: u64) {
        self.delivered += 1;
        let Some(&local) = self.shared.local_of.get(env.dst as usize) else {
            self.error = Some(format!(
                "endpoint {}: a packet for rank {}, which does not exist",
                self.endpoint, env.dst
            ));
            return;
        };
        if self.shared.endpoint_of[env.dst as usize] != self.endpoint {
            self.error = Some(format!(
                "endpoint {}: a packet for rank {}, which is on endpoint {}",
                self.endpoint, env.dst, self.shared.endpoint_of[env.dst as usize]
            ));
            return;
        }
        let mut out = Vec::new();
        let r = &mut self.ranks[local as usize];
        r.mpi
            .arrive(&self.shared.proto, env, bytes, cycle, &mut out);
        self.send_out(local, out, cycle);
        self.recheck(local as usize, cycle);
    }

    /// Run every rank that is due at `cycle`.
    pub fn step(&mut self, cycle: u64) {
        for i in 0..self.ranks.len() {
            while let St::Ready(c) = self.ranks[i].st {
                if c > cycle {
                    break;
                }
                self.run(i, cycle);
            }
        }
    }

    /// Hand packets to the NIC (or, for a rank of this endpoint, straight to it).
    fn send_out(&mut self, local: u32, out: Vec<PktRun>, cycle: u64) {
        for run in out {
            if run.is_empty() {
                continue;
            }
            let e = self.shared.endpoint_of[run.dst() as usize];
            if e != self.endpoint {
                if let Some(x) = self.record.as_mut() {
                    // only a message's first packet matters to the record
                    x.handed(&run.peek(), cycle);
                }
                self.handed += run.len();
                self.out.push_back(NicRun {
                    endpoint: e,
                    run,
                    from_local: local,
                });
                continue;
            }
            for p in run {
                if let Some(x) = self.record.as_mut() {
                    x.handed(&p, cycle);
                }
                self.handed += 1;
                let bytes = p
                    .data
                    .as_ref()
                    .map(|d| d[p.off as usize..p.off as usize + p.len as usize].to_vec())
                    .unwrap_or_default();
                if let Some(q) = p.req {
                    self.ranks[local as usize].mpi.written(q, cycle);
                    self.recheck(local as usize, cycle);
                }
                self.arrive(&p.env, &bytes, cycle);
            }
        }
    }

    /// A blocked rank whose wait is now satisfied becomes ready.
    fn recheck(&mut self, i: usize, cycle: u64) {
        let r = &mut self.ranks[i];
        if r.st != St::Blocked {
            return;
        }
        let call = r.blocked.take().expect("a blocked rank waits in a call");
        match Self::try_block(r, &call, self.shared.recv_cycles) {
            Some((ret, cost)) => {
                let mut io = r.io.lock().expect("mailbox");
                io.call = None;
                io.ret = Some(ret);
                drop(io);
                r.st = St::Ready(cycle.saturating_add(cost));
            }
            None => r.blocked = Some(call),
        }
    }

    /// The answer of a blocking call, if it can be given, and the software time it then takes
    /// (`recv_cycles` for each message a wait receives).
    fn try_block(r: &mut RankRun, call: &Call, recv_cycles: u64) -> Option<(Ret, u64)> {
        match call {
            Call::Wait(qs) => {
                while r.wait_pos < qs.len() && r.mpi.is_done(qs[r.wait_pos]) {
                    r.wait_pos += 1;
                }
                if r.wait_pos < qs.len() {
                    return None;
                }
                let (st, recvs) = r.mpi.take(qs);
                Some((Ret::Done(st), recvs * recv_cycles))
            }
            Call::Probe { src, tag, coll } => {
                r.mpi.probe(*src, *tag, *coll).map(|s| (Ret::Probed(s), 0))
            }
            _ => unreachable!("only waits and probes block"),
        }
    }

    /// Rank `i` at `cycle`: the due call's effect, then poll until it waits.
    fn run(&mut self, i: usize, cycle: u64) {
        self.last_progress = self.last_progress.max(cycle);
        if let Some(call) = self.ranks[i].due.take() {
            self.effect(i, call, cycle);
            if self.ranks[i].st != St::Ready(cycle) {
                return;
            }
        }
        let r = &mut self.ranks[i];
        let Some(fut) = r.fut.as_mut() else {
            r.st = St::Done;
            return;
        };
        let mut cx = Context::from_waker(Waker::noop());
        match fut.as_mut().poll(&mut cx) {
            Poll::Ready(()) => {
                r.fut = None;
                r.st = St::Done;
                r.finished_at = Some(cycle);
                if let Some(x) = self.record.as_mut() {
                    x.finish(i, cycle);
                }
            }
            Poll::Pending => {
                let (call, ctx) = {
                    let mut io = r.io.lock().expect("mailbox");
                    (io.call.take(), io.ctx)
                };
                let Some(call) = call else {
                    self.error = Some(format!(
                        "rank {}: the program awaited something that is not an exanet call",
                        r.mpi.rank
                    ));
                    r.st = St::Failed;
                    return;
                };
                if let Some(x) = self.record.as_mut() {
                    x.call(i, &call, ctx, cycle);
                }
                let cost = match &call {
                    Call::Isend { .. } => self.shared.send_cycles,
                    Call::Consume(c) => *c,
                    _ => 0,
                };
                if cost == 0 {
                    self.effect(i, call, cycle);
                } else {
                    r.due = Some(call);
                    r.st = St::Ready(cycle.saturating_add(cost));
                }
            }
        }
    }

    /// What call `call` of rank `i` does at `cycle`; the rank is then Ready (answer set) or
    /// Blocked.
    fn effect(&mut self, i: usize, call: Call, cycle: u64) {
        let p = self.shared.proto;
        let mut out = Vec::new();
        let r = &mut self.ranks[i];
        let recv_cycles = self.shared.recv_cycles;
        let ret = match &call {
            Call::Now => Some((Ret::Cycle(cycle), 0)),
            Call::Sent => Some((Ret::Sent(r.mpi.messages_sent, r.mpi.bytes_sent), 0)),
            Call::Consume(_) => Some((Ret::Unit, 0)),
            Call::Isend {
                dst,
                tag,
                msg,
                coll,
            } => {
                if msg.len() > u32::MAX as u64 {
                    self.error = Some(format!(
                        "rank {}: a message of {} bytes; a message is at most 4294967295 bytes \
                         (the envelope's 32-bit length)",
                        r.mpi.rank,
                        msg.len()
                    ));
                    r.st = St::Failed;
                    return;
                }
                if *dst as usize >= self.shared.endpoint_of.len() {
                    self.error = Some(format!(
                        "rank {}: send to rank {dst}, of {} ranks",
                        r.mpi.rank,
                        self.shared.endpoint_of.len()
                    ));
                    r.st = St::Failed;
                    return;
                }
                let q = r.mpi.isend(&p, *dst, *tag, msg.clone(), *coll, &mut out);
                if let (Some(x), Some(first)) = (self.record.as_mut(), out.first()) {
                    x.posted(i, &first.peek());
                }
                Some((Ret::Req(q), 0))
            }
            Call::Irecv { src, tag, coll } => {
                let q = r.mpi.irecv(*src, *tag, *coll, cycle, &mut out);
                Some((Ret::Req(q), 0))
            }
            Call::Wait(qs) => {
                if let Err(e) = r.mpi.done_at(qs) {
                    self.error = Some(format!("rank {}: {e}", r.mpi.rank));
                    r.st = St::Failed;
                    return;
                }
                r.wait_pos = 0;
                Self::try_block(r, &call, recv_cycles)
            }
            Call::Probe { .. } => Self::try_block(r, &call, recv_cycles),
        };
        match ret {
            Some((ret, cost)) => {
                r.io.lock().expect("mailbox").ret = Some(ret);
                r.st = St::Ready(cycle.saturating_add(cost));
            }
            None => {
                r.blocked = Some(call);
                r.st = St::Blocked;
            }
        }
        self.send_out(i as u32, out, cycle);
    }
}

impl crate::net::nic::NicSoftware for AppEndpoint {
    fn due(&self, now: u64) -> u64 {
        AppEndpoint::due(self, now)
    }
    fn step(&mut self, cycle: u64) {
        AppEndpoint::step(self, cycle)
    }
    fn out(&mut self) -> &mut VecDeque<NicRun> {
        &mut self.out
    }
    fn written(&mut self, local: u32, req: Request, cycle: u64) {
        AppEndpoint::written(self, local, req, cycle)
    }
    fn arrive_from_network(&mut self, env: &Envelope, bytes: &[u8], injected: u64, cycle: u64) {
        AppEndpoint::arrive_from_network(self, env, bytes, injected, cycle)
    }
    fn fail(&mut self, error: String) {
        self.error = Some(error);
    }
    fn ranks(&self) -> Option<&AppEndpoint> {
        Some(self)
    }
}

fn any<T: std::fmt::Display>(x: &Option<T>) -> String {
    x.as_ref().map_or("any".into(), |v| v.to_string())
}

/// A pending request in words.
pub fn describe(p: &Pending) -> String {
    match p {
        Pending::Recv { src, tag, coll } => format!(
            "a receive from {} tag {}{}, which no message sent to it and left unreceived matches",
            any(src),
            any(tag),
            if *coll { " (collective)" } else { "" }
        ),
        Pending::RecvData { src, left } => {
            format!("{left} more packets of a message from rank {src}")
        }
        Pending::SendCts { dst } => format!("rank {dst} to post a receive for a rendezvous send"),
        Pending::SendOut { dst, left } => format!("{left} packets to rank {dst} to leave the NIC"),
    }
}
