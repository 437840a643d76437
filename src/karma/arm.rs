//! The emulated ARM Cortex-A53 of a KARMA board as the node sees it: a processor that reaches
//! the ExaNet Network IP through the AXI HPM port and an AXI-to-stream adapter, one access at a
//! time, in program order (Biagioni 2017 §5.4: "ARM must issue a write for every single word into
//! header/data ... FIFOs"; §5.4.1: writing takes 4 clock cycles a word, reading about 20).
//!
//! The software (`src/karma/software.rs`) hands it one operation at a time; it drives the node's
//! register interface and one intra-tile port's FIFO strobes, and reports when the operation
//! completes. Cycle contract, for an operation issued in cycle c0 (its first cycle):
//! - `Compute(n)`: software that does not touch the node, n >= 1 cycles; completes in c0 + n - 1.
//! - `WriteFifo` / `WriteReg`: a posted AXI write; the FIFO's (the register interface's) write
//!   strobe is in cycle c0 + W - 1 (W = `axi_write_cycles`), which completes it: the next store
//!   issues in c0 + W, so words go into a FIFO every W cycles.
//! - `ReadFifo`: an AXI read of the FIFO's head; the request reaches the adapter after
//!   R_req = `axi_request_cycles`: the adapter pops the word in cycle c0 + R_req if the FIFO showed
//!   it in the cycle before, and otherwise holds the read (an AXI wait state) until it does; the
//!   data is back in the CPU R - R_req cycles after the pop (R = `axi_read_cycles`), which
//!   completes it: with the word there, in c0 + R - 1, so words are read every R cycles.
//! - `ReadReg`: the same for a register: `reg_rd` in cycle c0 + R_req, the Target Controller's
//!   answer the cycle after, the data in the CPU in c0 + R - 1.
//! - `WaitIrq`: waits for the adapter's interrupt line (the port's RX header/footer FIFO not
//!   empty); completes in the first cycle the line shows.
//!
//! Outputs (`reg`, `ps`) are registers: what the ARM drives in a cycle was decided in the cycle
//! before, from what the node showed then.

use super::mesh::NodeOut;
use crate::node::target::RegReq;
use crate::router::IntraIn;

/// AXI timing, cycles of the network clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AxiTiming {
    pub write_cycles: u32,
    pub read_cycles: u32,
    pub request_cycles: u32,
}

/// One operation of the software.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Compute(u32),
    /// A word into the port's header/footer FIFO (`hf`) or payload FIFO.
    WriteFifo {
        hf: bool,
        data: u128,
    },
    ReadFifo {
        hf: bool,
    },
    WriteReg {
        addr: u16,
        data: u32,
    },
    ReadReg {
        addr: u16,
    },
    WaitIrq,
}

/// What an operation returned, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Done {
    pub op: Op,
    /// The word read (reads only).
    pub data: u128,
    /// The cycle it completed in.
    pub cycle: u64,
    /// The cycle its strobe (write, pop, register read) was on the node's ports.
    pub strobe: u64,
}

/// The ARM's registers.
#[derive(Debug, Clone)]
pub struct Arm {
    pub timing: AxiTiming,
    /// The intra-tile port the adapter connects to.
    pub port: usize,
    op: Option<Op>,
    /// The operation's first cycle.
    c0: u64,
    /// The cycle it completes in, once known.
    end: Option<u64>,
    /// The cycle of its strobe on the node's ports, once known.
    strobe: Option<u64>,
    data: u128,
    // output registers
    reg: RegReq,
    ps: IntraIn,
    /// Register accesses the Target Controller answered with an error.
    pub reg_errors: u32,
}

impl Arm {
    /// `timing` as `KarmaConfig::validate` allows (request >= 2, read >= request + 2).
    pub fn new(timing: AxiTiming, port: usize) -> Arm {
        Arm {
            timing,
            port,
            op: None,
            c0: 0,
            end: None,
            strobe: None,
            data: 0,
            reg: RegReq::default(),
            ps: IntraIn::default(),
            reg_errors: 0,
        }
    }

    /// Nothing issued, or the last operation completed.
    pub fn idle(&self) -> bool {
        self.op.is_none()
    }

    /// The register request and the port strobes the ARM drives in this cycle.
    pub fn outputs(&self) -> (RegReq, IntraIn) {
        (self.reg, self.ps)
    }

