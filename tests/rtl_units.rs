//! The packet's check codes in RTL against the Rust model, through the Verilated `units` top
//! (`testbench/rtl/exanet_units_top.sv`: `exanet_secded_enc`, `exanet_secded_dec` and
//! `exanet_crc32c` at `WIDTH` 64 and 128, combinational).
//!
//! - SECDED encoder: the 120 one-hot data words, all zeros, all ones, 4000 random words.
//! - SECDED decoder: for 6 headers (all-zero and all-ones data, 4 random), the clean word, every
//!   single-bit error (128) and every double-bit error (8128 pairs): 49 542 words; then 4000
//!   arbitrary 128-bit words. Corrected word and both flags must equal `secded_decode`.
//! - The TCL RX's CRC correction: for every single-bit error of 6 headers, the decoder's
//!   `pos_o` looked up in `CRC32C_FIX` must be `crc_correction` of the bit it corrected.
//! - CRC-32C step: 4016 (state, 128-bit word) pairs (16 edge cases, 4000 random): the 64-bit
//!   module on the low beat, the 128-bit module on the word, the 64-bit module chained over both
//!   beats (low first), against `crc32c_update64/128`. Then, chaining the RTL over beats packed
//!   as docs/packet.md says, at both widths: the RFC 3720 B.4 vectors (32 bytes each), the check
//!   value of "123456789" (0xE3069283; `CRC_INIT` folded into its first bytes so that it fills
//!   whole beats, see the test) and 200 random messages against `message_crc`.
//!
//! The random vectors come from `Mt64` with the fixed seeds below; every failure message
//! prints the seed and the vector. Without the Verilated RTL (no Verilator at build time, or
//! `EXANET_NO_RTL=1`) every test fails with `RtlModel::new`'s reason: none skips.

use std::path::PathBuf;

use exanet::cosim::rtl::{RtlModel, RtlTop, SignalId};
use exanet::packet::{
    crc32c_update128, crc32c_update64, crc_correction, crc_start, message_crc, secded_decode,
    secded_encode, EccStatus, CRC_INIT, CRC_XOROUT, HDR_CRC_MASK,
};
use rand_mt::Mt64;

/// Header bits protected by the SECDED code (119:0).
const DATA_BITS: u32 = 120;
const DATA_MASK: u128 = (1 << DATA_BITS) - 1;
const RANDOM_VECTORS: usize = 4000;

/// The Verilated units top, with the ids of its ports.
struct Units {
    rtl: RtlModel,
    enc_data: SignalId,
    enc_hdr: SignalId,
    dec_hdr_i: SignalId,
    dec_hdr_o: SignalId,
    dec_corrected: SignalId,
    dec_uncorrectable: SignalId,
    dec_pos: SignalId,
    fix_pos: SignalId,
    fix_crc: SignalId,
    crc64_crc_i: SignalId,
    crc64_data: SignalId,
    crc64_crc_o: SignalId,
    crc128_crc_i: SignalId,
    crc128_data: SignalId,
    crc128_crc_o: SignalId,
}

impl Units {
    fn new() -> Units {
        let rtl = RtlModel::new(RtlTop::Units).unwrap_or_else(|e| panic!("{e}"));
        // Port, expected width: a port of another width would make every comparison moot.
        let id = |port: &str, width: u32| {
            let name = format!("TOP.{port}");
            let id = rtl
                .find(&name)
                .unwrap_or_else(|| panic!("{name} is not in the signal table"));
            assert_eq!(rtl.signals()[id.index()].width, width, "width of {name}");
            id
        };
        Units {
            enc_data: id("enc_data_i", 120),
            enc_hdr: id("enc_hdr_o", 128),
            dec_hdr_i: id("dec_hdr_i", 128),
            dec_hdr_o: id("dec_hdr_o", 128),
            dec_corrected: id("dec_corrected_o", 1),
            dec_uncorrectable: id("dec_uncorrectable_o", 1),
            dec_pos: id("dec_pos_o", 7),
            fix_pos: id("fix_pos_i", 7),
            fix_crc: id("fix_crc_o", 32),
            crc64_crc_i: id("crc64_crc_i", 32),
            crc64_data: id("crc64_data_i", 64),
            crc64_crc_o: id("crc64_crc_o", 32),
            crc128_crc_i: id("crc128_crc_i", 32),
            crc128_data: id("crc128_data_i", 128),
            crc128_crc_o: id("crc128_crc_o", 32),
            rtl,
        }
    }

    fn set(&mut self, id: SignalId, v: u128) {
        self.rtl.set(id, v).expect("a top-level input");
    }

    /// `exanet_secded_enc` on header bits 119:0.
    fn encode(&mut self, data: u128) -> u128 {
        self.set(self.enc_data, data);
        self.rtl.eval();
        self.rtl.get(self.enc_hdr)
    }

