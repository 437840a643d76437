//! The Target Controller's register map (Biagioni 2017 §5.4: "a set of configuration/status
//! registers is accessible on the same AXI bus through the Target Controller IP, which allows the
//! configuration of the router (e.g. setting coordinates and lattice size) and the probing of
//! FIFOs and link status"). One table; `docs/registers.md` and `rtl/exanet_base_regs_pkg.sv` carry
//! the same one and `tests/register_map.rs` keeps the three equal.
//!
//! All registers are 32 bits at byte addresses. Per-slot status registers repeat every
//! `SLOT_STRIDE` bytes from `SLOT_BASE` (slot numbering as the router's, `src/router/mod.rs`);
//! per-link status registers repeat every `LINK_STRIDE` bytes from `LINK_BASE`.

/// Access kind of a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read and write.
    Rw,
    /// Read only; a write is an error.
    Ro,
    /// Write only (reads 0); writing starts an action.
    Wo,
    /// Read; writing 1s clears the written bits.
    W1c,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::Rw => "RW",
            Access::Ro => "RO",
            Access::Wo => "WO",
            Access::W1c => "W1C",
        }
    }
}

/// One register (or one of a repeated block when `stride` is set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reg {
    pub name: &'static str,
    pub addr: u16,
    pub access: Access,
    pub description: &'static str,
}

const fn r(name: &'static str, addr: u16, access: Access, description: &'static str) -> Reg {
    Reg {
        name,
        addr,
        access,
        description,
    }
}

use Access::{Ro, Rw, W1c, Wo};

/// Start of the per-slot status block, and its stride.
pub const SLOT_BASE: u16 = 0x100;
pub const SLOT_STRIDE: u16 = 0x20;
/// Maximum slots addressable (crossbar inputs/outputs).
pub const MAX_SLOTS: u16 = 56;
/// Start of the per-link status block, and its stride.
pub const LINK_BASE: u16 = 0x800;
pub const LINK_STRIDE: u16 = 0x40;
/// Maximum links addressable.
pub const MAX_LINKS: u16 = 6;

/// The largest self-test payload ST_PKT accepts, bytes (`ST_PKT_MAX_SIZE` of
/// rtl/exanet_base_regs_pkg.sv).
pub const ST_PKT_MAX_SIZE: u32 = 4096;

