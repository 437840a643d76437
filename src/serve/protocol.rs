//! The lines of the co-simulation protocol (the module header of `serve` lists them): parsing
//! every line either side writes, with an error that names what is wrong, and writing them.

/// Version in the greeting.
pub const VERSION: u32 = 1;

/// Opaque bytes a SEND may carry to the receiver, at most.
pub const MAX_OPAQUE_BYTES: usize = 4096;

/// The longest line either side may send, its newline included: a SEND with the most opaque
/// bytes (8192 hex digits) and every field at its widest fits with room to spare.
pub const MAX_LINE_BYTES: usize = 16 << 10;

/// The most ranks a HELLO may list (more than any session has: `app::envelope::MAX_RANKS`).
pub const MAX_HELLO_RANKS: u64 = 1 << 20;

/// A piece of a client's line as an error quotes it: whole when short, else its start and its
/// length (an error never echoes a long line back).
pub fn clip(s: &str) -> String {
    if s.len() <= 40 {
        return s.to_string();
    }
    let mut end = 32;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &s[..end], s.len())
}

/// A message as a SEND gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Send {
    pub id: u64,
    pub src: u32,
    pub dst: u32,
    pub bytes: u64,
    pub tag: i64,
    pub time: u64,
    pub opaque: Vec<u8>,
}

/// A line from a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientLine {
    /// The ranks it owns and the session's token.
    Hello {
        ranks: Vec<u32>,
        token: String,
    },
    /// The next event time; `None`: none until the server tells of one.
    Stop(Option<u64>),
    Send(Send),
    Done,
}

/// A line from the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerLine {
    Greeting {
        ranks: u32,
        endpoints: u32,
        cycle_ps: u64,
    },
    Rank {
        rank: u32,
        endpoint: u32,
    },
    Start(u64),
    Left {
        id: u64,
        time: u64,
    },
    Completed {
        msg: Send,
    },
    At {
        time: u64,
        endpoint: u32,
    },
    End {
        cycle: u64,
        deadlock: bool,
    },
    Error(String),
}

fn num<T: std::str::FromStr>(what: &str, s: Option<&str>) -> Result<T, String> {
    let s = s.ok_or_else(|| format!("{what} missing"))?;
    s.parse()
        .map_err(|_| format!("{what} '{}' is not a number of the right range", clip(s)))
}

/// Rank lists: "0-3,8,10-11" (each rank once).
pub fn parse_ranks(s: &str) -> Result<Vec<u32>, String> {
    let mut v = Vec::new();
    let mut total = 0u64;
    for part in s.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a, b),
            None => (part, part),
        };
        let a: u32 = num("rank", Some(a))?;
        let b: u32 = num("rank", Some(b))?;
        if b < a {
            return Err(format!("rank range '{}' runs backwards", clip(part)));
        }
        // counted before the ranges are expanded: overlapping ranges are found after
        total += (b - a) as u64 + 1;
        if total > MAX_HELLO_RANKS {
            return Err(format!(
                "the ranks listed number more than {MAX_HELLO_RANKS}, more than any run has"
            ));
        }
        v.extend(a..=b);
    }
    let mut s = v.clone();
    s.sort_unstable();
    if let Some(w) = s.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("rank {} listed twice", w[0]));
    }
    Ok(v)
}

/// "0-3,8": the shortest form of a rank list.
pub fn format_ranks(ranks: &[u32]) -> String {
    let mut s = ranks.to_vec();
    s.sort_unstable();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let mut j = i;
        while j + 1 < s.len() && s[j + 1] == s[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            s[i].to_string()
        } else {
            format!("{}-{}", s[i], s[j])
        });
        i = j + 1;
    }
    out.join(",")
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!(
            "opaque bytes '{}' are not an even number of hex digits",
            clip(s)
        ));
    }
    let b: Vec<u8> = (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("checked hex"))
        .collect();
    if b.len() > MAX_OPAQUE_BYTES {
        return Err(format!(
            "{} opaque bytes; a SEND carries at most {MAX_OPAQUE_BYTES}",
            b.len()
        ));
    }
    Ok(b)
}

