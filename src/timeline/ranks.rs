//! The ranks' timeline of an application run (`app/record.rs`) as a Paraver trace and as a
//! Chrome/Perfetto trace (Minkenberg and Rodriguez 2008 §4.2 and Table 1, MPI level; docs/decisions/0021).
//!
//! Paraver objects follow the MPI-level mapping of Minkenberg and Rodriguez 2008 Table 1 (the records of "the
//! sending thread"), as Dimemas and Extrae write them: one application; one task a rank with
//! one thread; the resource model's nodes are the endpoints that hold ranks, their CPUs the
//! ranks placed there (rank order). State values are Paraver's default ones for the same
//! activities (paraver-kernel `api/semanticcolor.cpp`), with their colours:
//!
//! | activity | value | Paraver's name for the value |
//! |---|---|---|
//! | compute | 1 | Running |
//! | receive | 3 | Waiting a message |
//! | send | 4 | Blocked (Extrae: blocking send) |
//! | wait | 8 | Wait/Wait all |
//! | collective | 13 | Group communication |
//!
//! Each collective has an event of type [`COLLECTIVE_EVENT`] at its start (value: which
//! collective) and at its end (value 0). A communication record a delivered message: logical
//! and physical send, logical and physical receive as `record.rs` defines them, size in bytes,
//! tag the MPI tag (a collective's message: minus the collective's tag, [`paraver_tag`]).
//!
//! Time: integer ns when a cycle is a whole number of ns, else cycles (the default clock, 6.4
//! ns). The Perfetto trace has a process an endpoint (pid = endpoint + 1), a thread a rank
//! (tid = rank + 1), a complete event a span and a flow (s to f) a message from its logical
//! send to its delivery; times in microseconds.

use super::paraver::{
    self, Appl, Comm, Event, EventType, Node, Obj, State, StateLabel, Task, Thread, TimeUnit, Trace,
};
use super::perfetto::{TraceEvent, TraceFile};
use crate::app::record::{Activity, Collective, MessageRecord, Timeline};
use std::collections::BTreeMap;
use std::path::Path;

/// The Paraver event type of collectives (a value a collective, 0 its end).
pub const COLLECTIVE_EVENT: u32 = 90_000_001;

/// The files `--paraver DIR` writes the ranks to: `DIR/ranks.prv`, `.pcf`, `.row`.
pub const STEM: &str = "ranks";

/// The Paraver state value of an activity and its colour.
pub fn state(a: Activity) -> (u32, (u8, u8, u8)) {
    match a {
        Activity::Compute => (1, (0, 0, 255)),
        Activity::Receive => (3, (255, 0, 0)),
        Activity::Send => (4, (255, 0, 174)),
        Activity::Wait => (8, (235, 0, 0)),
        Activity::Collective => (13, (255, 144, 26)),
    }
}

/// The tag of a message's communication record: the MPI tag, or minus the tag of a
/// collective's message (collectives' tags are 1 and more, users' 0 and more).
pub fn paraver_tag(m: &MessageRecord) -> i64 {
    if m.coll {
        -(m.tag as i64)
    } else {
        m.tag as i64
    }
}

/// Paraver's unit for a clock of `freq_mhz`: ns when a cycle is a whole number of them (and
/// that number), else cycles.
pub fn unit(freq_mhz: f64) -> (TimeUnit, u64) {
    let ns = 1000.0 / freq_mhz;
    if ns >= 1.0 && ns.fract() == 0.0 && ns * freq_mhz == 1000.0 {
        (TimeUnit::Ns, ns as u64)
    } else {
        (TimeUnit::Cycles { freq_mhz }, 1)
    }
}

