//! The APErouter's routing function: dimension-order routing with run-time priority registers
//! and the thesis's VC rule (Biagioni 2017 §5.3.3, Pisani 2016 §2.7.1).
//!
//! For the dimensions in the order of `cfg.order`, the first one whose destination coordinate
//! differs from this node's decides the output: on a mesh the direction towards the destination,
//! on a torus the shorter way round (a tie goes the Plus way). The packet leaves by the inter-tile
//! port of that dimension and direction (or the port of that dimension marked `Both`), on the
//! upper VC (1) when the offset between destination and current coordinate is greater than zero
//! and on the lower VC (0) otherwise. On a torus a packet that goes the wrap-around way therefore
//! changes VC right after the wrap-around link: going up it travels on VC 0 up to and across the
//! wrap link and on VC 1 after it; going down, on VC 1 up to and across the wrap link and on VC 0
//! after it. No chain of channel dependencies closes around a ring on one VC, so the channel
//! dependency graph is acyclic (Pisani 2016 §2.7.1; `src/router/cdg.rs` checks it). When all coordinates match, the packet goes to the
//! intra-tile port its header names (`dst_port`).
//!
//! A packet that cannot be routed is dropped by its gate and counted, with the reason.
//!
//! RTL twin: the `route` function of `rtl/exanet_base_router_pkg.sv`.

use super::params::{Dir, RouterCfg, RouterParams, MAX_DIMS};
use crate::packet::layout::{HDR_DST_PORT, HDR_DST_X, HDR_DST_Y, HDR_DST_Z};
use crate::wave::states::drop_reason;

/// Why a packet was dropped (the code is what the RTL's `drop_reason_q` holds; the codes are
/// those of the one table shared with the RTL and the waves, `src/wave/states.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    /// A destination coordinate at or beyond the lattice size.
    OutsideLattice = drop_reason::DROP_OUTSIDE_LATTICE as isize,
    /// No enabled inter-tile port leads the way dimension-order routing goes.
    NoPort = drop_reason::DROP_NO_PORT as isize,
    /// The destination intra-tile port does not exist, is TX-only or is disabled.
    BadDstPort = drop_reason::DROP_BAD_DST_PORT as isize,
}

/// Where a header goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Output slot (`RouterParams::slot`) and the VC the header carries out.
    Out {
        slot: u32,
        vc: u8,
    },
    Drop(DropReason),
}

/// A routing function other than the APErouter's own: the network-scale algorithms
/// (`src/net/routing/`), adapted to one router. Called at the ROUTE stage.
pub trait RouteFn: Send + Sync {
    /// Where header `hdr`, in input slot `from`, goes: the output slot and VC, the new value
    /// of the header's `route` field (None: unchanged), and whether the gate may route the
    /// packet again while it waits (the output was an adaptive choice, not the hop it must
    /// wait for). `free` bit s: output slot s is free this cycle (not owned, no grant
    /// pending) and, for a routing function that adapts, has room for this packet.
    fn route(&self, hdr: u128, from: u32, free: u64) -> (Route, Option<u8>, bool);
    /// Whether `route` ever chooses among outputs by `free` (it then needs room in it, and the
    /// gate re-routes a waiting packet whose adaptive choice has no room).
    fn adapts(&self) -> bool {
        true
    }
}

/// Destination coordinates and intra-tile port of a header word.
pub fn destination(hdr: u128) -> ([u8; MAX_DIMS], u8) {
    (
        [
            HDR_DST_X.get(hdr) as u8,
            HDR_DST_Y.get(hdr) as u8,
            HDR_DST_Z.get(hdr) as u8,
        ],
        HDR_DST_PORT.get(hdr) as u8,
    )
}

/// The routing decision for a header. `vc_rule` false puts every packet on VC 0 (only for the
/// channel-dependency analysis: the hardware always applies the rule).
pub fn route(hdr: u128, p: &RouterParams, c: &RouterCfg, vc_rule: bool) -> Route {
    let (dst, port) = destination(hdr);
    route_to(dst, port, p, c, vc_rule)
}

