//! The network engine in lockstep with Verilated networks of `exanet_node`s (issue 28 §3,
//! `testbench/networks.rs`): a 4x4 2-D torus, a 16-node 3-D torus and KARMA's 2x2 mesh, under
//! uniform traffic from light load to saturation, with long packets, and under SPMD programs;
//! the engine in its normal mode (2 threads, 4 partitions, idle skipping on). These tests need
//! the RTL: a binary built without Verilator fails them with the reason (never skips them).

use exanet::config::Config;
use exanet::cosim::lockstep::{CosimError, CosimReport, Options};
use exanet::cosim::net_design::{run_app, run_network};
use exanet::wave::{diff_files, DiffOptions};

/// The network engine as a network run runs it, at `topology`, `load`, `sizes`.
fn config(topology: &str, load: f64, sizes: &str, seed: u64) -> Config {
    let mut c = Config::default();
    c.net.topology = topology.parse().unwrap();
    c.net.routing = "ecube".parse().unwrap();
    c.net.load = load;
    c.net.sizes = sizes.parse().unwrap();
    c.net.threads = 2;
    c.net.partitions = 4;
    c.net.idle_skip = true;
    c.sim.seed = seed;
    c
}

fn opts(cycles: u64) -> Options {
    Options {
        cycles,
        period_ps: 2000,
        ..Default::default()
    }
}

fn identical(cfg: &Config, cycles: u64) -> CosimReport {
    match run_network(cfg, &opts(cycles)) {
        Ok(r) => r,
        Err(e) => panic!("{}: {e}", cfg.net.topology),
    }
}

/// Every node's registers compared (more than 800 a node: a mesh corner has two wired ports),
/// and traffic through the network.
fn assert_busy(r: &CosimReport, nodes: u64, delivered: u64) {
    assert_eq!(r.stat("nodes"), nodes);
    assert!(
        r.signals_compared as u64 > 800 * nodes,
        "{} registers compared",
        r.signals_compared
    );
    assert!(
        r.stat("packets_delivered") >= delivered,
        "{} packets delivered",
        r.stat("packets_delivered")
    );
    assert_eq!(r.stat("crc_errors"), 0);
}

#[test]
fn a_4x4_torus_is_its_rtl_from_light_load_to_saturation() {
    let r = identical(&config("torus:4x4", 0.2, "16:512", 7), 4000);
    assert_eq!(r.rtl_top, "net_torus4x4");
    assert_busy(&r, 16, 300);
    // past saturation with long packets: credits stop links, FIFOs fill
    let r = identical(&config("torus:4x4", 0.95, "16:4096", 3), 8000);
    assert_busy(&r, 16, 200);
    assert!(
        r.stat("packets_injected") > r.stat("packets_delivered") + 40,
        "saturated: {:?}",
        r.stats
    );
    // fixed 64-byte packets (half-way ties on every ring of 4)
    let r = identical(&config("torus:4x4", 0.6, "64", 11), 4000);
    assert_busy(&r, 16, 1000);
}

#[test]
fn a_16_node_3d_torus_and_the_karma_mesh_are_their_rtl() {
    let r = identical(&config("torus:4x2x2", 0.5, "16:1024", 5), 5000);
    assert_eq!(r.rtl_top, "net_torus4x2x2");
    assert_busy(&r, 16, 400);
    let r = identical(&config("mesh:2x2", 0.7, "16:2048", 9), 6000);
    assert_eq!(r.rtl_top, "net_mesh2x2");
    assert_busy(&r, 4, 100);
}

#[test]
fn spmd_programs_run_on_the_rtl_network_as_on_the_engine() {
    use exanet::app::programs::Example;
    // (the load is the traffic's, which a program replaces)
    let c = config("torus:4x4", 0.3, "16", 1);
    for (example, bytes, cycles, delivered) in [
        (Example::Alltoall, 256, 12_000, 16 * 15),
        (Example::Ring, 2048, 12_000, 16),
    ] {
        let r = run_app(&c, example, bytes, &opts(cycles)).unwrap_or_else(|e| panic!("{e}"));
        assert_busy(&r, 16, delivered);
        // the program ran to its end on both sides
        assert_eq!(r.stat("ranks"), 16);
        assert_eq!(r.stat("ranks_finished"), 16, "{example:?}: {:?}", r.stats);
        assert_eq!(r.stat("packets_injected"), r.stat("packets_delivered"));
    }
}

#[test]
fn a_difference_in_a_network_node_is_reported_with_node_register_cycle_and_values() {
    let o = Options {
        fault_at: Some(900),
        ..opts(2000)
    };
    match run_network(&config("torus:4x4", 0.3, "64", 2), &o) {
        Err(CosimError::Mismatch(m)) => {
            assert_eq!(m.cycle, 900);
            assert_eq!(
                m.signal,
                "TOP.exanet_net_torus4x4.gen_node[0].u_node.u_router.gen_in[0].u_in.stat_words_q"
            );
            assert_ne!(m.model, m.rtl);
        }
        other => panic!("expected a mismatch, got {other:?}"),
    }
}

