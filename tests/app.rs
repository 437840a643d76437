//! The application layer end to end (issue 11): programs on the network's NICs through the
//! same router and link blocks, their collectives' data, the ping-pong cross-check against the
//! KARMA test bed, determinism, the deadlock report and bad input.

mod common;

use common::{exanet, exanet_json};
use exanet::app::api::{program, Payload, Rank};
use exanet::app::collectives::Op;
use exanet::app::programs::{Example, Figures, Params};
use exanet::app::run::{run, Report, RunError};
use exanet::config::Config;
use exanet::progress::Progress;
use std::sync::{Arc, Mutex};

fn cfg(topology: &str, routing: &str) -> Config {
    let mut c = Config::default();
    c.net.topology = topology.parse().unwrap();
    c.net.routing = routing.parse().unwrap();
    c
}

fn linear(ranks: usize, endpoints: usize) -> Vec<usize> {
    (0..ranks).map(|r| r * endpoints / ranks).collect()
}

fn pingpong_half_rt(placement: Vec<usize>) -> f64 {
    let (p, f, _) = Example::Pingpong.program(Params {
        bytes: 16,
        iterations: 16,
    });
    run(&cfg("mesh:2x2", "ecube"), placement, p, &Progress::hidden()).unwrap();
    f.get("half_round_trip_cycles").unwrap()
}

/// Seed 002 §5.4: the one-way latency of two hops minus that of one is one router and one link.
/// The application layer reaches it through its own NICs, matching and software; `karma
/// pingpong` through the emulated ARM polling the FIFOs. The two must agree.
#[test]
fn pingpong_two_hops_minus_one_hop_is_karmas_one_router_and_link() {
    let clock = Config::default().clock();
    // 2x2 mesh: endpoint 1 is one hop from endpoint 0, endpoint 3 two
    let diff_cycles = pingpong_half_rt(vec![0, 3]) - pingpong_half_rt(vec![0, 1]);
    let app_us = clock.us(diff_cycles);
    let v = exanet_json(&["karma", "pingpong", "--sizes", "16", "--json"]);
    let karma_us = v["hop_difference"][0]["one_way_us"].as_f64().unwrap();
    assert!(
        (0.39..=0.40).contains(&app_us),
        "app: {app_us} us ({diff_cycles} cycles)"
    );
    assert!(
        (app_us - karma_us).abs() <= 0.02,
        "app {app_us} us, karma {karma_us} us"
    );
    // docs/validation.md gives the two half round trips as measured (issue 32 §2: no stale
    // figure)
    let doc = common::read("docs/validation.md");
    let (one, two) = (pingpong_half_rt(vec![0, 1]), pingpong_half_rt(vec![0, 3]));
    let said =
        format!("half round trip {one:.1} cycles one hop away, {two:.1} cycles two hops away");
    assert!(
        doc.replace('\n', " ").contains(&said),
        "docs/validation.md does not say '{said}'"
    );
}

/// Runs `f` on every rank; returns the figures each rank recorded.
fn run_checked<F, Fut>(c: &Config, ranks: usize, f: F) -> (Report, Figures)
where
    F: Fn(Rank, Figures) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let figs = Figures::default();
    let g = figs.clone();
    let p = program(move |r| f(r, g.clone()));
    let e = exanet::app::run::network(c).unwrap().topo.endpoints();
    let rep = run(c, linear(ranks, e), p, &Progress::hidden()).unwrap();
    (rep, figs)
}

