//! A trace written back as SimGrid's time-independent text, in the one-file layout (every
//! line `RANK ACTION ARGS...`, rank by rank), so that [`super::parse_one_file`] reads the
//! same actions back (a test). Sizes are written as counts of `MPI_BYTE` (datatype 6, one
//! byte), so every size survives whatever datatype it was read with; `-333` and `-444` stand
//! for any source (or `MPI_PROC_NULL`) and any tag, as SimGrid writes them; a `location` line
//! goes before an action that has a call site. Amounts (flops, seconds) are written as Rust
//! prints an `f64`, the shortest text that reads back as the same number.
//!
//! Actions SimGrid's format has no line for (an OTF2 trace's `ComputeTime`, `WaitStarted` and
//! `OnComm`) are an error, as are per-rank vectors of another length than the world's.

use super::{Action, SendKind, TiTrace, ANY_TAG, UNDEFINED_RANK};
use std::fmt::Write as _;

/// `MPI_BYTE`'s id in SimGrid 3.32's table.
const BYTE: u32 = 6;

/// The whole trace as one file's text.
pub fn write(t: &TiTrace) -> Result<String, String> {
    let n = t.size();
    let mut out = String::new();
    for (r, acts) in t.ranks.iter().enumerate() {
        for (a, loc) in acts {
            if let Some(c) = &loc.call {
                let _ = writeln!(out, "{r} location {} {}", c.file, c.line);
            }
            let _ = write!(out, "{r} ");
            line(&mut out, a, n)
                .map_err(|e| format!("rank {r}, {}:{}: {e}", loc.file, loc.line))?;
            out.push('\n');
        }
    }
    Ok(out)
}

fn peer(p: Option<u32>) -> String {
    p.map_or(UNDEFINED_RANK.to_string(), |v| v.to_string())
}

fn tag(t: Option<i32>) -> String {
    t.map_or(ANY_TAG.to_string(), |v| v.to_string())
}

