// exanet_secded_dec: header ECC checker and corrector.
//
// Models the header check of the receiving APElink TCL (Biagioni 2017 §5.3.4, code of §5.3.2): a
// header with one flipped bit (any of the 128) is corrected so the packet is not misrouted; a
// header with two flipped bits is flagged uncorrectable, and the TCL drops words until the next
// Start. Extended Hamming (128,120) SECDED, construction in exanet_base_pkg and docs/packet.md.
// Combinational, no clock; gives bit for bit the results of `packet::secded_decode` in Rust.
//
//           +-------------------+-- hdr_o            [127:0] corrected header (hdr_i if uncorr.)
//   hdr_i --| exanet_secded_dec |-- corrected_o      one bit was wrong and has been fixed
//  [127:0]  |                   |-- pos_o            [6:0] its Hamming position (0: ecc[7])
//           +-------------------+-- uncorrectable_o  two bits are wrong

module exanet_secded_dec
  import exanet_base_pkg::*;
(
  input  logic [WORD_W-1:0] hdr_i,           // received header
  output logic [WORD_W-1:0] hdr_o,           // corrected header, valid check bits included
  output logic              corrected_o,     // a single-bit error was corrected
  output secded_pos_t       pos_o,           // ... the Hamming position of that bit
  output logic              uncorrectable_o  // a double-bit error was detected
);

  secded_pos_t       syndrome;    // position of the flipped bit, if exactly one flipped
  logic              parity_err;  // odd number of flipped bits
  logic [WORD_W-1:0] flip;

  assign syndrome   = hdr_i[HDR_ECC_LSB +: SECDED_CHECK_W] ^
                      secded_hamming(hdr_i[SECDED_DATA_W-1:0]);
  assign parity_err = ^hdr_i;

  // Flip the bit whose Hamming position equals the syndrome; position 0 is ecc[7] itself.
  `EXANET_ALWAYS_COMB begin
    for (int unsigned b = 0; b < WORD_W; b++) begin
      flip[b] = parity_err && (secded_pos(b) == syndrome);
    end
  end

  assign hdr_o           = hdr_i ^ flip;
  assign corrected_o     = parity_err;
  assign pos_o           = syndrome;
  assign uncorrectable_o = !parity_err && (syndrome != '0);

endmodule
