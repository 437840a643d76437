//! The ExaNeSt Track-1 network configurations (Biagioni 2017 §2.4.1; SPEC.md "Network level"), as
//! named presets built from [`Torus`] and [`Dragonfly`]. A node is a QFDB's network FPGA (one
//! APErouter); a mezzanine (blade) holds 4 QFDBs, a chassis 9 mezzanines (Biagioni 2017 §2.3.4,
//! l. 493-495: 36 QFDBs a chassis).
//!
//! - `exanest:torus6x6` = `torus:6x6`, the 36 QFDBs of a chassis. Seed 002 l. 589 (Fig. 2.8):
//!   "A 6×6 Torus topology is the resulting configuration, where the longest path consists of 6
//!   hops".
//! - `exanest:torus3x3` = `torus:3x3`, one of four. Seed 002 l. 599 (Fig. 2.10-2.11): each QFDB
//!   linked "with their counterparts on neighbouring Mezzanines, shaping four 3×3 2D torus
//!   networks".
//! - `exanest:torus3x3xC` = `torus:3x3xC`, C chassis (1..255). Seed 002 l. 599: "Each set of
//!   QFDBs is a 3D torus interconnect 3 × 3 × C where C is the number of chassis".
//! - `exanest:dragonfly` = `dragonfly:p=4,a=4,h=1,g=5`. Seed 002 l. 607-617 (Fig. 2.12-2.14): the
//!   4 FPGAs of a QFDB are the terminals (p), the 4 network FPGAs of a mezzanine the routers of a
//!   group (a), 1 global channel a router (h), "k = p + a + h - 1 = 8".
//!
//! SPEC.md "Network level" lists the same four: "6x6 torus of QFDBs, four 3x3 tori, 3x3xC 3D
//! torus, dragonfly of mezzanine supernodes (p = 4, a = 4, h = 1, router radix 8)".
//!
//! Simplifications, stated here because the presets cannot show them:
//! - The 6x6 torus doubles its inter-mezzanine channels ("2 HSS links per direction for remote
//!   channels", l. 589) to match the two HSS links of each on-mezzanine edge (l. 567); here every
//!   edge is one link, the bandwidth of a lane pair being a property of the link model.
//! - `torus3x3` is one of the four tori alone: what joins them (the on-mezzanine square, which
//!   Biagioni 2017 counts in its "3 hops for the longest path" where a 3x3 torus alone has 2) is not
//!   part of it.
//! - The dragonfly's group count: with a = 4 routers and h = 1 a mezzanine has a h = 4 global
//!   channels, so the fully connected arrangement links g = a h + 1 = 5 mezzanines, one link a
//!   pair. Seed 002 l. 617 also describes linking each blade to "its eight peers" in a 9-blade
//!   chassis, which takes 8 global channels a mezzanine (h = 2, the "two of them to connect to
//!   remote supernodes"), contradicting its own radix 8; the preset follows the stated
//!   parameters (p = 4, a = 4, h = 1, radix 8). `dragonfly:p=4,a=4,h=2` is the 9-blade variant.

use super::dragonfly::Dragonfly;
use super::torus::Torus;
use super::{Addr, DragonflyParams, PortClass, Shape, Topology};

pub use crate::spec::topology::{Preset, FORMS};

#[derive(Debug, Clone)]
enum Inner {
    Torus(Torus),
    Dragonfly(Dragonfly),
}

/// An ExaNeSt preset: the torus or dragonfly it is, under its own name.
#[derive(Debug, Clone)]
pub struct Exanest {
    preset: Preset,
    inner: Inner,
}

impl Exanest {
    /// The topology of `preset`; an error for a 3x3xC torus with C = 0.
    pub fn new(preset: Preset) -> Result<Self, String> {
        let inner = match preset {
            Preset::Torus6x6 => Inner::Torus(Torus::torus_of(&[6, 6])?),
            Preset::Torus3x3 => Inner::Torus(Torus::torus_of(&[3, 3])?),
            Preset::Torus3x3xC(0) => {
                return Err("torus3x3x0: C is the number of chassis, 1 to 255".into())
            }
            Preset::Torus3x3xC(c) => Inner::Torus(Torus::torus_of(&[3, 3, c])?),
            Preset::Dragonfly => Inner::Dragonfly(Dragonfly::new(DragonflyParams {
                p: 4,
                a: 4,
                h: 1,
                g: 5,
            })?),
        };
        Ok(Exanest { preset, inner })
    }