/// The message fields of SEND and COMPLETED SEND, from `w` on.
fn message<'a>(w: &mut impl Iterator<Item = &'a str>) -> Result<Send, String> {
    let m = Send {
        id: num("message id", w.next())?,
        src: num("source rank", w.next())?,
        dst: num("destination rank", w.next())?,
        bytes: num("size in bytes", w.next())?,
        tag: num("tag", w.next())?,
        time: num("time", w.next())?,
        opaque: match w.next() {
            Some(h) => unhex(h)?,
            None => Vec::new(),
        },
    };
    if let Some(x) = w.next() {
        return Err(format!("unexpected '{}' after the message", clip(x)));
    }
    Ok(m)
}

fn message_fields(m: &Send) -> String {
    let mut s = format!(
        "{} {} {} {} {} {}",
        m.id, m.src, m.dst, m.bytes, m.tag, m.time
    );
    if !m.opaque.is_empty() {
        s.push(' ');
        s.push_str(&hex(&m.opaque));
    }
    s
}

fn end_of<'a>(w: &mut impl Iterator<Item = &'a str>, cmd: &str) -> Result<(), String> {
    match w.next() {
        Some(x) => Err(format!("unexpected '{}' after {cmd}", clip(x))),
        None => Ok(()),
    }
}

impl ClientLine {
    pub fn parse(line: &str) -> Result<ClientLine, String> {
        let mut w = line.split_ascii_whitespace();
        let cmd = w.next().ok_or("an empty line")?;
        let l = match cmd {
            "HELLO" => {
                let ranks = parse_ranks(w.next().ok_or("HELLO without ranks")?)?;
                let token = w
                    .next()
                    .ok_or(
                        "HELLO without the session's token (HELLO <ranks> <token>; `exanet \
                         network serve` prints it, or writes it to --token-file)",
                    )?
                    .to_string();
                end_of(&mut w, "HELLO's token")?;
                ClientLine::Hello { ranks, token }
            }
            "STOP" => {
                let t = match w.next() {
                    Some("never") => None,
                    t => Some(num("STOP time", t)?),
                };
                end_of(&mut w, "STOP's time")?;
                ClientLine::Stop(t)
            }
            "SEND" => ClientLine::Send(message(&mut w)?),
            "DONE" => {
                end_of(&mut w, "DONE")?;
                ClientLine::Done
            }
            c => {
                return Err(format!(
                    "unknown command '{}' (a client sends HELLO, STOP, SEND, DONE)",
                    clip(c)
                ))
            }
        };
        Ok(l)
    }

    pub fn format(&self) -> String {
        match self {
            ClientLine::Hello { ranks, token } => format!("HELLO {} {token}", format_ranks(ranks)),
            ClientLine::Stop(Some(t)) => format!("STOP {t}"),
            ClientLine::Stop(None) => "STOP never".into(),
            ClientLine::Send(m) => format!("SEND {}", message_fields(m)),
            ClientLine::Done => "DONE".into(),
        }
    }
}

impl ServerLine {
    pub fn parse(line: &str) -> Result<ServerLine, String> {
        let mut w = line.split_ascii_whitespace();
        let cmd = w.next().ok_or("an empty line")?;
        let l = match cmd {
            "EXANET-SERVE" => {
                let v: u32 = num("protocol version", w.next())?;
                if v != VERSION {
                    return Err(format!(
                        "protocol version {v}; this client speaks {VERSION}"
                    ));
                }
                let mut field = |name: &str| -> Result<u64, String> {
                    match w.next() {
                        Some(n) if n == name => num(name, w.next()),
                        _ => Err(format!("greeting without '{name}'")),
                    }
                };
                let ranks = field("ranks")? as u32;
                let endpoints = field("endpoints")? as u32;
                let cycle_ps = field("cycle_ps")?;
                ServerLine::Greeting {
                    ranks,
                    endpoints,
                    cycle_ps,
                }
            }
            "RANK" => ServerLine::Rank {
                rank: num("rank", w.next())?,
                endpoint: num("endpoint", w.next())?,
            },
            "START" => ServerLine::Start(num("START cycle", w.next())?),
            "LEFT" => ServerLine::Left {
                id: num("message id", w.next())?,
                time: num("time", w.next())?,
            },
            "COMPLETED" => match w.next() {
                Some("SEND") => ServerLine::Completed {
                    msg: message(&mut w)?,
                },
                _ => return Err("COMPLETED without SEND".into()),
            },
            "AT" => ServerLine::At {
                time: num("time", w.next())?,
                endpoint: num("endpoint", w.next())?,
            },
            "END" => ServerLine::End {
                cycle: num("END cycle", w.next())?,
                deadlock: match w.next() {
                    Some("deadlock") => true,
                    None => false,
                    Some(x) => return Err(format!("unexpected '{x}' after END")),
                },
            },
            "ERROR" => ServerLine::Error(line[5..].trim().to_string()),
            c => return Err(format!("unknown server line '{c}'")),
        };
        Ok(l)
    }

