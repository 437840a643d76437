//! The M/G/1 mean-latency model of a 2-D torus with V virtual channels and fully adaptive
//! minimal routing (Safaei et al. §3; scouting switching with scouting distance K,
//! which is wormhole switching at K = 0), evaluated as the paper states it, in its own units:
//! messages of M flits, one flit a cycle across a channel, one cycle a hop.
//!
//! ```text
//!   k̄ = k/4, D̄ = 2 k̄                                      (2)  mean hops a dimension, in all
//!   l_c = l_g (D̄ + Σ_{i<D̄} i Pb_i) / 4                     (3)  rate on a channel
//!   S̄ = C̄ + D̄ + M                                           (4)  network latency
//!   C̄^t_{i,j}: the difference equations of the set-up time  (5), P^t_j (6), C̄ (7)
//!   Pb_i = Σ_m Q^m_i P_V^{2-m}                               (9)  blocking after i hops
//!   Q^0_i = 1 - Pj_i, Q^1_i = Pj_i                           (10), Pj_i (8)
//!   W̄_s = l_g (S̄² + (S̄ - M - (2K-1) - D̄)²) / (2 (V - l_g S̄))   (11)  M/G/1 waiting time
//!   P_v: the Markov chain of busy VCs                        (12), V̄ = Σ v² P_v / Σ v P_v (13)
//!   latency = (S̄ + W̄_s) V̄                                   (1)
//! ```
//!
//! The equations depend on each other (l_c on Pb_i, Pb_i on P_V, P_V on l_c and S̄, S̄ on Pb_i
//! through C̄); they are solved by fixed-point iteration from a network without blocking. The
//! model saturates where the chain of eq. (12) or the queue of eq. (11) has no steady state
//! (`l_c S̄ >= 1` or `l_g S̄ >= V`); no latency is given there.
//!
//! Assumptions (the paper's §3.1, and where this evaluation had to choose; decision 0033):
//! - Poisson sources of `l_g` messages a cycle a node, uniform destinations, infinite source
//!   queues, one ejection channel, M-flit messages, shortest paths, and every channel equally
//!   loaded by the fully adaptive routing;
//! - D̄ = k/2 hops is taken as a whole number of hops (k even), as eqs. (5)-(10) index hops by it;
//! - eq. (8) as printed gives Pj_i = 1 for i <= k̄, which contradicts its text ("the header has
//!   not yet crossed any dimension"): 0 is used there (Ould-Khaoua 1999's form), and 2/(D̄-i+1)
//!   for k̄ < i <= D̄-1;
//! - P^t_j of eq. (6) is the ratio of the two binomials, (t-j)/(t-j+D̄-1);
//! - V is the number of VCs of a channel in eqs. (11)-(13) (the assumptions' "V - 1" is read
//!   as a typo, since eq. (11)'s arrival rate is l_g/V "through any of the V virtual channels").

/// The model's inputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelIn {
    /// Radix of the k x k torus (even).
    pub k: u32,
    /// Virtual channels a physical channel.
    pub vcs: u32,
    /// Message length, flits.
    pub flits: u32,
    /// Scouting distance (0: wormhole switching).
    pub scouting: u32,
}

/// The model at one generation rate.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ModelPoint {
    /// Messages a cycle a node.
    pub rate: f64,
    /// Mean message latency, cycles (eq. 1); None past saturation.
    pub latency: Option<f64>,
    /// Network latency S̄, waiting time at the source W̄_s, VC multiplexing V̄, channel rate l_c,
    /// probability that every VC of a channel is busy P_V (NaN past saturation).
    pub network_latency: f64,
    pub source_wait: f64,
    pub vc_multiplexing: f64,
    pub channel_rate: f64,
    pub all_vcs_busy: f64,
}

