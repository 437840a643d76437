//! A traced program replayed on the SPMD API (Minkenberg and Rodriguez 2008 §3: a trace's computation and
//! communication records replayed over a detailed network): every rank runs its own actions in
//! order; computing takes the traced amount at `flops_per_s`; every message goes through the
//! network as a message of the traced length (its contents are not in the trace); collectives are
//! the application layer's (`collectives/`), built from point-to-point messages.
//!
//! Each rank adds up its time in three kinds of action ([`Times`]): computing, communicating (a
//! blocking send or receive, a collective) and waiting (wait, waitany, waitall, test).
//!
//! An OTF2 trace's computing is time (`ComputeTime`), and its waits name the requests they
//! complete (`WaitStarted`: the requests the actions at those positions started).
//!
//! What a SimGrid trace does not say, and what the replay does: `wait SRC DST TAG` waits for the
//! oldest pending request those name (SimGrid's own replay matches the same way); `waitany` for
//! the oldest pending one; tests are free (a later wait finds the request); synchronous and
//! buffered sends are sends; scan and exscan are a linear chain; requests still pending at the
//! end are waited for. What the pairing of all ranks' traces recovered (`resolve.rs`): a receive
//! from `MPI_PROC_NULL` completes at once and moves nothing; a `sendRecv`'s halves carry the
//! tags of the partners they pair with (a plain send and receive, or the peer's `sendRecv`).

use super::resolve::{Resolution, SENDRECV_TAG};
use super::simgrid::{Action, TiTrace};
use crate::app::api::{program as prog, Payload, Program, Rank, Request};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// A non-blocking request under way: it (`None`: a receive from `MPI_PROC_NULL`, complete at
/// once), its (source, destination, tag) as `wait` names them, and the position of the action
/// that started it (as `WaitStarted` names it).
type Started = (
    Option<Request>,
    Option<u32>,
    Option<u32>,
    Option<i32>,
    usize,
);

/// Per rank: cycles computing, communicating, waiting; the action each rank is in (its
/// position in the rank's list, until the rank finishes: the deadlock report's call); and per
/// collective, by its MPI call's name: calls (each once, counted by its communicator's first
/// rank: rank 0 for the world's), and the messages and bytes all ranks sent in them.
#[derive(Debug, Clone, Default)]
pub struct Times(
    Arc<Mutex<Vec<[u64; 3]>>>,
    Arc<Mutex<Vec<Option<usize>>>>,
    Arc<Mutex<BTreeMap<&'static str, [u64; 3]>>>,
);

impl Times {
    pub fn ranks(&self) -> Vec<[u64; 3]> {
        self.0.lock().expect("times").clone()
    }

    /// Per collective, by its MPI call's name: [calls, messages, bytes].
    pub fn collectives(&self) -> BTreeMap<&'static str, [u64; 3]> {
        self.2.lock().expect("times").clone()
    }

    fn collective(&self, name: &'static str, lead: bool, messages: u64, bytes: u64) {
        let mut t = self.2.lock().expect("times");
        let e = t.entry(name).or_default();
        e[0] += u64::from(lead);
        e[1] += messages;
        e[2] += bytes;
    }

    /// The action each rank is in (`None`: not started, or finished).
    pub fn in_action(&self) -> Vec<Option<usize>> {
        self.1.lock().expect("times").clone()
    }

    fn enter(&self, rank: usize, at: Option<usize>) {
        let mut t = self.1.lock().expect("times");
        if t.len() <= rank {
            t.resize(rank + 1, None);
        }
        t[rank] = at;
    }

    fn set(&self, rank: usize, v: [u64; 3]) {
        let mut t = self.0.lock().expect("times");
        if t.len() <= rank {
            t.resize(rank + 1, [0; 3]);
        }
        t[rank] = v;
    }
}

/// The replay of `trace`, its messages paired first (`resolve::resolve`, whose refusal is the
/// error): `flops_per_s` turns a computing amount into time.
pub fn resolved(
    trace: Arc<TiTrace>,
    flops_per_s: f64,
    times: Times,
) -> Result<Arc<dyn Program>, String> {
    let res = super::resolve::resolve(&trace)?;
    Ok(program(trace, Arc::new(res), flops_per_s, times))
}

