//! Cortical columns placed on DPSNN processes: the grid of columns cut into equal rectangular
//! blocks, one block a process (Pisani 2016 §1.3.3: "the columns are then mapped onto the
//! processes optimizing calculation and communication time"; §4.5 Table 4.2: 16x18 columns at
//! 4 a process, 32x18 and 16x36 at 8 a process, all on 72 processes).
//!
//! The block is `bx x by` columns with `bx * by = per_process`, `bx` dividing the grid's width
//! and `by` its height; among those, the one with the shortest perimeter (the fewest lateral
//! synapses leaving the process, which is what "optimizing communication" asks of a block),
//! then the one making the grid of processes most nearly square, then the wider one. For the
//! three rows of Table 4.2 that is 2x2, 4x2 and 2x4 columns, each an 8x9 grid of 72 processes.
//! A block exists whenever `per_process` divides the number of columns (each prime factor of
//! `per_process` can be taken from the width or the height), so that is the only condition.
//!
//! Columns are numbered x fastest, `y * width + x`, and processes the same way over the
//! process grid, `(y / by) * (width / bx) + x / bx`, so neighbouring blocks are neighbouring
//! ranks and a linear rank mapping onto a torus numbered x fastest keeps them neighbours.

/// The placement of a grid of columns on processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The grid of columns, width (x) by height (y).
    pub columns: (usize, usize),
    /// The columns of one process, width by height.
    pub block: (usize, usize),
    /// The grid of processes, width by height.
    pub grid: (usize, usize),
}

impl Layout {
    /// Blocks of `per_process` columns on a `columns.0 x columns.1` grid.
    pub fn new(columns: (usize, usize), per_process: usize) -> Result<Layout, String> {
        let (cx, cy) = columns;
        if cx == 0 || cy == 0 {
            return Err(format!(
                "columns {cx}x{cy}: the grid needs at least 1x1 column"
            ));
        }
        if per_process == 0 {
            return Err("per_process 0: a process hosts at least one column".to_string());
        }
        let total = cx
            .checked_mul(cy)
            .ok_or(format!("columns {cx}x{cy}: too many"))?;
        if !total.is_multiple_of(per_process) {
            return Err(format!(
                "per_process {per_process}: the {total} columns ({cx}x{cy}) do not divide \
                 into processes of {per_process}"
            ));
        }
        let best = (1..=per_process)
            .filter(|&bx| {
                per_process.is_multiple_of(bx)
                    && cx.is_multiple_of(bx)
                    && cy.is_multiple_of(per_process / bx)
            })
            .map(|bx| (bx, per_process / bx))
            .min_by_key(|&(bx, by)| {
                let (gx, gy) = (cx / bx, cy / by);
                (bx + by, gx.abs_diff(gy), std::cmp::Reverse(bx))
            });
        // unreachable in practice: per_process | cx * cy always splits into bx | cx, by | cy
        let (bx, by) = best.ok_or(format!(
            "per_process {per_process}: no rectangular block of {per_process} columns tiles \
             the {cx}x{cy} grid"
        ))?;
        Ok(Layout {
            columns,
            block: (bx, by),
            grid: (cx / bx, cy / by),
        })
    }

    /// Processes in the layout.
    pub fn processes(&self) -> usize {
        self.grid.0 * self.grid.1
    }

    /// The process hosting column `(x, y)`.
    pub fn process_of(&self, x: usize, y: usize) -> usize {
        (y / self.block.1) * self.grid.0 + x / self.block.0
    }

    /// The index of column `(x, y)`, x fastest.
    pub fn column_index(&self, x: usize, y: usize) -> usize {
        y * self.columns.0 + x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_4_2_gives_72_processes_on_an_8x9_grid() {
        for (columns, per, block) in [
            ((16, 18), 4, (2, 2)),
            ((32, 18), 8, (4, 2)),
            ((16, 36), 8, (2, 4)),
        ] {
            let l = Layout::new(columns, per).unwrap();
            assert_eq!(l.block, block, "{columns:?}");
            assert_eq!(l.grid, (8, 9), "{columns:?}");
            assert_eq!(l.processes(), 72, "{columns:?}");
        }
    }

    #[test]
    fn every_process_hosts_per_process_columns_in_one_block() {
        let l = Layout::new((16, 18), 4).unwrap();
        let mut hosted = vec![Vec::new(); l.processes()];
        for y in 0..18 {
            for x in 0..16 {
                hosted[l.process_of(x, y)].push((x, y));
            }
        }
        for (p, cols) in hosted.iter().enumerate() {
            assert_eq!(cols.len(), 4, "process {p}");
            let (x0, y0) = cols[0];
            assert!(cols
                .iter()
                .all(|&(x, y)| x / 2 == x0 / 2 && y / 2 == y0 / 2));
        }
        // numbered x fastest: the second process is to the right of the first
        assert_eq!((l.process_of(2, 0), l.process_of(0, 2)), (1, 8));
        assert_eq!(l.column_index(3, 1), 19);
    }

    #[test]
    fn one_column_a_process_and_shapes_that_need_a_strip() {
        let l = Layout::new((12, 12), 1).unwrap();
        assert_eq!((l.block, l.processes()), ((1, 1), 144));
        // 3 columns on a 4x9 grid: only 1x3 fits
        assert_eq!(Layout::new((4, 9), 3).unwrap().block, (1, 3));
    }

    #[test]
    fn bad_shapes_are_errors_naming_the_field() {
        assert!(Layout::new((16, 18), 5)
            .unwrap_err()
            .starts_with("per_process 5:"));
        assert!(Layout::new((16, 18), 0)
            .unwrap_err()
            .starts_with("per_process 0:"));
        assert!(Layout::new((0, 18), 1)
            .unwrap_err()
            .starts_with("columns 0x18:"));
    }
}
