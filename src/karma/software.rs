//! The ping-pong software of a KARMA board (Biagioni 2017 §5.4.1, Figure 5.15), as the sequence of
//! operations its ARM (`src/karma/arm.rs`) performs, in the two variants the thesis measured:
//!
//! - **user space** (`/dev/mem`, no interrupts): to send, build header and footer (with the
//!   payload's CRC) and store every word into the intra-tile port's FIFOs; to receive, poll the
//!   Target Controller's `IRQ_STATUS` register until the port shows a header, then load the
//!   header, the payload words (as many as the header's size says) and the footer.
//! - **kernel space** (driver, bounce buffer, interrupt): to send, a `write` system call copies
//!   the user buffer into a bounce buffer, prepares header and footer and stores the words; to
//!   receive, the process sleeps in `read` until the adapter's interrupt (the port's RX
//!   header/footer FIFO not empty), whose handler loads the words into the bounce buffer and
//!   wakes the process, which copies them out and returns.
//!
//! Software costs are the configuration's (`[karma]`, decision 0009), turned into whole cycles
//! of the network clock; everything the node does comes from simulating it. Every message
//! carries a sequence number (the header's `dst_addr`) so that a late reply to a message given
//! up as lost is recognised and dropped.

use super::arm::{Arm, Done, Op};
use super::mesh::coord;
use crate::config::Config;
use crate::link::tcl_rx::FTR_CRC_BAD_BIT;
use crate::node::regs::IRQ_STATUS;
use crate::packet::layout::HDR_DST_ADDR;
use crate::packet::{payload_words, Packet, PacketType};
use serde::Serialize;
use std::collections::VecDeque;

/// Which software runs the ping-pong (`--mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Polling from user space through /dev/mem.
    User,
    /// The driver: system calls, an interrupt, a bounce buffer.
    Kernel,
}

/// The software costs, in ns of the ARM's own time (its clock is not the network's: the
/// software turns them into network-clock cycles with a running remainder, see
/// `Software::compute`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwCosts {
    /// Network clock, MHz.
    freq_mhz: f64,
    user_send_ns: f64,
    user_crc_bytes_per_ns: f64,
    user_poll_ns: f64,
    user_recv_ns: f64,
    syscall_half_ns: f64,
    kernel_prep_ns: f64,
    kernel_irq_ns: f64,
    kernel_wakeup_ns: f64,
    copy_bytes_per_ns: f64,
    /// Lost-message timeout, cycles of the network clock.
    pub timeout: u64,
}

impl SwCosts {
    pub fn new(cfg: &Config) -> SwCosts {
        let k = &cfg.karma;
        SwCosts {
            freq_mhz: cfg.clock.freq_mhz,
            user_send_ns: k.user_send_ns,
            user_crc_bytes_per_ns: k.user_crc_bytes_per_ns,
            user_poll_ns: k.user_poll_ns,
            user_recv_ns: k.user_recv_ns,
            syscall_half_ns: k.kernel_syscall_ns / 2.0,
            kernel_prep_ns: k.kernel_prep_ns,
            kernel_irq_ns: k.kernel_irq_ns,
            kernel_wakeup_ns: k.kernel_wakeup_ns,
            copy_bytes_per_ns: k.kernel_copy_bytes_per_ns,
            timeout: cfg.clock().cycles_for_ns(k.timeout_us * 1000.0),
        }
    }

    /// Software before the first store of a message of `size` bytes, ns.
    fn send_ns(&self, mode: Mode, size: u32) -> f64 {
        match mode {
            Mode::User => self.user_send_ns + size as f64 / self.user_crc_bytes_per_ns,
            Mode::Kernel => {
                self.syscall_half_ns + size as f64 / self.copy_bytes_per_ns + self.kernel_prep_ns
            }
        }
    }

    /// Software after the last load of a message of `size` bytes until the data is the
    /// user's, ns.
    fn recv_ns(&self, mode: Mode, size: u32) -> f64 {
        match mode {
            Mode::User => self.user_recv_ns,
            Mode::Kernel => {
                self.kernel_wakeup_ns + size as f64 / self.copy_bytes_per_ns + self.syscall_half_ns
            }
        }
    }
}

/// One message of the ping-pong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Message {
    pub seq: u32,
    pub from: usize,
    pub to: usize,
    pub size: u32,
}

