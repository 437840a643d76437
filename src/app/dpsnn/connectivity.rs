//! DPSNN's connectivity between cortical columns, reduced to what the network sees: for a
//! neuron of one column, the probability that its spike goes to a given process.
//!
//! Seed 000 §1.3.3: columns on a 2-D grid `spacing` (~100 um) apart; 80 % of the synapses
//! local (in the neuron's own column); lateral synapses falling off with distance as
//! `A e^(-r / lambda)` (A = 0.03, lambda = 290 um), cut off where that probability is not above
//! 1/1000, "a column connection stencil of 21x21 centred onto the source column". Seed 002
//! §3.3.2 says the lateral connectivity is "proportional to" the same law, and that the same
//! cut-off gives a 7x7 stencil for its Gaussian law (A = 0.05, sigma = 100 um).
//!
//! **Distance.** `r` is measured from the source column's centre to the nearest point of the
//! target column (columns are squares of side `spacing` tiling the grid):
//! `spacing * hypot(max(|dx| - 1/2, 0), max(|dy| - 1/2, 0))` for a target `dx, dy` columns
//! away. This is the reading under which the law and the cut-off give both documented
//! stencils, 21x21 for the exponential law and 7x7 for the Gaussian (`stencil` tests both);
//! centre-to-centre distances give 19x19 and 5x5. The stencil is the set of offsets within
//! the cut-off, a disc; "21x21" is its bounding square.
//!
//! **Delivery.** Each of a neuron's `synapses` synapses lands, independently, in its own column
//! with probability `local_fraction`, else in a stencil column with probability proportional to
//! the law there: `(1 - local_fraction) * law(r) / W`, `W` the sum of the law over the whole
//! stencil (so `A` matters only through the cut-off). A synapse aimed beyond the edge of the
//! grid is not made (the grid does not wrap), so a neuron near an edge projects fewer lateral
//! synapses. DPSNN sends an axonal spike once to every process holding at least one of its
//! targets (Pisani 2016 §1.3.1: "Axonal spikes are only sent to processes having at least a
//! target synapse for the axon"), so with `F` the share of a neuron's synapse draws that land
//! on process `q`'s columns the spike reaches `q` with probability `1 - (1 - F)^synapses`. For
//! its own process `F` is at least `local_fraction`, and with the defaults `(1 - 0.8)^1120`
//! underflows: probability 1.

use super::layout::Layout;

/// One lateral offset of the stencil and the law's value there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Offset {
    /// Columns along x, target minus source.
    pub dx: i64,
    /// Columns along y, target minus source.
    pub dy: i64,
    /// The law at this offset's distance: the connection probability.
    pub probability: f64,
}

/// The columns a column's lateral synapses can reach.
#[derive(Debug, Clone, PartialEq)]
pub struct Stencil {
    /// Half the side of the bounding square, in columns: the stencil is `2 half + 1` square.
    pub half: usize,
    /// Every offset but (0, 0) whose probability is above the cut-off, x fastest.
    pub offsets: Vec<Offset>,
    /// The sum of `probability` over `offsets` (the normalisation `W`).
    pub total: f64,
}

impl Stencil {
    /// The side of the bounding square, in columns (21 for Pisani 2016's law).
    pub fn side(&self) -> usize {
        2 * self.half + 1
    }
}

/// The exponential lateral law of Pisani 2016 §1.3.3, `peak e^(-r / lambda_um)`, `r` in um.
pub fn exponential(peak: f64, lambda_um: f64) -> impl Fn(f64) -> f64 {
    move |r_um| peak * (-r_um / lambda_um).exp()
}

/// Distance in um from the centre of a column to the nearest point of the column `dx, dy`
/// columns away, columns `spacing_um` apart.
pub fn distance_um(dx: i64, dy: i64, spacing_um: f64) -> f64 {
    let gap = |d: i64| (d.unsigned_abs() as f64 - 0.5).max(0.0);
    spacing_um * gap(dx).hypot(gap(dy))
}

