//! Moving bytes between files, pipes and the cryptography, each piece once:
//!
//! - `fill`: the one read loop (retries `EINTR`, stops at a full buffer or
//!   the end of the input);
//! - `pipeline`: the one reader → workers → writer pipeline, in its two
//!   shapes (a batch transformed in place, or an input batch turned into an
//!   output batch) and a writer-only form;
//! - `ReadAt` and `read_exact_at`: the one positional reader (`pread`),
//!   which leaves the file's cursor alone;
//! - [`grow_pipe`]: a larger kernel buffer for a pipe (public: the CLI asks
//!   it for its standard input and output);
//! - `wait_then_block`: a FIFO opened without blocking, read once it has
//!   input (`poll`), without closing it in between;
//! - [`Source`]: where a sealed message is held for random access (memory
//!   or a regular file), the one input of every chunked format's
//!   `decrypt_range`;
//! - [`Input`] and [`sharing`] (`caller.rs`): a caller's buffer, whether
//!   others may write it during a call (then every authenticated
//!   decryption reads it once, through a private copy), and how an input
//!   and an output share memory: the rules both bindings follow.
//!
//! Unix only, like the rest of the crate: positional reads go through
//! `std::os::unix::fs::FileExt`. Nothing maps files: a map of a file
//! another process truncates faults (SIGBUS) when the lost pages are
//! touched, which would kill a Python or Java process embedding the
//! library; positional reads turn that into an error naming the offset,
//! and measured as fast for hashing (`merkle/stream.rs`).

mod at;
mod caller;
mod pipe_size;
pub(crate) mod pipeline;
mod wait;

use std::fs::File;
use std::io::{self, Read};

pub(crate) use at::{ReadAt, read_exact_at, read_exact_vectored_at};
pub use caller::{Input, Sharing, sharing};
pub use pipe_size::grow_pipe;
pub(crate) use wait::wait_then_block;

/// Where a whole sealed message is held, for random access: what every
/// chunked format's `decrypt_range` reads (`stream`, `age`,
/// `cobblestone`). A `&File`, a `&[u8]` or an [`Input`] converts into it,
/// so `decrypt_range(…, &file, …)` and `decrypt_range(…, &bytes[..], …)`
/// both read.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// A whole message in memory nobody writes during the call.
    Bytes(&'a [u8]),
    /// A whole message in memory others may write during the call (see
    /// [`Input::Shared`]): each chunk is read once, into a private copy,
    /// and opened there.
    Shared(&'a [u8]),
    /// A whole message in a regular file, from its first byte (read with
    /// positional reads; the file's cursor is left alone).
    File(&'a File),
}

impl<'a> From<&'a File> for Source<'a> {
    fn from(file: &'a File) -> Self {
        Source::File(file)
    }
}

impl<'a> From<&'a [u8]> for Source<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        Source::Bytes(bytes)
    }
}

impl<'a> From<Input<'a>> for Source<'a> {
    fn from(input: Input<'a>) -> Self {
        match input {
            Input::Private(bytes) => Source::Bytes(bytes),
            Input::Shared(bytes) => Source::Shared(bytes),
        }
    }
}

impl<'a> Source<'a> {
    /// The message in memory as an [`Input`], or else its file.
    pub(crate) fn in_memory(self) -> Result<Input<'a>, &'a File> {
        match self {
            Source::Bytes(bytes) => Ok(Input::Private(bytes)),
            Source::Shared(bytes) => Ok(Input::Shared(bytes)),
            Source::File(file) => Err(file),
        }
    }
}

impl<'a> From<&'a Vec<u8>> for Source<'a> {
    fn from(bytes: &'a Vec<u8>) -> Self {
        Source::Bytes(bytes)
    }
}

/// Reads from `input` until `buf` is full or the input ends, retrying reads
/// interrupted by a signal; returns how many bytes it read (less than
/// `buf.len()` only at the end of the input).
///
/// # Errors
/// The first read error other than `Interrupted`; bytes read before it are
/// in `buf` but not counted.
pub(crate) fn fill(input: &mut (impl Read + ?Sized), buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Yields its bytes a few at a time, with an `EINTR` before each read.
    struct Choppy<'a> {
        data: &'a [u8],
        interrupt: bool,
    }

    impl Read for Choppy<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = buf.len().min(self.data.len()).min(3);
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn fill_retries_interrupts_and_stops_at_full_or_end() {
        let data: Vec<u8> = (0..20).collect();
        let mut input = Choppy {
            data: &data,
            interrupt: false,
        };
        let mut buf = [0u8; 8];
        assert_eq!(fill(&mut input, &mut buf).unwrap(), 8);
        assert_eq!(buf, data[..8]);
        let mut rest = [0u8; 16];
        assert_eq!(fill(&mut input, &mut rest).unwrap(), 12);
        assert_eq!(rest[..12], data[8..]);
        assert_eq!(fill(&mut input, &mut rest).unwrap(), 0);
        assert_eq!(fill(&mut &b"abc"[..], &mut []).unwrap(), 0);
    }

    #[test]
    fn fill_reports_the_first_real_error() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
        }
        let err = fill(&mut Broken, &mut [0u8; 4]).expect_err("broken");
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }
}
