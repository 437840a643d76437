//! Personalised all-to-all, linear (OpenMPI's basic algorithm): post a receive from every rank
//! that sends something, send to every rank in turn starting with the next one (so that not
//! every rank sends to rank 0 first), wait for all. A length of 0 is neither sent nor received
//! (Pisani 2016 §3: "if the number of packets is zero the send or the receive is skipped").

use super::{payload_of, TAG_ALLTOALL};
use crate::app::api::{Payload, Rank};

pub async fn linear(r: &Rank, out: Vec<Payload>, recv_lens: &[u64]) -> Vec<Payload> {
    let (me, n) = (r.rank(), r.size());
    let mut from = Vec::new();
    let mut qs = Vec::new();
    for k in 1..n {
        let s = (me + n - k) % n;
        if recv_lens.get(s as usize).copied().unwrap_or(0) > 0 {
            from.push(s);
            qs.push(r.irecv_in(Some(s), Some(TAG_ALLTOALL), true).await);
        }
    }
    let nrecv = qs.len();
    for k in 1..n {
        let d = (me + k) % n;
        if let Some(m) = out.get(d as usize).filter(|m| !m.is_empty()) {
            qs.push(r.isend_in(d, TAG_ALLTOALL, m.clone(), true).await);
        }
    }
    let st = r.waitall(&qs).await;
    let mut got: Vec<Payload> = vec![Payload::Size(0); n as usize];
    if let Some(m) = out.get(me as usize) {
        got[me as usize] = m.clone();
    }
    for (s, status) in from.into_iter().zip(st.into_iter().take(nrecv)) {
        got[s as usize] = payload_of(status);
    }
    got
}
