//! results.json (the whole [`Summary`]) and machine.json.

use serde::Serialize;

use crate::model::Summary;

/// results.json: every row, the analysis, the configuration, the peers'
/// status and the files written.
pub fn results(summary: &Summary) -> Vec<u8> {
    pretty(summary)
}

/// machine.json: the machine and build the run measured.
pub fn machine(summary: &Summary) -> Vec<u8> {
    pretty(&summary.machine)
}

fn pretty<T: Serialize>(value: &T) -> Vec<u8> {
    let mut v = serde_json::to_vec_pretty(value).unwrap_or_default();
    v.push(b'\n');
    v
}
