// exanet_link_top: the link co-simulation top: two APElink ends (u_a, u_b) joined by two
// APEphy lanes, A to B (u_lane_ab) and B to A (u_lane_ba), as in the thesis's hop latency and
// link bandwidth measurements (002 §5.3.4, §5.4.2). The test bench writes packets into each end's
// TX FIFO, reads the per-VC RX FIFOs, and drives each lane's bit-error mask.
//
//   a_tx_* --> u_a --u_lane_ab--> u_b --> b_rx_*
//   a_rx_* <-- u_a <--u_lane_ba-- u_b <-- b_tx_*
//
// Model twin: src/link/system.rs (Link).

module exanet_link_top #(
  /// Virtual channels, 1..8.
  parameter bit [31:0] NUM_VCS        = 2,
  /// TX payload FIFO depth per VC, words (power of two).
  parameter bit [31:0] TX_DEPTH       = 1024,
  /// TX header/footer FIFO depth per VC, words (power of two).
  parameter bit [31:0] TX_HF_DEPTH    = 128,
  /// RX payload FIFO depth per VC, words (power of two).
  parameter bit [31:0] RX_DEPTH       = 1024,
  /// RX header/footer FIFO depth per VC, words (power of two).
  parameter bit [31:0] RX_HF_DEPTH    = 128,
  /// FIFO write-to-not-empty delay L_F in cycles.
  parameter bit [31:0] FIFO_LATENCY   = 3,
  /// Beats of a usedword credit, 1..4.
  parameter bit [31:0] UW_BEATS       = 4,
  /// The header size field counts words instead of bytes.
  parameter bit          SIZE_IN_WORDS  = 1'b0,
  /// PHY latency in cycles.
  parameter bit [31:0] PHY_LATENCY    = 42,
  /// Gearbox pause period in cycles.
  parameter bit [31:0] GB_PERIOD      = 32,
  /// Clock-compensation period in cycles.
  parameter bit [31:0] CC_PERIOD      = 4992,
  /// Clock-compensation length in cycles.
  parameter bit [31:0] CC_LEN         = 8,
  /// Cycles from reset to lane up.
  parameter bit [31:0] LANE_UP_CYCLES = 500
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [15:0]        cfg_credit_period_i,
  input  logic [15:0]        cfg_max_interval_i,
  input  logic [15:0]        cfg_tred_i,
  input  logic               cfg_usedword_i,
  input  logic               cfg_after_pkt_i,
  input  logic               cfg_whole_pkt_i,
  input  logic               cfg_gearbox_en_i,
  input  logic               cfg_cc_en_i,
  input  logic [NUM_VCS-1:0] a_tx_wr_hf_i,
  input  logic [NUM_VCS-1:0] a_tx_wr_pay_i,
  input  logic [127:0]       a_tx_wdata_i,
  input  logic [NUM_VCS-1:0] a_rx_rd_hf_i,
  input  logic [NUM_VCS-1:0] a_rx_rd_pay_i,
  output logic [NUM_VCS-1:0] a_tx_hf_full_o,
  output logic [NUM_VCS-1:0] a_tx_pay_full_o,
  output logic [NUM_VCS-1:0] a_rx_hf_empty_o,
  output logic [NUM_VCS-1:0] a_rx_pay_empty_o,
  input  logic [NUM_VCS-1:0] b_tx_wr_hf_i,
  input  logic [NUM_VCS-1:0] b_tx_wr_pay_i,
  input  logic [127:0]       b_tx_wdata_i,
  input  logic [NUM_VCS-1:0] b_rx_rd_hf_i,
  input  logic [NUM_VCS-1:0] b_rx_rd_pay_i,
  output logic [NUM_VCS-1:0] b_tx_hf_full_o,
  output logic [NUM_VCS-1:0] b_tx_pay_full_o,
  output logic [NUM_VCS-1:0] b_rx_hf_empty_o,
  output logic [NUM_VCS-1:0] b_rx_pay_empty_o,
  input  logic [63:0]        ab_err_mask_i,
  input  logic [63:0]        ba_err_mask_i
);

  logic        a_tx_valid, b_tx_valid, ab_ready, ba_ready;
  logic [63:0] a_tx_data, b_tx_data;
  logic        ab_rx_valid, ba_rx_valid;
  logic [63:0] ab_rx_data, ba_rx_data;

  exanet_link_end #(
    .NUM_VCS       (NUM_VCS),
    .TX_DEPTH      (TX_DEPTH),
    .TX_HF_DEPTH   (TX_HF_DEPTH),
    .RX_DEPTH      (RX_DEPTH),
    .RX_HF_DEPTH   (RX_HF_DEPTH),
    .FIFO_LATENCY  (FIFO_LATENCY),
    .UW_BEATS      (UW_BEATS),
    .SIZE_IN_WORDS (SIZE_IN_WORDS)
  ) u_a (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .cfg_credit_period_i (cfg_credit_period_i),
    .cfg_max_interval_i  (cfg_max_interval_i),
    .cfg_tred_i          (cfg_tred_i),
    .cfg_usedword_i      (cfg_usedword_i),
    .cfg_after_pkt_i     (cfg_after_pkt_i),
    .cfg_whole_pkt_i     (cfg_whole_pkt_i),
    .tx_wr_hf_i          (a_tx_wr_hf_i),
    .tx_wr_pay_i         (a_tx_wr_pay_i),
    .tx_wdata_i          (a_tx_wdata_i),
    .rx_rd_hf_i          (a_rx_rd_hf_i),
    .rx_rd_pay_i         (a_rx_rd_pay_i),
    .phy_tx_ready_i      (ab_ready),
    .phy_tx_valid_o      (a_tx_valid),
    .phy_tx_data_o       (a_tx_data),
    .phy_rx_valid_i      (ba_rx_valid),
    .phy_rx_data_i       (ba_rx_data),
    .tx_hf_full_o        (a_tx_hf_full_o),
    .tx_pay_full_o       (a_tx_pay_full_o),
    .rx_hf_empty_o       (a_rx_hf_empty_o),
    .rx_pay_empty_o      (a_rx_pay_empty_o)
  );

  exanet_link_end #(
    .NUM_VCS       (NUM_VCS),
    .TX_DEPTH      (TX_DEPTH),
    .TX_HF_DEPTH   (TX_HF_DEPTH),
    .RX_DEPTH      (RX_DEPTH),
    .RX_HF_DEPTH   (RX_HF_DEPTH),
    .FIFO_LATENCY  (FIFO_LATENCY),
    .UW_BEATS      (UW_BEATS),
    .SIZE_IN_WORDS (SIZE_IN_WORDS)
  ) u_b (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .cfg_credit_period_i (cfg_credit_period_i),
    .cfg_max_interval_i  (cfg_max_interval_i),
    .cfg_tred_i          (cfg_tred_i),
    .cfg_usedword_i      (cfg_usedword_i),
    .cfg_after_pkt_i     (cfg_after_pkt_i),
    .cfg_whole_pkt_i     (cfg_whole_pkt_i),
    .tx_wr_hf_i          (b_tx_wr_hf_i),
    .tx_wr_pay_i         (b_tx_wr_pay_i),
    .tx_wdata_i          (b_tx_wdata_i),
    .rx_rd_hf_i          (b_rx_rd_hf_i),
    .rx_rd_pay_i         (b_rx_rd_pay_i),
    .phy_tx_ready_i      (ba_ready),
    .phy_tx_valid_o      (b_tx_valid),
    .phy_tx_data_o       (b_tx_data),
    .phy_rx_valid_i      (ab_rx_valid),
    .phy_rx_data_i       (ab_rx_data),
    .tx_hf_full_o        (b_tx_hf_full_o),
    .tx_pay_full_o       (b_tx_pay_full_o),
    .rx_hf_empty_o       (b_rx_hf_empty_o),
    .rx_pay_empty_o      (b_rx_pay_empty_o)
  );

  exanet_phy_lane #(
    .LATENCY        (PHY_LATENCY),
    .GB_PERIOD      (GB_PERIOD),
    .CC_PERIOD      (CC_PERIOD),
    .CC_LEN         (CC_LEN),
    .LANE_UP_CYCLES (LANE_UP_CYCLES)
  ) u_lane_ab (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .cfg_gearbox_en_i (cfg_gearbox_en_i),
    .cfg_cc_en_i      (cfg_cc_en_i),
    .tx_valid_i       (a_tx_valid),
    .tx_data_i        (a_tx_data),
    .err_mask_i       (ab_err_mask_i),
    .tx_ready_o       (ab_ready),
    .rx_valid_o       (ab_rx_valid),
    .rx_data_o        (ab_rx_data),
    .lane_up_o        ()
  );

  exanet_phy_lane #(
    .LATENCY        (PHY_LATENCY),
    .GB_PERIOD      (GB_PERIOD),
    .CC_PERIOD      (CC_PERIOD),
    .CC_LEN         (CC_LEN),
    .LANE_UP_CYCLES (LANE_UP_CYCLES)
  ) u_lane_ba (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .cfg_gearbox_en_i (cfg_gearbox_en_i),
    .cfg_cc_en_i      (cfg_cc_en_i),
    .tx_valid_i       (b_tx_valid),
    .tx_data_i        (b_tx_data),
    .err_mask_i       (ba_err_mask_i),
    .tx_ready_o       (ba_ready),
    .rx_valid_o       (ba_rx_valid),
    .rx_data_o        (ba_rx_data),
    .lane_up_o        ()
  );

endmodule
