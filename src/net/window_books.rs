//! Where the measurement window's packets are (issue 32 §1; docs/network.md, "Where the
//! window's packets are"): delivered, dropped by a router, lost on a link, lost at a dead node,
//! or still in the network. The run's whole-packet account (`account.rs`) counts packets by
//! the blocks' counters, which do not know which packets were the window's; these books follow
//! the window's packets themselves, so the drain ends when none is left in the network, and a
//! lost packet is never reported as in flight.
//!
//! A packet is the window's when its header says so: its injection cycle (`dst_addr`, written
//! by the NIC) lies in the window and its protection domain is not the probes'
//! ([`PROBE_PDID`]). The header is SECDED-protected and the same at every hop, so each place
//! that sees a packet classifies it alone:
//!
//! ```text
//!   NIC writes the header ........................... injected (stats.rs)
//!   a gate drops it (stat_drops_q, its hdr_q) ....... dropped by a router      (node)
//!   a TCL TX starts it (its MAGIC) .................. sent on port q          (node, TX side)
//!   a TCL RX writes its header into the router ...... forwarded by port r     (node, RX side)
//!   a NIC of a dead node reads it ................... lost at a dead node     (engine)
//!   a NIC reads it ................................... delivered              (stats.rs)
//! ```
//!
//! A link (node n's port q to node m's port r) lost `sent - forwarded` of the window's
//! packets, less those still crossing it. A packet crosses a link in a bounded time: its
//! header leaves the RX a lane's latency and a few beats after its MAGIC left the TX (nothing
//! on a link holds a header back; credit was checked at the MAGIC). A packet whose header has
//! not come out [`HORIZON_BEATS`] cycles past the lane's latency after its MAGIC will not: it
//! is lost. The books keep the MAGIC cycles of the window's packets sent within that horizon,
//! and count as lost only `sent - forwarded - recent`, never more than is lost (it is exact
//! once the last packet sent is older than the horizon, which every drain reaches).
//!
//! A link's losses are *lost on a failed link* when its lane lost beats to a fault
//! (`faults.rs`: cut, or its port marked down), else *lost to bit errors* (the RX discarded
//! them: a header SECDED could not correct, framing lost). A header that three or more bit
//! errors turn into another valid header counts as what it then reads as.
//!
//! Only runs that can lose packets keep the books (faults or bit errors); elsewhere every
//! count is 0 and the drain is the same as without them.

use super::nic::Arrival;
use super::node::NetNode;
use super::stats::Window;
use crate::packet::layout::{HDR_DST_ADDR, HDR_PDID};
use crate::router::params::MAX_INTER;
use crate::router::Router;
use serde::Serialize;
use std::collections::VecDeque;

/// The protection domain of probe packets (`net.probe`): the NIC writes it into their headers,
/// so that every hop tells them from the measured traffic. Other packets carry 0.
pub const PROBE_PDID: u64 = 1;

/// Cycles past a lane's latency after which a packet whose MAGIC left the TX and whose header
/// has not been written by the RX is lost: MAGIC, START, the header's two beats, a MAGIC
/// escape for each, a credit inserted behind a MAGIC (at most 5 beats), the RX's two register
/// stages, and a wide margin for the lane's ready.
pub const HORIZON_BEATS: u64 = 64;

/// The packet whose header is `hdr` is one of the window's.
#[inline]
pub fn in_window(hdr: u128, w: &Window) -> bool {
    w.contains(HDR_DST_ADDR.get(hdr)) && HDR_PDID.get(hdr) != PROBE_PDID
}

/// A node's books (`NetNode::books`).
#[derive(Debug, Clone)]
pub struct WindowBooks {
    window: Window,
    /// Cycles after its MAGIC within which a packet may still be on its link: the lane's
    /// latency and [`HORIZON_BEATS`].
    horizon: u64,
    /// Per inter-tile port: the window's packets its TX started, and the MAGIC cycles of those
    /// started within the horizon (oldest first).
    sent: [u64; MAX_INTER],
    recent: [VecDeque<u64>; MAX_INTER],
    /// Per inter-tile port: the window's packets whose header its RX wrote into the router.
    forwarded: [u64; MAX_INTER],
    /// Each gate's `stat_drops` when last looked at.
    drops_seen: Vec<u32>,
    dropped: u64,
    dead: u64,
}

