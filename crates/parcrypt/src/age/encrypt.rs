//! Writing an age file: [`Encryptor`] makes the header once, then one
//! call writes the whole file from memory, a reader or a regular file.

use std::fs::File;
use std::io::{Read, Write};

use super::primitives::{self, FileKey, NONCE, header_mac, os_random, payload_key};
use super::{ArmoredWriter, Error, Header, Options, Recipient, keys, payload};
use crate::ffi::AeadKey;
use crate::par::Parallelism;

/// A file being written: its header (the file key wrapped for every
/// recipient, and the MAC) and payload key, made once; then one
/// `encrypt…` call writes the whole file.
pub struct Encryptor {
    header: Vec<u8>,
    nonce: [u8; NONCE],
    key: AeadKey,
}

impl std::fmt::Debug for Encryptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Encryptor {{ header: {} bytes, keys: (redacted) }}",
            self.header.len()
        )
    }
}

impl Encryptor {
    /// A new file for `recipients`, its randomness (file key, stanzas'
    /// ephemeral secrets and salts, payload nonce) from the operating system.
    ///
    /// # Errors
    /// [`Error::Options`]: no recipients; a passphrase beside other
    /// recipients; post-quantum and classic recipients mixed (age refuses
    /// both). [`Error::Key`] for a recipient that cannot be encrypted to.
    pub fn new(recipients: &[Recipient]) -> Result<Encryptor, Error> {
        Self::with_random(recipients, &mut os_random)
    }

    /// As [`Encryptor::new`], with every random byte drawn from `random`
    /// instead: for tests and reproducible vectors only. The same bytes
    /// give the same file whatever the `Parallelism`; reusing them for two
    /// files reuses the file key and nonce, which breaks the encryption.
    ///
    /// # Errors
    /// As [`Encryptor::new`].
    pub fn with_randomness(
        recipients: &[Recipient],
        mut random: impl FnMut(&mut [u8]),
    ) -> Result<Encryptor, Error> {
        Self::with_random(recipients, &mut random)
    }

    fn with_random(recipients: &[Recipient], random: primitives::Random<'_>) -> Result<Encryptor, Error> {
        let file_key = FileKey::generate(|k| {
            random(k);
            Ok::<(), ()>(())
        })
        .unwrap_or_else(|()| unreachable!("filled above"));
        let stanzas = keys::wrap_all(recipients, &file_key, random)?;
        let header = Header::seal(stanzas, |signed| header_mac(&file_key, signed))?;
        let mut nonce = [0u8; NONCE];
        random(&mut nonce);
        Ok(Encryptor {
            header: header.to_bytes(),
            nonce,
            key: payload_key(&file_key, &nonce),
        })
    }

    /// The header's bytes (the binary file starts with them, then the nonce).
    pub fn header(&self) -> &[u8] {
        &self.header
    }

    /// Encrypts everything `input` yields to `output` (armored if
    /// `opts.armor`); returns the plaintext length. Chunks are sealed on
    /// `par`'s threads, reading and writing overlap them, and memory stays
    /// within a fixed budget (see `README.md`); `progress` is called with
    /// plaintext bytes done.
    ///
    /// # Errors
    /// I/O errors.
    pub fn encrypt_stream(
        self,
        input: impl Read + Send,
        output: impl Write + Send,
        opts: &Options,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        if opts.armor {
            let mut armored = ArmoredWriter::new(output);
            let n = self.encrypt_binary(input, &mut armored, par, progress)?;
            armored.finish()?;
            Ok(n)
        } else {
            self.encrypt_binary(input, output, par, progress)
        }
    }

    fn encrypt_binary(
        self,
        input: impl Read + Send,
        mut output: impl Write + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        output.write_all(&self.header)?;
        output.write_all(&self.nonce)?;
        payload::seal_stream(&self.key, input, output, par, progress)
    }

    /// [`Encryptor::encrypt_stream`] for a regular file, faster: each worker reads
    /// the chunks it seals with positional reads (`pread`) straight into
    /// the output batch and seals them there, so reading runs on every
    /// thread (as `stream::encrypt_file`). The file's length when the call
    /// starts is what is encrypted. Armor (`opts.armor`) goes through the
    /// writer as in [`Encryptor::encrypt_stream`].
    ///
    /// # Errors
    /// I/O errors (one if the file shrinks while it is read).
    pub fn encrypt_file(
        self,
        file: &File,
        output: impl Write + Send,
        opts: &Options,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        let len = file.metadata()?.len();
        let binary = |mut out: Box<dyn Write + Send + '_>| -> Result<u64, Error> {
            out.write_all(&self.header)?;
            out.write_all(&self.nonce)?;
            payload::seal_file(&self.key, file, len, out, par, progress)
        };
        if opts.armor {
            let mut armored = ArmoredWriter::new(output);
            let n = binary(Box::new(&mut armored))?;
            armored.finish()?;
            Ok(n)
        } else {
            binary(Box::new(output))
        }
    }

    /// Encrypts `plain` into a new buffer (armored if `opts.armor`),
    /// sealing the chunks on `par`'s threads straight into it.
    pub fn encrypt(self, plain: &[u8], opts: &Options, par: &Parallelism) -> Vec<u8> {
        let head = self.header.len() + NONCE;
        let mut out = vec![0u8; head + payload::sealed_len(plain.len() as u64) as usize];
        out[..self.header.len()].copy_from_slice(&self.header);
        out[self.header.len()..head].copy_from_slice(&self.nonce);
        payload::seal_all(&self.key, plain, &mut out[head..], par);
        if !opts.armor {
            return out;
        }
        let mut armored = ArmoredWriter::new(Vec::with_capacity(out.len() / 3 * 4 + out.len() / 48 + 80));
        armored
            .write_all(&out)
            .and_then(|()| armored.finish())
            .expect("writing to memory cannot fail")
    }
}

/// Encrypts everything `input` yields to `output` for `recipients`
/// (armored if `opts.armor`); returns the plaintext length. See
/// [`Encryptor::encrypt_stream`].
///
/// # Errors
/// As [`Encryptor::new`]; I/O errors.
pub fn encrypt_stream(
    recipients: &[Recipient],
    input: impl Read + Send,
    output: impl Write + Send,
    opts: &Options,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    Encryptor::new(recipients)?.encrypt_stream(input, output, opts, par, progress)
}

/// Encrypts the regular file `file` for `recipients` to `output`, the
/// workers reading it with positional reads (armored if `opts.armor`);
/// returns the plaintext length. See [`Encryptor::encrypt_file`].
///
/// # Errors
/// As [`Encryptor::new`]; I/O errors.
pub fn encrypt_file(
    recipients: &[Recipient],
    file: &File,
    output: impl Write + Send,
    opts: &Options,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    Encryptor::new(recipients)?.encrypt_file(file, output, opts, par, progress)
}

/// Encrypts `plain` for `recipients` into a new buffer. See
/// [`Encryptor::encrypt`].
///
/// # Errors
/// As [`Encryptor::new`].
pub fn encrypt(
    recipients: &[Recipient],
    plain: &[u8],
    opts: &Options,
    par: &Parallelism,
) -> Result<Vec<u8>, Error> {
    Ok(Encryptor::new(recipients)?.encrypt(plain, opts, par))
}
