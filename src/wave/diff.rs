//! `wave-diff`: compares two wave files, VCD or FST in any pairing, signal by signal (the rules
//! are in the docs of [`crate::wave`]).
//!
//! Both files are read at once in time order, one timestamp at a time, keeping only each
//! signal's current value, so memory follows the number of signals and the first difference
//! is found without reading further.

use std::fmt;
use std::io::BufRead;
use std::path::Path;

use super::error::WaveError;
use super::fst::{is_fst, FstStream};
use super::reader::{open_file, Kind, VcdStream, WaveStream};

/// How two files are compared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DiffOptions {
    /// A signal present in only one of the files makes the files differ.
    pub strict: bool,
}

/// The first point at which two files disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// When, in femtoseconds.
    pub time_fs: u64,
    /// The signal's full name.
    pub signal: String,
    /// Its value in the first file, e.g. `b00000101 (0x05)`.
    pub value_a: String,
    /// Its value in the second file.
    pub value_b: String,
    /// Its declared width in the first file.
    pub width_a: u32,
    /// Its declared width in the second file (differs from `width_a` for a "width differs").
    pub width_b: u32,
}

/// The outcome of comparing two VCD files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffReport {
    /// Name of the first file, as given.
    pub a_name: String,
    /// Name of the second file, as given.
    pub b_name: String,
    /// The earliest difference between common signals, if any.
    pub first_difference: Option<Difference>,
    /// Signals only the first file has, sorted by name.
    pub only_in_a: Vec<String>,
    /// Signals only the second file has, sorted by name.
    pub only_in_b: Vec<String>,
    /// How many signals both files have (all of them were compared).
    pub compared: usize,
    /// The last time compared, in femtoseconds: the last timestamp of either file, or the time
    /// of the first difference.
    pub last_time_fs: u64,
}

impl DiffReport {
    /// No common signal differs and, if `strict`, no signal is in only one file.
    pub fn identical(&self, strict: bool) -> bool {
        self.first_difference.is_none()
            && (!strict || (self.only_in_a.is_empty() && self.only_in_b.is_empty()))
    }
}

impl DiffReport {
    /// The report as `wave-diff` prints it: the verdict (`identical`, or `first difference at
    /// ...`), the count of common signals compared, then the signals found in one file only,
    /// each listed with `verbose`, else one line counting them (none when there are none).
    pub fn render(&self, verbose: bool) -> String {
        use fmt::Write as _;
        let mut f = String::new();
        match &self.first_difference {
            None => f.push_str("identical\n"),
            Some(d) => {
                let _ = write!(
                    f,
                    "first difference at {} ps: {}: {} = {}, {} = {}",
                    Ps(d.time_fs),
                    d.signal,
                    self.a_name,
                    d.value_a,
                    self.b_name,
                    d.value_b
                );
                if d.width_a != d.width_b {
                    let _ = write!(
                        f,
                        " (width differs: {} bits vs {} bits)",
                        d.width_a, d.width_b
                    );
                }
                f.push('\n');
            }
        }
        let _ = write!(
            f,
            "{} common signals compared up to {} ps",
            self.compared,
            Ps(self.last_time_fs)
        );
        let one_sided = self.only_in_a.len() + self.only_in_b.len();
        if verbose {
            for n in &self.only_in_a {
                let _ = write!(f, "\nonly in {}: {n}", self.a_name);
            }
            for n in &self.only_in_b {
                let _ = write!(f, "\nonly in {}: {n}", self.b_name);
            }
        } else if one_sided > 0 {
            let _ = write!(
                f,
                "\n{one_sided} signals in one file only ({} only in {}, {} only in {}; --verbose lists them)",
                self.only_in_a.len(),
                self.a_name,
                self.only_in_b.len(),
                self.b_name
            );
        }
        f
    }
}

/// [`DiffReport::render`] without `verbose`.
impl fmt::Display for DiffReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

