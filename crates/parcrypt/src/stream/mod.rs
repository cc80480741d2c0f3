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
//! a few segments per thread; any byte range of a file decrypts by reading
//! only its segments. The byte layout, with test vectors: `docs/FORMAT.md`.
//!
//! # Examples
//! ```
//! use parcrypt::par::Parallelism;
//! use parcrypt::stream::{self, Identity, Options, Recipient};
//!
//! let key = [7u8; 32];
//! let mut sealed = Vec::new();
//! stream::encrypt(&[Recipient::Key(key)], &b"hello"[..], &mut sealed, &Options::default(), |_| {})?;
//! let mut plain = Vec::new();
//! stream::decrypt(&Identity::Key(key), &sealed[..], &mut plain, &Parallelism::default(), |_| {})?;
//! assert_eq!(plain, b"hello");
//! # Ok::<(), parcrypt::stream::Error>(())
//! ```

mod buffer;
mod header;

use std::io::{self, Read, Write};

use zeroize::Zeroizing;

use buffer::Buffer;
pub use header::{DEFAULT_SCRYPT_LOG2_N, MAX_SCRYPT_LOG2_N};
use header::{Header, Keys};

use crate::ffi::GcmKey;
use crate::par::{Grain, Parallelism};
use crate::rsa;

/// The GCM tag at the end of every segment.
const TAG: usize = 16;

/// The default segment size: 1 MiB.
pub const DEFAULT_SEGMENT: usize = 1 << 20;

/// The smallest segment size: 4 KiB.
pub const MIN_SEGMENT: usize = 1 << 12;

/// The largest segment size: 1 GiB.
pub const MAX_SEGMENT: usize = 1 << 30;

/// Segments handed to each thread per batch: memory is about
/// `threads × BATCH_PER_THREAD × segment size × 2`.
const BATCH_PER_THREAD: usize = 4;

