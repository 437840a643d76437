//! The actions of one MPI collective of an OTF2 trace, from every rank's view of it.
//!
//! An `MpiCollectiveEnd` gives the operation, the root and this rank's bytes sent and received
//! in all, not the bytes to or from each peer that the replay's collectives take. Those come
//! from the totals of every rank of the collective, as Score-P counts them
//! (`src/adapters/mpi/scorep_mpi_coll.inc.c`, the `scorep_mpi_coll_bytes_*` functions; the
//! same formulas as the older generated wrappers of `SCOREP_Mpi_Coll.c`). With `N` ranks and
//! a block of `b` bytes:
//!
//! | operation | a rank's sent / received | the replay's sizes |
//! |---|---|---|
//! | bcast | root `N b` / `b`; others 0 / `b` | `b`: any non-root's received |
//! | gather(v), reduce | root `b` / `N b`; others `b_j` / 0 | rank j's block: its sent |
//! | scatter(v) | root `N b` / `b`; others 0 / `b_j` | rank j's block: its received |
//! | allgather, alltoall, allreduce, reduce_scatter_block | `N b` / `N b` | `b` |
//! | allgatherv | `N b_j` / `sum b` | `b_j`: rank j's sent / `N` |
//! | reduce_scatter | `sum r` / `N r_j` | `r_j`: rank j's received / `N` |
//! | scan | `(N-j) b` / `(j+1) b` | `b` |
//! | exscan | `(N-j-1) b` / `j b` | `b` |
//!
//! With `MPI_IN_PLACE` a rank's own block is left out of its totals (`N-1` blocks where there
//! were `N`; a scan becomes an exscan's counts). Where the other ranks' totals tell which one
//! it was (allgatherv, reduce_scatter, scan) the reading that fits every rank is taken; where
//! they cannot (allgather, alltoall, allreduce, reduce_scatter_block: `N b` or `(N-1) b` alike
//! at every rank) a total that `N` divides is read as `N` blocks, else one that `N-1` divides
//! as `N-1` blocks, else it is an error: an in-place call whose total `N` also divides reads as
//! blocks `(N-1)/N` of their size (decision 0020). Totals that fit no reading, ranks that
//! disagree, and operations whose per-peer sizes no total gives (alltoallv, alltoallw) are
//! errors. Creating and destroying handles (communicators, windows) moves no data: no action.

use super::op;
use crate::app::replay::simgrid::Action;

/// A rank's totals in one collective: bytes sent, bytes received.
pub type View = (u64, u64);

