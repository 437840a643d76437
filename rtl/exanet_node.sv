// exanet_node: the ExaNet Network IP node (Biagioni 2017 §5.3, §5.4, Figure 5.13, Table 5.5): the
// APErouter, one APElink (TCL + outgoing PHY lane) per inter-tile port, the Target Controller,
// and the self-test IPs (a Traffic Generator and a Consumer per intra-tile port, the Performance
// Counter).
//
//   reg_* (AXI-lite-like) --> u_tc (Target Controller) --> configuration of everything below
//   ps_* (processing system) --+--> u_router intra-tile port p <--+-- gen_st[p].u_gen (self-test)
//                              +--< ...                         --+--> gen_st[p].u_cons
//   link_in_* (neighbour lane) --> gen_link[q].u_tcl.u_rx --> u_router inter-tile port q
//   link_out_* <-- gen_link[q].u_lane <-- gen_link[q].u_tcl.u_tx <-- u_router inter-tile port q
//
// The outgoing PHY lane of each link belongs to the node that transmits on it; link_out_* is what
// arrives at the neighbour, and the neighbour's lane drives link_in_*. On an intra-tile port
// whose generator (consumer) is enabled in ST_GEN_EN (ST_CONS_EN), the generator writes (the
// consumer reads) the port's FIFOs instead of the processing system; a generator whose bit
// clears during a run keeps the port until it has finished its packet (decision 0043).
//
// Cycle contract: every block's; every signal between blocks is a register of the driving block
// (the router's FIFO outputs, the TCL's strobes, the Target Controller's configuration). The
// status read mux (status_hit/status_rdata, for u_tc) and the self-test sums (consumed, expect,
// busy) are combinational over registers of this cycle; a register read is answered in the next
// cycle. A TX-only intra-tile port (INTRA_RX bit clear) has no RX FIFO: its consumer sees an
// empty FIFO forever and its counters stay zero.
//
// Model twin: src/node/mod.rs (Node, Node::status), with src/node/target.rs and
// src/node/selftest.rs.

module exanet_node
  import exanet_base_pkg::*;
  import exanet_base_regs_pkg::*;
  import exanet_base_router_pkg::*;
