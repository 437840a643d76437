// Unit-test top for the packet's check codes (testbench only, not part of the IP).
//
// It exists so `tests/rtl_units.rs` can drive the header SECDED encoder and decoder and the
// footer CRC-32C step, at both widths, and the TCL RX's CRC correction table from Rust through
// the Verilator bridge and compare every result with the Rust model (`packet::secded_encode`,
// `packet::secded_decode`, `packet::crc32c_update64`, `packet::crc32c_update128`,
// `packet::crc_correction`). Codes and layout: docs/packet.md.
//
// Purely combinational: no clock, no reset, no registers. Each instance's ports are brought out
// unchanged under the instance's prefix, so one `eval` after setting the inputs gives all the
// results.
//
//   enc_data_i      --[ u_secded_enc ]-- enc_hdr_o
//   dec_hdr_i       --[ u_secded_dec ]-- dec_hdr_o, dec_corrected_o, dec_pos_o,
//                                        dec_uncorrectable_o
//   fix_pos_i       --[ CRC32C_FIX   ]-- fix_crc_o    (entry fix_pos_i of the package's table)
//   crc64_crc_i,
//   crc64_data_i    --[ u_crc64  (WIDTH 64)  ]-- crc64_crc_o
//   crc128_crc_i,
//   crc128_data_i   --[ u_crc128 (WIDTH 128) ]-- crc128_crc_o

module exanet_units_top
  import exanet_base_pkg::*;
(
  // SECDED encoder: header bits 119:0 in, header with check bits out.
  input  logic [SECDED_DATA_W-1:0] enc_data_i,
  output logic [WORD_W-1:0]        enc_hdr_o,
  // SECDED decoder: received header in, corrected header and verdict out.
  input  logic [WORD_W-1:0]        dec_hdr_i,
  output logic [WORD_W-1:0]        dec_hdr_o,
  output logic                     dec_corrected_o,
  output secded_pos_t              dec_pos_o,
  output logic                     dec_uncorrectable_o,
  // The TCL RX's CRC correction of a header bit, by its Hamming position.
  input  secded_pos_t              fix_pos_i,
  output logic [31:0]              fix_crc_o,
  // CRC-32C step over one 64-bit wire beat.
  input  logic [31:0]              crc64_crc_i,
  input  logic [BEAT_W-1:0]        crc64_data_i,
  output logic [31:0]              crc64_crc_o,
  // CRC-32C step over one 128-bit packet word.
  input  logic [31:0]              crc128_crc_i,
  input  logic [WORD_W-1:0]        crc128_data_i,
  output logic [31:0]              crc128_crc_o
);

  exanet_secded_enc u_secded_enc (
    .data_i (enc_data_i),
    .hdr_o  (enc_hdr_o)
  );

  exanet_secded_dec u_secded_dec (
    .hdr_i           (dec_hdr_i),
    .hdr_o           (dec_hdr_o),
    .corrected_o     (dec_corrected_o),
    .pos_o           (dec_pos_o),
    .uncorrectable_o (dec_uncorrectable_o)
  );

  assign fix_crc_o = CRC32C_FIX[32*32'(fix_pos_i) +: 32];

  exanet_crc32c #(
    .WIDTH(BEAT_W)
  ) u_crc64 (
    .crc_i  (crc64_crc_i),
    .data_i (crc64_data_i),
    .crc_o  (crc64_crc_o)
  );

  exanet_crc32c #(
    .WIDTH(WORD_W)
  ) u_crc128 (
    .crc_i  (crc128_crc_i),
    .data_i (crc128_data_i),
    .crc_o  (crc128_crc_o)
  );

endmodule
