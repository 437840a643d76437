//! The network's state as one self-contained HTML file (`exanet network run --report FILE`;
//! issue 15 §3, after the HTML statistics and the GUI of Nüssle et al. "Statistics" and
//! "Simulation Controller"): the topology drawn (2-D and 3-D tori and meshes as grids, one
//! panel a plane; dragonflies as groups on a circle), each link coloured by its utilisation and
//! each router by its buffer occupancy, a slider over snapshots taken every N cycles, and the
//! per-port counters (packets, words, stalls, credits, errors) at the end.
//!
//! A snapshot reads the registers of every node between two runs of the engine (`Snapshot`):
//! the words the router's FIFOs hold, and per port the words its RX has written (so the
//! utilisation of a lane over an interval is two 64-bit beats a word over the cycles, a lower
//! bound: MAGIC, START and credit beats are not counted, as the TCL keeps no count of them; a
//! link is coloured by the busier of its two lanes). A torus's wrap-around links are drawn as stubs
//! out of the border nodes, and a 3-D torus's links between planes as diagonal stubs. The page
//! needs nothing from the network: the data are a JSON object in the file and the drawing is a
//! short script writing SVG. Opened with `#selftest`, the page moves its slider and writes into
//! `<pre id="selftest">` whether the drawing changed; any script error is written into
//! `<pre id="errors">` (the test suite opens it in headless Chromium).

use super::engine::Network;
use serde::Serialize;

/// The registers read at one cycle.
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    pub cycle: u64,
    /// Per node: the 128-bit words its router's FIFOs hold (input and output).
    pub fifo_words: Vec<u32>,
    /// Per node and port (`node * ports + port`): words its RX has written so far.
    pub rx_words: Vec<u32>,
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
    /// The router's FIFO capacity in words (for the occupancy colour scale).
    pub fifo_capacity: u64,
    pub snapshots: Vec<Snapshot>,
    pub port_table: Vec<PortRow>,
}

impl Snapshot {
    /// The registers of every node of `net` now (the nodes this process holds).
    pub fn of(net: &Network) -> Snapshot {
        let ports = net.topo.ports();
        let n = net.topo.nodes();
        let mut fifo_words = vec![0u32; n];
        let mut rx_words = vec![0u32; n * ports];
        for node in &net.nodes {
            let r = &node.dp.router;
            let held: u32 = r
                .ins
                .iter()
                .map(|s| &s.fifo)
                .chain(r.outs.iter().flatten().map(|o| &o.fifo))
                .map(|f| f.hf.usedw() + f.pay.usedw())
                .sum();
            fifo_words[node.id] = held;
            for (q, l, _) in node.wired() {
                rx_words[node.id * ports + q] = l.tcl.rx.stat_words;
            }
        }
        Snapshot {
            cycle: net.cycle,
            fifo_words,
            rx_words,
        }
    }
}

