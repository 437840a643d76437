//! FST waves: the model's FST writer ([`FstWaveWriter`], with the `fst-writer` crate), the
//! converter that turns Verilator's VCD stream into FST ([`vcd_to_fst`]), and the FST side of
//! `wave-diff` (`FstStream`, with the `fst-reader` crate). Why the RTL's FST is converted
//! rather than traced: `docs/decisions/0014-fst-waves.md`.
//!
//! # Names in an FST file
//!
//! A variable is written as Verilator's own FST tracer writes it: its reference, then for a
//! vector ` [msb:0]` (`credit_cnt_q[0] [9:0]`). Read back, names follow the VCD rules of
//! [`crate::wave`]: a trailing ` [msb:lsb]` restates the width and is dropped, a trailing
//! ` [n]` is a bit-select and becomes `[n]`, so an FST and a VCD of the same run name every
//! signal alike and `wave-diff` compares them signal by signal.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

use fst_writer::{
    FstBodyWriter, FstFileType, FstHeaderWriter, FstInfo, FstScopeType, FstSignalId, FstSignalType,
    FstVarDirection, FstVarType,
};

use super::error::WaveError;
use super::path::split_path;
use super::reader::{Kind, Named, Slot, Values, VcdStream, WaveStream};
use super::writer::SignalDecl;
use super::{MAX_FILE_WIDTH, MAX_WRITER_WIDTH};

/// Value changes held in memory before they are compressed into a block of the file (the
/// `fst-writer` example's figure): bounds the writer's memory whatever the run's length.
const FLUSH_AT: usize = 32 << 20;

/// `10^e` seconds per tick for a timescale of `ps` picoseconds (1, 10 or 100 times a power
/// of 1000), as FST stores it.
fn exponent_of_ps(ps: u64) -> Option<i8> {
    exponent_of_fs(ps.checked_mul(1000)?)
}

/// The exponent for `fs` femtoseconds per tick, if that is a power of ten.
fn exponent_of_fs(mut fs: u64) -> Option<i8> {
    if fs == 0 {
        return None;
    }
    let mut e: i8 = -15;
    while fs > 1 {
        if !fs.is_multiple_of(10) {
            return None;
        }
        fs /= 10;
        e += 1;
    }
    Some(e)
}

fn write_err(file: &str, e: fst_writer::FstWriteError) -> WaveError {
    match e {
        fst_writer::FstWriteError::Io(io) => WaveError::io(file, io),
        other => WaveError::malformed(file, None, format!("cannot write FST: {other}")),
    }
}

/// One variable to declare: full dotted name, width, and the declaration it aliases (an
/// earlier entry's index), if any.
struct VarDecl<'a> {
    name: &'a str,
    width: u32,
    alias_of: Option<usize>,
}

