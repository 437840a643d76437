// exanet_tcl_tx: APElink transmission control logic, TX CTRL (Biagioni 2017 §5.3.4, Figure 5.9;
// Pisani 2016 §2.8.2).
//
//   TX packet FIFOs, one per VC --hf_*/pay_*--> +-------------+ --tx_valid_o/tx_data_o--> PHY lane
//                <-------- hf_rd_o/pay_rd_o --- | exanet_     | <------- tx_ready_i -----
//   local TCL RX --- cred_upd_* (peer's credits) --> | tcl_tx |
//   local RX packet FIFOs - rxf_units_i (our buffers) +-------------+
//
// Sends packets from the per-VC TX packet FIFOs (header and footer from the header/footer FIFO,
// payload from the payload FIFO) as 64-bit beats, low half first, with the APElink word stuffing:
// MAGIC START H.lo H.hi P.lo P.hi ... F.lo F.hi; a data beat equal to MAGIC is escaped by a MAGIC
// in front of it. Between packets the VC is chosen round robin among those with a header at the
// head and credit. Credits (our RX FIFOs' status, for the peer): after every
// footer (cfg_after_pkt_i), between packets whenever the credit is cfg_credit_period_i old,
// inside a packet behind a MAGIC when older than cfg_max_interval_i or when the packet is
// suspended and older than cfg_credit_period_i. Flow control per word, in credit units (a
// payload word 1, a header or footer word HF_SCALE): usedword credit_cnt_q (peer's free units,
// reloaded by each credit, decreased per word, go while > TRED) or start/stop credit_stop_q
// (go while the peer's stop bit is clear). With cfg_whole_pkt_i the credit is checked only
// before a packet, at its MAGIC: a started packet runs to its footer whatever the credit,
// suspended only by a missing word (credit_cnt_q still decreases per word sent).
//
// Cycle contract: header at a header/footer FIFO head in cycle c, link idle: MAGIC on tx_data_o
// in c + 1, START c + 2, header halves c + 3, c + 4. Pops are registered (hf_rd_q, pay_rd_q): a
// word whose low half is loaded in cycle c is popped at the end of c + 1.
//
// Packet numbering: a footer leaves with lseq = stat_pkts_q[15:0] and its CRC-15 in bits 95:65
// (docs/decisions/0016); a packet counts as sent from its MAGIC on (stat_pkts_q + pkt_q).
//
// Model twin: src/link/tcl_tx.rs, which documents every rule; keep the two line for line.

module exanet_tcl_tx
  import exanet_base_pkg::*;
