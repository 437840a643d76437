//! The KARMA ping-pong latency test (Biagioni 2017 §5.4.1, Figures 5.16-5.18), on the simulated test
//! bed: node (0,0) sends a message to node (1,0) (one hop) or (1,1) (two hops), which sends it
//! back as soon as it has read it; the round-trip time is measured by node (0,0)'s software, from
//! the first cycle of its send to the last cycle of its receive of the reply, as the thesis's
//! software did with its timer.
//!
//! Every cycle of it is simulated: the emulated ARMs (`arm.rs`, `software.rs`) drive the nodes'
//! ports, the nodes (Rust model or Verilated RTL, `mesh.rs`, `rtl_mesh.rs`) move the message.
//! The one-way breakdown comes from timestamps of the same run: the software's own (store and
//! load cycles) and the cycles the header was written into each FIFO on its way (taps of the
//! routers' output write stages and the TCL receivers' write ports). With `ber` > 0 bits are
//! flipped on every lane; a message that does not come back in time is counted lost and the
//! ping-pong goes on with the next one.

use super::arm::{Arm, AxiTiming};
use super::mesh::{neighbour, MeshBackend, NodeTbIn, Tap, LINKS, NODES};
use super::rtl_mesh::RtlMesh;
use super::software::{Message, Mode, RecvEnd, RecvStamps, Script, SendStamps, Software, SwCosts};
use crate::config::Config;
use crate::link::errors::{BitErrorInjector, ErrorPlan};
use crate::node::regs::{link_reg, COORD};
use crate::progress::Progress;
use crate::router::params::RouterParams;
use crate::wave::WaveFormat;
use serde::Serialize;
use std::path::PathBuf;

/// What simulates the nodes (`--backend`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// The Rust model.
    Model,
    /// The Verilated RTL.
    Rtl,
}

/// A ping-pong run.
#[derive(Debug, Clone)]
pub struct PingPong {
    pub hops: Vec<u32>,
    pub mode: Mode,
    pub sizes: Vec<u32>,
    pub iterations: u32,
    pub backend: Backend,
    /// Bit error rate on every lane.
    pub ber: f64,
    /// Write the waves of the first round trip here.
    pub vcd: Option<PathBuf>,
    /// The format of the file `vcd` names.
    pub wave_format: WaveFormat,
}

/// Mean cycles of each part of a one-way trip (docs/karma.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Breakdown {
    /// The sender's software before the header's store, and the receiver's after the footer's
    /// load.
    pub software_cycles: f64,
    /// The header's store: issue to the FIFO's write strobe.
    pub arm_write_cycles: f64,
    /// Every router on the way: the header's write into its input FIFO to its output FIFO.
    pub router_cycles: f64,
    /// Every link on the way: the header's write into a TX FIFO to the next RX FIFO.
    pub link_cycles: f64,
    /// From the header's write into the receiver's RX FIFO to the first cycle of its load (FIFO
    /// latency, then polling or the interrupt).
    pub detect_cycles: f64,
    /// The loads of header, payload and footer.
    pub arm_read_cycles: f64,
}

impl Breakdown {
    fn add(&mut self, o: &Breakdown) {
        self.software_cycles += o.software_cycles;
        self.arm_write_cycles += o.arm_write_cycles;
        self.router_cycles += o.router_cycles;
        self.link_cycles += o.link_cycles;
        self.detect_cycles += o.detect_cycles;
        self.arm_read_cycles += o.arm_read_cycles;
    }

    fn scale(&mut self, f: f64) {
        self.software_cycles *= f;
        self.arm_write_cycles *= f;
        self.router_cycles *= f;
        self.link_cycles *= f;
        self.detect_cycles *= f;
        self.arm_read_cycles *= f;
    }

    pub fn total(&self) -> f64 {
        self.software_cycles
            + self.arm_write_cycles
            + self.router_cycles
            + self.link_cycles
            + self.detect_cycles
            + self.arm_read_cycles
    }
}

