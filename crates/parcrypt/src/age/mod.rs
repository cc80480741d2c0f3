//! age (C2SP age v1, `age-encryption.org/v1`), exactly as the age CLI,
//! rage and filippo.io/age read and write it, with the payload's 64 KiB
//! ChaCha20-Poly1305 chunks sealed and opened on all cores.
//!
//! Recipients and identities: X25519 (`age1…` / `AGE-SECRET-KEY-1…`), the
//! post-quantum hybrid `mlkem768x25519` (`age1pq1…` /
//! `AGE-SECRET-KEY-PQ-1…`), SSH keys (`ssh-ed25519`, `ssh-rsa`; unencrypted
//! OpenSSH private keys), passphrases (scrypt, with a work-factor
//! ceiling on decryption), and age plugins (`age1NAME1…` /
//! `AGE-PLUGIN-NAME-1…`, the program `age-plugin-NAME` run over the plugin
//! protocol to wrap or unwrap the file key: [`PluginClient`]). ASCII armor
//! on writing, detected on reading.
//! Any byte range of a binary file decrypts by reading only its chunks.
//!
//! The format is age's, not ours: parallelism changes nothing in the bytes.
//! Chunk *i* is sealed under nonce `i ‖ last` whichever thread seals it, so
//! every [`Parallelism`] (strategy and thread count) writes the same file
//! given the same randomness ([`Encryptor::with_randomness`] makes that
//! testable). `README.md` beside this file has the design.
//!
//! # Examples
//! ```
//! use parcrypt::age::{self, DecryptOptions, Identity, KeyKind, Options};
//! use parcrypt::par::Parallelism;
//!
//! let par = Parallelism::default();
//! let identity = Identity::generate(KeyKind::X25519);
//! let recipient = identity.to_recipient().expect("a public key");
//! let mut sealed = Vec::new();
//! age::encrypt(&[recipient], &b"hello"[..], &mut sealed, &Options::default(), &par, |_| {})?;
//! assert!(sealed.starts_with(b"age-encryption.org/v1\n"));
//! let mut plain = Vec::new();
//! age::decrypt(&[identity], &sealed[..], &mut plain, &DecryptOptions::default(), &par, |_| {})?;
//! assert_eq!(plain, b"hello");
//! # Ok::<(), parcrypt::age::Error>(())
//! ```

mod armor;
mod bech;
mod error;
mod format;
mod inspect;
mod keys;
mod payload;
mod plugin;
mod pq;
mod primitives;
mod scrypt;
mod ssh;
mod tag;
mod x25519;

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};

pub use armor::{ArmoredReader, ArmoredWriter, BEGIN as ARMOR_BEGIN, END as ARMOR_END};
pub use error::{Error, Outcome};
pub use format::{Header, MAX_HEADER, Stanza};
pub use inspect::{Inspection, Sizes as InspectionSizes, inspect};
pub use keys::{
    Identity, KeyKind, Recipient, RecipientsFile, parse_identities, parse_recipients, read_identities,
    read_recipients, rfc3339_utc,
};
pub use payload::CHUNK;
pub use plugin::{
    DEFAULT_TIMEOUT as PLUGIN_TIMEOUT, PluginClient, PluginIdentity, PluginRecipient, PluginUi,
};
pub use pq::{HybridIdentity, HybridRecipient};
pub use scrypt::{DEFAULT_WORK_FACTOR, Passphrase};
pub use ssh::{EncryptedSshIdentity, PassphraseSource, SshIdentity, SshRecipient};
pub use tag::TagRecipient;
pub use x25519::{X25519Identity, X25519Recipient};

use crate::ffi::AeadKey;
use crate::par::Parallelism;
use crate::secret::wipe_vec;
use primitives::{FileKey, NONCE, header_mac, os_random, payload_key, verify_header_mac};

/// The most scrypt work a passphrase stanza may ask for unless the reader
/// says otherwise (log2 of N): N = 2^20 (1 GiB, about 3 s on one core), as
/// for the `stream` format. age writes 2^18.
pub const DEFAULT_MAX_WORK_FACTOR: u8 = 20;

/// How many leading bytes [`detect`] needs to see to be sure (armor may
/// follow up to 1 KiB of whitespace).
pub const DETECT_LEN: usize = 1024 + ARMOR_BEGIN.len();

/// How a file is written: format choices only (threads and scheduling are
/// each entry point's `par`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// ASCII armor (`age -a`): PEM-like text instead of binary.
    pub armor: bool,
}

