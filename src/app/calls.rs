//! A recording of every rank's calls, and the SimGrid time-independent trace it makes: how
//! `exanet bench replay` gets a trace of exactly the messages an SPMD program sends.
//!
//! The recording is an observer: a run without one is unchanged, and with one every rank's
//! calls and their answers are only copied (`Rank::call`), so the simulated cycles are the
//! same (a test). It holds what the SPMD API's calls carry: sends (destination, tag, bytes),
//! receives posted (source and tag, or any), waits (their requests, and the bytes each receive
//! got), computing (cycles) and probes.
//!
//! [`CallLog::trace`] writes it as actions of SimGrid's time-independent format (so
//! `simgrid::write` can write it as text): `isend DST TAG BYTES` and `irecv SRC TAG BYTES` in
//! bytes (datatype `MPI_BYTE`), a receive's bytes those it got; a wait on every pending request
//! `waitall N`, any other wait one `wait SRC DST TAG` a request (which the replay resolves to
//! the oldest pending request with those ends, as SimGrid's does: a wait the trace cannot name
//! that way is an error); computing `compute FLOPS` at one flop a cycle (replayed at
//! `--flops-per-second` = the clock in Hz, it takes the recorded cycles). The collectives' own
//! messages are recorded as the point-to-point messages they are made of. A probe has no action
//! in the format: an error.
//!
//! [`CallLog::otf2_events`] writes it as OTF2 events instead (for `otf2::write`): each call an
//! MPI region (`MPI_Isend`, `MPI_Irecv`, `MPI_Wait`, `MPI_Waitall`) around its `MpiIsend`,
//! `MpiIrecvRequest`, or completions (`MpiIsendComplete`, `MpiIrecv` with the message's sender,
//! tag and bytes), on MPI_COMM_WORLD; the calls take no time and computing is the time between
//! them, a tick a cycle.

use super::api::{Call, Request, Ret};
use super::replay::otf2::{Ev, Event, P2p};
use super::replay::simgrid::{Action, Loc, TiTrace};
use std::sync::{Arc, Mutex};

/// One call of a rank, with what it answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Logged {
    Isend {
        dst: u32,
        tag: i32,
        bytes: u64,
        req: Request,
    },
    Irecv {
        src: Option<u32>,
        tag: Option<i32>,
        req: Request,
    },
    /// The requests waited for and what each brought: the sender, tag and bytes of a
    /// receive's message (a send's: its own rank, tag 0, 0 bytes).
    Wait {
        reqs: Vec<Request>,
        got: Vec<(u32, i32, u64)>,
    },
    Consume {
        cycles: u64,
    },
    Probe,
}

/// Every rank's calls, in order; shared by the ranks of a run.
#[derive(Debug, Clone, Default)]
pub struct CallLog(Arc<Mutex<Vec<Vec<Logged>>>>);

/// What a call is, kept until its answer comes.
#[derive(Debug)]
pub(crate) enum Asked {
    Isend { dst: u32, tag: i32, bytes: u64 },
    Irecv { src: Option<u32>, tag: Option<i32> },
    Wait(Vec<Request>),
    Consume(u64),
    Probe,
    Now,
}

impl Asked {
    pub(crate) fn of(c: &Call) -> Asked {
        match c {
            Call::Isend { dst, tag, msg, .. } => Asked::Isend {
                dst: *dst,
                tag: *tag,
                bytes: msg.len(),
            },
            Call::Irecv { src, tag, .. } => Asked::Irecv {
                src: *src,
                tag: *tag,
            },
            Call::Wait(qs) => Asked::Wait(qs.clone()),
            Call::Consume(c) => Asked::Consume(*c),
            Call::Probe { .. } => Asked::Probe,
            Call::Now | Call::Sent => Asked::Now,
        }
    }
}

