//! The pieces of `exanet network sweep` that are not the network: reading `--vary` and
//! `--seeds`, running independent points on `--jobs` threads in a fixed output order, the
//! progress line, and joining the per-point packet files.

use super::CliError;
use crate::config_set::Assignment;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Most seeds a sweep repeats its points over.
pub const MAX_SEEDS: usize = 1000;
/// Most threads `--jobs` starts (far more than any machine this runs on has cores).
pub const MAX_JOBS: usize = 256;
/// Most values one `--vary` gives.
pub const MAX_VARY_VALUES: usize = 1000;
/// Most runs (curves x loads x seeds) one sweep makes.
pub const MAX_RUNS: usize = 100_000;

/// One `--vary FIELD=V1,V2,...`: a configuration field and its values, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Vary {
    pub key: String,
    pub values: Vec<String>,
}

impl Vary {
    /// The assignment of value `i`.
    pub fn assignment(&self, i: usize) -> Assignment {
        Assignment {
            key: self.key.clone(),
            value: self.values[i].clone(),
        }
    }
}

/// Splits at the commas that are outside brackets, braces and quotes, so a value can be a TOML
/// list (`[1,2]`) or a quoted text with commas (`"dragonfly:p=2,a=4,h=2"`).
fn split_top_level(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, '[' | '{') => {
                depth += 1;
                cur.push(c);
            }
            (None, ']' | '}') => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("'{s}': a '{c}' closes nothing"));
                }
                cur.push(c);
            }
            (None, ',') if depth == 0 => out.push(std::mem::take(&mut cur)),
            (None, c) => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("'{s}': a quote is not closed"));
    }
    if depth != 0 {
        return Err(format!("'{s}': a bracket is not closed"));
    }
    out.push(cur);
    Ok(out)
}

/// Reads one `--vary FIELD=V1,V2,...`. The values are checked when they are applied to the
/// configuration (`config_set::apply`, then `Config::validate`), like a file's.
pub fn parse_vary(s: &str) -> Result<Vary, CliError> {
    let bad = |m: String| CliError::input(format!("--vary {s}: {m}"));
    let (k, v) = s.split_once('=').ok_or_else(|| {
        bad(
            "expected section.key=V1,V2,... (for example link.credit.period_cycles=20,35,50)"
                .into(),
        )
    })?;
    // the field name's checks are --set's
    let a: Assignment = format!("{k}=x")
        .parse()
        .map_err(|e: String| bad(e.replace("=x'", "'")))?;
    let values: Vec<String> = split_top_level(v.trim())
        .map_err(bad)?
        .into_iter()
        .map(|x| x.trim().to_string())
        .collect();
    if let Some(i) = values.iter().position(|x| x.is_empty()) {
        return Err(bad(format!("value {} is empty", i + 1)));
    }
    if values.len() > MAX_VARY_VALUES {
        return Err(bad(format!(
            "{} values, at most {MAX_VARY_VALUES}",
            values.len()
        )));
    }
    for (i, x) in values.iter().enumerate() {
        if values[..i].contains(x) {
            return Err(bad(format!("'{x}' is given twice")));
        }
    }
    Ok(Vary { key: a.key, values })
}

/// The cartesian product of the varied values: one assignment list per combination, the first
/// `--vary` changing slowest (nested loops in the order given). No `--vary`: one empty list.
pub fn combinations(varies: &[Vary]) -> Vec<Vec<Assignment>> {
    let mut out: Vec<Vec<Assignment>> = vec![Vec::new()];
    for v in varies {
        let mut next = Vec::with_capacity(out.len() * v.values.len());
        for prefix in &out {
            for i in 0..v.values.len() {
                let mut c = prefix.clone();
                c.push(v.assignment(i));
                next.push(c);
            }
        }
        out = next;
    }
    out
}

/// `--seeds`: a list `1,2,7`, ranges `1..5` (both ends included), or both `1..3,10`.
pub fn parse_seeds(s: &str) -> Result<Vec<u64>, CliError> {
    let bad = |m: String| CliError::input(format!("--seeds {s}: {m}"));
    let num = |t: &str| -> Result<u64, CliError> {
        (t.trim().parse::<u64>().ok())
            .filter(|&x| x <= crate::config::MAX_SEED)
            .ok_or_else(|| {
                let max = crate::config::MAX_SEED;
                bad(format!("'{}' is not a seed (0 to {max})", t.trim()))
            })
    };
    let mut seeds: Vec<u64> = Vec::new();
    for item in s.split(',') {
        if item.trim().is_empty() {
            return Err(bad("an empty item".into()));
        }
        match item.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b.trim_start_matches('='))?);
                if a > b {
                    return Err(bad(format!("the range {a}..{b} runs backwards")));
                }
                if b - a >= MAX_SEEDS as u64 {
                    return Err(bad(format!("more than {MAX_SEEDS} seeds")));
                }
                seeds.extend(a..=b);
            }
            None => seeds.push(num(item)?),
        }
        if seeds.len() > MAX_SEEDS {
            return Err(bad(format!("more than {MAX_SEEDS} seeds")));
        }
    }
    for (i, x) in seeds.iter().enumerate() {
        if seeds[..i].contains(x) {
            return Err(bad(format!("seed {x} is given twice")));
        }
    }
    Ok(seeds)
}

