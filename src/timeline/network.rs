//! The Paraver network view (Minkenberg and Rodriguez 2008 §4.2 and Table 1): the network's routers and NICs as
//! Paraver tasks, their ports as threads, the ports' buffer backlog as states, and events for
//! link credit stop and go, head-of-line blocking and packet transmission; one communication
//! record per packet and link crossed. An observer of the engine (`net::observe`): it reads the
//! registers after every cycle a node is stepped and records only changes, so a run with the
//! view gives the same simulated cycles and statistics as one without (a test).
//!
//! ```text
//!   application "network"
//!     task k < N      router k       threads: inter-tile port 0..P ("+X", "-X", ..., "local to
//!                                    router 3", "global to group 5"), then terminal 0..T
//!     task N + e      NIC e          thread: its port (to terminal t of its router)
//!   resource model: one Paraver node per network node (its router and NICs), one CPU each
//! ```
//!
//! Times are cycles of the network clock, integers (Minkenberg and Rodriguez 2008 §4.1's float round-off cannot
//! arise); a value observed after cycle `c` holds from `c + 1` (`observe.rs`).
//!
//! **States**: a port's backlog in words (header, payload and footer words of every packet
//! FIFO behind the port, all VCs), divided by [`NetViewParams::quantum_words`] and rounded
//! down; a state record spans the cycles its value holds. Seed 004 counts the backlog "per
//! input or per output port", configurably ([`Backlog`]); each FIFO is counted at exactly one
//! port:
//!
//! | FIFO | `input` | `output` |
//! |---|---|---|
//! | inter-tile RX FIFOs of port q (TCL RX writes, gates read) | router port q | (the neighbour's port, as its TX FIFOs) |
//! | inter-tile TX FIFOs of port q (crossbar writes, TCL TX reads) | (the neighbour's port, as its RX FIFOs) | router port q |
//! | intra-tile TX FIFO of terminal t (NIC writes, gate reads) | router terminal t | NIC |
//! | intra-tile RX FIFO of terminal t (crossbar writes, NIC reads) | NIC | router terminal t |
//!
//! The NIC's software queue (packets the application has handed over and not yet written) is
//! no buffer of the network and is not shown.
//!
//! **Events** (type numbers [`EV_CREDIT_STOP`] ...; the `.pcf` names every type and value):
//! - credit stop / go, on the sending port's thread, value VC + 1: a packet waits for that VC
//!   of the link and its credit does not cover the packet, and no longer (`credit.rs` gives
//!   the definition);
//! - head-of-line blocking start / end, on the thread of the port the blocked input buffer
//!   belongs to, value VC + 1 (`hol.rs` gives the definition); a start also carries the port
//!   its head waits for and the port the packet behind could take (values: router thread + 1);
//! - packet transmission start / end, on the thread of the port the packet leaves by, value the
//!   packet's id (1 + source endpoint x 2^28 + its sequence number, from the footer): a router
//!   port from the MAGIC before the header to the footer's last beat on the link; a router
//!   terminal from the NIC's pop of the header to its pop of the footer; a NIC from its write of
//!   the header to its write of the footer. The id is known at the footer, so both are written
//!   then; a transmission the run's end cuts has neither.
//!
//! **Communications** (Table 1, "one communication record for each link traversal"): sender
//! the router port the packet leaves by, receiver the peer port of the next router; logical
//! send = the header written into the sender's TX FIFO, physical send = its MAGIC on the link,
//! logical receive = the header written into the receiver's RX FIFO, physical receive = the
//! footer written there; size the packet's payload bytes, tag its id.
//!
//! Choices the sources leave open: docs/decisions/0022-paraver-network-view.md.

use super::paraver::{Appl, Comm, Event, EventType, Node, Obj, State, StateLabel, Task, Thread};
use super::paraver::{TimeUnit, Trace};
use super::{credit, hol};
use crate::link::tcl_tx::{K_FTR, K_HDR};
use crate::net::adapter::NodeRouting;
use crate::net::engine::Network;
use crate::net::nic::footer_id;
use crate::net::node::NetNode;
use crate::net::observe::NodeObserver;
use crate::net::topology::{PortClass, Topology};
use crate::packet::layout::HDR_SIZE;
use crate::router::params::{RouterCfg, Slot};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

