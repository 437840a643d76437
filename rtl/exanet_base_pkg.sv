// exanet_base_pkg: constants and pure functions of the ExaNet packet and APElink wire format.
//
// Models the packet of Biagioni 2017 §5.3.2 (128-bit header with an error detection and correction
// code, payload of 128-bit words, 128-bit footer with a CRC) and the wire words of the APElink
// TCL (002 §5.3.4). The bit positions are the project's layout table, `FIELDS` in
// `src/packet/layout.rs` and the tables of `docs/packet.md`; `tests/packet_layout.rs` checks that
// the HDR_*/FTR_* localparams below equal that table. The functions give bit-for-bit the results
// of the Rust model (`packet::secded`, `packet::crc`, `packet::payload_words`).
//
// Bit 0 is the LSB of a 128-bit word; on the 64-bit wire bits 63:0 go first.

// `EXANET_ALWAYS_COMB, the process keyword of every combinational block in rtl/: `always_comb`,
// but `always @*` under Icarus Verilog. Icarus 11.0 (Debian 12's) joins the waits of all
// always_comb processes to one event input, so a value written in one wakes unrelated others, and
// two that write intermediate values wake each other for ever at one instant (the bug of
// steveicarus/iverilog#508, fixed after 11.0; docs/rtl-portability.md). Icarus's `always @*`
// reads the same signals, those read inside called functions included. Defined here because
// every tool reads this package first, in one compilation unit (yosys-slang: --single-unit).
`ifndef EXANET_ALWAYS_COMB
`ifdef __ICARUS__
`define EXANET_ALWAYS_COMB always @*
`else
`define EXANET_ALWAYS_COMB always_comb
`endif
`endif

package exanet_base_pkg;

  // ---------------------------------------------------------------------------------------------
  // Layout: <word>_<FIELD>_LSB is the field's lowest bit, <word>_<FIELD>_W its width.
  // ---------------------------------------------------------------------------------------------

  localparam bit [31:0] WORD_W = 128;  // header, footer and payload word width
  localparam bit [31:0] BEAT_W = 64;   // APElink wire beat width

  // Header.
  localparam bit [31:0] HDR_VC_LSB       = 0;    // virtual channel
  localparam bit [31:0] HDR_VC_W         = 3;
  localparam bit [31:0] HDR_TYPE_LSB     = 3;    // packet type, see TYPE_*
  localparam bit [31:0] HDR_TYPE_W       = 2;
  localparam bit [31:0] HDR_SIZE_LSB     = 5;    // payload length, bytes (or words)
  localparam bit [31:0] HDR_SIZE_W       = 13;
  localparam bit [31:0] HDR_DST_X_LSB    = 18;   // destination coordinates
  localparam bit [31:0] HDR_DST_X_W      = 8;
  localparam bit [31:0] HDR_DST_Y_LSB    = 26;
  localparam bit [31:0] HDR_DST_Y_W      = 8;
  localparam bit [31:0] HDR_DST_Z_LSB    = 34;
  localparam bit [31:0] HDR_DST_Z_W      = 8;
  localparam bit [31:0] HDR_PDID_LSB     = 42;   // protection domain ID
  localparam bit [31:0] HDR_PDID_W       = 12;
  localparam bit [31:0] HDR_DST_ADDR_LSB = 54;   // destination (virtual) memory address
  localparam bit [31:0] HDR_DST_ADDR_W   = 48;
  localparam bit [31:0] HDR_DST_PORT_LSB = 102;  // intra-tile port at the destination node
  localparam bit [31:0] HDR_DST_PORT_W   = 3;
  localparam bit [31:0] HDR_ROUTE_LSB    = 105;  // routing state of network-scale algorithms
  localparam bit [31:0] HDR_ROUTE_W      = 8;
  localparam bit [31:0] HDR_RSVD_LSB     = 113;  // reserved, zero
  localparam bit [31:0] HDR_RSVD_W       = 7;
  localparam bit [31:0] HDR_ECC_LSB      = 120;  // SECDED check bits over bits 119:0
  localparam bit [31:0] HDR_ECC_W        = 8;

  // Footer.
  localparam bit [31:0] FTR_CHAN_ID_LSB  = 0;    // outstanding-packet (channel) ID
  localparam bit [31:0] FTR_CHAN_ID_W    = 16;
  localparam bit [31:0] FTR_SRC_X_LSB    = 16;   // source coordinates
  localparam bit [31:0] FTR_SRC_X_W      = 8;
  localparam bit [31:0] FTR_SRC_Y_LSB    = 24;
  localparam bit [31:0] FTR_SRC_Y_W      = 8;
  localparam bit [31:0] FTR_SRC_Z_LSB    = 32;
  localparam bit [31:0] FTR_SRC_Z_W      = 8;
  localparam bit [31:0] FTR_VALID_LSB    = 40;   // index of the last valid byte
  localparam bit [31:0] FTR_VALID_W      = 4;
  localparam bit [31:0] FTR_USER_LSB     = 44;   // user-defined
  localparam bit [31:0] FTR_USER_W       = 20;
  localparam bit [31:0] FTR_CRC_BAD_LSB  = 64;   // set by a TCL whose CRC check failed
  localparam bit [31:0] FTR_CRC_BAD_W    = 1;
  localparam bit [31:0] FTR_LSEQ_LSB     = 65;   // link sequence number (TCL to TCL only)
  localparam bit [31:0] FTR_LSEQ_W       = 16;
  localparam bit [31:0] FTR_LSEQ_CHK_LSB = 81;   // CRC-15 of lseq (TCL to TCL only)
  localparam bit [31:0] FTR_LSEQ_CHK_W   = 15;
  localparam bit [31:0] FTR_CRC_LSB      = 96;   // CRC-32C of header, payload, footer 63:0
  localparam bit [31:0] FTR_CRC_W        = 32;

  // Packet types (header field `type`). ACK and RATE carry no payload; the reserved code is
  // routed and sized like RDMA.
  localparam logic [HDR_TYPE_W-1:0] TYPE_RDMA = 2'd0;
  localparam logic [HDR_TYPE_W-1:0] TYPE_ACK  = 2'd1;
  localparam logic [HDR_TYPE_W-1:0] TYPE_RATE = 2'd2;
  localparam logic [HDR_TYPE_W-1:0] TYPE_RSVD = 2'd3;

  // Payload words of the largest packet header `size` can describe in byte mode
  // (ceil(8191/16) = 512) need 10 bits; see hdr_payload_words.
  localparam bit [31:0] PAYLOAD_WORDS_W = 10;

  // ---------------------------------------------------------------------------------------------
  // Wire constants (64-bit beats of the APElink TCL).
  // ---------------------------------------------------------------------------------------------

  // Precedes every control frame (a Start, or a credit sent inside a packet).
  localparam logic [BEAT_W-1:0] WIRE_MAGIC = 64'hB5A5_5AA5_C33C_0FF0;
  // Follows a Magic: the next two beats are a header.
  localparam logic [BEAT_W-1:0] WIRE_START = 64'h9E37_79B9_7F4A_7C15;
  // Tag in bits 63:48 of a start/stop credit beat.
  localparam bit [31:0] CREDIT_SS_TAG_LSB = 48;
  localparam bit [31:0] CREDIT_SS_TAG_W   = 16;
  localparam logic [CREDIT_SS_TAG_W-1:0] CREDIT_SS_TAG = 16'hCCCC;
  // Tag in bits 63:62 of every usedword credit beat; the beat index sits in bits 61:60.
  localparam bit [31:0] CREDIT_UW_TAG_LSB = 62;
  localparam bit [31:0] CREDIT_UW_TAG_W   = 2;
  localparam logic [CREDIT_UW_TAG_W-1:0] CREDIT_UW_TAG = 2'b11;
  localparam bit [31:0] CREDIT_UW_IDX_LSB = 60;
  localparam bit [31:0] CREDIT_UW_IDX_W   = 2;

  // ---------------------------------------------------------------------------------------------
  // Header ECC: extended Hamming (128,120) SECDED.
  //
  // Hamming positions 1..127: check bit j (header bit 120+j, j = 0..6) at position 2^j, data bit
  // d[i] (header bit i) at the i-th non-power-of-two position (3, 5, 6, 7, 9, ...). ecc[6:0] is
  // the XOR of the positions of the set data bits; ecc[7] (header bit 127, position 0) makes the
  // word even parity.
  // ---------------------------------------------------------------------------------------------

  localparam bit [31:0] SECDED_DATA_W  = HDR_ECC_LSB;  // protected bits 119:0
  localparam bit [31:0] SECDED_CHECK_W = 7;            // Hamming check bits, without ecc[7]

  typedef logic [SECDED_CHECK_W-1:0] secded_pos_t;

  // Hamming position of every bit of the 128-bit header (elaboration-time constant), bit b's in
  // bits b*SECDED_CHECK_W +: SECDED_CHECK_W. A flat vector, not a packed array of secded_pos_t:
  // Icarus Verilog 11 reads no packed array of a typedef (docs/rtl-portability.md).
  function automatic logic [WORD_W*SECDED_CHECK_W-1:0] secded_positions();
    logic [WORD_W*SECDED_CHECK_W-1:0] pos_tbl;
    int unsigned                      data_idx;
    pos_tbl  = '0;
    data_idx = 0;
    for (int unsigned pos = 1; pos < WORD_W; pos++) begin
      if ((pos & (pos - 1)) == 0) begin
        pos_tbl[(SECDED_DATA_W + $clog2(pos))*SECDED_CHECK_W +: SECDED_CHECK_W] = secded_pos_t'(pos);
      end else begin
        pos_tbl[data_idx*SECDED_CHECK_W +: SECDED_CHECK_W] = secded_pos_t'(pos);
        data_idx++;
      end
    end
    return pos_tbl;  // header bit WORD_W-1 stays 0: ecc[7]
  endfunction

  localparam logic [WORD_W*SECDED_CHECK_W-1:0] SECDED_POS = secded_positions();

  // Hamming position of header bit `b`.
  function automatic secded_pos_t secded_pos(int unsigned b);
    return SECDED_POS[b*SECDED_CHECK_W +: SECDED_CHECK_W];
  endfunction

  // ecc[6:0] of header bits 119:0.
  function automatic secded_pos_t secded_hamming(logic [SECDED_DATA_W-1:0] data);
    secded_pos_t check;
    check = '0;
    for (int unsigned i = 0; i < SECDED_DATA_W; i++) begin
      if (data[i]) begin
        check ^= secded_pos(i);
      end
    end
    return check;
  endfunction

  // The full header: bits 119:0 of `data` with ecc[7:0] in bits 127:120.
  function automatic logic [WORD_W-1:0] secded_encode(logic [SECDED_DATA_W-1:0] data);
    secded_pos_t check;
    check = secded_hamming(data);
    return {^{check, data}, check, data};
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Footer CRC: CRC-32C (Castagnoli), reflected polynomial 0x82F63B78, init and final XOR
  // 0xFFFFFFFF. The update functions take and return the running (un-finalised) state; bytes go
  // in little-endian order (bits 7:0 first), each byte LSB first.
  // ---------------------------------------------------------------------------------------------

  localparam logic [31:0] CRC32C_POLY   = 32'h82F6_3B78;
  localparam logic [31:0] CRC32C_INIT   = 32'hFFFF_FFFF;
  localparam logic [31:0] CRC32C_XOROUT = 32'hFFFF_FFFF;

  // Running state after one 64-bit beat.
  function automatic logic [31:0] crc32c_update64(logic [31:0] crc, logic [BEAT_W-1:0] data);
    logic [31:0] state;
    state = crc;
    for (int unsigned i = 0; i < BEAT_W; i++) begin
      state = (state[0] ^ data[i]) ? ((state >> 1) ^ CRC32C_POLY) : (state >> 1);
    end
    return state;
  endfunction

  // Running state after one 128-bit word (its low beat first).
  function automatic logic [31:0] crc32c_update128(logic [31:0] crc, logic [WORD_W-1:0] data);
    return crc32c_update64(crc32c_update64(crc, data[BEAT_W-1:0]), data[WORD_W-1:BEAT_W]);
  endfunction

  // Header bits the CRC covers: all but vc, route and ecc, which are rewritten on the way.
  localparam logic [WORD_W-1:0] HDR_CRC_MASK =
      ~((WORD_W'((1 << HDR_VC_W) - 1) << HDR_VC_LSB) |
        (WORD_W'((1 << HDR_ROUTE_W) - 1) << HDR_ROUTE_LSB) |
        (WORD_W'((1 << HDR_ECC_W) - 1) << HDR_ECC_LSB));

  // Running state after a packet's header: where the CRC of every packet starts.
  function automatic logic [31:0] crc32c_start(logic [WORD_W-1:0] hdr);
    return crc32c_update128(CRC32C_INIT, hdr & HDR_CRC_MASK);
  endfunction

  // What correcting one header bit changes in the running state after the header, by the
  // bit's Hamming position p (secded_pos): entry p, bits 32p +: 32, is the CRC from a zero
  // state of a header whose only set bit is that one, masked by HDR_CRC_MASK. The CRC is linear
  // in its data, so crc32c_start(hdr ^ flip) = crc32c_start(hdr) ^ entry p for the one-bit
  // flip at position p: a TCL RX runs its CRC on the received beats and adds the entry when
  // its SECDED decoder corrects a bit (exanet_tcl_rx). Elaboration-time constant. The CRC
  // loop of crc32c_update64 is written out here and SECDED_POS read directly: Icarus Verilog
  // 11 takes no function call inside a constant function (docs/rtl-portability.md).
  function automatic logic [WORD_W*32-1:0] crc32c_fix_table();
    logic [WORD_W*32-1:0] tbl;
    logic [WORD_W-1:0]    data;
    logic [31:0]          state;
    tbl = '0;
    for (int unsigned b = 0; b < WORD_W; b++) begin
      data  = (WORD_W'(1) << b) & HDR_CRC_MASK;
      state = '0;
      for (int unsigned i = 0; i < WORD_W; i++) begin
        state = (state[0] ^ data[i]) ? ((state >> 1) ^ CRC32C_POLY) : (state >> 1);
      end
      tbl[32*32'(SECDED_POS[b*SECDED_CHECK_W +: SECDED_CHECK_W]) +: 32] = state;
    end
    return tbl;
  endfunction

  localparam logic [WORD_W*32-1:0] CRC32C_FIX = crc32c_fix_table();

  // ---------------------------------------------------------------------------------------------
  // Link sequence number (src/link/lseq.rs, docs/decisions/0016): footer bits 95:65, between two
  // TCLs only. CRC-15/CAN (0x4599, init 0, MSB first) of the 16-bit number.
  // ---------------------------------------------------------------------------------------------

  localparam logic [14:0] LSEQ_POLY   = 15'h4599;
  localparam logic [15:0] LSEQ_WINDOW = 16'h8000;  // gaps believed below this
  localparam logic [15:0] LSEQ_NEAR   = 16'd64;    // ... below this after a bad CRC

  function automatic logic [FTR_LSEQ_CHK_W-1:0] lseq_chk(logic [FTR_LSEQ_W-1:0] lseq);
    logic [14:0] crc;
    logic        fb;
    crc = '0;
    for (int i = FTR_LSEQ_W - 1; i >= 0; i--) begin
      fb  = lseq[i] ^ crc[14];
      crc = {crc[13:0], 1'b0} ^ (fb ? LSEQ_POLY : 15'd0);
    end
    return crc;
  endfunction

  // A footer's high beat (bits 127:64) with lseq and its check written in.
  function automatic logic [BEAT_W-1:0] lseq_stamp(logic [BEAT_W-1:0] hi,
                                                   logic [FTR_LSEQ_W-1:0] lseq);
    logic [BEAT_W-1:0] r;
    r = hi;
    r[FTR_LSEQ_LSB - BEAT_W +: FTR_LSEQ_W]         = lseq;
    r[FTR_LSEQ_CHK_LSB - BEAT_W +: FTR_LSEQ_CHK_W] = lseq_chk(lseq);
    return r;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Payload length.
  // ---------------------------------------------------------------------------------------------

  // Payload words of a packet from its header: 0 for ACK and RATE, else ceil(size/16) in byte
  // mode and size in word mode. Word-mode sizes above 1023 do not fit the result (the largest
  // packet, 4096 bytes, is 256 words).
  function automatic logic [PAYLOAD_WORDS_W-1:0] hdr_payload_words(logic [WORD_W-1:0] hdr,
                                                                    logic size_in_words);
    logic [HDR_TYPE_W-1:0]      pkt_type;
    logic [HDR_SIZE_W-1:0]      size;
    logic [PAYLOAD_WORDS_W-1:0] words;
    logic                       unused_hdr;  // only type and size matter here
    unused_hdr = ^hdr;
    pkt_type   = hdr[HDR_TYPE_LSB +: HDR_TYPE_W];
    size       = hdr[HDR_SIZE_LSB +: HDR_SIZE_W];
    if (pkt_type == TYPE_ACK || pkt_type == TYPE_RATE) begin
      words = '0;
    end else if (size_in_words) begin
      words = PAYLOAD_WORDS_W'(size);
    end else begin
      words = PAYLOAD_WORDS_W'(size >> 4) + PAYLOAD_WORDS_W'(|size[3:0]);
    end
    return words;
  endfunction

endpackage
