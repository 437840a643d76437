//! Fully connected dragonfly (Pisani 2016 §2.2.2, §3.4.4), as a direct network: every node is a
//! router with `p` terminals (intra-tile ports), `a - 1` local channels to the other routers of
//! its group and `h` global channels to other groups; radix `k = p + a - 1 + h`. `g` groups,
//! all pairs of groups linked by `a h / (g - 1)` global links (one with the default
//! `g = a h + 1`).
//!
//! ```text
//!   router r of group G                       inter-tile ports
//!   +------------------+
//!   | terminals 0..p   |  local  j = 0..a-1:  router j if j < r, else j + 1    (Listing 3.3)
//!   |                  |  global a-1+k, k = 0..h: group channel t = r h + k    (Listing 3.4)
//!   +------------------+
//! ```
//!
//! Global wiring (docs/decisions/0010-dragonfly-wiring.md): group `G`'s channel `t` has copy
//! `c = t / (g-1)` and rank `t' = t mod (g-1)`, and leads to group `F = t'` if `t' < G`, else
//! `t' + 1`. It arrives on the channel of `F` with the same copy whose rank leads back to `G`:
//! rank `G` if `G < F`, else `G - 1`, i.e. channel `t_F = c (g-1) + that rank`, router
//! `t_F / h`, global port `a - 1 + t_F mod h`. For `g = a h + 1` this is Pisani 2016 Listing 3.4
//! exactly (`group[k].gate[j-1] <--> group[j].gate[k]` for `j > k`) with the group gates handed
//! out router by router as Listing 3.3's `gate++` does.
//!
//! Addresses: router `n` of group `G` is node `n + G a` with header address `[n, G, 0]`.
//! Endpoint index = `p + n P + G P A` (eq. 3.6-3.9), which is `terminal + node P`.

use super::{Addr, DragonflyParams, PortClass, Topology};

pub use crate::spec::topology::{MAX_A, MAX_G, MAX_P, MAX_PORTS};

/// A fully connected dragonfly.
#[derive(Debug, Clone)]
pub struct Dragonfly {
    df: DragonflyParams,
}

impl Dragonfly {
    /// A dragonfly of `df`: `1 <= p <= 8`, `1 <= a <= 255`, `h >= 1`, `2 <= g <= 255`,
    /// `g - 1` dividing `a h`, at most 256 inter-tile ports (`a - 1 + h`).
    pub fn new(df: DragonflyParams) -> Result<Self, String> {
        df.check()?;
        Ok(Dragonfly { df })
    }

    /// The usual fully connected dragonfly: `g = a h + 1`, one global link per pair of groups.
    pub fn with_default_g(p: u32, a: u32, h: u32) -> Result<Self, String> {
        let g = a
            .checked_mul(h)
            .and_then(|c| c.checked_add(1))
            .unwrap_or(u32::MAX);
        Self::new(DragonflyParams { p, a, h, g })
    }

    /// The router radix `k = p + a - 1 + h`.
    pub fn radix(&self) -> usize {
        (self.df.p + self.df.a - 1 + self.df.h) as usize
    }

    /// Global links between each pair of groups: `a h / (g - 1)`.
    pub fn links_per_group_pair(&self) -> usize {
        (self.df.a * self.df.h / (self.df.g - 1)) as usize
    }

    fn local_ports(&self) -> usize {
        self.df.a as usize - 1
    }

    /// (router within group, group) of `node`; panics when out of range.
    fn split(&self, node: usize) -> (usize, usize) {
        assert!(
            node < self.nodes(),
            "{}: node {node} of {}",
            self.name(),
            self.nodes()
        );
        let a = self.df.a as usize;
        (node % a, node / a)
    }

    /// Global channel `t` of group `group` (router `t / h`, its global port `t mod h`): the far
    /// group and the far group's channel that leads back.
    fn global(&self, group: usize, t: usize) -> (usize, usize) {
        let span = self.df.g as usize - 1;
        let (copy, rank) = (t / span, t % span);
        let far = if rank < group { rank } else { rank + 1 };
        let back = if group < far { group } else { group - 1 };
        (far, copy * span + back)
    }
}

