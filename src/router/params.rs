//! APErouter structure (synthesis parameters) and run-time configuration (registers).

use crate::pktfifo::PktFifoParams;

/// Direction an inter-tile port leads to (a configuration value, `router.inter_ports`).
pub use crate::config::Dir;

/// One inter-tile port: the dimension and direction it leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InterPort {
    pub dim: u8,
    pub dir: Dir,
}

/// Maximum number of dimensions: the header carries three coordinates (docs/packet.md).
pub const MAX_DIMS: usize = 3;
/// Maximum number of intra-tile ports.
pub const MAX_INTRA: usize = 8;
/// Maximum number of inter-tile ports of the router model: network-scale runs need up to 11 (the
/// 1056-node dragonfly, Pisani 2016 §4.4.5). The node (its register map) and the RTL take at most 6,
/// which the configuration enforces (`router.inter_ports`).
pub const MAX_INTER: usize = 16;

/// Synthesis parameters of a router.
#[derive(Debug, Clone, PartialEq)]
pub struct RouterParams {
    /// Intra-tile ports (to the processing system), 1..=8.
    pub n_intra: u32,
    /// Bit p set: intra-tile port p has an RX side (TX/RX); clear: TX-only.
    pub intra_rx: u8,
    /// Inter-tile ports (to APElinks), 0..=`MAX_INTER` (6 for the node and the RTL).
    pub inter: Vec<InterPort>,
    /// Dimensions (coordinates), 1..=3.
    pub dims: u32,
    /// Virtual channels of each inter-tile port, 1..=8.
    pub num_vcs: u32,
    /// Intra-tile packet FIFOs (both sides).
    pub intra_fifo: PktFifoParams,
    /// Inter-tile RX packet FIFOs, per VC (crossbar inputs; a neighbour's are the same).
    pub inter_rx_fifo: PktFifoParams,
    /// Inter-tile TX packet FIFOs, per VC (crossbar outputs, read by the TCL TX).
    pub inter_tx_fifo: PktFifoParams,
    /// Header size in words rather than bytes.
    pub size_in_words: bool,
}

/// Kind of a crossbar input or output slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// Intra-tile port p.
    Intra(u8),
    /// Inter-tile port q, VC v.
    Inter(u8, u8),
}

impl RouterParams {
    /// Crossbar inputs (and outputs): one per intra-tile port, then one per inter-tile port and VC.
    pub fn slots(&self) -> u32 {
        self.n_intra + self.inter.len() as u32 * self.num_vcs
    }

    pub fn slot(&self, s: u32) -> Slot {
        if s < self.n_intra {
            Slot::Intra(s as u8)
        } else {
            let k = s - self.n_intra;
            let nv = self.num_vcs;
            // (every slot's every cycle asks: no division for the usual power-of-two VCs)
            if nv.is_power_of_two() {
                let sh = nv.trailing_zeros();
                Slot::Inter((k >> sh) as u8, (k & (nv - 1)) as u8)
            } else {
                Slot::Inter((k / nv) as u8, (k % nv) as u8)
            }
        }
    }

    pub fn intra_slot(&self, p: u32) -> u32 {
        p
    }

    pub fn inter_slot(&self, q: u32, v: u32) -> u32 {
        self.n_intra + q * self.num_vcs + v
    }

    /// Does output slot `s` exist (a TX-only intra port has no RX side)?
    pub fn has_output(&self, s: u32) -> bool {
        match self.slot(s) {
            Slot::Intra(p) => self.intra_rx & (1 << p) != 0,
            Slot::Inter(..) => true,
        }
    }

    /// The packet FIFO of input slot `s`.
    pub fn fifo_in(&self, s: u32) -> PktFifoParams {
        match self.slot(s) {
            Slot::Intra(_) => self.intra_fifo,
            Slot::Inter(..) => self.inter_rx_fifo,
        }
    }

    /// The packet FIFO of output slot `s`.
    pub fn fifo_out(&self, s: u32) -> PktFifoParams {
        match self.slot(s) {
            Slot::Intra(_) => self.intra_fifo,
            Slot::Inter(..) => self.inter_tx_fifo,
        }
    }

    /// Credit units a header or footer word takes in a neighbour's RX packet FIFO.
    pub fn remote_scale(&self) -> u32 {
        self.inter_rx_fifo.scale()
    }
}

/// Run-time configuration: the Target Controller's registers as the router sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RouterCfg {
    /// This node's coordinates.
    pub coord: [u8; MAX_DIMS],
    /// Lattice size per dimension.
    pub size: [u8; MAX_DIMS],
    /// Bit d: dimension d wraps around (torus); clear: mesh.
    pub torus: u8,
    /// Order in which dimensions are consumed: `order[0]` first (a permutation of 0..dims).
    pub order: [u8; MAX_DIMS],
    /// Bit p: intra-tile port p enabled.
    pub intra_en: u8,
    /// Bit q: inter-tile port q enabled.
    pub inter_en: u16,
    /// Fixed-priority arbitration (lowest input slot wins); clear: round robin.
    pub arb_fixed: bool,
    /// Credit flavour of the links: usedword (precise room) or start/stop.
    pub usedword: bool,
    /// The links' TRED, credit units.
    pub tred: u32,
}

impl RouterParams {
    /// From a validated configuration.
    pub fn from_config(c: &crate::config::Config) -> RouterParams {
        let r = &c.router;
        let l = &c.link;
        let mut intra_rx = ((1u32 << r.intra_ports) - 1) as u8;
        for &p in &r.tx_only_ports {
            intra_rx &= !(1 << p);
        }
        RouterParams {
            n_intra: r.intra_ports,
            intra_rx,
            inter: r
                .inter_ports
                .iter()
                .map(|p| InterPort {
                    dim: p.dim,
                    dir: p.dir,
                })
                .collect(),
            dims: r.dims,
            num_vcs: l.num_vcs,
            intra_fifo: PktFifoParams {
                hf_depth: r.intra_hf_fifo_depth_words,
                pay_depth: r.intra_fifo_depth_words,
                latency: l.fifo_latency_cycles,
            },
            inter_rx_fifo: PktFifoParams {
                hf_depth: l.rx_hf_fifo_depth_words,
                pay_depth: l.rx_fifo_depth_words,
                latency: l.fifo_latency_cycles,
            },
            inter_tx_fifo: PktFifoParams {
                hf_depth: l.tx_hf_fifo_depth_words,
                pay_depth: l.tx_fifo_depth_words,
                latency: l.fifo_latency_cycles,
            },
            size_in_words: l.size_in_words,
        }
    }
}

impl RouterCfg {
    /// The registers' reset values, from a validated configuration.
    pub fn from_config(c: &crate::config::Config) -> RouterCfg {
        let n = &c.node;
        let mut torus = 0u8;
        for (d, &t) in n.torus.iter().enumerate() {
            torus |= (t as u8) << d;
        }
        RouterCfg {
            coord: n.coord,
            size: n.lattice,
            torus,
            order: n.dim_order,
            intra_en: ((1u32 << c.router.intra_ports) - 1) as u8,
            inter_en: ((1u32 << c.router.inter_ports.len()) - 1) as u16,
            arb_fixed: n.arbiter == crate::config::Arbiter::Fixed,
            usedword: c.link.credit.flavour == crate::config::CreditFlavour::Usedword,
            tred: c.link.credit.tred_words,
        }
    }
}
