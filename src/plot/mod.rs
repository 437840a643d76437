//! Plots: line charts of measured curves written as standalone SVG 1.1, and from it as PNG
//! (`raster.rs`) or PDF (`pdf.rs`) drawn with one font (`fonts.rs`).
//!
//! Made for the figures an interconnect designer draws from this model: ping-pong latency
//! against packet size for 1 and 2 hops (x = payload bytes on a Log2 axis, y = latency in µs),
//! and CNF curves (accepted load and mean latency against offered load, two panels side by
//! side, one series per network configuration).
//!
//! A [`Figure`] is a title over panels laid out left to right, each `panel_width_px` x
//! `panel_height_px` (the figure is exactly `panels * panel_width_px` wide, and
//! `panel_height_px` tall plus a 32 px band when it has a title). A [`Panel`] has a title, an x
//! and a y [`Axis`] and its [`Series`]; each series is drawn as one polyline through its points
//! in the order given, with a marker at every point (a single point draws only its marker),
//! and is listed in the panel's legend (series with an empty label are left out of it). A
//! point can be marked hollow ([`Series::with_hollow`]): its marker is outlined in the series'
//! colour and white inside, for points to be read with care (a network load past saturation);
//! a panel's legend can say what hollow means ([`Panel::with_hollow_note`]). A series can carry
//! an error bar a point ([`Series::with_bars`], a confidence interval), and a reference line
//! (a bound, `y = x`: [`Series::reference`]) is drawn dashed in grey without markers.
//! Colours follow Okabe and Ito's colour-blind-safe palette and markers change shape, both
//! cycling by the series' index in its panel, so a configuration keeps its look across panels.
//!
//! Axes are linear, Log2 or Log10 ([`Scale`]). A range left as `None` is taken from the data
//! and widened to nice ticks (1-2-5 steps; powers of the base on log axes); a given range is
//! kept as it is, and curves leaving it are cut at the frame. Tick rules and label formats:
//! `ticks.rs`; drawing and layout: `svg.rs`.
//!
//! Output is deterministic: the same figure gives byte-identical SVG (coordinates printed
//! with two decimals, no hashing, no time or locale), so a rendered figure can be a golden
//! file. Bad input is a [`PlotError`] naming the panel, series and point, never a panic.

mod error;
pub mod fonts;
mod pdf;
mod raster;
mod svg;
mod ticks;

pub use error::{AxisId, ItemRef, PlotError, RangeProblem};
pub use svg::escape_xml;
pub use ticks::format_tick;

use std::path::Path;

/// Smallest panel width that leaves a plot area once margins, ticks and labels are placed.
pub const MIN_PANEL_WIDTH_PX: u32 = 160;
/// Smallest panel height that leaves a plot area once titles, ticks and labels are placed.
pub const MIN_PANEL_HEIGHT_PX: u32 = 120;

/// One curve: a label for the legend and its points (x, y) in data units, drawn in this order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    /// Per point, whether its marker is drawn hollow (outlined, white inside) to set it apart,
    /// e.g. a measurement that did not settle; empty: every marker filled. When not empty it
    /// has one entry a point.
    pub hollow: Vec<bool>,
    /// Per point, an interval (low, high) in y drawn as an error bar (a confidence interval);
    /// empty: none. When not empty it has one entry a point.
    pub bars: Vec<(f64, f64)>,
    /// A reference line (a bound, `y = x`), not a measurement: drawn dashed in grey, without
    /// markers, and listed in the legend as a dashed line.
    pub reference: bool,
}

impl Series {
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            label: label.into(),
            points,
            hollow: Vec::new(),
            bars: Vec::new(),
            reference: false,
        }
    }

    /// A reference line through `points` (see [`Series::reference`]).
    pub fn reference(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            reference: true,
            ..Series::new(label, points)
        }
    }

    /// The same series with an error bar (low, high) at each point (one entry a point,
    /// checked when the figure is rendered).
    pub fn with_bars(mut self, bars: Vec<(f64, f64)>) -> Self {
        self.bars = bars;
        self
    }

    /// The same series with the points where `hollow` is true drawn hollow (one entry a point,
    /// checked when the figure is rendered).
    pub fn with_hollow(mut self, hollow: Vec<bool>) -> Self {
        self.hollow = hollow;
        self
    }
}

