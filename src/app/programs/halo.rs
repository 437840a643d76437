//! 2-D halo exchange: the ranks form a periodic grid of X x Y (the factorisation of the rank
//! count closest to square, X >= Y); every iteration each rank sends a message to its four
//! neighbours and receives theirs, then all ranks meet in a barrier. Rank 0 reports the mean
//! iteration time.

use super::{Figures, Params};
use crate::app::api::{program as prog, Payload, Program};
use std::sync::Arc;

/// The grid of `n` ranks: (X, Y), X x Y = n, Y the largest divisor not above sqrt(n).
pub fn grid(n: u32) -> (u32, u32) {
    let y = (1..=n)
        .take_while(|y| y * y <= n)
        .filter(|y| n.is_multiple_of(*y))
        .last()
        .unwrap_or(1);
    (n / y, y)
}

pub fn program(p: Params, f: Figures) -> Arc<dyn Program> {
    prog(move |r| {
        let f = f.clone();
        async move {
            let (me, n) = (r.rank(), r.size());
            let (gx, gy) = grid(n);
            let (x, y) = (me % gx, me / gx);
            let at = |x: u32, y: u32| (y % gy) * gx + x % gx;
            let nb = [
                at(x + 1, y),
                at(x + gx - 1, y),
                at(x, y + 1),
                at(x, y + gy - 1),
            ];
            let t0 = r.cycle().await;
            for _ in 0..p.iterations {
                let mut qs = Vec::with_capacity(8);
                // tag = direction, so a rank that is its own neighbour twice (a grid of 2)
                // matches each message to its side
                for (d, &s) in nb.iter().enumerate() {
                    qs.push(r.irecv(Some(s), Some(d as i32 ^ 1)).await);
                }
                for (d, &t) in nb.iter().enumerate() {
                    qs.push(r.isend(t, d as i32, Payload::Size(p.bytes)).await);
                }
                r.waitall(&qs).await;
                r.barrier().await;
            }
            if me == 0 {
                let t = r.cycle().await - t0;
                f.set("iteration_cycles", t as f64 / p.iterations.max(1) as f64);
                f.set("grid_x", gx as f64);
                f.set("grid_y", gy as f64);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn grids_are_closest_to_square() {
        assert_eq!(super::grid(16), (4, 4));
        assert_eq!(super::grid(72), (9, 8));
        assert_eq!(super::grid(7), (7, 1));
        assert_eq!(super::grid(1), (1, 1));
    }
}