/// Femtoseconds shown as picoseconds: `6400`, `0.5`, `12.345`.
struct Ps(u64);

impl fmt::Display for Ps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (ps, fs) = (self.0 / 1000, self.0 % 1000);
        if fs == 0 {
            write!(f, "{ps}")
        } else {
            let frac = format!("{fs:03}");
            write!(f, "{ps}.{}", frac.trim_end_matches('0'))
        }
    }
}

/// Compares the wave files at `a` and `b`, each VCD or FST (told apart by their content, not
/// their names), under the same rules.
pub fn diff_files(a: &Path, b: &Path, opts: &DiffOptions) -> Result<DiffReport, WaveError> {
    let _ = opts;
    match (open_any(a)?, open_any(b)?) {
        (Any::Vcd(x), Any::Vcd(y)) => diff_streams(x, y),
        (Any::Vcd(x), Any::Fst(y)) => diff_streams(x, y),
        (Any::Fst(x), Any::Vcd(y)) => diff_streams(x, y),
        (Any::Fst(x), Any::Fst(y)) => diff_streams(x, y),
    }
}

/// A wave file opened for reading.
enum Any {
    Vcd(VcdStream<std::io::BufReader<std::fs::File>>),
    Fst(FstStream),
}

fn open_any(p: &Path) -> Result<Any, WaveError> {
    if is_fst(p)? {
        Ok(Any::Fst(FstStream::open(p)?))
    } else {
        let (r, n) = open_file(p)?;
        Ok(Any::Vcd(VcdStream::open(r, &n)?))
    }
}

/// A signal both files have.
struct Common {
    name_a: usize,
    slot_a: usize,
    slot_b: usize,
}

/// Compares two VCD streams; `a_name` and `b_name` name them in errors and in the report.
///
/// `opts.strict` does not change the report (one-sided signals are always listed); it is
/// there for callers that pass the same options to [`DiffReport::identical`].
pub fn diff_readers<R1: BufRead, R2: BufRead>(
    a: R1,
    a_name: &str,
    b: R2,
    b_name: &str,
    _opts: &DiffOptions,
) -> Result<DiffReport, WaveError> {
    diff_streams(VcdStream::open(a, a_name)?, VcdStream::open(b, b_name)?)
}

