//! The co-simulation server (issue 12 §3, Minkenberg and Rodriguez 2008 §4.1): clients replay traces through
//! `exanet network serve`'s protocol and get exactly what the in-process replay gets; clients
//! that break the protocol get an error, and the server neither hangs nor panics. Everything on
//! the loopback interface, with time-outs of seconds.

mod common;

use exanet::app::record::{collect, Timeline};
use exanet::app::replay::{program::resolved as replay_program, program::Times, simgrid};
use exanet::app::run::{self, drive, prepare_recorded};
use exanet::config::Config;
use exanet::net::packet_log::{PacketLog, PacketRecord, PacketSink};
use exanet::progress::Progress;
use exanet::serve::{client, server};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(20);
/// The sessions' token (`exanet network serve` draws one a session).
const TOKEN: &str = "5e55107ab1e";

fn cfg(topology: &str) -> Config {
    let mut c = Config::default();
    c.net.topology = topology.parse().unwrap();
    c.net.routing = "ecube".parse().unwrap();
    c
}

fn trace(name: &str) -> Arc<simgrid::TiTrace> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/simgrid");
    let f = match name {
        "ring" => p.join("ring/ti.txt"),
        _ => p.join("colls/colls.txt"),
    };
    Arc::new(simgrid::load(&f).unwrap())
}

fn linear(ranks: usize, endpoints: usize) -> Vec<usize> {
    exanet::app::mapping::Mapping::Linear
        .place(ranks, endpoints)
        .unwrap()
}

/// A session: the server on a thread, `clients` clients (rank sets) on threads; what each
/// client got and the server's outcome.
fn session(
    c: &Config,
    t: &Arc<simgrid::TiTrace>,
    placement: Vec<usize>,
    clients: Vec<Vec<u32>>,
) -> (Vec<client::ClientRun>, server::Outcome) {
    let o = server::Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        clients: clients.len(),
        placement: placement.clone(),
        timeout: TIMEOUT,
        token: TOKEN.into(),
    };
    let l = server::bind(&o).unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let sc = c.clone();
    let srv = std::thread::spawn(move || server::serve(&sc, &o, l));
    let endpoints = run::network(c).unwrap().topo.endpoints();
    let hs: Vec<_> = clients
        .into_iter()
        .map(|mine| {
            let prog = replay_program(t.clone(), 20000.0, Times::default()).unwrap();
            let mut sh = run::shared(c, placement.clone(), endpoints, prog).unwrap();
            sh.record = true;
            let shared = Arc::new(sh);
            let addr = addr.clone();
            std::thread::spawn(move || client::run(&addr, shared, &mine, TOKEN, TIMEOUT))
        })
        .collect();
    let runs = hs.into_iter().map(|h| h.join().unwrap().unwrap()).collect();
    (runs, srv.join().unwrap().unwrap())
}

/// A delivered packet: (source endpoint, destination endpoint, payload bytes, cycle delivered).
type Packet = (usize, usize, u64, u64);

/// Delivered packets of an in-process run.
#[derive(Clone, Default)]
struct Delivered(Arc<Mutex<Vec<Packet>>>);

impl PacketSink for Delivered {
    fn record(&mut self, r: &PacketRecord) {
        let mut v = self.0.lock().unwrap();
        v.push((
            r.src.expect("a lossless run names every source"),
            r.dst,
            r.size as u64,
            r.delivered,
        ));
    }
    fn finish(&mut self) -> Result<(), String> {
        Ok(())
    }
}

/// The in-process replay: every rank's finishing cycle, every packet's delivery (sorted), and
/// the timeline (every message's times, every rank's states).
fn in_process(
    c: &Config,
    t: &Arc<simgrid::TiTrace>,
    placement: Vec<usize>,
) -> (Vec<u64>, Vec<Packet>, Timeline) {
    let prog = replay_program(t.clone(), 20000.0, Times::default()).unwrap();
    let mut net = prepare_recorded(c, placement, prog, 0).unwrap();
    let d = Delivered::default();
    net.log_packets(PacketLog::new(Box::new(d.clone())));
    let (rep, _) = drive(c, &mut net, &Progress::hidden()).unwrap();
    let mut v = d.0.lock().unwrap().clone();
    v.sort_unstable();
    (rep.finished, v, run::timeline(c, &net).unwrap())
}

/// The timeline the clients' ranks recorded, together.
fn client_timeline(c: &Config, runs: &[client::ClientRun]) -> Timeline {
    let parts = runs
        .iter()
        .flat_map(|r| &r.endpoints)
        .map(|e| e.recorded().expect("the clients record"));
    let mut t = collect(parts, c.clock.freq_mhz);
    t.ranks.sort_by_key(|r| r.rank);
    t
}