/// Writes the hierarchy of `vars` (sorted by name) and returns each one's signal id.
///
/// The scopes are opened and closed as the sorted names go by, with no tree: all names under
/// one scope are contiguous in sorted order, so no scope is opened twice, and the nesting depth
/// costs no stack.
fn write_hierarchy<W: Write + io::Seek>(
    h: &mut FstHeaderWriter<W>,
    file: &str,
    vars: &[VarDecl<'_>],
) -> Result<Vec<FstSignalId>, WaveError> {
    let mut open: Vec<&str> = Vec::new();
    let mut ids: Vec<FstSignalId> = Vec::with_capacity(vars.len());
    for v in vars {
        let parts = split_path(v.name).map_err(WaveError::Usage)?;
        let (scopes, reference) = parts.split_at(parts.len() - 1);
        let common = open.iter().zip(scopes).take_while(|(a, b)| a == b).count();
        while open.len() > common {
            open.pop();
            h.up_scope().map_err(|e| write_err(file, e))?;
        }
        for s in &scopes[common..] {
            h.scope(*s, "", FstScopeType::Module)
                .map_err(|e| write_err(file, e))?;
            open.push(s);
        }
        let name = if v.width > 1 {
            format!("{} [{}:0]", reference[0], v.width - 1)
        } else {
            reference[0].to_string()
        };
        let alias = v.alias_of.map(|i| ids[i]);
        let id = h
            .var(
                name,
                FstSignalType::bit_vec(v.width),
                FstVarType::Wire,
                FstVarDirection::Implicit,
                alias,
            )
            .map_err(|e| write_err(file, e))?;
        ids.push(id);
    }
    for _ in open {
        h.up_scope().map_err(|e| write_err(file, e))?;
    }
    Ok(ids)
}

fn info(timescale_exponent: i8) -> FstInfo {
    FstInfo {
        start_time: 0,
        timescale_exponent,
        version: "exanet wave::fst".to_string(),
        // Left empty so that the same run writes the same bytes.
        date: String::new(),
        file_type: FstFileType::Verilog,
    }
}

/// Writes an FST file from samples of a fixed set of signals: the same interface and the same
/// rules as [`super::VcdWriter`] (values masked to their widths, the first sample writes every
/// value, later ones only what changed, a sample must come after the previous one).
pub struct FstWaveWriter {
    file: String,
    body: FstBodyWriter<BufWriter<File>>,
    /// Per declaration (in the caller's order): its signal id and width.
    ids: Vec<FstSignalId>,
    widths: Vec<u32>,
    prev: Vec<u128>,
    last_time: Option<u64>,
    bits: Vec<u8>,
}

impl FstWaveWriter {
    /// Creates `path` with a timescale of `timescale_ps` picoseconds and declares `decls`.
    pub fn create(
        path: &Path,
        timescale_ps: u32,
        decls: &[SignalDecl],
    ) -> Result<FstWaveWriter, WaveError> {
        let file = path.display().to_string();
        let exp = exponent_of_ps(u64::from(timescale_ps)).ok_or_else(|| {
            WaveError::Usage(format!(
                "timescale {timescale_ps} ps is not a power of ten picoseconds"
            ))
        })?;
        let mut order: Vec<usize> = (0..decls.len()).collect();
        order.sort_by(|&a, &b| decls[a].path.cmp(&decls[b].path));
        for w in order.windows(2) {
            if decls[w[0]].path == decls[w[1]].path {
                return Err(WaveError::Usage(format!(
                    "signal `{}` is declared twice",
                    decls[w[0]].path
                )));
            }
        }
        for d in decls {
            if d.width == 0 || d.width > MAX_WRITER_WIDTH {
                return Err(WaveError::Usage(format!(
                    "signal `{}` has width {}: the writer takes 1..={MAX_WRITER_WIDTH} bits",
                    d.path, d.width
                )));
            }
        }
        let vars: Vec<VarDecl> = order
            .iter()
            .map(|&i| VarDecl {
                name: &decls[i].path,
                width: decls[i].width,
                alias_of: None,
            })
            .collect();
        let f = File::create(path).map_err(|e| WaveError::io(&file, e))?;
        let mut h =
            FstHeaderWriter::new(BufWriter::new(f), &info(exp)).map_err(|e| write_err(&file, e))?;
        let sorted_ids = write_hierarchy(&mut h, &file, &vars)?;
        let mut ids = sorted_ids.clone();
        for (k, &i) in order.iter().enumerate() {
            ids[i] = sorted_ids[k];
        }
        let body = h.finish().map_err(|e| write_err(&file, e))?;
        Ok(FstWaveWriter {
            file,
            body,
            ids,
            widths: decls.iter().map(|d| d.width).collect(),
            prev: vec![0; decls.len()],
            last_time: None,
            bits: Vec::with_capacity(128),
        })
    }

    /// Records every signal's value (in declaration order) at `time`, in timescale units.
    pub fn sample(&mut self, time: u64, values: &[u128]) -> Result<(), WaveError> {
        let first =
            super::writer::next_sample(&mut self.last_time, time, values.len(), self.ids.len())?;
        let mut time_written = false;
        for (k, &raw) in values.iter().enumerate() {
            let w = self.widths[k];
            let v = if w == 128 {
                raw
            } else {
                raw & ((1u128 << w) - 1)
            };
            if v == self.prev[k] && !first {
                continue;
            }
            self.prev[k] = v;
            if !time_written {
                time_written = true;
                // A block may only end right before a new time (fst-writer's rule).
                if self.body.size() >= FLUSH_AT {
                    self.body.flush().map_err(|e| write_err(&self.file, e))?;
                }
                self.body
                    .time_change(time)
                    .map_err(|e| write_err(&self.file, e))?;
            }
            self.bits.clear();
            self.bits
                .extend((0..w).rev().map(|b| b'0' + ((v >> b) & 1) as u8));
            self.body
                .signal_change(self.ids[k], &self.bits)
                .map_err(|e| write_err(&self.file, e))?;
        }
        Ok(())
    }

    /// Writes the last block and the header's totals, and closes the file.
    pub fn finish(self) -> Result<(), WaveError> {
        let mut out = self.body.finish().map_err(|e| write_err(&self.file, e))?;
        out.flush().map_err(|e| WaveError::io(&self.file, e))
    }
}

/// A reader that, when dropped, first reads its input to the end. The converter reads
/// Verilator's VCD from a pipe: if it stopped reading on an error, Verilator's next write to
/// the full pipe would block the simulation for ever (or, pipe closed, raise SIGPIPE).
pub(crate) struct DrainOnDrop<R: Read>(pub R);

impl<R: Read> Read for DrainOnDrop<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl<R: Read> Drop for DrainOnDrop<R> {
    fn drop(&mut self) {
        let _ = io::copy(&mut self.0, &mut io::sink());
    }
}

/// Converts a VCD stream (`name` in messages) into the FST file `out`: same signals, same
/// names (an id code declared under several names becomes one signal with aliases), same
/// value changes at the same times. Real and string variables are refused (no RTL of this
/// project has one). Reads the whole input whatever happens (see [`DrainOnDrop`]).
pub fn vcd_to_fst<R: BufRead>(input: R, name: &str, out: &Path) -> Result<(), WaveError> {
    let mut s = VcdStream::open(input, name)?;
    let result = convert(&mut s, out);
    if result.is_err() {
        s.drain();
    }
    result
}

fn convert<R: BufRead>(s: &mut VcdStream<R>, out: &Path) -> Result<(), WaveError> {
    let file = out.display().to_string();
    let exp = exponent_of_fs(s.fs_per_tick()).ok_or_else(|| {
        WaveError::malformed(&s.file, None, "a $timescale that is not a power of ten")
    })?;
    if let Some(n) = s
        .names
        .iter()
        .find(|n| s.values.slots[n.slot].kind == Kind::Text)
    {
        return Err(WaveError::malformed(
            &s.file,
            None,
            format!(
                "`{}` is a real or string variable: the FST converter takes bit vectors only",
                n.name
            ),
        ));
    }
    let mut first_of_slot: HashMap<usize, usize> = HashMap::new();
    let vars: Vec<VarDecl> = s
        .names
        .iter()
        .enumerate()
        .map(|(i, n)| VarDecl {
            name: &n.name,
            width: s.values.slots[n.slot].width,
            alias_of: match first_of_slot.get(&n.slot) {
                Some(&j) => Some(j),
                None => {
                    first_of_slot.insert(n.slot, i);
                    None
                }
            },
        })
        .collect();
    let f = File::create(out).map_err(|e| WaveError::io(&file, e))?;
    let mut h =
        FstHeaderWriter::new(BufWriter::new(f), &info(exp)).map_err(|e| write_err(&file, e))?;
    let ids = write_hierarchy(&mut h, &file, &vars)?;
    let mut id_of_slot = vec![None; s.values.slots.len()];
    for (i, n) in s.names.iter().enumerate() {
        id_of_slot[n.slot].get_or_insert(ids[i]);
    }
    drop(vars);
    let mut body = h.finish().map_err(|e| write_err(&file, e))?;
    let mut dirty = Vec::new();
    let mut full = Vec::new();
    while let Some(t_fs) = s.pending_fs {
        s.apply_block()?;
        s.take_dirty(&mut dirty);
        if dirty.is_empty() {
            continue;
        }
        if body.size() >= FLUSH_AT {
            body.flush().map_err(|e| write_err(&file, e))?;
        }
        body.time_change(t_fs / s.fs_per_tick())
            .map_err(|e| write_err(&file, e))?;
        for slot in dirty.drain(..) {
            // Slots no name uses cannot exist: every slot is made by a $var.
            if let Some(id) = id_of_slot[slot] {
                s.values.slots[slot].write_current(&mut full);
                body.signal_change(id, &full)
                    .map_err(|e| write_err(&file, e))?;
            }
        }
    }
    let mut w = body.finish().map_err(|e| write_err(&file, e))?;
    w.flush().map_err(|e| WaveError::io(&file, e))
}

// ---------------------------------------------------------------------------------------
// Reading

/// Changes per message from the reading thread.
const CHUNK: usize = 1 << 16;

/// What the reading thread sends.
enum Msg {
    Header {
        timescale_exponent: i8,
        /// (full name, handle index, width, real)
        vars: Vec<(String, usize, u32, bool)>,
    },
    Changes(Chunk),
    Done,
    Error(String),
}

/// Value changes in file order: change `i` is at `times[i]`, of handle `handles[i]`, with the
/// value `bytes[ends[i-1]..ends[i]]`.
#[derive(Default)]
struct Chunk {
    times: Vec<u64>,
    handles: Vec<u32>,
    ends: Vec<u32>,
    bytes: Vec<u8>,
}

impl Chunk {
    fn len(&self) -> usize {
        self.times.len()
    }
    fn value(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }
}

/// The name of a variable as the VCD rules give it: ` [msb:lsb]` dropped, ` [n]` kept as `[n]`.
fn var_name(raw: &str) -> String {
    let t = raw.trim_end();
    if let Some((head, tail)) = t.rsplit_once(' ') {
        if let Some(inner) = tail.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            let is_num =
                |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'-');
            match inner.split_once(':') {
                Some((a, b)) if is_num(a) && is_num(b) => return head.trim_end().to_string(),
                None if is_num(inner) => return format!("{}[{inner}]", head.trim_end()),
                _ => {}
            }
        }
    }
    t.to_string()
}