/// `--jobs N`: 1 to [`MAX_JOBS`].
pub fn check_jobs(n: usize) -> Result<usize, CliError> {
    if n == 0 || n > MAX_JOBS {
        return Err(CliError::input(format!(
            "--jobs {n}: give 1 to {MAX_JOBS} threads ({} cores here)",
            std::thread::available_parallelism().map_or(1, |c| c.get())
        )));
    }
    Ok(n)
}

/// What the pool's threads share: each index's result, and the completion callback.
type PoolState<'a, T> = (
    Vec<Option<Result<T, CliError>>>,
    &'a mut (dyn FnMut(usize, &Result<T, CliError>) + Send),
);

/// Runs `work(0..n)` on up to `jobs` threads and returns the results in index order, or the
/// error of the lowest index that failed: each index is taken in increasing order, so every
/// index below a failed one has run, and the answer is the same for any `jobs`. After a
/// failure no new index starts. `done(k, result)` is called as each finishes, one at a time.
pub fn run_pool<T: Send>(
    n: usize,
    jobs: usize,
    work: &(dyn Fn(usize) -> Result<T, CliError> + Sync),
    done: &mut (dyn FnMut(usize, &Result<T, CliError>) + Send),
) -> Result<Vec<T>, CliError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<PoolState<'_, T>> = Mutex::new(((0..n).map(|_| None).collect(), done));
    std::thread::scope(|sc| {
        for _ in 0..jobs.clamp(1, n.max(1)) {
            sc.spawn(|| loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::SeqCst);
                if k >= n {
                    break;
                }
                let r = work(k);
                if r.is_err() {
                    stop.store(true, Ordering::SeqCst);
                }
                let mut g = results.lock().unwrap_or_else(|p| p.into_inner());
                (g.1)(k, &r);
                g.0[k] = Some(r);
            });
        }
    });
    let (rs, _) = results.into_inner().unwrap_or_else(|p| p.into_inner());
    let mut out = Vec::with_capacity(n);
    let mut first_err = None;
    for r in rs {
        match r {
            Some(Ok(x)) if first_err.is_none() => out.push(x),
            Some(Err(e)) if first_err.is_none() => first_err = Some(e),
            _ => {}
        }
    }
    match first_err {
        Some(e) => Err(e),
        None if out.len() == n => Ok(out),
        None => Err(CliError::failed("a sweep point did not run")),
    }
}

/// The part file of point `k` of a packets file (next to it, joined and removed after).
pub fn packets_part(path: &Path, k: usize) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(format!(".{k}.part"));
    PathBuf::from(s)
}

/// Joins the per-point packet files into one under a single header as the points finish, in
/// point order whatever order they finish in: a part is appended and removed once every point
/// before it is, so at most the parts of the points still out of order are on disk.
pub struct PacketsJoin {
    path: PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    finished: Vec<bool>,
    next: usize,
    error: Option<String>,
}

impl PacketsJoin {
    pub fn create(path: &Path, points: usize) -> Result<PacketsJoin, CliError> {
        let f = std::fs::File::create(path)
            .map_err(|e| CliError::input(format!("--packets: {}: {e}", path.display())))?;
        let mut out = std::io::BufWriter::new(f);
        writeln!(out, "{}", crate::net::packet_log::CSV_HEADER)
            .map_err(|e| CliError::input(format!("--packets: {}: {e}", path.display())))?;
        Ok(PacketsJoin {
            path: path.to_path_buf(),
            out,
            finished: vec![false; points],
            next: 0,
            error: None,
        })
    }

    /// Point `k` finished writing its part.
    pub fn finished(&mut self, k: usize) {
        self.finished[k] = true;
        while self.next < self.finished.len() && self.finished[self.next] {
            let part = packets_part(&self.path, self.next);
            if self.error.is_none() {
                let r = std::fs::File::open(&part)
                    .and_then(|mut f| std::io::copy(&mut f, &mut self.out));
                if let Err(e) = r {
                    self.error = Some(format!("{}: {e}", part.display()));
                }
            }
            let _ = std::fs::remove_file(&part);
            self.next += 1;
        }
    }

    /// Flushes the file; the first error, if any.
    pub fn finish(mut self) -> Result<(), CliError> {
        if let Err(e) = self.out.flush() {
            self.error
                .get_or_insert(format!("{}: {e}", self.path.display()));
        }
        match self.error {
            Some(e) => Err(CliError::input(format!("--packets: {e}"))),
            None => Ok(()),
        }
    }