#(
  /// Intra-tile ports (to the processing system), 1..8.
  parameter bit [31:0]              N_INTRA           = 3,
  /// Bit p set: intra-tile port p has an RX side (TX/RX); clear: TX-only.
  parameter logic [N_INTRA-1:0]     INTRA_RX          = '1,
  /// Inter-tile ports (to APElinks), 0..6.
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
  /// Inter-tile RX header/footer FIFO depth per VC, words (power of two).
  parameter bit [31:0]              INTER_RX_HF_DEPTH = 128,
  /// Inter-tile RX payload FIFO depth per VC, words (power of two); the credit capacity.
  parameter bit [31:0]              INTER_RX_DEPTH    = 1024,
  /// Inter-tile TX header/footer FIFO depth per VC, words (power of two).
  parameter bit [31:0]              INTER_TX_HF_DEPTH = 128,
  /// Inter-tile TX payload FIFO depth per VC, words (power of two).
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
  /// Reset value of COORD: X [7:0], Y [15:8], Z [23:16].
  parameter logic [31:0]            RST_COORD         = 32'h0000_0000,
  /// Reset value of LATTICE: X [7:0], Y [15:8], Z [23:16].
  parameter logic [31:0]            RST_LATTICE       = 32'h0001_0202,
  /// Reset value of TORUS: bit d, dimension d wraps around.
  parameter logic [31:0]            RST_TORUS         = 32'h0000_0000,
  /// Reset value of DIM_ORDER: 2 bits per position, first in [1:0].
  parameter logic [31:0]            RST_ORDER         = 32'h0000_0024,
  /// Reset value of ARB_MODE[0]: fixed priority (1) or round robin (0).
  parameter bit                     RST_ARB_FIXED     = 1'b0,
  /// Reset value of CREDIT_PERIOD, cycles.
  parameter logic [31:0]            RST_CREDIT_PERIOD = 32'd35,
  /// Reset value of CREDIT_MAX_INTERVAL, cycles.
  parameter logic [31:0]            RST_MAX_INTERVAL  = 32'd110,
  /// Reset value of TRED, credit units.
  parameter logic [31:0]            RST_TRED          = 32'd128,
  /// Reset value of CREDIT_MODE: [0] usedword, [1] a credit after every packet, [2] credit
  /// checked only before a packet.
  parameter logic [31:0]            RST_CREDIT_MODE   = 32'h0000_0002,
  /// Reset value of PHY_CTRL: [0] gearbox pause, [1] clock compensation.
  parameter logic [31:0]            RST_PHY_CTRL      = 32'h0000_0002,
  // Inter-tile array ports keep one element when there is no inter-tile port (unused).
  localparam bit [31:0]             NQ                = (N_INTER > 0) ? N_INTER : 1,
  localparam bit [31:0]             N_SLOTS           = N_INTRA + N_INTER * NUM_VCS,
  localparam bit [31:0]             INTRA_HF_AW       = $clog2(INTRA_HF_DEPTH),
  localparam bit [31:0]             INTRA_AW          = $clog2(INTRA_DEPTH)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Register interface (the Target Controller).
  input  logic                  reg_wr_i,
  input  logic                  reg_rd_i,
  input  logic [REG_ADDR_W-1:0] reg_addr_i,
  input  logic [31:0]           reg_wdata_i,
  output logic                  reg_ack_o,
  output logic [31:0]           reg_rdata_o,
  output logic                  reg_err_o,
  // Processing system: each intra-tile port's TX FIFO write port and RX FIFO read side.
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
  // Inter-tile links: what the neighbour's lane delivers, the bit errors of our outgoing lane,
  // and what our outgoing lane delivers to the neighbour.
  input  logic [NQ-1:0]         link_in_valid_i,
  input  logic [63:0]           link_in_data_i [NQ],
  input  logic [63:0]           link_err_mask_i [NQ],
  output logic [NQ-1:0]         link_out_valid_o,
  output logic [63:0]           link_out_data_o [NQ]
);

  // -----------------------------------------------------------------------------------------------
  // Target Controller.
  // -----------------------------------------------------------------------------------------------

  logic [31:0] coord, lattice, torus, dim_order, port_en, credit_period, max_interval, tred;
  logic [31:0] credit_mode, phy_ctrl;
  logic        arb_fixed;
  logic [31:0] st_gen_en, st_pkt, st_dest, st_count, st_cons_en, st_expect;
  logic        st_start, st_busy;
  logic        status_hit;
  logic [31:0] status_rdata;

  exanet_target_ctrl #(
    .DIMS              (DIMS),
    .N_INTRA           (N_INTRA),
    .N_INTER           (N_INTER),
    .NUM_VCS           (NUM_VCS),
    .RX_CAPACITY       (INTER_RX_DEPTH),
    .RST_COORD         (RST_COORD),
    .RST_LATTICE       (RST_LATTICE),
    .RST_TORUS         (RST_TORUS),
    .RST_ORDER         (RST_ORDER),
    .RST_ARB_FIXED     (RST_ARB_FIXED),
    .RST_CREDIT_PERIOD (RST_CREDIT_PERIOD),
    .RST_MAX_INTERVAL  (RST_MAX_INTERVAL),
    .RST_TRED          (RST_TRED),
    .RST_CREDIT_MODE   (RST_CREDIT_MODE),
    .RST_PHY_CTRL      (RST_PHY_CTRL)
  ) u_tc (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .st_busy_i           (st_busy),
    .reg_wr_i            (reg_wr_i),
    .reg_rd_i            (reg_rd_i),
    .reg_addr_i          (reg_addr_i),
    .reg_wdata_i         (reg_wdata_i),
    .status_hit_i        (status_hit),
    .status_rdata_i      (status_rdata),
    .reg_ack_o           (reg_ack_o),
    .reg_rdata_o         (reg_rdata_o),
    .reg_err_o           (reg_err_o),
    .cfg_coord_o         (coord),
    .cfg_lattice_o       (lattice),
    .cfg_torus_o         (torus),
    .cfg_order_o         (dim_order),
    .cfg_port_en_o       (port_en),
    .cfg_arb_fixed_o     (arb_fixed),
    .cfg_credit_period_o (credit_period),
    .cfg_max_interval_o  (max_interval),
    .cfg_tred_o          (tred),
    .cfg_credit_mode_o   (credit_mode),
    .cfg_phy_ctrl_o      (phy_ctrl),
    .st_gen_en_o         (st_gen_en),
    .st_pkt_o            (st_pkt),
    .st_dest_o           (st_dest),
    .st_count_o          (st_count),
    .st_cons_en_o        (st_cons_en),
    .st_expect_o         (st_expect),
    .st_start_o          (st_start)
  );

  // The TCLs' and lanes' run-time configuration (validated by u_tc: 16-bit values).
  logic [15:0] tcl_credit_period, tcl_max_interval, tcl_tred;
  logic        tcl_usedword, tcl_after_pkt, tcl_whole_pkt, phy_gearbox_en, phy_cc_en;
  assign tcl_credit_period = credit_period[15:0];
  assign tcl_max_interval  = max_interval[15:0];
  assign tcl_tred          = tred[15:0];
  assign tcl_usedword      = credit_mode[CREDIT_MODE_USEDWORD];
  assign tcl_after_pkt     = credit_mode[CREDIT_MODE_AFTER_PKT];
  assign tcl_whole_pkt     = credit_mode[CREDIT_MODE_WHOLE_PKT];
  assign phy_gearbox_en    = phy_ctrl[PHY_CTRL_GEARBOX];
  assign phy_cc_en         = phy_ctrl[PHY_CTRL_CC];

  // u_tc accepts only values whose other bits are zero (the router takes the fields it needs).
  logic unused_cfg;
  assign unused_cfg = ^{coord[31:24], lattice[31:24], torus[31:3], dim_order[31:6], port_en[31:16],
                        credit_period[31:16], max_interval[31:16], tred[31:16],
                        st_cons_en[31:N_INTRA]};

  // -----------------------------------------------------------------------------------------------
  // Router.
  // -----------------------------------------------------------------------------------------------

  // Intra-tile ports as the router sees them (the processing system or the self-test IPs).
  logic [N_INTRA-1:0]    intra_wr_hf, intra_wr_pay, intra_rd_hf, intra_rd_pay;
  logic [127:0]          intra_wdata [N_INTRA];
  logic [INTRA_HF_AW:0]  intra_tx_hf_usedw [N_INTRA];
  logic [INTRA_AW:0]     intra_tx_pay_usedw [N_INTRA];
  logic [N_INTRA-1:0]    intra_rx_hf_empty, intra_rx_pay_empty;
  logic [INTRA_HF_AW:0]  intra_rx_hf_rdusedw [N_INTRA];
  logic [INTRA_AW:0]     intra_rx_pay_rdusedw [N_INTRA];
  logic [127:0]          intra_rx_hf_rdata [N_INTRA];
  logic [127:0]          intra_rx_pay_rdata [N_INTRA];
  // Inter-tile ports (the TCLs).
  logic [NQ-1:0]         inter_wr_valid, inter_wr_hf;
  logic [2:0]            inter_wr_vc [NQ];
  logic [127:0]          inter_wr_data [NQ];
  logic [NUM_VCS-1:0]    inter_hf_rd [NQ];
  logic [NUM_VCS-1:0]    inter_pay_rd [NQ];
  logic [NUM_VCS*16-1:0] inter_credit_cnt [NQ];
  logic [7:0]            inter_credit_stop [NQ];
  logic [NUM_VCS-1:0]    inter_tx_hf_empty [NQ];
  logic [NUM_VCS-1:0]    inter_tx_pay_empty [NQ];
  logic [127:0]          inter_tx_hf_rdata [NQ*NUM_VCS];
  logic [127:0]          inter_tx_pay_rdata [NQ*NUM_VCS];
  logic [NUM_VCS*16-1:0] inter_rx_units [NQ];
  // Statistics, for the status registers.
  logic [31:0]           stat_in_pkts [N_SLOTS];
  logic [31:0]           stat_in_words [N_SLOTS];
  logic [31:0]           stat_in_drops [N_SLOTS];
  logic [1:0]            stat_in_reason [N_SLOTS];
  logic [15:0]           stat_in_hf_usedw [N_SLOTS];
  logic [15:0]           stat_in_pay_usedw [N_SLOTS];
  logic [31:0]           stat_out_pkts [N_SLOTS];
  logic [31:0]           stat_out_words [N_SLOTS];
  logic [15:0]           stat_out_hf_usedw [N_SLOTS];
  logic [15:0]           stat_out_pay_usedw [N_SLOTS];

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
    .cfg_coord_i            (coord[23:0]),
    .cfg_size_i             (lattice[23:0]),
    .cfg_torus_i            (torus[2:0]),
    .cfg_order_i            (dim_order[5:0]),
    .cfg_intra_en_i         (port_en[PORT_EN_INTRA_LSB +: 8]),
    .cfg_inter_en_i         (port_en[PORT_EN_INTER_LSB +: 8]),
    .cfg_arb_fixed_i        (arb_fixed),
    .cfg_usedword_i         (tcl_usedword),
    .cfg_tred_i             (tcl_tred),
    .intra_wr_hf_i          (intra_wr_hf),
    .intra_wr_pay_i         (intra_wr_pay),
    .intra_wdata_i          (intra_wdata),
    .intra_rd_hf_i          (intra_rd_hf),
    .intra_rd_pay_i         (intra_rd_pay),
    .inter_wr_valid_i       (inter_wr_valid),
    .inter_wr_hf_i          (inter_wr_hf),
    .inter_wr_vc_i          (inter_wr_vc),
    .inter_wr_data_i        (inter_wr_data),
    .inter_hf_rd_i          (inter_hf_rd),
    .inter_pay_rd_i         (inter_pay_rd),
    .inter_credit_cnt_i     (inter_credit_cnt),
    .inter_credit_stop_i    (inter_credit_stop),
    .intra_tx_hf_usedw_o    (intra_tx_hf_usedw),
    .intra_tx_pay_usedw_o   (intra_tx_pay_usedw),
    .intra_rx_hf_empty_o    (intra_rx_hf_empty),
    .intra_rx_pay_empty_o   (intra_rx_pay_empty),
    .intra_rx_hf_rdusedw_o  (intra_rx_hf_rdusedw),
    .intra_rx_pay_rdusedw_o (intra_rx_pay_rdusedw),
    .intra_rx_hf_rdata_o    (intra_rx_hf_rdata),
    .intra_rx_pay_rdata_o   (intra_rx_pay_rdata),
    .inter_tx_hf_empty_o    (inter_tx_hf_empty),
    .inter_tx_pay_empty_o   (inter_tx_pay_empty),
    .inter_tx_hf_rdata_o    (inter_tx_hf_rdata),
    .inter_tx_pay_rdata_o   (inter_tx_pay_rdata),
    .inter_rx_units_o       (inter_rx_units),
    .stat_in_pkts_o         (stat_in_pkts),
    .stat_in_words_o        (stat_in_words),
    .stat_in_drops_o        (stat_in_drops),
    .stat_in_reason_o       (stat_in_reason),
    .stat_in_hf_usedw_o     (stat_in_hf_usedw),
    .stat_in_pay_usedw_o    (stat_in_pay_usedw),
    .stat_out_pkts_o        (stat_out_pkts),
    .stat_out_words_o       (stat_out_words),
    .stat_out_hf_usedw_o    (stat_out_hf_usedw),
    .stat_out_pay_usedw_o   (stat_out_pay_usedw)
  );

  assign ps_tx_hf_usedw_o  = intra_tx_hf_usedw;
  assign ps_tx_pay_usedw_o = intra_tx_pay_usedw;
  assign ps_rx_hf_empty_o  = intra_rx_hf_empty;
  assign ps_rx_pay_empty_o = intra_rx_pay_empty;
  assign ps_rx_hf_rdata_o  = intra_rx_hf_rdata;
  assign ps_rx_pay_rdata_o = intra_rx_pay_rdata;

  // -----------------------------------------------------------------------------------------------
  // Links: TCL and outgoing PHY lane per inter-tile port.
  // -----------------------------------------------------------------------------------------------

  logic [NQ-1:0] lane_up;
  logic [31:0]   link_tx_pkts [NQ];
  logic [31:0]   link_tx_stall [NQ];
  logic [31:0]   link_rx_pkts [NQ];
  logic [31:0]   link_ecc_corr [NQ];
  logic [31:0]   link_ecc_uncorr [NQ];
  logic [31:0]   link_crc_err [NQ];
  logic [31:0]   link_lost [NQ];
  logic [NQ-1:0] link_tx_pkt;
  logic [31:0]   link_disc_hdr [NQ];
  logic [31:0]   link_disc_framing [NQ];
  logic [31:0]   link_disc_resync [NQ];
  logic [31:0]   link_dropped [NQ];

  for (genvar q = 0; q < N_INTER; q++) begin : gen_link
    logic [127:0] hf_rdata [NUM_VCS];
    logic [127:0] pay_rdata [NUM_VCS];
    logic         tx_ready, tx_valid;
    logic [63:0]  tx_data;

    for (genvar v = 0; v < NUM_VCS; v++) begin : gen_vc
      assign hf_rdata[v]  = inter_tx_hf_rdata[q*NUM_VCS+v];
      assign pay_rdata[v] = inter_tx_pay_rdata[q*NUM_VCS+v];
    end

    exanet_tcl #(
      .NUM_VCS       (NUM_VCS),
      .RX_DEPTH      (INTER_RX_DEPTH),
      .HF_SCALE      (INTER_RX_DEPTH / INTER_RX_HF_DEPTH),
      .UW_BEATS      (UW_BEATS),
      .SIZE_IN_WORDS (SIZE_IN_WORDS)
    ) u_tcl (
      .clk_i                (clk_i),
      .rst_ni               (rst_ni),
      .cfg_credit_period_i  (tcl_credit_period),
      .cfg_max_interval_i   (tcl_max_interval),
      .cfg_tred_i           (tcl_tred),
      .cfg_usedword_i       (tcl_usedword),
      .cfg_after_pkt_i      (tcl_after_pkt),
      .cfg_whole_pkt_i      (tcl_whole_pkt),
      .hf_empty_i           (inter_tx_hf_empty[q]),
      .hf_rdata_i           (hf_rdata),
      .pay_empty_i          (inter_tx_pay_empty[q]),
      .pay_rdata_i          (pay_rdata),
      .hf_rd_o              (inter_hf_rd[q]),
      .pay_rd_o             (inter_pay_rd[q]),
      .tx_ready_i           (tx_ready),
      .tx_valid_o           (tx_valid),
      .tx_data_o            (tx_data),
      .rx_valid_i           (link_in_valid_i[q]),
      .rx_data_i            (link_in_data_i[q]),
      .wr_valid_o           (inter_wr_valid[q]),
      .wr_hf_o              (inter_wr_hf[q]),
      .wr_vc_o              (inter_wr_vc[q]),
      .wr_data_o            (inter_wr_data[q]),
      .rxf_units_i          (inter_rx_units[q]),
      .credit_cnt_o         (inter_credit_cnt[q]),
      .credit_stop_o        (inter_credit_stop[q]),
      .tx_stat_pkts_o       (link_tx_pkts[q]),
      .tx_pkt_o             (link_tx_pkt[q]),
      .tx_stat_stall_o      (link_tx_stall[q]),
      .rx_stat_pkts_o       (link_rx_pkts[q]),
      .rx_stat_ecc_corr_o   (link_ecc_corr[q]),
      .rx_stat_ecc_uncorr_o (link_ecc_uncorr[q]),
      .rx_stat_crc_err_o    (link_crc_err[q]),
      .rx_stat_lost_o       (link_lost[q]),
      .rx_stat_disc_hdr_o     (link_disc_hdr[q]),
      .rx_stat_disc_framing_o (link_disc_framing[q]),
      .rx_stat_disc_resync_o  (link_disc_resync[q]),
      .rx_stat_dropped_o      (link_dropped[q])
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
      .cfg_gearbox_en_i (phy_gearbox_en),
      .cfg_cc_en_i      (phy_cc_en),
      .tx_valid_i       (tx_valid),
      .tx_data_i        (tx_data),
      .err_mask_i       (link_err_mask_i[q]),
      .tx_ready_o       (tx_ready),
      .rx_valid_o       (link_out_valid_o[q]),
      .rx_data_o        (link_out_data_o[q]),
      .lane_up_o        (lane_up[q])
    );
  end

  // No inter-tile port: the one-element link ports are unused.
  if (N_INTER == 0) begin : gen_no_link
    assign inter_wr_valid       = '0;
    assign inter_wr_hf          = '0;
    assign inter_wr_vc[0]       = '0;
    assign inter_wr_data[0]     = '0;
    assign inter_hf_rd[0]       = '0;
    assign inter_pay_rd[0]      = '0;
    assign inter_credit_cnt[0]  = '0;
    assign inter_credit_stop[0] = '0;
    assign link_out_valid_o     = '0;
    assign link_out_data_o[0]   = '0;
    assign lane_up              = '0;
    assign link_tx_pkts[0]      = '0;
    assign link_tx_stall[0]     = '0;
    assign link_rx_pkts[0]      = '0;
    assign link_ecc_corr[0]     = '0;
    assign link_ecc_uncorr[0]   = '0;
    assign link_crc_err[0]      = '0;
    assign link_lost[0]         = '0;
    assign link_tx_pkt          = '0;
    assign link_disc_hdr[0]     = '0;
    assign link_disc_framing[0] = '0;
    assign link_disc_resync[0]  = '0;
    assign link_dropped[0]      = '0;
    logic unused_link;
    assign unused_link = ^{link_in_valid_i, link_in_data_i[0], link_err_mask_i[0],
                           inter_tx_hf_empty[0], inter_tx_pay_empty[0], inter_rx_units[0],
                           tcl_credit_period, tcl_max_interval, tcl_after_pkt, tcl_whole_pkt,
                           phy_gearbox_en, phy_cc_en};
    logic [NUM_VCS-1:0] unused_tx_rdata;
    for (genvar v = 0; v < NUM_VCS; v++) begin : gen_vc
      assign unused_tx_rdata[v] = ^{inter_tx_hf_rdata[v], inter_tx_pay_rdata[v]};
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Self-test: generator and consumer per intra-tile port, performance counter.
  // -----------------------------------------------------------------------------------------------

  logic [N_INTRA-1:0] gen_active;
  logic [31:0]        gen_sent [N_INTRA];
  logic [31:0]        cons_pkts [N_INTRA];
  logic [31:0]        cons_words [N_INTRA];

  for (genvar p = 0; p < N_INTRA; p++) begin : gen_st
    logic         gen_on, gen_owns, cons_on, gen_wr_hf, gen_wr_pay, cons_rd_hf, cons_rd_pay;
    logic [127:0] gen_wdata;

    assign gen_on  = st_gen_en[p];
    // the port's TX FIFO is the generator's while it is enabled and while it finishes the packet
    // it was writing when ST_GEN_EN cleared (decision 0043)
    assign gen_owns = gen_on || gen_active[p];
    assign cons_on = st_cons_en[p];

    exanet_st_gen #(
      .PORT          (p),
      .HF_DEPTH      (INTRA_HF_DEPTH),
      .PAY_DEPTH     (INTRA_DEPTH),
      .SIZE_IN_WORDS (SIZE_IN_WORDS)
    ) u_gen (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .start_i     (st_start),
      .enabled_i   (gen_on),
      .cfg_pkt_i   (st_pkt),
      .cfg_dest_i  (st_dest),
      .cfg_count_i (st_count),
      .cfg_coord_i (coord[23:0]),
      .hf_usedw_i  (intra_tx_hf_usedw[p]),
      .pay_usedw_i (intra_tx_pay_usedw[p]),
      .wr_hf_o     (gen_wr_hf),
      .wr_pay_o    (gen_wr_pay),
      .wdata_o     (gen_wdata),
      .active_o    (gen_active[p]),
      .sent_o      (gen_sent[p])
    );

    // On a TX-only port the router's RX side reads as an empty FIFO: the consumer never pops.
    exanet_st_cons #(
      .HF_DEPTH      (INTRA_HF_DEPTH),
      .PAY_DEPTH     (INTRA_DEPTH),
      .SIZE_IN_WORDS (SIZE_IN_WORDS)
    ) u_cons (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .start_i       (st_start),
      .enabled_i     (cons_on),
      .hf_rdusedw_i  (intra_rx_hf_rdusedw[p]),
      .pay_rdusedw_i (intra_rx_pay_rdusedw[p]),
      .hf_rdata_i    (intra_rx_hf_rdata[p]),
      .rd_hf_o       (cons_rd_hf),
      .rd_pay_o      (cons_rd_pay),
      .pkts_o        (cons_pkts[p]),
      .words_o       (cons_words[p])
    );

    assign intra_wr_hf[p]  = gen_owns ? gen_wr_hf : ps_wr_hf_i[p];
    assign intra_wr_pay[p] = gen_owns ? gen_wr_pay : ps_wr_pay_i[p];
    assign intra_wdata[p]  = gen_owns ? gen_wdata : ps_wdata_i[p];
    assign intra_rd_hf[p]  = cons_on ? cons_rd_hf : ps_rd_hf_i[p];
    assign intra_rd_pay[p] = cons_on ? cons_rd_pay : ps_rd_pay_i[p];
  end

  logic [31:0] consumed, expected, cons_words_sum, gen_sent_sum;
  logic [5:0]  gen_en_count;

  `EXANET_ALWAYS_COMB begin
    consumed       = '0;
    cons_words_sum = '0;
    gen_sent_sum   = '0;
    for (int unsigned p = 0; p < N_INTRA; p++) begin
      consumed       = consumed + cons_pkts[p];
      cons_words_sum = cons_words_sum + cons_words[p];
      gen_sent_sum   = gen_sent_sum + gen_sent[p];
    end
    gen_en_count = '0;
    for (int unsigned b = 0; b < 32; b++) begin
      gen_en_count = gen_en_count + 6'(st_gen_en[b]);
    end
    // ST_EXPECT, or 0: ST_COUNT x enabled generators.
    expected = (st_expect != '0) ? st_expect : st_count * 32'(gen_en_count);
    st_busy  = |gen_active;
  end

  logic perf_running, perf_done;
  logic [31:0] perf_cycles;

  exanet_st_perf u_perf (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .start_i    (st_start),
    .consumed_i (consumed),
    .expect_i   (expected),
    .running_o  (perf_running),
    .done_o     (perf_done),
    .cycles_o   (perf_cycles)
  );

  // -----------------------------------------------------------------------------------------------
  // Status read mux: the registers u_tc does not hold (Node::status).
  // -----------------------------------------------------------------------------------------------

  logic [31:0]           drops_sum;
  logic [N_INTRA-1:0]    irq;
  logic [REG_ADDR_W-1:0] blk_rel;
  logic [6:0]            blk_idx;
  blk_off_t              blk_off;
  link_off_t             link_off;

  `EXANET_ALWAYS_COMB begin
    drops_sum = '0;
    for (int unsigned s = 0; s < N_SLOTS; s++) begin
      drops_sum = drops_sum + stat_in_drops[s];
    end
    irq          = ~intra_rx_hf_empty;
    blk_off      = reg_addr_i[4:0];
    link_off     = reg_addr_i[5:0];
    blk_rel      = '0;
    blk_idx      = '0;
    status_hit   = 1'b0;
    status_rdata = '0;
    unique case (reg_addr_i)
      REG_DROPS: begin
        status_hit   = 1'b1;
        status_rdata = drops_sum;
      end
      REG_PERF_CYCLES: begin
        status_hit   = 1'b1;
        status_rdata = perf_cycles;
      end
      REG_PERF_STATUS: begin
        status_hit   = 1'b1;
        status_rdata = '0;
        status_rdata[PERF_STATUS_RUNNING] = perf_running;
        status_rdata[PERF_STATUS_DONE]    = perf_done;
      end
      REG_ST_CONS_PKTS: begin
        status_hit   = 1'b1;
        status_rdata = consumed;
      end
      REG_ST_CONS_WORDS: begin
        status_hit   = 1'b1;
        status_rdata = cons_words_sum;
      end
      REG_ST_GEN_PKTS: begin
        status_hit   = 1'b1;
        status_rdata = gen_sent_sum;
      end
      REG_IRQ_STATUS: begin
        status_hit   = 1'b1;
        status_rdata = 32'(irq);
      end
      default: begin
        if (reg_addr_i >= SLOT_BASE && reg_addr_i < LINK_BASE) begin
          // slot block: SLOT_BASE + SLOT_STRIDE * MAX_SLOTS == LINK_BASE
          blk_rel = reg_addr_i - SLOT_BASE;
          blk_idx = 7'(blk_rel >> 5);
          for (int unsigned s = 0; s < N_SLOTS; s++) begin
            if (blk_idx == 7'(s)) begin
              status_hit = 1'b1;
              unique case (blk_off)
                REG_SLOT_IN_PKTS:   status_rdata = stat_in_pkts[s];
                REG_SLOT_IN_WORDS:  status_rdata = stat_in_words[s];
                REG_SLOT_IN_DROPS:  status_rdata = stat_in_drops[s];
                REG_SLOT_IN_FIFO:   status_rdata = {stat_in_reason[s], stat_in_hf_usedw[s][13:0],
                                                    stat_in_pay_usedw[s]};
                REG_SLOT_OUT_PKTS:  status_rdata = stat_out_pkts[s];
                REG_SLOT_OUT_WORDS: status_rdata = stat_out_words[s];
                REG_SLOT_OUT_FIFO:  status_rdata = {stat_out_hf_usedw[s], stat_out_pay_usedw[s]};
                REG_SLOT_RSVD:      status_rdata = '0;
                default:            status_hit   = 1'b0;
              endcase
            end
          end
        end else if (reg_addr_i >= LINK_BASE
                     && 32'(reg_addr_i) < 32'(LINK_BASE) + 32'(LINK_STRIDE) * MAX_LINKS) begin
          blk_rel = reg_addr_i - LINK_BASE;
          blk_idx = 7'(blk_rel >> 6);
          for (int q = 0; q < int'(N_INTER); q++) begin
            if (blk_idx == 7'(q)) begin
              status_hit = 1'b1;
              unique case (link_off)
                REG_LINK_STATUS: begin
                  status_rdata = '0;
                  status_rdata[LINK_STATUS_LANE_UP] = lane_up[q];
                  status_rdata[LINK_STATUS_TX_PKT]  = link_tx_pkt[q];
                end
                REG_LINK_ECC_CORR:   status_rdata = link_ecc_corr[q];
                REG_LINK_ECC_UNCORR: status_rdata = link_ecc_uncorr[q];
                REG_LINK_CRC_ERR:    status_rdata = link_crc_err[q];
                REG_LINK_STALL:      status_rdata = link_tx_stall[q];
                REG_LINK_TX_PKTS:    status_rdata = link_tx_pkts[q];
                REG_LINK_RX_PKTS:    status_rdata = link_rx_pkts[q];
                REG_LINK_LOST:       status_rdata = link_lost[q];
                REG_LINK_DISC_HDR:     status_rdata = link_disc_hdr[q];
                REG_LINK_DISC_FRAMING: status_rdata = link_disc_framing[q];
                REG_LINK_DISC_RESYNC:  status_rdata = link_disc_resync[q];
                REG_LINK_DROPPED:      status_rdata = link_dropped[q];
                REG_LINK_RSVD_30, REG_LINK_RSVD_34,
                REG_LINK_RSVD_38, REG_LINK_RSVD_3C: status_rdata = '0;
                default:             status_hit   = 1'b0;
              endcase
            end
          end
        end
      end
    endcase
  end

`ifdef EXANET_ASSERT
  // The self-test never starts while a generator is active (u_tc refuses it).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(st_start && st_busy)) else $error("exanet_node: self-test start while busy");
    end
  end
`endif

endmodule
