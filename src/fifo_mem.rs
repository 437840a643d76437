//! The storage behind a [`crate::fifo::Fifo`]'s memory `mem_q`: model machinery, no RTL twin
//! of its own (the RTL's memory is a plain array of `DEPTH` words).
//!
//! Two representations of the same memory, which every word read agrees on (a test in
//! `fifo.rs`):
//! - **pages** (the default): the array, allocated in pages of [`PAGE`] words on the first
//!   write into a page (a never-written word reads 0, the memory's reset value), so a model
//!   holds only the pages its traffic touched; read-out words stay, as in the RTL's memory.
//! - **live words** (network-scale runs, `Fifo::keep_live_words_only`): a ring of only the
//!   words written and not yet popped, which grows to the FIFO's peak occupancy (at most its
//!   depth) and shrinks when the FIFO empties, so a node's few busy words stay together in
//!   cache. The head of an empty ring reads 0, a value no reader uses.

use std::collections::VecDeque;

/// Words per memory page.
pub const PAGE: usize = 64;

/// Words a live ring keeps when its FIFO empties.
pub const LIVE_KEEP: usize = 16;

#[derive(Debug, Clone)]
pub enum FifoMem {
    Pages(Vec<Option<Box<[u128; PAGE]>>>),
    Live(VecDeque<u128>),
}

impl FifoMem {
    /// A paged memory of `depth` words, none allocated.
    pub fn paged(depth: u32) -> FifoMem {
        FifoMem::Pages(vec![None; (depth as usize).div_ceil(PAGE)])
    }

    /// A live-word ring, empty.
    pub fn live() -> FifoMem {
        FifoMem::Live(VecDeque::new())
    }

    /// The word at address `a` (paged), or the `k`-th live word (`k` words behind the head).
    #[inline]
    pub fn word(&self, a: u32, k: u32) -> u128 {
        match self {
            FifoMem::Pages(m) => {
                let a = a as usize;
                m[a / PAGE].as_ref().map_or(0, |pg| pg[a % PAGE])
            }
            FifoMem::Live(q) => q.get(k as usize).copied().unwrap_or(0),
        }
    }

    /// One cycle's memory operations: a pop of the head (`popped`), then a write of `d` at
    /// address `a`. Returns whether the head word may have changed, given the read address
    /// after the cycle, `rd_a`.
    #[inline(always)]
    pub fn apply(&mut self, popped: bool, write: Option<(u32, u128)>, rd_a: u32) -> bool {
        match self {
            FifoMem::Pages(m) => {
                if let Some((a, d)) = write {
                    let a = a as usize;
                    m[a / PAGE].get_or_insert_with(|| Box::new([0; PAGE]))[a % PAGE] = d;
                }
                popped || write.is_some_and(|(a, _)| a == rd_a)
            }
            FifoMem::Live(q) => {
                let was_empty = q.is_empty();
                if popped {
                    q.pop_front();
                }
                if let Some((_, d)) = write {
                    q.push_back(d);
                }
                if q.is_empty() && q.capacity() > 4 * LIVE_KEEP {
                    q.shrink_to(LIVE_KEEP);
                }
                popped || was_empty
            }
        }
    }

    /// Words of memory held now (pages, or the live ring's capacity).
    pub fn words_held(&self) -> usize {
        match self {
            FifoMem::Pages(m) => m.iter().filter(|p| p.is_some()).count() * PAGE,
            FifoMem::Live(q) => q.capacity(),
        }
    }
}
