//! The Target Controller: the node's register file, reached through an AXI-lite-like interface
//! (Biagioni 2017 §5.4). Register map: `src/node/regs.rs`, `docs/registers.md`.
//!
//! ```text
//!   reg_wr_i/reg_rd_i, reg_addr_i, reg_wdata_i --> +--------------+ --> reg_ack_o, reg_rdata_o, reg_err_o (next cycle)
//!   status_hit_i, status_rdata_i (node's status mux) | target ctrl  | --> configuration registers (router, TCLs, PHY, self-test)
//!                                                    +--------------+ --> st_start_o (one-cycle pulse)
//! ```
//!
//! Cycle contract: a request in cycle c (one at a time: a write, or a read) is answered in cycle
//! c + 1 (`ack_q`, `rdata_q`, `err_q`); a written configuration register holds its new value
//! from c + 1. Bad accesses never hang or panic: an unknown address, a value that the register
//! does not accept (a dimension order that is not a permutation, coordinates outside the
//! lattice, a TRED the buffers cannot take...) or a write to a read-only register is answered
//! with `err`, changes nothing, and is recorded in ERR_STATUS, ERR_ADDR, ERR_COUNT.
//!
//! RTL twin: `rtl/exanet_target_ctrl.sv`.

use super::regs::*;
use crate::block::Block;
use crate::config::{valid_order, Config};
use crate::probe::{b, clk_rst, Visitor};

/// Structural facts the controller validates against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TcParams {
    pub dims: u32,
    pub n_intra: u32,
    pub n_inter: u32,
    pub num_vcs: u32,
    /// Capacity of the links' RX buffers, credit units (TRED must stay below it).
    pub rx_capacity: u32,
}

/// A register request of one cycle (registers of the requester).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RegReq {
    pub wr: bool,
    pub rd: bool,
    pub addr: u16,
    pub wdata: u32,
}

/// The controller's registers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetCtrl {
    pub coord: u32,
    pub lattice: u32,
    pub torus: u32,
    pub order: u32,
    pub port_en: u32,
    pub arb_fixed: bool,
    pub credit_period: u32,
    pub max_interval: u32,
    pub tred: u32,
    pub credit_mode: u32,
    pub phy_ctrl: u32,
    pub err_status: u32,
    pub err_addr: u32,
    pub err_count: u32,
    pub st_gen_en: u32,
    pub st_pkt: u32,
    pub st_dest: u32,
    pub st_count: u32,
    pub st_cons_en: u32,
    pub st_expect: u32,
    pub st_start: bool,
    pub cycle: u32,
    pub ack: bool,
    pub rdata: u32,
    pub err: bool,
}

fn pack3(a: [u8; 3]) -> u32 {
    a[0] as u32 | (a[1] as u32) << 8 | (a[2] as u32) << 16
}

pub fn unpack3(x: u32) -> [u8; 3] {
    [x as u8, (x >> 8) as u8, (x >> 16) as u8]
}

/// Dimension order register `[1:0] [3:2] [5:4]` as an array.
pub fn unpack_order(x: u32) -> [u8; 3] {
    [(x & 3) as u8, ((x >> 2) & 3) as u8, ((x >> 4) & 3) as u8]
}

impl TargetCtrl {
    /// Reset values from a validated configuration.
    pub fn new(c: &Config) -> TargetCtrl {
        let n = &c.node;
        let l = &c.link.credit;
        let torus = n
            .torus
            .iter()
            .enumerate()
            .fold(0, |m, (d, &t)| m | ((t as u32) << d));
        let order =
            n.dim_order[0] as u32 | (n.dim_order[1] as u32) << 2 | (n.dim_order[2] as u32) << 4;
        let intra = (1u32 << c.router.intra_ports) - 1;
        let inter = (1u32 << c.router.inter_ports.len()) - 1;
        TargetCtrl {
            coord: pack3(n.coord),
            lattice: pack3(n.lattice),
            torus,
            order,
            port_en: intra | inter << 8,
            arb_fixed: n.arbiter == crate::config::Arbiter::Fixed,
            credit_period: l.period_cycles,
            max_interval: l.max_interval_cycles,
            tred: l.tred_words,
            credit_mode: (l.flavour == crate::config::CreditFlavour::Usedword) as u32
                | (l.after_every_packet as u32) << 1
                | (l.whole_packet as u32) << 2,
            phy_ctrl: c.link.phy.gearbox_pause as u32 | (c.link.phy.clock_compensation as u32) << 1,
            err_status: 0,
            err_addr: 0,
            err_count: 0,
            st_gen_en: 0,
            st_pkt: 0,
            st_dest: 0,
            st_count: 0,
            st_cons_en: 0,
            st_expect: 0,
            st_start: false,
            cycle: 0,
            ack: false,
            rdata: 0,
            err: false,
        }
    }

