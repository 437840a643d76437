//! The SPMD programming interface (Nüssle et al. Table 1: Init, Finish, Size, Rank, Time,
//! ConsumeTime, Send, Recv, Probe; plus what MPI users expect: non-blocking calls, wildcards and
//! the collectives of `collectives/`).
//!
//! A program is one ordinary sequential `async` Rust function that every rank runs; each call
//! that talks to the network is `.await`ed:
//!
//! ```
//! use exanet::app::api::{Rank, Payload};
//! async fn ring(r: Rank) {
//!     let (me, n) = (r.rank(), r.size());
//!     if me == 0 {
//!         r.send((me + 1) % n, 7, Payload::bytes(b"token")).await;
//!         let got = r.recv_from(n - 1).await;
//!         assert_eq!(got.data.as_deref(), Some(&b"token"[..]));
//!     } else {
//!         let got = r.recv_from(me - 1).await;
//!         r.send((me + 1) % n, 7, Payload::Size(got.len)).await;
//!     }
//! }
//! ```
//!
//! No OS thread runs a rank: a rank is a future that the NIC of its endpoint polls when it can
//! make progress (`endpoint.rs`). Each call hands a request to the endpoint and waits for its
//! answer; the endpoint does the work in simulated time (software costs, packets through the
//! NIC, matching). So a rank costs its future's state and its message tables, not a stack.

use super::collectives;
use super::record::{Collective, Ctx};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

/// What a message carries: its bytes, or only a length (the packets then carry zeros: traffic
/// whose contents nobody reads, as DPSNN's spikes here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    Bytes(Arc<[u8]>),
    Size(u64),
}

impl Payload {
    pub fn bytes(b: &[u8]) -> Payload {
        Payload::Bytes(b.into())
    }

    pub fn len(&self) -> u64 {
        match self {
            Payload::Bytes(b) => b.len() as u64,
            Payload::Size(n) => *n,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A received (or probed) message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub src: u32,
    pub tag: i32,
    /// Bytes.
    pub len: u64,
    /// The bytes, when the sender sent bytes (and the call received, not probed).
    pub data: Option<Vec<u8>>,
}

/// A non-blocking call under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Request(pub(crate) u32);

/// A receive's source or tag: a value or any.
pub type Match<T> = Option<T>;

/// A request a rank hands to its endpoint.
#[derive(Debug, Clone)]
pub(crate) enum Call {
    Now,
    /// The rank's point-to-point and collective messages and bytes sent so far.
    Sent,
    Consume(u64),
    Isend {
        dst: u32,
        tag: i32,
        msg: Payload,
        coll: bool,
    },
    Irecv {
        src: Match<u32>,
        tag: Match<i32>,
        coll: bool,
    },
    Wait(Vec<Request>),
    Probe {
        src: Match<u32>,
        tag: Match<i32>,
        coll: bool,
    },
}

/// The endpoint's answer.
#[derive(Debug)]
pub(crate) enum Ret {
    Unit,
    Cycle(u64),
    /// Messages and bytes sent.
    Sent(u64, u64),
    Req(Request),
    Done(Vec<Status>),
    Probed(Status),
}

/// The mailbox between a rank's future and its endpoint.
#[derive(Debug, Default)]
pub(crate) struct Io {
    pub call: Option<Call>,
    pub ret: Option<Ret>,
    /// The outermost composite call under way (a blocking send or receive, a collective), for
    /// a timeline (`record.rs`); calls inside it take its activity.
    pub ctx: Option<Ctx>,
    /// Collectives this rank entered (numbers each one, so two in a row stay apart).
    pub colls: u32,
}

/// A rank's handle on the application layer; every rank's program gets one.
#[derive(Debug, Clone)]
pub struct Rank {
    io: Arc<Mutex<Io>>,
    rank: u32,
    size: u32,
    freq_mhz: f64,
    /// Where the rank's calls are recorded, when they are (`calls.rs`).
    log: Option<super::calls::CallLog>,
    /// The communicator this handle is on ([`Rank::on_comm`]); `None`: every rank.
    comm: Option<Arc<CommView>>,
}

/// A communicator of some of the ranks: their world ranks in its rank order, this rank's place
/// among them, and its context.
#[derive(Debug)]
struct CommView {
    members: Arc<[u32]>,
    me: u32,
    ctx: i32,
}

/// The collectives' tags of context `c` are their tags on every rank plus `c` times this (the
/// collectives' own tags are below it).
pub const COMM_TAG_STRIDE: i32 = 16;

/// A composite call under way (`Rank::enter`, [`Rank::as_collective`]): dropping it leaves
/// the call.
pub struct Within<'a> {
    io: &'a Mutex<Io>,
    outer: bool,
}

impl Drop for Within<'_> {
    fn drop(&mut self) {
        if self.outer {
            if let Ok(mut io) = self.io.lock() {
                io.ctx = None;
            }
        }
    }
}

