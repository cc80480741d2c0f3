//! The `stream` file format: authenticated, segmented, seekable encryption
//! of files and pipes, sealed and opened on all cores.
//!
//! A random 32-byte file key is wrapped once per recipient (a raw 32-byte
//! key, a passphrase through scrypt, or an RSA-OAEP public key) in the
//! header; the payload key and the header's MAC key are derived from it by
//! HKDF-SHA256 with the header's random salt. The data is cut into segments
//! (1 MiB by default), each sealed with AES-256-GCM under the nonce
//! `segment counter (88 bits) ‖ last-segment flag`, so truncation,
//! reordering, duplication and splicing are all detected. Segments are
//! sealed and opened in parallel and written in order, in memory bounded by
//! a fixed budget whatever the thread count (64 MiB, or two segments if
//! they are larger); any byte range of a file decrypts by reading only its
//! segments. The byte layout, with test vectors: `docs/FORMAT.md`.
//!
//! # Examples
//! ```
//! use parcrypt::secret::SecretKey;
//! use parcrypt::stream::{self, DecryptOptions, Identity, Options, Recipient};
//!
//! let key = SecretKey::from_slice(&[7u8; 32]).expect("32 bytes");
//! let mut sealed = Vec::new();
//! stream::encrypt(&[Recipient::Key(key.clone())], &b"hello"[..], &mut sealed, &Options::default(), |_| {})?;
//! let mut plain = Vec::new();
//! stream::decrypt(&Identity::Key(key), &sealed[..], &mut plain, &DecryptOptions::default(), |_| {})?;
//! assert_eq!(plain, b"hello");
//! # Ok::<(), parcrypt::stream::Error>(())
//! ```

mod buffer;
mod header;

use std::io::{self, Read, Write};

use buffer::Buffer;
pub use header::{DEFAULT_MAX_WORK_FACTOR, DEFAULT_SCRYPT_LOG2_N, MAX_SCRYPT_LOG2_N};
use header::{Header, Keys};

use crate::ffi::GcmKey;
use crate::par::{Grain, Parallelism};
use crate::rsa;
use crate::secret::{SecretBytes, SecretKey};

/// The GCM tag at the end of every segment.
const TAG: usize = 16;

/// The default segment size: 1 MiB.
pub const DEFAULT_SEGMENT: usize = 1 << 20;

/// The smallest segment size: 4 KiB.
pub const MIN_SEGMENT: usize = 1 << 12;

/// The largest segment size: 1 GiB.
pub const MAX_SEGMENT: usize = 1 << 30;

/// Segments handed to each thread per batch, while the batch fits
/// [`BATCH_BYTES`].
const BATCH_PER_THREAD: usize = 4;

/// The most bytes of sealed segments in one batch, unless one segment is
/// larger. Two input and two output batches circulate, so buffers hold at
/// most 64 MiB whatever the thread count; a segment larger than this is a
/// batch alone, with one buffer on each side (two segments in memory).
const BATCH_BYTES: usize = 16 << 20;

