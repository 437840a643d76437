//! End-to-end tests of `exanet::plot`: whole figures rendered through the public API, and the
//! SVG text read back (element counts, coordinates, sizes) the way a viewer would see it.

use exanet::plot::{render_svg, write_plot, Axis, Figure, Panel, PlotError, Scale, Series};
use std::path::PathBuf;

/// The value of attribute `name` in one element's text.
fn attr<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = element.find(&key)? + key.len();
    let len = element[start..].find('"')?;
    Some(&element[start..start + len])
}

/// Every element (one per line, as the renderer writes them) whose text starts with `open`.
fn elements<'a>(svg: &'a str, open: &str) -> Vec<&'a str> {
    svg.lines().filter(|l| l.starts_with(open)).collect()
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

/// The points of a `<polyline>` element.
fn polyline_points(element: &str) -> Vec<(f64, f64)> {
    attr(element, "points")
        .expect("points")
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').expect("x,y");
            (num(x), num(y))
        })
        .collect()
}

/// A minimal well-formedness check: tags nest and close, attribute values are quoted, and no
/// `<` or `&` appears outside markup and entities.
fn assert_well_formed(svg: &str) {
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        for (i, _) in text.match_indices('&') {
            let ent = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| ent.starts_with(e)),
                "bare & in {text:?}"
            );
        }
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('?') {
            continue;
        }
        assert!(!tag.contains('<'), "< inside a tag: {tag}");
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes: {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name), "mismatched </{name}>");
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().expect("tag name"));
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert!(rest.trim().is_empty());
}

fn ping_pong() -> Figure {
    let sizes = [
        16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0,
    ];
    let hop = |base: f64| -> Vec<(f64, f64)> {
        sizes.iter().map(|&b| (b, base + b * 8.0 / 2.8e3)).collect()
    };
    Figure::new(
        "ExaNet ping-pong latency",
        vec![Panel::new(
            "half round trip",
            Axis::new("payload (bytes)", Scale::Log2),
            Axis::new("latency (µs)", Scale::Linear),
            vec![
                Series::new("1 hop", hop(1.0)),
                Series::new("2 hops", hop(1.2)),
            ],
        )],
    )
}

type Points = Vec<(f64, f64)>;

fn cnf() -> Figure {
    let offered: Vec<f64> = (1..=9).map(|i| f64::from(i) * 0.1).collect();
    let curve = |sat: f64, lat0: f64| -> (Points, Points) {
        let acc = offered.iter().map(|&o| (o, o.min(sat))).collect();
        let lat = offered
            .iter()
            .map(|&o| (o, lat0 / (1.0 - (o / (sat + 0.05)).min(0.95))))
            .collect();
        (acc, lat)
    };
    let (ea, el) = curve(0.45, 2.0);
    let (sa, sl) = curve(0.62, 2.1);
    let load = || Axis::new("offered load (flits/cycle/node)", Scale::Linear);
    Figure::new(
        "CNF: uniform random traffic",
        vec![
            Panel::new(
                "accepted load",
                load(),
                Axis::new("accepted load (flits/cycle/node)", Scale::Linear),
                vec![
                    Series::new("torus 10x10 ecube", ea),
                    Series::new("torus 10x10 star-channel", sa),
                ],
            ),
            Panel::new(
                "mean latency",
                load(),
                Axis::new("latency (cycles)", Scale::Linear),
                vec![
                    Series::new("torus 10x10 ecube", el),
                    Series::new("torus 10x10 star-channel", sl),
                ],
            ),
        ],
    )
}

