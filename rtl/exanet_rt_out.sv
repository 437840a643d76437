// exanet_rt_out: one crossbar output slot of the APErouter (Biagioni 2017 §5.3.3, "Arbiter ... Round
// Robin or Fixed Priority"; virtual cut-through): the arbiter of the output, its crossbar and
// write registers, and the output packet FIFO u_fifo. A slot is an intra-tile port's RX side
// (read by the processing system) or one VC of an inter-tile port's TX side (read by the TCL TX).
//
//   gates' req/out/words --> arbiter (VCT room check, RR/fixed) --> grant_*_q --> the winning gate
//   gates' xin_*  --> xout_*_q (crossbar, owner_q's word) --> owr_*_q (write) --> u_fifo --> rd_*_i
//
// Stages (cycle numbers of a header written into an input FIFO in cycle 0 of an idle router):
// 6 ARB (grant_*_q), 9 XBAR (xout_*_q), 10 WRITE (owr_*_q); the FIFO sees the write in 11.
//
// Virtual cut-through: a request is granted only when the output is free and the whole packet has
// room downstream: in u_fifo, header/footer free space less the words granted and not yet written
// (resv_hf_q) of at least 2, payload free space less resv_pay_q of at least the packet's payload
// words; for an inter-tile output also in the neighbour's RX FIFO of this VC: with usedword
// credits the TCL's estimate of the neighbour's free units must cover TRED plus the units granted
// and not yet taken by the TCL (inflight_q) plus the packet's cost (payload words + 2 x
// REMOTE_SCALE); with start/stop credits the VC's stop bit must be clear. Round robin grants the
// first eligible gate at or after rr_q; fixed priority the lowest. The output is released in the
// cycle its owner's footer is in the owner's xin register, so another gate can be granted then.
//
// Pipeline and room check: docs/router.md, decisions 0006 and 0007. Model twin:
// src/router/output.rs (OutSlot), which documents every rule; keep the two line for line.

module exanet_rt_out
  import exanet_base_router_pkg::*;
