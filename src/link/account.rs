//! Where every packet sent on one direction of a link is (docs/link.md, "Accounting";
//! docs/decisions/0016-link-packet-accounting.md).
//!
//! From the registers of the sending TCL TX and the receiving TCL RX, the same in the model
//! and (with `_q`) in the RTL:
//!
//! ```text
//!   sent      = tx.stat_pkts + tx.pkt                (every packet whose MAGIC has gone out)
//!   delivered = rx.stat_pkts - rx.stat_crc_err      (written into the RX FIFOs, CRC good)
//!   crc_failed = rx.stat_crc_err                    (written, flagged crc_bad)
//!   discarded = rx.stat_lost = rx.stat_disc_hdr + rx.stat_disc_framing + rx.stat_disc_resync
//!   in_flight = sent - delivered - crc_failed - discarded
//! ```
//!
//! `in_flight` holds the packets on the wire or inside the RX and those lost whose loss the RX
//! has not yet learnt: a packet of which nothing recognisable arrived is counted when the next
//! footer with a good CRC and link sequence number arrives. It is never negative (the RX never
//! accounts for more packets than were sent); after a clean packet has crossed the link, it is
//! the packets sent after that one. Tests hold both at every cycle.
//!
//! What a report shows (`bounded`): a link cannot hold more than [`capacity`] packets, so what
//! `in_flight` holds beyond that is lost, though the RX has not seen it yet (`lost_unseen`). A
//! link under a bit-error rate high enough that no footer checks any more never learns of its
//! losses: without the bound, every packet it ever lost would read as in flight.

use super::tcl_rx::TclRx;
use super::tcl_tx::TclTx;
use serde::Serialize;

/// Beats of the shortest packet on a lane: MAGIC, START, the header's two, the footer's two.
pub const MIN_PACKET_BEATS: u32 = 6;

/// The most packets one direction of a link can have sent and not yet accounted for: a packet
/// is accounted for at its footer's last beat, so each one in flight has that beat still in
/// the TX (one packet: the one it is sending), on the lane (`latency` beats, at least
/// [`MIN_PACKET_BEATS`] apart from the next packet's) or in the RX's two register stages.
pub fn capacity(latency: u32) -> u64 {
    (latency + 2).div_ceil(MIN_PACKET_BEATS) as u64 + 1
}

/// Packet accounting of one direction of a link (counters wrap at 2^32, as the registers).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct LinkAccount {
    /// Packets the TX started (MAGIC sent).
    pub sent: u64,
    /// Delivered into the RX FIFOs with a good CRC.
    pub delivered: u64,
    /// Delivered with `crc_bad` set (this link's CRC check failed).
    pub crc_failed: u64,
    /// Discarded at their header: uncorrectable, or naming a VC that does not exist.
    pub discarded_header: u64,
    /// Discarded because their framing (Magic, Start) was lost: never seen as a packet.
    pub discarded_framing: u64,
    /// Discarded while the RX discarded to the next Start after a bad header.
    pub discarded_resync: u64,
    /// Sent and not yet accounted for at the RX (see the module's documentation); after
    /// `bounded`, at most what the link can hold.
    pub in_flight: i64,
    /// Sent, not yet accounted for, and more than the link can hold: lost, the RX not knowing
    /// it yet (0 until `bounded`).
    pub lost_unseen: u64,
    /// Beats the RX dropped outside any packet.
    pub beats_dropped: u64,
}

impl LinkAccount {
    /// The accounting of the direction from `tx` to `rx` (the peer's RX).
    pub fn of(tx: &TclTx, rx: &TclRx) -> LinkAccount {
        let outcomes = rx.stat_pkts.wrapping_add(rx.stat_lost);
        LinkAccount {
            sent: tx.sent() as u64,
            delivered: rx.stat_pkts.wrapping_sub(rx.stat_crc_err) as u64,
            crc_failed: rx.stat_crc_err as u64,
            discarded_header: rx.stat_disc_hdr as u64,
            discarded_framing: rx.stat_disc_framing as u64,
            discarded_resync: rx.stat_disc_resync as u64,
            in_flight: tx.sent().wrapping_sub(outcomes) as i32 as i64,
            lost_unseen: 0,
            beats_dropped: rx.stat_dropped as u64,
        }
    }