/// The replay of `trace`, paired by `resolution` (`resolve::resolve` of the same trace):
/// `flops_per_s` turns a computing amount into time.
pub fn program(
    trace: Arc<TiTrace>,
    resolution: Arc<Resolution>,
    flops_per_s: f64,
    times: Times,
) -> Arc<dyn Program> {
    prog(move |r| {
        let (trace, res, times) = (trace.clone(), resolution.clone(), times.clone());
        async move {
            let me = r.rank() as usize;
            let ns = |flops: f64| flops / flops_per_s * 1e9;
            let cycles_of = |flops: f64| {
                let clock_cycles = ns(flops) * 1e-3 * r.freq_mhz();
                clock_cycles.ceil() as u64
            };
            // non-blocking requests in the order they started, with (src, dst, tag) as SimGrid's
            // `wait` names them
            let mut pending: Vec<Started> = Vec::new();
            let mut t = [0u64; 3];
            let me32 = me as u32;
            for (i, (a, _)) in trace.ranks[me].iter().enumerate() {
                times.enter(me, Some(i));
                let coll = super::resolve::collective_name(a);
                let sent0 = match coll {
                    Some(_) => r.sent().await,
                    None => (0, 0),
                };
                let t0 = r.cycle().await;
                // a collective is named on the timelines by its MPI call, whatever the API's
                // calls that carry it (an allreduce is a reduction and a broadcast)
                let named = super::resolve::timeline_collective(a).map(|c| r.as_collective(c));
                let kind = match a {
                    Action::Init | Action::Finalize | Action::ProcNullSend { .. } => continue,
                    Action::Compute { flops } => {
                        r.consume_time(ns(*flops)).await;
                        0
                    }
                    Action::Sleep { seconds } | Action::ComputeTime { seconds } => {
                        r.consume_time(seconds * 1e9).await;
                        0
                    }
                    Action::Send { dst, tag, bytes }
                    | Action::Ssend { dst, tag, bytes }
                    | Action::Bsend { dst, tag, bytes } => {
                        r.send(*dst, *tag, Payload::Size(*bytes)).await;
                        1
                    }
                    Action::Isend { dst, tag, bytes }
                    | Action::Issend { dst, tag, bytes }
                    | Action::Ibsend { dst, tag, bytes } => {
                        let q = r.isend(*dst, *tag, Payload::Size(*bytes)).await;
                        pending.push((Some(q), Some(me32), Some(*dst), Some(*tag), i));
                        1
                    }
                    Action::Recv { src, tag, .. } => {
                        r.recv_match(*src, *tag).await;
                        1
                    }
                    Action::Irecv { src, tag, .. } => {
                        let q = if res.null_receives.get(me).is_some_and(|s| s.contains(&i)) {
                            None
                        } else {
                            Some(r.irecv(*src, *tag).await)
                        };
                        pending.push((q, *src, Some(me32), *tag, i));
                        1
                    }
                    Action::SendRecv {
                        dst,
                        send_bytes,
                        src,
                        recv_bytes: _,
                    } => {
                        let (send_tag, recv_tag) = res
                            .sendrecv_tags
                            .get(me)
                            .and_then(|m| m.get(&i))
                            .copied()
                            .unwrap_or((SENDRECV_TAG, Some(SENDRECV_TAG)));
                        let s = r.isend(*dst, send_tag, Payload::Size(*send_bytes)).await;
                        let q = r.irecv(*src, recv_tag).await;
                        r.waitall(&[s, q]).await;
                        1
                    }
                    Action::Test { .. } | Action::Testany | Action::Testall | Action::Testsome => 2,
                    Action::Wait { src, dst, tag } => {
                        let same = |x: &Option<u32>, y: &Option<u32>| x.is_none() || x == y;
                        let k = pending
                            .iter()
                            .position(|p| {
                                same(src, &p.1) && same(dst, &p.2) && (tag.is_none() || *tag == p.3)
                            })
                            .or((!pending.is_empty()).then_some(0));
                        if let Some(Some(q)) = k.map(|k| pending.remove(k).0) {
                            r.wait(q).await;
                        }
                        2
                    }
                    Action::Waitany { .. } => {
                        if !pending.is_empty() {
                            if let Some(q) = pending.remove(0).0 {
                                r.wait(q).await;
                            }
                        }
                        2
                    }
                    Action::WaitStarted { starts, blocking } => {
                        // one pass over what is pending: a waitall may name thousands
                        let want: std::collections::HashSet<usize> =
                            starts.iter().map(|&s| s as usize).collect();
                        let mut qs = Vec::with_capacity(want.len());
                        pending.retain(|p| {
                            let hit = want.contains(&p.4);
                            if hit {
                                qs.extend(p.0);
                            }
                            !hit
                        });
                        r.waitall(&qs).await;
                        if *blocking {
                            1
                        } else {
                            2
                        }
                    }
                    Action::Waitall { .. } => {
                        let qs: Vec<Request> = pending.drain(..).filter_map(|p| p.0).collect();
                        r.waitall(&qs).await;
                        2
                    }
                    Action::OnComm { comm, action } => {
                        let members = trace.comms[*comm as usize].clone();
                        match r.on_comm(members, comm + 1) {
                            Ok(c) => collective(&c, action, &cycles_of).await,
                            // (the OTF2 reader puts a collective on the members' lists only)
                            Err(e) => unreachable!("{e}"),
                        }
                        1
                    }
                    a => {
                        collective(&r, a, &cycles_of).await;
                        1
                    }
                };
                drop(named);
                t[kind] += r.cycle().await - t0;
                if let Some(name) = coll {
                    let sent = r.sent().await;
                    // a call counted once: by its communicator's first rank
                    let lead = match a {
                        Action::OnComm { comm, .. } => trace.comms[*comm as usize][0] as usize,
                        _ => 0,
                    };
                    let (m, b) = (sent.0 - sent0.0, sent.1 - sent0.1);
                    times.collective(name, me == lead, m, b);
                }
            }
            if !pending.is_empty() {
                let qs: Vec<Request> = pending.drain(..).filter_map(|p| p.0).collect();
                r.waitall(&qs).await;
            }
            times.enter(me, None);
            times.set(me, t);
        }
    })
}

