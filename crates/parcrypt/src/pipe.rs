//! Streaming a reader through a transformation to a writer in bounded memory,
//! with reading, the transformation and writing overlapped.
//!
//! Every streaming cipher in parcrypt (AES modes, RC4, PARC4) implements
//! [`Transform`] and is driven by [`run`] (or [`run_file`] for a regular
//! file) through the crate's one pipeline ([`crate::io::pipeline`]).
//!
//! Buffers are [`buffer_for`] the thread count unless a caller asks for a
//! size: max(8 MiB, 2 MiB × threads), at most [`MAX_BUFFER`].
//!
//! A buffer holds plaintext on one side of the transform or the other (a
//! keystream cipher cannot tell which), so every buffer, the held-back tail
//! and the last output are wiped with [`crate::secret::wipe`] when dropped:
//! only the bytes they were ever given, not their whole allocation. The
//! second and third buffers are allocated only once the input is longer
//! than one buffer.

use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::{Deref, Range};

use crate::io::{ReadAt, read_exact_at};
use crate::par::{Grain, Parallelism};
use crate::secret::wipe;

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

    /// [`Transform::apply`] to bytes that `fill(offset, part)` writes into
    /// each part of `data` first (a file's positional reads). This default
    /// fills every part, on all threads, then applies; a transform whose
    /// parts are independent (CTR) fills each part on the thread that then
    /// transforms it, while it is in that core's cache.
    ///
    /// # Errors
    /// The first error of `fill` (then `data` is not all transformed).
    fn apply_filled(&mut self, data: &mut [u8], par: &Parallelism, fill: &Fill<'_>) -> io::Result<()> {
        fill_then_apply(self, data, par, fill)
    }

    /// Ends the stream with the held-back `tail`; returns the last output.
    fn finish(self, tail: &[u8]) -> Result<Vec<u8>, Self::Error>;
}

/// [`Transform::apply_filled`]'s default: every part of `data` filled on
/// all threads ([`READ_GRAIN`]), then `t` applied to the whole.
///
/// # Errors
/// The first error of `fill` (then nothing is transformed).
pub(crate) fn fill_then_apply<T: Transform + ?Sized>(
    t: &mut T,
    data: &mut [u8],
    par: &Parallelism,
    fill: &Fill<'_>,
) -> io::Result<()> {
    par.map_mut(data, &READ_GRAIN, |_, offset, part| fill(offset, part))
        .into_iter()
        .collect::<io::Result<()>>()?;
    t.apply(data, par);
    Ok(())
}

/// Writes the input bytes of a part of a buffer, given its offset in the
/// buffer ([`Transform::apply_filled`]).
pub(crate) type Fill<'a> = dyn Fn(usize, &mut [u8]) -> io::Result<()> + Sync + 'a;

/// Bytes in front of each buffer, where the tail held back from the previous
/// buffer is put back.
pub(crate) const HEAD: usize = 32;
/// Buffers in flight: one being read, one being transformed, one being written.
const PIPELINE: usize = 3;
/// The largest buffer: a larger request is cut down to this, and a unit
/// larger than this is refused, so the pipeline never holds more than
/// [`PIPELINE`] × 256 MiB whatever the caller or the thread count.
pub(crate) const MAX_BUFFER: usize = 256 << 20;

/// The smallest buffer [`buffer_for`] picks: what one to four threads need.
pub(crate) const MIN_BUFFER: usize = 8 << 20;
/// Buffer bytes per thread in [`buffer_for`]: two of AES's 1 MiB tasks, so
/// that a buffer has a part for every thread (a thread that finishes early
/// takes another) however many there are.
const PER_THREAD: usize = 2 << 20;

