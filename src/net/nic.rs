//! An endpoint's network interface in network-scale runs: the traffic source and sink on one
//! intra-tile port of a node (Pisani 2016 §3.4.2, "Consumer": a software queue in front of the
//! NIC's FIFOs, packets popped as soon as they show).
//!
//! ```text
//!   injector + pattern --> software queue --> writer --wr_hf/wr_pay/wdata--> intra-tile TX FIFOs
//!   statistics <-- reader <--rd_hf/rd_pay-- intra-tile RX FIFOs
//! ```
//!
//! Cycle contract (like the test-bench sources and consumers, `src/stimulus.rs`): the strobes are
//! registers. The writer writes one word a cycle (header, payload, footer) when the FIFO, counting
//! the write in flight, has room; a packet is *injected* in the cycle its header is written
//! (that cycle is in the header's `dst_addr`). The reader pops one word a cycle from each FIFO
//! while words show; a packet *arrives* in the cycle its footer is popped. Latency = arrival -
//! injection: network time only, not the software queue (Pisani 2016 §4.1). A generator's
//! packet also carries the cycle its software made it (payload word 0's high half), so the
//! sink knows its packet latency, software queue included (BookSim's "packet latency").
//!
//! What a packet carries (so a sink needs nothing from its source): header `dst_addr` = the
//! injection cycle, `pdid` = 1 for a probe packet (`window_books::PROBE_PDID`), else 0;
//! footer `src_x/y/z` = the source node's address, `chan_id` = sequence number bits 15:0,
//! `user` = sequence bits 27:16, source terminal (bits 30:28 of the sequence word), and the
//! probe tag (written, but the header's mark is the one read: SECDED protects it). Payload
//! word k of packet (source endpoint, seq) is a fixed mix of the two and k, so the sink can
//! check it; word 0's high half is the cycle the packet was made instead.

use super::topology::{Addr, Topology};
use super::traffic::{Injector, Pattern, SizeDist};
use super::window_books::PROBE_PDID;
use crate::app::api::Request;
use crate::app::endpoint::{AppEndpoint, NicPkt, NicRun};
use crate::app::envelope::{Envelope, ENVELOPE_BYTES};
use crate::link::tcl_rx::FTR_CRC_BAD_BIT;
use crate::packet::crc::{crc32c_update128, crc32c_update64, crc_start, CRC_INIT, CRC_XOROUT};
use crate::packet::layout::*;
use crate::packet::{payload_words, secded_encode};
use crate::pktfifo::PktFifo;
use crate::router::IntraIn;
use rand_mt::Mt64;
use std::collections::VecDeque;

/// What a NIC reads of its intra-tile port's FIFOs in a cycle: the TX FIFOs' write-side fill
/// and depths, and the RX FIFOs' visible words and the heads it pops (as the self-test IPs read
/// theirs, `node::selftest::GenFifoIn`). A value, taken from the FIFOs' registers of this cycle
/// before anything steps (`Nic::fifo_in`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NicFifoIn {
    pub tx_hf_usedw: u32,
    pub tx_pay_usedw: u32,
    pub tx_hf_depth: u32,
    pub tx_pay_depth: u32,
    /// None on a port without RX FIFOs.
    pub rx: Option<NicRxIn>,
}

/// The RX half of [`NicFifoIn`]: a head is read only in a cycle that pops it (0 otherwise).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NicRxIn {
    pub hf_rdata: u128,
    pub pay_rdata: u128,
    pub hf_rdusedw: u32,
    pub pay_rdusedw: u32,
}

