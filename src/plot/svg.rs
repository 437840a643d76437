//! Drawing a validated figure as SVG 1.1 text.
//!
//! Panel layout (panel-local pixels; panels sit side by side under the figure's title band):
//!
//! ```text
//!  0                                   panel_width_px
//!  +-------------------------------------+  0
//!  |             panel title             |
//!  |      +----------------------------+ |  y0 = 32
//!  |  y   | [legend]      plot area    | |
//!  | lbl  |                            | |
//!  | tick |                            | |
//!  |      +----------------------------+ |  y0 + h = panel_height_px - 50
//!  |      x0  tick labels        x0 + w  |
//!  |              x axis label           |
//!  +-------------------------------------+  panel_height_px
//! ```
//!
//! `x0` grows with the widest y tick label, so long labels never run into the y axis label.
//! The legend sits on a translucent white box in the corner of the plot area that hides the
//! least of the curves (sampled along every drawn segment and at every marker); ties go to the
//! top left, which the curves these figures show (latency against size or load, accepted
//! against offered load, all rising to the right) usually leave free.
//!
//! Series are clipped to the plot area segment by segment (Liang-Barsky): a curve that leaves
//! a given range is cut at the frame, and resumes as a new `<polyline>` where it comes back;
//! markers outside the area are not drawn. A point more than a million plot sizes away (a
//! value wildly outside a given range) is first pulled in along the ray from the plot's
//! centre, which keeps every coordinate finite and changes nothing that is drawn unless the
//! line between two such far points crosses the plot.

use super::error::{AxisId, ItemRef, PlotError, RangeProblem};
use super::ticks::{layout_axis, max_ticks, AxisLayout};
use super::{Axis, Figure, Panel};
use std::fmt::{self, Write};

/// Height of the figure title band, when the figure has a title.
pub(crate) const TITLE_BAND_PX: f64 = 32.0;
const MARGIN_TOP: f64 = 32.0;
const MARGIN_BOTTOM: f64 = 50.0;
const MARGIN_RIGHT: f64 = 20.0;
const MIN_MARGIN_LEFT: f64 = 56.0;
/// Width of one character of tick-label text (11 px sans-serif), rounded up.
const TICK_CHAR_PX: f64 = 6.5;
/// Width of one character of legend text (11 px sans-serif), rounded up.
const LEGEND_CHAR_PX: f64 = 6.5;
const LEGEND_ROW_PX: f64 = 16.0;
const MARKER_R: f64 = 3.5;
/// Half the width of an error bar's caps.
const ERROR_CAP_PX: f64 = 3.0;
/// The colour of reference lines (bounds, `y = x`): not a measurement's.
const REFERENCE_INK: &str = "#555555";
/// Samples per drawn segment when looking for the emptiest corner for the legend.
const INK_SAMPLES: u32 = 16;

/// Okabe & Ito's colour-blind-safe palette, ordered so the first colours contrast most on
/// white; yellow comes last because it is faint on white.
pub(crate) const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];

/// Marker shapes, cycled independently of the 8 colours: series `i` and `j` share both colour
/// and shape only when `i - j` is a multiple of 24, and the first 6 differ in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Cross,
}

const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Square,
    Marker::TriangleUp,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Cross,
];

/// A position in panel-local pixels.
type Pt = (f64, f64);

/// The plot area inside a panel, panel-local pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Area {
    pub x0: f64,
    pub y0: f64,
    pub w: f64,
    pub h: f64,
}

impl Area {
    /// Pixel position of axis fractions (u along x, v along y; y grows downwards in SVG).
    fn at(&self, u: f64, v: f64) -> (f64, f64) {
        (self.x0 + u * self.w, self.y0 + (1.0 - v) * self.h)
    }

    fn contains(&self, p: (f64, f64)) -> bool {
        const EPS: f64 = 1e-6;
        p.0 >= self.x0 - EPS
            && p.0 <= self.x0 + self.w + EPS
            && p.1 >= self.y0 - EPS
            && p.1 <= self.y0 + self.h + EPS
    }
}