/// The action of every rank (by rank in the communicator, which is the world here) for the
/// collective `op` with `root` (a rank, or [`op::ROOT_NONE`]), given every rank's totals;
/// `None` for an operation that moves nothing. Errors name the rank whose totals do not fit.
pub fn actions(op: u32, root: u32, views: &[View]) -> Result<Option<Vec<Action>>, String> {
    let n = views.len();
    if n == 0 {
        return Err("a collective on no ranks".into());
    }
    let rooted = matches!(
        op,
        op::BCAST | op::GATHER | op::GATHERV | op::SCATTER | op::SCATTERV | op::REDUCE
    );
    if rooted && root as usize >= n {
        return Err(format!("root {root} is outside the {n} ranks"));
    }
    let others = || (0..n).filter(move |&j| j != root as usize);
    Ok(Some(match op {
        op::BARRIER => vec![Action::Barrier; n],
        op::BCAST => {
            let b = agreed(others().map(|j| (j, views[j].1)), "received")?
                .unwrap_or(views[root as usize].1);
            vec![Action::Bcast { bytes: b, root }; n]
        }
        op::REDUCE => {
            let b = agreed(others().map(|j| (j, views[j].0)), "sent")?
                .unwrap_or(views[root as usize].0);
            vec![
                Action::Reduce {
                    bytes: b,
                    root,
                    flops: 0.0,
                };
                n
            ]
        }
        op::GATHER | op::GATHERV => {
            let blocks: Vec<u64> = views.iter().map(|v| v.0).collect();
            (0..n)
                .map(|j| Action::Gatherv {
                    send_bytes: views[j].0,
                    recv_bytes: if j == root as usize {
                        blocks.clone()
                    } else {
                        Vec::new()
                    },
                    root,
                })
                .collect()
        }
        op::SCATTER | op::SCATTERV => {
            let blocks: Vec<u64> = views.iter().map(|v| v.1).collect();
            (0..n)
                .map(|j| Action::Scatterv {
                    send_bytes: if j == root as usize {
                        blocks.clone()
                    } else {
                        Vec::new()
                    },
                    recv_bytes: views[j].1,
                    root,
                })
                .collect()
        }
        op::ALLGATHER => {
            let b = uniform(views)?;
            vec![
                Action::Allgather {
                    send_bytes: b,
                    recv_bytes: b,
                };
                n
            ]
        }
        op::ALLTOALL => {
            let b = uniform(views)?;
            vec![
                Action::Alltoall {
                    send_bytes: b,
                    recv_bytes: b,
                };
                n
            ]
        }
        op::ALLREDUCE => {
            let b = uniform(views)?;
            vec![
                Action::Allreduce {
                    bytes: b,
                    flops: 0.0,
                };
                n
            ]
        }
        op::REDUCE_SCATTER_BLOCK => {
            let b = uniform(views)?;
            vec![
                Action::Reducescatter {
                    recv_bytes: vec![b; n],
                    flops: 0.0,
                };
                n
            ]
        }
        op::ALLGATHERV => {
            let b = allgatherv(views)?;
            (0..n)
                .map(|j| Action::Allgatherv {
                    send_bytes: b[j],
                    recv_bytes: b.clone(),
                })
                .collect()
        }
        op::REDUCE_SCATTER => {
            let r = reduce_scatter(views)?;
            vec![
                Action::Reducescatter {
                    recv_bytes: r,
                    flops: 0.0,
                };
                n
            ]
        }
        op::SCAN | op::EXSCAN => {
            let b = scan(views, op == op::SCAN)?;
            let a = if op == op::SCAN {
                Action::Scan {
                    bytes: b,
                    flops: 0.0,
                }
            } else {
                Action::Exscan {
                    bytes: b,
                    flops: 0.0,
                }
            };
            vec![a; n]
        }
        op::ALLTOALLV | op::ALLTOALLW => {
            return Err(
                "an OTF2 trace gives each rank's bytes in all, not what it sends to \
                        each peer, so the replay cannot tell its messages"
                    .into(),
            )
        }
        op::CREATE_HANDLE..=op::DESTROY_HANDLE_AND_DEALLOCATE => return Ok(None),
        _ => return Err(format!("unknown collective operation {op}")),
    }))
}

/// The value every rank of `vals` (rank, bytes) has; `None` when there is none.
fn agreed(mut vals: impl Iterator<Item = (usize, u64)>, what: &str) -> Result<Option<u64>, String> {
    let Some((j0, v0)) = vals.next() else {
        return Ok(None);
    };
    for (j, v) in vals {
        if v != v0 {
            return Err(format!(
                "rank {j} {what} {v} bytes, rank {j0} {v0}: the ranks disagree"
            ));
        }
    }
    Ok(Some(v0))
}

/// `total` as `n` equal blocks, else `n - 1` (an in-place call), else none.
fn per_peer(total: u64, n: u64) -> Option<u64> {
    if n <= 1 {
        return Some(total);
    }
    if total.is_multiple_of(n) {
        Some(total / n)
    } else if total.is_multiple_of(n - 1) {
        Some(total / (n - 1))
    } else {
        None
    }
}