#(
  /// Virtual channels, 1..8.
  parameter bit [31:0] NUM_VCS       = 2,
  /// Capacity of each RX packet FIFO in credit units (its payload depth), ours and the peer's.
  parameter bit [31:0] RX_DEPTH      = 1024,
  /// Credit units of a header or footer word in the peer's RX packet FIFO.
  parameter bit [31:0] HF_SCALE      = 8,
  /// Beats of a usedword credit (two VCs per beat), 1..4.
  parameter bit [31:0] UW_BEATS      = 4,
  /// The header size field counts words instead of bytes.
  parameter bit          SIZE_IN_WORDS = 1'b0
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [15:0]                cfg_credit_period_i,  // cycles
  input  logic [15:0]                cfg_max_interval_i,   // cycles
  input  logic [15:0]                cfg_tred_i,           // words
  input  logic                       cfg_usedword_i,       // usedword (1) or start/stop (0)
  input  logic                       cfg_after_pkt_i,      // credit after every packet
  input  logic                       cfg_whole_pkt_i,      // credit: before a packet (1) or a word (0)
  input  logic [NUM_VCS-1:0]         hf_empty_i,           // TX header/footer FIFO of each VC
  input  logic [127:0]               hf_rdata_i [NUM_VCS],
  input  logic [NUM_VCS-1:0]         pay_empty_i,          // TX payload FIFO of each VC
  input  logic [127:0]               pay_rdata_i [NUM_VCS],
  output logic [NUM_VCS-1:0]         hf_rd_o,
  output logic [NUM_VCS-1:0]         pay_rd_o,
  input  logic                       tx_ready_i,
  output logic                       tx_valid_o,
  output logic [63:0]                tx_data_o,
  input  logic                       cred_upd_valid_i,     // a credit from the peer
  input  logic [7:0]                 cred_upd_stop_i,
  input  logic [79:0]                cred_upd_usedw_i,     // 8 x 10 bits, VC 0 lowest
  input  logic [NUM_VCS*16-1:0]      rxf_units_i,          // our RX packet FIFOs, credit units
  output logic [NUM_VCS*16-1:0]      credit_cnt_o,         // usedword: peer's free units per VC
  output logic [7:0]                 credit_stop_o,        // start/stop: peer's stop bits
  output logic [31:0]                stat_pkts_o,          // packets sent (LINK_TX_PKTS)
  output logic                       pkt_o,                // a packet is being sent (LINK_STATUS[1])
  output logic [31:0]                stat_stall_o          // cycles waiting for credit (LINK_STALL)
);

  localparam logic [1:0] K_HDR = 2'd0;
  localparam logic [1:0] K_PAY = 2'd1;
  localparam logic [1:0] K_FTR = 2'd2;
  localparam logic [7:0] VC_MASK = 8'((9'd1 << NUM_VCS) - 9'd1);

  logic               out_valid_q, out_valid_d;
  logic [63:0]        out_data_q, out_data_d;
  logic [NUM_VCS-1:0] hf_rd_q, hf_rd_d;
  logic [NUM_VCS-1:0] pay_rd_q, pay_rd_d;
  logic               pkt_q, pkt_d;
  logic               start_q, start_d;
  logic [1:0]         kind_q, kind_d;
  logic               half_q, half_d;
  logic               esc_q, esc_d;
  logic [63:0]        word_hi_q, word_hi_d;
  logic [12:0]        words_left_q, words_left_d;
  logic [2:0]         vc_q, vc_d;
  logic [2:0]         vc_rr_q, vc_rr_d;
  logic               cred_magic_q, cred_magic_d;
  logic [1:0]         cred_beat_q, cred_beat_d;
  logic [79:0]        cred_snap_q, cred_snap_d;
  logic               cred_owed_q, cred_owed_d;
  logic [15:0]        credit_age_q, credit_age_d;
  logic [15:0]        credit_cnt_q [NUM_VCS];
  logic [15:0]        credit_cnt_d [NUM_VCS];
  logic [7:0]         credit_stop_q, credit_stop_d;
  logic [31:0]        stat_pkts_q, stat_pkts_d;
  logic [31:0]        stat_words_q, stat_words_d;
  logic [31:0]        stat_credits_q, stat_credits_d;
  logic [31:0]        stat_stall_q, stat_stall_d;

  assign hf_rd_o       = hf_rd_q;
  assign pay_rd_o      = pay_rd_q;
  assign tx_valid_o    = out_valid_q;
  assign tx_data_o     = out_data_q;
  assign credit_stop_o = credit_stop_q;
  assign stat_pkts_o   = stat_pkts_q;
  assign pkt_o         = pkt_q;
  assign stat_stall_o  = stat_stall_q;
  `EXANET_ALWAYS_COMB begin
    for (int unsigned v = 0; v < NUM_VCS; v++) begin
      credit_cnt_o[16*v +: 16] = credit_cnt_q[v];
    end
  end

  // May a word of VC v go?
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

  logic               can_load, head_avail, cur_credit_ok;
  logic [NUM_VCS-1:0] waiting, ready;
  logic [127:0]       head;
  logic [HDR_TYPE_W-1:0] first_type;
  logic [HDR_SIZE_W-1:0] first_size;
  logic [2:0]         pick;
  logic               picked;
  logic               blocked_between, at_boundary, blocked_inside;
  logic               data_ready, inner_credit, credit0;
  logic [15:0]        load_cost;
  logic [63:0]        beat;
  logic [63:0]        beat0;
  logic [79:0]        snap0;
  logic [7:0]         stop0;
  logic [15:0]        units;
  logic [15:0]        base;
  logic [2:0]         cand;

  `EXANET_ALWAYS_COMB begin
    out_valid_d    = out_valid_q && !tx_ready_i;
    out_data_d     = out_data_q;
    hf_rd_d        = '0;
    pay_rd_d       = '0;
    pkt_d          = pkt_q;
    start_d        = start_q;
    kind_d         = kind_q;
    half_d         = half_q;
    esc_d          = esc_q;
    word_hi_d      = word_hi_q;
    words_left_d   = words_left_q;
    vc_d           = vc_q;
    vc_rr_d        = vc_rr_q;
    cred_magic_d   = cred_magic_q;
    cred_beat_d    = cred_beat_q;
    cred_snap_d    = cred_snap_q;
    cred_owed_d    = cred_owed_q;
    credit_age_d   = (credit_age_q == 16'hFFFF) ? credit_age_q : credit_age_q + 16'd1;
    for (int unsigned v = 0; v < NUM_VCS; v++) begin  // element-wise: Icarus 11 copies no array
      credit_cnt_d[v] = credit_cnt_q[v];
    end
    credit_stop_d  = credit_stop_q;
    stat_pkts_d    = stat_pkts_q;
    stat_words_d   = stat_words_q;
    stat_credits_d = stat_credits_q;
    stat_stall_d   = stat_stall_q;
    load_cost      = '0;
    credit0        = 1'b0;
    data_ready     = 1'b0;
    inner_credit   = 1'b0;
    beat           = '0;
    base           = '0;
    units          = '0;
    cand           = '0;

    can_load = !out_valid_q || tx_ready_i;

    // Headers at the head of their VC's header/footer FIFO (a pop in flight hides the head).
    for (int unsigned v = 0; v < NUM_VCS; v++) begin
      waiting[v] = !hf_empty_i[v] && !hf_rd_q[v];
      ready[v]   = waiting[v] && credit_ok(3'(v));
    end
    // Round robin: the first ready VC at or after vc_rr_q.
    pick   = '0;
    picked = 1'b0;
    for (int unsigned k = 0; k < NUM_VCS; k++) begin
      cand = 3'((32'(vc_rr_q) + k) % NUM_VCS);
      for (int unsigned v = 0; v < NUM_VCS; v++) begin
        if (!picked && (cand == 3'(v)) && ready[v]) begin
          pick   = cand;
          picked = 1'b1;
        end
      end
    end
    // The picked VC's header, and the head word of the packet being sent (payload FIFO for
    // payload, header/footer FIFO otherwise).
    first_type = '0;
    first_size = '0;
    head       = '0;
    head_avail = 1'b0;
    for (int unsigned v = 0; v < NUM_VCS; v++) begin
      if (pick == 3'(v)) begin
        first_type = hf_rdata_i[v][HDR_TYPE_LSB +: HDR_TYPE_W];
        first_size = hf_rdata_i[v][HDR_SIZE_LSB +: HDR_SIZE_W];
      end
      if (vc_q == 3'(v)) begin
        if (kind_q == K_PAY) begin
          head       = pay_rdata_i[v];
          head_avail = !pay_empty_i[v] && !pay_rd_q[v];
        end else begin
          head       = hf_rdata_i[v];
          head_avail = !hf_empty_i[v] && !hf_rd_q[v];
        end
      end
    end
    cur_credit_ok = credit_ok(vc_q);

    // Statistic: a word blocked by credit.
    blocked_between = !pkt_q && (waiting != '0) && (ready == '0);
    at_boundary     = pkt_q && !start_q && !half_q && !esc_q && (kind_q != K_HDR);
    blocked_inside  = at_boundary && head_avail && !cur_credit_ok && !cfg_whole_pkt_i;
    if (can_load && (blocked_between || blocked_inside)) begin
      stat_stall_d = stat_stall_q + 32'd1;
    end

    // First beat of a credit, and the snapshot the following beats use.
    snap0 = '0;
    stop0 = '0;
    for (int unsigned v = 0; v < NUM_VCS; v++) begin
      units = rxf_units_i[16*v +: 16];
      snap0[10*v +: 10] = (units > 16'd1023) ? 10'd1023 : units[9:0];
      stop0[v] = ((32'(RX_DEPTH) > 32'(units)) ? 32'(RX_DEPTH) - 32'(units) : 32'd0)
                 <= 32'(cfg_tred_i);
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
        end else if (picked) begin
          out_valid_d  = 1'b1;
          out_data_d   = WIRE_MAGIC;
          pkt_d        = 1'b1;
          start_d      = 1'b1;
          kind_d       = K_HDR;
          half_d       = 1'b0;
          esc_d        = 1'b0;
          vc_d         = pick;
          vc_rr_d      = 3'((32'(pick) + 32'd1) % NUM_VCS);
          words_left_d = payload_words(first_type, first_size);
        end
      end else begin
        // inside a packet, after START; a header's credit was checked at its MAGIC, an escaped
        // word's at its escape
        data_ready   = head_avail && ((kind_q == K_HDR) || esc_q || cfg_whole_pkt_i ||
                                      cur_credit_ok);
        inner_credit = at_boundary && ((credit_age_q >= cfg_max_interval_i) ||
                                       (!data_ready && (credit_age_q >= cfg_credit_period_i)));
        if (inner_credit) begin
          out_valid_d  = 1'b1;
          out_data_d   = WIRE_MAGIC;
          cred_magic_d = 1'b1;
        end else if (half_q || data_ready) begin
          beat        = half_q ? word_hi_q : head[63:0];
          out_valid_d = 1'b1;
          if ((beat == WIRE_MAGIC) && !esc_q) begin
            out_data_d = WIRE_MAGIC;
            esc_d      = 1'b1;
          end else begin
            out_data_d = beat;
            esc_d      = 1'b0;
            if (!half_q) begin
              // a footer leaves with this packet's link sequence number (the packets sent
              // before it), outside the message CRC (decision 0016)
              word_hi_d    = (kind_q == K_FTR) ? lseq_stamp(head[127:64], stat_pkts_q[15:0])
                                               : head[127:64];
              half_d       = 1'b1;
              stat_words_d = stat_words_q + 32'd1;
              for (int unsigned v = 0; v < NUM_VCS; v++) begin
                if (vc_q == 3'(v)) begin
                  pay_rd_d[v] = (kind_q == K_PAY);
                  hf_rd_d[v]  = (kind_q != K_PAY);
                end
              end
              if (kind_q == K_PAY) begin
                words_left_d = words_left_q - 13'd1;
                load_cost    = 16'd1;
              end else begin
                load_cost    = 16'(HF_SCALE);
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

    // Credit state: fresh credit from the peer, minus the word loaded this cycle.
    for (int unsigned v = 0; v < NUM_VCS; v++) begin
      if (cfg_usedword_i) begin
        base = cred_upd_valid_i
             ? 16'(RX_DEPTH) - ((32'(cred_upd_usedw_i[10*v +: 10]) > RX_DEPTH)
                                ? 16'(RX_DEPTH) : 16'(cred_upd_usedw_i[10*v +: 10]))
             : credit_cnt_q[v];
        credit_cnt_d[v] = (vc_q != 3'(v)) ? base : ((base > load_cost) ? base - load_cost : 16'd0);
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
      hf_rd_q        <= '0;
      pay_rd_q       <= '0;
      pkt_q          <= 1'b0;
      start_q        <= 1'b0;
      kind_q         <= K_HDR;
      half_q         <= 1'b0;
      esc_q          <= 1'b0;
      word_hi_q      <= '0;
      words_left_q   <= '0;
      vc_q           <= '0;
      vc_rr_q        <= '0;
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
      for (int unsigned v = 0; v < NUM_VCS; v++) begin
        credit_cnt_q[v] <= 16'(RX_DEPTH);
      end
    end else begin
      out_valid_q    <= out_valid_d;
      out_data_q     <= out_data_d;
      hf_rd_q        <= hf_rd_d;
      pay_rd_q       <= pay_rd_d;
      pkt_q          <= pkt_d;
      start_q        <= start_d;
      kind_q         <= kind_d;
      half_q         <= half_d;
      esc_q          <= esc_d;
      word_hi_q      <= word_hi_d;
      words_left_q   <= words_left_d;
      vc_q           <= vc_d;
      vc_rr_q        <= vc_rr_d;
      cred_magic_q   <= cred_magic_d;
      cred_beat_q    <= cred_beat_d;
      cred_snap_q    <= cred_snap_d;
      cred_owed_q    <= cred_owed_d;
      credit_age_q   <= credit_age_d;
      for (int unsigned v = 0; v < NUM_VCS; v++) begin
        credit_cnt_q[v] <= credit_cnt_d[v];
      end
      credit_stop_q  <= credit_stop_d;
      stat_pkts_q    <= stat_pkts_d;
      stat_words_q   <= stat_words_d;
      stat_credits_q <= stat_credits_d;
      stat_stall_q   <= stat_stall_d;
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
