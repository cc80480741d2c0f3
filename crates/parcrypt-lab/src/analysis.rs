//! What the rows say per workload and implementation: the fitted Amdahl
//! serial fraction and the size from which parallelism pays.

pub use crate::model::Analysis;
use crate::model::Row;
use crate::stats::amdahl_fit;

/// Analyses every parallel implementation of every workload in `rows`.
pub fn analyse(rows: &[Row], cores: usize) -> Vec<Analysis> {
    let mut out = Vec::new();
    let mut keys: Vec<(&'static str, &'static str)> = Vec::new();
    for r in rows.iter().filter(|r| !r.peer && r.implementation != "seq") {
        if !keys.contains(&(r.workload, r.implementation)) {
            keys.push((r.workload, r.implementation));
        }
    }
    for (workload, implementation) in keys {
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|r| r.workload == workload && r.implementation == implementation)
            .collect();
        let Some(size_bytes) = mine.iter().map(|r| r.size_bytes).max() else {
            continue;
        };
        let points: Vec<(usize, f64)> = mine
            .iter()
            .filter(|r| r.size_bytes == size_bytes && r.threads <= cores)
            .map(|r| (r.threads, r.speedup))
            .collect();
        let crossover_threads = mine
            .iter()
            .map(|r| r.threads)
            .filter(|&t| t <= cores.max(1))
            .max()
            .unwrap_or(1);
        let mut at: Vec<&&Row> = mine.iter().filter(|r| r.threads == crossover_threads).collect();
        at.sort_by_key(|r| r.size_bytes);
        // Walk down from the largest size while the win is significant.
        let mut crossover_bytes = None;
        for r in at.iter().rev() {
            if r.speedup_ci95.0 > 1.0 {
                crossover_bytes = Some(r.size_bytes);
            } else {
                break;
            }
        }
        out.push(Analysis {
            workload,
            implementation,
            size_bytes,
            amdahl_serial_fraction: amdahl_fit(&points),
            crossover_threads,
            crossover_bytes,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Stats, amdahl};

    fn row(threads: usize, size: usize, speedup: f64, ci_low: f64) -> Row {
        let implementation = if threads == 1 { "seq" } else { "steal" };
        Row {
            workload: "w",
            implementation,
            threads,
            size_bytes: size,
            unit: crate::model::Unit::Bytes,
            batch: 1,
            stats: Stats::of(&[1.0 / speedup]),
            throughput_bps: 0.0,
            speedup,
            efficiency: speedup / threads as f64,
            speedup_ci95: (ci_low, speedup + 0.1),
            karp_flatt: None,
            outliers: 0,
            peer: false,
            items: 1,
            ops_per_s: 0.0,
            samples: vec![1.0 / speedup],
            limit: crate::model::RowLimit::NONE,
        }
    }

    #[test]
    fn fits_amdahl_within_the_cores_and_finds_the_crossover() {
        let mut rows = Vec::new();
        for (size, ci_low) in [
            (1000, 0.7),
            (100_000, 1.02),
            (1_000_000, 0.98),
            (10_000_000, 1.3),
            (100_000_000, 1.5),
        ] {
            rows.push(row(1, size, 1.0, 1.0));
            for p in [2, 4] {
                // Oversubscribed p = 8 is far off the curve and must be ignored.
                rows.push(row(p, size, amdahl(0.1, p), ci_low));
            }
            rows.push(row(8, size, 0.5, 0.4));
        }
        let a = analyse(&rows, 4);
        assert_eq!(a.len(), 1);
        assert!((a[0].amdahl_serial_fraction.unwrap() - 0.1).abs() < 1e-9);
        assert_eq!(a[0].crossover_threads, 4);
        // 100 kB won, 1 MB did not: parallel pays from 10 MB on.
        assert_eq!(a[0].crossover_bytes, Some(10_000_000));
    }
}
