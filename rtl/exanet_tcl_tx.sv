// exanet_tcl_tx: APElink transmission control logic, TX CTRL (thesis 002 §5.3.4, Figure 5.9;
// thesis 000 §2.8.2).
//
//   inter-tile TX FIFO --fifo_empty_i/fifo_rdata_i--> +-------------+ --tx_valid_o/tx_data_o--> PHY lane
//                      <---------- fifo_rd_o -------- | exanet_     | <------- tx_ready_i -----
//   local TCL RX --- cred_upd_* (peer's credits) ---> | tcl_tx      |
//   local RX FIFOs - rxf_usedw_i (our buffers) -----> +-------------+
//
// Sends 128-bit words (header, payload, footer) as 64-bit beats, low half first, with the APElink
// word stuffing: MAGIC START H.lo H.hi P.lo P.hi ... F.lo F.hi; a data beat equal to MAGIC is
// escaped by a MAGIC in front of it. Credits (our RX FIFOs' status, for the peer): after every
// footer (cfg_after_pkt_i), between packets whenever the credit is cfg_credit_period_i old,
// inside a packet behind a MAGIC when older than cfg_max_interval_i or when the packet is
// suspended and older than cfg_credit_period_i. Flow control per word: usedword credit_cnt_q
// (peer's free words, reloaded by each credit, decremented per word, go while > TRED) or
// start/stop credit_stop_q (go while the peer's stop bit is clear).
//
// Cycle contract: header at the FIFO head in cycle c, link idle: MAGIC on tx_data_o in c + 1,
// START c + 2, header halves c + 3, c + 4. The pop is registered (fifo_rd_q): a word whose low
// half is loaded in cycle c is popped at the end of c + 1.
//
// Model twin: src/link/tcl_tx.rs, which documents every rule; keep the two line for line.

module exanet_tcl_tx
  import exanet_pkg::*;
