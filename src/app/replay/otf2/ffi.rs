//! The foreign functions of `shim.c` (`exa_otf2_read`, with the Rust function it hands each
//! record to, which builds a [`Raw`] trace) and of `writer.c` (`exa_otf2_write`). Hand-written
//! declarations (two functions and two plain structs: no bindgen); `build.rs` compiles the C
//! and links the OTF2 library when the feature `otf2` is on.

use super::{
    Clock, Coll, CommDef, Ev, Event, GroupDef, GroupKind, LocationDef, P2p, Raw, RegionDef,
};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;

/// `exa_otf2_rec` of `shim.c`.
#[repr(C)]
struct Rec {
    kind: u32,
    id: u64,
    pos: u64,
    time: u64,
    a: [u64; 6],
    text: *const c_char,
    members: *const u64,
    n_members: u64,
}

type Sink = unsafe extern "C" fn(user: *mut c_void, rec: *const Rec) -> c_int;

/// `exa_otf2_wev` of `writer.c`.
#[repr(C)]
struct WEv {
    kind: u32,
    time: u64,
    a: [u64; 5],
}

extern "C" {
    fn exa_otf2_read(
        anchor: *const c_char,
        sink: Sink,
        user: *mut c_void,
        err: *mut c_char,
        err_len: usize,
    ) -> c_int;

    #[allow(clippy::too_many_arguments)]
    fn exa_otf2_write(
        dir: *const c_char,
        resolution: u64,
        ranks: u32,
        regions: *const *const c_char,
        n_regions: u32,
        events: *const *const WEv,
        n_events: *const u64,
        err: *mut c_char,
        err_len: usize,
    ) -> c_int;
}

// Record kinds, as `shim.c` numbers them.
const DEF_CLOCK: u32 = 1;
const DEF_STRING: u32 = 2;
const DEF_LOCATION_GROUP: u32 = 3;
const DEF_LOCATION: u32 = 4;
const DEF_REGION: u32 = 5;
const DEF_GROUP: u32 = 6;
const DEF_COMM: u32 = 7;
const DEF_INTER_COMM: u32 = 8;
const EV_ENTER: u32 = 32;
const EV_LEAVE: u32 = 33;
const EV_MPI_SEND: u32 = 34;
const EV_MPI_ISEND: u32 = 35;
const EV_MPI_ISEND_COMPLETE: u32 = 36;
const EV_MPI_IRECV_REQUEST: u32 = 37;
const EV_MPI_RECV: u32 = 38;
const EV_MPI_IRECV: u32 = 39;
const EV_MPI_REQUEST_TEST: u32 = 40;
const EV_MPI_REQUEST_CANCELLED: u32 = 41;
const EV_MPI_COLLECTIVE_BEGIN: u32 = 42;
const EV_MPI_COLLECTIVE_END: u32 = 43;
const EV_OTHER: u32 = 44;

/// The trace being built, and the first problem met (which stops the reading).
#[derive(Default)]
struct Builder {
    raw: Raw,
    others: HashMap<String, u16>,
    error: Option<String>,
}

