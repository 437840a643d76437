//! Reading VCD files with `vcd::Parser`: the header into a table of named signals, then the
//! body one timestamp at a time, keeping only each id code's current value (memory is
//! proportional to the number of signals, never to the length of the file).

use std::collections::HashMap;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use vcd::{
    Command, IdCode, ParseError, ParseErrorKind, Parser, ReferenceIndex, TimescaleUnit, Value,
    VarType,
};

use super::error::WaveError;
use super::writer::SignalDecl;
use super::MAX_FILE_WIDTH;

/// How a signal's value is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Four-state bits (`0`, `1`, `x`, `z`), most significant first.
    Bits,
    /// `real` or `string` variables: the value's text.
    Text,
}

/// The current value of one id code.
///
/// A `Bits` value is held as written: `value`, the characters of its last change (lower case,
/// at most `width` of them), left-extended to the full width with `pad`. A change costs the
/// bytes the file wrote for it, not its declared width: `b0 !` on a 65,536-bit vector is held
/// in one byte (issue 29: a byte per declared bit let a small file take gigabytes). A writer
/// writes a signal at one length, so two values compare as two slices of one length (a
/// `memcmp` whose length the branch predictor learns); values written at different lengths
/// are compared bit by bit.
pub(crate) struct Slot {
    pub width: u32,
    pub kind: Kind,
    /// `Bits`: the extension, `x` before the first change (IEEE 1364: a variable is unknown
    /// until its first value change).
    pad: u8,
    /// `Bits`: the last change's characters (see above), empty before the first change.
    /// `Text`: the last value's text, initially empty.
    value: Vec<u8>,
    dirty: bool,
    /// A name for error messages (the first name declared with this code).
    first_name: String,
}

impl Slot {
    /// A name for error messages (the first name declared with this code).
    pub fn first_name(&self) -> &str {
        &self.first_name
    }

    /// The value as compared and shown: `Bits` one byte (`0 1 x z`) per bit, most significant
    /// first, `width` of them; `Text` its text.
    pub fn current(&self) -> std::borrow::Cow<'_, [u8]> {
        match self.kind {
            Kind::Text => self.value.as_slice().into(),
            Kind::Bits => {
                let mut v = Vec::new();
                self.write_current(&mut v);
                v.into()
            }
        }
    }

    /// `current()` into `out` (cleared first), without allocating once `out` is large enough.
    pub fn write_current(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.kind == Kind::Bits {
            out.resize(self.lead(), self.pad);
        }
        out.extend_from_slice(&self.value);
    }

    /// Bits of `pad` before `value`.
    fn lead(&self) -> usize {
        self.width as usize - self.value.len()
    }

    /// Bit `i` of a `Bits` value, most significant first.
    fn bit(&self, i: usize) -> u8 {
        let lead = self.lead();
        if i < lead {
            self.pad
        } else {
            self.value[i - lead]
        }
    }

    /// Same declared width and kind, and the same current value.
    pub fn same_as(&self, other: &Slot) -> bool {
        if self.width != other.width || self.kind != other.kind {
            return false;
        }
        let same_form =
            self.value.len() == other.value.len() && (self.pad == other.pad || self.lead() == 0);
        if self.kind == Kind::Text || same_form {
            return self.value == other.value;
        }
        (0..self.width as usize).all(|i| self.bit(i) == other.bit(i))
    }
}

/// A named signal of the file: its full name (see the module docs) and its id code's slot.
pub(crate) struct Named {
    pub name: String,
    pub slot: usize,
}

/// Hashes an `IdCode` (a `u64` inside) cheaply: a diff tool's input is not adversarial, and
/// SipHash would cost a noticeable share of the time per value change.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type IdMap = HashMap<IdCode, usize, BuildHasherDefault<IdHasher>>;

/// A `BufRead` that counts the newlines read through it, whoever reads them (the parser one
/// byte at a time, or the fast path a line at a time), so error lines stay exact.
pub(crate) struct LineCounter<R> {
    inner: R,
    newlines: u64,
    last_was_newline: bool,
}

impl<R: BufRead> LineCounter<R> {
    fn new(inner: R) -> Self {
        LineCounter {
            inner,
            newlines: 0,
            last_was_newline: false,
        }
    }