fn sorted(mut t: Timeline) -> Timeline {
    t.ranks.sort_by_key(|r| r.rank);
    t
}

/// Every COMPLETED SEND the clients were told of, as the in-process packet log has it.
fn completions(runs: &[client::ClientRun], placement: &[usize]) -> Vec<Packet> {
    let mut v: Vec<_> = runs
        .iter()
        .flat_map(|r| &r.completed)
        .map(|&(s, d, bytes, at)| (placement[s as usize], placement[d as usize], bytes + 16, at))
        .collect();
    v.sort_unstable();
    v
}

fn finished(runs: &[client::ClientRun], start: u64, ranks: usize) -> Vec<u64> {
    let mut f = vec![u64::MAX; ranks];
    for r in runs {
        for e in &r.endpoints {
            for (rank, at) in e.finished() {
                f[rank as usize] = at.expect("every rank finished") - start;
            }
        }
    }
    f
}

#[test]
fn a_trace_replayed_through_the_server_finishes_as_in_process() {
    let c = cfg("torus:4x4");
    let start = c.link.phy.lane_up_cycles as u64;
    for name in ["ring", "colls"] {
        let t = trace(name);
        let n = t.size();
        let placement = linear(n, 16);
        let (want, packets, tl) = in_process(&c, &t, placement.clone());
        let tl = sorted(tl);
        assert!(packets.len() > n, "{name}: {} packets", packets.len());
        assert!(
            tl.messages.len() >= n,
            "{name}: {} messages",
            tl.messages.len()
        );
        let all: Vec<u32> = (0..n as u32).collect();
        let (runs, out) = session(&c, &t, placement.clone(), vec![all]);
        assert!(!out.deadlock && !runs[0].deadlock, "{name}");
        assert_eq!(out.packets, packets.len() as u64, "{name}");
        // every message completes at the cycle it does in process, every rank finishes then
        assert_eq!(
            completions(&runs, &placement),
            packets,
            "{name}: one client"
        );
        assert_eq!(finished(&runs, start, n), want, "{name}: one client");
        // and so every message's times (posted, started, arrived, delivered) and every rank's
        // states are the in-process run's
        assert_eq!(client_timeline(&c, &runs), tl, "{name}: one client");
        // two clients, each owning half the ranks
        let (a, b): (Vec<u32>, Vec<u32>) = (0..n as u32).partition(|r| (*r as usize) < n / 2);
        let (runs, out) = session(&c, &t, placement.clone(), vec![a, b]);
        assert_eq!(out.clients, 2);
        assert_eq!(
            completions(&runs, &placement),
            packets,
            "{name}: two clients"
        );
        assert_eq!(finished(&runs, start, n), want, "{name}: two clients");
        assert_eq!(client_timeline(&c, &runs), tl, "{name}: two clients");
    }
}

/// A raw client: the greeting read, HELLO sent; the lines it then reads until the server
/// closes.
fn raw(addr: &str, hello: &str, then: &[&str]) -> Vec<String> {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(TIMEOUT)).unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut w = s;
    let mut l = String::new();
    r.read_line(&mut l).unwrap();
    assert!(l.starts_with("EXANET-SERVE 1 "), "{l}");
    writeln!(w, "{hello}").unwrap();
    let mut got = Vec::new();
    let mut k = 0;
    loop {
        let mut l = String::new();
        if r.read_line(&mut l).unwrap_or(0) == 0 {
            return got;
        }
        let l = l.trim_end().to_string();
        if l.starts_with("AT ") && k < then.len() {
            for x in then[k].split('|') {
                if x == "CLOSE" {
                    return got;
                }
                writeln!(w, "{x}").unwrap();
            }
            k += 1;
        }
        got.push(l);
    }
}

/// A server for 2 ranks on a 2x2 mesh, its address, and its thread.
fn small_server(
    timeout: Duration,
) -> (
    String,
    std::thread::JoinHandle<Result<server::Outcome, String>>,
) {
    let c = cfg("mesh:2x2");
    let o = server::Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        clients: 1,
        placement: vec![0, 3],
        timeout,
        token: TOKEN.into(),
    };
    let l = server::bind(&o).unwrap();
    let addr = l.local_addr().unwrap().to_string();
    (addr, std::thread::spawn(move || server::serve(&c, &o, l)))
}

