//! The small networks whose RTL is Verilated whole (issue 28 §3): generated SystemVerilog tops of
//! `exanet_node` instances, wired as the network engine wires the nodes of a torus or a mesh, that
//! `exanet cosim --design network` runs in lockstep with the network engine.
//!
//! One table, read by `build.rs` (which writes each network's top into its `OUT_DIR` with
//! [`RtlNetwork::source`] and verilates it as `net_<name>`) and by `src/cosim/networks.rs` (which
//! finds the network of a configuration, and whose tests hold [`RtlNetwork::link`] and
//! [`RtlNetwork::coord`] to the engine's topology, so that the two wirings cannot drift apart).
//!
//! Every node is Verilated at the structure of one shape of `testbench/shapes.rs` (its ports,
//! dimensions and VCs), at its own place in the lattice (its Target Controller's `RST_COORD`,
//! `RST_LATTICE`, `RST_TORUS`), with the run-time settings a network run gives every link:
//! credits after every packet and for whole packets (`net.whole_packet_credit`, the default) and
//! the TRED [`TRED`]. What a network top costs to build is in decision 0038.

/// A network Verilated as one top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RtlNetwork {
    /// The top is `net_<name>`, its module `exanet_net_<name>`.
    pub name: &'static str,
    /// The `net.topology` it is.
    pub topology: &'static str,
    /// What it stands for.
    pub what: &'static str,
    /// Nodes along each dimension, X first.
    pub size: &'static [u32],
    /// Wrap-around links: a torus; none: a mesh.
    pub wrap: bool,
    /// The shape (`testbench/shapes.rs`) every node is Verilated at.
    pub shape: &'static str,
}

/// The TRED (credit units) every Target Controller of a network top resets to: the safe TRED of
/// the network's worst case, 1-byte to 4096-byte packets with whole-packet credits (what
/// `net.tred_units = 0` picks for packets from 16 bytes up is never above it;
/// `src/cosim/networks.rs` holds it to `link::tred::safe_tred_units`). A network lockstep
/// runs the engine at this TRED.
pub const TRED: u32 = 864;

/// The CREDIT_MODE every Target Controller of a network top resets to: a credit after every
/// packet (bit 1) and credits for whole packets (bit 2), as `net.whole_packet_credit` (the
/// default) sets every link of a network run.
pub const CREDIT_MODE: u32 = 0b110;

/// Every network Verilated whole.
pub const NETWORKS: &[RtlNetwork] = &[
    RtlNetwork {
        name: "torus4x4",
        topology: "torus:4x4",
        what: "a 4x4 2-D torus (wrap-around links, half-way ties)",
        size: &[4, 4],
        wrap: true,
        shape: "torus2d",
    },
    RtlNetwork {
        name: "torus4x2x2",
        topology: "torus:4x2x2",
        what: "a 16-node 3-D torus (rings of 2: two links between a pair of nodes)",
        size: &[4, 2, 2],
        wrap: true,
        shape: "torus3d",
    },
    RtlNetwork {
        name: "mesh2x2",
        topology: "mesh:2x2",
        what: "KARMA's 2x2 mesh as the network engine builds it (one local port, link ports at \
               the edges unconnected)",
        size: &[2, 2],
        wrap: false,
        shape: "torus2d",
    },
];

impl RtlNetwork {
    /// Nodes.
    pub fn nodes(&self) -> usize {
        self.size.iter().map(|&n| n as usize).product()
    }

    /// The Verilated top's short name.
    pub fn top_name(&self) -> String {
        format!("net_{}", self.name)
    }

    /// The top module.
    pub fn module(&self) -> String {
        format!("exanet_net_{}", self.name)
    }

    fn dim(&self, d: usize) -> u32 {
        self.size.get(d).copied().unwrap_or(1)
    }

    /// The coordinates of node `id`: X varies fastest.
    pub fn coord(&self, id: usize) -> [u32; 3] {
        let (x, y) = (self.dim(0) as usize, self.dim(1) as usize);
        [
            (id % x) as u32,
            ((id / x) % y) as u32,
            (id / (x * y)) as u32,
        ]
    }