/// One row: a hop count, a size, all its iterations.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub hops: u32,
    pub mode: Mode,
    pub payload_bytes: u32,
    /// Round trips measured (completed without a loss).
    pub iterations: u32,
    /// Round trips given up (a message lost), messages with a bad CRC, late replies dropped.
    pub lost: u32,
    pub crc_errors: u32,
    pub stale: u32,
    pub rtt_cycles: f64,
    pub rtt_min_cycles: u64,
    pub rtt_max_cycles: u64,
    pub rtt_us: f64,
    /// Half the round trip.
    pub one_way_us: f64,
    /// Per one-way trip (both directions, every iteration).
    pub breakdown: Breakdown,
    pub breakdown_hops: u32,
    /// The whole message: first store's issue to the footer's strobe; header load's issue to
    /// the footer's data.
    pub write_message_cycles: f64,
    pub read_message_cycles: f64,
    /// Cycles between two words' stores and two words' loads.
    pub write_cycles_per_word: f64,
    pub read_cycles_per_word: f64,
}

/// Two-hop minus one-hop one-way latency at a size.
#[derive(Debug, Clone, Serialize)]
pub struct HopDifference {
    pub payload_bytes: u32,
    pub one_way_us: f64,
}

/// What the links of the mesh counted during the runs of one hop count: the boards' link
/// registers, summed over every link of the mesh (docs/link.md, "Accounting"):
/// `sent = delivered + crc_errors + lost_packets + in_flight`.
#[derive(Debug, Clone, Serialize)]
pub struct LinkCounters {
    pub hops: u32,
    /// LINK_TX_PKTS plus LINK_STATUS bit 1 (a packet being sent).
    pub sent: u32,
    /// LINK_RX_PKTS minus LINK_CRC_ERR.
    pub delivered: u32,
    /// LINK_LOST: every packet discarded, the sum of the three reasons below.
    pub lost_packets: u32,
    /// LINK_CRC_ERR.
    pub crc_errors: u32,
    /// LINK_DISC_HDR, LINK_DISC_FRAMING, LINK_DISC_RESYNC.
    pub discarded_header: u32,
    pub discarded_framing: u32,
    pub discarded_resync: u32,
    /// Sent and not accounted for: still on a link, or lost without a later packet on the same
    /// link to reveal the loss yet.
    pub in_flight: i64,
}

/// The link registers `Bed::link_counters` reads, per link, in this order.
const LINK_COUNTER_REGS: [u16; 8] = [0x00, 0x14, 0x18, 0x0C, 0x1C, 0x20, 0x24, 0x28];

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub backend: Backend,
    pub clock_mhz: f64,
    pub rows: Vec<Row>,
    pub hop_difference: Vec<HopDifference>,
    pub links: Vec<LinkCounters>,
    /// Cycles simulated in all.
    pub cycles: u64,
    pub vcd: Option<String>,
}

/// A header written into a FIFO on the way (`Tracker`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Where {
    /// Into the output FIFO of inter-tile port q (any VC).
    OutInter(usize),
    /// Into intra-tile port 0's RX FIFO.
    OutIntra,
    /// Into the RX FIFOs of inter-tile port q, by its TCL RX.
    Rx(usize),
}

#[derive(Debug, Clone, Copy)]
struct Event {
    cycle: u64,
    node: usize,
    at: Where,
}

/// Watches the tapped write ports and records every header written (the first of each
/// header/footer pair a port writes).
struct Tracker {
    taps: Vec<(Tap, usize, Where)>,
    footer_next: Vec<bool>,
    events: Vec<Event>,
}

impl Tracker {
    fn new(p: &RouterParams) -> Tracker {
        let mut taps = Vec::new();
        for node in 0..NODES {
            taps.push((
                Tap::OutWrite {
                    node,
                    slot: p.intra_slot(0),
                },
                node,
                Where::OutIntra,
            ));
            for q in 0..LINKS {
                for v in 0..p.num_vcs {
                    taps.push((
                        Tap::OutWrite {
                            node,
                            slot: p.inter_slot(q as u32, v),
                        },
                        node,
                        Where::OutInter(q),
                    ));
                }
                taps.push((Tap::RxWrite { node, q }, node, Where::Rx(q)));
            }
        }
        Tracker {
            footer_next: vec![false; taps.len()],
            taps,
            events: Vec::new(),
        }
    }

    fn observe(&mut self, b: &dyn MeshBackend, cycle: u64) {
        for (k, &(t, node, at)) in self.taps.iter().enumerate() {
            if b.tap(t) == 3 {
                if !self.footer_next[k] {
                    self.events.push(Event { cycle, node, at });
                }
                self.footer_next[k] = !self.footer_next[k];
            }
        }
    }