#[test]
fn a_raw_client_gets_its_message_delivered_and_the_session_ends() {
    let (addr, h) = small_server(TIMEOUT);
    let start = Config::default().link.phy.lane_up_cycles as u64;
    // endpoint 0 (rank 0) sends 1000 bytes to rank 1 at the start; endpoint 3 waits
    // a stranger first: a wrong token, then none; each refused alone, the session waits on
    let stranger = raw(&addr, "HELLO 0-1 guess", &[]);
    assert!(stranger[0].contains("wrong session token"), "{stranger:?}");
    let stranger = raw(&addr, "HELLO 0-1", &[]);
    assert!(
        stranger[0].contains("without the session's token"),
        "{stranger:?}"
    );
    let got = raw(
        &addr,
        &format!("HELLO 0-1 {TOKEN}"),
        &[
            &format!("SEND 5 0 1 1000 7 {start} abcd|STOP never"),
            "STOP never",
            "STOP never",
            "DONE",
        ],
    );
    let out = h.join().unwrap().unwrap();
    assert_eq!(out.messages, 1);
    // 1000 bytes in packets of at most 496 after the envelope
    assert_eq!(out.packets, 3);
    let left = got.iter().find(|l| l.starts_with("LEFT 5 ")).expect("LEFT");
    let done = got
        .iter()
        .find(|l| l.starts_with("COMPLETED SEND 5 0 1 1000 7 "))
        .expect("COMPLETED SEND");
    let t_left: u64 = left.split(' ').nth(2).unwrap().parse().unwrap();
    let t_done: u64 = done.split(' ').nth(7).unwrap().parse().unwrap();
    assert!(done.ends_with(" abcd"), "the opaque bytes travel: {done}");
    assert!(start < t_left && t_left < t_done, "{got:?}");
    // the session ended with the arrival (the last event), not at the end of a run step
    // (the client answers the arrival with STOP never, not DONE: nothing can happen any more)
    assert_eq!(
        got.last().unwrap(),
        &format!("END {t_done} deadlock"),
        "{got:?}"
    );
    assert_eq!(out.end_cycle, t_done);
    assert!(out.simulated_cycles >= t_done);
}

#[test]
fn a_send_of_ten_gigabytes_is_queued_as_the_nic_takes_its_packets() {
    // 10^10 bytes are 20 million packets: cut at once they took gigabytes before the first
    // answer (issue 29); cut as the NIC's writer takes them, the session goes on at once
    let (addr, h) = small_server(TIMEOUT);
    let start = Config::default().link.phy.lane_up_cycles as u64;
    let t0 = std::time::Instant::now();
    let got = raw(
        &addr,
        &format!("HELLO 0-1 {TOKEN}"),
        &[
            &format!("SEND 5 0 1 10000000000 7 {start} ab|STOP {}", start + 3000),
            &format!("STOP {}", start + 3001),
            "CLOSE",
        ],
    );
    let e = h.join().unwrap().unwrap_err();
    assert!(e.contains("disconnected"), "{e}");
    let at = format!("AT {} ", start + 3000);
    assert!(got.iter().any(|l| l.starts_with(&at)), "{got:?}");
    assert!(!got.iter().any(|l| l.starts_with("LEFT 5")), "{got:?}");
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
}

#[test]
fn a_client_breaking_the_protocol_gets_an_error_and_the_server_stops() {
    let start = Config::default().link.phy.lane_up_cycles as u64;
    for (then, want) in [
        (
            vec!["SEND 1 0 1 8 0 3|STOP never".to_string()],
            "in the past",
        ),
        (vec!["SEND x".into()], "message id 'x'"),
        (vec![format!("SEND 1 1 0 8 0 {start}")], "is on endpoint 3"),
        (vec![format!("SEND 1 0 9 8 0 {start}")], "out of range"),
        (vec!["FLY".into()], "unknown command 'FLY'"),
        (vec!["CLOSE".into()], "disconnected"),
        // bounds (issue 29): a STOP or SEND beyond the session's last cycle, an id twice in
        // flight, a line longer than any of the protocol, a long token quoted short
        (
            vec!["STOP 18446744073709551615".into()],
            "beyond the session's last cycle",
        ),
        (
            vec![format!("SEND 1 0 1 8 0 {}", u64::MAX)],
            "beyond the session's last cycle",
        ),
        (
            vec![format!("SEND 1 0 1 8 0 {start}|SEND 1 0 1 8 0 {start}")],
            "message id 1 is already in flight",
        ),
        (
            vec![format!("SEND 1 0 1 8 0 {start} {}", "ab".repeat(9000))],
            "longer than 16384 bytes",
        ),
        (
            vec![format!("SEND {} 0 1 8 0 {start}", "9".repeat(5000))],
            "(5000 bytes)' is not a number",
        ),
    ] {
        let (addr, h) = small_server(TIMEOUT);
        let then: Vec<&str> = then.iter().map(|s| s.as_str()).collect();
        let got = raw(&addr, &format!("HELLO 0-1 {TOKEN}"), &then);
        let e = h.join().unwrap().unwrap_err();
        assert!(e.contains(want), "{then:?}: {e}");
        if then[0] != "CLOSE" {
            let last = got.last().unwrap();
            assert!(last.starts_with("ERROR ") && last.contains(want), "{got:?}");
        }
    }
    // a silent client: the time-out ends the session
    let (addr, h) = small_server(Duration::from_millis(300));
    let s = TcpStream::connect(&addr).unwrap();
    let e = h.join().unwrap().unwrap_err();
    assert!(e.contains("within 0.3 s"), "{e}");
    drop(s);
    // a client trickling a line a byte at a time: the line's deadline, not each read's
    let (addr, h) = small_server(Duration::from_millis(400));
    let mut s = TcpStream::connect(&addr).unwrap();
    let t0 = std::time::Instant::now();
    for b in b"HELLO 0-1".iter().cycle().take(40) {
        if s.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        if h.is_finished() {
            break;
        }
    }
    let e = h.join().unwrap().unwrap_err();
    assert!(e.contains("within 0.4 s"), "{e}");
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    drop(s);
    // a HELLO whose ranges would expand to billions of ranks: refused before expanding (the
    // connection alone; the session ends when no client came in time)
    let (addr, h) = small_server(Duration::from_millis(500));
    let huge = vec!["0-1048575"; 1000].join(",");
    let got = raw(&addr, &format!("HELLO {huge} {TOKEN}"), &[]);
    let e = h.join().unwrap().unwrap_err();
    assert!(e.contains("number more than 1048576"), "{e}");
    assert!(got[0].len() < 300, "{got:?}");
    // a HELLO that leaves a rank without a client
    let (addr, h) = small_server(TIMEOUT);
    let got = raw(&addr, &format!("HELLO 0 {TOKEN}"), &[]);
    let e = h.join().unwrap().unwrap_err();
    assert!(e.contains("rank 1 is owned by no client"), "{e}");
    assert!(got[0].starts_with("ERROR "), "{got:?}");
}

