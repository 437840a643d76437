//! Broadcast along a binomial tree rooted at `root`: in round k, every rank that has the message
//! sends it to the rank 2^k further on (relative to the root); log2(n) rounds.

use super::{payload_of, TAG_BCAST};
use crate::app::api::{Payload, Rank};

pub async fn binomial(r: &Rank, root: u32, msg: Payload) -> Payload {
    let n = r.size();
    let v = (r.rank() + n - root % n) % n;
    let abs = |rel: u32| (rel + root) % n;
    let mut have = msg;
    let mut mask = 1u32;
    while mask < n {
        if v & mask != 0 {
            let q = r.irecv_in(Some(abs(v - mask)), Some(TAG_BCAST), true).await;
            have = payload_of(r.wait(q).await);
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    let mut qs = Vec::new();
    while mask > 0 {
        if v + mask < n {
            qs.push(
                r.isend_in(abs(v + mask), TAG_BCAST, have.clone(), true)
                    .await,
            );
        }
        mask >>= 1;
    }
    r.waitall(&qs).await;
    have
}
