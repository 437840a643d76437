// Submodule of fixture_top: vector registers, an unpacked array, 1-bit signals, a generate loop.
module fixture_sub (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [7:0] d_i,
  output logic [9:0] cnt_o,
  output logic       hit_o
);
  logic [9:0] cnt_q [2];
  logic [2:0] st_q;
  logic       flag_q;
  logic       vld_q [2];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q[0] <= '0;
      cnt_q[1] <= 10'h3ff;
      st_q     <= '0;
      flag_q   <= 1'b0;
      vld_q[0] <= 1'b0;
      vld_q[1] <= 1'b1;
    end else begin
      cnt_q[0] <= cnt_q[0] + {2'b0, d_i};
      cnt_q[1] <= cnt_q[1] - 10'd1;
      st_q     <= st_q + 3'd1;
      flag_q   <= ~flag_q;
      vld_q[0] <= d_i[0];
      vld_q[1] <= vld_q[0];
    end
  end

  for (genvar i = 0; i < 2; i++) begin : gen_bit
    logic hit_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) hit_q <= 1'b0;
      else         hit_q <= d_i[i];
    end
  end

  assign cnt_o = cnt_q[0] ^ cnt_q[1] ^ {6'b0, st_q, flag_q};
  assign hit_o = gen_bit[0].hit_q ^ gen_bit[1].hit_q ^ vld_q[1];
endmodule
