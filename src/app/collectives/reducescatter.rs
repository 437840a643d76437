//! Reduce-scatter of message lengths (a traced program's, whose values are not in the trace): a
//! binomial reduction of the whole vector to rank 0, each combination costing `combine_cycles`,
//! then a linear scatter of each rank's part (`recv_lens[d]` bytes to rank d).

use super::{reduce, scatter};
use crate::app::api::{Payload, Rank};

pub async fn reduce_scatter_sized(r: &Rank, recv_lens: &[u64], combine_cycles: u64) -> Payload {
    let total: u64 = recv_lens.iter().sum();
    reduce::binomial_sized(r, 0, total, combine_cycles).await;
    let out = recv_lens.iter().map(|&l| Payload::Size(l)).collect();
    let mine = recv_lens.get(r.rank() as usize).copied().unwrap_or(0);
    scatter::linear(r, 0, out, mine).await
}
