//! Speed of the VCD writer and of `wave-diff` on a network-sized trace (`cargo bench --bench
//! wave_io`). WAVE_PERF_SIGNALS and WAVE_PERF_CYCLES set the size (default 300 x 1_000_000),
//! WAVE_PERF_QUIET how rarely signals change (it multiplies every change period).

use std::path::{Path, PathBuf};

use exanet::wave::{diff_files, DiffOptions, SignalDecl, VcdWriter};

const PERIOD_PS: u64 = 6400;

fn decl(p: &str, w: u32) -> SignalDecl {
    SignalDecl::new(p, w)
}

/// A small deterministic generator (xorshift), so every run writes the same file.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn wide(&mut self) -> u128 {
        (u128::from(self.next()) << 64) | u128::from(self.next())
    }
}

fn temp_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("exanet-bench-wave-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("create the bench directory");
    d
}

fn main() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let n = env("WAVE_PERF_SIGNALS", 300) as usize;
    let cycles = env("WAVE_PERF_CYCLES", 1_000_000);
    let widths = [1u32, 1, 3, 8, 10, 32, 64, 128];
    // How often a signal changes: every cycle for a few, rarely for most (a network model is
    // mostly idle).
    // WAVE_PERF_QUIET multiplies every period (default 1: about 900 bytes of changes a cycle).
    let quiet = env("WAVE_PERF_QUIET", 1).max(1);
    let periods = [1u64, 2, 8, 32, 128, 1024, 8192, 65536].map(|p| p * quiet);
    let decls: Vec<SignalDecl> = (0..n)
        .map(|i| {
            decl(
                &format!("TOP.exanet_top.u_{}.gen_vc[{}].sig_q[{i}]", i / 50, i % 4),
                widths[i % widths.len()],
            )
        })
        .collect();
    let dir = temp_dir();
    let (pa, pb) = (dir.join("a.vcd"), dir.join("b.vcd"));

    let write = |path: &Path| {
        let start = std::time::Instant::now();
        let f = std::fs::File::create(path).unwrap();
        let mut w = VcdWriter::new(f, 1, &decls).unwrap();
        let mut vals = vec![0u128; n];
        let mut rng = Rng(1);
        for c in 0..cycles {
            w.sample(PERIOD_PS * c, &vals).unwrap();
            for (i, v) in vals.iter_mut().enumerate() {
                if (c + i as u64).is_multiple_of(periods[(i / 3) % periods.len()]) {
                    *v = rng.wide();
                }
            }
            w.sample(PERIOD_PS * c + PERIOD_PS / 2, &vals).unwrap();
        }
        w.finish().unwrap();
        start.elapsed()
    };
    let tw = write(&pa);
    write(&pb);
    let size = std::fs::metadata(&pa).unwrap().len();
    let start = std::time::Instant::now();
    let r = diff_files(&pa, &pb, &DiffOptions { strict: true }).unwrap();
    let td = start.elapsed();
    assert!(r.identical(true), "{r}");
    println!(
        "{n} signals x {cycles} cycles (quiet {quiet}): VCD {:.1} MB, write {:.2} s, diff of two such files {:.2} s",
        size as f64 / 1e6,
        tw.as_secs_f64(),
        td.as_secs_f64()
    );
    std::fs::remove_dir_all(&dir).ok();
}
