//! Verifying a checksum list on all cores ([`check`]).

use std::io::{self, BufRead, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::super::files::{Fifos, hash_files_with};
use super::super::{Error, Input};
use super::line::{Entry, Parsed, Parser};
use crate::par::Parallelism;

/// The longest line [`check`] reads whole: 16 MiB. A longer one is read
/// through in bounded memory and reported as [`Event::Malformed`]
/// (`sha256sum` holds any line whole; no file name that long can be opened).
pub const MAX_LINE: usize = 16 << 20;

/// Lines verified in one batch at most, and the bytes of names they hold:
/// with [`MAX_LINE`], what bounds [`check`]'s memory (about 32 MiB however
/// long the list).
const BATCH_LINES: usize = 4096;
const BATCH_BYTES: usize = 16 << 20;

/// How [`check`] reads a list.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// A missing file (`ENOENT`) is [`Outcome::Missing`], not unreadable
    /// (`sha256sum --ignore-missing`).
    pub ignore_missing: bool,
    /// The list is standard input: a line naming `-` is malformed, as
    /// `sha256sum` has it (standard input cannot be both).
    pub list_is_stdin: bool,
}

/// What became of one listed file.
#[derive(Debug)]
pub enum Outcome {
    /// Its hash is the one listed.
    Ok,
    /// Its hash differs (`FAILED`).
    Mismatch,
    /// It could not be opened or read, or is a FIFO or a character device
    /// (`FAILED open or read`). Neither is read: nothing guarantees a
    /// FIFO a writer or a device an end (`/dev/zero`, a terminal), and a
    /// checksum list names files.
    Unreadable(Error),
    /// It does not exist, and [`CheckOptions::ignore_missing`] is set.
    Missing,
}

/// One line's result, as [`check`] hands it on, in the list's order.
#[derive(Debug)]
pub enum Event {
    /// Line `line` (counting from 1) is not a checksum line;
    /// `text` is the line (empty when it was longer than [`MAX_LINE`]).
    Malformed {
        /// Its number.
        line: u64,
        /// Its bytes, without the terminator.
        text: Vec<u8>,
    },
    /// A listed file, verified.
    Checked {
        /// The name (unescaped).
        name: Vec<u8>,
        /// What became of it.
        outcome: Outcome,
    },
}

/// Why [`check`] stopped.
#[derive(Debug)]
pub enum CheckError<E> {
    /// Reading the list failed (after the lines before were handed on).
    Read(io::Error),
    /// `each` failed.
    Each(E),
}

/// Verifies every file `list` names, as `sha256sum -c` does, on all of
/// `par`'s threads: lines are read with `parser` (which keeps its state
/// for the next list, as coreutils does), the listed files hashed as
/// [`super::super::hash_files`] hashes them (small files several at once,
/// large tree-format files with every thread), and each line's [`Event`]
/// handed to `each` on the calling thread in the list's order. Blank and
/// comment lines give nothing. `each(None)` means nothing is ready for now
/// (output `each` buffers should be flushed). A line naming `-` is checked
/// against `stdin` (the caller's standard input, or `std::io::empty()`):
/// the library never reads the process's own.
///
/// Memory is bounded whatever the list: lines are read in batches of at
/// most 4096 lines and 16 MiB, each line at most [`MAX_LINE`].
///
/// # Errors
/// [`CheckError::Read`] when reading the list fails; [`CheckError::Each`]
/// with `each`'s first error, after which nothing more is read.
///
/// # Examples
/// ```
/// use parcrypt::merkle::Format;
/// use parcrypt::merkle::sums::{CheckOptions, Event, Outcome, Parser, check};
/// use parcrypt::par::Parallelism;
///
/// let file = std::env::temp_dir().join("sums-check-doc");
/// std::fs::write(&file, b"abc")?;
/// let list = format!(
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  {}\nnot a line\n",
///     file.display()
/// );
/// let mut seen = Vec::new();
/// let mut parser = Parser::new(Format::Sha256, false);
/// let par = Parallelism::default();
/// check(list.as_bytes(), std::io::empty(), &mut parser, CheckOptions::default(), &par, |e| {
///     seen.push(match e {
///         Some(Event::Checked { outcome: Outcome::Ok, .. }) => "OK",
///         Some(Event::Checked { .. }) => "FAILED",
///         Some(Event::Malformed { .. }) => "malformed",
///         None => return Ok(()),
///     });
///     Ok::<(), ()>(())
/// })
/// .unwrap();
/// assert_eq!(seen, ["OK", "malformed"]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn check<E>(
    mut list: impl BufRead,
    mut stdin: impl Read + Send,
    parser: &mut Parser,
    options: CheckOptions,
    par: &Parallelism,
    mut each: impl FnMut(Option<Event>) -> Result<(), E>,
) -> Result<(), CheckError<E>> {
    let delim = if parser.zero() { 0 } else { b'\n' };
    let mut number = 0u64;
    let mut line = Vec::new();
    loop {
        let mut batch = Vec::new();
        let mut bytes = 0;
        let mut failed = None;
        while batch.len() < BATCH_LINES && bytes < BATCH_BYTES {
            match read_line(&mut list, delim, &mut line) {
                Ok(None) => break,
                Ok(Some(whole)) => {
                    number += 1;
                    bytes += line.len().max(64);
                    let parsed = if whole {
                        parser.parse(&line)
                    } else {
                        Parsed::Malformed
                    };
                    let item = match parsed {
                        Parsed::Skip => continue,
                        Parsed::Entry(e) if !(options.list_is_stdin && e.name == b"-") => Item::Entry(e),
                        _ => Item::Malformed(
                            number,
                            if whole {
                                std::mem::take(&mut line)
                            } else {
                                Vec::new()
                            },
                        ),
                    };
                    batch.push(item);
                }
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        if batch.is_empty() && failed.is_none() {
            return Ok(());
        }
        let last = batch.len() < BATCH_LINES && bytes < BATCH_BYTES;
        verify(batch, &mut stdin, options, par, &mut each).map_err(CheckError::Each)?;
        if let Some(e) = failed {
            return Err(CheckError::Read(e));
        }
        if last {
            return Ok(());
        }
    }
}

enum Item {
    Malformed(u64, Vec<u8>),
    Entry(Entry),
}

/// Reads one line into `line` (without `delim`): Some(true) when whole,
/// Some(false) when longer than [`MAX_LINE`] (the rest read and dropped),
/// None at the end of the list. A last line without `delim` counts.
fn read_line(list: &mut impl BufRead, delim: u8, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut whole = true;
    let mut any = false;
    loop {
        let buf = match list.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(whole));
        }
        any = true;
        let (part, used, done) = match buf.iter().position(|&b| b == delim) {
            Some(at) => (&buf[..at], at + 1, true),
            None => (buf, buf.len(), false),
        };
        if whole && line.len() + part.len() <= MAX_LINE {
            line.extend_from_slice(part);
        } else {
            whole = false;
            line.clear();
        }
        list.consume(used);
        if done {
            return Ok(Some(whole));
        }
    }
}