/// What can go wrong reading or writing a stream.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing failed; the [`io::Error`] is the source (so a
    /// caller walking the error chain finds a broken pipe).
    #[error("I/O error")]
    Io(#[from] io::Error),
    /// The input does not start with the format's magic bytes.
    #[error("not a parcrypt stream (no PARCRYPT header)")]
    NotStream,
    /// A version this build does not read.
    #[error("stream format version {0} is not supported (this build reads version 1)")]
    UnsupportedVersion(u8),
    /// The header is cut short or inconsistent.
    #[error("malformed stream header: {0}")]
    MalformedHeader(&'static str),
    /// No recipient stanza opens with the identity given.
    #[error("wrong key or passphrase (no recipient in the header matches)")]
    NoMatchingIdentity,
    /// The header's MAC does not verify: it was modified.
    #[error("the stream header failed authentication (it was modified)")]
    HeaderAuthentication,
    /// The stream ends early: the last segment present was not sealed as
    /// the last one, or no segment follows the header at all.
    #[error("the file is truncated ({})", ends_after(*.segment))]
    Truncated {
        /// The index of the last segment present; `None` when the stream
        /// ends right after its header (even an empty stream has a segment).
        segment: Option<u64>,
    },
    /// A segment does not verify (modified, reordered, spliced, or cut mid-segment at the end).
    #[error("segment {segment} failed authentication (modified, reordered, or truncated)")]
    SegmentAuthentication {
        /// The segment's index.
        segment: u64,
    },
    /// Bad parameters for writing (segment size, passphrase cost, no recipients).
    #[error("invalid options: {0}")]
    Options(String),
    /// The passphrase stanza asks for more scrypt work than the reader
    /// allows ([`DecryptOptions::max_work_factor`]); nothing was computed.
    #[error(
        "the passphrase stanza asks for scrypt work factor {log2_n} (N = 2^{log2_n}), above the limit of {max}"
    )]
    WorkFactor {
        /// log2 of scrypt's N in the header.
        log2_n: u8,
        /// The reader's limit.
        max: u8,
    },
    /// A byte range beyond the end of the plaintext.
    #[error("range {start}+{len} is beyond the end of the plaintext ({total} bytes)")]
    Range {
        /// The first byte asked for.
        start: u64,
        /// How many bytes.
        len: u64,
        /// The plaintext length.
        total: u64,
    },
    /// An RSA operation on a recipient stanza failed unexpectedly.
    #[error("RSA recipient: {0}")]
    Rsa(#[from] rsa::Error),
}

/// Where a truncated stream ends, for [`Error::Truncated`]'s message.
fn ends_after(segment: Option<u64>) -> String {
    match segment {
        Some(s) => format!("it ends after segment {s}"),
        None => "it ends right after the header, before any segment".to_owned(),
    }
}

/// Who can open a stream being written.
#[derive(Debug)]
#[non_exhaustive]
pub enum Recipient<'a> {
    /// Whoever holds this 32-byte key (a key file).
    Key(SecretKey<32>),
    /// Whoever knows this passphrase; scrypt with N = 2^log2_n, r = 8, p = 1.
    /// A passphrase must be a stream's only recipient.
    Passphrase {
        /// The passphrase.
        passphrase: SecretBytes,
        /// The scrypt cost (default [`DEFAULT_SCRYPT_LOG2_N`]).
        log2_n: u8,
    },
    /// The holder of this RSA private key (RSA-OAEP-SHA-256 of the file key).
    Rsa(&'a rsa::PublicKey),
}

/// What opens a stream being read.
#[derive(Debug)]
#[non_exhaustive]
pub enum Identity<'a> {
    /// A 32-byte key.
    Key(SecretKey<32>),
    /// A passphrase.
    Passphrase(SecretBytes),
    /// An RSA private key.
    Rsa(&'a rsa::PrivateKey),
}

/// How a stream is written.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Plaintext bytes per segment: a power of two from 4 KiB to 1 GiB.
    pub segment_size: usize,
    /// Threads and scheduling for sealing segments.
    pub par: Parallelism,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            segment_size: DEFAULT_SEGMENT,
            par: Parallelism::default(),
        }
    }
}

/// How a stream is read.
#[derive(Clone, Copy, Debug)]
pub struct DecryptOptions {
    /// Threads and scheduling for opening segments.
    pub par: Parallelism,
    /// The most scrypt work a passphrase stanza may ask for, as log2 of N
    /// (default [`DEFAULT_MAX_WORK_FACTOR`]); a costlier header is refused
    /// with [`Error::WorkFactor`] before any scrypt work. The header's cost
    /// is chosen by whoever wrote the file, and runs before anything in it
    /// is authenticated.
    pub max_work_factor: u8,
}

impl Default for DecryptOptions {
    fn default() -> Self {
        DecryptOptions::from(Parallelism::default())
    }
}