/// Event types of the network view (a range of its own, apart from the rank timeline's).
pub const EV_CREDIT_STOP: u32 = 70_000_001;
pub const EV_CREDIT_GO: u32 = 70_000_002;
pub const EV_HOL_START: u32 = 70_000_003;
pub const EV_HOL_END: u32 = 70_000_004;
pub const EV_TX_START: u32 = 70_000_005;
pub const EV_TX_END: u32 = 70_000_006;
/// With a HOL start: the port (router thread + 1) the blocked head waits for.
pub const EV_HOL_WAITS_FOR: u32 = 70_000_007;
/// With a HOL start: the port (router thread + 1) the packet behind the head could take.
pub const EV_HOL_COULD_GO: u32 = 70_000_008;

/// Where a port's backlog is counted (Minkenberg and Rodriguez 2008 §4.2: "configurable is whether the backlog
/// should be counted per input or per output port").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Backlog {
    /// At the port its words came in by (the input buffers; where head-of-line blocking is).
    Input,
    /// At the port its words leave by.
    Output,
}

/// How the network view quantises and counts backlog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetViewParams {
    /// Words a state step: a state value is the backlog in words divided by this, rounded down
    /// (`--paraver-quantum`). Default 16: a 256-byte payload. 1 to 65,536.
    pub quantum_words: u32,
    /// Input or output backlog (`--paraver-backlog`). Default input.
    pub backlog: Backlog,
}

impl Default for NetViewParams {
    fn default() -> Self {
        NetViewParams {
            quantum_words: DEFAULT_QUANTUM_WORDS,
            backlog: Backlog::Input,
        }
    }
}

/// The default quantum, words.
pub const DEFAULT_QUANTUM_WORDS: u32 = 16;

impl NetViewParams {
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=65_536).contains(&self.quantum_words) {
            return Err(format!(
                "--paraver-quantum {}: the backlog quantum is 1 to 65536 words",
                self.quantum_words
            ));
        }
        Ok(())
    }
}

/// A packet's id in the view: 1 + source endpoint x 2^28 + its sequence number (0: a footer
/// that names no endpoint, which lossless links never carry).
pub fn packet_id(topo: &dyn Topology, ftr: u128) -> i64 {
    let f = footer_id(topo, ftr);
    if f.src == usize::MAX {
        return 0;
    }
    1 + ((f.src as i64) << 28 | f.seq as i64)
}

/// Name of inter-tile port `q` of `node`: the direction on a torus or mesh, the far router or
/// group on a dragonfly, the far router on a graph.
pub fn port_name(t: &dyn Topology, node: usize, q: usize) -> String {
    match t.port_class(node, q) {
        PortClass::Dim { dim, plus } => dim_name(dim, plus),
        PortClass::Local { router } => format!("local to router {router}"),
        PortClass::Global { group } => format!("global to group {group}"),
        PortClass::Link { peer } => format!("link to router {peer}"),
    }
}

fn dim_name(dim: u8, plus: bool) -> String {
    let axis = ["X", "Y", "Z"].get(dim as usize).copied().unwrap_or("?");
    format!("{}{axis}", if plus { '+' } else { '-' })
}

/// The class of inter-tile port `q` (the same for every node): a direction, `local` or
/// `global`.
pub fn port_class(t: &dyn Topology, q: usize) -> String {
    match t.port_class(0, q) {
        PortClass::Dim { dim, plus } => dim_name(dim, plus),
        PortClass::Local { .. } => "local".into(),
        PortClass::Global { .. } => "global".into(),
        PortClass::Link { .. } => format!("port {q}"),
    }
}

/// The name of router thread `k` as a value of the HOL port events (the same for every
/// router): `+X`, `local port 2`, `terminal 0`.
fn router_thread_label(t: &dyn Topology, k: usize) -> String {
    let p = t.ports();
    if k >= p {
        return format!("terminal {}", k - p);
    }
    match t.port_class(0, k) {
        PortClass::Dim { dim, plus } => dim_name(dim, plus),
        PortClass::Local { .. } => format!("local port {k}"),
        PortClass::Global { .. } => format!("global port {k}"),
        PortClass::Link { .. } => format!("port {k}"),
    }
}

