//! Where and when head-of-line blocking happened, and where links stopped for want of credit,
//! read from a network view's Paraver trace (`network.rs`): what `exanet app run --paraver DIR`
//! prints after a run and gives in its JSON, so that the figures and the trace Paraver shows
//! are the same records.
//!
//! An episode is a HOL start and the next HOL end of the same input buffer (router thread and
//! VC); one still open at the trace's end is counted up to the end. Its cycles are end - start.
//! Input buffers are grouped by the class of the port they belong to (a torus direction, a
//! dragonfly's `local` or `global`, `terminal` for a NIC's injection FIFO), and episodes by
//! the class of the port the blocked head waited for and of the port the packet behind could
//! have taken. Credit stops are counted the same way (a stop and the next go of the same port
//! and VC), by the class of the sending port.

use super::network::{
    port_class, EV_CREDIT_GO, EV_CREDIT_STOP, EV_HOL_COULD_GO, EV_HOL_END, EV_HOL_START,
    EV_HOL_WAITS_FOR,
};
use super::paraver::{Event, Obj, Trace};
use crate::net::topology::Topology;
use serde::Serialize;
use std::collections::BTreeMap;

/// HOL blocking over the input buffers of one port class (or credit stops over its links).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ClassHol {
    pub class: String,
    /// Input buffers (or links: port and VC) that were blocked (stopped) at least once.
    pub buffers: u32,
    pub episodes: u64,
    pub cycles: u64,
}

/// HOL blocking by what the head waited for and where the packet behind could have gone.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CauseHol {
    pub waits_for: String,
    pub could_go: String,
    pub episodes: u64,
    pub cycles: u64,
}

/// One input buffer's HOL blocking.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PortHol {
    /// The router thread's name (`router 5 (1,1,0) port +Y`).
    pub port: String,
    pub class: String,
    pub vc: u32,
    pub episodes: u64,
    pub cycles: u64,
    pub first_cycle: u64,
    pub last_cycle: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, Default)]
pub struct HolSummary {
    pub episodes: u64,
    pub cycles: u64,
    /// Routers with at least one blocked input buffer.
    pub routers: u32,
    /// The first episode's start and the last one's end (None: no episode).
    pub first_cycle: Option<u64>,
    pub last_cycle: Option<u64>,
    /// Largest first (then by name).
    pub by_class: Vec<ClassHol>,
    pub by_cause: Vec<CauseHol>,
    /// The `top` buffers with the most HOL cycles, largest first (ties in router and port
    /// order).
    pub top: Vec<PortHol>,
    /// Credit stops by the class of the sending port, largest first.
    pub credit_stops: Vec<ClassHol>,
    /// The largest backlog state each class of thread reached (router ports by class, `NIC`
    /// for the NICs' ports), in class order.
    pub backlog: Vec<ClassBacklog>,
}

/// The largest backlog state of a class of threads: state `state` is a backlog of
/// `state x quantum` to `(state + 1) x quantum - 1` words.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ClassBacklog {
    pub class: String,
    pub state: u32,
    /// The thread that reached it first (in time, then object order) and when.
    pub port: String,
    pub cycle: u64,
}

/// Per class: the buffers (router thread, VC) blocked, episodes, cycles.
type ClassAcc = (std::collections::BTreeSet<(Obj, i64)>, u64, u64);

/// The class of router thread `k` (inter-tile ports first, then terminals).
pub fn thread_class(t: &dyn Topology, k: usize) -> String {
    if k >= t.ports() {
        "terminal".into()
    } else {
        port_class(t, k)
    }
}

