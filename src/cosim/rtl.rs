//! The Verilated RTL, driven from Rust.
//!
//! `build.rs` verilates each top of its `TOPS` table, generates a C++ shim per top
//! (`testbench/shim.cpp.in`, C interface in `testbench/exanet_vl.h`) and links them in. An
//! [`RtlModel`] owns one instance of one top and reaches every design signal through a table
//! of pointers into the live model, named exactly as Verilator names them in its VCD
//! (`TOP.exanet_selftest_top.u_a.cnt_q`, array elements `mem_q[3]`).
//!
//! Clocking follows `docs/architecture.md`: set the inputs of cycle `c`, `clk_i = 0`, `eval`,
//! `trace_dump(P*c)`, `clk_i = 1`, `eval`, `trace_dump(P*c + P/2)`.
//!
//! Decisions and limits: `docs/decisions/0001-verilator-integration.md`.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::thread::JoinHandle;

use crate::wave::{vcd_to_fst, DrainOnDrop, ScopeFilter, VcdFilter, WaveError, WaveFormat};

// `RtlTop` and, per top, its `TopBuild` (the C entry points, or why it is absent).
include!(concat!(env!("OUT_DIR"), "/rtl_tops.rs"));

/// `exanet_vl_signal` of `testbench/exanet_vl.h`.
#[repr(C)]
#[cfg_attr(exanet_no_rtl, allow(dead_code))]
struct RawSignal {
    name: *const c_char,
    ptr: *mut c_void,
    width: u32,
    kind: u32,
    elem_bytes: u32,
    count: u32,
    ndims: u32,
    dims: [u32; 4],
    is_input: u32,
}

/// The C entry points of one built top (`exanet_vl_<name>_*`).
#[cfg_attr(exanet_no_rtl, allow(dead_code))]
struct Backend {
    create: unsafe extern "C" fn() -> *mut c_void,
    destroy: unsafe extern "C" fn(*mut c_void),
    eval: unsafe extern "C" fn(*mut c_void),
    signals: unsafe extern "C" fn(*mut c_void, *mut u32) -> *const RawSignal,
    trace_open: unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int,
    trace_dump: unsafe extern "C" fn(*mut c_void, u64),
    trace_close: unsafe extern "C" fn(*mut c_void) -> c_int,
    final_: unsafe extern "C" fn(*mut c_void),
    got_error: unsafe extern "C" fn(*mut c_void) -> c_int,
}

/// What this binary holds for one top.
#[cfg_attr(exanet_no_rtl, allow(dead_code))]
enum TopBuild {
    Built {
        backend: Backend,
        /// (VCD name, reason) of the design signals not in the table, parameters included.
        excluded: &'static [(&'static str, &'static str)],
    },
    /// The generated `rtl_tops.rs` uses it only for a top that was not built, so a binary in
    /// which every top of `TOPS` is built never constructs it.
    #[allow(dead_code)]
    Absent(NotBuilt),
}

/// Why a top is not in this binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotBuilt {
    /// `verilator` was not on PATH when the crate was built.
    NoVerilator,
    /// The crate was built with `EXANET_NO_RTL=1`.
    Disabled,
    /// No `<module>.sv` in `rtl/` or `testbench/rtl/` when the crate was built.
    NoRtlFile,
}

/// Which tops this binary contains: every [`RtlTop`], with `true` if it was built.
pub fn built_tops() -> Vec<(RtlTop, bool)> {
    RtlTop::ALL
        .iter()
        .map(|&t| (t, matches!(t.build(), TopBuild::Built { .. })))
        .collect()
}

/// An error of the RTL bridge.
#[derive(Debug)]
pub enum RtlError {
    /// The top is not in this binary.
    NotBuilt { top: RtlTop, why: NotBuilt },
    /// `set` on a signal that is not a top-level input.
    NotInput { name: String },
    /// The C++ side could not create the model (its message went to stderr).
    CreateFailed { top: RtlTop },
    /// A wave file could not be opened or written.
    Trace { path: PathBuf, message: String },
}

