//! DPSNN spike traces: how many axonal spikes every process sends to every process in every
//! iteration, the input of the DPSNN traffic injector (Pisani 2016 Ch. 3, "DPSNN traffic injector":
//! "a *trace file* containing the number of spikes sent by the MPI processes at every
//! simulation iteration"). An iteration is one simulated millisecond (Pisani 2016 §4.5: "10
//! seconds of neural simulation, i. e. 10000 cycles of the DPSNN algorithm"). In each one a
//! process computes (CALC, for a time proportional to the spikes it received), meets the
//! others at a barrier, sends every destination its spike count in one alltoallv and the
//! 12-byte spikes themselves in a second one (Pisani 2016 Ch. 3 and §4.5).
//!
//! # Format (version 1)
//!
//! ```text
//! exanet-spike-trace 1
//! # 2x2 columns, one a process
//! processes 4
//! iterations 2
//! iteration 0
//! 0: 0:31 1:4 2:1
//! 1: 1:28 0:3
//! iteration 1
//! 3: 3:40 2:6
//! ```
//!
//! - The first line is exactly `exanet-spike-trace 1` (the format and its version).
//! - Then `processes N` (1..=4096) and `iterations M`, in that order.
//! - Then every iteration, numbered from 0 and in order, as `iteration K` followed by one line
//!   a source process, `SRC: DST:COUNT DST:COUNT ...`: SRC sent COUNT spikes (0..=2^32-1) to
//!   DST in iteration K. A source or destination left out sent or received nothing; each
//!   source appears at most once an iteration, each destination at most once a line. Spikes
//!   of a process to itself (`0: 0:31` above) are its neurons' spikes that stay local: they
//!   never cross the network but they do drive its CALC.
//! - `#` starts a comment running to the end of the line; blank lines do not count.
//!
//! The trace is held dense (`counts[it][src][dst]`), so `processes^2 * iterations` is limited
//! to 2^28 counts (1 GiB); the limit is checked on the header, before anything is allocated,
//! and each iteration is allocated only when the file reaches it. Every malformed input gives
//! an error `name:line: problem`; none panics.

/// The first line of every trace.
const MAGIC: &str = "exanet-spike-trace";
/// The format version this module reads and writes.
const VERSION: u32 = 1;
/// At most this many processes.
pub const MAX_PROCESSES: u64 = 4096;
/// At most this many counts, `processes^2 * iterations`.
pub const MAX_COUNTS: u64 = 1 << 28;

/// A dense trace of `processes` and `iterations` fits: at most `MAX_COUNTS` counts, and its
/// memory ([`dense_bytes`]) within what the machine can give ([`check_memory`]).
pub fn check_size(processes: u64, iterations: u64) -> Result<(), String> {
    let per = processes.pow(2);
    if iterations > MAX_COUNTS / per {
        return Err(format!(
            "iterations {iterations} of {processes} processes is {} counts, more than the \
             {MAX_COUNTS} (2^28) a dense trace holds",
            (iterations as u128) * per as u128,
        ));
    }
    check_memory(processes, iterations)
}

/// The dense counts of `processes` and `iterations` fit what the machine can give.
pub fn check_memory(processes: u64, iterations: u64) -> Result<(), String> {
    let mut f = crate::footprint::Footprint::new();
    f.add(
        format!("the spike counts of {processes} processes over {iterations} iterations"),
        1,
        dense_bytes(processes, iterations),
    );
    f.check(&format!("a spike trace of {iterations} iterations"))
}

/// Bytes the dense counts of `processes` and `iterations` hold: a list of rows an iteration,
/// a row of counts a process.
pub fn dense_bytes(processes: u64, iterations: u64) -> u64 {
    use std::mem::size_of;
    let row = size_of::<Vec<u32>>() as u64 + 4 * processes;
    iterations.saturating_mul(size_of::<Vec<Vec<u32>>>() as u64 + processes.saturating_mul(row))
}

/// Spikes sent from every process to every process, iteration by iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpikeTrace {
    /// Processes (MPI ranks) of the DPSNN run.
    pub processes: usize,
    /// `counts[it][src][dst]`: spikes process `src` sends process `dst` in iteration `it`.
    /// Every `counts[it]` is `processes x processes`.
    pub counts: Vec<Vec<Vec<u32>>>,
}

impl SpikeTrace {
    /// Iterations (simulated milliseconds) in the trace.
    pub fn iterations(&self) -> usize {
        self.counts.len()
    }

