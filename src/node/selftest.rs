//! The self-test IPs of the ExaNet Network IP (Biagioni 2017 §5.4.2): a Traffic Generator per
//! intra-tile port that fills its TX FIFOs with packets configured through the Target Controller
//! (type, size, destination coordinates and port, VC, count), a Consumer per intra-tile port that
//! drains its RX FIFOs, and the Performance Counter that counts the cycles of a transfer.
//!
//! Cycle contracts:
//! - Generator: at `start` it latches the packet configuration (so register writes during a
//!   transfer cannot tear a packet), then writes one word a cycle into the port's header/footer
//!   or payload FIFO, in packet order, never overflowing a FIFO (it writes only when the FIFO,
//!   counting the write it has in flight, has room). Payload word k of packet n is a fixed
//!   pattern of (port, n, k); the footer carries the CRC-32C of the payload, the header its
//!   SECDED code. The Target Controller refuses a start while any generator is active. Its
//!   enable cleared during a run, the generator finishes the packet it is writing and stops
//!   before the next header; the node leaves it the port until then (decision 0043).
//! - Consumer: pops in packet order (header, payload, footer), one word a cycle from each FIFO it
//!   reads; pops are registered and scheduled from the FIFOs' visible occupancy.
//! - Performance counter: counts every cycle from `start` until the consumers have received the
//!   expected number of packets.
//!
//! RTL twins: `rtl/exanet_st_gen.sv`, `rtl/exanet_st_cons.sv`, `rtl/exanet_st_perf.sv`.

use crate::block::Block;
use crate::packet::crc::{crc32c_update128, crc32c_update64, crc_start, CRC_INIT, CRC_XOROUT};
use crate::packet::layout::*;
use crate::packet::{payload_words, secded_encode};
use crate::pktfifo::PktFifo;
use crate::probe::{b, clk_rst, Visitor};

/// The generators' configuration (the Target Controller's registers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GenCfg {
    /// ST_PKT: [12:0] size, [14:13] type, [17:15] VC.
    pub pkt: u32,
    /// ST_DEST: [7:0] X, [15:8] Y, [23:16] Z, [26:24] port.
    pub dest: u32,
    pub count: u32,
    /// This node's coordinates (COORD).
    pub coord: u32,
    pub size_in_words: bool,
}

impl GenCfg {
    /// The header word of packet `n` from port `port`.
    pub fn header(&self, port: u32, n: u32) -> u128 {
        let mut h = 0u128;
        h = HDR_VC.set(h, ((self.pkt >> 15) & 7) as u64);
        h = HDR_TYPE.set(h, ((self.pkt >> 13) & 3) as u64);
        h = HDR_SIZE.set(h, (self.pkt & 0x1fff) as u64);
        h = HDR_DST_X.set(h, (self.dest & 0xff) as u64);
        h = HDR_DST_Y.set(h, ((self.dest >> 8) & 0xff) as u64);
        h = HDR_DST_Z.set(h, ((self.dest >> 16) & 0xff) as u64);
        h = HDR_DST_PORT.set(h, ((self.dest >> 24) & 7) as u64);
        h = HDR_DST_ADDR.set(h, ((port as u64) << 32) | n as u64);
        secded_encode(h)
    }

    /// Payload word `k` of packet `n` from port `port`:
    /// `{port[7:0], n[23:0], k[31:0], (k * 0x9E3779B97F4A7C15 mod 2^64) ^ n}`.
    pub fn payload(port: u32, n: u32, k: u32) -> u128 {
        let lo = (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ n as u64;
        ((port as u128 & 0xff) << 120)
            | ((n as u128 & 0xff_ffff) << 96)
            | ((k as u128) << 64)
            | lo as u128
    }

    /// The footer's low half (covered by the CRC) of packet `n` from port `port`.
    pub fn footer_lo(&self, port: u32, n: u32) -> u64 {
        let size = self.pkt & 0x1fff;
        let kind = (self.pkt >> 13) & 3;
        let carries = kind != 1 && kind != 2;
        let valid = if !carries || size == 0 {
            0
        } else if self.size_in_words {
            15
        } else {
            (size - 1) % 16
        };
        let mut f = 0u128;
        f = FTR_CHAN_ID.set(f, (n & 0xffff) as u64);
        f = FTR_SRC_X.set(f, (self.coord & 0xff) as u64);
        f = FTR_SRC_Y.set(f, ((self.coord >> 8) & 0xff) as u64);
        f = FTR_SRC_Z.set(f, ((self.coord >> 16) & 0xff) as u64);
        f = FTR_VALID.set(f, valid as u64);
        f = FTR_USER.set(f, port as u64);
        f as u64
    }
}

/// What a Traffic Generator sees of its port's TX packet FIFO: `exanet_st_gen`'s `hf_usedw_i`
/// and `pay_usedw_i`, and the two depths the module is built with (`HF_DEPTH`, `PAY_DEPTH`).
/// A value, taken from the FIFO's registers of this cycle before anything steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GenFifoIn {
    pub hf_usedw: u32,
    pub pay_usedw: u32,
    pub hf_depth: u32,
    pub pay_depth: u32,
}

