//! Reusable test-bench blocks: packet generators, a source that writes a FIFO, a consumer that
//! drains per-VC FIFOs with configurable back-pressure, and a scoreboard that accounts for
//! every packet. They are clocked like the hardware: their outputs are registers, their next
//! state is computed from the registers of the design in the same cycle.
//!
//! Packets carry their sequence number in the header's `dst_addr` (ECC-protected, so it
//! survives any error the header code corrects) and in the footer's `chan_id` (low 16 bits).

use crate::packet::{payload_words, Packet, PacketType};
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
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrafficSpec {
    pub sizes: SizeDist,
    /// VCs used, uniformly: `0..num_vcs`.
    pub num_vcs: u32,
    pub size_in_words: bool,
}

/// Makes packets with random sizes, VCs and payload data from a seeded Mersenne Twister.
#[derive(Debug, Clone)]
pub struct PacketGen {
    spec: TrafficSpec,
    rng: Mt64,
    seq: u64,
}

impl PacketGen {
    pub fn new(spec: TrafficSpec, seed: u64) -> PacketGen {
        PacketGen {
            spec,
            rng: Mt64::new(seed),
            seq: 0,
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            0
        } else {
            self.rng.next_u64() % n
        }
    }

    /// The next packet; `seq` numbers packets from 0.
    pub fn next_packet(&mut self) -> (u64, Packet) {
        let size = match self.spec.sizes {
            SizeDist::Fixed(s) => s,
            SizeDist::Uniform { min, max } => min + self.below((max - min + 1) as u64) as u32,
        };
        let vc = self.below(self.spec.num_vcs as u64);
        let words = if self.spec.size_in_words {
            size
        } else {
            size.div_ceil(16)
        };
        let payload: Vec<u128> = (0..words)
            .map(|_| ((self.rng.next_u64() as u128) << 64) | self.rng.next_u64() as u128)
            .collect();
        let seq = self.seq;
        self.seq += 1;
        let p = Packet::builder()
            .size_in_words(self.spec.size_in_words)
            .vc(vc)
            .kind(PacketType::Rdma)
            .size(size as u64)
            .dst(1, 0, 0)
            .src(0, 0, 0)
            .dst_addr(seq)
            .chan_id(seq & 0xffff)
            .payload(payload)
            .build()
            .expect("generator parameters are validated by the caller");
        (seq, p)
    }
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

/// Writes packets into a FIFO, one word a cycle, never overflowing it.
/// Registers: `wr`, `wdata` (the FIFO's `wr_i`, `wdata_i` this cycle).
#[derive(Debug, Clone)]
pub struct Source {
    pub gen: PacketGen,
    pub mode: SourceMode,
    pending: VecDeque<(u128, Option<u64>)>,
    pub wr: bool,
    pub wdata: u128,
    wr_header_seq: Option<u64>,
    /// Cycle at which each packet's header was written into the FIFO, by sequence number.
    pub header_written_at: HashMap<u64, u64>,
    /// Packets handed to the FIFO (header written), in order, with their VC.
    pub sent: Vec<(u64, u32)>,
    packets: HashMap<u64, Packet>,
    pub keep_packets: bool,
}

impl Source {
    pub fn new(gen: PacketGen, mode: SourceMode) -> Source {
        Source {
            gen,
            mode,
            pending: VecDeque::new(),
            wr: false,
            wdata: 0,
            wr_header_seq: None,
            header_written_at: HashMap::new(),
            sent: Vec::new(),
            packets: HashMap::new(),
            keep_packets: true,
        }
    }