impl Topology for Dragonfly {
    /// `dragonfly:p=2,a=4,h=2,g=9`.
    fn name(&self) -> String {
        let DragonflyParams { p, a, h, g } = self.df;
        format!("dragonfly:p={p},a={a},h={h},g={g}")
    }

    fn nodes(&self) -> usize {
        (self.df.a * self.df.g) as usize
    }

    fn terminals(&self) -> usize {
        self.df.p as usize
    }

    fn ports(&self) -> usize {
        self.local_ports() + self.df.h as usize
    }

    /// Panics when `node` or `q` is out of range (a bug in the caller, like an index).
    fn port_class(&self, node: usize, q: usize) -> PortClass {
        let (r, group) = self.split(node);
        assert!(
            q < self.ports(),
            "{}: port {q} of {}",
            self.name(),
            self.ports()
        );
        if q < self.local_ports() {
            let s = if q < r { q } else { q + 1 };
            PortClass::Local { router: s as u16 }
        } else {
            let t = r * self.df.h as usize + (q - self.local_ports());
            PortClass::Global {
                group: self.global(group, t).0 as u16,
            }
        }
    }

    /// Every port is wired; None only for a node or port out of range.
    fn link(&self, node: usize, q: usize) -> Option<(usize, usize)> {
        if node >= self.nodes() || q >= self.ports() {
            return None;
        }
        let (r, group) = self.split(node);
        let a = self.df.a as usize;
        if q < self.local_ports() {
            let s = if q < r { q } else { q + 1 };
            // Router s's local port to router r.
            let back = if r < s { r } else { r - 1 };
            Some((s + group * a, back))
        } else {
            let h = self.df.h as usize;
            let t = r * h + (q - self.local_ports());
            let (far, tf) = self.global(group, t);
            Some((tf / h + far * a, self.local_ports() + tf % h))
        }
    }

    /// `[router within group, group, 0]`.
    fn addr(&self, node: usize) -> Addr {
        let (r, group) = self.split(node);
        [r as u8, group as u8, 0]
    }

    fn node_at(&self, a: Addr) -> Option<usize> {
        let (r, group) = (a[0] as usize, a[1] as usize);
        (a[2] == 0 && r < self.df.a as usize && group < self.df.g as usize)
            .then_some(r + group * self.df.a as usize)
    }

    /// Eq. 3.6-3.8: group = index / (A P), router = (index % (A P)) / P, terminal = index % P.
    fn endpoint(&self, index: usize) -> (usize, usize) {
        let p = self.df.p as usize;
        assert!(
            index < self.endpoints(),
            "{}: endpoint {index} of {}",
            self.name(),
            self.endpoints()
        );
        (index / p, index % p)
    }

    /// Eq. 3.9: terminal + router P + group P A = terminal + node P.
    fn endpoint_index(&self, node: usize, terminal: usize) -> usize {
        self.split(node);
        assert!(
            terminal < self.terminals(),
            "{}: terminal {terminal}",
            self.name()
        );
        terminal + node * self.df.p as usize
    }