    /// Is `v` acceptable for the register at `addr`? (Only registers with constraints.)
    fn valid(&self, p: &TcParams, addr: u16, v: u32) -> bool {
        let dims = p.dims as usize;
        let within = |lat: u32, co: u32| {
            let (l, c) = (unpack3(lat), unpack3(co));
            (0..3).all(|k| l[k] >= 1 && (k < dims || l[k] == 1) && c[k] < l[k])
        };
        match addr {
            COORD => v >> 24 == 0 && within(self.lattice, v),
            LATTICE => v >> 24 == 0 && within(v, self.coord),
            TORUS => v >> dims == 0,
            DIM_ORDER => v >> 6 == 0 && valid_order(&unpack_order(v), p.dims),
            PORT_EN => v & !(((1u32 << p.n_intra) - 1) | ((1u32 << p.n_inter) - 1) << 8) == 0,
            ARB_MODE => v >> 1 == 0,
            CREDIT_PERIOD => (1..=0xffff).contains(&v) && v <= self.max_interval,
            CREDIT_MAX_INTERVAL => v <= 0xffff && v >= self.credit_period,
            TRED => v >= 1 && v < p.rx_capacity,
            CREDIT_MODE => v >> 3 == 0,
            PHY_CTRL => v >> 2 == 0,
            ST_GEN_EN | ST_CONS_EN => v >> p.n_intra == 0,
            ST_PKT => (v & 0x1fff) <= ST_PKT_MAX_SIZE && (v >> 15) & 7 < p.num_vcs && v >> 18 == 0,
            ST_DEST => v >> 27 == 0,
            _ => true,
        }
    }
}

/// The Target Controller's inputs in a cycle: the register request, the node's read data for
/// its address when it names a status register (`status`, None otherwise), and whether a
/// self-test generator is active (`busy`: a start is then refused).
#[derive(Debug, Clone, Copy)]
pub struct TcIn<'a> {
    pub p: &'a TcParams,
    pub req: RegReq,
    pub status: Option<u32>,
    pub busy: bool,
}

impl Block for TargetCtrl {
    /// Its reset values are the configuration's (`exanet_node`'s `RST_*` parameters).
    type Spec = Config;
    type In<'a> = TcIn<'a>;
    type Next = TargetCtrl;
    type Events = ();

    fn reset(c: &Config) -> TargetCtrl {
        TargetCtrl::new(c)
    }

    /// Next state. `status` is the node's read data for `req.addr` when it names a status
    /// register (`None` otherwise); `busy`: a self-test generator is active (a start is then
    /// refused).
    fn eval(&self, i: &TcIn) -> TargetCtrl {
        let (p, req, status, busy) = (i.p, &i.req, i.status, i.busy);
        let mut n = self.clone();
        n.cycle = self.cycle.wrapping_add(1);
        n.ack = req.wr || req.rd;
        n.err = false;
        n.rdata = 0;
        n.st_start = false;
        let a = req.addr;
        let mut error = 0u32;
        if req.wr {
            match a {
                COORD | LATTICE | TORUS | DIM_ORDER | PORT_EN | ARB_MODE | CREDIT_PERIOD
                | CREDIT_MAX_INTERVAL | TRED | CREDIT_MODE | PHY_CTRL | ST_GEN_EN | ST_PKT
                | ST_DEST | ST_CONS_EN => {
                    if !self.valid(p, a, req.wdata) {
                        error = ERR_BAD_VALUE;
                    } else {
                        let v = req.wdata;
                        match a {
                            COORD => n.coord = v,
                            LATTICE => n.lattice = v,
                            TORUS => n.torus = v,
                            DIM_ORDER => n.order = v,
                            PORT_EN => n.port_en = v,
                            ARB_MODE => n.arb_fixed = v & 1 == 1,
                            CREDIT_PERIOD => n.credit_period = v,
                            CREDIT_MAX_INTERVAL => n.max_interval = v,
                            TRED => n.tred = v,
                            CREDIT_MODE => n.credit_mode = v,
                            PHY_CTRL => n.phy_ctrl = v,
                            ST_GEN_EN => n.st_gen_en = v,
                            ST_PKT => n.st_pkt = v,
                            ST_DEST => n.st_dest = v,
                            _ => n.st_cons_en = v,
                        }
                    }
                }
                ST_COUNT => n.st_count = req.wdata,
                ST_EXPECT => n.st_expect = req.wdata,
                ST_CTRL if busy && req.wdata & 1 == 1 => error = ERR_BAD_VALUE,
                ST_CTRL => n.st_start = req.wdata & 1 == 1,
                ERR_STATUS => n.err_status = self.err_status & !req.wdata,
                _ if status.is_some() || is_read_only_global(a) => error = ERR_READ_ONLY,
                _ => error = ERR_UNKNOWN_ADDR,
            }
        } else if req.rd {
            let v = match a {
                ID => Some(ID_VALUE),
                COORD => Some(self.coord),
                LATTICE => Some(self.lattice),
                TORUS => Some(self.torus),
                DIM_ORDER => Some(self.order),
                PORT_EN => Some(self.port_en),
                ARB_MODE => Some(self.arb_fixed as u32),
                CREDIT_PERIOD => Some(self.credit_period),
                CREDIT_MAX_INTERVAL => Some(self.max_interval),
                TRED => Some(self.tred),
                CREDIT_MODE => Some(self.credit_mode),
                PHY_CTRL => Some(self.phy_ctrl),
                ERR_STATUS => Some(self.err_status),
                ERR_ADDR => Some(self.err_addr),
                ERR_COUNT => Some(self.err_count),
                ST_GEN_EN => Some(self.st_gen_en),
                ST_PKT => Some(self.st_pkt),
                ST_DEST => Some(self.st_dest),
                ST_COUNT => Some(self.st_count),
                ST_CONS_EN => Some(self.st_cons_en),
                ST_EXPECT => Some(self.st_expect),
                ST_CTRL => Some(0),
                CYCLE_LO => Some(self.cycle),
                NUM_PORTS => Some(p.n_intra | p.n_inter << 8 | p.num_vcs << 16 | p.dims << 24),
                0x078 => Some(0),
                _ => status,
            };
            match v {
                Some(x) => n.rdata = x,
                None => error = ERR_UNKNOWN_ADDR,
            }
        }
        if error != 0 {
            n.err = true;
            n.err_status |= error;
            n.err_addr = a as u32;
            n.err_count = self.err_count.wrapping_add(1);
        }
        n
    }