/// The software on an endpoint that queues packets on its NIC and is told of their progress:
/// the application layer's ranks (`AppEndpoint`), or a co-simulation client's ranks seen from
/// the server (`serve::remote`). The NIC calls it, in cycle `c`: `arrive_from_network` for a
/// packet whose footer it popped at `c`; then `step(c)`, after which it queues `out`, in order;
/// then `written(.., c + 1)` for a packet whose footer its strobe writes at `c + 1`.
pub trait NicSoftware: Send + std::fmt::Debug {
    /// The first cycle from `now` on in which it has work without the network.
    fn due(&self, now: u64) -> u64;
    /// Run what is due at `cycle`; packets for the NIC go to `out`.
    fn step(&mut self, cycle: u64);
    /// Packets for the NIC's software queue, in order.
    fn out(&mut self) -> &mut VecDeque<NicRun>;
    /// The NIC wrote the footer of a packet of local rank `local`'s request `req` at `cycle`.
    fn written(&mut self, local: u32, req: Request, cycle: u64);
    /// A packet came through the network: injected at `injected`, its footer popped at `cycle`.
    fn arrive_from_network(&mut self, env: &Envelope, bytes: &[u8], injected: u64, cycle: u64);
    /// Something the NIC cannot hand over (a packet without an envelope).
    fn fail(&mut self, error: String);
    /// The application layer's ranks, when this is they.
    fn ranks(&self) -> Option<&AppEndpoint> {
        None
    }
}

/// A program's software on a NIC and its software queue: the packets of its messages, cut one
/// at a time as the writer takes them (`app/pktrun.rs`). The traffic generators and a program
/// never queue packets on one NIC (`attach_app` stops the generators), so the writer takes the
/// generators' queue first and this one when that is empty.
#[derive(Debug)]
struct AppNic {
    sw: Box<dyn NicSoftware>,
    queue: VecDeque<NicRun>,
}

impl AppNic {
    /// Packets waiting in the queue.
    fn queued(&self) -> u64 {
        self.queue.iter().map(|r| r.run.len()).sum()
    }
}

/// A packet waiting in the software queue, or the one being written.
#[derive(Debug, Clone)]
struct Pending {
    dst: usize,
    size: u32,
    probe: bool,
    /// The cycle the software made it (a generator's timestamp, carried in payload word 0).
    created: u64,
    /// An application packet (`src/app/`): its envelope and bytes, and the local rank sending it.
    app: Option<Box<NicPkt>>,
}

/// A packet delivered to this endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    /// The endpoint it arrived at.
    pub dst: usize,
    pub src: usize,
    pub seq: u32,
    pub size: u32,
    pub injected: u64,
    pub arrived: u64,
    pub probe: bool,
    /// A link's CRC check failed on the way.
    pub crc_bad: bool,
    /// 1 when the payload differs from what the source wrote (checked in check mode only).
    pub payload_errors: u32,
    /// The cycle the source's software made it (the generator's timestamp in payload word 0;
    /// None for an application's packet, or a stamp later than the injection: a damaged one).
    pub created: Option<u64>,
    /// The VC it arrived on (the header's at the last hop).
    pub vc: u8,
}

/// A packet injected (its header written into the TX FIFO).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Injection {
    pub dst: usize,
    pub size: u32,
    pub cycle: u64,
    pub probe: bool,
}

const W_IDLE: u8 = 0;

/// The NIC's registers and its software.
#[derive(Debug)]
pub struct Nic {
    pub endpoint: usize,
    addr: Addr,
    terminal: u8,
    rng: Mt64,
    injector: Option<Box<dyn Injector>>,
    probe: Option<(usize, Box<dyn Injector>)>,
    queue: VecDeque<Pending>,
    /// Packets the injector made that the pattern sent back to the source (not sent).
    pub self_addressed: u64,
    /// Payload bytes of each packet the injector or a replay made this cycle (queued to be
    /// sent, the node's cycle events take them: `NodeEvents::generated`).
    pub generated: Vec<u32>,
    /// The node is down (`net/faults.rs`): what the injector and the probe make is not sent,
    /// but counted in `muted_packets` (they never enter the network).
    pub muted: bool,
    pub muted_packets: u64,
    // writer
    pub wr_hf: bool,
    pub wr_pay: bool,
    pub wdata: u128,
    widx: u32,
    wcur: Option<Pending>,
    wwords: u32,
    wcrc: u32,
    seq: u32,
    // reader
    pub rd_hf: bool,
    pub rd_pay: bool,
    rstate: u8,
    rhdr: u128,
    rleft: u32,
    rk: u32,
    rcrc: u32,
    /// The timestamp of the packet being read (payload word 0's high half).
    rstamp: u64,
    check: bool,
    /// The software of this endpoint (`src/app/`, `src/serve/`) and its queue, when a program
    /// runs.
    app: Option<Box<AppNic>>,
    /// The payload words of the packet being read, for the application layer.
    rwords: Vec<u128>,
    /// Packets to queue at given cycles (cycle, destination endpoint, payload bytes): another
    /// run's packets replayed as synthetic traffic (`exanet bench app`).
    replay: VecDeque<(u64, usize, u32)>,
    /// When set, every packet the application layer queues is recorded here (cycle, destination
    /// endpoint, payload bytes), for a replay.
    pub record: Option<Vec<(u64, usize, u32)>>,
}