/// The topology, the final per-port counters and `snapshots` of `net`.
pub fn report_data(net: &Network, title: String, snapshots: Vec<Snapshot>) -> ReportData {
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
            });
        }
    }
    let (layout, size, groups, routers) = match (t.shape(), t.dragonfly()) {
        (Some(s), _) => ("grid", s.size.clone(), 0, 0),
        (None, Some(d)) => ("dragonfly", Vec::new(), d.g as usize, d.a as usize),
        _ => ("grid", vec![t.nodes().min(255) as u8], 0, 0),
    };
    let (_, depth) = net.fifo_words();
    ReportData {
        title,
        layout,
        size,
        groups,
        routers,
        nodes: t.nodes(),
        ports,
        links,
        fifo_capacity: depth / t.nodes().max(1) as u64,
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
#view { border: 1px solid #ccc; background: #fff; }
table { border-collapse: collapse; font-size: 12px; margin-top: 1em; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
#legend span { display: inline-block; width: 2em; height: 0.8em; }
pre { color: #a00; }
</style></head>
<body>
<h2>@TITLE@</h2>
<div>snapshot: <input type="range" id="slider" min="0" max="0" value="0" style="width: 40em">
<span id="when"></span></div>
<div id="legend">links: utilisation by words (two beats a word received; framing and credit beats
not counted) 0 <span style="background: hsl(220,70%,85%)"></span>
<span style="background: hsl(110,70%,45%)"></span><span style="background: hsl(0,80%,45%)"></span> 1;
routers: buffer occupancy 0 <span style="background: #fff; border: 1px solid #888"></span>
<span style="background: hsl(30,90%,50%)"></span> full</div>
<svg id="view" width="900" height="640" xmlns="http://www.w3.org/2000/svg"></svg>
<pre id="errors"></pre><pre id="selftest"></pre>
<table id="ports"></table>
<script id="data" type="application/json">@DATA@</script>
<script>
window.onerror = function (msg, src, line) {
  document.getElementById("errors").textContent += "script error: " + msg + " (line " + line + ")\n";
};
const D = JSON.parse(document.getElementById("data").textContent);
const svg = document.getElementById("view");
const W = 900, H = 640;
// node positions
const pos = [];
if (D.layout === "grid") {
  const X = D.size[0] || 1, Y = D.size[1] || 1, Z = D.size[2] || 1;
  const pw = W / Z, cell = Math.min((pw - 20) / X, (H - 20) / Y);
  for (let i = 0; i < D.nodes; i++) {
    const x = i % X, y = Math.floor(i / X) % Y, z = Math.floor(i / (X * Y));
    pos.push([z * pw + 10 + (x + 0.5) * cell, 10 + (Y - y - 0.5) * cell, cell]);
  }
} else {
  const G = D.groups, A = D.routers, R = Math.min(W, H) / 2 - 40;
  const r = Math.max(8, Math.min(40, Math.PI * R / G * 0.8));
  for (let i = 0; i < D.nodes; i++) {
    const g = Math.floor(i / A), k = i % A;
    const cx = W / 2 + R * Math.cos(2 * Math.PI * g / G), cy = H / 2 + R * Math.sin(2 * Math.PI * g / G);
    pos.push([cx + r * Math.cos(2 * Math.PI * k / A), cy + r * Math.sin(2 * Math.PI * k / A), 2 * r / A + 4]);
  }
}
function linkColour(u) {
  if (!(u > 0)) return "hsl(220,70%,85%)";
  const h = 110 * (1 - Math.min(1, u));
  return "hsl(" + h.toFixed(0) + ",75%,45%)";
}
function nodeColour(o) {
  const l = 100 - 50 * Math.min(1, o);
  return "hsl(30,90%," + l.toFixed(0) + "%)";
}
function draw(k) {
  const s = D.snapshots[k], prev = k > 0 ? D.snapshots[k - 1] : null;
  const dt = prev ? s.cycle - prev.cycle : s.cycle;
  document.getElementById("when").textContent = "cycle " + s.cycle + " (" + (k + 1) + " of " + D.snapshots.length + ")";
  let out = "";
  for (const [a, q, b, r] of D.links) {
    // both lanes: words written by each end's RX in the interval, two beats a word
    const w1 = s.rx_words[b * D.ports + r] - (prev ? prev.rx_words[b * D.ports + r] : 0);
    const w2 = s.rx_words[a * D.ports + q] - (prev ? prev.rx_words[a * D.ports + q] : 0);
    const u = dt > 0 ? Math.max(w1, w2) * 2 / dt : 0;
    const [x1, y1, c1] = pos[a], [x2, y2] = pos[b];
    const far = Math.hypot(x2 - x1, y2 - y1) > 1.6 * c1 && D.layout === "grid";
    const X = D.size[0] || 1, Y = D.size[1] || 1;
    const zlink = D.layout === "grid" && Math.floor(a / (X * Y)) !== Math.floor(b / (X * Y));
    if (zlink) {
      // along the third dimension, between two planes: a diagonal stub out of each end
      const d = 0.3 * c1;
      out += '<line x1="' + x1 + '" y1="' + y1 + '" x2="' + (x1 + d) + '" y2="' + (y1 - d) + '" stroke="' + linkColour(u) + '" stroke-width="3"><title>link ' + a + '-' + b + ' (z): ' + u.toFixed(3) + '</title></line>';
      out += '<line x1="' + x2 + '" y1="' + y2 + '" x2="' + (x2 - d) + '" y2="' + (y2 + d) + '" stroke="' + linkColour(u) + '" stroke-width="3"/>';
    } else if (far) {
      // a wrap-around link: a stub out of each end
      const dx = Math.sign(x2 - x1) * 0.35 * c1, dy = Math.sign(y2 - y1) * 0.35 * c1;
      out += '<line x1="' + x1 + '" y1="' + y1 + '" x2="' + (x1 - dx) + '" y2="' + (y1 - dy) + '" stroke="' + linkColour(u) + '" stroke-width="3"><title>link ' + a + '-' + b + ': ' + u.toFixed(3) + '</title></line>';
      out += '<line x1="' + x2 + '" y1="' + y2 + '" x2="' + (x2 + dx) + '" y2="' + (y2 + dy) + '" stroke="' + linkColour(u) + '" stroke-width="3"/>';
    } else {
      out += '<line x1="' + x1 + '" y1="' + y1 + '" x2="' + x2 + '" y2="' + y2 + '" stroke="' + linkColour(u) + '" stroke-width="' + (D.layout === "grid" ? 4 : 1) + '"><title>link ' + a + '-' + b + ': ' + u.toFixed(3) + '</title></line>';
    }
  }
  for (let i = 0; i < D.nodes; i++) {
    const [x, y, c] = pos[i], o = D.fifo_capacity > 0 ? s.fifo_words[i] / D.fifo_capacity : 0;
    const rad = D.layout === "grid" ? Math.max(3, c * 0.25) : Math.max(2, c / 2);
    out += '<circle cx="' + x + '" cy="' + y + '" r="' + rad + '" fill="' + nodeColour(o) + '" stroke="#555"><title>node ' + i + ': ' + s.fifo_words[i] + ' words buffered</title></circle>';
  }
  svg.innerHTML = out;
}
const slider = document.getElementById("slider");
slider.max = D.snapshots.length - 1;
slider.value = D.snapshots.length - 1;
slider.addEventListener("input", function () { draw(+slider.value); });
draw(+slider.value);
// the per-port table
const cols = ["node", "port", "to", "to_port", "packets_sent", "packets_received", "words_received", "stall_cycles", "credits_received", "crc_errors", "lost", "marked_down"];
let th = "<tr>" + cols.map(c => "<th>" + c + "</th>").join("") + "</tr>";
for (const row of D.port_table) th += "<tr>" + cols.map(c => "<td>" + row[c] + "</td>").join("") + "</tr>";
document.getElementById("ports").innerHTML = th;
if (location.hash === "#selftest") {
  slider.value = 0; slider.dispatchEvent(new Event("input"));
  const first = svg.innerHTML;
  slider.value = D.snapshots.length - 1; slider.dispatchEvent(new Event("input"));
  const last = svg.innerHTML;
  document.getElementById("selftest").textContent = (D.snapshots.length > 1 && first !== last)
    ? "selftest ok: the slider changed the drawing (" + D.snapshots.length + " snapshots, " + D.links.length + " links)"
    : "selftest failed: the drawing did not change";
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
            fifo_capacity: 100,
            snapshots: vec![Snapshot {
                cycle: 10,
                fifo_words: vec![0, 1, 2, 3],
                rx_words: vec![0; 16],
            }],
            port_table: Vec::new(),
        };
        let h = render_html(&d).unwrap();
        assert!(h.contains("t &lt;x&gt;"));
        assert!(h.contains(r#""fifo_words":[0,1,2,3]"#));
        assert!(!h.contains("src=\"http") && !h.contains("href=\"http"));
    }
}