    /// The line of the last byte read, numbered from 1 (the `vcd::Parser` convention: a
    /// newline belongs to the line it ends).
    fn line(&self) -> u64 {
        self.newlines + 1 - u64::from(self.last_was_newline)
    }

    /// The line of the next byte to be read.
    fn next_line(&self) -> u64 {
        self.newlines + 1
    }

    /// Consumes `n` bytes known to end with the only newline among them.
    fn consume_line(&mut self, n: usize) {
        self.newlines += 1;
        self.last_was_newline = true;
        self.inner.consume(n);
    }

    fn count(&mut self, bytes: &[u8]) {
        if let Some(&last) = bytes.last() {
            self.newlines += bytes.iter().filter(|&&b| b == b'\n').count() as u64;
            self.last_was_newline = last == b'\n';
        }
    }
}

impl<R: BufRead> io::Read for LineCounter<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.inner.fill_buf()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.count(&out[..n]);
        self.inner.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for LineCounter<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        // The buffer is still filled from the `fill_buf` that `n` refers to: no I/O here.
        if let Ok(buf) = self.inner.fill_buf() {
            let n = n.min(buf.len());
            let (newlines, last) = (
                buf[..n].iter().filter(|&&b| b == b'\n').count() as u64,
                buf[..n].last().copied(),
            );
            self.newlines += newlines;
            if let Some(last) = last {
                self.last_was_newline = last == b'\n';
            }
            self.inner.consume(n);
        }
    }
}

/// Every id code's current value.
pub(crate) struct Values {
    file: String,
    codes: IdMap,
    pub slots: Vec<Slot>,
    /// Slots changed since the last `take_dirty`.
    dirty: Vec<usize>,
}

impl Values {
    pub(crate) fn new(file: &str) -> Values {
        Values {
            file: file.to_string(),
            codes: IdMap::default(),
            slots: Vec::new(),
            dirty: Vec::new(),
        }
    }

    /// Adds a slot of `width` bits (or text) first declared as `name`; returns its index.
    pub(crate) fn push_slot(&mut self, width: u32, kind: Kind, name: &str) -> usize {
        self.slots.push(Slot {
            width,
            kind,
            pad: b'x',
            value: Vec::new(),
            dirty: false,
            first_name: name.to_string(),
        });
        self.slots.len() - 1
    }

    /// Slots changed since the last call (each once); clears their marks.
    pub(crate) fn take_dirty(&mut self, out: &mut Vec<usize>) {
        for &s in &self.dirty {
            self.slots[s].dirty = false;
        }
        out.append(&mut self.dirty);
    }

    fn slot_of(&self, id: IdCode, line: u64) -> Result<usize, WaveError> {
        self.codes.get(&id).copied().ok_or_else(|| {
            WaveError::malformed(
                &self.file,
                Some(line),
                format!("value change for id code `{id}`, which no $var declares"),
            )
        })
    }

    fn mark(&mut self, slot: usize) {
        let s = &mut self.slots[slot];
        if !s.dirty {
            s.dirty = true;
            self.dirty.push(slot);
        }
    }

    /// Stores a value change given as `0 1 x X z Z` characters, left-extended to the full
    /// width: with `0` if its leftmost written bit is 0 or 1, with `x` or `z` if that bit is
    /// `x` or `z` (IEEE 1364). Stored lower case, as written (`Slot`).
    pub(crate) fn set_bits(
        &mut self,
        slot: usize,
        bits: &[u8],
        line: u64,
    ) -> Result<(), WaveError> {
        let s = &mut self.slots[slot];
        if s.kind != Kind::Bits {
            return Err(WaveError::malformed(
                &self.file,
                Some(line),
                format!(
                    "bit value for `{}`, which is declared real or string",
                    s.first_name
                ),
            ));
        }
        let width = s.width as usize;
        let Some(&lead) = bits.first().filter(|_| bits.len() <= width) else {
            return Err(WaveError::malformed(
                &self.file,
                Some(line),
                format!(
                    "value of {} bits for `{}`, declared {width} bits wide",
                    bits.len(),
                    s.first_name
                ),
            ));
        };
        // ASCII lower case: `X` -> `x`, `Z` -> `z`; digits already have the bit set.
        let lower = |b: u8| b | 0x20;
        s.pad = match lead {
            b'x' | b'X' => b'x',
            b'z' | b'Z' => b'z',
            _ => b'0',
        };
        s.value.resize(bits.len(), 0);
        for (dst, &b) in s.value.iter_mut().zip(bits) {
            *dst = lower(b);
        }
        self.mark(slot);
        Ok(())
    }

