//! Scatter from `root`, linear (OpenMPI's basic algorithm): the root sends `out[d]` to every
//! other rank d (empty messages skipped); each rank receives its part (`recv_len` bytes, 0:
//! nothing).

use super::{payload_of, TAG_SCATTER};
use crate::app::api::{Payload, Rank};

pub async fn linear(r: &Rank, root: u32, out: Vec<Payload>, recv_len: u64) -> Payload {
    let (me, n) = (r.rank(), r.size());
    if me != root {
        if recv_len == 0 {
            return Payload::Size(0);
        }
        let q = r.irecv_in(Some(root), Some(TAG_SCATTER), true).await;
        return payload_of(r.wait(q).await);
    }
    let mut qs = Vec::new();
    for k in 1..n {
        let d = (me + k) % n;
        if let Some(m) = out.get(d as usize).filter(|m| !m.is_empty()) {
            qs.push(r.isend_in(d, TAG_SCATTER, m.clone(), true).await);
        }
    }
    r.waitall(&qs).await;
    out.get(me as usize).cloned().unwrap_or(Payload::Size(0))
}