/// One call in flight: hands its request over on the first poll, ready when answered.
struct Op {
    io: Arc<Mutex<Io>>,
    call: Option<Call>,
}

impl Future for Op {
    type Output = Ret;
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Ret> {
        let me = &mut *self;
        let mut io = me.io.lock().expect("a rank's mailbox is never poisoned");
        if let Some(c) = me.call.take() {
            io.call = Some(c);
            return Poll::Pending;
        }
        match io.ret.take() {
            Some(r) => Poll::Ready(r),
            None => Poll::Pending,
        }
    }
}

impl Rank {
    pub(crate) fn new(
        io: Arc<Mutex<Io>>,
        rank: u32,
        size: u32,
        freq_mhz: f64,
        log: Option<super::calls::CallLog>,
    ) -> Rank {
        Rank {
            io,
            rank,
            size,
            freq_mhz,
            log,
            comm: None,
        }
    }

    /// This rank's handle on a communicator of `members` (world ranks, in the communicator's
    /// rank order; this rank among them) with context `ctx` (1 or more, one a communicator):
    /// its `rank()` and `size()` are the communicator's, and the ranks its calls name are
    /// ranks in it. The collectives then run among the members only, as MPI's on a
    /// communicator do; their messages go in the collectives' matching space under tags of
    /// their own context (tag + `ctx` x [`COMM_TAG_STRIDE`]), so they never take another
    /// communicator's. (A status names the world rank and tag; the collectives read neither.)
    pub fn on_comm(&self, members: Arc<[u32]>, ctx: u32) -> Result<Rank, String> {
        let me = members
            .iter()
            .position(|&m| m == self.rank)
            .ok_or_else(|| format!("rank {} is not a member of {members:?}", self.rank))?;
        let ctx = i32::try_from(ctx)
            .ok()
            .filter(|c| (1..=(i32::MAX - COMM_TAG_STRIDE) / COMM_TAG_STRIDE).contains(c))
            .ok_or_else(|| format!("communicator context {ctx}: 1 to 2^27 - 1"))?;
        Ok(Rank {
            comm: Some(Arc::new(CommView {
                members,
                me: me as u32,
                ctx,
            })),
            ..self.clone()
        })
    }

    /// The world rank of rank `r` of this handle's communicator.
    fn world(&self, r: u32) -> u32 {
        match &self.comm {
            Some(c) => c.members[r as usize],
            None => r,
        }
    }

    /// The tag a message of this handle's communicator goes under.
    fn context_tag(&self, tag: i32) -> i32 {
        match &self.comm {
            Some(c) => tag + c.ctx * COMM_TAG_STRIDE,
            None => tag,
        }
    }