/// Reads an FST file on its own thread (the `fst-reader` crate pushes every change through a
/// callback; the diff pulls one time at a time), a bounded channel between them.
fn spawn_reader(path: &Path, tx: SyncSender<Msg>) -> io::Result<JoinHandle<()>> {
    let path = path.to_path_buf();
    std::thread::Builder::new()
        .name(READER_THREAD.to_string())
        .spawn(move || {
            let r = read_fst(&path, &tx);
            let _ = tx.send(match r {
                Ok(()) => Msg::Done,
                Err(e) => Msg::Error(e),
            });
        })
}

const READER_THREAD: &str = "exanet-fst-reader";

fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(x) = src {
        s.push_str(": ");
        s.push_str(&x.to_string());
        src = x.source();
    }
    s
}

/// Checks the block structure of an FST file before `fst-reader` reads it: every block's
/// length fits in the file, and every length or count a block's header gives (and the reader
/// allocates by) is bounded by the bytes that hold it. `fst-reader` 0.17 trusts these and
/// aborts the process on an allocation of a corrupt size; a truncated or corrupt header is
/// then an error here. What lies inside a value-change block (each signal's packed data) is
/// not checked: `exanet wave-diff` runs FST comparisons in a child process for that reason.
fn check_blocks(f: &mut File) -> Result<(), String> {
    use std::io::{Seek, SeekFrom};
    let len = f.metadata().map_err(|e| e.to_string())?.len();
    let mut at = |pos: u64, n: usize| -> Result<Vec<u8>, String> {
        let mut b = vec![0u8; n];
        f.seek(SeekFrom::Start(pos)).map_err(|e| e.to_string())?;
        f.read_exact(&mut b)
            .map_err(|_| format!("truncated FST file: it ends inside the block at byte {pos}"))?;
        Ok(b)
    };
    let u64_at = |b: &[u8], i: usize| u64::from_be_bytes(b[i..i + 8].try_into().unwrap());
    let varint = |b: &[u8], i: &mut usize| -> Option<u64> {
        let mut v = 0u64;
        for k in 0..10 {
            let byte = *b.get(*i)?;
            *i += 1;
            v |= u64::from(byte & 0x7f) << (7 * k);
            if byte & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    };
    // No zlib or LZ4 stream expands by more than about 1032 times.
    let bound = |c: u64| c.saturating_mul(1100).saturating_add(4096);
    let mut max_handle: Option<u64> = None;
    let mut pos = 0u64;
    let mut blocks = 0;
    // (the header's count of value change blocks; those found; a hierarchy block found)
    let mut vc_count: Option<u64> = None;
    let (mut vc_blocks, mut hierarchy) = (0u64, false);
    while pos < len {
        let head = at(pos, 9.min((len - pos) as usize))?;
        let tpe = head[0];
        if head.len() < 9 {
            return Err(format!("truncated FST file: a block header at byte {pos}"));
        }
        let sec = u64_at(&head, 1);
        let s = pos + 1;
        let bad = |what: &str| {
            Err(format!(
                "corrupt FST file: block {tpe} at byte {pos}: {what}"
            ))
        };
        if tpe == 255 && sec == 0 {
            break;
        }
        if sec < 8 || sec > len - s {
            return bad(&format!(
                "length {sec} does not fit in the file ({len} bytes)"
            ));
        }
        let body = |n: u64| n.min(sec) as usize;
        match tpe {
            0 => {
                if sec != 329 {
                    return bad("a header block must be 329 bytes");
                }
                let b = at(s, 72)?;
                let (vars, handles) = (u64_at(&b, 48), u64_at(&b, 56));
                if handles > vars {
                    return bad("more signals than variables");
                }
                max_handle = Some(handles);
                vc_count = Some(u64_at(&b, 64));
            }
            1 | 5 | 8 => {
                vc_blocks += 1;
                if sec < 32 + 24 + 8 {
                    return bad("too short for a value change block");
                }
                let b = at(s, body(32 + 30))?;
                let mut i = 32;
                let (Some(fu), Some(fc), Some(fh)) =
                    (varint(&b, &mut i), varint(&b, &mut i), varint(&b, &mut i))
                else {
                    return bad("bad frame lengths");
                };
                if fc > sec || (fu != fc && fu > bound(fc)) || max_handle.is_some_and(|m| fh > m) {
                    return bad("frame lengths out of bounds");
                }
                let t = at(s + sec - 24, 24)?;
                let (tu, tc, items) = (u64_at(&t, 0), u64_at(&t, 8), u64_at(&t, 16));
                if tc > sec - 24 - 32 || items > tu || (tu != tc && tu > bound(tc)) {
                    return bad("time table lengths out of bounds");
                }
                let chain_at = sec - 24 - tc - 8;
                let c = at(s + chain_at, 8)?;
                if u64_at(&c, 0) > chain_at {
                    return bad("signal table length out of bounds");
                }
                // The frame's bytes end where the value changes begin.
                let vc = i as u64 + fc;
                if vc + 10 > sec {
                    return bad("no value changes after the frame");
                }
                let v = at(s + vc, 10)?;
                let mut j = 0;
                match varint(&v, &mut j) {
                    Some(h) if max_handle.is_none_or(|m| h <= m) => {}
                    _ => return bad("value change signal count out of bounds"),
                }
            }
            2 => {
                let b = at(s, body(18))?;
                let mut i = 8;
                if varint(&b, &mut i).is_none_or(|n| n > sec) {
                    return bad("blackout count out of bounds");
                }
            }
            3 => {
                if sec < 24 {
                    return bad("too short for a geometry block");
                }
                let b = at(s, 24)?;
                let (u, h) = (u64_at(&b, 8), u64_at(&b, 16));
                if u > bound(sec - 24) || h > u || max_handle.is_some_and(|m| h != m) {
                    return bad("geometry lengths out of bounds");
                }
                max_handle = Some(h);
            }
            4 | 6 | 7 => {
                hierarchy = true;
                if sec < 16 {
                    return bad("too short for a hierarchy block");
                }
                let b = at(s, body(26))?;
                let u = u64_at(&b, 8);
                if u > bound(sec - 16) {
                    return bad("hierarchy length out of bounds");
                }
                if tpe == 7 {
                    let mut i = 16;
                    if varint(&b, &mut i).is_none_or(|l| l > bound(sec - 16)) {
                        return bad("hierarchy length out of bounds");
                    }
                }
            }
            254 => {
                return bad("a gzip-wrapped FST file (unwrap it with GTKWave's fst2vcd/vcd2fst)")
            }
            255 => {}
            _ => return bad("unknown block type"),
        }
        blocks += 1;
        pos = s + sec;
    }
    if blocks == 0 {
        return Err("empty FST file".to_string());
    }
    // A file cut at a block boundary has whole blocks only: what it lacks is found against the
    // header's count (written when the file is closed) and the hierarchy written last.
    let Some(vc_count) = vc_count else {
        return Err("corrupt FST file: no header block".to_string());
    };
    if vc_blocks != vc_count {
        return Err(format!(
            "truncated FST file: its header counts {vc_count} value change blocks, the file \
             holds {vc_blocks}"
        ));
    }
    if !hierarchy {
        return Err("truncated FST file: no hierarchy block (the writer's last)".to_string());
    }
    Ok(())
}

fn read_fst(path: &Path, tx: &SyncSender<Msg>) -> Result<(), String> {
    let mut f = File::open(path).map_err(|e| e.to_string())?;
    check_blocks(&mut f)?;
    // The reader starts where the file stands.
    io::Seek::rewind(&mut f).map_err(|e| e.to_string())?;
    let mut reader = fst_reader::FstReader::open(BufReader::with_capacity(1 << 18, f))
        .map_err(|e| format!("not a readable FST file: {}", chain(&e)))?;
    let header = reader.get_header();
    let mut vars = Vec::new();
    let mut prefix = String::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut bad = None;
    reader
        .read_hierarchy(|e| match e {
            fst_reader::FstHierarchyEntry::Scope { name, .. } => {
                ends.push(prefix.len());
                if !prefix.is_empty() {
                    prefix.push('.');
                }
                prefix.push_str(&name);
            }
            fst_reader::FstHierarchyEntry::UpScope => match ends.pop() {
                Some(end) => prefix.truncate(end),
                None => bad = Some("an upscope without an open scope".to_string()),
            },
            fst_reader::FstHierarchyEntry::Var {
                tpe,
                name,
                length,
                handle,
                ..
            } => {
                if prefix.is_empty() {
                    bad = Some(format!("variable `{name}` is outside any scope"));
                }
                let full = format!("{prefix}.{}", var_name(&name));
                vars.push((full, handle.get_index(), length, tpe.is_real()));
            }
            _ => {}
        })
        .map_err(|e| format!("cannot read the hierarchy: {}", chain(&e)))?;
    if let Some(b) = bad {
        return Err(b);
    }
    tx.send(Msg::Header {
        timescale_exponent: header.timescale_exponent,
        vars,
    })
    .map_err(|_| "the diff stopped".to_string())?;

    let mut chunk = Chunk::default();
    let mut text = String::new();
    let r = reader.read_signals(&fst_reader::FstFilter::all(), |time, handle, value| {
        chunk.times.push(time);
        chunk.handles.push(handle.get_index() as u32);
        match value {
            fst_reader::FstSignalValue::String(b) => chunk.bytes.extend_from_slice(b),
            fst_reader::FstSignalValue::Real(v) => {
                // As the VCD side shows a real: the text of the f64.
                text.clear();
                use std::fmt::Write as _;
                let _ = write!(text, "{v}");
                chunk.bytes.extend_from_slice(text.as_bytes());
            }
        }
        chunk.ends.push(chunk.bytes.len() as u32);
        if chunk.len() >= CHUNK || chunk.bytes.len() >= (1 << 24) {
            tx.send(Msg::Changes(std::mem::take(&mut chunk)))
                .map_err(|_| ())?;
        }
        Ok::<(), ()>(())
    });
    match r {
        Ok(()) => {}
        // The receiver is gone: the diff found its answer and stopped reading.
        Err(fst_reader::ReadSignalsError::CallbackError(())) => return Ok(()),
        Err(e) => return Err(format!("cannot read the value changes: {}", chain(&e))),
    }
    if chunk.len() > 0 {
        tx.send(Msg::Changes(chunk))
            .map_err(|_| "the diff stopped".to_string())?;
    }
    Ok(())
}

/// Silences the default panic message of the reading thread: `fst-reader` asserts on some
/// corrupt files, and that panic is reported as a malformed file (exit 2), not as a crash.
fn quiet_reader_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() != Some(READER_THREAD) {
                previous(info);
            }
        }));
    });
}

