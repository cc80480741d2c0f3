//! A scheme's decryption entry points: in memory, into a caller's buffer,
//! from a reader, from a file, pushed through a [`Decryptor`], and one
//! range of a message.

use std::fs::File;
use std::io::{Read, Write};

use super::{Decryptor, Error, HEADER, Keys, Layout, Scheme, Source, budget, layout};
use crate::chunked::flow::{self, Stored};
use crate::chunked::seal::{Scratch, Sealed, open_into};
use crate::io::{Input, read_exact_at};
use crate::par::Parallelism;
use crate::secret::{SecretBytes, wipe};

impl Scheme {
    /// A push decryptor for a message under `key` and `context` (see
    /// [`Decryptor`]), opening chunks on `par`'s threads.
    ///
    /// # Errors
    /// [`Error::KeyLength`].
    pub fn decryptor(self, key: &[u8], context: &[u8], par: &Parallelism) -> Result<Decryptor, Error> {
        self.check_key(key)?;
        Ok(Decryptor::new(
            self,
            SecretBytes::from(key),
            context.to_vec(),
            *par,
        ))
    }

    /// Decrypts the message `sealed` into a new buffer, opening its chunks
    /// on `par`'s threads straight into it. All or nothing: on any failure
    /// no plaintext is returned (what was opened is wiped). A `&[u8]` is
    /// read in place; an [`Input::Shared`] (a buffer others may write
    /// meanwhile) is read once, each chunk copied before it is opened.
    ///
    /// # Errors
    /// [`Error::KeyLength`], [`Error::TooShort`], [`Error::Commitment`]
    /// (checked first), [`Error::Truncated`], [`Error::ChunkAuthentication`],
    /// [`Error::TooLarge`].
    pub fn decrypt<'a>(
        self,
        key: &[u8],
        context: &[u8],
        sealed: impl Into<Input<'a>>,
        par: &Parallelism,
    ) -> Result<SecretBytes, Error> {
        let sealed = sealed.into();
        let (keys, layout) = self.open_memory(key, context, sealed)?;
        let len = usize::try_from(layout.plain).map_err(|_| Error::TooLarge)?;
        // Wiped when dropped: on a failure here, or by the caller.
        let mut plain = SecretBytes::zeroed(len);
        let scratch = Scratch::default();
        open_into(
            &keys.chunks(),
            Sealed::of(sealed.slice(HEADER..), &scratch),
            plain.expose_mut(),
            0,
            true,
            par,
        )?;
        Ok(plain)
    }

    /// [`Scheme::decrypt`] into `out`, which must hold the plaintext
    /// ([`plain_len`](super::plain_len) of the message's length); returns its length. On any
    /// failure every byte of `out` that could have held plaintext is wiped.
    ///
    /// # Errors
    /// As [`Scheme::decrypt`]; [`Error::BufferTooSmall`].
    pub fn decrypt_into<'a>(
        self,
        key: &[u8],
        context: &[u8],
        sealed: impl Into<Input<'a>>,
        out: &mut [u8],
        par: &Parallelism,
    ) -> Result<usize, Error> {
        let sealed = sealed.into();
        let (keys, layout) = self.open_memory(key, context, sealed)?;
        let len = usize::try_from(layout.plain).map_err(|_| Error::TooLarge)?;
        if out.len() < len {
            return Err(Error::BufferTooSmall {
                needed: len,
                got: out.len(),
            });
        }
        let out = &mut out[..len];
        let scratch = Scratch::default();
        match open_into(
            &keys.chunks(),
            Sealed::of(sealed.slice(HEADER..), &scratch),
            out,
            0,
            true,
            par,
        ) {
            Ok(_) => Ok(len),
            Err(e) => {
                wipe(out);
                Err(e.into())
            }
        }
    }

    /// The keys (commitment checked) and layout of a message in memory.
    fn open_memory(self, key: &[u8], context: &[u8], sealed: Input<'_>) -> Result<(Keys, Layout), Error> {
        self.check_key(key)?;
        // Copied: the salt and the commitment are each read once.
        let header: [u8; HEADER] = sealed.head().ok_or(Error::TooShort {
            len: sealed.len() as u64,
        })?;
        let keys = self.open_header(key, context, &header)?;
        let layout = layout((sealed.len() - HEADER) as u64)?;
        Ok((keys, layout))
    }

    /// Decrypts the message `input` yields to `output`, a batch of chunks at
    /// a time on `par`'s threads, reading and writing on threads of their
    /// own, in memory bounded whatever the length; returns the plaintext
    /// length. A batch is written only once all its chunks verified; a
    /// failure stops before anything of the failing batch is written
    /// (callers writing a file write a temporary one and keep it only on
    /// `Ok`).
    ///
    /// # Errors
    /// As [`Scheme::decrypt`]; I/O errors.
    pub fn decrypt_stream(
        self,
        key: &[u8],
        context: &[u8],
        mut input: impl Read + Send,
        output: impl Write + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        self.check_key(key)?;
        let mut header = [0u8; HEADER];
        let got = crate::io::fill(&mut input, &mut header)?;
        if got < HEADER {
            return Err(Error::TooShort { len: got as u64 });
        }
        let keys = self.open_header(key, context, &header)?;
        Ok(flow::open_reader(
            &keys.chunks(),
            input,
            output,
            budget(par)?,
            par,
            progress,
        )?)
    }

    /// [`Scheme::decrypt_stream`] for a regular file: its structure is
    /// checked from its length first and its final chunk (which proves the
    /// length) opened before the first byte is written, so a truncated or
    /// extended file writes nothing at all; then each worker reads the
    /// chunks it opens with positional reads into a private buffer and
    /// opens them there; a writer thread overlaps.
    ///
    /// # Errors
    /// As [`Scheme::decrypt_stream`]; an I/O error if the file shrinks
    /// while it is read.
    pub fn decrypt_file(
        self,
        key: &[u8],
        context: &[u8],
        file: &File,
        output: impl Write + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        let (keys, layout) = self.open_file(key, context, file)?;
        let stored = Stored::File {
            file,
            at: HEADER as u64,
        };
        let chunks = keys.chunks();
        Ok(flow::open_stored(
            &chunks,
            stored,
            layout.body,
            output,
            budget(par)?,
            par,
            progress,
        )?)
    }

    /// The keys (commitment checked) and layout of a message in a file.
    fn open_file(self, key: &[u8], context: &[u8], file: &File) -> Result<(Keys, Layout), Error> {
        self.check_key(key)?;
        let len = file.metadata()?.len();
        if len < HEADER as u64 {
            return Err(Error::TooShort { len });
        }
        let mut header = [0u8; HEADER];
        read_exact_at(file, &mut header, 0)?;
        let keys = self.open_header(key, context, &header)?;
        Ok((keys, layout(len - HEADER as u64)?))
    }

    /// Decrypts plaintext bytes `start .. start + len` of the message in
    /// `source` to `output`, opening only the chunks that hold them, a
    /// batch at a time on `par`'s threads, and the final chunk, which
    /// proves the message's length (so a truncated or extended message is
    /// refused whatever the range). Returns `len`.
    ///
    /// # Errors
    /// [`Error::Range`] beyond the end of the plaintext; as
    /// [`Scheme::decrypt`]; I/O errors.
    #[allow(clippy::too_many_arguments)]
    pub fn decrypt_range<'a>(
        self,
        key: &[u8],
        context: &[u8],
        source: impl Into<Source<'a>>,
        start: u64,
        len: u64,
        output: impl Write + Send,
        par: &Parallelism,
    ) -> Result<u64, Error> {
        let (keys, layout, stored) = match source.into().in_memory() {
            Ok(input) => {
                let (keys, layout) = self.open_memory(key, context, input)?;
                (keys, layout, Stored::Memory(input.slice(HEADER..)))
            }
            Err(file) => {
                let (keys, layout) = self.open_file(key, context, file)?;
                let at = HEADER as u64;
                (keys, layout, Stored::File { file, at })
            }
        };
        let chunks = keys.chunks();
        // The final chunk proves the length, whatever the range.
        flow::prove_length(&chunks, stored, layout.body, start, len, par)?;
        let end = start
            .checked_add(len)
            .filter(|&e| e <= layout.plain)
            .ok_or(Error::Range {
                start,
                len,
                total: layout.plain,
            })?;
        if len == 0 {
            return Ok(0);
        }
        flow::open_range(
            &chunks,
            stored,
            layout.body,
            start,
            end,
            output,
            budget(par)?,
            par,
        )?;
        Ok(len)
    }
}
