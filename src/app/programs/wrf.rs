//! The WRF (weather research and forecast) exchange of Minkenberg and Rodriguez 2008 §5.4: each rank n sends one
//! message to rank n + 16, then one to rank n - 16, and receives the matching two. Seed 004
//! ran it on 256 nodes of a two-level fat tree and found, in the Paraver traces of the network,
//! head-of-line blocking: two messages contending for one destination held up a third that
//! only shared an input buffer with one of them (docs/validation.md, "Head-of-line blocking:
//! the WRF pattern").
//!
//! Two ways at the edges:
//! - `wrf` (Minkenberg and Rodriguez 2008's): ranks 0-15 only send to n + 16 and the last 16 ranks only to
//!   n - 16 (no rank past either end), so in the first phase the ranks n and n + 32 of the
//!   last 32 both send to n + 16;
//! - `wrf-periodic` (the wording): every rank sends to (n + 16) mod N and
//!   (n - 16) mod N.
//!
//! Each iteration a rank posts its receives, then sends the message to n + 16 and waits until
//! it has left the rank's buffer (a blocking send: the second message goes after the first,
//! as in Minkenberg and Rodriguez 2008), then the message to n - 16, then waits for its receives. `wrf-at-once`
//! (Minkenberg and Rodriguez 2008's edges) starts both sends together and waits for all four requests, the
//! non-blocking form Minkenberg and Rodriguez 2008 §5.1 compares with blocking exchanges. No barrier: the ranks
//! keep each other in step only through their messages. A message carries tag 0 going
//! up (to n + 16) and tag 1 going down, so a rank that has the same partner both ways (32
//! ranks, periodic) tells them apart.
//!
//! Figures: each rank's mean time an iteration, cycles; the fastest, the mean and the slowest
//! rank's (Minkenberg and Rodriguez 2008 Figure 4's "most nodes completed after about 63 us, whereas three nodes
//! took 24 us longer").

use super::{Figures, Params};
use crate::app::api::{program as prog, Payload, Program};
use std::sync::{Arc, Mutex};

/// The distance between partners, ranks (Minkenberg and Rodriguez 2008 §5.4).
pub const STRIDE: u32 = 16;

/// The fewest ranks for which some rank has a partner (rank 16 and rank 0).
pub const MIN_RANKS: u32 = STRIDE + 1;

/// The partners of rank `me` of `n`: (up, down), each None when the rank sends nothing that
/// way. `periodic`: modulo `n`; else none past either end (Minkenberg and Rodriguez 2008).
pub fn partners(me: u32, n: u32, periodic: bool) -> (Option<u32>, Option<u32>) {
    if periodic {
        (Some((me + STRIDE) % n), Some((me + n - STRIDE % n) % n))
    } else {
        (
            (me + STRIDE < n).then_some(me + STRIDE),
            me.checked_sub(STRIDE),
        )
    }
}

/// The WRF exchange; `periodic`: partners modulo the rank count; `at_once`: both sends started
/// together (isend, isend, then a wait for all four requests) instead of one after the other.
pub fn program(p: Params, f: Figures, periodic: bool, at_once: bool) -> Arc<dyn Program> {
    let sum = Arc::new(Mutex::new(0.0f64));
    prog(move |r| {
        let (f, sum) = (f.clone(), sum.clone());
        async move {
            let (me, n) = (r.rank(), r.size());
            let (up, down) = partners(me, n, periodic);
            // my down partner sends up to me (tag 0), my up partner down to me (tag 1)
            let (from_below, from_above) = (down, up);
            let t0 = r.cycle().await;
            for _ in 0..p.iterations {
                let mut qs = Vec::with_capacity(2);
                if let Some(s) = from_below {
                    qs.push(r.irecv(Some(s), Some(0)).await);
                }
                if let Some(s) = from_above {
                    qs.push(r.irecv(Some(s), Some(1)).await);
                }
                for (d, tag) in [(up, 0), (down, 1)] {
                    let Some(d) = d else { continue };
                    if at_once {
                        qs.push(r.isend(d, tag, Payload::Size(p.bytes)).await);
                    } else {
                        r.send(d, tag, Payload::Size(p.bytes)).await;
                    }
                }
                r.waitall(&qs).await;
            }
            let t = (r.cycle().await - t0) as f64 / p.iterations.max(1) as f64;
            // ranks run one at a time in a fixed order: these updates are deterministic
            let min = f.get("exchange_min_cycles").map_or(t, |m| m.min(t));
            let max = f.get("exchange_max_cycles").map_or(t, |m| m.max(t));
            let sum = {
                let mut s = sum.lock().expect("the sum of the ranks' times");
                *s += t;
                *s
            };
            f.set("exchange_min_cycles", min);
            f.set("exchange_max_cycles", max);
            f.set("exchange_mean_cycles", sum / n as f64);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partners_follow_seed_004_at_the_edges_and_wrap_when_periodic() {
        assert_eq!(partners(0, 256, false), (Some(16), None));
        assert_eq!(partners(15, 256, false), (Some(31), None));
        assert_eq!(partners(16, 256, false), (Some(32), Some(0)));
        assert_eq!(partners(240, 256, false), (None, Some(224)));
        assert_eq!(partners(255, 256, false), (None, Some(239)));
        assert_eq!(partners(0, 64, true), (Some(16), Some(48)));
        assert_eq!(partners(60, 64, true), (Some(12), Some(44)));
        // 17 ranks: rank 0 and 16 are each other's only partners without wrapping
        assert_eq!(partners(16, 17, false), (None, Some(0)));
        assert_eq!(partners(3, 17, false), (None, None));
        // a rank receives going up from its down partner only, going down from its up partner
        // only (what the program posts its receives for)
        for (n, per) in [
            (256, false),
            (64, true),
            (32, true),
            (40, false),
            (17, true),
        ] {
            for dst in 0..n {
                let (up, down) = partners(dst, n, per);
                let ups: Vec<u32> = (0..n)
                    .filter(|&s| partners(s, n, per).0 == Some(dst))
                    .collect();
                let downs: Vec<u32> = (0..n)
                    .filter(|&s| partners(s, n, per).1 == Some(dst))
                    .collect();
                assert_eq!(
                    ups,
                    down.into_iter().collect::<Vec<_>>(),
                    "n {n} {per} {dst}"
                );
                assert_eq!(
                    downs,
                    up.into_iter().collect::<Vec<_>>(),
                    "n {n} {per} {dst}"
                );
            }
        }
    }
}
