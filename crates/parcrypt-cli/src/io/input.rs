//! Where a command's input comes from: a file, or standard input, handed
//! to the operation as a regular file (read on all threads) or a reader.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use anyhow::{Context, Result};

use super::{Output, Policy, Released, progress_bar};
use crate::cli::InOut;
use crate::error::Hint;

/// Where input comes from: a file, or stdin for `None` and `-`.
pub struct Input {
    reader: Box<dyn Read + Send>,
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
        Ok(Input {
            reader: Box::new(file),
        })
    }

    fn stdin() -> Self {
        Input {
            reader: Box::new(io::stdin()),
        }
    }
}

/// What [`transfer`] hands an operation: a regular file (to map, or to read
/// on all threads at once) or a reader (a pipe, a device, a terminal).
pub enum Source<'a> {
    File(&'a File),
    Reader(&'a mut (dyn Read + Send)),
}

/// Runs `op` from `-i` to `-o` (written atomically, a file there treated as
/// `policy` says) with a progress bar: a regular file (`-i file`, or stdin
/// redirected from a file at its start) as [`Source::File`], so that it can
/// be read in parallel (memory maps, positional reads), any other input as
/// [`Source::Reader`]; `explain` turns the operation's error into the
/// command's, told what the output had let out by then ([`Released`]: a
/// decryption's hint says it).
pub fn transfer<E>(
    io: &InOut,
    policy: Policy,
    op: impl FnOnce(Source<'_>, &mut Output, &mut dyn FnMut(u64)) -> Result<u64, E>,
    explain: impl FnOnce(E, Released) -> anyhow::Error,
) -> Result<()> {
    let file = match open_input_file(io.input.as_deref())? {
        Some(f) => Some(f),
        None => stdin_file(),
    };
    let regular_len = file
        .as_ref()
        .and_then(|f| f.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let mut output = Output::create(io.output.as_deref(), policy)?;
    let bar = progress_bar(regular_len);
    let mut tick = |n| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let result = match (file, regular_len) {
        (Some(f), Some(_)) => op(Source::File(&f), &mut output, &mut tick),
        (Some(mut f), None) => op(Source::Reader(&mut f), &mut output, &mut tick),
        (None, _) => op(Source::Reader(&mut io::stdin()), &mut output, &mut tick),
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Err(e) = result {
        return Err(explain(e, output.released()));
    }
    output.commit()
}

/// Standard input as a file when it is a regular file read from its start
/// (`< file`), so it can be mapped like `-i file`; None otherwise (a pipe,
/// a terminal, a file whose offset something else has moved).
fn stdin_file() -> Option<File> {
    use std::io::Seek;
    use std::os::fd::AsFd;

    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    let mut file = File::from(fd);
    let regular = file.metadata().is_ok_and(|m| m.is_file());
    (regular && file.stream_position().ok() == Some(0)).then_some(file)
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}