/// How data values map to positions along an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    #[default]
    Linear,
    /// Powers of two equally spaced; ticks at powers of two, labelled 16, 64, 1K, 4K, 1M.
    Log2,
    /// Powers of ten equally spaced; ticks at powers of ten.
    Log10,
}

impl Scale {
    /// The value in the space where the axis is linear.
    pub(crate) fn apply(self, v: f64) -> f64 {
        match self {
            Scale::Linear => v,
            Scale::Log2 => v.log2(),
            Scale::Log10 => v.log10(),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Scale::Linear => "linear",
            Scale::Log2 => "log2",
            Scale::Log10 => "log10",
        }
    }

    fn is_log(self) -> bool {
        self != Scale::Linear
    }
}

/// One axis of a panel.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// Quantity with its unit, e.g. `payload (bytes)`, `latency (µs)`.
    pub label: String,
    pub scale: Scale,
    /// (min, max) in data units; `None`: from the data, widened to the nice ticks around it.
    pub range: Option<(f64, f64)>,
    /// A range from the data reaches down (or up) to 0 (an accepted load drawn from 0).
    pub from_zero: bool,
}

impl Axis {
    /// An axis whose range comes from the data.
    pub fn new(label: impl Into<String>, scale: Scale) -> Self {
        Axis {
            label: label.into(),
            scale,
            range: None,
            from_zero: false,
        }
    }

    /// The same axis with a range from the data that takes in 0 (linear axes).
    pub fn from_zero(mut self) -> Self {
        self.from_zero = true;
        self
    }

    /// The same axis with a fixed range (checked when the figure is rendered).
    pub fn with_range(mut self, min: f64, max: f64) -> Self {
        self.range = Some((min, max));
        self
    }
}

/// One chart: axes, series and a title.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<Series>,
    /// What a hollow marker means, listed in the legend when the panel has one (e.g.
    /// `saturated or unstable`).
    pub hollow_note: Option<String>,
    /// Stretches of x shaded behind the data, each labelled at its top (a run's phases, a
    /// fault): (from, to, label, kind), `kind` choosing the tint ([`Shade`]).
    pub shades: Vec<(f64, f64, String, Shade)>,
}

/// The tint of a shaded stretch of x.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shade {
    /// A phase set apart (warm-up, drain): light grey.
    Phase,
    /// The stretch the figures are measured over: light blue.
    Measured,
    /// Something wrong (a fault): light red.
    Fault,
}

impl Panel {
    pub fn new(title: impl Into<String>, x: Axis, y: Axis, series: Vec<Series>) -> Self {
        Panel {
            title: title.into(),
            x,
            y,
            series,
            hollow_note: None,
            shades: Vec::new(),
        }
    }

    /// The same panel with x from `from` to `to` shaded and labelled.
    pub fn with_shade(mut self, from: f64, to: f64, label: impl Into<String>, kind: Shade) -> Self {
        self.shades.push((from, to, label.into(), kind));
        self
    }

    /// The same panel, its legend saying what a hollow marker means.
    pub fn with_hollow_note(mut self, note: impl Into<String>) -> Self {
        self.hollow_note = Some(note.into());
        self
    }
}

/// Panels side by side under one title.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// Drawn above the panels; an empty title takes no room.
    pub title: String,
    /// Laid out left to right.
    pub panels: Vec<Panel>,
    /// Width of each panel, margins and labels included.
    pub panel_width_px: u32,
    /// Height of each panel, margins and labels included.
    pub panel_height_px: u32,
}

impl Figure {
    pub const DEFAULT_PANEL_WIDTH_PX: u32 = 480;
    pub const DEFAULT_PANEL_HEIGHT_PX: u32 = 360;

    /// A figure with panels of the default size (480 x 360 px).
    pub fn new(title: impl Into<String>, panels: Vec<Panel>) -> Self {
        Figure {
            title: title.into(),
            panels,
            panel_width_px: Self::DEFAULT_PANEL_WIDTH_PX,
            panel_height_px: Self::DEFAULT_PANEL_HEIGHT_PX,
        }
    }
}

