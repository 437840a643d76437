//! The font PNG and PDF plots are drawn with (decision 0049). An SVG leaves its text to the
//! viewer's fonts; a PNG or a PDF carries the glyphs, so the same figure must always be drawn
//! with the same font for its bytes to be the same: DejaVu Sans (regular and bold), from
//! Debian's `fonts-dejavu-core` (installed by `scripts/setup.sh`'s `need_fonts`), and no other
//! font of the system. `EXANET_FONT_DIR` names another folder holding the two files.

use super::PlotError;
use resvg::usvg::fontdb::Database;
use std::path::PathBuf;

/// Where Debian puts DejaVu Sans.
pub const DEFAULT_DIR: &str = "/usr/share/fonts/truetype/dejavu";
/// The regular and the bold face, in that folder.
pub const FILES: [&str; 2] = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"];
/// The family the SVG's `sans-serif` maps to.
pub const FAMILY: &str = "DejaVu Sans";

/// The folder the faces are read from: `EXANET_FONT_DIR`, else [`DEFAULT_DIR`].
pub fn dir() -> PathBuf {
    std::env::var_os("EXANET_FONT_DIR").map_or_else(|| PathBuf::from(DEFAULT_DIR), PathBuf::from)
}

/// A font database holding the two faces only, `sans-serif` mapped to them.
pub fn database() -> Result<Database, PlotError> {
    let d = dir();
    let mut db = Database::new();
    for f in FILES {
        let path = d.join(f);
        let bytes = std::fs::read(&path).map_err(|e| PlotError::NoFont {
            path: path.clone(),
            why: e.to_string(),
        })?;
        db.load_font_data(bytes);
    }
    db.set_sans_serif_family(FAMILY);
    Ok(db)
}
