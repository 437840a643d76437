//! A packet's network latency split into its routers and its links, hop by hop (issue 32 §1;
//! docs/network.md, "Latency"), for the packet log (`--packets`). The boundaries are the
//! header's writes into the FIFOs between the blocks, the same that split the zero-load
//! latency into 11 cycles a router and 51 a link:
//!
//! ```text
//!   header into the source router's intra-tile TX FIFO (the NIC) ...... injected
//!     router 0 ........ header into the output (TCL TX) FIFO of the port it leaves by
//!     link 1 .......... header into the next router's input (RX) FIFO; of it, the wait
//!                       until the TCL TX starts the packet (its MAGIC: credit, the lane busy)
//!     router 1 ........ header into the next output FIFO ... and so on, hop by hop
//!     router h ........ header into the destination's intra-tile RX FIFO
//!   ejection .......... the footer popped by the destination NIC ..... delivered
//! ```
//!
//! so `sum(router) + sum(link) + ejection = delivered - injected` for every packet, with h + 1
//! routers and h links for h inter-tile hops. The ejection is the footer's lag behind the
//! header and the NIC's pop (at zero load `max(W - 1, 2 (W - 1) - 5) + 4` for W words).
//!
//! A header carries no source, so a node matches a header to its packet by the order of its
//! FIFOs (`NodeHops`): the cycles headers are written into an output FIFO queue up until the
//! TCL TX starts a packet of that VC, which takes the oldest; the TX reports it with the
//! packet's footer (source and sequence number, `nic::footer_id`) as it sends the footer, the
//! RX the cycle it wrote the header as it writes the footer, and the destination's intra-tile
//! RX FIFO queues its headers' cycles for the NIC's arrivals in the same way. The packet log
//! puts a packet's hops together (`PacketHops`) as it does their count: a hop's send is
//! reported at least a lane's latency before the RX at its far end writes the footer, so in
//! order however the engine steps its windows. A log attached to a running network gives no
//! split for the packets already in it (`Headers`).
//!
//! The register reads are those of the blocks' write strobes after they step (the router
//! output slot's `owr_*`, the RX's `wr_*`, the TX's `pkt` and `hf_rd`), only while a packet
//! log is attached; nothing simulated changes (the statistics hash is the same, a test). A
//! strobe registered in cycle c writes its FIFO in cycle c + 1, and that is the cycle taken,
//! as `injected` is the cycle the NIC's registered strobe writes the header (`nic.rs`); the
//! MAGIC likewise counts from the cycle it is on the TX's output.

use crate::link::tcl_tx::K_FTR;
use crate::router::params::MAX_INTER;
use crate::router::Router;
use serde::Serialize;
use std::collections::VecDeque;

/// A TCL TX sent a packet's footer: its header had been written into the TX FIFO at `queued`
/// and the TX sent its MAGIC at `started`.
#[derive(Debug, Clone, Copy)]
pub struct HopSent {
    pub footer: u128,
    pub queued: u64,
    pub started: u64,
}

/// A TCL RX wrote a packet's footer into the router, whose header it wrote at `header_in`
/// (None: it wrote no header since its last footer, a header lost under a fault).
#[derive(Debug, Clone, Copy)]
pub struct HopIn {
    pub footer: u128,
    pub header_in: Option<u64>,
}

/// The cycles the headers in one FIFO were written, oldest first. A queue is kept from the
/// first time its FIFO is seen holding no header/footer word (at once for a log attached at
/// cycle 0): before that it cannot tell which header is which, and gives none.
#[derive(Debug, Clone, Default)]
struct Headers {
    cycles: VecDeque<u64>,
    synced: bool,
}

impl Headers {
    /// After the FIFO's writer stepped: `empty`, the FIFO holds no header/footer word; `write`,
    /// the writer's registered strobe writes a header in cycle `at`.
    fn see(&mut self, empty: bool, write: bool, at: u64) {
        if !self.synced && empty {
            self.synced = true;
            self.cycles.clear();
        }
        if self.synced && write {
            self.cycles.push_back(at);
        }
    }

    fn pop(&mut self) -> Option<u64> {
        self.cycles.pop_front()
    }
}

/// A node's side: the cycles of the headers in its FIFOs.
#[derive(Debug, Clone)]
pub struct NodeHops {
    vcs: usize,
    /// Per inter-tile port and VC (`q * vcs + v`): headers written into its TX FIFO.
    queued: Vec<Headers>,
    /// Per port: the packet its TX is sending, (queued, started); None between packets or when
    /// its header's cycle was not seen.
    sending: [Option<(u64, u64)>; MAX_INTER],
    /// Per port: the cycle its RX wrote the header of the packet it is receiving.
    header_in: [Option<u64>; MAX_INTER],
    /// Per terminal: headers written into its intra-tile RX FIFO.
    ejected: Vec<Headers>,
}