impl WindowBooks {
    /// `lane_latency`: the lanes' latency, cycles.
    pub fn new(window: Window, router: &Router, lane_latency: u64) -> WindowBooks {
        WindowBooks {
            window,
            horizon: lane_latency + HORIZON_BEATS,
            sent: [0; MAX_INTER],
            recent: Default::default(),
            forwarded: [0; MAX_INTER],
            drops_seen: router.ins.iter().map(|s| s.gate.stat_drops).collect(),
            dropped: 0,
            dead: 0,
        }
    }

    /// Port `q`'s TX started the packet whose header is `hdr` (its MAGIC) in `cycle`.
    #[inline]
    pub fn sent(&mut self, q: usize, hdr: u128, cycle: u64) {
        if in_window(hdr, &self.window) {
            self.sent[q] += 1;
            // only the horizon's are kept: a port's books hold a few cycles' packets
            self.recent_after(q, cycle.saturating_sub(self.horizon));
            self.recent[q].push_back(cycle);
        }
    }

    /// Port `q`'s RX wrote the header `hdr` into the router.
    #[inline]
    pub fn forwarded(&mut self, q: usize, hdr: u128) {
        if in_window(hdr, &self.window) {
            self.forwarded[q] += 1;
        }
    }

    /// After the router stepped: a gate whose drop count moved dropped the packet in its
    /// `hdr_q` (a gate drops at most one packet a cycle: it reads the dropped one out first).
    pub fn gates(&mut self, router: &Router) {
        for (seen, s) in self.drops_seen.iter_mut().zip(&router.ins) {
            if s.gate.stat_drops != *seen {
                *seen = s.gate.stat_drops;
                self.dropped += in_window(s.gate.hdr, &self.window) as u64;
            }
        }
    }

    /// A packet reached a NIC of this node while it was down.
    pub fn dead_arrival(&mut self, a: &Arrival) {
        self.dead += (self.window.contains(a.injected) && !a.probe) as u64;
    }

    /// The window's packets port `q`'s TX started after `since` (older ones forgotten).
    fn recent_after(&mut self, q: usize, since: u64) -> u64 {
        let r = &mut self.recent[q];
        while r.front().is_some_and(|&c| c <= since) {
            r.pop_front();
        }
        r.len() as u64
    }
}

/// Words per port in [`book_words`]: sent, sent within the horizon, forwarded, and whether the
/// port's outgoing lane lost beats to a fault (1).
const PORT_WORDS: usize = 4;

/// The books of `nodes` (nodes `base..` of `total`) at `cycle`, as words that processes add
/// up: per node and port ([`PORT_WORDS`] at `(node x MAX_INTER + port) x PORT_WORDS`), then
/// the window's packets dropped by routers and lost at dead nodes. Empty when no node keeps
/// books.
pub fn book_words(nodes: &mut [NetNode], base: usize, total: usize, cycle: u64) -> Vec<u64> {
    if nodes.iter().all(|n| n.books.is_none()) {
        return Vec::new();
    }
    let ports = total * MAX_INTER * PORT_WORDS;
    let mut w = vec![0u64; ports + 2];
    for (i, n) in nodes.iter_mut().enumerate() {
        let failed: Vec<(usize, bool)> = n
            .wired()
            .map(|(q, _, p)| (q, p.fault.beats_lost > 0))
            .collect();
        let Some(b) = n.books.as_mut() else { continue };
        for (q, failed) in failed {
            let at = ((base + i) * MAX_INTER + q) * PORT_WORDS;
            let recent = b.recent_after(q, cycle.saturating_sub(b.horizon));
            w[at..at + PORT_WORDS].copy_from_slice(&[
                b.sent[q],
                recent,
                b.forwarded[q],
                failed as u64,
            ]);
        }
        w[ports] += b.dropped;
        w[ports + 1] += b.dead;
    }
    w
}