    /// One direction's account with what its lane of `latency` cycles cannot hold in flight
    /// (`capacity`) moved into `lost_unseen`.
    pub fn bounded(mut self, latency: u32) -> LinkAccount {
        let cap = capacity(latency) as i64;
        if self.in_flight > cap {
            self.lost_unseen += (self.in_flight - cap) as u64;
            self.in_flight = cap;
        }
        self
    }

    /// Packets discarded, every reason (the RX's `stat_lost`, register `LINK_LOST`).
    pub fn discarded(&self) -> u64 {
        self.discarded_header + self.discarded_framing + self.discarded_resync
    }

    /// Both directions (or several links) together.
    pub fn add(&self, o: &LinkAccount) -> LinkAccount {
        LinkAccount {
            sent: self.sent + o.sent,
            delivered: self.delivered + o.delivered,
            crc_failed: self.crc_failed + o.crc_failed,
            discarded_header: self.discarded_header + o.discarded_header,
            discarded_framing: self.discarded_framing + o.discarded_framing,
            discarded_resync: self.discarded_resync + o.discarded_resync,
            in_flight: self.in_flight + o.in_flight,
            lost_unseen: self.lost_unseen + o.lost_unseen,
            beats_dropped: self.beats_dropped + o.beats_dropped,
        }
    }

    /// The accounting holds: the RX's counters add up (`stat_lost` is the sum of its
    /// reasons) and no more packets are accounted for than were sent. `Err` says what is wrong.
    pub fn check(&self, rx: &TclRx) -> Result<(), String> {
        let reasons = rx
            .stat_disc_hdr
            .wrapping_add(rx.stat_disc_framing)
            .wrapping_add(rx.stat_disc_resync);
        if reasons != rx.stat_lost {
            return Err(format!(
                "the RX's discard reasons add up to {reasons}, its stat_lost is {}",
                rx.stat_lost
            ));
        }
        if self.in_flight < 0 {
            return Err(format!(
                "the RX accounted for {} packets more than were sent: {self:?}",
                -self.in_flight
            ));
        }
        Ok(())
    }

    /// Both directions of a link hold (`check`): A's TX to B's RX and B's TX to A's RX.
    pub fn check_both(a: (&TclTx, &TclRx), b: (&TclTx, &TclRx)) -> Result<(), String> {
        LinkAccount::of(a.0, b.1)
            .check(b.1)
            .map_err(|e| format!("A->B: {e}"))?;
        LinkAccount::of(b.0, a.1)
            .check(a.1)
            .map_err(|e| format!("B->A: {e}"))
    }

    /// Name/value pairs for reports, prefixed (`link_sent`, ...).
    pub fn fields(&self, prefix: &str) -> Vec<(String, u64)> {
        [
            ("sent", self.sent),
            ("delivered", self.delivered),
            ("crc_failed", self.crc_failed),
            ("discarded_header", self.discarded_header),
            ("discarded_framing", self.discarded_framing),
            ("discarded_resync", self.discarded_resync),
            ("in_flight", self.in_flight.max(0) as u64),
            ("lost_unseen", self.lost_unseen),
            ("beats_dropped", self.beats_dropped),
        ]
        .into_iter()
        .map(|(k, v)| (format!("{prefix}{k}"), v))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_reports_in_flight_only_what_it_can_hold() {
        // 42 cycles of lane and two RX stages hold 8 footers 6 beats apart, and the TX one more
        assert_eq!(capacity(42), 9);
        assert_eq!(capacity(4), 2);
        let a = LinkAccount {
            sent: 100,
            in_flight: 30,
            ..LinkAccount::default()
        };
        let b = a.bounded(42);
        assert_eq!((b.in_flight, b.lost_unseen), (9, 21));
        let c = LinkAccount { in_flight: 5, ..a }.bounded(42);
        assert_eq!((c.in_flight, c.lost_unseen), (5, 0));
        assert_eq!(b.add(&c).lost_unseen, 21);
    }
}
