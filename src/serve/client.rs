//! A task simulator for the co-simulation server: the application layer's ranks (`app/
//! endpoint.rs`, the same programs, message protocol and software costs as an in-process run)
//! with the network replaced by a server (`serve/`). The client owns whole endpoints' ranks.
//!
//! It hands every packet the application layer queues on a NIC to the server as one SEND (the
//! packet's bytes after the envelope; the envelope and any message bytes travel as the SEND's
//! opaque bytes), and calls its endpoints at the points the server names, in the order a NIC
//! would: a LEFT is the NIC's `written`, a COMPLETED SEND its `arrive_from_network`, an `AT` its
//! `step`. So every message completes at the cycle it completes in process (a test).

use super::protocol::{ClientLine, Send, ServerLine};
use crate::app::api::Request;
use crate::app::endpoint::{AppEndpoint, Shared};
use crate::app::envelope::Envelope;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

/// What a client's run gave.
#[derive(Debug)]
pub struct ClientRun {
    /// Its endpoints, after the run (their ranks' finishing cycles and counters).
    pub endpoints: Vec<AppEndpoint>,
    /// Every COMPLETED SEND it was told of: (source rank, destination rank, bytes, cycle).
    pub completed: Vec<(u32, u32, u64, u64)>,
    /// The cycle the server ended the session at, and whether it found a deadlock.
    pub end_cycle: u64,
    pub deadlock: bool,
}

struct Link {
    r: BufReader<TcpStream>,
    w: BufWriter<TcpStream>,
}

impl Link {
    fn read(&mut self) -> Result<ServerLine, String> {
        let mut s = String::new();
        match self.r.read_line(&mut s) {
            Ok(0) => Err("the server closed the connection".into()),
            Ok(_) => ServerLine::parse(s.trim_end()).map_err(|e| format!("from the server: {e}")),
            Err(e) => Err(format!("reading from the server: {e}")),
        }
    }

    fn write(&mut self, l: &ClientLine) -> Result<(), String> {
        writeln!(self.w, "{}", l.format()).map_err(|e| format!("writing to the server: {e}"))
    }

    fn flush(&mut self) -> Result<(), String> {
        self.w
            .flush()
            .map_err(|e| format!("writing to the server: {e}"))
    }
}

