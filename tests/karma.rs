//! The KARMA test bed: the ping-pong figures of Biagioni 2017 §5.4.1 as ranges, the structure behind
//! them (the breakdown adds up, per-word ARM costs, one extra router and link per extra hop),
//! the RTL backend giving the model's cycle counts, losses under bit errors, the self-test
//! bandwidths, and bad input.

mod common;
use common::exanet;
use exanet::config::Config;
use exanet::karma::pingpong::{Backend, PingPong, Report};
use exanet::karma::selftest::{measure, Path as StPath};
use exanet::karma::software::Mode;

fn run(hops: &[u32], mode: Mode, sizes: &[u32], iterations: u32, backend: Backend) -> Report {
    PingPong {
        hops: hops.to_vec(),
        mode,
        sizes: sizes.to_vec(),
        iterations,
        backend,
        ber: 0.0,
        vcd: None,
        wave_format: Default::default(),
    }
    .run(&Config::default())
    .unwrap_or_else(|e| panic!("{e}"))
}

const SIZES: [u32; 9] = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096];

#[test]
fn user_space_ping_pong_matches_the_thesis() {
    let cfg = Config::default();
    let clock = cfg.clock();
    // the main job's defaults: 1 and 2 hops, 16 B .. 4 KB, 16 round trips each
    let r = run(&[1, 2], Mode::User, &SIZES, 16, Backend::Model);
    assert_eq!(r.rows.len(), 18);
    let small = &r.rows[0];
    assert_eq!((small.hops, small.payload_bytes), (1, 16));
    // Biagioni 2017: 1.1 us (Table 5.1), 1.3 us (conclusions)
    assert!(
        (1.0..=1.4).contains(&small.one_way_us),
        "half round trip at 16 B: {} us",
        small.one_way_us
    );
    // one extra hop, one way: 0.38 .. 0.50 us at every size (thesis 0.46 measured, ~0.40
    // estimated)
    assert_eq!(r.hop_difference.len(), SIZES.len());
    for d in &r.hop_difference {
        assert!(
            (0.38..=0.50).contains(&d.one_way_us),
            "{} B: 2 hops - 1 hop = {} us",
            d.payload_bytes,
            d.one_way_us
        );
    }
    for x in &r.rows {
        assert_eq!((x.iterations, x.lost), (16, 0), "{x:?}");
        // the ARM: 4 cycles a word written, 20 read (Biagioni 2017 §5.4.1)
        assert!((x.write_cycles_per_word - 4.0).abs() < 1e-9, "{x:?}");
        assert!((x.read_cycles_per_word - 20.0).abs() < 1e-9, "{x:?}");
        // the parts partition a way by construction; their mean over both directions is half
        // the measured round trip only if the responder adds no turnaround and every way was
        // traced
        let b = &x.breakdown;
        assert!(
            (b.total() - x.rtt_cycles / 2.0).abs() < 1e-6,
            "{} B, {} hops: breakdown {} vs half RTT {}",
            x.payload_bytes,
            x.hops,
            b.total(),
            x.rtt_cycles / 2.0
        );
        // the routers and links crossed: 11 cycles a router, 51 a link (+ a credit now and
        // then inside a packet)
        assert_eq!(x.breakdown_hops, x.hops);
        assert_eq!(b.router_cycles, 11.0 * (x.hops + 1) as f64, "{x:?}");
        let link = 51.0 * x.hops as f64;
        assert!(b.link_cycles >= link && b.link_cycles < link + 2.0, "{x:?}");
        // reading is the ARM's: every word 20 cycles
        let words = x.payload_bytes.div_ceil(16) + 2;
        assert!(
            (b.arm_read_cycles - 20.0 * words as f64).abs() < 1e-9,
            "{x:?}"
        );
    }
    // thesis: writing a small message < 0.1 us, reading it ~0.4 us
    assert!(clock.us(small.write_message_cycles) < 0.1, "{small:?}");
    assert!(
        (clock.us(small.read_message_cycles) - 0.4).abs() < 0.03,
        "{small:?}"
    );
    // the round trip grows with the size
    for w in r.rows.windows(2).filter(|w| w[0].hops == w[1].hops) {
        assert!(w[1].rtt_cycles > w[0].rtt_cycles, "{:?}", w);
    }
}

