//! Where every packet of a network run is, under bit errors (issue 14 §1; docs/network.md,
//! "Bit errors"). The network-wide form of the link's accounting (`link/account.rs`, decision
//! 0016), read from the same registers: the NICs' counts and every TCL's and gate's counters.
//!
//! ```text
//!   injected           headers the NICs wrote into their TX FIFOs (all of the run)
//!   delivered_intact   footers the NICs popped with no link's CRC check failed on the way
//!   crc_failed         footers popped with `crc_bad` set (a link's CRC check failed on the way)
//!   discarded          packets a TCL RX lost (bad header, framing lost, discarded to the next
//!                      Start): Σ stat_lost over every RX
//!   dropped            headers a router's gate could not route (a header corrupted into a valid
//!                      but unroutable one): Σ stat_drops over every gate
//!   lost_at_dead_nodes packets that reached the NIC of a node that was down (faults.rs)
//!   lost_on_failed_links  sent on a lane that is cut or whose sender's port is down, and not
//!                      accounted for by its RX (they went nowhere)
//!   in_flight          injected - delivered_intact - crc_failed - discarded - dropped
//!                      - lost_at_dead_nodes - lost_on_failed_links
//! ```
//!
//! A lane that failed and came back: the packets it lost are counted by its RX at the first
//! good footer after it (the link sequence number's gap, decision 0016) as framing lost.
//!
//! A packet is counted once: a link's CRC failure only flags it (`crc_bad` in its footer), the
//! next links forward it, and its destination counts it; a packet a link discards is no longer
//! anywhere. `in_flight_on_links` is the part of `in_flight` the links' own books hold: sent
//! by a TX and not yet accounted for by the RX at the other end, on the wire or lost without
//! the RX having learnt it yet (it learns at the next good footer). When the network holds no
//! packet any more, `in_flight` equals it: nothing is lost uncounted (a test).

use super::node::NetNode;
use crate::router::params::MAX_INTER;
use serde::{Deserialize, Serialize};

/// The counters summed over a set of nodes, as words (so that processes can add them up):
/// every field named in [`Raw::FIELDS`] order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Raw {
    pub link_sent: u64,
    pub link_outcomes: u64,
    pub discarded_header: u64,
    pub discarded_framing: u64,
    pub discarded_resync: u64,
    pub dropped: u64,
    pub link_crc_errors: u64,
    pub headers_corrected: u64,
    pub headers_uncorrectable: u64,
    pub credits_rejected: u64,
    pub credit_stall_cycles: u64,
    pub beats_dropped: u64,
    pub beats_hit: u64,
    pub bits_flipped: u64,
    pub dropped_no_route: u64,
    pub dropped_unreachable: u64,
    pub dead_arrivals: u64,
    pub muted: u64,
    pub beats_lost_failed: u64,
}

// every field is a word in `to_words`: a field added without a word fails to compile
const _: () = assert!(std::mem::size_of::<Raw>() == Raw::FIELDS * 8);

impl Raw {
    pub const FIELDS: usize = 19;

    /// The counters of `nodes` (each RX and gate once, each TX once).
    pub fn of(nodes: &[NetNode]) -> Raw {
        let mut r = Raw::default();
        for n in nodes {
            for (_, l, p) in n.wired() {
                let (t, x) = (&l.tcl.tx, &l.tcl.rx);
                r.link_sent += t.sent() as u64;
                r.link_outcomes += x.stat_pkts as u64 + x.stat_lost as u64;
                r.discarded_header += x.stat_disc_hdr as u64;
                r.discarded_framing += x.stat_disc_framing as u64;
                r.discarded_resync += x.stat_disc_resync as u64;
                r.link_crc_errors += x.stat_crc_err as u64;
                r.headers_corrected += x.stat_ecc_corr as u64;
                r.headers_uncorrectable += x.stat_ecc_uncorr as u64;
                r.credits_rejected += x.stat_credit_err as u64;
                r.credit_stall_cycles += t.stat_stall as u64;
                r.beats_dropped += x.stat_dropped as u64;
                if let Some(e) = &p.errs {
                    r.beats_hit += e.beats_hit;
                    r.bits_flipped += e.bits_flipped;
                }
                r.beats_lost_failed += p.fault.beats_lost;
            }
            if let Some(a) = &n.routing {
                r.dropped_no_route += a.no_route.load(std::sync::atomic::Ordering::Relaxed);
                r.dropped_unreachable += a.unreachable.load(std::sync::atomic::Ordering::Relaxed);
            }
            r.dead_arrivals += n.dead_arrivals;
            r.muted += n.nics.iter().map(|x| x.muted_packets).sum::<u64>();
            for s in &n.dp.router.ins {
                r.dropped += s.gate.stat_drops as u64;
            }
        }
        r
    }

