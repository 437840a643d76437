//! Issues 15 §3 and 32 §3: `network run --report FILE.html` opened in a real browser. Debian's
//! Chromium (installed by the test command when missing, `scripts/setup.sh`'s
//! `need_chromium`), headless, loads the report of a 2-D torus, a 3-D torus and a dragonfly
//! with `#selftest`: the page must render with no script error, and its self-test must find
//! that it opened inside the measurement window, that moving the slider changes the drawing,
//! a line for each direction of each link with a buffer square at each end, a label for each
//! node, the whole drawing inside its frame (the dragonfly not clipped), the colour scales'
//! ticks, and that a click on a column sorts the port table (and a second click the other way).
//! A screenshot of each is kept in the output folder (`out/`, git-ignored). The command says
//! where it wrote the page. A saturated run's buffers are coloured against each port's own
//! capacity, so its full ports show where a router-wide scale would show none.

mod common;
use common::{exanet, refused_each};
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("out");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `chromium --headless ARGS url`, under a time limit; its standard output.
fn chromium(args: &[&str], url: &str) -> String {
    let o = Command::new("timeout")
        .args([
            "-s",
            "KILL",
            "120",
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
        ])
        .args(args)
        .arg(url)
        .output()
        .expect("chromium runs (Debian's chromium: scripts/setup.sh need_chromium)");
    assert!(
        o.status.success(),
        "chromium {args:?} {url}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The part of a dumped DOM from `start` to the first `end` after it.
fn element<'a>(dom: &'a str, start: &str, end: &str) -> &'a str {
    let i = dom
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in the page"));
    &dom[i..i + dom[i..].find(end).unwrap()]
}

/// The text of the element `<pre id="ID">` in a dumped DOM.
fn pre(dom: &str, id: &str) -> String {
    let start = format!("<pre id=\"{id}\">");
    let i = dom
        .find(&start)
        .unwrap_or_else(|| panic!("no <pre id=\"{id}\"> in the page"));
    let rest = &dom[i + start.len()..];
    rest[..rest.find("</pre>").unwrap()].to_string()
}