impl GenFifoIn {
    pub fn of(f: &PktFifo) -> GenFifoIn {
        GenFifoIn {
            hf_usedw: f.hf.usedw(),
            pay_usedw: f.pay.usedw(),
            hf_depth: f.hf.params().depth,
            pay_depth: f.pay.params().depth,
        }
    }
}

/// What a Consumer sees of its port's RX packet FIFO: `exanet_st_cons`'s `hf_rdusedw_i`,
/// `pay_rdusedw_i` and `hf_rdata_i`. A value, like [`GenFifoIn`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConsFifoIn {
    pub hf_rdusedw: u32,
    pub pay_rdusedw: u32,
    pub hf_rdata: u128,
}

impl ConsFifoIn {
    pub fn of(f: &PktFifo) -> ConsFifoIn {
        ConsFifoIn {
            hf_rdusedw: f.hf.rdusedw(),
            pay_rdusedw: f.pay.rdusedw(),
            hf_rdata: f.hf.rdata(),
        }
    }
}

/// Traffic Generator registers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrafficGen {
    /// The configuration latched at start.
    pub pkt: u32,
    pub dest: u32,
    pub count: u32,
    pub active: bool,
    pub sent: u32,
    pub widx: u32,
    pub crc: u32,
    pub wr_hf: bool,
    pub wr_pay: bool,
    pub wdata: u128,
}

/// A Traffic Generator's inputs in a cycle: its intra-tile port, the Target Controller's
/// configuration, start pulse and enable bit, and its port's TX FIFO.
#[derive(Debug, Clone, Copy)]
pub struct GenIn<'a> {
    pub port: u32,
    pub cfg: &'a GenCfg,
    pub start: bool,
    pub enabled: bool,
    pub fifo: &'a GenFifoIn,
}

impl Block for TrafficGen {
    /// (its port and sizes are inputs: nothing to build it from)
    type Spec = ();
    type In<'a> = GenIn<'a>;
    type Next = TrafficGen;
    type Events = ();

    fn reset(_: &()) -> TrafficGen {
        TrafficGen::default()
    }

    /// Next state. `start`/`enabled` from the Target Controller; `fifo`: the port's TX FIFO.
    fn eval(&self, i: &GenIn) -> TrafficGen {
        let (port, cfg, start, enabled, fifo) = (i.port, i.cfg, i.start, i.enabled, i.fifo);
        let mut n = self.clone();
        n.wr_hf = false;
        n.wr_pay = false;
        n.wdata = 0;
        if start {
            n.pkt = cfg.pkt;
            n.dest = cfg.dest;
            n.count = cfg.count;
            n.active = enabled && cfg.count > 0;
            n.sent = 0;
            n.widx = 0;
            n.crc = CRC_INIT;
            return n;
        }
        if !self.active {
            return n;
        }
        if !enabled && self.widx == 0 {
            // ST_GEN_EN cleared during the run: stop between packets (decision 0043)
            n.active = false;
            return n;
        }
        let cfg = &GenCfg {
            pkt: self.pkt,
            dest: self.dest,
            count: self.count,
            ..*cfg
        };
        let hdr = cfg.header(port, self.sent);
        let words = payload_words(hdr, cfg.size_in_words);
        let is_hf = self.widx == 0 || self.widx == words + 1;
        let (usedw, depth) = if is_hf {
            (fifo.hf_usedw, fifo.hf_depth)
        } else {
            (fifo.pay_usedw, fifo.pay_depth)
        };
        let in_flight = if is_hf { self.wr_hf } else { self.wr_pay } as u32;
        if usedw + in_flight >= depth {
            return n;
        }
        if self.widx == 0 {
            n.wr_hf = true;
            n.wdata = hdr;
            n.crc = crc_start(hdr);
            n.widx = 1;
        } else if self.widx <= words {
            let w = GenCfg::payload(port, self.sent, self.widx - 1);
            n.wr_pay = true;
            n.wdata = w;
            n.crc = crc32c_update128(self.crc, w);
            n.widx = self.widx + 1;
        } else {
            let lo = cfg.footer_lo(port, self.sent);
            let crc = crc32c_update64(self.crc, lo) ^ CRC_XOROUT;
            n.wr_hf = true;
            n.wdata = FTR_CRC.set(lo as u128, crc as u64);
            n.widx = 0;
            n.sent = self.sent.wrapping_add(1);
            n.active = self.sent.wrapping_add(1) != cfg.count;
        }
        n
    }

