//! The queues of MPI matching (posted receives, unexpected messages): entries in the order they
//! came, found by source without looking at other sources' entries. An alltoall posts a receive
//! from every rank; a linear queue would make each arrival scan them all (n^2 a rank).

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Entries in order, each with a source (`None`: any source, for a posted receive).
#[derive(Debug)]
pub struct SrcQueue<T> {
    all: BTreeMap<u64, (Option<u32>, T)>,
    by_src: HashMap<u32, BTreeSet<u64>>,
    any: BTreeSet<u64>,
    next: u64,
}

impl<T> Default for SrcQueue<T> {
    fn default() -> Self {
        SrcQueue {
            all: BTreeMap::new(),
            by_src: HashMap::new(),
            any: BTreeSet::new(),
            next: 0,
        }
    }
}

impl<T> SrcQueue<T> {
    pub fn push(&mut self, src: Option<u32>, t: T) {
        let k = self.next;
        self.next += 1;
        match src {
            Some(s) => {
                self.by_src.entry(s).or_default().insert(k);
            }
            None => {
                self.any.insert(k);
            }
        }
        self.all.insert(k, (src, t));
    }

    pub fn len(&self) -> usize {
        self.all.len()
    }

    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.all.values().map(|(_, t)| t)
    }

    /// The first entry for an item from `src` (an entry of that source or of any) that `ok`
    /// accepts.
    pub fn first_for(&self, src: u32, ok: impl Fn(&T) -> bool) -> Option<u64> {
        let of = |ks: Option<&BTreeSet<u64>>| {
            ks.into_iter()
                .flatten()
                .copied()
                .find(|k| ok(&self.all[k].1))
        };
        let a = of(self.by_src.get(&src));
        let b = of(Some(&self.any));
        match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The first entry whose source `src` allows (None: any) that `ok` accepts.
    pub fn first_from(&self, src: Option<u32>, ok: impl Fn(&T) -> bool) -> Option<u64> {
        match src {
            Some(s) => self
                .by_src
                .get(&s)
                .into_iter()
                .flatten()
                .copied()
                .find(|k| ok(&self.all[k].1)),
            None => self.all.iter().find(|(_, (_, t))| ok(t)).map(|(k, _)| *k),
        }
    }

    pub fn remove(&mut self, k: u64) -> Option<T> {
        let (src, t) = self.all.remove(&k)?;
        match src {
            Some(s) => {
                if let Some(ks) = self.by_src.get_mut(&s) {
                    ks.remove(&k);
                    if ks.is_empty() {
                        self.by_src.remove(&s);
                    }
                }
            }
            None => {
                self.any.remove(&k);
            }
        }
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_in_order_wins_across_a_source_and_any() {
        let mut q = SrcQueue::default();
        q.push(Some(3), "a");
        q.push(None, "b");
        q.push(Some(3), "c");
        q.push(Some(4), "d");
        assert_eq!(q.first_for(3, |_| true), Some(0));
        assert_eq!(
            q.first_for(4, |_| true),
            Some(1),
            "the wildcard came before d"
        );
        assert_eq!(q.first_for(3, |t| *t == "c"), Some(2));
        assert_eq!(q.remove(1), Some("b"));
        assert_eq!(q.first_for(4, |_| true), Some(3));
        assert_eq!(q.first_from(None, |t| *t != "a"), Some(2));
        assert_eq!(q.first_from(Some(3), |t| *t != "a"), Some(2));
        assert_eq!(q.first_from(Some(5), |_| true), None);
        assert_eq!(q.len(), 3);
        assert_eq!(q.iter().copied().collect::<Vec<_>>(), ["a", "c", "d"]);
    }
}
