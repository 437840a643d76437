//! Issue 32 §3: plots as PNG and PDF besides SVG (`exanet::plot::render`, decision 0049).
//! The same figure gives the same bytes in each format; the PNG is the SVG drawn at two pixels
//! a px; the PDF, read back by a real reader (poppler's `pdfinfo` and `pdftoppm`, installed by
//! the test command: `scripts/setup.sh`'s `need_fonts`), is one page of the figure's size and
//! title whose rendering is the PNG's, pixel for pixel but for anti-aliasing. The commands
//! write each format their file name asks for, and refuse another extension or a missing
//! font before the run.

mod common;
use common::{exanet, refused_each, TempDir};
use exanet::plot::{render, render_svg, Axis, Figure, Format, Panel, Scale, Series};
use resvg::tiny_skia::Pixmap;
use std::process::Command;

/// A figure with what the plots draw: two panels, curves, a reference line, hollow points,
/// error bars, a log axis, a legend, a title with a character outside ASCII.
fn figure() -> Figure {
    let load: Vec<f64> = (1..=7).map(|i| f64::from(i) * 0.1).collect();
    let acc: Vec<(f64, f64)> = load.iter().map(|&o| (o, o.min(0.45))).collect();
    let lat: Vec<(f64, f64)> = load
        .iter()
        .map(|&o| (o, 150.0 / (1.0 - (o / 0.5).min(0.9))))
        .collect();
    let hollow: Vec<bool> = load.iter().map(|&o| o > 0.45).collect();
    let bars: Vec<(f64, f64)> = acc.iter().map(|&(_, y)| (y - 0.02, y + 0.02)).collect();
    Figure::new(
        "CNF — torus 4x4",
        vec![
            Panel::new(
                "accepted traffic",
                Axis::new("offered load", Scale::Linear).from_zero(),
                Axis::new("accepted load", Scale::Linear).from_zero(),
                vec![
                    Series::new("ecube", acc)
                        .with_hollow(hollow.clone())
                        .with_bars(bars),
                    Series::reference("accepted = offered", vec![(0.0, 0.0), (0.7, 0.7)]),
                ],
            )
            .with_hollow_note("hollow: saturated"),
            Panel::new(
                "latency",
                Axis::new("offered load", Scale::Linear),
                Axis::new("latency (cycles)", Scale::Log10),
                vec![Series::new("ecube", lat).with_hollow(hollow)],
            ),
        ],
    )
}

/// The width and height of a PNG, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let be = |k: usize| u32::from_be_bytes(png[k..k + 4].try_into().unwrap());
    (be(16), be(20))
}

/// The share of pixels of two same-sized images whose colours differ by more than a tenth.
fn differing(a: &Pixmap, b: &Pixmap) -> f64 {
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    let n = a
        .pixels()
        .iter()
        .zip(b.pixels())
        .filter(|(p, q)| {
            let d = |x: u8, y: u8| x.abs_diff(y);
            d(p.red(), q.red())
                .max(d(p.green(), q.green()))
                .max(d(p.blue(), q.blue()))
                > 25
        })
        .count();
    n as f64 / a.pixels().len() as f64
}