    fn commit(&mut self, n: TargetCtrl) {
        *self = n;
    }

    fn probe(&self, i: &TcIn, v: &mut dyn Visitor) {
        let (req, status, busy) = (&i.req, i.status, i.busy);
        clk_rst(v);
        v.sig("st_busy_i", 1, b(busy));
        v.sig("reg_wr_i", 1, b(req.wr));
        v.sig("reg_rd_i", 1, b(req.rd));
        v.sig("reg_addr_i", 12, req.addr as u128);
        v.sig("reg_wdata_i", 32, req.wdata as u128);
        v.sig("status_hit_i", 1, b(status.is_some()));
        v.sig("status_rdata_i", 32, status.unwrap_or(0) as u128);
        v.sig("reg_ack_o", 1, b(self.ack));
        v.sig("reg_rdata_o", 32, self.rdata as u128);
        v.sig("reg_err_o", 1, b(self.err));
        for (name, val) in [
            ("coord_q", self.coord),
            ("lattice_q", self.lattice),
            ("torus_q", self.torus),
            ("order_q", self.order),
            ("port_en_q", self.port_en),
            ("credit_period_q", self.credit_period),
            ("max_interval_q", self.max_interval),
            ("tred_q", self.tred),
            ("credit_mode_q", self.credit_mode),
            ("phy_ctrl_q", self.phy_ctrl),
            ("err_status_q", self.err_status),
            ("err_addr_q", self.err_addr),
            ("err_count_q", self.err_count),
            ("st_gen_en_q", self.st_gen_en),
            ("st_pkt_q", self.st_pkt),
            ("st_dest_q", self.st_dest),
            ("st_count_q", self.st_count),
            ("st_cons_en_q", self.st_cons_en),
            ("st_expect_q", self.st_expect),
            ("rdata_q", self.rdata),
            ("cycle_q", self.cycle),
        ] {
            v.sig(name, 32, val as u128);
        }
        v.sig("arb_fixed_q", 1, b(self.arb_fixed));
        v.sig("st_start_q", 1, b(self.st_start));
        v.sig("ack_q", 1, b(self.ack));
        v.sig("err_q", 1, b(self.err));
    }
}

/// Global read-only registers the controller itself answers.
fn is_read_only_global(a: u16) -> bool {
    matches!(a, ID | ERR_ADDR | ERR_COUNT | CYCLE_LO | NUM_PORTS | 0x078)
}

impl crate::counters::Counters for TargetCtrl {
    fn counters(&mut self, v: &mut dyn crate::counters::CounterVisitor) {
        v.counter("err_count_q", &mut self.err_count);
        v.counter("cycle_q", &mut self.cycle);
    }
}
