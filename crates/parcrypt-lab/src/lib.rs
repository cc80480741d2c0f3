//! parcrypt's measurement lab: every registered workload × implementation ×
//! thread count × input size, timed with warm-up and repeats, summarized with
//! medians, confidence intervals and speed-ups, and written as CSV, JSON,
//! Markdown, HTML and plots.
//!
//! Algorithms add workloads in [`workloads`]; the runner, statistics and
//! writers are generic.
//!
//! ```no_run
//! let config = parcrypt_lab::LabConfig { quick: true, ..Default::default() };
//! let summary = parcrypt_lab::run(&config)?;
//! println!("{summary}");
//! # Ok::<(), parcrypt_lab::LabError>(())
//! ```
//!
//! # Layers
//! Modules depend one way only, bottom to top (a unit test fails on an
//! import cycle between them):
//!
//! 1. [`units`] (sizes and times for people), [`stats`], [`machine`] and
//!    its [`ceilings`], [`inputs`], `pattern` (`--only`), [`error`]: depend
//!    on nothing in the lab but each other (the machine holds its ceilings);
//! 2. [`model`]: [`Row`], [`Impl`], [`Unit`](model::Unit), [`Summary`] as
//!    plain data with queries;
//! 3. [`peers`]: other tools doing a workload's job (OpenSSL, age), and the
//!    words a workload declares them with; [`roofline`]: the cost models a
//!    workload declares, its limits and predictions;
//! 4. [`workloads`]: the registry, and every workload's name as a constant
//!    ([`workloads::id`]);
//! 5. [`papers`] (the published numbers beside ours), [`analysis`] (Amdahl
//!    fits, crossovers), [`compare`] (two runs);
//! 6. [`runner`]: sweeps, sampling, and the statistics of the samples;
//! 7. [`writers`]: results.csv, results.json, machine.json, summary.md,
//!    report.html, plots and the printed summary, as functions over
//!    [`&Summary`](Summary).

pub mod analysis;
pub mod ceilings;
pub mod compare;
pub mod error;
pub mod inputs;
pub mod machine;
pub mod model;
pub mod papers;
mod pattern;
pub mod peers;
pub mod roofline;
pub mod runner;
pub mod stats;
pub mod units;
pub mod workloads;
pub mod writers;

pub use error::LabError;
pub use machine::Machine;
pub use model::{Impl, Row, Summary};
pub use runner::{
    DEFAULT_BUDGET, DEFAULT_OUT_DIR, DEFAULT_QUICK_BUDGET, LabConfig, TARGET_REL_CI, THREAD_STEPS,
    default_out_dir, default_threads,
};
pub use workloads::DEFAULT_SIZES;

/// Runs the configured study and writes its files into `config.out_dir`.
///
/// # Errors
/// [`LabError::NoMatch`] for a pattern matching nothing, [`LabError::Config`]
/// for empty or zero thread/size lists, [`LabError::Io`] if results cannot be
/// written.
pub fn run(config: &LabConfig) -> Result<Summary, LabError> {
    let mut summary = runner::measure_all(config)?;
    writers::write_all(&mut summary, &config.out_dir)?;
    Ok(summary)
}

/// The lab's layering, checked by the workspace's one checker
/// (`crates/layering`, shared with the library).
#[cfg(test)]
mod layering_tests {
    /// Bottom first: units → model → peers → workloads → runner → writers.
    const LAYERS: [&[&str]; 6] = [
        &[
            "ceilings", "error", "inputs", "machine", "pattern", "stats", "units",
        ],
        &["compare", "model"],
        &["analysis", "peers", "roofline"],
        &["workloads"],
        &["papers", "runner"],
        &["writers"],
    ];

    #[test]
    fn the_labs_modules_import_only_lower_layers() {
        let graph = layering::graph(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
        // The reader sees the modules it must (or the check would pass on nothing).
        assert!(graph["writers"].contains("model"), "{graph:?}");
        assert!(graph["workloads"].contains("peers"), "{graph:?}");
        assert!(graph["papers"].contains("workloads"), "{graph:?}");
        if let Some(cycle) = layering::find_cycle(&graph) {
            panic!("import cycle between the lab's modules: {}", cycle.join(" → "));
        }
        let problems = layering::check_layers(&graph, &LAYERS, &[("machine", "ceilings")]);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