#(
  /// Virtual channels, 1..8.
  parameter int unsigned NUM_VCS       = 2,
  /// Depth in words of each RX FIFO (ours and the peer's); a power of two, at most 32768.
  parameter int unsigned RX_DEPTH      = 1024,
  /// Beats of a usedword credit (two VCs per beat), 1..4.
  parameter int unsigned UW_BEATS      = 4,
  /// The header size field counts words instead of bytes.
  parameter bit          SIZE_IN_WORDS = 1'b0,
  localparam int unsigned UW_BITS      = $clog2(RX_DEPTH) + 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [15:0]                cfg_credit_period_i,  // cycles
  input  logic [15:0]                cfg_max_interval_i,   // cycles
  input  logic [15:0]                cfg_tred_i,           // words
  input  logic                       cfg_usedword_i,       // usedword (1) or start/stop (0)
  input  logic                       cfg_after_pkt_i,      // credit after every packet
  input  logic                       fifo_empty_i,
  input  logic [127:0]               fifo_rdata_i,
  output logic                       fifo_rd_o,
  input  logic                       tx_ready_i,
  output logic                       tx_valid_o,
  output logic [63:0]                tx_data_o,
  input  logic                       cred_upd_valid_i,     // a credit from the peer
  input  logic [7:0]                 cred_upd_stop_i,
  input  logic [79:0]                cred_upd_usedw_i,     // 8 x 10 bits, VC 0 lowest
  input  logic [NUM_VCS*UW_BITS-1:0] rxf_usedw_i           // our RX FIFOs' occupancy
);

  localparam logic [1:0] K_HDR = 2'd0;
  localparam logic [1:0] K_PAY = 2'd1;
  localparam logic [1:0] K_FTR = 2'd2;
  localparam logic [7:0] VC_MASK = 8'((9'd1 << NUM_VCS) - 9'd1);

  logic          out_valid_q, out_valid_d;
  logic [63:0]   out_data_q, out_data_d;
  logic          fifo_rd_q, fifo_rd_d;
  logic          pkt_q, pkt_d;
  logic          start_q, start_d;
  logic [1:0]    kind_q, kind_d;
  logic          half_q, half_d;
  logic          esc_q, esc_d;
  logic [63:0]   word_hi_q, word_hi_d;
  logic [12:0]   words_left_q, words_left_d;
  logic [2:0]    vc_q, vc_d;
  logic          drop_q, drop_d;
  logic          cred_magic_q, cred_magic_d;
  logic [1:0]    cred_beat_q, cred_beat_d;
  logic [79:0]   cred_snap_q, cred_snap_d;
  logic          cred_owed_q, cred_owed_d;
  logic [15:0]   credit_age_q, credit_age_d;
  logic [15:0]   credit_cnt_q [NUM_VCS];
  logic [15:0]   credit_cnt_d [NUM_VCS];
  logic [7:0]    credit_stop_q, credit_stop_d;
  logic [31:0]   stat_pkts_q, stat_pkts_d;
  logic [31:0]   stat_words_q, stat_words_d;
  logic [31:0]   stat_credits_q, stat_credits_d;
  logic [31:0]   stat_stall_q, stat_stall_d;
  logic [31:0]   stat_drops_q, stat_drops_d;

  assign fifo_rd_o  = fifo_rd_q;
  assign tx_valid_o = out_valid_q;
  assign tx_data_o  = out_data_q;

  // May a word of VC v go? (v must name an existing VC.)
  function automatic logic credit_ok(logic [2:0] v);
    logic ok;
    ok = 1'b0;
    for (int unsigned k = 0; k < NUM_VCS; k++) begin
      if (v == 3'(k)) begin
        ok = cfg_usedword_i ? (credit_cnt_q[k] > cfg_tred_i) : !credit_stop_q[k];
      end
    end
    return ok;
  endfunction

  // Payload words announced by a header's type and size fields.
  function automatic logic [12:0] payload_words(logic [HDR_TYPE_W-1:0] kind,
                                                logic [HDR_SIZE_W-1:0] size);
    if (kind == TYPE_ACK || kind == TYPE_RATE) begin
      return '0;
    end else if (SIZE_IN_WORDS) begin
      return size;
    end else begin
      return 13'((14'(size) + 14'd15) >> 4);
    end
  endfunction

  // Usedword credit beat idx carrying VCs 2 idx (lo) and 2 idx + 1 (hi), three copies each.
  function automatic logic [63:0] uw_beat(logic [1:0] idx, logic [9:0] lo, logic [9:0] hi);
    return {CREDIT_UW_TAG, idx, hi, hi, hi, lo, lo, lo};
  endfunction

  // Occupancy of our RX FIFO v, saturated to the 10 bits a usedword credit carries.
  function automatic logic [9:0] usedw_sat(int unsigned v);
    logic [UW_BITS-1:0] u;
    u = rxf_usedw_i[v*UW_BITS +: UW_BITS];
    return (32'(u) > 32'd1023) ? 10'd1023 : 10'(u);
  endfunction

  logic        can_load, head_avail, hdr_vc_ok, hdr_credit_ok, cur_credit_ok;
  logic [2:0]  hdr_vc;
  logic        blocked_between, at_boundary, blocked_inside;
  logic        data_ready, inner_credit, load_word, credit0;
  logic [63:0] beat;
  logic [63:0] beat0;
  logic [79:0] snap0;
  logic [7:0]  stop0;
  logic [15:0] base, used;

  always_comb begin
    out_valid_d    = out_valid_q && !tx_ready_i;
    out_data_d     = out_data_q;
    fifo_rd_d      = 1'b0;
    pkt_d          = pkt_q;
    start_d        = start_q;
    kind_d         = kind_q;
    half_d         = half_q;
    esc_d          = esc_q;
    word_hi_d      = word_hi_q;
    words_left_d   = words_left_q;
    vc_d           = vc_q;
    drop_d         = drop_q;
    cred_magic_d   = cred_magic_q;
    cred_beat_d    = cred_beat_q;
    cred_snap_d    = cred_snap_q;
    cred_owed_d    = cred_owed_q;
    credit_age_d   = (credit_age_q == 16'hFFFF) ? credit_age_q : credit_age_q + 16'd1;
    credit_cnt_d   = credit_cnt_q;
    credit_stop_d  = credit_stop_q;
    stat_pkts_d    = stat_pkts_q;
    stat_words_d   = stat_words_q;
    stat_credits_d = stat_credits_q;
    stat_stall_d   = stat_stall_q;
    stat_drops_d   = stat_drops_q;
    load_word      = 1'b0;
    credit0        = 1'b0;
    data_ready     = 1'b0;
    inner_credit   = 1'b0;
    beat           = '0;
    base           = '0;
    used           = '0;

    can_load      = !out_valid_q || tx_ready_i;
    head_avail    = !fifo_empty_i && !fifo_rd_q;
    hdr_vc        = fifo_rdata_i[2:0];
    hdr_vc_ok     = 32'(hdr_vc) < NUM_VCS;
    hdr_credit_ok = credit_ok(hdr_vc);
    cur_credit_ok = credit_ok(vc_q);

    // Statistic: a word blocked by credit.
    blocked_between = !pkt_q && !drop_q && head_avail && hdr_vc_ok && !hdr_credit_ok;
    at_boundary     = pkt_q && !start_q && !half_q && !esc_q && (kind_q != K_HDR);
    blocked_inside  = at_boundary && head_avail && !cur_credit_ok;
    if (can_load && (blocked_between || blocked_inside)) begin
      stat_stall_d = stat_stall_q + 32'd1;
    end

    // First beat of a credit, and the snapshot the following beats use.
    snap0 = '0;
    stop0 = '0;
    for (int unsigned v = 0; v < NUM_VCS; v++) begin
      snap0[10*v +: 10] = usedw_sat(v);
      stop0[v] = (32'(RX_DEPTH) - 32'(rxf_usedw_i[v*UW_BITS +: UW_BITS])) <= 32'(cfg_tred_i);
    end
    if (cfg_usedword_i) begin
      beat0 = uw_beat(2'd0, snap0[9:0], snap0[19:10]);
    end else begin
      beat0 = {CREDIT_SS_TAG, 24'd0, stop0, stop0, stop0};
      snap0 = '0;
    end

    if (can_load) begin
      if (cred_beat_q != 2'd0) begin
        out_valid_d = 1'b1;
        out_data_d  = uw_beat(cred_beat_q, cred_snap_q[20*32'(cred_beat_q) +: 10],
                              cred_snap_q[20*32'(cred_beat_q) + 10 +: 10]);
        cred_beat_d = (32'(cred_beat_q) + 32'd1 == UW_BEATS) ? 2'd0 : cred_beat_q + 2'd1;
      end else if (cred_magic_q) begin
        cred_magic_d = 1'b0;
        credit0      = 1'b1;
      end else if (start_q) begin
        out_valid_d = 1'b1;
        out_data_d  = WIRE_START;
        start_d     = 1'b0;
      end else if (!pkt_q) begin
        if (cred_owed_q || credit_age_q >= cfg_credit_period_i) begin
          cred_owed_d = 1'b0;
          credit0     = 1'b1;
        end else if (!drop_q && head_avail) begin
          if (!hdr_vc_ok) begin
            // a header naming a VC this link does not have: drop the whole packet
            drop_d       = 1'b1;
            kind_d       = K_HDR;
            words_left_d = payload_words(fifo_rdata_i[HDR_TYPE_LSB +: HDR_TYPE_W],
                                         fifo_rdata_i[HDR_SIZE_LSB +: HDR_SIZE_W]);
          end else if (hdr_credit_ok) begin
            out_valid_d  = 1'b1;
            out_data_d   = WIRE_MAGIC;
            pkt_d        = 1'b1;
            start_d      = 1'b1;
            kind_d       = K_HDR;
            half_d       = 1'b0;
            esc_d        = 1'b0;
            vc_d         = hdr_vc;
            words_left_d = payload_words(fifo_rdata_i[HDR_TYPE_LSB +: HDR_TYPE_W],
                                         fifo_rdata_i[HDR_SIZE_LSB +: HDR_SIZE_W]);
          end
        end
      end else begin
        // inside a packet, after START; a header's credit was checked at its MAGIC, an escaped
        // word's at its escape
        data_ready   = head_avail && ((kind_q == K_HDR) || esc_q || cur_credit_ok);
        inner_credit = at_boundary && ((credit_age_q >= cfg_max_interval_i) ||
                                       (!data_ready && (credit_age_q >= cfg_credit_period_i)));
        if (inner_credit) begin
          out_valid_d  = 1'b1;
          out_data_d   = WIRE_MAGIC;
          cred_magic_d = 1'b1;
        end else if (half_q || data_ready) begin
          beat        = half_q ? word_hi_q : fifo_rdata_i[63:0];
          out_valid_d = 1'b1;
          if ((beat == WIRE_MAGIC) && !esc_q) begin
            out_data_d = WIRE_MAGIC;
            esc_d      = 1'b1;
          end else begin
            out_data_d = beat;
            esc_d      = 1'b0;
            if (!half_q) begin
              word_hi_d    = fifo_rdata_i[127:64];
              fifo_rd_d    = 1'b1;
              half_d       = 1'b1;
              load_word    = 1'b1;
              stat_words_d = stat_words_q + 32'd1;
              if (kind_q == K_PAY) begin
                words_left_d = words_left_q - 13'd1;
              end
            end else begin
              half_d = 1'b0;
              unique case (kind_q)
                K_HDR: kind_d = (words_left_q != '0) ? K_PAY : K_FTR;
                K_PAY: begin
                  if (words_left_q == '0) begin
                    kind_d = K_FTR;
                  end
                end
                default: begin
                  pkt_d       = 1'b0;
                  kind_d      = K_HDR;
                  stat_pkts_d = stat_pkts_q + 32'd1;
                  cred_owed_d = cfg_after_pkt_i;
                end
              endcase
            end
          end
        end
      end
    end

    if (credit0) begin
      out_valid_d    = 1'b1;
      out_data_d     = beat0;
      cred_snap_d    = snap0;
      cred_beat_d    = (cfg_usedword_i && (UW_BEATS > 1)) ? 2'd1 : 2'd0;
      credit_age_d   = 16'd1;
      stat_credits_d = stat_credits_q + 32'd1;
    end

    // Dropping a packet with an invalid VC: pop its words, send nothing.
    if (drop_q && head_avail) begin
      fifo_rd_d = 1'b1;
      unique case (kind_q)
        K_HDR: kind_d = (words_left_q != '0) ? K_PAY : K_FTR;
        K_PAY: begin
          words_left_d = words_left_q - 13'd1;
          if (words_left_q == 13'd1) begin
            kind_d = K_FTR;
          end
        end
        default: begin
          drop_d       = 1'b0;
          kind_d       = K_HDR;
          stat_drops_d = stat_drops_q + 32'd1;
        end
      endcase
    end

    // Credit state: fresh credit from the peer, minus the word loaded this cycle.
    for (int unsigned v = 0; v < NUM_VCS; v++) begin
      if (cfg_usedword_i) begin
        base = cred_upd_valid_i
             ? 16'(RX_DEPTH) - ((32'(cred_upd_usedw_i[10*v +: 10]) > RX_DEPTH)
                                ? 16'(RX_DEPTH) : 16'(cred_upd_usedw_i[10*v +: 10]))
             : credit_cnt_q[v];
        used = 16'(load_word && (vc_q == 3'(v)));
        credit_cnt_d[v] = (base > used) ? base - used : 16'd0;
      end
    end
    if (!cfg_usedword_i && cred_upd_valid_i) begin
      credit_stop_d = cred_upd_stop_i & VC_MASK;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q    <= 1'b0;
      out_data_q     <= '0;
      fifo_rd_q      <= 1'b0;
      pkt_q          <= 1'b0;
      start_q        <= 1'b0;
      kind_q         <= K_HDR;
      half_q         <= 1'b0;
      esc_q          <= 1'b0;
      word_hi_q      <= '0;
      words_left_q   <= '0;
      vc_q           <= '0;
      drop_q         <= 1'b0;
      cred_magic_q   <= 1'b0;
      cred_beat_q    <= '0;
      cred_snap_q    <= '0;
      cred_owed_q    <= 1'b0;
      credit_age_q   <= 16'hFFFF;
      credit_stop_q  <= '0;
      stat_pkts_q    <= '0;
      stat_words_q   <= '0;
      stat_credits_q <= '0;
      stat_stall_q   <= '0;
      stat_drops_q   <= '0;
      for (int unsigned v = 0; v < NUM_VCS; v++) begin
        credit_cnt_q[v] <= 16'(RX_DEPTH);
      end
    end else begin
      out_valid_q    <= out_valid_d;
      out_data_q     <= out_data_d;
      fifo_rd_q      <= fifo_rd_d;
      pkt_q          <= pkt_d;
      start_q        <= start_d;
      kind_q         <= kind_d;
      half_q         <= half_d;
      esc_q          <= esc_d;
      word_hi_q      <= word_hi_d;
      words_left_q   <= words_left_d;
      vc_q           <= vc_d;
      drop_q         <= drop_d;
      cred_magic_q   <= cred_magic_d;
      cred_beat_q    <= cred_beat_d;
      cred_snap_q    <= cred_snap_d;
      cred_owed_q    <= cred_owed_d;
      credit_age_q   <= credit_age_d;
      credit_cnt_q   <= credit_cnt_d;
      credit_stop_q  <= credit_stop_d;
      stat_pkts_q    <= stat_pkts_d;
      stat_words_q   <= stat_words_d;
      stat_credits_q <= stat_credits_d;
      stat_stall_q   <= stat_stall_d;
      stat_drops_q   <= stat_drops_d;
    end
  end

`ifdef EXANET_ASSERT
  // The packet being sent always names an existing VC.
  always_ff @(posedge clk_i) begin
    if (rst_ni && pkt_q) begin
      assert (32'(vc_q) < NUM_VCS) else $error("exanet_tcl_tx: packet on a missing VC");
    end
  end
`endif

endmodule