    pub(crate) fn set_text(&mut self, slot: usize, text: &str, line: u64) -> Result<(), WaveError> {
        let s = &mut self.slots[slot];
        if s.kind != Kind::Text {
            return Err(WaveError::malformed(
                &self.file,
                Some(line),
                format!(
                    "real or string value for `{}`, which is declared as bits",
                    s.first_name
                ),
            ));
        }
        s.value.clear();
        s.value.extend_from_slice(text.as_bytes());
        self.mark(slot);
        Ok(())
    }
}

/// What the fast path did with the head of the input.
enum Fast {
    /// Consumed whitespace or one change or a timestamp of the current time.
    Handled,
    /// Consumed a timestamp of a later time: the block is over.
    BlockEnd,
    /// End of the input.
    Eof,
    /// Not a complete, well-formed simple line in the buffer: the parser reads it.
    Delegate,
}

/// One VCD file being read in time order.
///
/// `vcd::Parser` reads the header and any command in the body other than a timestamp, a
/// scalar change or a vector change. Those three make up nearly all of a dump, and the
/// parser reads them one byte at a time and allocates a `Vec` per vector (about 85 MB/s),
/// so a complete, well-formed line of one of those forms is read straight from the buffer
/// instead; anything else, malformed input included, goes to the parser, so errors are
/// reported alike either way (a test compares the two paths).
pub(crate) struct VcdStream<R: BufRead> {
    pub file: String,
    parser: Parser<LineCounter<R>>,
    fast: bool,
    fs_per_tick: u64,
    pub values: Values,
    /// Signals sorted by name.
    pub names: Vec<Named>,
    /// Current time in the file's own ticks (changes before the first timestamp are at 0).
    now_ticks: u64,
    /// Time (fs) of the next block of changes, `None` at the end of the file.
    pub pending_fs: Option<u64>,
    scratch: Vec<u8>,
}

impl<R: BufRead> VcdStream<R> {
    /// Reads the header; the body is read by [`VcdStream::apply_block`].
    pub fn open(reader: R, file: &str) -> Result<Self, WaveError> {
        Self::open_with(reader, file, true)
    }

    /// `fast: false` reads the whole body with `vcd::Parser` (for tests of the fast path).
    pub fn open_with(mut reader: R, file: &str, fast: bool) -> Result<Self, WaveError> {
        match reader.fill_buf() {
            Ok([]) => return Err(WaveError::malformed(file, None, "empty file")),
            Ok(_) => {}
            Err(e) => return Err(WaveError::io(file, e)),
        }
        let parser = Parser::new(LineCounter::new(reader));
        let mut s = VcdStream {
            file: file.to_string(),
            parser,
            fast,
            fs_per_tick: 0,
            values: Values::new(file),
            names: Vec::new(),
            now_ticks: 0,
            pending_fs: Some(0),
            scratch: Vec::new(),
        };
        let timescale = s.read_header()?;
        s.fs_per_tick = match timescale {
            None => {
                return Err(WaveError::malformed(
                    file,
                    None,
                    "no $timescale in the header: times cannot be compared without one",
                ))
            }
            Some((n, unit)) => u64::from(n)
                .checked_mul(unit_fs(unit))
                .filter(|&f| f > 0)
                .ok_or_else(|| {
                    WaveError::malformed(file, None, format!("unusable $timescale {n} {unit}"))
                })?,
        };
        s.names.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        if let Some(w) = s.names.windows(2).find(|w| w[0].name == w[1].name) {
            return Err(WaveError::malformed(
                file,
                None,
                format!(
                    "signal `{}` is declared twice (two $var with the same full name)",
                    w[0].name
                ),
            ));
        }
        Ok(s)
    }

