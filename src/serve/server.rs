//! One session of `exanet network serve`: wait for the clients, check that together they own
//! every rank and that no endpoint's ranks are split between two of them, put a remote endpoint
//! (`remote.rs`) on every NIC that has ranks, and clock the network until the session ends (the
//! module header of `serve` has the protocol and the synchronisation).

use super::broker::{Broker, Conn};
use super::protocol::{ClientLine, ServerLine};
use super::remote::RemoteEndpoint;
use crate::config::Config;
use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Cycles the network runs between two looks at the session's state.
pub const RUN_STEP: u64 = 1024;

/// How a session is set up.
pub struct Options {
    pub listen: SocketAddr,
    pub clients: usize,
    /// Endpoint of every rank (the mapping applied).
    pub placement: Vec<usize>,
    /// Waiting for a client (to connect, or to answer) longer than this ends the session.
    pub timeout: Duration,
    /// The session's token: a client's HELLO must give it (any local user can connect to a
    /// loopback port). A connection without it is refused alone; the session waits on.
    pub token: String,
}

/// A new session token: 128 bits from the operating system's random source, in hex (not a
/// simulation seed: it changes nothing simulated).
pub fn new_token() -> Result<String, String> {
    use std::io::Read;
    let mut b = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut b))
        .map_err(|e| format!("/dev/urandom: {e}"))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// `a == b` in a time that does not depend on where they differ.
fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// What a session did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Outcome {
    pub clients: usize,
    pub ranks: usize,
    /// The cycle the session ended at: that of its last event (the last message's arrival, or
    /// the last client's DONE), not the end of the network's last run of [`RUN_STEP`] cycles.
    pub end_cycle: u64,
    /// It ended because nothing could happen any more while some client had not finished.
    pub deadlock: bool,
    pub messages: u64,
    pub packets: u64,
    pub simulated_cycles: u64,
}

/// Bind `o.listen` (a loopback address only); `ready` is told the bound address (port 0 picks
/// one).
pub fn bind(o: &Options) -> Result<TcpListener, String> {
    if !o.listen.ip().is_loopback() {
        return Err(format!(
            "--listen {}: the server listens on a loopback address only (127.0.0.1 or ::1)",
            o.listen
        ));
    }
    TcpListener::bind(o.listen).map_err(|e| format!("--listen {}: {e}", o.listen))
}