    /// Enter composite call `ctx` (a blocking send or receive, a collective) until the guard
    /// is dropped, unless one is under way already: the outermost names what the rank does
    /// (`record.rs`). A collective gets the next number of this rank's collectives. (A guard
    /// held across the awaits, not a future wrapping the call's: that would store the call's
    /// future twice in the rank's.)
    fn enter(&self, ctx: Ctx) -> Within<'_> {
        let mut io = self.io.lock().expect("mailbox");
        let outer = io.ctx.is_none();
        if outer {
            io.ctx = Some(match ctx {
                Ctx::Collective(c, _) => {
                    io.colls = io.colls.wrapping_add(1);
                    Ctx::Collective(c, io.colls)
                }
                c => c,
            });
        }
        Within {
            io: &self.io,
            outer,
        }
    }

    /// Name the collectives called until the guard is dropped as one collective `c`: a
    /// program that builds an MPI collective from the API's says which it is (a trace replay's
    /// `MPI_Allreduce`, a reduction then a broadcast, is an allreduce on the timelines). As
    /// every composite call, it names what the rank does only when it is the outermost; it
    /// changes no message and no cycle.
    pub fn as_collective(&self, c: Collective) -> Within<'_> {
        self.enter(Ctx::Collective(c, 0))
    }

    async fn call(&self, c: Call) -> Ret {
        // the recording copies the call and its answer; it changes neither
        let asked = self.log.as_ref().map(|_| super::calls::Asked::of(&c));
        let ret = Op {
            io: self.io.clone(),
            call: Some(c),
        }
        .await;
        if let (Some(log), Some(asked)) = (&self.log, asked) {
            log.push(self.rank, asked, &ret);
        }
        ret
    }

    /// This rank's number, 0 to `size() - 1` (in its communicator, [`Rank::on_comm`]).
    pub fn rank(&self) -> u32 {
        self.comm.as_ref().map_or(self.rank, |c| c.me)
    }

    /// The number of ranks (of its communicator).
    pub fn size(&self) -> u32 {
        self.comm
            .as_ref()
            .map_or(self.size, |c| c.members.len() as u32)
    }

    /// The system clock, MHz (cycles a microsecond).
    pub fn freq_mhz(&self) -> f64 {
        self.freq_mhz
    }

    /// Start of the program (Nüssle et al.'s `Init`): nothing to set up, the run placed the ranks.
    pub async fn init(&self) {}

    /// End of the program (Nüssle et al.'s `Finish`): the rank is done when its program returns;
    /// this only marks the place.
    pub async fn finish(&self) {}

    /// The simulated time, cycles of the system clock.
    pub async fn cycle(&self) -> u64 {
        match self.call(Call::Now).await {
            Ret::Cycle(c) => c,
            r => unreachable!("Now answered {r:?}"),
        }
    }

    /// Messages and bytes this rank has sent so far, its collectives' included (takes no
    /// time).
    pub async fn sent(&self) -> (u64, u64) {
        match self.call(Call::Sent).await {
            Ret::Sent(m, b) => (m, b),
            r => unreachable!("Sent answered {r:?}"),
        }
    }

    /// The simulated time, ns.
    pub async fn time(&self) -> f64 {
        let c = self.cycle().await;
        c as f64 * 1000.0 / self.freq_mhz
    }

    /// Compute for `ns` nanoseconds (whole cycles, rounded up).
    pub async fn consume_time(&self, ns: f64) {
        let c = crate::units::Clock::new(self.freq_mhz).cycles_for_ns(ns);
        self.consume_cycles(c).await
    }

    /// Compute for `cycles` cycles.
    pub async fn consume_cycles(&self, cycles: u64) {
        self.call(Call::Consume(cycles)).await;
    }

    pub(crate) async fn isend_in(&self, dst: u32, tag: i32, msg: Payload, coll: bool) -> Request {
        match self
            .call(Call::Isend {
                dst: self.world(dst),
                tag: self.context_tag(tag),
                msg,
                coll,
            })
            .await
        {
            Ret::Req(q) => q,
            r => unreachable!("Isend answered {r:?}"),
        }
    }

    pub(crate) async fn irecv_in(&self, src: Match<u32>, tag: Match<i32>, coll: bool) -> Request {
        let (src, tag) = (src.map(|s| self.world(s)), tag.map(|t| self.context_tag(t)));
        match self.call(Call::Irecv { src, tag, coll }).await {
            Ret::Req(q) => q,
            r => unreachable!("Irecv answered {r:?}"),
        }
    }

    pub(crate) async fn probe_in(&self, src: Match<u32>, tag: Match<i32>, coll: bool) -> Status {
        let (src, tag) = (src.map(|s| self.world(s)), tag.map(|t| self.context_tag(t)));
        match self.call(Call::Probe { src, tag, coll }).await {
            Ret::Probed(s) => s,
            r => unreachable!("Probe answered {r:?}"),
        }
    }

    /// Start sending `msg` to rank `dst` with `tag` (0 or more).
    pub async fn isend(&self, dst: u32, tag: i32, msg: Payload) -> Request {
        self.isend_in(dst, tag, msg, false).await
    }

    /// Start receiving a message from `src` (None: any) with `tag` (None: any).
    pub async fn irecv(&self, src: Match<u32>, tag: Match<i32>) -> Request {
        self.irecv_in(src, tag, false).await
    }

    /// Wait for one request; a receive's message comes back (a send's status is empty).
    pub async fn wait(&self, q: Request) -> Status {
        self.waitall(&[q]).await.pop().expect("one status")
    }

    /// Wait for every request; their statuses in the same order.
    pub async fn waitall(&self, qs: &[Request]) -> Vec<Status> {
        match self.call(Call::Wait(qs.to_vec())).await {
            Ret::Done(s) => s,
            r => unreachable!("Wait answered {r:?}"),
        }
    }

    /// Send and wait until the message has left this rank's buffer.
    pub async fn send(&self, dst: u32, tag: i32, msg: Payload) {
        let _in = self.enter(Ctx::Send);
        let q = self.isend(dst, tag, msg).await;
        self.wait(q).await;
    }

    /// Receive a message from `src` (None: any) with `tag` (None: any).
    pub async fn recv_match(&self, src: Match<u32>, tag: Match<i32>) -> Status {
        let _in = self.enter(Ctx::Receive);
        let q = self.irecv(src, tag).await;
        self.wait(q).await
    }

    /// Receive the next message from anyone with any tag.
    pub async fn recv(&self) -> Status {
        self.recv_match(None, None).await
    }

    /// Receive the next message from `src`, any tag.
    pub async fn recv_from(&self, src: u32) -> Status {
        self.recv_match(Some(src), None).await
    }

    /// Receive the next message with `tag`, from anyone.
    pub async fn recv_tag(&self, tag: i32) -> Status {
        self.recv_match(None, Some(tag)).await
    }

    /// Wait until a message from `src` (None: any) with `tag` (None: any) can be received; its
    /// source, tag and length, the message left to receive.
    pub async fn probe_match(&self, src: Match<u32>, tag: Match<i32>) -> Status {
        self.probe_in(src, tag, false).await
    }

    pub async fn probe(&self) -> Status {
        self.probe_match(None, None).await
    }

    pub async fn probe_from(&self, src: u32) -> Status {
        self.probe_match(Some(src), None).await
    }

    pub async fn probe_tag(&self, tag: i32) -> Status {
        self.probe_match(None, Some(tag)).await
    }

    /// Root-based barrier (Pisani 2016 §3: every rank tells rank 0, which then releases them).
    pub async fn barrier(&self) {
        let _in = self.enter(Ctx::Collective(Collective::Barrier, 0));
        collectives::barrier::root(self).await
    }

    /// Hierarchical barrier (Pisani 2016 §3): local roots of `group` consecutive ranks, then rank 0.
    pub async fn barrier_hierarchical(&self, group: u32) {
        let _in = self.enter(Ctx::Collective(Collective::BarrierHierarchical, 0));
        collectives::barrier::hierarchical(self, group).await
    }

    /// Broadcast `msg` from `root` (binomial tree); every rank gets root's message.
    pub async fn bcast(&self, root: u32, msg: Payload) -> Payload {
        let _in = self.enter(Ctx::Collective(Collective::Bcast, 0));
        collectives::bcast::binomial(self, root, msg).await
    }

    /// Reduce `x` element-wise with `op` to `root` (binomial tree); the result at the root.
    pub async fn reduce(&self, root: u32, x: &[f64], op: collectives::Op) -> Option<Vec<f64>> {
        let _in = self.enter(Ctx::Collective(Collective::Reduce, 0));
        collectives::reduce::binomial(self, root, x, op).await
    }

    /// Reduce `x` element-wise with `op`; every rank gets the result (reduce, then broadcast).
    pub async fn allreduce(&self, x: &[f64], op: collectives::Op) -> Vec<f64> {
        let _in = self.enter(Ctx::Collective(Collective::Allreduce, 0));
        collectives::allreduce::reduce_bcast(self, x, op).await
    }

    /// Gather every rank's `msg` at `root` (linear); `recv_lens[s]` bytes expected from rank s.
    /// The root gets every rank's message (its own included), the others `None`.
    pub async fn gather(&self, root: u32, msg: Payload, recv_lens: &[u64]) -> Option<Vec<Payload>> {
        let _in = self.enter(Ctx::Collective(Collective::Gather, 0));
        collectives::gather::linear(self, root, msg, recv_lens).await
    }

    /// A reduction of `bytes` whose values are not known (a traced program's) to `root`: the
    /// binomial tree's messages, each combination costing `combine_cycles`.
    pub async fn reduce_sized(&self, root: u32, bytes: u64, combine_cycles: u64) {
        let _in = self.enter(Ctx::Collective(Collective::ReduceSized, 0));
        collectives::reduce::binomial_sized(self, root, bytes, combine_cycles).await
    }

    /// An (ex)scan of `bytes` whose values are not known: a linear chain.
    pub async fn scan_sized(&self, bytes: u64, combine_cycles: u64) {
        let _in = self.enter(Ctx::Collective(Collective::ScanSized, 0));
        collectives::reduce::scan_sized(self, bytes, combine_cycles).await
    }

    /// A reduce-scatter of lengths (a traced program's): `recv_lens[d]` bytes end at rank d.
    pub async fn reduce_scatter_sized(&self, recv_lens: &[u64], combine_cycles: u64) -> Payload {
        let _in = self.enter(Ctx::Collective(Collective::ReduceScatterSized, 0));
        collectives::reducescatter::reduce_scatter_sized(self, recv_lens, combine_cycles).await
    }

    /// Scatter `out[d]` from `root` to every rank d (linear); `recv_len` bytes expected here.
    pub async fn scatter(&self, root: u32, out: Vec<Payload>, recv_len: u64) -> Payload {
        let _in = self.enter(Ctx::Collective(Collective::Scatter, 0));
        collectives::scatter::linear(self, root, out, recv_len).await
    }

    /// Every rank gets every rank's `msg` (`lens[s]` bytes from rank s): gather to rank 0, then
    /// broadcast. Serves allgather (equal lengths) and allgatherv.
    pub async fn allgatherv(&self, msg: Payload, lens: &[u64]) -> Vec<Payload> {
        let _in = self.enter(Ctx::Collective(Collective::Allgatherv, 0));
        collectives::allgather::gather_bcast(self, msg, lens).await
    }

    /// Personalised all-to-all: `out[d]` to rank `d`; returns what each rank sent to this one.
    /// Every message has the same length (MPI's alltoall); use `alltoallv` otherwise.
    pub async fn alltoall(&self, out: Vec<Payload>) -> Vec<Payload> {
        let _in = self.enter(Ctx::Collective(Collective::Alltoall, 0));
        collectives::alltoall::linear(self, out).await
    }

    /// Personalised all-to-all with a length per destination: `out[d]` to rank `d`, and
    /// `recv_lens[s]` bytes expected from rank `s`; a length of 0 sends or receives nothing
    /// (Pisani 2016 §3). Returns what each rank sent to this one.
    pub async fn alltoallv(&self, out: Vec<Payload>, recv_lens: &[u64]) -> Vec<Payload> {
        let _in = self.enter(Ctx::Collective(Collective::Alltoallv, 0));
        collectives::alltoallv::linear(self, out, recv_lens).await
    }
}

/// A program every rank runs.
pub trait Program: Send + Sync {
    fn start(&self, r: Rank) -> Pin<Box<dyn Future<Output = ()> + Send>>;
}

/// A program from a function `Rank -> future`.
pub struct FnProgram<F>(pub F);

impl<F, Fut> Program for FnProgram<F>
where
    F: Fn(Rank) -> Fut + Send + Sync,
    Fut: Future<Output = ()> + Send + 'static,
{
    fn start(&self, r: Rank) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        Box::pin((self.0)(r))
    }
}

/// `program(|r| async move { ... })`.
pub fn program<F, Fut>(f: F) -> Arc<dyn Program>
where
    F: Fn(Rank) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    Arc::new(FnProgram(f))
}