fn diff_streams<A: WaveStream, B: WaveStream>(
    mut sa: A,
    mut sb: B,
) -> Result<DiffReport, WaveError> {
    let (a_name, b_name) = (sa.file().to_string(), sb.file().to_string());
    let (na, nb) = (sa.names(), sb.names());

    // Merge the two sorted name lists; `common` is sorted by name, so a lower index is the
    // first by name.
    let mut common = Vec::new();
    let (mut only_in_a, mut only_in_b) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < na.len() || j < nb.len() {
        let order = match (na.get(i), nb.get(j)) {
            (Some(x), Some(y)) => x.name.cmp(&y.name),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match order {
            std::cmp::Ordering::Less => {
                only_in_a.push(na[i].name.clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                only_in_b.push(nb[j].name.clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                common.push(Common {
                    name_a: i,
                    slot_a: na[i].slot,
                    slot_b: nb[j].slot,
                });
                i += 1;
                j += 1;
            }
        }
    }

    // For each slot of each file, the common signals that read it (aliases share a slot).
    let mut users_a = vec![Vec::new(); sa.slots().len()];
    let mut users_b = vec![Vec::new(); sb.slots().len()];
    for (ci, c) in common.iter().enumerate() {
        users_a[c.slot_a].push(ci);
        users_b[c.slot_b].push(ci);
    }

    let differs = |sa: &A, sb: &B, c: &Common| {
        let (x, y) = (&sa.slots()[c.slot_a], &sb.slots()[c.slot_b]);
        !x.same_as(y)
    };

    let mut dirty = Vec::new();
    let mut last_time_fs = 0;
    let mut first = None;
    loop {
        let t = match (sa.pending_fs(), sb.pending_fs()) {
            (None, None) => break,
            (Some(x), Some(y)) => x.min(y),
            (Some(x), None) | (None, Some(x)) => x,
        };
        if sa.pending_fs() == Some(t) {
            sa.apply_block()?;
        }
        if sb.pending_fs() == Some(t) {
            sb.apply_block()?;
        }
        last_time_fs = t;

        let mut best: Option<usize> = None;
        sa.take_dirty(&mut dirty);
        for s in dirty.drain(..) {
            for &ci in &users_a[s] {
                if best.is_none_or(|b| ci < b) && differs(&sa, &sb, &common[ci]) {
                    best = Some(ci);
                }
            }
        }
        sb.take_dirty(&mut dirty);
        for s in dirty.drain(..) {
            for &ci in &users_b[s] {
                if best.is_none_or(|b| ci < b) && differs(&sa, &sb, &common[ci]) {
                    best = Some(ci);
                }
            }
        }
        if let Some(ci) = best {
            first = Some((t, ci));
            break;
        }
    }
    if first.is_none() {
        // Width mismatches on signals that never got a value in either file.
        if let Some(ci) = common
            .iter()
            .position(|c| sa.slots()[c.slot_a].width != sb.slots()[c.slot_b].width)
        {
            first = Some((0, ci));
        }
    }

    let first_difference = first.map(|(t, ci)| {
        let c = &common[ci];
        let (x, y) = (&sa.slots()[c.slot_a], &sb.slots()[c.slot_b]);
        Difference {
            time_fs: t,
            signal: sa.names()[c.name_a].name.clone(),
            value_a: show_value(x.kind, &x.current()),
            value_b: show_value(y.kind, &y.current()),
            width_a: x.width,
            width_b: y.width,
        }
    });
    Ok(DiffReport {
        a_name,
        b_name,
        first_difference,
        only_in_a,
        only_in_b,
        compared: common.len(),
        last_time_fs,
    })
}

/// `b00000101 (0x05)` for bits; a hex digit is `x`/`z` if all its bits are, `X`/`Z` if some
/// are. Text values are shown as text.
pub(crate) fn show_value(kind: Kind, value: &[u8]) -> String {
    match kind {
        Kind::Text if value.is_empty() => "(no value)".to_string(),
        Kind::Text => String::from_utf8_lossy(value).into_owned(),
        Kind::Bits => {
            let mut s = String::with_capacity(value.len() * 5 / 4 + 8);
            s.push('b');
            s.push_str(&String::from_utf8_lossy(value));
            s.push_str(" (0x");
            let lead = value.len() % 4;
            let mut groups = Vec::new();
            if lead != 0 {
                groups.push(&value[..lead]);
            }
            groups.extend(value[lead..].chunks(4));
            for g in groups {
                s.push(hex_digit(g));
            }
            s.push(')');
            s
        }
    }
}

fn hex_digit(bits: &[u8]) -> char {
    let count = |c: u8| bits.iter().filter(|&&b| b == c).count();
    let (x, z) = (count(b'x'), count(b'z'));
    if x == bits.len() {
        'x'
    } else if z == bits.len() {
        'z'
    } else if x > 0 {
        'X'
    } else if z > 0 {
        'Z'
    } else {
        let v = bits
            .iter()
            .fold(0u32, |acc, &b| acc * 2 + u32::from(b == b'1'));
        char::from_digit(v, 16).unwrap_or('?')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(a: &str, b: &str) -> Result<DiffReport, WaveError> {
        diff_readers(
            a.as_bytes(),
            "a.vcd",
            b.as_bytes(),
            "b.vcd",
            &DiffOptions::default(),
        )
    }

    const HEAD: &str = "$timescale 1ps $end\n$scope module TOP $end\n$var wire 8 ! d $end\n$var wire 1 \" c $end\n$upscope $end\n$enddefinitions $end\n";

    /// Diffs `a` against `b` with the given reading path and `BufReader` capacity.
    fn diff_via(a: &[u8], b: &[u8], fast: bool, cap: usize) -> Result<DiffReport, String> {
        let ra = std::io::BufReader::with_capacity(cap, a);
        let rb = std::io::BufReader::with_capacity(cap, b);
        let sa = VcdStream::open_with(ra, "a.vcd", fast).map_err(|e| e.to_string())?;
        let sb = VcdStream::open_with(rb, "b.vcd", fast).map_err(|e| e.to_string())?;
        diff_streams(sa, sb).map_err(|e| e.to_string())
    }

    #[test]
    fn fast_path_reads_exactly_like_the_parser() {
        let fixture: &[u8] = include_bytes!("../../tests/data/verilator_5006_fixture.vcd");
        let body = |rest: &str| format!("{HEAD}#0\nb0 !\n0\"\n{rest}").into_bytes();
        let mut corpus: Vec<Vec<u8>> = vec![
            body(""),
            body("#2\n1\" b1 !\t#3\n"),
            body("#2\nb11\n!\n#3\r\n0\"\r\n  b1   ! \n"),
            body("$dumpvars\nbX !\nZ\"\n$end\n#4\n$comment hi $end\nbxZ1 !\n"),
            body("#+5\n1\"\n#0005\n#6"),
            body("#5\n1\"\n#4\n"),
            body("#5\nb10q1 !\n"),
            body("#5\nb101010101 !\n"),
            body("#5\n1#\n"),
            body("#5\nb1 #\n"),
            body("#5\n2!\n"),
            body("#5\n1\"\n$end\n"),
            body("#5\n1!!!!!!!!!!!!!\n"),
            body("#99999999999999999999999\n"),
            body("#5\nb\n!\n"),
            body("#5\nr1.5 !\n"),
            body("#5\n1\"\n$scope module X $end\n"),
            fixture.to_vec(),
        ];
        // Every prefix of the fixture: truncated lines, tokens and headers.
        corpus.extend((0..fixture.len()).step_by(7).map(|n| fixture[..n].to_vec()));
        let reference = fixture;
        for text in &corpus {
            for cap in [1, 2, 3, 5, 8, 13, 64, 1 << 16] {
                for (a, b) in [(text.as_slice(), reference), (reference, text.as_slice())] {
                    let slow = diff_via(a, b, false, cap);
                    let fast = diff_via(a, b, true, cap);
                    assert_eq!(
                        fast,
                        slow,
                        "capacity {cap}, input {:?}",
                        String::from_utf8_lossy(text)
                    );
                }
            }
        }
    }

    #[test]
    fn shows_values_in_binary_and_hex() {
        assert_eq!(show_value(Kind::Bits, b"00000101"), "b00000101 (0x05)");
        assert_eq!(show_value(Kind::Bits, b"1111111111"), "b1111111111 (0x3ff)");
        assert_eq!(
            show_value(Kind::Bits, b"xxxx01x1zzzz"),
            "bxxxx01x1zzzz (0xxXz)"
        );
        assert_eq!(show_value(Kind::Bits, b"1"), "b1 (0x1)");
        assert_eq!(show_value(Kind::Bits, b"z0"), "bz0 (0xZ)");
    }

    #[test]
    fn shows_fractional_picoseconds() {
        assert_eq!(Ps(6_400_000).to_string(), "6400");
        assert_eq!(Ps(500).to_string(), "0.5");
        assert_eq!(Ps(12_345).to_string(), "12.345");
        assert_eq!(Ps(12_040).to_string(), "12.04");
    }

    #[test]
    fn short_vectors_extend_by_their_leftmost_bit() {
        let a = format!("{HEAD}#0\nb101 !\n0\"\n#1\nbx1 !\n#2\nbz !\n#3\nb1 !\n");
        let b = format!(
            "{HEAD}#0\nb00000101 !\n0\"\n#1\nbxxxxxxx1 !\n#2\nbZZZZZZZZ !\n#3\nb00000001 !\n"
        );
        let r = diff(&a, &b).unwrap();
        assert!(r.identical(true), "{r}");
        assert_eq!(r.last_time_fs, 3000);
        // x is not 0: an x-extended value differs from a 0-extended one.
        let c = format!("{HEAD}#0\nb101 !\n0\"\n#1\nb0x1 !\n#2\nbz !\n#3\nb1 !\n");
        let d = diff(&a, &c).unwrap().first_difference.unwrap();
        assert_eq!((d.time_fs, d.signal.as_str()), (1000, "TOP.d"));
        assert_eq!(d.value_a, "bxxxxxxx1 (0xxX)");
        assert_eq!(d.value_b, "b000000x1 (0x0X)");
    }

    #[test]
    fn repeated_values_and_glitches_within_a_time_are_not_differences() {
        let a = format!("{HEAD}#0\nb1 !\n0\"\n#5\n1\"\n#9\n");
        let b = format!("{HEAD}#0\nb1 !\nb1 !\n0\"\n#3\nb1 !\n0\"\n#5\n0\"\n1\"\n#5\n#9\n");
        let r = diff(&a, &b).unwrap();
        assert!(r.identical(true), "{r}");
        assert_eq!(r.last_time_fs, 9000);
    }

    #[test]
    fn earliest_time_wins_then_name_order() {
        let a = format!("{HEAD}#0\nb0 !\n0\"\n#5\nb1 !\n1\"\n");
        let b = format!("{HEAD}#0\nb0 !\n0\"\n#5\nb10 !\n0\"\n");
        let d = diff(&a, &b).unwrap().first_difference.unwrap();
        // TOP.c < TOP.d
        assert_eq!(
            (
                d.time_fs,
                d.signal.as_str(),
                d.value_a.as_str(),
                d.value_b.as_str()
            ),
            (5000, "TOP.c", "b1 (0x1)", "b0 (0x0)")
        );
    }

    #[test]
    fn a_file_that_stops_early_keeps_its_last_values() {
        let a = format!("{HEAD}#0\nb0 !\n0\"\n#5\n1\"\n#10\n0\"\n");
        let b = format!("{HEAD}#0\nb0 !\n0\"\n#5\n1\"\n");
        let d = diff(&a, &b).unwrap().first_difference.unwrap();
        assert_eq!((d.time_fs, d.signal.as_str()), (10_000, "TOP.c"));
    }

    #[test]
    fn a_signal_without_a_value_is_all_x() {
        let explicit = format!("{HEAD}#0\nbx !\n0\"\n#4\n1\"\n");
        let never = format!("{HEAD}#0\n0\"\n#4\n1\"\n");
        assert!(diff(&explicit, &never).unwrap().identical(true));
        let zero = format!("{HEAD}#0\n0\"\n#4\n1\"\nb0 !\n");
        let d = diff(&never, &zero).unwrap().first_difference.unwrap();
        assert_eq!((d.time_fs, d.signal.as_str()), (4000, "TOP.d"));
        assert_eq!(
            (d.value_a.as_str(), d.value_b.as_str()),
            ("bxxxxxxxx (0xxx)", "b00000000 (0x00)")
        );
    }

    #[test]
    fn width_differs_is_reported_when_first_defined() {
        let b_head = HEAD.replace("wire 8 ! d", "wire 9 ! d");
        let a = format!("{HEAD}#0\n0\"\n#7\nb1 !\n");
        let b = format!("{b_head}#0\n0\"\n#7\nb1 !\n");
        let r = diff(&a, &b).unwrap();
        let d = r.first_difference.clone().unwrap();
        assert_eq!(
            (d.time_fs, d.signal.as_str(), d.width_a, d.width_b),
            (7000, "TOP.d", 8, 9)
        );
        assert!(
            r.to_string().contains("width differs: 8 bits vs 9 bits"),
            "{r}"
        );
    }
}
