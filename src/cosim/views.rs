//! A GTKWave save file for each co-simulation run (issue 32 §3): `cosim --vcd-dir DIR` writes
//! `DIR/view.gtkw`, which opens that run's RTL waves (`[dumpfile]`) on that run's first packet
//! and follows it. The save files of `waves/` follow one fixed path (the router's from input 0
//! to output 1, which seed 7 never uses); this one is made from the same file with the path of
//! the packet the run sent first:
//!
//! - router and node: the first gate whose request (`gen_in[i].u_in.req_q`) rises inside the
//!   wave window, and the output it asks for (`out_q`): the groups of input i, gate i, the
//!   arbiter and the FIFO write of output o, the crossbar between them; the node's link groups
//!   show the link of output o (link 0 when o is an intra-tile port);
//! - link: the first TCL TX (`u_a` or `u_b`) whose `pkt_q` rises: its side's TX, the lane, the
//!   other side's RX, with the RX FIFO of the packet's VC.
//!
//! The marker is at the wave sample where that register first shows 1, the window opens ten
//! cycles before (not before the wave's first cycle) at the save file's own zoom. The
//! translate files are written beside it (`DIR/translate/`), so the folder opens anywhere. The
//! first packet is read from the compared signals, which every cycle samples anyway: nothing
//! is added to the lockstep.

use std::path::Path;

/// What the view follows, found in the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstPacket {
    /// Gate `input` asked for output slot `output` in cycle `cycle`.
    Gate { input: u32, output: u32, cycle: u64 },
    /// Side `side` (0: `u_a`, 1: `u_b`) started a packet on VC `vc` in cycle `cycle`.
    Link { side: u32, vc: u32, cycle: u64 },
}

/// A design's save file and how its slots are numbered.
#[derive(Debug, Clone, Copy)]
pub enum ViewKind {
    Link,
    /// Intra-tile ports and VCs a link port: output slot `n_intra + q vcs + v` is link q's VC v.
    Router {
        n_intra: u32,
        vcs: u32,
    },
    Node {
        n_intra: u32,
        vcs: u32,
    },
}

/// Looks for the first packet in the compared signals' values after each rising edge.
pub struct Watch {
    kind: ViewKind,
    /// (input or side, index of its request register, index of its output or VC register)
    reqs: Vec<(u32, usize, usize)>,
    found: Option<FirstPacket>,
}

/// The index `k` in `…prefix[k]suffix`, when `name` has that shape.
fn index_in(name: &str, prefix: &str, suffix: &str) -> Option<u32> {
    let rest = name.split_once(prefix)?.1;
    let (k, tail) = rest.split_once(']')?;
    (tail == suffix).then_some(())?;
    k.parse().ok()
}

impl Watch {
    /// For the compared signals `names` of a design of `kind`; None when they lack the
    /// registers it reads.
    pub fn new(kind: ViewKind, names: &[(String, u32)]) -> Option<Watch> {
        let find = |want: &dyn Fn(&str) -> bool| names.iter().position(|(n, _)| want(n));
        let mut reqs = Vec::new();
        match kind {
            ViewKind::Link => {
                for (side, s) in ["u_a", "u_b"].iter().enumerate() {
                    let pkt = find(&|n| n.ends_with(&format!(".{s}.u_tcl.u_tx.pkt_q")))?;
                    let vc = find(&|n| n.ends_with(&format!(".{s}.u_tcl.u_tx.vc_q")))?;
                    reqs.push((side as u32, pkt, vc));
                }
            }
            ViewKind::Router { .. } | ViewKind::Node { .. } => {
                for (i, (n, _)) in names.iter().enumerate() {
                    if let Some(k) = index_in(n, ".u_router.gen_in[", ".u_in.req_q") {
                        let out =
                            find(&|m| index_in(m, ".u_router.gen_in[", ".u_in.out_q") == Some(k))?;
                        reqs.push((k, i, out));
                    }
                }
                reqs.sort();
            }
        }
        (!reqs.is_empty()).then_some(Watch {
            kind,
            reqs,
            found: None,
        })
    }