/// Whether input is armored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Armor {
    /// Decide from the first bytes, as the age CLI does ([`detect`]).
    #[default]
    Detect,
    /// The input is armored (the armor is checked strictly).
    Armored,
    /// The input is binary.
    Binary,
}

/// How a file is read: policy only (threads and scheduling are each entry
/// point's `par`).
#[derive(Clone, Copy, Debug)]
pub struct DecryptOptions {
    /// Whether the input is armored (default: detect it).
    pub armor: Armor,
    /// The most scrypt work a passphrase stanza may ask for, as log2 of N
    /// (default [`DEFAULT_MAX_WORK_FACTOR`]; at most 22 is honoured, 4 GiB
    /// of memory): a costlier stanza is refused with [`Error::WorkFactor`]
    /// before any work. Anyone can write a header, and scrypt runs before
    /// anything in it is authenticated.
    pub max_work_factor: u8,
}

impl Default for DecryptOptions {
    fn default() -> Self {
        DecryptOptions {
            armor: Armor::Detect,
            max_work_factor: DEFAULT_MAX_WORK_FACTOR,
        }
    }
}

/// What kind of age file some input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Binary: it starts with `age-encryption.org/`.
    Binary,
    /// ASCII armor: `-----BEGIN AGE ENCRYPTED FILE-----` after at most 1 KiB of whitespace.
    Armored,
}

/// Tells an age file from other input by its first bytes (give it
/// [`DETECT_LEN`] bytes, or the whole input if shorter): `None` if it is
/// neither kind. A binary file of another version (`age-encryption.org/v2`)
/// is still `Binary`; reading it fails with a clear message.
pub fn detect(prefix: &[u8]) -> Option<Format> {
    if prefix.starts_with(format::MAGIC) {
        return Some(Format::Binary);
    }
    let prefix = &prefix[..prefix.len().min(DETECT_LEN)];
    let trimmed = std::str::from_utf8(prefix)
        .map(str::trim_start)
        .unwrap_or_else(|e| {
            std::str::from_utf8(&prefix[..e.valid_up_to()])
                .unwrap_or_default()
                .trim_start()
        });
    trimmed.starts_with(ARMOR_BEGIN).then_some(Format::Armored)
}

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
    pub fn encrypt(
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

    /// [`Encryptor::encrypt`] for a regular file, faster: each worker reads
    /// the chunks it seals with positional reads (`pread`) straight into
    /// the output batch and seals them there, so reading runs on every
    /// thread (as `stream::encrypt_file`). The file's length when the call
    /// starts is what is encrypted. Armor (`opts.armor`) goes through the
    /// writer as in [`Encryptor::encrypt`].
    ///
    /// # Errors
    /// I/O errors (one if the file shrinks while it is read).
    pub fn encrypt_file(
        self,
        file: &std::fs::File,
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
    pub fn encrypt_to_vec(self, plain: &[u8], opts: &Options, par: &Parallelism) -> Vec<u8> {
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
/// [`Encryptor::encrypt`].
///
/// # Errors
/// As [`Encryptor::new`]; I/O errors.
pub fn encrypt(
    recipients: &[Recipient],
    input: impl Read + Send,
    output: impl Write + Send,
    opts: &Options,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    Encryptor::new(recipients)?.encrypt(input, output, opts, par, progress)
}

/// Encrypts `plain` for `recipients` into a new buffer. See
/// [`Encryptor::encrypt_to_vec`].
///
/// # Errors
/// As [`Encryptor::new`].
pub fn encrypt_to_vec(
    recipients: &[Recipient],
    plain: &[u8],
    opts: &Options,
    par: &Parallelism,
) -> Result<Vec<u8>, Error> {
    Ok(Encryptor::new(recipients)?.encrypt_to_vec(plain, opts, par))
}

/// Finds the file key: tries every identity (age's own key types first,
/// then SSH keys and plugins, in the order given) on every stanza, then
/// checks the header MAC with it.
fn unwrap_file_key(
    header: &Header,
    identities: &[Identity],
    opts: &DecryptOptions,
) -> Result<FileKey, Error> {
    if identities.is_empty() {
        return Err(Error::Options("no identities".into()));
    }
    let stanzas = header.stanzas();
    if stanzas.len() > 1 && stanzas.iter().any(|s| s.kind == scrypt::TYPE) {
        return Err(Error::Header(
            "an scrypt stanza must be the only one in the header".into(),
        ));
    }
    let max = opts.max_work_factor.min(scrypt::MAX_WORK_FACTOR);
    let ordered = identities
        .iter()
        .filter(|i| i.is_native())
        .chain(identities.iter().filter(|i| !i.is_native()));
    for identity in ordered {
        if let Some(file_key) = identity.unwrap(stanzas, max)? {
            verify_header_mac(&file_key, header.signed(), header.mac())?;
            return Ok(file_key);
        }
    }
    Err(Error::NoMatch {
        stanzas: stanzas.iter().map(|s| s.kind.clone()).collect(),
    })
}

/// Reads the payload nonce after the header.
fn read_nonce(input: &mut impl Read) -> Result<[u8; NONCE], Error> {
    let mut nonce = [0u8; NONCE];
    let got = crate::io::fill(input, &mut nonce).map_err(Error::from_io)?;
    if got < NONCE {
        return Err(Error::Header("the file ends before the payload nonce".into()));
    }
    Ok(nonce)
}

/// Reads up to [`DETECT_LEN`] bytes: enough to tell binary from armor.
fn read_prefix(input: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut prefix = vec![0u8; DETECT_LEN];
    let n = crate::io::fill(input, &mut prefix)?;
    prefix.truncate(n);
    Ok(prefix)
}

/// A file being read: its header parsed (armor detected or as told), not
/// yet opened. Lets a caller look at the stanzas first (is it
/// passphrase-encrypted? [`Header::is_passphrase`]) before choosing
/// identities.
pub struct Decryptor<'a> {
    input: Box<dyn BufRead + Send + 'a>,
    header: Header,
    armored: bool,
    opts: DecryptOptions,
}

impl std::fmt::Debug for Decryptor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decryptor")
            .field("header", &self.header)
            .field("armored", &self.armored)
            .finish_non_exhaustive()
    }
}

