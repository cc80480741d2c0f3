//! Push encryption and decryption, `cryptography.cobblestone`'s shape:
//! `update` as data arrives, then `finalize`. Every full chunk an update
//! completes is sealed or opened at once, the run of them across `par`'s
//! threads (a run under 1 MiB stays on the calling thread); only a partial
//! chunk is held back. The output of each call has exactly the length
//! pyca's has for the same inputs.

use super::{CHUNK, Error, HEADER, Keys, SEALED_CHUNK, Scheme, Sealer};
use crate::chunked::TAG;
use crate::chunked::seal::{Plain, Scratch, Sealed, open_into, seal_into};
use crate::io::Input;
use crate::par::Parallelism;
use crate::secret::{SecretBytes, wipe};

/// Encrypts one message pushed to it a piece at a time (from
/// [`Sealer::encryptor`]).
///
/// # Examples
/// ```
/// use parcrypt::cobblestone::Scheme;
/// use parcrypt::par::Parallelism;
///
/// let par = Parallelism::default();
/// let scheme = Scheme::COBBLESTONE_256;
/// let key = [9u8; 32];
/// let mut enc = scheme.sealer(&key, b"")?.encryptor(&par);
/// let mut sealed = enc.update(&[1u8; 20_000])?;
/// sealed.extend(enc.update(&[2u8; 30_000])?);
/// sealed.extend(enc.finalize()?);
/// let mut dec = scheme.decryptor(&key, b"", &par)?;
/// // Each piece of plaintext comes out verified, in a buffer wiped on drop.
/// let first = dec.update(&sealed)?;
/// let last = dec.finalize()?;
/// assert_eq!(first.len() + last.len(), 50_000);
/// assert_eq!(&first.expose()[..20_000], &[1u8; 20_000][..]);
/// # Ok::<(), parcrypt::cobblestone::Error>(())
/// ```
pub struct Encryptor {
    sealer: Sealer,
    header_pending: bool,
    /// The partial chunk held back (`held` bytes of it), wiped on drop.
    pending: SecretBytes,
    held: usize,
    index: u64,
    par: Parallelism,
}

impl std::fmt::Debug for Encryptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Encryptor {{ chunks: {}, held: {}, keys: (redacted) }}",
            self.index, self.held
        )
    }
}

impl Encryptor {
    pub(super) fn new(sealer: Sealer, par: Parallelism) -> Self {
        Encryptor {
            sealer,
            header_pending: true,
            pending: SecretBytes::zeroed(CHUNK),
            held: 0,
            index: 0,
            par,
        }
    }

    /// Bytes [`Encryptor::update`] returns for `data_len` more bytes: the
    /// header on the first call, and every chunk completed.
    pub fn update_len(&self, data_len: usize) -> usize {
        let full = (self.held.saturating_add(data_len)) / CHUNK;
        let header = if self.header_pending { HEADER } else { 0 };
        header + full * SEALED_CHUNK
    }

    /// Encrypts `data`: returns the header (first call) and every chunk it
    /// completes, sealed.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if the message would pass 2^38 chunks (nothing
    /// is sealed).
    pub fn update(&mut self, data: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = vec![0u8; self.update_len(data.len())];
        let n = self.update_into(data, &mut out)?;
        debug_assert_eq!(n, out.len());
        Ok(out)
    }

