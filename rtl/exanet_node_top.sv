// exanet_node_top: the node co-simulation top: one node (u_node) and, on each inter-tile port, a
// neighbour's link end (its per-VC packet FIFOs and TCL, gen_nb[q].u_end) with the neighbour's
// outgoing lane towards the node (gen_nb[q].u_lane): the node of Biagioni 2017 §5.4 with the APElink
// peers of §5.3.4 it talks to.
//
//   test bench --reg_*, ps_*--> u_node --link_out[q]--> gen_nb[q].u_end --> tb (nb RX FIFOs)
//   test bench (nb TX FIFOs) --> gen_nb[q].u_end --> gen_nb[q].u_lane --link_in[q]--> u_node
//
// The neighbours' link configuration (nb_cfg_*) is the test bench's, fixed; the node's comes from
// its Target Controller. link_err_mask_i flips bits on the node's lanes, nb_err_mask_i on the
// neighbours'.
//
// Cycle contract: that of exanet_node and exanet_link_end; nothing is added.
// Model twin: src/node/top.rs (NodeTop), driven by src/cosim/node_design.rs.

module exanet_node_top
  import exanet_base_regs_pkg::*;
  import exanet_base_router_pkg::*;
#(
  /// Intra-tile ports (to the processing system), 1..8.
  parameter bit [31:0]              N_INTRA           = 3,
  /// Bit p set: intra-tile port p has an RX side (TX/RX); clear: TX-only.
  parameter logic [N_INTRA-1:0]     INTRA_RX          = '1,
  /// Inter-tile ports (to APElinks), 1..6 (each has a neighbour here).
  parameter bit [31:0]              N_INTER           = 2,
  /// Dimension inter-tile port q leads along (0 = X, 1 = Y, 2 = Z), in bits 2q+1:2q.
  parameter logic [2*MAX_INTER-1:0] INTER_DIM         = 12'b00_00_00_00_01_00,
  /// Direction of inter-tile port q (DIR_PLUS = 0, DIR_MINUS = 1, DIR_BOTH = 2), in bits
  /// 2q+1:2q.
  parameter logic [2*MAX_INTER-1:0] INTER_DIR         = 12'b00_00_00_00_10_10,
  /// Dimensions (coordinates), 1..3.
  parameter bit [31:0]              DIMS              = 2,
  /// Virtual channels of each inter-tile port, 1..8.
  parameter bit [31:0]              NUM_VCS           = 2,
  /// Intra-tile header/footer FIFO depth (both sides), words (power of two).
  parameter bit [31:0]              INTRA_HF_DEPTH    = 128,
  /// Intra-tile payload FIFO depth (both sides), words (power of two).
  parameter bit [31:0]              INTRA_DEPTH       = 4096,
  /// Inter-tile RX header/footer FIFO depth per VC, words (power of two), node and neighbours.
  parameter bit [31:0]              INTER_RX_HF_DEPTH = 128,
  /// Inter-tile RX payload FIFO depth per VC, words (power of two), node and neighbours.
  parameter bit [31:0]              INTER_RX_DEPTH    = 1024,
  /// Inter-tile TX header/footer FIFO depth per VC, words (power of two), node and neighbours.
  parameter bit [31:0]              INTER_TX_HF_DEPTH = 128,
  /// Inter-tile TX payload FIFO depth per VC, words (power of two), node and neighbours.
  parameter bit [31:0]              INTER_TX_DEPTH    = 1024,
  /// FIFO write-to-not-empty delay L_F in cycles, 2..16.
  parameter bit [31:0]              FIFO_LATENCY      = 3,
  /// The header size field counts words instead of bytes.
  parameter bit                     SIZE_IN_WORDS     = 1'b0,
  /// Beats of a usedword credit, 1..4.
  parameter bit [31:0]              UW_BEATS          = 4,
  /// PHY latency in cycles.
  parameter bit [31:0]              PHY_LATENCY       = 42,
  /// Gearbox pause period in cycles.
  parameter bit [31:0]              GB_PERIOD         = 32,
  /// Clock-compensation period in cycles.
  parameter bit [31:0]              CC_PERIOD         = 4992,
  /// Clock-compensation length in cycles.
  parameter bit [31:0]              CC_LEN            = 8,
  /// Cycles from reset to lane up.
  parameter bit [31:0]              LANE_UP_CYCLES    = 500,
  /// The node's Target Controller reset values of COORD, LATTICE and TORUS (exanet_node's
  /// parameters of those names): a node of a torus is Verilated at its place in it.
  parameter logic [31:0]            RST_COORD         = 32'h0000_0000,
  parameter logic [31:0]            RST_LATTICE       = 32'h0001_0202,
  parameter logic [31:0]            RST_TORUS         = 32'h0000_0000,
  localparam bit [31:0]             INTRA_HF_AW       = $clog2(INTRA_HF_DEPTH),
  localparam bit [31:0]             INTRA_AW          = $clog2(INTRA_DEPTH)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // The node's register interface.
  input  logic                  reg_wr_i,
  input  logic                  reg_rd_i,
  input  logic [REG_ADDR_W-1:0] reg_addr_i,
  input  logic [31:0]           reg_wdata_i,
  output logic                  reg_ack_o,
  output logic [31:0]           reg_rdata_o,
  output logic                  reg_err_o,
  // The node's processing-system ports.
  input  logic [N_INTRA-1:0]    ps_wr_hf_i,
  input  logic [N_INTRA-1:0]    ps_wr_pay_i,
  input  logic [127:0]          ps_wdata_i [N_INTRA],
  input  logic [N_INTRA-1:0]    ps_rd_hf_i,
  input  logic [N_INTRA-1:0]    ps_rd_pay_i,
  output logic [INTRA_HF_AW:0]  ps_tx_hf_usedw_o [N_INTRA],
  output logic [INTRA_AW:0]     ps_tx_pay_usedw_o [N_INTRA],
  output logic [N_INTRA-1:0]    ps_rx_hf_empty_o,
  output logic [N_INTRA-1:0]    ps_rx_pay_empty_o,
  output logic [127:0]          ps_rx_hf_rdata_o [N_INTRA],
  output logic [127:0]          ps_rx_pay_rdata_o [N_INTRA],
  // The neighbours' link configuration.
  input  logic [15:0]           nb_cfg_credit_period_i,
  input  logic [15:0]           nb_cfg_max_interval_i,
  input  logic [15:0]           nb_cfg_tred_i,
  input  logic                  nb_cfg_usedword_i,
  input  logic                  nb_cfg_after_pkt_i,
  input  logic                  nb_cfg_whole_pkt_i,
  input  logic                  nb_cfg_gearbox_en_i,
  input  logic                  nb_cfg_cc_en_i,
  // Bit errors on the node's lanes and on the neighbours' lanes.
  input  logic [63:0]           link_err_mask_i [N_INTER],
  input  logic [63:0]           nb_err_mask_i [N_INTER],
  // Each neighbour's FIFOs (bit v: VC v).
  input  logic [NUM_VCS-1:0]    nb_tx_wr_hf_i [N_INTER],
  input  logic [NUM_VCS-1:0]    nb_tx_wr_pay_i [N_INTER],
  input  logic [127:0]          nb_tx_wdata_i [N_INTER],
  input  logic [NUM_VCS-1:0]    nb_rx_rd_hf_i [N_INTER],
  input  logic [NUM_VCS-1:0]    nb_rx_rd_pay_i [N_INTER],
  output logic [NUM_VCS-1:0]    nb_tx_hf_full_o [N_INTER],
  output logic [NUM_VCS-1:0]    nb_tx_pay_full_o [N_INTER],
  output logic [NUM_VCS-1:0]    nb_rx_hf_empty_o [N_INTER],
  output logic [NUM_VCS-1:0]    nb_rx_pay_empty_o [N_INTER]
);

  // What the neighbours' lanes deliver to the node, and the node's lanes to the neighbours.
  logic [N_INTER-1:0] link_in_valid, link_out_valid;
  logic [63:0]        link_in_data [N_INTER];
  logic [63:0]        link_out_data [N_INTER];

  exanet_node #(
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
    .SIZE_IN_WORDS     (SIZE_IN_WORDS),
    .UW_BEATS          (UW_BEATS),
    .PHY_LATENCY       (PHY_LATENCY),
    .GB_PERIOD         (GB_PERIOD),
    .CC_PERIOD         (CC_PERIOD),
    .CC_LEN            (CC_LEN),
    .LANE_UP_CYCLES    (LANE_UP_CYCLES),
    .RST_COORD         (RST_COORD),
    .RST_LATTICE       (RST_LATTICE),
    .RST_TORUS         (RST_TORUS)
  ) u_node (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .reg_wr_i          (reg_wr_i),
    .reg_rd_i          (reg_rd_i),
    .reg_addr_i        (reg_addr_i),
    .reg_wdata_i       (reg_wdata_i),
    .reg_ack_o         (reg_ack_o),
    .reg_rdata_o       (reg_rdata_o),
    .reg_err_o         (reg_err_o),
    .ps_wr_hf_i        (ps_wr_hf_i),
    .ps_wr_pay_i       (ps_wr_pay_i),
    .ps_wdata_i        (ps_wdata_i),
    .ps_rd_hf_i        (ps_rd_hf_i),
    .ps_rd_pay_i       (ps_rd_pay_i),
    .ps_tx_hf_usedw_o  (ps_tx_hf_usedw_o),
    .ps_tx_pay_usedw_o (ps_tx_pay_usedw_o),
    .ps_rx_hf_empty_o  (ps_rx_hf_empty_o),
    .ps_rx_pay_empty_o (ps_rx_pay_empty_o),
    .ps_rx_hf_rdata_o  (ps_rx_hf_rdata_o),
    .ps_rx_pay_rdata_o (ps_rx_pay_rdata_o),
    .link_in_valid_i   (link_in_valid),
    .link_in_data_i    (link_in_data),
    .link_err_mask_i   (link_err_mask_i),
    .link_out_valid_o  (link_out_valid),
    .link_out_data_o   (link_out_data)
  );

  for (genvar q = 0; q < N_INTER; q++) begin : gen_nb
    logic        tx_ready, tx_valid;
    logic [63:0] tx_data;

    exanet_link_end #(
      .NUM_VCS       (NUM_VCS),
      .TX_DEPTH      (INTER_TX_DEPTH),
      .TX_HF_DEPTH   (INTER_TX_HF_DEPTH),
      .RX_DEPTH      (INTER_RX_DEPTH),
      .RX_HF_DEPTH   (INTER_RX_HF_DEPTH),
      .FIFO_LATENCY  (FIFO_LATENCY),
      .UW_BEATS      (UW_BEATS),
      .SIZE_IN_WORDS (SIZE_IN_WORDS)
    ) u_end (
      .clk_i               (clk_i),
      .rst_ni              (rst_ni),
      .cfg_credit_period_i (nb_cfg_credit_period_i),
      .cfg_max_interval_i  (nb_cfg_max_interval_i),
      .cfg_tred_i          (nb_cfg_tred_i),
      .cfg_usedword_i      (nb_cfg_usedword_i),
      .cfg_after_pkt_i     (nb_cfg_after_pkt_i),
      .cfg_whole_pkt_i     (nb_cfg_whole_pkt_i),
      .tx_wr_hf_i          (nb_tx_wr_hf_i[q]),
      .tx_wr_pay_i         (nb_tx_wr_pay_i[q]),
      .tx_wdata_i          (nb_tx_wdata_i[q]),
      .rx_rd_hf_i          (nb_rx_rd_hf_i[q]),
      .rx_rd_pay_i         (nb_rx_rd_pay_i[q]),
      .phy_tx_ready_i      (tx_ready),
      .phy_tx_valid_o      (tx_valid),
      .phy_tx_data_o       (tx_data),
      .phy_rx_valid_i      (link_out_valid[q]),
      .phy_rx_data_i       (link_out_data[q]),
      .tx_hf_full_o        (nb_tx_hf_full_o[q]),
      .tx_pay_full_o       (nb_tx_pay_full_o[q]),
      .rx_hf_empty_o       (nb_rx_hf_empty_o[q]),
      .rx_pay_empty_o      (nb_rx_pay_empty_o[q])
    );

    exanet_phy_lane #(
      .LATENCY        (PHY_LATENCY),
      .GB_PERIOD      (GB_PERIOD),
      .CC_PERIOD      (CC_PERIOD),
      .CC_LEN         (CC_LEN),
      .LANE_UP_CYCLES (LANE_UP_CYCLES)
    ) u_lane (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .cfg_gearbox_en_i (nb_cfg_gearbox_en_i),
      .cfg_cc_en_i      (nb_cfg_cc_en_i),
      .tx_valid_i       (tx_valid),
      .tx_data_i        (tx_data),
      .err_mask_i       (nb_err_mask_i[q]),
      .tx_ready_o       (tx_ready),
      .rx_valid_o       (link_in_valid[q]),
      .rx_data_o        (link_in_data[q]),
      .lane_up_o        ()
    );
  end

endmodule
