use std::fs::File;
use std::io::{self, Read, Write};

use super::cbc::Cbc;
use super::ctr::{Ctr, add_blocks};
use super::{BLOCK, Error, iv16, padding};
use crate::par::Parallelism;
use crate::secret::{wipe, wipe_vec};

/// The smallest read buffer [`Crypter::process`] uses: 8 MiB, 8 tasks of
/// [`GRAIN`](super::GRAIN), enough for 4 threads; [`buffer_for`] grows it
/// with the threads.
pub const DEFAULT_BUFFER: usize = crate::pipe::MIN_BUFFER;

/// The read buffer [`Crypter::process`] (and every streaming cipher) uses on
/// the threads of `par`: max([`DEFAULT_BUFFER`], 2 MiB × threads), so that
/// each of up to 128 threads gets two 1 MiB parts of every buffer; at most
/// 256 MiB (three buffers are in flight).
pub fn buffer_for(par: &Parallelism) -> usize {
    crate::pipe::buffer_for(par)
}

/// Incremental AES encryption or decryption in ECB, CBC or CTR mode, with the
/// exact semantics of `openssl enc -aes-*-{ecb,cbc,ctr} -K … -iv …`: PKCS#7
/// padding unless disabled, the CTR counter advanced over all 128 bits.
///
/// Feed it with [`Crypter::update`] and end with [`Crypter::finish`], or hand
/// it a reader and a writer with [`Crypter::process`]. Only whole blocks are
/// processed as they arrive; up to one block (padded decryption: up to two) is
/// held back until more input or the end.
///
/// Safe constructors here give CBC with padding and CTR; ECB and unpadded CBC
/// come from [`crate::hazmat`].
///
/// # Examples
/// ```
/// use parcrypt::{aes::Crypter, par::Parallelism};
/// let par = Parallelism::default();
/// let (key, iv) = ([9u8; 32], [0u8; 16]);
/// let mut enc = Crypter::cbc_encrypt(&key, &iv)?;
/// let mut ct = enc.update(b"hello, ", &par);
/// ct.extend(enc.update(b"world", &par));
/// ct.extend(enc.finish()?);
/// let mut pt = Vec::new();
/// Crypter::cbc_decrypt(&key, &iv)?.process(&ct[..], &mut pt, &par)?;
/// assert_eq!(pt, b"hello, world");
/// # Ok::<(), parcrypt::aes::Error>(())
/// ```
///
/// `Debug` shows the mode and how many bytes are held back, never the key
/// or the held-back bytes (which may be plaintext); those are wiped on drop.
pub struct Crypter {
    engine: Engine,
    padded: bool,
    /// Input not yet processed: fewer than one block, or the held-back last
    /// block of a padded decryption.
    pending: Vec<u8>,
}

/// A mode with no chaining state, every block transformed on its own, that
/// lives above this module (hazmat's ECB): [`Crypter`] streams it through
/// [`Crypter::block_mode`] without importing it.
pub(crate) trait BlockMode: Send + Sync {
    /// The mode and direction, for `Debug` (`"ecb-encrypt"`).
    fn name(&self, encrypt: bool) -> &'static str;
    /// Encrypts whole blocks in place.
    fn encrypt_blocks(&self, data: &mut [u8], par: &Parallelism);
    /// Decrypts whole blocks in place.
    fn decrypt_blocks(&self, data: &mut [u8], par: &Parallelism);
}

enum Engine {
    Blocks { mode: Box<dyn BlockMode>, encrypt: bool },
    CbcEncrypt(Cbc, [u8; BLOCK]),
    CbcDecrypt(Cbc, [u8; BLOCK]),
    Ctr(Ctr, [u8; BLOCK]),
}

impl Engine {
    /// The mode and direction, for `Debug`.
    fn name(&self) -> &'static str {
        match self {
            Engine::Blocks { mode, encrypt } => mode.name(*encrypt),
            Engine::CbcEncrypt(..) => "cbc-encrypt",
            Engine::CbcDecrypt(..) => "cbc-decrypt",
            Engine::Ctr(..) => "ctr",
        }
    }
}

impl std::fmt::Debug for Crypter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Crypter")
            .field("mode", &self.engine.name())
            .field("padded", &self.padded)
            .field("pending_len", &self.pending.len())
            .finish_non_exhaustive()
    }
}

impl Drop for Crypter {
    fn drop(&mut self) {
        wipe_vec(&mut self.pending);
    }
}

