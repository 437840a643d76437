//! Test-only topologies for the traffic tests (the real ones live in `net::topology`): a torus
//! or mesh of any shape, with several terminals a node if wanted, and a ring that reports no
//! shape (it stands for any topology that is not a torus or mesh, a dragonfly for instance).
//! Both number endpoints as the `Topology` documentation says: node = x + y X + z X Y,
//! endpoint = terminal + node T.

use crate::net::topology::{Addr, PortClass, Shape, Topology};

/// A torus (or mesh, `wrap` false) with `terminals` endpoints a node.
#[derive(Debug, Clone)]
pub(crate) struct TestTorus {
    shape: Shape,
    terminals: usize,
}

impl TestTorus {
    pub(crate) fn new(size: &[u8], terminals: usize) -> TestTorus {
        TestTorus {
            shape: Shape {
                size: size.to_vec(),
                wrap: true,
            },
            terminals,
        }
    }

    pub(crate) fn mesh(size: &[u8]) -> TestTorus {
        TestTorus {
            shape: Shape {
                size: size.to_vec(),
                wrap: false,
            },
            terminals: 1,
        }
    }

    fn coords(&self, node: usize) -> Addr {
        let mut a = [0u8; 3];
        let mut rest = node;
        for (d, &k) in self.shape.size.iter().enumerate() {
            a[d] = (rest % k as usize) as u8;
            rest /= k as usize;
        }
        a
    }
}

impl Topology for TestTorus {
    fn name(&self) -> String {
        let dims: Vec<String> = self.shape.size.iter().map(|k| k.to_string()).collect();
        let kind = if self.shape.wrap { "torus" } else { "mesh" };
        format!("test{kind}:{}", dims.join("x"))
    }
    fn nodes(&self) -> usize {
        self.shape.size.iter().map(|&k| k as usize).product()
    }
    fn terminals(&self) -> usize {
        self.terminals
    }
    fn ports(&self) -> usize {
        2 * self.shape.size.len()
    }
    fn port_class(&self, _node: usize, q: usize) -> PortClass {
        PortClass::Dim {
            dim: (q / 2) as u8,
            plus: q.is_multiple_of(2),
        }
    }
    fn link(&self, node: usize, q: usize) -> Option<(usize, usize)> {
        let d = q / 2;
        let k = *self.shape.size.get(d)? as usize;
        let mut a = self.coords(node);
        let x = a[d] as usize;
        let plus = q.is_multiple_of(2);
        let nx = match (plus, self.shape.wrap) {
            (true, _) if x + 1 < k => x + 1,
            (false, _) if x > 0 => x - 1,
            (true, true) => 0,
            (false, true) => k - 1,
            _ => return None,
        };
        a[d] = nx as u8;
        Some((self.node_at(a)?, q ^ 1))
    }
    fn addr(&self, node: usize) -> Addr {
        self.coords(node)
    }
    fn node_at(&self, a: Addr) -> Option<usize> {
        let mut node = 0;
        let mut stride = 1;
        for (d, &c) in a.iter().enumerate() {
            let k = self.shape.size.get(d).copied().unwrap_or(1);
            if c >= k {
                return None;
            }
            node += c as usize * stride;
            stride *= k as usize;
        }
        Some(node)
    }
    fn endpoint(&self, index: usize) -> (usize, usize) {
        (index / self.terminals, index % self.terminals)
    }
    fn endpoint_index(&self, node: usize, terminal: usize) -> usize {
        terminal + node * self.terminals
    }
    fn shape(&self) -> Option<&Shape> {
        Some(&self.shape)
    }
}

/// A ring of `n` nodes, one terminal each, that reports no shape.
#[derive(Debug, Clone)]
pub(crate) struct TestRing {
    n: usize,
}

impl TestRing {
    pub(crate) fn new(n: usize) -> TestRing {
        TestRing { n }
    }
}

impl Topology for TestRing {
    fn name(&self) -> String {
        format!("testring:{}", self.n)
    }
    fn nodes(&self) -> usize {
        self.n
    }
    fn terminals(&self) -> usize {
        1
    }
    fn ports(&self) -> usize {
        2
    }
    fn port_class(&self, _node: usize, q: usize) -> PortClass {
        PortClass::Dim {
            dim: 0,
            plus: q == 0,
        }
    }
    fn link(&self, node: usize, q: usize) -> Option<(usize, usize)> {
        match q {
            0 => Some(((node + 1) % self.n, 1)),
            1 => Some(((node + self.n - 1) % self.n, 0)),
            _ => None,
        }
    }
    fn addr(&self, node: usize) -> Addr {
        [node as u8, 0, 0]
    }
    fn node_at(&self, a: Addr) -> Option<usize> {
        (a[1] == 0 && a[2] == 0 && (a[0] as usize) < self.n).then_some(a[0] as usize)
    }
    fn endpoint(&self, index: usize) -> (usize, usize) {
        (index, 0)
    }
    fn endpoint_index(&self, node: usize, _terminal: usize) -> usize {
        node
    }
}

/// The destination of every endpoint under a permutation pattern (after `check`).
pub(crate) fn table(p: &dyn super::Pattern, t: &dyn Topology) -> Vec<usize> {
    p.check(t)
        .unwrap_or_else(|e| panic!("{} on {}: {e}", p.name(), t.name()));
    let mut rng = rand_mt::Mt64::new(0);
    (0..t.endpoints()).map(|s| p.dest(t, s, &mut rng)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_topologies_are_consistent() {
        let tops: Vec<Box<dyn Topology>> = vec![
            Box::new(TestTorus::new(&[4, 4], 1)),
            Box::new(TestTorus::new(&[5, 5], 2)),
            Box::new(TestTorus::new(&[3, 2, 4], 1)),
            Box::new(TestTorus::mesh(&[4, 3])),
            Box::new(TestRing::new(8)),
        ];
        for t in &tops {
            for n in 0..t.nodes() {
                assert_eq!(t.node_at(t.addr(n)), Some(n), "{}", t.name());
                for q in 0..t.ports() {
                    if let Some((m, r)) = t.link(n, q) {
                        assert_eq!(t.link(m, r), Some((n, q)), "{}", t.name());
                    }
                }
            }
            for i in 0..t.endpoints() {
                let (n, term) = t.endpoint(i);
                assert_eq!(t.endpoint_index(n, term), i);
            }
        }
    }
}