    /// Router and link cycles of the header written into `from`'s intra-tile TX FIFO in cycle
    /// `t0`, up to its write into `to`'s RX FIFO: (router, link, that cycle, hops).
    fn trace(&self, from: usize, t0: u64, to: usize) -> Option<(u64, u64, u64, u32)> {
        let (mut node, mut t) = (from, t0);
        let (mut router, mut link, mut hops) = (0, 0, 0);
        for _ in 0..=NODES {
            let out = self.events.iter().find(|e| {
                e.node == node
                    && e.cycle > t
                    && matches!(e.at, Where::OutInter(_) | Where::OutIntra)
            })?;
            router += out.cycle - t;
            t = out.cycle;
            match out.at {
                Where::OutIntra => return (node == to).then_some((router, link, t, hops)),
                Where::OutInter(q) => {
                    let next = neighbour(node, q);
                    let rx = self
                        .events
                        .iter()
                        .find(|e| e.node == next && e.cycle > t && e.at == Where::Rx(q))?;
                    link += rx.cycle - t;
                    t = rx.cycle;
                    node = next;
                    hops += 1;
                }
                Where::Rx(_) => unreachable!("filtered above"),
            }
        }
        None
    }

    fn forget_before(&mut self, cycle: u64) {
        self.events.retain(|e| e.cycle >= cycle);
    }
}

/// The test bed with its four boards' software.
pub struct Bed {
    backend: Box<dyn MeshBackend>,
    pub sw: Vec<Software>,
    inj: Vec<BitErrorInjector>,
    tracker: Tracker,
    /// The next cycle to simulate.
    pub cycle: u64,
}

impl Bed {
    pub fn new(cfg: &Config, backend: Backend, mode: Mode, ber: f64) -> Result<Bed, String> {
        super::mesh::check_config(cfg)?;
        let p = RouterParams::from_config(cfg);
        let tracker = Tracker::new(&p);
        let backend: Box<dyn MeshBackend> = match backend {
            Backend::Model => Box::new(super::mesh::Mesh::new(cfg)?),
            Backend::Rtl => {
                // the Verilated mesh is built with the default parameters and resets to the
                // default run-time settings: any other configuration would be simulated as
                // the default one
                crate::cosim::node_design::check_structural(cfg)
                    .map_err(|e| format!("--backend rtl: {e}"))?;
                let taps: Vec<Tap> = tracker.taps.iter().map(|t| t.0).collect();
                Box::new(RtlMesh::new(p.n_intra as usize, &taps)?)
            }
        };
        let k = &cfg.karma;
        let timing = AxiTiming {
            write_cycles: k.axi_write_cycles,
            read_cycles: k.axi_read_cycles,
            request_cycles: k.axi_request_cycles,
        };
        let costs = SwCosts::new(cfg);
        let plan = |j: u64| ErrorPlan::at_rate(ber, cfg.sim.seed, j);
        Ok(Bed {
            backend,
            sw: (0..NODES)
                .map(|_| Software::new(mode, costs, Arm::new(timing, 0), p.size_in_words))
                .collect(),
            inj: (0..NODES * LINKS)
                .map(|j| BitErrorInjector::new(plan(j as u64)))
                .collect(),
            tracker,
            cycle: 0,
        })
    }

    /// The last cycle simulated (tasks started now begin in the next one).
    pub fn now(&self) -> u64 {
        self.cycle.saturating_sub(1)
    }

    /// One clock cycle of the boards' software and the nodes.
    pub fn step(&mut self) -> Result<(), String> {
        let c = self.cycle;
        let mut tb = [NodeTbIn::default(); NODES];
        for (k, t) in tb.iter_mut().enumerate() {
            let (reg, ps) = self.sw[k].arm.outputs();
            t.reg = reg;
            t.ps[self.sw[k].arm.port] = ps;
            for q in 0..LINKS {
                t.err_mask[q] = self.inj[k * LINKS + q].mask();
            }
        }
        self.tracker.observe(self.backend.as_ref(), c);
        for (k, s) in self.sw.iter_mut().enumerate() {
            let out = self.backend.out(k);
            let d = s.arm.step(&out, c);
            s.on_done(d, c);
        }
        self.backend.step(&tb);
        // the error masks are a stream of their own, the same for model and RTL
        for i in self.inj.iter_mut() {
            i.commit(true);
        }
        self.cycle += 1;
        if let Some(e) = self.backend.error() {
            return Err(e);
        }
        Ok(())
    }

