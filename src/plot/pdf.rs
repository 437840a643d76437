//! PDF output (decision 0049): the figure's SVG laid out by `usvg` (`raster::tree`: text
//! shaped with the one font of `fonts.rs` and turned into glyph outlines) and written as one
//! page of vector paths. Written here rather than by `svg2pdf`, whose resource and font tables
//! are hash maps that reorder the file from run to run: this writer numbers its objects in
//! drawing order and keeps its opacities in a sorted map, and the file has no date, so the same
//! figure gives the same bytes.
//!
//! The page is the figure at 96 px an inch (0.75 pt a px). What the plots draw is supported:
//! paths (lines, quadratic and cubic curves) filled and stroked with solid colours, with the
//! fill rule, width, caps, joins, miter limit and dashes of the stroke, and opacity (a PDF
//! graphics state a distinct pair of fill and stroke opacities). Gradients and patterns are
//! drawn in their first stop's colour, or black; the plots use none, nor images, clip paths,
//! masks or filters, which are left out.

use super::PlotError;
use resvg::tiny_skia::{PathSegment, Point, Transform};
use resvg::usvg::{self, FillRule, LineCap, LineJoin, Node, Paint};
use std::collections::BTreeMap;
use std::fmt::Write;

/// PDF points a px of the figure.
pub const PT_PER_PX: f32 = 0.75;

/// The SVG `svg` as a one-page PDF titled `title`.
pub fn pdf(svg: &str, title: &str) -> Result<Vec<u8>, PlotError> {
    let tree = super::raster::tree(svg)?;
    let (w, h) = (tree.size().width(), tree.size().height());
    let mut page = Page::default();
    // SVG px, y down, to PDF points, y up
    writeln!(
        page.ops,
        "{} 0 0 {} 0 {} cm",
        num(PT_PER_PX),
        num(-PT_PER_PX),
        num(h * PT_PER_PX)
    )
    .ok();
    page.group(tree.root(), Transform::identity(), 1.0);
    Ok(page.file(w * PT_PER_PX, h * PT_PER_PX, title))
}

