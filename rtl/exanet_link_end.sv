// exanet_link_end: one end of an APElink as the link co-simulation sees it: the inter-tile TX
// packet FIFOs (one per VC), the TCL, and the inter-tile RX packet FIFOs (one per VC) of a router
// switch port (Biagioni 2017 §5.3.3-5.3.4). It stands in for a router's inter-tile port; the test
// bench writes the TX FIFOs and reads the RX FIFOs.
//
//   tx_wr_*_i --> gen_tx[v].u_fifo --> u_tcl --> phy_tx_*     phy_rx_* --> u_tcl --> gen_rx[v].u_fifo --> rx_rd_*_i
//
// Model twin: src/link/system.rs (LinkEnd).

module exanet_link_end #(
  /// Virtual channels, 1..8.
  parameter bit [31:0] NUM_VCS       = 2,
  /// TX payload FIFO depth per VC, words (power of two).
  parameter bit [31:0] TX_DEPTH      = 1024,
  /// TX header/footer FIFO depth per VC, words (power of two).
  parameter bit [31:0] TX_HF_DEPTH   = 128,
  /// RX payload FIFO depth per VC, words (power of two); the credit capacity.
  parameter bit [31:0] RX_DEPTH      = 1024,
  /// RX header/footer FIFO depth per VC, words (power of two, at most RX_DEPTH).
  parameter bit [31:0] RX_HF_DEPTH   = 128,
  /// FIFO write-to-not-empty delay L_F in cycles.
  parameter bit [31:0] FIFO_LATENCY  = 3,
  /// Beats of a usedword credit, 1..4.
  parameter bit [31:0] UW_BEATS      = 4,
  /// The header size field counts words instead of bytes.
  parameter bit          SIZE_IN_WORDS = 1'b0
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [15:0]        cfg_credit_period_i,
  input  logic [15:0]        cfg_max_interval_i,
  input  logic [15:0]        cfg_tred_i,
  input  logic               cfg_usedword_i,
  input  logic               cfg_after_pkt_i,
  input  logic               cfg_whole_pkt_i,
  input  logic [NUM_VCS-1:0] tx_wr_hf_i,
  input  logic [NUM_VCS-1:0] tx_wr_pay_i,
  input  logic [127:0]       tx_wdata_i,
  input  logic [NUM_VCS-1:0] rx_rd_hf_i,
  input  logic [NUM_VCS-1:0] rx_rd_pay_i,
  input  logic               phy_tx_ready_i,
  output logic               phy_tx_valid_o,
  output logic [63:0]        phy_tx_data_o,
  input  logic               phy_rx_valid_i,
  input  logic [63:0]        phy_rx_data_i,
  output logic [NUM_VCS-1:0] tx_hf_full_o,
  output logic [NUM_VCS-1:0] tx_pay_full_o,
  output logic [NUM_VCS-1:0] rx_hf_empty_o,
  output logic [NUM_VCS-1:0] rx_pay_empty_o
);

  logic [NUM_VCS-1:0]    tx_hf_empty, tx_pay_empty, tx_hf_rd, tx_pay_rd;
  logic [127:0]          tx_hf_rdata [NUM_VCS];
  logic [127:0]          tx_pay_rdata [NUM_VCS];
  logic                  wr_valid, wr_hf;
  logic [2:0]            wr_vc;
  logic [127:0]          wr_data;
  logic [NUM_VCS*16-1:0] rxf_units;

  for (genvar v = 0; v < NUM_VCS; v++) begin : gen_tx
    exanet_pkt_fifo #(
      .HF_DEPTH  (TX_HF_DEPTH),
      .PAY_DEPTH (TX_DEPTH),
      .LATENCY   (FIFO_LATENCY)
    ) u_fifo (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .wr_hf_i       (tx_wr_hf_i[v]),
      .wr_pay_i      (tx_wr_pay_i[v]),
      .wdata_i       (tx_wdata_i),
      .rd_hf_i       (tx_hf_rd[v]),
      .rd_pay_i      (tx_pay_rd[v]),
      .hf_full_o     (tx_hf_full_o[v]),
      .hf_empty_o    (tx_hf_empty[v]),
      .hf_usedw_o    (),
      .hf_rdusedw_o  (),
      .hf_rdata_o    (tx_hf_rdata[v]),
      .pay_full_o    (tx_pay_full_o[v]),
      .pay_empty_o   (tx_pay_empty[v]),
      .pay_usedw_o   (),
      .pay_rdusedw_o (),
      .pay_rdata_o   (tx_pay_rdata[v]),
      .units_o       ()
    );
  end

  exanet_tcl #(
    .NUM_VCS       (NUM_VCS),
    .RX_DEPTH      (RX_DEPTH),
    .HF_SCALE      (RX_DEPTH / RX_HF_DEPTH),
    .UW_BEATS      (UW_BEATS),
    .SIZE_IN_WORDS (SIZE_IN_WORDS)
  ) u_tcl (
    .clk_i                (clk_i),
    .rst_ni               (rst_ni),
    .cfg_credit_period_i  (cfg_credit_period_i),
    .cfg_max_interval_i   (cfg_max_interval_i),
    .cfg_tred_i           (cfg_tred_i),
    .cfg_usedword_i       (cfg_usedword_i),
    .cfg_after_pkt_i      (cfg_after_pkt_i),
    .cfg_whole_pkt_i      (cfg_whole_pkt_i),
    .hf_empty_i           (tx_hf_empty),
    .hf_rdata_i           (tx_hf_rdata),
    .pay_empty_i          (tx_pay_empty),
    .pay_rdata_i          (tx_pay_rdata),
    .hf_rd_o              (tx_hf_rd),
    .pay_rd_o             (tx_pay_rd),
    .tx_ready_i           (phy_tx_ready_i),
    .tx_valid_o           (phy_tx_valid_o),
    .tx_data_o            (phy_tx_data_o),
    .rx_valid_i           (phy_rx_valid_i),
    .rx_data_i            (phy_rx_data_i),
    .wr_valid_o           (wr_valid),
    .wr_hf_o              (wr_hf),
    .wr_vc_o              (wr_vc),
    .wr_data_o            (wr_data),
    .rxf_units_i          (rxf_units),
    .credit_cnt_o         (),
    .credit_stop_o        (),
    .tx_stat_pkts_o       (),
    .tx_pkt_o             (),
    .tx_stat_stall_o      (),
    .rx_stat_pkts_o       (),
    .rx_stat_ecc_corr_o   (),
    .rx_stat_ecc_uncorr_o (),
    .rx_stat_crc_err_o    (),
    .rx_stat_lost_o       (),
    .rx_stat_disc_hdr_o     (),
    .rx_stat_disc_framing_o (),
    .rx_stat_disc_resync_o  (),
    .rx_stat_dropped_o      ()
  );

  for (genvar v = 0; v < NUM_VCS; v++) begin : gen_rx
    exanet_pkt_fifo #(
      .HF_DEPTH  (RX_HF_DEPTH),
      .PAY_DEPTH (RX_DEPTH),
      .LATENCY   (FIFO_LATENCY)
    ) u_fifo (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .wr_hf_i       (wr_valid && wr_hf && (wr_vc == 3'(v))),
      .wr_pay_i      (wr_valid && !wr_hf && (wr_vc == 3'(v))),
      .wdata_i       (wr_data),
      .rd_hf_i       (rx_rd_hf_i[v]),
      .rd_pay_i      (rx_rd_pay_i[v]),
      .hf_full_o     (),
      .hf_empty_o    (rx_hf_empty_o[v]),
      .hf_usedw_o    (),
      .hf_rdusedw_o  (),
      .hf_rdata_o    (),
      .pay_full_o    (),
      .pay_empty_o   (rx_pay_empty_o[v]),
      .pay_usedw_o   (),
      .pay_rdusedw_o (),
      .pay_rdata_o   (),
      .units_o       (rxf_units[16*v +: 16])
    );
  end

endmodule
