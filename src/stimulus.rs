//! Reusable test-bench blocks: packet generators, a source that writes a FIFO, a consumer that
//! drains per-VC FIFOs with configurable back-pressure, and a scoreboard that accounts for
//! every packet. They are clocked like the hardware: their outputs are registers, their next
//! state is computed from the registers of the design in the same cycle.
//!
//! Packets carry their id in the header's `dst_addr` (ECC-protected, so it survives any error
//! the header code corrects): the sequence number, or under the constrained stimulus a bijection
//! of it ([`PacketGen::set_corners`]); the plain stimulus also puts its low 16 bits in the
//! footer's `chan_id`.

use crate::packet::{payload_words, Packet, PacketType};
use crate::pktfifo::PktFifo;
use rand_mt::Mt64;
use std::collections::{HashMap, VecDeque};

/// Payload size distribution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SizeDist {
    Fixed(u32),
    /// Uniform in `min..=max` bytes.
    Uniform {
        min: u32,
        max: u32,
    },
}

/// What a generator produces.
#[derive(Debug, Clone, PartialEq)]
pub struct TrafficSpec {
    pub sizes: SizeDist,
    /// VCs used, uniformly: `0..num_vcs`.
    pub num_vcs: u32,
    pub size_in_words: bool,
    /// Destinations (coordinates, intra-tile port), chosen uniformly; empty: (1, 0, 0) port 0.
    pub dests: Vec<([u8; 3], u8)>,
}

impl TrafficSpec {
    /// Packets of `sizes` on VCs `0..num_vcs` to (1, 0, 0) port 0.
    pub fn new(sizes: SizeDist, num_vcs: u32, size_in_words: bool) -> TrafficSpec {
        TrafficSpec {
            sizes,
            num_vcs,
            size_in_words,
            dests: Vec::new(),
        }
    }

    /// The same, to these destinations.
    pub fn to(mut self, dests: Vec<([u8; 3], u8)>) -> TrafficSpec {
        self.dests = dests;
        self
    }
}

/// Makes packets with random sizes, VCs and payload data from a seeded Mersenne Twister.
#[derive(Debug, Clone)]
pub struct PacketGen {
    spec: TrafficSpec,
    rng: Mt64,
    seq: u64,
    /// Constrained-random fields ([`PacketGen::set_corners`]).
    corners: bool,
    /// Under corners: packets left in the current size phase, and whether it is a phase of
    /// small packets.
    phase_left: u32,
    small_phase: bool,
    /// Under corners, the header's VC field at any of its values, not only `0..num_vcs`: a
    /// source writing an intra-tile port, whose VC field the router ignores or rewrites.
    pub any_vc_field: bool,
    /// Under corners, only small packets while set, as in a phase of small packets (the test
    /// bench's error storms: many headers to hit, `link_design::STORM_PERIOD`).
    pub small: bool,
}

impl PacketGen {
    pub fn new(spec: TrafficSpec, seed: u64) -> PacketGen {
        PacketGen {
            spec,
            rng: Mt64::new(seed),
            seq: 0,
            corners: false,
            phase_left: 0,
            small_phase: false,
            any_vc_field: false,
            small: false,
        }
    }

    /// The lockstep's constrained-random packets (issue 30): besides RDMA from (0, 0, 0) with
    /// zero fields, every packet type (ACK and RATE carry no payload whatever their `size`),
    /// `size` at 0 and at its largest as often as in between (and, in phases of 50 to 305
    /// packets, one phase in three, only small packets), `pdid`, source coordinates and
    /// `user` at 0, at all ones or random, and payload halves equal to the wire's MAGIC and
    /// START (the TX's escape, the RX's framing) or all zeros and ones. `dst_addr` carries the
    /// packet's id, a bijection of its sequence number over all 48 bits, which the scoreboards
    /// find it by; `chan_id` is at a corner or random.
    pub fn set_corners(&mut self, on: bool) {
        self.corners = on;
    }

    /// Send to these destinations from now on (a test bench that moved its router).
    pub fn set_dests(&mut self, dests: Vec<([u8; 3], u8)>) {
        self.spec.dests = dests;
    }