    fn dragonfly(&self) -> Option<DragonflyParams> {
        Some(self.df)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::topology::check::verify;

    fn df(p: u32, a: u32, h: u32, g: u32) -> Result<Dragonfly, String> {
        Dragonfly::new(DragonflyParams { p, a, h, g })
    }

    #[test]
    fn every_divisor_verifies() {
        for (a, h) in [
            (1u32, 1u32),
            (1, 4),
            (2, 1),
            (2, 2),
            (4, 1),
            (4, 2),
            (3, 3),
            (6, 2),
        ] {
            for g in 2..=a * h + 1 {
                if (a * h).is_multiple_of(g - 1) {
                    let t = df(2, a, h, g).unwrap();
                    verify(&t).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(t.links_per_group_pair() as u32, a * h / (g - 1));
                }
            }
        }
    }

    #[test]
    fn thesis_72_and_1056() {
        let t = Dragonfly::with_default_g(2, 4, 2).unwrap();
        assert_eq!(t.name(), "dragonfly:p=2,a=4,h=2,g=9");
        assert_eq!(
            (t.nodes(), t.endpoints(), t.ports(), t.terminals()),
            (36, 72, 5, 2)
        );
        assert_eq!(t.radix(), 7);
        verify(&t).unwrap();
        let t = Dragonfly::with_default_g(4, 8, 4).unwrap();
        assert_eq!(
            (t.df.g, t.nodes(), t.endpoints(), t.ports(), t.terminals()),
            (33, 264, 1056, 11, 4)
        );
        verify(&t).unwrap();
    }

    #[test]
    fn listing_3_4_for_default_g() {
        // group[k].gate[j-1] <--> group[j].gate[k] for j > k, group gate t = r h + k'.
        let t = Dragonfly::with_default_g(2, 4, 2).unwrap();
        let (a, h, g) = (4usize, 2usize, 9usize);
        for k in 0..g {
            for j in k + 1..g {
                let (tn, tf) = (j - 1, k);
                let near = (tn / h + k * a, a - 1 + tn % h);
                let far = (tf / h + j * a, a - 1 + tf % h);
                assert_eq!(t.link(near.0, near.1), Some(far), "groups {k} -> {j}");
            }
        }
    }

    #[test]
    fn local_ports_as_listing_3_3() {
        let t = Dragonfly::with_default_g(1, 4, 1).unwrap();
        // Group 2, router 1: ports 0, 1, 2 lead to routers 0, 2, 3.
        let n = 1 + 2 * 4;
        let far: Vec<_> = (0..3).map(|q| t.link(n, q).unwrap()).collect();
        assert_eq!(far, vec![(8, 0), (10, 1), (11, 1)]);
        assert_eq!(t.port_class(n, 1), PortClass::Local { router: 2 });
    }

    #[test]
    fn parallel_links_spread_over_routers() {
        // a h = 8 channels, g = 5: two links per pair, from routers t' / h and (t' + 4) / h.
        let t = df(1, 4, 2, 5).unwrap();
        let to_group1: Vec<usize> = (0..4)
            .flat_map(|r| (3..5).map(move |q| (r, q)))
            .filter(|&(r, q)| t.port_class(r, q) == PortClass::Global { group: 1 })
            .map(|(r, _)| r)
            .collect();
        assert_eq!(to_group1, vec![0, 2]);
    }

    #[test]
    fn endpoints_eq_3_6_to_3_9() {
        let t = Dragonfly::with_default_g(2, 4, 2).unwrap();
        // index 27 = p 1 + n 1 P + g 3 P A = 1 + 2 + 24.
        let (node, term) = t.endpoint(27);
        assert_eq!((t.addr(node), term), ([1, 3, 0], 1));
        assert_eq!(t.endpoint_index(node, term), 27);
        assert_eq!(t.node_at([4, 0, 0]), None);
        assert_eq!(t.node_at([0, 9, 0]), None);
        assert_eq!(t.node_at([3, 8, 0]), Some(35));
        assert_eq!(t.node_at([3, 8, 1]), None);
    }

    #[test]
    fn bad_parameters_are_errors() {
        let e = df(9, 2, 1, 3).unwrap_err();
        assert!(e.contains("p = 9") && e.contains("1 to 8"), "{e}");
        assert!(df(0, 2, 1, 3).unwrap_err().contains("p = 0"));
        assert!(df(1, 0, 1, 2).unwrap_err().contains("a = 0"));
        assert!(df(1, 256, 1, 2).unwrap_err().contains("a = 256"));
        assert!(df(1, 2, 0, 2).unwrap_err().contains("h = 0"));
        assert!(df(1, 2, 1, 1).unwrap_err().contains("g = 1"));
        assert!(df(1, 255, 3, 2)
            .unwrap_err()
            .contains("257 inter-tile ports"));
        assert!(df(1, 255, 2, 3).is_ok(), "256 inter-tile ports");
        let e = df(2, 4, 2, 4).unwrap_err();
        assert!(
            e.contains("g - 1 = 3 must divide a h = 8") && e.contains("2, 3, 5, 9"),
            "{e}"
        );
        let e = Dragonfly::with_default_g(1, 255, 2).unwrap_err();
        assert!(e.contains("g = 511"), "{e}");
    }
}