impl ModelIn {
    pub fn check(&self) -> Result<(), String> {
        if self.k < 4 || !self.k.is_multiple_of(2) {
            return Err(format!(
                "k = {}: the model takes an even radix of 4 or more (its mean distance k/2 counts whole hops)",
                self.k
            ));
        }
        if !(1..=64).contains(&self.vcs) {
            return Err(format!("{} VCs: give 1 to 64", self.vcs));
        }
        if !(1..=1_000_000).contains(&self.flits) {
            return Err(format!("{} flits: give 1 to 1,000,000", self.flits));
        }
        if self.scouting > 64 {
            return Err(format!("scouting distance {}: give 0 to 64", self.scouting));
        }
        Ok(())
    }

    /// D̄, whole hops.
    fn d(&self) -> usize {
        (self.k / 2) as usize
    }

    /// Eq. (8) (with its first case read as 0) and (10): the probability that one dimension
    /// only is left after i hops.
    fn one_left(&self, i: usize) -> f64 {
        let kb = self.k as f64 / 4.0;
        let d = self.d() as f64;
        if (i as f64) <= kb {
            0.0
        } else {
            2.0 / (d - i as f64 + 1.0)
        }
    }

    /// Eq. (9): blocking after i hops, every VC of a channel busy with probability `pv`.
    fn blocking(&self, i: usize, pv: f64) -> f64 {
        let q1 = self.one_left(i);
        (1.0 - q1) * pv * pv + q1 * pv
    }

    /// Eqs. (5)-(7): the mean path set-up time for blocking probabilities `pb`.
    fn setup_time(&self, pb: &[f64]) -> f64 {
        let d = self.d();
        let kk = self.scouting as usize;
        let mut total = 0.0;
        for t in 0..=kk {
            // c[j][i] = C̄^t_{i,j}; level j = t first (no more backtracking), then down to 0
            let mut c = vec![vec![0.0f64; d + 1]; t + 1];
            for j in (0..=t).rev() {
                let p = if j < t {
                    (t - j) as f64 / (t - j + d - 1) as f64
                } else {
                    0.0
                };
                // (D̄ >= 2: `check` takes k >= 4)
                let mut next = 0.0; // C̄_{D̄,j} = 0
                for i in (1..d).rev() {
                    let back = if j < t { c[j + 1][i - 1] } else { 0.0 };
                    let v = (1.0 - p * pb[i]) * next + p * pb[i] * back + 1.0;
                    c[j][i] = v;
                    next = v;
                }
                // i = 0: C = (1 - Pb_0)(C_1 + 1) + Pb_0 C  =>  C = C_1 + 1
                c[j][0] = next + 1.0;
            }
            total += c[0][0] + 2.0 * kk as f64 - 1.0;
        }
        total / (kk + 1) as f64
    }

    /// Eq. (12): the probabilities of v busy VCs, None without a steady state.
    fn busy_vcs(&self, lc: f64, s: f64) -> Option<Vec<f64>> {
        let v = self.vcs as usize;
        let mut q = vec![1.0f64; v + 1];
        for x in 1..=v {
            q[x] = if x < v {
                q[x - 1] * lc * s
            } else {
                let den = 1.0 / s - lc;
                if den <= 0.0 {
                    return None;
                }
                q[x - 1] * lc / den
            };
        }
        let sum: f64 = q.iter().sum();
        Some(q.iter().map(|x| x / sum).collect())
    }

