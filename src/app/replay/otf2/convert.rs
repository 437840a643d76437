//! An OTF2 trace's events into every rank's actions (the mapping is in `otf2.rs`'s header):
//! the ranks and communicators from the definitions, then each rank's events in order, then
//! the collectives, matched across ranks (the k-th collective of a communicator at every rank
//! is the same call: MPI has every member call them in the same order).

use super::collective;
use super::{op, Defs, Ev, Event, GroupKind, P2p, Raw};
use crate::app::replay::simgrid::{Action, Loc, TiTrace};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// With point-to-point messages on several communicators, a communicator's tags are shifted
/// up by its number times 2^24 (the trace's tags must then be below 2^24)...
const COMM_TAG_BITS: u32 = 24;
/// ...which leaves room for 128 communicators within the replay's non-negative `i32` tags.
const MAX_COMMS: usize = 1 << (31 - COMM_TAG_BITS);

/// Records that move nothing between ranks: read, and left out.
const IGNORED: &[&str] = &[
    "BufferFlush",
    "ProgramBegin",
    "ProgramEnd",
    "Metric",
    "ParameterString",
    "ParameterInt",
    "ParameterUnsignedInt",
    "CallingContextSample",
    "CommCreate",
    "CommDestroy",
    "OmpFork",
    "OmpJoin",
    "OmpAcquireLock",
    "OmpReleaseLock",
    "OmpTaskCreate",
    "OmpTaskSwitch",
    "OmpTaskComplete",
    "ThreadFork",
    "ThreadJoin",
    "ThreadTeamBegin",
    "ThreadTeamEnd",
    "ThreadAcquireLock",
    "ThreadReleaseLock",
    "ThreadTaskCreate",
    "ThreadTaskSwitch",
    "ThreadTaskComplete",
    "ThreadCreate",
    "ThreadBegin",
    "ThreadWait",
    "ThreadEnd",
    "IoCreateHandle",
    "IoDestroyHandle",
    "IoDuplicateHandle",
    "IoSeek",
    "IoChangeStatusFlags",
    "IoDeleteFile",
    "IoOperationBegin",
    "IoOperationTest",
    "IoOperationIssued",
    "IoOperationComplete",
    "IoOperationCancelled",
    "IoAcquireLock",
    "IoReleaseLock",
    "IoTryLock",
];

/// Why a record the replay does not ignore is refused.
fn refusal(name: &str) -> String {
    let why = if name.starts_with("Rma") {
        "one-sided communication (windows, put, get), which the replay cannot do"
    } else if name.starts_with("NonBlockingCollective") {
        "a non-blocking collective (MPI_Ibcast, MPI_Iallreduce, ...), not supported: the \
         replay's collectives are blocking, each running from its call to its end, where a \
         non-blocking one overlaps the rank's other calls up to the wait that completes it"
    } else if name.starts_with("CallingContext") {
        "a calling-context event: the trace was recorded with unwinding \
         (SCOREP_ENABLE_UNWINDING), whose calling contexts replace the Enter and Leave events \
         this reader follows; record it without"
    } else if name == "MeasurementOnOff" {
        "the measurement was switched off and on: the trace misses the events in between"
    } else if name == "Unknown" {
        "a record this OTF2 library (3.0) does not know"
    } else {
        "an event the replay does not know what to do with"
    };
    format!("{name}: {why}")
}

/// A communicator's members as world ranks.
#[derive(Debug, Clone, PartialEq)]
enum Members {
    Ranks(Vec<u32>),
    /// `MPI_COMM_SELF`: the rank itself.
    Myself,
}

/// What every rank's conversion shares.
struct Ctx<'a> {
    name: &'a str,
    defs: &'a Defs,
    /// Location of each rank.
    locations: Vec<u64>,
    /// Timer resolution, ticks a second.
    ticks_per_s: f64,
    comms: HashMap<u64, Result<Members, String>>,
    /// Each communicator's number, when point-to-point messages use several.
    tag_slot: HashMap<u64, u32>,
}