/// The block of a collective where every rank sends and receives `N` (or `N-1`) of one size.
fn uniform(views: &[View]) -> Result<u64, String> {
    let n = views.len() as u64;
    let mut b0: Option<(usize, u64)> = None;
    for (j, &(s, r)) in views.iter().enumerate() {
        let b = match (per_peer(s, n), per_peer(r, n)) {
            (Some(a), Some(b)) if a == b => a,
            _ => {
                return Err(format!(
                    "rank {j} sent {s} and received {r} bytes, not {n} (or {}) blocks of one size",
                    n - 1
                ))
            }
        };
        match b0 {
            None => b0 = Some((j, b)),
            Some((j0, x)) if x != b => {
                return Err(format!(
                    "rank {j} sent blocks of {b} bytes, rank {j0} of {x}: the ranks disagree"
                ))
            }
            Some(_) => {}
        }
    }
    Ok(b0.map_or(0, |(_, b)| b))
}

/// Every rank's block of an allgatherv: each rank sent its block to `N` ranks and received
/// every block (in place: `N-1` ranks, every block but its own).
fn allgatherv(views: &[View]) -> Result<Vec<u64>, String> {
    let n = views.len() as u64;
    for in_place in [false, true] {
        let k = if in_place { n - 1 } else { n };
        if k == 0 {
            continue;
        }
        if views.iter().any(|v| !v.0.is_multiple_of(k)) {
            continue;
        }
        let b: Vec<u64> = views.iter().map(|v| v.0 / k).collect();
        let sum: u64 = b.iter().sum();
        let fits = views
            .iter()
            .zip(&b)
            .all(|(v, bj)| v.1 == if in_place { sum - bj } else { sum });
        if fits {
            return Ok(b);
        }
    }
    Err(format!(
        "the ranks' totals (sent, received: {}) are no allgatherv's",
        brief(views)
    ))
}

/// Every rank's share of a reduce_scatter: each rank sent the whole vector (in place: all but
/// its share) and received its share from `N` ranks (`N-1`).
fn reduce_scatter(views: &[View]) -> Result<Vec<u64>, String> {
    let n = views.len() as u64;
    for in_place in [false, true] {
        let k = if in_place { n - 1 } else { n };
        if k == 0 {
            continue;
        }
        if views.iter().any(|v| !v.1.is_multiple_of(k)) {
            continue;
        }
        let r: Vec<u64> = views.iter().map(|v| v.1 / k).collect();
        let sum: u64 = r.iter().sum();
        let fits = views
            .iter()
            .zip(&r)
            .all(|(v, rj)| v.0 == if in_place { sum - rj } else { sum });
        if fits {
            return Ok(r);
        }
    }
    Err(format!(
        "the ranks' totals (sent, received: {}) are no reduce_scatter's",
        brief(views)
    ))
}

/// The block of a scan: rank j sent `(N-j) b` and received `(j+1) b`; an exscan, or a scan in
/// place, one block fewer each.
fn scan(views: &[View], inclusive: bool) -> Result<u64, String> {
    let n = views.len() as u64;
    let readings: &[u64] = if inclusive { &[0, 1] } else { &[1] };
    for &less in readings {
        // rank 0 sends to everyone: its total gives the block
        let k = n - less;
        let b = if k == 0 {
            0
        } else if views[0].0.is_multiple_of(k) {
            views[0].0 / k
        } else {
            continue;
        };
        let fits = views.iter().enumerate().all(|(j, v)| {
            let j = j as u64;
            v.0 == (n - j - less) * b && v.1 == (j + 1 - less) * b
        });
        if fits {
            return Ok(b);
        }
    }
    Err(format!(
        "the ranks' totals (sent, received: {}) are no {}'s",
        brief(views),
        if inclusive { "scan" } else { "exscan" }
    ))
}

/// The first totals, for a message.
fn brief(views: &[View]) -> String {
    let mut s: Vec<String> = views
        .iter()
        .take(6)
        .enumerate()
        .map(|(j, v)| format!("rank {j} {}/{}", v.0, v.1))
        .collect();
    if views.len() > 6 {
        s.push("...".into());
    }
    s.join(", ")
}
