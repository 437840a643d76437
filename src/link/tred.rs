//! The smallest credit threshold TRED that keeps a link's receive FIFOs from overflowing
//! (docs/decisions/0012-network-tred.md). It depends on the link alone (`[link]`), so the
//! configuration checks `link.credit.whole_packet` with it and the network (`net::tred`) picks
//! its TRED with it.
//!
//! A VC stops when the free space its last credit reported is at or below TRED (start/stop), or
//! when the sender's estimate falls to TRED (usedword). Between the receiver's snapshot of its
//! FIFO and the sender acting on it, the sender goes on sending: the snapshot may be up to a
//! credit interval old (`max_interval_cycles`, a credit waits for a 128-bit word boundary: 2
//! beats), the credit takes its beats and a PHY lane and a TCL RX to arrive, and the words sent
//! meanwhile are in the sender's TCL TX, on the lane and in the receiver's TCL RX:
//!
//! ```text
//! beats = max_interval + 2 (phy_latency + TX pipeline 4 + RX pipeline 2) + credit beats + 4
//! ```
//!
//! one beat a cycle, two beats a 128-bit word. Those words cost credit units (decision 0006): a
//! payload word one, a header or footer word `SCALE` = payload depth / header-footer depth. With
//! the shortest packet of the run (W words: header, payload, footer) the header/footer FIFO fills
//! fastest: at most `ceil(words / W) + 1` packets (one cut at each end) of 2 such words each. TRED
//! must be at least the larger of the two counts. When the TCLs send a started packet to its
//! footer whatever credits arrive (`net.whole_packet_credit`, docs/decisions/0013), the
//! largest packet of the run (payload words plus a header and a footer word of `SCALE` units
//! each) may follow the stop as well, and is added. A link between two endpoints that always drain
//! (the link and KARMA measurements) never comes near it, which is why the thesis's TRED of 128
//! payload words serves there; a congested network does fill its receive FIFOs.

use crate::config::{CreditFlavour, LinkConfig};

/// TCL TX pipeline cycles (header at the FIFO head to its first beat on the lane) and TCL RX
/// cycles (last beat of a word to its write into the RX FIFO), `docs/link.md`.
const TX_PIPE: u32 = 4;
const RX_PIPE: u32 = 2;

/// The smallest safe TRED of link `l`, in credit units, for payloads of `min_payload_bytes` to
/// `max_payload_bytes`, with the TCLs checking the credit only before a packet (`whole_packet`)
/// or before every word.
pub fn safe_tred_units(
    l: &LinkConfig,
    min_payload_bytes: u32,
    max_payload_bytes: u32,
    whole_packet: bool,
) -> u32 {
    let c = &l.credit;
    let credit_beats =
        super::tcl_tx::credit_beats(c.flavour == CreditFlavour::Usedword, c.usedword_beats);
    let beats =
        c.max_interval_cycles + 2 * (l.phy.latency_cycles + TX_PIPE + RX_PIPE) + credit_beats + 4;
    let words = beats.div_ceil(2);
    let w = min_payload_bytes.div_ceil(16).max(1) + 2;
    let scale = l.rx_fifo_depth_words / l.rx_hf_fifo_depth_words.max(1);
    let in_flight = words.max((words.div_ceil(w) + 1) * 2 * scale);
    if whole_packet {
        in_flight + max_payload_bytes.div_ceil(16).max(1) + 2 * scale
    } else {
        in_flight
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn short_packets_need_more_margin_than_long_ones() {
        let l = Config::default().link;
        let short = safe_tred_units(&l, 1, 1, false);
        let mid = safe_tred_units(&l, 64, 64, false);
        let long = safe_tred_units(&l, 4096, 4096, false);
        assert!(short > mid && mid > long, "{short} {mid} {long}");
        // long packets: the payload words bound it (ceil(beats / 2))
        let words = (110 + 2 * (42 + 4 + 2) + 1 + 4u32).div_ceil(2);
        assert_eq!(long, words.max(2 * 2 * 8));
        assert!(short < l.rx_fifo_depth_words);
    }

    #[test]
    fn the_pipeline_cycles_are_what_the_clocked_tcls_take() {
        // TX_PIPE and RX_PIPE restate the TCL stages; the latency measurement clocks them
        let m = crate::measure::latency::measure(&Config::default()).unwrap();
        assert_eq!(
            (m.tcl_tx_cycles, m.tcl_rx_cycles),
            (TX_PIPE as u64, RX_PIPE as u64)
        );
    }

    #[test]
    fn whole_packets_add_the_largest_packet() {
        let l = Config::default().link;
        let word = safe_tred_units(&l, 64, 4096, false);
        // 256 payload words, a header and a footer of 8 units each
        assert_eq!(safe_tred_units(&l, 64, 4096, true), word + 256 + 16);
        assert_eq!(safe_tred_units(&l, 64, 64, true), word + 4 + 16);
        assert!(safe_tred_units(&l, 1, 4096, true) < l.rx_fifo_depth_words);
    }
}