fn router_name(t: &dyn Topology, node: usize) -> String {
    let a = t.addr(node);
    match t.shape() {
        Some(s) => {
            let c: Vec<String> = a[..s.size.len()].iter().map(|x| x.to_string()).collect();
            format!("router {node} ({})", c.join(","))
        }
        None if t.dragonfly().is_some() => {
            format!("router {node} (group {} router {})", a[1], a[0])
        }
        None => format!("router {node}"),
    }
}

/// The packet a port is sending: when it started, its logical send, size and id (once known).
#[derive(Debug, Clone, Copy)]
struct Sending {
    start: u64,
    log_send: u64,
    size: u32,
    id: Option<i64>,
}

/// What the view remembers of one node between cycles.
#[derive(Debug, Clone)]
struct NodeView {
    /// Per thread (router threads, then this node's NICs): the state value and since when.
    fill: Vec<(u32, u64)>,
    /// Per inter-tile port: bit v set while VC v is stopped.
    stop: Vec<u8>,
    /// Bit s: input slot s is head-of-line blocked.
    hol: u64,
    /// Per inter-tile port: the packet its TCL TX is sending.
    tx: Vec<Option<Sending>>,
    /// Per inter-tile port and VC: cycles headers were written into the TX FIFO, not yet sent.
    tx_hdrs: Vec<VecDeque<u64>>,
    /// Per inter-tile port: the TCL RX's packet count, and the header it is writing (cycle,
    /// payload bytes).
    rx_pkts: Vec<u32>,
    rx_hdr: Vec<Option<(u64, u32)>>,
    /// Per terminal: the cycle the NIC wrote a header (its writer), popped one (its reader).
    nic_w: Vec<Option<u64>>,
    nic_r: Vec<Option<u64>>,
}

/// One half of a link crossing, waiting for the other: (sender's obj, logical and physical
/// send, size) or (receiver's obj, logical and physical receive).
type SendHalf = (Obj, u64, u64, u32);
type RecvHalf = (Obj, u64, u64);

/// The network view: attach it to a network before the run (`attach`), take it back after
/// (`detach`), and turn it into a Paraver trace (`trace`).
pub struct NetView {
    params: NetViewParams,
    topo: Arc<dyn Topology>,
    /// The routers' credit flavour and TRED, for the arbiter's room test.
    router_cfg: RouterCfg,
    routes: Vec<NodeRouting>,
    nodes: Vec<NodeView>,
    num_vcs: u32,
    states: Vec<State>,
    events: Vec<Event>,
    comms: Vec<Comm>,
    /// Link crossings seen at one end only, by (receiving node, port, packet id).
    sends: HashMap<(u32, u8, i64), SendHalf>,
    recvs: HashMap<(u32, u8, i64), RecvHalf>,
    max_state: u32,
    freq_mhz: f64,
}

impl NetView {
    /// A view of `net` (at cycle 0: the view starts from the reset state) with `params`;
    /// `freq_mhz`: the clock the trace's cycles are of.
    pub fn new(net: &Network, params: NetViewParams, freq_mhz: f64) -> Result<NetView, String> {
        params.validate()?;
        if net.cycle != 0 {
            return Err(format!(
                "the network view starts from the reset state; the network is at cycle {}",
                net.cycle
            ));
        }
        let topo = net.topo.clone();
        let routing = net.routing.clone();
        let lp = net.link_params();
        let (p, t) = (topo.ports(), topo.terminals());
        let nv = net.nodes.first().map_or(1, |n| n.dp.router.p.num_vcs);
        let routes = net
            .nodes
            .iter()
            .map(|n| NodeRouting::new(topo.clone(), routing.clone(), n.id, &n.dp.router.p))
            .collect();
        let view = NodeView {
            fill: vec![(0, 0); p + 2 * t],
            stop: vec![0; p],
            hol: 0,
            tx: vec![None; p],
            tx_hdrs: vec![VecDeque::new(); p * nv as usize],
            rx_pkts: vec![0; p],
            rx_hdr: vec![None; p],
            nic_w: vec![None; t],
            nic_r: vec![None; t],
        };
        Ok(NetView {
            params,
            router_cfg: RouterCfg {
                usedword: lp.cfg.usedword,
                tred: lp.cfg.tred,
                ..Default::default()
            },
            routes,
            nodes: vec![view; net.nodes.len()],
            num_vcs: nv,
            states: Vec::new(),
            events: Vec::new(),
            comms: Vec::new(),
            sends: HashMap::new(),
            recvs: HashMap::new(),
            max_state: 0,
            freq_mhz,
            topo,
        })
    }

