//! Streaming a reader through a transformation to a writer in bounded memory,
//! with reading, the transformation and writing overlapped.
//!
//! Every streaming cipher in parcrypt (AES modes, RC4, PARC4) implements
//! [`Transform`] and is driven by [`run`], so the pipeline exists once.

use std::io::{self, Read, Write};
use std::ops::Range;
use std::sync::mpsc;

use crate::par::Parallelism;

/// A streaming transformation of bytes.
pub(crate) trait Transform: Send {
    /// The error [`Transform::finish`] can report; I/O errors convert into it.
    type Error: From<io::Error>;

    /// Buffers are cut to multiples of this many bytes, so every buffer but
    /// the last starts at a multiple of it in the stream.
    fn unit(&self) -> usize;

    /// How many of `len` available bytes must wait for more input (at most
    /// [`HEAD`]): a partial block, or a last block whose padding is checked at
    /// the end.
    fn hold_back(&self, len: usize) -> usize;

    /// Transforms ready bytes in place and advances the stream position.
    fn apply(&mut self, data: &mut [u8], par: &Parallelism);

    /// Ends the stream with the held-back `tail`; returns the last output.
    fn finish(self, tail: &[u8]) -> Result<Vec<u8>, Self::Error>;
}

/// Bytes in front of each buffer, where the tail held back from the previous
/// buffer is put back.
pub(crate) const HEAD: usize = 32;
/// Buffers in flight: one being read, one being transformed, one being written.
const PIPELINE: usize = 3;
/// The largest buffer: a larger request is cut down to this, and a unit
/// larger than this is refused, so the pipeline never holds more than
/// [`PIPELINE`] × 256 MiB whatever the caller or the thread count.
pub(crate) const MAX_BUFFER: usize = 256 << 20;

/// The buffer size for units of `unit` bytes and a wish of about `buffer`
/// bytes: whole units, at least one, at most [`MAX_BUFFER`].
///
/// # Errors
/// `InvalidInput` for a unit over [`MAX_BUFFER`].
fn buffer_size(unit: usize, buffer: usize) -> io::Result<usize> {
    if unit > MAX_BUFFER {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a unit of {unit} bytes is over the {MAX_BUFFER}-byte buffer limit"),
        ));
    }
    let units = buffer.max(1).div_ceil(unit).min(MAX_BUFFER / unit).max(1);
    // units ≤ MAX_BUFFER / unit, so this is at most MAX_BUFFER.
    Ok(units * unit)
}