impl fmt::Display for RtlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RtlError::NotBuilt { top, why } => {
                write!(
                    f,
                    "RTL top `{}` ({}) is not in this binary: ",
                    top.name(),
                    top.module()
                )?;
                match why {
                    NotBuilt::NoVerilator => write!(
                        f,
                        "the crate was built without Verilator (`verilator` was not on PATH). \
                         Install Verilator 5 (`apt-get install verilator`) and rebuild \
                         (cargo reruns build.rs when PATH's directories change; \
                         `touch build.rs` forces it)"
                    ),
                    NotBuilt::Disabled => write!(
                        f,
                        "the crate was built with EXANET_NO_RTL=1. Unset it and rebuild"
                    ),
                    NotBuilt::NoRtlFile => {
                        let file = format!("{}.sv", top.module());
                        write!(
                            f,
                            "there was no `{file}` in rtl/ or testbench/rtl/ when the crate was built"
                        )?;
                        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
                        if ["rtl", "testbench/rtl"]
                            .iter()
                            .any(|d| crate_dir.join(d).join(&file).is_file())
                        {
                            write!(f, "; it exists now: `touch build.rs` and rebuild")?;
                        }
                        Ok(())
                    }
                }
            }
            RtlError::NotInput { name } => {
                write!(
                    f,
                    "`{name}` is not a top-level input; only inputs may be set"
                )
            }
            RtlError::CreateFailed { top } => {
                write!(
                    f,
                    "the Verilated model of `{}` could not be created",
                    top.name()
                )
            }
            RtlError::Trace { path, message } => {
                write!(f, "wave file {}: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for RtlError {}

/// One element of the signal table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RtlSignal {
    /// Full VCD name: `TOP.clk_i`, `TOP.exanet_selftest_top.gen_vc[0].u_cnt.cnt_q`,
    /// `TOP.exanet_selftest_top.mem_q[3]`, `TOP.exanet_selftest_top.grid_q[1][2]`.
    pub name: String,
    /// Width in bits, 1..=128.
    pub width: u32,
    /// A top-level input: the only kind of signal [`RtlModel::set`] accepts.
    pub is_input: bool,
}

/// Index of a signal in one model's table ([`RtlModel::signals`]). Ids are the same for
/// every instance of a top within one binary, but mean nothing for another top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SignalId(usize);

impl SignalId {
    /// Position in [`RtlModel::signals`].
    pub fn index(self) -> usize {
        self.0
    }
}

/// Storage of one element.
#[derive(Clone, Copy, Debug)]
enum Kind {
    U8,
    U16,
    U32,
    U64,
    /// `words` little-endian `u32` words (`VlWide<words>`), at most 4 for 128 bits.
    Wide(usize),
}

/// Where one element lives inside the model.
#[derive(Clone, Copy, Debug)]
struct Slot {
    ptr: NonNull<u8>,
    kind: Kind,
}

/// Reads every signal of one model in one pass, each storage once (Verilator keeps a port and
/// the net it connects in one place): for coverage, which samples all of them twice a cycle.
#[derive(Default)]
pub struct AllSignals {
    /// Distinct storage: where, its kind (0..=3: 8 to 64 bits; 4 + w: `w` `u32` words), the
    /// width's mask.
    reads: Vec<(NonNull<u8>, u8, u128)>,
    /// Signal i's value is `values[of_signal[i]]`.
    pub of_signal: Vec<usize>,
    /// The model these pointers point into.
    handle: usize,
}

impl AllSignals {
    /// The distinct values, in the order [`AllSignals::of_signal`] indexes.
    pub fn read(&self, rtl: &RtlModel, values: &mut Vec<u128>) {
        assert_eq!(
            rtl.handle.as_ptr() as usize,
            self.handle,
            "a reader of another model"
        );
        values.resize(self.reads.len(), 0);
        for (v, &(p, code, m)) in values.iter_mut().zip(&self.reads) {
            let p = p.as_ptr();
            // SAFETY: `p` points to a live, aligned element of storage `code` inside `rtl`
            // (checked to be the model this reader was made from), read while `rtl` is
            // borrowed; a wide element is `code - 4` `u32` words.
            *v = m & unsafe {
                match code {
                    0 => u128::from(p.read()),
                    1 => u128::from(p.cast::<u16>().read()),
                    2 => u128::from(p.cast::<u32>().read()),
                    3 => u128::from(p.cast::<u64>().read()),
                    _ => (0..usize::from(code - 4)).fold(0u128, |acc, w| {
                        acc | u128::from(p.cast::<u32>().add(w).read()) << (32 * w)
                    }),
                }
            };
        }
    }
}

/// One Verilated instance of one top. Freed on drop.
pub struct RtlModel {
    top: RtlTop,
    backend: &'static Backend,
    excluded: &'static [(&'static str, &'static str)],
    /// The C++ `Instance`; valid from `new` until `drop`.
    handle: NonNull<c_void>,
    signals: Vec<RtlSignal>,
    /// `slots[i]` is where `signals[i]` lives.
    slots: Vec<Slot>,
    by_name: HashMap<String, SignalId>,
    tracing: bool,
    /// The wave file open, for its errors.
    trace_path: Option<PathBuf>,
    /// With an FST trace: the file and the thread converting Verilator's VCD stream into it.
    converter: Option<(PathBuf, JoinHandle<Result<(), WaveError>>)>,
}

// SAFETY: the instance has its own VerilatedContext and is reached only through this owner
// (no aliasing handles, `RtlModel` is not `Clone`, and the slot pointers point into the
// instance). Verilator's runtime has no thread affinity outside VL_DEBUG builds, and every
// shim entry point first makes this instance's context the calling thread's current one, so
// the model may be driven from any one thread at a time. Not `Sync`: `&RtlModel` gives
// reads only, but there is no need to share one model between threads.
unsafe impl Send for RtlModel {}

impl RtlModel {
    /// Creates a fresh instance of `top` (its own `VerilatedContext`), with every register
    /// at Verilator's initial value (0: built with `--x-initial 0`).
    pub fn new(top: RtlTop) -> Result<Self, RtlError> {
        let (backend, excluded) = match top.build() {
            TopBuild::Absent(why) => return Err(RtlError::NotBuilt { top, why: *why }),
            TopBuild::Built { backend, excluded } => (backend, *excluded),
        };
        // SAFETY: `create` takes no arguments and returns an owned instance or null.
        let handle =
            NonNull::new(unsafe { (backend.create)() }).ok_or(RtlError::CreateFailed { top })?;
        let mut model = RtlModel {
            top,
            backend,
            excluded,
            handle,
            signals: Vec::new(),
            slots: Vec::new(),
            by_name: HashMap::new(),
            tracing: false,
            trace_path: None,
            converter: None,
        };
        model.load_table();
        Ok(model)
    }

    /// Copies the shim's table into `signals`/`slots`, one entry per array element.
    fn load_table(&mut self) {
        let mut count = 0u32;
        // SAFETY: `handle` is live; the shim returns a pointer to `count` entries owned by the
        // instance, which stay valid (and unchanged) until `destroy`; the slice is dropped at
        // the end of this function, before anything else touches the instance.
        let raw = unsafe {
            let p = (self.backend.signals)(self.handle.as_ptr(), &mut count);
            std::slice::from_raw_parts(p, count as usize)
        };
        for s in raw {
            // SAFETY: the shim's names are NUL-terminated string literals.
            let name = unsafe { CStr::from_ptr(s.name) }
                .to_string_lossy()
                .into_owned();
            let kind = match (s.kind, s.elem_bytes) {
                (0, 1) => Kind::U8,
                (1, 2) => Kind::U16,
                (2, 4) => Kind::U32,
                (3, 8) => Kind::U64,
                (4, b) if b % 4 == 0 && (1..=4).contains(&(b / 4)) => Kind::Wide(b as usize / 4),
                (k, b) => panic!("{name}: storage kind {k} of {b} bytes is not supported"),
            };
            assert!(
                (1..=128).contains(&s.width),
                "{name}: width {} (build.rs keeps 1..=128)",
                s.width
            );
            let dims = &s.dims[..s.ndims as usize];
            assert_eq!(
                dims.iter().product::<u32>(),
                s.count,
                "{name}: dims and count"
            );
            let base = NonNull::new(s.ptr.cast::<u8>()).expect("the shim's pointers are not null");
            for k in 0..s.count as usize {
                let mut elem = name.clone();
                let mut rest = k;
                let mut stride: usize = dims.iter().map(|&d| d as usize).product();
                for &d in dims {
                    stride /= d as usize;
                    elem.push_str(&format!("[{}]", rest / stride));
                    rest %= stride;
                }
                // SAFETY: element `k < count` of a contiguous array of `count` elements of
                // `elem_bytes` each (static_assert'ed in the shim), so still inside it.
                let ptr = unsafe { base.add(k * s.elem_bytes as usize) };
                let id = SignalId(self.signals.len());
                let previous = self.by_name.insert(elem.clone(), id);
                assert!(previous.is_none(), "two signals named {elem}");
                self.signals.push(RtlSignal {
                    name: elem,
                    width: s.width,
                    is_input: s.is_input != 0,
                });
                self.slots.push(Slot { ptr, kind });
            }
        }
    }

    /// The top this instance was built from.
    pub fn top(&self) -> RtlTop {
        self.top
    }

    /// Every design signal in the table, array elements one by one.
    pub fn signals(&self) -> &[RtlSignal] {
        &self.signals
    }

    /// The design signals left out of the table, as (full VCD name, reason): parameters
    /// (reason `"parameter"`), signals wider than 128 bits, arrays with a dimension over 64,
    /// types the bridge does not read (`real`, strings, queues).
    pub fn excluded(&self) -> &'static [(&'static str, &'static str)] {
        self.excluded
    }

    /// The id of the signal with this full VCD name.
    pub fn find(&self, name: &str) -> Option<SignalId> {
        self.by_name.get(name).copied()
    }

    /// The signal's current value (its `width` low bits).
    ///
    /// Panics if `id` is not an index of this model's table.
    pub fn get(&self, id: SignalId) -> u128 {
        let slot = self.slots[id.0];
        let width = self.signals[id.0].width;
        let p = slot.ptr.as_ptr();
        // SAFETY: `p` points to a live, aligned element of the given storage inside this
        // instance (see `load_table`), and the C++ side runs only inside `&mut self` calls.
        let v = unsafe {
            match slot.kind {
                Kind::U8 => u128::from(p.read()),
                Kind::U16 => u128::from(p.cast::<u16>().read()),
                Kind::U32 => u128::from(p.cast::<u32>().read()),
                Kind::U64 => u128::from(p.cast::<u64>().read()),
                Kind::Wide(words) => (0..words).fold(0u128, |acc, w| {
                    acc | u128::from(p.cast::<u32>().add(w).read()) << (32 * w)
                }),
            }
        };
        v & mask(width)
    }

    /// A reader of every signal at once ([`AllSignals`]).
    pub fn all_signals(&self) -> AllSignals {
        let mut at: HashMap<(usize, u8), usize> = HashMap::new();
        let mut a = AllSignals {
            of_signal: Vec::with_capacity(self.slots.len()),
            ..AllSignals::default()
        };
        for (slot, sig) in self.slots.iter().zip(&self.signals) {
            let code = match slot.kind {
                Kind::U8 => 0u8,
                Kind::U16 => 1,
                Kind::U32 => 2,
                Kind::U64 => 3,
                Kind::Wide(w) => 4 + w as u8,
            };
            let key = (slot.ptr.as_ptr() as usize, code);
            let k = *at.entry(key).or_insert_with(|| {
                a.reads.push((slot.ptr, code, mask(sig.width)));
                a.reads.len() - 1
            });
            a.of_signal.push(k);
        }
        a.handle = self.handle.as_ptr() as usize;
        a
    }

    /// Writes a top-level input; `value` is masked to the signal's width. Takes effect at
    /// the next [`eval`](Self::eval).
    pub fn set(&mut self, id: SignalId, value: u128) -> Result<(), RtlError> {
        let sig = &self.signals[id.0];
        if !sig.is_input {
            return Err(RtlError::NotInput {
                name: sig.name.clone(),
            });
        }
        self.write(id, value);
        Ok(())
    }

    /// Deposits `value` into any stored signal, a register included: a backdoor write between
    /// two evaluations (decision 0044). Verilator 5 recomputes the logic an input feeds at every
    /// [`eval`](Self::eval) (its `ico` region), the logic reading the register among it, so the
    /// next evaluation sees the value; the lockstep's comparison checks that it did.
    pub fn deposit(&mut self, id: SignalId, value: u128) {
        self.write(id, value);
    }

    fn write(&mut self, id: SignalId, value: u128) {
        let sig = &self.signals[id.0];
        let v = value & mask(sig.width);
        let slot = self.slots[id.0];
        let p = slot.ptr.as_ptr();
        // SAFETY: as in `get`; every signal is plain storage the model reads and writes only
        // during `eval`, and we hold `&mut self`. Truncating casts are intended: `v` fits the
        // width.
        unsafe {
            match slot.kind {
                Kind::U8 => p.write(v as u8),
                Kind::U16 => p.cast::<u16>().write(v as u16),
                Kind::U32 => p.cast::<u32>().write(v as u32),
                Kind::U64 => p.cast::<u64>().write(v as u64),
                Kind::Wide(words) => {
                    for w in 0..words {
                        p.cast::<u32>().add(w).write((v >> (32 * w)) as u32);
                    }
                }
            }
        }
    }

    /// Evaluates the model with the current inputs (a clock edge if `clk_i` changed).
    pub fn eval(&mut self) {
        // SAFETY: `handle` is live until drop.
        unsafe { (self.backend.eval)(self.handle.as_ptr()) }
    }

    /// True once the RTL reported an error: a failed assertion (built with `--assert`),
    /// `$error`, `$fatal` or `$stop`. Verilator printed the message on stdout.
    pub fn got_error(&self) -> bool {
        // SAFETY: `handle` is live; `got_error` only reads the context's flag.
        unsafe { (self.backend.got_error)(self.handle.as_ptr()) != 0 }
    }

    /// Opens a VCD file (timescale 1 ps) written by Verilator's own tracer; closes any open
    /// one first. Dump with [`trace_dump`](Self::trace_dump) after each `eval`.
    pub fn trace_open(&mut self, path: &Path) -> Result<(), RtlError> {
        self.trace_open_as(path, WaveFormat::Vcd)
    }

    /// Opens a wave file (timescale 1 ps) in `format`; closes any open one first.
    ///
    /// VCD is Verilator's own tracer writing the file. FST: Verilator 5.006 builds a model with
    /// either VCD or FST tracing, not both, so the tracer writes its VCD into a pipe
    /// (`/proc/self/fd/N`, Linux) and a thread converts the stream into the FST file
    /// ([`crate::wave::vcd_to_fst`]; the reasons in `docs/decisions/0014-fst-waves.md`).
    /// [`trace_finish`](Self::trace_finish) reports a failed conversion.
    pub fn trace_open_as(&mut self, path: &Path, format: WaveFormat) -> Result<(), RtlError> {
        self.trace_open_scoped(path, format, None)
    }

    /// As [`trace_open_as`](Self::trace_open_as), writing only the signals `scopes` keeps: the
    /// tracer's VCD then goes through a pipe and [`VcdFilter`] (`wave/scopes.rs`) into the
    /// file, or into the FST converter.
    pub fn trace_open_scoped(
        &mut self,
        path: &Path,
        format: WaveFormat,
        scopes: Option<ScopeFilter>,
    ) -> Result<(), RtlError> {
        let err = |message: String| RtlError::Trace {
            path: path.to_path_buf(),
            message,
        };
        self.trace_close();
        // Verilator only prints an error when it cannot open the file; find out first.
        std::fs::File::create(path).map_err(|e| err(e.to_string()))?;
        let (target, pipe) = match (format, scopes) {
            (WaveFormat::Vcd, None) => (path.to_path_buf(), None),
            (format, scopes) => {
                let (reader, writer) = std::io::pipe().map_err(|e| err(e.to_string()))?;
                let out = path.to_path_buf();
                let thread = std::thread::Builder::new()
                    .name("exanet-vcd-to-fst".into())
                    .spawn(move || {
                        let name = "Verilator's VCD stream";
                        let input = std::io::BufReader::with_capacity(1 << 20, DrainOnDrop(reader));
                        match (format, scopes) {
                            (WaveFormat::Fst, None) => vcd_to_fst(input, name, &out),
                            (WaveFormat::Fst, Some(f)) => {
                                vcd_to_fst(VcdFilter::new(input, f), name, &out)
                            }
                            (WaveFormat::Vcd, f) => {
                                let f = f.expect("a plain VCD is written by the tracer itself");
                                let file = out.display().to_string();
                                let mut filtered = VcdFilter::new(input, f);
                                let o = std::fs::File::create(&out)
                                    .map_err(|e| WaveError::io(&file, e))?;
                                let mut o = std::io::BufWriter::with_capacity(1 << 20, o);
                                std::io::copy(&mut filtered, &mut o)
                                    .and_then(|_| std::io::Write::flush(&mut o))
                                    .map_err(|e| WaveError::io(&file, e))?;
                                Ok(())
                            }
                        }
                    })
                    .map_err(|e| err(e.to_string()))?;
                use std::os::fd::AsRawFd;
                let fd_path = PathBuf::from(format!("/proc/self/fd/{}", writer.as_raw_fd()));
                (fd_path, Some((writer, thread)))
            }
        };
        let c_path = target
            .to_str()
            .and_then(|s| CString::new(s).ok())
            .ok_or_else(|| err("the path is not UTF-8 without NUL".into()))?;
        // SAFETY: `handle` is live; `c_path` outlives the call (Verilator copies it).
        let rc = unsafe { (self.backend.trace_open)(self.handle.as_ptr(), c_path.as_ptr()) };
        // Verilator opened the pipe through its own descriptor: ours goes, so that the
        // converter sees the end of the stream when Verilator closes it.
        let converter = pipe.map(|(writer, thread)| {
            drop(writer);
            (path.to_path_buf(), thread)
        });
        if rc != 0 {
            if let Some((_, t)) = converter {
                let _ = t.join();
            }
            return Err(err("Verilator could not open it".into()));
        }
        self.converter = converter;
        self.tracing = true;
        self.trace_path = Some(path.to_path_buf());
        Ok(())
    }

    /// Records every traced signal's current value at `time_ps`; nothing if no trace is open.
    pub fn trace_dump(&mut self, time_ps: u64) {
        if self.tracing {
            // SAFETY: `handle` is live.
            unsafe { (self.backend.trace_dump)(self.handle.as_ptr(), time_ps) }
        }
    }

    /// Flushes and closes the wave file, if one is open (an FST's conversion error is not
    /// reported: [`trace_finish`](Self::trace_finish) does).
    pub fn trace_close(&mut self) {
        let _ = self.trace_finish();
    }

    /// Flushes and closes the wave file, if one is open, and reports whether an FST file was
    /// converted and written completely.
    pub fn trace_finish(&mut self) -> Result<(), RtlError> {
        // the errno of a write of Verilator's tracer that failed (a full disk), 0 if none
        let mut write_error = 0;
        if self.tracing {
            // SAFETY: `handle` is live.
            write_error = unsafe { (self.backend.trace_close)(self.handle.as_ptr()) };
            self.tracing = false;
        }
        let path = self.trace_path.take();
        let lost = |path: PathBuf| RtlError::Trace {
            path,
            message: format!(
                "not written whole: {}",
                std::io::Error::from_raw_os_error(write_error)
            ),
        };
        match self.converter.take() {
            None => match path {
                Some(p) if write_error > 0 => Err(lost(p)),
                _ => Ok(()),
            },
            Some((path, thread)) => {
                let message = match thread.join() {
                    Ok(Ok(())) if write_error > 0 => return Err(lost(path)),
                    Ok(Ok(())) => return Ok(()),
                    Ok(Err(e)) => e.to_string(),
                    Err(_) => "the VCD-to-FST converter panicked".to_string(),
                };
                Err(RtlError::Trace { path, message })
            }
        }
    }

    /// Runs the SystemVerilog `final` blocks (drop does it too if this was not called).
    pub fn finish(&mut self) {
        // SAFETY: `handle` is live.
        unsafe { (self.backend.final_)(self.handle.as_ptr()) }
    }
}

impl Drop for RtlModel {
    fn drop(&mut self) {
        self.trace_close();
        // SAFETY: `handle` came from `create` and is destroyed exactly once, here; nothing
        // can use it afterwards (this is the owner, and the slot pointers die with it).
        unsafe { (self.backend.destroy)(self.handle.as_ptr()) }
    }
}

impl fmt::Debug for RtlModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RtlModel")
            .field("top", &self.top)
            .field("signals", &self.signals.len())
            .field("tracing", &self.tracing)
            .finish()
    }
}

/// The `width` low bits set.
fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}