#[test]
fn the_server_listens_on_loopback_only() {
    let o = server::Options {
        listen: "0.0.0.0:0".parse().unwrap(),
        clients: 1,
        placement: vec![0],
        timeout: TIMEOUT,
        token: TOKEN.into(),
    };
    assert!(server::bind(&o).unwrap_err().contains("loopback"));
}

#[test]
fn exanet_network_serve_serves_a_replay_and_reports_it() {
    let c = cfg("torus:4x4");
    let t = trace("ring");
    let n = t.size();
    let placement = linear(n, 16);
    let (want, packets, _) = in_process(&c, &t, placement.clone());
    let dir = std::env::temp_dir().join(format!("exanet-serve-token-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let token_file = dir.join("token");
    let ranks = n.to_string();
    let (p, mut err, addr) = common::spawn_serve(
        &[
            "--json",
            "--topology",
            "torus:4x4",
            "--routing",
            "ecube",
            "--ranks",
            &ranks,
            "--timeout-s",
            "20",
        ],
        &token_file,
    );
    let prog = replay_program(t.clone(), 20000.0, Times::default()).unwrap();
    let shared = Arc::new(run::shared(&c, placement.clone(), 16, prog).unwrap());
    let all: Vec<u32> = (0..n as u32).collect();
    // the token: in the file, readable by its owner only, and not printed
    let mut l = String::new();
    err.read_line(&mut l).unwrap();
    assert!(l.starts_with("session token in "), "{l}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&token_file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    let token = std::fs::read_to_string(&token_file).unwrap();
    let token = token.trim();
    assert_eq!(token.len(), 32, "{token}");
    let r = client::run(&addr, shared, &all, token, TIMEOUT).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let out = p.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let res = &v;
    assert_eq!(res["packets"], packets.len() as u64, "{v}");
    assert_eq!(res["deadlock"], false);
    let runs = [r];
    assert_eq!(completions(&runs, &placement), packets);
    let start = c.link.phy.lane_up_cycles as u64;
    assert_eq!(finished(&runs, start, n), want);
    // the session ends when its last rank finishes (its last message arrives), in END and JSON
    let last = start + want.iter().max().unwrap();
    assert_eq!(runs[0].end_cycle, last);
    assert_eq!(res["end_cycle"], last, "{v}");
}

#[test]
fn a_session_where_nothing_can_happen_ends_as_a_deadlock() {
    let (addr, h) = small_server(TIMEOUT);
    // both endpoints answer "nothing until told", and nothing is in flight
    let got = raw(
        &addr,
        &format!("HELLO 0-1 {TOKEN}"),
        &["STOP never", "STOP never"],
    );
    let out = h.join().unwrap().unwrap();
    assert!(out.deadlock);
    assert_eq!(out.messages, 0);
    // nothing happened after the start
    assert_eq!(
        out.end_cycle,
        Config::default().link.phy.lane_up_cycles as u64
    );
    assert!(got.last().unwrap().ends_with(" deadlock"), "{got:?}");
}
