// Tiny design whose Verilator 5.006 trace is the wave-diff naming fixture:
// a submodule, vector registers, an unpacked array, 1-bit signals and a generate loop.
module fixture_top (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [7:0] d_i,
  output logic [9:0] cnt_o,
  output logic       hit_o
);
  fixture_sub u_a (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .d_i    (d_i),
    .cnt_o  (cnt_o),
    .hit_o  (hit_o)
  );
endmodule