#[test]
fn output_is_a_standalone_svg_document() {
    for fig in [ping_pong(), cnf()] {
        let svg = render_svg(&fig).unwrap();
        assert!(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\""));
        assert!(svg.contains(r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1""#));
        assert!(svg.ends_with("</svg>\n"));
        assert!(svg.contains(r##"fill="#ffffff""##), "white background");
        assert_well_formed(&svg);
        assert_eq!(svg.matches("<g ").count(), fig.panels.len());
        assert!(svg.contains(&format!(">{}</text>", fig.title)));
        for p in &fig.panels {
            assert!(svg.contains(&format!(">{}</text>", p.title)));
            assert!(svg.contains(&format!(">{}</text>", p.x.label)));
            assert!(svg.contains(&format!(">{}</text>", p.y.label)));
            for s in &p.series {
                assert!(svg.contains(&format!(">{}</text>", s.label)), "legend");
            }
        }
        assert!(!elements(&svg, "<line class=\"grid\"").is_empty());
    }
}

#[test]
fn rendering_is_deterministic() {
    for fig in [ping_pong(), cnf()] {
        let a = render_svg(&fig).unwrap();
        let b = render_svg(&fig.clone()).unwrap();
        assert_eq!(a, b);
    }
}

#[test]
fn one_polyline_per_multi_point_series() {
    let mut fig = cnf();
    fig.panels[0]
        .series
        .push(Series::new("one point", vec![(0.5, 0.3)]));
    fig.panels[1]
        .series
        .push(Series::new("two points", vec![(0.2, 3.0), (0.4, 4.0)]));
    let svg = render_svg(&fig).unwrap();
    let multi = fig
        .panels
        .iter()
        .flat_map(|p| &p.series)
        .filter(|s| s.points.len() > 1)
        .count();
    assert_eq!(multi, 5);
    assert_eq!(svg.matches("<polyline").count(), multi);
    // The single-point series (index 2 in panel 1: third colour) draws one marker only.
    assert_eq!(elements(&svg, "<polyline class=\"series-3\"").len(), 1);
    let markers = svg
        .lines()
        .filter(|l| l.contains(r##"fill="#009E73""##))
        .count();
    // Panel 2's third series has two points, panel 1's one; plus two legend markers.
    assert_eq!(markers, 2 + 1 + 2);
}

#[test]
fn log2_axis_is_ticked_in_powers_of_two_with_binary_labels() {
    let svg = render_svg(&ping_pong()).unwrap();
    let labels: Vec<&str> = elements(&svg, "<text class=\"tick-label\"")
        .iter()
        .filter(|e| attr(e, "text-anchor") == Some("middle"))
        .map(|e| &e[e.find('>').unwrap() + 1..e.rfind("</").unwrap()])
        .collect();
    assert_eq!(labels, ["16", "64", "256", "1K", "4K"]);
}

#[test]
fn points_at_the_range_ends_land_on_the_axes_and_frame() {
    // Data that spans exactly nice ranges: x 0..1, y 0..10 (auto), and a log x 16..4096.
    for (scale, xs) in [
        (Scale::Linear, [0.0, 0.5, 1.0]),
        (Scale::Log2, [16.0, 256.0, 4096.0]),
    ] {
        let fig = Figure::new(
            "",
            vec![Panel::new(
                "",
                Axis::new("x", scale),
                Axis::new("y", Scale::Linear),
                vec![Series::new(
                    "s",
                    vec![(xs[0], 0.0), (xs[1], 5.0), (xs[2], 10.0)],
                )],
            )],
        );
        let svg = render_svg(&fig).unwrap();
        let x_axis = elements(&svg, "<line class=\"axis-x\"")[0];
        let y_axis = elements(&svg, "<line class=\"axis-y\"")[0];
        let (left, right) = (
            num(attr(x_axis, "x1").unwrap()),
            num(attr(x_axis, "x2").unwrap()),
        );
        let bottom = num(attr(x_axis, "y1").unwrap());
        let top = num(attr(y_axis, "y1").unwrap());
        assert_eq!(num(attr(y_axis, "x1").unwrap()), left);
        assert_eq!(num(attr(y_axis, "y2").unwrap()), bottom);
        let lines = elements(&svg, "<polyline");
        assert_eq!(lines.len(), 1);
        let pts = polyline_points(lines[0]);
        assert_eq!(pts.len(), 3);
        assert_eq!(pts[0], (left, bottom), "minimum on the axes' corner");
        assert_eq!(pts[2], (right, top), "maximum on the far corner");
        let mid = ((left + right) / 2.0, (bottom + top) / 2.0);
        assert!((pts[1].0 - mid.0).abs() <= 0.01 && (pts[1].1 - mid.1).abs() <= 0.01);
    }
}

#[test]
fn a_given_range_cuts_curves_at_the_frame() {
    let mut fig = cnf();
    // Latency past saturation leaves the plot through the top.
    fig.panels[1].y = Axis::new("latency (cycles)", Scale::Linear).with_range(0.0, 10.0);
    let svg = render_svg(&fig).unwrap();
    let y_axis = elements(&svg, "<line class=\"axis-y\"")[1];
    let top = num(attr(y_axis, "y1").unwrap());
    let bottom = num(attr(y_axis, "y2").unwrap());
    let lines: Vec<&str> = svg
        .split("<g ")
        .nth(2)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("<polyline"))
        .collect();
    assert_eq!(lines.len(), 2);
    for l in lines {
        let pts = polyline_points(l);
        assert!(pts.iter().all(|p| p.1 >= top && p.1 <= bottom), "{pts:?}");
        assert_eq!(pts.last().unwrap().1, top, "cut where it crosses y = 10");
    }
}

#[test]
fn width_grows_with_the_panels() {
    let one = {
        let mut f = cnf();
        f.panels.truncate(1);
        render_svg(&f).unwrap()
    };
    let two = render_svg(&cnf()).unwrap();
    let size = |svg: &str| {
        let root = elements(svg, "<svg ")[0];
        (
            num(attr(root, "width").unwrap()),
            num(attr(root, "height").unwrap()),
        )
    };
    let (w1, h1) = size(&one);
    let (w2, h2) = size(&two);
    assert_eq!(w1, f64::from(Figure::DEFAULT_PANEL_WIDTH_PX));
    assert_eq!(w2, 2.0 * w1);
    assert_eq!(h1, h2);
    // An untitled figure has no title band.
    let mut f = cnf();
    f.title.clear();
    assert_eq!(size(&render_svg(&f).unwrap()).1, 360.0);
}

#[test]
fn text_is_escaped() {
    let mut fig = ping_pong();
    fig.title = r#"<b>"A" & 'B'</b>"#.to_string();
    fig.panels[0].series[0].label = "x < y & z > w".to_string();
    let svg = render_svg(&fig).unwrap();
    assert_well_formed(&svg);
    assert!(svg.contains("&lt;b&gt;&quot;A&quot; &amp; &apos;B&apos;&lt;/b&gt;"));
    assert!(svg.contains(">x &lt; y &amp; z &gt; w</text>"));
}

fn temp_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("exanet-plot-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn write_plot_writes_the_rendering() {
    let dir = temp_dir("write");
    let path = dir.join("cnf.svg");
    write_plot(&path, &cnf()).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        render_svg(&cnf()).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn write_plot_refuses_a_missing_directory_and_a_bad_figure() {
    let dir = temp_dir("missing");
    let path = dir.join("no-such-dir").join("fig.svg");
    let e = write_plot(&path, &cnf()).unwrap_err();
    assert!(matches!(e, PlotError::MissingDirectory { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(msg.contains("does not exist"), "{msg}");

    let path = dir.join("empty.svg");
    let e = write_plot(&path, &Figure::new("nothing", vec![])).unwrap_err();
    assert!(matches!(e, PlotError::EmptyFigure { .. }));
    assert!(!path.exists(), "nothing written for an invalid figure");

    // A directory where the file should be: an I/O error naming the path.
    let sub = dir.join("a-folder.svg");
    std::fs::create_dir_all(&sub).unwrap();
    let e = write_plot(&sub, &cnf()).unwrap_err();
    assert!(matches!(e, PlotError::Io { .. }), "{e:?}");
    assert!(e.to_string().contains(&sub.display().to_string()));
    assert!(std::error::Error::source(&e).is_some());

    // A name that says no format
    let e = write_plot(&dir.join("fig.jpg"), &cnf()).unwrap_err();
    assert!(matches!(e, PlotError::UnknownFormat { .. }), "{e:?}");
    assert!(e.to_string().contains(".svg, .png or .pdf"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hollow_points_are_outlined_in_their_series_colour_and_the_rest_filled() {
    // six series, one a marker shape, each with its middle point hollow
    let series: Vec<Series> = (0..6)
        .map(|i| {
            let y = f64::from(i);
            Series::new(
                format!("s{i}"),
                vec![(0.1, y), (0.2, y + 0.5), (0.3, y + 1.0)],
            )
            .with_hollow(vec![false, true, false])
        })
        .collect();
    let fig = Figure::new(
        "",
        vec![Panel::new(
            "p",
            Axis::new("x", Scale::Linear),
            Axis::new("y", Scale::Linear),
            series,
        )],
    );
    let svg = render_svg(&fig).unwrap();
    assert_well_formed(&svg);
    let hollow: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains("class=\"hollow\""))
        .collect();
    assert_eq!(
        hollow.len(),
        6,
        "one hollow marker a series, none in the legend"
    );
    let palette = [
        "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
    ];
    for (h, colour) in hollow.iter().zip(palette) {
        assert_eq!(attr(h, "fill"), Some("#ffffff"), "{h}");
        assert_eq!(attr(h, "stroke"), Some(colour), "{h}");
    }
    // the shapes keep their kind: circle, square, four polygons (the cross as an outline)
    let kinds: Vec<&str> = hollow
        .iter()
        .map(|h| h[1..].split(' ').next().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["circle", "rect", "polygon", "polygon", "polygon", "polygon"]
    );
    // the hollow point sits where a filled one would: at the second point of the curve
    let filled = render_svg(&{
        let mut f = fig.clone();
        for s in &mut f.panels[0].series {
            s.hollow.clear();
        }
        f
    })
    .unwrap();
    assert!(!filled.contains("hollow"));
    let second_circle = |svg: &str| -> String {
        svg.lines()
            .filter(|l| l.starts_with("<circle"))
            .nth(1)
            .unwrap()
            .to_string()
    };
    let (h, f) = (second_circle(&svg), second_circle(&filled));
    assert_eq!(attr(&h, "fill"), Some("#ffffff"), "{h}");
    assert_eq!(attr(&f, "fill"), Some("#0072B2"), "{f}");
    assert_eq!(
        (attr(&h, "cx"), attr(&h, "cy")),
        (attr(&f, "cx"), attr(&f, "cy"))
    );
    // a mask that is not one flag a point is refused, naming the series
    let mut bad = fig.clone();
    bad.panels[0].series[2].hollow = vec![true; 4];
    let e = render_svg(&bad).unwrap_err();
    assert!(
        matches!(
            e,
            PlotError::HollowLength {
                points: 3,
                hollow: 4,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains(r#"series[2] "s2""#), "{e}");
}

/// Issue 32 §3: what a CNF needs beyond curves. An axis from zero takes in 0 though the data
/// start above it; error bars span their intervals (and widen the range to fit them); a
/// reference line is dashed and has no markers; the legend says what hollow means when a
/// point is hollow, and only then. Bars that are not one finite interval a point are refused.
#[test]
fn error_bars_reference_lines_an_axis_from_zero_and_the_hollow_note() {
    let pts = vec![(0.2, 0.5), (0.4, 0.6)];
    let fig = |hollow: Vec<bool>, bars: Vec<(f64, f64)>| {
        Figure::new(
            "",
            vec![Panel::new(
                "p",
                Axis::new("x", Scale::Linear).from_zero(),
                Axis::new("y", Scale::Linear).from_zero(),
                vec![
                    Series::new("measured", pts.clone())
                        .with_hollow(hollow)
                        .with_bars(bars),
                    Series::reference("y = x", vec![(0.0, 0.0), (0.4, 0.4)]),
                ],
            )
            .with_hollow_note("hollow: saturated")],
        )
    };
    let svg = render_svg(&fig(vec![false, true], vec![(0.45, 0.55), (0.5, 0.9)])).unwrap();
    assert_well_formed(&svg);
    let bars = elements(&svg, "<path class=\"error-bar\"");
    assert_eq!(bars.len(), 2, "{svg}");
    let lines = elements(&svg, "<polyline");
    assert_eq!(lines.len(), 2);
    assert!(!lines[0].contains("stroke-dasharray") && lines[1].contains("stroke-dasharray"));
    // markers: two for the measured series and one in its legend row, the hollow note's; none
    // for the reference line
    assert_eq!(svg.matches("class=\"hollow\"").count(), 2, "{svg}");
    assert!(svg.contains(">hollow: saturated<"));
    // the y axis: from 0 up past the top bar's 0.9, to the nice 1 (the data alone end at 0.6)
    for label in [">0<", ">1<"] {
        assert!(svg.contains(label), "{label}: {svg}");
    }
    // no hollow point: no note
    let plain = render_svg(&fig(vec![false, false], vec![])).unwrap();
    assert!(!plain.contains("hollow: saturated"));
    for bad in [
        vec![(0.5, 0.4), (0.5, 0.7)],
        vec![(0.4, 0.6)],
        vec![(f64::NAN, 1.0); 2],
    ] {
        let e = render_svg(&fig(vec![], bad)).unwrap_err();
        assert!(matches!(e, PlotError::BadBars { .. }), "{e}");
        assert!(e.to_string().contains("error bars"), "{e}");
    }
}

/// Issue 32 §3: stretches of x shaded behind the data (a run's phases, a fault), each labelled,
/// the rectangles before every label and before the data; a stretch outside the axis is cut
/// at the frame, an empty one left out.
#[test]
fn shaded_stretches_sit_behind_the_data_with_their_labels() {
    use exanet::plot::Shade;
    let p = Panel::new(
        "p",
        Axis::new("t", Scale::Linear).with_range(0.0, 100.0),
        Axis::new("y", Scale::Linear),
        vec![Series::new("y", vec![(0.0, 1.0), (100.0, 2.0)])],
    )
    .with_shade(0.0, 20.0, "warm-up", Shade::Phase)
    .with_shade(20.0, 80.0, "window", Shade::Measured)
    .with_shade(50.0, 500.0, "fault", Shade::Fault)
    .with_shade(90.0, 90.0, "empty", Shade::Phase);
    let svg = render_svg(&Figure::new("", vec![p])).unwrap();
    assert_well_formed(&svg);
    let rects = elements(&svg, "<rect class=\"shade\"");
    assert_eq!(rects.len(), 3, "{svg}");
    let labels = elements(&svg, "<text class=\"shade-label\"");
    assert_eq!(labels.len(), 3);
    assert!(!svg.contains(">empty<"));
    let at = |needle: &str| svg.find(needle).unwrap();
    assert!(at("<rect class=\"shade\"") < at("<text class=\"shade-label\""));
    assert!(at("<text class=\"shade-label\"") < at("<polyline"));
    // the fault's stretch ends at the frame: its right edge is the 60 % of the width from 50
    let x = |r: &str, k: &str| num(attr(r, k).unwrap());
    let (left, whole) = (x(rects[1], "x"), x(rects[1], "width") / 0.6);
    assert!((x(rects[2], "x") + x(rects[2], "width") - (left - 0.2 * whole + whole)).abs() < 0.05);
}