impl<'a> Decryptor<'a> {
    /// Reads the header from `input` (armored or binary as `opts.armor` says).
    ///
    /// # Errors
    /// [`Error::NotAge`], [`Error::Header`], [`Error::Armor`], I/O errors.
    pub fn new(mut input: impl Read + Send + 'a, opts: &DecryptOptions) -> Result<Decryptor<'a>, Error> {
        let prefix = read_prefix(&mut input)?;
        let armored = match opts.armor {
            Armor::Armored => true,
            Armor::Binary => false,
            Armor::Detect => detect(&prefix) == Some(Format::Armored),
        };
        let raw = io::Cursor::new(prefix).chain(input);
        let mut input: Box<dyn BufRead + Send + 'a> = if armored {
            Box::new(BufReader::new(ArmoredReader::new(BufReader::new(raw))))
        } else {
            Box::new(BufReader::new(raw))
        };
        let header = Header::read(&mut input).map_err(|e| match e {
            Error::Io(e) => Error::from_io(e),
            e => e,
        })?;
        Ok(Decryptor {
            input,
            header,
            armored,
            opts: *opts,
        })
    }

    /// The parsed header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Whether the input was armored.
    pub fn is_armored(&self) -> bool {
        self.armored
    }

    /// Opens the file with `identities` and decrypts the payload to
    /// `output`; returns the plaintext length. Chunks are opened on `par`'s
    /// threads, reading and writing overlap them, memory stays within a
    /// fixed budget; `progress` is called with plaintext bytes written.
    ///
    /// Only plaintext that verified is written; on a failure, the chunks
    /// that verified before it have been written (as age does), so callers
    /// writing a file write to a temporary one and keep it only on `Ok`.
    ///
    /// # Errors
    /// [`Error::NoMatch`], [`Error::HeaderMac`], [`Error::Header`] (a
    /// malformed stanza of an identity's type), [`Error::WorkFactor`],
    /// payload errors ([`Error::Truncated`], [`Error::ChunkAuthentication`],
    /// [`Error::EmptyLastChunk`], [`Error::TrailingData`]), [`Error::Armor`], I/O errors.
    pub fn decrypt(
        mut self,
        identities: &[Identity],
        output: impl Write + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        let file_key = unwrap_file_key(&self.header, identities, &self.opts)?;
        let nonce = read_nonce(&mut self.input)?;
        let key = payload_key(&file_key, &nonce);
        payload::open_stream(&key, self.input, output, par, progress).map_err(|e| match e {
            Error::Io(e) => Error::from_io(e),
            e => e,
        })
    }
}