    fn commit(&mut self, n: TrafficGen) {
        *self = n;
    }

    fn probe(&self, i: &GenIn, v: &mut dyn Visitor) {
        let (start, enabled) = (i.start, i.enabled);
        clk_rst(v);
        v.sig("start_i", 1, b(start));
        v.sig("enabled_i", 1, b(enabled));
        v.sig("pkt_q", 32, self.pkt as u128);
        v.sig("dest_q", 32, self.dest as u128);
        v.sig("count_q", 32, self.count as u128);
        v.sig("active_q", 1, b(self.active));
        v.sig("sent_q", 32, self.sent as u128);
        v.sig("widx_q", 13, self.widx as u128);
        v.sig("crc_q", 32, self.crc as u128);
        v.sig("wr_hf_q", 1, b(self.wr_hf));
        v.sig("wr_pay_q", 1, b(self.wr_pay));
        v.sig("wdata_q", 128, self.wdata);
    }
}

/// What the consumer expects next (`plan_q`): `P_HDR`, `P_HDR_WAIT`, `P_PAY`, `P_FTR`, from
/// the one table shared with the RTL and the waves.
pub use crate::wave::states::st_cons_plan::*;

/// Consumer registers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StConsumer {
    pub rd_hf: bool,
    pub rd_pay: bool,
    pub plan: u8,
    pub left: u32,
    pub pkts: u32,
    pub words: u32,
}

/// A Consumer's inputs in a cycle: the start pulse and enable bit, the header's size unit,
/// and its port's RX FIFO.
#[derive(Debug, Clone, Copy)]
pub struct ConsIn<'a> {
    pub start: bool,
    pub enabled: bool,
    pub size_in_words: bool,
    pub fifo: &'a ConsFifoIn,
}

impl Block for StConsumer {
    /// (nothing to build it from)
    type Spec = ();
    type In<'a> = ConsIn<'a>;
    type Next = StConsumer;
    type Events = ();

    fn reset(_: &()) -> StConsumer {
        StConsumer::default()
    }

    /// Next state; `fifo`: the port's RX FIFO.
    fn eval(&self, i: &ConsIn) -> StConsumer {
        let (start, enabled, size_in_words, fifo) = (i.start, i.enabled, i.size_in_words, i.fifo);
        let mut n = self.clone();
        // the word popped this cycle
        if self.rd_hf || self.rd_pay {
            n.words = self.words.wrapping_add(1);
        }
        if self.rd_hf && self.plan == P_HDR_WAIT {
            let words = payload_words(fifo.hf_rdata, size_in_words);
            n.plan = if words > 0 { P_PAY } else { P_FTR };
            n.left = words;
        } else if self.rd_hf {
            n.pkts = self.pkts.wrapping_add(1);
        }
        if start {
            n.pkts = 0;
            n.words = 0;
        }
        // schedule the next pop
        n.rd_hf = false;
        n.rd_pay = false;
        let hf_avail = fifo.hf_rdusedw > self.rd_hf as u32;
        let pay_avail = fifo.pay_rdusedw > self.rd_pay as u32;
        if enabled {
            match n.plan {
                P_HDR if hf_avail => {
                    n.rd_hf = true;
                    n.plan = P_HDR_WAIT;
                }
                P_PAY if pay_avail => {
                    n.rd_pay = true;
                    n.left -= 1;
                    if n.left == 0 {
                        n.plan = P_FTR;
                    }
                }
                P_FTR if hf_avail => {
                    n.rd_hf = true;
                    n.plan = P_HDR;
                }
                _ => {}
            }
        }
        n
    }