impl Crypter {
    /// CBC encryption with PKCS#7 padding.
    ///
    /// # Errors
    /// [`Error::KeyLength`], [`Error::IvLength`].
    pub fn cbc_encrypt(key: &[u8], iv: &[u8]) -> Result<Self, Error> {
        Self::cbc(key, iv, true, true)
    }

    /// CBC decryption with PKCS#7 padding.
    ///
    /// # Errors
    /// [`Error::KeyLength`], [`Error::IvLength`].
    pub fn cbc_decrypt(key: &[u8], iv: &[u8]) -> Result<Self, Error> {
        Self::cbc(key, iv, false, true)
    }

    /// CTR mode (encryption and decryption are the same); `counter` is the
    /// 16-byte initial counter block.
    ///
    /// # Errors
    /// [`Error::KeyLength`], [`Error::IvLength`].
    pub fn ctr(key: &[u8], counter: &[u8]) -> Result<Self, Error> {
        let counter = iv16(counter)?;
        Ok(Self::new(Engine::Ctr(Ctr::new(key)?, counter), false))
    }

    pub(crate) fn cbc(key: &[u8], iv: &[u8], encrypt: bool, padded: bool) -> Result<Self, Error> {
        let iv = iv16(iv)?;
        let cbc = Cbc::new(key)?;
        let engine = if encrypt {
            Engine::CbcEncrypt(cbc, iv)
        } else {
            Engine::CbcDecrypt(cbc, iv)
        };
        Ok(Self::new(engine, padded))
    }

    /// A crypter over a stateless whole-block `mode` (hazmat's ECB),
    /// PKCS#7-padded if `padded`.
    pub(crate) fn block_mode(mode: Box<dyn BlockMode>, encrypt: bool, padded: bool) -> Self {
        Self::new(Engine::Blocks { mode, encrypt }, padded)
    }

    fn new(engine: Engine, padded: bool) -> Self {
        Crypter {
            engine,
            padded,
            pending: Vec::with_capacity(2 * BLOCK),
        }
    }

    fn is_padded_decryption(&self) -> bool {
        self.padded
            && matches!(
                self.engine,
                Engine::Blocks { encrypt: false, .. } | Engine::CbcDecrypt(..)
            )
    }

    /// How many of `len` available bytes must wait for more input.
    fn hold_back(&self, len: usize) -> usize {
        match len % BLOCK {
            // The last block of a padded decryption is only unpadded at the end.
            0 if self.is_padded_decryption() => len.min(BLOCK),
            partial => partial,
        }
    }

    /// Transforms whole blocks in place and advances the chaining state.
    fn blocks(&mut self, data: &mut [u8], par: &Parallelism) {
        debug_assert!(data.len() % BLOCK == 0);
        match &mut self.engine {
            Engine::Blocks { mode, encrypt: true } => mode.encrypt_blocks(data, par),
            Engine::Blocks { mode, encrypt: false } => mode.decrypt_blocks(data, par),
            Engine::CbcEncrypt(cbc, iv) => cbc.encrypt_blocks(iv, data),
            Engine::CbcDecrypt(cbc, iv) => cbc.decrypt_blocks(iv, data, par),
            Engine::Ctr(ctr, counter) => {
                ctr.apply_keystream_in_place(counter, data, par);
                *counter = add_blocks(counter, (data.len() / BLOCK) as u128);
            }
        }
    }

    /// Processes `input` and returns whatever output is ready: whole
    /// blocks, less what must wait for more input ([`Crypter::update_len`]
    /// bytes).
    ///
    /// A plain `Vec`, in either direction: a `Crypter` is one type for
    /// both, and the `openssl enc`-style stream it serves writes each piece
    /// out at once. Decrypting into a buffer of your own that you wipe
    /// (`SecretBytes::zeroed`) is [`Crypter::update_into`]; the one-shot
    /// decryptions (`Cbc::decrypt`, the formats' `decrypt`) return
    /// [`SecretBytes`](crate::secret::SecretBytes).
    pub fn update(&mut self, input: &[u8], par: &Parallelism) -> Vec<u8> {
        let mut output = Vec::with_capacity(self.pending.len() + input.len());
        output.extend_from_slice(&self.pending);
        output.extend_from_slice(input);
        let ready = output.len() - self.hold_back(output.len());
        self.pending.clear();
        self.pending.extend_from_slice(&output[ready..]);
        // The held-back input is not left behind in `output`'s spare room.
        wipe(&mut output[ready..]);
        output.truncate(ready);
        self.blocks(&mut output, par);
        output
    }

