// exanet_link_end: one end of an APElink as the link co-simulation sees it: the router's
// inter-tile TX FIFO, the TCL, and the per-VC inter-tile RX FIFOs (thesis 002 §5.3.3-5.3.4).
// It stands in for a router's inter-tile switch port; the test bench writes the TX FIFO and
// reads the RX FIFOs.
//
//   tx_wr_i/tx_wdata_i --> u_tx_fifo --> u_tcl --> phy_tx_*         phy_rx_* --> u_tcl --> gen_rx_fifo[v].u_fifo --> rx_rd_i
//
// Model twin: src/link/system.rs (LinkEnd).

module exanet_link_end #(
  /// Virtual channels, 1..8.
  parameter int unsigned NUM_VCS       = 2,
  /// Inter-tile TX FIFO depth in words (power of two).
  parameter int unsigned TX_DEPTH      = 1024,
  /// Inter-tile RX FIFO depth per VC in words (power of two).
  parameter int unsigned RX_DEPTH      = 1024,
  /// FIFO write-to-not-empty delay L_F in cycles.
  parameter int unsigned FIFO_LATENCY  = 3,
  /// Beats of a usedword credit, 1..4.
  parameter int unsigned UW_BEATS      = 4,
  /// The header size field counts words instead of bytes.
  parameter bit          SIZE_IN_WORDS = 1'b0,
  localparam int unsigned TX_AW        = $clog2(TX_DEPTH),
  localparam int unsigned UW_BITS      = $clog2(RX_DEPTH) + 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [15:0]        cfg_credit_period_i,
  input  logic [15:0]        cfg_max_interval_i,
  input  logic [15:0]        cfg_tred_i,
  input  logic               cfg_usedword_i,
  input  logic               cfg_after_pkt_i,
  input  logic               tx_wr_i,
  input  logic [127:0]       tx_wdata_i,
  input  logic [NUM_VCS-1:0] rx_rd_i,
  input  logic               phy_tx_ready_i,
  output logic               phy_tx_valid_o,
  output logic [63:0]        phy_tx_data_o,
  input  logic               phy_rx_valid_i,
  input  logic [63:0]        phy_rx_data_i,
  output logic               tx_full_o,
  output logic [TX_AW:0]     tx_usedw_o,
  output logic [NUM_VCS-1:0] rx_empty_o
);

  logic                       tx_empty, tx_rd;
  logic [127:0]               tx_rdata;
  logic                       wr_valid;
  logic [2:0]                 wr_vc;
  logic [127:0]               wr_data;
  logic [NUM_VCS*UW_BITS-1:0] rxf_usedw;

  exanet_fifo #(
    .DEPTH   (TX_DEPTH),
    .LATENCY (FIFO_LATENCY),
    .WIDTH   (128)
  ) u_tx_fifo (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wr_i      (tx_wr_i),
    .wdata_i   (tx_wdata_i),
    .rd_i      (tx_rd),
    .full_o    (tx_full_o),
    .empty_o   (tx_empty),
    .usedw_o   (tx_usedw_o),
    .rdusedw_o (),
    .rdata_o   (tx_rdata)
  );

  exanet_tcl #(
    .NUM_VCS       (NUM_VCS),
    .RX_DEPTH      (RX_DEPTH),
    .UW_BEATS      (UW_BEATS),
    .SIZE_IN_WORDS (SIZE_IN_WORDS)
  ) u_tcl (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .cfg_credit_period_i (cfg_credit_period_i),
    .cfg_max_interval_i  (cfg_max_interval_i),
    .cfg_tred_i          (cfg_tred_i),
    .cfg_usedword_i      (cfg_usedword_i),
    .cfg_after_pkt_i     (cfg_after_pkt_i),
    .fifo_empty_i        (tx_empty),
    .fifo_rdata_i        (tx_rdata),
    .fifo_rd_o           (tx_rd),
    .tx_ready_i          (phy_tx_ready_i),
    .tx_valid_o          (phy_tx_valid_o),
    .tx_data_o           (phy_tx_data_o),
    .rx_valid_i          (phy_rx_valid_i),
    .rx_data_i           (phy_rx_data_i),
    .wr_valid_o          (wr_valid),
    .wr_vc_o             (wr_vc),
    .wr_data_o           (wr_data),
    .rxf_usedw_i         (rxf_usedw)
  );

  for (genvar v = 0; v < NUM_VCS; v++) begin : gen_rx_fifo
    exanet_fifo #(
      .DEPTH   (RX_DEPTH),
      .LATENCY (FIFO_LATENCY),
      .WIDTH   (128)
    ) u_fifo (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .wr_i      (wr_valid && (wr_vc == 3'(v))),
      .wdata_i   (wr_data),
      .rd_i      (rx_rd_i[v]),
      .full_o    (),
      .empty_o   (rx_empty_o[v]),
      .usedw_o   (rxf_usedw[v*UW_BITS +: UW_BITS]),
      .rdusedw_o (),
      .rdata_o   ()
    );
  end

endmodule
