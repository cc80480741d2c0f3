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
}
