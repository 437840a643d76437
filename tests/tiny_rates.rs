//! Issue 16, item 3: tiny rates act as tiny rates. Every geometric draw (bit errors on the
//! lanes, Bernoulli injection) computes ln(1 - p) as ln_1p(-p); `(1 - p).ln()` was 0 below
//! p ~ 1.1e-16 and made a rate of 1e-17 flip every bit, lose every round trip and inject at
//! full speed.

mod common;
use common::exanet_json as json;

#[test]
fn a_load_of_1e16_injects_almost_nothing() {
    for load in ["1e-16", "1e-17", "1e-300"] {
        let v = json(&[
            "network",
            "sweep",
            "--topology",
            "torus:4x4",
            "--routing",
            "ecube",
            "--loads",
            load,
            "--set",
            "net.warmup_cycles=100",
            "--set",
            "net.measure_cycles=2000",
            "--set",
            "net.drain_cycles=1000",
            "--json",
        ]);
        let p = &v["curves"][0]["points"][0];
        assert_eq!(p["packets_injected"], 0, "load {load}: {p}");
        assert_eq!(p["injected_load"].as_f64(), Some(0.0), "load {load}: {p}");
    }
}

#[test]
fn a_bit_error_rate_of_1e300_loses_no_round_trip() {
    for ber in ["1e-300", "1e-17", "1e-16"] {
        let v = json(&[
            "karma",
            "pingpong",
            "--hops",
            "1",
            "--sizes",
            "64",
            "--iterations",
            "4",
            "--ber",
            ber,
            "--json",
        ]);
        let r = &v["rows"][0];
        assert_eq!(r["lost"], 0, "ber {ber}: {r}");
        assert_eq!(r["crc_errors"], 0, "ber {ber}: {r}");
        assert_eq!(r["iterations"], 4, "ber {ber}: {r}");
    }
}

#[test]
fn a_bit_error_rate_of_1e17_flips_no_bit_in_the_cosimulation() {
    for ber in ["1e-300", "1e-17", "1e-16"] {
        let v = json(&[
            "cosim", "--design", "link", "--cycles", "20000", "--seed", "3", "--ber", ber, "--json",
        ]);
        assert_eq!(v["stats"]["bits_flipped"], 0, "ber {ber}: {v}");
        assert!(
            v["stats"]["packets_delivered"].as_u64().unwrap() > 0,
            "ber {ber}: {v}"
        );
    }
}
