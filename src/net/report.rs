//! The network's state as one self-contained HTML file (`exanet network run --report FILE`;
//! issue 15 §3 and issue 32 §3, after the HTML statistics and the GUI of Nüssle et al.
//! "Statistics" and "Simulation Controller"): the topology drawn (2-D and 3-D tori and meshes
//! as grids, one panel a plane; dragonflies as groups on a circle), every node labelled, each
//! direction of a link drawn as its own line coloured by its lane's utilisation, and at each
//! end a square coloured by how full that port's buffers are against their own capacity (the
//! sender's output FIFOs, the receiver's input FIFOs; each router filled by its fullest
//! buffer), colour scales with ticks, a slider over snapshots taken every N cycles that opens
//! on the last snapshot of the measurement window, and a table of the per-port counters at
//! the end, sorted by any column on a click.
//!
//! A snapshot reads the registers of every node between two runs of the engine (`Snapshot`):
//! per port, the words its RX has written (so the utilisation of a lane over an interval is two
//! 64-bit beats a word over the cycles, a lower bound: MAGIC, START and credit beats are not
//! counted, as the TCL keeps no count of them) and how full its input FIFOs (the crossbar
//! inputs the link's credits guard) and its output FIFOs (the TCL TX's) are: the fullest VC's
//! FIFO in credit units (the scarcer of its header/footer and payload halves, as the credit
//! count sees it) over its depth, in thousandths, since one full VC stops that VC's packets;
//! per node the same of its injection (intra-tile TX) FIFOs.
//! A torus's wrap-around links are drawn as stubs out of the border nodes, and a 3-D torus's
//! links between planes as diagonal stubs. The page needs nothing from the network: the data
//! are a JSON object in the file and the drawing is a short script writing SVG. Opened with
//! `#selftest`, the page checks what it drew (it opened inside the measurement window, moving
//! the slider changes the drawing, two lines a link, a label a node, everything inside the
//! drawing, a click on a column sorts the table) and writes the outcome into
//! `<pre id="selftest">`; any script error is written into `<pre id="errors">` (the test suite
//! opens it in headless Chromium).

use super::engine::Network;
use crate::pktfifo::PktFifo;
use serde::Serialize;

/// The registers read at one cycle.
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    pub cycle: u64,
    /// Per node and port (`node * ports + port`): words its RX has written so far.
    pub rx_words: Vec<u32>,
    /// Per node and port: how full the port's fullest input (RX) FIFO is, in thousandths of
    /// its depth in credit units.
    pub input_fill: Vec<u16>,
    /// Per node and port: the words its input FIFOs hold (headers, payload and footers, every
    /// VC).
    pub input_words: Vec<u32>,
    /// Per node and port: how full its output (TCL TX) FIFOs are, in thousandths.
    pub output_fill: Vec<u16>,
    /// Per node: how full its injection (intra-tile TX) FIFOs are, in thousandths.
    pub inject_fill: Vec<u16>,
}

/// One port's counters at the end of the run.
#[derive(Debug, Clone, Serialize)]
pub struct PortRow {
    pub node: usize,
    pub port: usize,
    /// The node and port at the other end.
    pub to: usize,
    pub to_port: usize,
    pub packets_sent: u32,
    pub words_received: u32,
    pub packets_received: u32,
    pub stall_cycles: u32,
    pub credits_received: u32,
    pub crc_errors: u32,
    pub lost: u32,
    pub marked_down: u32,
    /// The fullest the port's input FIFOs were at any snapshot, in thousandths.
    pub peak_input_fill: u16,
    /// The fullest the port's output FIFOs were at any snapshot, in thousandths.
    pub peak_output_fill: u16,
}

/// What the page draws: the topology, the snapshots, the port table.
#[derive(Debug, Serialize)]
pub struct ReportData {
    pub title: String,
    /// `grid` (tori and meshes: `size`, node x = i mod X ...) or `dragonfly` (`groups`,
    /// `routers`).
    pub layout: &'static str,
    pub size: Vec<u8>,
    pub groups: usize,
    pub routers: usize,
    pub nodes: usize,
    pub ports: usize,
    /// Every link once: (node, port, node, port).
    pub links: Vec<(usize, usize, usize, usize)>,
    /// The measurement window, cycles `[start, end)`.
    pub window: (u64, u64),
    /// Virtual channels of a port: a packet FIFO each, on either side.
    pub vcs: u32,
    /// A VC's input packet FIFO, words: (header/footer, payload).
    pub input_depth: (u32, u32),
    /// A VC's output packet FIFO, words: (header/footer, payload).
    pub output_depth: (u32, u32),
    pub snapshots: Vec<Snapshot>,
    pub port_table: Vec<PortRow>,
}