/// An FST file being read in time order, for the diff.
pub(crate) struct FstStream {
    pub file: String,
    pub values: Values,
    pub names: Vec<Named>,
    pub pending_fs: Option<u64>,
    fs_per_tick: u64,
    slot_of_handle: Vec<usize>,
    rx: Receiver<Msg>,
    chunk: Chunk,
    pos: usize,
    done: bool,
    thread: Option<JoinHandle<()>>,
}

impl FstStream {
    pub fn open(path: &Path) -> Result<FstStream, WaveError> {
        let file = path.display().to_string();
        quiet_reader_panics();
        let (tx, rx) = sync_channel(4);
        let thread = spawn_reader(path, tx).map_err(|e| WaveError::io(&file, e))?;
        let mut s = FstStream {
            file: file.clone(),
            values: Values::new(&file),
            names: Vec::new(),
            pending_fs: Some(0),
            fs_per_tick: 1,
            slot_of_handle: Vec::new(),
            rx,
            chunk: Chunk::default(),
            pos: 0,
            done: false,
            thread: Some(thread),
        };
        let (exp, vars) = match s.recv()? {
            Some(Msg::Header {
                timescale_exponent,
                vars,
            }) => (timescale_exponent, vars),
            _ => return Err(s.malformed("no hierarchy")),
        };
        s.fs_per_tick = (exp as i32 + 15)
            .try_into()
            .ok()
            .and_then(|e: u32| 10u64.checked_pow(e))
            .ok_or_else(|| {
                WaveError::malformed(
                    &file,
                    None,
                    format!("timescale 1e{exp} s: finer than a femtosecond or too coarse"),
                )
            })?;
        for (name, handle, width, real) in vars {
            if !real && (width == 0 || width > MAX_FILE_WIDTH) {
                return Err(WaveError::malformed(
                    &file,
                    None,
                    format!("variable `{name}` has width {width}: expected 1..={MAX_FILE_WIDTH}"),
                ));
            }
            if s.slot_of_handle.len() <= handle {
                s.slot_of_handle.resize(handle + 1, usize::MAX);
            }
            let kind = if real { Kind::Text } else { Kind::Bits };
            let slot = match s.slot_of_handle[handle] {
                usize::MAX => {
                    let slot = s.values.push_slot(width, kind, &name);
                    s.slot_of_handle[handle] = slot;
                    slot
                }
                slot => {
                    let x = &s.values.slots[slot];
                    if x.width != width || x.kind != kind {
                        return Err(WaveError::malformed(
                            &file,
                            None,
                            format!(
                                "signal handle {handle} is declared as `{}` ({} bits) and as `{name}` ({width} bits)",
                                x.first_name(), x.width
                            ),
                        ));
                    }
                    slot
                }
            };
            s.names.push(Named { name, slot });
        }
        s.names.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        if let Some(w) = s.names.windows(2).find(|w| w[0].name == w[1].name) {
            return Err(WaveError::malformed(
                &file,
                None,
                format!("signal `{}` is declared twice", w[0].name),
            ));
        }
        s.fill()?;
        s.pending_fs = s.next_time();
        Ok(s)
    }

