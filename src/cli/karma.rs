//! `exanet karma ...`: the KARMA test bed (docs/karma.md).

use super::{check_out, json_out, load_config, parse_payload, write_csv, CliError, R};
use crate::karma::pingpong::{Backend, PingPong, Report};
use crate::karma::software::Mode;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The command line of `exanet karma pingpong`.
pub struct PingPongArgs<'a> {
    pub config: Option<&'a Path>,
    pub json: bool,
    /// Write the rows as CSV too.
    pub csv: Option<&'a Path>,
    pub hops: Option<&'a str>,
    pub mode: Mode,
    pub sizes: &'a [String],
    pub iterations: u32,
    pub backend: Backend,
    pub ber: Option<f64>,
    pub plot: Option<&'a Path>,
    pub vcd: Option<&'a Path>,
    /// The format of the `vcd` file.
    pub wave_format: crate::wave::WaveFormat,
}

pub fn pingpong(a: &PingPongArgs) -> R {
    let mut cfg = load_config(a.config)?;
    crate::karma::pingpong::check_config(&cfg).map_err(CliError::input)?;
    check_out("--csv", a.csv, "csv")?;
    let hops = match a.hops {
        None => vec![1, 2],
        Some("1") => vec![1],
        Some("2") => vec![2],
        Some(x) => {
            return Err(CliError::input(format!(
                "--hops: '{x}': the 2x2 mesh has paths of 1 or 2 hops"
            )))
        }
    };
    let (mode, backend) = (a.mode, a.backend);
    rtl_fits(&cfg, backend)?;
    let sizes = a
        .sizes
        .iter()
        .map(|s| parse_payload("--sizes", s))
        .collect::<Result<Vec<_>, _>>()?;
    let max = crate::karma::pingpong::MAX_ITERATIONS;
    if a.iterations == 0 || a.iterations > max {
        return Err(CliError::input(format!(
            "--iterations: {}: must be between 1 and {max}",
            a.iterations
        )));
    }
    // --ber replaces the configuration's link.phy.ber (and is recorded as the run's)
    if let Some(b) = a.ber {
        cfg.link.phy.ber = b;
        cfg.validate()?;
        crate::cli::output::record_config(&cfg);
    }
    let ber = cfg.link.phy.ber;
    if !(0.0..=1e-2).contains(&ber) {
        return Err(CliError::input(format!(
            "--ber (or link.phy.ber): {ber}: the ping-pong takes a bit error rate between 0 and 0.01"
        )));
    }
    if let Some(p) = a.plot {
        crate::cli::output::check_plot_format("--plot", p)?;
    }
    for (opt, p) in [("--plot", a.plot), ("--vcd", a.vcd)] {
        if let Some(p) = p {
            let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
            if let Some(d) = dir.filter(|d| !d.is_dir()) {
                return Err(CliError::input(format!(
                    "{opt}: {}: the directory {} does not exist",
                    p.display(),
                    d.display()
                )));
            }
        }
    }
    let run = PingPong {
        hops,
        mode,
        sizes,
        iterations: a.iterations,
        backend,
        ber,
        vcd: a.vcd.map(PathBuf::from),
        wave_format: a.wave_format,
    };
    let progress = crate::progress::Progress::new(run.round_trips(), "karma pingpong");
    let r = run
        .run_with_progress(&cfg, &progress)
        .map_err(|e| match e {
            crate::karma::pingpong::PingPongError::Config(m) => CliError::input(m),
            crate::karma::pingpong::PingPongError::Run(m) => CliError::failed(m),
        })?;
    progress.finish();
    if let Some(p) = a.plot {
        crate::plot::write_plot(p, &latency_figure(&r))
            .map_err(|e| CliError::failed(e.to_string()))?;
    }
    if let Some(p) = a.csv {
        write_csv(p, &r.rows)?;
    }
    if a.json {
        return json_out(&r);
    }
    print_table(&cfg, &r);
    Ok(ExitCode::SUCCESS)
}

