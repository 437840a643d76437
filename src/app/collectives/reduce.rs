//! Reduction to `root` along a binomial tree: in round k, a rank whose bit k (relative to the
//! root) is set sends its partial result to the rank 2^k below and is done; the others combine
//! what they receive, in a fixed order (so a floating-point sum is the same every run).

use super::{decode, encode, Op, TAG_REDUCE, TAG_SCAN};
use crate::app::api::Rank;

pub async fn binomial(r: &Rank, root: u32, x: &[f64], op: Op) -> Option<Vec<f64>> {
    let n = r.size();
    let v = (r.rank() + n - root % n) % n;
    let abs = |rel: u32| (rel + root) % n;
    let mut acc = x.to_vec();
    let mut mask = 1u32;
    while mask < n {
        if v & mask != 0 {
            let q = r
                .isend_in(abs(v & !mask), TAG_REDUCE, encode(&acc), true)
                .await;
            r.wait(q).await;
            return None;
        }
        if v | mask < n {
            let q = r
                .irecv_in(Some(abs(v | mask)), Some(TAG_REDUCE), true)
                .await;
            let got = decode(&r.wait(q).await);
            for (a, b) in acc.iter_mut().zip(got) {
                *a = op.apply(*a, b);
            }
        }
        mask <<= 1;
    }
    Some(acc)
}

/// The same tree for a message of `bytes` whose values are not known (a traced program's): each
/// combination of a child's part costs `combine_cycles` of computing.
pub async fn binomial_sized(r: &Rank, root: u32, bytes: u64, combine_cycles: u64) {
    let n = r.size();
    let v = (r.rank() + n - root % n) % n;
    let abs = |rel: u32| (rel + root) % n;
    let mut mask = 1u32;
    while mask < n {
        if v & mask != 0 {
            let q = r
                .isend_in(
                    abs(v & !mask),
                    TAG_REDUCE,
                    crate::app::api::Payload::Size(bytes),
                    true,
                )
                .await;
            r.wait(q).await;
            return;
        }
        if v | mask < n {
            let q = r
                .irecv_in(Some(abs(v | mask)), Some(TAG_REDUCE), true)
                .await;
            r.wait(q).await;
            r.consume_cycles(combine_cycles).await;
        }
        mask <<= 1;
    }
}

/// An (ex)scan of `bytes` whose values are not known: a linear chain, rank r receiving rank
/// r-1's prefix, combining (`combine_cycles`) and sending its own on to rank r+1.
pub async fn scan_sized(r: &Rank, bytes: u64, combine_cycles: u64) {
    let (me, n) = (r.rank(), r.size());
    if me > 0 {
        let q = r.irecv_in(Some(me - 1), Some(TAG_SCAN), true).await;
        r.wait(q).await;
        r.consume_cycles(combine_cycles).await;
    }
    if me + 1 < n {
        let q = r
            .isend_in(
                me + 1,
                TAG_SCAN,
                crate::app::api::Payload::Size(bytes),
                true,
            )
            .await;
        r.wait(q).await;
    }
}