    /// Under corners, now and then (one cycle in 8) a source writes nothing although it could:
    /// the FIFO it writes runs dry mid-packet and its reader waits.
    pub fn pause(&mut self) -> bool {
        self.corners && self.rng.next_u64().is_multiple_of(8)
    }

    /// 0, all ones, or random, in `width` bits.
    fn corner(&mut self, width: u32) -> u64 {
        let m = if width >= 64 {
            u64::MAX
        } else {
            (1 << width) - 1
        };
        match self.rng.next_u64() % 4 {
            0 => 0,
            1 => m,
            _ => self.rng.next_u64() & m,
        }
    }

    /// A payload half: now and then a wire control word or a constant.
    fn half(&mut self) -> u64 {
        use crate::packet::wire::{MAGIC, START};
        let r = self.rng.next_u64();
        if !self.corners {
            return r;
        }
        match r % 64 {
            0..=2 => MAGIC,
            3 => START,
            4 => 0,
            5 => u64::MAX,
            _ => self.rng.next_u64(),
        }
    }

    /// Sequence numbers from `base` on (several sources into one network: distinct bases).
    pub fn with_base(spec: TrafficSpec, seed: u64, base: u64) -> PacketGen {
        PacketGen {
            spec,
            rng: Mt64::new(seed),
            seq: base,
            corners: false,
            phase_left: 0,
            small_phase: false,
            any_vc_field: false,
            small: false,
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            0
        } else {
            self.rng.next_u64() % n
        }
    }

    /// The next packet and its id (the `dst_addr` the scoreboards find it by: its sequence
    /// number, numbering packets from the base, with random high bits under corners).
    pub fn next_packet(&mut self) -> (u64, Packet) {
        let mut size = match self.spec.sizes {
            SizeDist::Fixed(s) => s,
            SizeDist::Uniform { min, max } => min + self.below((max - min + 1) as u64) as u32,
        };
        let mut kind = PacketType::Rdma;
        let (mut pdid, mut src, mut user, mut route, mut rsvd) = (0, [0u64; 3], 0, 0, 0);
        if self.corners {
            use crate::packet::layout::{FTR_SRC_X, FTR_SRC_Y, FTR_SRC_Z, FTR_USER, HDR_PDID};
            if self.phase_left == 0 {
                // phases of 50 to 305 packets; one in three of small packets only (at most
                // 32 bytes or 2 words): the header/footer sides of the FIFOs fill and the
                // packet counters run
                let r = self.rng.next_u64();
                self.small_phase = r.is_multiple_of(3);
                self.phase_left = 50 + (r >> 8) as u32 % 256;
            }
            self.phase_left -= 1;
            if let SizeDist::Uniform { min, max } = self.spec.sizes {
                size = match self.rng.next_u64() % 4 {
                    _ if self.small_phase || self.small => {
                        let small = if self.spec.size_in_words { 2 } else { 32 };
                        min + self.below(u64::from(small.min(max - min)) + 1) as u32
                    }
                    0 => min,
                    1 => max,
                    _ => size,
                };
            }
            kind = match self.rng.next_u64() % 8 {
                0 => PacketType::Ack,
                1 => PacketType::Rate,
                2 => PacketType::Reserved,
                _ => PacketType::Rdma,
            };
            pdid = self.corner(HDR_PDID.width);
            src = [
                self.corner(FTR_SRC_X.width),
                self.corner(FTR_SRC_Y.width),
                self.corner(FTR_SRC_Z.width),
            ];
            user = self.corner(FTR_USER.width);
            // the fields a source leaves zero, which the hardware carries (the APErouter's
            // routing keeps `route`; nothing reads `rsvd`): one packet in 8 has them set
            if self.rng.next_u64().is_multiple_of(8) {
                use crate::packet::layout::{HDR_ROUTE, HDR_RSVD};
                route = self.corner(HDR_ROUTE.width);
                rsvd = self.corner(HDR_RSVD.width);
            }
        }
        let vc = if self.corners && self.any_vc_field {
            self.below(8)
        } else {
            self.below(self.spec.num_vcs as u64)
        };
        let (mut dst, mut port) = if self.spec.dests.is_empty() {
            ([1, 0, 0], 0)
        } else {
            let k = self.below(self.spec.dests.len() as u64) as usize;
            self.spec.dests[k]
        };
        if self.corners && self.rng.next_u64().is_multiple_of(16) {
            // anywhere: coordinates and port at any value their fields hold (mostly dropped)
            let x = self.rng.next_u64();
            dst = [x as u8, (x >> 8) as u8, (x >> 16) as u8];
            port = (x >> 24) as u8 & 7;
        }
        let words = if !kind.carries_payload() {
            0
        } else if self.spec.size_in_words {
            size
        } else {
            size.div_ceil(16)
        };
        let payload: Vec<u128> = (0..words)
            .map(|_| ((self.half() as u128) << 64) | self.half() as u128)
            .collect();
        let seq = self.seq;
        self.seq += 1;
        // the packet's id, which the scoreboards find it by: the sequence number, or under
        // corners a bijection of it over the whole 48-bit `dst_addr` (distinct sequence numbers,
        // bases included, give distinct ids, and every address bit toggles)
        let id = if self.corners { scramble48(seq) } else { seq };
        let chan_id = if self.corners {
            self.corner(16)
        } else {
            seq & 0xffff
        };
        let p = Packet::builder()
            .size_in_words(self.spec.size_in_words)
            .vc(vc)
            .kind(kind)
            .size(size as u64)
            .dst(dst[0] as u64, dst[1] as u64, dst[2] as u64)
            .dst_port(port as u64)
            .route(route)
            .rsvd(rsvd)
            .src(src[0], src[1], src[2])
            .pdid(pdid)
            .user(user)
            .dst_addr(id)
            .chan_id(chan_id)
            .payload(payload)
            .build()
            .expect("generator parameters are validated by the caller");
        (id, p)
    }
}