impl NodeHops {
    pub fn new(r: &Router) -> NodeHops {
        let vcs = r.p.num_vcs as usize;
        NodeHops {
            vcs,
            queued: vec![Headers::default(); r.p.inter.len() * vcs],
            sending: [None; MAX_INTER],
            header_in: [None; MAX_INTER],
            ejected: vec![Headers::default(); r.p.n_intra as usize],
        }
    }

    /// After the router stepped in `cycle`: the headers its output slots write.
    // (off the node's hot path: only a run with a packet log calls it)
    #[cold]
    #[inline(never)]
    pub fn router(&mut self, r: &Router, cycle: u64) {
        let ni = r.p.n_intra as usize;
        for (s, o) in r.outs.iter().enumerate() {
            let Some(o) = o else { continue };
            let write = o.r.owr_valid && o.r.owr_hf && !o.r.owr_last;
            let q = match s.checked_sub(ni) {
                None => &mut self.ejected[s],
                Some(k) => &mut self.queued[k],
            };
            q.see(o.fifo.hf.usedw() == 0, write, cycle + 1);
        }
    }

    /// After port `q`'s TCL TX stepped in `cycle`, with `was_in_packet` its `pkt` before and
    /// `head` the word at the head of its VC's header/footer FIFO: the footer it sent, if it
    /// popped one.
    // (off the node's hot path: only a run with a packet log calls it)
    #[cold]
    #[inline(never)]
    pub fn tx(
        &mut self,
        q: usize,
        tx: &crate::link::tcl_tx::TclTx,
        was_in_packet: bool,
        head: u128,
        cycle: u64,
    ) -> Option<HopSent> {
        if tx.pkt && !was_in_packet {
            // its MAGIC: the oldest header of the VC it chose
            let queued = self.queued[q * self.vcs + tx.vc as usize].pop();
            self.sending[q] = queued.map(|c| (c, cycle + 1));
        }
        if tx.hf_rd != 0 && tx.kind == K_FTR {
            let (queued, started) = self.sending[q].take()?;
            return Some(HopSent {
                footer: head,
                queued,
                started,
            });
        }
        None
    }

    /// After port `q`'s TCL RX stepped in `cycle`: it wrote a header (`header`), or the footer
    /// `footer` (what it reports).
    // (off the node's hot path: only a run with a packet log calls it)
    #[cold]
    #[inline(never)]
    pub fn rx(
        &mut self,
        q: usize,
        header: bool,
        footer: Option<u128>,
        cycle: u64,
    ) -> Option<HopIn> {
        if header {
            self.header_in[q] = Some(cycle + 1);
        }
        Some(HopIn {
            footer: footer?,
            header_in: self.header_in[q].take(),
        })
    }

    /// Terminal `t`'s NIC delivered a packet: the cycle its header was written into the
    /// intra-tile RX FIFO.
    // (off the node's hot path: only a run with a packet log calls it)
    #[cold]
    #[inline(never)]
    pub fn ejected(&mut self, t: usize) -> Option<u64> {
        self.ejected[t].pop()
    }
}

/// A packet's hops so far, in the packet log.
#[derive(Debug, Clone, Default)]
pub struct PacketHops {
    /// Links crossed (footers written by RXs).
    pub hops: u32,
    /// Per link crossed: (header into its TX FIFO, MAGIC, header into the next RX FIFO).
    links: Vec<(u64, u64, u64)>,
    /// The send of the link being crossed.
    sending: Option<(u64, u64)>,
    /// A hop whose send or arrival was not seen (split unknown).
    broken: bool,
}

/// A delivered packet's latency, router by router and link by link (cycles).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LatencySplit {
    /// h + 1 routers: header into an input FIFO to header into an output FIFO.
    pub router: Vec<u32>,
    /// h links: header into a TX FIFO to header into the next router's input FIFO.
    pub link: Vec<u32>,
    /// Of each link's, cycles until the TX started the packet.
    pub link_wait: Vec<u32>,
    /// Header into the destination's intra-tile RX FIFO to the footer popped.
    pub ejection: u64,
}

impl PacketHops {
    pub fn sent(&mut self, s: &HopSent) {
        if self.sending.replace((s.queued, s.started)).is_some() {
            self.broken = true;
        }
    }

    pub fn arrived(&mut self, h: &HopIn) {
        self.hops += 1;
        match (self.sending.take(), h.header_in) {
            (Some((q, s)), Some(i)) => self.links.push((q, s, i)),
            _ => self.broken = true,
        }
    }

