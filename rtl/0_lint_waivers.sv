// Lint waivers for rtl/ (and testbench/rtl/): the project's only waiver file. Each waiver says
// why it cannot be fixed in the code.
//
// A Verilator configuration in a .sv file, so that the plain
//   $ verilator --lint-only -Wall rtl/*.sv [testbench/rtl/*.sv]
// reads it; named to sort before every other file (digits before letters in any locale),
// because Verilator applies a waiver only to the files it reads after it. The packages are
// named `exanet_base_*_pkg` for the same reason: Verilator needs a package declared before a
// file imports it. Other tools see nothing here (`ifdef VERILATOR`).
`ifdef VERILATOR
`verilator_config

// exanet_base_pkg holds the packet layout and wire constants shared by every block (one
// localparam per field of the layout table, kept complete so tests/packet_layout.rs can check it
// against the Rust table and docs/packet.md). Any one module uses only a few of them, so the
// linter's UNUSEDPARAM on the package's localparams is expected, not a defect.
lint_off -rule UNUSEDPARAM -file "*exanet_base_pkg.sv"

// exanet_base_regs_pkg holds the whole register map (one localparam per register of the REGS
// table and per field, kept complete so tests/register_map.rs can check it against the Rust
// table and docs/registers.md). Any one module uses only some of them.
lint_off -rule UNUSEDPARAM -file "*exanet_base_regs_pkg.sv"

// Unused outputs of an instance are left unconnected on purpose (lowRISC style: `.port_o()`),
// for example the RX FIFO outputs that the link test bench reads hierarchically.
lint_off -rule PINCONNECTEMPTY

// rtl/ holds several tops (the link, router and node co-simulation tops; testbench/rtl/ the
// KARMA, self-test and unit tops), so linting every file at once finds several; every build
// names its top with --top-module.
lint_off -rule MULTITOP
`endif
