//! The server's side of the connections: every client's socket, what it owns and its STOP time,
//! the messages in flight, and the stop on an endpoint (`pause`), where the network waits for
//! the client's answer (the module header of `serve` has the protocol).
//!
//! Every remote endpoint (`remote.rs`) holds the one broker of a session and calls it from its
//! NIC's cycle; the server's loop (`server.rs`) reads its state between runs of the network. The
//! first error a client causes is kept (`error`): from then on nothing more is asked of any
//! client, the server stops the network and tells every client.

use super::protocol::{ClientLine, Send, ServerLine, MAX_LINE_BYTES};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, ErrorKind, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// One client's connection and state.
pub struct Conn {
    reader: BufReader<TcpStream>,
    writer: BufWriter<TcpStream>,
    /// Lines read from it (an error names the line).
    lines: u64,
    /// Its next event time (`STOP`); `None`: none until told of one.
    pub stop: Option<u64>,
    /// It said DONE.
    pub done: bool,
    /// It can no longer be written to (it closed after DONE).
    gone: bool,
    pub sent: u64,
    pub completed: u64,
}

/// A message in flight.
#[derive(Debug)]
pub struct Flight {
    pub msg: Send,
    /// Packets it is carried in, and those of them that have arrived.
    pub packets: u32,
    pub arrived: u32,
}

/// Everything a session's remote endpoints share.
pub struct Broker {
    pub conns: Vec<Conn>,
    /// Client of every rank.
    pub owner: Vec<u32>,
    /// Endpoint of every rank.
    pub endpoint_of: Vec<u32>,
    /// Messages in flight by (source rank, sequence number in the envelope).
    pub flights: HashMap<(u32, u32), Flight>,
    /// Messages handed over by a SEND and not yet arrived (those queued for a later cycle
    /// included).
    pub in_flight: u64,
    /// (client, message id) of every message handed over and not yet arrived: an id is
    /// unique among its client's messages in flight.
    pub ids: std::collections::HashSet<(u32, u64)>,
    /// The session's last cycle (`app.max_cycles`): no STOP or SEND time may lie beyond it.
    pub last_cycle: u64,
    pub timeout: Duration,
    /// The first error; the session ends with it.
    pub error: Option<String>,
    /// The last cycle the network stopped on an endpoint (`pause`): every event of a session
    /// (a message leaving or arriving, a client's STOP time) is told in a pause, so the cycle a
    /// session ends is the last pause's (or the start, if there was none).
    pub last_pause: u64,
}

impl Conn {
    pub fn new(stream: TcpStream, timeout: Duration) -> std::io::Result<Conn> {
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        // Minkenberg and Rodriguez 2008 §4.1: Nagle's algorithm delays every synchronisation point
        stream.set_nodelay(true)?;
        Ok(Conn {
            reader: BufReader::new(stream.try_clone()?),
            writer: BufWriter::new(stream),
            lines: 0,
            stop: None,
            done: false,
            gone: false,
            sent: 0,
            completed: 0,
        })
    }

    /// Write a line (buffered; `flush` sends).
    pub fn write(&mut self, l: &ServerLine) -> Result<(), String> {
        if self.gone {
            return Ok(());
        }
        let r = writeln!(self.writer, "{}", l.format());
        r.map_err(|e| format!("cannot write to the client: {e}"))
    }

    pub fn flush(&mut self) -> Result<(), String> {
        if self.gone {
            return Ok(());
        }
        match self.writer.flush() {
            Ok(()) => Ok(()),
            // a client that has said DONE may close before END
            Err(_) if self.done => {
                self.gone = true;
                Ok(())
            }
            Err(e) => Err(format!("cannot write to the client: {e}")),
        }
    }

    /// The next line, parsed; an error names the line. The whole line must come within
    /// `timeout` (not each read: a client trickling a byte at a time is cut off) and within
    /// `MAX_LINE_BYTES`.
    pub fn read(&mut self, timeout: Duration) -> Result<ClientLine, String> {
        let deadline = Instant::now() + timeout;
        let late = || {
            format!(
                "the client did not answer within {} s",
                timeout.as_secs_f64()
            )
        };
        let mut line: Vec<u8> = Vec::new();
        let n = self.lines + 1;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(late());
            }
            let sock = self.reader.get_ref();
            sock.set_read_timeout(Some(left.max(Duration::from_millis(1))))
                .map_err(|e| format!("cannot read from the client: {e}"))?;
            let buf = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Err(late())
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("cannot read from the client: {e}")),
            };
            if buf.is_empty() {
                return Err(if line.is_empty() {
                    "the client disconnected".into()
                } else {
                    format!("line {n}: the client disconnected in the middle of a line")
                });
            }
            let (take, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            line.extend_from_slice(&buf[..take]);
            self.reader.consume(take);
            if line.len() > MAX_LINE_BYTES {
                return Err(format!(
                    "line {n}: longer than {MAX_LINE_BYTES} bytes (no line of the protocol is)"
                ));
            }
            if end {
                break;
            }
        }
        self.lines = n;
        let s = std::str::from_utf8(&line).map_err(|_| format!("line {n}: not UTF-8 text"))?;
        ClientLine::parse(s.trim_end()).map_err(|e| format!("line {n}: {e}"))
    }

    pub fn line(&self) -> u64 {
        self.lines
    }

    /// It waits for nothing more from the network before `cycle` (or has finished).
    pub fn due(&self, cycle: u64) -> bool {
        !self.done && self.stop.is_some_and(|s| s <= cycle)
    }
}