    /// Every board reads its links' packet counters (LINK_STATUS, LINK_TX_PKTS, LINK_RX_PKTS,
    /// LINK_CRC_ERR, LINK_LOST and the three discard reasons), summed over the mesh.
    pub fn link_counters(&mut self, hops: u32) -> Result<LinkCounters, String> {
        let now = self.now();
        for s in self.sw.iter_mut() {
            if s.busy() {
                return Err("karma: a board is busy; its counters cannot be read now".into());
            }
            s.reads.clear();
            let script: Vec<Script> = (0..LINKS as u32)
                .flat_map(|q| {
                    LINK_COUNTER_REGS.map(|off| Script::Read {
                        addr: link_reg(q, off),
                    })
                })
                .collect();
            s.start_script(&script, now);
        }
        while self.sw.iter().any(|s| s.busy()) {
            self.step()?;
        }
        let mut v = [0u32; LINK_COUNTER_REGS.len()];
        for s in &self.sw {
            for (k, &(_, x)) in s.reads.iter().enumerate() {
                let r = k % LINK_COUNTER_REGS.len();
                // LINK_STATUS: only bit 1, a packet being sent, counts
                let x = if r == 0 { x >> 1 & 1 } else { x };
                v[r] = v[r].wrapping_add(x);
            }
        }
        let [busy, tx, rx, crc, lost, hdr, framing, resync] = v;
        let sent = tx.wrapping_add(busy);
        Ok(LinkCounters {
            hops,
            sent,
            delivered: rx.wrapping_sub(crc),
            lost_packets: lost,
            crc_errors: crc,
            discarded_header: hdr,
            discarded_framing: framing,
            discarded_resync: resync,
            in_flight: sent.wrapping_sub(rx).wrapping_sub(lost) as i32 as i64,
        })
    }

    /// Boot every board: set its coordinates, wait for both links up.
    pub fn boot(&mut self) -> Result<(), String> {
        for k in 0..NODES {
            let c = super::mesh::coord(k);
            let script = [
                Script::Write {
                    addr: COORD,
                    data: c[0] as u32 | (c[1] as u32) << 8,
                },
                Script::WaitSet {
                    addr: link_reg(0, 0),
                    mask: 1,
                },
                Script::WaitSet {
                    addr: link_reg(1, 0),
                    mask: 1,
                },
            ];
            let now = self.now();
            self.sw[k].start_script(&script, now);
        }
        let limit = self.cycle + 100_000;
        while self.sw.iter().any(|s| s.busy()) {
            self.step()?;
            if self.cycle > limit {
                return Err("karma: the boards did not boot (links not up)".into());
            }
        }
        let errors: u32 = self.sw.iter().map(|s| s.arm.reg_errors).sum();
        if errors > 0 {
            return Err(format!("karma: {errors} register accesses refused at boot"));
        }
        Ok(())
    }
}

/// One one-way trip's breakdown from its stamps; None if the header's way was not seen whole.
fn one_way(tr: &Tracker, m: &Message, s: &SendStamps, r: &RecvStamps) -> Option<(Breakdown, u32)> {
    let (router, link, t_rx, hops) = tr.trace(m.from, s.hdr_strobe, m.to)?;
    let b = Breakdown {
        software_cycles: ((s.hdr_issue - s.start) + (r.end - r.ftr_data)) as f64,
        arm_write_cycles: (s.hdr_strobe + 1 - s.hdr_issue) as f64,
        router_cycles: router as f64,
        link_cycles: link as f64,
        detect_cycles: r.hdr_issue.checked_sub(1 + t_rx)? as f64,
        arm_read_cycles: (r.ftr_data + 1 - r.hdr_issue) as f64,
    };
    Some((b, hops))
}

#[derive(Default)]
struct Acc {
    rtts: Vec<u64>,
    lost: u32,
    crc: u32,
    ways: u32,
    hops: u32,
    breakdown: Breakdown,
    write_msg: f64,
    read_msg: f64,
    write_word: f64,
    read_word: f64,
    words_seen: u32,
}