    fn commit(&mut self, n: StConsumer) {
        *self = n;
    }

    fn probe(&self, i: &ConsIn, v: &mut dyn Visitor) {
        let (start, enabled) = (i.start, i.enabled);
        clk_rst(v);
        v.sig("start_i", 1, b(start));
        v.sig("enabled_i", 1, b(enabled));
        v.sig("rd_hf_q", 1, b(self.rd_hf));
        v.sig("rd_pay_q", 1, b(self.rd_pay));
        v.sig("plan_q", 2, self.plan as u128);
        v.sig("left_q", 13, self.left as u128);
        v.sig("pkts_q", 32, self.pkts as u128);
        v.sig("words_q", 32, self.words as u128);
    }
}

/// Performance Counter registers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PerfCounter {
    pub running: bool,
    pub done: bool,
    pub cycles: u32,
}

/// The Performance Counter's inputs in a cycle: the start pulse, the packets the consumers
/// have received (their registers) and how many end the transfer.
#[derive(Debug, Clone, Copy)]
pub struct PerfIn {
    pub start: bool,
    pub consumed: u32,
    pub expect: u32,
}

impl Block for PerfCounter {
    /// (nothing to build it from)
    type Spec = ();
    type In<'a> = PerfIn;
    type Next = PerfCounter;
    type Events = ();

    fn reset(_: &()) -> PerfCounter {
        PerfCounter::default()
    }

    /// `consumed`: packets the consumers have received (their registers); `expect`: how many
    /// end the transfer.
    fn eval(&self, i: &PerfIn) -> PerfCounter {
        let (start, consumed, expect) = (i.start, i.consumed, i.expect);
        let mut n = self.clone();
        if start {
            n.running = true;
            n.done = false;
            n.cycles = 0;
        } else if self.running {
            n.cycles = self.cycles.wrapping_add(1);
            if consumed >= expect {
                n.running = false;
                n.done = true;
            }
        }
        n
    }

    fn commit(&mut self, n: PerfCounter) {
        *self = n;
    }

    fn probe(&self, i: &PerfIn, v: &mut dyn Visitor) {
        let (start, consumed, expect) = (i.start, i.consumed, i.expect);
        clk_rst(v);
        v.sig("start_i", 1, b(start));
        v.sig("consumed_i", 32, consumed as u128);
        v.sig("expect_i", 32, expect as u128);
        v.sig("running_q", 1, b(self.running));
        v.sig("done_q", 1, b(self.done));
        v.sig("cycles_q", 32, self.cycles as u128);
    }
}

impl crate::counters::Counters for PerfCounter {
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.counter("cycles_q", &mut self.cycles);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decision 0043: a generator whose enable clears in the middle of a packet writes the rest
    /// of that packet (every payload word and the footer), then stops before the next header.
    #[test]
    fn a_generator_disabled_mid_packet_finishes_it_and_stops() {
        let cfg = GenCfg {
            pkt: 64, // 64 bytes: 4 payload words
            dest: 0,
            count: u32::MAX,
            coord: 0,
            size_in_words: false,
        };
        let fifo = GenFifoIn {
            hf_usedw: 0,
            pay_usedw: 0,
            hf_depth: 128,
            pay_depth: 4096,
        };
        let mut g = TrafficGen::reset(&());
        let mut writes = Vec::new();
        for cycle in 0..40u32 {
            let i = GenIn {
                port: 1,
                cfg: &cfg,
                start: cycle == 0,
                // cleared while the second packet's payload is being written
                enabled: cycle < 9,
                fifo: &fifo,
            };
            g = g.eval(&i);
            if g.wr_hf || g.wr_pay {
                writes.push((g.wr_hf, g.wdata));
            }
        }
        assert!(!g.active, "stopped");
        assert_eq!(g.sent, 2, "the packet under way when disabled was finished");
        assert_eq!(
            writes.len(),
            2 * 6,
            "two whole packets: header, 4 payload words, footer"
        );
        for (k, (hf, _)) in writes.iter().enumerate() {
            assert_eq!(*hf, k % 6 == 0 || k % 6 == 5, "word {k} in packet order");
        }
        assert_eq!(writes[6].1, cfg.header(1, 1), "the second packet's header");
    }
}
