//! `parcrypt merkle tiles verify|rebuild DIR`: C2SP tlog-tiles logs on disk.

use std::io::IsTerminal as _;
use std::path::Path;

use anyhow::{Context as _, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use parcrypt::merkle::Error;
use parcrypt::merkle::tiles::{self, Checkpoint, RebuildOptions, base64_hash};
use parcrypt::par::Parallelism;

use crate::cli::TilesCommand;
use crate::error::{Hint, note, warn};
use crate::io::println;

pub fn run(cmd: &TilesCommand, par: &Parallelism) -> Result<()> {
    match cmd {
        TilesCommand::Verify { dir } => verify(dir, par),
        TilesCommand::Rebuild { dir, size, force } => rebuild(dir, *size, *force, par),
    }
}

fn verify(dir: &Path, par: &Parallelism) -> Result<()> {
    // Read once here for the progress bar's length; `verify` reads it again.
    let size = Checkpoint::read(dir).ok().map(|c| c.size);
    let bar = entries_bar(size);
    let result = tiles::verify(dir, par, |n| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let verified = explain(result, dir)?;
    let cp = &verified.checkpoint;
    println(format_args!(
        "verified {} entries, root {} ({})",
        cp.size,
        hex::encode(cp.root),
        base64_hash(&cp.root)
    ))?;
    let signatures = match cp.signatures {
        0 => "carries no signature".to_owned(),
        n => format!("has {n} signature line(s), which were not checked"),
    };
    note(format_args!(
        "the checkpoint of {:?} {signatures}: only its agreement with the entries and tiles was",
        cp.origin
    ));
    Ok(())
}

fn rebuild(dir: &Path, size: Option<u64>, force: bool, par: &Parallelism) -> Result<()> {
    let bar = entries_bar(size);
    let options = RebuildOptions { size, force };
    let result = tiles::rebuild(dir, &options, par, |n| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let rebuilt = explain(result, dir)?;
    println(format_args!(
        "rebuilt {} entries, root {} ({}), {} tiles written",
        rebuilt.size,
        hex::encode(rebuilt.root),
        base64_hash(&rebuilt.root),
        rebuilt.tiles
    ))?;
    // Say whether the (untouched) checkpoint describes what was rebuilt.
    if let Ok(cp) = Checkpoint::read(dir) {
        if cp.size == rebuilt.size && cp.root != rebuilt.root {
            warn(format_args!(
                "the checkpoint gives another root for {} entries: {}",
                cp.size,
                base64_hash(&cp.root)
            ));
        } else if cp.size != rebuilt.size {
            note(format_args!(
                "the checkpoint is for {} entries, not {}; it was left as it is",
                cp.size, rebuilt.size
            ));
        }
    }
    Ok(())
}

/// The library's error with the hint that fits it.
fn explain<T>(result: Result<T, Error>, dir: &Path) -> Result<T> {
    let e = match result {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    let hint = match &e {
        Error::Checkpoint { .. } => {
            "a checkpoint is three lines: origin, tree size in decimal, base64 root hash (c2sp.org/tlog-checkpoint)"
        }
        Error::Missing { size: None, .. } => "is DIR a tlog-tiles log? It needs a `checkpoint` file",
        Error::Missing { .. } => {
            "the log is incomplete, or its checkpoint claims more entries than were written"
        }
        Error::TileHash { .. } | Error::Bundle { .. } | Error::TileLength { .. } => {
            "the log on disk is damaged at the place named; `merkle tiles rebuild --force` rewrites tiles from the entries"
        }
        Error::CheckpointRoot { .. } => {
            "the entries and tiles agree with each other but not with the checkpoint: wrong tree size or root"
        }
        Error::Exists { .. } => "pass --force to replace the existing tiles",
        Error::Layout { .. } => "DIR must hold tile/entries/ (entry bundles)",
        _ => "check the directory and its permissions",
    };
    let what = if matches!(e, Error::Exists { .. }) {
        format!("will not overwrite the tiles of {}", dir.display())
    } else {
        format!("tile log {}", dir.display())
    };
    Err(e).context(what).hint(hint)
}

/// An entry-count progress bar on stderr for logs of a million entries or
/// more, when stderr is a terminal.
fn entries_bar(len: Option<u64>) -> Option<ProgressBar> {
    const WORTH_IT: u64 = 1 << 20;
    if !std::io::stderr().is_terminal() || len.is_some_and(|n| n < WORTH_IT) {
        return None;
    }
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} entries {per_sec} ETA {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    Some(ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr()).with_style(style))
}