impl Acc {
    fn way(&mut self, tr: &Tracker, m: &Message, s: &SendStamps, r: &RecvStamps) {
        if let Some((b, hops)) = one_way(tr, m, s, r) {
            self.breakdown.add(&b);
            self.hops = hops;
            self.ways += 1;
        }
        let words = m.size.div_ceil(16) + 2;
        self.write_msg += (s.last_strobe + 1 - s.hdr_issue) as f64;
        self.read_msg += (r.ftr_data + 1 - r.hdr_issue) as f64;
        self.write_word += (s.last_strobe - s.hdr_strobe) as f64 / (words - 1) as f64;
        self.read_word += (r.ftr_data - r.hdr_data) as f64 / (words - 1) as f64;
        self.words_seen += 1;
        self.crc += r.crc_bad as u32;
    }
}

/// Why a ping-pong produced no report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PingPongError {
    /// The configuration cannot be measured with (bad input: `exanet` exits 2).
    Config(String),
    /// The run failed.
    Run(String),
}

impl std::fmt::Display for PingPongError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PingPongError::Config(m) | PingPongError::Run(m) => f.write_str(m),
        }
    }
}

impl From<String> for PingPongError {
    fn from(m: String) -> Self {
        PingPongError::Run(m)
    }
}

/// What the ping-pong runs on: the 2x2 mesh ([`super::mesh::check_config`]), with packet sizes
/// in bytes. The boards' software writes the payload's bytes into the header (`Message`); with
/// `link.size_in_words` the routers would read that many words and wait for payload that never
/// comes, and every message would be lost.
pub fn check_config(cfg: &Config) -> Result<(), String> {
    super::mesh::check_config(cfg)?;
    if cfg.link.size_in_words {
        return Err(
            "karma pingpong: link.size_in_words = true: the boards' software sizes packets in \
             bytes (the header's size field); set it to false"
                .into(),
        );
    }
    Ok(())
}

/// The most round trips a size `--iterations` may ask for. The phase sweep covers one polling
/// period (a few tens of cycles) evenly with far fewer; 1000 round trips of every default size
/// over both paths are about half an hour of simulation with the model and several hours with
/// the RTL backend.
pub const MAX_ITERATIONS: u32 = 1000;

impl PingPong {
    /// Round trips the run makes in all (what [`PingPong::run_with_progress`] counts).
    pub fn round_trips(&self) -> u64 {
        (self.hops.len() * self.sizes.len()) as u64 * self.iterations as u64
    }

    pub fn run(&self, cfg: &Config) -> Result<Report, PingPongError> {
        self.run_with_progress(cfg, &Progress::hidden())
    }