    pub fn to_words(&self) -> [u64; Raw::FIELDS] {
        [
            self.link_sent,
            self.link_outcomes,
            self.discarded_header,
            self.discarded_framing,
            self.discarded_resync,
            self.dropped,
            self.link_crc_errors,
            self.headers_corrected,
            self.headers_uncorrectable,
            self.credits_rejected,
            self.credit_stall_cycles,
            self.beats_dropped,
            self.beats_hit,
            self.bits_flipped,
            self.dropped_no_route,
            self.dropped_unreachable,
            self.dead_arrivals,
            self.muted,
            self.beats_lost_failed,
        ]
    }

    pub fn from_words(w: &[u64; Raw::FIELDS]) -> Raw {
        Raw {
            link_sent: w[0],
            link_outcomes: w[1],
            discarded_header: w[2],
            discarded_framing: w[3],
            discarded_resync: w[4],
            dropped: w[5],
            link_crc_errors: w[6],
            headers_corrected: w[7],
            headers_uncorrectable: w[8],
            credits_rejected: w[9],
            credit_stall_cycles: w[10],
            beats_dropped: w[11],
            beats_hit: w[12],
            bits_flipped: w[13],
            dropped_no_route: w[14],
            dropped_unreachable: w[15],
            dead_arrivals: w[16],
            muted: w[17],
            beats_lost_failed: w[18],
        }
    }
}

/// Every packet of the run in exactly one place (see the module's documentation), and what
/// the bit errors did on the links.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PacketAccount {
    pub injected: u64,
    pub delivered_intact: u64,
    pub crc_failed: u64,
    /// Discarded by the links' RXs, every reason (the next three).
    pub discarded: u64,
    pub discarded_header: u64,
    pub discarded_framing: u64,
    pub discarded_resync: u64,
    /// Dropped by the routers' gates: unroutable headers, and under faults (`faults.rs`)
    /// packets without a live hop (`dropped_no_route`) or whose destination is in another
    /// component (`dropped_unreachable`: a dead node, a split network).
    pub dropped: u64,
    pub dropped_no_route: u64,
    pub dropped_unreachable: u64,
    /// Packets that reached the NIC of a node that was down.
    pub lost_at_dead_nodes: u64,
    /// Sent on a failed lane (cut, or its sender's port marked down), and not accounted for by
    /// its RX: gone.
    pub lost_on_failed_links: i64,
    pub in_flight: i64,
    /// The part of `in_flight` the links' books hold: sent on a working lane, not yet
    /// accounted for by the RX.
    pub in_flight_on_links: i64,
    /// Packets a node's software made while the node was down (never injected).
    pub not_sent_at_dead_nodes: u64,
    /// Beats lost on failed lanes.
    pub beats_lost_on_failed_links: u64,
    /// Per-hop CRC failures (a packet flagged on one link and checked on the next counts once
    /// a link; `crc_failed` counts it once).
    pub link_crc_errors: u64,
    pub headers_corrected: u64,
    pub headers_uncorrectable: u64,
    /// Credits whose three copies all differed (or whose beats came out of order): rejected.
    pub credits_rejected: u64,
    /// Cycles the TCL TXs waited for credit, every cause.
    pub credit_stall_cycles: u64,
    /// Beats the RXs dropped outside any packet.
    pub beats_dropped: u64,
    /// Beats the bit errors hit, and bits flipped, over every lane.
    pub beats_hit: u64,
    pub bits_flipped: u64,
}

impl PacketAccount {
    /// From the NICs' totals (`injected`, `delivered` of which `crc_bad` flagged), the
    /// links' and routers' counters, and the lanes' books (`lane_books`: sent less accounted
    /// for on working lanes, and on failed ones).
    pub fn new(
        injected: u64,
        delivered: u64,
        crc_bad: u64,
        r: &Raw,
        (on_links, failed): (i64, i64),
    ) -> PacketAccount {
        let discarded = r.discarded_header + r.discarded_framing + r.discarded_resync;
        PacketAccount {
            injected,
            delivered_intact: delivered - crc_bad,
            crc_failed: crc_bad,
            discarded,
            discarded_header: r.discarded_header,
            discarded_framing: r.discarded_framing,
            discarded_resync: r.discarded_resync,
            dropped: r.dropped,
            dropped_no_route: r.dropped_no_route,
            dropped_unreachable: r.dropped_unreachable,
            lost_at_dead_nodes: r.dead_arrivals,
            lost_on_failed_links: failed,
            in_flight: injected as i64
                - delivered as i64
                - discarded as i64
                - r.dropped as i64
                - r.dead_arrivals as i64
                - failed,
            in_flight_on_links: on_links,
            not_sent_at_dead_nodes: r.muted,
            beats_lost_on_failed_links: r.beats_lost_failed,
            link_crc_errors: r.link_crc_errors,
            headers_corrected: r.headers_corrected,
            headers_uncorrectable: r.headers_uncorrectable,
            credits_rejected: r.credits_rejected,
            credit_stall_cycles: r.credit_stall_cycles,
            beats_dropped: r.beats_dropped,
            beats_hit: r.beats_hit,
            bits_flipped: r.bits_flipped,
        }
    }
}