/// The routing decision for a destination.
pub fn route_to(
    dst: [u8; MAX_DIMS],
    port: u8,
    p: &RouterParams,
    c: &RouterCfg,
    vc_rule: bool,
) -> Route {
    let dims = p.dims as usize;
    for (&to, &n) in dst.iter().zip(&c.size).take(dims) {
        if to >= n {
            return Route::Drop(DropReason::OutsideLattice);
        }
    }
    for k in 0..dims {
        let d = c.order[k] as usize;
        let (cur, to) = (c.coord[d], dst[d]);
        if cur == to {
            continue;
        }
        let dir = if c.torus & (1 << d) != 0 {
            let n = c.size[d] as u32;
            let up = (to as u32 + n - cur as u32) % n;
            let down = (cur as u32 + n - to as u32) % n;
            if up <= down {
                Dir::Plus
            } else {
                Dir::Minus
            }
        } else if to > cur {
            Dir::Plus
        } else {
            Dir::Minus
        };
        let vc = if vc_rule && to > cur { 1 } else { 0 };
        for (q, ip) in p.inter.iter().enumerate() {
            if ip.dim as usize == d
                && (ip.dir == dir || ip.dir == Dir::Both)
                && c.inter_en & (1 << q) != 0
            {
                let vc = vc.min(p.num_vcs as u8 - 1);
                return Route::Out {
                    slot: p.inter_slot(q as u32, vc as u32),
                    vc,
                };
            }
        }
        return Route::Drop(DropReason::NoPort);
    }
    if (port as u32) < p.n_intra && p.intra_rx & (1 << port) != 0 && c.intra_en & (1 << port) != 0 {
        Route::Out {
            slot: p.intra_slot(port as u32),
            vc: 0,
        }
    } else {
        Route::Drop(DropReason::BadDstPort)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pktfifo::PktFifoParams;
    use crate::router::params::InterPort;

    fn torus_router(size: u8) -> (RouterParams, RouterCfg) {
        let f = PktFifoParams {
            hf_depth: 128,
            pay_depth: 1024,
            latency: 3,
        };
        let p = RouterParams {
            n_intra: 1,
            intra_rx: 1,
            inter: vec![
                InterPort {
                    dim: 0,
                    dir: Dir::Plus,
                },
                InterPort {
                    dim: 0,
                    dir: Dir::Minus,
                },
                InterPort {
                    dim: 1,
                    dir: Dir::Plus,
                },
                InterPort {
                    dim: 1,
                    dir: Dir::Minus,
                },
            ],
            dims: 2,
            num_vcs: 2,
            intra_fifo: f,
            inter_rx_fifo: f,
            inter_tx_fifo: f,
            size_in_words: false,
        };
        let c = RouterCfg {
            coord: [1, 1, 0],
            size: [size, size, 1],
            torus: 0b11,
            order: [0, 1, 2],
            intra_en: 1,
            inter_en: 0xf,
            ..Default::default()
        };
        (p, c)
    }

    #[test]
    fn x_first_then_y_shorter_way_round_with_the_vc_rule() {
        let (p, c) = torus_router(4);
        // (1,1) -> (3,1): +2 or -2: a tie goes Plus; offset > 0: VC 1
        assert_eq!(
            route_to([3, 1, 0], 0, &p, &c, true),
            Route::Out {
                slot: p.inter_slot(0, 1),
                vc: 1
            }
        );
        // (1,1) -> (0,1): -1: Minus, offset < 0: VC 0
        assert_eq!(
            route_to([0, 1, 0], 0, &p, &c, true),
            Route::Out {
                slot: p.inter_slot(1, 0),
                vc: 0
            }
        );
        // (1,1) -> (1,0): X done, Y -1
        assert_eq!(
            route_to([1, 0, 0], 0, &p, &c, true),
            Route::Out {
                slot: p.inter_slot(3, 0),
                vc: 0
            }
        );
        // arrived: intra port 0
        assert_eq!(
            route_to([1, 1, 0], 0, &p, &c, true),
            Route::Out { slot: 0, vc: 0 }
        );
    }

    #[test]
    fn the_priority_register_changes_the_order() {
        let (p, mut c) = torus_router(4);
        c.order = [1, 0, 2];
        assert_eq!(
            route_to([2, 2, 0], 0, &p, &c, true),
            Route::Out {
                slot: p.inter_slot(2, 1),
                vc: 1
            }
        );
        c.order = [0, 1, 2];
        assert_eq!(
            route_to([2, 2, 0], 0, &p, &c, true),
            Route::Out {
                slot: p.inter_slot(0, 1),
                vc: 1
            }
        );
    }

    #[test]
    fn drops_say_why() {
        let (p, mut c) = torus_router(4);
        assert_eq!(
            route_to([4, 1, 0], 0, &p, &c, true),
            Route::Drop(DropReason::OutsideLattice)
        );
        assert_eq!(
            route_to([1, 1, 0], 3, &p, &c, true),
            Route::Drop(DropReason::BadDstPort)
        );
        c.inter_en = 0b1110; // X+ disabled: the only way to (2,1)
        assert_eq!(
            route_to([2, 1, 0], 0, &p, &c, true),
            Route::Drop(DropReason::NoPort)
        );
        c.intra_en = 0;
        assert_eq!(
            route_to([1, 1, 0], 0, &p, &c, true),
            Route::Drop(DropReason::BadDstPort)
        );
    }

    #[test]
    fn a_size_two_dimension_uses_its_both_port() {
        let f = PktFifoParams {
            hf_depth: 128,
            pay_depth: 1024,
            latency: 3,
        };
        let p = RouterParams {
            n_intra: 3,
            intra_rx: 0b111,
            inter: vec![
                InterPort {
                    dim: 0,
                    dir: Dir::Both,
                },
                InterPort {
                    dim: 1,
                    dir: Dir::Both,
                },
            ],
            dims: 2,
            num_vcs: 2,
            intra_fifo: f,
            inter_rx_fifo: f,
            inter_tx_fifo: f,
            size_in_words: false,
        };
        let c = RouterCfg {
            coord: [1, 0, 0],
            size: [2, 2, 1],
            order: [0, 1, 2],
            intra_en: 7,
            inter_en: 3,
            ..Default::default()
        };
        assert_eq!(
            route_to([0, 1, 0], 2, &p, &c, true),
            Route::Out {
                slot: p.inter_slot(0, 0),
                vc: 0
            }
        );
        assert_eq!(
            route_to([1, 1, 0], 2, &p, &c, true),
            Route::Out {
                slot: p.inter_slot(1, 1),
                vc: 1
            }
        );
        assert_eq!(
            route_to([1, 0, 0], 2, &p, &c, true),
            Route::Out { slot: 2, vc: 0 }
        );
    }
}
