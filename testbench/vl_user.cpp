// The project's own `vl_stop` (Verilator calls it for `$stop` and for a failed immediate
// assertion), compiled into the runtime library with -DVL_USER_STOP so that Verilator's is not
// (build.rs). Verilator 5.006's `vl_stop` runs the process-wide flush callbacks, which flush
// every open wave file of every model in the process, each under its own lock: while another
// thread opens a wave file (its lock held, waiting for the callbacks' lock to register its
// flush), the two threads wait on each other for ever. Ours does what Verilator's does when
// fatalOnError is off (every shim turns it off: `got_error` reports the error to Rust), minus
// the flush: the Rust side closes every wave file it opened, which flushes it.

#include "verilated.h"

void vl_stop(const char* filename, int linenum, const char* hier) VL_MT_UNSAFE {
    (void)hier;
    const char* const msg = "Verilog $stop";
    Verilated::threadContextp()->gotError(true);
    Verilated::threadContextp()->gotFinish(true);
    if (filename && filename[0]) {
        VL_PRINTF("%%Error: %s:%d: %s\n", filename, linenum, msg);
    } else {
        VL_PRINTF("%%Error: %s\n", msg);
    }
}