impl CallLog {
    /// Rank `rank`'s call `asked` answered `ret`.
    pub(crate) fn push(&self, rank: u32, asked: Asked, ret: &Ret) {
        let logged = match (asked, ret) {
            (Asked::Now, _) => return,
            (Asked::Isend { dst, tag, bytes }, Ret::Req(q)) => Logged::Isend {
                dst,
                tag,
                bytes,
                req: *q,
            },
            (Asked::Irecv { src, tag }, Ret::Req(q)) => Logged::Irecv { src, tag, req: *q },
            (Asked::Wait(reqs), Ret::Done(st)) => Logged::Wait {
                reqs,
                got: st.iter().map(|s| (s.src, s.tag, s.len)).collect(),
            },
            (Asked::Consume(cycles), _) => Logged::Consume { cycles },
            (Asked::Probe, _) => Logged::Probe,
            // an answer of another kind is the endpoint's error, reported by the run
            _ => return,
        };
        let mut v = self.0.lock().expect("the call log is never poisoned");
        if v.len() <= rank as usize {
            v.resize(rank as usize + 1, Vec::new());
        }
        v[rank as usize].push(logged);
    }

    /// Every rank's calls.
    pub fn calls(&self) -> Vec<Vec<Logged>> {
        self.0.lock().expect("the call log").clone()
    }

    /// The recording as a trace of `ranks` ranks (see the module header); `name` heads errors
    /// and names the actions' file.
    pub fn trace(&self, ranks: usize, name: &str) -> Result<TiTrace, String> {
        let calls = self.0.lock().expect("the call log");
        let none = Vec::new();
        let ranks = (0..ranks)
            .map(|r| rank_actions(r as u32, calls.get(r).unwrap_or(&none), name))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(TiTrace {
            ranks,
            comms: Vec::new(),
        })
    }
}

/// The MPI regions of [`CallLog::otf2_events`], by reference.
pub const OTF2_REGIONS: [&str; 4] = ["MPI_Isend", "MPI_Irecv", "MPI_Wait", "MPI_Waitall"];

impl CallLog {
    /// The recording as every rank's OTF2 events (see the module header), regions numbered as
    /// in [`OTF2_REGIONS`], timestamps in cycles.
    pub fn otf2_events(&self, ranks: usize) -> Result<Vec<Vec<Event>>, String> {
        let calls = self.0.lock().expect("the call log");
        let none = Vec::new();
        (0..ranks)
            .map(|r| rank_events(r as u32, calls.get(r).unwrap_or(&none)))
            .collect()
    }
}

fn rank_events(me: u32, calls: &[Logged]) -> Result<Vec<Event>, String> {
    let mut out: Vec<Event> = Vec::new();
    let mut t = 0u64;
    let push = |out: &mut Vec<Event>, t: u64, ev: Ev| {
        let pos = out.len() as u64 + 1;
        out.push(Event { pos, time: t, ev });
    };
    let tag = |x: i32, at: usize| {
        u32::try_from(x).map_err(|_| format!("rank {me}, call {at}: tag {x} is negative"))
    };
    // requests under way: whether each is a receive
    let mut recv: std::collections::HashMap<Request, bool> = Default::default();
    for (k, c) in calls.iter().enumerate() {
        let at = k + 1;
        match c {
            Logged::Isend {
                dst,
                tag: g,
                bytes,
                req,
            } => {
                let p = P2p {
                    peer: *dst,
                    comm: 0,
                    tag: tag(*g, at)?,
                    bytes: *bytes,
                };
                recv.insert(*req, false);
                push(&mut out, t, Ev::Enter(0));
                push(&mut out, t, Ev::MpiIsend(p, req.0 as u64));
                push(&mut out, t, Ev::Leave(0));
            }
            Logged::Irecv { req, .. } => {
                recv.insert(*req, true);
                push(&mut out, t, Ev::Enter(1));
                push(&mut out, t, Ev::MpiIrecvRequest(req.0 as u64));
                push(&mut out, t, Ev::Leave(1));
            }
            Logged::Wait { reqs, got } => {
                let region = if reqs.len() > 1 { 3 } else { 2 };
                push(&mut out, t, Ev::Enter(region));
                for (q, &(src, g, bytes)) in reqs.iter().zip(got) {
                    let ev = match recv.remove(q) {
                        Some(false) => Ev::MpiIsendComplete(q.0 as u64),
                        Some(true) => Ev::MpiIrecv(
                            P2p {
                                peer: src,
                                comm: 0,
                                tag: tag(g, at)?,
                                bytes,
                            },
                            q.0 as u64,
                        ),
                        None => {
                            return Err(format!(
                                "rank {me}, call {at}: a wait for a request not under way"
                            ))
                        }
                    };
                    push(&mut out, t, ev);
                }
                push(&mut out, t, Ev::Leave(region));
            }
            Logged::Consume { cycles } => t += cycles,
            Logged::Probe => {
                return Err(format!(
                    "rank {me}, call {at}: a probe, which OTF2 has no event for"
                ))
            }
        }
    }
    Ok(out)
}