    fn malformed(&self, m: &str) -> WaveError {
        WaveError::malformed(&self.file, None, m.to_string())
    }

    /// The next message; `None` when the thread is done. A thread that died (a panic in the
    /// reader) is a malformed file.
    fn recv(&mut self) -> Result<Option<Msg>, WaveError> {
        match self.rx.recv() {
            Ok(Msg::Error(e)) => Err(WaveError::malformed(&self.file, None, e)),
            Ok(Msg::Done) => Ok(None),
            Ok(m) => Ok(Some(m)),
            Err(_) => {
                let why = match self.thread.take().map(|t| t.join()) {
                    Some(Err(p)) => p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "unknown".to_string()),
                    _ => "the reader stopped".to_string(),
                };
                Err(WaveError::malformed(
                    &self.file,
                    None,
                    format!("corrupt FST file (the reader failed: {why})"),
                ))
            }
        }
    }

    /// Makes sure the current chunk has a change left, unless the file is over.
    fn fill(&mut self) -> Result<(), WaveError> {
        while self.pos >= self.chunk.len() && !self.done {
            match self.recv()? {
                Some(Msg::Changes(c)) => {
                    self.chunk = c;
                    self.pos = 0;
                }
                None => self.done = true,
                Some(_) => return Err(self.malformed("a second hierarchy")),
            }
        }
        Ok(())
    }

    fn next_time(&self) -> Option<u64> {
        // a time too large for femtoseconds saturates; apply_block then refuses the file
        (self.pos < self.chunk.len())
            .then(|| self.chunk.times[self.pos].saturating_mul(self.fs_per_tick))
    }
}

