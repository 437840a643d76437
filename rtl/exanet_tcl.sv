// exanet_tcl: the APElink transmission control logic, TX CTRL plus RX CTRL (Biagioni 2017 §5.3.4,
// Figure 5.9, Table 5.3). The RX hands the peer's credits to the TX (cred_upd_*); the TX reports
// the occupancy of our RX FIFOs (rxf_usedw_i) to the peer.
//
//   router TX packet FIFOs --> u_tx --> PHY lane out     PHY lane in --> u_rx --> router RX packet FIFOs
//                        ^-------- cred_upd_* ---------------------------'
//
// Cycle contract: see exanet_tcl_tx and exanet_tcl_rx; TCL latency on the hop path is 1 (TX) + 3
// (Magic, Start, header low half ahead of the header's last beat) + 2 (RX) = 6 cycles.
// The TX's and RX's statistics counters come out as tx_stat_*_o / rx_stat_*_o, for the node's
// LINK_* status registers (src/node/mod.rs, Node::status).
// Model twin: src/link/tcl_tx.rs, src/link/tcl_rx.rs.

module exanet_tcl #(
  /// Virtual channels, 1..8.
  parameter bit [31:0] NUM_VCS       = 2,
  /// Capacity of each RX packet FIFO in credit units (its payload depth), ours and the peer's.
  parameter bit [31:0] RX_DEPTH      = 1024,
  /// Credit units of a header or footer word in the peer's RX packet FIFO.
  parameter bit [31:0] HF_SCALE      = 8,
  /// Beats of a usedword credit, 1..4.
  parameter bit [31:0] UW_BEATS      = 4,
  /// The header size field counts words instead of bytes.
  parameter bit          SIZE_IN_WORDS = 1'b0
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [15:0]                cfg_credit_period_i,
  input  logic [15:0]                cfg_max_interval_i,
  input  logic [15:0]                cfg_tred_i,
  input  logic                       cfg_usedword_i,
  input  logic                       cfg_after_pkt_i,
  input  logic                       cfg_whole_pkt_i,
  input  logic [NUM_VCS-1:0]         hf_empty_i,     // router's inter-tile TX packet FIFOs
  input  logic [127:0]               hf_rdata_i [NUM_VCS],
  input  logic [NUM_VCS-1:0]         pay_empty_i,
  input  logic [127:0]               pay_rdata_i [NUM_VCS],
  output logic [NUM_VCS-1:0]         hf_rd_o,
  output logic [NUM_VCS-1:0]         pay_rd_o,
  input  logic                       tx_ready_i,     // PHY lane towards the peer
  output logic                       tx_valid_o,
  output logic [63:0]                tx_data_o,
  input  logic                       rx_valid_i,     // PHY lane from the peer
  input  logic [63:0]                rx_data_i,
  output logic                       wr_valid_o,     // router's inter-tile RX packet FIFOs
  output logic                       wr_hf_o,
  output logic [2:0]                 wr_vc_o,
  output logic [127:0]               wr_data_o,
  input  logic [NUM_VCS*16-1:0]      rxf_units_i,    // their occupancy, credit units
  output logic [NUM_VCS*16-1:0]      credit_cnt_o,   // for the router's VCT check
  output logic [7:0]                 credit_stop_o,
  // Statistics, for the node's status registers (LINK_* block).
  output logic [31:0]                tx_stat_pkts_o,
  output logic                       tx_pkt_o,
  output logic [31:0]                tx_stat_stall_o,
  output logic [31:0]                rx_stat_pkts_o,
  output logic [31:0]                rx_stat_ecc_corr_o,
  output logic [31:0]                rx_stat_ecc_uncorr_o,
  output logic [31:0]                rx_stat_crc_err_o,
  output logic [31:0]                rx_stat_lost_o,
  output logic [31:0]                rx_stat_disc_hdr_o,
  output logic [31:0]                rx_stat_disc_framing_o,
  output logic [31:0]                rx_stat_disc_resync_o,
  output logic [31:0]                rx_stat_dropped_o
);

  logic        cred_upd_valid;
  logic [7:0]  cred_upd_stop;
  logic [79:0] cred_upd_usedw;

  exanet_tcl_tx #(
    .NUM_VCS       (NUM_VCS),
    .RX_DEPTH      (RX_DEPTH),
    .HF_SCALE      (HF_SCALE),
    .UW_BEATS      (UW_BEATS),
    .SIZE_IN_WORDS (SIZE_IN_WORDS)
  ) u_tx (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .cfg_credit_period_i (cfg_credit_period_i),
    .cfg_max_interval_i  (cfg_max_interval_i),
    .cfg_tred_i          (cfg_tred_i),
    .cfg_usedword_i      (cfg_usedword_i),
    .cfg_after_pkt_i     (cfg_after_pkt_i),
    .cfg_whole_pkt_i     (cfg_whole_pkt_i),
    .hf_empty_i          (hf_empty_i),
    .hf_rdata_i          (hf_rdata_i),
    .pay_empty_i         (pay_empty_i),
    .pay_rdata_i         (pay_rdata_i),
    .hf_rd_o             (hf_rd_o),
    .pay_rd_o            (pay_rd_o),
    .tx_ready_i          (tx_ready_i),
    .tx_valid_o          (tx_valid_o),
    .tx_data_o           (tx_data_o),
    .cred_upd_valid_i    (cred_upd_valid),
    .cred_upd_stop_i     (cred_upd_stop),
    .cred_upd_usedw_i    (cred_upd_usedw),
    .rxf_units_i         (rxf_units_i),
    .credit_cnt_o        (credit_cnt_o),
    .credit_stop_o       (credit_stop_o),
    .stat_pkts_o         (tx_stat_pkts_o),
    .pkt_o               (tx_pkt_o),
    .stat_stall_o        (tx_stat_stall_o)
  );

  exanet_tcl_rx #(
    .NUM_VCS       (NUM_VCS),
    .UW_BEATS      (UW_BEATS),
    .SIZE_IN_WORDS (SIZE_IN_WORDS)
  ) u_rx (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .cfg_usedword_i    (cfg_usedword_i),
    .rx_valid_i        (rx_valid_i),
    .rx_data_i         (rx_data_i),
    .wr_valid_o        (wr_valid_o),
    .wr_hf_o           (wr_hf_o),
    .wr_vc_o           (wr_vc_o),
    .wr_data_o         (wr_data_o),
    .cred_upd_valid_o  (cred_upd_valid),
    .cred_upd_stop_o   (cred_upd_stop),
    .cred_upd_usedw_o  (cred_upd_usedw),
    .stat_pkts_o       (rx_stat_pkts_o),
    .stat_ecc_corr_o   (rx_stat_ecc_corr_o),
    .stat_ecc_uncorr_o (rx_stat_ecc_uncorr_o),
    .stat_crc_err_o    (rx_stat_crc_err_o),
    .stat_lost_o       (rx_stat_lost_o),
    .stat_disc_hdr_o     (rx_stat_disc_hdr_o),
    .stat_disc_framing_o (rx_stat_disc_framing_o),
    .stat_disc_resync_o  (rx_stat_disc_resync_o),
    .stat_dropped_o      (rx_stat_dropped_o)
  );

endmodule