/// The timeline as a Paraver trace.
pub fn paraver(t: &Timeline) -> Trace {
    let (unit, k) = unit(t.freq_mhz);
    let mut tr = Trace::new(unit);
    tr.end = t.end_cycle * k;
    // nodes: the endpoints holding ranks, in endpoint order; CPUs their ranks in rank order
    let mut on: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for r in &t.ranks {
        on.entry(r.endpoint).or_default().push(r.rank);
    }
    let mut place: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
    for (n, (e, ranks)) in on.iter().enumerate() {
        tr.nodes.push(Node {
            name: format!("endpoint {e}"),
            cpus: ranks
                .iter()
                .map(|r| format!("endpoint {e} rank {r}"))
                .collect(),
        });
        for (c, &r) in ranks.iter().enumerate() {
            place.insert(r, (n as u32, c as u32));
        }
    }
    let mut task_of: BTreeMap<u32, u32> = BTreeMap::new();
    let mut tasks = Vec::new();
    for r in &t.ranks {
        let (node, cpu) = place[&r.rank];
        task_of.insert(r.rank, tasks.len() as u32);
        tasks.push(Task {
            name: format!("rank {}", r.rank),
            node,
            threads: vec![Thread {
                name: format!("rank {}", r.rank),
                cpu: Some(cpu),
            }],
        });
    }
    tr.appls.push(Appl {
        name: "program".into(),
        tasks,
    });
    let obj = |rank: u32| Obj {
        appl: 0,
        task: task_of[&rank],
        thread: 0,
    };
    for a in Activity::ALL {
        let (v, color) = state(a);
        tr.state_labels.insert(
            v,
            StateLabel {
                name: a.name().into(),
                color,
            },
        );
    }
    let mut values: BTreeMap<i64, String> = [(0, "End".to_string())].into();
    for c in Collective::ALL {
        values.insert(c.code() as i64, c.name().into());
    }
    tr.event_types.insert(
        COLLECTIVE_EVENT,
        EventType {
            name: "Collective".into(),
            values,
        },
    );
    for r in &t.ranks {
        for s in &r.spans {
            tr.states.push(State {
                obj: obj(r.rank),
                begin: s.begin * k,
                end: s.end * k,
                state: state(s.activity).0,
            });
            if let Some(c) = s.collective {
                for (time, v) in [(s.begin, c.code() as i64), (s.end, 0)] {
                    tr.events.push(Event {
                        obj: obj(r.rank),
                        time: time * k,
                        events: vec![(COLLECTIVE_EVENT, v)],
                    });
                }
            }
        }
    }
    for m in &t.messages {
        tr.comms.push(Comm {
            send: obj(m.src),
            log_send: m.send_posted * k,
            phys_send: m.send_started * k,
            recv: obj(m.dst),
            log_recv: m.recv_posted * k,
            phys_recv: m.arrived * k,
            size: m.bytes,
            tag: paraver_tag(m),
        });
    }
    tr
}

/// Write the timeline's Paraver trace to `dir/ranks.prv`, `.pcf`, `.row` (the directory made
/// when missing); an error names the file.
pub fn write_paraver(t: &Timeline, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    paraver::write(&paraver(t), &dir.join(STEM))
}