    /// [`PingPong::run`], counting every round trip into `progress` (the report is the same).
    pub fn run_with_progress(
        &self,
        cfg: &Config,
        progress: &Progress,
    ) -> Result<Report, PingPongError> {
        check_config(cfg).map_err(PingPongError::Config)?;
        let mut rows = Vec::new();
        let mut cycles = 0;
        let mut vcd = None;
        let mut seq = 0u32;
        let mut links = Vec::new();
        for (g, &hops) in self.hops.iter().enumerate() {
            let mut bed = Bed::new(cfg, self.backend, self.mode, self.ber)?;
            bed.boot()?;
            let (a, b) = (0usize, if hops == 1 { 1 } else { 3 });
            for (si, &size) in self.sizes.iter().enumerate() {
                let want_wave = g == 0 && si == 0 && self.vcd.is_some();
                progress.set_message(format!(
                    "{hops} hop{}, {size} B",
                    if hops == 1 { "" } else { "s" }
                ));
                let mut acc = Acc::default();
                let stale_before = bed.sw[a].stale + bed.sw[b].stale;
                let now = bed.now();
                if !bed.sw[b].busy() {
                    bed.sw[b].start_recv(None, None, now);
                }
                for it in 0..self.iterations {
                    // the phase sweep: idle before the send (not part of the round trip)
                    let idle = phase_offset(cfg, self.mode, it, self.iterations);
                    for _ in 0..idle {
                        bed.step()?;
                    }
                    bed.tracker.forget_before(bed.cycle);
                    if want_wave && it == 0 {
                        let path = self.vcd.clone().expect("checked above");
                        bed.backend
                            .wave_open(&path, self.wave_format, cfg.clock().period_ps())?;
                        vcd = Some(path.display().to_string());
                    }
                    seq += 1;
                    let msg = Message {
                        seq,
                        from: a,
                        to: b,
                        size,
                    };
                    let r = round_trip(&mut bed, msg, &mut acc)?;
                    if want_wave && it == 0 {
                        bed.backend.wave_close()?;
                    }
                    match r {
                        Some(rtt) => acc.rtts.push(rtt),
                        // without bit errors only the software's timeout loses a message
                        None if self.ber == 0.0 => {
                            return Err(PingPongError::Config(format!(
                                "karma.timeout_us: {:?} us ({} cycles at {} MHz) is shorter than \
                                 the round trip of {size} bytes over {hops} hop(s): with no bit \
                                 errors nothing else loses a message; raise it",
                                cfg.karma.timeout_us, bed.sw[a].costs.timeout, cfg.clock.freq_mhz
                            )))
                        }
                        None => acc.lost += 1,
                    }
                    progress.inc(1);
                }
                let stale = bed.sw[a].stale + bed.sw[b].stale - stale_before;
                rows.push(row(cfg, hops, self.mode, size, &acc, stale)?);
            }
            // the responder stops listening; every board reads its link counters
            bed.sw[b].request_stop();
            let limit = bed.cycle + 100_000;
            while bed.sw.iter().any(|s| s.busy()) {
                bed.step()?;
                if bed.cycle > limit {
                    return Err(PingPongError::Run(
                        "karma: the boards did not go idle after the ping-pong".into(),
                    ));
                }
            }
            links.push(bed.link_counters(hops)?);
            cycles += bed.cycle;
        }
        let mut hop_difference = Vec::new();
        for r2 in rows.iter().filter(|r| r.hops == 2) {
            if let Some(r1) = rows
                .iter()
                .find(|r| r.hops == 1 && r.payload_bytes == r2.payload_bytes)
            {
                hop_difference.push(HopDifference {
                    payload_bytes: r2.payload_bytes,
                    one_way_us: r2.one_way_us - r1.one_way_us,
                });
            }
        }
        Ok(Report {
            backend: self.backend,
            clock_mhz: cfg.clock.freq_mhz,
            rows,
            hop_difference,
            links,
            cycles,
            vcd,
        })
    }
}

/// Idle cycles before round trip `it` of `n`. The real boards' processors run on their own
/// clocks, so over many round trips a poll of the RX status lands anywhere in its loop relative
/// to the message's arrival; the emulated ARM's timing is exact, so without help every round
/// trip would see the same phase. The round trips therefore start at offsets spread evenly over
/// one polling period (the measured mean is then the mean over all phases, which is what the
/// thesis's many iterations averaged). Kernel space waits for the interrupt: no phase to sweep.
fn phase_offset(cfg: &Config, mode: Mode, it: u32, n: u32) -> u64 {
    match mode {
        Mode::Kernel => 0,
        Mode::User => {
            let k = &cfg.karma;
            let poll = k.axi_read_cycles as f64 + k.user_poll_ns * cfg.clock.freq_mhz / 1000.0;
            (it as f64 * poll / n as f64).floor() as u64
        }
    }
}