/// A bijection of the 48-bit values (odd multipliers and xor-shifts are invertible modulo
/// 2^48): the constrained stimulus's packet ids, unique as the sequence numbers are, with every
/// bit of `dst_addr` in use.
fn scramble48(x: u64) -> u64 {
    const M: u64 = (1 << 48) - 1;
    let mut x = x.wrapping_mul(0x9E37_79B9_7F4B) & M;
    x ^= x >> 23;
    x = x.wrapping_mul(0xD6E8_FEB8_6659) & M;
    x ^ (x >> 21)
}

/// Where a source's packets come from.
#[derive(Debug, Clone)]
pub enum SourceMode {
    /// Keep the FIFO full: a new packet whenever the queue runs low.
    Saturate,
    /// Send `n` packets as fast as possible, then stop.
    Count(u64),
    /// One packet at each listed cycle (sorted), when the FIFO has room.
    AtCycles(VecDeque<u64>),
    /// Nothing.
    Idle,
}

/// Writes packets into packet FIFOs (`src/pktfifo.rs`), one word a cycle: the header and the
/// footer into a header/footer FIFO, the payload into a payload FIFO, never overflowing either.
/// With `per_vc` the FIFO of VC v is `fifos[v]` (a link end), otherwise `fifos[0]` (an intra-tile
/// port). Registers: `wr_hf`, `wr_pay` (bit = FIFO index), `wdata`.
#[derive(Debug, Clone)]
pub struct Source {
    pub gen: PacketGen,
    pub mode: SourceMode,
    pub per_vc: bool,
    pending: VecDeque<Pending>,
    pub wr_hf: u8,
    pub wr_pay: u8,
    pub wdata: u128,
    wr_header_seq: Option<u64>,
    /// Cycle at which each packet's header was written into its FIFO, by sequence number.
    pub header_written_at: HashMap<u64, u64>,
    /// Packets handed to the FIFOs (header written), in order, with their VC.
    pub sent: Vec<(u64, u32)>,
    packets: HashMap<u64, Packet>,
    pub keep_packets: bool,
    /// Start no new packet (a packet begun is written to its footer): the test bench hands the
    /// FIFO to another writer.
    pub hold: bool,
}

#[derive(Debug, Clone, Copy)]
struct Pending {
    word: u128,
    hf: bool,
    fifo: usize,
    header_of: Option<u64>,
}

impl Source {
    pub fn new(mut gen: PacketGen, mode: SourceMode, per_vc: bool) -> Source {
        gen.any_vc_field = !per_vc;
        Source {
            gen,
            mode,
            per_vc,
            pending: VecDeque::new(),
            wr_hf: 0,
            wr_pay: 0,
            wdata: 0,
            wr_header_seq: None,
            header_written_at: HashMap::new(),
            sent: Vec::new(),
            packets: HashMap::new(),
            keep_packets: true,
            hold: false,
        }
    }