    /// `exanet_secded_dec`: (corrected word, corrected_o, uncorrectable_o).
    fn decode(&mut self, word: u128) -> (u128, bool, bool) {
        self.set(self.dec_hdr_i, word);
        self.rtl.eval();
        (
            self.rtl.get(self.dec_hdr_o),
            self.rtl.get(self.dec_corrected) != 0,
            self.rtl.get(self.dec_uncorrectable) != 0,
        )
    }

    /// The Hamming position `exanet_secded_dec` gives for `word`, and the TCL RX's CRC
    /// correction there (`CRC32C_FIX`).
    fn correction(&mut self, word: u128) -> (u128, u32) {
        self.set(self.dec_hdr_i, word);
        self.rtl.eval();
        let pos = self.rtl.get(self.dec_pos);
        self.set(self.fix_pos, pos);
        self.rtl.eval();
        (pos, self.rtl.get(self.fix_crc) as u32)
    }

    /// `exanet_crc32c #(.WIDTH(64))`.
    fn crc64(&mut self, state: u32, beat: u64) -> u32 {
        self.set(self.crc64_crc_i, state.into());
        self.set(self.crc64_data, beat.into());
        self.rtl.eval();
        self.rtl.get(self.crc64_crc_o) as u32
    }

    /// `exanet_crc32c #(.WIDTH(128))`.
    fn crc128(&mut self, state: u32, word: u128) -> u32 {
        self.set(self.crc128_crc_i, state.into());
        self.set(self.crc128_data, word);
        self.rtl.eval();
        self.rtl.get(self.crc128_crc_o) as u32
    }

    /// Runs the RTL's running state over `bytes` (a whole number of beats), packed as
    /// docs/packet.md says: byte `k` of a beat is bits `8k+7:8k`, beats in order. With
    /// `words` the 128-bit module takes two beats at a time (low beat = bits 63:0).
    fn crc_over(&mut self, state: u32, bytes: &[u8], words: bool) -> u32 {
        assert_eq!(bytes.len() % 8, 0, "whole beats");
        if words {
            assert_eq!(bytes.len() % 16, 0, "whole words");
            bytes.chunks_exact(16).fold(state, |s, c| {
                self.crc128(s, u128::from_le_bytes(c.try_into().expect("16 bytes")))
            })
        } else {
            bytes.chunks_exact(8).fold(state, |s, c| {
                self.crc64(s, u64::from_le_bytes(c.try_into().expect("8 bytes")))
            })
        }
    }
}

fn random_u128(rng: &mut Mt64) -> u128 {
    (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64())
}

/// The headers the single- and double-error tests start from: all-zero and all-ones data, and
/// four random ones drawn from `seed`.
fn six_headers(seed: u64) -> Vec<u128> {
    let mut rng = Mt64::new(seed);
    let mut headers = vec![secded_encode(0), secded_encode(DATA_MASK)];
    headers.extend((0..4).map(|_| secded_encode(random_u128(&mut rng))));
    headers
}

/// A decoder result for a failure message.
fn show((word, corrected, uncorrectable): (u128, bool, bool)) -> String {
    format!("word {word:#034x}, corrected {corrected}, uncorrectable {uncorrectable}")
}

/// `secded_decode` in the RTL's terms: (corrected word, corrected_o, uncorrectable_o).
fn rust_decode(word: u128) -> (u128, bool, bool) {
    let (status, fixed) = secded_decode(word);
    (
        fixed,
        matches!(status, EccStatus::Corrected { .. }),
        status == EccStatus::Uncorrectable,
    )
}

#[test]
fn secded_encoder_equals_rust() {
    const SEED: u64 = 0x05EC_DEDE;
    let mut u = Units::new();
    let mut rng = Mt64::new(SEED);
    let mut data: Vec<(String, u128)> = (0..DATA_BITS)
        .map(|b| (format!("one-hot bit {b}"), 1u128 << b))
        .collect();
    data.push(("all zeros".into(), 0));
    data.push(("all ones".into(), DATA_MASK));
    for k in 0..RANDOM_VECTORS {
        let d = random_u128(&mut rng) & DATA_MASK;
        data.push((format!("random #{k} (seed {SEED:#x})"), d));
    }
    assert_eq!(data.len(), 120 + 2 + RANDOM_VECTORS);
    for (what, d) in &data {
        let want = secded_encode(*d);
        let got = u.encode(*d);
        assert_eq!(
            got, want,
            "secded_enc, {what}: data {d:#032x}: RTL {got:#034x}, Rust {want:#034x}"
        );
    }
}

