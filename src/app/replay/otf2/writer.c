/* An OTF2 writer for exanet's own traces (`otf2::write` in src/app/replay/otf2/ffi.rs; used by
 * `exanet bench replay` to time the reader on a trace of millions of events): MPI
 * point-to-point events and the MPI calls around them, through the reference OTF2 library
 * (3.0), with the definitions Score-P writes for an MPI program of one thread a rank:
 *
 *   system tree node "node" > location group "MPI Rank R" (a process) > location R ("Master
 *   thread"); the MPI paradigm's COMM_LOCATIONS group listing the locations in rank order;
 *   MPI_COMM_WORLD (communicator 0) over a COMM_GROUP of every rank; region k the k-th name
 *   given, of the MPI paradigm; the clock's resolution as given, its offset 0.
 *
 * Each rank's events are a flat array of `exa_otf2_wev` in the record kinds of shim.c. */

#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The kinds shim.c reads back (the same numbers). */
enum {
    EXA_EV_ENTER = 32,
    EXA_EV_LEAVE = 33,
    EXA_EV_MPI_SEND = 34,
    EXA_EV_MPI_ISEND = 35,
    EXA_EV_MPI_ISEND_COMPLETE = 36,
    EXA_EV_MPI_IRECV_REQUEST = 37,
    EXA_EV_MPI_RECV = 38,
    EXA_EV_MPI_IRECV = 39
};

/* One event: Enter/Leave a = {region}; point to point a = {peer, communicator, tag, bytes,
 * request}; completions a = {request}. */
typedef struct {
    uint32_t kind;
    uint64_t time;
    uint64_t a[5];
} exa_otf2_wev;

static OTF2_FlushType pre_flush(void* user, OTF2_FileType type, OTF2_LocationRef location,
                                void* caller, bool final) {
    (void)user;
    (void)type;
    (void)location;
    (void)caller;
    (void)final;
    return OTF2_FLUSH;
}

/* no post-flush callback: no BufferFlush records */
static OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush, .otf2_post_flush = NULL};

static int failed(char* err, size_t len, const char* what, OTF2_ErrorCode e) {
    snprintf(err, len, "%s: %s (%s)", what, OTF2_Error_GetDescription(e), OTF2_Error_GetName(e));
    return 2;
}

/* Write the trace `dir`/traces.otf2 of `ranks` ranks. Returns 0, or 2 with a message in
 * `err`. */
int exa_otf2_write(const char* dir, uint64_t resolution, uint32_t ranks,
                   const char* const* regions, uint32_t n_regions,
                   const exa_otf2_wev* const* events, const uint64_t* n_events, char* err,
                   size_t err_len) {
    OTF2_ErrorCode e;
    OTF2_Archive* a = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                        4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                        OTF2_COMPRESSION_NONE);
    if (a == NULL) {
        snprintf(err, err_len, "cannot create the archive in %s", dir);
        return 2;
    }
    int rc = 2;
    uint64_t* members = calloc(ranks ? ranks : 1, sizeof *members);
    if (members == NULL) {
        snprintf(err, err_len, "out of memory");
        goto out;
    }