/// A per-rank vector: `n` counts, or none (`n` zeros).
fn counts(v: &[u64], n: usize, what: &str) -> Result<String, String> {
    if v.is_empty() {
        return Ok(vec!["0"; n].join(" "));
    }
    if v.len() != n {
        return Err(format!(
            "{what}: {} counts for a world of {n} ranks",
            v.len()
        ));
    }
    Ok(v.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
}

/// Action `a` without its rank.
fn line(o: &mut String, a: &Action, n: usize) -> Result<(), String> {
    use Action as A;
    let b = BYTE;
    let _ = match a {
        A::Init => write!(o, "init"),
        A::Finalize => write!(o, "finalize"),
        A::Compute { flops } => write!(o, "compute {flops}"),
        A::Sleep { seconds } => write!(o, "sleep {seconds}"),
        A::Send { dst, tag, bytes } => write!(o, "send {dst} {tag} {bytes} {b}"),
        A::Isend { dst, tag, bytes } => write!(o, "isend {dst} {tag} {bytes} {b}"),
        A::Ssend { dst, tag, bytes } => write!(o, "Ssend {dst} {tag} {bytes} {b}"),
        A::Issend { dst, tag, bytes } => write!(o, "ISsend {dst} {tag} {bytes} {b}"),
        A::Bsend { dst, tag, bytes } => write!(o, "bsend {dst} {tag} {bytes} {b}"),
        A::Ibsend { dst, tag, bytes } => write!(o, "ibsend {dst} {tag} {bytes} {b}"),
        A::ProcNullSend { kind, tag, bytes } => {
            let name = match kind {
                SendKind::Send => "send",
                SendKind::Isend => "isend",
                SendKind::Ssend => "Ssend",
                SendKind::Issend => "ISsend",
                SendKind::Bsend => "bsend",
                SendKind::Ibsend => "ibsend",
            };
            write!(o, "{name} {UNDEFINED_RANK} {tag} {bytes} {b}")
        }
        A::Recv { src, tag: t, bytes } => {
            write!(o, "recv {} {} {bytes} {b}", peer(*src), tag(*t))
        }
        A::Irecv { src, tag: t, bytes } => {
            write!(o, "irecv {} {} {bytes} {b}", peer(*src), tag(*t))
        }
        A::SendRecv {
            dst,
            send_bytes,
            src,
            recv_bytes,
        } => write!(
            o,
            "sendRecv {send_bytes} {dst} {recv_bytes} {} {b} {b}",
            peer(*src)
        ),
        A::Test { src, dst, tag: t } => {
            write!(o, "test {} {} {}", peer(*src), peer(*dst), tag(*t))
        }
        A::Wait { src, dst, tag: t } => {
            write!(o, "wait {} {} {}", peer(*src), peer(*dst), tag(*t))
        }
        A::Waitany { count } => write!(o, "waitAny {count}"),
        A::Waitall { count } => write!(o, "waitall {count}"),
        A::Testany => write!(o, "testany"),
        A::Testall => write!(o, "testall"),
        A::Testsome => write!(o, "testsome"),
        A::Barrier => write!(o, "barrier"),
        A::Bcast { bytes, root } => write!(o, "bcast {bytes} {root} {b}"),
        A::Reduce { bytes, root, flops } => write!(o, "reduce {bytes} {flops} {root} {b}"),
        A::Allreduce { bytes, flops } => write!(o, "allreduce {bytes} {flops} {b}"),
        A::Scan { bytes, flops } => write!(o, "scan {bytes} {flops} {b}"),
        A::Exscan { bytes, flops } => write!(o, "exscan {bytes} {flops} {b}"),
        A::Alltoall {
            send_bytes,
            recv_bytes,
        } => write!(o, "alltoall {send_bytes} {recv_bytes} {b} {b}"),
        A::Allgather {
            send_bytes,
            recv_bytes,
        } => write!(o, "allgather {send_bytes} {recv_bytes} {b} {b}"),
        A::Gather {
            send_bytes,
            recv_bytes,
            root,
        } => write!(o, "gather {send_bytes} {recv_bytes} {root} {b} {b}"),
        A::Scatter {
            send_bytes,
            recv_bytes,
            root,
        } => write!(o, "scatter {send_bytes} {recv_bytes} {root} {b} {b}"),
        A::Gatherv {
            send_bytes,
            recv_bytes,
            root,
        } => {
            let c = counts(recv_bytes, n, "gatherv")?;
            write!(o, "gatherv {send_bytes} {c} {root} {b} {b}")
        }
        A::Scatterv {
            send_bytes,
            recv_bytes,
            root,
        } => {
            let c = counts(send_bytes, n, "scatterv")?;
            write!(o, "scatterv {c} {recv_bytes} {root} {b} {b}")
        }
        A::Allgatherv {
            send_bytes,
            recv_bytes,
        } => {
            let c = counts(recv_bytes, n, "allgatherv")?;
            write!(o, "allgatherv {send_bytes} {c} {b} {b}")
        }
        A::Alltoallv {
            send_bytes,
            recv_bytes,
        } => {
            let s = counts(send_bytes, n, "alltoallv")?;
            let r = counts(recv_bytes, n, "alltoallv")?;
            let (ss, rs): (u64, u64) = (send_bytes.iter().sum(), recv_bytes.iter().sum());
            write!(o, "alltoallv {ss} {s} {rs} {r} {b} {b}")
        }
        A::Reducescatter { recv_bytes, flops } => {
            let c = counts(recv_bytes, n, "reducescatter")?;
            write!(o, "reducescatter {c} {flops} {b}")
        }
        A::ComputeTime { .. } | A::WaitStarted { .. } => {
            return Err(format!(
                "{a:?} has no line in SimGrid's format (an OTF2 trace's action)"
            ))
        }
        A::OnComm { .. } => {
            return Err(format!(
                "{a:?}: a collective on a communicator of some ranks has no line in SimGrid's \
                 format, which names no communicator (an OTF2 trace's action)"
            ))
        }
    };
    Ok(())
}