/// The timeline as a Chrome/Perfetto trace.
pub fn perfetto(t: &Timeline) -> TraceFile {
    let us = |c: u64| c as f64 / t.freq_mhz;
    let mut ev = Vec::new();
    let mut endpoints: Vec<u32> = t.ranks.iter().map(|r| r.endpoint).collect();
    endpoints.sort_unstable();
    endpoints.dedup();
    for e in endpoints {
        let pid = e as u64 + 1;
        ev.push(TraceEvent::meta(
            "process_name",
            pid,
            None,
            serde_json::json!({ "name": format!("endpoint {e}") }),
        ));
        ev.push(TraceEvent::meta(
            "process_sort_index",
            pid,
            None,
            serde_json::json!({ "sort_index": e }),
        ));
    }
    let pid_tid = |rank: u32| -> (u64, u64) {
        let e = t.ranks[rank as usize].endpoint;
        (e as u64 + 1, rank as u64 + 1)
    };
    for r in &t.ranks {
        let (pid, tid) = pid_tid(r.rank);
        ev.push(TraceEvent::meta(
            "thread_name",
            pid,
            Some(tid),
            serde_json::json!({ "name": format!("rank {}", r.rank) }),
        ));
        ev.push(TraceEvent::meta(
            "thread_sort_index",
            pid,
            Some(tid),
            serde_json::json!({ "sort_index": r.rank }),
        ));
        for s in &r.spans {
            let name = s.collective.map_or(s.activity.name(), |c| c.name());
            let mut x = TraceEvent::complete(
                name,
                s.activity.name(),
                us(s.begin),
                us(s.end - s.begin),
                pid,
                tid,
            );
            x.args = Some(serde_json::json!({ "begin_cycle": s.begin, "end_cycle": s.end }));
            ev.push(x);
        }
    }
    for (k, m) in t.messages.iter().enumerate() {
        let (sp, st) = pid_tid(m.src);
        let (dp, dt) = pid_tid(m.dst);
        let mut s = TraceEvent::flow(
            "message",
            "message",
            k as u64,
            us(m.send_posted),
            sp,
            st,
            false,
        );
        s.args = Some(serde_json::to_value(m).expect("a message record is plain data"));
        ev.push(s);
        ev.push(TraceEvent::flow(
            "message",
            "message",
            k as u64,
            us(m.delivered),
            dp,
            dt,
            true,
        ));
    }
    TraceFile {
        trace_events: ev,
        display_time_unit: "ns".into(),
        other_data: Some(serde_json::json!({
            "clock_mhz": t.freq_mhz,
            "start_cycle": t.start_cycle,
            "end_cycle": t.end_cycle,
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::record::{RankTimeline, Span};

    #[test]
    fn ns_only_when_a_cycle_is_a_whole_number_of_them() {
        assert_eq!(unit(156.25), (TimeUnit::Cycles { freq_mhz: 156.25 }, 1));
        assert_eq!(unit(250.0), (TimeUnit::Ns, 4));
        assert_eq!(unit(1000.0), (TimeUnit::Ns, 1));
        assert_eq!(unit(2000.0), (TimeUnit::Cycles { freq_mhz: 2000.0 }, 1));
        assert_eq!(unit(300.0), (TimeUnit::Cycles { freq_mhz: 300.0 }, 1));
    }

    /// Two ranks on one endpoint, a 250 MHz clock: times in ns (4 a cycle), one node with two
    /// CPUs, a collective's two events, a collective message's negative tag.
    #[test]
    fn a_timeline_in_ns_and_its_objects() {
        let span = |b, e, activity, collective| Span {
            begin: b,
            end: e,
            activity,
            collective,
        };
        let t = Timeline {
            freq_mhz: 250.0,
            start_cycle: 10,
            end_cycle: 30,
            ranks: vec![
                RankTimeline {
                    rank: 0,
                    endpoint: 5,
                    start: 10,
                    finish: 30,
                    spans: vec![
                        span(10, 20, Activity::Compute, None),
                        span(20, 30, Activity::Collective, Some(Collective::Bcast)),
                    ],
                },
                RankTimeline {
                    rank: 1,
                    endpoint: 5,
                    start: 10,
                    finish: 25,
                    spans: vec![span(10, 25, Activity::Collective, Some(Collective::Bcast))],
                },
            ],
            messages: vec![MessageRecord {
                src: 0,
                dst: 1,
                tag: 3,
                bytes: 8,
                coll: true,
                send_posted: 20,
                send_started: 20,
                recv_posted: 10,
                arrived: 20,
                delivered: 20,
            }],
        };
        let tr = paraver(&t);
        tr.validate().unwrap();
        assert_eq!(tr.unit, TimeUnit::Ns);
        assert_eq!(tr.end, 120);
        assert_eq!(tr.nodes.len(), 1);
        assert_eq!(tr.nodes[0].cpus, ["endpoint 5 rank 0", "endpoint 5 rank 1"]);
        assert_eq!(tr.appls[0].tasks[1].threads[0].cpu, Some(1));
        assert_eq!((tr.states[1].begin, tr.states[1].end), (80, 120));
        let ev: Vec<(u64, i64)> = tr.events.iter().map(|e| (e.time, e.events[0].1)).collect();
        assert_eq!(ev, [(80, 3), (120, 0), (40, 3), (100, 0)]);
        assert_eq!((tr.comms[0].tag, tr.comms[0].log_recv), (-3, 40));
        let prv = tr.prv().unwrap();
        assert!(prv.starts_with("#Paraver (01/01/70 at 00:00):120_ns:1(2):1:2(1:1,1:1)\n"));
    }
}