/// Run one session on `listener`: the network of `cfg` with clients' ranks placed by
/// `o.placement`.
pub fn serve(cfg: &Config, o: &Options, listener: TcpListener) -> Result<Outcome, String> {
    let mut net = crate::app::run::network(cfg)?;
    net.stop_injecting();
    let endpoints = net.topo.endpoints();
    let ranks = o.placement.len();
    if ranks == 0 || ranks > crate::app::envelope::MAX_RANKS {
        return Err(format!(
            "{ranks} ranks: a session has 1 to {}",
            crate::app::envelope::MAX_RANKS
        ));
    }
    if let Some((r, &e)) = o
        .placement
        .iter()
        .enumerate()
        .find(|(_, &e)| e >= endpoints)
    {
        return Err(format!(
            "rank {r} is placed on endpoint {e}; the network has {endpoints} endpoints"
        ));
    }
    let start = cfg.link.phy.lane_up_cycles as u64;
    let cycle_ps = (1e6 / cfg.clock.freq_mhz).round() as u64;
    let greeting = ServerLine::Greeting {
        ranks: ranks as u32,
        endpoints: endpoints as u32,
        cycle_ps,
    };
    // every client: connect, greeting, HELLO
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("listener: {e}"))?;
    let mut conns = Vec::new();
    let mut owned: Vec<Vec<u32>> = Vec::new();
    let deadline = Instant::now() + o.timeout;
    // the last connection refused before it gave the token, and why
    let mut refused: Option<String> = None;
    while conns.len() < o.clients {
        let (stream, _) = match listener.accept() {
            Ok(s) => s,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() > deadline {
                    return Err(format!(
                        "{} of {} clients connected within {} s{}",
                        conns.len(),
                        o.clients,
                        o.timeout.as_secs_f64(),
                        refused.map_or(String::new(), |r| format!(
                            " (a connection was refused: {r})"
                        ))
                    ));
                }
                std::thread::sleep(Duration::from_millis(5));
                continue;
            }
            Err(e) => return Err(format!("accepting a client: {e}")),
        };
        stream
            .set_nonblocking(false)
            .map_err(|e| format!("client socket: {e}"))?;
        let k = conns.len();
        let mut c = Conn::new(stream, o.timeout).map_err(|e| format!("client {k}: {e}"))?;
        if let Err(e) = c.write(&greeting).and_then(|_| c.flush()) {
            // (a connection that closed at once: a stranger's as much as a client's)
            refused = Some(format!("client {k}: {e}"));
            continue;
        }
        // until it gives the token, a connection is a stranger's: refused alone, and the
        // session waits on for its clients
        let why = match c.read(o.timeout) {
            Ok(ClientLine::Hello { ranks, token }) if same_token(&token, &o.token) => {
                owned.push(ranks);
                conns.push(c);
                continue;
            }
            Ok(ClientLine::Hello { .. }) => "line 1: HELLO with a wrong session token".to_string(),
            Ok(l) => format!(
                "line 1: expected HELLO <ranks> <token>, got {}",
                super::protocol::clip(&l.format())
            ),
            Err(e) => e,
        };
        let _ = c
            .write(&ServerLine::Error(why.clone()))
            .and_then(|_| c.flush());
        refused = Some(why);
    }
    let owner = match owners(&owned, &o.placement) {
        Ok(v) => v,
        Err(e) => {
            for c in &mut conns {
                let _ = c
                    .write(&ServerLine::Error(e.clone()))
                    .and_then(|_| c.flush());
            }
            return Err(e);
        }
    };
    for (k, c) in conns.iter_mut().enumerate() {
        let mut r = owned[k].clone();
        r.sort_unstable();
        for rank in r {
            c.write(&ServerLine::Rank {
                rank,
                endpoint: o.placement[rank as usize] as u32,
            })?;
        }
        c.write(&ServerLine::Start(start))?;
        c.flush().map_err(|e| format!("client {k}: {e}"))?;
        // the ranks start at `start`
        c.stop = Some(start);
    }
    let broker = Arc::new(Mutex::new(Broker {
        conns,
        owner: owner.clone(),
        endpoint_of: o.placement.iter().map(|&e| e as u32).collect(),
        flights: HashMap::new(),
        in_flight: 0,
        ids: Default::default(),
        last_cycle: cfg.app.max_cycles,
        timeout: o.timeout,
        error: None,
        last_pause: start,
    }));
    let mut client_of_endpoint: Vec<Option<usize>> = vec![None; endpoints];
    for (r, &e) in o.placement.iter().enumerate() {
        client_of_endpoint[e] = Some(owner[r] as usize);
    }
    for (e, c) in client_of_endpoint.iter().enumerate() {
        let Some(c) = *c else { continue };
        let (node, term) = net.topo.endpoint(e);
        net.nodes[node].nics[term].attach_app(Box::new(RemoteEndpoint::new(
            e as u32,
            c,
            broker.clone(),
            cfg.app.max_payload_bytes,
        )));
    }
    let limit = cfg.app.max_cycles;
    loop {
        net.run(RUN_STEP);
        let mut b = broker.lock().expect("broker");
        if let Some(e) = b.error.clone() {
            b.tell_all(&ServerLine::Error(e.clone()));
            return Err(e);
        }
        if let Some(deadlock) = b.finished() {
            // the network ran on to the end of its step; the session ended at its last event
            let end_cycle = b.last_pause;
            b.tell_all(&ServerLine::End {
                cycle: end_cycle,
                deadlock,
            });
            let m = net.merged();
            return Ok(Outcome {
                clients: b.conns.len(),
                ranks,
                end_cycle,
                deadlock,
                messages: b.conns.iter().map(|c| c.sent).sum(),
                packets: m.delivered,
                simulated_cycles: net.cycle,
            });
        }
        if net.cycle >= limit {
            let e = format!(
                "the session had not ended after {} cycles (app.max_cycles)",
                net.cycle
            );
            b.tell_all(&ServerLine::Error(e.clone()));
            return Err(e);
        }
    }
}

/// The client of every rank: each rank owned once, every rank owned, and the ranks of an
/// endpoint all one client's (they share its NIC, whose queue one client orders).
fn owners(owned: &[Vec<u32>], placement: &[usize]) -> Result<Vec<u32>, String> {
    let n = placement.len();
    let mut owner = vec![u32::MAX; n];
    for (k, rs) in owned.iter().enumerate() {
        for &r in rs {
            let Some(o) = owner.get_mut(r as usize) else {
                return Err(format!(
                    "client {k} says HELLO with rank {r}; the session has ranks 0 to {}",
                    n - 1
                ));
            };
            if *o != u32::MAX {
                return Err(format!("rank {r} is claimed by clients {} and {k}", *o));
            }
            *o = k as u32;
        }
    }
    if let Some(r) = owner.iter().position(|&o| o == u32::MAX) {
        return Err(format!("rank {r} is owned by no client"));
    }
    let mut of_endpoint: HashMap<usize, (u32, usize)> = HashMap::new();
    for (r, &e) in placement.iter().enumerate() {
        let (c, r0) = *of_endpoint.entry(e).or_insert((owner[r], r));
        if c != owner[r] {
            return Err(format!(
                "ranks {r0} and {r} share endpoint {e} but belong to clients {c} and {}: an \
                 endpoint's ranks belong to one client",
                owner[r]
            ));
        }
    }
    Ok(owner)
}