    /// [`Encryptor::update`] into `out` (at least
    /// [`Encryptor::update_len`] bytes); returns the bytes written.
    ///
    /// # Errors
    /// [`Error::TooLarge`], [`Error::BufferTooSmall`] (nothing done).
    pub fn update_into(&mut self, mut data: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let needed = self.update_len(data.len());
        if out.len() < needed {
            return Err(Error::BufferTooSmall {
                needed,
                got: out.len(),
            });
        }
        let full = ((self.held + data.len()) / CHUNK) as u64;
        // Room for these chunks and the final one after them.
        let chunks = self.sealer.keys.chunks();
        chunks.check_limit(self.index, full + 1)?;
        let mut w = 0;
        if self.header_pending {
            out[..HEADER].copy_from_slice(&self.sealer.header);
            w = HEADER;
            self.header_pending = false;
        }
        if self.held > 0 {
            let take = (CHUNK - self.held).min(data.len());
            self.pending.expose_mut()[self.held..self.held + take].copy_from_slice(&data[..take]);
            self.held += take;
            data = &data[take..];
            if self.held == CHUNK {
                let plain = Plain::Memory(self.pending.expose());
                seal_into(
                    &chunks,
                    plain,
                    &mut out[w..w + SEALED_CHUNK],
                    self.index,
                    false,
                    &self.par,
                )?;
                self.index += 1;
                w += SEALED_CHUNK;
                self.held = 0;
            }
        }
        let k = data.len() / CHUNK;
        if k > 0 {
            let plain = Plain::Memory(&data[..k * CHUNK]);
            seal_into(
                &chunks,
                plain,
                &mut out[w..w + k * SEALED_CHUNK],
                self.index,
                false,
                &self.par,
            )?;
            self.index += k as u64;
            w += k * SEALED_CHUNK;
            data = &data[k * CHUNK..];
        }
        self.pending.expose_mut()[self.held..self.held + data.len()].copy_from_slice(data);
        self.held += data.len();
        Ok(w)
    }

    /// Ends the message: the header if no update wrote it, and the final
    /// (short, possibly empty) chunk.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if the final chunk would pass 2^38 chunks.
    pub fn finalize(self) -> Result<Vec<u8>, Error> {
        let chunks = self.sealer.keys.chunks();
        chunks.check_limit(self.index, 1)?;
        let header = if self.header_pending { HEADER } else { 0 };
        let mut out = vec![0u8; header + self.held + TAG];
        out[..header].copy_from_slice(&self.sealer.header[..header]);
        let plain = Plain::Memory(&self.pending.expose()[..self.held]);
        seal_into(&chunks, plain, &mut out[header..], self.index, true, &self.par)?;
        Ok(out)
    }
}

/// Decrypts one message pushed to it a piece at a time (from
/// [`Scheme::decryptor`]). The commitment is checked as soon as the header
/// is in; every full chunk is opened as soon as it is complete (the final
/// chunk is always shorter, so a full one is never the last) and released
/// only once it verified; [`Decryptor::finalize`] opens the final chunk,
/// and is where a truncated message is found. After a failure the
/// decryptor refuses everything ([`Error::Failed`]); the output of the
/// failing call is wiped.
pub struct Decryptor {
    scheme: Scheme,
    key: SecretBytes,
    context: Vec<u8>,
    par: Parallelism,
    header: [u8; HEADER],
    header_len: usize,
    keys: Option<Keys>,
    /// A partial sealed chunk (ciphertext).
    pending: Vec<u8>,
    index: u64,
    failed: bool,
}

impl std::fmt::Debug for Decryptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Decryptor {{ scheme: {:?}, chunks: {}, failed: {}, key: (redacted) }}",
            self.scheme, self.index, self.failed
        )
    }
}

impl Decryptor {
    pub(super) fn new(scheme: Scheme, key: SecretBytes, context: Vec<u8>, par: Parallelism) -> Self {
        Decryptor {
            scheme,
            key,
            context,
            par,
            header: [0; HEADER],
            header_len: 0,
            keys: None,
            pending: Vec::new(),
            index: 0,
            failed: false,
        }
    }

    /// Bytes [`Decryptor::update`] returns for `data_len` more bytes: a full
    /// chunk's plaintext for every sealed chunk completed.
    pub fn update_len(&self, data_len: usize) -> usize {
        let body = if self.keys.is_none() {
            data_len.saturating_sub(HEADER - self.header_len)
        } else {
            self.pending.len().saturating_add(data_len)
        };
        body / SEALED_CHUNK * CHUNK
    }

