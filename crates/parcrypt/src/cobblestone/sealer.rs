//! [`Sealer`]: one message's keys and header, and the encryption entry
//! points that consume it (in memory, from a reader, from a file, pushed
//! through an [`Encryptor`](super::Encryptor)).

use std::fs::File;
use std::io::{Read, Write};

use super::{Encryptor, Error, HEADER, Keys, budget, sealed_len};
use crate::chunked::flow;
use crate::chunked::seal::{Plain, seal_into};
use crate::par::Parallelism;

/// One message's keys and header: seals exactly one message (every method
/// consumes it, so a salt never seals two). `Debug` shows no key.
pub struct Sealer {
    pub(super) keys: Keys,
    pub(super) header: [u8; HEADER],
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer { keys: (redacted) }")
    }
}

impl Sealer {
    /// The message's header: salt ‖ commitment (not secret).
    pub fn header(&self) -> &[u8; HEADER] {
        &self.header
    }

    /// Encrypts `plain` into a new buffer, sealing the chunks on `par`'s
    /// threads straight into it.
    ///
    /// # Errors
    /// [`Error::TooLarge`] past 2^38 chunks.
    pub fn encrypt(self, plain: &[u8], par: &Parallelism) -> Result<Vec<u8>, Error> {
        let len = sealed_len(plain.len() as u64).ok_or(Error::TooLarge)?;
        let mut out = vec![0u8; usize::try_from(len).map_err(|_| Error::TooLarge)?];
        self.encrypt_into(plain, &mut out, par)?;
        Ok(out)
    }

    /// Encrypts `plain` into `out`, which must hold [`sealed_len`] bytes;
    /// returns that length.
    ///
    /// # Errors
    /// [`Error::TooLarge`], [`Error::BufferTooSmall`].
    pub fn encrypt_into(self, plain: &[u8], out: &mut [u8], par: &Parallelism) -> Result<usize, Error> {
        let len = sealed_len(plain.len() as u64).ok_or(Error::TooLarge)?;
        let len = usize::try_from(len).map_err(|_| Error::TooLarge)?;
        if out.len() < len {
            return Err(Error::BufferTooSmall {
                needed: len,
                got: out.len(),
            });
        }
        out[..HEADER].copy_from_slice(&self.header);
        seal_into(
            &self.keys.chunks(),
            Plain::Memory(plain),
            &mut out[HEADER..len],
            0,
            true,
            par,
        )?;
        Ok(len)
    }

    /// Encrypts everything `input` yields to `output`, a batch of chunks at
    /// a time on `par`'s threads, reading and writing on threads of their
    /// own, in bounded memory; returns the plaintext length.
    ///
    /// # Errors
    /// I/O errors; [`Error::TooLarge`] past 2^38 chunks (what was written
    /// before is not a complete message).
    pub fn encrypt_stream(
        self,
        input: impl Read + Send,
        mut output: impl Write + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        output.write_all(&self.header)?;
        let chunks = self.keys.chunks();
        Ok(flow::seal_reader(
            &chunks,
            input,
            output,
            budget(par)?,
            par,
            progress,
        )?)
    }

    /// [`Sealer::encrypt_stream`] for a regular file: each worker reads the
    /// chunks it seals with positional reads straight into the output batch
    /// and seals them there (one worker: a reader thread reads ahead). The
    /// file's length when the call starts is what is encrypted.
    ///
    /// # Errors
    /// As [`Sealer::encrypt_stream`]; an I/O error if the file shrinks
    /// while it is read.
    pub fn encrypt_file(
        self,
        file: &File,
        mut output: impl Write + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        let len = file.metadata()?.len();
        sealed_len(len).ok_or(Error::TooLarge)?;
        output.write_all(&self.header)?;
        let chunks = self.keys.chunks();
        Ok(flow::seal_file(
            &chunks,
            file,
            len,
            output,
            budget(par)?,
            par,
            progress,
        )?)
    }

    /// A push encryptor for this message (see [`Encryptor`]), sealing full
    /// chunks on `par`'s threads.
    pub fn encryptor(self, par: &Parallelism) -> Encryptor {
        Encryptor::new(self, *par)
    }
}

#[cfg(test)]
mod tests {
    use crate::cobblestone::Scheme;

    #[test]
    fn the_sealer_shows_no_key() {
        let s = Scheme::COBBLESTONE_128.sealer(&[7u8; 16], b"").expect("a key");
        assert_eq!(format!("{s:?}"), "Sealer { keys: (redacted) }");
    }
}
