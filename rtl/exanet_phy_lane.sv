// exanet_phy_lane: one direction of the APEphy, an Aurora-64B/66B-like PHY (Biagioni 2017 §5.3.4;
// PG074 facts in SPEC.md). A latency model, not a SERDES: 64-bit user interface, fixed pipeline.
//
//   tx_valid_i, tx_data_i --+--> pipe_q[0] -> pipe_q[1] -> ... -> pipe_q[LATENCY-1] --> rx_valid_o, rx_data_o
//   err_mask_i ------ XOR --+
//   tx_ready_o <-- tx_ready_q: low before lane up, one cycle in GB_PERIOD (gearbox pause on),
//                  CC_LEN cycles in every CC_PERIOD (clock compensation on)
//
// Cycle contract: a beat accepted in cycle c (tx_valid_i && tx_ready_o) is on rx_valid_o/rx_data_o
// in cycle c + LATENCY (default 42, the Aurora latency the thesis measured). No back-pressure on
// the RX side (Aurora has none); cycles without an accepted beat come out as idles (valid low,
// data zero). err_mask_i (from the test bench) is XORed into the accepted beat.
//
// Model twin: src/link/phy.rs.

module exanet_phy_lane #(
  /// Cycles from a beat accepted at TX to the same beat valid at RX (>= 1).
  parameter bit [31:0] LATENCY        = 42,
  /// Period of the gearbox pause, cycles (>= 2).
  parameter bit [31:0] GB_PERIOD      = 32,
  /// Period of clock compensation, cycles (> CC_LEN, <= 65535).
  parameter bit [31:0] CC_PERIOD      = 4992,
  /// Cycles of one clock-compensation sequence (>= 1).
  parameter bit [31:0] CC_LEN         = 8,
  /// Cycles from reset to lane up (<= 65535).
  parameter bit [31:0] LANE_UP_CYCLES = 500
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        cfg_gearbox_en_i,  // gearbox pause on
  input  logic        cfg_cc_en_i,       // clock compensation on
  input  logic        tx_valid_i,
  input  logic [63:0] tx_data_i,
  input  logic [63:0] err_mask_i,        // bits to flip in the beat accepted this cycle
  output logic        tx_ready_o,
  output logic        rx_valid_o,
  output logic [63:0] rx_data_o,
  output logic        lane_up_o
);

  logic [15:0] up_cnt_q, up_cnt_d;
  logic [15:0] gb_cnt_q, gb_cnt_d;
  logic [15:0] cc_cnt_q, cc_cnt_d;
  logic        tx_ready_q, tx_ready_d;
  logic        pipe_valid_q [LATENCY];
  logic [63:0] pipe_data_q  [LATENCY];
  logic        accept;
  logic        gb_pause, cc_pause;

  assign tx_ready_o = tx_ready_q;
  assign rx_valid_o = pipe_valid_q[LATENCY-1];
  assign rx_data_o  = pipe_data_q[LATENCY-1];
  assign lane_up_o  = up_cnt_q == 16'(LANE_UP_CYCLES);
  assign accept     = tx_valid_i && tx_ready_q;

  `EXANET_ALWAYS_COMB begin
    up_cnt_d   = (up_cnt_q < 16'(LANE_UP_CYCLES)) ? up_cnt_q + 16'd1 : up_cnt_q;
    gb_cnt_d   = (gb_cnt_q + 16'd1 == 16'(GB_PERIOD)) ? '0 : gb_cnt_q + 16'd1;
    cc_cnt_d   = (cc_cnt_q + 16'd1 == 16'(CC_PERIOD)) ? '0 : cc_cnt_q + 16'd1;
    gb_pause   = cfg_gearbox_en_i && (gb_cnt_d == 16'(GB_PERIOD - 1));
    cc_pause   = cfg_cc_en_i && (cc_cnt_d >= 16'(CC_PERIOD - CC_LEN));
    tx_ready_d = (up_cnt_d == 16'(LANE_UP_CYCLES)) && !gb_pause && !cc_pause;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      up_cnt_q   <= '0;
      gb_cnt_q   <= '0;
      cc_cnt_q   <= '0;
      tx_ready_q <= 1'b0;
      for (int unsigned s = 0; s < LATENCY; s++) begin
        pipe_valid_q[s] <= 1'b0;
        pipe_data_q[s]  <= '0;
      end
    end else begin
      up_cnt_q        <= up_cnt_d;
      gb_cnt_q        <= gb_cnt_d;
      cc_cnt_q        <= cc_cnt_d;
      tx_ready_q      <= tx_ready_d;
      pipe_valid_q[0] <= accept;
      pipe_data_q[0]  <= accept ? (tx_data_i ^ err_mask_i) : '0;
      for (int unsigned s = 1; s < LATENCY; s++) begin
        pipe_valid_q[s] <= pipe_valid_q[s-1];
        pipe_data_q[s]  <= pipe_data_q[s-1];
      end
    end
  end

endmodule
