//! Barriers (Pisani 2016 §3, "MPI functions": OpenMPI's root-based barrier, and the hierarchical
//! variant of local and global roots). Every message is an empty one (a packet of one envelope).

use super::{TAG_BARRIER, TAG_BARRIER_ACK};
use crate::app::api::{Payload, Rank};

/// Every rank but 0 tells rank 0 it reached the barrier; rank 0, having heard from all, sends
/// each an acknowledge (MPI_BARRIER_SEND, MPI_BARRIER_ACK).
pub async fn root(r: &Rank) {
    gather_release(r, 0, (1..r.size()).collect()).await
}

/// Local roots of `group` consecutive ranks (rank g x k): each member tells its local root; a
/// local root, having heard from its members, tells rank 0 and waits for its acknowledge, then
/// releases its members.
pub async fn hierarchical(r: &Rank, group: u32) {
    let (me, n, g) = (r.rank(), r.size(), group.max(1));
    let local = me / g * g;
    if me != local {
        return gather_release(r, local, Vec::new()).await;
    }
    let members: Vec<u32> = (local + 1..(local + g).min(n)).collect();
    if me == 0 {
        let others: Vec<u32> = (g..n).step_by(g as usize).collect();
        return gather_release(r, 0, members.into_iter().chain(others).collect()).await;
    }
    // a local root: its members, then rank 0, then its members again
    let qs = recv_all(r, &members).await;
    r.waitall(&qs).await;
    gather_release(r, 0, Vec::new()).await;
    release(r, &members).await;
}

/// `me == root`: hear from every rank of `from`, then acknowledge each. Otherwise tell `root`
/// and wait for its acknowledge.
async fn gather_release(r: &Rank, root: u32, from: Vec<u32>) {
    if r.rank() != root {
        let s = r.isend_in(root, TAG_BARRIER, Payload::Size(0), true).await;
        let a = r.irecv_in(Some(root), Some(TAG_BARRIER_ACK), true).await;
        r.waitall(&[s, a]).await;
        return;
    }
    let qs = recv_all(r, &from).await;
    r.waitall(&qs).await;
    release(r, &from).await;
}

async fn recv_all(r: &Rank, from: &[u32]) -> Vec<crate::app::api::Request> {
    let mut qs = Vec::with_capacity(from.len());
    for &s in from {
        qs.push(r.irecv_in(Some(s), Some(TAG_BARRIER), true).await);
    }
    qs
}

async fn release(r: &Rank, to: &[u32]) {
    let mut qs = Vec::with_capacity(to.len());
    for &d in to {
        qs.push(r.isend_in(d, TAG_BARRIER_ACK, Payload::Size(0), true).await);
    }
    r.waitall(&qs).await;
}