    /// Attach a new view to `net` (see [`NetView::new`]).
    pub fn attach(net: &mut Network, params: NetViewParams, freq_mhz: f64) -> Result<(), String> {
        let v = NetView::new(net, params, freq_mhz)?;
        net.observe(Box::new(v));
        Ok(())
    }

    /// Take the view attached by [`NetView::attach`] back from `net`.
    pub fn detach(net: &mut Network) -> Option<NetView> {
        let o: Box<dyn std::any::Any> = net.take_observer()?;
        o.downcast::<NetView>().ok().map(|b| *b)
    }

    /// The task of router `node` / of the NIC of endpoint `e`.
    fn router_task(&self, node: usize) -> u32 {
        node as u32
    }
    fn nic_task(&self, node: usize, terminal: usize) -> u32 {
        (self.nodes.len() + self.topo.endpoint_index(node, terminal)) as u32
    }

    fn obj(task: u32, thread: usize) -> Obj {
        Obj {
            appl: 0,
            task,
            thread: thread as u32,
        }
    }

    fn event(&mut self, obj: Obj, time: u64, events: Vec<(u32, i64)>) {
        self.events.push(Event { obj, time, events });
    }

    /// A port finished sending a packet: both transmission events, from start to `end`.
    fn transmitted(&mut self, obj: Obj, start: u64, end: u64, id: i64) {
        self.event(obj, start, vec![(EV_TX_START, id)]);
        self.event(obj, end, vec![(EV_TX_END, id)]);
    }

    /// The router thread of the port output or input slot `s` belongs to.
    fn slot_thread(&self, s: Slot) -> usize {
        match s {
            Slot::Intra(t) => self.topo.ports() + t as usize,
            Slot::Inter(q, _) => q as usize,
        }
    }

    /// The backlog of every thread of `n` in words (router threads, then its NICs').
    fn backlogs(&self, n: &NetNode, out: &mut Vec<u32>) {
        let r = &n.dp.router;
        let (p, t, nv) = (self.topo.ports(), self.topo.terminals(), self.num_vcs);
        let words = |f: &crate::pktfifo::PktFifo| f.hf.usedw() + f.pay.usedw();
        let ins = |s: u32| words(&r.ins[s as usize].fifo);
        let outs = |s: u32| r.outs[s as usize].as_ref().map_or(0, |o| words(&o.fifo));
        let input = self.params.backlog == Backlog::Input;
        out.clear();
        for q in 0..p as u32 {
            let slots = (0..nv).map(|v| r.p.inter_slot(q, v));
            out.push(if input {
                slots.map(ins).sum()
            } else {
                slots.map(outs).sum()
            });
        }
        for k in 0..t as u32 {
            let s = r.p.intra_slot(k);
            out.push(if input { ins(s) } else { outs(s) });
        }
        for k in 0..t as u32 {
            let s = r.p.intra_slot(k);
            out.push(if input { outs(s) } else { ins(s) });
        }
    }
}