#[test]
fn png_and_pdf_are_deterministic_and_draw_what_the_svg_draws() {
    let f = figure();
    let svg = render_svg(&f).unwrap();
    assert_eq!(render(&f, Format::Svg).unwrap(), svg.as_bytes());
    let png = render(&f, Format::Png).unwrap();
    let pdf = render(&f, Format::Pdf).unwrap();
    assert_eq!(png, render(&f, Format::Png).unwrap(), "PNG bytes differ");
    assert_eq!(pdf, render(&f, Format::Pdf).unwrap(), "PDF bytes differ");
    // the PNG: two pixels a px of the figure
    let (w, h) = (
        f.panels.len() as u32 * f.panel_width_px,
        f.panel_height_px + 32,
    );
    assert!(
        svg.contains(&format!("width=\"{w}\" height=\"{h}\"")),
        "{w}x{h}"
    );
    assert_eq!(png_size(&png), (2 * w, 2 * h));
    let drawn = Pixmap::decode_png(&png).unwrap();
    let ink = drawn
        .pixels()
        .iter()
        .filter(|p| p.red() < 128 && p.green() < 128 && p.blue() < 128)
        .count();
    assert!(ink > 5_000, "text and axes drawn in dark ink: {ink} pixels");

    // the PDF, as poppler reads it
    let d = TempDir::new("plot-formats");
    let file = d.0.join("fig.pdf");
    std::fs::write(&file, &pdf).unwrap();
    let info = Command::new("pdfinfo")
        .arg(&file)
        .output()
        .expect("pdfinfo runs (poppler-utils: scripts/setup.sh need_fonts)");
    assert!(
        info.status.success(),
        "{}",
        String::from_utf8_lossy(&info.stderr)
    );
    let info = String::from_utf8_lossy(&info.stdout);
    let field = |k: &str| {
        info.lines()
            .find_map(|l| l.strip_prefix(k))
            .map(str::trim)
            .unwrap_or_else(|| panic!("no {k} in {info}"))
            .to_string()
    };
    assert_eq!(field("Pages:"), "1");
    assert_eq!(field("Title:"), "CNF — torus 4x4");
    let pts = |px: u32| {
        let p = px as f64 * 0.75;
        if p.fract() == 0.0 {
            format!("{p}")
        } else {
            format!("{p:.2}")
        }
    };
    assert!(
        field("Page size:").starts_with(&format!("{} x {} pts", pts(w), pts(h))),
        "{info}"
    );
    // rendered at 192 dpi: two pixels a px, as the PNG
    let out = d.0.join("page");
    let r = Command::new("pdftoppm")
        .args(["-png", "-r", "192", "-singlefile"])
        .arg(&file)
        .arg(&out)
        .output()
        .expect("pdftoppm runs");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let page = Pixmap::decode_png(&std::fs::read(out.with_extension("png")).unwrap()).unwrap();
    let share = differing(&drawn, &page);
    assert!(
        share < 0.01,
        "{:.2} % of the pixels differ between the PNG and the PDF",
        100.0 * share
    );
    // and a figure with other data is another picture
    let mut g = figure();
    g.panels[0].series[0].points[0].1 = 0.3;
    let other = Pixmap::decode_png(&render(&g, Format::Png).unwrap()).unwrap();
    assert!(differing(&drawn, &other) > 0.0001);
}

#[test]
fn commands_write_the_format_the_file_name_asks_for() {
    let d = TempDir::new("plot-formats-cli");
    for ext in ["svg", "png", "pdf"] {
        let p = d.0.join(format!("cnf.{ext}"));
        let o = exanet(&[
            "network",
            "sweep",
            "--topology",
            "torus:4x4",
            "--loads",
            "0.1,0.3",
            "--set",
            "net.measure_cycles=1000",
            "--plot",
            p.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let bytes = std::fs::read(&p).unwrap();
        let magic: &[u8] = match ext {
            "svg" => b"<?xml",
            "png" => b"\x89PNG",
            _ => b"%PDF-1.4",
        };
        assert!(bytes.starts_with(magic), "{ext}");
    }
    let base = ["network", "run", "--set", "net.measure_cycles=1000"];
    let jpg = d.0.join("lat.jpg");
    let png = d.0.join("lat.png");
    refused_each(
        &base,
        &[(
            &[
                "--latency-bin",
                "500",
                "--latency-plot",
                jpg.to_str().unwrap(),
            ],
            "give a file name ending in .svg, .png or .pdf",
        )],
    );
    // without the font, a PNG is refused before the run, naming the font and its package
    let o = Command::new(env!("CARGO_BIN_EXE_exanet"))
        .args(base)
        .args([
            "--latency-bin",
            "500",
            "--latency-plot",
            png.to_str().unwrap(),
        ])
        .env("EXANET_FONT_DIR", d.0.join("no-fonts-here"))
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("DejaVuSans.ttf") && e.contains("fonts-dejavu-core"),
        "{e}"
    );
    assert!(o.stdout.is_empty(), "refused before the run");
}