/// Collectives on communicators of some ranks (`Rank::on_comm`): rows and columns of a 2x3
/// grid, each row broadcasting from its rank 2 and each column reducing, interleaved on every
/// rank. Each delivers its own communicator's data, and the messages are the communicators'
/// algorithms' only (a row's binomial bcast on 3 ranks: 2; a column's allreduce on 2: 2).
#[test]
fn collectives_on_communicators_of_some_ranks_stay_among_their_members() {
    let c = cfg("torus:3x3", "ecube");
    let (rep, f) = run_checked(&c, 6, |r, f| async move {
        let me = r.rank();
        let (row, col) = (me / 3, me % 3);
        let rows: Arc<[u32]> = (0..3).map(|k| row * 3 + k).collect();
        // a column's ranks in reverse order: its rank 0 is world rank 3 + col
        let cols: Arc<[u32]> = [3 + col, col].into();
        let on_row = r.on_comm(rows, 1 + row).unwrap();
        let on_col = r.on_comm(cols, 3 + col).unwrap();
        assert_eq!((on_row.rank(), on_row.size()), (col, 3));
        assert_eq!(on_col.size(), 2);
        // only the root's bytes are the row's: every rank must end with them
        let mine = if col == 2 { row as u8 + 10 } else { 99 };
        let got = on_row.bcast(2, Payload::bytes(&[mine; 5])).await;
        let sum = on_col.allreduce(&[me as f64], Op::Sum).await;
        let bad = (got != Payload::bytes(&[row as u8 + 10; 5])) as u32
            + (sum != [(col + 3 + col) as f64]) as u32;
        f.set(&format!("bad{me}"), bad as f64);
        assert!(r.on_comm([7u32, 8].into(), 1).is_err());
    });
    for me in 0..6 {
        assert_eq!(f.get(&format!("bad{me}")), Some(0.0), "rank {me}");
    }
    // 2 rows x 2 bcast messages, 3 columns x (1 reduce + 1 bcast)
    assert_eq!(rep.messages_sent, 2 * 2 + 3 * 2);
    assert_eq!(rep.messages_received, rep.messages_sent);
}

#[test]
fn every_collective_delivers_the_right_data_on_several_rank_counts_and_topologies() {
    for (topo, routing, ranks) in [
        ("mesh:2x2", "ecube", 3),
        ("torus:4x4", "ecube", 16),
        ("torus:3x3", "star-channel", 7),
        ("dragonfly:p=2,a=2,h=1", "min", 12),
        ("torus:2x2", "ecube", 9), // several ranks on an endpoint
    ] {
        let c = cfg(topo, routing);
        let (rep, f) = run_checked(&c, ranks, move |r, f| async move {
            let (me, n) = (r.rank(), r.size());
            let mut bad = 0.0;
            // bcast from a root that is not 0, with real bytes longer than a packet
            let root = n - 1;
            let msg: Vec<u8> = (0..1500u32).map(|i| (i * 7 + 3) as u8).collect();
            let got = r
                .bcast(
                    root,
                    if me == root {
                        Payload::bytes(&msg)
                    } else {
                        Payload::Size(0)
                    },
                )
                .await;
            bad += (got != Payload::bytes(&msg)) as u32 as f64;
            // reduce to rank 1 % n and allreduce, sum and max
            let x = [me as f64, 1.0, -(me as f64)];
            let red = r.reduce(1 % n, &x, Op::Sum).await;
            let tri = (n * (n - 1) / 2) as f64;
            if me == 1 % n {
                bad += (red != Some(vec![tri, n as f64, -tri])) as u32 as f64;
            } else {
                bad += red.is_some() as u32 as f64;
            }
            let all = r.allreduce(&x, Op::Max).await;
            bad += (all != vec![(n - 1) as f64, 1.0, 0.0]) as u32 as f64;
            // alltoall: rank s sends [s, d] to d
            let out: Vec<Payload> = (0..n)
                .map(|d| Payload::bytes(&[me as u8, d as u8]))
                .collect();
            let inn = r.alltoall(out).await;
            for (s, p) in inn.iter().enumerate() {
                bad += (*p != Payload::bytes(&[s as u8, me as u8])) as u32 as f64;
            }
            // alltoallv: d gets (s + d) % 3 * 100 bytes from s, 0 meaning nothing
            let len = |s: u32, d: u32| ((s + d) % 3 * 100) as usize;
            let out: Vec<Payload> = (0..n)
                .map(|d| Payload::bytes(&vec![me as u8; len(me, d)]))
                .collect();
            let lens: Vec<u64> = (0..n).map(|s| len(s, me) as u64).collect();
            let inn = r.alltoallv(out, &lens).await;
            for (s, p) in inn.iter().enumerate() {
                if s as u32 != me && len(s as u32, me) > 0 {
                    bad += (*p != Payload::bytes(&vec![s as u8; len(s as u32, me)])) as u32 as f64;
                }
            }
            r.barrier().await;
            r.barrier_hierarchical(3).await;
            f.set(&format!("bad{me}"), bad);
        });
        let all = f.all();
        assert_eq!(all.len(), ranks, "{topo}: every rank finished");
        assert!(all.values().all(|&b| b == 0.0), "{topo}: {all:?}");
        assert_eq!(rep.messages_sent, rep.messages_received, "{topo}");
        assert_eq!(rep.messages_unreceived, 0, "{topo}");
        assert!(rep.packets > 0, "{topo}");
    }
}