/// The buffer size for streaming on the threads of `par`:
/// max(8 MiB, 2 MiB × threads), at most [`MAX_BUFFER`] (128 threads).
///
/// A fixed 8 MiB cut into 1 MiB tasks gave at most 8 parts: `aes` on a
/// file stopped scaling at 8 of 16 cores (14.8 GB/s on 8 threads, 12.7 on
/// 16). Growing with the threads keeps every one busy while memory stays
/// proportional to the work it feeds (three buffers: 96 MiB for 16 threads).
pub(crate) fn buffer_for(par: &Parallelism) -> usize {
    let threads = if par.is_parallel() { par.threads().get() } else { 1 };
    threads.saturating_mul(PER_THREAD).clamp(MIN_BUFFER, MAX_BUFFER)
}

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
        let last = Batch::last(t.finish(tail.bytes())?);
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
            let last = Batch::last(t.finish(tail.bytes())?);
            if !last.is_empty() {
                written += last.len() as u64;
                sink.send(last)?;
            }
            Ok(written)
        },
    )
}

/// Parts of a buffer read by one thread (see [`run_file`]): large, since a
/// read is a copy, memory-bound; below two of them it stays on the calling
/// thread.
const READ_GRAIN: Grain = Grain {
    unit: 1,
    min_part: 1 << 20,
    task: 1 << 20,
};

