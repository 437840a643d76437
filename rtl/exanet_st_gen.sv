// exanet_st_gen: the self-test Traffic Generator of one intra-tile port (Biagioni 2017 §5.4.2): it
// fills the port's TX packet FIFO (the router's input FIFO) with packets configured through the
// Target Controller (type, size, destination coordinates and port, VC, count).
//
//   start_i, enabled_i, cfg_* (Target Controller) --> +------------+ --> wr_hf_o, wr_pay_o, wdata_o
//   hf_usedw_i, pay_usedw_i (the TX FIFO's fill) ----> | st_gen     | --> active_o, sent_o
//                                                      +------------+
//
// Cycle contract: at start_i it latches ST_PKT, ST_DEST and ST_COUNT (so register writes during
// a transfer cannot tear a packet), then writes one word a cycle into the port's header/footer
// or payload FIFO, in packet order (header, payload words, footer), never overflowing a FIFO: it
// writes only when the FIFO, counting the write it has in flight (wr_hf_q / wr_pay_q), has
// room. Writes are registered (wr_*_q, wdata_q). Payload word k of packet n is
// {PORT[7:0], n[23:0], k[31:0], (k * 0x9E3779B97F4A7C15 mod 2^64) ^ n}; the header carries its
// SECDED code and the destination address {PORT, n}; the footer carries the source
// coordinates (the live COORD register), the packet number, PORT in its user field, and the
// CRC-32C of the payload and the footer's low half. The Target Controller refuses a start while
// any generator is active. Its ST_GEN_EN bit cleared during a run (enabled_i low), the generator
// finishes the packet it is writing and stops before the next header; the node keeps the port's
// FIFO the generator's until then (decision 0043), so no word is written by two masters or lost.
//
// Model twin: src/node/selftest.rs (TrafficGen); keep the two line for line.

module exanet_st_gen
  import exanet_base_pkg::*;
  import exanet_base_regs_pkg::*;