    /// How many bytes [`Crypter::update`] or [`Crypter::update_into`] would
    /// output for `input_len` more bytes of input: the bytes held back from
    /// earlier calls plus the input, less what must wait (a partial block;
    /// for padded decryption, the last block). At most `input_len + 15`.
    pub fn update_len(&self, input_len: usize) -> usize {
        let total = self.pending.len() + input_len;
        total - self.hold_back(total)
    }

    /// [`Crypter::update`] into a caller's buffer, without an intermediate
    /// copy: writes [`Crypter::update_len`]`(input.len())` bytes at the start
    /// of `output` and returns that count.
    ///
    /// # Errors
    /// [`Error::OutputTooSmall`] if `output` is shorter than that; nothing
    /// is consumed then.
    pub fn update_into(
        &mut self,
        input: &[u8],
        output: &mut [u8],
        par: &Parallelism,
    ) -> Result<usize, Error> {
        let ready = self.update_len(input.len());
        if output.len() < ready {
            return Err(Error::OutputTooSmall {
                need: ready,
                have: output.len(),
            });
        }
        // The output is the first `ready` bytes of pending ‖ input; the rest waits.
        let from_pending = ready.min(self.pending.len());
        let from_input = ready - from_pending;
        let (head, body) = (&self.pending[..from_pending], &input[..from_input]);
        let out = &mut output[..ready];
        if let Engine::Ctr(ctr, counter) = &mut self.engine {
            if head.is_empty() {
                // Straight from the input, no copy first.
                ctr.apply_keystream_into(counter, body, out, par);
            } else {
                // Copied part by part by the threads that encrypt it.
                ctr.apply_keystream_filled(counter, out, par, |offset, part| {
                    copy_from_concat(head, body, offset, part);
                });
            }
            *counter = add_blocks(counter, (ready / BLOCK) as u128);
        } else {
            out[..from_pending].copy_from_slice(head);
            out[from_pending..].copy_from_slice(body);
            self.blocks(out, par);
        }
        let mut rest = Vec::with_capacity(2 * BLOCK);
        rest.extend_from_slice(&self.pending[from_pending..]);
        rest.extend_from_slice(&input[from_input..]);
        let mut old = std::mem::replace(&mut self.pending, rest);
        wipe_vec(&mut old);
        Ok(ready)
    }

    /// Ends the message and returns the last output (padding added or
    /// checked).
    ///
    /// # Errors
    /// [`Error::NotBlockAligned`] if unpadded ECB/CBC input, or any ECB/CBC
    /// ciphertext, was not whole blocks; [`Error::Decrypt`] if the padding of a
    /// decrypted message is wrong (or the ciphertext was empty).
    pub fn finish(mut self) -> Result<Vec<u8>, Error> {
        let mut tail = std::mem::take(&mut self.pending);
        let mut output = Vec::new();
        let result = self.finish_tail(&mut tail, &mut output);
        // Plaintext on one side or the other, whatever happened.
        wipe_vec(&mut tail);
        result.map(|()| output)
    }

    /// [`Crypter::finish`] on the held-back `tail`, which the caller wipes.
    fn finish_tail(&mut self, tail: &mut Vec<u8>, output: &mut Vec<u8>) -> Result<(), Error> {
        let seq = Parallelism::sequential();
        match &mut self.engine {
            Engine::Ctr(ctr, counter) => {
                ctr.apply_keystream_in_place(counter, tail, &seq);
                output.extend_from_slice(tail);
                return Ok(());
            }
            Engine::Blocks { encrypt: true, .. } | Engine::CbcEncrypt(..) if self.padded => {
                let mut unpadded = std::mem::replace(tail, padding::pad(tail));
                wipe_vec(&mut unpadded);
            }
            _ => {}
        }
        if tail.len() % BLOCK != 0 {
            return Err(Error::NotBlockAligned);
        }
        self.blocks(tail, &seq);
        let keep = if self.is_padded_decryption() {
            padding::unpadded_len(tail).ok_or(Error::Decrypt)?
        } else {
            tail.len()
        };
        output.extend_from_slice(&tail[..keep]);
        Ok(())
    }