/// What happened to the window's packets that were not delivered (`Summary`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct WindowLosses {
    /// Dropped by a router's gate: no live hop, an unreachable destination, an unroutable
    /// header.
    pub dropped: u64,
    /// Sent on a link whose lane lost beats to a fault, and never out of its RX.
    pub on_failed_links: u64,
    /// Sent on a link that never failed, and discarded by its RX (bit errors).
    pub to_bit_errors: u64,
    /// Reached a node that was down.
    pub at_dead_nodes: u64,
}

impl WindowLosses {
    pub fn total(&self) -> u64 {
        self.dropped + self.on_failed_links + self.to_bit_errors + self.at_dead_nodes
    }

    /// From the summed words of [`book_words`] and the wires (`wires[m][r]`: node `m`'s port
    /// `r` faces this node and port).
    pub fn of(w: &[u64], wires: &[[Option<(u32, u8)>; MAX_INTER]]) -> WindowLosses {
        let mut l = WindowLosses::default();
        let Some(ports) = w.len().checked_sub(2) else {
            return l;
        };
        for (m, wired) in wires.iter().enumerate() {
            for (r, wire) in wired.iter().enumerate() {
                let Some((n, q)) = *wire else { continue };
                let tx = (n as usize * MAX_INTER + q as usize) * PORT_WORDS;
                let rx = (m * MAX_INTER + r) * PORT_WORDS;
                let lost = w[tx].saturating_sub(w[rx + 2] + w[tx + 1]);
                if w[tx + 3] != 0 {
                    l.on_failed_links += lost;
                } else {
                    l.to_bit_errors += lost;
                }
            }
        }
        l.dropped = w[ports];
        l.at_dead_nodes = w[ports + 1];
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::layout::HDR_SIZE;

    #[test]
    fn a_header_is_the_windows_by_its_injection_cycle_unless_it_is_a_probes() {
        let w = Window {
            start: 100,
            end: 200,
        };
        let h = |cycle: u64, pdid: u64| {
            HDR_PDID.set(HDR_DST_ADDR.set(HDR_SIZE.set(0, 64), cycle), pdid)
        };
        assert!(!in_window(h(99, 0), &w));
        assert!(in_window(h(100, 0), &w));
        assert!(in_window(h(199, 0), &w));
        assert!(!in_window(h(200, 0), &w));
        assert!(!in_window(h(150, PROBE_PDID), &w));
    }

    #[test]
    fn a_link_loses_what_it_sent_less_what_came_out_and_what_may_still_be_crossing_it() {
        // two nodes, 0's port 1 to 1's port 0 and back
        let mut wires = vec![[None; MAX_INTER]; 2];
        wires[1][0] = Some((0, 1));
        wires[0][1] = Some((1, 0));
        let mut w = vec![0u64; 2 * MAX_INTER * PORT_WORDS + 2];
        let at = |node: usize, port: usize| (node * MAX_INTER + port) * PORT_WORDS;
        // 0 -> 1: 10 sent, 2 of them recent, 7 out: 1 lost, on a lane that never failed
        w[at(0, 1)..at(0, 1) + 4].copy_from_slice(&[10, 2, 0, 0]);
        w[at(1, 0) + 2] = 7;
        // 1 -> 0: 5 sent, none recent, 1 out, on a lane that failed: 4 lost there
        w[at(1, 0)] = 5;
        w[at(1, 0) + 3] = 1;
        w[at(0, 1) + 2] = 1;
        let n = w.len();
        w[n - 2] = 3;
        w[n - 1] = 2;
        let l = WindowLosses::of(&w, &wires);
        assert_eq!(
            l,
            WindowLosses {
                dropped: 3,
                on_failed_links: 4,
                to_bit_errors: 1,
                at_dead_nodes: 2
            }
        );
        assert_eq!(l.total(), 10);
        // the recent ones all came out already: no loss is claimed that may be in flight
        w[at(1, 0) + 2] = 9;
        assert_eq!(WindowLosses::of(&w, &wires).to_bit_errors, 0);
        assert_eq!(WindowLosses::of(&[], &wires), WindowLosses::default());
    }
}
