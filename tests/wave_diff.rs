//! End-to-end tests of the wave module: `VcdWriter` output diffed by `wave-diff`, hand-written
//! VCD for normalisation and errors, truncated files, a real Verilator 5.006 trace, deep
//! hierarchies, and FST files (written, converted, compared with VCD, truncated).

use std::path::{Path, PathBuf};

use exanet::wave::{
    diff_files, diff_readers, list_signals, list_signals_in_file, vcd_to_fst, DiffOptions,
    DiffReport, FstWaveWriter, SignalDecl, VcdWriter, WaveError,
};

const PERIOD_PS: u64 = 6400;

fn decl(p: &str, w: u32) -> SignalDecl {
    SignalDecl::new(p, w)
}

/// A small deterministic generator (xorshift), so failures are reproducible.
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

fn sample_decls() -> Vec<SignalDecl> {
    vec![
        decl("TOP.clk_i", 1),
        decl("TOP.exanet_link_top.clk_i", 1),
        decl("TOP.exanet_link_top.u_a.u_tx.credit_cnt_q[0]", 10),
        decl("TOP.exanet_link_top.u_a.u_tx.credit_cnt_q[1]", 10),
        decl("TOP.exanet_link_top.u_a.gen_vc[0].st_q", 3),
        decl("TOP.exanet_link_top.u_a.gen_vc[1].st_q", 3),
        decl("TOP.exanet_link_top.u_a.data_q", 128),
        decl("TOP.exanet_link_top.u_a.valid_q", 1),
        decl("TOP.exanet_link_top.u_b.word_q", 64),
    ]
}

/// `cycles` cycles of samples at the two instants per cycle, with random register values
/// that change on the rising edge only.
fn samples(decls: &[SignalDecl], cycles: u64, seed: u64) -> Vec<(u64, Vec<u128>)> {
    let mut rng = Rng(seed);
    let mut regs: Vec<u128> = decls.iter().map(|_| 0).collect();
    let mut out = Vec::new();
    for c in 0..cycles {
        let mut low = regs.clone();
        low[0] = 0;
        low[1] = 0;
        out.push((PERIOD_PS * c, low));
        for r in regs.iter_mut().skip(2) {
            if rng.next().is_multiple_of(3) {
                *r = rng.wide();
            }
        }
        let mut high = regs.clone();
        high[0] = 1;
        high[1] = 1;
        out.push((PERIOD_PS * c + PERIOD_PS / 2, high));
    }
    out
}

fn write_vcd(decls: &[SignalDecl], timescale_ps: u32, samples: &[(u64, Vec<u128>)]) -> Vec<u8> {
    let mut w = VcdWriter::new(Vec::new(), timescale_ps, decls).expect("writer");
    for (t, v) in samples {
        w.sample(t / u64::from(timescale_ps), v).expect("sample");
    }
    w.finish().expect("finish")
}

fn diff_bytes(a: &[u8], b: &[u8]) -> Result<DiffReport, WaveError> {
    diff_readers(a, "a.vcd", b, "b.vcd", &DiffOptions::default())
}

fn masked(v: u128, w: u32) -> u128 {
    if w == 128 {
        v
    } else {
        v & ((1u128 << w) - 1)
    }
}

fn binary(v: u128, w: u32) -> String {
    format!(
        "b{:0width$b} (0x{:0hex$x})",
        v,
        v,
        width = w as usize,
        hex = w.div_ceil(4) as usize
    )
}