    /// Streams `input` to `output` through this crypter in bounded memory
    /// (three buffers of [`buffer_for`]`(par)`) and ends the message. Returns the
    /// number of bytes written.
    ///
    /// Inputs longer than one buffer are pipelined: a reader thread fills the
    /// next buffer and a writer thread drains the previous one while the
    /// current one is encrypted, so I/O overlaps the cipher.
    ///
    /// Whatever was processed before an error has already been written: for a
    /// CBC/ECB decryption with bad padding, all but the last block. Callers
    /// writing files should write to a temporary file and keep it only on
    /// success (the CLI does).
    ///
    /// # Errors
    /// As [`Crypter::finish`], plus [`Error::Io`] from the reader or writer.
    pub fn process(
        self,
        input: impl Read + Send,
        output: impl Write + Send,
        par: &Parallelism,
    ) -> Result<u64, Error> {
        self.process_with(input, output, buffer_for(par), par, |_| {})
    }

    /// [`Crypter::process`] with a chosen buffer size (rounded up to whole
    /// blocks, at least two) and a callback told of each chunk of input read
    /// (for progress bars).
    ///
    /// # Errors
    /// As [`Crypter::process`].
    pub fn process_with(
        self,
        input: impl Read + Send,
        output: impl Write + Send,
        buffer: usize,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        self.with_pending(|c, pending| {
            crate::pipe::run(c, pending.chain(input), output, buffer, par, progress)
        })
    }

    /// [`Crypter::process_with`] for an open file: a regular file is read
    /// whole from its start (its cursor is neither used nor moved), each
    /// buffer read by all threads at once with positional reads instead of
    /// by one `read` loop (which bounded `aes --mode ctr` at the speed of
    /// one core's copy); other files are read as by
    /// [`Crypter::process_with`].
    ///
    /// # Errors
    /// As [`Crypter::process`]; `UnexpectedEof` if the file shrinks while it
    /// is read.
    pub fn process_file_with(
        self,
        file: &File,
        output: impl Write + Send,
        buffer: usize,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        self.process_file_from_with(file, 0, output, buffer, par, progress)
    }

    /// [`Crypter::process_file_with`] from byte `start` of a regular file
    /// on: the bytes before it (a header the caller read, such as `openssl
    /// enc`'s 16-byte `Salted__` and salt) are not part of the message.
    /// Read with every thread at once, as `process_file_with` reads; a file
    /// that is not regular is read from its cursor, whatever `start` says.
    ///
    /// # Errors
    /// As [`Crypter::process_file_with`].
    pub fn process_file_from_with(
        self,
        file: &File,
        start: u64,
        output: impl Write + Send,
        buffer: usize,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        self.with_pending(|c, pending| {
            crate::pipe::run_file_from(c, pending, file, start, output, buffer, par, progress)
        })
    }

    /// Runs `run` on this crypter and the input given to `update` but not
    /// yet processed (which goes first), wiping that input afterwards.
    fn with_pending<R>(mut self, run: impl FnOnce(Self, &[u8]) -> R) -> R {
        let mut pending = std::mem::take(&mut self.pending);
        let result = run(self, &pending);
        wipe_vec(&mut pending);
        result
    }
}

impl crate::pipe::Transform for Crypter {
    type Error = Error;

    fn unit(&self) -> usize {
        BLOCK
    }

    fn hold_back(&self, len: usize) -> usize {
        Crypter::hold_back(self, len)
    }

    fn apply(&mut self, data: &mut [u8], par: &Parallelism) {
        self.blocks(data, par);
    }