    /// The values of `cycle`, after its rising edge (`in_window`: its waves are written).
    pub fn see(&mut self, cycle: u64, values: &[u128], in_window: bool) {
        if self.found.is_some() || !in_window {
            return;
        }
        for &(k, req, arg) in &self.reqs {
            if values[req] & 1 == 1 {
                self.found = Some(match self.kind {
                    ViewKind::Link => FirstPacket::Link {
                        side: k,
                        vc: values[arg] as u32,
                        cycle,
                    },
                    _ => FirstPacket::Gate {
                        input: k,
                        output: values[arg] as u32,
                        cycle,
                    },
                });
                return;
            }
        }
    }

    pub fn found(&self) -> Option<FirstPacket> {
        self.found
    }

    pub fn kind(&self) -> ViewKind {
        self.kind
    }
}

const LINK: &str = include_str!("../../waves/link.gtkw");
const ROUTER: &str = include_str!("../../waves/router.gtkw");
const NODE: &str = include_str!("../../waves/node.gtkw");

/// Replaces every whole occurrence of each pair's first string by its second, at once (so that
/// swapping `u_a` and `u_b` works).
fn swap_all(text: &str, pairs: &[(String, String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'outer: while !rest.is_empty() {
        for (a, b) in pairs {
            if let Some(r) = rest.strip_prefix(a.as_str()) {
                out.push_str(b);
                rest = r;
                continue 'outer;
            }
        }
        let c = rest.chars().next().expect("not empty");
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The save file of a run: the design's file of `waves/` on the path of `first`, opening
/// `waves` (the RTL's wave file) at the first packet, the translate files under `dir`.
/// `first_sample_ps`: the time of the wave's first sample; `period_ps`: the clock period.
pub fn save_file(
    kind: ViewKind,
    first: FirstPacket,
    dir: &Path,
    waves: &Path,
    first_sample_ps: u64,
    period_ps: u64,
) -> String {
    let (template, what, cycle, pairs): (&str, String, u64, Vec<(String, String)>) =
        match (kind, first) {
            (ViewKind::Link, FirstPacket::Link { side, vc, cycle }) => {
                let s = |a: &str, b: &str| (a.to_string(), b.to_string());
                let mut p = vec![
                    s("gen_rx[0]", &format!("gen_rx[{vc}]")),
                    s("RX FIFO, VC 0", &format!("RX FIFO, VC {vc}")),
                ];
                if side == 1 {
                    p.extend([
                        s("u_a", "u_b"),
                        s("u_b", "u_a"),
                        s("u_lane_ab", "u_lane_ba"),
                        s("-A:", "-B:"),
                        s("-B:", "-A:"),
                        s("lane A to B", "lane B to A"),
                        s("A to B", "B to A"),
                    ]);
                }
                let from = if side == 0 { "A to B" } else { "B to A" };
                (
                    LINK,
                    format!("the first packet, {from} on VC {vc}"),
                    cycle,
                    p,
                )
            }
            (
                ViewKind::Router { n_intra, vcs } | ViewKind::Node { n_intra, vcs },
                FirstPacket::Gate {
                    input,
                    output,
                    cycle,
                },
            ) => {
                let node = matches!(kind, ViewKind::Node { .. });
                let slot = |k: u32| {
                    if k < n_intra {
                        format!("intra-tile port {k}")
                    } else {
                        let q = (k - n_intra) / vcs.max(1);
                        format!("inter-tile port {q}, VC {}", (k - n_intra) % vcs.max(1))
                    }
                };
                let (t_in, t_out) = if node { (0, 4) } else { (0, 1) };
                let link = if output >= n_intra {
                    (output - n_intra) / vcs.max(1)
                } else {
                    0
                };
                let s = |a: String, b: String| (a, b);
                let mut p = vec![
                    s(format!("gen_in[{t_in}]"), format!("gen_in[{input}]")),
                    s(format!("gen_out[{t_out}]"), format!("gen_out[{output}]")),
                    s(
                        format!("Input {t_in} (intra-tile port {t_in})"),
                        format!("Input {input} ({})", slot(input)),
                    ),
                    s(format!("Gate {t_in}"), format!("Gate {input}")),
                    s(
                        format!("input {t_in} to output {t_out}"),
                        format!("input {input} to output {output}"),
                    ),
                    s(
                        format!("Arbiter of output {t_out}"),
                        format!("Arbiter of output {output}"),
                    ),
                ];
                if node {
                    p.extend([
                        s(
                            "Output 4 (inter-tile port 0, VC 1)".into(),
                            format!("Output {output} ({})", slot(output)),
                        ),
                        s("gen_link[0]".into(), format!("gen_link[{link}]")),
                        s("Link 0".into(), format!("Link {link}")),
                    ]);
                } else {
                    p.push(s(
                        "Output 1 (intra-tile port 1)".into(),
                        format!("Output {output} ({})", slot(output)),
                    ));
                }
                let what = format!("the first packet, input {input} to output {output}");
                (if node { NODE } else { ROUTER }, what, cycle, p)
            }
            _ => unreachable!("a watch finds the packet of its own kind"),
        };
    let marker = cycle * period_ps + period_ps / 2;
    let start = marker.saturating_sub(10 * period_ps).max(first_sample_ps);
    let view = dir.join("view.gtkw");
    let translate = dir.join("translate");
    let mut out = String::new();
    out.push_str(&format!(
        "[*] GTKWave save file written by exanet cosim for this run: {what} (cycle {cycle}).\n\
         [*] Open with `gtkwave {}`: it names the RTL's waves; give the model's as the first \
         argument to see them instead.\n",
        view.display()
    ));
    out.push_str(&format!("[dumpfile] \"{}\"\n", waves.display()));
    for line in swap_all(template, &pairs).lines() {
        let l = if line.starts_with("[*]") {
            continue;
        } else if line.starts_with("[savefile]") {
            format!("[savefile] \"{}\"", view.display())
        } else if line.starts_with("[timestart]") {
            format!("[timestart] {start}")
        } else if let Some(z) = line.strip_prefix('*') {
            let zoom = z.split_whitespace().next().unwrap_or("-17");
            format!("*{zoom} {marker}")
        } else {
            line.replace(
                "/exanet/waves/translate/",
                &format!("{}/", translate.display()),
            )
        };
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// Writes `DIR/view.gtkw` and the translate files it applies into `DIR/translate/`.
pub fn write(dir: &Path, text: &str) -> Result<(), String> {
    let t = dir.join("translate");
    std::fs::create_dir_all(&t).map_err(|e| format!("{}: {e}", t.display()))?;
    for table in crate::wave::states::TABLES {
        let p = t.join(format!("{}.txt", table.name));
        std::fs::write(&p, table.translate_file()).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    let v = dir.join("view.gtkw");
    std::fs::write(&v, text).map_err(|e| format!("{}: {e}", v.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_read_from_whole_names() {
        assert_eq!(
            index_in(
                "TOP.t.u_router.gen_in[3].u_in.req_q",
                ".u_router.gen_in[",
                ".u_in.req_q"
            ),
            Some(3)
        );
        assert_eq!(
            index_in(
                "TOP.t.u_router.gen_in[3].u_in.req_qq",
                ".u_router.gen_in[",
                ".u_in.req_q"
            ),
            None
        );
    }

    #[test]
    fn swapping_is_simultaneous() {
        let p = vec![
            ("u_a".to_string(), "u_b".to_string()),
            ("u_b".into(), "u_a".into()),
        ];
        assert_eq!(swap_all("x.u_a.y u_b", &p), "x.u_b.y u_a");
    }
}