/// A panel with its axes laid out.
pub(crate) struct PanelPlan<'a> {
    panel: &'a Panel,
    x: AxisLayout,
    y: AxisLayout,
    area: Area,
}

/// The (min, max) of one coordinate over every point of a panel (validated: not empty), the
/// error bars' ends included for y, 0 included for an axis drawn from zero.
fn data_range(panel: &Panel, pick: fn(&(f64, f64)) -> f64, y: bool) -> (f64, f64) {
    let mut it = panel.series.iter().flat_map(|s| s.points.iter()).map(pick);
    let first = it.next().unwrap_or(0.0);
    let (mut lo, mut hi) = it.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if y {
        for &(a, b) in panel.series.iter().flat_map(|s| s.bars.iter()) {
            (lo, hi) = (lo.min(a), hi.max(b));
        }
    }
    let axis = if y { &panel.y } else { &panel.x };
    if axis.from_zero && !axis.scale.is_log() {
        (lo, hi) = (lo.min(0.0), hi.max(0.0));
    }
    (lo, hi)
}

fn axis_layout(
    index: usize,
    panel: &Panel,
    id: AxisId,
    axis: &Axis,
    data: (f64, f64),
    budget: usize,
) -> Result<AxisLayout, PlotError> {
    layout_axis(axis.scale, axis.range, data, budget).map_err(
        |(problem, min, max): (RangeProblem, f64, f64)| PlotError::BadRange {
            panel: ItemRef::new(index, &panel.title),
            axis: id,
            min,
            max,
            from_data: axis.range.is_none(),
            problem,
        },
    )
}

/// Lays out one panel of a validated figure: y axis first, because the width of its tick
/// labels sets the left margin and so the room left for the x axis.
pub(crate) fn plan_panel(
    index: usize,
    panel: &Panel,
    width: u32,
    height: u32,
) -> Result<PanelPlan<'_>, PlotError> {
    let (pw, ph) = (f64::from(width), f64::from(height));
    let h = ph - MARGIN_TOP - MARGIN_BOTTOM;
    let y = axis_layout(
        index,
        panel,
        AxisId::Y,
        &panel.y,
        data_range(panel, |p| p.1, true),
        max_ticks(h, 32.0),
    )?;
    let widest = y
        .ticks
        .iter()
        .map(|t| t.label.chars().count())
        .max()
        .unwrap_or(1) as f64;
    let x0 = (36.0 + widest * TICK_CHAR_PX)
        .ceil()
        .max(MIN_MARGIN_LEFT)
        .min(pw / 2.0);
    let w = pw - x0 - MARGIN_RIGHT;
    let x = axis_layout(
        index,
        panel,
        AxisId::X,
        &panel.x,
        data_range(panel, |p| p.0, false),
        max_ticks(w, 56.0),
    )?;
    Ok(PanelPlan {
        panel,
        x,
        y,
        area: Area {
            x0,
            y0: MARGIN_TOP,
            w,
            h,
        },
    })
}

/// Text escaped for XML character data and attribute values. Characters XML 1.0 forbids
/// (control characters other than tab, newline and carriage return) become U+FFFD, so any
/// label yields a well-formed document.
pub fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate with two decimals; `-0.00` (a value rounding to zero from below) is written
/// `0.00` so equal positions always print alike.
fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    if s == "-0.00" {
        "0.00".to_string()
    } else {
        s
    }
}

/// The output text: every element on its own line, so two renderings diff line by line.
struct Out(String);

impl Out {
    fn line(&mut self, args: fmt::Arguments<'_>) {
        // Writing into a String cannot fail.
        let _ = self.0.write_fmt(args);
        self.0.push('\n');
    }
}

