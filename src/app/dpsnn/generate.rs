//! A seeded generator of DPSNN spike traces (`trace.rs`) from the connectivity model of seed
//! 000 §1.3.3, for runs without a trace recorded from the real application.
//!
//! Model, one iteration (1 ms of cortical activity) at a time:
//!
//! 1. Every neuron fires at most once an iteration, independently, with probability
//!    `rate_hz * 1 ms`: a column fires `Binomial(neurons_per_column, rate_hz * 1 ms)` spikes.
//! 2. Each of those spikes goes to process q with the probability `connectivity::reach`
//!    gives for the column and q (at least one of the neuron's synapses lands on q's columns;
//!    DPSNN sends an axonal spike once to each such process), independently of q' and of the
//!    other spikes: the column's spikes to q are `Binomial(fired, reach)`. With 80 % of the
//!    synapses local its own process is reached with probability 1, so `counts[it][p][p]`
//!    is every spike process p fired.
//!
//! Step 2 draws a fresh set of targets for every spike, where in DPSNN a neuron's synapses
//! are fixed for the run and it reaches the same processes every time it fires. What the
//! network sees is kept: the mean spikes from each process to each process, and the burst of
//! a column that fires more than usual reaching all of its processes in the same iteration.
//! One draw a column a process an iteration is fast: 16x36 columns on 72 processes, 100
//! iterations, take about 0.2 s in an optimised build. Draws are made in a fixed order
//! (iteration, then column x fastest, then process ascending) from one `Mt64` seeded with
//! `seed`, so a seed is a trace.
//!
//! The defaults and the readings behind them are recorded in
//! `docs/decisions/0018-dpsnn-trace-generator.md`.

use super::binomial::binomial;
use super::connectivity::{exponential, reach, stencil, Reach, Stencil};
use super::layout::Layout;
use super::trace::{SpikeTrace, MAX_COUNTS, MAX_PROCESSES};
use rand_mt::Mt64;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One iteration of DPSNN, in seconds (Pisani 2016 §4.5: 10 s are 10000 iterations).
pub const ITERATION_S: f64 = 1e-3;

/// The widest lateral stencil accepted, in columns from its centre.
const MAX_STENCIL_HALF: usize = 1000;

/// The parameters of a generated trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct GenParams {
    /// Grid of cortical columns, width (x) by height (y), in columns. Default 16x18 (Pisani 2016
    /// §4.5 Table 4.2, first row).
    pub columns: (usize, usize),
    /// Columns a process hosts, in columns; at least 1, dividing the grid's column count.
    /// Default 4 (Table 4.2: 16x18 columns on 72 processes).
    pub per_process: usize,
    /// Neurons in a column, in neurons; at least 1. Default 1240 (Table 4.2: 357120 neurons
    /// in 288 columns; Biagioni 2017 §3.3.2).
    pub neurons_per_column: u32,
    /// Recurrent synapses a neuron projects, in synapses; at least 1. Default 1120 (Biagioni 2017
    /// §4.3.1 Table 4.2, 80 % local).
    pub synapses_per_neuron: u32,
    /// Mean firing rate of a neuron, in Hz; 0 to 1000 (at most one spike an iteration).
    /// Default 7.5 (Biagioni 2017 §3.3.3).
    pub rate_hz: f64,
    /// Iterations to generate, in iterations of 1 ms. Default 100.
    pub iterations: usize,
    /// Seed of the generator (`Mt64`). Default 1.
    pub seed: u64,
    /// Distance between neighbouring columns, in um; above 0. Default 100 (Pisani 2016 §1.3.3).
    pub spacing_um: f64,
    /// Decay length of the lateral connection probability, in um; above 0. Default 290
    /// (Pisani 2016 §1.3.3).
    pub lambda_um: f64,
    /// Peak lateral connection probability `A`, a probability in (0, 1]; with `cutoff` it
    /// sets the stencil. Default 0.03 (Pisani 2016 §1.3.3).
    pub peak_probability: f64,
    /// Lateral connection probability at or below which no synapse is made, a probability in
    /// (0, 1). Default 0.001 (Pisani 2016 §1.3.3), which gives the 21x21 stencil.
    pub cutoff: f64,
    /// Fraction of a neuron's synapses in its own column, a fraction in [0, 1]. Default 0.8
    /// (Pisani 2016 §1.3.3).
    pub local_fraction: f64,
}