    /// Abandon a `WaitIrq` (a timeout of the software); nothing else can be abandoned.
    pub fn cancel_wait(&mut self) {
        if self.op == Some(Op::WaitIrq) {
            self.op = None;
            self.end = None;
            self.strobe = None;
        }
    }

    /// Start `op` in the cycle after `now` (call when idle, in cycle `now`, after `step`).
    pub fn issue(&mut self, op: Op, now: u64) {
        assert!(self.op.is_none(), "one AXI operation at a time");
        let t = self.timing;
        let c0 = now + 1;
        self.op = Some(op);
        self.c0 = c0;
        self.data = 0;
        (self.end, self.strobe) = match op {
            Op::Compute(n) => (Some(c0 + n.max(1) as u64 - 1), None),
            Op::WriteFifo { .. } | Op::WriteReg { .. } => {
                let s = c0 + t.write_cycles as u64 - 1;
                (Some(s), Some(s))
            }
            Op::ReadReg { .. } => (
                Some(c0 + t.read_cycles as u64 - 1),
                Some(c0 + t.request_cycles as u64),
            ),
            Op::ReadFifo { .. } | Op::WaitIrq => (None, None),
        };
        self.drive(now + 1);
    }

    /// Set the output registers for cycle `next` from the plan.
    fn drive(&mut self, next: u64) {
        self.reg = RegReq::default();
        self.ps = IntraIn::default();
        if self.strobe != Some(next) {
            return;
        }
        match self.op {
            Some(Op::WriteFifo { hf, data }) => {
                self.ps = IntraIn {
                    wr_hf: hf,
                    wr_pay: !hf,
                    wdata: data,
                    ..Default::default()
                }
            }
            Some(Op::WriteReg { addr, data }) => {
                self.reg = RegReq {
                    wr: true,
                    addr,
                    wdata: data,
                    ..Default::default()
                }
            }
            Some(Op::ReadReg { addr }) => {
                self.reg = RegReq {
                    rd: true,
                    addr,
                    ..Default::default()
                }
            }
            Some(Op::ReadFifo { hf }) => {
                self.ps = IntraIn {
                    rd_hf: hf,
                    rd_pay: !hf,
                    ..Default::default()
                }
            }
            _ => {}
        }
    }

    /// Cycle `cycle`: `out` is what the node shows in it (the outputs of the cycle were taken
    /// already). Returns the operation that completes in this cycle.
    pub fn step(&mut self, out: &NodeOut, cycle: u64) -> Option<Done> {
        let t = self.timing;
        if out.reg_ack && out.reg_err {
            self.reg_errors += 1;
        }
        let Some(op) = self.op else {
            self.drive(cycle + 1);
            return None;
        };
        let p = self.port;
        match op {
            Op::ReadFifo { hf } if self.strobe.is_none() => {
                // the request has arrived when the pop can be in the next cycle
                let earliest = self.c0 + t.request_cycles as u64;
                let shows = if hf {
                    out.ps_rx_hf_empty >> p & 1 == 0
                } else {
                    out.ps_rx_pay_empty >> p & 1 == 0
                };
                if cycle + 1 >= earliest && shows {
                    self.data = if hf {
                        out.ps_rx_hf_rdata[p]
                    } else {
                        out.ps_rx_pay_rdata[p]
                    };
                    let pop = cycle + 1;
                    self.strobe = Some(pop);
                    self.end = Some(pop + (t.read_cycles - t.request_cycles) as u64 - 1);
                }
            }
            // the Target Controller answers the cycle after the request
            Op::ReadReg { .. } if self.strobe.map(|s| s + 1) == Some(cycle) => {
                self.data = out.reg_rdata as u128;
            }
            Op::WaitIrq if cycle >= self.c0 && out.ps_rx_hf_empty >> p & 1 == 0 => {
                self.end = Some(cycle);
            }
            _ => {}
        }
        if self.end == Some(cycle) {
            let done = Done {
                op,
                data: self.data,
                cycle,
                strobe: self.strobe.unwrap_or(cycle),
            };
            self.op = None;
            self.end = None;
            self.strobe = None;
            self.drive(cycle + 1);
            return Some(done);
        }
        self.drive(cycle + 1);
        None
    }
}