    /// The far end of port `q` of node `id`: (node, port). Port `q` leads along dimension `q / 2`,
    /// towards increasing coordinates when `q` is even; the far end of a `d+` port is the
    /// neighbour's `d-` port and the reverse. None at a mesh's edge.
    pub fn link(&self, id: usize, q: usize) -> Option<(usize, usize)> {
        let d = q / 2;
        let n = self.dim(d);
        if d >= self.size.len() || n == 1 {
            return None;
        }
        let mut c = self.coord(id);
        c[d] = match (q.is_multiple_of(2), c[d]) {
            (true, x) if x + 1 < n => x + 1,
            (true, _) if self.wrap => 0,
            (false, 0) if self.wrap => n - 1,
            (false, x) if x > 0 => x - 1,
            _ => return None,
        };
        let (x, y) = (self.dim(0), self.dim(1));
        Some(((c[0] + c[1] * x + c[2] * x * y) as usize, q ^ 1))
    }

    /// `RST_COORD`, `RST_LATTICE`, `RST_TORUS` of node `id`, as the Target Controller packs them
    /// (and as the engine's `router_cfg` sets them).
    pub fn tc_reset(&self, id: usize) -> [u32; 3] {
        let pack = |a: [u32; 3]| a[0] | a[1] << 8 | a[2] << 16;
        // every dimension's bit when the network wraps around, as the engine sets it
        let torus = if self.wrap { 0b111 } else { 0 };
        [
            pack(self.coord(id)),
            pack([self.dim(0), self.dim(1), self.dim(2)]),
            torus,
        ]
    }

