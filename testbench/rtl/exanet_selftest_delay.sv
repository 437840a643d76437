// A one-cycle delay register of the Verilator self-test top (testbench only, not part of the
// IP). Marked no_inline so that it stays a separate C++ class inside another one (see
// exanet_selftest_lane.sv).
//
// Cycle contract: `q_o` is the `d_i` of the previous cycle; 0 after reset.
module exanet_selftest_delay #(
  // Width of the register, in bits.
  parameter int unsigned Width = 6
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);
  /* verilator no_inline_module */

  logic [Width-1:0] q_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_q <= '0;
    end else begin
      q_q <= d_i;
    end
  end

  assign q_o = q_q;
endmodule