/// Reader states.
const R_HDR: u8 = 0;
const R_PAY: u8 = 1;
const R_FTR: u8 = 2;

/// Who sent a packet, read from its footer (see the module header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FooterId {
    /// The source endpoint; `usize::MAX` when the footer names none (a corrupted stream).
    pub src: usize,
    /// The source's sequence number (28 bits).
    pub seq: u32,
    pub probe: bool,
}

/// The source endpoint, sequence number and probe tag a footer carries. A footer that names no
/// endpoint gives `src = usize::MAX`, never a panic.
pub fn footer_id(t: &dyn Topology, ftr: u128) -> FooterId {
    let user = FTR_USER.get(ftr) as u32;
    let seq = FTR_CHAN_ID.get(ftr) as u32 | (user & 0xfff) << 16;
    let terminal = (user >> 12 & 7) as usize;
    let probe = user >> 15 & 1 == 1;
    let src_addr = [
        FTR_SRC_X.get(ftr) as u8,
        FTR_SRC_Y.get(ftr) as u8,
        FTR_SRC_Z.get(ftr) as u8,
    ];
    let src = t
        .node_at(src_addr)
        .filter(|_| terminal < t.terminals())
        .map_or(usize::MAX, |n| t.endpoint_index(n, terminal));
    FooterId { src, seq, probe }
}