    fn enqueue(&mut self) {
        let (seq, p) = self.gen.next_packet();
        let words = p.words();
        let fifo = if self.per_vc { p.header.vc as usize } else { 0 };
        let last = words.len() - 1;
        for (k, w) in words.into_iter().enumerate() {
            let hf = k == 0 || k == last;
            self.pending.push_back(Pending {
                word: w,
                hf,
                fifo,
                header_of: (k == 0).then_some(seq),
            });
        }
        if self.keep_packets {
            self.packets.insert(seq, p);
        }
    }

    /// The packet with sequence number `seq`, if kept.
    pub fn packet(&self, seq: u64) -> Option<&Packet> {
        self.packets.get(&seq)
    }

    /// Forget a packet the scoreboard has accounted for.
    pub fn forget(&mut self, seq: u64) -> Option<Packet> {
        self.packets.remove(&seq)
    }

    /// Is a word being written this cycle?
    pub fn writing(&self) -> bool {
        self.wr_hf != 0 || self.wr_pay != 0
    }

    /// No packet begun and no word being written: with [`Source::hold`], the FIFO can change
    /// writers.
    pub fn at_boundary(&self) -> bool {
        !self.writing() && self.pending.front().is_none_or(|n| n.header_of.is_some())
    }

    /// The reset of the FIFOs it writes (`rst_ni` low, the test bench's registers with it): the
    /// word being written is not written, and the rest of a packet begun is dropped (its header
    /// is in the FIFO no more); the next packet starts at its header. Packets whose header was
    /// written are the scoreboard's to count ([`Scoreboard::reset`]).
    pub fn reset(&mut self) {
        self.wr_hf = 0;
        self.wr_pay = 0;
        self.wdata = 0;
        self.wr_header_seq = None;
        while self.pending.front().is_some_and(|n| n.header_of.is_none()) {
            self.pending.pop_front();
        }
    }

    /// Forget every packet sent (its header written) and not yet accounted for; how many
    /// (after a reset, for a test bench without a [`Scoreboard`]).
    pub fn forget_sent(&mut self) -> u64 {
        let packets = &mut self.packets;
        self.sent
            .iter()
            .filter(|(seq, _)| packets.remove(seq).is_some())
            .count() as u64
    }

    /// Next state, from the FIFOs' occupancies in this cycle.
    pub fn step(&mut self, cycle: u64, fifos: &[&PktFifo]) {
        if self.writing() {
            if let Some(seq) = self.wr_header_seq {
                self.header_written_at.insert(seq, cycle);
                let vc = (self.wdata & 7) as u32;
                self.sent.push((seq, vc));
            }
        }
        match &mut self.mode {
            SourceMode::Saturate => {
                if self.pending.len() < 64 {
                    self.enqueue();
                }
            }
            SourceMode::Count(n) => {
                if self.pending.is_empty() && *n > 0 {
                    *n -= 1;
                    self.enqueue();
                }
            }
            SourceMode::AtCycles(at) => {
                if at.front().is_some_and(|&c| c <= cycle + 1) {
                    at.pop_front();
                    self.enqueue();
                }
            }
            SourceMode::Idle => {}
        }
        let (prev_hf, prev_pay) = (self.wr_hf, self.wr_pay);
        self.wr_hf = 0;
        self.wr_pay = 0;
        self.wdata = 0;
        self.wr_header_seq = None;
        if self.gen.pause() {
            return;
        }
        if let Some(next) = self.pending.front().copied() {
            if self.hold && next.header_of.is_some() {
                return;
            }
            let f = fifos[next.fifo];
            let (fifo, prev) = if next.hf {
                (&f.hf, prev_hf)
            } else {
                (&f.pay, prev_pay)
            };
            let in_flight = (prev >> next.fifo) & 1;
            if fifo.usedw() + (in_flight as u32) < fifo.params().depth {
                self.pending.pop_front();
                if next.hf {
                    self.wr_hf = 1 << next.fifo;
                } else {
                    self.wr_pay = 1 << next.fifo;
                }
                self.wdata = next.word;
                self.wr_header_seq = next.header_of;
            }
        }
    }
}

