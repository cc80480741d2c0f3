//! results.json (the whole [`Summary`]) and machine.json.

use serde::Serialize;

use crate::model::Summary;

/// results.json: every row, the analysis, the configuration, the peers'
/// status and the files written.
pub fn results(summary: &Summary) -> Vec<u8> {
    pretty(summary)
}

/// machine.json: the machine and build the run measured, its ceilings
/// (`ceilings`), and every workload's one-core rate in this run
/// (`one_core`: the kernels' rates the cost models use).
pub fn machine(summary: &Summary) -> Vec<u8> {
    #[derive(Serialize)]
    struct MachineFile<'a> {
        #[serde(flatten)]
        machine: &'a crate::machine::Machine,
        one_core: &'a [crate::model::OneCore],
    }
    pretty(&MachineFile {
        machine: &summary.machine,
        one_core: &summary.one_core,
    })
}

fn pretty<T: Serialize>(value: &T) -> Vec<u8> {
    let mut v = serde_json::to_vec_pretty(value).unwrap_or_default();
    v.push(b'\n');
    v
}