/// Run the ranks `mine` of `shared`'s program against the server at `addr`.
pub fn run(
    addr: &str,
    shared: Arc<Shared>,
    mine: &[u32],
    token: &str,
    timeout: Duration,
) -> Result<ClientRun, String> {
    let s = TcpStream::connect(addr).map_err(|e| format!("connecting to {addr}: {e}"))?;
    s.set_nodelay(true).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    let mut link = Link {
        r: BufReader::new(s.try_clone().map_err(|e| e.to_string())?),
        w: BufWriter::new(s),
    };
    let n = shared.endpoint_of.len();
    match link.read()? {
        ServerLine::Greeting { ranks, .. } if ranks as usize == n => {}
        ServerLine::Greeting { ranks, .. } => {
            return Err(format!(
                "the server's session has {ranks} ranks, this program {n}"
            ))
        }
        l => return Err(format!("expected the greeting, got '{}'", l.format())),
    }
    link.write(&ClientLine::Hello {
        ranks: mine.to_vec(),
        token: token.to_string(),
    })?;
    link.flush()?;
    loop {
        match link.read()? {
            ServerLine::Rank { rank, endpoint } => {
                let want = shared.endpoint_of.get(rank as usize).copied();
                if want != Some(endpoint) {
                    return Err(format!(
                        "the server placed rank {rank} on endpoint {endpoint}, this client's \
                         mapping on {want:?}"
                    ));
                }
            }
            ServerLine::Start(c) if c == shared.start_cycle => break,
            ServerLine::Start(c) => {
                return Err(format!(
                    "the server starts the ranks at cycle {c}, this client at {}",
                    shared.start_cycle
                ))
            }
            ServerLine::Error(e) => return Err(format!("the server: {e}")),
            l => return Err(format!("expected RANK or START, got '{}'", l.format())),
        }
    }
    // this client's endpoints, each with all its ranks
    let mut on: HashMap<u32, Vec<u32>> = HashMap::new();
    for &r in mine {
        on.entry(shared.endpoint_of[r as usize])
            .or_default()
            .push(r);
    }
    let mut keys: Vec<u32> = on.keys().copied().collect();
    keys.sort_unstable();
    let mut eps: Vec<AppEndpoint> = Vec::new();
    let mut index: HashMap<u32, usize> = HashMap::new();
    for e in keys {
        let mut ranks = on[&e].clone();
        ranks.sort_unstable();
        let all = (0..n as u32).filter(|&r| shared.endpoint_of[r as usize] == e);
        if !all.eq(ranks.iter().copied()) {
            return Err(format!(
                "endpoint {e} has ranks that are not this client's: a client owns whole \
                 endpoints"
            ));
        }
        index.insert(e, eps.len());
        eps.push(AppEndpoint::new(e, &ranks, shared.clone()));
    }
    // a SEND's id: what the NIC would call `written` with
    let mut sent: HashMap<u64, (usize, u32, Option<Request>)> = HashMap::new();
    let mut next_id = 0u64;
    let mut done = false;
    let mut completed = Vec::new();
    loop {
        match link.read()? {
            ServerLine::Left { id, time } => {
                let (k, local, req) = sent
                    .remove(&id)
                    .ok_or_else(|| format!("LEFT {id}: no such message was sent"))?;
                if let Some(q) = req {
                    eps[k].written(local, q, time);
                }
            }
            ServerLine::Completed { msg } => {
                completed.push((msg.src, msg.dst, msg.bytes, msg.time));
                let e = shared.endpoint_of.get(msg.dst as usize).copied();
                let k = e.and_then(|e| index.get(&e).copied()).ok_or_else(|| {
                    format!(
                        "COMPLETED SEND {}: rank {} is not this client's",
                        msg.id, msg.dst
                    )
                })?;
                if msg.opaque.len() < 16 {
                    return Err(format!(
                        "COMPLETED SEND {}: {} opaque bytes, not the 16-byte envelope this \
                         client sent",
                        msg.id,
                        msg.opaque.len()
                    ));
                }
                let w = u128::from_le_bytes(msg.opaque[..16].try_into().expect("16 bytes"));
                let env = Envelope::unpack(w);
                eps[k].arrive_from_network(&env, &msg.opaque[16..], msg.time, msg.time);
            }
            ServerLine::At { time, endpoint } => {
                let k = *index.get(&endpoint).ok_or_else(|| {
                    format!("AT {time} {endpoint}: that endpoint has none of this client's ranks")
                })?;
                let ep = &mut eps[k];
                ep.step(time);
                for r in ep.out.drain(..) {
                    for pkt in r.run {
                        let mut opaque = pkt.env.pack().to_le_bytes().to_vec();
                        if let Some(d) = &pkt.data {
                            let (o, l) = (pkt.off as usize, pkt.len as usize);
                            opaque.extend_from_slice(&d[o..o + l]);
                        }
                        let id = next_id;
                        next_id += 1;
                        sent.insert(id, (k, r.from_local, pkt.req));
                        link.write(&ClientLine::Send(Send {
                            id,
                            src: pkt.env.src,
                            dst: pkt.env.dst,
                            bytes: pkt.len as u64,
                            tag: pkt.env.tag as i64,
                            time,
                            opaque,
                        }))?;
                    }
                }
                if let Some(e) = eps.iter().find_map(|e| e.error.clone()) {
                    return Err(e);
                }
                if eps.iter().all(|e| e.done()) {
                    done = true;
                    link.write(&ClientLine::Done)?;
                } else {
                    let due = eps.iter().map(|e| e.due(0)).min().unwrap_or(u64::MAX);
                    link.write(&ClientLine::Stop((due != u64::MAX).then_some(due)))?;
                }
                link.flush()?;
            }
            ServerLine::End { cycle, deadlock } => {
                return Ok(ClientRun {
                    endpoints: eps,
                    completed,
                    end_cycle: cycle,
                    deadlock: deadlock || !done,
                })
            }
            ServerLine::Error(e) => return Err(format!("the server: {e}")),
            l => return Err(format!("unexpected '{}'", l.format())),
        }
        if let Some(e) = eps.iter().find_map(|e| e.error.clone()) {
            return Err(e);
        }
    }
}