/// Checks a given range; a range from the data is checked once it is derived (ticks.rs).
fn check_range(panel: &ItemRef, id: AxisId, axis: &Axis) -> Result<(), PlotError> {
    let Some((min, max)) = axis.range else {
        return Ok(());
    };
    let problem = if !(min.is_finite() && max.is_finite()) {
        Some(RangeProblem::NonFinite)
    } else if min > max {
        Some(RangeProblem::Inverted)
    } else if min == max {
        Some(RangeProblem::Empty)
    } else if axis.scale.is_log() && min <= 0.0 {
        Some(RangeProblem::NonPositiveOnLog)
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(problem) => Err(PlotError::BadRange {
            panel: panel.clone(),
            axis: id,
            min,
            max,
            from_data: false,
            problem,
        }),
    }
}

/// Every check that does not need a layout, in the order the figure is read: figure, panel
/// size, then per panel its ranges and each series' points.
fn validate(fig: &Figure) -> Result<(), PlotError> {
    if fig.panels.is_empty() {
        return Err(PlotError::EmptyFigure {
            title: fig.title.clone(),
        });
    }
    if fig.panel_width_px < MIN_PANEL_WIDTH_PX || fig.panel_height_px < MIN_PANEL_HEIGHT_PX {
        return Err(PlotError::PanelTooSmall {
            width: fig.panel_width_px,
            height: fig.panel_height_px,
        });
    }
    for (pi, panel) in fig.panels.iter().enumerate() {
        let pref = ItemRef::new(pi, &panel.title);
        check_range(&pref, AxisId::X, &panel.x)?;
        check_range(&pref, AxisId::Y, &panel.y)?;
        if panel.series.is_empty() {
            return Err(PlotError::EmptyPanel { panel: pref });
        }
        for (si, series) in panel.series.iter().enumerate() {
            let sref = || ItemRef::new(si, &series.label);
            if series.points.is_empty() {
                return Err(PlotError::EmptySeries {
                    panel: pref,
                    series: sref(),
                });
            }
            let bars_ok = series.bars.is_empty()
                || (series.bars.len() == series.points.len()
                    && series.bars.iter().all(|&(lo, hi)| {
                        lo.is_finite()
                            && hi.is_finite()
                            && lo <= hi
                            && (!panel.y.scale.is_log() || lo > 0.0)
                    }));
            if !bars_ok {
                return Err(PlotError::BadBars {
                    panel: pref,
                    series: sref(),
                });
            }
            if !series.hollow.is_empty() && series.hollow.len() != series.points.len() {
                return Err(PlotError::HollowLength {
                    panel: pref,
                    series: sref(),
                    points: series.points.len(),
                    hollow: series.hollow.len(),
                });
            }
            for (k, &(x, y)) in series.points.iter().enumerate() {
                for (axis, value, scale) in
                    [(AxisId::X, x, panel.x.scale), (AxisId::Y, y, panel.y.scale)]
                {
                    if !value.is_finite() {
                        return Err(PlotError::NonFinite {
                            panel: pref,
                            series: sref(),
                            point: k,
                            axis,
                            value,
                        });
                    }
                    if scale.is_log() && value <= 0.0 {
                        return Err(PlotError::NonPositiveOnLog {
                            panel: pref,
                            series: sref(),
                            point: k,
                            axis,
                            scale,
                            value,
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// The figure as a standalone SVG 1.1 document (UTF-8 text, ending with a newline).
pub fn render_svg(fig: &Figure) -> Result<String, PlotError> {
    validate(fig)?;
    let plans = fig
        .panels
        .iter()
        .enumerate()
        .map(|(i, p)| svg::plan_panel(i, p, fig.panel_width_px, fig.panel_height_px))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(svg::render(fig, &plans))
}

/// What a figure can be written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Standalone SVG 1.1, text left to the viewer's fonts.
    Svg,
    /// A PNG image at [`raster::SCALE`] pixels a px, drawn with the font of [`fonts`].
    Png,
    /// A one-page vector PDF at 96 px an inch, text drawn as glyph outlines of [`fonts`].
    Pdf,
}

impl Format {
    /// The format a file name's extension names (`.svg`, `.png`, `.pdf`).
    pub fn of(path: &Path) -> Option<Format> {
        match path.extension().and_then(|e| e.to_str())? {
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            "pdf" => Some(Format::Pdf),
            _ => None,
        }
    }
}

/// The figure in `format`: the bytes of the file. Deterministic in every format (PNG and PDF
/// for a given version of the font, `fonts.rs`).
pub fn render(fig: &Figure, format: Format) -> Result<Vec<u8>, PlotError> {
    let svg = render_svg(fig)?;
    match format {
        Format::Svg => Ok(svg.into_bytes()),
        Format::Png => raster::png(&svg),
        Format::Pdf => pdf::pdf(&svg, &fig.title),
    }
}

/// The figure in the format `path`'s extension names.
pub fn render_for(path: &Path, fig: &Figure) -> Result<Vec<u8>, PlotError> {
    let format = Format::of(path).ok_or_else(|| PlotError::UnknownFormat {
        path: path.to_path_buf(),
    })?;
    render(fig, format)
}

/// Renders the figure in the format its extension names (`.svg`, `.png`, `.pdf`) and writes
/// it to `path`, replacing any file there. The directory must exist: none is created, so a
/// mistyped output path is reported rather than silently made. Nothing is written if the
/// figure is invalid.
pub fn write_plot(path: &Path, fig: &Figure) -> Result<(), PlotError> {
    let text = render_for(path, fig)?;
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() && !dir.is_dir() {
            return Err(PlotError::MissingDirectory {
                path: path.to_path_buf(),
                dir: dir.to_path_buf(),
            });
        }
    }
    std::fs::write(path, text).map_err(|source| PlotError::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(label: &str, points: &[(f64, f64)]) -> Series {
        Series::new(label, points.to_vec())
    }

    fn panel(title: &str, series: Vec<Series>) -> Panel {
        Panel::new(
            title,
            Axis::new("payload (bytes)", Scale::Log2),
            Axis::new("latency (µs)", Scale::Linear),
            series,
        )
    }

    fn fig(panels: Vec<Panel>) -> Figure {
        Figure::new("ping-pong", panels)
    }

    fn good() -> Figure {
        fig(vec![panel(
            "latency",
            vec![series("1 hop", &[(16.0, 1.1), (4096.0, 4.0)])],
        )])
    }

    fn err(f: &Figure) -> (PlotError, String) {
        let e = render_svg(f).expect_err("must be refused");
        let msg = e.to_string();
        (e, msg)
    }

    #[test]
    fn a_good_figure_renders() {
        assert!(render_svg(&good()).is_ok());
    }

    #[test]
    fn empty_figure() {
        let (e, msg) = err(&fig(vec![]));
        assert!(matches!(e, PlotError::EmptyFigure { .. }), "{e:?}");
        assert_eq!(msg, r#"figure "ping-pong" has no panels"#);
    }

    #[test]
    fn panel_without_series() {
        let mut f = good();
        f.panels.push(panel("load", vec![]));
        let (e, msg) = err(&f);
        assert!(matches!(e, PlotError::EmptyPanel { ref panel } if panel.index == 1));
        assert_eq!(msg, r#"panels[1] "load" has no series"#);
    }

    #[test]
    fn series_without_points() {
        let mut f = good();
        f.panels[0].series.push(series("2 hops", &[]));
        let (e, msg) = err(&f);
        assert!(matches!(e, PlotError::EmptySeries { ref series, .. } if series.index == 1));
        assert_eq!(
            msg,
            r#"panels[0] "latency", series[1] "2 hops" has no points"#
        );
    }

    #[test]
    fn a_hollow_mask_of_the_wrong_length() {
        let mut f = good();
        f.panels[0].series[0].hollow = vec![true];
        let (e, msg) = err(&f);
        assert!(matches!(
            e,
            PlotError::HollowLength {
                points: 2,
                hollow: 1,
                ..
            }
        ));
        assert_eq!(
            msg,
            r#"panels[0] "latency", series[0] "1 hop": 1 hollow flags for 2 points"#
        );
        f.panels[0].series[0].hollow = vec![true, false];
        assert!(render_svg(&f).is_ok());
    }

    #[test]
    fn non_finite_values() {
        for (bad, axis) in [
            ((f64::NAN, 1.0), AxisId::X),
            ((16.0, f64::INFINITY), AxisId::Y),
            ((16.0, f64::NEG_INFINITY), AxisId::Y),
        ] {
            let mut f = good();
            f.panels[0].series[0].points.push(bad);
            let (e, msg) = err(&f);
            match e {
                PlotError::NonFinite { point, axis: a, .. } => assert_eq!((point, a), (2, axis)),
                other => panic!("{other:?}"),
            }
            assert!(msg.contains(r#"series[0] "1 hop""#), "{msg}");
            assert!(
                msg.contains("points[2]") && msg.contains("not a finite value"),
                "{msg}"
            );
        }
    }

    #[test]
    fn non_positive_values_on_log_axes() {
        for (bad, axis) in [((0.0, 1.0), AxisId::X), ((-16.0, 1.0), AxisId::X)] {
            let mut f = good();
            f.panels[0].series[0].points.insert(0, bad);
            let (e, msg) = err(&f);
            match e {
                PlotError::NonPositiveOnLog {
                    point,
                    axis: a,
                    scale,
                    ..
                } => assert_eq!((point, a, scale), (0, axis, Scale::Log2)),
                ref other => panic!("{other:?}"),
            }
            assert!(msg.contains(r#"series[0] "1 hop""#), "{msg}");
            assert!(msg.contains("log2 x axis"), "{msg}");
        }
        // Zero and negatives are fine on a linear axis.
        let mut f = good();
        f.panels[0].series[0].points.push((16.0, -1.0));
        assert!(render_svg(&f).is_ok());
        // And refused on a log y axis.
        f.panels[0].y.scale = Scale::Log10;
        let (e, _) = err(&f);
        assert!(matches!(
            e,
            PlotError::NonPositiveOnLog {
                axis: AxisId::Y,
                scale: Scale::Log10,
                ..
            }
        ));
    }

    #[test]
    fn bad_given_ranges() {
        let cases = [
            (Scale::Linear, (1.0, 1.0), RangeProblem::Empty, "is empty"),
            (
                Scale::Linear,
                (2.0, 1.0),
                RangeProblem::Inverted,
                "is inverted",
            ),
            (
                Scale::Linear,
                (f64::NAN, 1.0),
                RangeProblem::NonFinite,
                "not finite",
            ),
            (
                Scale::Linear,
                (0.0, f64::INFINITY),
                RangeProblem::NonFinite,
                "not finite",
            ),
            (
                Scale::Log2,
                (0.0, 4096.0),
                RangeProblem::NonPositiveOnLog,
                "above 0",
            ),
            (
                Scale::Log10,
                (-1.0, 10.0),
                RangeProblem::NonPositiveOnLog,
                "above 0",
            ),
            (
                Scale::Linear,
                (-1e308, 1e308),
                RangeProblem::OutOfScale,
                "too wide",
            ),
        ];
        for (scale, (lo, hi), want, text) in cases {
            let mut f = good();
            f.panels[0].x = Axis::new("x", scale).with_range(lo, hi);
            let (e, msg) = err(&f);
            match e {
                PlotError::BadRange {
                    axis: AxisId::X,
                    problem,
                    from_data: false,
                    ..
                } => assert_eq!(problem, want, "{msg}"),
                other => panic!("{other:?}"),
            }
            assert!(msg.contains("x axis range") && msg.contains(text), "{msg}");
        }
    }

    #[test]
    fn a_range_from_data_that_cannot_be_drawn() {
        let f = fig(vec![Panel::new(
            "",
            Axis::new("x", Scale::Linear),
            Axis::new("y", Scale::Linear),
            vec![series("wide", &[(0.0, -1e308), (1.0, 1e308)])],
        )]);
        let (e, msg) = err(&f);
        assert!(matches!(
            e,
            PlotError::BadRange {
                axis: AxisId::Y,
                from_data: true,
                problem: RangeProblem::OutOfScale,
                ..
            }
        ));
        assert!(msg.contains("derived from the data"), "{msg}");
    }

    #[test]
    fn panels_too_small() {
        let mut f = good();
        f.panel_width_px = MIN_PANEL_WIDTH_PX - 1;
        let (e, msg) = err(&f);
        assert!(matches!(e, PlotError::PanelTooSmall { .. }));
        assert!(msg.contains("too small"), "{msg}");
        f.panel_width_px = MIN_PANEL_WIDTH_PX;
        f.panel_height_px = MIN_PANEL_HEIGHT_PX;
        assert!(render_svg(&f).is_ok());
        f.panel_height_px = 0;
        assert!(matches!(err(&f).0, PlotError::PanelTooSmall { .. }));
    }

    #[test]
    fn hostile_values_never_panic() {
        let extremes = [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            5e-324,
            1e-300,
            1.0,
            1e300,
            f64::MAX,
            -f64::MAX,
            -1e-300,
        ];
        for scale in [Scale::Linear, Scale::Log2, Scale::Log10] {
            for &a in &extremes {
                for &b in &extremes {
                    let mut f = good();
                    f.panels[0].x = Axis::new("x", scale);
                    f.panels[0].series[0].points = vec![(a, b), (b, a)];
                    let check = |f: &Figure| {
                        if let Ok(svg) = render_svg(f) {
                            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{f:?}");
                        }
                    };
                    check(&f);
                    f.panels[0].y = Axis::new("y", scale).with_range(a, b);
                    check(&f);
                }
            }
        }
    }

    /// Random figures mixing ordinary values with extremes: never a panic, and every SVG
    /// that renders holds only finite numbers.
    #[test]
    fn random_figures_never_panic() {
        use rand_mt::Mt64;
        let seed = 0x91_07_u64;
        let mut rng = Mt64::new(seed);
        let value = |rng: &mut Mt64| -> f64 {
            let r = rng.next_u64();
            let sign = if r & 1 == 0 { 1.0 } else { -1.0 };
            match (r >> 1) % 6 {
                0 => sign * ((r >> 8) % 100) as f64,
                1 => sign * ((r >> 8) % 10_000) as f64 / 1000.0,
                2 => sign * 10f64.powi(((r >> 8) % 620) as i32 - 310),
                3 => [0.0, f64::MAX, f64::MIN_POSITIVE, 5e-324, 1.0, 4096.0][(r >> 8) as usize % 6],
                4 => sign * f64::from_bits((r >> 8) & 0x7fef_ffff_ffff_ffff),
                _ => 16.0 * ((r >> 8) % 256) as f64,
            }
        };
        let scales = [Scale::Linear, Scale::Log2, Scale::Log10];
        for case in 0..3000 {
            let axis = |rng: &mut Mt64, name: &str| {
                let scale = scales[(rng.next_u64() % 3) as usize];
                let a = Axis::new(name, scale);
                if rng.next_u64().is_multiple_of(3) {
                    let (lo, hi) = (value(rng), value(rng));
                    a.with_range(lo.min(hi), lo.max(hi))
                } else {
                    a
                }
            };
            let x = axis(&mut rng, "x");
            let y = axis(&mut rng, "y");
            let n = 1 + (rng.next_u64() % 6) as usize;
            let mut points = Vec::new();
            for _ in 0..n {
                let (px, py) = (value(&mut rng), value(&mut rng));
                // Mostly values the axes accept, so rendering gets past validation.
                let fit = |v: f64, s: Scale| {
                    if s == Scale::Linear {
                        v
                    } else {
                        v.abs().max(1e-300)
                    }
                };
                points.push((fit(px, x.scale), fit(py, y.scale)));
            }
            let f = fig(vec![Panel::new("r", x, y, vec![Series::new("s", points)])]);
            if let Ok(svg) = render_svg(&f) {
                assert!(
                    !svg.contains("NaN") && !svg.contains("inf"),
                    "seed {seed:#x}, case {case}: {f:?}"
                );
            }
        }
    }

    #[test]
    fn errors_are_std_errors() {
        let e: Box<dyn std::error::Error> = Box::new(err(&fig(vec![])).0);
        assert!(e.source().is_none());
    }
}