impl Broker {
    /// Stop on `endpoint` of `client` at `cycle`: tell it of the messages of the endpoint's ranks
    /// that left (`left`: id and cycle) and arrived (`arrived`) by `cycle`, then, unless it is
    /// done, `AT` and wait for its answer: the SENDs of the endpoint's ranks, which it returns.
    pub fn pause(
        &mut self,
        client: usize,
        endpoint: u32,
        cycle: u64,
        left: &[(u64, u64)],
        arrived: &[Send],
    ) -> Vec<Send> {
        if self.error.is_some() {
            return Vec::new();
        }
        self.last_pause = self.last_pause.max(cycle);
        match self.try_pause(client, endpoint, cycle, left, arrived) {
            Ok(v) => v,
            Err(e) => {
                self.error = Some(format!("client {client}: {e}"));
                Vec::new()
            }
        }
    }

    fn try_pause(
        &mut self,
        client: usize,
        endpoint: u32,
        cycle: u64,
        left: &[(u64, u64)],
        arrived: &[Send],
    ) -> Result<Vec<Send>, String> {
        let timeout = self.timeout;
        let ranks = self.owner.len();
        let c = &mut self.conns[client];
        for &(id, time) in left {
            c.write(&ServerLine::Left { id, time })?;
        }
        for m in arrived {
            c.completed += 1;
            c.write(&ServerLine::Completed { msg: m.clone() })?;
        }
        if c.done {
            c.flush()?;
            return Ok(Vec::new());
        }
        c.write(&ServerLine::At {
            time: cycle,
            endpoint,
        })?;
        c.flush()?;
        let mut sends = Vec::new();
        loop {
            let l = c.read(timeout)?;
            let at = c.line();
            match l {
                ClientLine::Send(m) => {
                    let what = || format!("line {at}: SEND {} from rank {}", m.id, m.src);
                    if m.src as usize >= ranks || m.dst as usize >= ranks {
                        return Err(format!(
                            "{}: ranks are 0 to {} (a rank {} out of range)",
                            what(),
                            ranks - 1,
                            m.src.max(m.dst)
                        ));
                    }
                    if self.owner[m.src as usize] as usize != client {
                        return Err(format!("{}: rank {} is not this client's", what(), m.src));
                    }
                    if self.endpoint_of[m.src as usize] != endpoint {
                        return Err(format!(
                            "{}: the rank is on endpoint {}, and this answers AT {cycle} {endpoint} \
                             (answer for that endpoint's ranks only)",
                            what(),
                            self.endpoint_of[m.src as usize]
                        ));
                    }
                    if m.time < cycle {
                        return Err(format!(
                            "{}: time {} is in the past (the network is at cycle {cycle})",
                            what(),
                            m.time
                        ));
                    }
                    if m.time > self.last_cycle {
                        return Err(format!(
                            "{}: time {} is beyond the session's last cycle {} (app.max_cycles)",
                            what(),
                            m.time,
                            self.last_cycle
                        ));
                    }
                    if !self.ids.insert((client as u32, m.id)) {
                        return Err(format!(
                            "{}: message id {} is already in flight (an id is unique among the \
                             client's messages in flight)",
                            what(),
                            m.id
                        ));
                    }
                    c.sent += 1;
                    self.in_flight += 1;
                    sends.push(m);
                }
                ClientLine::Stop(t) => {
                    if let Some(t) = t.filter(|&t| t > self.last_cycle) {
                        return Err(format!(
                            "line {at}: STOP {t} is beyond the session's last cycle {} \
                             (app.max_cycles; STOP never says no event is due)",
                            self.last_cycle
                        ));
                    }
                    c.stop = t;
                    return Ok(sends);
                }
                ClientLine::Done => {
                    c.done = true;
                    return Ok(sends);
                }
                ClientLine::Hello { .. } => return Err(format!("line {at}: HELLO again")),
            }
        }
    }

    /// Every client is done, or nothing can happen any more (no message in flight, and no
    /// client expects to send again before hearing of one).
    pub fn finished(&self) -> Option<bool> {
        if self.in_flight > 0 {
            return None;
        }
        if self.conns.iter().all(|c| c.done) {
            return Some(false);
        }
        if self.conns.iter().all(|c| c.done || c.stop.is_none()) {
            return Some(true);
        }
        None
    }

    /// Tell every client `l` (errors ignored: the session is ending).
    pub fn tell_all(&mut self, l: &ServerLine) {
        for c in &mut self.conns {
            let _ = c.write(l).and_then(|_| c.flush());
        }
    }
}
