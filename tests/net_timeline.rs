//! The Paraver network view (`src/timeline/network.rs`): written, read back with the shared
//! reader, and held against the engine. Every port thread's states tile the run; credit stops
//! and goes alternate; HOL starts and ends pair up; transmissions pair up and count the packets
//! the ports' own counters and the engine's statistics count; every communication record is a
//! link of the topology crossed in time order; the .pcf names every value used; and the view
//! changes nothing simulated (statistics hash, application report), nor does idle skipping
//! change the view.

mod common;
use common::exanet;

use exanet::app::mapping::Mapping;
use exanet::app::programs::{Example, Params};
use exanet::app::run::{drive, prepare, Report};
use exanet::config::Config;
use exanet::net::engine::Network;
use exanet::net::setup::{build, plan};
use exanet::progress::Progress;
use exanet::timeline::hol_summary::summarise;
use exanet::timeline::network::*;
use exanet::timeline::paraver::{self, Obj, Trace};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("exanet-netview-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Write `t` as DIR/network.* and read it back with the shared reader.
fn round_trip(t: &Trace, name: &str) -> Trace {
    let stem = tmp(name).join("network");
    paraver::write(t, &stem).unwrap();
    let back = paraver::read(&stem).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(stem.parent().unwrap()).ok();
    back
}

fn app_cfg(topology: &str, routing: &str) -> Config {
    let mut c = Config::default();
    c.net.topology = topology.parse().unwrap();
    c.net.routing = routing.parse().unwrap();
    c
}

/// Run `ex` with `ranks` ranks on `cfg`'s network, with the view when `params` is given: the
/// report, the program's figures, the trace and the network after the run.
fn app(
    cfg: &Config,
    ex: Example,
    bytes: u64,
    ranks: usize,
    params: Option<NetViewParams>,
) -> (Report, BTreeMap<String, f64>, Option<Trace>, Network) {
    let (prog, figures, _) = ex.program(Params {
        bytes,
        iterations: 1,
    });
    let endpoints = plan(cfg).unwrap().topo.endpoints();
    let place = Mapping::Linear.place(ranks, endpoints).unwrap();
    let mut net = prepare(cfg, place, prog, 0).unwrap();
    if let Some(p) = params {
        NetView::attach(&mut net, p, cfg.clock.freq_mhz).unwrap();
    }
    let (r, _) = drive(cfg, &mut net, &Progress::hidden()).unwrap_or_else(|e| panic!("{e}"));
    let t = NetView::detach(&mut net).map(|v| v.trace(net.cycle));
    (r, figures.all(), t, net)
}

/// Per object, its event (time, type, value) triples in time order (a record's pairs in their
/// order).
fn events_by_obj(t: &Trace) -> BTreeMap<Obj, Vec<(u64, u32, i64)>> {
    let mut m: BTreeMap<Obj, Vec<(u64, u32, i64)>> = BTreeMap::new();
    for e in &t.events {
        for &(ty, v) in &e.events {
            m.entry(e.obj).or_default().push((e.time, ty, v));
        }
    }
    for v in m.values_mut() {
        v.sort_by_key(|x| x.0);
    }
    m
}

/// Every check that holds for any run; `drained`: the run ended with the network empty (an
/// application run), so every pair is closed. Returns the number of events of each type.
fn check_view(t: &Trace, net: &Network, drained: bool) -> BTreeMap<u32, usize> {
    let topo = net.topo.as_ref();
    let (n, np, nt) = (topo.nodes(), topo.ports(), topo.terminals());
    assert_eq!(t.appls.len(), 1);
    let tasks = &t.appls[0].tasks;
    assert_eq!(
        tasks.len(),
        n + topo.endpoints(),
        "a task per router and per NIC"
    );
    for (k, task) in tasks.iter().enumerate() {
        let want = if k < n { np + nt } else { 1 };
        assert_eq!(task.threads.len(), want, "{}: a thread per port", task.name);
    }
    // states tile every thread's time line, without gap or overlap, changes only
    let mut by: BTreeMap<Obj, Vec<(u64, u64, u32)>> = BTreeMap::new();
    for s in &t.states {
        by.entry(s.obj).or_default().push((s.begin, s.end, s.state));
    }
    let threads: usize = tasks.iter().map(|x| x.threads.len()).sum();
    assert_eq!(by.len(), threads, "every thread has states");
    for (o, v) in by.iter_mut() {
        v.sort();
        assert_eq!(v[0].0, 0, "{o:?} starts at 0");
        assert_eq!(v.last().unwrap().1, t.end, "{o:?} ends at the trace's end");
        for w in v.windows(2) {
            assert_eq!(w[0].1, w[1].0, "{o:?}: gap or overlap {w:?}");
            assert_ne!(
                w[0].2, w[1].2,
                "{o:?}: a state written twice in a row {w:?}"
            );
        }
        assert!(v.iter().all(|x| x.0 < x.1), "{o:?}: an empty state record");
    }
    // the .pcf names every state value and every event type (and value, where named) used
    for s in &t.states {
        assert!(t.state_labels.contains_key(&s.state), "state {}", s.state);
    }
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for e in &t.events {
        for &(ty, v) in &e.events {
            let et = t
                .event_types
                .get(&ty)
                .unwrap_or_else(|| panic!("type {ty}"));
            if ![EV_TX_START, EV_TX_END].contains(&ty) {
                assert!(et.values.contains_key(&v), "{} value {v}", et.name);
            }
            *count.entry(ty).or_default() += 1;
        }
    }
    // pairs: credit stop/go and HOL start/end alternate per thread and VC; transmissions pair
    // by packet id on their thread
    let evs = events_by_obj(t);
    let mut tx_count: HashMap<Obj, u64> = HashMap::new();
    for (o, v) in &evs {
        let mut credit: HashMap<i64, bool> = HashMap::new();
        let mut hol: HashMap<i64, bool> = HashMap::new();
        let mut tx: HashMap<i64, u64> = HashMap::new();
        for &(time, ty, val) in v {
            match ty {
                EV_CREDIT_STOP => {
                    assert!(o.task < n as u32 && (o.thread as usize) < np, "{o:?}");
                    assert!(
                        !credit.insert(val, true).unwrap_or(false),
                        "{o:?} two stops, {time}"
                    );
                }
                EV_CREDIT_GO => {
                    assert_eq!(
                        credit.insert(val, false),
                        Some(true),
                        "{o:?} go without stop {time}"
                    );
                }
                EV_HOL_START => {
                    assert!(o.task < n as u32, "HOL on a router's thread");
                    assert!(
                        !hol.insert(val, true).unwrap_or(false),
                        "{o:?} two HOL starts {time}"
                    );
                }
                EV_HOL_END => {
                    assert_eq!(
                        hol.insert(val, false),
                        Some(true),
                        "{o:?} HOL end alone {time}"
                    );
                }
                EV_TX_START => {
                    assert!(
                        tx.insert(val, time).is_none(),
                        "{o:?} packet {val} starts twice"
                    );
                }
                EV_TX_END => {
                    let s = tx
                        .remove(&val)
                        .unwrap_or_else(|| panic!("{o:?} {val} ends, never started"));
                    assert!(
                        s < time,
                        "{o:?} packet {val}: end {time} not after start {s}"
                    );
                    *tx_count.entry(*o).or_default() += 1;
                }
                EV_HOL_WAITS_FOR | EV_HOL_COULD_GO => {}
                _ => panic!("unknown event type {ty}"),
            }
        }
        assert!(tx.is_empty(), "{o:?}: a transmission without end {tx:?}");
        if drained {
            assert!(
                hol.values().all(|b| !b),
                "{o:?}: HOL open at the end of a drained run"
            );
            assert!(
                credit.values().all(|b| !b),
                "{o:?}: stopped at the end of a drained run"
            );
        }
    }
    // transmissions: a router port's count is its TCL TX's packets, a terminal's the packets
    // written into the intra-tile RX FIFO; the NICs' sum is the packets injected, the
    // terminals' sum the packets delivered (the engine's statistics)
    let (mut nic_sum, mut term_sum, mut link_sum) = (0u64, 0u64, 0u64);
    for node in &net.nodes {
        for q in 0..np {
            let o = Obj {
                appl: 0,
                task: node.id as u32,
                thread: q as u32,
            };
            let got = tx_count.get(&o).copied().unwrap_or(0);
            let want = node.dp.links[q]
                .as_ref()
                .map_or(0, |l| l.tcl.tx.stat_pkts as u64);
            assert_eq!(got, want, "router {} port {q}", node.id);
            link_sum += got;
        }
        for k in 0..nt {
            let o = Obj {
                appl: 0,
                task: node.id as u32,
                thread: (np + k) as u32,
            };
            let got = tx_count.get(&o).copied().unwrap_or(0);
            let slot = node.dp.router.p.intra_slot(k as u32) as usize;
            let written = node.dp.router.outs[slot].as_ref().unwrap().r.stat_pkts as u64;
            if drained {
                assert_eq!(got, written, "router {} terminal {k}", node.id);
            }
            term_sum += got;
            let e = topo.endpoint_index(node.id, k);
            nic_sum += tx_count
                .get(&Obj {
                    appl: 0,
                    task: (n + e) as u32,
                    thread: 0,
                })
                .copied()
                .unwrap_or(0);
        }
    }
    let m = net.merged();
    assert_eq!(term_sum, m.delivered, "router terminals: packets delivered");
    assert!(m.delivered > 0);
    if drained {
        assert_eq!(nic_sum, m.injected, "NICs: packets injected");
    }
    // communications: one per link crossed, sender and receiver the two ends of a link, times
    // in order; as many as the links' transmissions once drained
    for c in &t.comms {
        let (a, q) = (c.send.task as usize, c.send.thread as usize);
        let (b, r) = (c.recv.task as usize, c.recv.thread as usize);
        assert_eq!(topo.link(a, q), Some((b, r)), "{c:?}");
        assert!(
            c.log_send <= c.phys_send && c.phys_send < c.log_recv && c.log_recv < c.phys_recv,
            "{c:?}"
        );
        assert!(c.tag > 0);
    }
    if drained {
        assert_eq!(t.comms.len() as u64, link_sum, "a record per link crossing");
    }
    count
}

#[test]
fn an_application_runs_view_reads_back_and_holds_against_the_engine() {
    // WRF on a 4x4x4 torus (one hop either way) and a small dragonfly: every kind of event
    let cases = [
        ("torus:4x4x4", "ecube", 64, 3000u64),
        ("dragonfly:p=2,a=4,h=2", "min", 72, 20000),
    ];
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    for (topo, routing, ranks, bytes) in cases {
        let cfg = app_cfg(topo, routing);
        let (plain, pf, none, _) = app(&cfg, Example::Wrf, bytes, ranks, None);
        assert!(none.is_none());
        let (r, f, t, net) = app(
            &cfg,
            Example::Wrf,
            bytes,
            ranks,
            Some(NetViewParams::default()),
        );
        // the view changes nothing simulated
        assert_eq!(r.cycles, plain.cycles, "{topo}");
        assert_eq!(r.finished, plain.finished, "{topo}");
        assert_eq!(r.packets, plain.packets, "{topo}");
        assert_eq!(
            r.packet_latency_mean_cycles,
            plain.packet_latency_mean_cycles
        );
        assert_eq!(f, pf, "{topo}");
        let t = t.unwrap();
        let back = round_trip(&t, "app");
        let mut sorted = t.clone();
        sorted.sort();
        assert_eq!(back.states, sorted.states, "{topo}: the states read back");
        assert_eq!(back.events, sorted.events, "{topo}: the events read back");
        assert_eq!(back.comms, sorted.comms);
        assert_eq!(back.state_labels, t.state_labels);
        assert_eq!(back.event_types, t.event_types);
        let count = check_view(&back, &net, true);
        eprintln!("{topo}: {count:?}");
        for (ty, n) in count {
            *seen.entry(ty).or_default() += n;
        }
    }
    // between them, the runs show every kind of event
    for ty in [EV_TX_START, EV_HOL_START, EV_CREDIT_STOP] {
        assert!(
            seen.get(&ty).copied().unwrap_or(0) > 0,
            "no event {ty}: {seen:?}"
        );
    }
}

#[test]
fn a_saturated_synthetic_run_keeps_the_rules_and_the_statistics() {
    let mut c = Config::default();
    c.net.topology = "torus:4x4".parse().unwrap();
    c.net.routing = "ecube".parse().unwrap();
    // a hot spot: its terminal takes one word a cycle from four links, so credits run short
    c.net.pattern = "hotspot:node=5,frac=0.3".parse().unwrap();
    c.net.load = 0.5;
    c.net.sizes = "16:512".parse().unwrap();
    c.net.warmup_cycles = 500;
    c.net.measure_cycles = 3000;
    c.net.drain_cycles = 0;
    let p = plan(&c).unwrap();
    let plain = {
        let mut net = build(&c, &p, c.net.load).unwrap();
        net.run_phases(0, c.net.load, 8.0)
    };
    for (quantum, backlog) in [(16, Backlog::Input), (1, Backlog::Output)] {
        let mut net = build(&c, &p, c.net.load).unwrap();
        let params = NetViewParams {
            quantum_words: quantum,
            backlog,
        };
        NetView::attach(&mut net, params, 156.25).unwrap();
        let s = net.run_phases(0, c.net.load, 8.0);
        assert_eq!(
            s.stats_hash, plain.stats_hash,
            "the view changes no statistic"
        );
        let v = NetView::detach(&mut net).unwrap();
        let t = round_trip(&v.trace(net.cycle), "synthetic");
        let count = check_view(&t, &net, false);
        assert!(count[&EV_CREDIT_STOP] > 0, "{count:?}");
        // states count words in quanta: with a quantum of 1 the largest state is a backlog no
        // larger than the FIFOs behind a port
        let max = t.states.iter().map(|s| s.state).max().unwrap();
        assert!(max > 0);
        if quantum == 1 {
            let l = &c.link;
            let cap = 2 * (l.tx_hf_fifo_depth_words + l.tx_fifo_depth_words);
            assert!(max <= cap, "{max} words behind one port, more than {cap}");
        }
    }
}

#[test]
fn idle_skipping_and_partitions_do_not_change_the_view() {
    let mut c = Config::default();
    c.net.topology = "torus:4x4".parse().unwrap();
    c.net.routing = "star-channel".parse().unwrap();
    c.net.load = 0.5;
    c.net.warmup_cycles = 500;
    c.net.measure_cycles = 2000;
    c.net.drain_cycles = 0;
    let text = |c: &Config| {
        let p = plan(c).unwrap();
        let mut net = build(c, &p, c.net.load).unwrap();
        NetView::attach(&mut net, NetViewParams::default(), 156.25).unwrap();
        net.run(2500);
        let t = NetView::detach(&mut net).unwrap().trace(net.cycle);
        (t.prv().unwrap(), t.pcf().unwrap(), t.row().unwrap())
    };
    let reference = text(&c);
    assert!(reference.0.lines().count() > 1000);
    for (skip, parts, window) in [(false, 1, 0), (true, 3, 7)] {
        let mut c2 = c.clone();
        c2.net.idle_skip = skip;
        c2.net.partitions = parts;
        c2.net.window_cycles = window;
        assert!(
            text(&c2) == reference,
            "idle skip {skip}, partitions {parts}"
        );
    }
}

#[test]
fn bad_view_parameters_are_refused() {
    let mut c = Config::default();
    c.net.topology = "torus:2x2".parse().unwrap();
    let p = plan(&c).unwrap();
    let mut net = build(&c, &p, 0.1).unwrap();
    let bad = NetViewParams {
        quantum_words: 0,
        backlog: Backlog::Input,
    };
    let e = NetView::attach(&mut net, bad, 156.25).unwrap_err();
    assert!(e.contains("--paraver-quantum 0"), "{e}");
    net.run(10);
    let e = NetView::attach(&mut net, NetViewParams::default(), 156.25).unwrap_err();
    assert!(e.contains("reset state"), "{e}");
}

#[test]
fn the_hol_summary_adds_up_the_traces_episodes() {
    let cfg = app_cfg("torus:4x4x4", "ecube");
    let (_, _, t, net) = app(&cfg, Example::Wrf, 3000, 64, Some(NetViewParams::default()));
    let t = t.unwrap();
    let s = summarise(&t, net.topo.as_ref(), 5);
    let starts = t
        .events
        .iter()
        .flat_map(|e| &e.events)
        .filter(|x| x.0 == EV_HOL_START)
        .count() as u64;
    assert_eq!(s.episodes, starts);
    assert!(s.episodes > 0);
    assert_eq!(
        s.by_class.iter().map(|c| c.episodes).sum::<u64>(),
        s.episodes
    );
    assert_eq!(s.by_class.iter().map(|c| c.cycles).sum::<u64>(), s.cycles);
    assert_eq!(s.by_cause.iter().map(|c| c.cycles).sum::<u64>(), s.cycles);
    assert!(s.top.len() <= 5);
    assert!(s.top.windows(2).all(|w| w[0].cycles >= w[1].cycles));
}

/// HOL episodes of `t` on the routers' threads: (router, thread, start, end, waits-for thread,
/// could-go thread), from the trace's own events (the ports come with the start).
fn hol_episodes(t: &Trace, routers: u32) -> Vec<(u32, u32, u64, u64, i64, i64)> {
    let mut events = t.events.clone();
    events.sort_by_key(|e| (e.time, e.obj));
    let mut open: HashMap<(Obj, i64), (u64, i64, i64)> = HashMap::new();
    let mut out = Vec::new();
    for e in events.iter().filter(|e| e.obj.task < routers) {
        let get = |ty: u32| e.events.iter().find(|x| x.0 == ty).map(|x| x.1);
        if let Some(vc) = get(EV_HOL_END) {
            let (s, w, c) = open.remove(&(e.obj, vc)).expect("an end after its start");
            out.push((e.obj.task, e.obj.thread, s, e.time, w, c));
        }
        if let Some(vc) = get(EV_HOL_START) {
            let w = get(EV_HOL_WAITS_FOR).expect("with the port waited for") - 1;
            let c = get(EV_HOL_COULD_GO).expect("with the port free") - 1;
            open.insert((e.obj, vc), (e.time, w, c));
        }
    }
    out
}

/// docs/validation.md, "Head-of-line blocking: the WRF pattern": on a torus under e-cube the
/// WRF exchange's head-of-line blocking is in the injection FIFOs of ranks that send both
/// messages, the last packet to n + 16 waiting for +Y while the first to n - 16 behind it could
/// take -Y; no blocked head waits for a terminal (two messages meeting at one destination do not
/// back up: the terminal output drains a word a cycle, two links' worth).
#[test]
fn wrf_on_a_torus_blocks_injection_fifos_behind_the_message_up() {
    let cfg = app_cfg("torus:8x8x2", "ecube");
    let ranks = 128;
    let (_, _, t, net) = app(
        &cfg,
        Example::Wrf,
        4000,
        ranks,
        Some(NetViewParams::default()),
    );
    let t = t.unwrap();
    let topo = net.topo.as_ref();
    let (np, n) = (topo.ports(), topo.nodes() as u32);
    let port = |q: usize| port_class(topo, q);
    let eps = hol_episodes(&t, n);
    let long: Vec<_> = eps.iter().filter(|e| e.3 - e.2 > 1).collect();
    assert!(long.len() >= 16, "{} long episodes", long.len());
    for &&(router, thread, s, e, w, c) in &long {
        let what = format!("router {router} thread {thread}, cycles {s} to {e}");
        assert_eq!(thread as usize, np, "{what}: not the injection FIFO");
        assert_eq!(port(w as usize), "+Y", "{what}: the head waits for {w}");
        assert_eq!(
            port(c as usize),
            "-Y",
            "{what}: the packet behind could take {c}"
        );
        // rank = router here (one terminal, linear mapping): it sends both messages
        assert!((16..ranks as u32 - 16).contains(&router), "{what}");
    }
    for &(router, thread, _, _, w, _) in &eps {
        assert!(
            (w as usize) < np,
            "router {router} thread {thread}: head waits for a terminal"
        );
    }
}

/// docs/validation.md: on a dragonfly under minimal routing the WRF exchange is limited by the
/// global channels (16 ranks of a group share the one to the next group): with output backlog
/// the fullest buffer is a global port's TX FIFO; the HOL blocking is mostly in injection FIFOs.
#[test]
fn wrf_on_a_dragonfly_fills_the_global_channels_and_blocks_at_injection() {
    let cfg = app_cfg("dragonfly:p=2,a=4,h=2", "min");
    let params = NetViewParams {
        backlog: Backlog::Output,
        ..Default::default()
    };
    let (_, _, t, net) = app(&cfg, Example::Wrf, 4000, 72, Some(params));
    let t = t.unwrap();
    let topo = net.topo.as_ref();
    let n = topo.nodes() as u32;
    let fullest = t.states.iter().max_by_key(|s| s.state).unwrap();
    assert!(fullest.obj.task < n, "{fullest:?}: a NIC");
    assert_eq!(
        port_class(topo, fullest.obj.thread as usize),
        "global",
        "{fullest:?}"
    );
    let s = summarise(&t, topo, 5);
    assert_eq!(s.by_class[0].class, "terminal", "{:?}", s.by_class);
    assert!(2 * s.by_class[0].cycles > s.cycles, "{:?}", s.by_class);
}

/// The command line: `--paraver DIR` writes DIR/network.*, prints the view's lines and gives
/// `network_view` in the JSON; the view's options are checked.
#[test]
fn the_command_line_writes_the_view_and_checks_its_options() {
    let dir = tmp("cli");
    let d = dir.join("pv");
    let ds = d.display().to_string();
    let base = [
        "app",
        "run",
        "wrf",
        "--topology",
        "torus:4x4x2",
        "--bytes",
        "3000",
        "--iterations",
        "1",
    ];
    let mut a = base.to_vec();
    a.extend(["--paraver", &ds, "--paraver-quantum", "8", "--json"]);
    let o = exanet(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let nv = &v["network_view"];
    assert_eq!(nv["quantum_words"], 8);
    assert_eq!(nv["backlog"], "input");
    let t = paraver::read(&d.join("network")).unwrap();
    assert_eq!(nv["events"].as_u64().unwrap() as usize, t.events.len());
    assert_eq!(nv["states"].as_u64().unwrap() as usize, t.states.len());
    assert!(nv["hol"]["by_class"].is_array());
    // without --paraver there is no view
    let o = exanet(&[&base[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.get("network_view").is_none());
    // bad values: exit 2, the option named
    for (extra, want) in [
        (
            vec!["--paraver", ds.as_str(), "--paraver-quantum", "0"],
            "--paraver-quantum 0",
        ),
        (vec!["--paraver-quantum", "8"], "--paraver"),
        (
            vec!["--paraver", ds.as_str(), "--paraver-backlog", "middle"],
            "middle",
        ),
    ] {
        let o = exanet(&[&base[..], &extra[..]].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