impl Message {
    /// The words the software stores: header, payload, footer (with its CRC). The payload is a
    /// pattern of the sequence number, so the receiver can check it.
    pub fn words(&self) -> Vec<u128> {
        let dst = coord(self.to);
        let src = coord(self.from);
        let n = self.size.div_ceil(16);
        let payload = (0..n).map(|k| payload_word(self, k)).collect();
        Packet::builder()
            .vc(0)
            .kind(PacketType::Rdma)
            .size(self.size as u64)
            .dst(dst[0] as u64, dst[1] as u64, dst[2] as u64)
            .dst_port(0)
            .src(src[0] as u64, src[1] as u64, src[2] as u64)
            .dst_addr(self.seq as u64)
            .payload(payload)
            .build()
            .expect("ping-pong sizes are validated (1..=4096 bytes)")
            .words()
    }
}

/// One step of a register script (the driver's set-up at boot).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Script {
    Write {
        addr: u16,
        data: u32,
    },
    /// Read `addr` until the bits of `mask` are all set.
    WaitSet {
        addr: u16,
        mask: u32,
    },
    /// Read `addr` once; the value goes to `Software::reads`.
    Read {
        addr: u16,
    },
}

/// When the parts of sending a message happened (cycles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SendStamps {
    /// The first cycle of the send's software.
    pub start: u64,
    /// The header's store: issued (first cycle), and its write strobe into the FIFO.
    pub hdr_issue: u64,
    pub hdr_strobe: u64,
    /// The footer's write strobe.
    pub last_strobe: u64,
    /// The last cycle of the send (the system call returned, in kernel space).
    pub end: u64,
}

/// What a receive got and when (cycles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RecvStamps {
    pub seq: u32,
    pub size: u32,
    /// The first cycle of the header's load.
    pub hdr_issue: u64,
    /// The cycle the header's data was in the CPU.
    pub hdr_data: u64,
    /// The cycle the footer's data was in the CPU.
    pub ftr_data: u64,
    /// The last cycle of the receive (the data is the user's).
    pub end: u64,
    /// The footer said a link's CRC check failed on the way.
    pub crc_bad: bool,
    /// Payload words that differ from the pattern.
    pub payload_errors: u32,
}

/// How a receive ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecvEnd {
    Got(RecvStamps),
    /// Nothing (with the expected sequence number) arrived in time.
    TimedOut {
        at: u64,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Idle,
    /// Sending: the software before the stores, the stores, the software after.
    SendSw,
    SendWords,
    SendExit,
    /// Receiving in user space: a poll's load, the software between polls.
    Poll,
    PollGap,
    /// Receiving in kernel space: waiting for the interrupt, its latency.
    Irq,
    IrqEntry,
    /// Loading the header, the payload, the footer; the software after.
    Hdr,
    Pay,
    Ftr,
    RecvSw,
    /// Running a register script.
    Script,
}

/// One board's software: one task (a send or a receive) at a time.
pub struct Software {
    pub mode: Mode,
    pub costs: SwCosts,
    pub arm: Arm,
    size_in_words: bool,
    stage: Stage,
    words: VecDeque<u128>,
    msg: Option<Message>,
    send: SendStamps,
    /// The sequence number a receive waits for (None: any).
    expect: Option<u32>,
    deadline: u64,
    recv: RecvStamps,
    pay_left: u32,
    pay_index: u32,
    /// A finished task, for the caller to take.
    sent: Option<(Message, SendStamps)>,
    received: Option<RecvEnd>,
    /// Messages that arrived with a sequence number nobody waited for (late replies).
    pub stale: u32,
    script: VecDeque<Script>,
    /// Network cycles the software is owed (+) or has used in advance (-), below one.
    carry: f64,
    /// What `Script::Read` steps read: (address, value).
    pub reads: Vec<(u16, u32)>,
    /// Stop waiting for a message at the next chance (a receive in progress completes).
    stop: bool,
}

impl Software {
    pub fn new(mode: Mode, costs: SwCosts, arm: Arm, size_in_words: bool) -> Software {
        Software {
            mode,
            costs,
            arm,
            size_in_words,
            stage: Stage::Idle,
            words: VecDeque::new(),
            msg: None,
            send: SendStamps::default(),
            expect: None,
            deadline: 0,
            recv: RecvStamps::default(),
            pay_left: 0,
            pay_index: 0,
            sent: None,
            received: None,
            stale: 0,
            script: VecDeque::new(),
            carry: 0.0,
            reads: Vec::new(),
            stop: false,
        }
    }

    pub fn busy(&self) -> bool {
        self.stage != Stage::Idle
    }

