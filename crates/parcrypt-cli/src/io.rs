//! Input and output for commands: stdin/stdout by default, files written
//! atomically, progress on a terminal.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::error::Hint;

/// Where input comes from: a file, or stdin for `None` and `-`.
pub struct Input {
    reader: Box<dyn Read + Send>,
    /// The size when known (a regular file), for progress bars.
    pub len: Option<u64>,
}

/// The file `-i` names, opened; `None` for stdin (no `-i`, or `-`).
pub fn open_input_file(path: Option<&Path>) -> Result<Option<File>> {
    match path.filter(|p| *p != Path::new("-")) {
        None => Ok(None),
        Some(p) => File::open(p)
            .map(Some)
            .with_context(|| format!("cannot open input {}", p.display()))
            .hint("check the path given to -i"),
    }
}

impl Input {
    pub fn open(path: Option<&Path>) -> Result<Self> {
        let Some(file) = open_input_file(path)? else {
            return Ok(Self::stdin());
        };
        let len = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        Ok(Input {
            reader: Box::new(file),
            len,
        })
    }

    fn stdin() -> Self {
        Input {
            reader: Box::new(io::stdin()),
            len: None,
        }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

/// Where output goes: stdout, or a temporary file beside the target that
/// becomes the target only on [`Output::commit`]. Dropping an uncommitted
/// output removes the temporary file, so a failed command leaves nothing.
///
/// Only regular files (or new paths) are replaced that way: a device, FIFO or
/// socket (`-o /dev/null`, a named pipe) is written directly, since renaming
/// over it would replace the device node itself. A symbolic link is followed,
/// so the file it points to is replaced and the link stays.
pub enum Output {
    Stdout(io::Stdout),
    Special(File),
    File {
        temp: tempfile::NamedTempFile,
        target: PathBuf,
    },
}

impl Output {
    pub fn create(path: Option<&Path>) -> Result<Self> {
        let target = match path {
            None => return Ok(Output::Stdout(io::stdout())),
            Some(p) if p == Path::new("-") => return Ok(Output::Stdout(io::stdout())),
            Some(p) => p,
        };
        if let Ok(meta) = std::fs::metadata(target)
            && !meta.is_file()
            && !meta.is_dir()
        {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(target)
                .with_context(|| format!("cannot open output {}", target.display()))?;
            return Ok(Output::Special(file));
        }
        let resolved;
        let target = match std::fs::symlink_metadata(target) {
            Ok(m) if m.file_type().is_symlink() => {
                resolved = std::fs::canonicalize(target)
                    .with_context(|| format!("cannot follow link {}", target.display()))?;
                resolved.as_path()
            }
            _ => target,
        };
        if target.is_dir() {
            return Err(anyhow::anyhow!("output {} is a directory", target.display()))
                .hint("give -o a file name");
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(anyhow::anyhow!(
                "cannot create output {}: no directory {}",
                target.display(),
                dir.display()
            ))
            .hint("create the directory first, or fix the path given to -o");
        }
        let temp = tempfile::Builder::new()
            .prefix(".parcrypt-")
            .suffix(".tmp")
            .tempfile_in(dir)
            // tempfile names its own random path in the error; the user knows only the target.
            .map_err(without_temp_path)
            .with_context(|| format!("cannot create output {}", target.display()))
            .hint("check that the directory exists and is writable")?;
        Ok(Output::File {
            temp,
            target: target.to_path_buf(),
        })
    }

    /// Makes the output final: flushes stdout, or syncs the temporary file to
    /// disk and renames it over the target.
    pub fn commit(self) -> Result<()> {
        match self {
            Output::Stdout(mut out) => out.flush().context("cannot write to stdout"),
            Output::Special(mut file) => file.flush().context("cannot write output"),
            Output::File { temp, target } => {
                temp.as_file()
                    .sync_all()
                    .with_context(|| format!("cannot write {}", target.display()))
                    .hint("is the disk full?")?;
                temp.persist(&target)
                    .map_err(|e| e.error)
                    .with_context(|| format!("cannot create {}", target.display()))?;
                Ok(())
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(out) => out.write(buf),
            Output::Special(f) => f.write(buf),
            Output::File { temp, .. } => temp.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(out) => out.write_all(buf),
            Output::Special(f) => f.write_all(buf),
            Output::File { temp, .. } => temp.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(out) => out.flush(),
            Output::Special(f) => f.flush(),
            Output::File { temp, .. } => temp.flush(),
        }
    }
}

/// tempfile's errors name its random temporary path, which means nothing to
/// the user: keep only the kind ("permission denied", "storage full", …).
fn without_temp_path(e: io::Error) -> io::Error {
    io::Error::from(e.kind())
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
