// exanet_crc32c: one step of the footer CRC.
//
// Models the CRC engine of the APElink TCL (the footer "CRC field validates the content of the
// transmitted message", Biagioni 2017 §5.3.2): advances the running CRC-32C state (Castagnoli,
// reflected polynomial 0x82F63B78; start from CRC32C_INIT, XOR with CRC32C_XOROUT at the end)
// by one data word, bytes little-endian (bits 7:0 first). Combinational, no clock: a TCL
// registers crc_o and feeds it back as crc_i, one beat per cycle. Gives bit for bit the
// results of `packet::crc32c_update64/128` in Rust.
//
//           +---------------+
//   crc_i --| exanet_crc32c |-- crc_o
//  data_i --|               |
//           +---------------+

module exanet_crc32c
  import exanet_base_pkg::*;
#(
  // Data word width in bits: 64 (one wire beat) or 128 (one packet word).
  parameter bit [31:0] WIDTH = 64
) (
  input  logic [31:0]      crc_i,   // running state before data_i
  input  logic [WIDTH-1:0] data_i,  // data word, byte k = bits 8k+7:8k
  output logic [31:0]      crc_o    // running state after data_i
);

  if (WIDTH == BEAT_W) begin : gen_beat
    assign crc_o = crc32c_update64(crc_i, data_i);
  end else if (WIDTH == WORD_W) begin : gen_word
    assign crc_o = crc32c_update128(crc_i, data_i);
  end else begin : gen_bad_width
    // An elaboration-time error; Icarus Verilog 11 does not read one, so there a time-0 one.
`ifdef __ICARUS__
    initial $fatal(1, "exanet_crc32c: WIDTH must be 64 or 128");
`else
    $fatal(1, "exanet_crc32c: WIDTH must be 64 or 128");
`endif
  end

endmodule
