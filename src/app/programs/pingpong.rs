//! Ping-pong between ranks 0 and 1 (Nüssle et al. §3, the validation against real hardware): rank 0
//! sends a message, rank 1 returns it; the half round trip, averaged over the iterations, is the
//! one-way latency. Other ranks do nothing.

use super::{Figures, Params};
use crate::app::api::{program as prog, Payload, Program};
use std::sync::Arc;

pub fn program(p: Params, f: Figures) -> Arc<dyn Program> {
    prog(move |r| {
        let f = f.clone();
        async move {
            r.init().await;
            let msg = Payload::Size(p.bytes);
            match r.rank() {
                0 => {
                    let mut total = 0u64;
                    for _ in 0..p.iterations {
                        let t0 = r.cycle().await;
                        r.send(1, 0, msg.clone()).await;
                        r.recv_from(1).await;
                        total += r.cycle().await - t0;
                    }
                    let rt = total as f64 / p.iterations.max(1) as f64;
                    f.set("round_trip_cycles", rt);
                    f.set("half_round_trip_cycles", rt / 2.0);
                }
                1 => {
                    for _ in 0..p.iterations {
                        let m = r.recv_from(0).await;
                        r.send(0, 0, Payload::Size(m.len)).await;
                    }
                }
                _ => {}
            }
            r.finish().await;
        }
    })
}
