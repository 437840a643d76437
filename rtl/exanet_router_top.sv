// exanet_router_top: the router co-simulation top: exanet_router u_router alone, every port a
// top-level port of the same name (src/cosim/router_design.rs drives the inputs by these names,
// TOP.intra_wdata_i[k] for an element of an array port, and compares every port and register).
//
//   ports --> u_router (exanet_router) --> ports
//
// Cycle contract: that of exanet_router; nothing is added.
// Model twin: src/router/mod.rs (Router), wrapped by src/cosim/router_design.rs.

module exanet_router_top
  import exanet_base_router_pkg::*;
#(
  /// Intra-tile ports (to the processing system), 1..8.
  parameter bit [31:0]              N_INTRA           = 3,
  /// Bit p set: intra-tile port p has an RX side (TX/RX); clear: TX-only.
  parameter logic [N_INTRA-1:0]     INTRA_RX          = '1,
  /// Inter-tile ports (to APElinks), 0..6.
  parameter bit [31:0]              N_INTER           = 2,
  /// Dimension inter-tile port q leads along (0 = X, 1 = Y, 2 = Z), in bits 2q+1:2q; sized for
  /// MAX_INTER ports, bits of missing ports are ignored.
  parameter logic [2*MAX_INTER-1:0] INTER_DIM         = 12'b00_00_00_00_01_00,
  /// Direction of inter-tile port q (DIR_PLUS = 0, DIR_MINUS = 1, DIR_BOTH = 2), in bits
  /// 2q+1:2q; sized for MAX_INTER ports, bits of missing ports are ignored.
  parameter logic [2*MAX_INTER-1:0] INTER_DIR         = 12'b00_00_00_00_10_10,
  /// Dimensions (coordinates), 1..3.
  parameter bit [31:0]              DIMS              = 2,
  /// Virtual channels of each inter-tile port, 1..8.
  parameter bit [31:0]              NUM_VCS           = 2,
  /// Intra-tile header/footer FIFO depth (both sides), words (power of two).
  parameter bit [31:0]              INTRA_HF_DEPTH    = 128,
  /// Intra-tile payload FIFO depth (both sides), words (power of two).
  parameter bit [31:0]              INTRA_DEPTH       = 4096,
  /// Inter-tile RX header/footer FIFO depth per VC, words (power of two).
  parameter bit [31:0]              INTER_RX_HF_DEPTH = 128,
  /// Inter-tile RX payload FIFO depth per VC, words (power of two); a neighbour's are the same,
  /// and they are the credit capacity.
  parameter bit [31:0]              INTER_RX_DEPTH    = 1024,
  /// Inter-tile TX header/footer FIFO depth per VC, words (power of two).
  parameter bit [31:0]              INTER_TX_HF_DEPTH = 128,
  /// Inter-tile TX payload FIFO depth per VC, words (power of two).
  parameter bit [31:0]              INTER_TX_DEPTH    = 1024,
  /// FIFO write-to-not-empty delay L_F in cycles, 2..16.
  parameter bit [31:0]              FIFO_LATENCY      = 3,
  /// The header size field counts words instead of bytes.
  parameter bit                     SIZE_IN_WORDS     = 1'b0,
  // Inter-tile array ports keep one element when there is no inter-tile port (unused).
  localparam bit [31:0]             NQ                = (N_INTER > 0) ? N_INTER : 1,
  localparam bit [31:0]             INTRA_HF_AW       = $clog2(INTRA_HF_DEPTH),
  localparam bit [31:0]             INTRA_AW          = $clog2(INTRA_DEPTH)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Run-time registers (the Target Controller's).
  input  logic [23:0]            cfg_coord_i,             // this node, 8 bits per dimension
  input  logic [23:0]            cfg_size_i,              // lattice size, 8 bits per dimension
  input  logic [2:0]             cfg_torus_i,             // bit d: dimension d wraps around
  input  logic [5:0]             cfg_order_i,             // dimension order, 2 bits each
  input  logic [7:0]             cfg_intra_en_i,          // intra-tile ports enabled
  input  logic [7:0]             cfg_inter_en_i,          // inter-tile ports enabled
  input  logic                   cfg_arb_fixed_i,         // fixed-priority arbiters
  input  logic                   cfg_usedword_i,          // usedword (1) or start/stop credits
  input  logic [15:0]            cfg_tred_i,              // the links' TRED, credit units
  // Intra-tile ports: TX FIFO write port (the PS), RX FIFO pops (the PS).
  input  logic [N_INTRA-1:0]     intra_wr_hf_i,
  input  logic [N_INTRA-1:0]     intra_wr_pay_i,
  input  logic [127:0]           intra_wdata_i [N_INTRA],
  input  logic [N_INTRA-1:0]     intra_rd_hf_i,
  input  logic [N_INTRA-1:0]     intra_rd_pay_i,
  // Inter-tile ports: the TCL RX's writes into the RX FIFOs, the TCL TX's pops of the TX FIFOs
  // (bit v: VC v) and its credit state (usedword: 16 bits per VC; start/stop: bit per VC).
  input  logic [NQ-1:0]          inter_wr_valid_i,
  input  logic [NQ-1:0]          inter_wr_hf_i,
  input  logic [2:0]             inter_wr_vc_i [NQ],
  input  logic [127:0]           inter_wr_data_i [NQ],
  input  logic [NUM_VCS-1:0]     inter_hf_rd_i [NQ],
  input  logic [NUM_VCS-1:0]     inter_pay_rd_i [NQ],
  input  logic [NUM_VCS*16-1:0]  inter_credit_cnt_i [NQ],
  input  logic [7:0]             inter_credit_stop_i [NQ],
  // Intra-tile TX FIFOs' write side, RX FIFOs' read side.
  output logic [INTRA_HF_AW:0]   intra_tx_hf_usedw_o [N_INTRA],
  output logic [INTRA_AW:0]      intra_tx_pay_usedw_o [N_INTRA],
  output logic [N_INTRA-1:0]     intra_rx_hf_empty_o,
  output logic [N_INTRA-1:0]     intra_rx_pay_empty_o,
  output logic [INTRA_HF_AW:0]   intra_rx_hf_rdusedw_o [N_INTRA],
  output logic [INTRA_AW:0]      intra_rx_pay_rdusedw_o [N_INTRA],
  output logic [127:0]           intra_rx_hf_rdata_o [N_INTRA],
  output logic [127:0]           intra_rx_pay_rdata_o [N_INTRA],
  // Inter-tile TX FIFOs' read side (for the TCL TX), RX FIFOs' occupancy (for its credits).
  output logic [NUM_VCS-1:0]     inter_tx_hf_empty_o [NQ],
  output logic [NUM_VCS-1:0]     inter_tx_pay_empty_o [NQ],
  output logic [127:0]           inter_tx_hf_rdata_o [NQ*NUM_VCS],
  output logic [127:0]           inter_tx_pay_rdata_o [NQ*NUM_VCS],
  output logic [NUM_VCS*16-1:0]  inter_rx_units_o [NQ]
);

  exanet_router #(
    .N_INTRA           (N_INTRA),
    .INTRA_RX          (INTRA_RX),
    .N_INTER           (N_INTER),
    .INTER_DIM         (INTER_DIM),
    .INTER_DIR         (INTER_DIR),
    .DIMS              (DIMS),
    .NUM_VCS           (NUM_VCS),
    .INTRA_HF_DEPTH    (INTRA_HF_DEPTH),
    .INTRA_DEPTH       (INTRA_DEPTH),
    .INTER_RX_HF_DEPTH (INTER_RX_HF_DEPTH),
    .INTER_RX_DEPTH    (INTER_RX_DEPTH),
    .INTER_TX_HF_DEPTH (INTER_TX_HF_DEPTH),
    .INTER_TX_DEPTH    (INTER_TX_DEPTH),
    .FIFO_LATENCY      (FIFO_LATENCY),
    .SIZE_IN_WORDS     (SIZE_IN_WORDS)
  ) u_router (
    .clk_i                  (clk_i),
    .rst_ni                 (rst_ni),
    .cfg_coord_i            (cfg_coord_i),
    .cfg_size_i             (cfg_size_i),
    .cfg_torus_i            (cfg_torus_i),
    .cfg_order_i            (cfg_order_i),
    .cfg_intra_en_i         (cfg_intra_en_i),
    .cfg_inter_en_i         (cfg_inter_en_i),
    .cfg_arb_fixed_i        (cfg_arb_fixed_i),
    .cfg_usedword_i         (cfg_usedword_i),
    .cfg_tred_i             (cfg_tred_i),
    .intra_wr_hf_i          (intra_wr_hf_i),
    .intra_wr_pay_i         (intra_wr_pay_i),
    .intra_wdata_i          (intra_wdata_i),
    .intra_rd_hf_i          (intra_rd_hf_i),
    .intra_rd_pay_i         (intra_rd_pay_i),
    .inter_wr_valid_i       (inter_wr_valid_i),
    .inter_wr_hf_i          (inter_wr_hf_i),
    .inter_wr_vc_i          (inter_wr_vc_i),
    .inter_wr_data_i        (inter_wr_data_i),
    .inter_hf_rd_i          (inter_hf_rd_i),
    .inter_pay_rd_i         (inter_pay_rd_i),
    .inter_credit_cnt_i     (inter_credit_cnt_i),
    .inter_credit_stop_i    (inter_credit_stop_i),
    .intra_tx_hf_usedw_o    (intra_tx_hf_usedw_o),
    .intra_tx_pay_usedw_o   (intra_tx_pay_usedw_o),
    .intra_rx_hf_empty_o    (intra_rx_hf_empty_o),
    .intra_rx_pay_empty_o   (intra_rx_pay_empty_o),
    .intra_rx_hf_rdusedw_o  (intra_rx_hf_rdusedw_o),
    .intra_rx_pay_rdusedw_o (intra_rx_pay_rdusedw_o),
    .intra_rx_hf_rdata_o    (intra_rx_hf_rdata_o),
    .intra_rx_pay_rdata_o   (intra_rx_pay_rdata_o),
    .inter_tx_hf_empty_o    (inter_tx_hf_empty_o),
    .inter_tx_pay_empty_o   (inter_tx_pay_empty_o),
    .inter_tx_hf_rdata_o    (inter_tx_hf_rdata_o),
    .inter_tx_pay_rdata_o   (inter_tx_pay_rdata_o),
    .inter_rx_units_o       (inter_rx_units_o),
    .stat_in_pkts_o         (),
    .stat_in_words_o        (),
    .stat_in_drops_o        (),
    .stat_in_reason_o       (),
    .stat_in_hf_usedw_o     (),
    .stat_in_pay_usedw_o    (),
    .stat_out_pkts_o        (),
    .stat_out_words_o       (),
    .stat_out_hf_usedw_o    (),
    .stat_out_pay_usedw_o   ()
  );

endmodule