impl From<Parallelism> for DecryptOptions {
    /// `par`, with the default work-factor limit.
    fn from(par: Parallelism) -> Self {
        DecryptOptions {
            par,
            max_work_factor: DEFAULT_MAX_WORK_FACTOR,
        }
    }
}

/// How the work on a stream is cut, within the memory budget.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Segments per batch.
    batch: usize,
    /// Batch buffers circulating on each side (input, output).
    depth: usize,
}

impl Budget {
    /// For sealed segments of `enc` bytes (a segment and its tag) on
    /// `threads` threads: [`BATCH_PER_THREAD`] segments a thread, within
    /// [`BATCH_BYTES`] a batch.
    fn new(enc: usize, threads: usize) -> Budget {
        let fit = (BATCH_BYTES / enc).max(1);
        Budget {
            batch: threads.saturating_mul(BATCH_PER_THREAD).min(fit),
            depth: if enc > BATCH_BYTES { 1 } else { 2 },
        }
    }

    /// Bytes of a batch of units of `unit` bytes (segments, or segments and
    /// their tags): at most `max(BATCH_BYTES, one sealed segment)`.
    fn bytes(&self, unit: usize) -> Result<usize, Error> {
        self.batch
            .checked_mul(unit)
            .ok_or_else(|| Error::Options("batch size overflows".into()))
    }
}

/// The segment nonce: 88-bit big-endian counter ‖ last flag.
fn nonce(index: u64, last: bool) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[3..11].copy_from_slice(&index.to_be_bytes());
    n[11] = u8::from(last);
    n
}

/// Cuts work into whole encrypted segments, several per part.
fn grain(unit: usize) -> Grain {
    let per = (1usize << 20).div_ceil(unit).max(1) * unit;
    Grain {
        unit,
        min_part: per,
        task: per,
    }
}

