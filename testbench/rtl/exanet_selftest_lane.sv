// One lane of the Verilator self-test top (testbench only, not part of the IP): a counter
// `u_cnt` and a one-cycle delayed copy of its count, `u_delay`.
//
// Marked no_inline so that Verilator keeps it as a separate C++ class (a "cell"), as it does
// on its own for large modules instantiated many times; `u_cnt` is inlined into it and
// `u_delay` is a cell inside this cell. The bridge must name the signals of all three kinds
// exactly as Verilator's VCD does.
//
// Cycle contract: `cnt_o` is `u_cnt.cnt_q` (adds `Step` in every cycle with `en_i`);
// `cnt_prev_o` is the `cnt_o` of the previous cycle (0 after reset).
module exanet_selftest_lane #(
  // Width of the counter, in bits.
  parameter int unsigned Width = 6,
  // Amount added to the counter in every enabled cycle.
  parameter int unsigned Step = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,
  output logic [Width-1:0] cnt_o,
  output logic [Width-1:0] cnt_prev_o
);
  /* verilator no_inline_module */

  exanet_selftest_cnt #(
    .Width(Width)
  ) u_cnt (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .en_i  (en_i),
    .step_i(Width'(Step)),
    .cnt_o (cnt_o)
  );

  exanet_selftest_delay #(
    .Width(Width)
  ) u_delay (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .d_i   (cnt_o),
    .q_o   (cnt_prev_o)
  );
endmodule