impl Default for GenParams {
    fn default() -> GenParams {
        GenParams {
            columns: (16, 18),
            per_process: 4,
            neurons_per_column: 1240,
            synapses_per_neuron: 1120,
            rate_hz: 7.5,
            iterations: 100,
            seed: 1,
            spacing_um: 100.0,
            lambda_um: 290.0,
            peak_probability: 0.03,
            cutoff: 0.001,
            local_fraction: 0.8,
        }
    }
}

impl GenParams {
    /// Every field within its range, the columns divisible into processes, and the trace
    /// within what a spike trace holds; the error names the field.
    pub fn validate(&self) -> Result<(), String> {
        self.prepare().map(|_| ())
    }

    /// The lateral law of these parameters.
    pub fn law(&self) -> impl Fn(f64) -> f64 {
        exponential(self.peak_probability, self.lambda_um)
    }

    /// The column layout and the stencil, or the first invalid field.
    fn prepare(&self) -> Result<(Layout, Stencil), String> {
        let layout = Layout::new(self.columns, self.per_process)?;
        let processes = layout.processes() as u64;
        if processes > MAX_PROCESSES {
            return Err(format!(
                "per_process {}: {processes} processes, more than the {MAX_PROCESSES} a spike \
                 trace holds",
                self.per_process
            ));
        }
        if (self.iterations as u64) > MAX_COUNTS / (processes * processes) {
            return Err(format!(
                "iterations {}: {} iterations of {processes} processes exceed the {MAX_COUNTS} \
                 counts a spike trace holds",
                self.iterations, self.iterations
            ));
        }
        let n = self.neurons_per_column;
        if n == 0 {
            return Err("neurons_per_column 0: a column has at least one neuron".into());
        }
        if (n as u64) * (self.per_process as u64) > u32::MAX as u64 {
            return Err(format!(
                "neurons_per_column {n}: {} columns of {n} neurons can fire more spikes in an \
                 iteration than a count holds ({})",
                self.per_process,
                u32::MAX
            ));
        }
        if self.synapses_per_neuron == 0 {
            return Err("synapses_per_neuron 0: a neuron projects at least one synapse".into());
        }
        let check = |name: &str, v: f64, ok: bool, range: &str| {
            if ok && v.is_finite() {
                Ok(())
            } else {
                Err(format!("{name} {v}: must be {range}"))
            }
        };
        let (rate, max_rate) = (self.rate_hz, 1.0 / ITERATION_S);
        check(
            "rate_hz",
            rate,
            (0.0..=max_rate).contains(&rate),
            "0 to 1000 Hz",
        )?;
        check(
            "spacing_um",
            self.spacing_um,
            self.spacing_um > 0.0,
            "above 0 um",
        )?;
        check(
            "lambda_um",
            self.lambda_um,
            self.lambda_um > 0.0,
            "above 0 um",
        )?;
        let a = self.peak_probability;
        check("peak_probability", a, a > 0.0 && a <= 1.0, "in (0, 1]")?;
        let l = self.local_fraction;
        check("local_fraction", l, (0.0..=1.0).contains(&l), "in [0, 1]")?;
        let c = self.cutoff;
        check("cutoff", c, c > 0.0 && c < 1.0, "in (0, 1)")?;
        let stencil = stencil(self.law(), self.spacing_um, self.cutoff, MAX_STENCIL_HALF)
            .map_err(|e| format!("lambda_um {}, cutoff {}: {e}", self.lambda_um, self.cutoff))?;
        if stencil.offsets.is_empty() && self.local_fraction < 1.0 {
            return Err(format!(
                "cutoff {}: the lateral probability is not above it even next door \
                 (peak_probability {}, lambda_um {}), so the lateral synapses have nowhere to go",
                self.cutoff, self.peak_probability, self.lambda_um
            ));
        }
        Ok((layout, stencil))
    }
}