#[test]
fn barriers_hold_every_rank_until_the_last_arrives() {
    for hier in [false, true] {
        let c = cfg("torus:4x4", "ecube");
        let (_, f) = run_checked(&c, 16, move |r, f| async move {
            // rank 5 is late by 20,000 cycles; nobody may leave before it arrives
            if r.rank() == 5 {
                r.consume_cycles(20_000).await;
            }
            let t = r.cycle().await;
            if hier {
                r.barrier_hierarchical(4).await;
            } else {
                r.barrier().await;
            }
            let out = r.cycle().await;
            f.set(&format!("in{}", r.rank()), t as f64);
            f.set(&format!("out{}", r.rank()), out as f64);
        });
        let late = f.get("in5").unwrap();
        for k in 0..16 {
            let out = f.get(&format!("out{k}")).unwrap();
            assert!(
                out > late,
                "hierarchical {hier}: rank {k} left at {out}, rank 5 came at {late}"
            );
        }
    }
}

#[test]
fn matching_over_the_network_keeps_pair_order_and_honours_wildcards_and_probe() {
    // star-channel is adaptive: packets of a pair may overtake one another in the network
    let c = cfg("torus:4x4", "star-channel");
    let (rep, f) = run_checked(&c, 16, |r, f| async move {
        let me = r.rank();
        if me != 0 && me != 10 {
            return;
        }
        if me == 10 {
            // 30 messages, alternating eager (1 KB) and rendezvous (8 KB), three tags; sent
            // without waiting (a blocking rendezvous send of tag 0 would wait for rank 0, which
            // receives tag 1 first: a deadlock, which the run would report)
            let mut qs = Vec::new();
            for k in 0..30u32 {
                let len = if k.is_multiple_of(2) { 1000 } else { 8000 };
                let body: Vec<u8> = (0..len).map(|i| (k as usize + i) as u8).collect();
                qs.push(r.isend(0, (k % 3) as i32, Payload::bytes(&body)).await);
            }
            r.waitall(&qs).await;
            return;
        }
        // tag 1 first (k = 1, 4, 7, ...), then the rest with wildcards, after a probe
        let mut bad = 0.0;
        let mut next = 1u32;
        for _ in 0..10 {
            let s = r.recv_tag(1).await;
            let len = if next.is_multiple_of(2) { 1000 } else { 8000 };
            let want: Vec<u8> = (0..len).map(|i| (next as usize + i) as u8).collect();
            bad += (s.data.as_deref() != Some(&want[..]) || s.src != 10) as u32 as f64;
            next += 3;
        }
        let p = r.probe().await;
        bad += (p.tag != 0 || p.len != 1000) as u32 as f64;
        for k in (0..30u32).filter(|k| k % 3 != 1) {
            let s = r.recv().await;
            let len = if k.is_multiple_of(2) { 1000 } else { 8000 };
            let want: Vec<u8> = (0..len).map(|i| (k as usize + i) as u8).collect();
            bad += (s.data.as_deref() != Some(&want[..]) || s.tag != (k % 3) as i32) as u32 as f64;
        }
        f.set("bad", bad);
    });
    assert_eq!(f.get("bad"), Some(0.0));
    assert_eq!(rep.messages_received, 30);
}

#[test]
fn same_seed_same_results_for_any_partitioning_or_threads_and_another_seed_differs() {
    let run_with = |seed: u64, partitions: u32, threads: u32| {
        let mut c = cfg("torus:4x4", "star-channel");
        c.sim.seed = seed;
        c.net.partitions = partitions;
        c.net.threads = threads;
        let (p, f, _) = Example::Halo.program(Params {
            bytes: 700,
            iterations: 3,
        });
        let place = exanet::app::mapping::Mapping::Random { seed }
            .place(32, 16)
            .unwrap();
        let rep = run(&c, place, p, &Progress::hidden()).unwrap();
        (rep.cycles, rep.finished, rep.packets, f.all())
    };
    let a = run_with(7, 1, 1);
    for (parts, threads) in [(3, 1), (16, 1), (2, 2), (3, 3), (5, 4), (16, 7)] {
        assert_eq!(
            a,
            run_with(7, parts, threads),
            "{parts} partitions, {threads} threads"
        );
    }
    assert_ne!(
        a.0,
        run_with(8, 1, 1).0,
        "another mapping seed, another run time"
    );
}

