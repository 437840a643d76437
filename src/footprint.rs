//! The memory a run will need, estimated before it starts, against what the machine can give
//! (issue 29): a run that cannot fit is refused with exit 2, its estimate part by part and the
//! machine's budget, instead of running until an allocation aborts the process.
//!
//! An estimate is a sum of parts, each a count the run's inputs fix (ranks, messages posted at
//! once, trace records, DPSNN iterations) times the bytes one of them holds, taken from the
//! sizes of the structures that hold it (`std::mem::size_of`), so it follows the code. It is a
//! lower bound: hash tables' spare slots, the allocator's headers and what a part does not list
//! (the network's FIFOs, a program's futures) come on top, so a refused run would certainly
//! not have fit; one that passes may still be large (the measured cost of a message in flight
//! is about twice its estimate: docs/decisions/0041-memory-estimates.md).
//!
//! The budget is the smaller of the memory the kernel says is available (`MemAvailable` and
//! `SwapFree` of `/proc/meminfo`) and the address space the process may still take under its
//! limit (`ulimit -v`: the limit less `VmSize` of `/proc/self/status`). Where neither can be
//! read there is no budget and nothing is refused.

/// A run's estimate: named parts, bytes each.
#[derive(Debug, Clone, Default)]
pub struct Footprint {
    parts: Vec<(String, u64)>,
}

impl Footprint {
    pub fn new() -> Footprint {
        Footprint::default()
    }

    /// Adds a part: `count` of something `each` bytes, described by `what` (which names the
    /// count).
    pub fn add(&mut self, what: impl Into<String>, count: u64, each: u64) {
        self.parts.push((what.into(), count.saturating_mul(each)));
    }

    /// The estimate, bytes (saturating).
    pub fn total(&self) -> u64 {
        self.parts.iter().fold(0u64, |a, p| a.saturating_add(p.1))
    }

    /// The parts, as `what: size`, largest first.
    pub fn describe(&self) -> String {
        let mut p: Vec<&(String, u64)> = self.parts.iter().filter(|p| p.1 > 0).collect();
        p.sort_by_key(|x| std::cmp::Reverse(x.1));
        p.iter()
            .map(|(w, b)| format!("{w}: {}", size(*b)))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Refuses `run` when its estimate exceeds what the machine can give (`budget`).
    pub fn check(&self, run: &str) -> Result<(), String> {
        match budget() {
            Some(b) => self.check_against(run, &b),
            None => Ok(()),
        }
    }

    /// Refuses `run` when its estimate exceeds `budget`.
    pub fn check_against(&self, run: &str, budget: &Budget) -> Result<(), String> {
        let need = self.total();
        if need <= budget.bytes {
            return Ok(());
        }
        Err(format!(
            "{run} would need at least {} of memory ({}), more than the {} this machine can \
             give ({}); make the run smaller",
            size(need),
            self.describe(),
            size(budget.bytes),
            budget.source
        ))
    }
}

/// What the machine can give a run, and where the figure comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    pub bytes: u64,
    pub source: String,
}

/// The machine's budget (module header); None where nothing can be read.
pub fn budget() -> Option<Budget> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let available = meminfo.as_deref().and_then(|m| {
        let a = kib_field(m, "MemAvailable:")?;
        Some(a.saturating_add(kib_field(m, "SwapFree:").unwrap_or(0)))
    });
    let address = address_space_left();
    match (available, address) {
        (Some(a), Some(s)) if s < a => Some(Budget {
            bytes: s,
            source: "the address space left under the process's limit, ulimit -v".into(),
        }),
        (Some(a), _) => Some(Budget {
            bytes: a,
            source: "MemAvailable and SwapFree of /proc/meminfo".into(),
        }),
        (None, Some(s)) => Some(Budget {
            bytes: s,
            source: "the address space left under the process's limit, ulimit -v".into(),
        }),
        (None, None) => None,
    }
}

/// The address space the process may still take: its soft limit less its size now; None
/// without a limit.
fn address_space_left() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given and nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let now = kib_field(&status, "VmSize:")?;
    Some(lim.rlim_cur.saturating_sub(now))
}

/// A `<name> <n> kB` line's value, bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Bytes in words: "12.3 GB", "456 MB", "789 kB", "12 bytes" (decimal units).
pub fn size(b: u64) -> String {
    let f = b as f64;
    if f >= 1e9 {
        format!("{:.1} GB", f / 1e9)
    } else if f >= 1e6 {
        format!("{:.0} MB", f / 1e6)
    } else if f >= 1e3 {
        format!("{:.0} kB", f / 1e3)
    } else {
        format!("{b} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_estimate_over_the_budget_is_refused_with_its_parts_largest_first() {
        let mut f = Footprint::new();
        f.add("4 ranks", 4, 1000);
        f.add("12 messages at once", 12, 1_000_000);
        let b = Budget {
            bytes: 10_000_000,
            source: "a test".into(),
        };
        let e = f.check_against("app run", &b).unwrap_err();
        assert!(
            e.contains("app run would need at least 12 MB of memory (12 messages at once: 12 MB; 4 ranks: 4 kB), more than the 10 MB this machine can give (a test)"),
            "{e}"
        );
        f.add("nothing", 0, 5);
        assert_eq!(f.total(), 12_004_000);
        let big = Budget {
            bytes: 12_004_000,
            source: "a test".into(),
        };
        assert!(f.check_against("app run", &big).is_ok());
        // saturating, never wrapping
        f.add("too many", u64::MAX, 2);
        assert_eq!(f.total(), u64::MAX);
    }

    #[test]
    fn the_budget_reads_this_machine() {
        let b = budget().expect("Linux has /proc/meminfo");
        assert!(b.bytes > 0, "{b:?}");
        assert_eq!(
            kib_field("MemAvailable:   12 kB\n", "MemAvailable:"),
            Some(12 * 1024)
        );
        assert_eq!(kib_field("MemFree: 1 kB\n", "MemAvailable:"), None);
    }
}
