// exanet_tcl_rx: APElink transmission control logic, RX CTRL (Biagioni 2017 §5.3.4, Figure 5.9).
//
//   PHY lane --rx_valid_i/rx_data_i--> in_q --> parser --> wr_valid_o/wr_vc_o/wr_data_o --> RX FIFO[vc]
//                                                   +----> cred_upd_* --> local TCL TX (peer's credits)
//
// Two register stages: the input register (in_valid_q, in_data_q) takes the PHY beat; the parser
// works on it and loads the write port (wr_*_q) or the credit port (cred_upd_*_q). A header's
// last beat out of the PHY in cycle c is written into its RX FIFO in cycle c + 2.
// Parsing: MAGIC sets magic_q; after a MAGIC come START (a header follows), a credit, or MAGIC
// (an escaped data beat). Between packets a credit comes without MAGIC. The header is SECDED
// checked: one error corrected and counted; an uncorrectable header loses the packet, beats are
// discarded up to the next MAGIC START. Payload words go to the header's VC; the CRC-32C of the
// header's covered bits, payload and footer low half is checked, a bad CRC is counted and
// flagged in the footer (crc_bad). One CRC engine, 64 bits wide, advances crc_q by each data
// beat as it arrives (the header's beats masked by HDR_CRC_MASK); a header bit the SECDED
// decoder corrects is added in at the header's second beat (CRC32C_FIX, by its Hamming
// position), so crc_q after the header is crc32c_start of the corrected header. At the
// footer's second beat crc_q covers its low half and is checked against its CRC field. Credit
// status by majority of three copies; no two equal: credit rejected, counted. Accounting
// (docs/decisions/0016): every packet ends delivered (stat_pkts_q, stat_crc_err_q) or
// discarded (stat_lost_q = stat_disc_hdr_q + stat_disc_framing_q + stat_disc_resync_q);
// packets never seen are counted from the link sequence number (lseq_q) of the next footer
// whose CRC and sequence check both hold.
//
// Model twin: src/link/tcl_rx.rs, which documents every rule; keep the two line for line.

module exanet_tcl_rx
  import exanet_base_pkg::*;