impl WaveStream for FstStream {
    fn file(&self) -> &str {
        &self.file
    }
    fn names(&self) -> &[Named] {
        &self.names
    }
    fn slots(&self) -> &[Slot] {
        &self.values.slots
    }
    fn pending_fs(&self) -> Option<u64> {
        self.pending_fs
    }

    fn apply_block(&mut self) -> Result<(), WaveError> {
        let Some(t) = self.pending_fs else {
            return Ok(());
        };
        loop {
            self.fill()?;
            if self.pos >= self.chunk.len() {
                self.pending_fs = None;
                return Ok(());
            }
            let time = self.chunk.times[self.pos].checked_mul(self.fs_per_tick);
            match time {
                Some(x) if x == t => {}
                Some(x) if x > t => {
                    self.pending_fs = Some(x);
                    return Ok(());
                }
                Some(x) => {
                    return Err(
                        self.malformed(&format!("time goes backwards ({x} fs after {t} fs)"))
                    )
                }
                None => return Err(self.malformed("a time too large for femtoseconds")),
            }
            let h = self.chunk.handles[self.pos] as usize;
            let slot = match self.slot_of_handle.get(h) {
                Some(&s) if s != usize::MAX => s,
                _ => {
                    return Err(self.malformed(&format!(
                        "a value change for signal handle {h}, which no variable declares"
                    )))
                }
            };
            let i = self.pos;
            self.pos += 1;
            let value = self.chunk.value(i).to_vec();
            match self.values.slots[slot].kind {
                Kind::Bits => self.values.set_bits(slot, &value, 0)?,
                Kind::Text => self
                    .values
                    .set_text(slot, &String::from_utf8_lossy(&value), 0)?,
            }
        }
    }