    /// Reads the header up to `$enddefinitions`, one command at a time: declares every
    /// `$var` under the scopes open around it, and returns the `$timescale`.
    ///
    /// Iterative on purpose: `vcd::Parser::parse_header` builds the scope tree by recursion
    /// (and the tree drops by recursion), so a file of 100,000 nested `$scope`s overflowed the
    /// stack. Here the open scopes are one string of dotted names and a stack of their
    /// lengths, so any depth costs only memory.
    fn read_header(&mut self) -> Result<Option<(u32, TimescaleUnit)>, WaveError> {
        let mut timescale = None;
        // `TOP.u_a.gen_vc[0]`: the open scopes, joined; `ends[i]`: its length before scope i.
        let mut prefix = String::new();
        let mut ends: Vec<usize> = Vec::new();
        loop {
            let cmd = match self.parser.next() {
                Some(Ok(cmd)) => cmd,
                Some(Err(e)) => {
                    return Err(parse_error(
                        &self.file,
                        self.parser.reader().line(),
                        e,
                        "the header",
                    ))
                }
                None => {
                    let what = if ends.is_empty() {
                        "before $enddefinitions".to_string()
                    } else {
                        format!("with {} $scope(s) still open", ends.len())
                    };
                    return Err(WaveError::malformed(
                        &self.file,
                        Some(self.parser.reader().line()),
                        format!("truncated file: the header ends {what}"),
                    ));
                }
            };
            let line = self.parser.reader().line();
            match cmd {
                Command::Enddefinitions => break,
                Command::Timescale(n, unit) => timescale = Some((n, unit)),
                Command::ScopeDef(_, name) => {
                    ends.push(prefix.len());
                    if !prefix.is_empty() {
                        prefix.push('.');
                    }
                    prefix.push_str(&name);
                }
                Command::Upscope => match ends.pop() {
                    Some(end) => prefix.truncate(end),
                    None => {
                        return Err(WaveError::malformed(
                            &self.file,
                            Some(line),
                            "$upscope without an open $scope",
                        ))
                    }
                },
                Command::VarDef(var_type, size, code, reference, index) => {
                    if ends.is_empty() {
                        return Err(WaveError::malformed(
                            &self.file,
                            Some(line),
                            format!("$var `{reference}` is outside any $scope"),
                        ));
                    }
                    let mut name = String::with_capacity(prefix.len() + reference.len() + 8);
                    name.push_str(&prefix);
                    name.push('.');
                    name.push_str(&reference);
                    if let Some(ReferenceIndex::BitSelect(i)) = index {
                        name.push_str(&format!("[{i}]"));
                    }
                    self.add_var(name, var_type, size, code, line)?;
                }
                Command::Comment(_) | Command::Date(_) | Command::Version(_) => {}
                _ => return Err(WaveError::malformed(
                    &self.file,
                    Some(line),
                    "malformed VCD in the header: a value change or timestamp inside the header",
                )),
            }
        }
        if !ends.is_empty() {
            return Err(WaveError::malformed(
                &self.file,
                Some(self.parser.reader().line()),
                format!(
                    "$enddefinitions with {} $scope(s) still open (`{prefix}`)",
                    ends.len()
                ),
            ));
        }
        Ok(timescale)
    }

    /// Declares the signal `name` (a `$var` of the header at `line`).
    fn add_var(
        &mut self,
        name: String,
        var_type: VarType,
        size: u32,
        code: IdCode,
        line: u64,
    ) -> Result<(), WaveError> {
        if size == 0 || size > MAX_FILE_WIDTH {
            return Err(WaveError::malformed(
                &self.file,
                Some(line),
                format!("$var `{name}` has width {size}: expected 1..={MAX_FILE_WIDTH}"),
            ));
        }
        let kind = match var_type {
            VarType::Real | VarType::String => Kind::Text,
            _ => Kind::Bits,
        };
        let values = &mut self.values;
        let slot = match values.codes.get(&code) {
            Some(&slot) => {
                let s = &values.slots[slot];
                if s.width != size || s.kind != kind {
                    return Err(WaveError::malformed(
                        &self.file,
                        Some(line),
                        format!(
                            "id code `{code}` is declared as `{}` ({} bits) and as `{name}` ({size} bits)",
                            s.first_name, s.width
                        ),
                    ));
                }
                slot
            }
            None => {
                let slot = values.slots.len();
                values.codes.insert(code, slot);
                values.slots.push(Slot {
                    width: size,
                    kind,
                    // All `x`, in no bytes: a header cannot make us allocate its widths
                    // times its signals.
                    pad: b'x',
                    value: Vec::new(),
                    dirty: false,
                    first_name: name.clone(),
                });
                slot
            }
        };
        self.names.push(Named { name, slot });
        Ok(())
    }