/// Encrypts everything `input` yields to `output` for `recipients`; returns
/// the plaintext length. `progress` is called with plaintext bytes done.
///
/// # Errors
/// [`Error::Options`] for no recipients, a passphrase beside other
/// recipients, or a bad segment size; I/O errors.
pub fn encrypt(
    recipients: &[Recipient<'_>],
    input: impl Read + Send,
    mut output: impl Write + Send,
    opts: &Options,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let (header, keys) = Header::seal(recipients, opts.segment_size)?;
    output.write_all(&header)?;
    let seg = opts.segment_size;
    let budget = Budget::new(seg + TAG, opts.par.threads().get());
    let (mut index, mut total) = (0u64, 0u64);
    pipelined(
        input,
        output,
        budget.bytes(seg)?,
        budget.depth,
        true,
        |plain, more, sealed| {
            index += seal_segments(&keys.payload, plain, sealed, seg, index, !more, &opts.par)?;
            total += plain.len() as u64;
            progress(plain.len() as u64);
            Ok(())
        },
    )?;
    Ok(total)
}

/// [`encrypt`] for a regular file, read through memory maps of a batch at a
/// time: AES-GCM reads the page cache directly, so no `read` copy is made
/// (the copy costs as much CPU as sealing on this kind of machine). Writing
/// overlaps sealing. The file's length when the call starts is what is
/// encrypted; a process writing to the file meanwhile changes what is
/// sealed, never the stream's integrity (see `mmap.rs`).
///
/// # Errors
/// As [`encrypt`]. Like every mmap-based tool, a file truncated by another
/// process while it is read raises SIGBUS.
pub fn encrypt_file(
    recipients: &[Recipient<'_>],
    file: &std::fs::File,
    mut output: impl Write + Send,
    opts: &Options,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let len = file.metadata()?.len();
    let (header, keys) = Header::seal(recipients, opts.segment_size)?;
    output.write_all(&header)?;
    let seg = opts.segment_size;
    let budget = Budget::new(seg + TAG, opts.par.threads().get());
    let batch = budget.bytes(seg)? as u64;
    with_writer(output, budget.depth, false, |sink| {
        let (mut offset, mut index) = (0u64, 0u64);
        loop {
            let n = (len - offset).min(batch) as usize;
            let map = if n == 0 {
                None
            } else {
                Some(crate::mmap::map(file, offset, n)?)
            };
            let plain: &[u8] = map.as_deref().unwrap_or(&[]);
            let mut sealed = sink.take()?;
            let last = offset + n as u64 == len;
            index += seal_segments(&keys.payload, plain, &mut sealed, seg, index, last, &opts.par)?;
            sink.send(sealed)?;
            progress(n as u64);
            offset += n as u64;
            if last {
                return Ok(());
            }
        }
    })?;
    Ok(len)
}

/// [`decrypt`] for a regular file. Each worker reads the segments it opens
/// into a private buffer with positional reads (`pread`) and opens them from
/// there: AES-GCM reads its input twice (GHASH, then CTR), so it must never
/// open bytes that another process could change in between, as it could in
/// a shared memory map. Writing overlaps opening. Same guarantees as
/// [`decrypt`]: nothing of a segment is written before it verifies.
///
/// # Errors
/// As [`decrypt`]; an I/O error if the file shrinks while it is read.
#[cfg(unix)]
pub fn decrypt_file(
    identity: &Identity<'_>,
    file: &std::fs::File,
    output: impl Write + Send,
    opts: &DecryptOptions,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let SealedFile {
        keys,
        seg,
        header_len,
        body,
    } = SealedFile::open(identity, file, opts)?;
    let enc = seg + TAG;
    let budget = Budget::new(enc, opts.par.threads().get());
    let batch = budget.bytes(enc)? as u64;
    let scratch = Scratch::default();
    let mut total = 0u64;
    with_writer(output, budget.depth, true, |sink| {
        let (mut offset, mut index) = (0u64, 0u64);
        while offset < body {
            let n = (body - offset).min(batch) as usize;
            let last = offset + n as u64 == body;
            let sealed = Sealed::File {
                file,
                at: header_len + offset,
                len: n,
                scratch: &scratch,
            };
            let mut plain = sink.take()?;
            index += open_segments(&keys.payload, sealed, &mut plain, seg, index, last, &opts.par)?;
            total += plain.len() as u64;
            progress(plain.len() as u64);
            sink.send(plain)?;
            offset += n as u64;
        }
        Ok(())
    })?;
    Ok(total)
}

/// A stream in a regular file, its header read and opened.
#[cfg(unix)]
struct SealedFile {
    keys: Keys,
    /// Plaintext bytes per segment.
    seg: usize,
    header_len: u64,
    /// The bytes after the header: the sealed segments, at least one byte.
    body: u64,
}

#[cfg(unix)]
impl SealedFile {
    /// Reads and opens the header of the stream in `file` with `identity`;
    /// a file that ends with its header is truncated (every stream has a
    /// segment).
    fn open(identity: &Identity<'_>, file: &std::fs::File, opts: &DecryptOptions) -> Result<Self, Error> {
        let len = file.metadata()?.len();
        let (header, header_len) = Header::read(&mut io::BufReader::new(At(file, 0)))?;
        let keys = header.open(identity, opts)?;
        let body = len
            .checked_sub(header_len)
            .ok_or(Error::MalformedHeader("cut short"))?;
        if body == 0 {
            return Err(Error::Truncated { segment: None });
        }
        Ok(SealedFile {
            keys,
            seg: header.segment_size,
            header_len,
            body,
        })
    }
}

/// Reads a file from a position of its own, leaving the file's cursor alone.
#[cfg(unix)]
struct At<'a>(&'a std::fs::File, u64);

#[cfg(unix)]
impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::unix::fs::FileExt;
        let n = self.0.read_at(buf, self.1)?;
        self.1 += n as u64;
        Ok(n)
    }
}