/// A request under way: it, its action's position, and its ends as a `wait` names them.
type Open = (Request, usize, Option<u32>, Option<u32>, Option<i32>);

fn rank_actions(me: u32, calls: &[Logged], name: &str) -> Result<Vec<(Action, Loc)>, String> {
    let loc = |k: usize| Loc {
        file: name.to_string(),
        line: k,
        call: None,
    };
    let mut out = vec![(Action::Init, loc(0))];
    let mut open: Vec<Open> = Vec::new();
    for (k, c) in calls.iter().enumerate() {
        let at = k + 1;
        match c {
            Logged::Isend {
                dst,
                tag,
                bytes,
                req,
            } => {
                open.push((*req, out.len(), Some(me), Some(*dst), Some(*tag)));
                let a = Action::Isend {
                    dst: *dst,
                    tag: *tag,
                    bytes: *bytes,
                };
                out.push((a, loc(at)));
            }
            Logged::Irecv { src, tag, req } => {
                open.push((*req, out.len(), *src, Some(me), *tag));
                let a = Action::Irecv {
                    src: *src,
                    tag: *tag,
                    bytes: 0,
                };
                out.push((a, loc(at)));
            }
            Logged::Wait { reqs, got } => {
                for (q, (_, _, b)) in reqs.iter().zip(got) {
                    let Some(o) = open.iter().find(|o| o.0 == *q) else {
                        return Err(format!(
                            "{name}: rank {me}, call {at}: a wait for a request not under way"
                        ));
                    };
                    if let Action::Irecv { bytes, .. } = &mut out[o.1].0 {
                        *bytes = *b;
                    }
                }
                let all = reqs.len() > 1
                    && reqs.len() == open.len()
                    && open.iter().all(|o| reqs.contains(&o.0));
                if all {
                    open.clear();
                    out.push((
                        Action::Waitall {
                            count: reqs.len() as u32,
                        },
                        loc(at),
                    ));
                    continue;
                }
                for q in reqs {
                    // the replay waits for the oldest request the wait's ends match
                    let k = open.iter().position(|o| o.0 == *q).expect("found above");
                    let (_, _, src, dst, tag) = open[k];
                    let any = |w: Option<u32>, o: Option<u32>| w.is_none() || w == o;
                    let first = open.iter().position(|o| {
                        any(src, o.2) && any(dst, o.3) && (tag.is_none() || tag == o.4)
                    });
                    if first != Some(k) {
                        return Err(format!(
                            "{name}: rank {me}, call {at}: a wait for a request that an older \
                             one with the same ends would be taken for"
                        ));
                    }
                    open.remove(k);
                    out.push((Action::Wait { src, dst, tag }, loc(at)));
                }
            }
            Logged::Consume { cycles } => out.push((
                Action::Compute {
                    flops: *cycles as f64,
                },
                loc(at),
            )),
            Logged::Probe => {
                return Err(format!(
                "{name}: rank {me}, call {at}: a probe, which SimGrid's format has no action for"
            ))
            }
        }
    }
    out.push((Action::Finalize, loc(calls.len() + 1)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::programs::{Example, Params};
    use crate::app::replay::program::{resolved as replay, Times};
    use crate::app::replay::simgrid::{parse_one_file, write::write};
    use crate::app::run::{attach_recorded, drive, network, Report};
    use crate::config::Config;
    use crate::progress::Progress;

    fn cfg() -> Config {
        let mut c = Config::default();
        c.net.topology = "torus:2x2".parse().unwrap();
        c.net.routing = crate::spec::RoutingSpec::Ecube;
        c
    }

    fn run(prog: Arc<dyn crate::app::Program>, ranks: usize, log: Option<CallLog>) -> Report {
        let c = cfg();
        let mut net = network(&c).unwrap();
        let placement = (0..ranks).map(|r| r % 4).collect();
        attach_recorded(&c, &mut net, placement, prog, 0, log).unwrap();
        drive(&c, &mut net, &Progress::hidden()).unwrap().0
    }

    #[test]
    fn recording_changes_nothing_and_its_trace_replays_the_same_run() {
        // eager and rendezvous messages (decision 0019's threshold is 4096 bytes), and the
        // collectives' messages of the alltoall program (its alltoall and barriers)
        for (ex, ranks, bytes) in [
            (Example::Pingpong, 2, 600),
            (Example::Ring, 4, 5000),
            (Example::Halo, 4, 64),
            (Example::Alltoall, 8, 16),
        ] {
            let p = Params {
                bytes,
                iterations: 3,
            };
            let plain = run(ex.program(p).0, ranks, None);
            let log = CallLog::default();
            let recorded = run(ex.program(p).0, ranks, Some(log.clone()));
            let key = |r: &Report| (r.cycles, r.packets, r.messages_sent, r.bytes_sent);
            assert_eq!(
                key(&recorded),
                key(&plain),
                "{ex:?}: the recording changed the run"
            );
            let trace = log.trace(ranks, "recorded").unwrap();
            let text = write(&trace).unwrap();
            let back = parse_one_file("recorded", &text, Some(ranks)).unwrap();
            // one flop a cycle at the clock's rate: the recorded computing, cycle for cycle
            let hz = cfg().clock.freq_mhz * 1e6;
            let replayed = run(
                replay(Arc::new(back), hz, Times::default()).unwrap(),
                ranks,
                None,
            );
            assert_eq!(replayed.packets, plain.packets, "{ex:?}");
            assert_eq!(replayed.bytes_sent, plain.bytes_sent, "{ex:?}");
            assert_eq!(
                replayed.cycles, plain.cycles,
                "{ex:?}: the replay's run time"
            );
        }
    }

    /// The same recordings as OTF2 traces, written and read back through the library: the
    /// replay again runs the program's run.
    #[cfg(feature = "otf2")]
    #[test]
    fn its_otf2_trace_replays_the_same_run() {
        use crate::app::replay::otf2;
        let dir = std::env::temp_dir().join(format!("exanet-record-otf2-{}", std::process::id()));
        for (ex, ranks, bytes) in [(Example::Ring, 4, 5000), (Example::Alltoall, 8, 16)] {
            let p = Params {
                bytes,
                iterations: 2,
            };
            let log = CallLog::default();
            let plain = run(ex.program(p).0, ranks, Some(log.clone()));
            let at = dir.join(format!("{ex:?}"));
            let hz = (cfg().clock.freq_mhz * 1e6) as u64;
            otf2::write(&at, hz, &OTF2_REGIONS, &log.otf2_events(ranks).unwrap()).unwrap();
            let back = otf2::load(&at.join("traces.otf2")).unwrap();
            let replayed = run(
                replay(Arc::new(back), 1.0, Times::default()).unwrap(),
                ranks,
                None,
            );
            assert_eq!(replayed.packets, plain.packets, "{ex:?}");
            assert_eq!(replayed.bytes_sent, plain.bytes_sent, "{ex:?}");
            assert_eq!(replayed.cycles, plain.cycles, "{ex:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_probe_cannot_be_written_as_a_trace() {
        let prog = crate::app::api::program(|r| async move {
            if r.rank() == 0 {
                r.send(1, 3, crate::app::Payload::Size(8)).await;
            } else {
                r.probe().await;
                r.recv().await;
            }
        });
        let log = CallLog::default();
        run(prog, 2, Some(log.clone()));
        let e = log.trace(2, "t").unwrap_err();
        assert!(e.contains("rank 1, call 1") && e.contains("probe"), "{e}");
    }
}
