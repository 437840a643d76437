//! Fuzzing in the test command (issue 29): every reader of outside input, fed its committed
//! corpus (`tests/data/fuzz/<target>/`, which holds the cases issue 29 found) and then inputs
//! mutated from it by a seeded Mersenne Twister, must return (a value or an error) without a
//! panic, an abort, a hang or running out of memory.
//!
//! Each target runs in a child process (this test binary again, `EXANET_FUZZ_CHILD` naming the
//! target) under a virtual-memory limit (`ulimit -v`), so that an abort or an allocation beyond
//! the budget is a failed test, not a crashed suite; the parent kills a child that runs past its
//! time and names the input it was on (the child writes each input to a file before running it).
//! The inputs are a fixed sequence (seed 1, 2, ...); how many run is bounded by time
//! (`EXANET_FUZZ_SECONDS`, default 4 a target), so a longer run explores further along the same
//! sequence. A failing input is reported escaped, and kept in the run's folder.
//!
//! Stable Rust, no `cargo fuzz`: decision 0040.

use exanet::config::Config;
use rand_mt::Mt64;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Virtual memory a target's child may use: far above any bounded input's need.
const CHILD_VMEM_KB: u64 = 4 << 20;
/// One input taking longer than this is a hang.
const INPUT_LIMIT: Duration = Duration::from_secs(10);

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(target);
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    assert!(!v.is_empty(), "{}: an empty corpus", dir.display());
    v
}

/// Values that break parsers: the edges of integer types, floats that are not numbers,
/// separators of the formats.
const INTERESTING: &[&[u8]] = &[
    b"18446744073709551615",
    b"9223372036854775808",
    b"9223372036854775807",
    b"4294967296",
    b"4294967295",
    b"-1",
    b"0",
    b"1e308",
    b"nan",
    b"inf",
    b"\n",
    b"=",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"-",
    b"..",
    b"$end",
    b"#",
    b"$var",
    b"iteration",
    b"processes",
    b"\x00",
    b"\xff",
];

/// `input` changed 1 to 4 times: a byte flipped, a range deleted or repeated, an interesting
/// value inserted or put in place of a run of digits.
fn mutate(input: &[u8], rng: &mut Mt64) -> Vec<u8> {
    let mut v = input.to_vec();
    let n = 1 + rng.next_u64() % 4;
    let pick = |rng: &mut Mt64, len: usize| (rng.next_u64() % (len as u64 + 1)) as usize;
    for _ in 0..n {
        match rng.next_u64() % 5 {
            0 if !v.is_empty() => {
                let i = pick(rng, v.len() - 1);
                v[i] ^= 1 << (rng.next_u64() % 8);
            }
            1 if !v.is_empty() => {
                let a = pick(rng, v.len());
                let b = (a + 1 + pick(rng, 64)).min(v.len());
                v.drain(a..b);
            }
            2 if !v.is_empty() => {
                let a = pick(rng, v.len());
                let b = (a + 1 + pick(rng, 256)).min(v.len());
                let piece = v[a..b].to_vec();
                let times = 1 + rng.next_u64() % 8;
                for _ in 0..times {
                    v.splice(b..b, piece.iter().copied());
                }
            }
            3 => {
                // a run of digits replaced by an interesting value
                let starts: Vec<usize> = (0..v.len())
                    .filter(|&i| v[i].is_ascii_digit() && (i == 0 || !v[i - 1].is_ascii_digit()))
                    .collect();
                let x = INTERESTING[(rng.next_u64() % INTERESTING.len() as u64) as usize];
                if starts.is_empty() {
                    let at = pick(rng, v.len());
                    v.splice(at..at, x.iter().copied());
                } else {
                    let a = starts[(rng.next_u64() % starts.len() as u64) as usize];
                    let mut b = a;
                    while b < v.len() && v[b].is_ascii_digit() {
                        b += 1;
                    }
                    v.splice(a..b, x.iter().copied());
                }
            }
            _ => {
                let x = INTERESTING[(rng.next_u64() % INTERESTING.len() as u64) as usize];
                let at = pick(rng, v.len());
                v.splice(at..at, x.iter().copied());
            }
        }
    }
    v.truncate(1 << 20);
    v
}

/// Run one input through a target's readers; what they return does not matter, only that they
/// return.
fn run_target(target: &str, input: &[u8], scratch: &Path) {
    let text = String::from_utf8_lossy(input);
    match target {
        "config" => {
            for json in [false, true] {
                if let Ok(c) = Config::from_text_unvalidated("f.toml", &text, json) {
                    let _ = c.validate();
                    // what panicked on a seed beyond TOML's integers: printing, --set on top
                    let _ = exanet::config_doc::annotated_toml(&c);
                    let _ = exanet::config_set::apply(&c, &["sim.seed=3".parse().unwrap()]);
                }
            }
        }
        "set" => {
            let base = Config::default();
            let sets: Vec<exanet::config_set::Assignment> =
                text.lines().filter_map(|l| l.parse().ok()).collect();
            if let Ok(c) = exanet::config_set::apply(&base, &sets) {
                if c.validate().is_ok() {
                    let _ = exanet::config_doc::annotated_toml(&c);
                }
            }
        }
        "simgrid" => {
            let _ = exanet::app::replay::simgrid::parse_one_file("t.txt", &text, None);
        }
        "dpsnn" => {
            let _ = exanet::app::dpsnn::trace::SpikeTrace::parse("t.txt", &text);
        }
        "vcd" => {
            let _ = exanet::wave::list_signals(input, "a.vcd");
            let _ = exanet::wave::diff_readers(
                input,
                "a.vcd",
                input,
                "b.vcd",
                &exanet::wave::DiffOptions::default(),
            );
        }
        "fst" => {
            let f = scratch.join("input.fst");
            std::fs::write(&f, input).unwrap();
            let _ = exanet::wave::list_signals_in_file(&f);
        }
        "protocol" => {
            for l in text.lines() {
                let _ = exanet::serve::protocol::ClientLine::parse(l);
                let _ = exanet::serve::protocol::ServerLine::parse(l);
            }
        }
        t => panic!("no fuzz target {t}"),
    }
}