#define CHECK(call, what)                                                                        \
    if ((e = (call)) != OTF2_SUCCESS) {                                                          \
        rc = failed(err, err_len, what, e);                                                      \
        goto out;                                                                                \
    }
    CHECK(OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL), "setting the flush callbacks");
    CHECK(OTF2_Archive_SetSerialCollectiveCallbacks(a), "setting the collective callbacks");
    CHECK(OTF2_Archive_OpenEvtFiles(a), "opening the event files");
    uint64_t last = 0;
    for (uint32_t r = 0; r < ranks; r++) {
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, r);
        if (w == NULL) {
            snprintf(err, err_len, "cannot write rank %u's events", r);
            goto out;
        }
        for (uint64_t i = 0; i < n_events[r]; i++) {
            const exa_otf2_wev* v = &events[r][i];
            const uint64_t* x = v->a;
            OTF2_TimeStamp t = v->time;
            last = t > last ? t : last;
            switch (v->kind) {
            case EXA_EV_ENTER: e = OTF2_EvtWriter_Enter(w, NULL, t, (OTF2_RegionRef)x[0]); break;
            case EXA_EV_LEAVE: e = OTF2_EvtWriter_Leave(w, NULL, t, (OTF2_RegionRef)x[0]); break;
            case EXA_EV_MPI_SEND:
                e = OTF2_EvtWriter_MpiSend(w, NULL, t, (uint32_t)x[0], (OTF2_CommRef)x[1],
                                           (uint32_t)x[2], x[3]);
                break;
            case EXA_EV_MPI_RECV:
                e = OTF2_EvtWriter_MpiRecv(w, NULL, t, (uint32_t)x[0], (OTF2_CommRef)x[1],
                                           (uint32_t)x[2], x[3]);
                break;
            case EXA_EV_MPI_ISEND:
                e = OTF2_EvtWriter_MpiIsend(w, NULL, t, (uint32_t)x[0], (OTF2_CommRef)x[1],
                                            (uint32_t)x[2], x[3], x[4]);
                break;
            case EXA_EV_MPI_IRECV:
                e = OTF2_EvtWriter_MpiIrecv(w, NULL, t, (uint32_t)x[0], (OTF2_CommRef)x[1],
                                            (uint32_t)x[2], x[3], x[4]);
                break;
            case EXA_EV_MPI_ISEND_COMPLETE: e = OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, x[0]); break;
            case EXA_EV_MPI_IRECV_REQUEST: e = OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, x[0]); break;
            default:
                snprintf(err, err_len, "rank %u, event %llu: kind %u cannot be written", r,
                         (unsigned long long)i, v->kind);
                goto out;
            }
            CHECK(e, "writing an event");
        }
        CHECK(OTF2_Archive_CloseEvtWriter(a, w), "closing an event writer");
    }
    CHECK(OTF2_Archive_CloseEvtFiles(a), "closing the event files");
    /* empty local definition files, as Score-P leaves them when no id needs mapping */
    CHECK(OTF2_Archive_OpenDefFiles(a), "opening the definition files");
    for (uint32_t r = 0; r < ranks; r++) {
        OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(a, r);
        if (d == NULL) {
            snprintf(err, err_len, "cannot write rank %u's definitions", r);
            goto out;
        }
        CHECK(OTF2_Archive_CloseDefWriter(a, d), "closing a definition writer");
    }
    CHECK(OTF2_Archive_CloseDefFiles(a), "closing the definition files");

    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(a);
    if (g == NULL) {
        snprintf(err, err_len, "cannot write the global definitions");
        goto out;
    }
    CHECK(OTF2_GlobalDefWriter_WriteClockProperties(g, resolution, 0, last + 1,
                                                    OTF2_UNDEFINED_TIMESTAMP),
          "writing the clock properties");
    const char* names[] = {"", "node", "MPI Rank", "Master thread", "MPI locations",
                           "MPI_COMM_WORLD"};
    const uint32_t first_region = sizeof names / sizeof names[0];
    for (uint32_t s = 0; s < first_region; s++) {
        CHECK(OTF2_GlobalDefWriter_WriteString(g, s, names[s]), "writing a string");
    }
    for (uint32_t k = 0; k < n_regions; k++) {
        CHECK(OTF2_GlobalDefWriter_WriteString(g, first_region + k, regions[k]), "writing a string");
    }
    CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 0, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "writing the system tree");
    for (uint32_t r = 0; r < ranks; r++) {
        CHECK(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, 2, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                      OTF2_UNDEFINED_LOCATION_GROUP),
              "writing a location group");
    }
    for (uint32_t r = 0; r < ranks; r++) {
        CHECK(OTF2_GlobalDefWriter_WriteLocation(g, r, 3, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                 n_events[r], r),
              "writing a location");
    }
    for (uint32_t k = 0; k < n_regions; k++) {
        CHECK(OTF2_GlobalDefWriter_WriteRegion(g, k, first_region + k, first_region + k, 0,
                                               OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                                               OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0, 0),
              "writing a region");
    }
    for (uint32_t r = 0; r < ranks; r++) {
        members[r] = r;
    }
    /* the locations in rank order, and MPI_COMM_WORLD's ranks (indices into that list) */
    CHECK(OTF2_GlobalDefWriter_WriteGroup(g, 0, 4, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, ranks, members),
          "writing the MPI locations");
    CHECK(OTF2_GlobalDefWriter_WriteGroup(g, 1, 5, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, ranks, members),
          "writing MPI_COMM_WORLD's group");
    CHECK(OTF2_GlobalDefWriter_WriteComm(g, 0, 5, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
          "writing MPI_COMM_WORLD");
    rc = 0;
#undef CHECK
out:
    free(members);
    e = OTF2_Archive_Close(a);
    if (rc == 0 && e != OTF2_SUCCESS) {
        rc = failed(err, err_len, "closing the archive", e);
    }
    return rc;
}