    /// Applies every change up to the next timestamp later than `pending_fs`, then sets
    /// `pending_fs` to that timestamp (or `None` at the end of the file). Repeated
    /// timestamps of the same time are merged into one block.
    pub fn apply_block(&mut self) -> Result<(), WaveError> {
        loop {
            if self.fast {
                match self.fast_step()? {
                    Fast::Handled => continue,
                    Fast::BlockEnd => return Ok(()),
                    Fast::Eof => {
                        self.pending_fs = None;
                        return Ok(());
                    }
                    Fast::Delegate => {}
                }
            }
            let cmd = match self.parser.next() {
                None => {
                    self.pending_fs = None;
                    return Ok(());
                }
                Some(Err(e)) => {
                    return Err(parse_error(
                        &self.file,
                        self.parser.reader().line(),
                        e,
                        "a value change",
                    ))
                }
                Some(Ok(cmd)) => cmd,
            };
            let line = self.parser.reader().line();
            match cmd {
                Command::Timestamp(t) => {
                    if self.timestamp(t, line)? {
                        return Ok(());
                    }
                }
                Command::ChangeScalar(id, v) => {
                    let slot = self.values.slot_of(id, line)?;
                    self.values.set_bits(slot, &[value_char(v)], line)?;
                }
                Command::ChangeVector(id, v) => {
                    let slot = self.values.slot_of(id, line)?;
                    self.scratch.clear();
                    self.scratch.extend(v.iter().map(value_char));
                    self.values.set_bits(slot, &self.scratch, line)?;
                }
                Command::ChangeReal(id, v) => {
                    let slot = self.values.slot_of(id, line)?;
                    self.values.set_text(slot, &format!("{v}"), line)?;
                }
                Command::ChangeString(id, v) => {
                    let slot = self.values.slot_of(id, line)?;
                    self.values.set_text(slot, &v, line)?;
                }
                Command::Begin(_) | Command::End(_) | Command::Comment(_) => {}
                other => {
                    return Err(WaveError::malformed(
                        &self.file,
                        Some(line),
                        format!(
                            "header command {} after $enddefinitions",
                            command_name(&other)
                        ),
                    ))
                }
            }
        }
    }

    /// Handles `#t`; true if it starts a later block (which is then pending).
    fn timestamp(&mut self, t: u64, line: u64) -> Result<bool, WaveError> {
        if t < self.now_ticks {
            return Err(WaveError::malformed(
                &self.file,
                Some(line),
                format!(
                    "timestamp #{t} goes backwards (previous #{})",
                    self.now_ticks
                ),
            ));
        }
        if t == self.now_ticks {
            return Ok(false);
        }
        let fs = t.checked_mul(self.fs_per_tick).ok_or_else(|| {
            WaveError::malformed(
                &self.file,
                Some(line),
                format!("timestamp #{t} is too large to express in femtoseconds"),
            )
        })?;
        self.now_ticks = t;
        self.pending_fs = Some(fs);
        Ok(true)
    }