    /// CTR fills each part on the thread that encrypts it, just before
    /// (one pass over the part while it is in that core's cache); the other
    /// modes fill everything first.
    fn apply_filled(
        &mut self,
        data: &mut [u8],
        par: &Parallelism,
        fill: &crate::pipe::Fill<'_>,
    ) -> io::Result<()> {
        let Engine::Ctr(ctr, counter) = &mut self.engine else {
            return crate::pipe::fill_then_apply(self, data, par, fill);
        };
        let failed = std::sync::Mutex::new(None);
        ctr.apply_keystream_filled(counter, data, par, |offset, part| {
            if let Err(e) = fill(offset, part) {
                failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .get_or_insert(e);
            }
        });
        *counter = add_blocks(counter, (data.len() / BLOCK) as u128);
        match failed
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn finish(mut self, tail: &[u8]) -> Result<Vec<u8>, Error> {
        self.pending = tail.to_vec();
        Crypter::finish(self)
    }
}

/// Copies bytes `offset .. offset + part.len()` of `head ‖ tail` into `part`.
fn copy_from_concat(head: &[u8], tail: &[u8], offset: usize, part: &mut [u8]) {
    let from_head = head.len().saturating_sub(offset).min(part.len());
    let (first, second) = part.split_at_mut(from_head);
    first.copy_from_slice(&head[offset.min(head.len())..][..from_head]);
    let start = (offset + from_head).saturating_sub(head.len());
    second.copy_from_slice(&tail[start..start + second.len()]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::Strategy;

    #[test]
    fn copy_from_concat_reads_across_the_seam() {
        let (head, tail) = (b"abc", b"defgh");
        for offset in 0..8 {
            for len in 0..=8 - offset {
                let mut part = vec![0; len];
                copy_from_concat(head, tail, offset, &mut part);
                assert_eq!(part, b"abcdefgh"[offset..offset + len], "{offset} {len}");
            }
        }
    }

    /// CTR's `update_into` (whose copy runs inside the parallel parts) gives
    /// the sequential `update`'s bytes under every schedule, with bytes
    /// pending from an earlier call or not, across the parallel threshold.
    #[test]
    fn ctr_update_into_equals_update_under_every_schedule() {
        let (key, iv) = ([3u8; 32], [0xfe; 16]);
        let data: Vec<u8> = (0..(5 << 20) + 21).map(|i| (i % 251) as u8).collect();
        let seq = Parallelism::sequential();
        let schedules = [
            seq,
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(3, Strategy::Static),
            Parallelism::new(2, Strategy::WorkStealing),
            Parallelism::new(4, Strategy::WorkStealing),
        ];
        for cut in [0usize, 5, 16, (2 << 20) + 3] {
            let mut a = Crypter::ctr(&key, &iv).expect("key");
            let mut want = a.update(&data[..cut], &seq);
            want.extend(a.update(&data[cut..], &seq));
            want.extend(a.finish().expect("ctr"));
            for par in &schedules {
                let mut b = Crypter::ctr(&key, &iv).expect("key");
                let mut got = vec![0u8; data.len() + 2 * BLOCK];
                let n = b.update_into(&data[..cut], &mut got, par).expect("room");
                let m = b.update_into(&data[cut..], &mut got[n..], par).expect("room");
                let tail = b.finish().expect("ctr");
                got.truncate(n + m);
                got.extend_from_slice(&tail);
                assert!(got == want, "cut at {cut}, {par:?}");
            }
        }
    }

    /// `update_into` gives what `update` gives, for every engine, padding and
    /// cut of the input, and refuses a short buffer without consuming.
    #[test]
    fn update_into_equals_update() {
        let key = [7u8; 32];
        let iv = [9u8; 16];
        let data: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        type Make = fn(&[u8], &[u8]) -> Crypter;
        let makers: [(&str, Make); 5] = [
            ("ctr", |k, iv| Crypter::ctr(k, iv).expect("key")),
            ("cbc-enc", |k, iv| Crypter::cbc_encrypt(k, iv).expect("key")),
            ("cbc-dec", |k, iv| Crypter::cbc_decrypt(k, iv).expect("key")),
            ("cbc-enc-nopad", |k, iv| {
                Crypter::cbc(k, iv, true, false).expect("key")
            }),
            ("cbc-dec-nopad", |k, iv| {
                Crypter::cbc(k, iv, false, false).expect("key")
            }),
        ];
        let seq = Parallelism::sequential();
        for (name, make) in makers {
            for cut in [0usize, 1, 15, 16, 17, 31, 32, 33, 500, 999] {
                let (mut a, mut b) = (make(&key, &iv), make(&key, &iv));
                let (mut out_a, mut out_b) = (Vec::new(), Vec::new());
                for piece in [&data[..cut], &data[cut..]] {
                    out_a.extend(a.update(piece, &seq));
                    let mut buf = vec![0u8; piece.len() + BLOCK - 1];
                    if b.update_len(piece.len()) > 0 {
                        let short = b.update_len(piece.len()) - 1;
                        assert!(matches!(
                            b.update_into(piece, &mut buf[..short], &seq),
                            Err(Error::OutputTooSmall { .. })
                        ));
                    }
                    let n = b.update_into(piece, &mut buf, &seq).expect("room");
                    out_b.extend_from_slice(&buf[..n]);
                }
                assert_eq!(out_a, out_b, "{name} cut at {cut}");
                let (ra, rb) = (a.finish(), b.finish());
                assert_eq!(ra.is_ok(), rb.is_ok(), "{name} cut at {cut}");
                out_a.extend(ra.unwrap_or_default());
                out_b.extend(rb.unwrap_or_default());
                assert_eq!(out_a, out_b, "{name} cut at {cut}");
            }
        }
    }

    /// A crypter that records how many parts each buffer it is given is
    /// cut into (the cut its own `blocks` makes: `par.plan(len, &GRAIN)`).
    struct Counting<'a> {
        inner: Crypter,
        parts: &'a mut Vec<(usize, usize)>,
    }

    impl crate::pipe::Transform for Counting<'_> {
        type Error = Error;
        fn unit(&self) -> usize {
            crate::pipe::Transform::unit(&self.inner)
        }
        fn hold_back(&self, len: usize) -> usize {
            crate::pipe::Transform::hold_back(&self.inner, len)
        }
        fn apply(&mut self, data: &mut [u8], par: &Parallelism) {
            let parts = par.plan(data.len(), &crate::aes::GRAIN).parts().len();
            self.parts.push((data.len(), parts));
            crate::pipe::Transform::apply(&mut self.inner, data, par);
        }
        fn finish(self, tail: &[u8]) -> Result<Vec<u8>, Error> {
            crate::pipe::Transform::finish(self.inner, tail)
        }
    }