/// The summary of `trace`'s HOL events (a network view of `topo`), keeping the `top` buffers.
pub fn summarise(trace: &Trace, topo: &dyn Topology, top: usize) -> HolSummary {
    let routers = topo.nodes() as u32;
    let mut events = trace.events.clone();
    events.sort_by_key(|a| (a.time, a.obj));
    let done = episodes(trace, &events, routers, EV_HOL_START, EV_HOL_END);
    let mut sum = HolSummary::default();
    let mut classes: BTreeMap<String, ClassAcc> = BTreeMap::new();
    let mut causes: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    let mut bufs: BTreeMap<(Obj, i64), PortHol> = BTreeMap::new();
    let mut blocked_routers = std::collections::BTreeSet::new();
    let name = |o: Obj| {
        trace
            .appls
            .get(o.appl as usize)
            .and_then(|a| a.tasks.get(o.task as usize))
            .and_then(|t| t.threads.get(o.thread as usize))
            .map_or_else(|| format!("{o:?}"), |t| t.name.clone())
    };
    let class_of_value = |v: i64| {
        if v >= 1 {
            thread_class(topo, v as usize - 1)
        } else {
            "?".into()
        }
    };
    for (obj, vc, s, e, [a, c]) in done {
        let cycles = e - s;
        sum.episodes += 1;
        sum.cycles += cycles;
        sum.first_cycle = Some(sum.first_cycle.map_or(s, |f| f.min(s)));
        sum.last_cycle = Some(sum.last_cycle.map_or(e, |l| l.max(e)));
        blocked_routers.insert(obj.task);
        let class = thread_class(topo, obj.thread as usize);
        let cl = classes.entry(class.clone()).or_default();
        cl.0.insert((obj, vc));
        cl.1 += 1;
        cl.2 += cycles;
        let cz = causes
            .entry((class_of_value(a), class_of_value(c)))
            .or_default();
        cz.0 += 1;
        cz.1 += cycles;
        let b = bufs.entry((obj, vc)).or_insert_with(|| PortHol {
            port: name(obj),
            class,
            vc: (vc - 1).max(0) as u32,
            episodes: 0,
            cycles: 0,
            first_cycle: s,
            last_cycle: e,
        });
        b.episodes += 1;
        b.cycles += cycles;
        b.first_cycle = b.first_cycle.min(s);
        b.last_cycle = b.last_cycle.max(e);
    }
    sum.routers = blocked_routers.len() as u32;
    sum.by_class = by_class(classes);
    sum.by_cause = causes
        .into_iter()
        .map(|((waits_for, could_go), (episodes, cycles))| CauseHol {
            waits_for,
            could_go,
            episodes,
            cycles,
        })
        .collect();
    sum.by_cause.sort_by(|a, b| {
        b.cycles
            .cmp(&a.cycles)
            .then((&a.waits_for, &a.could_go).cmp(&(&b.waits_for, &b.could_go)))
    });
    let mut all: Vec<PortHol> = bufs.into_values().collect();
    let mut stops: BTreeMap<String, ClassAcc> = BTreeMap::new();
    for (obj, vc, s, e, _) in episodes(trace, &events, routers, EV_CREDIT_STOP, EV_CREDIT_GO) {
        let cl = stops
            .entry(thread_class(topo, obj.thread as usize))
            .or_default();
        cl.0.insert((obj, vc));
        cl.1 += 1;
        cl.2 += e - s;
    }
    sum.credit_stops = by_class(stops);
    let mut top_state: BTreeMap<String, (u32, u64, Obj)> = BTreeMap::new();
    for st in &trace.states {
        let class = if st.obj.task < routers {
            thread_class(topo, st.obj.thread as usize)
        } else {
            "NIC".to_string()
        };
        let e = top_state
            .entry(class)
            .or_insert((st.state, st.begin, st.obj));
        if (st.state, std::cmp::Reverse((st.begin, st.obj))) > (e.0, std::cmp::Reverse((e.1, e.2)))
        {
            *e = (st.state, st.begin, st.obj);
        }
    }
    sum.backlog = top_state
        .into_iter()
        .map(|(class, (state, cycle, obj))| ClassBacklog {
            class,
            state,
            port: name(obj),
            cycle,
        })
        .collect();
    // (stable: equal cycles keep the order of the objects, routers and ports by number)
    all.sort_by_key(|b| std::cmp::Reverse(b.cycles));
    all.truncate(top);
    sum.top = all;
    sum
}

/// The classes' counts, largest first (then by name).
fn by_class(m: BTreeMap<String, ClassAcc>) -> Vec<ClassHol> {
    let mut v: Vec<ClassHol> = m
        .into_iter()
        .map(|(class, (b, episodes, cycles))| ClassHol {
            class,
            buffers: b.len() as u32,
            episodes,
            cycles,
        })
        .collect();
    v.sort_by(|a, b| b.cycles.cmp(&a.cycles).then(a.class.cmp(&b.class)));
    v
}

/// An episode: router thread, value (VC + 1), start, end, and the values of the HOL port
/// events that came with its start (0 when none).
type Episode = (Obj, i64, u64, u64, [i64; 2]);

/// The episodes of event pair (`start`, `end`) on the routers' threads (`events` in time
/// order): each start with the next end of the same thread and value; one still open at the
/// trace's end ends there.
fn episodes(trace: &Trace, events: &[Event], routers: u32, start: u32, end: u32) -> Vec<Episode> {
    let mut open: BTreeMap<(Obj, i64), (u64, [i64; 2])> = BTreeMap::new();
    let mut done = Vec::new();
    for e in events {
        if e.obj.task >= routers {
            continue;
        }
        let get = |ty: u32| e.events.iter().find(|x| x.0 == ty).map(|x| x.1);
        if let Some(v) = get(end) {
            if let Some((s, ac)) = open.remove(&(e.obj, v)) {
                done.push((e.obj, v, s, e.time, ac));
            }
        }
        if let Some(v) = get(start) {
            let ac = [
                get(EV_HOL_WAITS_FOR).unwrap_or(0),
                get(EV_HOL_COULD_GO).unwrap_or(0),
            ];
            open.insert((e.obj, v), (e.time, ac));
        }
    }
    for ((obj, v), (s, ac)) in open {
        done.push((obj, v, s, trace.end, ac));
    }
    done
}