    /// Reads whitespace, or one complete line `#digits`, `<0|1|x|z><id>` or `b<bits> <id>`,
    /// straight from the buffer.
    fn fast_step(&mut self) -> Result<Fast, WaveError> {
        let line_no = self.parser.reader().next_line();
        let buf = match self.parser.reader().fill_buf() {
            Ok(b) => b,
            Err(e) => return Err(WaveError::io(&self.file, e)),
        };
        if buf.is_empty() {
            return Ok(Fast::Eof);
        }
        let ws = buf
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            .count();
        if ws > 0 {
            self.parser.reader().consume(ws);
            return Ok(Fast::Handled);
        }
        let Some(end) = buf.iter().position(|&b| b == b'\n') else {
            return Ok(Fast::Delegate);
        };
        let mut line = &buf[..end];
        while let [rest @ .., b' ' | b'\t' | b'\r'] = line {
            line = rest;
        }
        let time = match line {
            [b'#', digits @ ..] => match parse_u64(digits) {
                Some(t) => Some(t),
                None => return Ok(Fast::Delegate),
            },
            [v @ (b'0' | b'1' | b'x' | b'X' | b'z' | b'Z'), id @ ..] => {
                let Some(code) = id_code(id) else {
                    return Ok(Fast::Delegate);
                };
                let slot = self.values.slot_of(code, line_no)?;
                self.values
                    .set_bits(slot, std::slice::from_ref(v), line_no)?;
                None
            }
            [b'b' | b'B', rest @ ..] => {
                let Some(sp) = rest.iter().position(|&b| b == b' ') else {
                    return Ok(Fast::Delegate);
                };
                let (bits, id) = (&rest[..sp], &rest[sp + 1..]);
                if bits.is_empty()
                    || !bits
                        .iter()
                        .all(|b| matches!(b, b'0' | b'1' | b'x' | b'X' | b'z' | b'Z'))
                {
                    return Ok(Fast::Delegate);
                }
                let Some(code) = id_code(id) else {
                    return Ok(Fast::Delegate);
                };
                let slot = self.values.slot_of(code, line_no)?;
                self.values.set_bits(slot, bits, line_no)?;
                None
            }
            _ => return Ok(Fast::Delegate),
        };
        self.parser.reader().consume_line(end + 1);
        match time {
            Some(t) if self.timestamp(t, line_no)? => Ok(Fast::BlockEnd),
            _ => Ok(Fast::Handled),
        }
    }

    /// Slots changed since the last call (each once); clears their marks.
    pub fn take_dirty(&mut self, out: &mut Vec<usize>) {
        self.values.take_dirty(out);
    }

    /// Femtoseconds per tick of the file's timescale.
    pub fn fs_per_tick(&self) -> u64 {
        self.fs_per_tick
    }

    /// Reads the rest of the input, discarding it (see `fst::DrainOnDrop`).
    pub fn drain(&mut self) {
        let _ = io::copy(self.parser.reader(), &mut io::sink());
    }
}

/// A wave file read in time order, VCD or FST: what the diff needs of it.
pub(crate) trait WaveStream {
    /// The file's name, as given.
    fn file(&self) -> &str;
    /// Its signals, sorted by full name.
    fn names(&self) -> &[Named];
    /// The current value of every slot.
    fn slots(&self) -> &[Slot];
    /// Time (fs) of the next block of changes, `None` at the end of the file.
    fn pending_fs(&self) -> Option<u64>;
    /// Applies every change at `pending_fs` and moves `pending_fs` to the next time.
    fn apply_block(&mut self) -> Result<(), WaveError>;
    /// Slots changed since the last call (each once).
    fn take_dirty(&mut self, out: &mut Vec<usize>);
}

impl<R: BufRead> WaveStream for VcdStream<R> {
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
        VcdStream::apply_block(self)
    }
    fn take_dirty(&mut self, out: &mut Vec<usize>) {
        VcdStream::take_dirty(self, out)
    }
}

/// Decimal digits only, no overflow; anything else is left to the parser to report.
fn parse_u64(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |acc, &d| {
        if d.is_ascii_digit() {
            acc.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        } else {
            None
        }
    })
}

/// A well-formed id code (printable ASCII, not too long), else `None`.
fn id_code(id: &[u8]) -> Option<IdCode> {
    std::str::from_utf8(id).ok()?.parse().ok()
}

fn value_char(v: Value) -> u8 {
    match v {
        Value::V0 => b'0',
        Value::V1 => b'1',
        Value::X => b'x',
        Value::Z => b'z',
    }
}

fn unit_fs(unit: TimescaleUnit) -> u64 {
    match unit {
        TimescaleUnit::S => 1_000_000_000_000_000,
        TimescaleUnit::MS => 1_000_000_000_000,
        TimescaleUnit::US => 1_000_000_000,
        TimescaleUnit::NS => 1_000_000,
        TimescaleUnit::PS => 1_000,
        TimescaleUnit::FS => 1,
    }
}