/// The register map. Slot and link registers are given at their offset in the block.
pub const REGS: [Reg; 56] = [
    r("ID", 0x000, Ro, "0x45584E31 ('EXN1')"),
    r("COORD", 0x004, Rw, "this node's coordinates: [7:0] X, [15:8] Y, [23:16] Z"),
    r("LATTICE", 0x008, Rw, "lattice size: [7:0] X, [15:8] Y, [23:16] Z (1..255; 1 beyond the router's dimensions)"),
    r("TORUS", 0x00C, Rw, "[2:0] dimension wraps around (torus); clear: mesh"),
    r("DIM_ORDER", 0x010, Rw, "dimension order: [1:0] first, [3:2] second, [5:4] third; must be a permutation of the router's dimensions"),
    r("PORT_EN", 0x014, Rw, "[7:0] intra-tile ports enabled, [15:8] inter-tile ports enabled"),
    r("ARB_MODE", 0x018, Rw, "[0] 1: fixed priority (lowest input slot wins), 0: round robin"),
    r("CREDIT_PERIOD", 0x01C, Rw, "[15:0] cycles between credits on an idle link (>= 1)"),
    r("CREDIT_MAX_INTERVAL", 0x020, Rw, "[15:0] cycles after which a credit goes inside a packet (>= CREDIT_PERIOD)"),
    r("TRED", 0x024, Rw, "[15:0] credit threshold, credit units (1 .. RX buffer capacity - 1)"),
    r("CREDIT_MODE", 0x028, Rw, "[0] usedword credits (0: start/stop), [1] a credit after every packet, [2] credit checked only before a packet"),
    r("PHY_CTRL", 0x02C, Rw, "[0] gearbox pause, [1] clock compensation"),
    r("ERR_STATUS", 0x030, W1c, "sticky errors: [0] unknown address, [1] invalid value, [2] write to a read-only register"),
    r("ERR_ADDR", 0x034, Ro, "[15:0] address of the last erroneous access"),
    r("ERR_COUNT", 0x038, Ro, "erroneous accesses so far"),
    r("DROPS", 0x03C, Ro, "packets the router dropped (all ports)"),
    r("ST_GEN_EN", 0x040, Rw, "[7:0] self-test traffic generator enabled on intra-tile port p (cleared during a run: the packet under way is finished, then it stops)"),
    r("ST_PKT", 0x044, Rw, "self-test packets: [12:0] size (bytes; at most 4096), [14:13] type, [17:15] VC"),
    r("ST_DEST", 0x048, Rw, "self-test destination: [7:0] X, [15:8] Y, [23:16] Z, [26:24] intra-tile port"),
    r("ST_COUNT", 0x04C, Rw, "packets each enabled generator sends"),
    r("ST_CONS_EN", 0x050, Rw, "[7:0] self-test consumer drains the RX FIFOs of intra-tile port p"),
    r("ST_EXPECT", 0x054, Rw, "packets the consumers must receive before the performance counter stops (0: ST_COUNT x enabled generators)"),
    r("ST_CTRL", 0x058, Wo, "[0] start: clear the self-test counters, start the generators and the performance counter (refused while a generator is active)"),
    r("PERF_CYCLES", 0x05C, Ro, "cycles from the start to the last expected packet consumed (counting while running)"),
    r("PERF_STATUS", 0x060, Ro, "[0] running, [1] done"),
    r("ST_CONS_PKTS", 0x064, Ro, "packets the consumers received since the start"),
    r("ST_CONS_WORDS", 0x068, Ro, "words the consumers received since the start"),
    r("ST_GEN_PKTS", 0x06C, Ro, "packets the generators sent since the start"),
    r("CYCLE_LO", 0x070, Ro, "free-running cycle counter, low 32 bits"),
    r("IRQ_STATUS", 0x074, Ro, "[7:0] intra-tile port p has a header in its RX FIFO"),
    r("RSVD_078", 0x078, Ro, "reserved (reads 0)"),
    r("NUM_PORTS", 0x07C, Ro, "[7:0] intra-tile ports, [15:8] inter-tile ports, [23:16] VCs, [31:24] dimensions"),
    r("SLOT_IN_PKTS", 0x00, Ro, "packets through the slot's gate (crossbar input)"),
    r("SLOT_IN_WORDS", 0x04, Ro, "words through the slot's gate"),
    r("SLOT_IN_DROPS", 0x08, Ro, "packets the gate dropped; [31:30] of SLOT_IN_FIFO the last reason"),
    r("SLOT_IN_FIFO", 0x0C, Ro, "input FIFO occupancy: [15:0] payload words, [29:16] header/footer words, [31:30] last drop reason"),
    r("SLOT_OUT_PKTS", 0x10, Ro, "packets written into the slot's output FIFO"),
    r("SLOT_OUT_WORDS", 0x14, Ro, "words written into the slot's output FIFO"),
    r("SLOT_OUT_FIFO", 0x18, Ro, "output FIFO occupancy: [15:0] payload words, [31:16] header/footer words"),
    r("SLOT_RSVD", 0x1C, Ro, "reserved"),
    r("LINK_STATUS", 0x00, Ro, "[0] outgoing lane up, [1] the TX is sending a packet (LINK_TX_PKTS counts it once its footer has gone)"),
    r("LINK_ECC_CORR", 0x04, Ro, "headers with a corrected error"),
    r("LINK_ECC_UNCORR", 0x08, Ro, "headers with an uncorrectable error"),
    r("LINK_CRC_ERR", 0x0C, Ro, "packets with a bad CRC"),
    r("LINK_STALL", 0x10, Ro, "cycles the TX waited for credit"),
    r("LINK_TX_PKTS", 0x14, Ro, "packets sent"),
    r("LINK_RX_PKTS", 0x18, Ro, "packets received"),
    r("LINK_LOST", 0x1C, Ro, "packets lost, every reason: LINK_DISC_HDR + LINK_DISC_FRAMING + LINK_DISC_RESYNC"),
    r("LINK_DISC_HDR", 0x20, Ro, "packets discarded at their header (uncorrectable, or naming a VC that does not exist)"),
    r("LINK_DISC_FRAMING", 0x24, Ro, "packets discarded whose framing (Magic, Start) was lost, counted from the link sequence number"),
    r("LINK_DISC_RESYNC", 0x28, Ro, "packets that went by while the RX discarded to the next Start after a bad header"),
    r("LINK_DROPPED", 0x2C, Ro, "beats dropped outside any packet"),
    r("LINK_RSVD_30", 0x30, Ro, "reserved (reads 0)"),
    r("LINK_RSVD_34", 0x34, Ro, "reserved (reads 0)"),
    r("LINK_RSVD_38", 0x38, Ro, "reserved (reads 0)"),
    r("LINK_RSVD_3C", 0x3C, Ro, "reserved (reads 0)"),
];

