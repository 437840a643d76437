// Counter used by the Verilator self-test top (testbench only, not part of the IP).
//
// Cycle contract: after a rising edge with `en_i` high, `cnt_q` holds the old value plus `step_i`
// (modulo 2^Width) and `tick_q` is inverted; with `en_i` low both hold. Reset clears both.
module exanet_selftest_cnt #(
  // Width of the counter `cnt_q`, in bits.
  parameter int unsigned Width = 10
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,
  input  logic [Width-1:0] step_i,
  output logic [Width-1:0] cnt_o
);
  logic [Width-1:0] cnt_d, cnt_q;
  logic             tick_d, tick_q;

  always_comb begin
    cnt_d  = cnt_q;
    tick_d = tick_q;
    if (en_i) begin
      cnt_d  = cnt_q + step_i;
      tick_d = ~tick_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q  <= '0;
      tick_q <= 1'b0;
    end else begin
      cnt_q  <= cnt_d;
      tick_q <= tick_d;
    end
  end

  assign cnt_o = cnt_q;
endmodule