/// Run collective action `a` on `r`'s ranks (every rank, or a communicator's, `Rank::on_comm`);
/// `cycles_of` turns a reduction's flops into cycles.
async fn collective(r: &Rank, a: &Action, cycles_of: &impl Fn(f64) -> u64) {
    let n = r.size() as usize;
    match a {
        Action::Barrier => {
            r.barrier().await;
        }
        Action::Bcast { bytes, root } => {
            r.bcast(*root, Payload::Size(*bytes)).await;
        }
        Action::Reduce { bytes, root, flops } => {
            r.reduce_sized(*root, *bytes, cycles_of(*flops)).await;
        }
        Action::Allreduce { bytes, flops } => {
            r.reduce_sized(0, *bytes, cycles_of(*flops)).await;
            r.bcast(0, Payload::Size(*bytes)).await;
        }
        Action::Scan { bytes, flops } | Action::Exscan { bytes, flops } => {
            r.scan_sized(*bytes, cycles_of(*flops)).await;
        }
        Action::Alltoall {
            send_bytes,
            recv_bytes,
        } => {
            let out = vec![Payload::Size(*send_bytes); n];
            r.alltoallv(out, &vec![*recv_bytes; n]).await;
        }
        Action::Alltoallv {
            send_bytes,
            recv_bytes,
        } => {
            let out = send_bytes.iter().map(|&b| Payload::Size(b)).collect();
            r.alltoallv(out, recv_bytes).await;
        }
        Action::Gather {
            send_bytes,
            recv_bytes,
            root,
        } => {
            r.gather(*root, Payload::Size(*send_bytes), &vec![*recv_bytes; n])
                .await;
        }
        Action::Gatherv {
            send_bytes,
            recv_bytes,
            root,
        } => {
            r.gather(*root, Payload::Size(*send_bytes), recv_bytes)
                .await;
        }
        Action::Allgather {
            send_bytes,
            recv_bytes,
        } => {
            r.allgatherv(Payload::Size(*send_bytes), &vec![*recv_bytes; n])
                .await;
        }
        Action::Allgatherv {
            send_bytes,
            recv_bytes,
        } => {
            r.allgatherv(Payload::Size(*send_bytes), recv_bytes).await;
        }
        Action::Scatter {
            send_bytes,
            recv_bytes,
            root,
        } => {
            r.scatter(*root, vec![Payload::Size(*send_bytes); n], *recv_bytes)
                .await;
        }
        Action::Scatterv {
            send_bytes,
            recv_bytes,
            root,
        } => {
            let out = send_bytes.iter().map(|&b| Payload::Size(b)).collect();
            r.scatter(*root, out, *recv_bytes).await;
        }
        Action::Reducescatter { recv_bytes, flops } => {
            r.reduce_scatter_sized(recv_bytes, cycles_of(*flops)).await;
        }
        a => unreachable!("{a:?} is not a collective"),
    }
}