#[test]
fn secded_decoder_equals_rust_on_every_single_and_double_error() {
    const SEED: u64 = 0x0DEC_0DE2;
    let mut u = Units::new();
    let headers = six_headers(SEED);
    let mut vectors = 0usize;
    for (h, &code) in headers.iter().enumerate() {
        let check = |u: &mut Units, word: u128, what: &str| {
            let want = rust_decode(word);
            let got = u.decode(word);
            assert_eq!(
                got,
                want,
                "secded_dec, header #{h} {code:#034x} (seed {SEED:#x}), {what}: received \
                 {word:#034x}: RTL {}, Rust {}",
                show(got),
                show(want)
            );
            got
        };
        // The guarantees of docs/packet.md, so that "RTL equals Rust" means "both are right".
        assert_eq!(check(&mut u, code, "clean"), (code, false, false));
        vectors += 1;
        for i in 0..128 {
            let word = code ^ (1u128 << i);
            assert_eq!(
                check(&mut u, word, &format!("bit {i} flipped")),
                (code, true, false)
            );
            assert_eq!(secded_decode(word).0, EccStatus::Corrected { bit: i as u8 });
            vectors += 1;
        }
        for i in 0..128 {
            for j in i + 1..128 {
                let word = code ^ (1u128 << i) ^ (1u128 << j);
                assert_eq!(
                    check(&mut u, word, &format!("bits {i} and {j} flipped")),
                    (word, false, true)
                );
                vectors += 1;
            }
        }
    }
    assert_eq!(vectors, 6 * (1 + 128 + 8128));
}

#[test]
fn the_rx_crc_correction_equals_rust_for_every_single_error() {
    const SEED: u64 = 0x0F1C_5EED;
    let mut u = Units::new();
    let headers = six_headers(SEED);
    let mut positions = std::collections::BTreeSet::new();
    for (h, &code) in headers.iter().enumerate() {
        for bit in 0..128u32 {
            let word = code ^ (1u128 << bit);
            let (pos, got) = u.correction(word);
            positions.insert(pos);
            let want = crc_correction(bit);
            assert_eq!(
                got, want,
                "header #{h} {code:#034x} (seed {SEED:#x}), bit {bit} flipped: the decoder's \
                 position {pos}, CRC32C_FIX {got:#010x}, crc_correction {want:#010x}"
            );
            // what the RX computes: the received header's CRC plus the correction is the
            // corrected header's
            assert_eq!(
                crc_start(word) ^ got,
                crc_start(code),
                "header #{h}, bit {bit}"
            );
        }
    }
    // every Hamming position is some bit's: the table is checked whole
    assert_eq!(positions.len(), 128);
}

#[test]
fn secded_decoder_equals_rust_on_arbitrary_words() {
    const SEED: u64 = 0x0A4B_1742;
    let mut u = Units::new();
    let mut rng = Mt64::new(SEED);
    for k in 0..RANDOM_VECTORS {
        let word = random_u128(&mut rng);
        let want = rust_decode(word);
        let got = u.decode(word);
        assert_eq!(
            got,
            want,
            "secded_dec, random word #{k} (seed {SEED:#x}) {word:#034x}: \
             RTL {}, Rust {}",
            show(got),
            show(want)
        );
    }
}

#[test]
fn crc_steps_equal_rust_at_both_widths() {
    const SEED: u64 = 0x0C2C_032C;
    let mut u = Units::new();
    let mut rng = Mt64::new(SEED);
    // Edge states and data first, then random ones.
    let mut pairs: Vec<(u32, u128)> = [0, CRC_INIT, 1, 0x8000_0000]
        .iter()
        .flat_map(|&s| [0, u128::MAX, 1, 1 << 127].map(|w| (s, w)))
        .collect();
    pairs.extend((0..RANDOM_VECTORS).map(|_| (rng.next_u64() as u32, random_u128(&mut rng))));
    for (k, &(state, word)) in pairs.iter().enumerate() {
        let what = format!("pair #{k} (seed {SEED:#x}): state {state:#010x}, data {word:#034x}");
        let (lo, hi) = (word as u64, (word >> 64) as u64);

        let want = crc32c_update64(state, lo);
        let got = u.crc64(state, lo);
        assert_eq!(
            got, want,
            "crc32c WIDTH 64, {what} (low beat): RTL {got:#010x}, Rust {want:#010x}"
        );

        let want = crc32c_update128(state, word);
        let got = u.crc128(state, word);
        assert_eq!(
            got, want,
            "crc32c WIDTH 128, {what}: RTL {got:#010x}, Rust {want:#010x}"
        );

        // The same word as two beats, low beat first: the wire order a TCL sees.
        let mid = u.crc64(state, lo);
        let got = u.crc64(mid, hi);
        assert_eq!(
            got, want,
            "crc32c WIDTH 64 over both beats, {what}: RTL {got:#010x}, Rust {want:#010x}"
        );
    }
}