impl Ctx<'_> {
    fn at(&self, rank: u32, pos: u64, msg: impl std::fmt::Display) -> String {
        format!(
            "{}: rank {rank} (location {}), event {pos}: {msg}",
            self.name, self.locations[rank as usize]
        )
    }

    fn comm_name(&self, comm: u64) -> String {
        match self.defs.comms.get(&comm) {
            Some(c) => format!("{:?} ({comm})", self.defs.string(c.name)),
            None => format!("{comm}"),
        }
    }

    fn members(&self, comm: u64) -> Result<&Members, String> {
        match self.comms.get(&comm) {
            Some(Ok(m)) => Ok(m),
            Some(Err(e)) => Err(format!("communicator {}: {e}", self.comm_name(comm))),
            None if self.defs.inter_comms.contains_key(&comm) => Err(format!(
                "communicator {}: an inter-communicator, which the replay cannot do",
                self.comm_name(comm)
            )),
            None => Err(format!("communicator {comm} is not defined")),
        }
    }

    /// The world rank and the replay's tag of a point-to-point event at rank `me`.
    fn p2p(&self, me: u32, p: &P2p) -> Result<(u32, i32), String> {
        let peer = match self.members(p.comm)? {
            Members::Myself if p.peer == 0 => me,
            Members::Myself => {
                return Err(format!(
                    "peer rank {} on {}, a communicator of one rank",
                    p.peer,
                    self.comm_name(p.comm)
                ))
            }
            Members::Ranks(v) => v.get(p.peer as usize).copied().ok_or_else(|| {
                format!(
                    "peer rank {} is outside communicator {} of {} ranks",
                    p.peer,
                    self.comm_name(p.comm),
                    v.len()
                )
            })?,
        };
        let tag = match self.tag_slot.get(&p.comm) {
            None => i32::try_from(p.tag)
                .map_err(|_| format!("tag {} is beyond the replay's 2^31-1", p.tag))?,
            Some(&slot) => {
                if p.tag >= 1 << COMM_TAG_BITS {
                    return Err(format!(
                        "tag {}: with point-to-point messages on {} communicators the replay \
                         keeps each one's tags apart, which needs tags below 2^{COMM_TAG_BITS}",
                        p.tag,
                        self.tag_slot.len()
                    ));
                }
                ((slot << COMM_TAG_BITS) | p.tag) as i32
            }
        };
        Ok((peer, tag))
    }
}

/// The MPI ranks' locations, in rank order: the MPI paradigm's `COMM_LOCATIONS` group.
fn rank_locations(name: &str, defs: &Defs) -> Result<Vec<u64>, String> {
    let mut lists: Vec<(&u64, &super::GroupDef)> = defs
        .groups
        .iter()
        .filter(|(_, g)| g.mpi && g.kind == GroupKind::CommLocations)
        .collect();
    lists.sort_by_key(|(id, _)| **id);
    let g = match lists.as_slice() {
        [] => {
            return Err(format!(
                "{name}: no list of MPI ranks (a Group of type COMM_LOCATIONS for the MPI \
                 paradigm): not an MPI trace"
            ))
        }
        [(_, g)] => g,
        [(a, _), (b, _), ..] => {
            return Err(format!(
                "{name}: two lists of MPI ranks (COMM_LOCATIONS groups {a} and {b} of the MPI \
                 paradigm)"
            ))
        }
    };
    if g.members.is_empty() {
        return Err(format!("{name}: the list of MPI ranks is empty"));
    }
    let mut seen = BTreeSet::new();
    for (r, &l) in g.members.iter().enumerate() {
        if !defs.locations.iter().any(|d| d.id == l) {
            return Err(format!(
                "{name}: MPI rank {r}'s location {l} is not defined"
            ));
        }
        if !seen.insert(l) {
            return Err(format!("{name}: location {l} is listed for two MPI ranks"));
        }
    }
    Ok(g.members.clone())
}