/// Round-trip time against payload size, one curve per hop count, in the manner of Biagioni 2017
/// Figures 5.16-5.18: every size, and a zoom on the small packets (up to 128 bytes) when the run
/// has two or more of them.
fn latency_figure(r: &Report) -> crate::plot::Figure {
    use crate::plot::{Axis, Figure, Panel, Scale, Series};
    let mut hops: Vec<u32> = r.rows.iter().map(|x| x.hops).collect();
    hops.dedup();
    let series = |max: u32| -> Vec<Series> {
        hops.iter()
            .map(|&h| {
                Series::new(
                    if h == 1 {
                        "1 hop".to_string()
                    } else {
                        format!("{h} hops")
                    },
                    r.rows
                        .iter()
                        .filter(|x| x.hops == h && x.payload_bytes <= max)
                        .map(|x| (x.payload_bytes as f64, x.rtt_us))
                        .collect(),
                )
            })
            .collect()
    };
    let panel = |title: &str, max: u32| {
        Panel::new(
            title,
            Axis::new("payload (bytes)", Scale::Log2),
            Axis::new("round-trip time (us)", Scale::Linear),
            series(max),
        )
    };
    let mode = match r.rows.first().map(|x| x.mode) {
        Some(Mode::Kernel) => "kernel space",
        _ => "user space",
    };
    let mut panels = vec![panel("all sizes", u32::MAX)];
    if r.rows
        .iter()
        .filter(|x| x.payload_bytes <= 128 && x.hops == hops[0])
        .count()
        >= 2
    {
        panels.push(panel("small packets (up to 128 B)", 128));
    }
    Figure::new(
        format!(
            "KARMA ping-pong, {mode}, {} backend",
            format!("{:?}", r.backend).to_lowercase()
        ),
        panels,
    )
}

fn print_table(cfg: &crate::config::Config, r: &Report) {
    let clock = cfg.clock();
    let ns = |c: f64| clock.ns(c);
    let mode = r.rows.first().map_or("user", |x| match x.mode {
        Mode::User => "user space",
        Mode::Kernel => "kernel space",
    });
    println!(
        "KARMA ping-pong, {mode}, 2x2 mesh of ExaNet nodes ({:?} backend), {} MHz",
        r.backend, r.clock_mhz
    );
    println!("one-way breakdown in ns (mean of both directions), parts sum to the half round trip");
    println!(
        "{:>4} {:>7} {:>9} {:>9} | {:>7} {:>6} {:>7} {:>6} {:>7} {:>7} {:>7}",
        "hops",
        "payload",
        "RTT us",
        "half us",
        "sw",
        "write",
        "router",
        "link",
        "detect",
        "read",
        "lost"
    );
    for x in &r.rows {
        let b = &x.breakdown;
        println!(
            "{:>4} {:>6}B {:>9.3} {:>9.3} | {:>7.1} {:>6.1} {:>7.1} {:>6.1} {:>7.1} {:>7.1} {:>7}",
            x.hops,
            x.payload_bytes,
            x.rtt_us,
            x.one_way_us,
            ns(b.software_cycles),
            ns(b.arm_write_cycles),
            ns(b.router_cycles),
            ns(b.link_cycles),
            ns(b.detect_cycles),
            ns(b.arm_read_cycles),
            x.lost
        );
    }
    if let Some(x) = r.rows.first() {
        println!(
            "ARM, measured: a word stored every {:.1} cycles ({:.1} ns), loaded every {:.1} cycles \
             ({:.1} ns); a {} B message written in {:.0} ns, read in {:.0} ns",
            x.write_cycles_per_word,
            ns(x.write_cycles_per_word),
            x.read_cycles_per_word,
            ns(x.read_cycles_per_word),
            x.payload_bytes,
            ns(x.write_message_cycles),
            ns(x.read_message_cycles)
        );
    }
    if !r.hop_difference.is_empty() {
        let d: Vec<String> = r
            .hop_difference
            .iter()
            .map(|h| format!("{}B {:.3}", h.payload_bytes, h.one_way_us))
            .collect();
        println!("2 hops - 1 hop, one way (us): {}", d.join(", "));
    }
    let (lost, crc, stale): (u32, u32, u32) = r.rows.iter().fold((0, 0, 0), |a, x| {
        (a.0 + x.lost, a.1 + x.crc_errors, a.2 + x.stale)
    });
    if lost + crc + stale > 0 {
        println!(
            "link errors: {lost} round trips lost (timed out), {crc} messages with a bad CRC, \
             {stale} late replies dropped"
        );
        for l in &r.links {
            println!(
                "  {} hop(s), the links' registers: {} packets sent = {} delivered + {} with a \
                 bad CRC (LINK_CRC_ERR) + {} lost (LINK_LOST: {} bad header, {} framing lost, {} \
                 discarded to the next Start) + {} in flight or lost and not yet seen",
                l.hops,
                l.sent,
                l.delivered,
                l.crc_errors,
                l.lost_packets,
                l.discarded_header,
                l.discarded_framing,
                l.discarded_resync,
                l.in_flight
            );
        }
    }
    if let Some(v) = &r.vcd {
        println!("waves of the first round trip: {v}");
    }
}

