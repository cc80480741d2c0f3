//! What can stop the lab.

use std::path::PathBuf;

/// What can stop the lab.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LabError {
    /// `--only` matched no workload.
    #[error("--only {pattern:?} matches no workload; available: {available}")]
    NoMatch {
        /// The pattern given.
        pattern: String,
        /// The workload names there are.
        available: String,
    },
    /// A thread count of 0, an empty list, or similar.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// Writing results failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}