/// Every communicator's members as world ranks, or why they cannot be had.
fn comm_members(defs: &Defs, locations: &[u64]) -> HashMap<u64, Result<Members, String>> {
    let n = locations.len();
    let rank_of: HashMap<u64, u32> = locations
        .iter()
        .enumerate()
        .map(|(r, &l)| (l, r as u32))
        .collect();
    defs.comms
        .iter()
        .map(|(&id, c)| {
            let m = match defs.groups.get(&c.group) {
                None => Err(format!("its group {} is not defined", c.group)),
                Some(g) if g.kind == GroupKind::CommSelf => Ok(Members::Myself),
                Some(g) if g.mpi && g.kind == GroupKind::CommGroup => g
                    .members
                    .iter()
                    .map(|&m| {
                        u32::try_from(m)
                            .ok()
                            .filter(|&r| (r as usize) < n)
                            .ok_or_else(|| format!("member {m} is not one of the {n} MPI ranks"))
                    })
                    .collect::<Result<Vec<u32>, String>>()
                    .map(Members::Ranks),
                Some(g) if g.mpi && g.kind == GroupKind::CommLocations => g
                    .members
                    .iter()
                    .map(|m| {
                        rank_of
                            .get(m)
                            .copied()
                            .ok_or_else(|| format!("member location {m} is no MPI rank's"))
                    })
                    .collect::<Result<Vec<u32>, String>>()
                    .map(Members::Ranks),
                Some(g) => Err(format!(
                    "its group {:?} is not an MPI communicator's",
                    defs.string(g.name)
                )),
            };
            (id, m)
        })
        .collect()
}

/// See the module header.
pub fn convert(raw: &Raw, name: &str) -> Result<TiTrace, String> {
    let defs = &raw.defs;
    let clock = defs.clock.ok_or_else(|| {
        format!("{name}: no clock properties: the global definitions are missing or cut short")
    })?;
    if clock.resolution == 0 {
        return Err(format!("{name}: the timer resolution is 0 ticks a second"));
    }
    let locations = rank_locations(name, defs)?;
    let n = locations.len();
    let rank_of: HashMap<u64, u32> = locations
        .iter()
        .enumerate()
        .map(|(r, &l)| (l, r as u32))
        .collect();
    let mut events: Vec<&[Event]> = vec![&[]; n];
    for (loc, evs) in &raw.locations {
        match rank_of.get(loc) {
            Some(&r) => events[r as usize] = evs,
            None => not_a_rank(name, raw, *loc, evs)?,
        }
    }
    if let Some(r) = events.iter().position(|e| e.is_empty()) {
        return Err(format!(
            "{name}: rank {r} (location {}) has no events: the trace was cut short (every MPI \
             rank calls MPI_Init at least)",
            locations[r]
        ));
    }
    let comms = comm_members(defs, &locations);
    let mut cx = Ctx {
        name,
        defs,
        locations,
        ticks_per_s: clock.resolution as f64,
        comms,
        tag_slot: HashMap::new(),
    };
    let used: BTreeSet<u64> = events
        .iter()
        .flat_map(|e| e.iter())
        .filter_map(|e| match e.ev {
            Ev::MpiSend(p) | Ev::MpiIsend(p, _) | Ev::MpiRecv(p) | Ev::MpiIrecv(p, _) => {
                Some(p.comm)
            }
            _ => None,
        })
        .collect();
    if used.len() > MAX_COMMS {
        return Err(format!(
            "{name}: point-to-point messages on {} communicators; the replay keeps at most \
             {MAX_COMMS} apart",
            used.len()
        ));
    }
    if used.len() > 1 {
        cx.tag_slot = used
            .iter()
            .enumerate()
            .map(|(k, &c)| (c, k as u32))
            .collect();
    }
    let mut ranks = Vec::with_capacity(n);
    let mut colls = Vec::with_capacity(n);
    for (r, evs) in events.iter().enumerate() {
        let (out, c) = Walk::new(&cx, r as u32).run(evs, raw)?;
        ranks.push(out);
        colls.push(c);
    }
    let comms = collectives(&cx, &mut ranks, &colls)?;
    Ok(TiTrace {
        ranks: ranks.into_iter().map(compact).collect(),
        comms,
    })
}

/// A location that is no MPI rank's (another thread of a process) may compute, not talk.
fn not_a_rank(name: &str, raw: &Raw, loc: u64, evs: &[Event]) -> Result<(), String> {
    for e in evs {
        let what = match e.ev {
            Ev::Enter(_) | Ev::Leave(_) => continue,
            Ev::Other(k) => {
                let n = &raw.other_names[k as usize];
                if IGNORED.contains(&n.as_str()) {
                    continue;
                }
                refusal(n)
            }
            _ => "an MPI event on a location that is no MPI rank's (the MPI COMM_LOCATIONS \
                  group does not list it): MPI calls from several threads of a rank are not \
                  replayed"
                .to_string(),
        };
        return Err(format!("{name}: location {loc}, event {}: {what}", e.pos));
    }
    Ok(())
}