impl NodeObserver for NetView {
    fn stepped(&mut self, n: &NetNode, cycle: u64) {
        let t = cycle + 1;
        let id = n.id;
        let (np, nt) = (self.topo.ports(), self.topo.terminals());
        let rt = self.router_task(id);
        // ---- states: backlog, quantised ----
        let mut b = Vec::with_capacity(np + 2 * nt);
        self.backlogs(n, &mut b);
        let q = self.params.quantum_words;
        for (k, w) in b.iter().enumerate() {
            let v = w / q;
            let (cur, since) = self.nodes[id].fill[k];
            if v != cur {
                let obj = if k < np + nt {
                    Self::obj(rt, k)
                } else {
                    Self::obj(self.nic_task(id, k - np - nt), 0)
                };
                if t > since {
                    self.states.push(State {
                        obj,
                        begin: since,
                        end: t,
                        state: cur,
                    });
                }
                self.nodes[id].fill[k] = (v, t);
                self.max_state = self.max_state.max(v);
            }
        }
        // ---- links: credit, transmissions, crossings ----
        let starved = credit::starved_outputs(n, &self.router_cfg);
        let vcs = (1u64 << self.num_vcs) - 1;
        for (qi, port, _) in n.wired() {
            let obj = Self::obj(rt, qi);
            let tx = &port.tcl.tx;
            let stop = (starved >> n.dp.router.p.inter_slot(qi as u32, 0) & vcs) as u8;
            let was = self.nodes[id].stop[qi];
            if stop != was {
                for v in 0..self.num_vcs as u8 {
                    let bit = 1u8 << v;
                    if (stop ^ was) & bit != 0 {
                        let ty = if stop & bit != 0 {
                            EV_CREDIT_STOP
                        } else {
                            EV_CREDIT_GO
                        };
                        self.event(obj, t, vec![(ty, v as i64 + 1)]);
                    }
                }
                self.nodes[id].stop[qi] = stop;
            }
            // headers written into the TX FIFOs (the logical send of Table 1)
            for v in 0..self.num_vcs {
                let s = n.dp.router.p.inter_slot(qi as u32, v);
                if let Some(o) = &n.dp.router.outs[s as usize] {
                    if o.r.owr_valid && o.r.owr_hf && !o.r.owr_last {
                        self.nodes[id].tx_hdrs[qi * self.num_vcs as usize + v as usize]
                            .push_back(t);
                    }
                }
            }
            let vc = tx.vc as u32;
            let head = n.dp.router.inter_tx(qi as u32, vc).hf.rdata();
            match self.nodes[id].tx[qi] {
                None if tx.pkt => {
                    let log_send = self.nodes[id].tx_hdrs[qi * self.num_vcs as usize + vc as usize]
                        .pop_front()
                        .unwrap_or(t);
                    self.nodes[id].tx[qi] = Some(Sending {
                        start: t,
                        log_send,
                        size: 0,
                        id: None,
                    });
                }
                Some(mut s) if tx.pkt && tx.half && tx.hf_rd != 0 => {
                    // a header or footer word's low half loaded: the word is still at the
                    // FIFO's head (the TCL's pop is registered)
                    if tx.kind == K_HDR {
                        s.size = HDR_SIZE.get(head) as u32;
                    } else if tx.kind == K_FTR {
                        s.id = Some(packet_id(self.topo.as_ref(), head));
                    }
                    self.nodes[id].tx[qi] = Some(s);
                }
                Some(_) if tx.pkt => {}
                Some(s) => {
                    // the footer's last beat has gone
                    self.nodes[id].tx[qi] = None;
                    let pid = s.id.unwrap_or(0);
                    self.transmitted(obj, s.start, t, pid);
                    if let Some((m, r)) = self.topo.link(id, qi) {
                        let key = (m as u32, r as u8, pid);
                        match self.recvs.remove(&key) {
                            Some((robj, lr, pr)) => self.comms.push(Comm {
                                send: obj,
                                log_send: s.log_send,
                                phys_send: s.start,
                                recv: robj,
                                log_recv: lr,
                                phys_recv: pr,
                                size: s.size as u64,
                                tag: pid,
                            }),
                            None => {
                                self.sends.insert(key, (obj, s.log_send, s.start, s.size));
                            }
                        }
                    }
                }
                None => {}
            }
            // the TCL RX's writes into the RX FIFOs
            let rx = &port.tcl.rx;
            if rx.stat_pkts != self.nodes[id].rx_pkts[qi] {
                self.nodes[id].rx_pkts[qi] = rx.stat_pkts;
                let pid = packet_id(self.topo.as_ref(), rx.wr_data);
                let (lr, _) = self.nodes[id].rx_hdr[qi].take().unwrap_or((t, 0));
                let key = (id as u32, qi as u8, pid);
                match self.sends.remove(&key) {
                    Some((sobj, ls, ps, size)) => self.comms.push(Comm {
                        send: sobj,
                        log_send: ls,
                        phys_send: ps,
                        recv: obj,
                        log_recv: lr,
                        phys_recv: t,
                        size: size as u64,
                        tag: pid,
                    }),
                    None => {
                        self.recvs.insert(key, (obj, lr, t));
                    }
                }
            } else if rx.wr_valid && rx.wr_hf {
                self.nodes[id].rx_hdr[qi] = Some((t, HDR_SIZE.get(rx.wr_data) as u32));
            }
        }
        // ---- NICs: writes into the TX FIFO, pops from the RX FIFO ----
        for (k, nic) in n.nics.iter().enumerate() {
            if nic.wr_hf {
                match self.nodes[id].nic_w[k].take() {
                    None => self.nodes[id].nic_w[k] = Some(t),
                    Some(start) => {
                        let pid = packet_id(self.topo.as_ref(), nic.wdata);
                        let obj = Self::obj(self.nic_task(id, k), 0);
                        self.transmitted(obj, start, t, pid);
                    }
                }
            }
            if nic.rd_hf {
                match self.nodes[id].nic_r[k].take() {
                    None => self.nodes[id].nic_r[k] = Some(t),
                    Some(start) => {
                        let w = n.dp.router.intra_rx(k as u32).map_or(0, |f| f.hf.rdata());
                        let pid = packet_id(self.topo.as_ref(), w);
                        self.transmitted(Self::obj(rt, np + k), start, t, pid);
                    }
                }
            }
        }
        // ---- head-of-line blocking ----
        let mut hol = 0u64;
        let mut starts = Vec::new();
        for s in 0..n.dp.router.p.slots() {
            if let Some(bl) = hol::blocked(n, &self.router_cfg, &self.routes[id], s) {
                hol |= 1 << s;
                if self.nodes[id].hol >> s & 1 == 0 {
                    starts.push((s, bl));
                }
            }
        }
        let was = self.nodes[id].hol;
        if hol != was {
            let p = n.dp.router.p.clone();
            for (s, bl) in starts {
                let sl = p.slot(s);
                let vc = match sl {
                    Slot::Inter(_, v) => v as i64,
                    Slot::Intra(_) => 0,
                };
                let a = self.slot_thread(p.slot(bl.waits_for)) as i64 + 1;
                let c = self.slot_thread(p.slot(bl.could_go)) as i64 + 1;
                let obj = Self::obj(rt, self.slot_thread(sl));
                self.event(
                    obj,
                    t,
                    vec![
                        (EV_HOL_START, vc + 1),
                        (EV_HOL_WAITS_FOR, a),
                        (EV_HOL_COULD_GO, c),
                    ],
                );
            }
            let mut ended = was & !hol;
            while ended != 0 {
                let s = ended.trailing_zeros();
                ended &= ended - 1;
                let sl = p.slot(s);
                let vc = match sl {
                    Slot::Inter(_, v) => v as i64,
                    Slot::Intra(_) => 0,
                };
                let obj = Self::obj(rt, self.slot_thread(sl));
                self.event(obj, t, vec![(EV_HOL_END, vc + 1)]);
            }
            self.nodes[id].hol = hol;
        }
    }
}

