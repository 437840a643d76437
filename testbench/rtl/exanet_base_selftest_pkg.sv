// Shared constants of the Verilator self-test top (testbench only, not part of the IP).
package exanet_base_selftest_pkg;
  // Number of generate-loop lanes in `exanet_selftest_top` (scopes `gen_vc[0]` .. `gen_vc[N-1]`).
  parameter int unsigned NumLanes = 2;
  // Depth of the 16-bit register pipeline `pipe_q`.
  parameter int unsigned PipeDepth = 4;
  // Number of 32-bit words of the small memory `mem_q`.
  parameter int unsigned MemWords = 8;
  // `wr_data_i` value whose write the top asserts never happens (tests/rtl_ffi.rs drives it).
  parameter logic [31:0] ForbiddenData = 32'hDEAD_BEEF;
endpackage