    /// Spikes process `p` receives in iteration `it`, from every source including itself (its
    /// own spikes drive its CALC too). 0 for an iteration or a process outside the trace.
    pub fn received(&self, it: usize, p: usize) -> u64 {
        self.counts.get(it).map_or(0, |m| {
            m.iter()
                .map(|row| row.get(p).copied().unwrap_or(0) as u64)
                .sum()
        })
    }

    /// Read a trace; `name` (a file name) heads every error, `name:line: problem`.
    pub fn parse(name: &str, text: &str) -> Result<SpikeTrace, String> {
        Reader::new(name).read(text)
    }

    /// The trace in the format above, sources and destinations ascending, zero counts left
    /// out; `parse` gives the same trace back.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = format!(
            "{MAGIC} {VERSION}\nprocesses {}\niterations {}\n",
            self.processes,
            self.iterations()
        );
        for (it, m) in self.counts.iter().enumerate() {
            let _ = writeln!(s, "iteration {it}");
            for (src, row) in m.iter().enumerate() {
                if row.iter().all(|&c| c == 0) {
                    continue;
                }
                let _ = write!(s, "{src}:");
                for (dst, &c) in row.iter().enumerate().filter(|(_, &c)| c > 0) {
                    let _ = write!(s, " {dst}:{c}");
                }
                s.push('\n');
            }
        }
        s
    }
}

/// Where the reader is in the file.
enum Expect {
    Magic,
    Processes,
    Iterations,
    Body,
}

/// The parser's state, line by line.
struct Reader<'a> {
    name: &'a str,
    expect: Expect,
    processes: usize,
    iterations: usize,
    counts: Vec<Vec<Vec<u32>>>,
    /// `source_line[src]`: the line of `src` in the current iteration, 0 if none yet.
    source_line: Vec<usize>,
    /// `dest_line[dst]`: the last line that gave `dst` a count (duplicates within a line).
    dest_line: Vec<usize>,
}

