//! `parcrypt lab compare A B`: what changed between two runs.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::LabError;
use crate::units::human_size;

/// One cell measured in both runs.
#[derive(Debug, Clone)]
pub struct Change {
    /// Workload, implementation, threads, size.
    pub cell: (String, String, u64, u64),
    /// Median seconds in A and in B.
    pub median: (f64, f64),
    /// Whether the change is real: the 95% CIs of the mean are disjoint and
    /// the medians differ by at least [`MIN_CHANGE`].
    pub significant: bool,
}

impl Change {
    /// B's time over A's: above 1 is slower.
    pub fn ratio(&self) -> f64 {
        self.median.1 / self.median.0
    }

    /// Significantly slower in B.
    pub fn is_regression(&self) -> bool {
        self.significant && self.ratio() > 1.0
    }
}

/// The comparison of two runs.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The two results files.
    pub files: (PathBuf, PathBuf),
    /// Cells present in both.
    pub changes: Vec<Change>,
    /// Cells present in only one run.
    pub unmatched: usize,
}

impl Comparison {
    /// Significant slow-downs.
    pub fn regressions(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.is_regression())
    }
}

/// Changes smaller than this (5%) are not reported, even with disjoint CIs:
/// within-run intervals do not capture run-to-run drift on a shared machine.
pub const MIN_CHANGE: f64 = 0.05;

type Cell = ((String, String, u64, u64), (f64, f64, f64));

fn cells(path: &Path) -> Result<Vec<Cell>, LabError> {
    let io = |source| LabError::Io {
        path: path.to_path_buf(),
        source,
    };
    let text = std::fs::read_to_string(path).map_err(io)?;
    let json: Value = serde_json::from_str(&text)
        .map_err(|e| LabError::Config(format!("{} is not a lab results.json: {e}", path.display())))?;
    let rows = json["rows"]
        .as_array()
        .ok_or_else(|| LabError::Config(format!("{} has no \"rows\"", path.display())))?;
    Ok(rows
        .iter()
        .filter(|r| r["peer"].as_bool() != Some(true))
        .filter_map(|r| {
            let key = (
                r["workload"].as_str()?.to_owned(),
                r["impl"].as_str()?.to_owned(),
                r["threads"].as_u64()?,
                r["size_bytes"].as_u64()?,
            );
            let s = &r["stats"];
            Some((
                key,
                (
                    s["median"].as_f64()?,
                    s["ci95_low"].as_f64()?,
                    s["ci95_high"].as_f64()?,
                ),
            ))
        })
        .collect())
}

/// A run directory or its results.json.
fn results_file(p: &Path) -> PathBuf {
    if p.is_dir() {
        p.join("results.json")
    } else {
        p.to_path_buf()
    }
}

/// Compares run `a` (the baseline) with run `b`.
///
/// # Errors
/// [`LabError::Io`] if a file cannot be read, [`LabError::Config`] if it is
/// not a lab results file.
pub fn compare(a: &Path, b: &Path) -> Result<Comparison, LabError> {
    let (fa, fb) = (results_file(a), results_file(b));
    let (ca, cb) = (cells(&fa)?, cells(&fb)?);
    let mut changes = Vec::new();
    for (key, (ma, la, ha)) in &ca {
        if let Some((_, (mb, lb, hb))) = cb.iter().find(|(k, _)| k == key) {
            changes.push(Change {
                cell: key.clone(),
                median: (*ma, *mb),
                significant: (lb > ha || la > hb) && (mb / ma - 1.0).abs() >= MIN_CHANGE,
            });
        }
    }
    let unmatched = ca.len() + cb.len() - 2 * changes.len();
    Ok(Comparison {
        files: (fa, fb),
        changes,
        unmatched,
    })
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "A = {}\nB = {}",
            self.files.0.display(),
            self.files.1.display()
        )?;
        let significant: Vec<&Change> = self.changes.iter().filter(|c| c.significant).collect();
        writeln!(
            f,
            "{} cells in both runs ({} only in one); {} changed beyond their 95% CIs, {} of them slower",
            self.changes.len(),
            self.unmatched,
            significant.len(),
            self.regressions().count()
        )?;
        if !significant.is_empty() {
            writeln!(
                f,
                "{:<10} {:<18} {:>7} {:>8} {:>10} {:>12} {:>12} {:>8}",
                "", "workload", "impl", "threads", "size", "A median s", "B median s", "B/A"
            )?;
        }
        for c in significant {
            let (w, i, t, s) = &c.cell;
            let tag = if c.is_regression() { "REGRESSION" } else { "faster" };
            writeln!(
                f,
                "{tag:<10} {w:<18} {i:>7} {t:>8} {:>10} {:>12.3e} {:>12.3e} {:>7.2}×",
                human_size(*s as usize),
                c.median.0,
                c.median.1,
                c.ratio()
            )?;
        }
        Ok(())
    }
}
