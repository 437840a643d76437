// Self-test top for the Verilator co-simulation bridge (testbench only, not part of the IP).
//
// It exists so `tests/rtl_ffi.rs` can check the bridge (names, widths, storage types, arrays,
// generate scopes, two instances) against a Rust reference; it models no ExaNet hardware.
//
// Behaviour, register by register (all cleared by reset; "+" wraps at the register width):
//   u_a.cnt_q      += step_i          when en_i            (u_a.tick_q toggles when en_i)
//   u_b.cnt_q      += ~step_i         when !en_i           (u_b.tick_q toggles when !en_i)
//   gen_vc[i].u_lane.u_cnt.cnt_q += i + 1   when en_i      (tick_q toggles when en_i)
//   gen_vc[i].u_lane.u_delay.q_q  = gen_vc[i].u_lane.u_cnt.cnt_q
//   flag_q          = flag_q ^ en_i
//   acc_q   (64)   += data64_i
//   wide_q  (100)   = rotate_left(wide_q, 1) ^ data100_i
//   sum_q   (128)  += data128_i
//   pipe_q[0]       = data64_i[15:0];  pipe_q[k] = pipe_q[k-1]   (a PipeDepth-stage pipeline)
//   mem_q[wr_addr_i] = wr_data_i      when wr_en_i
//   rd_data_q       = mem_q[rd_addr_i]   (the memory before this edge's write)
//   grid_q[r][c]   += 8 * r + c + 1   (a 2-D unpacked array)
//   vec_q[k]        = vec_i[k] ^ (vec_i[2] << sel_i[k])   (unpacked array ports, k = 0, 1)
// Assertion: never `wr_en_i` with `wr_data_i == ForbiddenData`.
// Outputs: sum_o = sum_q, pipe_o = pipe_q[PipeDepth-1], rd_data_o = rd_data_q,
//          cnt_a_o = u_a.cnt_q, cnt_b_o = u_b.cnt_q,
//          lane_cnt_o[i] = gen_vc[i].u_lane.u_cnt.cnt_q, lane_prev_o[i] = gen_vc[i].u_lane.u_delay.q_q,
//          vec_o[k] = vec_q[k].
// Unpacked array ports are C arrays in Verilator's root class (`VL_INW(vec_i[3],99,0,4)`); the
// bridge must expose each element (`TOP.vec_i[2]`) as a writable input of its own.
// The tool inlines u_a, u_b and the top's own registers into its root class; gen_vc[i].u_lane
// and u_lane.u_delay stay separate classes (see exanet_selftest_lane.sv): both paths are tested.
module exanet_selftest_top
  import exanet_base_selftest_pkg::*;
(
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         en_i,
  input  logic [9:0]   step_i,
  input  logic [63:0]  data64_i,
  input  logic [99:0]  data100_i,
  input  logic [127:0] data128_i,
  input  logic         wr_en_i,
  input  logic [2:0]   wr_addr_i,
  input  logic [31:0]  wr_data_i,
  input  logic [2:0]   rd_addr_i,
  input  logic [99:0]  vec_i [3],
  input  logic [2:0]   sel_i [2],
  output logic [127:0] sum_o,
  output logic [15:0]  pipe_o,
  output logic [31:0]  rd_data_o,
  output logic [9:0]   cnt_a_o,
  output logic [9:0]   cnt_b_o,
  output logic [NumLanes-1:0][5:0] lane_cnt_o,
  output logic [NumLanes-1:0][5:0] lane_prev_o,
  output logic [99:0]  vec_o [2]
);
  logic         flag_d, flag_q;
  logic [63:0]  acc_d, acc_q;
  logic [99:0]  wide_d, wide_q;
  logic [127:0] sum_d, sum_q;
  logic [15:0]  pipe_d [PipeDepth];
  logic [15:0]  pipe_q [PipeDepth];
  logic [31:0]  mem_d [MemWords];
  logic [31:0]  mem_q [MemWords];
  logic [31:0]  rd_data_d, rd_data_q;
  logic [7:0]   grid_d [2][3];
  logic [7:0]   grid_q [2][3];
  logic [99:0]  vec_d [2];
  logic [99:0]  vec_q [2];

  exanet_selftest_cnt #(
    .Width(10)
  ) u_a (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .en_i  (en_i),
    .step_i(step_i),
    .cnt_o (cnt_a_o)
  );

  exanet_selftest_cnt #(
    .Width(10)
  ) u_b (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .en_i  (!en_i),
    .step_i(~step_i),
    .cnt_o (cnt_b_o)
  );

  for (genvar i = 0; i < NumLanes; i++) begin : gen_vc
    exanet_selftest_lane #(
      .Width(6),
      .Step (i + 1)
    ) u_lane (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .en_i      (en_i),
      .cnt_o     (lane_cnt_o[i]),
      .cnt_prev_o(lane_prev_o[i])
    );
  end

  always_comb begin
    flag_d    = flag_q ^ en_i;
    acc_d     = acc_q + data64_i;
    wide_d    = {wide_q[98:0], wide_q[99]} ^ data100_i;
    sum_d     = sum_q + data128_i;
    pipe_d[0] = data64_i[15:0];
    for (int unsigned k = 1; k < PipeDepth; k++) begin
      pipe_d[k] = pipe_q[k-1];
    end
    mem_d = mem_q;
    if (wr_en_i) begin
      mem_d[wr_addr_i] = wr_data_i;
    end
    rd_data_d = mem_q[rd_addr_i];
    for (int unsigned r = 0; r < 2; r++) begin
      for (int unsigned c = 0; c < 3; c++) begin
        grid_d[r][c] = grid_q[r][c] + 8'(8 * r + c + 1);
      end
    end
    for (int unsigned k = 0; k < 2; k++) begin
      vec_d[k] = vec_i[k] ^ (vec_i[2] << sel_i[k]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      flag_q    <= 1'b0;
      acc_q     <= '0;
      wide_q    <= '0;
      sum_q     <= '0;
      pipe_q    <= '{default: '0};
      mem_q     <= '{default: '0};
      rd_data_q <= '0;
      grid_q    <= '{default: '{default: '0}};
      vec_q     <= '{default: '0};
    end else begin
      flag_q    <= flag_d;
      acc_q     <= acc_d;
      wide_q    <= wide_d;
      sum_q     <= sum_d;
      pipe_q    <= pipe_d;
      mem_q     <= mem_d;
      rd_data_q <= rd_data_d;
      grid_q    <= grid_d;
      vec_q     <= vec_d;
    end
  end

  assign sum_o     = sum_q;
  assign pipe_o    = pipe_q[PipeDepth-1];
  assign rd_data_o = rd_data_q;
  assign vec_o     = vec_q;

  // The self-test's one forbidden input, driven on purpose by tests/rtl_ffi.rs to check that a
  // failed assertion reaches `RtlModel::got_error`.
  ForbiddenWrite_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(wr_en_i && wr_data_i == ForbiddenData))
    else $error("write of the forbidden value %h", wr_data_i);
endmodule