impl<'a> Reader<'a> {
    fn new(name: &'a str) -> Reader<'a> {
        Reader {
            name,
            expect: Expect::Magic,
            processes: 0,
            iterations: 0,
            counts: Vec::new(),
            source_line: Vec::new(),
            dest_line: Vec::new(),
        }
    }

    fn read(mut self, text: &str) -> Result<SpikeTrace, String> {
        let mut last = 0;
        for (i, raw) in text.lines().enumerate() {
            last = i + 1;
            self.line(last, raw)
                .map_err(|p| format!("{}:{last}: {p}", self.name))?;
        }
        let end = |p: String| format!("{}:{}: {p}", self.name, last.max(1));
        match self.expect {
            Expect::Magic => Err(end(format!(
                "empty file: expected `{MAGIC} {VERSION}` on the first line"
            ))),
            Expect::Processes => Err(end("the file ends before `processes N`".into())),
            Expect::Iterations => Err(end("the file ends before `iterations M`".into())),
            Expect::Body if self.counts.len() < self.iterations => Err(end(format!(
                "truncated: the file ends after {} of its {} iterations",
                self.counts.len(),
                self.iterations
            ))),
            Expect::Body => Ok(SpikeTrace {
                processes: self.processes,
                counts: self.counts,
            }),
        }
    }

    /// One line, `line` its number; an error is the problem alone.
    fn line(&mut self, line: usize, raw: &str) -> Result<(), String> {
        let body = raw.split('#').next().unwrap_or("").trim();
        match self.expect {
            // the first line exactly, comments included: a file is a trace from its first byte
            Expect::Magic => self.magic(raw.trim_end()),
            _ if body.is_empty() => Ok(()),
            Expect::Processes => {
                let n = keyword_value(body, "processes", "N")?;
                if n == 0 || n > MAX_PROCESSES {
                    return Err(format!("processes {n} is outside 1..={MAX_PROCESSES}"));
                }
                self.processes = n as usize;
                self.expect = Expect::Iterations;
                Ok(())
            }
            Expect::Iterations => {
                let m = keyword_value(body, "iterations", "M")?;
                check_size(self.processes as u64, m)?;
                self.iterations = m as usize;
                self.source_line = vec![0; self.processes];
                self.dest_line = vec![0; self.processes];
                self.expect = Expect::Body;
                Ok(())
            }
            Expect::Body if body.split_ascii_whitespace().next() == Some("iteration") => {
                let k = keyword_value(body, "iteration", "K")?;
                let next = self.counts.len() as u64;
                if k >= self.iterations as u64 {
                    return Err(format!(
                        "iteration {k} is beyond the declared `iterations {}`",
                        self.iterations
                    ));
                }
                if k != next {
                    return Err(format!(
                        "iteration {k} out of order: expected iteration {next}"
                    ));
                }
                self.counts
                    .push(vec![vec![0; self.processes]; self.processes]);
                self.source_line.iter_mut().for_each(|l| *l = 0);
                Ok(())
            }
            Expect::Body => self.source(line, body),
        }
    }

    fn magic(&mut self, first: &str) -> Result<(), String> {
        let mut words = first.split_ascii_whitespace();
        if words.next() != Some(MAGIC) {
            return Err(format!(
                "not a spike trace: the first line must be `{MAGIC} {VERSION}`, found `{}`",
                clip(first)
            ));
        }
        match (words.next(), words.next()) {
            (Some(v), None) if v == VERSION.to_string() => {
                self.expect = Expect::Processes;
                Ok(())
            }
            (Some(v), None) => Err(format!(
                "spike trace version `{}` is not supported (this reader knows {VERSION})",
                clip(v)
            )),
            _ => Err(format!(
                "the first line must be `{MAGIC} {VERSION}`, found `{}`",
                clip(first)
            )),
        }
    }

    /// `SRC: DST:COUNT ...` in the current iteration.
    fn source(&mut self, line: usize, body: &str) -> Result<(), String> {
        let mut words = body.split_ascii_whitespace();
        let first = words.next().unwrap_or("");
        let Some(src) = first.strip_suffix(':') else {
            return Err(format!(
                "expected `iteration K` or `SRC: DST:COUNT ...`, found `{}`",
                clip(first)
            ));
        };
        let src = self.process(src, "source process")?;
        let it = self.counts.len();
        if it == 0 {
            return Err(format!(
                "source {src} comes before the first `iteration 0` line"
            ));
        }
        let seen = self.source_line[src];
        if seen != 0 {
            return Err(format!(
                "source {src} appears twice in iteration {} (first on line {seen})",
                it - 1
            ));
        }
        self.source_line[src] = line;
        for word in words {
            let Some((dst, count)) = word.split_once(':') else {
                return Err(format!("source {src}: `{}` is not `DST:COUNT`", clip(word)));
            };
            let dst = self.process(dst, "destination process")?;
            let count = number(count, "spike count")?;
            let count = u32::try_from(count)
                .map_err(|_| format!("spike count {count} is too large (at most {})", u32::MAX))?;
            if self.dest_line[dst] == line {
                return Err(format!(
                    "source {src}: destination {dst} appears twice on the line"
                ));
            }
            self.dest_line[dst] = line;
            if let Some(cell) = self
                .counts
                .last_mut()
                .and_then(|m| m.get_mut(src))
                .and_then(|row| row.get_mut(dst))
            {
                *cell = count;
            }
        }
        Ok(())
    }

    /// A process index, `what` naming its role, below `processes`.
    fn process(&self, s: &str, what: &str) -> Result<usize, String> {
        let p = number(s, what)?;
        if p >= self.processes as u64 {
            return Err(format!(
                "{what} {p} does not exist (the trace declares {} processes, 0..={})",
                self.processes,
                self.processes - 1
            ));
        }
        Ok(p as usize)
    }
}

/// `KEYWORD VALUE` and nothing more; the value as a number.
fn keyword_value(body: &str, keyword: &str, placeholder: &str) -> Result<u64, String> {
    let mut words = body.split_ascii_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(k), Some(v), None) if k == keyword => number(v, keyword),
        _ => Err(format!(
            "expected `{keyword} {placeholder}`, found `{}`",
            clip(body)
        )),
    }
}

/// A whole decimal number, `what` naming it in the error (negative, not a number, too large).
fn number(s: &str, what: &str) -> Result<u64, String> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if digits(s) {
        return s
            .parse::<u64>()
            .map_err(|_| format!("{what} {} is too large", clip(s)));
    }
    if s.strip_prefix('-').is_some_and(digits) {
        return Err(format!("{what} {} is negative", clip(s)));
    }
    Err(format!("{what} `{}` is not a whole number", clip(s)))
}