/// A fresh directory under the system temp dir for this test.
fn temp_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("exanet-wave-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

// ---------------------------------------------------------------------------------------
// Round trips through VcdWriter

#[test]
fn same_samples_written_twice_are_identical() {
    let decls = sample_decls();
    let s = samples(&decls, 200, 7);
    let a = write_vcd(&decls, 1, &s);
    let b = write_vcd(&decls, 1, &s);
    let r = diff_bytes(&a, &b).unwrap();
    assert!(r.identical(true), "{r}");
    assert_eq!(r.compared, decls.len());
    assert_eq!(r.last_time_fs, (199 * PERIOD_PS + PERIOD_PS / 2) * 1000);
    assert_eq!(
        r.to_string(),
        format!(
            "identical\n9 common signals compared up to {} ps",
            199 * PERIOD_PS + 3200
        )
    );

    // The names come back exactly as declared.
    let mut want = decls.clone();
    want.sort();
    assert_eq!(list_signals(&a[..], "a.vcd").unwrap(), want);
}

#[test]
fn a_single_planted_change_is_reported_exactly() {
    let decls = sample_decls();
    let s = samples(&decls, 100, 11);
    let a = write_vcd(&decls, 1, &s);
    for (k, sig) in [(77usize, 2usize), (0, 6), (150, 7), (199, 8), (1, 0)] {
        let mut planted = s.clone();
        let (t, ref mut values) = planted[k];
        let w = decls[sig].width;
        let old = masked(values[sig], w);
        let flip = if w == 1 { 1 } else { (1u128 << (w - 1)) | 1 };
        let new = masked(old ^ flip, w);
        values[sig] = new;
        let b = write_vcd(&decls, 1, &planted);
        let r = diff_bytes(&a, &b).unwrap();
        let d = r
            .first_difference
            .clone()
            .unwrap_or_else(|| panic!("no difference for {k}/{sig}: {r}"));
        assert_eq!(d.time_fs, t * 1000, "{r}");
        assert_eq!(d.signal, decls[sig].path, "{r}");
        assert_eq!(d.value_a, binary(old, w));
        assert_eq!(d.value_b, binary(new, w));
        assert_eq!(r.last_time_fs, t * 1000);
        assert!(!r.identical(false));
        let first_line = r.to_string().lines().next().unwrap().to_string();
        assert_eq!(
            first_line,
            format!(
                "first difference at {t} ps: {}: a.vcd = {}, b.vcd = {}",
                decls[sig].path,
                binary(old, w),
                binary(new, w)
            )
        );
    }
}

#[test]
fn one_sided_signals_are_listed_and_fail_only_in_strict_mode() {
    let decls = sample_decls();
    let s = samples(&decls, 20, 3);
    let a = write_vcd(&decls, 1, &s);
    let mut more = decls.clone();
    more.push(decl("TOP.exanet_link_top.u_b.extra_q", 4));
    let s2: Vec<(u64, Vec<u128>)> = s
        .iter()
        .map(|(t, v)| (*t, v.iter().copied().chain([5]).collect()))
        .collect();
    let b = write_vcd(&more, 1, &s2);

    let r = diff_bytes(&a, &b).unwrap();
    assert!(r.only_in_a.is_empty());
    assert_eq!(r.only_in_b, ["TOP.exanet_link_top.u_b.extra_q"]);
    assert_eq!(r.compared, decls.len());
    assert!(r.identical(false));
    assert!(!r.identical(true));
    // The verdict first, then a count of the one-sided signals; `verbose` lists them.
    let text = r.to_string();
    assert_eq!(
        text,
        format!(
            "identical\n9 common signals compared up to {} ps\n1 signals in one file only (0 only in a.vcd, 1 only in b.vcd; --verbose lists them)",
            19 * PERIOD_PS + 3200
        )
    );
    assert!(
        r.render(true)
            .ends_with("ps\nonly in b.vcd: TOP.exanet_link_top.u_b.extra_q"),
        "{}",
        r.render(true)
    );

    let r = diff_bytes(&b, &a).unwrap();
    assert_eq!(r.only_in_a, ["TOP.exanet_link_top.u_b.extra_q"]);
    assert!(r.to_string().starts_with("identical\n"));
    assert!(r
        .render(true)
        .lines()
        .any(|l| l == "only in a.vcd: TOP.exanet_link_top.u_b.extra_q"));
}

#[test]
fn different_timescales_with_equivalent_times_are_identical() {
    let decls = sample_decls();
    let s = samples(&decls, 50, 5);
    let ps = write_vcd(&decls, 1, &s);
    let hundred_ps = write_vcd(&decls, 100, &s);
    assert!(String::from_utf8_lossy(&hundred_ps).contains("$timescale 100ps $end"));
    assert!(String::from_utf8_lossy(&hundred_ps).contains("\n#32\n"));
    let r = diff_bytes(&ps, &hundred_ps).unwrap();
    assert!(r.identical(true), "{r}");
    assert_eq!(r.last_time_fs, (49 * PERIOD_PS + 3200) * 1000);

    // The same numbers under a different timescale are not the same times.
    let mut s10 = s.clone();
    for (t, _) in &mut s10 {
        *t *= 10;
    }
    let ten_ps_scaled = write_vcd(&decls, 10, &s10); // same tick numbers as `ps`, unit 10 ps
    let d = diff_bytes(&ps, &ten_ps_scaled)
        .unwrap()
        .first_difference
        .unwrap();
    assert_eq!(
        d.time_fs, 3_200_000,
        "the first rising edge, at 3200 ps in a.vcd, is at 32000 ps in b.vcd"
    );
    assert_eq!(d.signal, "TOP.clk_i");
}

// ---------------------------------------------------------------------------------------
// Normalisation, naming and aliases in hand-written VCD

const HEAD: &str = "$timescale 1ns $end
$scope module TOP $end
$var wire 8 ! d [7:0] $end
$var wire 1 \" v $end
$upscope $end
$enddefinitions $end
";

#[test]
fn short_vectors_and_x_z_are_normalised() {
    let writer = {
        let mut w =
            VcdWriter::new(Vec::new(), 1000, &[decl("TOP.d", 8), decl("TOP.v", 1)]).unwrap();
        w.sample(0, &[5, 0]).unwrap();
        w.sample(1, &[0, 1]).unwrap();
        w.sample(2, &[0x80, 1]).unwrap();
        w.finish().unwrap()
    };
    let hand = format!("{HEAD}#0\nb101 !\n0\"\n#1\nb0 !\n1\"\n#2\nb10000000 !\n");
    assert!(diff_bytes(&writer, hand.as_bytes())
        .unwrap()
        .identical(true));

    // x and z extend with themselves, and are compared as values.
    let x1 = format!("{HEAD}#0\nbx !\nz\"\n#3\nbz1 !\nx\"\n");
    let x2 = format!("{HEAD}#0\nbxxxxxxxx !\nZ\"\n#3\nbzzzzzzz1 !\nX\"\n");
    assert!(diff_bytes(x1.as_bytes(), x2.as_bytes())
        .unwrap()
        .identical(true));

    let x3 = format!("{HEAD}#0\nbx !\nz\"\n#3\nb0z1 !\nx\"\n");
    let r = diff_bytes(x1.as_bytes(), x3.as_bytes()).unwrap();
    let d = r.first_difference.unwrap();
    assert_eq!((d.time_fs, d.signal.as_str()), (3_000_000, "TOP.d"));
    assert_eq!(d.value_a, "bzzzzzzz1 (0xzZ)");
    assert_eq!(d.value_b, "b000000z1 (0x0Z)");

    // An x is not a 0, and a z is not an x.
    let zero = format!("{HEAD}#0\nb0 !\nz\"\n");
    let d = diff_bytes(x1.as_bytes(), zero.as_bytes())
        .unwrap()
        .first_difference
        .unwrap();
    assert_eq!(
        (d.time_fs, d.value_a.as_str(), d.value_b.as_str()),
        (0, "bxxxxxxxx (0xxx)", "b00000000 (0x00)")
    );
    let vx = format!("{HEAD}#0\nbx !\nx\"\n");
    let d = diff_bytes(x1.as_bytes(), vx.as_bytes())
        .unwrap()
        .first_difference
        .unwrap();
    assert_eq!(
        (d.signal.as_str(), d.value_a.as_str(), d.value_b.as_str()),
        ("TOP.v", "bz (0xz)", "bx (0xx)")
    );
}

#[test]
fn a_value_is_one_value_however_it_is_written() {
    // Values are held as their leading character and the rest (issue 29): every way of writing
    // a value compares equal, and values that differ anywhere differ.
    let same = [
        ("b1 !", "b00000001 !"),
        ("b0001 !", "b1 !"),
        ("b11111111 !", "b11111111 !"),
        ("b0 !", "b00000000 !"),
        ("bx !", "bXxXxXxXx !"),
        // never written (all x) against x written
        ("", "bxxxxxxxx !"),
        ("bz0 !", "bzzzzzzz0 !"),
        ("b1x !", "b0000001x !"),
        ("bxx0 !", "bxxxxxxx0 !"),
    ];
    for (a, b) in same {
        let fa = format!("{HEAD}#0\n{a}\n#1\n");
        let fb = format!("{HEAD}#0\n{b}\n#1\n");
        let r = diff_bytes(fa.as_bytes(), fb.as_bytes()).unwrap();
        assert!(
            r.identical(true),
            "{a} against {b}: {:?}",
            r.first_difference
        );
    }
    let differ = [
        (
            "b1 !",
            "b11111111 !",
            "b00000001 (0x01)",
            "b11111111 (0xff)",
        ),
        ("b0 !", "bx !", "b00000000 (0x00)", "bxxxxxxxx (0xxx)"),
        ("", "b0 !", "bxxxxxxxx (0xxx)", "b00000000 (0x00)"),
        ("bz !", "b0z !", "bzzzzzzzz (0xzz)", "b0000000z (0x0Z)"),
        ("b10 !", "b100 !", "b00000010 (0x02)", "b00000100 (0x04)"),
        (
            "b11111110 !",
            "b01111110 !",
            "b11111110 (0xfe)",
            "b01111110 (0x7e)",
        ),
    ];
    for (a, b, va, vb) in differ {
        let fa = format!("{HEAD}#0\n{a}\n#1\n");
        let fb = format!("{HEAD}#0\n{b}\n#1\n");
        let d = diff_bytes(fa.as_bytes(), fb.as_bytes())
            .unwrap()
            .first_difference
            .unwrap_or_else(|| panic!("{a} against {b}: identical"));
        assert_eq!(
            (d.value_a.as_str(), d.value_b.as_str()),
            (va, vb),
            "{a} against {b}"
        );
    }
}

#[test]
fn many_wide_signals_cost_the_bytes_written_not_their_widths() {
    // 40,000 signals of 65,536 bits, each set by `b0`: a byte a declared bit would be 2.6 GB
    // a file (issue 29); the two files compare in a 1 GiB address space
    let d = temp_dir("wide");
    let n = 40_000;
    let mut t = String::from("$timescale 1ns $end\n$scope module TOP $end\n");
    for k in 0..n {
        t += &format!("$var wire 65536 s{k} w{k} [65535:0] $end\n");
    }
    t += "$upscope $end\n$enddefinitions $end\n#0\n";
    for k in 0..n {
        t += &format!("b0 s{k}\n");
    }
    t += "#5\nb1 s7\n";
    let (a, b) = (d.join("a.vcd"), d.join("b.vcd"));
    std::fs::write(&a, &t).unwrap();
    std::fs::write(&b, t.replace("#5\nb1 s7", "#5\nb10 s7")).unwrap();
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_exanet"))
        .args(["wave-diff", a.to_str().unwrap(), b.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("TOP.w7"), "{out}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn aliases_and_bit_selects_name_signals_consistently() {
    // Verilator style: one id code under several names; 1-bit array elements as a bit select.
    let verilator_style = "$timescale 1ps $end
 $scope module TOP $end
  $var wire  1 # clk_i $end
  $scope module top $end
   $var wire  1 # clk_i $end
   $var wire 10 $ cnt_q[0] [9:0] $end
   $var wire  1 % vld_q [0] $end
  $upscope $end
 $upscope $end
$enddefinitions $end
#0
0#
b11 $
1%
#5
1#
#10
0#
b100 $
0%
";
    let decls = [
        decl("TOP.clk_i", 1),
        decl("TOP.top.clk_i", 1),
        decl("TOP.top.cnt_q[0]", 10),
        decl("TOP.top.vld_q[0]", 1),
    ];
    let mut w = VcdWriter::new(Vec::new(), 1, &decls).unwrap();
    w.sample(0, &[0, 0, 3, 1]).unwrap();
    w.sample(5, &[1, 1, 3, 1]).unwrap();
    w.sample(10, &[0, 0, 4, 0]).unwrap();
    let ours = w.finish().unwrap();
    let r = diff_bytes(verilator_style.as_bytes(), &ours).unwrap();
    assert!(r.identical(true), "{r}");
    assert_eq!(r.compared, 4);

    // The alias is a signal of its own: a difference on it is reported under its name.
    let mut w = VcdWriter::new(Vec::new(), 1, &decls).unwrap();
    w.sample(0, &[0, 0, 3, 1]).unwrap();
    w.sample(5, &[1, 0, 3, 1]).unwrap();
    let ours = w.finish().unwrap();
    let d = diff_bytes(verilator_style.as_bytes(), &ours)
        .unwrap()
        .first_difference
        .unwrap();
    assert_eq!((d.time_fs, d.signal.as_str()), (5000, "TOP.top.clk_i"));
}

// ---------------------------------------------------------------------------------------
// Malformed input

fn expect_error(text: &[u8], want: &str, line: Option<u64>) {
    let good = format!("{HEAD}#0\nb0 !\n0\"\n");
    for (a, b, bad_name) in [
        (text, good.as_bytes(), "a.vcd"),
        (good.as_bytes(), text, "b.vcd"),
    ] {
        let e = match diff_bytes(a, b) {
            Ok(r) => panic!(
                "no error for {:?} (wanted {want:?}): {r}",
                String::from_utf8_lossy(text)
            ),
            Err(e) => e,
        };
        let msg = e.to_string();
        assert!(msg.starts_with(bad_name), "{msg}");
        assert!(msg.contains(want), "wanted {want:?} in {msg:?}");
        match (&e, line) {
            (WaveError::Malformed { line: got, .. }, Some(l)) => assert_eq!(*got, Some(l), "{msg}"),
            (WaveError::Malformed { .. }, None) => {}
            _ => panic!("not a Malformed error: {e:?}"),
        }
    }
}

#[test]
fn malformed_files_give_errors_with_file_line_and_reason() {
    expect_error(b"", "empty file", None);
    expect_error(b"\x00\xff\x13garbage", "unexpected character", Some(1));
    expect_error(
        b"$timescale 1ps $end\n$scope modul TOP $end\n",
        "invalid scope type",
        Some(2),
    );
    expect_error(
        b"$timescale 1ps $end\n$scope module TOP $end\n$var wire 1 ! a $end\n",
        "truncated file",
        Some(3),
    );
    expect_error(
        b"$timescale 1ps $end\n$var wire 1 ! a $end\n$enddefinitions $end\n",
        "$var `a` is outside any $scope",
        None,
    );
    expect_error(
        b"$scope module T $end\n$var wire 1 ! a $end\n$upscope $end\n$enddefinitions $end\n",
        "no $timescale",
        None,
    );
    expect_error(
        b"$timescale 1ps $end\n$scope module T $end\n$var wire 0 ! a $end\n$upscope $end\n$enddefinitions $end\n",
        "width 0",
        None,
    );
    expect_error(
        b"$timescale 1ps $end\n$scope module T $end\n$var wire 1 ! a [0] $end\n$var wire 1 \" a[0] $end\n$upscope $end\n$enddefinitions $end\n",
        "signal `T.a[0]` is declared twice",
        None,
    );
    expect_error(
        b"$timescale 1ps $end\n$scope module T $end\n$var wire 1 ! a $end\n$var wire 2 ! b $end\n$upscope $end\n$enddefinitions $end\n",
        "id code `!` is declared as `T.a` (1 bits) and as `T.b` (2 bits)",
        None,
    );
    // Errors in the body: the files agree up to the bad line (the diff stops at the first
    // difference and would not read further).
    let h = HEAD.lines().count() as u64 + 3;
    let body = |rest: &str| format!("{HEAD}#0\nb0 !\n0\"\n{rest}");
    expect_error(
        body("0#\n").as_bytes(),
        "value change for id code `#`, which no $var declares",
        Some(h + 1),
    );
    expect_error(
        body("#0\nb10q1 !\n").as_bytes(),
        "bad value character",
        Some(h + 2),
    );
    expect_error(body("2!\n").as_bytes(), "unexpected character", Some(h + 1));
    expect_error(
        body("b101010101 !\n").as_bytes(),
        "value of 9 bits for `TOP.d`, declared 8 bits wide",
        Some(h + 1),
    );
    expect_error(
        body("#10\n#9\n0\"\n").as_bytes(),
        "timestamp #9 goes backwards (previous #10)",
        Some(h + 2),
    );
    expect_error(body("#-3\n").as_bytes(), "bad number", Some(h + 1));
    expect_error(body("#1\nb0101").as_bytes(), "truncated file", Some(h + 2));
    expect_error(
        body("$scope module X $end\n").as_bytes(),
        "header command $scope after $enddefinitions",
        Some(h + 1),
    );
    expect_error(
        body("#18446744073709551615\n").as_bytes(),
        "too large",
        Some(h + 1),
    );
    expect_error(body("rx.5 \"\n").as_bytes(), "bad number", Some(h + 1));
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let d = temp_dir("missing");
    let missing = d.join("no-such.vcd");
    let e = diff_files(&missing, &missing, &DiffOptions::default()).unwrap_err();
    assert!(matches!(e, WaveError::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("no-such.vcd"), "{e}");
    assert!(list_signals_in_file(&missing).is_err());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn truncating_a_file_anywhere_never_panics() {
    let decls = sample_decls();
    let full = write_vcd(&decls, 1, &samples(&decls, 30, 9));
    let header_len = full
        .windows(21)
        .position(|w| w == b"$enddefinitions $end\n")
        .unwrap()
        + 21;
    let dir = temp_dir("truncate");
    let orig = dir.join("orig.vcd");
    std::fs::write(&orig, &full).unwrap();
    let cut_path = dir.join("cut.vcd");

    let body_cuts = (header_len..full.len())
        .step_by(97)
        .chain(full.len() - 40..full.len());
    for cut in (0..header_len).chain(body_cuts) {
        // Unlink first: rewriting a truncated file makes ext4 flush it to disk on close.
        std::fs::remove_file(&cut_path).ok();
        std::fs::write(&cut_path, &full[..cut]).unwrap();
        let result = std::panic::catch_unwind(|| {
            diff_files(&orig, &cut_path, &DiffOptions { strict: true })
        })
        .unwrap_or_else(|_| panic!("diff_files panicked on a file cut at byte {cut}"));
        let at_line_end = cut > 0 && full[cut - 1] == b'\n';
        match result {
            Err(e) => {
                assert!(e.to_string().contains("cut.vcd"), "cut at {cut}: {e}");
                assert!(
                    !(cut >= header_len && at_line_end),
                    "cut at a line end {cut} is a valid file: {e}"
                );
            }
            Ok(r) => {
                assert!(
                    cut >= header_len && at_line_end,
                    "cut at {cut} accepted: {r}"
                );
                // Every change line the writer writes is a real change, so losing one shows.
                assert!(
                    r.first_difference.is_some(),
                    "cut at {cut} looks identical: {r}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn random_byte_mutations_never_panic() {
    let original = std::fs::read(fixture()).unwrap();
    let mut rng = Rng(0x5eed);
    let alphabet = b"$#01xzXZbBrs! \n\t[]:.endscopevar\x00\xff9-";
    let mut errors = 0;
    for round in 0..3000 {
        let mut m = original.clone();
        for _ in 0..1 + rng.next() % 4 {
            let at = (rng.next() % m.len() as u64) as usize;
            match rng.next() % 3 {
                0 => m[at] = alphabet[(rng.next() % alphabet.len() as u64) as usize],
                1 => {
                    m.remove(at);
                }
                _ => m.insert(at, alphabet[(rng.next() % alphabet.len() as u64) as usize]),
            }
        }
        let result = std::panic::catch_unwind(|| diff_bytes(&original, &m)).unwrap_or_else(|_| {
            panic!(
                "panic on mutation round {round} (seed 0x5eed): {:?}",
                String::from_utf8_lossy(&m)
            )
        });
        if let Err(e) = result {
            errors += 1;
            assert!(e.to_string().starts_with("b.vcd"), "round {round}: {e}");
        }
    }
    assert!(
        errors > 100,
        "mutations should often break the file, got {errors} errors"
    );
}

// ---------------------------------------------------------------------------------------
// Compatibility with Verilator 5.006

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/verilator_5006_fixture.vcd")
}

/// The fixture's signals, in the order of the values `fixture_model` returns.
fn fixture_decls() -> Vec<SignalDecl> {
    let mut d = Vec::new();
    for scope in ["TOP", "TOP.fixture_top", "TOP.fixture_top.u_a"] {
        d.push(decl(&format!("{scope}.clk_i"), 1));
        d.push(decl(&format!("{scope}.rst_ni"), 1));
        d.push(decl(&format!("{scope}.d_i"), 8));
        d.push(decl(&format!("{scope}.cnt_o"), 10));
        d.push(decl(&format!("{scope}.hit_o"), 1));
    }
    for (p, w) in [
        ("cnt_q[0]", 10),
        ("cnt_q[1]", 10),
        ("st_q", 3),
        ("flag_q", 1),
        ("vld_q[0]", 1),
        ("vld_q[1]", 1),
        ("gen_bit[0].hit_q", 1),
        ("gen_bit[1].hit_q", 1),
    ] {
        d.push(decl(&format!("TOP.fixture_top.u_a.{p}"), w));
    }
    d
}

/// A Rust model of `tests/data/verilator_fixture/fixture_sub.sv` driven like `fixture_main.cpp`:
/// samples at `P*c` (clock low, registers of cycle c) and `P*c + P/2` (clock high, registers of
/// cycle c + 1).
fn fixture_model() -> Vec<(u64, Vec<u128>)> {
    // cnt0, cnt1, st, flag, vld0, vld1, hit0, hit1 after reset
    let mut r: [u128; 8] = [0, 0x3ff, 0, 0, 0, 1, 0, 0];
    let values = |clk: u128, d: u128, r: &[u128; 8]| {
        let cnt_o = r[0] ^ r[1] ^ ((r[2] << 1) | r[3]);
        let hit_o = r[6] ^ r[7] ^ r[5];
        let mut v = Vec::new();
        for _ in 0..3 {
            v.extend([clk, 1, d, cnt_o, hit_o]);
        }
        v.extend(r.iter().copied());
        v
    };
    let mut out = Vec::new();
    for c in 0..12u64 {
        let d = u128::from((c * 37 + 5) & 0xff);
        out.push((PERIOD_PS * c, values(0, d, &r)));
        r = [
            (r[0] + d) & 0x3ff,
            r[1].wrapping_sub(1) & 0x3ff,
            (r[2] + 1) & 7,
            r[3] ^ 1,
            d & 1,
            r[4],
            d & 1,
            (d >> 1) & 1,
        ];
        out.push((PERIOD_PS * c + PERIOD_PS / 2, values(1, d, &r)));
    }
    out
}

#[test]
fn verilator_fixture_parses_with_the_shared_names() {
    let got = list_signals_in_file(&fixture()).unwrap();
    let mut want = fixture_decls();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn writer_output_is_identical_to_verilator_for_the_same_values() {
    let dir = temp_dir("fixture");
    let ours = dir.join("model.vcd");
    let bytes = write_vcd(&fixture_decls(), 1, &fixture_model());
    std::fs::write(&ours, &bytes).unwrap();
    let r = diff_files(&fixture(), &ours, &DiffOptions { strict: true }).unwrap();
    assert!(r.identical(true), "{r}");
    assert_eq!(r.compared, 23);
    assert_eq!(r.last_time_fs, (11 * PERIOD_PS + 3200) * 1000);

    // The header has Verilator's layout: same scopes and variables in the same order, the
    // same indentation and width column; only the id codes and the $version differ.
    let strip_code = |l: &str| {
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.first() == Some(&"$var") {
            format!(
                "{}{} {} {} {}",
                &l[..l.len() - l.trim_start().len()],
                t[1],
                t[2],
                t[4],
                t[5..].join(" ")
            )
        } else {
            l.to_string()
        }
    };
    let header = |text: &str| -> Vec<String> {
        text.lines()
            .skip(1)
            .take_while(|l| !l.starts_with('#'))
            .map(strip_code)
            .collect()
    };
    let verilator = std::fs::read_to_string(fixture()).unwrap();
    assert_eq!(
        header(&String::from_utf8(bytes).unwrap()),
        header(&verilator)
    );

    // And the comparison can fail: one model value off at one instant is found.
    let mut wrong = fixture_model();
    let flag = fixture_decls()
        .iter()
        .position(|d| d.path.ends_with("flag_q"))
        .unwrap();
    wrong[9].1[flag] ^= 1;
    std::fs::write(&ours, write_vcd(&fixture_decls(), 1, &wrong)).unwrap();
    let r = diff_files(&fixture(), &ours, &DiffOptions::default()).unwrap();
    let d = r.first_difference.unwrap();
    assert_eq!(
        (d.time_fs, d.signal.as_str()),
        (wrong[9].0 * 1000, "TOP.fixture_top.u_a.flag_q")
    );
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------
// Deep hierarchies (the reader once recursed per `$scope` and overflowed the stack)

/// A VCD with `depth` nested scopes and one variable at the bottom, changing at 0 and 10 ps.
fn deep_vcd(depth: usize, close: bool) -> Vec<u8> {
    let mut v = b"$timescale 1ps $end\n".to_vec();
    for i in 0..depth {
        v.extend_from_slice(format!("$scope module s{i} $end\n").as_bytes());
    }
    v.extend_from_slice(b"$var wire 1 ! x $end\n");
    if close {
        for _ in 0..depth {
            v.extend_from_slice(b"$upscope $end\n");
        }
    }
    v.extend_from_slice(b"$enddefinitions $end\n#0\n0!\n#10\n1!\n");
    v
}

#[test]
fn a_hundred_thousand_nested_scopes_are_read_without_recursion() {
    // On the test harness's 2 MiB thread stack, as the command line's main thread would.
    let text = deep_vcd(100_000, true);
    let r = diff_bytes(&text, &text).unwrap();
    assert!(r.identical(true), "{r}");
    assert_eq!(r.compared, 1);
    let names = list_signals(&text[..], "deep.vcd").unwrap();
    assert_eq!(names.len(), 1);
    assert!(
        names[0].path.starts_with("s0.s1.s2."),
        "{}",
        &names[0].path[..40]
    );
    assert!(names[0].path.ends_with(".s99999.x"));

    // Malformed nesting is reported with the file and line, not a crash.
    let open = deep_vcd(100_000, false);
    let e = diff_bytes(&open, &text).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.starts_with("a.vcd: line 100003: $enddefinitions with 100000 $scope(s) still open"),
        "{}",
        &msg[..msg.len().min(200)]
    );
    let stray = b"$timescale 1ps $end\n$scope module T $end\n$var wire 1 ! x $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n";
    let e = diff_bytes(stray, &text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a.vcd: line 5: $upscope without an open $scope"
    );

    // The command line: exit 0 on the deep file, exit 2 naming the file and line on the
    // unclosed one.
    let dir = temp_dir("deep");
    let (good, bad) = (dir.join("deep.vcd"), dir.join("open.vcd"));
    std::fs::write(&good, &text).unwrap();
    std::fs::write(&bad, &open).unwrap();
    let exe = env!("CARGO_BIN_EXE_exanet");
    let o = std::process::Command::new(exe)
        .args(["wave-diff", good.to_str().unwrap(), good.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = std::process::Command::new(exe)
        .args(["wave-diff", good.to_str().unwrap(), bad.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("open.vcd: line 100003"),
        "{}",
        &err[..err.len().min(200)]
    );
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------
// FST

fn write_fst(path: &Path, decls: &[SignalDecl], samples: &[(u64, Vec<u128>)]) {
    let mut w = FstWaveWriter::create(path, 1, decls).unwrap();
    for (t, v) in samples {
        w.sample(*t, v).unwrap();
    }
    w.finish().unwrap();
}

#[test]
fn fst_and_vcd_of_the_same_samples_compare_identical_in_every_pairing() {
    let dir = temp_dir("fst");
    let decls = sample_decls();
    let s = samples(&decls, 300, 21);
    let (v, f, f2) = (dir.join("a.vcd"), dir.join("a.fst"), dir.join("b.fst"));
    std::fs::write(&v, write_vcd(&decls, 1, &s)).unwrap();
    write_fst(&f, &decls, &s);
    write_fst(&f2, &decls, &s);
    for (a, b) in [(&v, &f), (&f, &v), (&f, &f2)] {
        let r = diff_files(a, b, &DiffOptions { strict: true }).unwrap();
        assert!(r.identical(true), "{} vs {}: {r}", a.display(), b.display());
        assert_eq!(r.compared, decls.len());
        assert_eq!(r.last_time_fs, (299 * PERIOD_PS + 3200) * 1000);
    }
    // The same names come back from the FST.
    let mut want = decls.clone();
    want.sort();
    assert_eq!(list_signals_in_file(&f).unwrap(), want);
    // Same samples, same bytes.
    assert_eq!(std::fs::read(&f).unwrap(), std::fs::read(&f2).unwrap());

    // One value changed at one instant in the FST is found there, in either order.
    let mut planted = s.clone();
    planted[101].1[6] ^= 1 << 100;
    write_fst(&f2, &decls, &planted);
    for (a, b) in [(&v, &f2), (&f2, &v)] {
        let r = diff_files(a, b, &DiffOptions::default()).unwrap();
        let d = r.first_difference.clone().unwrap_or_else(|| panic!("{r}"));
        assert_eq!(
            (d.time_fs, d.signal.as_str()),
            (planted[101].0 * 1000, "TOP.exanet_link_top.u_a.data_q")
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_verilator_vcd_converted_to_fst_is_identical_to_it() {
    // The Verilator fixture has aliases (one id code, several names) and an array.
    let dir = temp_dir("convert");
    let out = dir.join("fixture.fst");
    let input = std::io::BufReader::new(std::fs::File::open(fixture()).unwrap());
    vcd_to_fst(input, "fixture.vcd", &out).unwrap();
    let r = diff_files(&fixture(), &out, &DiffOptions { strict: true }).unwrap();
    assert!(r.identical(true), "{r}");
    assert_eq!(r.compared, fixture_decls().len());
    let mut want = fixture_decls();
    want.sort();
    assert_eq!(list_signals_in_file(&out).unwrap(), want);

    // A bad input is an error naming it, and the converter still reads it to the end (it
    // may be a pipe whose writer must not block).
    let bad = b"$timescale 1ps $end\n$scope module T $end\n$var real 64 ! r $end\n$upscope $end\n$enddefinitions $end\n#0\nr1.5 !\n";
    let e = vcd_to_fst(&bad[..], "real.vcd", &dir.join("real.fst")).unwrap_err();
    assert!(e.to_string().contains("real or string"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The same samples as a good FST file (its bytes) and a VCD file (its path) in `dir`.
fn good_fst_and_vcd(dir: &Path) -> (Vec<u8>, std::path::PathBuf) {
    let decls = sample_decls();
    let f = dir.join("good.fst");
    write_fst(&f, &decls, &samples(&decls, 200, 5));
    let v = dir.join("good.vcd");
    std::fs::write(&v, write_vcd(&decls, 1, &samples(&decls, 200, 5))).unwrap();
    (std::fs::read(&f).unwrap(), v)
}

#[test]
fn an_fst_cut_at_a_block_boundary_a_self_pointing_block_or_a_device_is_refused() {
    let dir = temp_dir("fst-blocks");
    let (bytes, v) = good_fst_and_vcd(&dir);
    // every block boundary but the file's end: whole blocks, and still not the whole file
    let mut ends = Vec::new();
    let mut pos = 0usize;
    while pos + 9 <= bytes.len() {
        let len = u64::from_be_bytes(bytes[pos + 1..pos + 9].try_into().unwrap()) as usize;
        pos += 1 + len;
        ends.push(pos);
    }
    assert_eq!(ends.last(), Some(&bytes.len()), "{ends:?}");
    assert!(ends.len() >= 3, "{ends:?}");
    let cut = dir.join("cut.fst");
    for &n in &ends[..ends.len() - 1] {
        std::fs::write(&cut, &bytes[..n]).unwrap();
        let e = diff_files(&v, &cut, &DiffOptions::default()).expect_err(&format!(
            "an FST cut after its block ending at byte {n} read as valid"
        ));
        assert!(
            e.to_string().contains("cut.fst: truncated FST file"),
            "{n}: {e}"
        );
    }
    // a header block whose length points back at itself (fst-reader's own check loops on it),
    // and a device, on the command line: exit 2 at once
    let selfish = dir.join("self.fst");
    std::fs::write(
        &selfish,
        [0u8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    )
    .unwrap();
    for (file, want) in [
        (
            selfish.to_str().unwrap(),
            "does not fit in the file (9 bytes)",
        ),
        ("/dev/zero", "/dev/zero: a device, not a file"),
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_exanet"))
            .args(["wave-diff", file, v.to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(want), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_corrupt_or_truncated_fst_is_an_error_not_a_crash() {
    let dir = temp_dir("fst-bad");
    let (bytes, v) = good_fst_and_vcd(&dir);
    let cut = dir.join("cut.fst");
    let mut errors = 0;
    let step = (bytes.len() / 60).max(1);
    for n in (1..bytes.len()).step_by(step) {
        std::fs::remove_file(&cut).ok();
        std::fs::write(&cut, &bytes[..n]).unwrap();
        let r = std::panic::catch_unwind(|| diff_files(&v, &cut, &DiffOptions::default()))
            .unwrap_or_else(|_| panic!("diff_files panicked on the FST cut at byte {n}"));
        match r {
            Err(e) => {
                errors += 1;
                assert!(e.to_string().contains("cut.fst"), "cut at {n}: {e}");
            }
            Ok(r) => assert!(
                r.first_difference.is_some(),
                "a cut FST ({n} of {} bytes) compared identical: {r}",
                bytes.len()
            ),
        }
        // Bytes flipped in the middle.
        let mut m = bytes.clone();
        m[n] ^= 0x5a;
        std::fs::remove_file(&cut).ok();
        std::fs::write(&cut, &m).unwrap();
        let r = std::panic::catch_unwind(|| diff_files(&v, &cut, &DiffOptions::default()))
            .unwrap_or_else(|_| panic!("diff_files panicked on the FST with byte {n} flipped"));
        if let Err(e) = r {
            assert!(e.to_string().contains("cut.fst"), "flip at {n}: {e}");
        }
    }
    assert!(errors > 10, "{errors}");
    // The command line: exit 2, no panic message.
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_exanet"))
        .args(["wave-diff", v.to_str().unwrap(), cut.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cut.fst") && !err.contains("panicked"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