#(
  /// This output's crossbar slot.
  parameter bit [31:0] SLOT         = 0,
  /// Crossbar slots (gates), 1..56.
  parameter bit [31:0] N_SLOTS      = 7,
  /// An inter-tile output: the link's credits limit it too.
  parameter bit          IS_INTER     = 1'b0,
  /// Header/footer FIFO depth of this slot, words (power of two).
  parameter bit [31:0] HF_DEPTH     = 128,
  /// Payload FIFO depth of this slot, words (power of two).
  parameter bit [31:0] PAY_DEPTH    = 4096,
  /// FIFO write-to-not-empty delay L_F in cycles.
  parameter bit [31:0] FIFO_LATENCY = 3,
  /// Credit units a header or footer word takes in the neighbour's RX packet FIFO (its payload
  /// depth over its header/footer depth).
  parameter bit [31:0] REMOTE_SCALE = 8,
  localparam bit [31:0] HF_AW       = $clog2(HF_DEPTH),
  localparam bit [31:0] PAY_AW      = $clog2(PAY_DEPTH)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               cfg_arb_fixed_i,            // fixed priority (1) or round robin
  input  logic               cfg_usedword_i,             // usedword (1) or start/stop credits
  input  logic [15:0]        cfg_tred_i,                 // the links' TRED, credit units
  input  logic               rd_hf_i,                    // the reader pops the FIFO
  input  logic               rd_pay_i,
  input  logic [15:0]        credit_cnt_i,               // inter-tile: neighbour's free units
  input  logic               credit_stop_i,              // inter-tile: VC stopped
  input  logic [N_SLOTS-1:0] gate_req_i,                 // every gate's request ...
  input  logic [7:0]         gate_out_i [N_SLOTS],       // ... for output
  input  logic [WORDS_W-1:0] gate_words_i [N_SLOTS],     // ... of a packet of payload words
  input  logic [N_SLOTS-1:0] gate_xin_valid_i,           // every gate's crossbar input register
  input  logic [127:0]       gate_xin_data_i [N_SLOTS],
  input  logic [N_SLOTS-1:0] gate_xin_hf_i,
  input  logic [N_SLOTS-1:0] gate_xin_last_i,
  input  logic [7:0]         gate_xin_out_i [N_SLOTS],
  output logic               grant_valid_o,              // grant_in_o is granted this output
  output logic [7:0]         grant_in_o,
  output logic               eop_o,                      // owr_src_o's footer is being written
  output logic [7:0]         owr_src_o,
  output logic               hf_empty_o,                 // FIFO read side, for the reader
  output logic [HF_AW:0]     hf_rdusedw_o,
  output logic [127:0]       hf_rdata_o,
  output logic               pay_empty_o,
  output logic [PAY_AW:0]    pay_rdusedw_o,
  output logic [127:0]       pay_rdata_o,
  // Statistics and FIFO write side, for the node's status registers (SLOT_OUT_* block).
  output logic [31:0]        stat_pkts_o,                // packets written into the FIFO
  output logic [31:0]        stat_words_o,               // words written into the FIFO
  output logic [HF_AW:0]     hf_usedw_o,
  output logic [PAY_AW:0]    pay_usedw_o
);

  logic         busy_q, busy_d;
  logic [7:0]   owner_q, owner_d;
  logic [7:0]   rr_q, rr_d;
  logic         grant_valid_q, grant_valid_d;
  logic [7:0]   grant_in_q, grant_in_d;
  logic [15:0]  resv_hf_q, resv_hf_d;
  logic [15:0]  resv_pay_q, resv_pay_d;
  logic [15:0]  inflight_q, inflight_d;
  logic         xout_valid_q, xout_valid_d;
  logic [127:0] xout_data_q, xout_data_d;
  logic         xout_hf_q, xout_hf_d;
  logic         xout_last_q, xout_last_d;
  logic [7:0]   xout_src_q, xout_src_d;
  logic         owr_valid_q, owr_valid_d;
  logic [127:0] owr_data_q, owr_data_d;
  logic         owr_hf_q, owr_hf_d;
  logic         owr_last_q, owr_last_d;
  logic [7:0]   owr_src_q, owr_src_d;
  logic [31:0]  stat_pkts_q, stat_pkts_d;
  logic [31:0]  stat_words_q, stat_words_d;

  // The FIFO's write side.
  logic [HF_AW:0]  hf_usedw;
  logic [PAY_AW:0] pay_usedw;

  assign grant_valid_o = grant_valid_q;
  assign grant_in_o    = grant_in_q;
  assign eop_o         = owr_valid_q && owr_last_q;
  assign owr_src_o     = owr_src_q;
  assign stat_pkts_o   = stat_pkts_q;
  assign stat_words_o  = stat_words_q;
  assign hf_usedw_o    = hf_usedw;
  assign pay_usedw_o   = pay_usedw;

  localparam logic [7:0] ME = 8'(SLOT);

  logic               o_valid, o_hf, o_last, owner_word, free;
  logic [127:0]       o_data;
  logic [7:0]         o_out;
  logic [31:0]        popped;
  logic signed [31:0] hf_free, pay_free;
  logic               remote;
  logic [N_SLOTS-1:0] eligible;
  logic               win_hi_valid, win_lo_valid, win_valid;
  logic [7:0]         win_hi, win_lo, win;
  logic [WORDS_W-1:0] win_words;

  `EXANET_ALWAYS_COMB begin
    busy_d        = busy_q;
    owner_d       = owner_q;
    rr_d          = rr_q;
    stat_pkts_d   = stat_pkts_q;
    stat_words_d  = stat_words_q;

    // Crossbar: the owner's word, if it is one for this output.
    o_valid = 1'b0;
    o_data  = '0;
    o_hf    = 1'b0;
    o_last  = 1'b0;
    o_out   = '0;
    for (int unsigned k = 0; k < N_SLOTS; k++) begin
      if (owner_q == 8'(k)) begin
        o_valid = gate_xin_valid_i[k];
        o_data  = gate_xin_data_i[k];
        o_hf    = gate_xin_hf_i[k];
        o_last  = gate_xin_last_i[k];
        o_out   = gate_xin_out_i[k];
      end
    end
    owner_word   = busy_q && o_valid && (o_out == ME);
    xout_valid_d = owner_word;
    xout_data_d  = owner_word ? o_data : '0;
    xout_hf_d    = owner_word && o_hf;
    xout_last_d  = owner_word && o_last;
    xout_src_d   = owner_word ? owner_q : '0;
    // Write stage.
    owr_valid_d  = xout_valid_q;
    owr_data_d   = xout_data_q;
    owr_hf_d     = xout_hf_q;
    owr_last_d   = xout_last_q;
    owr_src_d    = xout_src_q;
    if (owr_valid_q) begin
      stat_words_d = stat_words_q + 32'd1;
      if (owr_last_q) begin
        stat_pkts_d = stat_pkts_q + 32'd1;
      end
    end
    // Reservations shrink as reserved words are written.
    resv_hf_d  = resv_hf_q - 16'(owr_valid_q && owr_hf_q);
    resv_pay_d = resv_pay_q - 16'(owr_valid_q && !owr_hf_q);
    // Units granted to this VC leave as the TCL pops them.
    inflight_d = inflight_q;
    popped     = (rd_hf_i ? 32'(REMOTE_SCALE) : 32'd0) + 32'(rd_pay_i);
    if (IS_INTER) begin
      inflight_d = (32'(inflight_q) > popped) ? 16'(32'(inflight_q) - popped) : 16'd0;
    end

    // Arbitration: room downstream for each request for this output.
    free     = !busy_q || (o_valid && o_last && (o_out == ME));
    hf_free  = $signed(32'(HF_DEPTH)) - $signed(32'(hf_usedw)) - $signed(32'(resv_hf_q));
    pay_free = $signed(32'(PAY_DEPTH)) - $signed(32'(pay_usedw)) - $signed(32'(resv_pay_q));
    for (int unsigned k = 0; k < N_SLOTS; k++) begin
      if (!IS_INTER) begin
        remote = 1'b1;
      end else if (cfg_usedword_i) begin
        remote = 32'(credit_cnt_i) >= 32'(cfg_tred_i) + 32'(inflight_q) + 32'(gate_words_i[k]) +
                                      2 * REMOTE_SCALE;
      end else begin
        remote = !credit_stop_i;
      end
      eligible[k] = gate_req_i[k] && (gate_out_i[k] == ME) && (hf_free >= 2) &&
                    (pay_free >= $signed(32'(gate_words_i[k]))) && remote;
    end
    // The first eligible gate at or after rr_q, else the lowest (round robin); the lowest (fixed).
    win_hi_valid = 1'b0;
    win_lo_valid = 1'b0;
    win_hi       = '0;
    win_lo       = '0;
    for (int unsigned k = 0; k < N_SLOTS; k++) begin
      if (eligible[k] && !win_lo_valid) begin
        win_lo_valid = 1'b1;
        win_lo       = 8'(k);
      end
      if (eligible[k] && !win_hi_valid && (8'(k) >= rr_q)) begin
        win_hi_valid = 1'b1;
        win_hi       = 8'(k);
      end
    end
    win_valid = win_lo_valid;
    win       = (!cfg_arb_fixed_i && win_hi_valid) ? win_hi : win_lo;
    win_words = '0;
    for (int unsigned k = 0; k < N_SLOTS; k++) begin
      if (win == 8'(k)) begin
        win_words = gate_words_i[k];
      end
    end

    grant_valid_d = 1'b0;
    grant_in_d    = '0;
    if (free) begin
      if (win_valid) begin
        grant_valid_d = 1'b1;
        grant_in_d    = win;
        busy_d        = 1'b1;
        owner_d       = win;
        rr_d          = (32'(win) + 32'd1 == N_SLOTS) ? 8'd0 : win + 8'd1;
        resv_hf_d     = resv_hf_d + 16'd2;
        resv_pay_d    = resv_pay_d + 16'(win_words);
        if (IS_INTER) begin
          inflight_d = inflight_d + 16'(win_words) + 16'(2 * REMOTE_SCALE);
        end
      end else begin
        busy_d = 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q        <= 1'b0;
      owner_q       <= '0;
      rr_q          <= '0;
      grant_valid_q <= 1'b0;
      grant_in_q    <= '0;
      resv_hf_q     <= '0;
      resv_pay_q    <= '0;
      inflight_q    <= '0;
      xout_valid_q  <= 1'b0;
      xout_data_q   <= '0;
      xout_hf_q     <= 1'b0;
      xout_last_q   <= 1'b0;
      xout_src_q    <= '0;
      owr_valid_q   <= 1'b0;
      owr_data_q    <= '0;
      owr_hf_q      <= 1'b0;
      owr_last_q    <= 1'b0;
      owr_src_q     <= '0;
      stat_pkts_q   <= '0;
      stat_words_q  <= '0;
    end else begin
      busy_q        <= busy_d;
      owner_q       <= owner_d;
      rr_q          <= rr_d;
      grant_valid_q <= grant_valid_d;
      grant_in_q    <= grant_in_d;
      resv_hf_q     <= resv_hf_d;
      resv_pay_q    <= resv_pay_d;
      inflight_q    <= inflight_d;
      xout_valid_q  <= xout_valid_d;
      xout_data_q   <= xout_data_d;
      xout_hf_q     <= xout_hf_d;
      xout_last_q   <= xout_last_d;
      xout_src_q    <= xout_src_d;
      owr_valid_q   <= owr_valid_d;
      owr_data_q    <= owr_data_d;
      owr_hf_q      <= owr_hf_d;
      owr_last_q    <= owr_last_d;
      owr_src_q     <= owr_src_d;
      stat_pkts_q   <= stat_pkts_d;
      stat_words_q  <= stat_words_d;
    end
  end

  exanet_pkt_fifo #(
    .HF_DEPTH  (HF_DEPTH),
    .PAY_DEPTH (PAY_DEPTH),
    .LATENCY   (FIFO_LATENCY)
  ) u_fifo (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .wr_hf_i       (owr_valid_q && owr_hf_q),
    .wr_pay_i      (owr_valid_q && !owr_hf_q),
    .wdata_i       (owr_data_q),
    .rd_hf_i       (rd_hf_i),
    .rd_pay_i      (rd_pay_i),
    .hf_full_o     (),
    .hf_empty_o    (hf_empty_o),
    .hf_usedw_o    (hf_usedw),
    .hf_rdusedw_o  (hf_rdusedw_o),
    .hf_rdata_o    (hf_rdata_o),
    .pay_full_o    (),
    .pay_empty_o   (pay_empty_o),
    .pay_usedw_o   (pay_usedw),
    .pay_rdusedw_o (pay_rdusedw_o),
    .pay_rdata_o   (pay_rdata_o),
    .units_o       ()
  );

`ifdef EXANET_ASSERT
  // Virtual cut-through never lets a word find its FIFO full, and a reservation never goes
  // below zero.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(owr_valid_q && owr_hf_q && resv_hf_q == '0))
        else $error("exanet_rt_out: header/footer write without a reservation");
      assert (!(owr_valid_q && !owr_hf_q && resv_pay_q == '0))
        else $error("exanet_rt_out: payload write without a reservation");
    end
  end
`endif

endmodule
