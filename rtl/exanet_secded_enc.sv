// exanet_secded_enc: header ECC encoder.
//
// Models the generation of the "header error detection and correction code" (Biagioni 2017
// §5.3.2) at the packet source: header bits 119:0 in, the full 128-bit header out with the
// extended Hamming (128,120) SECDED check bits in bits 127:120 (construction in exanet_base_pkg and
// docs/packet.md). Combinational, no clock.
//
//            +-------------------+
//   data_i --| exanet_secded_enc |-- hdr_o
//   [119:0]  +-------------------+   [127:0]

module exanet_secded_enc
  import exanet_base_pkg::*;
(
  input  logic [SECDED_DATA_W-1:0] data_i,  // header bits 119:0
  output logic [WORD_W-1:0]        hdr_o    // data_i with ecc[7:0] in bits 127:120
);

  assign hdr_o = secded_encode(data_i);

endmodule