    /// The SystemVerilog of the top: the nodes `gen_node[n].u_node`, at shape `params` (the
    /// `-G` overrides of `RtlShape::verilator_params(false)`, as `NAME=value`), with `n_intra`
    /// local ports and `n_inter` link ports, wired by [`RtlNetwork::link`]. Its ports: the clock,
    /// the reset and every node's processing-system ports, node `n` at index `n`; a node's
    /// register interface is idle, its lanes have no bit errors.
    pub fn source(&self, params: &[(String, String)], n_intra: usize, n_inter: usize) -> String {
        assert_eq!(n_intra, 1, "a network node has one local port");
        let n = self.nodes();
        let module = self.module();
        let mut s = String::new();
        let mut line = |l: &str| {
            s.push_str(l);
            s.push('\n');
        };
        line(&format!(
            "// {module}: {}. Generated by build.rs from testbench/networks.rs; do not edit.",
            self.what
        ));
        line(&format!(
            "// {n} exanet_node instances (gen_node[n].u_node, node n at the coordinates X + {} Y + {} Z),",
            self.dim(0),
            self.dim(0) * self.dim(1)
        ));
        line("// wired as the network engine wires the nodes of");
        line(&format!(
            "// `{}`: port q leads along dimension q/2, towards increasing coordinates when q is \
             even, to the",
            self.topology
        ));
        line("// neighbour's port q^1. The test bench drives every node's local port;");
        line("// the register interfaces are idle and the lanes error-free.");
        line("//");
        line("// Cycle contract: that of exanet_node; the links add nothing (a lane's output is");
        line("// the far node's lane input). Model twin: the network engine (src/net/engine.rs),");
        line("// driven by src/cosim/net_design.rs.");
        line("");
        line(&format!("module {module}"));
        line("(");
        line("  input  logic         clk_i,");
        line("  input  logic         rst_ni,");
        for p in ["ps_wr_hf_i", "ps_wr_pay_i", "ps_rd_hf_i", "ps_rd_pay_i"] {
            line(&format!("  input  logic [{}:0]  {p},", n - 1));
        }
        line(&format!("  input  logic [127:0] ps_wdata_i [{n}],"));
        line(&format!("  output logic [{}:0]  ps_rx_hf_empty_o,", n - 1));
        line(&format!("  output logic [{}:0]  ps_rx_pay_empty_o,", n - 1));
        line(&format!("  output logic [127:0] ps_rx_hf_rdata_o [{n}],"));
        line(&format!("  output logic [127:0] ps_rx_pay_rdata_o [{n}]"));
        line(");");
        line("");
        line(&format!("  localparam int N = {n};"));
        line(&format!("  localparam int NQ = {n_inter};"));
        // packed, node N-1 first, so that a generate loop can index them
        let tc = |k: usize| {
            (0..n)
                .rev()
                .map(|i| format!("32'h{:08x}", self.tc_reset(i)[k]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        line("  // Each node's Target Controller reset values: its place in the lattice.");
        line(&format!(
            "  localparam logic [N-1:0][31:0] COORD = {{{}}};",
            tc(0)
        ));
        line(&format!(
            "  localparam logic [N-1:0][31:0] LATTICE = {{{}}};",
            tc(1)
        ));
        line(&format!(
            "  localparam logic [N-1:0][31:0] TORUS = {{{}}};",
            tc(2)
        ));
        line("");
        line(
            "  // What each node's lanes send, and what they receive: node n's port q from the far",
        );
        line("  // end of its link (nothing at a mesh's edge).");
        line("  logic [NQ-1:0] link_valid [N];");
        line("  logic [63:0]   link_data [N][NQ];");
        line("  logic [NQ-1:0] in_valid [N];");
        line("  logic [63:0]   in_data [N][NQ];");
        for i in 0..n {
            for q in 0..n_inter {
                match self.link(i, q) {
                    Some((m, r)) => {
                        line(&format!(
                            "  assign in_valid[{i}][{q}] = link_valid[{m}][{r}];  \
                             assign in_data[{i}][{q}] = link_data[{m}][{r}];"
                        ));
                    }
                    None => {
                        line(&format!(
                            "  assign in_valid[{i}][{q}] = 1'b0;  assign in_data[{i}][{q}] = '0;"
                        ));
                    }
                }
            }
        }
        line("");
        line("  for (genvar n = 0; n < N; n++) begin : gen_node");
        line("    logic [63:0]    err_mask [NQ];");
        line("    logic [127:0]   wdata [1];");
        line("    logic [127:0]   hf_rdata [1];");
        line("    logic [127:0]   pay_rdata [1];");
        line(
            "    // The register interface and the TX FIFOs' fill levels: no one reads them here.",
        );
        line("    /* verilator lint_off UNUSEDSIGNAL */");
        line("    logic           reg_ack, reg_err;");
        line("    logic [31:0]    reg_rdata;");
        line("    logic [$clog2(128):0]  tx_hf_usedw [1];");
        line("    logic [$clog2(4096):0] tx_pay_usedw [1];");
        line("    /* verilator lint_on UNUSEDSIGNAL */");
        line("    assign err_mask = '{default: '0};");
        line("    assign wdata[0]             = ps_wdata_i[n];");
        line("    assign ps_rx_hf_rdata_o[n]  = hf_rdata[0];");
        line("    assign ps_rx_pay_rdata_o[n] = pay_rdata[0];");
        line("");
        line("    exanet_node #(");
        for (k, v) in params {
            line(&format!("      .{k}({v}),"));
        }
        line(&format!("      .RST_TRED(32'd{TRED}),"));
        line(&format!("      .RST_CREDIT_MODE(32'h{CREDIT_MODE:08x}),"));
        line("      .RST_COORD(COORD[n]),");
        line("      .RST_LATTICE(LATTICE[n]),");
        line("      .RST_TORUS(TORUS[n])");
        line("    ) u_node (");
        line("      .clk_i             (clk_i),");
        line("      .rst_ni            (rst_ni),");
        line("      .reg_wr_i          (1'b0),");
        line("      .reg_rd_i          (1'b0),");
        line("      .reg_addr_i        ('0),");
        line("      .reg_wdata_i       ('0),");
        line("      .reg_ack_o         (reg_ack),");
        line("      .reg_rdata_o       (reg_rdata),");
        line("      .reg_err_o         (reg_err),");
        line("      .ps_wr_hf_i        (ps_wr_hf_i[n]),");
        line("      .ps_wr_pay_i       (ps_wr_pay_i[n]),");
        line("      .ps_wdata_i        (wdata),");
        line("      .ps_rd_hf_i        (ps_rd_hf_i[n]),");
        line("      .ps_rd_pay_i       (ps_rd_pay_i[n]),");
        line("      .ps_tx_hf_usedw_o  (tx_hf_usedw),");
        line("      .ps_tx_pay_usedw_o (tx_pay_usedw),");
        line("      .ps_rx_hf_empty_o  (ps_rx_hf_empty_o[n]),");
        line("      .ps_rx_pay_empty_o (ps_rx_pay_empty_o[n]),");
        line("      .ps_rx_hf_rdata_o  (hf_rdata),");
        line("      .ps_rx_pay_rdata_o (pay_rdata),");
        line("      .link_in_valid_i   (in_valid[n]),");
        line("      .link_in_data_i    (in_data[n]),");
        line("      .link_err_mask_i   (err_mask),");
        line("      .link_out_valid_o  (link_valid[n]),");
        line("      .link_out_data_o   (link_data[n])");
        line("    );");
        line("  end");
        line("");
        line("endmodule");
        s
    }
}
