/* The OTF2 reader of `exanet app replay --format otf2` (src/app/replay/otf2.rs): it opens a
 * trace with the reference OTF2 library (3.0, Debian bookworm's libotf2-trace-dev), reads the
 * global definitions, then each location's local definitions (the library applies their
 * mapping tables and clock offsets to the events) and events, and hands every record to one
 * Rust function as a flat `exa_otf2_rec`. What the records mean is decided in Rust; this file
 * only translates the library's callbacks, so that Rust needs one foreign function, not the
 * library's hundred callback registrations.
 *
 *   exa_otf2_read(anchor) --> ClockProperties, String, LocationGroup, Location, Region, Group,
 *                             Comm, InterComm definitions (in the archive's order)
 *                         --> for each location, in definition order: its events, in order,
 *                             each with its position (from 1) and timestamp
 *
 * Events the replay does not use still come through, as EXA_EV_OTHER with their record name
 * (every event type of OTF2 3.0 has a callback here, from the list in OTHER_EVENTS), so that
 * the Rust side decides which ones it may ignore and refuses the others by name and position.
 */

#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The values the Rust side names (src/app/replay/otf2.rs): the format fixes them; a library
 * that numbered them otherwise would not compile here. */
_Static_assert(OTF2_PARADIGM_MPI == 4, "OTF2_PARADIGM_MPI");
_Static_assert(OTF2_COLLECTIVE_OP_BARRIER == 0 && OTF2_COLLECTIVE_OP_BCAST == 1 &&
                   OTF2_COLLECTIVE_OP_GATHER == 2 && OTF2_COLLECTIVE_OP_GATHERV == 3 &&
                   OTF2_COLLECTIVE_OP_SCATTER == 4 && OTF2_COLLECTIVE_OP_SCATTERV == 5 &&
                   OTF2_COLLECTIVE_OP_ALLGATHER == 6 && OTF2_COLLECTIVE_OP_ALLGATHERV == 7 &&
                   OTF2_COLLECTIVE_OP_ALLTOALL == 8 && OTF2_COLLECTIVE_OP_ALLTOALLV == 9 &&
                   OTF2_COLLECTIVE_OP_ALLTOALLW == 10 && OTF2_COLLECTIVE_OP_ALLREDUCE == 11 &&
                   OTF2_COLLECTIVE_OP_REDUCE == 12 && OTF2_COLLECTIVE_OP_REDUCE_SCATTER == 13 &&
                   OTF2_COLLECTIVE_OP_SCAN == 14 && OTF2_COLLECTIVE_OP_EXSCAN == 15 &&
                   OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK == 16 &&
                   OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE == 22,
               "OTF2_CollectiveOp");
_Static_assert(OTF2_COLLECTIVE_ROOT_NONE == UINT32_MAX, "OTF2_COLLECTIVE_ROOT_NONE");

/* Record kinds (the same numbers in Rust's `ffi::Kind`). */
enum {
    EXA_DEF_CLOCK = 1,
    EXA_DEF_STRING,
    EXA_DEF_LOCATION_GROUP,
    EXA_DEF_LOCATION,
    EXA_DEF_REGION,
    EXA_DEF_GROUP,
    EXA_DEF_COMM,
    EXA_DEF_INTER_COMM,
    EXA_EV_ENTER = 32,
    EXA_EV_LEAVE,
    EXA_EV_MPI_SEND,
    EXA_EV_MPI_ISEND,
    EXA_EV_MPI_ISEND_COMPLETE,
    EXA_EV_MPI_IRECV_REQUEST,
    EXA_EV_MPI_RECV,
    EXA_EV_MPI_IRECV,
    EXA_EV_MPI_REQUEST_TEST,
    EXA_EV_MPI_REQUEST_CANCELLED,
    EXA_EV_MPI_COLLECTIVE_BEGIN,
    EXA_EV_MPI_COLLECTIVE_END,
    EXA_EV_OTHER
};

/* Group kinds, from OTF2_GroupType. */
enum { EXA_GROUP_OTHER = 0, EXA_GROUP_COMM_LOCATIONS, EXA_GROUP_COMM_GROUP, EXA_GROUP_COMM_SELF };