#[test]
fn kernel_space_pays_interrupt_wakeup_and_copies() {
    let cfg = Config::default();
    let user = run(&[1], Mode::User, &[16, 1024], 4, Backend::Model);
    let kern = run(&[1], Mode::Kernel, &[16, 1024], 4, Backend::Model);
    for (u, k) in user.rows.iter().zip(&kern.rows) {
        // the same hardware
        assert_eq!(u.breakdown.router_cycles, k.breakdown.router_cycles);
        assert_eq!(u.breakdown.arm_read_cycles, k.breakdown.arm_read_cycles);
        // the interrupt's latency instead of polling
        let irq = cfg.clock().cycles_for_ns(cfg.karma.kernel_irq_ns) as f64;
        assert!(k.breakdown.detect_cycles >= irq, "{k:?}");
        assert!(k.rtt_us > u.rtt_us + 10.0, "{} vs {}", k.rtt_us, u.rtt_us);
    }
    // copies grow with the size: the software part grows faster in kernel space
    let grow =
        |r: &Report| r.rows[1].breakdown.software_cycles - r.rows[0].breakdown.software_cycles;
    assert!(
        grow(&kern) > grow(&user),
        "{} vs {}",
        grow(&kern),
        grow(&user)
    );
}

#[test]
fn the_rtl_backend_gives_the_models_cycle_counts() {
    for mode in [Mode::User, Mode::Kernel] {
        let m = run(&[1, 2], mode, &[16, 256], 3, Backend::Model);
        let r = run(&[1, 2], mode, &[16, 256], 3, Backend::Rtl);
        assert_eq!(m.cycles, r.cycles, "{mode:?}");
        for (a, b) in m.rows.iter().zip(&r.rows) {
            assert_eq!(a.rtt_cycles, b.rtt_cycles, "{mode:?} {a:?}");
            assert_eq!(a.rtt_min_cycles, b.rtt_min_cycles);
            assert_eq!(a.rtt_max_cycles, b.rtt_max_cycles);
            assert_eq!(a.breakdown, b.breakdown, "{mode:?} {a:?}");
        }
    }
}

#[test]
fn lost_messages_are_timed_out_counted_and_the_ping_pong_goes_on() {
    let r = PingPong {
        hops: vec![2],
        mode: Mode::User,
        sizes: vec![512],
        iterations: 40,
        backend: Backend::Model,
        ber: 1e-4,
        vcd: None,
        wave_format: Default::default(),
    }
    .run(&Config::default())
    .unwrap_or_else(|e| panic!("{e}"));
    let x = &r.rows[0];
    assert!(x.lost > 0, "no loss at this bit error rate: {x:?}");
    assert!(x.crc_errors > 0, "{x:?}");
    assert_eq!(
        x.iterations + x.lost,
        40,
        "every round trip measured or counted lost"
    );
    // the timed-out round trips are not in the latency figures
    assert!(x.rtt_max_cycles < 3 * x.rtt_min_cycles, "{x:?}");
    assert!(r.links[0].crc_errors >= x.crc_errors, "{:?}", r.links);
    // the boards' registers account for every packet of the mesh's links, and every round
    // trip given up is a packet the links lost (known, or still in flight when read) or
    // flagged (a message whose header a bit error changed is answered under another number)
    let l = &r.links[0];
    // the transmitters counted at least the 40 pings, each over 2 links, and the receivers
    // (read from other registers) never more than the transmitters sent
    assert!(l.sent >= 2 * 40, "{l:?}");
    assert!(
        l.delivered + l.crc_errors + l.lost_packets <= l.sent,
        "{l:?}"
    );
    assert_eq!(
        l.lost_packets,
        l.discarded_header + l.discarded_framing + l.discarded_resync,
        "{l:?}"
    );
    assert!(l.in_flight >= 0, "{l:?}");
    assert!(
        (l.lost_packets + l.crc_errors) as i64 + l.in_flight >= x.lost as i64,
        "{l:?} {x:?}"
    );
}

#[test]
fn same_seed_same_figures() {
    // with bit errors, so that the seeded error stream decides which messages are lost
    let with_seed = |seed: u64| {
        let mut cfg = Config::default();
        cfg.sim.seed = seed;
        let r = PingPong {
            hops: vec![2],
            mode: Mode::User,
            sizes: vec![512],
            iterations: 20,
            backend: Backend::Model,
            ber: 1e-4,
            vcd: None,
            wave_format: Default::default(),
        }
        .run(&cfg)
        .unwrap_or_else(|e| panic!("{e}"));
        // the rows and every link's error counters
        serde_json::to_string(&r).unwrap()
    };
    let a = with_seed(7);
    assert_eq!(a, with_seed(7));
    assert_ne!(a, with_seed(8), "the seed changes nothing");
}

#[test]
fn self_test_bandwidth_on_the_mesh() {
    let cfg = Config::default();
    let one = measure(&cfg, Backend::Model, StPath::Router, 512, 1).unwrap();
    let two = measure(&cfg, Backend::Model, StPath::Router, 512, 2).unwrap();
    let link = measure(&cfg, Backend::Model, StPath::Link, 512, 1).unwrap();
    // Biagioni 2017 §5.4.2: 76 %, 89.5 %, 90 %
    assert!((one.efficiency - 0.76).abs() <= 0.03, "{one:?}");
    assert!((two.efficiency - 0.895).abs() <= 0.03, "{two:?}");
    assert!((link.efficiency - 0.90).abs() <= 0.01, "{link:?}");
    // the Verilated mesh counts the same cycles
    let rtl = measure(&cfg, Backend::Rtl, StPath::Link, 512, 1).unwrap();
    assert_eq!(rtl.cycles, link.cycles);
}