#(
  /// Virtual channels, 1..8.
  parameter bit [31:0] NUM_VCS       = 2,
  /// Beats of a usedword credit (two VCs per beat), 1..4.
  parameter bit [31:0] UW_BEATS      = 4,
  /// The header size field counts words instead of bytes.
  parameter bit          SIZE_IN_WORDS = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         cfg_usedword_i,    // usedword (1) or start/stop (0) credits
  input  logic         rx_valid_i,
  input  logic [63:0]  rx_data_i,
  output logic         wr_valid_o,        // write wr_data_o into RX packet FIFO wr_vc_o
  output logic         wr_hf_o,           // ... its header/footer FIFO (1) or payload FIFO (0)
  output logic [2:0]   wr_vc_o,
  output logic [127:0] wr_data_o,
  output logic         cred_upd_valid_o,  // a credit from the peer, for the local TX
  output logic [7:0]   cred_upd_stop_o,
  output logic [79:0]  cred_upd_usedw_o,
  output logic [31:0]  stat_pkts_o,        // packets received (LINK_RX_PKTS)
  output logic [31:0]  stat_ecc_corr_o,    // headers with a corrected error (LINK_ECC_CORR)
  output logic [31:0]  stat_ecc_uncorr_o,  // headers with an uncorrectable error (LINK_ECC_UNCORR)
  output logic [31:0]  stat_crc_err_o,     // packets with a bad CRC (LINK_CRC_ERR)
  output logic [31:0]  stat_lost_o,        // packets lost, every reason (LINK_LOST)
  output logic [31:0]  stat_disc_hdr_o,    // ... at their header (LINK_DISC_HDR)
  output logic [31:0]  stat_disc_framing_o, // ... framing lost (LINK_DISC_FRAMING)
  output logic [31:0]  stat_disc_resync_o, // ... discarded to the next Start (LINK_DISC_RESYNC)
  output logic [31:0]  stat_dropped_o      // beats dropped outside any packet (LINK_DROPPED)
);

  localparam logic [2:0] M_IDLE    = 3'd0;
  localparam logic [2:0] M_HDR     = 3'd1;
  localparam logic [2:0] M_PAY     = 3'd2;
  localparam logic [2:0] M_FTR     = 3'd3;
  localparam logic [2:0] M_DISCARD = 3'd4;
  localparam logic [7:0] VC_MASK   = 8'((9'd1 << NUM_VCS) - 9'd1);
  // gap_why_q: what started the packets lost since the last packet accounted for
  localparam logic [1:0] GAP_NONE    = 2'd0;
  localparam logic [1:0] GAP_FRAMING = 2'd1;  // a beat the parser could not place
  localparam logic [1:0] GAP_RESYNC  = 2'd2;  // a bad header, then discarding to the next Start

  logic         in_valid_q, in_valid_d;
  logic [63:0]  in_data_q, in_data_d;
  logic [2:0]   mode_q, mode_d;
  logic         half_q, half_d;
  logic         magic_q, magic_d;
  logic [1:0]   cred_idx_q, cred_idx_d;
  logic         cred_ok_q, cred_ok_d;
  logic [79:0]  cred_acc_q, cred_acc_d;
  logic [63:0]  lo_q, lo_d;
  logic [12:0]  words_left_q, words_left_d;
  logic [2:0]   vc_q, vc_d;
  logic [31:0]  crc_q, crc_d;
  logic [15:0]  lseq_q, lseq_d;
  logic [1:0]   gap_why_q, gap_why_d;
  logic         hdr_clean_q, hdr_clean_d;
  logic         wr_valid_q, wr_valid_d;
  logic         wr_hf_q, wr_hf_d;
  logic [2:0]   wr_vc_q, wr_vc_d;
  logic [127:0] wr_data_q, wr_data_d;
  logic         cred_upd_valid_q, cred_upd_valid_d;
  logic [7:0]   cred_upd_stop_q, cred_upd_stop_d;
  logic [79:0]  cred_upd_usedw_q, cred_upd_usedw_d;
  logic [31:0]  stat_pkts_q, stat_pkts_d;
  logic [31:0]  stat_words_q, stat_words_d;
  logic [31:0]  stat_credits_q, stat_credits_d;
  logic [31:0]  stat_ecc_corr_q, stat_ecc_corr_d;
  logic [31:0]  stat_ecc_uncorr_q, stat_ecc_uncorr_d;
  logic [31:0]  stat_crc_err_q, stat_crc_err_d;
  logic [31:0]  stat_lost_q, stat_lost_d;
  logic [31:0]  stat_disc_hdr_q, stat_disc_hdr_d;
  logic [31:0]  stat_disc_framing_q, stat_disc_framing_d;
  logic [31:0]  stat_disc_resync_q, stat_disc_resync_d;
  logic [31:0]  stat_dropped_q, stat_dropped_d;
  logic [31:0]  stat_credit_err_q, stat_credit_err_d;

  assign wr_valid_o       = wr_valid_q;
  assign wr_hf_o          = wr_hf_q;
  assign wr_vc_o          = wr_vc_q;
  assign wr_data_o        = wr_data_q;
  assign cred_upd_valid_o = cred_upd_valid_q;
  assign cred_upd_stop_o  = cred_upd_stop_q;
  assign cred_upd_usedw_o = cred_upd_usedw_q;
  assign stat_pkts_o       = stat_pkts_q;
  assign stat_ecc_corr_o   = stat_ecc_corr_q;
  assign stat_ecc_uncorr_o = stat_ecc_uncorr_q;
  assign stat_crc_err_o    = stat_crc_err_q;
  assign stat_lost_o       = stat_lost_q;
  assign stat_disc_hdr_o     = stat_disc_hdr_q;
  assign stat_disc_framing_o = stat_disc_framing_q;
  assign stat_disc_resync_o  = stat_disc_resync_q;
  assign stat_dropped_o      = stat_dropped_q;

  // The word being completed (this beat on top of the saved low half), header-corrected.
  logic [127:0] word;
  logic [127:0] hdr_fixed;
  logic         hdr_corrected, hdr_uncorrectable;
  secded_pos_t  hdr_pos;
  assign word = {in_data_q, lo_q};

  exanet_secded_dec u_secded (
    .hdr_i           (word),
    .hdr_o           (hdr_fixed),
    .corrected_o     (hdr_corrected),
    .pos_o           (hdr_pos),
    .uncorrectable_o (hdr_uncorrectable)
  );

  // The CRC engine: the running state after the beat in in_q. The header's beats count only
  // their covered bits.
  logic [BEAT_W-1:0] crc_mask;
  logic [31:0]       crc_beat;
  logic [31:0]       crc_fix;  // what the header's corrected bit changes in crc_q
  assign crc_mask = (mode_q != M_HDR) ? '1 :
                    half_q ? HDR_CRC_MASK[WORD_W-1:BEAT_W] : HDR_CRC_MASK[BEAT_W-1:0];
  assign crc_beat = crc32c_update64(crc_q, in_data_q & crc_mask);
  assign crc_fix  = hdr_corrected ? CRC32C_FIX[32*32'(hdr_pos) +: 32] : 32'd0;

  // Majority of three 8-bit copies, {ok, value}; ok low when all three differ.
  function automatic logic [8:0] maj3_8(logic [7:0] a, logic [7:0] b, logic [7:0] c);
    if (a == b || a == c) begin
      return {1'b1, a};
    end else if (b == c) begin
      return {1'b1, b};
    end else begin
      return {1'b0, 8'd0};
    end
  endfunction

  // Majority of three 10-bit copies, {ok, value}.
  function automatic logic [10:0] maj3(logic [9:0] a, logic [9:0] b, logic [9:0] c);
    if (a == b || a == c) begin
      return {1'b1, a};
    end else if (b == c) begin
      return {1'b1, b};
    end else begin
      return {1'b0, 10'd0};
    end
  endfunction

  function automatic logic in_packet(logic [2:0] m);
    return m == M_HDR || m == M_PAY || m == M_FTR;
  endfunction

  // Is a beat with these top 16 bits the first beat of a credit?
  function automatic logic is_credit0(logic [15:0] top);
    if (cfg_usedword_i) begin
      return top[15:14] == CREDIT_UW_TAG && top[13:12] == 2'd0;
    end else begin
      return top == CREDIT_SS_TAG;
    end
  endfunction

  logic [8:0]  m_ss;
  logic [10:0] m_lo, m_hi;
  logic [79:0] acc;
  logic [12:0] words;
  logic [31:0] crc_final;
  logic        crc_bad;
  logic        do_credit, do_data, beat_ok, all_ok;
  logic        do_drop, hdr_bad;
  logic [15:0] f_lseq, gap;
  logic        gap_ok;
  logic [1:0]  credit_k;

  `EXANET_ALWAYS_COMB begin
    in_valid_d        = rx_valid_i;
    in_data_d         = rx_data_i;
    mode_d            = mode_q;
    half_d            = half_q;
    magic_d           = magic_q;
    cred_idx_d        = cred_idx_q;
    cred_ok_d         = cred_ok_q;
    cred_acc_d        = cred_acc_q;
    lo_d              = lo_q;
    words_left_d      = words_left_q;
    vc_d              = vc_q;
    crc_d             = crc_q;
    lseq_d            = lseq_q;
    gap_why_d         = gap_why_q;
    hdr_clean_d       = hdr_clean_q;
    wr_valid_d        = 1'b0;
    wr_hf_d           = wr_hf_q;
    wr_vc_d           = wr_vc_q;
    wr_data_d         = wr_data_q;
    cred_upd_valid_d  = 1'b0;
    cred_upd_stop_d   = cred_upd_stop_q;
    cred_upd_usedw_d  = cred_upd_usedw_q;
    stat_pkts_d       = stat_pkts_q;
    stat_words_d      = stat_words_q;
    stat_credits_d    = stat_credits_q;
    stat_ecc_corr_d   = stat_ecc_corr_q;
    stat_ecc_uncorr_d = stat_ecc_uncorr_q;
    stat_crc_err_d    = stat_crc_err_q;
    stat_lost_d       = stat_lost_q;
    stat_disc_hdr_d     = stat_disc_hdr_q;
    stat_disc_framing_d = stat_disc_framing_q;
    stat_disc_resync_d  = stat_disc_resync_q;
    stat_dropped_d    = stat_dropped_q;
    stat_credit_err_d = stat_credit_err_q;
    do_credit         = 1'b0;
    beat_ok           = 1'b0;
    all_ok            = 1'b0;
    do_data           = 1'b0;
    do_drop           = 1'b0;
    hdr_bad           = 1'b0;
    f_lseq            = '0;
    gap               = '0;
    gap_ok            = 1'b0;
    credit_k          = 2'd0;
    acc               = '0;
    words             = '0;
    crc_final         = '0;
    crc_bad           = 1'b0;
    m_ss              = maj3_8(in_data_q[7:0], in_data_q[15:8], in_data_q[23:16]);
    m_lo              = maj3(in_data_q[9:0], in_data_q[19:10], in_data_q[29:20]);
    m_hi              = maj3(in_data_q[39:30], in_data_q[49:40], in_data_q[59:50]);

    // Which action the beat in in_q calls for.
    if (in_valid_q) begin
      if (cred_idx_q != 2'd0) begin
        do_credit = 1'b1;
        credit_k  = cred_idx_q;
      end else if (magic_q) begin
        magic_d = 1'b0;
        if (in_packet(mode_q)) begin
          // inside a packet a MAGIC announces an escaped MAGIC or a credit, nothing else: the
          // packet keeps the length its header gave
          if (in_data_q == WIRE_MAGIC) begin
            do_data = 1'b1;
          end else begin
            do_credit = 1'b1;
          end
        end else if (in_data_q == WIRE_START) begin
          mode_d = M_HDR;
          half_d = 1'b0;
          crc_d  = CRC32C_INIT;
        end else if (is_credit0(in_data_q[63:48])) begin
          do_credit = 1'b1;
        end else if (in_data_q == WIRE_MAGIC && mode_q == M_DISCARD) begin
          // an escaped MAGIC inside a discarded packet
        end else begin
          do_drop = 1'b1;
        end
      end else if (in_data_q == WIRE_MAGIC) begin
        magic_d = 1'b1;
      end else if (in_packet(mode_q)) begin
        do_data = 1'b1;
      end else if (mode_q == M_IDLE && is_credit0(in_data_q[63:48])) begin
        do_credit = 1'b1;
      end else begin
        do_drop = 1'b1;
      end
    end

    // A beat the parser cannot place: dropped and counted; perhaps the first sign of a packet
    // whose framing was lost.
    if (do_drop) begin
      stat_dropped_d = stat_dropped_q + 32'd1;
      if (gap_why_q == GAP_NONE) begin
        gap_why_d = GAP_FRAMING;
      end
    end

    // Credit beat credit_k, consumed by position; checked (tag, index, majority); a credit with
    // a bad beat is rejected and counted at its last beat.
    if (do_credit) begin
      if (!cfg_usedword_i) begin
        if (in_data_q[CREDIT_SS_TAG_LSB +: CREDIT_SS_TAG_W] == CREDIT_SS_TAG && m_ss[8]) begin
          cred_upd_valid_d = 1'b1;
          cred_upd_stop_d  = m_ss[7:0] & VC_MASK;
          stat_credits_d   = stat_credits_q + 32'd1;
        end else begin
          stat_credit_err_d = stat_credit_err_q + 32'd1;
        end
        cred_idx_d = 2'd0;
      end else begin
        beat_ok = in_data_q[CREDIT_UW_TAG_LSB +: CREDIT_UW_TAG_W] == CREDIT_UW_TAG &&
                  in_data_q[CREDIT_UW_IDX_LSB +: CREDIT_UW_IDX_W] == credit_k &&
                  m_lo[10] && m_hi[10];
        acc = (credit_k == 2'd0) ? '0 : cred_acc_q;
        if (beat_ok) begin
          acc[20*32'(credit_k) +: 20] = {m_hi[9:0], m_lo[9:0]};
        end
        cred_acc_d = acc;
        all_ok     = ((credit_k == 2'd0) || cred_ok_q) && beat_ok;
        if (32'(credit_k) + 32'd1 == UW_BEATS) begin
          cred_idx_d = 2'd0;
          cred_ok_d  = 1'b0;
          if (all_ok) begin
            cred_upd_valid_d = 1'b1;
            // only the VCs that exist; the other slots report zero
            cred_upd_usedw_d = '0;
            for (int unsigned v = 0; v < NUM_VCS; v++) begin
              cred_upd_usedw_d[10*v +: 10] = acc[10*v +: 10];
            end
            stat_credits_d   = stat_credits_q + 32'd1;
          end else begin
            stat_credit_err_d = stat_credit_err_q + 32'd1;
          end
        end else begin
          cred_idx_d = credit_k + 2'd1;
          cred_ok_d  = all_ok;
        end
      end
    end

    // A data beat of the packet being received.
    if (do_data) begin
      if (!half_q) begin
        lo_d   = in_data_q;
        half_d = 1'b1;
        crc_d  = crc_beat;
      end else begin
        half_d = 1'b0;
        unique case (mode_q)
          M_HDR: begin
            if (hdr_uncorrectable) begin
              stat_ecc_uncorr_d = stat_ecc_uncorr_q + 32'd1;
              hdr_bad           = 1'b1;
            end else begin
              if (hdr_corrected) begin
                stat_ecc_corr_d = stat_ecc_corr_q + 32'd1;
              end
              hdr_clean_d = !hdr_corrected;
              if (32'(hdr_fixed[2:0]) >= NUM_VCS) begin
                hdr_bad = 1'b1;
              end else begin
                if (hdr_fixed[HDR_TYPE_LSB +: HDR_TYPE_W] == TYPE_ACK ||
                    hdr_fixed[HDR_TYPE_LSB +: HDR_TYPE_W] == TYPE_RATE) begin
                  words = '0;
                end else if (SIZE_IN_WORDS) begin
                  words = hdr_fixed[HDR_SIZE_LSB +: HDR_SIZE_W];
                end else begin
                  words = 13'((14'(hdr_fixed[HDR_SIZE_LSB +: HDR_SIZE_W]) + 14'd15) >> 4);
                end
                vc_d         = hdr_fixed[2:0];
                words_left_d = words;
                wr_valid_d   = 1'b1;
                wr_hf_d      = 1'b1;
                wr_vc_d      = hdr_fixed[2:0];
                wr_data_d    = hdr_fixed;
                crc_d        = crc_beat ^ crc_fix;  // crc32c_start(hdr_fixed)
                stat_words_d = stat_words_q + 32'd1;
                mode_d       = (words != '0) ? M_PAY : M_FTR;
              end
            end
            // a header that cannot be used: the packet is lost, counted, and the parser
            // discards to the next MAGIC START
            if (hdr_bad) begin
              stat_lost_d     = stat_lost_q + 32'd1;
              stat_disc_hdr_d = stat_disc_hdr_q + 32'd1;
              lseq_d          = lseq_q + 16'd1;
              if (gap_why_q == GAP_NONE) begin
                gap_why_d = GAP_RESYNC;
              end
              mode_d = M_DISCARD;
            end
          end
          M_PAY: begin
            wr_valid_d   = 1'b1;
            wr_hf_d      = 1'b0;
            wr_vc_d      = vc_q;
            wr_data_d    = word;
            crc_d        = crc_beat;
            words_left_d = words_left_q - 13'd1;
            stat_words_d = stat_words_q + 32'd1;
            if (words_left_q == 13'd1) begin
              mode_d = M_FTR;
            end
          end
          default: begin
            crc_final    = crc_q ^ CRC32C_XOROUT;  // after the footer's low half
            crc_bad      = crc_final != word[FTR_CRC_LSB +: FTR_CRC_W];
            wr_valid_d   = 1'b1;
            wr_hf_d      = 1'b1;
            wr_vc_d      = vc_q;
            wr_data_d    = word;
            // the link sequence fields are this link's only: written as zero, so the packet
            // leaves as it entered
            wr_data_d[FTR_LSEQ_LSB +: FTR_LSEQ_W]         = '0;
            wr_data_d[FTR_LSEQ_CHK_LSB +: FTR_LSEQ_CHK_W] = '0;
            wr_data_d[FTR_CRC_BAD_LSB] = word[FTR_CRC_BAD_LSB] | crc_bad;
            stat_words_d = stat_words_q + 32'd1;
            stat_pkts_d  = stat_pkts_q + 32'd1;
            if (crc_bad) begin
              stat_crc_err_d = stat_crc_err_q + 32'd1;
            end
            // a footer whose CRC and sequence check both hold says how many packets the TX
            // sent before this one; those not yet accounted for were lost. A footer whose CRC
            // failed is believed for a small gap after a clean header.
            f_lseq = word[FTR_LSEQ_LSB +: FTR_LSEQ_W];
            gap    = f_lseq - lseq_q;
            gap_ok = (lseq_chk(f_lseq) == word[FTR_LSEQ_CHK_LSB +: FTR_LSEQ_CHK_W]) &&
                     (gap < LSEQ_WINDOW) && (!crc_bad || (hdr_clean_q && (gap < LSEQ_NEAR)));
            if (gap_ok) begin
              stat_lost_d = stat_lost_q + 32'(gap);
              if (gap_why_q == GAP_RESYNC) begin
                stat_disc_resync_d = stat_disc_resync_q + 32'(gap);
              end else begin
                stat_disc_framing_d = stat_disc_framing_q + 32'(gap);
              end
              lseq_d    = f_lseq + 16'd1;
              gap_why_d = GAP_NONE;
            end else begin
              lseq_d = lseq_q + 16'd1;
            end
            mode_d = M_IDLE;
          end
        endcase
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_valid_q        <= 1'b0;
      in_data_q         <= '0;
      mode_q            <= M_IDLE;
      half_q            <= 1'b0;
      magic_q           <= 1'b0;
      cred_idx_q        <= '0;
      cred_ok_q         <= 1'b0;
      cred_acc_q        <= '0;
      lo_q              <= '0;
      words_left_q      <= '0;
      vc_q              <= '0;
      crc_q             <= CRC32C_INIT;
      lseq_q            <= '0;
      gap_why_q         <= GAP_NONE;
      hdr_clean_q       <= 1'b0;
      wr_valid_q        <= 1'b0;
      wr_hf_q           <= 1'b0;
      wr_vc_q           <= '0;
      wr_data_q         <= '0;
      cred_upd_valid_q  <= 1'b0;
      cred_upd_stop_q   <= '0;
      cred_upd_usedw_q  <= '0;
      stat_pkts_q       <= '0;
      stat_words_q      <= '0;
      stat_credits_q    <= '0;
      stat_ecc_corr_q   <= '0;
      stat_ecc_uncorr_q <= '0;
      stat_crc_err_q    <= '0;
      stat_lost_q       <= '0;
      stat_disc_hdr_q     <= '0;
      stat_disc_framing_q <= '0;
      stat_disc_resync_q  <= '0;
      stat_dropped_q    <= '0;
      stat_credit_err_q <= '0;
    end else begin
      in_valid_q        <= in_valid_d;
      in_data_q         <= in_data_d;
      mode_q            <= mode_d;
      half_q            <= half_d;
      magic_q           <= magic_d;
      cred_idx_q        <= cred_idx_d;
      cred_ok_q         <= cred_ok_d;
      cred_acc_q        <= cred_acc_d;
      lo_q              <= lo_d;
      words_left_q      <= words_left_d;
      vc_q              <= vc_d;
      crc_q             <= crc_d;
      lseq_q            <= lseq_d;
      gap_why_q         <= gap_why_d;
      hdr_clean_q       <= hdr_clean_d;
      wr_valid_q        <= wr_valid_d;
      wr_hf_q           <= wr_hf_d;
      wr_vc_q           <= wr_vc_d;
      wr_data_q         <= wr_data_d;
      cred_upd_valid_q  <= cred_upd_valid_d;
      cred_upd_stop_q   <= cred_upd_stop_d;
      cred_upd_usedw_q  <= cred_upd_usedw_d;
      stat_pkts_q       <= stat_pkts_d;
      stat_words_q      <= stat_words_d;
      stat_credits_q    <= stat_credits_d;
      stat_ecc_corr_q   <= stat_ecc_corr_d;
      stat_ecc_uncorr_q <= stat_ecc_uncorr_d;
      stat_crc_err_q    <= stat_crc_err_d;
      stat_lost_q       <= stat_lost_d;
      stat_disc_hdr_q     <= stat_disc_hdr_d;
      stat_disc_framing_q <= stat_disc_framing_d;
      stat_disc_resync_q  <= stat_disc_resync_d;
      stat_dropped_q    <= stat_dropped_d;
      stat_credit_err_q <= stat_credit_err_d;
    end
  end

endmodule
