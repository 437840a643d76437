//! All-reduce as a reduction to rank 0 followed by a broadcast from it (both binomial trees).

use super::{bcast, decode, encode, reduce, Op};
use crate::app::api::{Payload, Rank, Status};

pub async fn reduce_bcast(r: &Rank, x: &[f64], op: Op) -> Vec<f64> {
    let at_root = reduce::binomial(r, 0, x, op).await;
    let msg = at_root.map_or(Payload::Size(0), |v| encode(&v));
    match bcast::binomial(r, 0, msg).await {
        Payload::Bytes(b) => decode(&Status {
            src: 0,
            tag: 0,
            len: b.len() as u64,
            data: Some(b.to_vec()),
        }),
        Payload::Size(_) => Vec::new(),
    }
}
