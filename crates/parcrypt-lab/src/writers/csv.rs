//! results.csv: one line per cell.

use std::fmt;

use crate::model::Summary;

/// The CSV columns, in order (the first twelve are the contract; columns
/// are only ever appended). `unit` says what `size_bytes` counts: `bytes`,
/// `operation` (one operation of a nominal size in bytes) or an item noun
/// such as `signatures` (a batch of that many; `ops_per_s` is then items
/// per second). `limit_Bps` (bytes only) and `limit_ops_per_s` are the
/// workload's limit on the cell's threads (its cost model against the
/// machine's ceilings and the run's one-core cells), `of_limit` the
/// achieved rate over it, `limit_by` what binds it (`cores`, `width`,
/// `memory-copy`, `memory-read`, `page-cache-read`, `no-model`); empty for
/// peers.
pub const CSV_HEADER: &str = "workload,impl,threads,size_bytes,repeats,median_s,mean_s,stddev_s,ci95_low_s,ci95_high_s,throughput_Bps,speedup,efficiency,min_s,batch,speedup_ci95_low,speedup_ci95_high,karp_flatt,outliers,peer,items,ops_per_s,p90_s,unit,limit_Bps,limit_ops_per_s,of_limit,limit_by";

/// The results as CSV (header + one line per cell): results.csv.
pub fn csv(summary: &Summary) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for r in &summary.rows {
        let s = &r.stats;
        out.push_str(&format!(
            "{},{},{},{},{},{:e},{:e},{:e},{:e},{:e},{},{},{},{:e},{},{},{},{},{},{},{},{:.6e},{:e},{},{},{},{},{}\n",
            r.workload,
            r.implementation,
            r.threads,
            r.size_bytes,
            s.n,
            s.median,
            s.mean,
            s.stddev,
            s.ci95_low,
            s.ci95_high,
            Sci(r.throughput_bps),
            Num(r.speedup),
            Num(r.efficiency),
            s.min,
            r.batch,
            Num(r.speedup_ci95.0),
            Num(r.speedup_ci95.1),
            r.karp_flatt.map_or(String::new(), |e| format!("{e:.4}")),
            r.outliers,
            r.peer,
            r.items,
            r.ops_per_s,
            s.p90,
            r.unit.name(),
            Sci(r.limit.limit_bps),
            Sci(r.limit.limit_ops_per_s),
            Num(r.limit.of_limit),
            r.limit.limit_by.unwrap_or_default(),
        ));
    }
    out
}

/// A number for the CSV: 4 decimals, or empty where it does not apply (NaN).
struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() {
            write!(f, "{:.4}", self.0)
        } else {
            Ok(())
        }
    }
}

/// As [`Num`], in scientific notation (a throughput).
struct Sci(f64);

impl fmt::Display for Sci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() {
            write!(f, "{:.6e}", self.0)
        } else {
            Ok(())
        }
    }
}