    /// Run a register script; it starts in the cycle after `now`.
    pub fn start_script(&mut self, steps: &[Script], now: u64) {
        assert!(!self.busy(), "one task at a time");
        self.script = steps.iter().copied().collect();
        self.stage = Stage::Script;
        self.next_script(now);
    }

    fn next_script(&mut self, now: u64) {
        match self.script.front() {
            None => self.stage = Stage::Idle,
            Some(&Script::Write { addr, data }) => {
                self.script.pop_front();
                self.arm.issue(Op::WriteReg { addr, data }, now);
            }
            Some(&Script::WaitSet { addr, .. }) | Some(&Script::Read { addr }) => {
                self.arm.issue(Op::ReadReg { addr }, now)
            }
        }
    }

    /// Start sending `m`; its first cycle is the one after `now`.
    pub fn start_send(&mut self, m: Message, now: u64) {
        assert!(!self.busy(), "one task at a time");
        self.msg = Some(m);
        self.words = m.words().into();
        self.send = SendStamps {
            start: now + 1,
            ..Default::default()
        };
        self.stage = Stage::SendSw;
        self.compute(self.costs.send_ns(self.mode, m.size), now);
    }

    /// Start receiving the message with sequence number `expect` (any when None), giving up
    /// `timeout` cycles from now when given.
    pub fn start_recv(&mut self, expect: Option<u32>, timeout: Option<u64>, now: u64) {
        assert!(!self.busy(), "one task at a time");
        self.expect = expect;
        self.deadline = timeout.map_or(u64::MAX, |t| now + t);
        self.wait_for_header(now);
    }

    fn wait_for_header(&mut self, now: u64) {
        match self.mode {
            Mode::User => {
                self.stage = Stage::Poll;
                self.arm.issue(Op::ReadReg { addr: IRQ_STATUS }, now);
            }
            Mode::Kernel => {
                self.stage = Stage::Irq;
                self.arm.issue(Op::WaitIrq, now);
            }
        }
    }

    /// Stop a receive that is only waiting (polling, or asleep until the interrupt) at the next
    /// chance; a message already being loaded is loaded whole first, and is not reported.
    pub fn request_stop(&mut self) {
        self.stop = true;
    }

    /// The finished send, if one finished.
    pub fn take_sent(&mut self) -> Option<(Message, SendStamps)> {
        self.sent.take()
    }

    pub fn take_received(&mut self) -> Option<RecvEnd> {
        self.received.take()
    }

