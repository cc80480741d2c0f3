//! Reading an age file: the header parsed ([`Decryptor`]), the file key
//! found, the payload opened from memory, a reader, a regular file or a
//! byte range.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};

use super::primitives::{FileKey, NONCE, payload_key, verify_header_mac};
use super::{
    Armor, ArmoredReader, DETECT_LEN, DecryptOptions, Error, Format, Header, Identity, OptionsError, Source,
    detect, payload, scrypt,
};
use crate::io::Input;
use crate::par::Parallelism;
use crate::secret::SecretBytes;

/// Whether input whose first bytes are `prefix` is armored, as `armor`
/// says or, by default, as [`detect`] finds.
fn is_armored(armor: Armor, prefix: &[u8]) -> bool {
    match armor {
        Armor::Armored => true,
        Armor::Binary => false,
        Armor::Detect => detect(prefix) == Some(Format::Armored),
    }
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
        return Err(OptionsError::NoIdentities.into());
    }
    let stanzas = header.stanzas();
    if stanzas.len() > 1 && stanzas.iter().any(|s| s.kind == scrypt::TYPE) {
        return Err(Error::MalformedHeader(
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
    Err(Error::NoMatchingIdentity {
        stanzas: stanzas.iter().map(|s| s.kind.clone()).collect(),
    })
}

/// Reads the payload nonce after the header.
fn read_nonce(input: &mut impl Read) -> Result<[u8; NONCE], Error> {
    let mut nonce = [0u8; NONCE];
    let got = crate::io::fill(input, &mut nonce).map_err(Error::from_io)?;
    if got < NONCE {
        return Err(Error::MalformedHeader(
            "the file ends before the payload nonce".into(),
        ));
    }
    Ok(nonce)
}

/// Reads up to [`DETECT_LEN`] bytes: enough to tell binary from armor.
pub(super) fn read_prefix(input: &mut impl Read) -> io::Result<Vec<u8>> {
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
    /// The regular file being read, when it is one
    /// ([`Decryptor::from_file`]): its payload is checked ahead.
    file: Option<&'a File>,
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
    /// [`Error::WrongFormat`], [`Error::MalformedHeader`], [`Error::Armor`], I/O errors.
    pub fn new(mut input: impl Read + Send + 'a, opts: &DecryptOptions) -> Result<Decryptor<'a>, Error> {
        let prefix = read_prefix(&mut input)?;
        let armored = is_armored(opts.armor, &prefix);
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
            file: None,
        })
    }

    /// [`Decryptor::new`] for the age file in the regular file `file`, read
    /// from its start. Unless it is armored (armor is decoded from its
    /// start, as from a pipe), [`Decryptor::decrypt_stream`] then opens the
    /// payload's last chunk, which proves its length, with a positional
    /// read before it writes anything: a truncated or extended file writes
    /// nothing at all.
    ///
    /// # Errors
    /// As [`Decryptor::new`].
    pub fn from_file(file: &'a File, opts: &DecryptOptions) -> Result<Decryptor<'a>, Error> {
        let mut cursor = file;
        cursor.seek(SeekFrom::Start(0))?;
        let mut decryptor = Decryptor::new(cursor, opts)?;
        decryptor.file = Some(file);
        Ok(decryptor)
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
    /// From a regular file ([`Decryptor::from_file`], not armored) the last
    /// chunk is checked first, so a truncated or extended file writes
    /// nothing; damage inside still releases the chunks before it.
    ///
    /// # Errors
    /// [`Error::NoMatchingIdentity`], [`Error::HeaderAuthentication`], [`Error::MalformedHeader`] (a
    /// malformed stanza of an identity's type), [`Error::WorkFactor`],
    /// payload errors ([`Error::Truncated`], [`Error::ChunkAuthentication`],
    /// [`Error::EmptyLastChunk`], [`Error::TrailingData`]), [`Error::Armor`], I/O errors.
    pub fn decrypt_stream(
        mut self,
        identities: &[Identity],
        output: impl Write + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<u64, Error> {
        let file_key = unwrap_file_key(&self.header, identities, &self.opts)?;
        let nonce = read_nonce(&mut self.input)?;
        let key = payload_key(&file_key, &nonce);
        let input: Box<dyn Read + Send + 'a> = match self.file.filter(|_| !self.armored) {
            Some(file) => {
                // The payload after the header and nonce just read: its
                // length proved first, then read through the cursor up to
                // that length.
                let start = (self.header.len() + NONCE) as u64;
                let sealed = file.metadata()?.len().saturating_sub(start);
                payload::check_last(&key, file, start, sealed, par)?;
                Box::new(self.input.take(sealed))
            }
            None => Box::new(self.input),
        };
        payload::open_stream(&key, input, output, par, progress).map_err(|e| match e {
            Error::Io(e) => Error::from_io(e),
            e => e,
        })
    }
}

/// Decrypts an age file (armored or binary) from `input` to `output` with
/// the first of `identities` that opens it; returns the plaintext length.
/// See [`Decryptor::decrypt_stream`].
///
/// # Errors
/// As [`Decryptor::new`] and [`Decryptor::decrypt_stream`].
pub fn decrypt_stream(
    identities: &[Identity],
    input: impl Read + Send,
    output: impl Write + Send,
    opts: &DecryptOptions,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    Decryptor::new(input, opts)?.decrypt_stream(identities, output, par, progress)
}

/// [`decrypt_stream`] for the age file in the regular file `file` (read
/// from its start): the entry point the `stream` format and Cobblestone
/// have too. The payload's last chunk, which proves its length, is opened
/// first with a positional read ([`Decryptor::from_file`]), so a truncated
/// or extended file writes nothing; then the payload is read through the
/// file's cursor (age's chunk checks, its empty-last-chunk and
/// trailing-data rules, run on the one path that every reader takes).
///
/// # Errors
/// As [`decrypt_stream`].
pub fn decrypt_file(
    identities: &[Identity],
    file: &File,
    output: impl Write + Send,
    opts: &DecryptOptions,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    Decryptor::from_file(file, opts)?.decrypt_stream(identities, output, par, progress)
}

/// Decrypts an age file held in memory (armored or binary) into a new
/// buffer, opening the chunks on `par`'s threads straight into it. All or
/// nothing: on any failure no plaintext is returned (what verified is wiped).
/// A `&[u8]` is read in place; an [`Input::Shared`] (a buffer others may
/// write meanwhile) is read once: the header and the armor are copied as
/// they are parsed, each payload chunk before it is opened.
///
/// # Errors
/// As [`decrypt_stream`].
pub fn decrypt<'a>(
    identities: &[Identity],
    data: impl Into<Input<'a>>,
    opts: &DecryptOptions,
    par: &Parallelism,
) -> Result<SecretBytes, Error> {
    let data = data.into();
    let armored = is_armored(opts.armor, data.bytes());
    let dearmored;
    let data = if armored {
        let mut bin = Vec::with_capacity(data.len() / 4 * 3);
        ArmoredReader::new(data.bytes())
            .read_to_end(&mut bin)
            .map_err(Error::from_io)?;
        dearmored = bin;
        Input::Private(&dearmored[..])
    } else {
        data
    };
    let mut input = data.bytes();
    let header = Header::read(&mut input)?;
    let file_key = unwrap_file_key(&header, identities, opts)?;
    let nonce = read_nonce(&mut input)?;
    let key = payload_key(&file_key, &nonce);
    let payload = data.slice(data.len() - input.len()..);
    // Wiped when dropped: on a failure here, or by the caller.
    let mut plain = SecretBytes::zeroed(payload::opened_len(payload.len()));
    match payload::open_chunks(&key, payload, plain.expose_mut(), 0, true, par) {
        Ok(_) => Ok(plain),
        Err((e, _)) => Err(e),
    }
}

/// Decrypts plaintext bytes `start .. start + len` of the age file held
/// in `source` (a `&File` from its first byte, or a `&[u8]`: [`Source`]) to `output`, reading only the
/// header, the last chunk (which proves the plaintext's length, as the
/// spec asks of any seek from the end) and the chunks holding the range,
/// a batch at a time on `par`'s threads; returns `len`. Chunk *i* is at
/// `header length + 16 + i × 65,552`. An armored file is decrypted from
/// its start instead, keeping only the range (armor is not seekable).
///
/// # Errors
/// [`Error::Range`] beyond the end of the plaintext; as [`decrypt_stream`].
pub fn decrypt_range<'a>(
    identities: &[Identity],
    source: impl Into<Source<'a>>,
    start: u64,
    len: u64,
    output: impl Write + Send,
    opts: &DecryptOptions,
    par: &Parallelism,
) -> Result<u64, Error> {
    match source.into() {
        Source::File(mut file) => {
            file.seek(SeekFrom::Start(0))?;
            range_of(identities, file, start, len, output, opts, par)
        }
        // Read through a cursor: each chunk copied once into private buffers.
        Source::Bytes(bytes) | Source::Shared(bytes) => {
            range_of(identities, io::Cursor::new(bytes), start, len, output, opts, par)
        }
    }
}

/// [`decrypt_range`] over any seekable reader positioned at the file's start.
fn range_of<R: Read + Seek + Send>(
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
    let armored = is_armored(opts.armor, &prefix);
    input.seek(SeekFrom::Start(base))?;
    if armored {
        let mut window = Window {
            out: output,
            skip: start,
            left: len,
            seen: 0,
        };
        let total = decrypt_stream(identities, &mut input, &mut window, opts, par, |_| {})?;
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