impl NetView {
    /// The Paraver trace of the run so far, ending at cycle `end` (the network's cycle): every
    /// state closed at `end`, the objects named, every state value and event type named.
    pub fn trace(&self, end: u64) -> Trace {
        let topo = self.topo.as_ref();
        let (np, nt) = (topo.ports(), topo.terminals());
        let mut tr = Trace::new(TimeUnit::Cycles {
            freq_mhz: self.freq_mhz,
        });
        tr.end = end;
        let n = self.nodes.len();
        let mut tasks = Vec::with_capacity(n + topo.endpoints());
        for node in 0..n {
            let rn = router_name(topo, node);
            tr.nodes.push(Node {
                name: format!("node {node}"),
                cpus: vec![format!("node {node} cpu")],
            });
            let mut threads: Vec<Thread> = (0..np)
                .map(|q| Thread {
                    name: match topo.link(node, q) {
                        Some(_) => format!("{rn} port {}", port_name(topo, node, q)),
                        None => format!("{rn} port {} (unwired)", port_name(topo, node, q)),
                    },
                    cpu: None,
                })
                .collect();
            threads.extend((0..nt).map(|k| Thread {
                name: format!("{rn} terminal {k}"),
                cpu: None,
            }));
            tasks.push(Task {
                name: rn,
                node: node as u32,
                threads,
            });
        }
        for e in 0..topo.endpoints() {
            let (node, k) = topo.endpoint(e);
            tasks.push(Task {
                name: format!("NIC {e}"),
                node: node as u32,
                threads: vec![Thread {
                    name: format!("NIC {e} port (router {node} terminal {k})"),
                    cpu: None,
                }],
            });
        }
        tr.appls.push(Appl {
            name: "network".into(),
            tasks,
        });
        tr.states = self.states.clone();
        for (node, v) in self.nodes.iter().enumerate() {
            for (k, &(state, since)) in v.fill.iter().enumerate() {
                let obj = if k < np + nt {
                    Self::obj(self.router_task(node), k)
                } else {
                    Self::obj(self.nic_task(node, k - np - nt), 0)
                };
                if end > since {
                    tr.states.push(State {
                        obj,
                        begin: since,
                        end,
                        state,
                    });
                }
            }
        }
        tr.events = self.events.clone();
        tr.comms = self.comms.clone();
        tr.state_labels = state_labels(self.max_state, self.params.quantum_words);
        tr.event_types = event_types(topo, self.num_vcs);
        tr
    }