/* One record. Definitions: `id` is the definition's reference; events: `id` is the location,
 * `pos` the event's position in it (from 1), `time` its timestamp in ticks. `a` holds the
 * fields (below, per kind), `text` a string's text or an OTHER event's record name, `members`
 * a group's members. */
typedef struct {
    uint32_t kind;
    uint64_t id;
    uint64_t pos;
    uint64_t time;
    uint64_t a[6];
    const char* text;
    const uint64_t* members;
    uint64_t n_members;
} exa_otf2_rec;

/* Returns 0 to go on, anything else to stop reading. */
typedef int (*exa_otf2_sink)(void* user, const exa_otf2_rec* rec);

typedef struct {
    exa_otf2_sink sink;
    void* user;
    int stopped;
    uint64_t* locations;
    size_t n_locations, cap_locations;
} ctx_t;

/* The library's last error message (it would print it on stderr otherwise). Thread-local: two
 * reads on two threads keep their own. */
static _Thread_local char last_error[512];

static OTF2_ErrorCode on_error(void* user, const char* file, uint64_t line, const char* function,
                               OTF2_ErrorCode code, const char* fmt, va_list va) {
    (void)user;
    (void)file;
    (void)line;
    (void)function;
    int n = snprintf(last_error, sizeof last_error, "%s: ", OTF2_Error_GetDescription(code));
    if (n > 0 && (size_t)n < sizeof last_error && fmt != NULL) {
        vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, va);
    }
    return code;
}