/// The child's loop: the corpus as it is, then mutations until the budget is spent. Each input
/// is written to `current` first (what the parent reports if the child dies or hangs).
fn child(target: &str, scratch: &Path, budget: Duration) {
    let mut seeds = corpus(target);
    if target == "fst" {
        // real FST files, written from the VCD corpus
        for (name, bytes) in corpus("vcd") {
            let f = scratch.join("seed.fst");
            if exanet::wave::vcd_to_fst(&bytes[..], &name, &f).is_ok() {
                seeds.push((format!("{name}.fst"), std::fs::read(&f).unwrap()));
            }
        }
    }
    let current = scratch.join("current");
    let check = |label: &str, input: &[u8]| {
        std::fs::write(&current, input).unwrap();
        let t0 = Instant::now();
        run_target(target, input, scratch);
        let took = t0.elapsed();
        if took > INPUT_LIMIT {
            eprintln!("{target}: {label} took {took:?}");
            std::process::exit(3);
        }
    };
    for (name, bytes) in &seeds {
        check(name, bytes);
    }
    let t0 = Instant::now();
    let mut k = 0u64;
    while t0.elapsed() < budget {
        k += 1;
        let mut rng = Mt64::new(k);
        let (name, base) = &seeds[(rng.next_u64() % seeds.len() as u64) as usize];
        let input = mutate(base, &mut rng);
        check(&format!("mutation {k} of {name}"), &input);
    }
    println!(
        "fuzz {target}: {} corpus inputs and {k} mutations",
        seeds.len()
    );
}

fn escaped(b: &[u8]) -> String {
    let s: String = b
        .iter()
        .take(400)
        .flat_map(|&c| std::ascii::escape_default(c))
        .map(char::from)
        .collect();
    if b.len() > 400 {
        format!("{s}... ({} bytes)", b.len())
    } else {
        s
    }
}

/// Run `target` in a child under the memory limit and the time limit; fail naming the input.
fn fuzz(target: &str) {
    let budget = Duration::from_secs(
        std::env::var("EXANET_FUZZ_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(4),
    );
    if let Ok(t) = std::env::var("EXANET_FUZZ_CHILD") {
        if t == target {
            let scratch = PathBuf::from(std::env::var("EXANET_FUZZ_DIR").unwrap());
            child(target, &scratch, budget);
        }
        return;
    }
    let scratch = std::env::temp_dir().join(format!("exanet-fuzz-{target}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let exe = std::env::current_exe().unwrap();
    let mut c = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {CHILD_VMEM_KB} && exec \"$0\" \"$@\""))
        .arg(&exe)
        .args([
            &format!("fuzz_{target}"),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("EXANET_FUZZ_CHILD", target)
        .env("EXANET_FUZZ_DIR", &scratch)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + budget + INPUT_LIMIT + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = c.try_wait().unwrap() {
            break Some(s);
        }
        if Instant::now() > deadline {
            let _ = c.kill();
            let _ = c.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = c.wait_with_output().unwrap();
    let (so, se) = (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    );
    let current = std::fs::read(scratch.join("current")).unwrap_or_default();
    match status {
        Some(s) if s.success() && so.contains(&format!("fuzz {target}: ")) => {
            // (libtest prints the child's line after the test's name)
            let key = format!("fuzz {target}: ");
            let line = so.lines().find_map(|l| l.find(&key).map(|i| &l[i..]));
            eprintln!("{}", line.unwrap_or_default());
            std::fs::remove_dir_all(&scratch).unwrap();
        }
        Some(s) => panic!(
            "fuzz {target}: the child failed ({s}) on the input {} (kept in {}):\n{se}",
            escaped(&current),
            scratch.join("current").display()
        ),
        None => panic!(
            "fuzz {target}: the child hung on the input {} (kept in {})",
            escaped(&current),
            scratch.join("current").display()
        ),
    }
}

#[test]
fn fuzz_config() {
    fuzz("config");
}

#[test]
fn fuzz_set() {
    fuzz("set");
}

#[test]
fn fuzz_simgrid() {
    fuzz("simgrid");
}

#[test]
fn fuzz_dpsnn() {
    fuzz("dpsnn");
}

#[test]
fn fuzz_vcd() {
    fuzz("vcd");
}

#[test]
fn fuzz_fst() {
    fuzz("fst");
}

#[test]
fn fuzz_protocol() {
    fuzz("protocol");
}

#[test]
fn mutations_are_a_fixed_sequence() {
    let a: Vec<Vec<u8>> = (1..20)
        .map(|k| mutate(b"x = 12\n", &mut Mt64::new(k)))
        .collect();
    let b: Vec<Vec<u8>> = (1..20)
        .map(|k| mutate(b"x = 12\n", &mut Mt64::new(k)))
        .collect();
    assert_eq!(a, b);
    assert!(a.iter().any(|m| m != b"x = 12\n"));
}