    /// The parameters the view was made with.
    pub fn params(&self) -> NetViewParams {
        self.params
    }
}

/// Names and colours of state values 0..=max: a range of words, light (empty) to dark (full).
fn state_labels(max: u32, q: u32) -> BTreeMap<u32, StateLabel> {
    (0..=max)
        .map(|v| {
            let name = if q == 1 {
                format!("{v} words")
            } else {
                format!(
                    "{} to {} words",
                    v as u64 * q as u64,
                    (v as u64 + 1) * q as u64 - 1
                )
            };
            // from pale yellow through orange to dark red as the backlog grows
            let f = if max == 0 { 0.0 } else { v as f64 / max as f64 };
            let color = if v == 0 {
                (230, 230, 230)
            } else {
                (
                    (255.0 - 115.0 * f) as u8,
                    (220.0 * (1.0 - f)) as u8,
                    (120.0 * (1.0 - f)) as u8,
                )
            };
            (v, StateLabel { name, color })
        })
        .collect()
}

/// Every event type of the view, with the names of its values where they are codes.
fn event_types(t: &dyn Topology, nv: u32) -> BTreeMap<u32, EventType> {
    let vcs: BTreeMap<i64, String> = (0..nv).map(|v| (v as i64 + 1, format!("VC {v}"))).collect();
    let ports: BTreeMap<i64, String> = (0..t.ports() + t.terminals())
        .map(|k| (k as i64 + 1, router_thread_label(t, k)))
        .collect();
    let named = |name: &str, values: &BTreeMap<i64, String>| EventType {
        name: name.to_string(),
        values: values.clone(),
    };
    let mut m = BTreeMap::new();
    m.insert(
        EV_CREDIT_STOP,
        named(
            "Credit stop (a packet waits for the VC, its credit short)",
            &vcs,
        ),
    );
    m.insert(
        EV_CREDIT_GO,
        named("Credit go (no packet waits for credit on the VC)", &vcs),
    );
    m.insert(
        EV_HOL_START,
        named("Head-of-line blocking start (input buffer of the VC)", &vcs),
    );
    m.insert(EV_HOL_END, named("Head-of-line blocking end", &vcs));
    m.insert(
        EV_HOL_WAITS_FOR,
        named("HOL: the blocked head waits for port", &ports),
    );
    m.insert(
        EV_HOL_COULD_GO,
        named("HOL: the packet behind could take port", &ports),
    );
    m.insert(
        EV_TX_START,
        named("Packet transmission start (packet id)", &BTreeMap::new()),
    );
    m.insert(
        EV_TX_END,
        named("Packet transmission end (packet id)", &BTreeMap::new()),
    );
    m
}