static OTF2_CallbackCode emit(ctx_t* c, exa_otf2_rec* r) {
    if (c->sink(c->user, r) != 0) {
        c->stopped = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* ---- global definitions ---- */

static OTF2_CallbackCode def_clock(void* u, uint64_t resolution, uint64_t offset,
                                   uint64_t length, uint64_t realtime) {
    exa_otf2_rec r = {.kind = EXA_DEF_CLOCK, .a = {resolution, offset, length, realtime}};
    return emit(u, &r);
}

static OTF2_CallbackCode def_string(void* u, OTF2_StringRef self, const char* s) {
    exa_otf2_rec r = {.kind = EXA_DEF_STRING, .id = self, .text = s};
    return emit(u, &r);
}

static OTF2_CallbackCode def_location_group(void* u, OTF2_LocationGroupRef self,
                                            OTF2_StringRef name, OTF2_LocationGroupType type,
                                            OTF2_SystemTreeNodeRef parent,
                                            OTF2_LocationGroupRef creator) {
    (void)parent;
    (void)creator;
    exa_otf2_rec r = {.kind = EXA_DEF_LOCATION_GROUP, .id = self,
                      .a = {name, type == OTF2_LOCATION_GROUP_TYPE_PROCESS}};
    return emit(u, &r);
}

static OTF2_CallbackCode def_location(void* u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group) {
    (void)type;
    ctx_t* c = u;
    if (c->n_locations == c->cap_locations) {
        size_t cap = c->cap_locations ? 2 * c->cap_locations : 64;
        uint64_t* p = realloc(c->locations, cap * sizeof *p);
        if (p == NULL) {
            snprintf(last_error, sizeof last_error, "out of memory for %zu locations", cap);
            c->stopped = 2;
            return OTF2_CALLBACK_INTERRUPT;
        }
        c->locations = p;
        c->cap_locations = cap;
    }
    c->locations[c->n_locations++] = self;
    exa_otf2_rec r = {.kind = EXA_DEF_LOCATION, .id = self, .a = {name, group, events}};
    return emit(u, &r);
}

static OTF2_CallbackCode def_region(void* u, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef description,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                    uint32_t end) {
    (void)canonical;
    (void)description;
    (void)role;
    (void)flags;
    (void)file;
    (void)begin;
    (void)end;
    exa_otf2_rec r = {.kind = EXA_DEF_REGION, .id = self,
                      .a = {name, paradigm == OTF2_PARADIGM_MPI}};
    return emit(u, &r);
}

static OTF2_CallbackCode def_group(void* u, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n, const uint64_t* members) {
    (void)flags;
    uint64_t kind = type == OTF2_GROUP_TYPE_COMM_LOCATIONS ? EXA_GROUP_COMM_LOCATIONS
                    : type == OTF2_GROUP_TYPE_COMM_GROUP   ? EXA_GROUP_COMM_GROUP
                    : type == OTF2_GROUP_TYPE_COMM_SELF    ? EXA_GROUP_COMM_SELF
                                                           : EXA_GROUP_OTHER;
    exa_otf2_rec r = {.kind = EXA_DEF_GROUP, .id = self,
                      .a = {name, kind, paradigm == OTF2_PARADIGM_MPI},
                      .members = members, .n_members = n};
    return emit(u, &r);
}

static OTF2_CallbackCode def_comm(void* u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags) {
    (void)flags;
    exa_otf2_rec r = {.kind = EXA_DEF_COMM, .id = self, .a = {name, group, parent}};
    return emit(u, &r);
}

static OTF2_CallbackCode def_inter_comm(void* u, OTF2_CommRef self, OTF2_StringRef name,
                                        OTF2_GroupRef a, OTF2_GroupRef b, OTF2_CommRef common,
                                        OTF2_CommFlag flags) {
    (void)a;
    (void)b;
    (void)common;
    (void)flags;
    exa_otf2_rec r = {.kind = EXA_DEF_INTER_COMM, .id = self, .a = {name}};
    return emit(u, &r);
}

/* ---- events ---- */

#define EVENT(kind_)                                                                             \
    exa_otf2_rec r = {.kind = (kind_), .id = loc, .pos = pos, .time = t};                        \
    (void)al

static OTF2_CallbackCode ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void* u,
                                  OTF2_AttributeList* al, OTF2_RegionRef region) {
    EVENT(EXA_EV_ENTER);
    r.a[0] = region;
    return emit(u, &r);
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void* u,
                                  OTF2_AttributeList* al, OTF2_RegionRef region) {
    EVENT(EXA_EV_LEAVE);
    r.a[0] = region;
    return emit(u, &r);
}

/* Point to point: a = {peer (rank in the communicator), communicator, tag, bytes, request}. */
static OTF2_CallbackCode ev_send(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void* u,
                                 OTF2_AttributeList* al, uint32_t receiver, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t length) {
    EVENT(EXA_EV_MPI_SEND);
    r.a[0] = receiver;
    r.a[1] = comm;
    r.a[2] = tag;
    r.a[3] = length;
    return emit(u, &r);
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void* u,
                                  OTF2_AttributeList* al, uint32_t receiver, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t length, uint64_t request) {
    EVENT(EXA_EV_MPI_ISEND);
    r.a[0] = receiver;
    r.a[1] = comm;
    r.a[2] = tag;
    r.a[3] = length;
    r.a[4] = request;
    return emit(u, &r);
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void* u,
                                 OTF2_AttributeList* al, uint32_t sender, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t length) {
    EVENT(EXA_EV_MPI_RECV);
    r.a[0] = sender;
    r.a[1] = comm;
    r.a[2] = tag;
    r.a[3] = length;
    return emit(u, &r);
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void* u,
                                  OTF2_AttributeList* al, uint32_t sender, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t length, uint64_t request) {
    EVENT(EXA_EV_MPI_IRECV);
    r.a[0] = sender;
    r.a[1] = comm;
    r.a[2] = tag;
    r.a[3] = length;
    r.a[4] = request;
    return emit(u, &r);
}

/* Request events: a = {request}. */
#define REQUEST_EVENT(fn, kind_)                                                                 \
    static OTF2_CallbackCode fn(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void* u, \
                                OTF2_AttributeList* al, uint64_t request) {                      \
        EVENT(kind_);                                                                            \
        r.a[0] = request;                                                                        \
        return emit(u, &r);                                                                      \
    }
REQUEST_EVENT(ev_isend_complete, EXA_EV_MPI_ISEND_COMPLETE)
REQUEST_EVENT(ev_irecv_request, EXA_EV_MPI_IRECV_REQUEST)
REQUEST_EVENT(ev_request_test, EXA_EV_MPI_REQUEST_TEST)
REQUEST_EVENT(ev_request_cancelled, EXA_EV_MPI_REQUEST_CANCELLED)

static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                       void* u, OTF2_AttributeList* al) {
    EVENT(EXA_EV_MPI_COLLECTIVE_BEGIN);
    return emit(u, &r);
}