    fn enqueue(&mut self) {
        let (seq, p) = self.gen.next_packet();
        let words = p.words();
        for (k, w) in words.into_iter().enumerate() {
            self.pending.push_back((w, (k == 0).then_some(seq)));
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

    /// Next state, from the FIFO's occupancy and depth in this cycle.
    pub fn step(&mut self, cycle: u64, fifo_usedw: u32, fifo_depth: u32) {
        if self.wr {
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
        let room = fifo_depth as i64 - fifo_usedw as i64 - self.wr as i64;
        if room > 0 {
            if let Some((w, seq)) = self.pending.pop_front() {
                self.wr = true;
                self.wdata = w;
                self.wr_header_seq = seq;
                return;
            }
        }
        self.wr = false;
        self.wdata = 0;
        self.wr_header_seq = None;
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

/// Drains per-VC FIFOs; reassembles packets. Register: `rd` (bit v pops VC v this cycle).
#[derive(Debug, Clone)]
pub struct Consumer {
    pub policy: BackPressure,
    pub rd: u8,
    size_in_words: bool,
    partial: Vec<Option<(Vec<u128>, u32, u64)>>,
    /// Completed packets not yet taken by a scoreboard.
    pub done: VecDeque<Received>,
    pub words_popped: u64,
}

impl Consumer {
    pub fn new(num_vcs: u32, size_in_words: bool, policy: BackPressure) -> Consumer {
        Consumer {
            policy,
            rd: 0,
            size_in_words,
            partial: vec![None; num_vcs as usize],
            done: VecDeque::new(),
            words_popped: 0,
        }
    }

    /// Next state. `heads[v]` is the word at the head of FIFO v this cycle, `visible[v]` its
    /// read-side occupancy (`rdusedw`).
    pub fn step(&mut self, cycle: u64, heads: &[u128], visible: &[u32]) {
        for (v, &head) in heads.iter().enumerate() {
            if self.rd & (1 << v) == 0 {
                continue;
            }
            self.words_popped += 1;
            let slot = &mut self.partial[v];
            match slot {
                None => {
                    let total = payload_words(head, self.size_in_words) + 2;
                    *slot = Some((vec![head], total, cycle));
                }
                Some((words, _, _)) => words.push(head),
            }
            if let Some((words, total, c0)) = slot {
                if words.len() as u32 == *total {
                    let words = std::mem::take(words);
                    self.done.push_back(Received {
                        vc: v as u32,
                        words,
                        cycle_header: *c0,
                        cycle_footer: cycle,
                    });
                    *slot = None;
                }
            }
        }
        let mut rd = 0u8;
        for (v, &vis) in visible.iter().enumerate() {
            let popping = (self.rd >> v) & 1;
            let avail = vis as i64 - popping as i64 > 0;
            let want = match &mut self.policy {
                BackPressure::None => true,
                BackPressure::Stall => false,
                BackPressure::Random { p_ready, rng } => unit(rng) <= *p_ready,
                BackPressure::Alternating {
                    p_ready,
                    period,
                    rng,
                } => unit(rng) <= p_ready[((cycle / (*period).max(1)) % 2) as usize],
            };
            if avail && want {
                rd |= 1 << v;
            }
        }
        self.rd = rd;
    }
}

/// Accounts for every packet of one direction: delivered intact, delivered with `crc_bad`,
/// lost (a gap in a VC's sequence), or wrong (delivered with different content and no
/// `crc_bad`: a silent corruption, which must never happen).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scoreboard {
    pub delivered: u64,
    pub crc_bad: u64,
    pub lost: u64,
    pub errors: Vec<String>,
    pub payload_bytes: u64,
    /// Per VC, sequence numbers sent and not yet delivered or declared lost, in order.
    outstanding: Vec<VecDeque<u64>>,
    next_sent: usize,
    size_in_words: bool,
}

impl Scoreboard {
    pub fn new(num_vcs: u32, size_in_words: bool) -> Scoreboard {
        Scoreboard {
            outstanding: vec![VecDeque::new(); num_vcs as usize],
            size_in_words,
            ..Default::default()
        }
    }

    /// Take what the source has sent and the consumer has received so far.
    pub fn update(&mut self, src: &mut Source, con: &mut Consumer) {
        while self.next_sent < src.sent.len() {
            let (seq, vc) = src.sent[self.next_sent];
            self.next_sent += 1;
            if let Some(q) = self.outstanding.get_mut(vc as usize) {
                q.push_back(seq);
            }
        }
        while let Some(r) = con.done.pop_front() {
            self.check(src, r);
        }
    }

    fn check(&mut self, src: &mut Source, r: Received) {
        let hdr = r.words[0];
        let seq = ((hdr >> 54) & ((1u128 << 48) - 1)) as u64;
        let Some(q) = self.outstanding.get_mut(r.vc as usize) else {
            self.errors.push(format!("packet on unknown VC {}", r.vc));
            return;
        };
        let Some(pos) = q.iter().position(|&s| s == seq) else {
            self.errors.push(format!(
                "packet {seq} on VC {} was not expected (duplicate or misdelivered)",
                r.vc
            ));
            return;
        };
        for _ in 0..pos {
            let lost = q.pop_front().expect("position is within the queue");
            src.forget(lost);
            self.lost += 1;
        }
        q.pop_front();
        let footer = *r.words.last().expect("a packet has a footer");
        let bad = (footer >> crate::link::tcl_rx::FTR_CRC_BAD_BIT) & 1 == 1;
        if let Some(p) = src.forget(seq) {
            let expect = p.words();
            if bad {
                self.crc_bad += 1;
            } else if expect != r.words {
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
                self.errors.push(format!(
                    "packet {seq} on VC {} delivered with different content and no crc_bad: {diff}",
                    r.vc
                ));
            } else {
                self.delivered += 1;
                let size = p.header.size as u64;
                self.payload_bytes += if self.size_in_words { 16 * size } else { size };
            }
        } else if bad {
            self.crc_bad += 1;
        } else {
            self.delivered += 1;
        }
    }

    /// Packets sent and neither delivered nor declared lost yet.
    pub fn in_flight(&self) -> u64 {
        self.outstanding.iter().map(|q| q.len() as u64).sum()
    }
}
