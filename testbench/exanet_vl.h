// C interface between the Verilated tops and Rust (`src/cosim/rtl.rs`).
//
// build.rs generates, for each top `<name>`, a shim from `shim.cpp.in` that exports the
// functions below with the prefix `exanet_vl_<name>_`. See
// docs/decisions/0001-verilator-integration.md.
//
//   void*  create(void);                    // fresh VerilatedContext + model; NULL on failure
//   void   destroy(void* m);                // runs final() if not yet run, frees everything
//   void   eval(void* m);
//   const exanet_vl_signal* signals(void* m, uint32_t* count);  // pointers into m
//   int    trace_open(void* m, const char* path);  // 0 = ok
//   void   trace_dump(void* m, uint64_t time);     // time in the VCD timescale (1 ps)
//   int    trace_close(void* m);              // 0, or the errno of a write that failed
//   void   final_(void* m);                 // SystemVerilog final blocks
//   int    got_error(void* m);              // an assertion or $error/$stop fired
#ifndef EXANET_VL_H_
#define EXANET_VL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Element storage (Verilator's C types).
enum exanet_vl_kind {
    EXANET_VL_CDATA = 0,  // uint8_t
    EXANET_VL_SDATA = 1,  // uint16_t
    EXANET_VL_IDATA = 2,  // uint32_t
    EXANET_VL_QDATA = 3,  // uint64_t
    EXANET_VL_WIDE = 4,   // VlWide<N>: N uint32_t words, least significant first
};

#define EXANET_VL_MAX_DIMS 4

// One design signal. A scalar has ndims 0 and count 1; an unpacked array has its
// dimensions (outermost first) in dims[0..ndims] and count = their product elements of
// elem_bytes each, contiguous in row-major order from ptr.
typedef struct exanet_vl_signal {
    const char* name;  // full VCD name without indices: "TOP.exanet_selftest_top.u_a.cnt_q"
    void* ptr;         // first element, inside the live model
    uint32_t width;    // bits per element (1..=128)
    uint32_t kind;     // enum exanet_vl_kind
    uint32_t elem_bytes;
    uint32_t count;
    uint32_t ndims;
    uint32_t dims[EXANET_VL_MAX_DIMS];
    uint32_t is_input;  // a top-level input: the only signals the test bench may write
} exanet_vl_signal;

#ifdef __cplusplus
}
#endif

#endif  // EXANET_VL_H_