/// Payload word `k` of packet (`src`, `seq`).
pub fn payload_word(src: usize, seq: u32, k: u32) -> u128 {
    let a = (src as u64) << 32 | seq as u64;
    let b = (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ a.rotate_left(17);
    (a as u128) << 64 | b as u128
}

/// Payload word `k` of a generator's packet (`src`, `seq`) made in cycle `created`: word 0
/// carries the timestamp in its high half (as a traffic generator stamps its packets), the
/// rest is [`payload_word`]'s.
pub fn stamped_word(src: usize, seq: u32, k: u32, created: u64) -> u128 {
    let w = payload_word(src, seq, k);
    if k == 0 {
        (created as u128) << 64 | (w as u64) as u128
    } else {
        w
    }
}

/// Payload word `k` of an application packet: the envelope, then the message bytes
/// (little-endian, zero-padded; zeros for a message sent as a length only).
fn app_word(a: &NicPkt, k: u32) -> u128 {
    if k == 0 {
        return a.pkt.env.pack();
    }
    let Some(d) = a.pkt.data.as_ref() else {
        return 0;
    };
    let from = (k as u64 - 1) * 16;
    let mut b = [0u8; 16];
    let n = (a.pkt.len as u64).saturating_sub(from).min(16) as usize;
    let at = (a.pkt.off + from) as usize;
    b[..n].copy_from_slice(&d[at..at + n]);
    u128::from_le_bytes(b)
}

impl Nic {
    /// Endpoint `endpoint` of `t`, its generators seeded from `seed` and the endpoint.
    pub fn new(
        t: &dyn Topology,
        endpoint: usize,
        seed: u64,
        injector: Option<Box<dyn Injector>>,
        probe: Option<(usize, Box<dyn Injector>)>,
        check: bool,
    ) -> Nic {
        let (node, terminal) = t.endpoint(endpoint);
        Nic {
            endpoint,
            addr: t.addr(node),
            terminal: terminal as u8,
            rng: Mt64::new(seed ^ (endpoint as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)),
            injector,
            probe,
            queue: VecDeque::new(),
            self_addressed: 0,
            generated: Vec::new(),
            muted: false,
            muted_packets: 0,
            wr_hf: false,
            wr_pay: false,
            wdata: 0,
            widx: W_IDLE as u32,
            wcur: None,
            wwords: 0,
            wcrc: CRC_INIT,
            seq: 0,
            rd_hf: false,
            rd_pay: false,
            rstate: R_HDR,
            rhdr: 0,
            rleft: 0,
            rk: 0,
            rcrc: CRC_INIT,
            rstamp: u64::MAX,
            check,
            app: None,
            rwords: Vec::new(),
            replay: VecDeque::new(),
            record: None,
        }
    }

    /// Queue these packets (cycle, destination endpoint, payload bytes; in cycle order) at
    /// their cycles, instead of the traffic generators' (which stop).
    pub fn replay(&mut self, packets: Vec<(u64, usize, u32)>) {
        debug_assert!(
            self.app.is_none(),
            "a replay on a NIC that runs an application"
        );
        self.injector = None;
        self.probe = None;
        self.replay = packets.into();
    }

    /// Run the application layer's ranks of this endpoint on this NIC: their packets replace
    /// the traffic generators, the payload check (which expects the generators' words) is off.
    pub fn attach_app(&mut self, app: Box<dyn NicSoftware>) {
        debug_assert!(
            self.replay.is_empty(),
            "an application on a NIC that replays"
        );
        self.injector = None;
        self.probe = None;
        self.check = false;
        self.app = Some(Box::new(AppNic {
            sw: app,
            queue: VecDeque::new(),
        }));
    }

    /// The application layer's ranks of this endpoint.
    pub fn app(&self) -> Option<&AppEndpoint> {
        self.app.as_ref().and_then(|a| a.sw.ranks())
    }

    /// The port's strobes this cycle (registers).
    pub fn outputs(&self) -> IntraIn {
        IntraIn {
            wr_hf: self.wr_hf,
            wr_pay: self.wr_pay,
            wdata: self.wdata,
            rd_hf: self.rd_hf,
            rd_pay: self.rd_pay,
        }
    }

    /// The first cycle from `now` on in which the NIC's generators may act (`Injector::next_due`).
    pub fn due(&self, now: u64) -> u64 {
        let a = self.injector.as_ref().map_or(u64::MAX, |i| i.next_due(now));
        let b = self
            .probe
            .as_ref()
            .map_or(u64::MAX, |(_, i)| i.next_due(now));
        let c = self.app.as_ref().map_or(u64::MAX, |x| x.sw.due(now));
        let d = self.replay.front().map_or(u64::MAX, |r| r.0.max(now));
        a.min(b).min(c).min(d)
    }

    /// Inject no more packets: the injection process and the probe stop, and the packets
    /// waiting in the software queue are discarded (they never entered the network; the one
    /// being written is finished). Returns how many were discarded.
    pub fn stop_injecting(&mut self) -> usize {
        self.injector = None;
        self.probe = None;
        let n = self.queued() - self.wcur.is_some() as u64;
        self.queue.clear();
        if let Some(a) = self.app.as_mut() {
            a.queue.clear();
        }
        n as usize
    }

    /// The node goes down (`muted`: its software stops sending; the packets waiting in its
    /// queue are counted in `muted_packets`, the one being written is finished) or comes back.
    pub fn mute(&mut self, muted: bool) {
        if muted && !self.muted {
            self.muted_packets += self.queued() - self.wcur.is_some() as u64;
            self.queue.clear();
            if let Some(a) = self.app.as_mut() {
                a.queue.clear();
            }
        }
        self.muted = muted;
    }

    /// Packets waiting in the software queue (the one being written included).
    pub fn queued(&self) -> u64 {
        self.queue.len() as u64
            + self.app.as_ref().map_or(0, |a| a.queued())
            + self.wcur.is_some() as u64
    }

    /// Nothing to write, nothing being read, nothing generated this cycle by a process that
    /// draws no random number: the engine's idle check.
    pub fn idle(&self) -> bool {
        self.wcur.is_none()
            && self.queue.is_empty()
            && self.app.as_ref().is_none_or(|a| a.queue.is_empty())
            && !self.wr_hf
            && !self.wr_pay
            && !self.rd_hf
            && !self.rd_pay
            && self.rstate == R_HDR
    }

    /// What the NIC reads of its port's FIFOs this cycle (`NicFifoIn`), from the FIFOs'
    /// registers of this cycle: `tx` the port's TX FIFO, `rx` its RX FIFO.
    pub fn fifo_in(&self, tx: &PktFifo, rx: Option<&PktFifo>) -> NicFifoIn {
        NicFifoIn {
            tx_hf_usedw: tx.hf.usedw(),
            tx_pay_usedw: tx.pay.usedw(),
            tx_hf_depth: tx.hf.params().depth,
            tx_pay_depth: tx.pay.params().depth,
            rx: rx.map(|f| NicRxIn {
                // the heads only when popped: an empty FIFO's memory is not read
                hf_rdata: if self.rd_hf { f.hf.rdata() } else { 0 },
                pay_rdata: if self.rd_pay { f.pay.rdata() } else { 0 },
                hf_rdusedw: f.hf.rdusedw(),
                pay_rdusedw: f.pay.rdusedw(),
            }),
        }
    }

    /// One cycle. `fifo`: what it reads of its port's FIFOs (`fifo_in`, registers of this
    /// cycle). Returns the injection (header written this cycle) and the arrival (footer popped
    /// this cycle), if any.
    pub fn step(
        &mut self,
        t: &dyn Topology,
        pattern: &dyn Pattern,
        sizes: &SizeDist,
        fifo: &NicFifoIn,
        cycle: u64,
        size_in_words: bool,
    ) -> (Option<Injection>, Option<Arrival>) {
        // What the strobes of this cycle do.
        let injected = (self.wr_hf && self.widx == 1).then(|| {
            let p = self.wcur.as_ref().expect("a packet is being written");
            Injection {
                dst: p.dst,
                size: p.size,
                cycle,
                probe: p.probe,
            }
        });
        let arrival = self.read(t, fifo.rx.as_ref(), cycle, size_in_words);
        // Software: generate into the queue.
        if let Some(inj) = self.injector.as_mut() {
            let n = inj.tick(cycle, &mut self.rng);
            for _ in 0..n {
                let dst = pattern.dest(t, self.endpoint, &mut self.rng);
                let size = sizes.sample(&mut self.rng);
                if dst == self.endpoint {
                    self.self_addressed += 1;
                } else if self.muted {
                    self.muted_packets += 1;
                } else {
                    self.generated.push(size);
                    self.queue.push_back(Pending {
                        dst,
                        size,
                        probe: false,
                        created: cycle,
                        app: None,
                    });
                }
            }
        }
        if let Some((dst, inj)) = self.probe.as_mut() {
            for _ in 0..inj.tick(cycle, &mut self.rng) {
                if self.muted {
                    self.muted_packets += 1;
                    continue;
                }
                self.queue.push_back(Pending {
                    dst: *dst,
                    size: crate::net::traffic::MIN_SIZE,
                    probe: true,
                    created: cycle,
                    app: None,
                });
            }
        }
        if let (Some(a), Some(inj)) = (arrival.as_ref(), self.injector.as_mut()) {
            if !a.probe {
                inj.delivered(cycle);
            }
        }
        while self.replay.front().is_some_and(|r| r.0 <= cycle) {
            let (_, dst, size) = self.replay.pop_front().expect("checked");
            self.generated.push(size);
            self.queue.push_back(Pending {
                dst,
                size,
                probe: false,
                created: cycle,
                app: None,
            });
        }
        if let Some(a) = self.app.as_mut() {
            a.sw.step(cycle);
            for r in a.sw.out().drain(..) {
                if let Some(rec) = self.record.as_mut() {
                    rec.extend(r.run.sizes().map(|s| (cycle, r.endpoint as usize, s)));
                }
                if !r.run.is_empty() {
                    a.queue.push_back(r);
                }
            }
        }
        self.write(t, fifo, cycle, size_in_words);
        (injected, arrival)
    }

    /// The next packet of the application's run at the head of its queue.
    #[inline(never)]
    fn take_app(&mut self) -> Option<Pending> {
        let a = self.app.as_mut()?;
        let r = a.queue.front_mut()?;
        let pkt = r.run.pop().expect("a queued run holds a packet");
        let (endpoint, from_local) = (r.endpoint, r.from_local);
        if r.run.is_empty() {
            a.queue.pop_front();
        }
        Some(Pending {
            dst: endpoint as usize,
            size: pkt.size(),
            probe: false,
            created: 0,
            app: Some(Box::new(NicPkt {
                endpoint,
                pkt,
                from_local,
            })),
        })
    }

    /// The writer: the next cycle's strobe.
    fn write(&mut self, t: &dyn Topology, tx: &NicFifoIn, cycle: u64, siw: bool) {
        let (was_hf, was_pay) = (self.wr_hf, self.wr_pay);
        self.wr_hf = false;
        self.wr_pay = false;
        self.wdata = 0;
        if self.wcur.is_none() {
            // a generator's packet, or the application's next
            self.wcur = match self.queue.pop_front() {
                Some(p) => Some(p),
                None => self.take_app(),
            };
            self.widx = 0;
            if self.wcur.is_none() {
                return;
            }
        }
        let p = self.wcur.as_ref().expect("checked above");
        let (p_dst, p_size, p_probe, p_created) = (p.dst, p.size, p.probe, p.created);
        let words = self.wwords;
        let is_hf = self.widx == 0 || self.widx == words + 1;
        let (usedw, depth, in_flight) = if is_hf {
            (tx.tx_hf_usedw, tx.tx_hf_depth, was_hf)
        } else {
            (tx.tx_pay_usedw, tx.tx_pay_depth, was_pay)
        };
        if usedw + in_flight as u32 >= depth {
            return;
        }
        let seq = self.seq;
        if self.widx == 0 {
            let (node, terminal) = t.endpoint(p_dst);
            let a = t.addr(node);
            let mut h = 0u128;
            h = HDR_SIZE.set(h, p_size as u64);
            h = HDR_DST_X.set(h, a[0] as u64);
            h = HDR_DST_Y.set(h, a[1] as u64);
            h = HDR_DST_Z.set(h, a[2] as u64);
            h = HDR_DST_PORT.set(h, terminal as u64);
            // injected in the next cycle, when this strobe writes it
            h = HDR_DST_ADDR.set(h, cycle + 1);
            // probes travel in a protection domain of their own, so that every hop tells
            // them from the measured traffic (`window_books.rs`)
            h = HDR_PDID.set(h, if p_probe { PROBE_PDID } else { 0 });
            let h = secded_encode(h);
            self.wwords = payload_words(h, siw);
            self.wr_hf = true;
            self.wdata = h;
            self.wcrc = crc_start(h);
            self.widx = 1;
        } else if self.widx <= words {
            let w = match &p.app {
                Some(a) => app_word(a, self.widx - 1),
                None => stamped_word(self.endpoint, seq, self.widx - 1, p_created),
            };
            self.wr_pay = true;
            self.wdata = w;
            self.wcrc = crc32c_update128(self.wcrc, w);
            self.widx += 1;
        } else {
            let mut lo = 0u128;
            lo = FTR_CHAN_ID.set(lo, (seq & 0xffff) as u64);
            lo = FTR_USER.set(
                lo,
                ((seq >> 16) & 0xfff) as u64
                    | (self.terminal as u64) << 12
                    | (p_probe as u64) << 15,
            );
            lo = FTR_SRC_X.set(lo, self.addr[0] as u64);
            lo = FTR_SRC_Y.set(lo, self.addr[1] as u64);
            lo = FTR_SRC_Z.set(lo, self.addr[2] as u64);
            let crc = crc32c_update64(self.wcrc, lo as u64) ^ CRC_XOROUT;
            self.wr_hf = true;
            self.wdata = FTR_CRC.set(lo, crc as u64);
            if let Some(a) = self.wcur.take().and_then(|p| p.app) {
                if let (Some(q), Some(app)) = (a.pkt.req, self.app.as_mut()) {
                    // the footer is written by this strobe, in the next cycle
                    app.sw.written(a.from_local, q, cycle + 1);
                }
            }
            self.seq = seq.wrapping_add(1);
        }
    }

    /// The reader: handles the word popped this cycle, schedules the next pops.
    fn read(
        &mut self,
        t: &dyn Topology,
        rx: Option<&NicRxIn>,
        cycle: u64,
        siw: bool,
    ) -> Option<Arrival> {
        let rx = rx?;
        let mut arrival = None;
        if self.rd_hf {
            let w = rx.hf_rdata;
            if self.rstate == R_HDR {
                self.rhdr = w;
                self.rleft = payload_words(w, siw);
                self.rk = 0;
                self.rcrc = CRC_INIT;
                self.rwords.clear();
                self.rstate = if self.rleft > 0 { R_PAY } else { R_FTR };
            } else {
                arrival = Some(self.arrival(t, w, cycle));
                self.rstate = R_HDR;
            }
        }
        if self.rd_pay {
            if self.check {
                self.rcrc = crc32c_update128(self.rcrc, rx.pay_rdata);
            }
            if self.rk == 0 {
                self.rstamp = (rx.pay_rdata >> 64) as u64;
            }
            if self.app.is_some() {
                self.rwords.push(rx.pay_rdata);
            }
            self.rk += 1;
            self.rleft -= 1;
            if self.rleft == 0 {
                self.rstate = R_FTR;
            }
        }
        // the next pops: one word a cycle from each FIFO, counting the pop in flight
        let hf_vis = rx.hf_rdusedw - self.rd_hf as u32;
        let pay_vis = rx.pay_rdusedw - self.rd_pay as u32;
        self.rd_hf = matches!(self.rstate, R_HDR | R_FTR) && hf_vis > 0;
        self.rd_pay = self.rstate == R_PAY && pay_vis > 0;
        arrival
    }

    fn arrival(&mut self, t: &dyn Topology, ftr: u128, cycle: u64) -> Arrival {
        let FooterId { src, seq, .. } = footer_id(t, ftr);
        let size = HDR_SIZE.get(self.rhdr) as u32;
        if let Some(app) = self.app.as_mut() {
            match self.rwords.first() {
                Some(&w) => {
                    let env = Envelope::unpack(w);
                    let n = size.saturating_sub(ENVELOPE_BYTES) as usize;
                    let mut bytes = Vec::new();
                    if env.has_data {
                        bytes.reserve(n);
                        for w in &self.rwords[1..] {
                            bytes.extend_from_slice(&w.to_le_bytes());
                        }
                        bytes.truncate(n);
                    }
                    app.sw
                        .arrive_from_network(&env, &bytes, HDR_DST_ADDR.get(self.rhdr), cycle);
                }
                None => {
                    app.sw.fail(format!(
                        "endpoint {}: a packet without an envelope arrived at cycle {cycle}",
                        self.endpoint
                    ));
                }
            }
        }
        let mut payload_errors = (src == usize::MAX) as u32;
        if self.check {
            let want = (0..self.rk).fold(CRC_INIT, |c, k| {
                crc32c_update128(c, stamped_word(src, seq, k, self.rstamp))
            });
            payload_errors = (src == usize::MAX || want != self.rcrc) as u32;
        }
        let injected = HDR_DST_ADDR.get(self.rhdr);
        let created =
            (self.app.is_none() && self.rk > 0 && self.rstamp <= injected).then_some(self.rstamp);
        Arrival {
            dst: self.endpoint,
            src,
            seq,
            size,
            created,
            injected,
            arrived: cycle,
            // the header's mark (SECDED keeps it), not the footer's bit, which a bit error
            // may flip or a failed node's PAD replace
            probe: HDR_PDID.get(self.rhdr) == PROBE_PDID,
            crc_bad: (ftr >> FTR_CRC_BAD_BIT) & 1 == 1,
            payload_errors,
            vc: HDR_VC.get(self.rhdr) as u8,
        }
    }
}