/// At most 40 characters of `s`, for quoting a bad input in an error.
fn clip(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_mt::Mt64;

    const EXAMPLE: &str = "exanet-spike-trace 1
# 2x2 columns, one a process
processes 4
iterations 2
iteration 0
0: 0:31 1:4 2:1
1: 1:28 0:3
iteration 1
3: 3:40 2:6
";

    fn example() -> SpikeTrace {
        SpikeTrace::parse("ex.trace", EXAMPLE).unwrap()
    }

    #[test]
    fn the_documented_example_reads_as_written() {
        let t = example();
        assert_eq!(t.processes, 4);
        assert_eq!(t.iterations(), 2);
        assert_eq!(t.counts[0][0], vec![31, 4, 1, 0]);
        assert_eq!(t.counts[0][1], vec![3, 28, 0, 0]);
        assert_eq!(t.counts[0][2], vec![0; 4]);
        assert_eq!(t.counts[1][3], vec![0, 0, 6, 40]);
        assert_eq!(t.counts[1][0], vec![0; 4]);
    }

    #[test]
    fn received_sums_every_source_including_itself() {
        let t = example();
        assert_eq!(t.received(0, 0), 31 + 3);
        assert_eq!(t.received(0, 1), 4 + 28);
        assert_eq!(t.received(0, 2), 1);
        assert_eq!(t.received(1, 2), 6);
        assert_eq!(t.received(1, 3), 40);
        assert_eq!(t.received(2, 0), 0, "iteration outside the trace");
        assert_eq!(t.received(0, 9), 0, "process outside the trace");
    }

    #[test]
    fn to_text_round_trips_exactly() {
        let t = example();
        let text = t.to_text();
        assert_eq!(SpikeTrace::parse("again", &text), Ok(t.clone()));
        assert_eq!(
            text,
            "exanet-spike-trace 1\nprocesses 4\niterations 2\niteration 0\n\
             0: 0:31 1:4 2:1\n1: 0:3 1:28\niteration 1\n3: 2:6 3:40\n"
        );
        // extremes: the largest count, an empty iteration, no iterations at all
        let mut big = SpikeTrace {
            processes: 2,
            counts: vec![vec![vec![u32::MAX, 0], vec![0, 1]], vec![vec![0; 2]; 2]],
        };
        assert_eq!(SpikeTrace::parse("big", &big.to_text()), Ok(big.clone()));
        big.counts.clear();
        assert_eq!(SpikeTrace::parse("none", &big.to_text()), Ok(big));
    }

    #[test]
    fn comments_blank_lines_zero_counts_and_empty_sources_are_accepted() {
        let text = "exanet-spike-trace 1\n\nprocesses 2 # two\niterations 1\n\
                    iteration 0\n  # nothing from 0\n0:\n1: 0:0 1:5   \r\n";
        let t = SpikeTrace::parse("c", text).unwrap();
        assert_eq!(t.counts, vec![vec![vec![0, 0], vec![0, 5]]]);
    }

    /// Every malformed input gives `name:line:` and says what is wrong.
    #[test]
    fn every_error_names_file_line_and_problem() {
        let head = "exanet-spike-trace 1\nprocesses 3\niterations 2\n";
        let body = |b: &str| format!("{head}{b}");
        let cases: Vec<(String, &str, &str)> = vec![
            ("".into(), "t:1:", "empty file"),
            ("spike trace\n".into(), "t:1:", "not a spike trace"),
            (
                "# exanet-spike-trace 1\n".into(),
                "t:1:",
                "not a spike trace",
            ),
            ("exanet-spike-trace 2\n".into(), "t:1:", "version `2`"),
            (
                "exanet-spike-trace 1 x\n".into(),
                "t:1:",
                "first line must be",
            ),
            (
                "exanet-spike-trace 1\n".into(),
                "t:1:",
                "before `processes N`",
            ),
            (
                "exanet-spike-trace 1\niterations 2\n".into(),
                "t:2:",
                "expected `processes N`",
            ),
            (
                "exanet-spike-trace 1\nprocesses 0\n".into(),
                "t:2:",
                "outside 1..=4096",
            ),
            (
                "exanet-spike-trace 1\nprocesses 4097\n".into(),
                "t:2:",
                "outside 1..=4096",
            ),
            (
                "exanet-spike-trace 1\nprocesses -3\n".into(),
                "t:2:",
                "processes -3 is negative",
            ),
            (
                "exanet-spike-trace 1\nprocesses 3\n".into(),
                "t:2:",
                "before `iterations M`",
            ),
            (
                "exanet-spike-trace 1\nprocesses 4096\niterations 17\n".into(),
                "t:3:",
                "more than the 268435456",
            ),
            (body(""), "t:3:", "ends after 0 of its 2 iterations"),
            (
                body("iteration 0\n0: 1:2\n"),
                "t:5:",
                "ends after 1 of its 2 iterations",
            ),
            (body("0: 1:2\n"), "t:4:", "before the first `iteration 0`"),
            (body("iteration 1\n"), "t:4:", "expected iteration 0"),
            (
                body("iteration 0\niteration 0\n"),
                "t:5:",
                "iteration 0 out of order: expected iteration 1",
            ),
            (
                body("iteration 0\niteration 1\niteration 2\n"),
                "t:6:",
                "beyond the declared `iterations 2`",
            ),
            (
                body("iteration 0\n3: 0:1\n"),
                "t:5:",
                "source process 3 does not exist",
            ),
            (
                body("iteration 0\n0: 3:1\n"),
                "t:5:",
                "destination process 3 does not exist",
            ),
            (
                body("iteration 0\n0: 1:-4\n"),
                "t:5:",
                "spike count -4 is negative",
            ),
            (
                body("iteration 0\n0: 1:x\n"),
                "t:5:",
                "spike count `x` is not a whole number",
            ),
            (
                body("iteration 0\n0: 1:1.5\n"),
                "t:5:",
                "not a whole number",
            ),
            (
                body("iteration 0\n0: 1:4294967296\n"),
                "t:5:",
                "spike count 4294967296 is too large",
            ),
            (
                body("iteration 0\n0: 1:99999999999999999999999\n"),
                "t:5:",
                "too large",
            ),
            (
                body("iteration 0\n0: 1:2 2:1 1:3\n"),
                "t:5:",
                "destination 1 appears twice",
            ),
            (
                body("iteration 0\n0: 1:2\n1: 0:1\n0: 2:1\n"),
                "t:7:",
                "source 0 appears twice in iteration 0 (first on line 5)",
            ),
            (
                body("iteration 0\n0: 1 2\n"),
                "t:5:",
                "`1` is not `DST:COUNT`",
            ),
            (body("iteration 0\nspikes 4\n"), "t:5:", "found `spikes`"),
            (
                body("iteration x\n"),
                "t:4:",
                "iteration `x` is not a whole number",
            ),
            (body("iteration\n"), "t:4:", "expected `iteration K`"),
        ];
        for (text, at, what) in cases {
            let e = SpikeTrace::parse("t", &text).unwrap_err();
            assert!(e.starts_with(at), "{text:?}\n gave {e}");
            assert!(e.contains(what), "{text:?}\n gave {e}");
        }
    }

    #[test]
    fn the_same_source_may_come_back_in_the_next_iteration() {
        let text = "exanet-spike-trace 1\nprocesses 2\niterations 2\n\
                    iteration 0\n0: 1:1\niteration 1\n0: 1:2\n";
        let t = SpikeTrace::parse("t", text).unwrap();
        assert_eq!(t.counts[1][0], vec![0, 2]);
    }

    /// Truncations and random byte changes of a valid trace: an error or a trace, never a panic.
    #[test]
    fn no_input_panics() {
        let seed = 0x5eed;
        let mut rng = Mt64::new(seed);
        let valid = example().to_text() + "# end\n";
        let bytes = valid.as_bytes();
        let alphabet = b"0123456789:-# \n\r\tabxiteron\xff";
        let mut inputs: Vec<Vec<u8>> = (0..=bytes.len()).map(|n| bytes[..n].to_vec()).collect();
        for _ in 0..20_000 {
            let mut b = bytes.to_vec();
            for _ in 0..1 + rng.next_u64() % 3 {
                let at = (rng.next_u64() % b.len() as u64) as usize;
                let r = rng.next_u64();
                match r % 3 {
                    0 => b[at] = alphabet[(r >> 8) as usize % alphabet.len()],
                    1 => b[at] = (r >> 8) as u8,
                    _ => {
                        b.remove(at);
                    }
                }
            }
            inputs.push(b);
        }
        for b in inputs {
            let text = String::from_utf8_lossy(&b).into_owned();
            let got = std::panic::catch_unwind(|| SpikeTrace::parse("fuzz", &text));
            let got = got.unwrap_or_else(|_| panic!("seed {seed}: parse panicked on {text:?}"));
            if let Ok(t) = got {
                // whatever parses is well formed and round-trips
                assert!(t.counts.iter().flatten().all(|r| r.len() == t.processes));
                assert_eq!(SpikeTrace::parse("again", &t.to_text()), Ok(t));
            }
        }
    }
}
