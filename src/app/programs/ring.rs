//! Ring round trip (Nüssle et al. §3's validation program, on 4 ranks): rank 0 sends a message to
//! rank 1, each rank passes it on to the next, the last returns it to rank 0; the mean time of a
//! trip around the ring.

use super::{Figures, Params};
use crate::app::api::{program as prog, Payload, Program};
use std::sync::Arc;

pub fn program(p: Params, f: Figures) -> Arc<dyn Program> {
    prog(move |r| {
        let f = f.clone();
        async move {
            let (me, n) = (r.rank(), r.size());
            let next = (me + 1) % n;
            let prev = (me + n - 1) % n;
            let mut total = 0u64;
            for _ in 0..p.iterations {
                if me == 0 {
                    let t0 = r.cycle().await;
                    r.send(next, 0, Payload::Size(p.bytes)).await;
                    r.recv_from(prev).await;
                    total += r.cycle().await - t0;
                } else {
                    let m = r.recv_from(prev).await;
                    r.send(next, 0, Payload::Size(m.len)).await;
                }
            }
            if me == 0 {
                f.set(
                    "ring_round_trip_cycles",
                    total as f64 / p.iterations.max(1) as f64,
                );
            }
        }
    })
}