/// Issue 31 §2: a rank that waits forever because a wildcard receive took the message it
/// waits for is told so: which receive took which message, and when.
#[test]
fn a_deadlock_names_the_wildcard_receive_that_took_the_message() {
    let c = cfg("torus:2x2", "ecube");
    let p = program(|r: Rank| async move {
        match r.rank() {
            1 => {
                // the wildcard takes rank 2's message; the receive from 2 then waits forever
                let s = r.recv_match(None, Some(7)).await;
                assert_eq!(s.src, 2);
                r.recv_match(Some(2), Some(7)).await;
            }
            2 => r.send(1, 7, Payload::Size(48)).await,
            _ => {}
        }
    });
    let e = run(&c, vec![0, 1, 2, 3], p, &Progress::hidden()).unwrap_err();
    let RunError::Deadlock {
        waiting, wildcards, ..
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(waiting.len(), 1, "{e}");
    assert_eq!(wildcards.len(), 1, "{e}");
    let (rank, takes, full) = &wildcards[0];
    assert_eq!((*rank, takes.len(), *full), (1, 1, false), "{e}");
    let w = takes[0];
    assert_eq!(
        (w.src, w.tag, w.msg_src, w.msg_tag, w.bytes),
        (None, Some(7), 2, 7, 48)
    );
    assert!(w.posted <= w.taken, "{w:?}");
    let text = e.to_string();
    assert!(text.contains("1 rank waits for a message"), "{text}");
    assert!(
        text.contains(&format!(
            "a wildcard receive took a message it waits for: the receive (source any, tag 7) \
             posted at cycle {} took rank 2's message (tag 7, 48 bytes) at cycle {}",
            w.posted, w.taken
        )),
        "{text}"
    );
}

#[test]
fn a_receive_nobody_sends_is_a_deadlock_naming_the_waiting_ranks() {
    let c = cfg("torus:2x2", "ecube");
    let p = program(|r: Rank| async move {
        match r.rank() {
            1 => {
                r.recv_match(Some(2), Some(9)).await;
            }
            2 => {
                r.recv().await;
            }
            3 => {
                // a message rank 1 does not take (another tag): in its queue, not "nobody sent"
                r.send(1, 5, Payload::Size(16)).await;
                r.barrier().await
            }
            _ => r.barrier().await,
        }
    });
    let e = run(&c, vec![0, 1, 2, 3], p, &Progress::hidden()).unwrap_err();
    let RunError::Deadlock {
        waiting,
        cycle,
        stopped,
        ..
    } = &e
    else {
        panic!("{e:?}")
    };
    // issue 31 §2: the cycle the ranks stopped, not the check that found it
    assert!(stopped < cycle && *stopped > 0, "{e}");
    let ranks: Vec<u32> = waiting.iter().map(|w| w.0).collect();
    assert_eq!(ranks, [0, 1, 2, 3], "{e}");
    let text = e.to_string();
    assert!(
        text.contains("rank 1 waits for a receive from 2 tag 9"),
        "{text}"
    );
    assert!(
        text.contains("rank 2 waits for a receive from any tag any"),
        "{text}"
    );
    assert!(text.contains("4 ranks wait for a message"), "{text}");
    // no wildcard took anything here
    assert!(!text.contains("wildcard receive took"), "{text}");
    assert!(
        text.contains("unreceived in its queue: from rank 3 tag 5 (16 bytes)"),
        "{text}"
    );
    assert!(!text.contains("nobody"), "{text}");
}

#[test]
fn the_command_line_runs_each_example_and_refuses_bad_input() {
    for ex in ["pingpong", "ring", "halo", "alltoall"] {
        let v = exanet_json(&[
            "app",
            "run",
            ex,
            "--topology",
            "torus:3x3",
            "--iterations",
            "2",
            "--json",
        ]);
        assert!(v["cycles"].as_u64().unwrap() > 0, "{ex}: {v}");
        assert_eq!(v["messages_sent"], v["messages_received"], "{ex}");
        assert!(v["run"]["config"]["app"].is_object(), "{ex}");
    }
    let dir = std::env::temp_dir().join(format!("exanet-app-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.map");
    std::fs::write(&bad, "0\n-1\n").unwrap();
    let map = format!("file:{}", bad.display());
    for (args, want) in [
        (vec!["--mapping", map.as_str()], "bad.map:2"),
        (vec!["--mapping", "nowhere"], "nowhere"),
        (vec!["--ranks", "1"], "--ranks 1"),
        (vec!["--iterations", "0"], "--iterations"),
        (vec!["--topology", "torus:0x2"], "topology"),
    ] {
        let mut a = vec!["app", "run", "pingpong"];
        a.extend(args);
        let o = exanet(&a);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{a:?}: {err}");
        assert!(err.contains(want), "{a:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn many_ranks_fit_and_a_rank_costs_little() {
    // 4,096 ranks, 256 a node: a hierarchical barrier, most of it through memory
    let c = cfg("torus:4x4", "ecube");
    let count = Arc::new(Mutex::new(0u32));
    let k = count.clone();
    let p = program(move |r: Rank| {
        let k = k.clone();
        async move {
            r.barrier_hierarchical(256).await;
            *k.lock().unwrap() += 1;
        }
    });
    let rep = run(&c, linear(4096, 16), p, &Progress::hidden()).unwrap();
    assert_eq!(*count.lock().unwrap(), 4096);
    assert_eq!(rep.ranks, 4096);
    // only the local roots' messages cross the network: 15 up and 15 down
    assert_eq!(rep.packets, 30);
}

/// A generated trace written to a file and read back gives the same run; the run's messages are
/// exactly the DPSNN states' (per iteration: the barrier's 2 (n - 1), n (n - 1) counts, one
/// message per pair with spikes).
#[test]
fn dpsnn_runs_the_same_from_its_trace_file_and_sends_what_its_states_say() {
    let dir = std::env::temp_dir().join(format!("exanet-dpsnn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tf = dir.join("t.trace");
    let base = [
        "app",
        "dpsnn",
        "--topology",
        "torus:4x4",
        "--calc-ns-per-spike",
        "20",
        "--json",
    ];
    let mut a = base.to_vec();
    let tfs = tf.to_str().unwrap();
    a.extend([
        "--columns",
        "8x8",
        "--per-process",
        "4",
        "--iterations",
        "3",
        "--rate-hz",
        "20",
        "--write-trace",
        tfs,
    ]);
    let (csv, svg) = (dir.join("p.csv"), dir.join("l.svg"));
    let (csvs, svgs) = (csv.to_str().unwrap(), svg.to_str().unwrap());
    a.extend(["--csv", csvs, "--plot", svgs]);
    let gen = exanet_json(&a);
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(
        rows.starts_with(
            "rank,calc_cycles,barrier_cycles,counts_cycles,spikes_cycles,send_receive_cycles\n"
        ),
        "{rows}"
    );
    assert_eq!(rows.lines().count(), 17, "a header and a row a rank");
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(
        plot.contains("<polyline") && plot.contains("latency (cycles)"),
        "{plot}"
    );
    let mut b = base.to_vec();
    b.extend(["--trace", tfs]);
    let read = exanet_json(&b);
    for k in [
        "cycles",
        "messages_sent",
        "packets",
        "send_receive_mean_cycles",
        "spikes",
    ] {
        assert_eq!(gen[k], read[k], "{k}");
    }
    let text = std::fs::read_to_string(&tf).unwrap();
    let t = exanet::app::dpsnn::trace::SpikeTrace::parse("t", &text).unwrap();
    let n = t.processes as u64;
    assert_eq!(n, 16);
    let pairs: u64 = (0..t.iterations())
        .map(|it| {
            let mut k = 0;
            for s in 0..t.processes {
                for d in 0..t.processes {
                    k += (s != d && t.counts[it][s][d] > 0) as u64;
                }
            }
            k
        })
        .sum();
    let want = t.iterations() as u64 * (2 * (n - 1) + n * (n - 1)) + pairs;
    assert_eq!(gen["messages_sent"].as_u64(), Some(want));
    assert!(pairs > 0, "the trace sends spikes between processes");
    // the profile covers every rank and the states add up to at most the run
    let prof = gen["ranks_profile"].as_array().unwrap();
    assert_eq!(prof.len(), 16);
    for p in prof {
        let sum: u64 = [
            "calc_cycles",
            "barrier_cycles",
            "counts_cycles",
            "spikes_cycles",
        ]
        .iter()
        .map(|k| p[k].as_u64().unwrap())
        .sum();
        assert!(sum <= gen["cycles"].as_u64().unwrap(), "{p}");
    }
    assert!(!gen["latency"].as_array().unwrap().is_empty());
    // a bad trace names its file and line
    let bad = dir.join("bad.trace");
    std::fs::write(&bad, text.replacen("iteration 1", "iteration 7", 1)).unwrap();
    let mut c = base.to_vec();
    let bads = bad.to_str().unwrap();
    c.extend(["--trace", bads]);
    let o = exanet(&c);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("bad.trace:"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