/// The first register that is in a slot or link block (REGS is ordered: global, slot, link).
pub const FIRST_SLOT_REG: usize = 32;
pub const FIRST_LINK_REG: usize = 40;

/// Address of a global register, by name.
pub const fn addr(name: &str) -> u16 {
    let mut k = 0;
    while k < FIRST_SLOT_REG {
        if crate::conststr::str_eq(REGS[k].name, name) {
            return REGS[k].addr;
        }
        k += 1;
    }
    panic!("no such register")
}

pub const ID_VALUE: u32 = 0x4558_4E31;

pub const ID: u16 = addr("ID");
pub const COORD: u16 = addr("COORD");
pub const LATTICE: u16 = addr("LATTICE");
pub const TORUS: u16 = addr("TORUS");
pub const DIM_ORDER: u16 = addr("DIM_ORDER");
pub const PORT_EN: u16 = addr("PORT_EN");
pub const ARB_MODE: u16 = addr("ARB_MODE");
pub const CREDIT_PERIOD: u16 = addr("CREDIT_PERIOD");
pub const CREDIT_MAX_INTERVAL: u16 = addr("CREDIT_MAX_INTERVAL");
pub const TRED: u16 = addr("TRED");
pub const CREDIT_MODE: u16 = addr("CREDIT_MODE");
pub const PHY_CTRL: u16 = addr("PHY_CTRL");
pub const ERR_STATUS: u16 = addr("ERR_STATUS");
pub const ERR_ADDR: u16 = addr("ERR_ADDR");
pub const ERR_COUNT: u16 = addr("ERR_COUNT");
pub const DROPS: u16 = addr("DROPS");
pub const ST_GEN_EN: u16 = addr("ST_GEN_EN");
pub const ST_PKT: u16 = addr("ST_PKT");
pub const ST_DEST: u16 = addr("ST_DEST");
pub const ST_COUNT: u16 = addr("ST_COUNT");
pub const ST_CONS_EN: u16 = addr("ST_CONS_EN");
pub const ST_EXPECT: u16 = addr("ST_EXPECT");
pub const ST_CTRL: u16 = addr("ST_CTRL");
pub const PERF_CYCLES: u16 = addr("PERF_CYCLES");
pub const PERF_STATUS: u16 = addr("PERF_STATUS");
pub const ST_CONS_PKTS: u16 = addr("ST_CONS_PKTS");
pub const ST_CONS_WORDS: u16 = addr("ST_CONS_WORDS");
pub const ST_GEN_PKTS: u16 = addr("ST_GEN_PKTS");
pub const CYCLE_LO: u16 = addr("CYCLE_LO");
pub const IRQ_STATUS: u16 = addr("IRQ_STATUS");
pub const NUM_PORTS: u16 = addr("NUM_PORTS");

/// Error bits of ERR_STATUS.
pub const ERR_UNKNOWN_ADDR: u32 = 1;
pub const ERR_BAD_VALUE: u32 = 2;
pub const ERR_READ_ONLY: u32 = 4;

/// Address of register `offset` of slot `s`'s block.
pub fn slot_reg(s: u32, offset: u16) -> u16 {
    SLOT_BASE + SLOT_STRIDE * s as u16 + offset
}

/// Every register of a node with `slots` crossbar slots and `links` links, at every address it
/// has (the slot and link blocks repeated), in address order: the register, its address, and the
/// block it is in (`None` for a global register, else the slot's or link's index).
pub fn all_addresses(slots: u32, links: u32) -> Vec<(&'static Reg, u16, Option<u32>)> {
    let mut v: Vec<(&'static Reg, u16, Option<u32>)> = REGS[..FIRST_SLOT_REG]
        .iter()
        .map(|r| (r, r.addr, None))
        .collect();
    for s in 0..slots {
        v.extend(
            REGS[FIRST_SLOT_REG..FIRST_LINK_REG]
                .iter()
                .map(|r| (r, slot_reg(s, r.addr), Some(s))),
        );
    }
    for q in 0..links {
        v.extend(
            REGS[FIRST_LINK_REG..]
                .iter()
                .map(|r| (r, link_reg(q, r.addr), Some(q))),
        );
    }
    v
}

/// Address of register `offset` of link `q`'s block.
pub fn link_reg(q: u32, offset: u16) -> u16 {
    LINK_BASE + LINK_STRIDE * q as u16 + offset
}