/* a = {operation, communicator, root (rank in the communicator), bytes sent, bytes received}. */
static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                     void* u, OTF2_AttributeList* al, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received) {
    EVENT(EXA_EV_MPI_COLLECTIVE_END);
    r.a[0] = op;
    r.a[1] = comm;
    r.a[2] = root;
    r.a[3] = sent;
    r.a[4] = received;
    return emit(u, &r);
}

static OTF2_CallbackCode other(void* u, OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                               const char* name) {
    exa_otf2_rec r = {.kind = EXA_EV_OTHER, .id = loc, .pos = pos, .time = t, .text = name};
    return emit(u, &r);
}

static OTF2_CallbackCode ev_unknown(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void* u,
                                    OTF2_AttributeList* al) {
    (void)al;
    return other(u, loc, t, pos, "Unknown");
}

/* Every other event record of OTF2 3.0 (OTF2_EvtReaderCallbacks.h), with its fields, which are
 * not used: X(name, fields...) or X0(name) for a record without fields. */
#define OTHER_EVENTS(X, X0) \
    X(BufferFlush, OTF2_TimeStamp stopTime) \
    X(MeasurementOnOff, OTF2_MeasurementMode measurementMode) \
    X(OmpFork, uint32_t numberOfRequestedThreads) \
    X0(OmpJoin) \
    X(OmpAcquireLock, uint32_t lockID, uint32_t acquisitionOrder) \
    X(OmpReleaseLock, uint32_t lockID, uint32_t acquisitionOrder) \
    X(OmpTaskCreate, uint64_t taskID) \
    X(OmpTaskSwitch, uint64_t taskID) \
    X(OmpTaskComplete, uint64_t taskID) \
    X(Metric, OTF2_MetricRef metric, uint8_t numberOfMetrics, const OTF2_Type* typeIDs, const OTF2_MetricValue* metricValues) \
    X(ParameterString, OTF2_ParameterRef parameter, OTF2_StringRef string) \
    X(ParameterInt, OTF2_ParameterRef parameter, int64_t value) \
    X(ParameterUnsignedInt, OTF2_ParameterRef parameter, uint64_t value) \
    X(RmaWinCreate, OTF2_RmaWinRef win) \
    X(RmaWinDestroy, OTF2_RmaWinRef win) \
    X0(RmaCollectiveBegin) \
    X(RmaCollectiveEnd, OTF2_CollectiveOp collectiveOp, OTF2_RmaSyncLevel syncLevel, OTF2_RmaWinRef win, uint32_t root, uint64_t bytesSent, uint64_t bytesReceived) \
    X(RmaGroupSync, OTF2_RmaSyncLevel syncLevel, OTF2_RmaWinRef win, OTF2_GroupRef group) \
    X(RmaRequestLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId, OTF2_LockType lockType) \
    X(RmaAcquireLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId, OTF2_LockType lockType) \
    X(RmaTryLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId, OTF2_LockType lockType) \
    X(RmaReleaseLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lockId) \
    X(RmaSync, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType syncType) \
    X(RmaWaitChange, OTF2_RmaWinRef win) \
    X(RmaPut, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matchingId) \
    X(RmaGet, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matchingId) \
    X(RmaAtomic, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaAtomicType type, uint64_t bytesSent, uint64_t bytesReceived, uint64_t matchingId) \
    X(RmaOpCompleteBlocking, OTF2_RmaWinRef win, uint64_t matchingId) \
    X(RmaOpCompleteNonBlocking, OTF2_RmaWinRef win, uint64_t matchingId) \
    X(RmaOpTest, OTF2_RmaWinRef win, uint64_t matchingId) \
    X(RmaOpCompleteRemote, OTF2_RmaWinRef win, uint64_t matchingId) \
    X(ThreadFork, OTF2_Paradigm model, uint32_t numberOfRequestedThreads) \
    X(ThreadJoin, OTF2_Paradigm model) \
    X(ThreadTeamBegin, OTF2_CommRef threadTeam) \
    X(ThreadTeamEnd, OTF2_CommRef threadTeam) \
    X(ThreadAcquireLock, OTF2_Paradigm model, uint32_t lockID, uint32_t acquisitionOrder) \
    X(ThreadReleaseLock, OTF2_Paradigm model, uint32_t lockID, uint32_t acquisitionOrder) \
    X(ThreadTaskCreate, OTF2_CommRef threadTeam, uint32_t creatingThread, uint32_t generationNumber) \
    X(ThreadTaskSwitch, OTF2_CommRef threadTeam, uint32_t creatingThread, uint32_t generationNumber) \
    X(ThreadTaskComplete, OTF2_CommRef threadTeam, uint32_t creatingThread, uint32_t generationNumber) \
    X(ThreadCreate, OTF2_CommRef threadContingent, uint64_t sequenceCount) \
    X(ThreadBegin, OTF2_CommRef threadContingent, uint64_t sequenceCount) \
    X(ThreadWait, OTF2_CommRef threadContingent, uint64_t sequenceCount) \
    X(ThreadEnd, OTF2_CommRef threadContingent, uint64_t sequenceCount) \
    X(CallingContextEnter, OTF2_CallingContextRef callingContext, uint32_t unwindDistance) \
    X(CallingContextLeave, OTF2_CallingContextRef callingContext) \
    X(CallingContextSample, OTF2_CallingContextRef callingContext, uint32_t unwindDistance, OTF2_InterruptGeneratorRef interruptGenerator) \
    X(IoCreateHandle, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode, OTF2_IoCreationFlag creationFlags, OTF2_IoStatusFlag statusFlags) \
    X(IoDestroyHandle, OTF2_IoHandleRef handle) \
    X(IoDuplicateHandle, OTF2_IoHandleRef oldHandle, OTF2_IoHandleRef newHandle, OTF2_IoStatusFlag statusFlags) \
    X(IoSeek, OTF2_IoHandleRef handle, int64_t offsetRequest, OTF2_IoSeekOption whence, uint64_t offsetResult) \
    X(IoChangeStatusFlags, OTF2_IoHandleRef handle, OTF2_IoStatusFlag statusFlags) \
    X(IoDeleteFile, OTF2_IoParadigmRef ioParadigm, OTF2_IoFileRef file) \
    X(IoOperationBegin, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode, OTF2_IoOperationFlag operationFlags, uint64_t bytesRequest, uint64_t matchingId) \
    X(IoOperationTest, OTF2_IoHandleRef handle, uint64_t matchingId) \
    X(IoOperationIssued, OTF2_IoHandleRef handle, uint64_t matchingId) \
    X(IoOperationComplete, OTF2_IoHandleRef handle, uint64_t bytesResult, uint64_t matchingId) \
    X(IoOperationCancelled, OTF2_IoHandleRef handle, uint64_t matchingId) \
    X(IoAcquireLock, OTF2_IoHandleRef handle, OTF2_LockType lockType) \
    X(IoReleaseLock, OTF2_IoHandleRef handle, OTF2_LockType lockType) \
    X(IoTryLock, OTF2_IoHandleRef handle, OTF2_LockType lockType) \
    X(ProgramBegin, OTF2_StringRef programName, uint32_t numberOfArguments, const OTF2_StringRef* programArguments) \
    X(ProgramEnd, int64_t exitStatus) \
    X(NonBlockingCollectiveRequest, uint64_t requestID) \
    X(NonBlockingCollectiveComplete, OTF2_CollectiveOp collectiveOp, OTF2_CommRef communicator, uint32_t root, uint64_t sizeSent, uint64_t sizeReceived, uint64_t requestID) \
    X(CommCreate, OTF2_CommRef communicator) \
    X(CommDestroy, OTF2_CommRef communicator) \
    /* end of OTHER_EVENTS */