/// When the consumer pops a word.
#[derive(Debug, Clone)]
pub enum BackPressure {
    /// Pop whenever a word is visible.
    None,
    /// Pop with probability `p_ready` each cycle per VC (a seeded Mersenne Twister).
    Random { p_ready: f64, rng: Box<Mt64> },
    /// Never pop.
    Stall,
    /// Pop with probability `p_ready[0]` in even periods of `period` cycles and `p_ready[1]`
    /// in odd ones: phases that fill the buffers (and stall the sender) alternate with
    /// phases that drain them.
    Alternating {
        p_ready: [f64; 2],
        period: u64,
        rng: Box<Mt64>,
    },
}

impl BackPressure {
    pub fn random(p_ready: f64, seed: u64) -> BackPressure {
        BackPressure::Random {
            p_ready,
            rng: Box::new(Mt64::new(seed)),
        }
    }
    pub fn alternating(p_ready: [f64; 2], period: u64, seed: u64) -> BackPressure {
        BackPressure::Alternating {
            p_ready,
            period,
            rng: Box::new(Mt64::new(seed)),
        }
    }
}

fn unit(rng: &mut Mt64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A packet as read out of an RX FIFO.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    pub vc: u32,
    pub words: Vec<u128>,
    pub cycle_header: u64,
    pub cycle_footer: u64,
}

/// What a consumer reads next from a packet FIFO.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    Header,
    /// The header's pop is scheduled; its size is known once it is read.
    HeaderInFlight,
    Payload(u32),
    Footer,
}

/// Drains packet FIFOs in packet order (header, payload, footer), one word a cycle per FIFO
/// pair, and reassembles packets. Registers: `rd_hf`, `rd_pay` (bit = FIFO index).
#[derive(Debug, Clone)]
pub struct Consumer {
    pub policy: BackPressure,
    pub rd_hf: u8,
    pub rd_pay: u8,
    size_in_words: bool,
    plan: Vec<Plan>,
    partial: Vec<(Vec<u128>, u64)>,
    /// Completed packets not yet taken by a scoreboard.
    pub done: VecDeque<Received>,
    pub words_popped: u64,
    /// Start no new packet (a packet begun is read to its footer): the test bench hands the
    /// FIFOs to another reader.
    pub paused: bool,
    /// The back-pressure set aside while [`Consumer::drain_at_full_speed`] holds.
    set_aside: Option<BackPressure>,
}

impl Consumer {
    /// No packet begun and no word being popped: the FIFOs can change readers.
    pub fn at_boundary(&self) -> bool {
        self.plan.iter().all(|p| matches!(p, Plan::Header)) && self.rd_hf == 0 && self.rd_pay == 0
    }

    pub fn new(num_fifos: u32, size_in_words: bool, policy: BackPressure) -> Consumer {
        Consumer {
            policy,
            rd_hf: 0,
            rd_pay: 0,
            size_in_words,
            plan: vec![Plan::Header; num_fifos as usize],
            partial: vec![(Vec::new(), 0); num_fifos as usize],
            done: VecDeque::new(),
            words_popped: 0,
            paused: false,
            set_aside: None,
        }
    }

    /// Read whenever a word shows, its back-pressure (and that policy's draws) set aside until
    /// [`Consumer::resume_back_pressure`]: a test bench draining its design.
    pub fn drain_at_full_speed(&mut self) {
        if self.set_aside.is_none() {
            self.set_aside = Some(std::mem::replace(&mut self.policy, BackPressure::None));
        }
    }

    /// The back-pressure [`Consumer::drain_at_full_speed`] set aside, back where it was.
    pub fn resume_back_pressure(&mut self) {
        if let Some(p) = self.set_aside.take() {
            self.policy = p;
        }
    }

    /// The reset of the FIFOs it reads: no word is popped, and the packets begun are dropped
    /// (the rest of them is in the FIFOs no more); each FIFO is read from a header again.
    pub fn reset(&mut self) {
        self.rd_hf = 0;
        self.rd_pay = 0;
        self.plan.iter_mut().for_each(|p| *p = Plan::Header);
        self.partial.iter_mut().for_each(|p| p.0.clear());
    }

