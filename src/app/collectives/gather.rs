//! Gather to `root`, linear (OpenMPI's basic algorithm): every other rank sends its message to
//! the root, which posts a receive from each and waits for all. `recv_lens[s]` is what the root
//! expects from rank s (0: nothing).

use super::{payload_of, TAG_GATHER};
use crate::app::api::{Payload, Rank};

pub async fn linear(r: &Rank, root: u32, msg: Payload, recv_lens: &[u64]) -> Option<Vec<Payload>> {
    let (me, n) = (r.rank(), r.size());
    if me != root {
        if !msg.is_empty() {
            let q = r.isend_in(root, TAG_GATHER, msg, true).await;
            r.wait(q).await;
        }
        return None;
    }
    let mut from = Vec::new();
    let mut qs = Vec::new();
    for s in (0..n).filter(|&s| s != me) {
        if recv_lens.get(s as usize).copied().unwrap_or(0) > 0 {
            from.push(s);
            qs.push(r.irecv_in(Some(s), Some(TAG_GATHER), true).await);
        }
    }
    let st = r.waitall(&qs).await;
    let mut got = vec![Payload::Size(0); n as usize];
    got[me as usize] = msg;
    for (s, status) in from.into_iter().zip(st) {
        got[s as usize] = payload_of(status);
    }
    Some(got)
}