    fn take_dirty(&mut self, out: &mut Vec<usize>) {
        self.values.take_dirty(out);
    }
}

impl Drop for FstStream {
    fn drop(&mut self) {
        // Hang up first: the thread's next send fails and it stops reading.
        let (_, rx) = sync_channel(0);
        drop(std::mem::replace(&mut self.rx, rx));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// True if the file at `path` starts like an FST file rather than a VCD file.
pub fn is_fst_file(path: &Path) -> Result<bool, WaveError> {
    is_fst(path)
}

/// An FST file starts with its header block (type 0) or, gzip-wrapped, with type 254; a VCD
/// file with text. Decided on the first byte: `fst_reader::is_fst_file` walks the blocks by
/// their lengths and loops for ever on a length that points back at the block
/// (`00 ff ff ff ff ff ff ff ff`); the blocks are checked before reading (`check_blocks`).
pub(crate) fn is_fst(path: &Path) -> Result<bool, WaveError> {
    let name = path.display().to_string();
    let mut f = super::reader::open_checked(path, &name)?;
    let mut first = [0u8; 1];
    let n = f.read(&mut first).map_err(|e| WaveError::io(&name, e))?;
    Ok(n == 1 && (first[0] == 0 || first[0] == 254))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponents() {
        assert_eq!(exponent_of_ps(1), Some(-12));
        assert_eq!(exponent_of_ps(10), Some(-11));
        assert_eq!(exponent_of_ps(1000), Some(-9));
        assert_eq!(exponent_of_ps(3), None);
        assert_eq!(exponent_of_fs(1), Some(-15));
        assert_eq!(exponent_of_fs(0), None);
    }

    #[test]
    fn var_names_follow_the_vcd_rules() {
        assert_eq!(var_name("cnt_q[0] [9:0]"), "cnt_q[0]");
        assert_eq!(var_name("vld_q [3]"), "vld_q[3]");
        assert_eq!(var_name("clk_i"), "clk_i");
        assert_eq!(var_name("x [a:b]"), "x [a:b]");
    }
}