    pub fn preset(&self) -> Preset {
        self.preset
    }

    /// The plain topology it is built as (`torus:6x6`...).
    pub fn inner(&self) -> &dyn Topology {
        match &self.inner {
            Inner::Torus(t) => t,
            Inner::Dragonfly(d) => d,
        }
    }
}

impl Topology for Exanest {
    /// `exanest:torus6x6`, `exanest:torus3x3x4`...
    fn name(&self) -> String {
        format!("exanest:{}", self.preset.form())
    }
    fn nodes(&self) -> usize {
        self.inner().nodes()
    }
    fn terminals(&self) -> usize {
        self.inner().terminals()
    }
    fn ports(&self) -> usize {
        self.inner().ports()
    }
    fn port_class(&self, node: usize, q: usize) -> PortClass {
        self.inner().port_class(node, q)
    }
    fn link(&self, node: usize, q: usize) -> Option<(usize, usize)> {
        self.inner().link(node, q)
    }
    fn addr(&self, node: usize) -> Addr {
        self.inner().addr(node)
    }
    fn node_at(&self, a: Addr) -> Option<usize> {
        self.inner().node_at(a)
    }
    fn endpoint(&self, index: usize) -> (usize, usize) {
        self.inner().endpoint(index)
    }
    fn endpoint_index(&self, node: usize, terminal: usize) -> usize {
        self.inner().endpoint_index(node, terminal)
    }
    fn shape(&self) -> Option<&Shape> {
        match &self.inner {
            Inner::Torus(t) => t.shape(),
            Inner::Dragonfly(_) => None,
        }
    }
    fn dragonfly(&self) -> Option<DragonflyParams> {
        self.inner().dragonfly()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::check::verify;

    #[test]
    fn presets() {
        let cases = [
            (Preset::Torus6x6, "exanest:torus6x6", "torus:6x6", 36, 36, 4),
            (Preset::Torus3x3, "exanest:torus3x3", "torus:3x3", 9, 9, 4),
            (
                Preset::Torus3x3xC(4),
                "exanest:torus3x3x4",
                "torus:3x3x4",
                36,
                36,
                6,
            ),
            (
                Preset::Torus3x3xC(1),
                "exanest:torus3x3x1",
                "torus:3x3x1",
                9,
                9,
                6,
            ),
            (
                Preset::Dragonfly,
                "exanest:dragonfly",
                "dragonfly:p=4,a=4,h=1,g=5",
                20,
                80,
                4,
            ),
        ];
        for (preset, name, inner, nodes, endpoints, ports) in cases {
            let t = Exanest::new(preset).unwrap();
            assert_eq!(t.name(), name);
            assert_eq!(t.inner().name(), inner);
            assert_eq!(
                (t.nodes(), t.endpoints(), t.ports()),
                (nodes, endpoints, ports),
                "{name}"
            );
            verify(&t).unwrap();
            for n in 0..t.nodes() {
                for q in 0..t.ports() {
                    assert_eq!(t.link(n, q), t.inner().link(n, q));
                }
            }
        }
    }

    #[test]
    fn mezzanine_router_radix_8() {
        let t = Exanest::new(Preset::Dragonfly).unwrap();
        assert_eq!(
            t.terminals() + t.ports(),
            8,
            "k = p + a + h - 1 = 8 (Biagioni 2017 l. 615)"
        );
        assert_eq!(
            t.dragonfly().map(|d| d.a * (d.p + d.h)),
            Some(20),
            "virtual radix K = 20"
        );
        assert_eq!(t.shape(), None);
    }

    #[test]
    fn zero_chassis_is_an_error() {
        assert!(Exanest::new(Preset::Torus3x3xC(0))
            .unwrap_err()
            .contains("1 to 255"));
    }
}