/// Runs `work` over the input in batches of at most `in_size` bytes, with
/// reading and writing overlapped with it: a reader thread fills the next
/// batch and a writer thread drains the previous output while `work` runs;
/// `depth` buffers circulate on each side. `work` gets the batch, whether
/// more input follows (one byte of look-ahead tells), and an output buffer
/// to fill; an error stops everything before that batch's output is
/// written. `plaintext_in` says which side holds plaintext (the input when
/// encrypting), whose buffers are wiped.
fn pipelined<R: Read + Send, W: Write + Send>(
    mut input: R,
    output: W,
    in_size: usize,
    depth: usize,
    plaintext_in: bool,
    mut work: impl FnMut(&[u8], bool, &mut Buffer) -> Result<(), Error>,
) -> Result<(), Error> {
    use std::sync::mpsc::sync_channel;

    let limit = in_size
        .checked_add(1)
        .ok_or_else(|| Error::Options("batch size overflows".into()))?;
    with_writer(output, depth, !plaintext_in, |sink| {
        std::thread::scope(|scope| {
            let (free_tx, free_rx) = sync_channel::<Buffer>(depth);
            let (full_tx, full_rx) = sync_channel::<io::Result<(Buffer, bool)>>(1);
            for _ in 0..depth {
                let _ = free_tx.send(Buffer::new(plaintext_in));
            }
            // Reader: each batch keeps one byte of look-ahead for the next.
            scope.spawn(move || {
                let (mut carry, mut expect) = (None, 0);
                while let Ok(mut buf) = free_rx.recv() {
                    let read = buf.fill_from(&mut input, carry.take(), expect, limit).map(|got| {
                        let more = got == limit;
                        if more {
                            carry = Some(buf[got - 1]);
                            expect = limit;
                        }
                        more
                    });
                    let (stop, msg) = match read {
                        Ok(more) => (!more, Ok((buf, more))),
                        Err(e) => (true, Err(e)),
                    };
                    if full_tx.send(msg).is_err() || stop {
                        break;
                    }
                }
            });
            // Dropping `full_rx` and `free_tx` on any exit stops the reader.
            loop {
                let (buf, more) = full_rx.recv().map_err(|_| io::Error::other("reader stopped"))??;
                let data = &buf[..buf.len() - usize::from(more)];
                let mut out = sink.take()?;
                work(data, more, &mut out)?;
                sink.send(out)?;
                let _ = free_tx.send(buf);
                if !more {
                    return Ok(());
                }
            }
        })
    })
}

/// Empty buffers from, and full buffers to, the writer thread of [`with_writer`].
struct Sink {
    full: std::sync::mpsc::SyncSender<Buffer>,
    free: std::sync::mpsc::Receiver<Buffer>,
}

impl Sink {
    /// A buffer the writer has finished with, still holding what it wrote
    /// (callers overwrite it whole; see [`Buffer::sized`]).
    fn take(&self) -> Result<Buffer, Error> {
        Ok(self.free.recv().map_err(|_| io::Error::other("writer stopped"))?)
    }

    /// Hands `buf` to the writer, in order.
    fn send(&self, buf: Buffer) -> Result<(), Error> {
        Ok(self
            .full
            .send(buf)
            .map_err(|_| io::Error::other("writer stopped"))?)
    }
}

