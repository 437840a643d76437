//! A traced program replayed on the SPMD API (seed 004 §3: a trace's computation and
//! communication records replayed over a detailed network): every rank runs its own actions in
//! order; computing takes the traced amount at `flops_per_s`; every message goes through the
//! network as a message of the traced length (its contents are not in the trace); collectives are
//! the application layer's (`collectives/`), built from point-to-point messages.
//!
//! Each rank adds up its time in three kinds of action ([`Times`]): computing, communicating (a
//! blocking send or receive, a collective) and waiting (wait, waitall, test).

use super::simgrid::{Action, TiTrace};
use crate::app::api::{program as prog, Payload, Program, Request};
use std::sync::{Arc, Mutex};

/// Per rank: cycles computing, communicating, waiting.
#[derive(Debug, Clone, Default)]
pub struct Times(Arc<Mutex<Vec<[u64; 3]>>>);

impl Times {
    pub fn ranks(&self) -> Vec<[u64; 3]> {
        self.0.lock().expect("times").clone()
    }

    fn set(&self, rank: usize, v: [u64; 3]) {
        let mut t = self.0.lock().expect("times");
        if t.len() <= rank {
            t.resize(rank + 1, [0; 3]);
        }
        t[rank] = v;
    }
}

/// The replay of `trace`: `flops_per_s` turns a computing amount into time.
pub fn program(trace: Arc<TiTrace>, flops_per_s: f64, times: Times) -> Arc<dyn Program> {
    prog(move |r| {
        let (trace, times) = (trace.clone(), times.clone());
        async move {
            let me = r.rank() as usize;
            let n = r.size() as usize;
            let ns = |flops: f64| flops / flops_per_s * 1e9;
            let cycles_of = |flops: f64| {
                let clock_cycles = ns(flops) * 1e-3 * r.freq_mhz();
                clock_cycles.ceil() as u64
            };
            let mut pending: std::collections::VecDeque<Request> = Default::default();
            let mut t = [0u64; 3];
            for (a, _) in &trace.ranks[me] {
                let t0 = r.cycle().await;
                let kind = match a {
                    Action::Init | Action::Finalize => continue,
                    Action::Compute { flops } => {
                        r.consume_time(ns(*flops)).await;
                        0
                    }
                    Action::Send { dst, tag, bytes } => {
                        r.send(*dst, *tag, Payload::Size(*bytes)).await;
                        1
                    }
                    Action::Isend { dst, tag, bytes } => {
                        pending.push_back(r.isend(*dst, *tag, Payload::Size(*bytes)).await);
                        1
                    }
                    Action::Recv { src, tag, .. } => {
                        r.recv_match(*src, *tag).await;
                        1
                    }
                    Action::Irecv { src, tag, .. } => {
                        pending.push_back(r.irecv(*src, *tag).await);
                        1
                    }
                    Action::Test => 2,
                    Action::Wait => {
                        if let Some(q) = pending.pop_front() {
                            r.wait(q).await;
                        }
                        2
                    }
                    Action::Waitall => {
                        let qs: Vec<Request> = pending.drain(..).collect();
                        r.waitall(&qs).await;
                        2
                    }
                    Action::Barrier => {
                        r.barrier().await;
                        1
                    }
                    Action::Bcast { bytes, root } => {
                        r.bcast(*root, Payload::Size(*bytes)).await;
                        1
                    }
                    Action::Reduce { bytes, root, flops } => {
                        r.reduce_sized(*root, *bytes, cycles_of(*flops)).await;
                        1
                    }
                    Action::Allreduce { bytes, flops } => {
                        r.reduce_sized(0, *bytes, cycles_of(*flops)).await;
                        r.bcast(0, Payload::Size(*bytes)).await;
                        1
                    }
                    Action::Alltoall {
                        send_bytes,
                        recv_bytes,
                    } => {
                        let out = vec![Payload::Size(*send_bytes); n];
                        r.alltoallv(out, &vec![*recv_bytes; n]).await;
                        1
                    }
                    Action::Alltoallv {
                        send_bytes,
                        recv_bytes,
                    } => {
                        let out = send_bytes.iter().map(|&b| Payload::Size(b)).collect();
                        r.alltoallv(out, recv_bytes).await;
                        1
                    }
                    Action::Gather {
                        send_bytes,
                        recv_bytes,
                        root,
                    } => {
                        r.gather(*root, Payload::Size(*send_bytes), &vec![*recv_bytes; n])
                            .await;
                        1
                    }
                    Action::Allgather {
                        send_bytes,
                        recv_bytes,
                    } => {
                        let _ = send_bytes;
                        r.allgatherv(Payload::Size(*recv_bytes), &vec![*recv_bytes; n])
                            .await;
                        1
                    }
                    Action::Allgatherv {
                        send_bytes,
                        recv_bytes,
                    } => {
                        r.allgatherv(Payload::Size(*send_bytes), recv_bytes).await;
                        1
                    }
                    Action::Scatter {
                        send_bytes,
                        recv_bytes,
                        root,
                    } => {
                        r.scatter(*root, vec![Payload::Size(*send_bytes); n], *recv_bytes)
                            .await;
                        1
                    }
                    Action::Reducescatter { recv_bytes, flops } => {
                        r.reduce_scatter_sized(recv_bytes, cycles_of(*flops)).await;
                        1
                    }
                };
                t[kind] += r.cycle().await - t0;
            }
            if !pending.is_empty() {
                let qs: Vec<Request> = pending.drain(..).collect();
                r.waitall(&qs).await;
            }
            times.set(me, t);
        }
    })
}