    /// The split of a packet injected at `injected`, its header into the destination's
    /// intra-tile RX FIFO at `ejected`, delivered at `delivered`; None when a hop was not seen.
    pub fn split(
        &self,
        injected: u64,
        ejected: Option<u64>,
        delivered: u64,
    ) -> Option<LatencySplit> {
        let ejected = ejected?;
        if self.broken || self.sending.is_some() || self.links.len() != self.hops as usize {
            return None;
        }
        let d = |a: u64, b: u64| -> Option<u32> { u32::try_from(b.checked_sub(a)?).ok() };
        let mut s = LatencySplit::default();
        let mut at = injected;
        for &(queued, started, next) in &self.links {
            s.router.push(d(at, queued)?);
            s.link.push(d(queued, next)?);
            s.link_wait.push(d(queued, started)?);
            at = next;
        }
        s.router.push(d(at, ejected)?);
        s.ejection = delivered.checked_sub(ejected)?;
        Some(s)
    }
}

impl LatencySplit {
    /// Cycles in routers, on links, waiting to start on links.
    pub fn sums(&self) -> (u64, u64, u64) {
        let sum = |v: &[u32]| v.iter().map(|&x| x as u64).sum::<u64>();
        (sum(&self.router), sum(&self.link), sum(&self.link_wait))
    }
}

/// The mean split over the measurement window's packets (not the probes'), for the summary.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SplitMeans {
    /// Window packets whose every hop was seen.
    pub packets: u64,
    /// Window packets delivered without a split (a hop not seen: a header SECDED corrected
    /// into another packet's, a lane reset under it).
    pub packets_without_split: u64,
    pub router_mean_cycles: f64,
    pub link_mean_cycles: f64,
    pub link_wait_mean_cycles: f64,
    pub ejection_mean_cycles: f64,
    /// The mean of one router's time and of one link's (over every router and link crossed).
    pub per_router_mean_cycles: f64,
    pub per_link_mean_cycles: f64,
}

/// Sums behind [`SplitMeans`].
#[derive(Debug, Clone, Default)]
pub struct SplitSums {
    packets: u64,
    without: u64,
    routers: u64,
    links: u64,
    router: u64,
    link: u64,
    wait: u64,
    ejection: u64,
}

impl SplitSums {
    pub fn add(&mut self, s: Option<&LatencySplit>) {
        let Some(s) = s else {
            self.without += 1;
            return;
        };
        let (r, l, w) = s.sums();
        self.packets += 1;
        self.routers += s.router.len() as u64;
        self.links += s.link.len() as u64;
        self.router += r;
        self.link += l;
        self.wait += w;
        self.ejection += s.ejection;
    }

    pub fn means(&self) -> SplitMeans {
        let over = |a: u64, n: u64| if n > 0 { a as f64 / n as f64 } else { 0.0 };
        SplitMeans {
            packets: self.packets,
            packets_without_split: self.without,
            router_mean_cycles: over(self.router, self.packets),
            link_mean_cycles: over(self.link, self.packets),
            link_wait_mean_cycles: over(self.wait, self.packets),
            ejection_mean_cycles: over(self.ejection, self.packets),
            per_router_mean_cycles: over(self.router, self.routers),
            per_link_mean_cycles: over(self.link, self.links),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_partitions_the_latency_hop_by_hop() {
        let mut p = PacketHops::default();
        // injected at 100; two hops
        for (queued, started, header_in) in [(111, 115, 162), (173, 180, 231)] {
            p.sent(&HopSent {
                footer: 0,
                queued,
                started,
            });
            p.arrived(&HopIn {
                footer: 0,
                header_in: Some(header_in),
            });
        }
        let s = p.split(100, Some(242), 260).unwrap();
        assert_eq!(s.router, vec![11, 11, 11]);
        assert_eq!(s.link, vec![51, 58]);
        assert_eq!(s.link_wait, vec![4, 7]);
        assert_eq!(s.ejection, 18);
        let (r, l, _) = s.sums();
        assert_eq!(r + l + s.ejection, 260 - 100);
    }

    #[test]
    fn a_hop_not_seen_leaves_no_split() {
        let mut p = PacketHops::default();
        p.arrived(&HopIn {
            footer: 0,
            header_in: Some(50),
        });
        assert_eq!(
            p.split(0, Some(60), 70),
            None,
            "an arrival without its send"
        );
        let mut p = PacketHops::default();
        p.sent(&HopSent {
            footer: 0,
            queued: 10,
            started: 12,
        });
        assert_eq!(p.split(0, Some(60), 70), None, "a send without its arrival");
        p.arrived(&HopIn {
            footer: 0,
            header_in: None,
        });
        assert_eq!(p.hops, 1, "a hop is counted all the same");
        assert_eq!(
            p.split(0, Some(60), 70),
            None,
            "an arrival without its header"
        );
        assert_eq!(PacketHops::default().split(0, None, 70), None);
        assert!(PacketHops::default().split(0, Some(20), 30).is_some());
    }
}