/// The stencil of a law that does not grow with distance: every offset whose probability is
/// above `cutoff`. An error if it reaches farther than `max_half` columns.
pub fn stencil(
    law: impl Fn(f64) -> f64,
    spacing_um: f64,
    cutoff: f64,
    max_half: usize,
) -> Result<Stencil, String> {
    let inside = |dx: i64, dy: i64| law(distance_um(dx, dy, spacing_um)) > cutoff;
    // an offset is at least as far as the axis offset of its larger component, so the first
    // axis offset outside bounds the square
    let mut half = 0;
    while inside(half as i64 + 1, 0) {
        half += 1;
        if half > max_half {
            return Err(format!(
                "the lateral stencil reaches beyond {max_half} columns from its centre \
                 (the law stays above the cut-off {cutoff} there)"
            ));
        }
    }
    let h = half as i64;
    let mut offsets = Vec::new();
    for dy in -h..=h {
        for dx in -h..=h {
            if (dx, dy) != (0, 0) && inside(dx, dy) {
                let probability = law(distance_um(dx, dy, spacing_um));
                offsets.push(Offset {
                    dx,
                    dy,
                    probability,
                });
            }
        }
    }
    let total = offsets.iter().map(|o| o.probability).sum();
    Ok(Stencil {
        half,
        offsets,
        total,
    })
}

/// A process a column's spikes reach, and how likely each spike is to reach it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reach {
    /// The process.
    pub process: usize,
    /// Probability that one spike of the column's neurons goes to `process`.
    pub p: f64,
    /// `1 - p`, computed without cancellation.
    pub q: f64,
}