    /// Removes the parts left by points that failed or never ran.
    pub fn discard_parts(&self) {
        for k in self.next..self.finished.len() {
            let _ = std::fs::remove_file(packets_part(&self.path, k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vary_reads_lists_toml_values_and_quoted_commas() {
        let v = parse_vary("link.credit.period_cycles=20,35, 50").unwrap();
        assert_eq!(v.key, "link.credit.period_cycles");
        assert_eq!(v.values, ["20", "35", "50"]);
        let v = parse_vary("router.tx_only_ports=[1,2],[]").unwrap();
        assert_eq!(v.values, ["[1,2]", "[]"]);
        let v = parse_vary(r#"net.topology="dragonfly:p=2,a=4,h=2",torus:4x4"#).unwrap();
        assert_eq!(v.values, [r#""dragonfly:p=2,a=4,h=2""#, "torus:4x4"]);
        for (s, needle) in [
            ("link.credit.period_cycles", "expected section.key=V1,V2"),
            ("=1,2", "not a dotted field name"),
            ("link..x=1", "not a dotted field name"),
            ("sim.seed=1,,2", "value 2 is empty"),
            ("sim.seed=", "value 1 is empty"),
            ("sim.seed=1,1", "'1' is given twice"),
            ("net.topology=\"torus:4x4", "a quote is not closed"),
            ("router.tx_only_ports=[1,2", "a bracket is not closed"),
            ("router.tx_only_ports=1]", "closes nothing"),
        ] {
            let e = parse_vary(s).unwrap_err();
            assert_eq!(e.code, 2);
            assert!(e.message.contains(needle), "{s}: {}", e.message);
            assert!(e.message.starts_with("--vary "), "{s}: {}", e.message);
        }
    }

    #[test]
    fn varies_form_a_product_the_first_slowest() {
        let a = parse_vary("a.x=1,2").unwrap();
        let b = parse_vary("b.y=p,q,r").unwrap();
        let c = combinations(&[a, b]);
        let text: Vec<String> = c
            .iter()
            .map(|as_| {
                as_.iter()
                    .map(|x| format!("{}={}", x.key, x.value))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(
            text,
            [
                "a.x=1 b.y=p",
                "a.x=1 b.y=q",
                "a.x=1 b.y=r",
                "a.x=2 b.y=p",
                "a.x=2 b.y=q",
                "a.x=2 b.y=r"
            ]
        );
        assert_eq!(combinations(&[]), vec![Vec::<Assignment>::new()]);
    }

    #[test]
    fn seeds_are_lists_and_inclusive_ranges() {
        assert_eq!(parse_seeds("1..5").unwrap(), [1, 2, 3, 4, 5]);
        assert_eq!(parse_seeds("1,2,7").unwrap(), [1, 2, 7]);
        assert_eq!(parse_seeds("3..4, 10").unwrap(), [3, 4, 10]);
        assert_eq!(parse_seeds("0").unwrap(), [0]);
        for (s, needle) in [
            ("5..1", "runs backwards"),
            ("1,,2", "an empty item"),
            ("x", "'x' is not a seed"),
            ("-1", "'-1' is not a seed"),
            ("1..2,2", "seed 2 is given twice"),
            ("0..5000", "more than 1000 seeds"),
            ("1..9223372036854775807", "more than 1000 seeds"),
            (
                "1..18446744073709551615",
                "is not a seed (0 to 9223372036854775807)",
            ),
        ] {
            let e = parse_seeds(s).unwrap_err();
            assert_eq!(e.code, 2);
            assert!(e.message.contains(needle), "{s}: {}", e.message);
        }
    }

    #[test]
    fn jobs_refuses_zero_and_absurd_counts() {
        assert_eq!(check_jobs(1).unwrap(), 1);
        assert_eq!(check_jobs(MAX_JOBS).unwrap(), MAX_JOBS);
        for n in [0, MAX_JOBS + 1, 1 << 40] {
            let e = check_jobs(n).unwrap_err();
            assert!(e.message.contains("give 1 to 256 threads"), "{}", e.message);
        }
    }

    #[test]
    fn the_pool_keeps_the_order_and_reports_the_lowest_failure() {
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let r = run_pool(10, jobs, &|k| Ok(k * k), &mut |k, _| seen.push(k)).unwrap();
            assert_eq!(r, (0..10).map(|k| k * k).collect::<Vec<_>>(), "{jobs}");
            seen.sort_unstable();
            assert_eq!(seen, (0..10).collect::<Vec<_>>());
            let e = run_pool(
                10,
                jobs,
                &|k| {
                    if k == 3 || k == 6 {
                        Err(CliError::input(format!("point {k}")))
                    } else {
                        Ok(k)
                    }
                },
                &mut |_, _| {},
            )
            .unwrap_err();
            assert_eq!(e.message, "point 3", "{jobs} jobs");
        }
        assert!(run_pool(0, 4, &|k| Ok(k), &mut |_, _| {})
            .unwrap()
            .is_empty());
    }
}