/// Decrypts an age file (armored or binary) from `input` to `output` with
/// the first of `identities` that opens it; returns the plaintext length.
/// See [`Decryptor::decrypt`].
///
/// # Errors
/// As [`Decryptor::new`] and [`Decryptor::decrypt`].
pub fn decrypt(
    identities: &[Identity],
    input: impl Read + Send,
    output: impl Write + Send,
    opts: &DecryptOptions,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    Decryptor::new(input, opts)?.decrypt(identities, output, par, progress)
}

/// Decrypts an age file held in memory (armored or binary) into a new
/// buffer, opening the chunks on `par`'s threads straight into it. All or
/// nothing: on any failure no plaintext is returned (what verified is wiped).
///
/// # Errors
/// As [`decrypt`].
pub fn decrypt_to_vec(
    identities: &[Identity],
    data: &[u8],
    opts: &DecryptOptions,
    par: &Parallelism,
) -> Result<Vec<u8>, Error> {
    let armored = match opts.armor {
        Armor::Armored => true,
        Armor::Binary => false,
        Armor::Detect => detect(data) == Some(Format::Armored),
    };
    let dearmored;
    let data = if armored {
        let mut bin = Vec::with_capacity(data.len() / 4 * 3);
        ArmoredReader::new(data)
            .read_to_end(&mut bin)
            .map_err(Error::from_io)?;
        dearmored = bin;
        &dearmored[..]
    } else {
        data
    };
    let mut input = data;
    let header = Header::read(&mut input)?;
    let file_key = unwrap_file_key(&header, identities, opts)?;
    let nonce = read_nonce(&mut input)?;
    let key = payload_key(&file_key, &nonce);
    let mut plain = vec![0u8; payload::opened_len(input.len())];
    match payload::open_chunks(&key, input, &mut plain, 0, true, par) {
        Ok(_) => Ok(plain),
        Err((e, _)) => {
            wipe_vec(&mut plain);
            Err(e)
        }
    }
}

/// Decrypts plaintext bytes `start .. start + len` of the age file in
/// `input` (positioned at the file's start) to `output`, reading only the
/// header, the last chunk (which proves the plaintext's length, as the
/// spec asks of any seek from the end) and the chunks holding the range,
/// a batch at a time on `par`'s threads; returns `len`. Chunk *i* is at
/// `header length + 16 + i × 65,552`. An armored file is decrypted from
/// its start instead, keeping only the range (armor is not seekable).
///
/// # Errors
/// [`Error::Range`] beyond the end of the plaintext; as [`decrypt`].
pub fn decrypt_range<R: Read + Seek + Send>(
    identities: &[Identity],
    mut input: R,
    start: u64,
    len: u64,
    output: impl Write + Send,
    opts: &DecryptOptions,
    par: &Parallelism,
) -> Result<u64, Error> {
    let base = input.stream_position()?;
    let prefix = read_prefix(&mut input)?;
    let armored = match opts.armor {
        Armor::Armored => true,
        Armor::Binary => false,
        Armor::Detect => detect(&prefix) == Some(Format::Armored),
    };
    input.seek(SeekFrom::Start(base))?;
    if armored {
        let mut window = Window {
            out: output,
            skip: start,
            left: len,
            seen: 0,
        };
        let total = decrypt(identities, &mut input, &mut window, opts, par, |_| {})?;
        if start.checked_add(len).is_none_or(|end| end > total) {
            return Err(Error::Range { start, len, total });
        }
        return Ok(len);
    }
    let (header, file_key) = {
        let mut reader = BufReader::new(&mut input);
        let header = Header::read(&mut reader)?;
        let file_key = unwrap_file_key(&header, identities, opts)?;
        (header, file_key)
    };
    input.seek(SeekFrom::Start(base + header.len() as u64))?;
    let nonce = read_nonce(&mut input)?;
    let key = payload_key(&file_key, &nonce);
    let end = input.seek(SeekFrom::End(0))?;
    let start_at = base + header.len() as u64 + NONCE as u64;
    let layout = payload::Layout {
        start: start_at,
        sealed: end.saturating_sub(start_at),
    };
    payload::open_range(&key, &mut input, &layout, start, len, output, par)
}

/// Passes on only the bytes of a window of what is written through it.
struct Window<W> {
    out: W,
    skip: u64,
    left: u64,
    seen: u64,
}

impl<W: Write> Write for Window<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = buf.len() as u64;
        let from = self.skip.saturating_sub(self.seen).min(n);
        let take = (n - from).min(self.left);
        self.out.write_all(&buf[from as usize..(from + take) as usize])?;
        self.left -= take;
        self.seen += n;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
