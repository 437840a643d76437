// exanet_st_cons: the self-test Consumer of one intra-tile port (Biagioni 2017 §5.4.2): it drains the
// port's RX packet FIFO (the router's output FIFO) and counts what it receives.
//
//   start_i, enabled_i (Target Controller) ----------> +-------------+ --> rd_hf_o, rd_pay_o
//   hf_rdusedw_i, pay_rdusedw_i, hf_rdata_i (RX FIFO) | st_cons     | --> pkts_o, words_o
//                                                      +-------------+
//
// Cycle contract: pops in packet order (header, payload words, footer), at most one word a
// cycle from each FIFO; pops are registered (rd_hf_q, rd_pay_q) and scheduled from the FIFOs'
// visible occupancy, counting the pop in flight. The header popped in cycle c (plan_q ==
// P_HDR_WAIT) gives the payload length in c; the next pop is scheduled in the same cycle. A
// word popped counts in words_q, a footer popped in pkts_q, one cycle later; start_i clears both.
//
// Model twin: src/node/selftest.rs (StConsumer); keep the two line for line.

module exanet_st_cons
  import exanet_base_pkg::*;
#(
  /// Depth of the port's header/footer RX FIFO, words (power of two).
  parameter bit [31:0] HF_DEPTH      = 128,
  /// Depth of the port's payload RX FIFO, words (power of two).
  parameter bit [31:0] PAY_DEPTH     = 4096,
  /// The header size field counts words instead of bytes.
  parameter bit          SIZE_IN_WORDS = 1'b0,
  localparam bit [31:0] HF_AW        = $clog2(HF_DEPTH),
  localparam bit [31:0] PAY_AW       = $clog2(PAY_DEPTH)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,        // Target Controller's one-cycle start
  input  logic            enabled_i,      // this port's bit of ST_CONS_EN
  input  logic [HF_AW:0]  hf_rdusedw_i,   // RX header/footer FIFO, visible words
  input  logic [PAY_AW:0] pay_rdusedw_i,  // RX payload FIFO, visible words
  input  logic [127:0]    hf_rdata_i,     // RX header/footer FIFO head
  output logic            rd_hf_o,
  output logic            rd_pay_o,
  output logic [31:0]     pkts_o,
  output logic [31:0]     words_o
);

  // What the consumer pops next.
  typedef enum logic [1:0] {
    P_HDR      = 2'd0,  // a header, when one is visible
    P_HDR_WAIT = 2'd1,  // nothing: the header is being popped, its length is not known yet
    P_PAY      = 2'd2,  // left_q payload words
    P_FTR      = 2'd3   // the footer
  } plan_e;

  logic        rd_hf_q, rd_hf_d;
  logic        rd_pay_q, rd_pay_d;
  plan_e       plan_q, plan_d;
  logic [12:0] left_q, left_d;
  logic [31:0] pkts_q, pkts_d;
  logic [31:0] words_q, words_d;

  assign rd_hf_o  = rd_hf_q;
  assign rd_pay_o = rd_pay_q;
  assign pkts_o   = pkts_q;
  assign words_o  = words_q;

  // Payload words announced by a header (ACK and RATE carry none).
  function automatic logic [12:0] payload_words(logic [127:0] h);
    logic [HDR_TYPE_W-1:0] kind;
    logic [HDR_SIZE_W-1:0] size;
    logic                  unused_h;  // only type and size matter here
    unused_h = ^h;
    kind     = h[HDR_TYPE_LSB +: HDR_TYPE_W];
    size     = h[HDR_SIZE_LSB +: HDR_SIZE_W];
    if (kind == TYPE_ACK || kind == TYPE_RATE) begin
      return '0;
    end else if (SIZE_IN_WORDS) begin
      return size;
    end else begin
      return 13'((14'(size) + 14'd15) >> 4);
    end
  endfunction

  logic [12:0] hdr_words;
  logic        hf_avail, pay_avail;

  `EXANET_ALWAYS_COMB begin
    rd_hf_d   = 1'b0;
    rd_pay_d  = 1'b0;
    plan_d    = plan_q;
    left_d    = left_q;
    pkts_d    = pkts_q;
    words_d   = words_q;
    hdr_words = payload_words(hf_rdata_i);

    // the word popped this cycle
    if (rd_hf_q || rd_pay_q) begin
      words_d = words_q + 32'd1;
    end
    if (rd_hf_q && plan_q == P_HDR_WAIT) begin
      if (hdr_words != '0) begin  // an if, not ?: between enum values (Icarus 11 wants a cast)
        plan_d = P_PAY;
      end else begin
        plan_d = P_FTR;
      end
      left_d = hdr_words;
    end else if (rd_hf_q) begin
      pkts_d = pkts_q + 32'd1;
    end
    if (start_i) begin
      pkts_d  = '0;
      words_d = '0;
    end

    // schedule the next pop
    hf_avail  = 32'(hf_rdusedw_i) > 32'(rd_hf_q);
    pay_avail = 32'(pay_rdusedw_i) > 32'(rd_pay_q);
    if (enabled_i) begin
      unique case (plan_d)
        P_HDR: begin
          if (hf_avail) begin
            rd_hf_d = 1'b1;
            plan_d  = P_HDR_WAIT;
          end
        end
        P_PAY: begin
          if (pay_avail) begin
            rd_pay_d = 1'b1;
            left_d   = left_d - 13'd1;
            if (left_d == '0) begin
              plan_d = P_FTR;
            end
          end
        end
        P_FTR: begin
          if (hf_avail) begin
            rd_hf_d = 1'b1;
            plan_d  = P_HDR;
          end
        end
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_hf_q  <= 1'b0;
      rd_pay_q <= 1'b0;
      plan_q   <= P_HDR;
      left_q   <= '0;
      pkts_q   <= '0;
      words_q  <= '0;
    end else begin
      rd_hf_q  <= rd_hf_d;
      rd_pay_q <= rd_pay_d;
      plan_q   <= plan_d;
      left_q   <= left_d;
      pkts_q   <= pkts_d;
      words_q  <= words_d;
    end
  end

`ifdef EXANET_ASSERT
  // A pop never meets an empty FIFO (scheduled from the visible occupancy).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(rd_hf_q && hf_rdusedw_i == '0))
        else $error("exanet_st_cons: header/footer pop from an empty FIFO");
      assert (!(rd_pay_q && pay_rdusedw_i == '0))
        else $error("exanet_st_cons: payload pop from an empty FIFO");
    end
  end
`endif

endmodule