/// One round trip from node `m.from`: the message there and the reply back. Returns the
/// round-trip cycles, or None if it timed out.
fn round_trip(bed: &mut Bed, m: Message, acc: &mut Acc) -> Result<Option<u64>, String> {
    let (a, b) = (m.from, m.to);
    let timeout = bed.sw[a].costs.timeout;
    let now = bed.now();
    bed.sw[a].start_send(m, now);
    let mut sent_a: Option<SendStamps> = None;
    let mut got_b: Option<RecvStamps> = None;
    let mut sent_b: Option<(Message, SendStamps)> = None;
    let limit = bed.cycle + 4 * timeout + 1_000_000;
    loop {
        bed.step()?;
        let now = bed.now();
        if let Some((_, s)) = bed.sw[a].take_sent() {
            sent_a = Some(s);
            bed.sw[a].start_recv(Some(m.seq), Some(timeout), now);
        }
        if let Some(RecvEnd::Got(r)) = bed.sw[b].take_received() {
            // the responder answers whatever it got, with its sequence number
            let reply = Message {
                seq: r.seq,
                from: b,
                to: a,
                size: r.size,
            };
            if r.seq == m.seq {
                got_b = Some(r);
            }
            bed.sw[b].start_send(reply, now);
        }
        if let Some(x) = bed.sw[b].take_sent() {
            if x.0.seq == m.seq {
                sent_b = Some(x);
            }
            bed.sw[b].start_recv(None, None, now);
        }
        match bed.sw[a].take_received() {
            Some(RecvEnd::Got(r)) => {
                let s = sent_a.expect("A receives after its send");
                if let (Some(rb), Some((mb, sb))) = (got_b, sent_b) {
                    acc.way(&bed.tracker, &m, &s, &rb);
                    acc.way(&bed.tracker, &mb, &sb, &r);
                }
                return Ok(Some(r.end + 1 - s.start));
            }
            Some(RecvEnd::TimedOut { .. }) => return Ok(None),
            None => {}
        }
        if bed.cycle > limit {
            return Err(format!(
                "karma: round trip {} from node {a} to node {b} neither completed nor timed out",
                m.seq
            ));
        }
    }
}

fn row(
    cfg: &Config,
    hops: u32,
    mode: Mode,
    size: u32,
    acc: &Acc,
    stale: u32,
) -> Result<Row, String> {
    let n = acc.rtts.len();
    if n == 0 {
        return Err(format!(
            "karma: no round trip of {size} bytes over {hops} hops completed ({} lost)",
            acc.lost
        ));
    }
    let clock = cfg.clock();
    let mean = acc.rtts.iter().sum::<u64>() as f64 / n as f64;
    let mut b = acc.breakdown;
    if acc.ways > 0 {
        b.scale(1.0 / acc.ways as f64);
    }
    let w = acc.words_seen.max(1) as f64;
    Ok(Row {
        hops,
        mode,
        payload_bytes: size,
        iterations: n as u32,
        lost: acc.lost,
        crc_errors: acc.crc,
        stale,
        rtt_cycles: mean,
        rtt_min_cycles: *acc.rtts.iter().min().expect("n > 0"),
        rtt_max_cycles: *acc.rtts.iter().max().expect("n > 0"),
        rtt_us: clock.us(mean),
        one_way_us: clock.us(mean / 2.0),
        breakdown: b,
        breakdown_hops: acc.hops,
        write_message_cycles: acc.write_msg / w,
        read_message_cycles: acc.read_msg / w,
        write_cycles_per_word: acc.write_word / w,
        read_cycles_per_word: acc.read_word / w,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One 16-byte round trip over one hop, user space, the model, no errors.
    fn one_round_trip() -> PingPong {
        PingPong {
            hops: vec![1],
            mode: Mode::User,
            sizes: vec![16],
            iterations: 1,
            backend: Backend::Model,
            ber: 0.0,
            vcd: None,
            wave_format: WaveFormat::Vcd,
        }
    }

    #[test]
    fn packets_sized_in_words_are_refused_naming_the_field() {
        let mut cfg = Config::default();
        cfg.link.size_in_words = true;
        let run = one_round_trip();
        let e = run.run(&cfg).unwrap_err();
        assert!(
            matches!(&e, PingPongError::Config(m) if m.contains("link.size_in_words")),
            "{e}"
        );
        cfg.link.size_in_words = false;
        assert_eq!(run.run(&cfg).unwrap().rows[0].lost, 0);
    }

    #[test]
    fn a_timeout_shorter_than_the_round_trip_is_a_configuration_error() {
        let mut cfg = Config::default();
        cfg.karma.timeout_us = 1.0; // 156 cycles: a round trip takes more
        let run = one_round_trip();
        let e = run.run(&cfg).unwrap_err();
        assert!(
            matches!(&e, PingPongError::Config(m) if m.contains("karma.timeout_us")),
            "{e}"
        );
        // with bit errors a lost message is a measurement: counted, not refused
        let lossy = PingPong {
            ber: 1e-3,
            iterations: 8,
            ..run
        };
        let r = lossy.run(&Config::default()).unwrap();
        assert!(
            r.rows[0].lost > 0 && r.rows[0].iterations > 0,
            "{:?}",
            r.rows[0]
        );
    }
}
