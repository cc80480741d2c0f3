//! Input and output for commands: stdin/stdout by default, files written
//! atomically, progress on a terminal. `input` reads (`-i`, stdin, the
//! regular-file fast path), `output` writes (`-o` atomically, standard
//! output, write failures); what both use is here.

mod input;
mod output;

use std::io::{self, IsTerminal, Write};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub use input::{Input, Source, open_input_file, transfer};
pub use output::{Output, Policy, Released, names_stdout, take_write_failure, write_error};

/// Prints `text` and a newline on standard output, through [`Output`].
pub fn println(text: impl std::fmt::Display) -> Result<()> {
    let mut out = Output::stdout();
    writeln!(out, "{text}")?;
    out.commit()
}

/// A byte-count progress bar on stderr, or nothing when stderr is not a
/// terminal or the work is too small to be worth one (under 64 MiB, well
/// under a second here).
pub fn progress_bar(len: Option<u64>) -> Option<ProgressBar> {
    const WORTH_IT: u64 = 64 << 20;
    if !io::stderr().is_terminal() || len.is_some_and(|n| n < WORTH_IT) {
        return None;
    }
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {binary_bytes_per_sec} ETA {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr()).with_style(style);
    Some(bar)
}