#[test]
fn the_main_job_runs_and_writes_its_plot_and_waves() {
    let dir = std::env::temp_dir().join(format!("exanet-karma-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (svg, vcd) = (dir.join("pp.svg"), dir.join("pp.vcd"));
    let o = exanet(&[
        "karma",
        "pingpong",
        "--sizes",
        "16,128",
        "--iterations",
        "2",
        "--plot",
        svg.to_str().unwrap(),
        "--vcd",
        vcd.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for r in rows {
        for f in [
            "hops",
            "mode",
            "payload_bytes",
            "rtt_cycles",
            "rtt_us",
            "one_way_us",
        ] {
            assert!(!r[f].is_null(), "{f} missing: {r}");
        }
        for f in [
            "software_cycles",
            "arm_write_cycles",
            "router_cycles",
            "link_cycles",
            "detect_cycles",
            "arm_read_cycles",
        ] {
            assert!(r["breakdown"][f].is_number(), "{f} missing: {r}");
        }
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("round-trip time (us)") && text.contains("2 hops"));
    // the model's waves and the Verilated mesh's waves of the same ping-pong are identical
    let waves = |backend: &str| {
        let path = dir.join(format!("pp_{backend}.vcd"));
        let o = exanet(&[
            "karma",
            "pingpong",
            "--sizes",
            "16",
            "--iterations",
            "1",
            "--hops",
            "1",
            "--backend",
            backend,
            "--vcd",
            path.to_str().unwrap(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        path
    };
    let (model_vcd, rtl_vcd) = (waves("model"), waves("rtl"));
    let rep = exanet::wave::diff_files(
        &model_vcd,
        &rtl_vcd,
        &exanet::wave::DiffOptions { strict: false },
    )
    .unwrap();
    assert!(rep.identical(false), "{rep}");
    assert!(rep.compared > 5000, "{rep}");
    assert!(rep.only_in_a.is_empty(), "{:?}", rep.only_in_a);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_exits_2_and_names_what_is_wrong() {
    let cases: &[(&[&str], &str)] = &[
        (&["karma", "pingpong", "--sizes", "8192"], "--sizes"),
        (&["karma", "pingpong", "--sizes", "0"], "--sizes"),
        (&["karma", "pingpong", "--iterations", "0"], "--iterations"),
        (&["karma", "pingpong", "--hops", "3"], "--hops"),
        (&["karma", "pingpong", "--mode", "bare"], "--mode"),
        (&["karma", "pingpong", "--backend", "fpga"], "--backend"),
        (&["karma", "pingpong", "--ber", "0.5"], "--ber"),
        (
            &["karma", "pingpong", "--plot", "x.jpg"],
            ".svg, .png or .pdf",
        ),
        (
            &["karma", "pingpong", "--vcd", "/no/such/dir/x.vcd"],
            "/no/such/dir",
        ),
        (&["karma", "selftest", "--payload", "5000"], "--payload"),
    ];
    for (args, needle) in cases {
        let o = exanet(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?} must name {needle}: {err}");
        assert!(!err.contains("panicked"), "{args:?}");
    }
    // a configuration that is not the 2x2 mesh (nodes outside the mesh)
    let dir = std::env::temp_dir().join(format!("exanet-karma-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text, needle) in [
        ("lattice.toml", "[node]\nlattice = [3, 2, 1]\n", "2x2 mesh"),
        (
            "axi.toml",
            "[karma]\naxi_read_cycles = 5\n",
            "karma.axi_read_cycles",
        ),
        (
            "timeout.toml",
            "[karma]\ntimeout_us = 0\n",
            "karma.timeout_us",
        ),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let o = exanet(&["karma", "pingpong", "--config", p.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(needle), "{name} must name {needle}: {err}");
    }
    // the Verilated mesh has the default structure: two intra-tile ports would put node k's
    // words on another node's port, so the RTL backend refuses the file (the model takes it)
    let p = dir.join("two_ports.toml");
    std::fs::write(&p, "[router]\nintra_ports = 2\n").unwrap();
    for cmd in ["pingpong", "selftest"] {
        let o = exanet(&[
            "karma",
            cmd,
            "--backend",
            "rtl",
            "--config",
            p.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        assert!(
            err.contains("--backend rtl") && err.contains("default"),
            "{err}"
        );
    }
    let o = exanet(&[
        "karma",
        "pingpong",
        "--sizes",
        "16",
        "--config",
        p.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_dir_all(&dir).ok();
}