/// How full the fullest of `fifos` is, in thousandths: each packet FIFO's occupancy in credit
/// units (`PktFifo::units`: the scarcer of its header/footer and payload FIFOs, in payload
/// words) over its payload depth, as the credits the port's link partner holds see it; and the
/// words they hold together.
fn fill<'a>(fifos: impl Iterator<Item = &'a PktFifo>) -> (u16, u32) {
    let (mut most, mut words) = (0u16, 0u32);
    for f in fifos {
        words += f.hf.usedw() + f.pay.usedw();
        let (u, d) = (f.units() as u64, f.params().pay_depth as u64);
        if let Some(t) = (u * 1000 + d / 2).checked_div(d) {
            most = most.max(t.min(1000) as u16);
        }
    }
    (most, words)
}

impl Snapshot {
    /// The registers of every node of `net` now (the nodes this process holds).
    pub fn of(net: &Network) -> Snapshot {
        let ports = net.topo.ports();
        let n = net.topo.nodes();
        let mut s = Snapshot {
            cycle: net.cycle,
            rx_words: vec![0; n * ports],
            input_fill: vec![0; n * ports],
            input_words: vec![0; n * ports],
            output_fill: vec![0; n * ports],
            inject_fill: vec![0; n],
        };
        for node in &net.nodes {
            let r = &node.dp.router;
            let nv = r.p.num_vcs;
            s.inject_fill[node.id] = fill((0..r.p.n_intra).map(|p| r.intra_tx(p))).0;
            for (q, l, _) in node.wired() {
                let i = node.id * ports + q;
                s.rx_words[i] = l.tcl.rx.stat_words;
                (s.input_fill[i], s.input_words[i]) =
                    fill((0..nv).map(|v| r.inter_rx(q as u32, v)));
                s.output_fill[i] = fill((0..nv).map(|v| r.inter_tx(q as u32, v))).0;
            }
        }
        s
    }
}

/// The topology, the final per-port counters and `snapshots` of `net`, whose measurement
/// window is `window`.
pub fn report_data(
    net: &Network,
    title: String,
    window: (u64, u64),
    snapshots: Vec<Snapshot>,
) -> ReportData {
    let t = net.topo.as_ref();
    let ports = t.ports();
    let mut links = Vec::new();
    for a in 0..t.nodes() {
        for q in 0..ports {
            if let Some((b, r)) = t.link(a, q) {
                if (a, q) < (b, r) {
                    links.push((a, q, b, r));
                }
            }
        }
    }
    let mut port_table = Vec::new();
    for node in &net.nodes {
        for (q, l, p) in node.wired() {
            let (tx, rx) = (&l.tcl.tx, &l.tcl.rx);
            let (to, to_port) = t.link(node.id, q).unwrap_or((node.id, q));
            let i = node.id * ports + q;
            port_table.push(PortRow {
                node: node.id,
                port: q,
                to,
                to_port,
                packets_sent: tx.sent(),
                words_received: rx.stat_words,
                packets_received: rx.stat_pkts,
                stall_cycles: tx.stat_stall,
                credits_received: rx.stat_credits,
                crc_errors: rx.stat_crc_err,
                lost: rx.stat_lost,
                marked_down: p.fault.downs,
                peak_input_fill: snapshots.iter().map(|s| s.input_fill[i]).max().unwrap_or(0),
                peak_output_fill: snapshots
                    .iter()
                    .map(|s| s.output_fill[i])
                    .max()
                    .unwrap_or(0),
            });
        }
    }
    let (layout, size, groups, routers) = match (t.shape(), t.dragonfly()) {
        (Some(s), _) => ("grid", s.size.clone(), 0, 0),
        (None, Some(d)) => ("dragonfly", Vec::new(), d.g as usize, d.a as usize),
        // an explicit graph: every node on one circle (a group of one router each)
        _ => ("circle", Vec::new(), t.nodes(), 1),
    };
    let depth = |f: &crate::pktfifo::PktFifoParams| (f.hf_depth, f.pay_depth);
    let (vcs, input_depth, output_depth) = net.nodes.first().map_or((0, (0, 0), (0, 0)), |n| {
        let p = &n.dp.router.p;
        (p.num_vcs, depth(&p.inter_rx_fifo), depth(&p.inter_tx_fifo))
    });
    ReportData {
        title,
        layout,
        size,
        groups,
        routers,
        nodes: t.nodes(),
        ports,
        links,
        window,
        vcs,
        input_depth,
        output_depth,
        snapshots,
        port_table,
    }
}

