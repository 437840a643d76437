// exanet_pkt_fifo: the buffer of an APErouter switch port, a header/footer FIFO plus a payload
// FIFO, both show-ahead (Biagioni 2017 §5.3.3: header/footer FIFOs 128x128 bit, payload FIFOs
// 4096x128 bit intra-tile and 1024x128 bit inter-tile).
//
//   wr_hf_i / wr_pay_i, wdata_i --> u_hf  (HF_DEPTH words)  --> hf_*_o,  rd_hf_i
//                               --> u_pay (PAY_DEPTH words) --> pay_*_o, rd_pay_i
//   units_o = max(pay usedw, hf usedw x SCALE), SCALE = PAY_DEPTH / HF_DEPTH
//
// units_o is the occupancy a credit reports, in payload words: a header or footer word counts
// SCALE units, so a sender that charges each word its cost overflows neither FIFO.
// Cycle contract: each half is an exanet_fifo (write-to-not-empty LATENCY).
// Model twin: src/pktfifo.rs.

module exanet_pkt_fifo #(
  /// Header/footer FIFO depth in words (power of two, at most PAY_DEPTH).
  parameter bit [31:0] HF_DEPTH  = 128,
  /// Payload FIFO depth in words (power of two, at most 32768).
  parameter bit [31:0] PAY_DEPTH = 1024,
  /// Write-to-not-empty delay L_F in cycles.
  parameter bit [31:0] LATENCY   = 3,
  localparam bit [31:0] HF_AW    = $clog2(HF_DEPTH),
  localparam bit [31:0] PAY_AW   = $clog2(PAY_DEPTH),
  localparam bit [31:0] SCALE    = PAY_DEPTH / HF_DEPTH
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              wr_hf_i,      // write wdata_i into the header/footer FIFO
  input  logic              wr_pay_i,     // write wdata_i into the payload FIFO
  input  logic [127:0]      wdata_i,
  input  logic              rd_hf_i,
  input  logic              rd_pay_i,
  output logic              hf_full_o,
  output logic              hf_empty_o,
  output logic [HF_AW:0]    hf_usedw_o,
  output logic [HF_AW:0]    hf_rdusedw_o,
  output logic [127:0]      hf_rdata_o,
  output logic              pay_full_o,
  output logic              pay_empty_o,
  output logic [PAY_AW:0]   pay_usedw_o,
  output logic [PAY_AW:0]   pay_rdusedw_o,
  output logic [127:0]      pay_rdata_o,
  output logic [15:0]       units_o       // occupancy in payload words, for credits
);

  logic [31:0] hf_units;

  assign hf_units = 32'(hf_usedw_o) * SCALE;
  assign units_o  = (hf_units > 32'(pay_usedw_o)) ? 16'(hf_units) : 16'(pay_usedw_o);

  exanet_fifo #(
    .DEPTH   (HF_DEPTH),
    .LATENCY (LATENCY),
    .WIDTH   (128)
  ) u_hf (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wr_i      (wr_hf_i),
    .wdata_i   (wdata_i),
    .rd_i      (rd_hf_i),
    .full_o    (hf_full_o),
    .empty_o   (hf_empty_o),
    .usedw_o   (hf_usedw_o),
    .rdusedw_o (hf_rdusedw_o),
    .rdata_o   (hf_rdata_o)
  );

  exanet_fifo #(
    .DEPTH   (PAY_DEPTH),
    .LATENCY (LATENCY),
    .WIDTH   (128)
  ) u_pay (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wr_i      (wr_pay_i),
    .wdata_i   (wdata_i),
    .rd_i      (rd_pay_i),
    .full_o    (pay_full_o),
    .empty_o   (pay_empty_o),
    .usedw_o   (pay_usedw_o),
    .rdusedw_o (pay_rdusedw_o),
    .rdata_o   (pay_rdata_o)
  );

endmodule
