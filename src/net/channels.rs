//! Per-channel figures of a network run (issue 32 §1; `exanet network run --channels
//! FILE.csv`): for each direction of each link, what its TCL TX sent and waited for and what
//! the TCL RX at the other end received, read from the same registers the HTML report's port
//! table reads (`report.rs`), so that a script gets them without the page.
//!
//! The counters are the run's (warm-up, window and drain). `utilisation` is the lane's data
//! beats per cycle over the run: two 64-bit beats a 128-bit word the RX wrote (headers, payload,
//! footers), over the run's cycles; a lower bound, since MAGIC, START and credit beats are not
//! counted (the TCL keeps no count of them).

use super::engine::Network;
use serde::Serialize;

/// One direction of a link: node `from`'s port `from_port` to node `to`'s port `to_port`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChannelRow {
    pub from: usize,
    pub from_port: usize,
    pub to: usize,
    pub to_port: usize,
    /// Packets the TX started (its MAGIC went out).
    pub packets_sent: u64,
    /// Packets the RX wrote into the router (of them, those whose CRC check failed here).
    pub packets_received: u64,
    pub crc_failed: u64,
    /// Packets the RX discarded (bad header, framing lost, to the next Start).
    pub packets_discarded: u64,
    /// 128-bit words the RX wrote.
    pub words_received: u64,
    /// Data beats per cycle over the run (see the module's documentation), 0 to 1.
    pub utilisation: f64,
    /// Cycles the TX waited for the peer's credit.
    pub credit_stall_cycles: u64,
    /// Credits the TX's own RX took from the peer (whose buffers they describe), and those it
    /// rejected (copies that all differed).
    pub credits_received: u64,
    pub credits_rejected: u64,
    /// Times the TX's port was marked down (faults).
    pub marked_down: u64,
}

/// Every channel of `net` (a process that holds every node), in order of sender and port.
pub fn channels(net: &Network) -> Vec<ChannelRow> {
    let t = net.topo.as_ref();
    let cycles = net.cycle.max(1) as f64;
    let mut out = Vec::new();
    for node in &net.nodes {
        for (q, l, p) in node.wired() {
            let Some((to, r)) = t.link(node.id, q) else {
                continue;
            };
            let Some(peer) = to
                .checked_sub(net.owned().start)
                .and_then(|k| net.nodes.get(k))
            else {
                continue;
            };
            let Some(prx) = peer.dp.links[r].as_ref().map(|x| &x.tcl.rx) else {
                continue;
            };
            let (tx, rx) = (&l.tcl.tx, &l.tcl.rx);
            out.push(ChannelRow {
                from: node.id,
                from_port: q,
                to,
                to_port: r,
                packets_sent: tx.sent() as u64,
                packets_received: prx.stat_pkts as u64,
                crc_failed: prx.stat_crc_err as u64,
                packets_discarded: prx.stat_lost as u64,
                words_received: prx.stat_words as u64,
                utilisation: (2.0 * prx.stat_words as f64 / cycles).min(1.0),
                credit_stall_cycles: tx.stat_stall as u64,
                credits_received: rx.stat_credits as u64,
                credits_rejected: rx.stat_credit_err as u64,
                marked_down: p.fault.downs as u64,
            });
        }
    }
    out
}
