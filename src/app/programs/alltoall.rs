//! Personalised all-to-all: every iteration each rank sends a message of `bytes` to every other
//! (the linear algorithm of `collectives/alltoallv.rs`). Rank 0 reports the mean iteration time,
//! the barrier after each included.

use super::{Figures, Params};
use crate::app::api::{program as prog, Payload, Program};
use std::sync::Arc;

pub fn program(p: Params, f: Figures) -> Arc<dyn Program> {
    prog(move |r| {
        let f = f.clone();
        async move {
            let n = r.size();
            let t0 = r.cycle().await;
            for _ in 0..p.iterations {
                r.alltoall(vec![Payload::Size(p.bytes); n as usize]).await;
                r.barrier().await;
            }
            if r.rank() == 0 {
                let t = r.cycle().await - t0;
                f.set("iteration_cycles", t as f64 / p.iterations.max(1) as f64);
            }
        }
    })
}
