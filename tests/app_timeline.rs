//! The ranks' timeline end to end (Minkenberg and Rodriguez 2008 §3.2, §4.2 and Table 1; docs/decisions/0021):
//! programs run recorded and unrecorded, their timelines written as Paraver and Perfetto
//! traces and parsed back (the Paraver reader; serde_json), and checked: each rank's states
//! tile its time from start to finish, every communication record is a delivered message of
//! the run's report, the `.pcf` names every state and event value the `.prv` uses, and the
//! recording changes nothing the run reports.

mod common;

use common::exanet;
use exanet::app::api::{program, Payload, Program};
use exanet::app::collectives::Op;
use exanet::app::programs::{Example, Params};
use exanet::app::record::{Activity, MessageRecord, Timeline};
use exanet::app::replay::program::{resolved as replay, Times};
use exanet::app::replay::simgrid::load;
use exanet::app::run::{run_recorded, run_with, Report};
use exanet::config::Config;
use exanet::progress::Progress;
use exanet::timeline::paraver::{self, TimeUnit};
use exanet::timeline::ranks;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn cfg(topology: &str, routing: &str) -> Config {
    let mut c = Config::default();
    c.net.topology = topology.parse().unwrap();
    c.net.routing = routing.parse().unwrap();
    c
}

fn linear(ranks: usize, endpoints: usize) -> Vec<usize> {
    (0..ranks).map(|r| r * endpoints / ranks).collect()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("exanet-timeline-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run `prog` recorded and unrecorded; the recorded run's report and timeline, after checking
/// that the two reports (and latency bins) are the same.
fn run_both(
    c: &Config,
    placement: Vec<usize>,
    prog: impl Fn() -> Arc<dyn Program>,
) -> (Report, Timeline) {
    let h = Progress::hidden();
    let (a, abins) = run_with(c, placement.clone(), prog(), &h, 64).unwrap();
    let (b, bbins, t) = run_recorded(c, placement, prog(), &h, 64).unwrap();
    assert_eq!(
        serde_json::to_value(&a).unwrap(),
        serde_json::to_value(&b).unwrap(),
        "recording changed the report"
    );
    assert_eq!(a.finished, b.finished, "recording changed a rank's finish");
    assert_eq!(abins, bbins, "recording changed the packets' latencies");
    (b, t)
}

/// The timeline against the run's report: spans tile each rank's [start, finish), one record
/// a received message, every record's times in order.
fn check_timeline(what: &str, t: &Timeline, rep: &Report) {
    assert_eq!(t.ranks.len() as u32, rep.ranks, "{what}");
    assert_eq!(t.start_cycle, rep.start_cycle, "{what}");
    assert_eq!(t.end_cycle, rep.start_cycle + rep.cycles, "{what}");
    for (r, rt) in t.ranks.iter().enumerate() {
        assert_eq!(rt.rank as usize, r, "{what}");
        assert_eq!(rt.start, rep.start_cycle, "{what}: rank {r}");
        assert_eq!(
            rt.finish,
            rep.start_cycle + rep.finished[r],
            "{what}: rank {r}"
        );
        let mut at = rt.start;
        for s in &rt.spans {
            assert_eq!(s.begin, at, "{what}: rank {r}: a gap or an overlap at {at}");
            assert!(s.end > s.begin, "{what}: rank {r}: an empty span at {at}");
            assert_eq!(
                s.collective.is_some(),
                s.activity == Activity::Collective,
                "{what}: rank {r}"
            );
            at = s.end;
        }
        assert_eq!(
            at, rt.finish,
            "{what}: rank {r}: the spans end before the finish"
        );
    }
    assert_eq!(t.messages.len() as u64, rep.messages_received, "{what}");
    let bytes: u64 = t.messages.iter().map(|m| m.bytes).sum();
    assert_eq!(bytes, rep.bytes_received, "{what}");
    if rep.messages_unreceived == 0 {
        assert_eq!(t.messages.len() as u64, rep.messages_sent, "{what}");
        let p2p: Vec<&MessageRecord> = t.messages.iter().filter(|m| !m.coll).collect();
        assert_eq!(p2p.len() as u64, rep.p2p_messages_sent, "{what}");
        assert_eq!(
            p2p.iter().map(|m| m.bytes).sum::<u64>(),
            rep.p2p_bytes_sent,
            "{what}"
        );
    }
    for m in &t.messages {
        assert!(
            m.send_posted <= m.send_started && m.send_started <= m.arrived,
            "{what}: {m:?}"
        );
        assert!(
            m.delivered >= m.arrived.max(m.recv_posted),
            "{what}: delivered before arrival or post: {m:?}"
        );
        assert!(
            m.send_posted >= t.ranks[m.src as usize].start,
            "{what}: {m:?}"
        );
        assert!(
            m.delivered <= t.ranks[m.dst as usize].finish,
            "{what}: {m:?}"
        );
        assert!(
            m.recv_posted >= t.ranks[m.dst as usize].start,
            "{what}: {m:?}"
        );
    }
}

/// Write both traces, read them back, check them against the timeline.
fn check_files(what: &str, t: &Timeline) {
    let dir = tmp(&what.replace([' ', ':', ',', '/', '.'], "_"));
    ranks::write_paraver(t, &dir).unwrap();
    let tr = paraver::read(&dir.join(ranks::STEM)).unwrap();
    check_paraver(what, t, &tr);
    let json = dir.join("ranks.json");
    exanet::timeline::perfetto::write(&ranks::perfetto(t), &json).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    check_perfetto(what, t, &v);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A communication record's fields: sender, logical and physical send, receiver, logical and
/// physical receive, size, tag.
type CommFields = (u32, u64, u64, u32, u64, u64, u64, i64);

/// A rank's slices: begin and end cycle, category.
type Slices = Vec<(u64, u64, String)>;

fn check_paraver(what: &str, t: &Timeline, tr: &paraver::Trace) {
    // the default clock's 6.4 ns cycle is not a whole number of ns: times are cycles
    assert_eq!(tr.unit, TimeUnit::Cycles { freq_mhz: 156.25 }, "{what}");
    assert_eq!(tr.end, t.end_cycle, "{what}");
    let tasks = &tr.appls[0].tasks;
    assert_eq!(tasks.len(), t.ranks.len(), "{what}");
    // states tile each rank's time
    let mut by_task: BTreeMap<u32, Vec<&paraver::State>> = BTreeMap::new();
    for s in &tr.states {
        assert!(
            tr.state_labels.contains_key(&s.state),
            "{what}: state {} has no name",
            s.state
        );
        by_task.entry(s.obj.task).or_default().push(s);
    }
    for r in &t.ranks {
        let task = &tasks[r.rank as usize];
        assert_eq!(task.name, format!("rank {}", r.rank), "{what}");
        let node = &tr.nodes[task.node as usize];
        assert_eq!(node.name, format!("endpoint {}", r.endpoint), "{what}");
        let mut v = by_task.remove(&r.rank).unwrap_or_default();
        v.sort_by_key(|s| s.begin);
        let mut at = r.start;
        for s in &v {
            assert_eq!(s.begin, at, "{what}: rank {}: gap or overlap", r.rank);
            at = s.end;
        }
        assert_eq!(at, r.finish, "{what}: rank {}", r.rank);
        let names: Vec<&str> = v
            .iter()
            .map(|s| tr.state_labels[&s.state].name.as_str())
            .collect();
        let want: Vec<&str> = r.spans.iter().map(|s| s.activity.name()).collect();
        assert_eq!(names, want, "{what}: rank {}", r.rank);
    }
    // every event's type and value named; a collective's start and end events
    let ncoll: usize = t
        .ranks
        .iter()
        .flat_map(|r| &r.spans)
        .filter(|s| s.collective.is_some())
        .count();
    let mut nev = 0;
    for e in &tr.events {
        for (ty, v) in &e.events {
            let et = tr
                .event_types
                .get(ty)
                .unwrap_or_else(|| panic!("{what}: type {ty} unnamed"));
            assert!(
                et.values.contains_key(v),
                "{what}: value {v} of {ty} unnamed"
            );
            nev += 1;
        }
    }
    assert_eq!(nev, 2 * ncoll, "{what}");
    // one communication record a delivered message, with its times
    let mut want: Vec<CommFields> = t
        .messages
        .iter()
        .map(|m| {
            (
                m.src,
                m.send_posted,
                m.send_started,
                m.dst,
                m.recv_posted,
                m.arrived,
                m.bytes,
                ranks::paraver_tag(m),
            )
        })
        .collect();
    let mut got: Vec<CommFields> = tr
        .comms
        .iter()
        .map(|c| {
            assert!(
                c.log_send <= c.phys_send && c.phys_send <= c.phys_recv,
                "{what}: {c:?}"
            );
            (
                c.send.task,
                c.log_send,
                c.phys_send,
                c.recv.task,
                c.log_recv,
                c.phys_recv,
                c.size,
                c.tag,
            )
        })
        .collect();
    want.sort();
    got.sort();
    assert_eq!(got, want, "{what}");
}

fn check_perfetto(what: &str, t: &Timeline, v: &serde_json::Value) {
    assert_eq!(v["displayTimeUnit"], "ns", "{what}");
    let ev = v["traceEvents"].as_array().expect("traceEvents");
    let cyc = |x: &serde_json::Value| -> u64 {
        let us = x.as_f64().expect("a number");
        let c = (us * t.freq_mhz).round();
        assert!(
            (us * t.freq_mhz - c).abs() < 1e-6,
            "{what}: {us} us is no cycle"
        );
        c as u64
    };
    let mut names = BTreeMap::new();
    let mut spans: BTreeMap<(u64, u64), Slices> = BTreeMap::new();
    let (mut starts, mut ends) = (BTreeMap::new(), BTreeMap::new());
    for e in ev {
        let pid = e["pid"].as_u64().expect("pid");
        match e["ph"].as_str().expect("ph") {
            "M" => {
                if e["name"] == "thread_name" {
                    names.insert(
                        (pid, e["tid"].as_u64().unwrap()),
                        e["args"]["name"].as_str().unwrap().to_string(),
                    );
                }
            }
            "X" => {
                let b = cyc(&e["ts"]);
                let d = cyc(&e["dur"]);
                spans
                    .entry((pid, e["tid"].as_u64().unwrap()))
                    .or_default()
                    .push((b, b + d, e["cat"].as_str().unwrap().to_string()));
            }
            "s" => {
                assert!(starts
                    .insert(e["id"].as_u64().unwrap(), e.clone())
                    .is_none());
            }
            "f" => {
                assert_eq!(e["bp"], "e", "{what}");
                assert!(ends.insert(e["id"].as_u64().unwrap(), e.clone()).is_none());
            }
            p => panic!("{what}: an event of phase {p}"),
        }
    }
    for r in &t.ranks {
        let key = (r.endpoint as u64 + 1, r.rank as u64 + 1);
        assert_eq!(names.get(&key), Some(&format!("rank {}", r.rank)), "{what}");
        let mut v = spans.remove(&key).unwrap_or_default();
        v.sort();
        let mut at = r.start;
        for (b, e, _) in &v {
            assert_eq!(*b, at, "{what}: rank {}: gap or overlap", r.rank);
            at = *e;
        }
        assert_eq!(at, r.finish, "{what}: rank {}", r.rank);
        let cats: Vec<&str> = v.iter().map(|x| x.2.as_str()).collect();
        let want: Vec<&str> = r.spans.iter().map(|s| s.activity.name()).collect();
        assert_eq!(cats, want, "{what}: rank {}", r.rank);
    }
    assert!(spans.is_empty(), "{what}: spans of no rank");
    assert_eq!(starts.len(), t.messages.len(), "{what}");
    assert_eq!(ends.len(), t.messages.len(), "{what}");
    for (k, m) in t.messages.iter().enumerate() {
        let (s, f) = (&starts[&(k as u64)], &ends[&(k as u64)]);
        assert_eq!(s["tid"].as_u64(), Some(m.src as u64 + 1), "{what}");
        assert_eq!(f["tid"].as_u64(), Some(m.dst as u64 + 1), "{what}");
        assert_eq!(cyc(&s["ts"]), m.send_posted, "{what}");
        assert_eq!(cyc(&f["ts"]), m.delivered, "{what}");
        assert_eq!(s["args"]["bytes"].as_u64(), Some(m.bytes), "{what}");
    }
}

fn example(e: Example, bytes: u64, iterations: u32) -> impl Fn() -> Arc<dyn Program> {
    move || e.program(Params { bytes, iterations }).0
}

/// A ping-pong: eager and rendezvous messages; rank 0 sends then receives, rank 1 the
/// reverse; the messages are the program's and their times chain.
#[test]
fn pingpong_eager_and_rendezvous() {
    let c = cfg("mesh:2x2", "ecube");
    for bytes in [16u64, 5000] {
        let what = format!("pingpong {bytes} B");
        let (rep, t) = run_both(&c, vec![0, 3], example(Example::Pingpong, bytes, 3));
        check_timeline(&what, &t, &rep);
        check_files(&what, &t);
        assert_eq!(t.messages.len(), 6, "{what}: 3 round trips");
        let acts: Vec<Activity> = t.ranks[0].spans.iter().map(|s| s.activity).collect();
        assert_eq!(
            acts,
            [Activity::Send, Activity::Receive].repeat(3),
            "{what}: rank 0"
        );
        // each message is received after it was sent, the next sent after the last delivered
        for w in t.messages.windows(2) {
            assert!(w[1].send_posted >= w[0].delivered, "{what}: {w:?}");
        }
        for m in &t.messages {
            assert!(
                m.arrived > m.send_started,
                "{what}: through the network: {m:?}"
            );
            assert!(
                m.recv_posted <= m.arrived,
                "{what}: the receive waits: {m:?}"
            );
            if bytes >= c.app.eager_threshold_bytes {
                // rendezvous: the data goes after the receiver's acknowledge
                assert!(m.send_started > m.recv_posted, "{what}: {m:?}");
            } else {
                let send_cycles = c.clock().cycles_for_ns(c.app.send_overhead_ns);
                assert_eq!(m.send_started, m.send_posted + send_cycles, "{what}: {m:?}");
            }
        }
    }
}

/// A ring on several ranks, two on each endpoint (messages through memory too): one message a
/// rank, the program's count.
#[test]
fn ring_with_ranks_sharing_endpoints() {
    let c = cfg("torus:2x2", "ecube");
    let (rep, t) = run_both(&c, linear(8, 4), example(Example::Ring, 100, 2));
    check_timeline("ring", &t, &rep);
    check_files("ring", &t);
    assert_eq!(t.messages.len(), 16, "8 ranks, 2 laps");
    let local = t
        .messages
        .iter()
        .filter(|m| t.ranks[m.src as usize].endpoint == t.ranks[m.dst as usize].endpoint)
        .count();
    assert_eq!(
        local, 8,
        "a message to the next rank, on the same endpoint half the time"
    );
}

/// An early message waits in the unexpected queue: its receive is posted after it arrived,
/// and it is delivered at the post.
#[test]
fn an_unexpected_message_is_delivered_at_its_receives_post() {
    let c = cfg("mesh:2x2", "ecube");
    let prog = || {
        program(|r| async move {
            if r.rank() == 0 {
                r.send(1, 9, Payload::Size(100)).await;
            } else {
                r.consume_cycles(5000).await;
                r.recv_from(0).await;
            }
        })
    };
    let (rep, t) = run_both(&c, vec![0, 1], prog);
    check_timeline("unexpected", &t, &rep);
    check_files("unexpected", &t);
    let m = t.messages[0];
    assert!(m.arrived < m.recv_posted, "{m:?}");
    assert_eq!(m.recv_posted, t.start_cycle + 5000, "{m:?}");
    assert_eq!(m.delivered, m.recv_posted, "{m:?}");
    assert_eq!((m.tag, m.bytes, m.coll), (9, 100, false));
    let acts: Vec<(Activity, u64)> = t.ranks[1]
        .spans
        .iter()
        .map(|s| (s.activity, s.end - s.begin))
        .collect();
    let recv_cycles = c.clock().cycles_for_ns(c.app.recv_overhead_ns);
    assert_eq!(
        acts,
        [(Activity::Compute, 5000), (Activity::Receive, recv_cycles)]
    );
}

/// Every collective, a user wait and computing: the collective state wins over the messages
/// inside it, two collectives in a row stay two, collectives' messages are tagged so.
#[test]
fn collectives_and_waits() {
    let c = cfg("torus:3x3", "star-channel");
    let prog = || {
        program(|r| async move {
            let (me, n) = (r.rank(), r.size());
            r.consume_cycles(100 * me as u64).await;
            r.bcast(n - 1, Payload::Size(1500)).await;
            r.allreduce(&[me as f64], Op::Sum).await;
            r.alltoall(vec![Payload::Size(8); n as usize]).await;
            let lens: Vec<u64> = (0..n).map(|s| ((s + me) % 3 * 100) as u64).collect();
            let out = (0..n)
                .map(|d| Payload::Size(((me + d) % 3 * 100) as u64))
                .collect();
            r.alltoallv(out, &lens).await;
            r.barrier().await;
            r.barrier_hierarchical(3).await;
            let q = r.isend((me + 1) % n, 4, Payload::Size(64)).await;
            let p = r.irecv(Some((me + n - 1) % n), Some(4)).await;
            r.waitall(&[q, p]).await;
        })
    };
    let (rep, t) = run_both(&c, linear(7, 9), prog);
    check_timeline("collectives", &t, &rep);
    check_files("collectives", &t);
    assert_eq!(rep.p2p_messages_sent, 7);
    for r in &t.ranks {
        let colls: Vec<&str> = r
            .spans
            .iter()
            .filter_map(|s| s.collective.map(|c| c.name()))
            .collect();
        assert_eq!(
            colls,
            [
                "bcast",
                "allreduce",
                "alltoall",
                "alltoallv",
                "barrier",
                "barrier_hierarchical"
            ],
            "rank {}",
            r.rank
        );
        let last: Vec<Activity> = r.spans.iter().rev().take(2).map(|s| s.activity).collect();
        assert_eq!(last, [Activity::Wait, Activity::Send], "rank {}", r.rank);
        if r.rank > 0 {
            assert_eq!(r.spans[0].activity, Activity::Compute);
            assert_eq!(r.spans[0].end - r.spans[0].begin, 100 * r.rank as u64);
        }
    }
    let tags: Vec<i64> = t
        .messages
        .iter()
        .filter(|m| m.coll)
        .map(ranks::paraver_tag)
        .collect();
    assert!(
        tags.iter().all(|&g| g < 0),
        "collectives' records carry negative tags"
    );
}

/// SimGrid traces of real MPI programs replayed (the fixtures of tests/data/simgrid): their
/// timelines, and their point-to-point messages the trace's.
#[test]
fn simgrid_replays() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/simgrid");
    for trace in ["ring/ti.txt", "colls/colls.txt"] {
        let tr = Arc::new(load(&data.join(trace)).unwrap());
        let (msgs, _) = exanet::app::replay::simgrid::totals(&tr);
        let n = tr.ranks.len();
        let c = cfg("mesh:2x2", "ecube");
        let prog = || replay(tr.clone(), 20000.0, Times::default()).unwrap();
        let (rep, t) = run_both(&c, linear(n, 4), prog);
        check_timeline(trace, &t, &rep);
        check_files(trace, &t);
        let p2p = t.messages.iter().filter(|m| !m.coll).count() as u64;
        assert_eq!(p2p, msgs, "{trace}: the trace's point-to-point messages");
    }
}

/// The command line: both options write traces the readers take; stdout is the same as without
/// them but for the network view's lines after it; paths that cannot be written are errors
/// naming the option.
#[test]
fn command_line_options_and_bad_paths() {
    let dir = tmp("cli");
    let (pv, pf) = (dir.join("pv"), dir.join("t.json"));
    let args = [
        "app",
        "run",
        "ring",
        "--topology",
        "mesh:2x2",
        "--iterations",
        "2",
    ];
    let plain = exanet(&args);
    assert!(plain.status.success());
    let mut with = args.to_vec();
    let (pvs, pfs) = (pv.display().to_string(), pf.display().to_string());
    with.extend(["--paraver", &pvs, "--perfetto", &pfs]);
    let o = exanet(&with);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // the run's lines are the same; the network view (docs/decisions/0022) adds its own after
    let (out, plain_out) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&plain.stdout),
    );
    let extra = out
        .strip_prefix(plain_out.as_ref())
        .unwrap_or_else(|| panic!("the options change what is printed:\n{out}\n{plain_out}"));
    assert!(extra.starts_with("  network view "), "{extra}");
    let tr = paraver::read(&pv.join("ranks")).unwrap();
    assert_eq!(tr.appls[0].tasks.len(), 4);
    assert_eq!(tr.comms.len(), 8, "4 ranks, 2 laps");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&pf).unwrap()).unwrap();
    assert!(v["traceEvents"].as_array().unwrap().len() > 8);
    for cmd in [
        vec![
            "app",
            "dpsnn",
            "--columns",
            "2x2",
            "--iterations",
            "2",
            "--topology",
            "mesh:2x2",
        ],
        vec![
            "app",
            "replay",
            "tests/data/simgrid/ring/ti.txt",
            "--topology",
            "mesh:2x2",
        ],
    ] {
        let d = dir.join(cmd[1]);
        let ds = d.display().to_string();
        let mut a = cmd.clone();
        a.extend(["--paraver", &ds]);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_exanet"))
            .args(&a)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{cmd:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        paraver::read(&d.join("ranks")).unwrap();
    }
    // bad paths: before the run (exit 2), or when the file cannot be made (exit 1)
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let fs = file.display().to_string();
    let under = format!("{fs}/sub");
    let missing = dir.join("no/such/dir/t.json").display().to_string();
    for (opt, path, code, want) in [
        ("--paraver", fs.as_str(), 2, "not a directory"),
        ("--paraver", "", 2, "a value is required"),
        ("--perfetto", missing.as_str(), 2, "does not exist"),
        ("--perfetto", "t.txt", 2, "ending in .json"),
        ("--paraver", under.as_str(), 1, "--paraver: "),
        ("--perfetto", fs.as_str(), 2, "ending in .json"),
    ] {
        let mut a = args.to_vec();
        a.extend([opt, path]);
        let o = exanet(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{opt} {path}: {err}");
        assert!(
            err.contains(opt) && err.contains(want),
            "{opt} {path}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A replayed trace names each collective by its MPI call on both timelines (issue 31 §3): an
/// `MPI_Allreduce` is an allreduce, though the replay carries it as a reduction and a
/// broadcast, an `MPI_Reduce_scatter` a reduce_scatter, an `MPI_Scan` a scan; one span and
/// one start event a call. (The trace of `tests/data/simgrid/colls/colls.c`: every collective
/// SimGrid traces, on 4 ranks.)
#[test]
fn a_replay_names_each_collective_by_its_mpi_call() {
    let dir = tmp("colls");
    let (pv, pf) = (dir.join("pv"), dir.join("t.json"));
    std::fs::create_dir_all(&pv).unwrap();
    let trace = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/simgrid/colls/colls.txt");
    let o = exanet(&[
        "app",
        "replay",
        trace.to_str().unwrap(),
        "--topology",
        "mesh:2x2",
        "--paraver",
        pv.to_str().unwrap(),
        "--perfetto",
        pf.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = [
        "bcast",
        "reduce",
        "reduce",
        "allreduce",
        "scatter",
        "gather",
        "allgather",
        "allgatherv",
        "gatherv",
        "scatterv",
        "alltoall",
        "alltoallv",
        "reduce_scatter",
        "scan",
        "barrier",
    ];
    // Paraver: each task's collective start events, named by the .pcf
    let tr = paraver::read(&pv.join("ranks")).unwrap();
    let names = &tr.event_types[&ranks::COLLECTIVE_EVENT].values;
    let mut got: BTreeMap<u32, Vec<(u64, &str)>> = BTreeMap::new();
    for e in &tr.events {
        for &(ty, v) in &e.events {
            if ty == ranks::COLLECTIVE_EVENT && v != 0 {
                got.entry(e.obj.task)
                    .or_default()
                    .push((e.time, names[&v].as_str()));
            }
        }
    }
    assert_eq!(got.len(), 4);
    for (task, mut v) in got {
        v.sort();
        let v: Vec<&str> = v.into_iter().map(|x| x.1).collect();
        assert_eq!(v, want, "Paraver, rank {task}");
    }
    // Perfetto: each rank's collective spans, in time order
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&pf).unwrap()).unwrap();
    let mut spans: BTreeMap<u64, Vec<(f64, String)>> = BTreeMap::new();
    for e in v["traceEvents"].as_array().unwrap() {
        if e["ph"] == "X" && e["cat"] == "Collective" {
            spans.entry(e["tid"].as_u64().unwrap()).or_default().push((
                e["ts"].as_f64().unwrap(),
                e["name"].as_str().unwrap().into(),
            ));
        }
    }
    assert_eq!(spans.len(), 4);
    for (tid, mut s) in spans {
        s.sort_by(|a, b| a.0.total_cmp(&b.0));
        let s: Vec<&str> = s.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(s, want, "Perfetto, thread {tid}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
