// exanet_fifo: show-ahead (first-word-fall-through) FIFO of the APErouter switch ports and the
// APElink RX buffers (Biagioni 2017 §5.3.3: "the FIFOs are in show-ahead mode").
//
//            +----------------------------------------------------------+
//   wr_i  -->| mem_q[DEPTH]   wr_ptr_q -> wr_ptr_vis_q[0] -> ... [LATENCY-2] --> empty_o, rdusedw_o
//   wdata_i->|                rd_ptr_q <--------------------------------- rd_i
//            | full_o, usedw_o = wr_ptr_q - rd_ptr_q      rdata_o = rdata_q
//            +----------------------------------------------------------+
//
// The memory is a block RAM: one write port and one read port whose output is registered
// (rdata_q), addressed with the next read pointer rd_ptr_d, so that rdata_q holds mem_q[rd_ptr_q]
// from the edge on, as a show-ahead FIFO built on a BRAM does. A write in the same cycle to the
// address being read is passed through (write-first), so rdata_q is in every cycle the word an
// asynchronous read of mem_q[rd_ptr_q] would give, including while empty (the lockstep compares
// rdata_o in every cycle). Synthesis maps mem_q to RAMB36/RAMB18 and adds the pass-through's
// comparator and multiplexer (docs/validation.md, "FPGA resources").
//
// Cycle contract (L_F = LATENCY, Biagioni 2017 §5.3.4 "FIFO delay"): wr_i high in cycle c writes at
// the end of c and empty_o is low from cycle c + LATENCY on: the write pointer reaches the read
// side through LATENCY-1 visibility registers. rd_i high in cycle c (not empty) pops at the end
// of c; the next word is on rdata_o in c + 1. usedw_o/full_o are the write-side view, rdusedw_o
// the read-side view. A write while full or a read while empty is ignored and counted.
//
// Model twin: src/fifo.rs (same register names without _q).

module exanet_fifo #(
  /// Capacity in words; a power of two, at least 4.
  parameter bit [31:0] DEPTH   = 1024,
  /// Write-to-not-empty delay L_F in cycles, 2..16 (thesis: 3).
  parameter bit [31:0] LATENCY = 3,
  /// Word width in bits.
  parameter bit [31:0] WIDTH   = 128,
  localparam bit [31:0] AW     = $clog2(DEPTH)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             wr_i,       // write wdata_i at the end of this cycle
  input  logic [WIDTH-1:0] wdata_i,
  input  logic             rd_i,       // pop the head at the end of this cycle
  output logic             full_o,     // write side: DEPTH words stored
  output logic             empty_o,    // read side: no visible word
  output logic [AW:0]      usedw_o,    // write side: words stored
  output logic [AW:0]      rdusedw_o,  // read side: words visible
  output logic [WIDTH-1:0] rdata_o     // head word (show-ahead)
);

  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [AW:0]      wr_ptr_q, wr_ptr_d;
  logic [AW:0]      rd_ptr_q, rd_ptr_d;
  logic [AW:0]      wr_ptr_vis_q [LATENCY-1];
  logic [31:0]      overflow_cnt_q, overflow_cnt_d;
  logic [31:0]      underflow_cnt_q, underflow_cnt_d;
  logic [WIDTH-1:0] rdata_q;
  logic             wr_ok, rd_ok;

  assign usedw_o   = wr_ptr_q - rd_ptr_q;
  assign full_o    = usedw_o == (AW+1)'(DEPTH);
  assign empty_o   = wr_ptr_vis_q[LATENCY-2] == rd_ptr_q;
  assign rdusedw_o = wr_ptr_vis_q[LATENCY-2] - rd_ptr_q;
  assign rdata_o   = rdata_q;

  `EXANET_ALWAYS_COMB begin
    wr_ok           = wr_i && !full_o;
    rd_ok           = rd_i && !empty_o;
    wr_ptr_d        = wr_ptr_q + (AW+1)'(wr_ok);
    rd_ptr_d        = rd_ptr_q + (AW+1)'(rd_ok);
    overflow_cnt_d  = overflow_cnt_q + 32'(wr_i && full_o);
    underflow_cnt_d = underflow_cnt_q + 32'(rd_i && empty_o);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q        <= '0;
      rd_ptr_q        <= '0;
      overflow_cnt_q  <= '0;
      underflow_cnt_q <= '0;
      for (int unsigned s = 0; s < LATENCY - 1; s++) begin
        wr_ptr_vis_q[s] <= '0;
      end
    end else begin
      wr_ptr_q        <= wr_ptr_d;
      rd_ptr_q        <= rd_ptr_d;
      overflow_cnt_q  <= overflow_cnt_d;
      underflow_cnt_q <= underflow_cnt_d;
      wr_ptr_vis_q[0] <= wr_ptr_q;
      for (int unsigned s = 1; s < LATENCY - 1; s++) begin
        wr_ptr_vis_q[s] <= wr_ptr_vis_q[s-1];
      end
    end
  end

  // Storage and its registered read port: no reset (block RAM), zero from configuration on, as
  // an FPGA's bitstream initialises block RAM; the model and Verilator (--x-initial 0) start
  // there. Icarus starts them at X, so that an empty FIFO would read X: under Icarus only, an
  // initial block zeroes them (only there: IEEE 1800 §9.2.2.4 lets no other process write an
  // always_ff's variables, and strict tools refuse it).
`ifdef __ICARUS__
  initial begin
    for (int unsigned i = 0; i < DEPTH; i++) begin
      mem_q[i] = '0;
    end
    rdata_q = '0;
  end
`endif

  always_ff @(posedge clk_i) begin
    if (wr_ok) begin
      mem_q[wr_ptr_q[AW-1:0]] <= wdata_i;
    end
    if (wr_ok && wr_ptr_q[AW-1:0] == rd_ptr_d[AW-1:0]) begin
      rdata_q <= wdata_i;
    end else begin
      rdata_q <= mem_q[rd_ptr_d[AW-1:0]];
    end
  end

`ifdef EXANET_ASSERT
  // A write while full or a read while empty must never happen in a correct design.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(wr_i && full_o)) else $error("exanet_fifo: write while full");
      assert (!(rd_i && empty_o)) else $error("exanet_fifo: read while empty");
    end
  end
`endif

endmodule