/// `exanet karma selftest`: router and link bandwidth with the self-test IPs on the mesh.
pub fn selftest(
    config: Option<&Path>,
    json: bool,
    csv: Option<&Path>,
    payloads: &[String],
    backend: Backend,
) -> R {
    use crate::karma::selftest::{measure, Path as P};
    let cfg = load_config(config)?;
    crate::karma::mesh::check_config(&cfg).map_err(CliError::input)?;
    check_out("--csv", csv, "csv")?;
    rtl_fits(&cfg, backend)?;
    let sizes = payloads
        .iter()
        .map(|s| parse_payload("--payload", s))
        .collect::<Result<Vec<_>, _>>()?;
    let runs = [(P::Router, 1), (P::Router, 2), (P::Link, 1)];
    let progress =
        crate::progress::Progress::new((runs.len() * sizes.len()) as u64, "karma selftest");
    let mut rows = Vec::new();
    for (path, senders) in runs {
        for &s in &sizes {
            progress.set_message(format!("{path:?} x{senders}, {s} B").to_lowercase());
            rows.push(measure(&cfg, backend, path, s, senders).map_err(CliError::failed)?);
            progress.inc(1);
        }
    }
    progress.finish();
    if let Some(p) = csv {
        write_csv(p, &rows)?;
    }
    if json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            rows: &'a [crate::karma::selftest::SelftestRow],
        }
        return json_out(&Out { rows: &rows });
    }
    println!(
        "KARMA self-test bandwidth ({backend:?} backend): router = 128 bit x {} MHz, link = 64 bit x {} MHz",
        cfg.clock.freq_mhz, cfg.clock.freq_mhz
    );
    println!(
        "{:>6} {:>7} {:>8} {:>8} {:>8} {:>8} {:>10}",
        "path", "payload", "senders", "packets", "cycles", "Gb/s", "efficiency"
    );
    for r in &rows {
        println!(
            "{:>6} {:>6}B {:>8} {:>8} {:>8} {:>8.2} {:>9.1}%",
            format!("{:?}", r.path).to_lowercase(),
            r.payload_bytes,
            r.senders,
            r.packets,
            r.cycles,
            r.gbps,
            100.0 * r.efficiency
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The Verilated mesh has the default structure and resets to the default run-time settings:
/// another configuration with `--backend rtl` is bad input (exit 2), not a run of the default.
fn rtl_fits(cfg: &crate::config::Config, backend: Backend) -> Result<(), CliError> {
    if matches!(backend, Backend::Rtl) {
        crate::cosim::node_design::check_structural(cfg)
            .map_err(|e| CliError::input(format!("--backend rtl: {e}")))?;
    }
    Ok(())
}