/// A number as PDF writes it: at most four decimals, no exponent, no trailing zeros.
fn num(x: f32) -> String {
    let s = format!("{:.4}", if x.abs() < 5e-5 { 0.0 } else { x });
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// A cubic Bézier curve to `q` through control points `c1` and `c2`, as PDF writes it.
fn cubic(o: &mut String, c1: Point, c2: Point, q: Point) {
    let xy = |p: Point| format!("{} {}", num(p.x), num(p.y));
    writeln!(o, "{} {} {} c", xy(c1), xy(c2), xy(q)).ok();
}

/// The page's content and the graphics states it names.
#[derive(Default)]
struct Page {
    ops: String,
    /// (fill, stroke) opacity in thousandths -> the state's index.
    states: BTreeMap<(u32, u32), usize>,
}

/// A paint's colour as PDF operands (0..1).
fn rgb(p: &Paint) -> String {
    let c = match p {
        Paint::Color(c) => *c,
        Paint::LinearGradient(g) => g
            .stops()
            .first()
            .map_or(usvg::Color::black(), |s| s.color()),
        Paint::RadialGradient(g) => g
            .stops()
            .first()
            .map_or(usvg::Color::black(), |s| s.color()),
        Paint::Pattern(_) => usvg::Color::black(),
    };
    let f = |v: u8| num(v as f32 / 255.0);
    format!("{} {} {}", f(c.red), f(c.green), f(c.blue))
}

impl Page {
    fn group(&mut self, g: &usvg::Group, t: Transform, opacity: f32) {
        let t = t.pre_concat(g.transform());
        let opacity = opacity * g.opacity().get();
        for n in g.children() {
            match n {
                Node::Group(c) => self.group(c, t, opacity),
                Node::Path(p) => self.path(p, t, opacity),
                Node::Text(x) => self.group(x.flattened(), t, opacity),
                Node::Image(_) => {}
            }
        }
    }

    /// The path's outline as PDF path operators (quadratic curves raised to cubic).
    fn outline(&mut self, p: &usvg::Path) {
        let mut at = Point::zero();
        let mut start = Point::zero();
        let o = &mut self.ops;
        for s in p.data().segments() {
            match s {
                PathSegment::MoveTo(q) => {
                    writeln!(o, "{} {} m", num(q.x), num(q.y)).ok();
                    (at, start) = (q, q);
                }
                PathSegment::LineTo(q) => {
                    writeln!(o, "{} {} l", num(q.x), num(q.y)).ok();
                    at = q;
                }
                PathSegment::QuadTo(c, q) => {
                    let c1 = Point::from_xy(
                        at.x + 2.0 / 3.0 * (c.x - at.x),
                        at.y + 2.0 / 3.0 * (c.y - at.y),
                    );
                    let c2 = Point::from_xy(
                        q.x + 2.0 / 3.0 * (c.x - q.x),
                        q.y + 2.0 / 3.0 * (c.y - q.y),
                    );
                    cubic(o, c1, c2, q);
                    at = q;
                }
                PathSegment::CubicTo(c1, c2, q) => {
                    cubic(o, c1, c2, q);
                    at = q;
                }
                PathSegment::Close => {
                    o.push_str("h\n");
                    at = start;
                }
            }
        }
    }

    /// The graphics state of these opacities, set (none for opaque).
    fn opacity(&mut self, fill: f32, stroke: f32) {
        let k = |a: f32| (a.clamp(0.0, 1.0) * 1000.0).round() as u32;
        let key = (k(fill), k(stroke));
        if key == (1000, 1000) {
            return;
        }
        let n = self.states.len();
        let i = *self.states.entry(key).or_insert(n);
        writeln!(self.ops, "/G{i} gs").ok();
    }

    fn path(&mut self, p: &usvg::Path, t: Transform, opacity: f32) {
        if !p.is_visible() || (p.fill().is_none() && p.stroke().is_none()) {
            return;
        }
        self.ops.push_str("q\n");
        writeln!(
            self.ops,
            "{} {} {} {} {} {} cm",
            num(t.sx),
            num(t.ky),
            num(t.kx),
            num(t.sy),
            num(t.tx),
            num(t.ty)
        )
        .ok();
        let fill_alpha = p.fill().map_or(1.0, |f| f.opacity().get()) * opacity;
        let stroke_alpha = p.stroke().map_or(1.0, |s| s.opacity().get()) * opacity;
        self.opacity(fill_alpha, stroke_alpha);
        let stroke_first = matches!(p.paint_order(), usvg::PaintOrder::StrokeAndFill);
        for pass in 0..2 {
            if (pass == 0) != stroke_first {
                if let Some(f) = p.fill() {
                    writeln!(self.ops, "{} rg", rgb(f.paint())).ok();
                    self.outline(p);
                    self.ops.push_str(match f.rule() {
                        FillRule::NonZero => "f\n",
                        FillRule::EvenOdd => "f*\n",
                    });
                }
            } else if let Some(s) = p.stroke() {
                let cap = match s.linecap() {
                    LineCap::Butt => 0,
                    LineCap::Round => 1,
                    LineCap::Square => 2,
                };
                let join = match s.linejoin() {
                    LineJoin::Miter | LineJoin::MiterClip => 0,
                    LineJoin::Round => 1,
                    LineJoin::Bevel => 2,
                };
                let dash = s.dasharray().map_or(String::new(), |d| {
                    d.iter().map(|&x| num(x)).collect::<Vec<_>>().join(" ")
                });
                writeln!(
                    self.ops,
                    "{} RG {} w {cap} J {join} j {} M [{dash}] {} d",
                    rgb(s.paint()),
                    num(s.width().get()),
                    num(s.miterlimit().get()),
                    num(s.dashoffset())
                )
                .ok();
                self.outline(p);
                self.ops.push_str("S\n");
            }
        }
        self.ops.push_str("Q\n");
    }

    /// The whole file: catalogue, page tree, page, its content (compressed), its graphics
    /// states and the document information (title and producer only).
    fn file(self, w: f32, h: f32, title: &str) -> Vec<u8> {
        let content = miniz_oxide::deflate::compress_to_vec_zlib(self.ops.as_bytes(), 6);
        let mut states: Vec<((u32, u32), usize)> = self.states.into_iter().collect();
        states.sort_by_key(|&(_, i)| i);
        let first_state = 6;
        let mut objs: Vec<Vec<u8>> = Vec::new();
        objs.push(b"<< /Type /Catalog /Pages 2 0 R >>".to_vec());
        objs.push(b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec());
        let gs: String = states
            .iter()
            .map(|&(_, i)| format!(" /G{i} {} 0 R", first_state + i))
            .collect();
        objs.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] /Resources << /ExtGState <<{gs} >> >> /Contents 4 0 R >>",
                num(w),
                num(h)
            )
            .into_bytes(),
        );
        let mut c = format!(
            "<< /Length {} /Filter /FlateDecode >>\nstream\n",
            content.len()
        )
        .into_bytes();
        c.extend_from_slice(&content);
        c.extend_from_slice(b"\nendstream");
        objs.push(c);
        // the title as UTF-16BE, so that any character survives
        let hex: String = std::iter::once(0xfeffu16)
            .chain(title.encode_utf16())
            .map(|u| format!("{u:04X}"))
            .collect();
        objs.push(format!("<< /Title <{hex}> /Producer (exanet) >>").into_bytes());
        for &((f, s), _) in &states {
            objs.push(
                format!(
                    "<< /Type /ExtGState /ca {} /CA {} >>",
                    num(f as f32 / 1000.0),
                    num(s as f32 / 1000.0)
                )
                .into_bytes(),
            );
        }
        let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
        let mut offsets = Vec::new();
        for (k, o) in objs.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n", k + 1).as_bytes());
            out.extend_from_slice(o);
            out.extend_from_slice(b"\nendobj\n");
        }
        let xref = out.len();
        let mut x = format!("xref\n0 {}\n0000000000 65535 f \n", objs.len() + 1);
        for o in offsets {
            x.push_str(&format!("{o:010} 00000 n \n"));
        }
        x.push_str(&format!(
            "trailer\n<< /Size {} /Root 1 0 R /Info 5 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objs.len() + 1
        ));
        out.extend_from_slice(x.as_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::num;

    #[test]
    fn numbers_are_written_as_pdf_reads_them() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(0.75), "0.75");
        assert_eq!(num(-0.00001), "0");
        assert_eq!(num(123.456_78), "123.4568");
        assert_eq!(num(-2.5), "-2.5");
    }
}
