//! Issue 16, item 4: `link.phy.ber` is honoured by every run that has links and refused by
//! every run that has none (it was silently ignored by the link measurements, the demo and
//! KARMA, and `cosim --design router --ber 0.5` was accepted).

mod common;
use common::{exanet, exanet_json as json};
use serde_json::Value;

fn without_run(mut v: Value) -> Value {
    v.as_object_mut().unwrap().shift_remove("run");
    v
}

#[test]
fn link_bandwidth_loses_what_the_errors_destroy() {
    let clean = json(&["link", "bandwidth", "--payload", "4096", "--json"]);
    let hit = json(&[
        "link",
        "bandwidth",
        "--payload",
        "4096",
        "--set",
        "link.phy.ber=1e-4",
        "--json",
    ]);
    let (c, h) = (
        clean["gbps"].as_f64().unwrap(),
        hit["gbps"].as_f64().unwrap(),
    );
    assert!(h < c, "ber 1e-4 delivers {h} Gb/s, error-free {c}");
    assert_eq!(hit["run"]["config"]["link"]["phy"]["ber"], 1e-4);
}

#[test]
fn karma_takes_the_configuration_s_rate_as_its_own_ber() {
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "karma",
            "pingpong",
            "--hops",
            "2",
            "--sizes",
            "1024",
            "--iterations",
            "8",
            "--json",
        ];
        a.extend_from_slice(extra);
        a
    };
    let by_option = json(&args(&["--ber", "1e-3"]));
    let by_file = json(&args(&["--set", "link.phy.ber=1e-3"]));
    let clean = json(&args(&[]));
    assert_eq!(without_run(by_option.clone()), without_run(by_file));
    let hurt = |v: &Value| {
        v["rows"][0]["lost"].as_u64().unwrap() + v["rows"][0]["crc_errors"].as_u64().unwrap()
    };
    assert!(hurt(&by_option) > 0, "{}", by_option["rows"][0]);
    assert_eq!(hurt(&clean), 0);
    // the option is the run's rate, in its configuration
    assert_eq!(by_option["run"]["config"]["link"]["phy"]["ber"], 1e-3);
}

#[test]
fn karma_selftest_meets_the_errors_on_its_link() {
    // a rate that loses packets stops the self-test (it waits for every packet), which it
    // could not if the rate were ignored; a rate that hits nothing changes nothing
    let o = exanet(&[
        "karma",
        "selftest",
        "--payload",
        "2048",
        "--set",
        "link.phy.ber=1e-4",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("did not finish") && err.contains("link.phy.ber"),
        "{err}"
    );
    let clean = json(&["karma", "selftest", "--payload", "2048", "--json"]);
    let tiny = json(&[
        "karma",
        "selftest",
        "--payload",
        "2048",
        "--set",
        "link.phy.ber=1e-15",
        "--json",
    ]);
    assert_eq!(clean["rows"], tiny["rows"]);
}

#[test]
fn runs_without_links_refuse_a_bit_error_rate() {
    for args in [
        vec!["router", "latency", "--set", "link.phy.ber=1e-3"],
        vec![
            "router",
            "bandwidth",
            "--payload",
            "64",
            "--set",
            "link.phy.ber=1e-3",
        ],
        vec![
            "cosim", "--design", "router", "--cycles", "100", "--ber", "0.5",
        ],
    ] {
        let o = exanet(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("link.phy.ber") && err.contains("no link"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn the_speed_benches_refuse_a_rate_they_would_apply_to_part_of_the_run() {
    for design in ["link", "node"] {
        let o = exanet(&[
            "bench",
            design,
            "--cycles",
            "1000",
            "--set",
            "link.phy.ber=1e-6",
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{design}: {err}");
        assert!(err.contains("link.phy.ber"), "{design}: {err}");
    }
}
