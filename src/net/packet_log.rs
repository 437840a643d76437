//! The packet log (`exanet network run|sweep --packets FILE`): one record per packet delivered,
//! for users who analyse raw latencies themselves. Like the statistics it is an observer of the
//! engine's events, attached only when asked (`Network::log_packets`); without it the nodes
//! report no hop and the engine does nothing more, so the statistics (and their hash) are the
//! same with and without it (a test).
//!
//! Events it is fed:
//! - a footer sent by a TCL TX (`NodeEvents::hop_sent`), with the cycles its header was
//!   written into the TX FIFO and its MAGIC sent (`hop_times.rs`);
//! - a footer written by a TCL RX into a router (`NodeEvents::hop_in`): the packet named by
//!   the footer (source endpoint and sequence number, `nic::footer_id`) crossed one more link,
//!   its header written into the router at the cycle given. A packet's hops are kept until it
//!   arrives, so the map holds only the packets in the network, never the whole run.
//! - an arrival (footer popped by the destination NIC), with the cycle its header was written
//!   into the destination's intra-tile RX FIFO: the record is complete, its latency split hop
//!   by hop into routers and links (`hop_times::LatencySplit`), and goes to the sink at once
//!   (streamed: nothing is kept per delivered packet).
//!
//! Ordering: a footer reaches the next node at least a PHY latency after the previous node
//! sent it, and the engine's windows are no longer than that latency, so every hop of a packet
//! is seen, its send before its arrival, before the window in which it arrives is stepped.

use super::hop_times::{HopIn, HopSent, LatencySplit, PacketHops, SplitMeans, SplitSums};
use super::nic::{footer_id, Arrival};
use super::stats::Window;
use super::topology::Topology;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A delivered packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PacketRecord {
    /// Source and destination endpoints (the indices traffic patterns use); the source is
    /// `None` for a packet whose footer names no endpoint (a failed node stomped it).
    pub src: Option<usize>,
    pub dst: usize,
    /// The VC in the header the destination NIC popped: the VC of the packet's last link.
    pub vc: u8,
    /// Payload bytes.
    pub size: u32,
    /// Cycle the header was written into the source router's TX FIFO.
    pub injected: u64,
    /// Cycle the destination NIC popped the footer.
    pub delivered: u64,
    /// Inter-tile links crossed (0 between two terminals of one router).
    pub hops: u32,
    /// Injected in the measurement window.
    pub window: bool,
    /// A ping probe packet (`net.probe`).
    pub probe: bool,
    /// Cycle the source's software made it (its generator's timestamp; None for an
    /// application's packet).
    pub created: Option<u64>,
    /// Its latency router by router and link by link (None when a hop was not seen:
    /// `hop_times.rs`).
    pub split: Option<LatencySplit>,
}

/// Where records go.
pub trait PacketSink {
    fn record(&mut self, r: &PacketRecord);
    /// Called once after the run: flush, and report the first error, if any.
    fn finish(&mut self) -> Result<(), String>;
}

/// The observer: the hops of the packets in the network and a sink for delivered packets.
pub struct PacketLog {
    hops: HashMap<(usize, u32), PacketHops>,
    sink: Box<dyn PacketSink>,
    recorded: u64,
    /// The latency split of the measurement window's packets (not the probes').
    split: SplitSums,
}

impl PacketLog {
    pub fn new(sink: Box<dyn PacketSink>) -> PacketLog {
        PacketLog {
            hops: HashMap::new(),
            sink,
            recorded: 0,
            split: SplitSums::default(),
        }
    }

    /// A footer sent by a TCL TX: its packet is crossing a link.
    pub fn sent(&mut self, t: &dyn Topology, s: &HopSent) {
        let id = footer_id(t, s.footer);
        self.hops.entry((id.src, id.seq)).or_default().sent(s);
    }

    /// A footer written into a router by a TCL RX: its packet crossed a link.
    pub fn hop(&mut self, t: &dyn Topology, h: &HopIn) {
        let id = footer_id(t, h.footer);
        self.hops.entry((id.src, id.seq)).or_default().arrived(h);
    }

    /// A packet delivered; `ejected`: the cycle its header was written into the destination's
    /// intra-tile RX FIFO, as the node saw it.
    pub fn arrive(&mut self, a: &Arrival, ejected: Option<u64>, w: &Window) {
        let p = self.hops.remove(&(a.src, a.seq)).unwrap_or_default();
        let split = p.split(a.injected, ejected, a.arrived);
        if w.contains(a.injected) && !a.probe {
            self.split.add(split.as_ref());
        }
        let hops = p.hops;
        self.sink.record(&PacketRecord {
            src: (a.src != usize::MAX).then_some(a.src),
            dst: a.dst,
            vc: a.vc,
            size: a.size,
            injected: a.injected,
            delivered: a.arrived,
            hops,
            window: w.contains(a.injected),
            probe: a.probe,
            created: a.created,
            split,
        });
        self.recorded += 1;
    }