impl Builder {
    fn text(p: *const c_char) -> String {
        if p.is_null() {
            return String::new();
        }
        // SAFETY: the shim passes NUL-terminated strings that live through the callback.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }

    fn add(&mut self, r: &Rec) -> Result<(), String> {
        let a = r.a;
        let p2p = || P2p {
            peer: a[0] as u32,
            comm: a[1],
            tag: a[2] as u32,
            bytes: a[3],
        };
        let ev = match r.kind {
            DEF_CLOCK => {
                self.raw.defs.clock = Some(Clock {
                    resolution: a[0],
                    offset: a[1],
                    length: a[2],
                });
                return Ok(());
            }
            DEF_STRING => {
                self.raw.defs.strings.insert(r.id, Self::text(r.text));
                return Ok(());
            }
            // location groups (processes) are not needed: the ranks are the MPI locations
            DEF_LOCATION_GROUP => return Ok(()),
            DEF_LOCATION => {
                self.raw.defs.locations.push(LocationDef {
                    id: r.id,
                    name: a[0],
                    group: a[1],
                    events: a[2],
                });
                return Ok(());
            }
            DEF_REGION => {
                let d = RegionDef {
                    name: a[0],
                    mpi: a[1] != 0,
                };
                self.raw.defs.regions.insert(r.id, d);
                return Ok(());
            }
            DEF_GROUP => {
                let members = if r.members.is_null() || r.n_members == 0 {
                    Vec::new()
                } else {
                    // SAFETY: the shim passes the library's array of `n_members` members.
                    unsafe { std::slice::from_raw_parts(r.members, r.n_members as usize) }.to_vec()
                };
                let kind = match a[1] {
                    1 => GroupKind::CommLocations,
                    2 => GroupKind::CommGroup,
                    3 => GroupKind::CommSelf,
                    _ => GroupKind::Other,
                };
                let d = GroupDef {
                    name: a[0],
                    kind,
                    mpi: a[2] != 0,
                    members,
                };
                self.raw.defs.groups.insert(r.id, d);
                return Ok(());
            }
            DEF_COMM => {
                let d = CommDef {
                    name: a[0],
                    group: a[1],
                    parent: a[2],
                };
                self.raw.defs.comms.insert(r.id, d);
                return Ok(());
            }
            DEF_INTER_COMM => {
                self.raw.defs.inter_comms.insert(r.id, a[0]);
                return Ok(());
            }
            EV_ENTER => Ev::Enter(a[0]),
            EV_LEAVE => Ev::Leave(a[0]),
            EV_MPI_SEND => Ev::MpiSend(p2p()),
            EV_MPI_ISEND => Ev::MpiIsend(p2p(), a[4]),
            EV_MPI_ISEND_COMPLETE => Ev::MpiIsendComplete(a[0]),
            EV_MPI_IRECV_REQUEST => Ev::MpiIrecvRequest(a[0]),
            EV_MPI_RECV => Ev::MpiRecv(p2p()),
            EV_MPI_IRECV => Ev::MpiIrecv(p2p(), a[4]),
            EV_MPI_REQUEST_TEST => Ev::MpiRequestTest(a[0]),
            EV_MPI_REQUEST_CANCELLED => Ev::MpiRequestCancelled(a[0]),
            EV_MPI_COLLECTIVE_BEGIN => Ev::MpiCollectiveBegin,
            EV_MPI_COLLECTIVE_END => Ev::MpiCollectiveEnd(Coll {
                op: a[0] as u32,
                comm: a[1],
                root: a[2] as u32,
                sent: a[3],
                received: a[4],
            }),
            EV_OTHER => {
                let name = Self::text(r.text);
                let n = self.others.len();
                let k = match self.others.get(&name) {
                    Some(&k) => k,
                    None => {
                        let k = u16::try_from(n).map_err(|_| "too many kinds of records")?;
                        self.others.insert(name.clone(), k);
                        self.raw.other_names.push(name);
                        k
                    }
                };
                Ev::Other(k)
            }
            k => return Err(format!("the OTF2 reader handed over record kind {k}")),
        };
        // a location's events come together, in order
        let e = Event {
            pos: r.pos,
            time: r.time,
            ev,
        };
        match self.raw.locations.last_mut() {
            Some((loc, evs)) if *loc == r.id => evs.push(e),
            _ => self.raw.locations.push((r.id, vec![e])),
        }
        Ok(())
    }
}

unsafe extern "C" fn sink(user: *mut c_void, rec: *const Rec) -> c_int {
    // SAFETY: `user` is the `Builder` that `read` passed, alive and not otherwise borrowed
    // while the library reads; `rec` is the shim's record, valid during the call.
    let (b, r) = unsafe { (&mut *(user as *mut Builder), &*rec) };
    // never unwind into C
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| b.add(r))) {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => {
            b.error = Some(e);
            1
        }
        Err(_) => {
            b.error = Some("the OTF2 record handler panicked".into());
            1
        }
    }
}