#[test]
fn crc_reference_values_by_chaining_the_rtl() {
    let mut u = Units::new();
    // RFC 3720 appendix B.4: 32-byte messages, whole beats, straight from CRC_INIT.
    let inc: Vec<u8> = (0x00..=0x1F).collect();
    let dec: Vec<u8> = (0x00..=0x1F).rev().collect();
    let rfc: [(&str, Vec<u8>, u32); 4] = [
        ("32 bytes of 0x00", vec![0x00; 32], 0x8A91_36AA),
        ("32 bytes of 0xFF", vec![0xFF; 32], 0x62A8_AB43),
        ("bytes 0x00..=0x1F", inc, 0x46DD_794E),
        ("bytes 0x1F..=0x00", dec, 0x113F_DB5C),
    ];
    for (what, bytes, want) in &rfc {
        for words in [false, true] {
            let got = u.crc_over(CRC_INIT, bytes, words) ^ CRC_XOROUT;
            assert_eq!(
                got,
                *want,
                "CRC-32C of {what}, {} beats: RTL {got:#010x}, RFC 3720 {want:#010x}",
                if words { "128-bit" } else { "64-bit" }
            );
        }
    }

    // The check value: "123456789" is 9 bytes, and the engine takes whole beats only. The
    // state enters an update only XORed into the next 4 bytes (update(s, x) = update(0, x ^ s)),
    // and zero bytes leave the state 0 unchanged. So CRC_INIT over the 9 bytes equals state 0
    // over 7 zero bytes then the 9 bytes with CRC_INIT folded into the first 4: 16 bytes, two
    // 64-bit beats or one 128-bit word.
    let mut bytes = [0u8; 16];
    bytes[7..].copy_from_slice(b"123456789");
    for (k, b) in CRC_INIT.to_le_bytes().iter().enumerate() {
        bytes[7 + k] ^= b;
    }
    for words in [false, true] {
        let got = u.crc_over(0, &bytes, words) ^ CRC_XOROUT;
        assert_eq!(
            got,
            0xE306_9283,
            "CRC-32C(\"123456789\"), {} beats: RTL {got:#010x}",
            if words { "128-bit" } else { "64-bit" }
        );
    }
}

/// A footer CRC the way a TCL computes it: the header's covered bits, the payload words, then
/// the footer's low beat, from CRC_INIT, through the RTL at either width, equals `message_crc`.
#[test]
fn crc_of_random_messages_equals_message_crc() {
    const SEED: u64 = 0x03E5_5A9E;
    let mut u = Units::new();
    let mut rng = Mt64::new(SEED);
    for m in 0..200 {
        let n = (rng.next_u64() % 9) as usize;
        let payload: Vec<u128> = (0..n).map(|_| random_u128(&mut rng)).collect();
        let footer = random_u128(&mut rng);
        let header = random_u128(&mut rng);
        let want = message_crc(header, &payload, footer);
        let start = u.crc128(CRC_INIT, header & HDR_CRC_MASK);
        let words = payload.iter().fold(start, |s, &w| u.crc128(s, w));
        let by_words = u.crc64(words, footer as u64) ^ CRC_XOROUT;
        let beats = payload.iter().fold(start, |s, &w| {
            let s = u.crc64(s, w as u64);
            u.crc64(s, (w >> 64) as u64)
        });
        let by_beats = u.crc64(beats, footer as u64) ^ CRC_XOROUT;
        assert_eq!(
            (by_words, by_beats),
            (want, want),
            "message #{m} (seed {SEED:#x}), {n} payload words, footer {footer:#034x}: \
             RTL by words {by_words:#010x}, by beats {by_beats:#010x}, message_crc {want:#010x}"
        );
    }
}

/// The units top follows the project's rule for RTL: lint clean with `-Wall`, with the
/// waivers and the package first on the command line as `rtl/0_lint_waivers.sv` says.
#[test]
fn units_top_is_lint_clean() {
    // Verilator is there whenever the RTL was built; without it, fail like the other tests.
    Units::new();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = [
        "rtl/0_lint_waivers.sv",
        "rtl/exanet_base_pkg.sv",
        "rtl/exanet_secded_enc.sv",
        "rtl/exanet_secded_dec.sv",
        "rtl/exanet_crc32c.sv",
        "testbench/rtl/exanet_units_top.sv",
    ]
    .map(|f| root.join(f));
    let exe = std::env::var_os("VERILATOR").unwrap_or_else(|| "verilator".into());
    let out = std::process::Command::new(exe)
        .args(["--lint-only", "-Wall", "--top-module", "exanet_units_top"])
        .args(files)
        .output()
        .expect("run verilator");
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "verilator --lint-only -Wall:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