    /// A packet that reached a dead node's NIC: lost there, not delivered (`faults.rs`); its
    /// hops are dropped, and no record is made.
    pub fn forget(&mut self, a: &Arrival) {
        self.hops.remove(&(a.src, a.seq));
    }

    /// The mean latency split of the measurement window's packets so far.
    pub fn split_means(&self) -> SplitMeans {
        self.split.means()
    }

    /// Records given to the sink.
    pub fn recorded(&self) -> u64 {
        self.recorded
    }

    /// Packets that crossed a link and have not arrived yet.
    pub fn in_network(&self) -> usize {
        self.hops.len()
    }

    /// Flushes the sink; its first error, if any.
    pub fn finish(mut self) -> Result<u64, String> {
        self.sink.finish().map(|_| self.recorded)
    }
}

/// The columns of the packets file.
pub const CSV_HEADER: &str = "curve,point,offered_load,seed,src,dst,vc,size_bytes,\
                              injected_cycle,delivered_cycle,latency_cycles,hops,window,probe,\
                              created_cycle,source_queue_cycles,router_cycles,link_cycles,\
                              link_wait_cycles,ejection_cycles,hop_router_cycles,\
                              hop_link_cycles,hop_link_wait_cycles";

/// A list of cycles as one CSV cell, `;` between them.
fn cell(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(";")
}

/// Records as CSV lines, streamed to a file through a buffer. Every line starts with the
/// sweep point it belongs to (curve index, point index in the curve's JSON `points`, offered
/// load, seed); the header is written only when asked (a sweep writes each point into a part
/// file of its own and joins them under one header).
pub struct CsvSink {
    path: PathBuf,
    out: Option<std::io::BufWriter<std::fs::File>>,
    prefix: String,
    error: Option<String>,
}

impl CsvSink {
    /// Creates (or truncates) `path`. `point`: the first four columns of every line
    /// (`curve,point,offered_load,seed`), as the caller formats them.
    pub fn create(path: &Path, header: bool, point: &str) -> Result<CsvSink, String> {
        let f = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut out = std::io::BufWriter::new(f);
        if header {
            writeln!(out, "{CSV_HEADER}").map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(CsvSink {
            path: path.to_path_buf(),
            out: Some(out),
            prefix: point.to_string(),
            error: None,
        })
    }
}

impl PacketSink for CsvSink {
    fn record(&mut self, r: &PacketRecord) {
        let Some(out) = self.out.as_mut() else { return };
        // (all empty: a hop of the packet was not seen)
        let split = match &r.split {
            Some(s) => {
                let (router, link, wait) = s.sums();
                format!(
                    "{router},{link},{wait},{},{},{},{}",
                    s.ejection,
                    cell(&s.router),
                    cell(&s.link),
                    cell(&s.link_wait)
                )
            }
            None => ",,,,,,".to_string(),
        };
        let res = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            self.prefix,
            // (empty: a damaged footer named no source)
            r.src.map_or(String::new(), |s| s.to_string()),
            r.dst,
            r.vc,
            r.size,
            r.injected,
            r.delivered,
            r.delivered.saturating_sub(r.injected),
            r.hops,
            r.window,
            r.probe,
            r.created.map_or(String::new(), |c| c.to_string()),
            r.created
                .map_or(String::new(), |c| r.injected.saturating_sub(c).to_string()),
            split
        );
        if let Err(e) = res {
            // the first error stops the log; the run goes on and reports it at the end
            self.error = Some(format!("{}: {e}", self.path.display()));
            self.out = None;
        }
    }

    fn finish(&mut self) -> Result<(), String> {
        if let Some(mut out) = self.out.take() {
            if let Err(e) = out.flush() {
                self.error = Some(format!("{}: {e}", self.path.display()));
            }
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Records kept in memory (tests).
#[derive(Debug, Default, Clone)]
pub struct VecSink(pub std::sync::Arc<std::sync::Mutex<Vec<PacketRecord>>>);

impl PacketSink for VecSink {
    fn record(&mut self, r: &PacketRecord) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(r.clone());
    }
    fn finish(&mut self) -> Result<(), String> {
        Ok(())
    }
}