/// Runs `produce` with a writer thread draining what it sends to `output`
/// (`depth` buffers circulate: with two, producing the next overlaps writing
/// the last). The writer's own error (a closed pipe, a full disk) wins over
/// the "writer stopped" it causes in `produce`. `secret`: the buffers carry
/// plaintext (decryption), so they are wiped.
fn with_writer<T>(
    mut output: impl Write + Send,
    depth: usize,
    secret: bool,
    produce: impl FnOnce(&Sink) -> Result<T, Error>,
) -> Result<T, Error> {
    use std::sync::mpsc::sync_channel;

    std::thread::scope(|scope| {
        let (full_tx, full_rx) = sync_channel::<Buffer>(1);
        let (free_tx, free_rx) = sync_channel::<Buffer>(depth);
        for _ in 0..depth {
            let _ = free_tx.send(Buffer::spare(secret));
        }
        let writer = scope.spawn(move || -> io::Result<()> {
            while let Ok(buf) = full_rx.recv() {
                output.write_all(&buf)?;
                if free_tx.send(buf).is_err() {
                    break;
                }
            }
            output.flush()
        });
        let sink = Sink {
            full: full_tx,
            free: free_rx,
        };
        let result = produce(&sink);
        // Close the queue but keep `free` open until the writer is done, so
        // it can finish what is queued.
        let Sink { full, free } = sink;
        drop(full);
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("writer panicked")));
        // The buffers back for the next call (a failing call's too: wiped
        // if they held plaintext).
        for buf in free.try_iter() {
            buf.recycle();
        }
        drop(free);
        written.map_err(Error::Io)?;
        result
    })
}

/// Seals the segments of `plain` (cut every `seg` bytes) into `sealed`,
/// sized to hold them, each followed by its tag, in one pass per segment;
/// the batch's last segment is the stream's last if `final_batch`. Returns
/// the number of segments: an empty batch (only ever an empty stream) is
/// one empty segment.
fn seal_segments(
    key: &GcmKey,
    plain: &[u8],
    sealed: &mut Buffer,
    seg: usize,
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> Result<u64, Error> {
    let enc = seg + TAG;
    let count = plain.len().div_ceil(seg).max(1);
    let len = count
        .checked_mul(TAG)
        .and_then(|tags| tags.checked_add(plain.len()))
        .ok_or_else(|| Error::Options("batch size overflows".into()))?;
    sealed.sized(len);
    par.for_each_mut(sealed, &grain(enc), |_, offset, part| {
        for (j, out) in part.chunks_mut(enc).enumerate() {
            let i = offset / enc + j;
            let last = final_batch && i + 1 == count;
            let input = &plain[i * seg..(i * seg + out.len() - TAG)];
            let (body, tag_room) = out.split_at_mut(out.len() - TAG);
            tag_room.copy_from_slice(&key.seal_into(&nonce(base + i as u64, last), input, body));
        }
    });
    Ok(count as u64)
}

/// Where the sealed segments of a batch come from.
#[derive(Clone, Copy)]
enum Sealed<'a> {
    /// Bytes already in this process's private memory (read from a pipe).
    Memory(&'a [u8]),
    /// `len` bytes of `file` from `at`, read segment by segment into
    /// private buffers from `scratch` by the worker that opens them.
    #[cfg(unix)]
    File {
        file: &'a std::fs::File,
        at: u64,
        len: usize,
        scratch: &'a Scratch,
    },
}

impl Sealed<'_> {
    fn len(&self) -> usize {
        match *self {
            Sealed::Memory(bytes) => bytes.len(),
            #[cfg(unix)]
            Sealed::File { len, .. } => len,
        }
    }

    /// Runs `f` on the stored bytes of segment `i` (stride `enc`), read
    /// into a private buffer first if they are in a file.
    fn with_segment<R>(&self, i: usize, enc: usize, f: impl FnOnce(&[u8]) -> R) -> io::Result<R> {
        let start = i * enc;
        let end = start.saturating_add(enc).min(self.len());
        match *self {
            Sealed::Memory(bytes) => Ok(f(&bytes[start..end])),
            #[cfg(unix)]
            Sealed::File {
                file, at, scratch, ..
            } => {
                use std::os::unix::fs::FileExt;
                let mut buf = scratch.take(end - start);
                let read = file.read_exact_at(&mut buf[..end - start], at + start as u64);
                let result = read.map(|()| f(&buf[..end - start]));
                scratch.give(buf);
                result
            }
        }
    }
}