fn command_name(c: &Command) -> &'static str {
    match c {
        Command::Date(_) => "$date",
        Command::Version(_) => "$version",
        Command::Timescale(..) => "$timescale",
        Command::ScopeDef(..) => "$scope",
        Command::Upscope => "$upscope",
        Command::VarDef(..) => "$var",
        Command::Enddefinitions => "$enddefinitions",
        _ => "command",
    }
}

/// Turns a `vcd::Parser` error into a [`WaveError`] with the file, the line and a sentence.
fn parse_error(file: &str, line: u64, e: io::Error, during: &str) -> WaveError {
    if let Some(pe) = e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<ParseError>())
    {
        let what = match pe.kind() {
            ParseErrorKind::InvalidValueChar(_) => {
                "bad value character (expected 0, 1, x or z)".to_string()
            }
            ParseErrorKind::UnexpectedCharacter => {
                "unexpected character at the start of a command (expected $, #, a value or b/r/s)"
                    .to_string()
            }
            ParseErrorKind::ParseIntError(pi) => format!("bad number ({pi})"),
            ParseErrorKind::ParseFloatError(pf) => format!("bad number ({pf})"),
            ParseErrorKind::InvalidIdCode(ic) => format!("bad id code ({ic})"),
            ParseErrorKind::UnexpectedHeaderCommand => {
                "a value change or timestamp inside the header".to_string()
            }
            ParseErrorKind::TokenTooLong => "token too long".to_string(),
            k => k.to_string(),
        };
        // Not `pe.line()`: the parser does not see the lines the fast path reads.
        return WaveError::malformed(
            file,
            Some(line),
            format!("malformed VCD in {during}: {what}"),
        );
    }
    match e.kind() {
        io::ErrorKind::UnexpectedEof => WaveError::malformed(
            file,
            Some(line),
            format!("truncated file: it ends in the middle of {during} ({e})"),
        ),
        io::ErrorKind::InvalidData => {
            WaveError::malformed(file, Some(line), format!("malformed VCD: {e}"))
        }
        _ => WaveError::io(file, e),
    }
}

/// The signals a VCD file declares, sorted by full name (aliases listed under each name),
/// with their widths. Reads only the header.
pub fn list_signals<R: BufRead>(reader: R, file: &str) -> Result<Vec<SignalDecl>, WaveError> {
    let s = VcdStream::open(reader, file)?;
    Ok(s.names
        .iter()
        .map(|n| SignalDecl {
            path: n.name.clone(),
            width: s.values.slots[n.slot].width,
        })
        .collect())
}

/// [`list_signals`] of the file at `path`, a VCD or an FST file.
pub fn list_signals_in_file(path: &Path) -> Result<Vec<SignalDecl>, WaveError> {
    if super::fst::is_fst(path)? {
        let s = super::fst::FstStream::open(path)?;
        return Ok(s
            .names
            .iter()
            .map(|n| SignalDecl {
                path: n.name.clone(),
                width: s.values.slots[n.slot].width,
            })
            .collect());
    }
    let name = path.display().to_string();
    let f = open_checked(path, &name)?;
    list_signals(BufReader::new(f), &name)
}

/// A wave file opened to be read, a device refused (`/dev/zero` would be read for ever).
pub(crate) fn open_checked(path: &Path, name: &str) -> Result<File, WaveError> {
    use std::os::unix::fs::FileTypeExt;
    let f = File::open(path).map_err(|e| WaveError::io(name, e))?;
    let t = f
        .metadata()
        .map_err(|e| WaveError::io(name, e))?
        .file_type();
    if t.is_char_device() || t.is_block_device() || t.is_dir() {
        let what = if t.is_dir() {
            "a directory"
        } else {
            "a device"
        };
        return Err(WaveError::io(
            name,
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{what}, not a file"),
            ),
        ));
    }
    Ok(f)
}

pub(crate) fn open_file(path: &Path) -> Result<(BufReader<File>, String), WaveError> {
    let name = path.display().to_string();
    let f = open_checked(path, &name)?;
    Ok((BufReader::with_capacity(1 << 18, f), name))
}