    /// One cycle: the ARM's operation that completed in it, if any, decides the next one.
    pub fn on_done(&mut self, d: Option<Done>, now: u64) {
        // a kernel-space wait for the interrupt gives up at the deadline
        if self.stage == Stage::Irq && d.is_none() && (now >= self.deadline || self.stop) {
            self.arm.cancel_wait();
            self.give_up(now);
            return;
        }
        let Some(d) = d else { return };
        let port = self.arm.port;
        match self.stage {
            Stage::Idle => {}
            Stage::Script => {
                match (d.op, self.script.front()) {
                    (Op::ReadReg { .. }, Some(&Script::WaitSet { mask, .. }))
                        if d.data as u32 & mask == mask =>
                    {
                        self.script.pop_front();
                    }
                    (Op::ReadReg { addr }, Some(&Script::Read { .. })) => {
                        self.reads.push((addr, d.data as u32));
                        self.script.pop_front();
                    }
                    _ => {}
                }
                self.next_script(now);
            }
            Stage::SendSw => self.next_store(now),
            Stage::SendWords => {
                if self.send.hdr_strobe == 0 {
                    self.send.hdr_strobe = d.strobe;
                }
                self.send.last_strobe = d.strobe;
                if self.words.is_empty() {
                    match self.mode {
                        Mode::User => self.finish_send(now),
                        Mode::Kernel => {
                            self.stage = Stage::SendExit;
                            self.compute(self.costs.syscall_half_ns, now);
                        }
                    }
                } else {
                    self.next_store(now);
                }
            }
            Stage::SendExit => self.finish_send(now),
            Stage::Poll => {
                if d.data >> port & 1 == 1 {
                    self.load_header(now);
                } else if now >= self.deadline || self.stop {
                    self.give_up(now);
                } else {
                    self.stage = Stage::PollGap;
                    self.compute(self.costs.user_poll_ns, now);
                }
            }
            Stage::PollGap if self.stop => self.give_up(now),
            Stage::PollGap => {
                self.stage = Stage::Poll;
                self.arm.issue(Op::ReadReg { addr: IRQ_STATUS }, now);
            }
            Stage::Irq => {
                self.stage = Stage::IrqEntry;
                self.compute(self.costs.kernel_irq_ns, now);
            }
            Stage::IrqEntry => self.load_header(now),
            Stage::Hdr => {
                let hdr = d.data;
                self.recv = RecvStamps {
                    seq: HDR_DST_ADDR.get(hdr) as u32,
                    size: crate::packet::layout::HDR_SIZE.get(hdr) as u32,
                    hdr_issue: self.recv.hdr_issue,
                    hdr_data: d.cycle,
                    ..Default::default()
                };
                self.pay_left = payload_words(hdr, self.size_in_words);
                self.pay_index = 0;
                if self.pay_left > 0 {
                    self.stage = Stage::Pay;
                    self.arm.issue(Op::ReadFifo { hf: false }, now);
                } else {
                    self.stage = Stage::Ftr;
                    self.arm.issue(Op::ReadFifo { hf: true }, now);
                }
            }
            Stage::Pay => {
                let want = Message {
                    seq: self.recv.seq,
                    from: 0,
                    to: 0,
                    size: self.recv.size,
                };
                if payload_word(&want, self.pay_index) != d.data {
                    self.recv.payload_errors += 1;
                }
                self.pay_index += 1;
                self.pay_left -= 1;
                let hf = self.pay_left == 0;
                if hf {
                    self.stage = Stage::Ftr;
                }
                self.arm.issue(Op::ReadFifo { hf }, now);
            }
            Stage::Ftr => {
                self.recv.ftr_data = d.cycle;
                self.recv.crc_bad = (d.data >> FTR_CRC_BAD_BIT) & 1 == 1;
                self.stage = Stage::RecvSw;
                self.compute(self.costs.recv_ns(self.mode, self.recv.size), now);
            }
            Stage::RecvSw => {
                self.recv.end = now;
                if self.expect.is_some_and(|e| e != self.recv.seq) {
                    // a late reply to a message given up: drop it, wait on
                    self.stale += 1;
                    self.wait_for_header(now);
                } else if self.stop {
                    // loaded whole while stopping: the caller no longer waits for it
                    self.stop = false;
                    self.stage = Stage::Idle;
                } else {
                    self.stage = Stage::Idle;
                    self.received = Some(RecvEnd::Got(self.recv));
                }
            }
        }
    }

    /// Software that takes `ns` of the ARM's time. The ARM's clock is not the network's, so the
    /// time is carried over in fractions of a network cycle: each step takes the whole cycles
    /// nearest to what is due (at least one), and the remainder is owed to the next. Without it
    /// a polling loop would stay locked in phase with the network clock, which the real
    /// processor (1.2 GHz, its own PLL) never is.
    fn compute(&mut self, ns: f64, now: u64) {
        let due = self.carry + ns * self.costs.freq_mhz / 1000.0;
        let n = due.round().max(1.0);
        self.carry = due - n;
        self.arm.issue(Op::Compute(n as u32), now);
    }

    fn next_store(&mut self, now: u64) {
        let total = self.msg.map_or(0, |m| m.size.div_ceil(16) + 2) as usize;
        let k = total - self.words.len();
        let w = self.words.pop_front().expect("a word to store");
        if k == 0 {
            self.send.hdr_issue = now + 1;
        }
        self.stage = Stage::SendWords;
        let hf = k == 0 || self.words.is_empty();
        self.arm.issue(Op::WriteFifo { hf, data: w }, now);
    }

    fn finish_send(&mut self, now: u64) {
        self.send.end = now;
        self.stage = Stage::Idle;
        self.sent = Some((self.msg.take().expect("a message was sent"), self.send));
    }

    fn load_header(&mut self, now: u64) {
        self.stage = Stage::Hdr;
        self.recv.hdr_issue = now + 1;
        self.arm.issue(Op::ReadFifo { hf: true }, now);
    }

    fn give_up(&mut self, now: u64) {
        self.stage = Stage::Idle;
        if self.stop {
            self.stop = false;
        } else {
            self.received = Some(RecvEnd::TimedOut { at: now });
        }
    }
}

/// Payload word `k` of message `m` (the pattern `Message::words` stores).
fn payload_word(m: &Message, k: u32) -> u128 {
    let x = (m.seq as u128) << 96 | (k as u128) << 64;
    x | (k as u64 ^ (m.seq as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) as u128
}