/// Streams `input` through `t` to `output` with buffers of about `buffer`
/// bytes (rounded up to whole units, at most [`MAX_BUFFER`] rounded up) and
/// returns the number of bytes written.
///
/// An input that fits one buffer is handled on the calling thread. A longer
/// one is pipelined: a reader thread fills the next buffer and a writer thread
/// drains the previous one while the current one is transformed.
///
/// # Errors
/// `T::Error` from `t`, or converted from an `io::Error`: reading, writing,
/// or a unit over [`MAX_BUFFER`].
pub(crate) fn run<T: Transform>(
    mut t: T,
    mut input: impl Read + Send,
    mut output: impl Write + Send,
    par: &Parallelism,
    buffer: usize,
    mut progress: impl FnMut(u64),
) -> Result<u64, T::Error> {
    let size = buffer_size(t.unit().max(1), buffer)?;
    let mut first = vec![0u8; HEAD + size];
    let (n, eof) = read_full(&mut input, &mut first[HEAD..])?;
    progress(n as u64);
    let mut tail = Tail::default();
    if eof {
        let range = step(&mut t, &mut first, n, &mut tail, par);
        output.write_all(&first[range.clone()])?;
        let last = t.finish(tail.bytes())?;
        output.write_all(&last)?;
        output.flush()?;
        return Ok((range.len() + last.len()) as u64);
    }
    let mut written = 0u64;
    std::thread::scope(|scope| {
        let (free_tx, free_rx) = mpsc::sync_channel::<Vec<u8>>(PIPELINE);
        let (full_tx, full_rx) = mpsc::sync_channel::<io::Result<(Vec<u8>, usize, bool)>>(1);
        let (out_tx, out_rx) = mpsc::sync_channel::<(Vec<u8>, Range<usize>)>(1);
        for _ in 1..PIPELINE {
            let _ = free_tx.send(vec![0u8; HEAD + size]);
        }
        let _ = full_tx.send(Ok((first, n, false)));
        scope.spawn(move || {
            // Stops when the pipeline is torn down (a send or receive fails).
            while let Ok(mut buf) = free_rx.recv() {
                let read = read_full(&mut input, &mut buf[HEAD..]).map(|(n, eof)| (buf, n, eof));
                let last = !matches!(read, Ok((_, _, false)));
                if full_tx.send(read).is_err() || last {
                    break;
                }
            }
        });
        let writer = scope.spawn(move || -> io::Result<()> {
            for (buf, range) in out_rx {
                output.write_all(&buf[range])?;
                let _ = free_tx.send(buf);
            }
            output.flush()
        });
        let mut read_error = None;
        for (i, read) in full_rx.iter().enumerate() {
            let (mut buf, n, eof) = match read {
                Ok(r) => r,
                Err(e) => {
                    read_error = Some(e);
                    break;
                }
            };
            if i > 0 {
                progress(n as u64);
            }
            let range = step(&mut t, &mut buf, n, &mut tail, par);
            written += range.len() as u64;
            if out_tx.send((buf, range)).is_err() || eof {
                break;
            }
        }
        let finished = match read_error {
            Some(e) => Err(e.into()),
            None => t.finish(tail.bytes()),
        };
        if let Ok(last) = &finished
            && !last.is_empty()
        {
            written += last.len() as u64;
            let _ = out_tx.send((last.clone(), 0..last.len()));
        }
        drop(out_tx);
        drop(full_rx);
        let wrote = writer.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        // A write error explains an early stop better than anything after it.
        wrote?;
        finished?;
        Ok(written)
    })
}

/// Puts `tail` back in front of the `n` bytes read into `buf`, transforms what
/// is ready, keeps the new tail, and returns the range of `buf` to output.
fn step<T: Transform>(
    t: &mut T,
    buf: &mut [u8],
    n: usize,
    tail: &mut Tail,
    par: &Parallelism,
) -> Range<usize> {
    let start = HEAD - tail.len;
    buf[start..HEAD].copy_from_slice(tail.bytes());
    let filled = tail.len + n;
    let ready = filled - t.hold_back(filled);
    t.apply(&mut buf[start..start + ready], par);
    *tail = Tail::from(&buf[start + ready..start + filled]);
    start..start + ready
}

/// Input held back between buffers (at most [`HEAD`] bytes).
#[derive(Default)]
struct Tail {
    buf: [u8; HEAD],
    len: usize,
}

impl Tail {
    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl From<&[u8]> for Tail {
    fn from(b: &[u8]) -> Self {
        assert!(b.len() <= HEAD, "a transform held back more than HEAD bytes");
        let mut t = Tail::default();
        t.buf[..b.len()].copy_from_slice(b);
        t.len = b.len();
        t
    }
}

/// Reads until `buf` is full or the input ends; returns the count and whether
/// the input ended.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<(usize, bool)> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => return Ok((n, true)),
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((n, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_sizes_are_whole_units_and_bounded() {
        assert_eq!(buffer_size(16, 100).ok(), Some(112));
        assert_eq!(buffer_size(4096, 1).ok(), Some(4096));
        assert_eq!(buffer_size(1, usize::MAX).ok(), Some(MAX_BUFFER));
        assert_eq!(buffer_size(MAX_BUFFER, usize::MAX).ok(), Some(MAX_BUFFER));
        let odd = (MAX_BUFFER / 3) + 1;
        assert_eq!(buffer_size(odd, usize::MAX).ok(), Some(2 * odd));
        for unit in [MAX_BUFFER + 1, usize::MAX / 2 + 1, usize::MAX] {
            let err = buffer_size(unit, 1 << 20).expect_err("too large");
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        }
    }
}
