//! Statistics over timing samples.

use serde::Serialize;

/// Summary statistics of one cell's samples (seconds per operation).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stats {
    /// Number of samples.
    pub n: usize,
    /// Median.
    pub median: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1).
    pub stddev: f64,
    /// Lower end of the 95% confidence interval of the mean (Student t).
    pub ci95_low: f64,
    /// Upper end of the 95% confidence interval of the mean.
    pub ci95_high: f64,
    /// Fastest sample.
    pub min: f64,
    /// 90th percentile (linear interpolation between order statistics): the
    /// tail that a median hides, e.g. key generation's unlucky prime searches.
    pub p90: f64,
}

impl Stats {
    /// Computes the statistics of `samples`.
    ///
    /// # Panics
    /// If `samples` is empty.
    pub fn of(samples: &[f64]) -> Stats {
        assert!(!samples.is_empty(), "no samples");
        let n = samples.len();
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        let mean = samples.iter().sum::<f64>() / n as f64;
        let stddev = if n > 1 {
            (samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let half = if n > 1 {
            t95(n - 1) * stddev / (n as f64).sqrt()
        } else {
            0.0
        };
        Stats {
            n,
            median,
            mean,
            stddev,
            ci95_low: mean - half,
            ci95_high: mean + half,
            min: sorted[0],
            p90: quantile(&sorted, 0.9),
        }
    }
}

/// The two-sided 95% quantile of Student's t distribution with `df` degrees
/// of freedom.
pub fn t95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        31..=40 => 2.021,
        41..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
}

/// The `f`-quantile of sorted samples, interpolating linearly between order
/// statistics (type 7, as R and NumPy default).
fn quantile(sorted: &[f64], f: f64) -> f64 {
    let pos = f * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Number of samples outside Tukey's fences (1.5 × IQR beyond the quartiles):
/// flagged in the results, never dropped.
pub fn outliers(samples: &[f64]) -> usize {
    if samples.len() < 4 {
        return 0;
    }
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    let (q1, q3) = (quantile(&v, 0.25), quantile(&v, 0.75));
    let iqr = q3 - q1;
    v.iter()
        .filter(|&&x| x < q1 - 1.5 * iqr || x > q3 + 1.5 * iqr)
        .count()
}

/// The median of `v` (which must not be empty).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// A 95% percentile-bootstrap interval for the speed-up
/// median(`reference`) / median(`sample`), from 2000 resamples of each with a
/// fixed seed (the same data always gives the same interval).
pub fn speedup_ci95(reference: &[f64], sample: &[f64]) -> (f64, f64) {
    const RESAMPLES: usize = 2000;
    let mut rng = SplitMix64(0x5eed_1ab5);
    let mut a = vec![0.0; reference.len()];
    let mut b = vec![0.0; sample.len()];
    let mut ratios: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            for x in a.iter_mut() {
                *x = reference[rng.below(reference.len())];
            }
            for x in b.iter_mut() {
                *x = sample[rng.below(sample.len())];
            }
            median(&mut a) / median(&mut b)
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    (ratios[RESAMPLES * 25 / 1000], ratios[RESAMPLES * 975 / 1000 - 1])
}

/// The Karp–Flatt experimentally determined serial fraction
/// e = (1/S − 1/p) / (1 − 1/p) for speed-up S on p threads (none for p = 1).
pub fn karp_flatt(speedup: f64, threads: usize) -> Option<f64> {
    (threads > 1).then(|| {
        let p = threads as f64;
        (1.0 / speedup - 1.0 / p) / (1.0 - 1.0 / p)
    })
}

/// Least-squares fit of Amdahl's law S(p) = 1 / (s + (1 − s)/p) to measured
/// (threads, speed-up) points: minimizes Σ (1/S − 1/p − s(1 − 1/p))², which
/// is linear in the serial fraction s. Points at p = 1 carry no information.
/// Returns s clamped to [0, 1], or `None` without a point at p > 1.
pub fn amdahl_fit(points: &[(usize, f64)]) -> Option<f64> {
    let (mut sxz, mut sxx) = (0.0, 0.0);
    for &(p, speedup) in points.iter().filter(|(p, s)| *p > 1 && *s > 0.0) {
        let x = 1.0 - 1.0 / p as f64;
        let z = 1.0 / speedup - 1.0 / p as f64;
        sxz += x * z;
        sxx += x * x;
    }
    (sxx > 0.0).then(|| (sxz / sxx).clamp(0.0, 1.0))
}

/// Amdahl's speed-up on `threads` threads for serial fraction `s`.
pub fn amdahl(s: f64, threads: usize) -> f64 {
    1.0 / (s + (1.0 - s) / threads as f64)
}

/// A small deterministic generator for the bootstrap (SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn median_odd_and_even() {
        assert_eq!(Stats::of(&[3.0, 1.0, 2.0]).median, 2.0);
        assert_eq!(Stats::of(&[4.0, 1.0, 3.0, 2.0]).median, 2.5);
        assert_eq!(Stats::of(&[7.0]).median, 7.0);
    }

