//! The structures ("shapes") the RTL router and node are Verilated at, besides the KARMA node
//! the plain `router` and `node` tops are (3 intra-tile ports, X and Y each `both`, 2 VCs,
//! a 2x2 mesh): those the network commands build, so that `exanet cosim --design router|node`
//! runs the model and the RTL in lockstep at a network node's shape (issue 28 §2).
//!
//! One table, read by `build.rs` (which verilates `exanet_router_top` as `router_<name>` and
//! `exanet_node_top` as `node_<name>` with the parameters below, `-G`) and by
//! `src/cosim/shapes.rs` (which turns a shape into the configuration it stands for and finds
//! the shape of a configuration). Every FIFO depth, the FIFO latency and the PHY are the
//! configuration's defaults in every shape. Each shape costs its two tops' build (decision
//! 0037 gives the figures).

/// Directions of an inter-tile port, as the RTL codes them (`DIR_PLUS`, `DIR_MINUS`).
pub const PLUS: u8 = 0;
pub const MINUS: u8 = 1;

/// A structure the router and node are Verilated at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RtlShape {
    /// `--shape` name; the tops are `router_<name>` and `node_<name>`.
    pub name: &'static str,
    /// What network node it is.
    pub what: &'static str,
    /// Intra-tile ports (each with an RX side).
    pub n_intra: u32,
    /// Inter-tile ports: (dimension, direction), in port order.
    pub inter: &'static [(u32, u8)],
    pub dims: u32,
    pub num_vcs: u32,
    /// The node's Target Controller reset values (the node tops' `RST_COORD`, `RST_LATTICE`,
    /// `RST_TORUS`): a node inside its lattice, away from the origin, so that both VC rules'
    /// outputs carry packets.
    pub coord: [u8; 3],
    pub lattice: [u8; 3],
    pub torus: [bool; 3],
}

/// The ports of a 2-D torus node as the network numbers them (port `2 d + minus`).
const PORTS_2D: &[(u32, u8)] = &[(0, PLUS), (0, MINUS), (1, PLUS), (1, MINUS)];
const PORTS_3D: &[(u32, u8)] = &[
    (0, PLUS),
    (0, MINUS),
    (1, PLUS),
    (1, MINUS),
    (2, PLUS),
    (2, MINUS),
];

/// Every shape besides KARMA's.
pub const SHAPES: &[RtlShape] = &[
    RtlShape {
        name: "torus2d",
        what: "a 2-D torus node (torus:4x4, ecube, smart-dor): 1 local port, 4 link ports, 2 VCs",
        n_intra: 1,
        inter: PORTS_2D,
        dims: 2,
        num_vcs: 2,
        coord: [1, 2, 0],
        lattice: [4, 4, 1],
        torus: [true, true, false],
    },
    RtlShape {
        name: "torus3d",
        what: "a 3-D torus node (torus:4x2x2, ecube): 1 local port, 6 link ports, 2 VCs",
        n_intra: 1,
        inter: PORTS_3D,
        dims: 3,
        num_vcs: 2,
        coord: [2, 1, 1],
        lattice: [4, 2, 2],
        torus: [true, true, true],
    },
    RtlShape {
        name: "torus2d-3vc",
        what: "a 2-D torus node with 3 VCs (star-channel, min-adapt over 3)",
        n_intra: 1,
        inter: PORTS_2D,
        dims: 2,
        num_vcs: 3,
        coord: [3, 1, 0],
        lattice: [4, 4, 1],
        torus: [true, true, false],
    },
    RtlShape {
        name: "torus2d-4vc",
        what: "a 2-D torus node with 4 VCs (min-adapt over 4)",
        n_intra: 1,
        inter: PORTS_2D,
        dims: 2,
        num_vcs: 4,
        coord: [2, 3, 0],
        lattice: [4, 4, 1],
        torus: [true, true, false],
    },
];

impl RtlShape {
    /// The identifier part of its tops' names (`torus2d-3vc` -> `torus2d_3vc`).
    pub fn ident(&self) -> String {
        self.name.replace('-', "_")
    }

    /// `-G` parameters of `exanet_router_top` (`node`: of `exanet_node_top`, with the Target
    /// Controller's reset values).
    pub fn verilator_params(&self, node: bool) -> Vec<String> {
        let (mut dim, mut dir) = (0u32, 0u32);
        for (q, &(d, r)) in self.inter.iter().enumerate() {
            dim |= d << (2 * q);
            dir |= (r as u32) << (2 * q);
        }
        let mut p = vec![
            format!("-GN_INTRA={}", self.n_intra),
            format!("-GN_INTER={}", self.inter.len()),
            format!("-GINTER_DIM=12'h{dim:03x}"),
            format!("-GINTER_DIR=12'h{dir:03x}"),
            format!("-GDIMS={}", self.dims),
            format!("-GNUM_VCS={}", self.num_vcs),
        ];
        if node {
            let pack = |a: [u8; 3]| a[0] as u32 | (a[1] as u32) << 8 | (a[2] as u32) << 16;
            let torus = (0..3).fold(0u32, |m, d| m | (self.torus[d] as u32) << d);
            p.push(format!("-GRST_COORD=32'h{:08x}", pack(self.coord)));
            p.push(format!("-GRST_LATTICE=32'h{:08x}", pack(self.lattice)));
            p.push(format!("-GRST_TORUS=32'h{torus:08x}"));
        }
        p
    }
}