/// A rank's actions as they are read; `None` for what turned out to move nothing (a cancelled
/// request, a handle's creation).
type Slots = Vec<Option<(Action, Loc)>>;

/// A collective as one rank saw it: where its placeholder action is, and what it said.
#[derive(Debug, Clone, Copy)]
struct CollAt {
    index: usize,
    pos: u64,
    coll: super::Coll,
}

/// The MPI call being read: its blocking sends and receives and the requests it completed
/// (positions of the actions that started them).
#[derive(Debug, Default)]
struct Call {
    blocking: Vec<usize>,
    completes: Vec<usize>,
}

/// One rank's events, in order.
struct Walk<'a> {
    cx: &'a Ctx<'a>,
    rank: u32,
    out: Slots,
    colls: Vec<CollAt>,
    /// Regions entered: (region, event).
    stack: Vec<(u64, u64)>,
    /// MPI regions among them.
    mpi_depth: usize,
    /// The computing since this time (the first event, or leaving the last MPI call).
    idle_since: Option<u64>,
    last_time: u64,
    call: Option<Call>,
    /// Requests under way: the action that started each, the event, and whether a receive.
    requests: HashMap<u64, (usize, u64, bool)>,
}

impl<'a> Walk<'a> {
    fn new(cx: &'a Ctx<'a>, rank: u32) -> Walk<'a> {
        Walk {
            cx,
            rank,
            out: Vec::new(),
            colls: Vec::new(),
            stack: Vec::new(),
            mpi_depth: 0,
            idle_since: None,
            last_time: 0,
            call: None,
            requests: HashMap::new(),
        }
    }

    fn loc(&self, pos: u64) -> Loc {
        Loc {
            file: format!("{} rank {}", self.cx.name, self.rank),
            line: pos as usize,
            call: None,
        }
    }

    fn push(&mut self, a: Action, pos: u64) -> usize {
        self.out.push(Some((a, self.loc(pos))));
        self.out.len() - 1
    }

    fn run(mut self, evs: &[Event], raw: &Raw) -> Result<(Slots, Vec<CollAt>), String> {
        self.push(Action::Init, evs.first().map_or(0, |e| e.pos));
        for e in evs {
            self.event(e, raw)
                .map_err(|m| self.cx.at(self.rank, e.pos, m))?;
        }
        let end = evs.last().map_or(0, |e| e.pos);
        if self.mpi_depth > 0 {
            let (reg, at) = self.stack.last().copied().unwrap_or((0, 0));
            return Err(self.cx.at(
                self.rank,
                end,
                format!(
                    "the trace ends inside MPI call {} entered at event {at}: it was cut short",
                    self.region_name(reg)
                ),
            ));
        }
        self.compute_until(self.last_time, end);
        let mut open: Vec<(u64, u64)> = self
            .requests
            .iter()
            .filter(|(_, v)| v.2)
            .map(|(&q, v)| (v.1, q))
            .collect();
        open.sort();
        if let Some(&(at, q)) = open.first() {
            return Err(self.cx.at(
                self.rank,
                at,
                format!(
                    "the receive of request {q} never completes in the trace (no MpiIrecv), so \
                     its sender and tag are unknown"
                ),
            ));
        }
        self.push(Action::Finalize, end);
        Ok((self.out, self.colls))
    }

    fn region_name(&self, reg: u64) -> String {
        match self.cx.defs.regions.get(&reg) {
            Some(r) => format!("{:?}", self.cx.defs.string(r.name)),
            None => format!("{reg}"),
        }
    }

    fn mpi_region(&self, reg: u64) -> Result<bool, String> {
        self.cx
            .defs
            .regions
            .get(&reg)
            .map(|r| r.mpi)
            .ok_or_else(|| format!("region {reg} is not defined"))
    }

    /// The computing from `idle_since` to `time`, as an action at event `pos`.
    fn compute_until(&mut self, time: u64, pos: u64) {
        let from = self.idle_since.unwrap_or(time);
        let ticks = time.saturating_sub(from);
        if ticks > 0 {
            let seconds = ticks as f64 / self.cx.ticks_per_s;
            self.push(Action::ComputeTime { seconds }, pos);
        }
    }

    fn event(&mut self, e: &Event, raw: &Raw) -> Result<(), String> {
        if e.time < self.last_time {
            return Err(format!(
                "timestamp {} is before the previous event's, {}",
                e.time, self.last_time
            ));
        }
        self.last_time = e.time;
        if self.idle_since.is_none() {
            self.idle_since = Some(e.time);
        }
        match e.ev {
            Ev::Enter(reg) => {
                let mpi = self.mpi_region(reg)?;
                self.stack.push((reg, e.pos));
                if mpi {
                    if self.mpi_depth == 0 {
                        self.begin_call(e);
                    }
                    self.mpi_depth += 1;
                }
            }
            Ev::Leave(reg) => {
                let mpi = self.mpi_region(reg)?;
                match self.stack.pop() {
                    Some((top, _)) if top == reg => {}
                    Some((top, at)) => {
                        return Err(format!(
                            "leaves region {} while {} (entered at event {at}) is the innermost",
                            self.region_name(reg),
                            self.region_name(top)
                        ))
                    }
                    None => {
                        return Err(format!(
                            "leaves region {}, which it had not entered",
                            self.region_name(reg)
                        ))
                    }
                }
                if mpi {
                    self.mpi_depth -= 1;
                    if self.mpi_depth == 0 {
                        self.end_call(e);
                    }
                }
            }
            Ev::Other(k) => {
                let name = raw.other_names.get(k as usize).map_or("?", |s| s.as_str());
                if !IGNORED.contains(&name) {
                    return Err(refusal(name));
                }
            }
            // the end says what the collective was
            Ev::MpiCollectiveBegin => {}
            _ => {
                let alone = self.mpi_depth == 0;
                if alone {
                    self.begin_call(e);
                }
                self.mpi(e)?;
                if alone {
                    self.end_call(e);
                }
            }
        }
        Ok(())
    }

    fn begin_call(&mut self, e: &Event) {
        self.compute_until(e.time, e.pos);
        self.call = Some(Call::default());
    }

    /// The call's blocking parts and completions: one blocking send or receive alone stays one;
    /// otherwise everything the call started or completed ends in one wait.
    fn end_call(&mut self, e: &Event) {
        let c = self.call.take().unwrap_or_default();
        if let ([i], []) = (c.blocking.as_slice(), c.completes.as_slice()) {
            if let Some((a, _)) = &mut self.out[*i] {
                *a = match a.clone() {
                    Action::Isend { dst, tag, bytes } => Action::Send { dst, tag, bytes },
                    Action::Irecv { src, tag, bytes } => Action::Recv { src, tag, bytes },
                    other => other,
                };
            }
        } else if !c.blocking.is_empty() || !c.completes.is_empty() {
            let starts = c
                .blocking
                .iter()
                .chain(&c.completes)
                .map(|&i| i as u32)
                .collect();
            let blocking = !c.blocking.is_empty();
            self.push(Action::WaitStarted { starts, blocking }, e.pos);
        }
        self.idle_since = Some(e.time);
    }

    fn call(&mut self) -> &mut Call {
        self.call.get_or_insert_with(Call::default)
    }

    fn start(&mut self, q: u64, index: usize, pos: u64, recv: bool) -> Result<(), String> {
        if let Some(&(_, at, _)) = self.requests.get(&q) {
            return Err(format!(
                "starts request {q}, which the event {at} started and nothing completed"
            ));
        }
        self.requests.insert(q, (index, pos, recv));
        Ok(())
    }

    fn take(&mut self, q: u64, what: &str) -> Result<(usize, u64, bool), String> {
        self.requests
            .remove(&q)
            .ok_or_else(|| format!("{what} of request {q}, which no event started"))
    }

    fn mpi(&mut self, e: &Event) -> Result<(), String> {
        let me = self.rank;
        match e.ev {
            Ev::MpiSend(p) => {
                let (dst, tag) = self.cx.p2p(me, &p)?;
                let bytes = p.bytes;
                let i = self.push(Action::Isend { dst, tag, bytes }, e.pos);
                self.call().blocking.push(i);
            }
            Ev::MpiRecv(p) => {
                let (src, tag) = self.cx.p2p(me, &p)?;
                let a = Action::Irecv {
                    src: Some(src),
                    tag: Some(tag),
                    bytes: p.bytes,
                };
                let i = self.push(a, e.pos);
                self.call().blocking.push(i);
            }
            Ev::MpiIsend(p, q) => {
                let (dst, tag) = self.cx.p2p(me, &p)?;
                let bytes = p.bytes;
                let i = self.push(Action::Isend { dst, tag, bytes }, e.pos);
                self.start(q, i, e.pos, false)?;
            }
            Ev::MpiIrecvRequest(q) => {
                // its sender, tag and bytes come with the MpiIrecv that completes it
                let a = Action::Irecv {
                    src: None,
                    tag: None,
                    bytes: 0,
                };
                let i = self.push(a, e.pos);
                self.start(q, i, e.pos, true)?;
            }
            Ev::MpiIsendComplete(q) => {
                let (i, at, recv) = self.take(q, "MpiIsendComplete")?;
                if recv {
                    return Err(format!(
                        "MpiIsendComplete of request {q}, a receive (MpiIrecvRequest at event {at})"
                    ));
                }
                self.call().completes.push(i);
            }
            Ev::MpiIrecv(p, q) => {
                let (i, at, recv) = self.take(q, "MpiIrecv")?;
                if !recv {
                    return Err(format!(
                        "MpiIrecv of request {q}, a send (MpiIsend at event {at})"
                    ));
                }
                let (src, tag) = self.cx.p2p(me, &p)?;
                if let Some((a, _)) = &mut self.out[i] {
                    *a = Action::Irecv {
                        src: Some(src),
                        tag: Some(tag),
                        bytes: p.bytes,
                    };
                }
                self.call().completes.push(i);
            }
            Ev::MpiRequestTest(q) => {
                if !self.requests.contains_key(&q) {
                    return Err(format!(
                        "MpiRequestTest of request {q}, which is not under way"
                    ));
                }
            }
            Ev::MpiRequestCancelled(q) => {
                let (i, _, _) = self.take(q, "MpiRequestCancelled")?;
                // a cancelled request moved nothing
                self.out[i] = None;
            }
            Ev::MpiCollectiveEnd(c) => {
                // a placeholder until every rank's view of the collective is known
                let index = self.push(Action::Barrier, e.pos);
                self.colls.push(CollAt {
                    index,
                    pos: e.pos,
                    coll: c,
                });
            }
            Ev::Enter(_) | Ev::Leave(_) | Ev::Other(_) | Ev::MpiCollectiveBegin => {}
        }
        Ok(())
    }
}