/// The page: `data` as JSON inside it, the drawing script, no outside resource.
pub fn render_html(data: &ReportData) -> Result<String, String> {
    let json = serde_json::to_string(data).map_err(|e| e.to_string())?;
    // a JSON string never holds "</" after escaping "<"; keep the script element closed
    let json = json.replace('<', "\\u003c");
    Ok(PAGE
        .replace("@TITLE@", &crate::plot::escape_xml(&data.title))
        .replace("@DATA@", &json))
}

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>@TITLE@</title>
<style>
body { font-family: sans-serif; margin: 1em; color: #222; }
#view { border: 1px solid #ccc; background: #fff; display: block; }
#view text.label { font-size: 10px; text-anchor: middle; dominant-baseline: central; fill: #222; pointer-events: none; }
#scales text { font-size: 11px; fill: #222; }
table { border-collapse: collapse; font-size: 12px; margin-top: 1em; }
td, th { border: 1px solid #ccc; padding: 2px 5px; text-align: right; }
th { max-width: 5.5em; font-size: 11px; }
th { cursor: pointer; background: #f4f4f4; user-select: none; }
th:hover { background: #e4e4ff; }
pre { color: #a00; }
#when { font-weight: bold; }
</style></head>
<body>
<h2>@TITLE@</h2>
<div>snapshot: <input type="range" id="slider" min="0" max="0" value="0" style="width: 40em">
<span id="when"></span></div>
<svg id="scales" width="900" height="58" xmlns="http://www.w3.org/2000/svg"></svg>
<svg id="view" width="900" height="640" xmlns="http://www.w3.org/2000/svg"></svg>
<p style="font-size: 12px; max-width: 900px">Each direction of a link is its own line, to the
right of the way it goes, coloured by its lane's utilisation over the interval before the
snapshot (two 64-bit beats a word its far end's RX wrote, over the cycles; a lower bound without
the MAGIC, START and credit beats). The square where a line arrives is the input buffer it fills
(that port's RX packet FIFOs), coloured by how full its fullest VC's FIFO is against that FIFO's
own capacity, in credit units (the scarcer of its header/footer and payload halves); the square
where it leaves is the sender's output buffer (that port's TCL TX FIFOs), the same way; a router
is filled by its fullest buffer (input, output or injection). <span id="depths"></span> Hover for
figures; click a column of the table to sort by it.</p>
<pre id="errors"></pre><pre id="selftest"></pre>
<table id="ports"></table>
<script id="data" type="application/json">@DATA@</script>
<script>
window.onerror = function (msg, src, line) {
  document.getElementById("errors").textContent += "script error: " + msg + " (line " + line + ")\n";
};
const D = JSON.parse(document.getElementById("data").textContent);
const svg = document.getElementById("view");
const M = 22;                       // margin around the drawing, px
let W = 900, H = 640;
const pos = [];                     // per node: [x, y, cell, node radius]
let labelAt = null;                 // per node: where its label goes
const X = D.size[0] || 1, Y = D.size[1] || 1, Z = D.size[2] || 1;
const plane = i => Math.floor(i / (X * Y));
if (D.layout === "grid") {
  const pw = W / Z, cell = Math.min((pw - 2 * M) / X, (640 - 2 * M - 14) / Y);
  H = Math.ceil(2 * M + 14 + Y * cell);
  for (let i = 0; i < D.nodes; i++) {
    const x = i % X, y = Math.floor(i / X) % Y, z = plane(i);
    pos.push([z * pw + (pw - X * cell) / 2 + (x + 0.5) * cell, M + 14 + (Y - y - 0.5) * cell, cell, Math.max(3, 0.24 * cell)]);
  }
  labelAt = i => [pos[i][0], pos[i][1]];
} else {
  // groups on a circle of radius R, a group's routers on a circle of radius r around its
  // place; R + r + a node and its label fit inside the drawing
  const G = D.groups, A = D.routers, S = Math.min(W, H) / 2 - M - 14;
  let r = Math.min(45, 0.5 * Math.PI * S / G);
  const R = S - r;
  r = Math.min(r, 0.5 * Math.PI * R / G);
  const rad = Math.max(3, Math.min(10, 0.3 * r, 0.5 * Math.PI * r / A));
  const ctr = [];
  for (let i = 0; i < D.nodes; i++) {
    const g = Math.floor(i / A), k = i % A, a = 2 * Math.PI * g / G, b = 2 * Math.PI * k / A + a;
    const cx = W / 2 + R * Math.cos(a), cy = H / 2 + R * Math.sin(a);
    ctr.push([cx, cy]);
    pos.push([cx + r * Math.cos(b), cy + r * Math.sin(b), 2 * Math.PI * r / A, rad]);
  }
  labelAt = i => {
    const [cx, cy] = ctr[i], [x, y, , rd] = pos[i], d = Math.hypot(x - cx, y - cy) || 1;
    return [x + (x - cx) / d * (rd + 7), y + (y - cy) / d * (rd + 7)];
  };
}
svg.setAttribute("height", H);
document.getElementById("depths").textContent = "A port has " + D.vcs + " VC(s) a side; a VC's input FIFO holds " +
  D.input_depth[0] + " header/footer and " + D.input_depth[1] + " payload words, its output FIFO " + D.output_depth[0] +
  " and " + D.output_depth[1] + ".";
svg.setAttribute("viewBox", "0 0 " + W + " " + H);
function linkColour(u) {
  if (!(u > 0)) return "hsl(220,40%,85%)";
  return "hsl(" + (110 * (1 - Math.min(1, u))).toFixed(0) + ",75%,45%)";
}
function fillColour(o) {
  o = Math.min(1, Math.max(0, o));
  return "hsl(" + (50 - 50 * o).toFixed(0) + ",90%," + (97 - 62 * o).toFixed(0) + "%)";
}
const f3 = v => v.toFixed(3);
function coords(i) {
  if (D.layout !== "grid") return "group " + Math.floor(i / D.routers) + ", router " + (i % D.routers);
  const c = [i % X, Math.floor(i / X) % Y, plane(i)].slice(0, D.size.length);
  return "(" + c.join(",") + ")";
}
// The pieces of the lane from node a to node b: [from, to, arrives at b] segments. A link
// between neighbours is one segment; a wrap-around link a stub out of each end; a link
// between planes of a 3-D grid a diagonal stub out of each end.
function pieces(a, b) {
  const [x1, y1, c] = pos[a], [x2, y2] = pos[b];
  if (D.layout !== "grid") return [[[x1, y1], [x2, y2], true]];
  if (plane(a) !== plane(b)) {
    const d = 0.42 * c, s = plane(b) > plane(a) ? 1 : -1;
    return [[[x1, y1], [x1 + s * d, y1 - s * d], false], [[x2 - s * d, y2 + s * d], [x2, y2], true]];
  }
  if (Math.hypot(x2 - x1, y2 - y1) > 1.6 * c) {
    const ux = Math.sign(x2 - x1) * 0.45 * c, uy = Math.sign(y2 - y1) * 0.45 * c;
    return [[[x1, y1], [x1 - ux, y1 - uy], false], [[x2 + ux, y2 + uy], [x2, y2], true]];
  }
  return [[[x1, y1], [x2, y2], true]];
}
const wrapped = (a, b) => D.layout === "grid" && pieces(a, b).length > 1;
// one lane, a → b into b's port r: a line (or two stubs) offset to its right, a square where
// it leaves (a's output FIFOs of port q) and one where it arrives (b's input FIFOs of port r)
function lane(a, q, b, r, u, fill, words, outFill) {
  const [, , c, ra] = pos[a], rb = pos[b][3];
  const off = D.layout === "grid" ? Math.max(1.5, 0.07 * c) : 1.4;
  const sw = D.layout === "grid" ? Math.max(1.5, Math.min(4, 0.05 * c)) : 1.2;
  const sq = D.layout === "grid" ? Math.max(3, 0.11 * c) : Math.max(2.5, 0.5 * rb);
  const t = "lane " + a + " port " + q + " → " + b + " port " + r + (wrapped(a, b) ? " (wrap-around)" : "") +
    ": utilisation " + f3(u) + "; output buffer of " + a + " port " + q + ": " + f3(outFill) + " full; input buffer of " +
    b + " port " + r + ": " + f3(fill) + " full (" + words + " words)";
  const square = (cls, x, y, v) => '<rect class="' + cls + '" data-fill="' + f3(v) + '" x="' + (x - sq / 2).toFixed(1) +
    '" y="' + (y - sq / 2).toFixed(1) + '" width="' + sq.toFixed(1) + '" height="' + sq.toFixed(1) + '" fill="' +
    fillColour(v) + '" stroke="#555" stroke-width="0.5"><title>' + t + '</title></rect>';
  let out = "";
  for (const [[px, py], [qx, qy], arrives] of pieces(a, b)) {
    const len = Math.hypot(qx - px, qy - py) || 1, dx = (qx - px) / len, dy = (qy - py) / len;
    const nx = -dy * off, ny = dx * off;            // to the right of the way it goes
    const leaves = px === pos[a][0] && py === pos[a][1];
    const s0 = leaves ? ra + sq : 0, s1 = arrives ? rb + sq : 0;
    const ax = px + dx * s0 + nx, ay = py + dy * s0 + ny, bx = qx - dx * s1 + nx, by = qy - dy * s1 + ny;
    out += '<line data-lane="' + a + ':' + q + '" x1="' + ax.toFixed(1) + '" y1="' + ay.toFixed(1) + '" x2="' + bx.toFixed(1) +
      '" y2="' + by.toFixed(1) + '" stroke="' + linkColour(u) + '" stroke-width="' + sw.toFixed(1) + '"><title>' + t + '</title></line>';
    if (leaves) out += square("out", px + dx * (ra + sq / 2) + nx, py + dy * (ra + sq / 2) + ny, outFill);
    if (arrives) out += square("port", qx - dx * (rb + sq / 2) + nx, qy - dy * (rb + sq / 2) + ny, fill);
  }
  return out;
}
function phase(c) {
  return c <= D.window[0] ? "warm-up" : c <= D.window[1] ? "measurement window" : "drain";
}
function draw(k) {
  const s = D.snapshots[k], prev = k > 0 ? D.snapshots[k - 1] : null;
  const dt = prev ? s.cycle - prev.cycle : s.cycle;
  document.getElementById("when").textContent = "cycle " + s.cycle + " (" + (k + 1) + " of " + D.snapshots.length +
    "): " + phase(s.cycle) + " (window: cycles " + D.window[0] + " to " + D.window[1] + ")";
  let out = "";
  if (D.layout === "grid" && Z > 1)
    for (let z = 0; z < Z; z++)
      out += '<text x="' + ((z + 0.5) * W / Z).toFixed(1) + '" y="' + (M - 4) + '" font-size="12" text-anchor="middle">z = ' + z + '</text>';
  const P = D.ports;
  for (const [a, q, b, r] of D.links) {
    for (const [f, fq, t, tq] of [[a, q, b, r], [b, r, a, q]]) {
      // the lane f → t: words written by t's RX in the interval, two beats a word
      const i = t * P + tq, w = s.rx_words[i] - (prev ? prev.rx_words[i] : 0);
      out += lane(f, fq, t, tq, dt > 0 ? w * 2 / dt : 0, s.input_fill[i] / 1000, s.input_words[i], s.output_fill[f * P + fq] / 1000);
    }
  }
  const font = D.layout === "grid" ? Math.min(12, pos[0][3] * 0.9) : 9;
  for (let i = 0; i < D.nodes; i++) {
    const [x, y, , rad] = pos[i];
    let o = s.inject_fill[i], at = "its injection FIFOs";
    for (let q = 0; q < P; q++) {
      if (s.input_fill[i * P + q] > o) { o = s.input_fill[i * P + q]; at = "input port " + q; }
      if (s.output_fill[i * P + q] > o) { o = s.output_fill[i * P + q]; at = "output port " + q; }
    }
    out += '<circle cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="' + rad.toFixed(1) + '" fill="' + fillColour(o / 1000) +
      '" stroke="#555"><title>node ' + i + ' ' + coords(i) + ': fullest buffer ' + f3(o / 1000) + ' (' + at + '); injection FIFOs ' +
      f3(s.inject_fill[i] / 1000) + '</title></circle>';
    if (font >= 5) {
      const [lx, ly] = labelAt(i);
      const ink = D.layout === "grid" && o > 600 ? "#fff" : "#222";
      out += '<text class="label" x="' + lx.toFixed(1) + '" y="' + ly.toFixed(1) + '" style="font-size: ' + font.toFixed(1) +
        'px; fill: ' + ink + '">' + i + '</text>';
    }
  }
  svg.innerHTML = out;
}
// the colour scales, with ticks
(function () {
  const sc = document.getElementById("scales");
  let out = "<defs>";
  for (const [id, fn] of [["gu", linkColour], ["gf", fillColour]]) {
    out += '<linearGradient id="' + id + '">';
    for (let j = 0; j <= 20; j++) out += '<stop offset="' + (j * 5) + '%" stop-color="' + fn(Math.max(j / 20, 1e-9)) + '"/>';
    out += "</linearGradient>";
  }
  out += "</defs>";
  const bar = (x0, id, name) => {
    let t = '<text x="' + x0 + '" y="12">' + name + '</text><rect x="' + x0 + '" y="18" width="300" height="12" fill="url(#' + id + ')" stroke="#888"/>';
    for (let j = 0; j <= 4; j++) {
      const x = x0 + 75 * j;
      t += '<line class="tick" x1="' + x + '" y1="30" x2="' + x + '" y2="35" stroke="#222"/>';
      t += '<text class="tick-label" x="' + x + '" y="47" text-anchor="middle">' + (j / 4) + '</text>';
    }
    return t;
  };
  out += bar(20, "gu", "lane utilisation (beats a cycle, words ×2)");
  out += '<rect x="330" y="18" width="12" height="12" fill="' + linkColour(0) + '" stroke="#888"/><text x="346" y="28">idle</text>';
  out += bar(480, "gf", "buffer fill (of the buffer's own capacity)");
  sc.innerHTML = out;
})();
const slider = document.getElementById("slider");
slider.max = D.snapshots.length - 1;
// open on the last snapshot of the measurement window (else the one nearest its end)
let open = -1;
D.snapshots.forEach((s, k) => { if (s.cycle > D.window[0] && s.cycle <= D.window[1]) open = k; });
if (open < 0) {
  let best = Infinity;
  D.snapshots.forEach((s, k) => { const d = Math.abs(s.cycle - D.window[1]); if (d < best) { best = d; open = k; } });
}
slider.value = open;
slider.addEventListener("input", function () { draw(+slider.value); });
draw(open);
// the per-port table, sorted by a click on a column (again: the other way)
const cols = ["node", "port", "to", "to_port", "packets_sent", "packets_received", "words_received", "stall_cycles",
  "credits_received", "crc_errors", "lost", "marked_down", "peak_input_fill", "peak_output_fill"];
const shown = (row, c) => c.endsWith("_fill") ? f3(row[c] / 1000) : row[c];
let sortBy = null, sortDown = true;
function table() {
  const rows = D.port_table.slice();
  if (sortBy !== null) rows.sort((p, q) => sortDown ? q[sortBy] - p[sortBy] : p[sortBy] - q[sortBy]);
  let h = "<tr>" + cols.map(c => '<th data-col="' + c + '">' + c.replace(/_/g, " ") + (c === sortBy ? (sortDown ? " ▼" : " ▲") : "") + "</th>").join("") + "</tr>";
  for (const row of rows) h += "<tr>" + cols.map(c => "<td>" + shown(row, c) + "</td>").join("") + "</tr>";
  const t = document.getElementById("ports");
  t.innerHTML = h;
  for (const th of t.querySelectorAll("th"))
    th.addEventListener("click", function () {
      const c = th.dataset.col;
      sortDown = c === sortBy ? !sortDown : true;
      sortBy = c;
      table();
    });
}
table();
if (location.hash === "#selftest") {
  const checks = [], facts = [];
  const c0 = D.snapshots[open].cycle;
  checks.push(["it opens inside the measurement window", c0 > D.window[0] && c0 <= D.window[1]]);
  facts.push("opens at cycle " + c0 + " of the window " + D.window[0] + " to " + D.window[1]);
  let fullest = 0;
  for (const r of svg.querySelectorAll("rect.port")) fullest = Math.max(fullest, +r.dataset.fill);
  facts.push("fullest input buffer drawn " + f3(fullest));
  const lanes = new Set(Array.from(svg.querySelectorAll("[data-lane]"), e => e.dataset.lane));
  const squares = cls => svg.querySelectorAll("rect." + cls).length;
  checks.push(["a line each direction of each link, a square where it leaves and one where it arrives",
    lanes.size === 2 * D.links.length && squares("port") === 2 * D.links.length && squares("out") === 2 * D.links.length]);
  facts.push(lanes.size + " lanes");
  const labels = svg.querySelectorAll("text.label").length;
  checks.push(["a label each node", labels === D.nodes]);
  const bb = svg.getBBox();
  checks.push(["the drawing inside its frame", bb.x >= -0.5 && bb.y >= -0.5 && bb.x + bb.width <= W + 0.5 && bb.y + bb.height <= H + 0.5]);
  facts.push("drawing " + bb.width.toFixed(0) + "x" + bb.height.toFixed(0) + " at " + bb.x.toFixed(0) + "," + bb.y.toFixed(0) + " in " + W + "x" + H);
  checks.push(["colour scales with ticks", document.querySelectorAll("#scales line.tick").length === 10]);
  const first = svg.innerHTML;
  slider.value = 0; slider.dispatchEvent(new Event("input"));
  const moved = svg.innerHTML;
  slider.value = open; slider.dispatchEvent(new Event("input"));
  checks.push(["the slider changes the drawing", D.snapshots.length > 1 && first !== moved && svg.innerHTML === first]);
  const column = c => Array.from(document.querySelectorAll("#ports tr"), tr => tr.children[cols.indexOf(c)]).slice(1).map(td => +td.textContent);
  const th = c => document.querySelector('#ports th[data-col="' + c + '"]');
  th("stall_cycles").click();
  const down = column("stall_cycles");
  th("stall_cycles").click();
  const up = column("stall_cycles");
  checks.push(["a click sorts the table, a second the other way",
    down.length === D.port_table.length && down.every((v, i) => i === 0 || down[i - 1] >= v) && up.every((v, i) => i === 0 || up[i - 1] <= v)]);
  sortBy = null; table();
  const failed = checks.filter(c => !c[1]).map(c => c[0]);
  document.getElementById("selftest").textContent = (failed.length === 0 ? "selftest ok: " : "selftest failed: " + failed.join("; ") + "; ")
    + facts.join("; ");
}
</script>
</body></html>
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_its_data_and_no_outside_resource() {
        let d = ReportData {
            title: "t <x>".into(),
            layout: "grid",
            size: vec![2, 2],
            groups: 0,
            routers: 0,
            nodes: 4,
            ports: 4,
            links: vec![(0, 0, 1, 1)],
            window: (0, 10),
            vcs: 1,
            input_depth: (16, 64),
            output_depth: (16, 64),
            snapshots: vec![Snapshot {
                cycle: 10,
                rx_words: vec![0; 16],
                input_fill: vec![0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                input_words: vec![0; 16],
                output_fill: vec![0; 16],
                inject_fill: vec![0; 4],
            }],
            port_table: Vec::new(),
        };
        let h = render_html(&d).unwrap();
        assert!(h.contains("t &lt;x&gt;"));
        assert!(h.contains(r#""input_fill":[0,1,2,3,"#));
        assert!(!h.contains("src=\"http") && !h.contains("href=\"http"));
    }

    #[test]
    fn a_buffer_is_as_full_as_the_fullest_of_its_fifos_in_credit_units() {
        use crate::block::Block;
        use crate::pktfifo::{PktFifoIn, PktFifoParams};
        let p = PktFifoParams {
            hf_depth: 8,
            pay_depth: 64,
            latency: 2,
        };
        let (mut a, b) = (PktFifo::reset(&p), PktFifo::reset(&p));
        assert_eq!(fill([&a, &b].into_iter()), (0, 0));
        // a header, two payload words: 1 of 8 header/footer words = 8 of 64 units
        for w in [true, false, false] {
            let n = a.eval(&PktFifoIn {
                wr_hf: w,
                wr_pay: !w,
                wdata: 1,
                ..Default::default()
            });
            a.commit(n);
        }
        assert_eq!(fill([&a, &b].into_iter()), (125, 3));
        assert_eq!(
            fill([&b, &a].into_iter()),
            (125, 3),
            "the fullest, in any order"
        );
    }
}