#[test]
fn both_sides_write_waves_of_every_compared_register_with_the_same_names() {
    let dir = std::env::temp_dir().join(format!("exanet-cosim-net-{}", std::process::id()));
    let o = Options {
        vcd_dir: Some(dir.clone()),
        ..opts(1500)
    };
    let r = run_network(&config("mesh:2x2", 0.5, "64", 4), &o).unwrap_or_else(|e| panic!("{e}"));
    let rep = diff_files(
        &dir.join("model.vcd"),
        &dir.join("rtl.vcd"),
        &DiffOptions { strict: true },
    )
    .unwrap();
    assert!(rep.identical(true), "{rep}");
    assert_eq!(rep.compared, r.signals_compared, "{rep}");
    assert!(
        rep.only_in_a.is_empty() && rep.only_in_b.is_empty(),
        "{rep}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn exanet(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_exanet"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_command_runs_a_network_and_refuses_what_has_no_rtl() {
    let (code, out, err) = exanet(&[
        "cosim",
        "--design",
        "network",
        "--set",
        "net.topology=torus:4x4",
        "--set",
        "net.load=0.3",
        "--cycles",
        "1500",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rtl_top"], "net_torus4x4");
    assert_eq!(v["cycles"], 1500);
    let refused: [(&[&str], &str); 7] = [
        (
            &["--set", "net.topology=torus:8x8"],
            "torus:4x4, torus:4x2x2, mesh:2x2",
        ),
        (
            &[
                "--set",
                "net.topology=torus:4x4",
                "--set",
                "net.routing=star-channel",
            ],
            "model-only routing",
        ),
        (
            &[
                "--set",
                "net.topology=torus:4x4",
                "--set",
                "net.tred_units=900",
            ],
            "tred_q",
        ),
        (
            &[
                "--set",
                "net.topology=torus:4x4",
                "--set",
                "link.credit.period_cycles=50",
            ],
            "credit_period_q",
        ),
        (
            &["--set", "net.topology=torus:4x4", "--ber", "1e-6"],
            "error-free",
        ),
        (
            &["--set", "net.topology=torus:4x4", "--shape", "torus2d"],
            "--shape",
        ),
        (
            &["--set", "net.topology=dragonfly:p=2,a=4,h=2"],
            "no Verilated network",
        ),
    ];
    for (args, says) in refused {
        let mut a = vec!["cosim", "--design", "network", "--cycles", "100"];
        a.extend_from_slice(args);
        let (code, _, err) = exanet(&a);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let (code, _, err) = exanet(&[
        "cosim", "--design", "node", "--app", "ring", "--cycles", "10",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--design network"), "{err}");
}

/// The generated network tops follow the project's rule for RTL: lint clean with `-Wall`.
#[test]
fn the_generated_network_tops_are_lint_clean() {
    use exanet::cosim::{networks, shapes};
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut rtl: Vec<_> = std::fs::read_dir(root.join("rtl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sv"))
        .collect();
    // the waivers, then the packages (base first: the others import it), then the modules
    rtl.sort_by_key(|p| {
        let n = p.file_name().unwrap().to_string_lossy().into_owned();
        (
            !n.starts_with("0_"),
            !n.ends_with("_pkg.sv"),
            n != "exanet_base_pkg.sv",
            n,
        )
    });
    let dir = std::env::temp_dir().join(format!("exanet-net-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // the mesh (edge ports) and the 3-D torus (6 ports, rings of 2): the generator's every
    // case; the 4x4 torus is the same text at other sizes (its build verilates it anyway)
    for net in networks::NETWORKS.iter().filter(|n| n.name != "torus4x4") {
        let sh = shapes::by_name(net.shape).unwrap().unwrap();
        let params: Vec<(String, String)> = sh
            .verilator_params(false)
            .iter()
            .map(|p| {
                let (k, v) = p.trim_start_matches("-G").split_once('=').unwrap();
                (k.to_string(), v.to_string())
            })
            .collect();
        let f = dir.join(format!("{}.sv", net.module()));
        std::fs::write(&f, net.source(&params, sh.n_intra as usize, sh.inter.len())).unwrap();
        let exe = std::env::var_os("VERILATOR").unwrap_or_else(|| "verilator".into());
        let out = std::process::Command::new(exe)
            .args(["--lint-only", "-Wall", "--top-module", &net.module()])
            .args(&rtl)
            .arg(&f)
            .output()
            .expect("run verilator");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{}: verilator --lint-only -Wall:\n{}",
            net.name,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