#[test]
fn the_report_renders_in_a_browser_and_its_self_test_finds_what_it_should_draw() {
    let out = out_dir();
    for (name, sets) in [
        ("torus6x6", &["net.topology=torus:6x6", "net.load=0.3"][..]),
        (
            "torus3x3x3",
            &["net.topology=torus:3x3x3", "net.load=0.2"][..],
        ),
        (
            "dragonfly",
            &[
                "net.topology=dragonfly:p=2,a=4,h=2",
                "net.routing=min",
                "net.load=0.3",
            ][..],
        ),
    ] {
        let html = out.join(format!("test-report-{name}.html"));
        let mut a = vec!["network", "run", "--set", "net.measure_cycles=4000"];
        for s in sets {
            a.extend(["--set", s]);
        }
        let h = html.to_str().unwrap();
        a.extend(["--report", h, "--report-every", "500"]);
        let o = exanet(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{name}: {err}");
        // it says where it wrote the page, as an absolute path
        let abs = std::fs::canonicalize(&html).unwrap();
        assert!(
            err.contains(&format!("--report: wrote {}", abs.display())),
            "{name}: {err}"
        );
        let page = std::fs::read_to_string(&html).unwrap();
        // self-contained: no resource from anywhere else
        assert!(!page.contains("src=\"http") && !page.contains("href=\"http"));
        let url = format!("file://{h}");
        let dom = chromium(&["--dump-dom"], &format!("{url}#selftest"));
        assert_eq!(pre(&dom, "errors"), "", "{name}: script errors");
        let st = pre(&dom, "selftest");
        assert!(st.starts_with("selftest ok"), "{name}: {st}");
        // the drawing: a circle and a label a node, and the port table
        let d = page_data(&page);
        let nodes = d["nodes"].as_u64().unwrap() as usize;
        assert!(nodes >= 27, "{name}");
        let view = element(&dom, "<svg id=\"view\"", "</svg>");
        assert_eq!(view.matches("<circle").count(), nodes, "{name}");
        assert_eq!(view.matches("class=\"label\"").count(), nodes, "{name}");
        let lanes: std::collections::HashSet<&str> = view
            .split("data-lane=\"")
            .skip(1)
            .map(|x| &x[..x.find('"').unwrap()])
            .collect();
        assert_eq!(
            lanes.len(),
            2 * d["links"].as_array().unwrap().len(),
            "{name}: a lane each direction of each link"
        );
        assert!(
            element(&dom, "<table id=\"ports\"", "</table>").contains("data-col=\"packets_sent\""),
            "{name}"
        );
        let png = out.join(format!("test-report-{name}.png"));
        let _ = std::fs::remove_file(&png);
        chromium(
            &[
                &format!("--screenshot={}", png.display()),
                "--window-size=1000,900",
            ],
            &url,
        );
        let shot = std::fs::read(&png).expect("the screenshot was written");
        assert!(
            shot.len() > 10_000 && shot.starts_with(b"\x89PNG"),
            "{name}"
        );
    }
}

#[test]
fn bad_report_options_exit_2() {
    refused_each(
        &["network", "run", "--set", "net.topology=torus:4x4"],
        &[
            (&["--report", "x.txt"], "--report"),
            (
                // (a file in the current directory: `out/` may not exist yet, which would be
                // refused first)
                &["--report", "r.html", "--report-every", "0"],
                "--report-every 0",
            ),
        ],
    );
}

/// The page's data: the JSON object in its `<script id="data">`.
fn page_data(page: &str) -> serde_json::Value {
    let start = "<script id=\"data\" type=\"application/json\">";
    let i = page.find(start).expect("the data element") + start.len();
    let end = page[i..].find("</script>").expect("its end");
    serde_json::from_str(&page[i..i + end]).expect("the data are JSON")
}

#[test]
fn the_report_changes_no_statistic_and_its_port_counters_are_the_runs() {
    let out = out_dir();
    let html = out.join("test-report-stats.html");
    let base = [
        "network",
        "run",
        "--set",
        "net.topology=torus:4x4",
        "--set",
        "net.load=1.0",
        "--set",
        "net.pattern=transpose",
        "--set",
        "net.measure_cycles=3000",
        "--set",
        "net.drain_cycles=0",
        "--json",
    ];
    let plain: serde_json::Value =
        serde_json::from_slice(&exanet(&base).stdout).expect("JSON without --report");
    let mut with = base.to_vec();
    with.extend(["--report", html.to_str().unwrap()]);
    let o = exanet(&with);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reported: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(plain["stats_hash"], reported["stats_hash"]);
    let d = page_data(&std::fs::read_to_string(&html).unwrap());
    let rows = d["port_table"].as_array().expect("the port table");
    let sum = |k: &str| -> u64 { rows.iter().map(|r| r[k].as_u64().unwrap()).sum() };
    let acc = &reported["accounting"];
    let n = |k: &str| acc[k].as_u64().unwrap_or_else(|| panic!("accounting.{k}"));
    // every packet a TX sent is received at the other end or still on the link
    assert_eq!(
        sum("packets_sent") - sum("packets_received"),
        n("in_flight_on_links")
    );
    assert_eq!(sum("stall_cycles"), n("credit_stall_cycles"));
    assert!(
        n("credit_stall_cycles") > 0,
        "transpose at full load makes credit stalls"
    );
    // the last snapshot is the end of the run, and its words are the table's
    let last = d["snapshots"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["cycle"], reported["cycles"]);
    let words: u64 = last["rx_words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .sum();
    assert_eq!(words, sum("words_received"));

    // Buffers against their own capacity: transpose at full load fills output FIFOs to the
    // brim inside the window, where the words of all a router's FIFOs over all their capacity
    // (the scale before issue 32) stay below a tenth.
    let w = d["window"].as_array().unwrap();
    let (start, end) = (w[0].as_u64().unwrap(), w[1].as_u64().unwrap());
    let snaps = d["snapshots"].as_array().unwrap();
    let inside: Vec<&serde_json::Value> = snaps
        .iter()
        .filter(|s| (start + 1..=end).contains(&s.get("cycle").unwrap().as_u64().unwrap()))
        .collect();
    assert!(!inside.is_empty());
    let most = |s: &serde_json::Value, k: &str| -> u64 {
        s[k].as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .max()
            .unwrap()
    };
    let open = inside.last().unwrap();
    assert!(most(open, "output_fill") >= 900, "{open}");
    let (vcs, i, o) = (&d["vcs"], &d["input_depth"], &d["output_depth"]);
    let per_port = vcs.as_u64().unwrap()
        * [i, o]
            .iter()
            .map(|x| x[0].as_u64().unwrap() + x[1].as_u64().unwrap())
            .sum::<u64>();
    let held: u64 = open["input_words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    let ports = rows.len() as u64;
    assert!(
        held * 10 < per_port * ports,
        "router-wide, the FIFOs hold {held} of {} words",
        per_port * ports
    );
    // the page draws the opening snapshot's fills: its self-test names the fullest input
    let dom = chromium(
        &["--dump-dom"],
        &format!("file://{}#selftest", html.display()),
    );
    let st = pre(&dom, "selftest");
    assert!(st.starts_with("selftest ok"), "{st}");
    let want = format!(
        "opens at cycle {} of the window {start} to {end}; fullest input buffer drawn {:.3}",
        open["cycle"],
        most(open, "input_fill") as f64 / 1000.0
    );
    assert!(st.contains(&want), "{st}\nwanted: {want}");
}