/// Renders a validated, planned figure.
pub(crate) fn render(fig: &Figure, plans: &[PanelPlan<'_>]) -> String {
    let pw = f64::from(fig.panel_width_px);
    let band = if fig.title.is_empty() {
        0.0
    } else {
        TITLE_BAND_PX
    };
    let width = u64::from(fig.panel_width_px) * plans.len() as u64;
    let height = u64::from(fig.panel_height_px) + band as u64;
    let mut o = Out(String::new());
    o.line(format_args!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>"#
    ));
    o.line(format_args!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    ));
    o.line(format_args!("<title>{}</title>", escape_xml(&fig.title)));
    o.line(format_args!(
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    ));
    if !fig.title.is_empty() {
        o.line(format_args!(
            r#"<text x="{}" y="22" text-anchor="middle" font-size="16" font-weight="bold">{}</text>"#,
            num(width as f64 / 2.0),
            escape_xml(&fig.title)
        ));
    }
    for (i, plan) in plans.iter().enumerate() {
        panel(&mut o, i, plan, i as f64 * pw, band);
    }
    o.line(format_args!("</svg>"));
    o.0
}

fn panel(o: &mut Out, index: usize, plan: &PanelPlan<'_>, dx: f64, dy: f64) {
    let PanelPlan { panel, x, y, area } = plan;
    let Area { x0, y0, w, h } = *area;
    let (x1, y1) = (x0 + w, y0 + h);
    o.line(format_args!(
        r#"<g id="panel-{}" transform="translate({},{})">"#,
        index + 1,
        num(dx),
        num(dy)
    ));
    o.line(format_args!(
        r#"<text x="{}" y="20" text-anchor="middle" font-size="13" font-weight="bold">{}</text>"#,
        num(x0 + w / 2.0),
        escape_xml(&panel.title)
    ));
    // Grid first, so axes and data draw over it.
    for t in &x.ticks {
        let (px, _) = area.at(x.fraction(t.value), 0.0);
        o.line(format_args!(
            r##"<line class="grid" x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#e5e5e5" stroke-width="1"/>"##,
            num(px),
            num(y0),
            num(y1)
        ));
    }
    for t in &y.ticks {
        let (_, py) = area.at(0.0, y.fraction(t.value));
        o.line(format_args!(
            r##"<line class="grid" x1="{1}" y1="{0}" x2="{2}" y2="{0}" stroke="#e5e5e5" stroke-width="1"/>"##,
            num(py),
            num(x0),
            num(x1)
        ));
    }
    o.line(format_args!(
        r##"<line class="axis-x" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#000000" stroke-width="1"/>"##,
        num(x0),
        num(y1),
        num(x1),
        num(y1)
    ));
    o.line(format_args!(
        r##"<line class="axis-y" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#000000" stroke-width="1"/>"##,
        num(x0),
        num(y0),
        num(x0),
        num(y1)
    ));
    for t in &x.ticks {
        let (px, _) = area.at(x.fraction(t.value), 0.0);
        o.line(format_args!(
            r##"<line class="tick" x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#000000" stroke-width="1"/>"##,
            num(px),
            num(y1),
            num(y1 + 5.0)
        ));
        o.line(format_args!(
            r#"<text class="tick-label" x="{}" y="{}" text-anchor="middle" font-size="11">{}</text>"#,
            num(px),
            num(y1 + 18.0),
            escape_xml(&t.label)
        ));
    }
    for t in &y.ticks {
        let (_, py) = area.at(0.0, y.fraction(t.value));
        o.line(format_args!(
            r##"<line class="tick" x1="{1}" y1="{0}" x2="{2}" y2="{0}" stroke="#000000" stroke-width="1"/>"##,
            num(py),
            num(x0 - 5.0),
            num(x0)
        ));
        o.line(format_args!(
            r#"<text class="tick-label" x="{}" y="{}" dy="0.35em" text-anchor="end" font-size="11">{}</text>"#,
            num(x0 - 8.0),
            num(py),
            escape_xml(&t.label)
        ));
    }
    o.line(format_args!(
        r#"<text x="{}" y="{}" text-anchor="middle" font-size="12">{}</text>"#,
        num(x0 + w / 2.0),
        num(y1 + 38.0),
        escape_xml(&panel.x.label)
    ));
    let (lx, ly) = (16.0, y0 + h / 2.0);
    o.line(format_args!(
        r#"<text x="{0}" y="{1}" text-anchor="middle" font-size="12" transform="rotate(-90 {0} {1})">{2}</text>"#,
        num(lx),
        num(ly),
        escape_xml(&panel.y.label)
    ));
    // Where ink falls, so the legend can go where there is least of it.
    let mut ink: Vec<(f64, f64)> = Vec::new();
    // Shaded stretches of x, behind the data, each labelled at its top (staggered over three
    // rows, so that labels of narrow stretches side by side do not overlap); a label is ink.
    let spans: Vec<(usize, f64, f64)> = panel
        .shades
        .iter()
        .enumerate()
        .filter_map(|(k, (from, to, _, _))| {
            let (a, b) = (
                x.fraction(*from).clamp(0.0, 1.0),
                x.fraction(*to).clamp(0.0, 1.0),
            );
            (a.is_finite() && b.is_finite() && b > a)
                .then(|| (k, area.at(a, 0.0).0, area.at(b, 0.0).0))
        })
        .collect();
    // the stretches first, then every label above them all
    for &(k, px0, px1) in &spans {
        let kind = panel.shades[k].3;
        let tint = match kind {
            crate::plot::Shade::Phase => "#eeeeee",
            crate::plot::Shade::Measured => "#e3eef9",
            crate::plot::Shade::Fault => "#f9dede",
        };
        o.line(format_args!(
            r#"<rect class="shade" x="{}" y="{}" width="{}" height="{}" fill="{tint}"/>"#,
            num(px0),
            num(area.y0),
            num(px1 - px0),
            num(area.h)
        ));
    }
    for &(k, px0, _) in &spans {
        let label = &panel.shades[k].2;
        let ly = area.y0 + 11.0 + 11.0 * (k % 3) as f64;
        o.line(format_args!(
            r##"<text class="shade-label" x="{}" y="{}" font-size="10" fill="#555555">{}</text>"##,
            num(px0 + 3.0),
            num(ly),
            escape_xml(label)
        ));
        let width = label.chars().count() as f64 * LEGEND_CHAR_PX * 10.0 / 11.0;
        ink.extend((0..=INK_SAMPLES).map(|s| {
            (
                px0 + 3.0 + width * f64::from(s) / f64::from(INK_SAMPLES),
                ly - 4.0,
            )
        }));
    }
    for (i, s) in panel.series.iter().enumerate() {
        let colour = if s.reference {
            REFERENCE_INK
        } else {
            PALETTE[i % PALETTE.len()]
        };
        let marker = MARKERS[i % MARKERS.len()];
        let dash = if s.reference {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .map(|&(vx, vy)| {
                let (u, v) = pull_in(x.fraction(vx), y.fraction(vy));
                area.at(u, v)
            })
            .collect();
        for run in clipped_runs(&pts, area) {
            let coords: Vec<String> = run
                .iter()
                .map(|&(px, py)| format!("{},{}", num(px), num(py)))
                .collect();
            o.line(format_args!(
                r#"<polyline class="series-{}" points="{}" fill="none" stroke="{colour}" stroke-width="1.5" stroke-linejoin="round"{dash}/>"#,
                i + 1,
                coords.join(" ")
            ));
            for seg in run.windows(2) {
                let (a, b) = (seg[0], seg[1]);
                ink.extend((0..=INK_SAMPLES).map(|k| {
                    let t = f64::from(k) / f64::from(INK_SAMPLES);
                    (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
                }));
            }
        }
        for (k, &(lo, hi)) in s.bars.iter().enumerate() {
            let vx = s.points[k].0;
            let (a, b) = (
                area.at(x.fraction(vx), y.fraction(lo).clamp(0.0, 1.0)),
                area.at(x.fraction(vx), y.fraction(hi).clamp(0.0, 1.0)),
            );
            if !area.contains((a.0, a.1)) && !area.contains((b.0, b.1)) {
                continue;
            }
            o.line(format_args!(
                r#"<path class="error-bar" d="M{0},{1}V{2}M{3},{1}H{4}M{3},{2}H{4}" stroke="{colour}" stroke-width="1" fill="none"/>"#,
                num(a.0),
                num(a.1),
                num(b.1),
                num(a.0 - ERROR_CAP_PX),
                num(a.0 + ERROR_CAP_PX)
            ));
        }
        if s.reference {
            continue;
        }
        for (k, &p) in pts.iter().enumerate().filter(|(_, &p)| area.contains(p)) {
            let hollow = s.hollow.get(k).copied().unwrap_or(false);
            draw_marker(o, marker, p, colour, hollow);
            ink.push(p);
        }
    }
    legend(o, panel, area, &ink);
    o.line(format_args!("</g>"));
}

/// Legend rows for the series that have a label (none at all if no series has one), in the
/// corner of the plot area that covers the fewest `ink` samples; ties go to the first of top
/// left, top right, bottom right, bottom left.
fn legend(o: &mut Out, panel: &Panel, area: &Area, ink: &[(f64, f64)]) {
    // (series index or None for the hollow note, label)
    let mut rows: Vec<(Option<usize>, &str)> = panel
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.label.is_empty())
        .map(|(i, s)| (Some(i), s.label.as_str()))
        .collect();
    let any_hollow = panel
        .series
        .iter()
        .any(|s| !s.reference && s.hollow.iter().any(|&h| h));
    if let (Some(note), true) = (&panel.hollow_note, any_hollow) {
        rows.push((None, note.as_str()));
    }
    if rows.is_empty() {
        return;
    }
    let widest = rows
        .iter()
        .map(|(_, l)| l.chars().count())
        .max()
        .unwrap_or(0) as f64;
    let bw = 8.0 + 24.0 + 8.0 + widest * LEGEND_CHAR_PX + 8.0;
    let bh = rows.len() as f64 * LEGEND_ROW_PX + 8.0;
    let (left, top) = (area.x0 + 8.0, area.y0 + 8.0);
    let (right, bottom) = (area.x0 + area.w - 8.0 - bw, area.y0 + area.h - 8.0 - bh);
    let covered = |&(bx, by): &(f64, f64)| {
        ink.iter()
            .filter(|p| p.0 >= bx && p.0 <= bx + bw && p.1 >= by && p.1 <= by + bh)
            .count()
    };
    let corners = [(left, top), (right, top), (right, bottom), (left, bottom)];
    // min_by_key keeps the first of equal keys, which gives the stated tie order.
    let (bx, by) = corners
        .iter()
        .copied()
        .min_by_key(covered)
        .unwrap_or((left, top));
    o.line(format_args!(
        r##"<rect class="legend" x="{}" y="{}" width="{}" height="{}" fill="#ffffff" fill-opacity="0.85" stroke="#bbbbbb" stroke-width="1"/>"##,
        num(bx),
        num(by),
        num(bw),
        num(bh)
    ));
    for (row, (i, label)) in rows.iter().enumerate() {
        let ry = by + 4.0 + LEGEND_ROW_PX * (row as f64 + 0.5);
        match i {
            None => draw_marker(o, MARKERS[0], (bx + 20.0, ry), REFERENCE_INK, true),
            Some(i) if panel.series[*i].reference => o.line(format_args!(
                r#"<line x1="{}" y1="{2}" x2="{}" y2="{2}" stroke="{REFERENCE_INK}" stroke-width="1.5" stroke-dasharray="6 4"/>"#,
                num(bx + 8.0),
                num(bx + 32.0),
                num(ry)
            )),
            Some(i) => {
                let colour = PALETTE[i % PALETTE.len()];
                o.line(format_args!(
                    r#"<line x1="{}" y1="{2}" x2="{}" y2="{2}" stroke="{colour}" stroke-width="1.5"/>"#,
                    num(bx + 8.0),
                    num(bx + 32.0),
                    num(ry)
                ));
                draw_marker(
                    o,
                    MARKERS[i % MARKERS.len()],
                    (bx + 20.0, ry),
                    colour,
                    false,
                );
            }
        }
        o.line(format_args!(
            r#"<text x="{}" y="{}" dy="0.35em" font-size="11">{}</text>"#,
            num(bx + 40.0),
            num(ry),
            escape_xml(label)
        ));
    }
}

/// A marker at (cx, cy): filled with `colour`, or `hollow`: its outline in `colour`, white
/// inside (`class="hollow"`), the cross as the outline of its two bars.
fn draw_marker(o: &mut Out, marker: Marker, (cx, cy): (f64, f64), colour: &str, hollow: bool) {
    let r = MARKER_R;
    let paint = if hollow {
        format!(r##"class="hollow" fill="#ffffff" stroke="{colour}" stroke-width="1.5""##)
    } else {
        format!(r#"fill="{colour}""#)
    };
    let poly = |o: &mut Out, pts: &[(f64, f64)]| {
        let p: Vec<String> = pts
            .iter()
            .map(|&(dx, dy)| format!("{},{}", num(cx + dx * r), num(cy + dy * r)))
            .collect();
        o.line(format_args!(
            r#"<polygon points="{}" {paint}/>"#,
            p.join(" ")
        ));
    };
    match marker {
        Marker::Circle => o.line(format_args!(
            r#"<circle cx="{}" cy="{}" r="{}" {paint}/>"#,
            num(cx),
            num(cy),
            num(r)
        )),
        Marker::Square => o.line(format_args!(
            r#"<rect x="{}" y="{}" width="{2}" height="{2}" {paint}/>"#,
            num(cx - r * 0.9),
            num(cy - r * 0.9),
            num(2.0 * r * 0.9)
        )),
        Marker::TriangleUp => poly(o, &[(0.0, -1.2), (1.1, 0.8), (-1.1, 0.8)]),
        Marker::TriangleDown => poly(o, &[(0.0, 1.2), (1.1, -0.8), (-1.1, -0.8)]),
        Marker::Diamond => poly(o, &[(0.0, -1.3), (1.3, 0.0), (0.0, 1.3), (-1.3, 0.0)]),
        Marker::Cross if hollow => {
            // a plus sign of bars 2 x 0.35 r wide and 2 x 1.41 r long, turned 45 degrees
            let (h, l) = (0.35, std::f64::consts::SQRT_2);
            let plus = [
                (-h, -l),
                (h, -l),
                (h, -h),
                (l, -h),
                (l, h),
                (h, h),
                (h, l),
                (-h, l),
                (-h, h),
                (-l, h),
                (-l, -h),
                (-h, -h),
            ];
            let s = std::f64::consts::FRAC_1_SQRT_2;
            let x: Vec<(f64, f64)> = plus
                .iter()
                .map(|&(u, v)| ((u - v) * s, (u + v) * s))
                .collect();
            poly(o, &x)
        }
        Marker::Cross => o.line(format_args!(
            r#"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{colour}" stroke-width="1.8" fill="none"/>"#,
            num(cx - r),
            num(cy - r),
            num(cx + r),
            num(cy + r),
            num(cx - r),
            num(cy + r),
            num(cx + r),
            num(cy - r)
        )),
    }
}

/// Axis fractions kept within a million plot sizes of the centre (see the module header).
fn pull_in(u: f64, v: f64) -> (f64, f64) {
    const LIMIT: f64 = 1e6;
    let finite = |t: f64| t.clamp(-f64::MAX, f64::MAX);
    let (du, dv) = (finite(u) - 0.5, finite(v) - 0.5);
    let m = du.abs().max(dv.abs());
    if m <= LIMIT {
        (u, v)
    } else {
        (0.5 + du / m * LIMIT, 0.5 + dv / m * LIMIT)
    }
}

/// The part of segment p0-p1 inside `area` (Liang-Barsky), with whether each end was cut.
fn clip(p0: Pt, p1: Pt, a: &Area) -> Option<(Pt, Pt, bool, bool)> {
    const EPS: f64 = 1e-6;
    let (dx, dy) = (p1.0 - p0.0, p1.1 - p0.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let edges = [
        (-dx, p0.0 - (a.x0 - EPS)),
        (dx, (a.x0 + a.w + EPS) - p0.0),
        (-dy, p0.1 - (a.y0 - EPS)),
        (dy, (a.y0 + a.h + EPS) - p0.1),
    ];
    for (p, q) in edges {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    let at = |t: f64| (p0.0 + t * dx, p0.1 + t * dy);
    let a0 = if t0 > 0.0 { at(t0) } else { p0 };
    let a1 = if t1 < 1.0 { at(t1) } else { p1 };
    Some((a0, a1, t0 > 0.0, t1 < 1.0))
}

/// The visible pieces of a polyline, each with at least two points, in the given order.
fn clipped_runs(pts: &[(f64, f64)], area: &Area) -> Vec<Vec<(f64, f64)>> {
    let mut runs = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    let flush = |cur: &mut Vec<(f64, f64)>, runs: &mut Vec<Vec<(f64, f64)>>| {
        if cur.len() >= 2 {
            runs.push(std::mem::take(cur));
        } else {
            cur.clear();
        }
    };
    for seg in pts.windows(2) {
        match clip(seg[0], seg[1], area) {
            None => flush(&mut cur, &mut runs),
            Some((a, b, cut_start, cut_end)) => {
                if cut_start || cur.is_empty() {
                    flush(&mut cur, &mut runs);
                    cur.push(a);
                }
                cur.push(b);
                if cut_end {
                    flush(&mut cur, &mut runs);
                }
            }
        }
    }
    flush(&mut cur, &mut runs);
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: Area = Area {
        x0: 10.0,
        y0: 10.0,
        w: 100.0,
        h: 50.0,
    };

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(
            escape_xml(r#"a<b & c>"d" 'e'"#),
            "a&lt;b &amp; c&gt;&quot;d&quot; &apos;e&apos;"
        );
        assert_eq!(escape_xml("latency (µs)"), "latency (µs)");
        assert_eq!(escape_xml("bell\u{7}"), "bell\u{FFFD}");
        assert_eq!(escape_xml("&amp;"), "&amp;amp;");
    }

    #[test]
    fn coordinates_never_print_minus_zero() {
        assert_eq!(num(-0.001), "0.00");
        assert_eq!(num(-0.0), "0.00");
        assert_eq!(num(12.345678), "12.35");
        assert_eq!(num(-1.5), "-1.50");
    }

    #[test]
    fn inside_segments_are_kept_whole() {
        let runs = clipped_runs(&[(20.0, 20.0), (50.0, 30.0), (100.0, 55.0)], &AREA);
        assert_eq!(runs, vec![vec![(20.0, 20.0), (50.0, 30.0), (100.0, 55.0)]]);
    }

    #[test]
    fn a_curve_leaving_and_returning_splits_at_the_frame() {
        // Leaves through the top (y < 10) and comes back.
        let runs = clipped_runs(
            &[(20.0, 30.0), (40.0, -10.0), (60.0, -10.0), (80.0, 30.0)],
            &AREA,
        );
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0][0], (20.0, 30.0));
        let exit = runs[0][1];
        assert!(
            (exit.0 - 30.0).abs() < 1e-3 && (exit.1 - 10.0).abs() < 1e-3,
            "{exit:?}"
        );
        let back = runs[1][0];
        assert!(
            (back.0 - 70.0).abs() < 1e-3 && (back.1 - 10.0).abs() < 1e-3,
            "{back:?}"
        );
        assert_eq!(runs[1][1], (80.0, 30.0));
    }

    #[test]
    fn a_segment_fully_outside_draws_nothing() {
        assert!(clipped_runs(&[(0.0, 0.0), (5.0, 100.0)], &AREA).is_empty());
        assert!(clipped_runs(&[(20.0, 20.0)], &AREA).is_empty());
    }

    #[test]
    fn far_points_are_pulled_in_along_their_direction() {
        assert_eq!(pull_in(0.3, 0.7), (0.3, 0.7));
        let (u, v) = pull_in(f64::INFINITY, 0.5);
        assert!(u.is_finite() && u > 1e5 && v == 0.5);
        let (u, v) = pull_in(0.5 + 4e9, 0.5 + 2e9);
        assert!(((v - 0.5) / (u - 0.5) - 0.5).abs() < 1e-12);
    }
}
