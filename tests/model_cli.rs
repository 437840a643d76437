//! Issue 15 §1: `exanet model latency`, the analytic M/G/1 model of a 2-D torus with the
//! bounds beside it: the curve rises to the saturation it reports, the bounds are those of the
//! blocks, bad input exits 2.

mod common;
use common::{exanet_json as json, refused_each};

#[test]
fn the_curve_rises_to_its_saturation_and_the_bounds_are_the_blocks() {
    for (topo, k, vcs, size) in [
        ("torus:8x8", 8.0, "1", "32"),
        ("torus:16x16", 16.0, "6", "64"),
    ] {
        let v = json(&[
            "model",
            "latency",
            "--topology",
            topo,
            "--vcs",
            vcs,
            "--size",
            size,
            "--json",
        ]);
        let pts = v["points"].as_array().unwrap();
        assert_eq!(pts.len(), 20);
        let lat: Vec<f64> = pts.iter().map(|p| p["latency"].as_f64().unwrap()).collect();
        assert!(lat.windows(2).all(|w| w[1] > w[0]), "{lat:?}");
        let sat = v["saturation_rate"].as_f64().unwrap();
        assert!(sat < v["channel_bound_rate"].as_f64().unwrap());
        assert!(pts[19]["rate"].as_f64().unwrap() < sat);
        // the ExaNet zero-load latency (simulated lone packets) is the documented sum of the
        // pipelines (docs/network.md, "Latency"), 62 h + max(11 + (W - 1), 6 + 2 (W - 1)) + 4
        // over the mean distance of uniform traffic on a k x k torus, k/2 k^2/(k^2 - 1), plus
        // at most a few credit beats that fall inside the long packets
        let z = v["exanet"]["zero_load_cycles"].as_f64().unwrap();
        let w = v["exanet"]["packet_words"].as_f64().unwrap();
        let hops = k / 2.0 * k * k / (k * k - 1.0);
        let sum = 62.0 * hops + (11.0 + (w - 1.0)).max(6.0 + 2.0 * (w - 1.0)) + 4.0;
        assert!(
            z >= sum - 1e-6 && z <= sum + 4.0,
            "{topo}: {z} against {sum}"
        );
    }
    // a rate past the saturation has no latency
    let v = json(&[
        "model",
        "latency",
        "--topology",
        "torus:8x8",
        "--rates",
        "0.001,0.5",
        "--json",
    ]);
    assert!(v["points"][0]["latency"].is_number());
    assert!(v["points"][1]["latency"].is_null());
}

#[test]
fn bad_model_input_exits_2_naming_it() {
    refused_each(
        &["model", "latency"],
        &[
            (&["--topology", "torus:8x4"], "square 2-D torus"),
            (&["--topology", "torus:7x7"], "even radix"),
            (&["--topology", "mesh:8x8"], "square 2-D torus"),
            (&["--topology", "torus:8x8", "--vcs", "0"], "VCs"),
            (
                &["--topology", "torus:8x8", "--rates", "0.1,x"],
                "'x' is not a number",
            ),
            (
                &["--topology", "torus:8x8", "--rates", "2"],
                "outside (0, 1]",
            ),
            (
                &["--topology", "torus:8x8", "--plot", "x.svg"],
                "give --against-sim too",
            ),
            (
                &["--topology", "torus:8x8", "--seeds", "4"],
                "give --against-sim too",
            ),
            (
                &["--topology", "torus:8x8", "--size", "300"],
                "carries at most 256",
            ),
        ],
    );
}

/// `--against-sim`: the simulations run at the model's channel utilisations, min-adapt over V
/// VCs, and their latency grows with the load as the model's does; the output does not
/// depend on --jobs.
#[test]
fn against_sim_runs_the_matching_simulations() {
    let run = |jobs: &str| {
        json(&[
            "model",
            "latency",
            "--topology",
            "torus:4x4",
            "--vcs",
            "4",
            "--size",
            "8",
            "--against-sim",
            "--seeds",
            "1..2",
            "--jobs",
            jobs,
            "--set",
            "net.measure_cycles=4000",
            "--json",
        ])
    };
    let v = run("1");
    assert_eq!(v["sim_routing"], "min-adapt");
    assert_eq!(v["sim_vcs"], 4);
    assert_eq!(v["sim_payload_bytes"], 128);
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 7);
    for p in pts {
        // the simulation carries what it is offered below the model's saturation
        let (off, acc) = (
            p["sim_load"].as_f64().unwrap(),
            p["sim_accepted"]["mean"].as_f64().unwrap(),
        );
        assert!((acc - off).abs() < 0.1 * off + 0.01, "{p}");
        assert!(p["model_latency"].is_number(), "{p}");
    }
    let extra = |p: &serde_json::Value| p["sim_extra"]["mean"].as_f64().unwrap();
    assert!(extra(&pts[6]) > extra(&pts[0]), "{pts:?}");
    assert_eq!(run("2")["points"], v["points"]);
}