    /// CTR's filled path (each part read by the thread that encrypts it)
    /// equals reading first and then applying, carries the counter on to
    /// the next buffer the same, and turns a failed read into the error.
    #[test]
    fn ctr_filled_equals_read_then_applied_and_reports_a_failed_read() {
        use crate::pipe::Transform;
        let len = (5 << 20) + 48;
        let src: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        for par in [
            Parallelism::sequential(),
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(3, Strategy::WorkStealing),
        ] {
            let mut read_first = Crypter::ctr(&[7; 16], &[0xff; 16]).expect("key");
            let mut filled = Crypter::ctr(&[7; 16], &[0xff; 16]).expect("key");
            let mut want = src.clone();
            read_first.apply(&mut want, &par);
            let mut got = vec![0u8; len];
            let copy = |offset: usize, part: &mut [u8]| {
                part.copy_from_slice(&src[offset..offset + part.len()]);
                Ok(())
            };
            filled.apply_filled(&mut got, &par, &copy).expect("no read fails");
            assert!(got == want, "{par:?}");
            let (mut a, mut b) = ([3u8; 32], [3u8; 32]);
            read_first.apply(&mut a, &par);
            filled.apply(&mut b, &par);
            assert_eq!(a, b, "the counter carried on alike, {par:?}");
            let fails = |offset: usize, part: &mut [u8]| {
                if offset + part.len() > 3 << 20 {
                    return Err(io::Error::other("the disk went away"));
                }
                copy(offset, part)
            };
            let err = filled
                .apply_filled(&mut got, &par, &fails)
                .expect_err("a read failed");
            assert_eq!(err.to_string(), "the disk went away", "{par:?}");
        }
    }

    /// With 16 threads, every buffer of a stream is 32 MiB and cut into 16
    /// parts (`Static`) or 32 tasks of 1 MiB (`WorkStealing`): at least one
    /// per thread, where a fixed 8 MiB buffer gave at most 8.
    #[test]
    fn sixteen_threads_get_sixteen_parts_per_buffer() {
        for (strategy, want) in [(Strategy::Static, 16), (Strategy::WorkStealing, 32)] {
            let par = Parallelism::new(16, strategy);
            let size = buffer_for(&par);
            assert_eq!(size, 32 << 20);
            let mut parts = Vec::new();
            let counting = Counting {
                inner: Crypter::ctr(&[7; 16], &[0; 16]).expect("key"),
                parts: &mut parts,
            };
            let input = std::io::repeat(0x5a).take(2 * size as u64 + 100);
            let written = crate::pipe::run(counting, input, std::io::sink(), size, &par, |_| {});
            assert_eq!(written.ok(), Some(2 * size as u64 + 100));
            assert_eq!(parts.len(), 3, "{strategy:?}");
            assert_eq!(parts[..2], [(size, want), (size, want)], "{strategy:?}");
            // What a fixed 8 MiB buffer gives 16 threads.
            assert_eq!(par.plan(DEFAULT_BUFFER, &crate::aes::GRAIN).parts().len(), 8);
        }
        assert_eq!(
            buffer_for(&Parallelism::new(2, Strategy::WorkStealing)),
            DEFAULT_BUFFER
        );
    }
}