/// A trace drawn from the model in the module header.
pub fn generate(p: &GenParams) -> Result<SpikeTrace, String> {
    let (layout, stencil) = p.prepare()?;
    let (cx, cy) = p.columns;
    let processes = layout.processes();
    super::trace::check_memory(processes as u64, p.iterations as u64)?;
    // per column, x fastest: its process and the processes its spikes reach
    let mut home = Vec::with_capacity(cx * cy);
    let mut targets: Vec<Vec<Reach>> = Vec::with_capacity(cx * cy);
    for y in 0..cy {
        for x in 0..cx {
            home.push(layout.process_of(x, y));
            targets.push(reach(
                (x, y),
                &layout,
                &stencil,
                p.local_fraction,
                p.synapses_per_neuron as f64,
            ));
        }
    }
    let fire = p.rate_hz * ITERATION_S;
    let neurons = p.neurons_per_column as u64;
    let mut rng = Mt64::new(p.seed);
    let mut counts = Vec::with_capacity(p.iterations);
    for _ in 0..p.iterations {
        let mut m = vec![vec![0u32; processes]; processes];
        for (column, to) in targets.iter().enumerate() {
            let fired = binomial(&mut rng, neurons, fire, 1.0 - fire);
            if fired == 0 {
                continue;
            }
            let row = &mut m[home[column]];
            for r in to {
                let k = binomial(&mut rng, fired, r.p, r.q) as u32;
                // validate bounds a process's spikes by u32::MAX; saturate all the same
                row[r.process] = row[r.process].saturating_add(k);
            }
        }
        counts.push(m);
    }
    Ok(SpikeTrace { processes, counts })
}