#pragma GCC diagnostic push
/* the records' fields are in the signatures only because the library passes them */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define DEFINE_OTHER(name, ...)                                                                  \
    static OTF2_CallbackCode ev_other_##name(OTF2_LocationRef loc, OTF2_TimeStamp t,             \
                                             uint64_t pos, void* u, OTF2_AttributeList* al,      \
                                             __VA_ARGS__) {                                      \
        return other(u, loc, t, pos, #name);                                                     \
    }
#define DEFINE_OTHER0(name)                                                                      \
    static OTF2_CallbackCode ev_other_##name(OTF2_LocationRef loc, OTF2_TimeStamp t,             \
                                             uint64_t pos, void* u, OTF2_AttributeList* al) {    \
        return other(u, loc, t, pos, #name);                                                     \
    }
OTHER_EVENTS(DEFINE_OTHER, DEFINE_OTHER0)
#pragma GCC diagnostic pop

#define REGISTER_OTHER(name, ...) OTF2_EvtReaderCallbacks_Set##name##Callback(cbs, ev_other_##name);
#define REGISTER_OTHER0(name) OTF2_EvtReaderCallbacks_Set##name##Callback(cbs, ev_other_##name);

static OTF2_EvtReaderCallbacks* event_callbacks(void) {
    OTF2_EvtReaderCallbacks* cbs = OTF2_EvtReaderCallbacks_New();
    if (cbs == NULL) {
        return NULL;
    }
    OTF2_EvtReaderCallbacks_SetUnknownCallback(cbs, ev_unknown);
    OTF2_EvtReaderCallbacks_SetEnterCallback(cbs, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cbs, ev_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cbs, ev_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cbs, ev_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cbs, ev_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cbs, ev_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cbs, ev_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cbs, ev_irecv);
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cbs, ev_request_test);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cbs, ev_request_cancelled);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cbs, ev_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cbs, ev_coll_end);
    OTHER_EVENTS(REGISTER_OTHER, REGISTER_OTHER0)
    return cbs;
}