#(
  /// The intra-tile port this generator drives (header address, payload, footer user field).
  parameter bit [31:0] PORT          = 0,
  /// Depth of the port's header/footer TX FIFO, words (power of two).
  parameter bit [31:0] HF_DEPTH      = 128,
  /// Depth of the port's payload TX FIFO, words (power of two).
  parameter bit [31:0] PAY_DEPTH     = 4096,
  /// The header size field counts words instead of bytes.
  parameter bit          SIZE_IN_WORDS = 1'b0,
  localparam bit [31:0] HF_AW        = $clog2(HF_DEPTH),
  localparam bit [31:0] PAY_AW       = $clog2(PAY_DEPTH)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,       // Target Controller's one-cycle start
  input  logic            enabled_i,     // this port's bit of ST_GEN_EN
  input  logic [31:0]     cfg_pkt_i,     // ST_PKT: [12:0] size, [14:13] type, [17:15] VC
  input  logic [31:0]     cfg_dest_i,    // ST_DEST: [7:0] X, [15:8] Y, [23:16] Z, [26:24] port
  input  logic [31:0]     cfg_count_i,   // ST_COUNT
  input  logic [23:0]     cfg_coord_i,   // COORD[23:0]: this node, for the footer
  input  logic [HF_AW:0]  hf_usedw_i,    // TX header/footer FIFO, write-side fill
  input  logic [PAY_AW:0] pay_usedw_i,   // TX payload FIFO, write-side fill
  output logic            wr_hf_o,
  output logic            wr_pay_o,
  output logic [127:0]    wdata_o,
  output logic            active_o,
  output logic [31:0]     sent_o
);

  // Payload pattern multiplier (the golden ratio in 64 bits).
  localparam logic [63:0] PAY_MUL = 64'h9E37_79B9_7F4A_7C15;

  logic [31:0]  pkt_q, pkt_d;
  logic [31:0]  dest_q, dest_d;
  logic [31:0]  count_q, count_d;
  logic         active_q, active_d;
  logic [31:0]  sent_q, sent_d;
  logic [12:0]  widx_q, widx_d;
  logic [31:0]  crc_q, crc_d;
  logic         wr_hf_q, wr_hf_d;
  logic         wr_pay_q, wr_pay_d;
  logic [127:0] wdata_q, wdata_d;

  assign wr_hf_o  = wr_hf_q;
  assign wr_pay_o = wr_pay_q;
  assign wdata_o  = wdata_q;
  assign active_o = active_q;
  assign sent_o   = sent_q;

  logic [HDR_TYPE_W-1:0]    kind;
  logic [HDR_SIZE_W-1:0]    size;
  logic [SECDED_DATA_W-1:0] hdr_data;
  logic [WORD_W-1:0]        hdr;
  logic [13:0]              words;
  logic                     is_hf, full;
  logic [31:0]              pay_k;
  logic [63:0]              pay_lo;
  logic [WORD_W-1:0]        pay_word;
  logic                     carries;
  logic [FTR_VALID_W-1:0]   valid;
  logic [WORD_W-1:0]        ftr;
  logic [31:0]              ftr_crc;

  // Packet `sent_q` of the latched configuration: header, payload word widx_q - 1, footer.
  `EXANET_ALWAYS_COMB begin
    kind     = pkt_q[ST_PKT_TYPE_LSB +: ST_PKT_TYPE_W];
    size     = pkt_q[ST_PKT_SIZE_LSB +: ST_PKT_SIZE_W];

    hdr_data = '0;
    hdr_data[HDR_VC_LSB +: HDR_VC_W]             = pkt_q[ST_PKT_VC_LSB +: ST_PKT_VC_W];
    hdr_data[HDR_TYPE_LSB +: HDR_TYPE_W]         = kind;
    hdr_data[HDR_SIZE_LSB +: HDR_SIZE_W]         = size;
    hdr_data[HDR_DST_X_LSB +: HDR_DST_X_W]       = dest_q[0 +: COORD_W];
    hdr_data[HDR_DST_Y_LSB +: HDR_DST_Y_W]       = dest_q[COORD_W +: COORD_W];
    hdr_data[HDR_DST_Z_LSB +: HDR_DST_Z_W]       = dest_q[2*COORD_W +: COORD_W];
    hdr_data[HDR_DST_PORT_LSB +: HDR_DST_PORT_W] = dest_q[ST_DEST_PORT_LSB +: ST_DEST_PORT_W];
    hdr_data[HDR_DST_ADDR_LSB +: HDR_DST_ADDR_W] = {16'(PORT), sent_q};
    hdr      = secded_encode(hdr_data);

    // Payload words announced by the header (ACK and RATE carry none).
    if (kind == TYPE_ACK || kind == TYPE_RATE) begin
      words = '0;
    end else if (SIZE_IN_WORDS) begin
      words = 14'(size);
    end else begin
      words = 14'((14'(size) + 14'd15) >> 4);
    end
    is_hf    = widx_q == '0 || 14'(widx_q) == words + 14'd1;
    full     = is_hf ? (32'(hf_usedw_i) + 32'(wr_hf_q) >= HF_DEPTH)
                     : (32'(pay_usedw_i) + 32'(wr_pay_q) >= PAY_DEPTH);

    pay_k    = 32'(widx_q) - 32'd1;
    pay_lo   = (64'(pay_k) * PAY_MUL) ^ 64'(sent_q);
    pay_word = {8'(PORT), sent_q[23:0], pay_k, pay_lo};

    carries  = kind != TYPE_ACK && kind != TYPE_RATE;
    if (!carries || size == '0) begin
      valid = '0;
    end else if (SIZE_IN_WORDS) begin
      valid = '1;
    end else begin
      valid = FTR_VALID_W'(size - 13'd1);
    end
    ftr = '0;
    ftr[FTR_CHAN_ID_LSB +: FTR_CHAN_ID_W] = sent_q[FTR_CHAN_ID_W-1:0];
    ftr[FTR_SRC_X_LSB +: FTR_SRC_X_W]     = cfg_coord_i[0 +: COORD_W];
    ftr[FTR_SRC_Y_LSB +: FTR_SRC_Y_W]     = cfg_coord_i[COORD_W +: COORD_W];
    ftr[FTR_SRC_Z_LSB +: FTR_SRC_Z_W]     = cfg_coord_i[2*COORD_W +: COORD_W];
    ftr[FTR_VALID_LSB +: FTR_VALID_W]     = valid;
    ftr[FTR_USER_LSB +: FTR_USER_W]       = FTR_USER_W'(PORT);
    ftr_crc  = crc32c_update64(crc_q, ftr[BEAT_W-1:0]) ^ CRC32C_XOROUT;
    ftr[FTR_CRC_LSB +: FTR_CRC_W]         = ftr_crc;
  end

  `EXANET_ALWAYS_COMB begin
    pkt_d    = pkt_q;
    dest_d   = dest_q;
    count_d  = count_q;
    active_d = active_q;
    sent_d   = sent_q;
    widx_d   = widx_q;
    crc_d    = crc_q;
    wr_hf_d  = 1'b0;
    wr_pay_d = 1'b0;
    wdata_d  = '0;
    if (start_i) begin
      pkt_d    = cfg_pkt_i;
      dest_d   = cfg_dest_i;
      count_d  = cfg_count_i;
      active_d = enabled_i && cfg_count_i != '0;
      sent_d   = '0;
      widx_d   = '0;
      crc_d    = CRC32C_INIT;
    end else if (active_q && !enabled_i && widx_q == '0) begin
      // ST_GEN_EN cleared during the run: the generator stops between packets (decision 0043)
      active_d = 1'b0;
    end else if (active_q && !full) begin
      if (widx_q == '0) begin
        wr_hf_d = 1'b1;
        wdata_d = hdr;
        crc_d   = crc32c_start(hdr);
        widx_d  = 13'd1;
      end else if (14'(widx_q) <= words) begin
        wr_pay_d = 1'b1;
        wdata_d  = pay_word;
        crc_d    = crc32c_update128(crc_q, pay_word);
        widx_d   = widx_q + 13'd1;
      end else begin
        wr_hf_d  = 1'b1;
        wdata_d  = ftr;
        widx_d   = '0;
        sent_d   = sent_q + 32'd1;
        active_d = sent_q + 32'd1 != count_q;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pkt_q    <= '0;
      dest_q   <= '0;
      count_q  <= '0;
      active_q <= 1'b0;
      sent_q   <= '0;
      widx_q   <= '0;
      crc_q    <= '0;
      wr_hf_q  <= 1'b0;
      wr_pay_q <= 1'b0;
      wdata_q  <= '0;
    end else begin
      pkt_q    <= pkt_d;
      dest_q   <= dest_d;
      count_q  <= count_d;
      active_q <= active_d;
      sent_q   <= sent_d;
      widx_q   <= widx_d;
      crc_q    <= crc_d;
      wr_hf_q  <= wr_hf_d;
      wr_pay_q <= wr_pay_d;
      wdata_q  <= wdata_d;
    end
  end

`ifdef EXANET_ASSERT
  // A write never meets a full FIFO (the room check counts the write in flight).
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(wr_hf_q && 32'(hf_usedw_i) >= HF_DEPTH))
        else $error("exanet_st_gen: header/footer write into a full FIFO");
      assert (!(wr_pay_q && 32'(pay_usedw_i) >= PAY_DEPTH))
        else $error("exanet_st_gen: payload write into a full FIFO");
    end
  end
`endif

endmodule