    /// Decrypts `data`: returns the plaintext of every chunk it completes,
    /// each verified (wiped when dropped).
    ///
    /// # Errors
    /// [`Error::Commitment`] (once the header is in),
    /// [`Error::ChunkAuthentication`], [`Error::TooLarge`], [`Error::Failed`].
    pub fn update<'a>(&mut self, data: impl Into<Input<'a>>) -> Result<SecretBytes, Error> {
        let data = data.into();
        let mut out = SecretBytes::zeroed(self.update_len(data.len()));
        let n = self.update_into(data, out.expose_mut())?;
        debug_assert_eq!(n, out.len());
        Ok(out)
    }

    /// [`Decryptor::update`] into `out` (at least
    /// [`Decryptor::update_len`] bytes); returns the bytes written. On a
    /// failure the bytes of `out` this call could have written are wiped.
    /// An [`Input::Shared`] `data` (a buffer others may write meanwhile) is
    /// read once: each chunk copied before it is opened.
    ///
    /// # Errors
    /// As [`Decryptor::update`]; [`Error::BufferTooSmall`] (nothing done).
    pub fn update_into<'a>(&mut self, data: impl Into<Input<'a>>, out: &mut [u8]) -> Result<usize, Error> {
        let data = data.into();
        if self.failed {
            return Err(Error::Failed);
        }
        let needed = self.update_len(data.len());
        if out.len() < needed {
            return Err(Error::BufferTooSmall {
                needed,
                got: out.len(),
            });
        }
        let out = &mut out[..needed];
        let result = self.update_inner(data, out);
        if result.is_err() {
            self.failed = true;
            wipe(out);
        }
        result
    }

    fn update_inner(&mut self, input: Input<'_>, out: &mut [u8]) -> Result<usize, Error> {
        let mut data = input.bytes();
        if self.keys.is_none() {
            let take = (HEADER - self.header_len).min(data.len());
            self.header[self.header_len..self.header_len + take].copy_from_slice(&data[..take]);
            self.header_len += take;
            data = &data[take..];
            if self.header_len < HEADER {
                return Ok(0);
            }
            self.keys = Some(
                self.scheme
                    .open_header(self.key.expose(), &self.context, &self.header)?,
            );
            // The input key is not needed any more.
            self.key = SecretBytes::default();
        }
        let Some(keys) = &self.keys else {
            return Ok(0);
        };
        let chunks = keys.chunks();
        let full = ((self.pending.len() + data.len()) / SEALED_CHUNK) as u64;
        chunks.check_limit(self.index, full)?;
        let mut w = 0;
        if !self.pending.is_empty() {
            let take = (SEALED_CHUNK - self.pending.len()).min(data.len());
            self.pending.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.pending.len() == SEALED_CHUNK {
                let sealed = Sealed::Memory(&self.pending);
                open_into(
                    &chunks,
                    sealed,
                    &mut out[w..w + CHUNK],
                    self.index,
                    false,
                    &self.par,
                )?;
                self.index += 1;
                w += CHUNK;
                self.pending.clear();
            }
        }
        let k = data.len() / SEALED_CHUNK;
        if k > 0 {
            // The whole chunks of this call's input, as the caller gave it
            // (the partial ones around them are copied into `pending`).
            let from = input.len() - data.len();
            let scratch = Scratch::default();
            let sealed = Sealed::of(input.slice(from..from + k * SEALED_CHUNK), &scratch);
            open_into(
                &chunks,
                sealed,
                &mut out[w..w + k * CHUNK],
                self.index,
                false,
                &self.par,
            )?;
            self.index += k as u64;
            w += k * CHUNK;
            data = &data[k * SEALED_CHUNK..];
        }
        self.pending.extend_from_slice(data);
        Ok(w)
    }

    /// Ends the message: opens the final chunk and returns its plaintext.
    ///
    /// # Errors
    /// [`Error::TooShort`] (not even a header), [`Error::Truncated`] (the
    /// message ends with a full chunk or its header),
    /// [`Error::ChunkAuthentication`], [`Error::TooLarge`], [`Error::Failed`].
    pub fn finalize(self) -> Result<SecretBytes, Error> {
        if self.failed {
            return Err(Error::Failed);
        }
        let Some(keys) = &self.keys else {
            return Err(Error::TooShort {
                len: self.header_len as u64,
            });
        };
        let chunks = keys.chunks();
        match self.pending.len() {
            0 => {
                return Err(Error::Truncated {
                    chunk: self.index.checked_sub(1),
                });
            }
            n if n < TAG => return Err(Error::ChunkAuthentication { chunk: self.index }),
            _ => {}
        }
        chunks.check_limit(self.index, 1)?;
        // Wiped when dropped: on a failure here, or by the caller.
        let mut plain = SecretBytes::zeroed(self.pending.len() - TAG);
        let sealed = Sealed::Memory(&self.pending);
        open_into(&chunks, sealed, plain.expose_mut(), self.index, true, &self.par)?;
        Ok(plain)
    }
}
