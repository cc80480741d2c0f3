//! Streaming a reader through a transformation to a writer in bounded memory,
//! with reading, the transformation and writing overlapped.
//!
//! Every streaming cipher in parcrypt (AES modes, RC4, PARC4) implements
//! [`Transform`] and is driven by [`run`] through the crate's one pipeline
//! ([`crate::io::pipeline`]).

use std::io::{self, Read, Write};
use std::ops::{Deref, Range};

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
/// one goes through [`crate::io::pipeline::in_place`]: a reader thread fills
/// the next buffer and a writer thread drains the previous one while the
/// current one is transformed.
///
/// # Errors
/// `T::Error` from `t`, or converted from an `io::Error`: reading, writing
/// (which wins over anything it caused), or a unit over [`MAX_BUFFER`].
pub(crate) fn run<T: Transform>(
    mut t: T,
    mut input: impl Read + Send,
    mut output: impl Write + Send,
    buffer: usize,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, T::Error> {
    let size = buffer_size(t.unit().max(1), buffer)?;
    let mut first = Batch::new(size);
    let mut more = first.fill(&mut input)?;
    progress(first.read as u64);
    let mut tail = Tail::default();
    if !more {
        let range = step(&mut t, &mut first.buf, first.read, &mut tail, par);
        output.write_all(&first.buf[range.clone()])?;
        let last = t.finish(tail.bytes())?;
        output.write_all(&last)?;
        output.flush()?;
        return Ok((range.len() + last.len()) as u64);
    }
    let spare = (1..PIPELINE).map(|_| Batch::new(size)).collect();
    crate::io::pipeline::in_place(
        input,
        output,
        spare,
        |input, b: &mut Batch| b.fill(input),
        |source, sink| {
            let mut written = 0u64;
            let mut batch = first;
            loop {
                batch.out = step(&mut t, &mut batch.buf, batch.read, &mut tail, par);
                written += batch.out.len() as u64;
                sink.send(batch)?;
                if !more {
                    break;
                }
                (batch, more) = source.next()?;
                progress(batch.read as u64);
            }
            let last = t.finish(tail.bytes())?;
            if !last.is_empty() {
                written += last.len() as u64;
                sink.send(Batch {
                    out: 0..last.len(),
                    read: 0,
                    buf: last,
                })?;
            }
            Ok(written)
        },
    )
}

/// A buffer going round the pipeline: [`HEAD`] bytes of room, then what was
/// read; what to write is the range `out`.
struct Batch {
    buf: Vec<u8>,
    /// Bytes read after the head.
    read: usize,
    out: Range<usize>,
}

impl Batch {
    fn new(size: usize) -> Batch {
        Batch {
            buf: vec![0u8; HEAD + size],
            read: 0,
            out: 0..0,
        }
    }

    /// Reads until the buffer is full or the input ends; returns whether
    /// it is full (more input may follow).
    fn fill(&mut self, input: &mut impl Read) -> io::Result<bool> {
        let room = &mut self.buf[HEAD..];
        self.read = crate::io::fill(input, room)?;
        Ok(self.read == room.len())
    }
}

impl Deref for Batch {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.buf[self.out.clone()]
    }
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
