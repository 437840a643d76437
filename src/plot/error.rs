//! The one error type of the plot module: every bad figure is one of these, never a panic.
//!
//! Messages locate the fault the way the caller built the figure: `panels[1] "mean latency"`,
//! `series[0] "torus 10x10 ecube"`, `points[3]` (indices are 0-based, as in the `Vec`s).

use super::Scale;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// Which axis of a panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxisId {
    X,
    Y,
}

impl fmt::Display for AxisId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AxisId::X => "x",
            AxisId::Y => "y",
        })
    }
}

/// A panel or series, by its index in its `Vec` and its title or label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemRef {
    /// 0-based index.
    pub index: usize,
    /// The panel's title or the series' label (may be empty).
    pub name: String,
}

impl ItemRef {
    pub(crate) fn new(index: usize, name: &str) -> Self {
        ItemRef {
            index,
            name: name.to_string(),
        }
    }
}

/// What is wrong with an axis range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeProblem {
    /// `min == max`: nothing to spread the data over.
    Empty,
    /// `min > max`.
    Inverted,
    /// An end is NaN or infinite.
    NonFinite,
    /// An end is zero or negative on a log axis.
    NonPositiveOnLog,
    /// The span overflows `f64`, or is too narrow to place ticks in (fewer distinct values
    /// than pixels would need).
    OutOfScale,
}

impl fmt::Display for RangeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RangeProblem::Empty => "is empty (min equals max)",
            RangeProblem::Inverted => "is inverted (min above max)",
            RangeProblem::NonFinite => "has an end that is not finite",
            RangeProblem::NonPositiveOnLog => "must be above 0 on a log axis",
            RangeProblem::OutOfScale => "is too wide or too narrow for f64 arithmetic",
        })
    }
}

/// Why a figure cannot be rendered or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum PlotError {
    /// The figure has no panels.
    EmptyFigure { title: String },
    /// Panels smaller than [`super::MIN_PANEL_WIDTH_PX`] x [`super::MIN_PANEL_HEIGHT_PX`]
    /// leave no room for the axes, ticks and labels.
    PanelTooSmall { width: u32, height: u32 },
    /// A panel has no series.
    EmptyPanel { panel: ItemRef },
    /// A series has no points.
    EmptySeries { panel: ItemRef, series: ItemRef },
    /// A series' hollow flags are not one a point.
    HollowLength {
        panel: ItemRef,
        series: ItemRef,
        points: usize,
        hollow: usize,
    },
    /// Error bars not one a point, or one not a finite interval (low <= high; above 0 on a
    /// log axis).
    BadBars { panel: ItemRef, series: ItemRef },
    /// A coordinate is NaN or infinite.
    NonFinite {
        panel: ItemRef,
        series: ItemRef,
        /// 0-based index into `points`.
        point: usize,
        axis: AxisId,
        value: f64,
    },
    /// A coordinate is zero or negative on a log axis.
    NonPositiveOnLog {
        panel: ItemRef,
        series: ItemRef,
        /// 0-based index into `points`.
        point: usize,
        axis: AxisId,
        scale: Scale,
        value: f64,
    },
    /// An axis range, given or derived from the data, cannot be drawn.
    BadRange {
        panel: ItemRef,
        axis: AxisId,
        min: f64,
        max: f64,
        /// `false`: the range was given in [`super::Axis::range`]; `true`: it was derived from
        /// the data.
        from_data: bool,
        problem: RangeProblem,
    },
    /// `write_plot` was given a path whose directory does not exist (it creates none).
    MissingDirectory { path: PathBuf, dir: PathBuf },
    /// Writing the file failed.
    Io { path: PathBuf, source: io::Error },
    /// A file name whose extension names no format the figure can be written in.
    UnknownFormat { path: PathBuf },
    /// A PNG or PDF needs the font of `fonts.rs`, and it could not be read.
    NoFont { path: PathBuf, why: String },
    /// The SVG could not be turned into a PNG or a PDF.
    Convert { format: &'static str, why: String },
}

fn fmt_item(f: &mut fmt::Formatter<'_>, kind: &str, item: &ItemRef) -> fmt::Result {
    // `{:?}` quotes the name and escapes any quote inside it, so the message stays unambiguous.
    write!(f, "{kind}[{}] {:?}", item.index, item.name)
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlotError::EmptyFigure { title } => write!(f, "figure {title:?} has no panels"),
            PlotError::PanelTooSmall { width, height } => write!(
                f,
                "panels of {width} x {height} px are too small: axes and labels need at least \
                 {} x {} px",
                super::MIN_PANEL_WIDTH_PX,
                super::MIN_PANEL_HEIGHT_PX
            ),
            PlotError::EmptyPanel { panel } => {
                fmt_item(f, "panels", panel)?;
                f.write_str(" has no series")
            }
            PlotError::EmptySeries { panel, series } => {
                fmt_item(f, "panels", panel)?;
                f.write_str(", ")?;
                fmt_item(f, "series", series)?;
                f.write_str(" has no points")
            }
            PlotError::HollowLength {
                panel,
                series,
                points,
                hollow,
            } => {
                fmt_item(f, "panels", panel)?;
                f.write_str(", ")?;
                fmt_item(f, "series", series)?;
                write!(f, ": {hollow} hollow flags for {points} points")
            }
            PlotError::BadBars { panel, series } => {
                fmt_item(f, "panels", panel)?;
                f.write_str(", ")?;
                fmt_item(f, "series", series)?;
                f.write_str(": error bars must be one finite interval (low <= high) a point")
            }
            PlotError::NonFinite {
                panel,
                series,
                point,
                axis,
                value,
            } => {
                fmt_item(f, "panels", panel)?;
                f.write_str(", ")?;
                fmt_item(f, "series", series)?;
                write!(
                    f,
                    ", points[{point}]: {axis} = {value} is not a finite value"
                )
            }
            PlotError::NonPositiveOnLog {
                panel,
                series,
                point,
                axis,
                scale,
                value,
            } => {
                fmt_item(f, "panels", panel)?;
                f.write_str(", ")?;
                fmt_item(f, "series", series)?;
                write!(
                    f,
                    ", points[{point}]: {axis} = {value} is not positive, so it cannot be placed \
                     on the {} {axis} axis",
                    scale.name()
                )
            }
            PlotError::BadRange {
                panel,
                axis,
                min,
                max,
                from_data,
                problem,
            } => {
                fmt_item(f, "panels", panel)?;
                let origin = if *from_data {
                    "derived from the data"
                } else {
                    "given"
                };
                write!(
                    f,
                    ": the {axis} axis range ({min}, {max}) {origin} {problem}"
                )
            }
            PlotError::MissingDirectory { path, dir } => write!(
                f,
                "cannot write {}: directory {} does not exist",
                path.display(),
                dir.display()
            ),
            PlotError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            PlotError::UnknownFormat { path } => write!(
                f,
                "{}: give a file name ending in .svg, .png or .pdf",
                path.display()
            ),
            PlotError::NoFont { path, why } => write!(
                f,
                "a PNG or PDF plot is drawn with DejaVu Sans, and {} cannot be read ({why}): \
                 install Debian's fonts-dejavu-core, or name a folder holding DejaVuSans.ttf \
                 and DejaVuSans-Bold.ttf in EXANET_FONT_DIR, or write the plot as .svg",
                path.display()
            ),
            PlotError::Convert { format, why } => {
                write!(f, "the figure could not be drawn as {format}: {why}")
            }
        }
    }
}

impl std::error::Error for PlotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlotError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