/// Read the trace whose anchor file is `path` with the OTF2 library.
pub fn read(path: &Path) -> Result<Raw, String> {
    let anchor = CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|_| "the path holds a NUL byte".to_string())?;
    let mut b = Builder::default();
    let mut err = vec![0 as c_char; 1024];
    // SAFETY: every pointer is valid for the call; the shim calls `sink` with `&mut b` only
    // during it, and writes at most `err.len()` bytes (NUL included) into `err`.
    let rc = unsafe {
        exa_otf2_read(
            anchor.as_ptr(),
            sink,
            &mut b as *mut Builder as *mut c_void,
            err.as_mut_ptr(),
            err.len(),
        )
    };
    if let Some(e) = b.error {
        return Err(e);
    }
    if rc != 0 {
        let msg = Builder::text(err.as_ptr());
        return Err(if msg.is_empty() {
            "the OTF2 library could not read it".into()
        } else {
            format!("the OTF2 library: {msg}")
        });
    }
    Ok(b.raw)
}

/// Write `ranks[r]`'s events as rank r's of an OTF2 trace in `dir` (`dir/traces.otf2`): MPI
/// point-to-point events and Enter/Leave of the regions named `regions` (by index), on
/// communicator 0, MPI_COMM_WORLD (`writer.c` has the definitions).
pub fn write(
    dir: &Path,
    resolution: u64,
    regions: &[&str],
    ranks: &[Vec<Event>],
) -> Result<(), String> {
    let c = |s: &[u8], what: &str| CString::new(s).map_err(|_| format!("{what} holds a NUL byte"));
    let dir_c = c(dir.as_os_str().as_encoded_bytes(), "the directory")?;
    let names = regions
        .iter()
        .map(|r| c(r.as_bytes(), "a region name"))
        .collect::<Result<Vec<CString>, String>>()?;
    let name_ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
    let mut flat: Vec<Vec<WEv>> = Vec::with_capacity(ranks.len());
    for (r, evs) in ranks.iter().enumerate() {
        let mut v = Vec::with_capacity(evs.len());
        for e in evs {
            let p = |p: &P2p, q: u64| [p.peer as u64, p.comm, p.tag as u64, p.bytes, q];
            let (kind, a) = match &e.ev {
                Ev::Enter(x) | Ev::Leave(x) if *x as usize >= regions.len() => {
                    return Err(format!("rank {r}, event {}: region {x} has no name", e.pos))
                }
                Ev::Enter(x) => (EV_ENTER, [*x, 0, 0, 0, 0]),
                Ev::Leave(x) => (EV_LEAVE, [*x, 0, 0, 0, 0]),
                Ev::MpiSend(x) => (EV_MPI_SEND, p(x, 0)),
                Ev::MpiRecv(x) => (EV_MPI_RECV, p(x, 0)),
                Ev::MpiIsend(x, q) => (EV_MPI_ISEND, p(x, *q)),
                Ev::MpiIrecv(x, q) => (EV_MPI_IRECV, p(x, *q)),
                Ev::MpiIsendComplete(q) => (EV_MPI_ISEND_COMPLETE, [*q, 0, 0, 0, 0]),
                Ev::MpiIrecvRequest(q) => (EV_MPI_IRECV_REQUEST, [*q, 0, 0, 0, 0]),
                other => {
                    return Err(format!(
                        "rank {r}, event {}: {other:?} is not one the writer writes",
                        e.pos
                    ))
                }
            };
            v.push(WEv {
                kind,
                time: e.time,
                a,
            });
        }
        flat.push(v);
    }
    let ptrs: Vec<*const WEv> = flat.iter().map(|v| v.as_ptr()).collect();
    let lens: Vec<u64> = flat.iter().map(|v| v.len() as u64).collect();
    let n = u32::try_from(ranks.len()).map_err(|_| "too many ranks".to_string())?;
    let mut err = vec![0 as c_char; 1024];
    // SAFETY: every pointer is valid and unchanged for the call: the strings, the per-rank
    // arrays (`ptrs[r]` holds `lens[r]` events) and `err` of `err.len()` bytes.
    let rc = unsafe {
        exa_otf2_write(
            dir_c.as_ptr(),
            resolution,
            n,
            name_ptrs.as_ptr(),
            name_ptrs.len() as u32,
            ptrs.as_ptr(),
            lens.as_ptr(),
            err.as_mut_ptr(),
            err.len(),
        )
    };
    if rc != 0 {
        return Err(format!("the OTF2 library: {}", Builder::text(err.as_ptr())));
    }
    Ok(())
}