/// Each collective's actions, in place of the placeholders: the k-th collective on a
/// communicator at every member is one call. A communicator of all ranks in order (the world or
/// a copy) gives plain actions; one of some ranks gives [`Action::OnComm`] actions on the
/// communicators returned (each its members' world ranks in its rank order), run among its
/// members only; `MPI_COMM_SELF`'s move nothing and are dropped.
fn collectives(
    cx: &Ctx,
    ranks: &mut [Slots],
    colls: &[Vec<CollAt>],
) -> Result<Vec<Arc<[u32]>>, String> {
    let n = ranks.len();
    let mut comms: Vec<Arc<[u32]>> = Vec::new();
    // communicator -> per rank, its collectives on it in order
    let mut by_comm: BTreeMap<u64, Vec<Vec<CollAt>>> = BTreeMap::new();
    for (r, cs) in colls.iter().enumerate() {
        for c in cs {
            if (op::CREATE_HANDLE..=op::DESTROY_HANDLE_AND_DEALLOCATE).contains(&c.coll.op) {
                // creating or freeing a communicator (or window) moves no data
                ranks[r][c.index] = None;
                continue;
            }
            by_comm
                .entry(c.coll.comm)
                .or_insert_with(|| vec![Vec::new(); n])[r]
                .push(*c);
        }
    }
    let world: Vec<u32> = (0..n as u32).collect();
    for (comm, per_rank) in by_comm {
        let first = per_rank
            .iter()
            .enumerate()
            .find_map(|(r, v)| v.first().map(|c| (r as u32, c)))
            .expect("a communicator in the map has a collective");
        let members: Vec<u32> = match cx.members(comm) {
            Ok(Members::Ranks(v)) => v.clone(),
            Ok(Members::Myself) if n > 1 => {
                // each rank's own communicator: a collective of one rank moves nothing
                for (r, v) in per_rank.iter().enumerate() {
                    for c in v {
                        ranks[r][c.index] = None;
                    }
                }
                continue;
            }
            Ok(Members::Myself) => world.clone(),
            Err(e) => return Err(cx.at(first.0, first.1.pos, e)),
        };
        let name = |c: &CollAt| super::op_name(c.coll.op);
        if let Some((r, v)) = per_rank
            .iter()
            .enumerate()
            .find(|(r, v)| !v.is_empty() && !members.contains(&(*r as u32)))
        {
            return Err(cx.at(
                r as u32,
                v[0].pos,
                format!(
                    "{} on communicator {}, whose members are ranks {members:?}: rank {r} is \
                     not one of them",
                    name(&v[0]),
                    cx.comm_name(comm)
                ),
            ));
        }
        let lead = members[0] as usize;
        let count = per_rank[lead].len();
        if let Some(&m) = members
            .iter()
            .find(|&&m| per_rank[m as usize].len() != count)
        {
            let r = m as usize;
            let (has, lacks) = if per_rank[r].len() > count {
                (r, lead)
            } else {
                (lead, r)
            };
            let c = per_rank[has][per_rank[lacks].len()];
            return Err(cx.at(
                has as u32,
                c.pos,
                format!(
                    "{} on communicator {}: rank {lacks} has {} collectives on it, rank {has} \
                     {}: the trace misses some of rank {lacks}'s events",
                    name(&c),
                    cx.comm_name(comm),
                    per_rank[lacks].len(),
                    per_rank[has].len()
                ),
            ));
        }
        let on = if members == world {
            None
        } else {
            comms.push(members.clone().into());
            Some(comms.len() as u32 - 1)
        };
        for k in 0..count {
            let c0 = per_rank[lead][k];
            for &m in &members {
                let c = per_rank[m as usize][k];
                let rooted = c.coll.op != op::BARRIER && c.coll.root != op::ROOT_NONE;
                if c.coll.op != c0.coll.op || (rooted && c.coll.root != c0.coll.root) {
                    return Err(cx.at(
                        m,
                        c.pos,
                        format!(
                            "{} (root {}) where rank {lead} calls {} (root {}) at event {}: the \
                             ranks' collectives on communicator {} do not match",
                            name(&c),
                            c.coll.root,
                            name(&c0),
                            c0.coll.root,
                            c0.pos,
                            cx.comm_name(comm)
                        ),
                    ));
                }
            }
            // every member's totals, in the communicator's rank order (roots are ranks in it)
            let views: Vec<collective::View> = members
                .iter()
                .map(|&m| {
                    let c = per_rank[m as usize][k].coll;
                    (c.sent, c.received)
                })
                .collect();
            let acts = collective::actions(c0.coll.op, c0.coll.root, &views)
                .map_err(|e| cx.at(lead as u32, c0.pos, format!("{}: {e}", name(&c0))))?;
            for (i, &m) in members.iter().enumerate() {
                let slot = &mut ranks[m as usize][per_rank[m as usize][k].index];
                match &acts {
                    None => *slot = None,
                    Some(a) => {
                        if let Some((x, _)) = slot {
                            *x = match on {
                                None => a[i].clone(),
                                Some(comm) => Action::OnComm {
                                    comm,
                                    action: Box::new(a[i].clone()),
                                },
                            };
                        }
                    }
                }
            }
        }
    }
    Ok(comms)
}

/// The actions without the cancelled ones, `WaitStarted` renumbered to match.
fn compact(out: Slots) -> Vec<(Action, Loc)> {
    let mut new_index = vec![u32::MAX; out.len()];
    let mut v = Vec::with_capacity(out.len());
    for (i, x) in out.into_iter().enumerate() {
        if let Some(a) = x {
            new_index[i] = v.len() as u32;
            v.push(a);
        }
    }
    for (a, _) in &mut v {
        if let Action::WaitStarted { starts, .. } = a {
            for s in starts.iter_mut() {
                *s = new_index[*s as usize];
            }
            starts.retain(|&s| s != u32::MAX);
        }
    }
    v
}