/// `"16x18"` as `(16, 18)`: width and height, whole numbers of at least 1.
pub fn parse_columns(s: &str) -> Result<(usize, usize), String> {
    let bad = || {
        format!(
            "columns `{s}`: expected WIDTHxHEIGHT, two whole numbers of at least 1 (e.g. 16x18)"
        )
    };
    let (w, h) = s.split_once('x').ok_or_else(bad)?;
    let num = |t: &str| {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse::<usize>().ok().filter(|&v| v >= 1)
    };
    match (num(w), num(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(seed: u64) -> GenParams {
        GenParams {
            iterations: 20,
            seed,
            ..GenParams::default()
        }
    }

    #[test]
    fn the_defaults_are_valid_and_give_the_21x21_stencil() {
        let p = GenParams::default();
        assert_eq!(p.validate(), Ok(()));
        let (layout, stencil) = p.prepare().unwrap();
        assert_eq!(stencil.side(), 21);
        // 16x18 on 72 processes: 4 columns a process, 2x2 blocks on an 8x9 grid
        assert_eq!((layout.processes(), layout.block), (72, (2, 2)));
    }

    #[test]
    fn table_4_2_on_72_processes() {
        for (columns, per) in [((16, 18), 4), ((32, 18), 8), ((16, 36), 8)] {
            let p = GenParams {
                columns,
                per_process: per,
                iterations: 100,
                ..GenParams::default()
            };
            let t = generate(&p).unwrap();
            assert_eq!(t.processes, 72, "{columns:?}");
            assert_eq!(t.iterations(), 100, "{columns:?}");
            let fired: u64 = (0..100)
                .flat_map(|it| (0..72).map(move |q| (it, q)))
                .map(|(it, q)| t.counts[it][q][q] as u64)
                .sum();
            assert!(fired > 0, "{columns:?}");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_trace_another_seed_another() {
        let a = generate(&small(1)).unwrap();
        assert_eq!(generate(&small(1)).unwrap(), a);
        assert_ne!(generate(&small(2)).unwrap(), a);
    }

    #[test]
    fn processes_beyond_the_stencil_get_nothing() {
        // 48x12 columns in 2x2 blocks: a 24x6 grid of processes, most pairs out of reach
        let p = GenParams {
            columns: (48, 12),
            per_process: 4,
            iterations: 30,
            ..GenParams::default()
        };
        let t = generate(&p).unwrap();
        let layout = Layout::new(p.columns, p.per_process).unwrap();
        let (gx, _) = layout.grid;
        // the smallest Chebyshev distance, in columns, between two 2x2 blocks
        let gap = |a: usize, b: usize| {
            let d = |i: usize, j: usize| if i == j { 0 } else { 2 * i.abs_diff(j) - 1 };
            d(a % gx, b % gx).max(d(a / gx, b / gx))
        };
        let (mut near, mut far) = (0u64, 0usize);
        for m in &t.counts {
            for (src, row) in m.iter().enumerate() {
                for (dst, &c) in row.iter().enumerate() {
                    if gap(src, dst) > 10 {
                        assert_eq!(c, 0, "seed {}: {src} -> {dst} beyond the stencil", p.seed);
                        far += 1;
                    } else if src != dst {
                        near += c as u64;
                    }
                }
            }
        }
        assert!(far > 0 && near > 0, "far pairs {far}, near spikes {near}");
    }

    /// A count of `n` independent trials of probability `p` against `n p`, within 6 standard
    /// deviations.
    fn within(got: u64, n: f64, p: f64, what: &str) {
        let (mean, sd) = (n * p, (n * p * (1.0 - p)).sqrt());
        assert!(
            (got as f64 - mean).abs() <= 6.0 * sd,
            "{what}: {got} spikes against {mean:.1} +- {sd:.1}"
        );
    }

    #[test]
    fn spikes_fired_match_rate_times_neurons_times_iterations() {
        let p = GenParams {
            iterations: 200,
            ..GenParams::default()
        };
        let t = generate(&p).unwrap();
        let fired: u64 = t
            .counts
            .iter()
            .flat_map(|m| m.iter().enumerate().map(|(q, row)| row[q] as u64))
            .sum();
        let trials =
            (p.columns.0 * p.columns.1) as f64 * p.neurons_per_column as f64 * p.iterations as f64;
        within(
            fired,
            trials,
            p.rate_hz * ITERATION_S,
            &format!("seed {}", p.seed),
        );
        // received counts the own spikes too
        let received: u64 = (0..p.iterations)
            .flat_map(|it| (0..t.processes).map(move |q| (it, q)))
            .map(|(it, q)| t.received(it, q))
            .sum();
        let sent: u64 = t.counts.iter().flatten().flatten().map(|&c| c as u64).sum();
        assert_eq!(received, sent);
    }

    #[test]
    fn spikes_to_a_neighbour_match_the_reach_probability() {
        let p = GenParams {
            iterations: 300,
            seed: 9,
            ..GenParams::default()
        };
        let t = generate(&p).unwrap();
        let (layout, stencil) = p.prepare().unwrap();
        // process 9 (block (1, 1)) to its neighbours 10, 17 and one three blocks away, 12
        for dst in [10, 17, 12] {
            let mut expect = 0.0;
            for y in 2..4 {
                for x in 2..4 {
                    let r = reach((x, y), &layout, &stencil, 0.8, 1120.0);
                    expect += r.iter().find(|r| r.process == dst).map_or(0.0, |r| r.p);
                }
            }
            let sent: u64 = t.counts.iter().map(|m| m[9][dst] as u64).sum();
            let trials = p.neurons_per_column as f64 * p.iterations as f64;
            // four columns: their mean reach, over four times the trials of one
            let mean_reach = expect / 4.0;
            within(
                sent,
                4.0 * trials,
                p.rate_hz * ITERATION_S * mean_reach,
                &format!("seed {}: 9 -> {dst}", p.seed),
            );
        }
    }

    #[test]
    fn invalid_parameters_are_errors_naming_the_field() {
        let d = GenParams::default;
        let cases = [
            (
                GenParams {
                    per_process: 5,
                    ..d()
                },
                "per_process 5:",
            ),
            (
                GenParams {
                    columns: (0, 4),
                    ..d()
                },
                "columns 0x4:",
            ),
            (
                GenParams {
                    neurons_per_column: 0,
                    ..d()
                },
                "neurons_per_column 0:",
            ),
            (
                GenParams {
                    neurons_per_column: u32::MAX,
                    ..d()
                },
                "neurons_per_column 4294967295:",
            ),
            (
                GenParams {
                    synapses_per_neuron: 0,
                    ..d()
                },
                "synapses_per_neuron 0:",
            ),
            (
                GenParams {
                    rate_hz: -1.0,
                    ..d()
                },
                "rate_hz -1:",
            ),
            (
                GenParams {
                    rate_hz: 1500.0,
                    ..d()
                },
                "rate_hz 1500:",
            ),
            (
                GenParams {
                    rate_hz: f64::NAN,
                    ..d()
                },
                "rate_hz NaN:",
            ),
            (
                GenParams {
                    spacing_um: 0.0,
                    ..d()
                },
                "spacing_um 0:",
            ),
            (
                GenParams {
                    lambda_um: -2.0,
                    ..d()
                },
                "lambda_um -2:",
            ),
            (
                GenParams {
                    peak_probability: 1.5,
                    ..d()
                },
                "peak_probability 1.5:",
            ),
            (
                GenParams {
                    local_fraction: 1.2,
                    ..d()
                },
                "local_fraction 1.2:",
            ),
            (GenParams { cutoff: 0.0, ..d() }, "cutoff 0:"),
            (
                GenParams {
                    cutoff: 0.05,
                    ..d()
                },
                "cutoff 0.05:",
            ),
            (
                GenParams {
                    lambda_um: 1e9,
                    ..d()
                },
                "lambda_um 1000000000",
            ),
            (
                GenParams {
                    columns: (128, 128),
                    per_process: 1,
                    ..d()
                },
                "per_process 1: 16384 processes",
            ),
            (
                GenParams {
                    iterations: 1 << 20,
                    ..d()
                },
                "iterations 1048576:",
            ),
        ];
        for (p, start) in cases {
            let e = p.validate().unwrap_err();
            assert!(e.starts_with(start), "{p:?}\n gave {e}");
            assert_eq!(generate(&p).unwrap_err(), e);
        }
        // all synapses local: no lateral synapse needs a stencil
        let all_local = GenParams {
            cutoff: 0.05,
            local_fraction: 1.0,
            ..d()
        };
        assert_eq!(all_local.validate(), Ok(()));
    }

    #[test]
    fn zero_rate_and_zero_iterations_give_empty_traces() {
        let silent = generate(&GenParams {
            rate_hz: 0.0,
            ..small(1)
        })
        .unwrap();
        assert!(silent.counts.iter().flatten().flatten().all(|&c| c == 0));
        assert_eq!(
            generate(&GenParams {
                iterations: 0,
                ..small(1)
            })
            .unwrap()
            .iterations(),
            0
        );
    }

    #[test]
    fn a_generated_trace_round_trips_through_the_text_format() {
        let t = generate(&small(3)).unwrap();
        assert_eq!(SpikeTrace::parse("gen", &t.to_text()), Ok(t));
    }

    #[test]
    fn columns_parse_as_width_x_height() {
        assert_eq!(parse_columns("16x18"), Ok((16, 18)));
        assert_eq!(parse_columns("1x1"), Ok((1, 1)));
        for bad in [
            "16", "16x", "x18", "0x18", "16x-1", "16X18", "16 x 18", "axb", "+1x2",
        ] {
            let e = parse_columns(bad).unwrap_err();
            assert!(e.starts_with(&format!("columns `{bad}`:")), "{e}");
        }
    }

    #[test]
    fn parameters_read_from_toml_reject_unknown_fields() {
        let p: GenParams = toml::from_str("columns = [32, 18]\nper_process = 8\n").unwrap();
        assert_eq!((p.columns, p.per_process, p.rate_hz), ((32, 18), 8, 7.5));
        assert!(toml::from_str::<GenParams>("rate = 3.0\n").is_err());
    }
}