/* The message for a failed library call `what`. */
static void fail(char* err, size_t len, const char* what, OTF2_ErrorCode code) {
    if (last_error[0] != '\0') {
        snprintf(err, len, "%s: %s", what, last_error);
    } else {
        snprintf(err, len, "%s: %s (%s)", what, OTF2_Error_GetDescription(code),
                 OTF2_Error_GetName(code));
    }
}

/* Read the trace whose anchor file is `anchor`, handing every record to `sink`. Returns 0 when
 * all was read, 1 when the sink stopped the reading, 2 on an error of the library (its message
 * in `err`). */
int exa_otf2_read(const char* anchor, exa_otf2_sink sink, void* user, char* err, size_t err_len) {
    ctx_t c = {.sink = sink, .user = user};
    last_error[0] = '\0';
    err[0] = '\0';
    OTF2_Error_RegisterCallback(on_error, NULL);
    int rc = 2;
    OTF2_ErrorCode e = OTF2_SUCCESS;
    OTF2_GlobalDefReaderCallbacks* gcbs = NULL;
    OTF2_EvtReaderCallbacks* cbs = NULL;
    int evt_open = 0;

    OTF2_Reader* reader = OTF2_Reader_Open(anchor);
    if (reader == NULL) {
        fail(err, err_len, "cannot open the trace", OTF2_ERROR_INVALID);
        goto out;
    }
#define CHECK(call, what)                                                                        \
    if ((e = (call)) != OTF2_SUCCESS) {                                                          \
        if (c.stopped == 1) {                                                                    \
            rc = 1;                                                                              \
        } else {                                                                                 \
            fail(err, err_len, what, e);                                                         \
        }                                                                                        \
        goto out;                                                                                \
    }
    CHECK(OTF2_Reader_SetSerialCollectiveCallbacks(reader), "OTF2_Reader_SetSerialCollectiveCallbacks");

    OTF2_GlobalDefReader* gdr = OTF2_Reader_GetGlobalDefReader(reader);
    if (gdr == NULL) {
        fail(err, err_len, "cannot read the global definitions", OTF2_ERROR_INVALID);
        goto out;
    }
    gcbs = OTF2_GlobalDefReaderCallbacks_New();
    if (gcbs == NULL) {
        fail(err, err_len, "OTF2_GlobalDefReaderCallbacks_New", OTF2_ERROR_MEM_ALLOC_FAILED);
        goto out;
    }
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(gcbs, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(gcbs, def_string);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(gcbs, def_location_group);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcbs, def_location);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(gcbs, def_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(gcbs, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(gcbs, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(gcbs, def_inter_comm);
    CHECK(OTF2_Reader_RegisterGlobalDefCallbacks(reader, gdr, gcbs, &c),
          "OTF2_Reader_RegisterGlobalDefCallbacks");
    uint64_t defs = 0;
    CHECK(OTF2_Reader_ReadAllGlobalDefinitions(reader, gdr, &defs), "reading the global definitions");

    for (size_t i = 0; i < c.n_locations; i++) {
        CHECK(OTF2_Reader_SelectLocation(reader, c.locations[i]), "OTF2_Reader_SelectLocation");
    }
    /* A trace without local definition files is fine (they hold only mapping tables and clock
     * offsets); a trace without event files is not. */
    int def_open = c.n_locations > 0 && OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
    if (c.n_locations > 0) {
        CHECK(OTF2_Reader_OpenEvtFiles(reader), "opening the event files");
        evt_open = 1;
    }
    char what[96];
    for (size_t i = 0; i < c.n_locations; i++) {
        snprintf(what, sizeof what, "location %llu's local definitions",
                 (unsigned long long)c.locations[i]);
        if (def_open) {
            OTF2_DefReader* dr = OTF2_Reader_GetDefReader(reader, c.locations[i]);
            if (dr != NULL) {
                uint64_t n = 0;
                CHECK(OTF2_Reader_ReadAllLocalDefinitions(reader, dr, &n), what);
                CHECK(OTF2_Reader_CloseDefReader(reader, dr), "OTF2_Reader_CloseDefReader");
            }
        }
        /* the event reader takes the location's mapping tables when it is made */
        if (OTF2_Reader_GetEvtReader(reader, c.locations[i]) == NULL) {
            snprintf(what, sizeof what, "cannot open location %llu's events",
                     (unsigned long long)c.locations[i]);
            fail(err, err_len, what, OTF2_ERROR_INVALID);
            goto out;
        }
    }
    if (def_open) {
        CHECK(OTF2_Reader_CloseDefFiles(reader), "OTF2_Reader_CloseDefFiles");
    }

    cbs = event_callbacks();
    if (cbs == NULL) {
        fail(err, err_len, "OTF2_EvtReaderCallbacks_New", OTF2_ERROR_MEM_ALLOC_FAILED);
        goto out;
    }
    for (size_t i = 0; i < c.n_locations; i++) {
        OTF2_EvtReader* er = OTF2_Reader_GetEvtReader(reader, c.locations[i]);
        CHECK(OTF2_Reader_RegisterEvtCallbacks(reader, er, cbs, &c), "OTF2_Reader_RegisterEvtCallbacks");
        uint64_t n = 0;
        snprintf(what, sizeof what, "reading location %llu's events",
                 (unsigned long long)c.locations[i]);
        CHECK(OTF2_Reader_ReadAllLocalEvents(reader, er, &n), what);
        CHECK(OTF2_Reader_CloseEvtReader(reader, er), "OTF2_Reader_CloseEvtReader");
    }
    rc = 0;
#undef CHECK
out:
    if (c.stopped == 2) {
        snprintf(err, err_len, "%s", last_error);
        rc = 2;
    }
    if (cbs != NULL) {
        OTF2_EvtReaderCallbacks_Delete(cbs);
    }
    if (gcbs != NULL) {
        OTF2_GlobalDefReaderCallbacks_Delete(gcbs);
    }
    if (reader != NULL) {
        if (evt_open) {
            OTF2_Reader_CloseEvtFiles(reader);
        }
        OTF2_Reader_Close(reader);
    }
    free(c.locations);
    return rc;
}