    /// The model at `rate` messages a cycle a node.
    pub fn at(&self, rate: f64) -> ModelPoint {
        let d = self.d();
        let m = self.flits as f64;
        let kk = self.scouting as f64;
        let v = self.vcs as f64;
        let saturated = ModelPoint {
            rate,
            latency: None,
            network_latency: f64::NAN,
            source_wait: f64::NAN,
            vc_multiplexing: f64::NAN,
            channel_rate: f64::NAN,
            all_vcs_busy: f64::NAN,
        };
        let mut pb = vec![0.0f64; d];
        let mut last = f64::NAN;
        for _ in 0..10_000 {
            let lc = rate * (d as f64 + (0..d).map(|i| i as f64 * pb[i]).sum::<f64>()) / 4.0;
            let s = self.setup_time(&pb) + d as f64 + m;
            if lc * s >= 1.0 || rate * s >= v {
                return saturated;
            }
            let Some(p) = self.busy_vcs(lc, s) else {
                return saturated;
            };
            let pv = p[self.vcs as usize];
            for (i, b) in pb.iter_mut().enumerate() {
                *b = self.blocking(i, pv);
            }
            let ws = rate * (s * s + (s - m - (2.0 * kk - 1.0) - d as f64).powi(2))
                / (2.0 * (v - rate * s));
            let num: f64 = (1..p.len()).map(|x| (x * x) as f64 * p[x]).sum();
            let den: f64 = (1..p.len()).map(|x| x as f64 * p[x]).sum();
            let vbar = if den > 0.0 { num / den } else { 1.0 };
            let lat = (s + ws) * vbar;
            if (lat - last).abs() <= 1e-9 * lat.abs().max(1.0) {
                return ModelPoint {
                    rate,
                    latency: Some(lat),
                    network_latency: s,
                    source_wait: ws,
                    vc_multiplexing: vbar,
                    channel_rate: lc,
                    all_vcs_busy: pv,
                };
            }
            last = lat;
        }
        saturated
    }

    /// The largest rate with a latency, to `1e-6` relative (bisection).
    pub fn saturation(&self) -> f64 {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if self.at(mid).latency.is_some() {
                lo = mid;
            } else {
                hi = mid;
            }
            if hi - lo <= 1e-6 * hi {
                break;
            }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(k: u32, vcs: u32, flits: u32, scouting: u32) -> ModelIn {
        ModelIn {
            k,
            vcs,
            flits,
            scouting,
        }
    }

    #[test]
    fn at_zero_load_the_latency_is_the_wormhole_pipeline() {
        // K = 0: no blocking, no wait, one VC busy: S = (D - 1) + D + M
        for (k, flits) in [(8, 32), (16, 64)] {
            let x = m(k, 6, flits, 0).at(1e-12);
            let d = (k / 2) as f64;
            let want = (d - 1.0) + d + flits as f64;
            assert!((x.latency.unwrap() - want).abs() < 1e-6, "{x:?}");
        }
    }

    #[test]
    fn latency_grows_with_load_and_saturates_below_the_channel_bound() {
        for (k, v, flits) in [(8, 1, 32), (8, 6, 32), (16, 1, 64), (16, 6, 64)] {
            let x = m(k, v, flits, 0);
            let sat = x.saturation();
            // a channel carries at most one flit a cycle: l_c M < 1, with l_c >= l_g D / 4
            let bound = 8.0 / (k as f64 * flits as f64);
            assert!(
                sat > 0.0 && sat < bound,
                "k {k} V {v} M {flits}: {sat} vs {bound}"
            );
            let mut last = 0.0;
            for f in [0.1, 0.3, 0.5, 0.7, 0.9] {
                let l = x.at(f * sat).latency.unwrap();
                assert!(l > last, "k {k} V {v} M {flits} at {f}: {l} after {last}");
                last = l;
            }
            assert!(x.at(sat * 1.01).latency.is_none());
        }
    }

    #[test]
    fn scouting_adds_the_probe_lead_and_backtracking() {
        let wh = m(8, 6, 32, 0).at(0.002).latency.unwrap();
        let ss = m(8, 6, 32, 3).at(0.002).latency.unwrap();
        assert!(ss > wh, "{ss} {wh}");
    }

    #[test]
    fn bad_inputs_are_named() {
        assert!(m(7, 1, 32, 0).check().unwrap_err().contains("even radix"));
        assert!(m(8, 0, 32, 0).check().unwrap_err().contains("VCs"));
        assert!(m(8, 1, 0, 0).check().unwrap_err().contains("flits"));
    }
}