/// What one direction of a link lost or flagged: the RX of node `to`'s port `to_port`, fed by
/// the lane of node `from`'s port `from_port`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkLoss {
    pub from: usize,
    pub from_port: usize,
    pub to: usize,
    pub to_port: usize,
    pub discarded_header: u64,
    pub discarded_framing: u64,
    pub discarded_resync: u64,
    /// Packets whose CRC check failed at this RX: hit on this link, or on one before it (the
    /// CRC is the source's, so a packet corrupted upstream fails again here).
    pub crc_failed: u64,
}

/// Counters of a port, as words: its RX's four losses (`LinkLoss`), then its TX's packets
/// sent, its RX's packets accounted for, and whether its outgoing lane failed (1).
pub const LOSS_WORDS: usize = 7;

/// The counts of every port of `nodes` (nodes `base..`), at word
/// `(node x MAX_INTER + port) x LOSS_WORDS` of a vector over all `total` nodes, so that processes
/// can add their vectors up.
pub fn loss_words(nodes: &[NetNode], base: usize, total: usize) -> Vec<u64> {
    let mut w = vec![0u64; total * MAX_INTER * LOSS_WORDS];
    for (i, n) in nodes.iter().enumerate() {
        for (q, l, p) in n.wired() {
            let x = &l.tcl.rx;
            let at = ((base + i) * MAX_INTER + q) * LOSS_WORDS;
            w[at..at + LOSS_WORDS].copy_from_slice(&[
                x.stat_disc_hdr as u64,
                x.stat_disc_framing as u64,
                x.stat_disc_resync as u64,
                x.stat_crc_err as u64,
                l.tcl.tx.sent() as u64,
                x.stat_pkts as u64 + x.stat_lost as u64,
                p.fault.silent() as u64,
            ]);
        }
    }
    w
}

/// The links with any loss or CRC failure, by receiving node and port, from the words of
/// [`loss_words`] and the wires (`wires[m][r]`: node `m`'s port `r` faces this node and port).
pub fn link_losses(w: &[u64], wires: &[[Option<(u32, u8)>; MAX_INTER]]) -> Vec<LinkLoss> {
    let mut out = Vec::new();
    for (m, ports) in wires.iter().enumerate() {
        for (r, wire) in ports.iter().enumerate() {
            let Some((n, q)) = *wire else { continue };
            let at = (m * MAX_INTER + r) * LOSS_WORDS;
            let c = &w[at..at + 4];
            if c.iter().any(|&x| x > 0) {
                out.push(LinkLoss {
                    from: n as usize,
                    from_port: q as usize,
                    to: m,
                    to_port: r,
                    discarded_header: c[0],
                    discarded_framing: c[1],
                    discarded_resync: c[2],
                    crc_failed: c[3],
                });
            }
        }
    }
    out
}

/// The lanes' books from the words of [`loss_words`]: packets sent and not yet accounted
/// for by the RX at the other end, on working lanes and on failed ones (the sender's state).
pub fn lane_books(w: &[u64], wires: &[[Option<(u32, u8)>; MAX_INTER]]) -> (i64, i64) {
    let (mut on_links, mut failed) = (0i64, 0i64);
    for (m, ports) in wires.iter().enumerate() {
        for (r, wire) in ports.iter().enumerate() {
            let Some((n, q)) = *wire else { continue };
            let rx = (m * MAX_INTER + r) * LOSS_WORDS;
            let tx = (n as usize * MAX_INTER + q as usize) * LOSS_WORDS;
            let d = w[tx + 4] as i64 - w[rx + 5] as i64;
            if w[tx + 6] != 0 {
                failed += d;
            } else {
                on_links += d;
            }
        }
    }
    (on_links, failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_every_field() {
        let w: [u64; Raw::FIELDS] = std::array::from_fn(|k| 3 * k as u64 + 1);
        assert_eq!(Raw::from_words(&w).to_words(), w);
    }

    #[test]
    fn the_four_places_add_up_to_the_injected() {
        let r = Raw {
            discarded_header: 2,
            discarded_framing: 1,
            dropped: 1,
            link_sent: 50,
            link_outcomes: 47,
            ..Raw::default()
        };
        let a = PacketAccount::new(100, 90, 5, &r, (3, 0));
        assert_eq!(a.discarded, 3);
        assert_eq!(a.in_flight, 100 - 90 - 3 - 1);
        assert_eq!(
            a.delivered_intact + a.crc_failed + a.discarded + a.dropped + a.in_flight as u64,
            a.injected
        );
        assert_eq!(a.in_flight_on_links, 3);
    }
}