/// [`run`] for a regular file, read with positional reads (`pread`) by all
/// threads at once, each into its part of the buffer, instead of by one
/// reader thread, whose copy out of the page cache was the bottleneck
/// (`aes --mode ctr` of 1 GiB took as long on 2 threads as on 1). Each
/// part is read by the thread that transforms it, just before, where the
/// transform's parts are independent (CTR: [`Transform::apply_filled`]);
/// else the buffer is read on all threads, then transformed. A writer
/// thread writes the buffer before while the next one is read.
/// (Copying out of a memory map instead costs a page fault every few pages,
/// and a file truncated meanwhile would raise SIGBUS; `pread` has
/// neither.) `head` (at most [`HEAD`] bytes) is input
/// given before the file's. A regular file is read whole from its start,
/// whatever its cursor (which is not moved); one that is not (a FIFO, a
/// device) is read from its cursor, as by [`run`]. With one thread, a
/// reader thread reading ahead (as in [`run`]) is faster, and is used:
/// measured on 2 vCPUs, 1 GiB of `aes --mode ctr` took 0.148 s that way
/// and 0.195 s reading in turn; on 2 threads, 0.125 s with one reader
/// thread and 0.112 s reading on both (docs/PERFORMANCE.md).
///
/// # Errors
/// As [`run`]; `UnexpectedEof` if the file shrinks while it is read.
pub(crate) fn run_file<T: Transform>(
    t: T,
    head: &[u8],
    file: &File,
    output: impl Write + Send,
    buffer: usize,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, T::Error> {
    run_file_from(t, head, file, 0, output, buffer, par, progress)
}

/// [`run_file`] on a regular file from byte `start` on (past a header the
/// caller has read), the bytes before it ignored; a file shorter than
/// `start` is empty from there. A file that is not regular is read from its
/// cursor, as by [`run_file`], whatever `start` says.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_file_from<T: Transform>(
    mut t: T,
    head: &[u8],
    file: &File,
    start: u64,
    output: impl Write + Send,
    buffer: usize,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, T::Error> {
    let size = buffer_size(t.unit().max(1), buffer)?;
    let meta = file.metadata()?;
    let end = meta.len();
    if !meta.is_file() {
        return run(
            t,
            head.chain(ReadAt::current(file)),
            output,
            buffer,
            par,
            progress,
        );
    }
    let start = start.min(end);
    let len = end - start;
    // One buffer, or one thread: a reader thread reading ahead overlaps the
    // copy with the transform, which is faster on one worker thread.
    if len <= size as u64 || !par.is_parallel() {
        return run(
            t,
            head.chain(ReadAt::exactly(file, start, len)),
            output,
            buffer,
            par,
            progress,
        );
    }
    let mut tail = Tail::from(head);
    // As `run` counts the head, read through its chain.
    if !head.is_empty() {
        progress(head.len() as u64);
    }
    let buffers = (1..PIPELINE).map(|_| Batch::new(size)).collect();
    crate::io::pipeline::with_writer(
        output,
        buffers,
        |sink| {
            let mut written = 0u64;
            let mut at = start;
            while at < end {
                // `end - at` < `size` when it converts to usize.
                let n = usize::try_from(end - at).map_or(size, |rest| rest.min(size));
                let mut batch = sink.take()?;
                // Marked before the reads: whatever arrives is wiped.
                batch.dirty = batch.dirty.max(HEAD + n);
                batch.read = n;
                let read = |offset: usize, part: &mut [u8]| read_exact_at(file, part, at + offset as u64);
                batch.out = step_filled(&mut t, &mut batch.buf, n, &mut tail, par, &read)?;
                at += n as u64;
                progress(n as u64);
                written += batch.out.len() as u64;
                sink.send(batch)?;
            }
            // The last output (at most a few blocks) goes out in one of the
            // circulating buffers: the writer's return queue holds only those.
            let mut last = t.finish(tail.bytes())?;
            if !last.is_empty() {
                let mut batch = sink.take()?;
                batch.dirty = batch.dirty.max(last.len());
                batch.buf[..last.len()].copy_from_slice(&last);
                batch.out = 0..last.len();
                written += last.len() as u64;
                sink.send(batch)?;
            }
            wipe(&mut last);
            Ok(written)
        },
        drop,
    )
}

/// A buffer going round the pipeline: [`HEAD`] bytes of room, then what was
/// read; what to write is the range `out`. Wiped when dropped.
struct Batch {
    buf: Vec<u8>,
    /// Bytes read after the head.
    read: usize,
    out: Range<usize>,
    /// How many leading bytes of `buf` were ever written: the part a wipe
    /// must cover (the rest of a fresh buffer was never touched).
    dirty: usize,
}

impl Batch {
    fn new(size: usize) -> Batch {
        Batch {
            buf: vec![0u8; HEAD + size],
            read: 0,
            out: 0..0,
            dirty: 0,
        }
    }

    /// The transform's last output, to be written whole.
    fn last(buf: Vec<u8>) -> Batch {
        Batch {
            out: 0..buf.len(),
            read: 0,
            dirty: buf.len(),
            buf,
        }
    }

    /// Reads until the buffer is full or the input ends; returns whether
    /// it is full (more input may follow).
    fn fill(&mut self, input: &mut impl Read) -> io::Result<bool> {
        let room = &mut self.buf[HEAD..];
        let full = room.len();
        match crate::io::fill(input, room) {
            Ok(read) => {
                self.read = read;
                self.dirty = self.dirty.max(HEAD + read);
                Ok(read == full)
            }
            Err(e) => {
                // Some bytes may have arrived before the error: how many is
                // not known, so the whole buffer counts.
                self.dirty = self.buf.len();
                Err(e)
            }
        }
    }
}

impl Batch {
    /// Wipes every byte ever written, and only those.
    fn wipe(&mut self) {
        let dirty = self.dirty.min(self.buf.len());
        wipe(&mut self.buf[..dirty]);
        self.dirty = 0;
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        self.wipe();
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

/// [`step`] for `n` bytes not read yet: `read(offset, part)` writes the
/// input's bytes `offset ..` (after the tail) into `part`, for each part
/// of what is ready as it is transformed ([`Transform::apply_filled`]),
/// then for the bytes held back.
///
/// # Errors
/// The first error of `read`.
fn step_filled<T: Transform>(
    t: &mut T,
    buf: &mut [u8],
    n: usize,
    tail: &mut Tail,
    par: &Parallelism,
    read: &Fill<'_>,
) -> io::Result<Range<usize>> {
    let held = tail.len;
    let start = HEAD - held;
    buf[start..HEAD].copy_from_slice(tail.bytes());
    let filled = held + n;
    let ready = filled - t.hold_back(filled);
    // The bytes from `offset` of tail ‖ input: the tail's are in place.
    let fill = |offset: usize, part: &mut [u8]| {
        let skip = held.saturating_sub(offset).min(part.len());
        read((offset + skip).saturating_sub(held), &mut part[skip..])
    };
    t.apply_filled(&mut buf[start..start + ready], par, &fill)?;
    fill(ready, &mut buf[start + ready..start + filled])?;
    *tail = Tail::from(&buf[start + ready..start + filled]);
    Ok(start..start + ready)
}

/// Input held back between buffers (at most [`HEAD`] bytes). Wiped when
/// dropped or replaced.
#[derive(Default)]
struct Tail {
    buf: [u8; HEAD],
    len: usize,
}

impl Drop for Tail {
    fn drop(&mut self) {
        wipe(&mut self.buf[..self.len]);
    }
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

    /// What a batch read, however short or long, and only that, is wiped.
    #[test]
    fn a_batch_wipes_the_bytes_it_was_given_and_no_others() {
        let mut b = Batch::new(64);
        // Bytes never written stay as they are (the marker shows it).
        b.buf.fill(0x33);
        assert!(b.fill(&mut &[0x5a; 10][..]).is_ok_and(|full| !full));
        assert_eq!(b.dirty, HEAD + 10);
        // A full read, then a short one: the mark stays at the full read.
        assert!(b.fill(&mut &[0x5a; 100][..]).is_ok_and(|full| full));
        assert!(b.fill(&mut &[0x5a; 3][..]).is_ok_and(|full| !full));
        assert_eq!((b.read, b.dirty), (3, HEAD + 64));
        b.wipe();
        assert!(b.buf.iter().all(|&x| x == 0), "everything read was wiped");

        let mut short = Batch::new(64);
        short.buf.fill(0x33);
        assert!(short.fill(&mut &[0x5a; 10][..]).is_ok());
        short.wipe();
        assert!(short.buf[..HEAD + 10].iter().all(|&x| x == 0));
        assert!(
            short.buf[HEAD + 10..].iter().all(|&x| x == 0x33),
            "only what was read"
        );

        // The last output is wiped whole.
        let mut last = Batch::last(vec![0x5a; 20]);
        assert_eq!(&last[..], &[0x5a; 20][..]);
        last.wipe();
        assert!(last.buf.iter().all(|&x| x == 0));
    }

    /// A read that fails may have written bytes it never reported: the
    /// whole buffer counts as written.
    #[test]
    fn a_failed_read_marks_the_whole_batch_for_wiping() {
        struct Fails;
        impl Read for Fails {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                buf.fill(0x5a);
                Err(io::Error::other("disk gone"))
            }
        }
        let mut b = Batch::new(64);
        assert!(b.fill(&mut Fails).is_err());
        assert_eq!(b.dirty, HEAD + 64);
        b.wipe();
        assert!(b.buf.iter().all(|&x| x == 0));
    }

    #[test]
    fn buffers_grow_with_the_threads_up_to_the_cap() {
        use crate::par::Strategy;
        assert_eq!(buffer_for(&Parallelism::sequential()), MIN_BUFFER);
        // Threads with the sequential strategy still run one at a time.
        assert_eq!(
            buffer_for(&Parallelism::new(16, Strategy::Sequential)),
            MIN_BUFFER
        );
        for strategy in [Strategy::Static, Strategy::WorkStealing] {
            for (threads, size) in [
                (1, 8),
                (2, 8),
                (4, 8),
                (5, 10),
                (8, 16),
                (16, 32),
                (64, 128),
                (128, 256),
            ] {
                assert_eq!(
                    buffer_for(&Parallelism::new(threads, strategy)),
                    size << 20,
                    "{threads}"
                );
            }
            for threads in [129, 1000, usize::MAX] {
                assert_eq!(
                    buffer_for(&Parallelism::new(threads, strategy)),
                    MAX_BUFFER,
                    "{threads}"
                );
            }
        }
    }

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
