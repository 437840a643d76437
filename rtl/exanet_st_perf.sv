// exanet_st_perf: the self-test Performance Counter (Biagioni 2017 §5.4.2): counts the cycles of a
// transfer, from the start until the consumers have received the expected number of packets.
//
//   start_i (Target Controller) ----------------> +-----------+ --> running_o, done_o, cycles_o
//   consumed_i (consumers), expect_i (ST_EXPECT) -| st_perf   |     (PERF_STATUS, PERF_CYCLES)
//                                                 +-----------+
//
// Cycle contract: start_i in cycle c clears cycles_q and sets running_q from c + 1; while
// running, cycles_q counts every cycle, and the first cycle in which consumed_i >= expect_i is
// the last one counted (running_q low and done_q high from the next cycle).
//
// Model twin: src/node/selftest.rs (PerfCounter); keep the two line for line.

module exanet_st_perf (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,     // Target Controller's one-cycle start
  input  logic [31:0] consumed_i,  // packets the consumers have received (their registers)
  input  logic [31:0] expect_i,    // packets that end the transfer
  output logic        running_o,
  output logic        done_o,
  output logic [31:0] cycles_o
);

  logic        running_q, running_d;
  logic        done_q, done_d;
  logic [31:0] cycles_q, cycles_d;

  assign running_o = running_q;
  assign done_o    = done_q;
  assign cycles_o  = cycles_q;

  `EXANET_ALWAYS_COMB begin
    running_d = running_q;
    done_d    = done_q;
    cycles_d  = cycles_q;
    if (start_i) begin
      running_d = 1'b1;
      done_d    = 1'b0;
      cycles_d  = '0;
    end else if (running_q) begin
      cycles_d = cycles_q + 32'd1;
      if (consumed_i >= expect_i) begin
        running_d = 1'b0;
        done_d    = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      done_q    <= 1'b0;
      cycles_q  <= '0;
    end else begin
      running_q <= running_d;
      done_q    <= done_d;
      cycles_q  <= cycles_d;
    end
  end

`ifdef EXANET_ASSERT
  // A transfer is never both running and done.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(running_q && done_q)) else $error("exanet_st_perf: running and done at once");
    end
  end
`endif

endmodule
