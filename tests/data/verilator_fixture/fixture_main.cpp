// Drives fixture_top the way the exanet lockstep does (docs/architecture.md, "Time in waves"):
// reset before time 0, then per cycle c a dump at P*c (clk 0) and at P*c + P/2 (clk 1).
#include <cstdio>
#include "Vfixture_top.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

int main(int argc, char** argv) {
    VerilatedContext ctx;
    ctx.commandArgs(argc, argv);
    ctx.traceEverOn(true);
    Vfixture_top top{&ctx};
    VerilatedVcdC tfp;
    top.trace(&tfp, 99);
    tfp.open(argc > 1 ? argv[1] : "fixture.vcd");

    const uint64_t period_ps = 6400;
    // Reset is applied before time 0 (a falling rst_ni edge) and released at time 0.
    top.clk_i = 0;
    top.d_i = 0;
    top.rst_ni = 1;
    top.eval();
    top.rst_ni = 0;
    top.eval();
    top.rst_ni = 1;
    for (uint64_t c = 0; c < 12; c++) {
        top.clk_i = 0;
        top.d_i = static_cast<uint8_t>((c * 37 + 5) & 0xff);
        top.eval();
        tfp.dump(period_ps * c);
        top.clk_i = 1;
        top.eval();
        tfp.dump(period_ps * c + period_ps / 2);
    }
    tfp.close();
    top.final();
    return 0;
}