/// Private buffers for segments read from a file, reused across the
/// workers of one call: at most one per segment being opened at a time, so
/// they never hold more than a batch. They hold only ciphertext.
#[derive(Default)]
struct Scratch(std::sync::Mutex<Vec<Vec<u8>>>);

impl Scratch {
    /// A buffer of at least `len` bytes.
    fn take(&self, len: usize) -> Vec<u8> {
        let mut buf = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        if buf.len() < len {
            buf.resize(len, 0);
        }
        buf
    }

    fn give(&self, buf: Vec<u8>) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(buf);
    }
}

/// Opens the sealed segments of `sealed` (stride `seg + TAG`) into `plain`
/// (stride `seg`), sized to hold them, in one pass per segment; returns the
/// number of segments. On failure the error names the first failing
/// segment and `plain` holds nothing of it.
fn open_segments(
    key: &GcmKey,
    sealed: Sealed<'_>,
    plain: &mut Buffer,
    seg: usize,
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> Result<u64, Error> {
    let enc = seg + TAG;
    let count = sealed.len().div_ceil(enc);
    plain.sized(plain_len(sealed.len(), seg));
    let last_len = sealed.len() - (count.max(1) - 1) * enc;
    if count == 0 || last_len < TAG {
        return Err(Error::SegmentAuthentication {
            segment: base + count.saturating_sub(1) as u64,
        });
    }
    // Segments with no plaintext (an empty stream's only segment, or a
    // forged empty one at the end) have no part of `plain`: check them here.
    // They come after every segment that has plaintext.
    let mut empty_failure = None;
    for i in plain.len().div_ceil(seg)..count {
        let last = final_batch && i + 1 == count;
        let index = base + i as u64;
        let ok = sealed.with_segment(i, enc, |input| {
            input.len() == TAG && key.open_into(&nonce(index, last), &[], input, &mut [])
        })?;
        if !ok {
            empty_failure = empty_failure.or(Some((index, false)));
        }
    }
    // Each part: its first failing segment (index, truncated), if any.
    let failures = par.map_mut(plain, &grain(seg), |_, offset, part| {
        let mut first = None;
        for (j, out) in part.chunks_mut(seg).enumerate() {
            let i = offset / seg + j;
            let index = base + i as u64;
            let last = final_batch && i + 1 == count;
            let opened = sealed.with_segment(i, enc, |input| {
                let (body, tag) = input.split_at(input.len() - TAG);
                let out = &mut out[..body.len()];
                if key.open_into(&nonce(index, last), body, tag, out) {
                    return None;
                }
                // The stream's last segment, genuine but sealed as a middle
                // one: the rest of the stream is missing.
                let truncated =
                    last && input.len() == enc && key.open_into(&nonce(index, false), body, tag, out);
                out.fill(0);
                Some(truncated)
            })?;
            if let Some(truncated) = opened {
                first = first.or(Some((index, truncated)));
            }
        }
        Ok::<_, io::Error>(first)
    });
    // Parts are in segment order: the first failure of the first failing
    // part is the stream's first.
    let mut first = None;
    for part in failures {
        first = first.or(part?);
    }
    match first.or(empty_failure) {
        None => Ok(count as u64),
        Some((segment, true)) => Err(Error::Truncated {
            segment: Some(segment),
        }),
        Some((segment, false)) => Err(Error::SegmentAuthentication { segment }),
    }
}

/// The plaintext length of `sealed_len` bytes of sealed segments (0 if the
/// last is too short to hold a tag, which opening then reports).
fn plain_len(sealed_len: usize, seg: usize) -> usize {
    let enc = seg + TAG;
    let count = sealed_len.div_ceil(enc);
    sealed_len.saturating_sub(count * TAG)
}

/// Decrypts a stream from `input` to `output`; returns the plaintext length.
/// Each segment's plaintext is written only after it verifies; a failure
/// stops before anything of the failing segment is written (callers writing
/// a file should write to a temporary file and keep it only on `Ok`).
///
/// # Errors
/// [`Error::NoMatchingIdentity`] (wrong key or passphrase),
/// [`Error::WorkFactor`] (a passphrase stanza over the limit),
/// [`Error::HeaderAuthentication`], [`Error::Truncated`],
/// [`Error::SegmentAuthentication`], header format errors, I/O errors.
pub fn decrypt(
    identity: &Identity<'_>,
    mut input: impl Read + Send,
    output: impl Write + Send,
    opts: &DecryptOptions,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let (header, _) = Header::read(&mut input)?;
    let keys = header.open(identity, opts)?;
    let seg = header.segment_size;
    let enc = seg + TAG;
    let budget = Budget::new(enc, opts.par.threads().get());
    let (mut index, mut total) = (0u64, 0u64);
    pipelined(
        input,
        output,
        budget.bytes(enc)?,
        budget.depth,
        false,
        |sealed, more, plain| {
            if sealed.is_empty() {
                // No segment at all: even an empty stream has one.
                return Err(Error::Truncated {
                    segment: index.checked_sub(1),
                });
            }
            let sealed = Sealed::Memory(sealed);
            index += open_segments(&keys.payload, sealed, plain, seg, index, !more, &opts.par)?;
            total += plain.len() as u64;
            progress(plain.len() as u64);
            Ok(())
        },
    )?;
    Ok(total)
}

/// Decrypts `len` plaintext bytes from `start` of a stream in a file,
/// reading only the header and the segments holding that range, a batch at
/// a time (memory as for [`decrypt_file`], whatever the range's length).
/// Each batch is written once its segments verified; a failure stops before
/// anything of the failing segment is written.
///
/// # Errors
/// [`Error::Range`] beyond the end of the plaintext; as [`decrypt`].
#[cfg(unix)]
pub fn decrypt_range(
    identity: &Identity<'_>,
    file: &std::fs::File,
    start: u64,
    len: u64,
    output: impl Write + Send,
    opts: &DecryptOptions,
) -> Result<u64, Error> {
    let SealedFile {
        keys,
        seg,
        header_len,
        body,
    } = SealedFile::open(identity, file, opts)?;
    let enc = seg + TAG;
    let budget = Budget::new(enc, opts.par.threads().get());
    let (seg, enc) = (seg as u64, enc as u64);
    let segments = body.div_ceil(enc);
    let last_len = body - (segments - 1) * enc;
    if last_len < TAG as u64 {
        return Err(Error::Truncated {
            segment: Some(segments - 1),
        });
    }
    let total = body - segments * TAG as u64;
    let end = start
        .checked_add(len)
        .filter(|&e| e <= total)
        .ok_or(Error::Range { start, len, total })?;
    if len == 0 {
        return Ok(0);
    }
    let (first, last) = (start / seg, (end - 1) / seg);
    let scratch = Scratch::default();
    with_writer(output, budget.depth, true, |sink| {
        let mut index = first;
        while index <= last {
            let count = (budget.batch as u64).min(last - index + 1);
            let at = index * enc;
            let n = (count * enc).min(body - at) as usize;
            let sealed = Sealed::File {
                file,
                at: header_len + at,
                len: n,
                scratch: &scratch,
            };
            let mut plain = sink.take()?;
            let final_batch = index + count == segments;
            open_segments(
                &keys.payload,
                sealed,
                &mut plain,
                seg as usize,
                index,
                final_batch,
                &opts.par,
            )?;
            // The part of the range in this batch, moved to the front.
            let from = start.saturating_sub(index * seg) as usize;
            let to = (end - index * seg).min(plain.len() as u64) as usize;
            plain.copy_within(from..to, 0);
            plain.sized(to - from);
            sink.send(plain)?;
            index += count;
        }
        Ok(())
    })?;
    Ok(len)
}

fn payload_key(bytes: &[u8; 32]) -> GcmKey {
    GcmKey::new(bytes).expect("a 32-byte AES-256 key")
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Keys")
    }
}