    #[test]
    fn mean_stddev_and_t_interval() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7.
        let s = Stats::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert!(close(s.mean, 5.0));
        assert!(close(s.stddev, (32.0f64 / 7.0).sqrt()));
        let half = 2.365 * (32.0f64 / 7.0).sqrt() / 8f64.sqrt();
        assert!(close(s.ci95_low, 5.0 - half));
        assert!(close(s.ci95_high, 5.0 + half));
        assert_eq!(s.min, 2.0);
        assert_eq!(s.n, 8);
    }

    #[test]
    fn p90_interpolates_between_order_statistics() {
        // 1..=11: the 0.9 quantile sits exactly on the 10th value.
        let v: Vec<f64> = (1..=11).rev().map(f64::from).collect();
        assert_eq!(Stats::of(&v).p90, 10.0);
        // 1..=10: position 8.1 → 9.1.
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert!(close(Stats::of(&v).p90, 9.1));
        assert_eq!(Stats::of(&[4.0]).p90, 4.0);
    }

    #[test]
    fn one_sample_has_a_zero_width_interval() {
        let s = Stats::of(&[1.5]);
        assert_eq!((s.stddev, s.ci95_low, s.ci95_high), (0.0, 1.5, 1.5));
    }

    #[test]
    fn t_quantiles() {
        assert_eq!(t95(1), 12.706);
        assert_eq!(t95(9), 2.262);
        assert_eq!(t95(1000), 1.960);
    }

    #[test]
    fn amdahl_fit_recovers_an_exact_curve() {
        for s in [0.0, 0.05, 0.3, 1.0] {
            let points: Vec<(usize, f64)> = [1, 2, 3, 4, 6, 8].iter().map(|&p| (p, amdahl(s, p))).collect();
            let fit = amdahl_fit(&points).unwrap();
            assert!((fit - s).abs() < 1e-12, "{s} → {fit}");
        }
        assert_eq!(amdahl_fit(&[(1, 1.0)]), None);
    }

    #[test]
    fn karp_flatt_of_synthetic_timings() {
        // T1 = 10, T4 = 3.25: S = 10/3.25, e = (0.325 − 0.25) / 0.75 = 0.1.
        let e = karp_flatt(10.0 / 3.25, 4).unwrap();
        assert!((e - 0.1).abs() < 1e-12);
        assert!(karp_flatt(2.0, 2).unwrap().abs() < 1e-12); // perfect: 0
        assert_eq!(karp_flatt(1.0, 1), None);
        // Amdahl data gives back its own serial fraction at every p.
        assert!((karp_flatt(amdahl(0.2, 8), 8).unwrap() - 0.2).abs() < 1e-12);
    }

    #[test]
    fn outliers_are_counted_not_removed() {
        assert_eq!(outliers(&[1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 9.0]), 1);
        assert_eq!(outliers(&[1.0, 1.0, 1.0, 1.0]), 0);
        assert_eq!(outliers(&[1.0, 50.0]), 0); // too few to judge
    }

    #[test]
    fn speedup_interval_brackets_the_ratio_and_is_deterministic() {
        let seq = [10.0, 10.2, 9.9, 10.1, 10.0, 10.3, 9.8];
        let par = [5.0, 5.1, 4.9, 5.0, 5.2, 4.95, 5.05];
        let (lo, hi) = speedup_ci95(&seq, &par);
        assert!(lo <= 2.0 && 2.0 <= hi && lo > 1.8 && hi < 2.2, "{lo} {hi}");
        assert_eq!(speedup_ci95(&seq, &par), (lo, hi));
        assert_eq!(speedup_ci95(&[3.0; 5], &[1.5; 5]), (2.0, 2.0));
    }
}