    /// Next state, from the FIFOs of this cycle: take the words popped now, schedule the next.
    pub fn step(&mut self, cycle: u64, fifos: &[&PktFifo]) {
        for (v, f) in fifos.iter().enumerate() {
            let bit = 1u8 << v;
            let word = if self.rd_hf & bit != 0 {
                Some(f.hf.rdata())
            } else if self.rd_pay & bit != 0 {
                Some(f.pay.rdata())
            } else {
                None
            };
            let Some(w) = word else { continue };
            self.words_popped += 1;
            let (words, c0) = &mut self.partial[v];
            if words.is_empty() {
                *c0 = cycle;
                let n = payload_words(w, self.size_in_words);
                self.plan[v] = if n > 0 {
                    Plan::Payload(n)
                } else {
                    Plan::Footer
                };
            }
            words.push(w);
            let total = payload_words(words[0], self.size_in_words) as usize + 2;
            if words.len() == total {
                let words = std::mem::take(words);
                let vc = (words[0] & 7) as u32;
                self.done.push_back(Received {
                    vc,
                    words,
                    cycle_header: *c0,
                    cycle_footer: cycle,
                });
            }
        }
        let (prev_hf, prev_pay) = (self.rd_hf, self.rd_pay);
        self.rd_hf = 0;
        self.rd_pay = 0;
        for (v, f) in fifos.iter().enumerate() {
            let bit = 1u8 << v;
            let ready = match &mut self.policy {
                BackPressure::None => true,
                BackPressure::Stall => false,
                BackPressure::Random { p_ready, rng } => unit(rng) <= *p_ready,
                BackPressure::Alternating {
                    p_ready,
                    period,
                    rng,
                } => unit(rng) <= p_ready[((cycle / (*period).max(1)) % 2) as usize],
            };
            let want = ready && !(self.paused && matches!(self.plan[v], Plan::Header));
            let avail =
                |fifo: &crate::fifo::Fifo, prev: u8| fifo.rdusedw() > ((prev & bit != 0) as u32);
            match self.plan[v] {
                Plan::Header if want && avail(&f.hf, prev_hf) => {
                    self.rd_hf |= bit;
                    self.plan[v] = Plan::HeaderInFlight;
                }
                Plan::Payload(n) if want && avail(&f.pay, prev_pay) => {
                    self.rd_pay |= bit;
                    self.plan[v] = if n > 1 {
                        Plan::Payload(n - 1)
                    } else {
                        Plan::Footer
                    };
                }
                Plan::Footer if want && avail(&f.hf, prev_hf) => {
                    self.rd_hf |= bit;
                    self.plan[v] = Plan::Header;
                }
                _ => {}
            }
        }
    }
}

/// Accounts for every packet of one direction: delivered intact, delivered with `crc_bad`,
/// lost (a gap in a VC's sequence), in flight when the path was reset (`reset_lost`), or
/// silently corrupted (delivered changed without
/// `crc_bad`, or delivered where no packet was expected with `crc_bad` clear). A silent
/// corruption is a counted category, not a failure of the run: bit errors can turn a packet
/// into another one that every check passes (docs/decisions/0017); tests that expect none
/// assert `silent == 0`.
///
/// A packet delivered with `crc_bad` whose header no longer names the packet expected next on
/// its VC cannot be matched to the packet it was: it is counted as flagged and stands for one
/// of the packets a later gap shows missing (`unmatched`), so that each sent packet is counted
/// once. A silent corruption that matches nothing is treated the same way.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scoreboard {
    pub delivered: u64,
    pub crc_bad: u64,
    pub lost: u64,
    pub silent: u64,
    /// In flight when the path was reset ([`Scoreboard::reset`]).
    pub reset_lost: u64,
    /// Of `crc_bad`: delivered intact but flagged, the `crc_bad` bit itself hit on the wire
    /// (it is outside the CRC; a false alarm, on the safe side). The link counts these as
    /// delivered with a good CRC.
    pub false_alarms: u64,
    /// What the first silent corruptions looked like (at most [`Scoreboard::LOG_MAX`]).
    pub silent_log: Vec<String>,
    /// Inconsistencies of the test bench itself (never expected).
    pub errors: Vec<String>,
    pub payload_bytes: u64,
    /// Per VC, sequence numbers sent and not yet delivered or declared lost, in order.
    outstanding: Vec<VecDeque<u64>>,
    next_sent: usize,
    size_in_words: bool,
    /// Delivered packets not matched to the packet they were (see above).
    unmatched: u64,
}

