//! PNG output: the figure's SVG parsed and laid out by `usvg` (text shaped with the one font of
//! `fonts.rs`) and rasterised by `resvg` on white, at [`SCALE`] pixels a px of the SVG.
//! `resvg` draws with no randomness and no clock, so the same figure gives the same bytes.

use super::{fonts, PlotError};
use resvg::{tiny_skia, usvg};
use std::sync::Arc;

/// Device pixels a px of the figure (a 980 x 420 px figure is a 1960 x 840 PNG).
pub const SCALE: f32 = 2.0;

/// The SVG `svg` as a laid-out tree, its text turned into glyph outlines.
pub fn tree(svg: &str) -> Result<usvg::Tree, PlotError> {
    let opt = usvg::Options {
        fontdb: Arc::new(fonts::database()?),
        font_family: fonts::FAMILY.to_string(),
        ..Default::default()
    };
    usvg::Tree::from_str(svg, &opt).map_err(|e| PlotError::Convert {
        format: "PNG or PDF",
        why: e.to_string(),
    })
}

/// The SVG `svg` as a PNG image.
pub fn png(svg: &str) -> Result<Vec<u8>, PlotError> {
    let t = tree(svg)?;
    let size = t
        .size()
        .to_int_size()
        .scale_by(SCALE)
        .ok_or(PlotError::Convert {
            format: "PNG",
            why: "the figure is too large".into(),
        })?;
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or(PlotError::Convert {
            format: "PNG",
            why: format!("no {} x {} image", size.width(), size.height()),
        })?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &t,
        tiny_skia::Transform::from_scale(SCALE, SCALE),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| PlotError::Convert {
        format: "PNG",
        why: e.to_string(),
    })
}
