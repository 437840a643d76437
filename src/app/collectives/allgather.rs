//! All-gather (and its v variant): a linear gather to rank 0, then a binomial broadcast of what
//! rank 0 gathered, as one message (its parts concatenated; lengths only when the parts carry no
//! bytes). `lens[s]` is rank s's contribution, known to every rank (MPI's counts).

use super::{bcast, gather};
use crate::app::api::{Payload, Rank};

pub async fn gather_bcast(r: &Rank, msg: Payload, lens: &[u64]) -> Vec<Payload> {
    let n = r.size() as usize;
    let parts = gather::linear(r, 0, msg, lens).await;
    let whole = match parts {
        Some(p) if p.iter().all(|x| matches!(x, Payload::Bytes(_))) => {
            let mut b = Vec::new();
            for x in &p {
                if let Payload::Bytes(d) = x {
                    b.extend_from_slice(d);
                }
            }
            Payload::Bytes(b.into())
        }
        Some(p) => Payload::Size(p.iter().map(Payload::len).sum()),
        None => Payload::Size(0),
    };
    let got = bcast::binomial(r, 0, whole).await;
    let mut out = Vec::with_capacity(n);
    let mut at = 0usize;
    for s in 0..n {
        let l = lens.get(s).copied().unwrap_or(0) as usize;
        out.push(match &got {
            Payload::Bytes(b) if at + l <= b.len() => Payload::Bytes(b[at..at + l].into()),
            _ => Payload::Size(l as u64),
        });
        at += l;
    }
    out
}