/// What can go wrong reading or writing a stream.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing failed.
    #[error(transparent)]
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
    Key([u8; 32]),
    /// Whoever knows this passphrase; scrypt with N = 2^log2_n, r = 8, p = 1.
    Passphrase {
        /// The passphrase.
        passphrase: Zeroizing<Vec<u8>>,
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
    Key([u8; 32]),
    /// A passphrase.
    Passphrase(&'a [u8]),
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

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn fill(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
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

/// Encrypts everything `input` yields to `output` for `recipients`; returns
/// the plaintext length. `progress` is called with plaintext bytes done.
///
/// # Errors
/// [`Error::Options`] for no recipients or a bad segment size; I/O errors.
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
    let batch = opts.par.threads.max(1) * BATCH_PER_THREAD;
    let (mut index, mut total) = (0u64, 0u64);
    pipelined(
        input,
        output,
        batch * seg,
        true,
        |plain, data_len, more, sealed| {
            index += seal_segments(
                &keys.payload,
                &plain[..data_len],
                sealed,
                seg,
                index,
                !more,
                &opts.par,
            );
            total += data_len as u64;
            progress(data_len as u64);
            Ok(())
        },
    )?;
    Ok(total)
}

/// [`encrypt`] for a regular file, read through memory maps of a batch at a
/// time: AES-GCM reads the page cache directly, so no `read` copy is made
/// (the copy costs as much CPU as sealing on this kind of machine). Writing
/// overlaps sealing. The file's length when the call starts is what is
/// encrypted.
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
    let batch = (opts.par.threads.max(1) * BATCH_PER_THREAD * seg) as u64;
    with_writer(output, false, |sink| {
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
            index += seal_segments(&keys.payload, plain, &mut sealed, seg, index, last, &opts.par);
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

/// [`decrypt`] for a regular file, read through memory maps: segments are
/// opened straight from the page cache into the output buffer, writing
/// overlapped. Same guarantees as [`decrypt`]: nothing of a segment is
/// written before it verifies.
///
/// # Errors
/// As [`decrypt`].
#[cfg(unix)]
pub fn decrypt_file(
    identity: &Identity<'_>,
    file: &std::fs::File,
    output: impl Write + Send,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let SealedFile {
        keys,
        seg,
        header_len,
        body,
    } = SealedFile::open(identity, file, par)?;
    let enc = (seg + TAG) as u64;
    let batch = (par.threads.max(1) * BATCH_PER_THREAD) as u64 * enc;
    let mut total = 0u64;
    with_writer(output, true, |sink| {
        let (mut offset, mut index) = (0u64, 0u64);
        while offset < body {
            let n = (body - offset).min(batch) as usize;
            let map = crate::mmap::map(file, header_len + offset, n)?;
            let last = offset + n as u64 == body;
            let mut plain = sink.take()?;
            index += open_segments(&keys.payload, &map, &mut plain, seg, index, last, par)?;
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
    fn open(identity: &Identity<'_>, file: &std::fs::File, par: &Parallelism) -> Result<Self, Error> {
        let len = file.metadata()?.len();
        let (header, header_len) = Header::read(&mut io::BufReader::new(At(file, 0)))?;
        let keys = header.open(identity, par)?;
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

/// Runs `work` over the input in batches of `in_size` bytes, with reading
/// and writing overlapped with it: a reader thread fills the next batch and
/// a writer thread drains the previous output while `work` runs. `work` gets
/// the batch, its length, whether more input follows (one byte of look-ahead
/// tells), and an output buffer to fill; an error stops everything before
/// that batch's output is written. `plaintext_in` says which side holds
/// plaintext (the input when encrypting), whose buffers are wiped.
fn pipelined<R: Read + Send, W: Write + Send>(
    mut input: R,
    output: W,
    in_size: usize,
    plaintext_in: bool,
    mut work: impl FnMut(&mut [u8], usize, bool, &mut Buffer) -> Result<(), Error>,
) -> Result<(), Error> {
    use std::sync::mpsc::sync_channel;

    with_writer(output, !plaintext_in, |sink| {
        std::thread::scope(|scope| {
            let (free_tx, free_rx) = sync_channel::<Buffer>(2);
            let (full_tx, full_rx) = sync_channel::<io::Result<(Buffer, usize, bool)>>(1);
            for _ in 0..2 {
                let _ = free_tx.send(Buffer::zeroed(in_size + 1, plaintext_in));
            }
            // Reader: each batch keeps one byte of look-ahead for the next.
            scope.spawn(move || {
                let mut carry: Option<u8> = None;
                while let Ok(mut buf) = free_rx.recv() {
                    let start = usize::from(carry.is_some());
                    if let Some(b) = carry.take() {
                        buf[0] = b;
                    }
                    let read = fill(&mut input, &mut buf[start..]).map(|n| {
                        let got = start + n;
                        let more = got == buf.len();
                        if more {
                            carry = Some(buf[got - 1]);
                        }
                        (got - usize::from(more), more)
                    });
                    let (stop, msg) = match read {
                        Ok((len, more)) => (!more, Ok((buf, len, more))),
                        Err(e) => (true, Err(e)),
                    };
                    if full_tx.send(msg).is_err() || stop {
                        break;
                    }
                }
            });
            // Dropping `full_rx` and `free_tx` on any exit stops the reader.
            loop {
                let (mut buf, len, more) =
                    full_rx.recv().map_err(|_| io::Error::other("reader stopped"))??;
                let mut out = sink.take()?;
                work(&mut buf, len, more, &mut out)?;
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
/// (two buffers circulate, so producing the next overlaps writing the last).
/// The writer's own error (a closed pipe, a full disk) wins over the
/// "writer stopped" it causes in `produce`. `secret`: the buffers carry
/// plaintext (decryption), so they are wiped.
fn with_writer<T>(
    mut output: impl Write + Send,
    secret: bool,
    produce: impl FnOnce(&Sink) -> Result<T, Error>,
) -> Result<T, Error> {
    use std::sync::mpsc::sync_channel;

    std::thread::scope(|scope| {
        let (full_tx, full_rx) = sync_channel::<Buffer>(1);
        let (free_tx, free_rx) = sync_channel::<Buffer>(2);
        for _ in 0..2 {
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
) -> u64 {
    let enc = seg + TAG;
    let count = plain.len().div_ceil(seg).max(1);
    sealed.sized(plain.len() + count * TAG);
    par.for_each_mut(sealed, &grain(enc), |_, offset, part| {
        for (j, out) in part.chunks_mut(enc).enumerate() {
            let i = offset / enc + j;
            let last = final_batch && i + 1 == count;
            let input = &plain[i * seg..(i * seg + out.len() - TAG)];
            let (body, tag_room) = out.split_at_mut(out.len() - TAG);
            tag_room.copy_from_slice(&key.seal_into(&nonce(base + i as u64, last), input, body));
        }
    });
    count as u64
}

/// Opens the sealed segments in `sealed` (stride `seg + TAG`) into `plain`
/// (stride `seg`), sized to hold them, in one pass per segment; returns the
/// number of segments. On failure the error names the first failing
/// segment and `plain` holds nothing of it.
fn open_segments(
    key: &GcmKey,
    sealed: &[u8],
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
    let empty_failure = (plain.len().div_ceil(seg)..count).find_map(|i| {
        let input = &sealed[i * enc..(i * enc + enc).min(sealed.len())];
        let last = final_batch && i + 1 == count;
        let index = base + i as u64;
        let ok = input.len() == TAG && key.open_into(&nonce(index, last), &[], input, &mut []);
        (!ok).then_some((index, false))
    });
    // Each part: its first failing segment (index, truncated), if any.
    let failures = par.map_mut(plain, &grain(seg), |_, offset, part| {
        let mut first = None;
        for (j, out) in part.chunks_mut(seg).enumerate() {
            let i = offset / seg + j;
            let index = base + i as u64;
            let last = final_batch && i + 1 == count;
            let input = &sealed[i * enc..(i * enc + enc).min(sealed.len())];
            let (body, tag) = input.split_at(input.len() - TAG);
            if !key.open_into(&nonce(index, last), body, tag, &mut out[..body.len()]) {
                // The stream's last segment, genuine but sealed as a middle
                // one: the rest of the stream is missing.
                let truncated = last
                    && input.len() == enc
                    && key.open_into(&nonce(index, false), body, tag, &mut out[..body.len()]);
                out.fill(0);
                first = first.or(Some((index, truncated)));
            }
        }
        first
    });
    // Parts are in segment order: the first failure of the first failing
    // part is the stream's first.
    match failures.into_iter().flatten().next().or(empty_failure) {
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
/// [`Error::HeaderAuthentication`], [`Error::Truncated`],
/// [`Error::SegmentAuthentication`], header format errors, I/O errors.
pub fn decrypt(
    identity: &Identity<'_>,
    mut input: impl Read + Send,
    output: impl Write + Send,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let (header, _) = Header::read(&mut input)?;
    let keys = header.open(identity, par)?;
    let seg = header.segment_size;
    let enc = seg + TAG;
    let batch = par.threads.max(1) * BATCH_PER_THREAD;
    let (mut index, mut total) = (0u64, 0u64);
    pipelined(input, output, batch * enc, false, |buf, data_len, more, plain| {
        if data_len == 0 {
            // No segment at all: even an empty stream has one.
            return Err(Error::Truncated {
                segment: index.checked_sub(1),
            });
        }
        index += open_segments(&keys.payload, &buf[..data_len], plain, seg, index, !more, par)?;
        total += plain.len() as u64;
        progress(plain.len() as u64);
        Ok(())
    })?;
    Ok(total)
}

/// Decrypts `len` plaintext bytes from `start` of a stream in a file,
/// reading only the header and the segments holding that range.
///
/// # Errors
/// [`Error::Range`] beyond the end of the plaintext; as [`decrypt`].
#[cfg(unix)]
pub fn decrypt_range(
    identity: &Identity<'_>,
    file: &std::fs::File,
    start: u64,
    len: u64,
    mut output: impl Write,
    par: &Parallelism,
) -> Result<u64, Error> {
    use std::os::unix::fs::FileExt;

    let SealedFile {
        keys,
        seg,
        header_len,
        body,
    } = SealedFile::open(identity, file, par)?;
    let seg = seg as u64;
    let enc = seg + TAG as u64;
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
    let read_len = usize::try_from((last - first) * enc + if last + 1 == segments { last_len } else { enc })
        .map_err(|_| Error::Options("range too large for memory".into()))?;
    let mut buf = vec![0u8; read_len];
    file.read_exact_at(&mut buf, header_len + first * enc)?;
    let mut plain = Buffer::zeroed(0, true);
    open_segments(
        &keys.payload,
        &buf,
        &mut plain,
        seg as usize,
        first,
        last + 1 == segments,
        par,
    )?;
    let from = (start - first * seg) as usize;
    output.write_all(&plain[from..from + len as usize])?;
    output.flush()?;
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