    pub fn format(&self) -> String {
        match self {
            ServerLine::Greeting {
                ranks,
                endpoints,
                cycle_ps,
            } => format!(
                "EXANET-SERVE {VERSION} ranks {ranks} endpoints {endpoints} cycle_ps {cycle_ps}"
            ),
            ServerLine::Rank { rank, endpoint } => format!("RANK {rank} {endpoint}"),
            ServerLine::Start(c) => format!("START {c}"),
            ServerLine::Left { id, time } => format!("LEFT {id} {time}"),
            ServerLine::Completed { msg } => format!("COMPLETED SEND {}", message_fields(msg)),
            ServerLine::At { time, endpoint } => format!("AT {time} {endpoint}"),
            ServerLine::End { cycle, deadlock } => {
                format!("END {cycle}{}", if *deadlock { " deadlock" } else { "" })
            }
            ServerLine::Error(e) => format!("ERROR {}", e.replace('\n', "; ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_reads_back_as_written() {
        let m = Send {
            id: 7,
            src: 1,
            dst: 2,
            bytes: 4096,
            tag: -3,
            time: 12345,
            opaque: vec![0xde, 0xad],
        };
        for l in [
            ClientLine::Hello {
                ranks: vec![0, 1, 2, 3, 8],
                token: "0123abcd".into(),
            },
            ClientLine::Stop(Some(99)),
            ClientLine::Stop(None),
            ClientLine::Send(m.clone()),
            ClientLine::Done,
        ] {
            assert_eq!(ClientLine::parse(&l.format()).unwrap(), l);
        }
        for l in [
            ServerLine::Greeting {
                ranks: 4,
                endpoints: 16,
                cycle_ps: 6400,
            },
            ServerLine::Rank {
                rank: 3,
                endpoint: 9,
            },
            ServerLine::Start(50),
            ServerLine::Left { id: 7, time: 60 },
            ServerLine::Completed { msg: m },
            ServerLine::At {
                time: 70,
                endpoint: 2,
            },
            ServerLine::End {
                cycle: 80,
                deadlock: true,
            },
            ServerLine::Error("a bad line".into()),
        ] {
            assert_eq!(ServerLine::parse(&l.format()).unwrap(), l);
        }
        assert_eq!(format_ranks(&[3, 0, 1, 2, 8, 10, 11]), "0-3,8,10-11");
    }

    #[test]
    fn a_malformed_line_says_what_is_wrong() {
        for (line, want) in [
            ("", "empty"),
            ("SEND 1 2 3", "size in bytes missing"),
            ("SEND 1 2 3 4 5 -6", "time '-6'"),
            ("SEND 1 2 3 4 5 6 abc", "hex"),
            ("SEND 1 2 3 4 5 6 00 x", "unexpected 'x'"),
            ("STOP soon", "STOP time 'soon'"),
            ("STOP 5 6", "unexpected '6'"),
            ("HELLO 3-1", "backwards"),
            ("HELLO 1,1", "twice"),
            ("FLY 1", "unknown command 'FLY'"),
        ] {
            let e = ClientLine::parse(line).unwrap_err();
            assert!(e.contains(want), "{line:?}: {e}");
        }
    }
}