impl Scoreboard {
    /// Silent corruptions described in `silent_log`.
    pub const LOG_MAX: usize = 16;

    pub fn new(num_vcs: u32, size_in_words: bool) -> Scoreboard {
        Scoreboard {
            outstanding: vec![VecDeque::new(); num_vcs as usize],
            size_in_words,
            ..Default::default()
        }
    }

    /// Take what the source has sent and the consumer has received so far.
    pub fn update(&mut self, src: &mut Source, con: &mut Consumer) {
        self.update_sent(src);
        while let Some(r) = con.done.pop_front() {
            self.check(src, r);
        }
    }

    fn update_sent(&mut self, src: &Source) {
        while self.next_sent < src.sent.len() {
            let (seq, vc) = src.sent[self.next_sent];
            self.next_sent += 1;
            if let Some(q) = self.outstanding.get_mut(vc as usize) {
                q.push_back(seq);
            }
        }
    }

    fn silent(&mut self, what: String) {
        self.silent += 1;
        if self.silent_log.len() < Self::LOG_MAX {
            self.silent_log.push(what);
        }
    }

    fn check(&mut self, src: &mut Source, r: Received) {
        let hdr = r.words[0];
        let seq = ((hdr >> 54) & ((1u128 << 48) - 1)) as u64;
        let footer = *r.words.last().expect("a packet has a footer");
        let bad = (footer >> crate::link::tcl_rx::FTR_CRC_BAD_BIT) & 1 == 1;
        let Some(q) = self.outstanding.get_mut(r.vc as usize) else {
            self.unmatched += 1;
            if bad {
                self.crc_bad += 1;
            } else {
                self.silent(format!("packet {seq} on VC {}, which does not exist", r.vc));
            }
            return;
        };
        if bad {
            // flagged: its header may be anything; it is the expected packet only if it says so
            self.crc_bad += 1;
            if q.front() == Some(&seq) {
                q.pop_front();
                if let Some(p) = src.forget(seq) {
                    let flag = 1u128 << crate::link::tcl_rx::FTR_CRC_BAD_BIT;
                    let mut got = r.words.clone();
                    *got.last_mut().expect("a packet has a footer") &= !flag;
                    if p.words() == got {
                        self.false_alarms += 1;
                    }
                }
            } else {
                self.unmatched += 1;
            }
            return;
        }
        let Some(pos) = q.iter().position(|&s| s == seq) else {
            self.unmatched += 1;
            self.silent(format!(
                "packet {seq} on VC {} was not expected (its header changed)",
                r.vc
            ));
            return;
        };
        for _ in 0..pos {
            let lost = q.pop_front().expect("position is within the queue");
            src.forget(lost);
            if self.unmatched > 0 {
                self.unmatched -= 1;
            } else {
                self.lost += 1;
            }
        }
        q.pop_front();
        if let Some(p) = src.forget(seq) {
            let expect = p.words();
            if expect != r.words {
                let diff = expect
                    .iter()
                    .zip(&r.words)
                    .enumerate()
                    .find(|(_, (a, b))| a != b)
                    .map(|(k, (a, b))| {
                        format!("word {k} of {} differs by {:#x}", expect.len(), a ^ b)
                    })
                    .unwrap_or_else(|| {
                        format!("{} words instead of {}", r.words.len(), expect.len())
                    });
                self.silent(format!(
                    "packet {seq} on VC {} delivered with different content and no crc_bad: {diff}",
                    r.vc
                ));
            } else {
                self.delivered += 1;
                let size = p.header.size as u64;
                self.payload_bytes += if self.size_in_words { 16 * size } else { size };
            }
        } else {
            self.delivered += 1;
        }
    }

    /// The reset of the path between `src` and its consumer (every FIFO, TCL and lane on it):
    /// the packets in flight are gone, counted in `reset_lost`; the sequence checks start
    /// afresh with the packets sent from now on.
    pub fn reset(&mut self, src: &mut Source) {
        self.update_sent(src);
        self.reset_lost += self.in_flight();
        for q in &mut self.outstanding {
            for seq in q.drain(..) {
                src.forget(seq);
            }
        }
        self.unmatched = 0;
    }