/// The processes the spikes of column `(x, y)` reach, ascending, and the probability of each
/// (the delivery model of the module header). Processes never reached are left out.
pub fn reach(
    column: (usize, usize),
    layout: &Layout,
    stencil: &Stencil,
    local_fraction: f64,
    synapses: f64,
) -> Vec<Reach> {
    let (cx, cy) = layout.columns;
    let mut share = vec![0.0f64; layout.processes()];
    share[layout.process_of(column.0, column.1)] += local_fraction;
    if stencil.total > 0.0 {
        let lateral = (1.0 - local_fraction) / stencil.total;
        for o in &stencil.offsets {
            let (tx, ty) = (column.0 as i64 + o.dx, column.1 as i64 + o.dy);
            if (0..cx as i64).contains(&tx) && (0..cy as i64).contains(&ty) {
                share[layout.process_of(tx as usize, ty as usize)] += lateral * o.probability;
            }
        }
    }
    share
        .iter()
        .enumerate()
        .filter(|(_, &f)| f > 0.0)
        .map(|(process, &f)| {
            // (1 - F)^S as exp(S ln(1 - F)): exact for small F, and no cancellation in p or q
            let log_q = synapses * (-f.min(1.0)).ln_1p();
            Reach {
                process,
                p: -log_q.exp_m1(),
                q: log_q.exp(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed000() -> Stencil {
        stencil(exponential(0.03, 290.0), 100.0, 1e-3, 1000).unwrap()
    }

    #[test]
    fn the_exponential_law_gives_the_21x21_stencil() {
        let s = seed000();
        assert_eq!(s.side(), 21);
        assert_eq!(s.half, 10);
        // centre to centre, the column 10 away (1000 um) would be out: 19x19
        assert!(exponential(0.03, 290.0)(1000.0) <= 1e-3);
        let has = |dx, dy| s.offsets.iter().any(|o| (o.dx, o.dy) == (dx, dy));
        // the axis reaches 10 columns (950 um to the nearest point), not 11 (1050 um)
        assert!(has(10, 0) && has(0, -10) && !has(11, 0));
        // a disc of 348 columns: the corner of the square is outside
        assert_eq!(s.offsets.len(), 348);
        assert!(has(7, 7) && !has(10, 10) && !has(0, 0));
        // symmetric under the square's eight symmetries
        for o in &s.offsets {
            for (a, b) in [(-o.dx, o.dy), (o.dx, -o.dy), (o.dy, o.dx)] {
                assert!(has(a, b), "({}, {}) without ({a}, {b})", o.dx, o.dy);
            }
        }
        assert!(s.offsets.iter().all(|o| o.probability > 1e-3));
        let sum: f64 = s.offsets.iter().map(|o| o.probability).sum();
        assert!((s.total - sum).abs() < 1e-12);
    }

    #[test]
    fn the_same_distance_gives_seed_002s_gaussian_7x7() {
        // Biagioni 2017 §3.3.2: A e^(-r^2 / 2 sigma^2), A = 0.05, sigma = 100 um, cut-off 1/1000
        let gauss = |r: f64| 0.05 * (-(r * r) / (2.0 * 100.0 * 100.0)).exp();
        assert_eq!(stencil(gauss, 100.0, 1e-3, 1000).unwrap().side(), 7);
        // centre to centre, the column 3 away (300 um) would be out: 5x5
        assert!(gauss(300.0) <= 1e-3);
    }

    #[test]
    fn distance_is_centre_to_nearest_point() {
        assert_eq!(distance_um(0, 0, 100.0), 0.0);
        assert_eq!(distance_um(1, 0, 100.0), 50.0);
        assert_eq!(distance_um(-10, 0, 100.0), 950.0);
        assert!((distance_um(4, -5, 100.0) - 350.0f64.hypot(450.0)).abs() < 1e-9);
    }

    #[test]
    fn a_stencil_too_wide_is_an_error() {
        let e = stencil(exponential(0.03, 1e9), 100.0, 1e-3, 50).unwrap_err();
        assert!(e.contains("beyond 50 columns"), "{e}");
        // a law already below the cut-off next door: an empty stencil, not an error
        let s = stencil(exponential(1e-4, 290.0), 100.0, 1e-3, 50).unwrap();
        assert_eq!((s.side(), s.offsets.len(), s.total), (1, 0, 0.0));
    }

    #[test]
    fn reach_is_certain_at_home_and_falls_with_distance() {
        // 40x1 columns, one a process: process = column
        let layout = Layout::new((40, 1), 1).unwrap();
        let s = seed000();
        let r = reach((20, 0), &layout, &s, 0.8, 1120.0);
        let p = |q: usize| r.iter().find(|x| x.process == q).map_or(0.0, |x| x.p);
        assert_eq!(p(20), 1.0);
        // within the stencil, falling with distance; nothing beyond it
        for d in 1..10 {
            assert!(p(20 + d) > p(20 + d + 1), "distance {d}");
            assert_eq!(p(20 + d), p(20 - d), "distance {d}");
        }
        assert!(p(30) > 0.0 && p(31) == 0.0 && p(9) == 0.0);
        assert!(r.windows(2).all(|w| w[0].process < w[1].process));
        for x in &r {
            assert!((x.p + x.q - 1.0).abs() < 1e-12, "{x:?}");
        }
        // by hand for the neighbour: F = 0.2 * (law at the offsets that land there) / W
        let w_next: f64 = s
            .offsets
            .iter()
            .filter(|o| (o.dx, o.dy) == (1, 0))
            .map(|o| o.probability)
            .sum();
        let f = 0.2 * w_next / s.total;
        assert!((p(21) - (1.0 - (1.0 - f).powf(1120.0))).abs() < 1e-12);
    }

    #[test]
    fn no_local_synapses_and_no_lateral_synapses() {
        let layout = Layout::new((5, 5), 1).unwrap();
        let s = seed000();
        // all local: only the own process
        let r = reach((2, 2), &layout, &s, 1.0, 100.0);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].process, r[0].p), (12, 1.0));
        // all lateral: the own column is not a target, and no other column of the own process
        let r = reach((2, 2), &layout, &s, 0.0, 100.0);
        assert_eq!(r.len(), 24);
        assert!(r.iter().all(|x| x.process != 12));
    }
}