/// Hashes the batch's files, runs of one format at a time, handing each
/// item's event on in order.
fn verify<E>(
    batch: Vec<Item>,
    stdin: &mut (impl Read + Send),
    options: CheckOptions,
    par: &Parallelism,
    each: &mut impl FnMut(Option<Event>) -> Result<(), E>,
) -> Result<(), E> {
    let mut items = batch.into_iter().peekable();
    while items.peek().is_some() {
        // Malformed lines before the run's first file.
        let mut pending = Vec::new();
        let mut run: Vec<Entry> = Vec::new();
        let mut before: Vec<Vec<(u64, Vec<u8>)>> = Vec::new();
        while let Some(item) = items.peek() {
            match item {
                Item::Entry(e) if run.first().is_some_and(|f| f.format != e.format) => break,
                _ => {}
            }
            match items.next() {
                Some(Item::Malformed(n, text)) => pending.push((n, text)),
                Some(Item::Entry(e)) => {
                    before.push(std::mem::take(&mut pending));
                    run.push(e);
                }
                None => break,
            }
        }
        verify_run(run, before, &mut *stdin, options, par, each)?;
        for (line, text) in pending {
            each(Some(Event::Malformed { line, text }))?;
        }
    }
    Ok(())
}

/// Hashes `run`'s files (all of one format), handing each file's event on
/// after the malformed lines `before` it.
fn verify_run<E>(
    run: Vec<Entry>,
    before: Vec<Vec<(u64, Vec<u8>)>>,
    stdin: impl Read + Send,
    options: CheckOptions,
    par: &Parallelism,
    each: &mut impl FnMut(Option<Event>) -> Result<(), E>,
) -> Result<(), E> {
    let Some(format) = run.first().map(|e| e.format) else {
        return Ok(());
    };
    let mut before = before.into_iter();
    let mut wants = Vec::with_capacity(run.len());
    let inputs: Vec<_> = run
        .into_iter()
        .map(|e| {
            wants.push(e.hash);
            if e.name == b"-" {
                Input::Stdin
            } else {
                Input::File(Listed(e.name))
            }
        })
        .collect();
    let mut wants = wants.into_iter();
    hash_files_with(format, inputs.into_iter(), stdin, par, Fifos::Refuse, |done| {
        let Some(done) = done else {
            return each(None);
        };
        for (line, text) in before.next().unwrap_or_default() {
            each(Some(Event::Malformed { line, text }))?;
        }
        let want = wants.next();
        let name = match done.input {
            Input::File(Listed(name)) => name,
            Input::Stdin => b"-".to_vec(),
        };
        let outcome = match done.hash {
            Ok(got) if got.is_some() && got == want => Outcome::Ok,
            Ok(_) => Outcome::Mismatch,
            Err(Error::Io(e)) if options.ignore_missing && e.kind() == io::ErrorKind::NotFound => {
                Outcome::Missing
            }
            Err(e) => Outcome::Unreadable(e),
        };
        each(Some(Event::Checked { name, outcome }))
    })
}

/// A listed file, as [`hash_files_with`] opens it.
struct Listed(Vec<u8>);

impl AsRef<Path> for Listed {
    fn as_ref(&self) -> &Path {
        Path::new(std::ffi::OsStr::from_bytes(&self.0))
    }
}