    /// Packets sent and neither delivered nor declared lost yet.
    pub fn in_flight(&self) -> u64 {
        let out: u64 = self.outstanding.iter().map(|q| q.len() as u64).sum();
        out.saturating_sub(self.unmatched)
    }
}

/// Accounts for packets from many sources delivered at many outputs of a router or a network:
/// each delivered packet is found by its sequence number (the header's `dst_addr`) among the
/// sources' outstanding packets and compared with what was sent, except the header's VC and
/// SECDED bits, which routers rewrite. A packet with `crc_bad` that names no outstanding packet
/// (its header was changed) is counted as flagged; one delivered changed without `crc_bad` is a
/// silent corruption, counted (see [`Scoreboard`]).
#[derive(Debug, Clone, Default)]
pub struct RouteBoard {
    pub delivered: u64,
    /// Delivered with `crc_bad` set (a link's CRC check failed on the way).
    pub crc_bad: u64,
    /// Delivered changed without `crc_bad`.
    pub silent: u64,
    pub silent_log: Vec<String>,
    pub payload_bytes: u64,
    /// Inconsistencies of the test bench itself (never expected).
    pub errors: Vec<String>,
}

/// Header bits a router may change: the VC field and the SECDED code.
const HDR_REWRITTEN: u128 = 0x7 | (0xffu128 << 120);

impl RouteBoard {
    fn silent(&mut self, what: String) {
        self.silent += 1;
        if self.silent_log.len() < Scoreboard::LOG_MAX {
            self.silent_log.push(what);
        }
    }

    pub fn check(&mut self, srcs: &mut [&mut Source], r: Received) {
        let hdr = r.words[0];
        let seq = ((hdr >> 54) & ((1u128 << 48) - 1)) as u64;
        let footer = *r.words.last().expect("a packet has a footer");
        let bad = (footer >> crate::link::tcl_rx::FTR_CRC_BAD_BIT) & 1 == 1;
        let Some(src) = srcs.iter_mut().find(|s| s.packet(seq).is_some()) else {
            if bad {
                self.crc_bad += 1;
            } else {
                self.silent(format!(
                    "packet {seq:#x} delivered but not outstanding at any source (header {hdr:#034x}, {} words)",
                    r.words.len()
                ));
            }
            return;
        };
        let p = src.forget(seq).expect("found above");
        if bad {
            self.crc_bad += 1;
            return;
        }
        let sent = p.words();
        let same = sent.len() == r.words.len()
            && (sent[0] & !HDR_REWRITTEN) == (hdr & !HDR_REWRITTEN)
            && sent[1..] == r.words[1..];
        if same {
            self.delivered += 1;
            self.payload_bytes += p.header.size as u64;
        } else {
            let diff = sent
                .iter()
                .zip(&r.words)
                .enumerate()
                .map(|(k, (a, b))| {
                    let mask = if k == 0 { !HDR_REWRITTEN } else { u128::MAX };
                    (k, (a ^ b) & mask)
                })
                .find(|&(_, d)| d != 0)
                .map(|(k, d)| format!("word {k} of {} differs by {d:#x}", sent.len()))
                .unwrap_or_else(|| format!("{} words instead of {}", r.words.len(), sent.len()));
            self.silent(format!(
                "packet {seq:#x} delivered with different content and no crc_bad: {diff}"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constrained_ids_are_distinct_and_use_every_address_bit() {
        // the bases the benches give: (k + 1) << 24 for a few sources, sequence numbers above
        let mut seen = std::collections::HashSet::new();
        let (mut ones, mut zeros) = (0u64, 0u64);
        for base in [0u64, 1 << 24, 2 << 24, 8 << 24] {
            for seq in base..base + 5_000 {
                let id = scramble48(seq);
                assert!(id < 1 << 48, "{id:#x} is wider than dst_addr");
                assert!(seen.insert(id), "two sequence numbers share id {id:#x}");
                ones |= id;
                zeros |= !id;
            }
        }
        let m = (1u64 << 48) - 1;
        assert_eq!((ones & m, zeros & m), (m, m));
    }
}
