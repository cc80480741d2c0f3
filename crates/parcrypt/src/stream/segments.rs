//! One stream written or read in parts, by several processes or machines:
//! [`Segments`] seals or opens any run of a stream's segments given its
//! payload key, so each worker produces the bytes of its part of the file
//! and the parts concatenated (or written at their offsets) are a stream the
//! plain `decrypt_stream` reads.

use std::io::Read;

use super::header::{Header, payload_key};
use super::{DecryptOptions, Error, Identity, MAX_SEGMENT, MIN_SEGMENT, Options, Recipient, chunks};
use crate::chunked::TAG;
use crate::chunked::buffer::Buffer;
use crate::chunked::seal::{Plain, Scratch, Sealed, open_batch, seal_batch};
use crate::ffi::AeadKey;
use crate::io::Input;
use crate::par::Parallelism;
use crate::secret::{SecretBytes, SecretKey};

/// Seals and opens runs of one stream's segments.
///
/// The payload key it holds opens and forges every segment of this one
/// stream (not its header, and no other stream): send it to workers only
/// over an authenticated, encrypted channel, and never log it. `Debug`
/// shows no key.
///
/// # Examples
/// ```
/// use parcrypt::par::Parallelism;
/// use parcrypt::secret::SecretKey;
/// use parcrypt::stream::{self, DecryptOptions, Identity, Options, Recipient, Segments};
///
/// let par = Parallelism::default();
/// let key = [7u8; 32];
/// let opts = Options { segment_size: 4096 };
/// let (header, sealer) = Segments::create(&[Recipient::Key(SecretKey::from_slice(&key).unwrap())], &opts)?;
/// let data = vec![1u8; 10_000];
/// // Two workers: segments 0-1 (8192 bytes) and segment 2 (the last).
/// let (k, n) = (sealer.payload_key().clone(), sealer.header_len());
/// let w1 = Segments::from_payload_key(&k, 4096, n)?.seal(0, &data[..8192], false, &par)?;
/// let w2 = Segments::from_payload_key(&k, 4096, n)?.seal(2, &data[8192..], true, &par)?;
/// let file = [header, w1, w2].concat();
/// let mut out = Vec::new();
/// stream::decrypt_stream(&[Identity::Key(SecretKey::from_slice(&key).unwrap())], &file[..], &mut out,
///                        &DecryptOptions::default(), &par, |_| {})?;
/// assert_eq!(out, data);
/// # Ok::<(), parcrypt::stream::Error>(())
/// ```
pub struct Segments {
    key: AeadKey,
    key_bytes: SecretKey<32>,
    segment_size: usize,
    header_len: u64,
}

impl std::fmt::Debug for Segments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Segments {{ segment_size: {}, header_len: {}, key: (redacted) }}",
            self.segment_size, self.header_len
        )
    }
}

impl Segments {
    /// A new stream for `recipients`: its header (the file's first bytes)
    /// and the sealer of its segments.
    ///
    /// # Errors
    /// As [`encrypt_stream`](super::encrypt_stream) for bad options or recipients.
    pub fn create(recipients: &[Recipient<'_>], opts: &Options) -> Result<(Vec<u8>, Segments), Error> {
        let (header, keys) = Header::seal(recipients, opts.segment_size)?;
        let header_len = header.len() as u64;
        Ok((
            header,
            Segments {
                key: keys.payload,
                key_bytes: keys.payload_bytes,
                segment_size: opts.segment_size,
                header_len,
            },
        ))
    }

    /// The sealer of an existing stream, from its header (read from `input`,
    /// which is left at the first segment) opened with the first of `identities` that opens it.
    ///
    /// # Errors
    /// As [`decrypt_stream`](super::decrypt_stream) for the header.
    pub fn from_header(
        input: &mut impl Read,
        identities: &[Identity<'_>],
        opts: &DecryptOptions,
        par: &Parallelism,
    ) -> Result<Segments, Error> {
        let (header, header_len) = Header::read(input)?;
        let keys = header.open(identities, opts, par)?;
        Ok(Segments {
            key: keys.payload,
            key_bytes: keys.payload_bytes,
            segment_size: header.segment_size,
            header_len,
        })
    }

    /// A worker's sealer: the stream's payload key ([`Segments::payload_key`]),
    /// segment size and header length.
    ///
    /// # Errors
    /// [`Error::Options`] for a segment size the format does not allow.
    pub fn from_payload_key(
        key: &SecretKey<32>,
        segment_size: usize,
        header_len: u64,
    ) -> Result<Segments, Error> {
        if !segment_size.is_power_of_two() || !(MIN_SEGMENT..=MAX_SEGMENT).contains(&segment_size) {
            return Err(Error::Options(format!(
                "segment size {segment_size} is not a power of two from 4 KiB to 1 GiB"
            )));
        }
        Ok(Segments {
            key: payload_key(key.expose()),
            key_bytes: key.clone(),
            segment_size,
            header_len,
        })
    }

    /// The payload key, to hand to workers (see the type's warning).
    pub fn payload_key(&self) -> &SecretKey<32> {
        &self.key_bytes
    }

    /// Plaintext bytes per segment.
    pub fn segment_size(&self) -> usize {
        self.segment_size
    }

    /// The header's length: segment `i` starts at byte
    /// `header_len + i × (segment_size + 16)` of the file.
    pub fn header_len(&self) -> u64 {
        self.header_len
    }

    /// Where segment `index` starts in the file.
    pub fn offset(&self, index: u64) -> u64 {
        self.header_len + index * (self.segment_size + TAG) as u64
    }

    /// Seals `plain` as segments `first ..` of the stream: whole segments,
    /// except that the part holding the stream's end (`last`) may end with a
    /// shorter one (an empty stream is one empty last segment at index 0).
    ///
    /// # Errors
    /// [`Error::Options`] for a part that is not whole segments and not last,
    /// or an empty part that is not the whole of an empty stream.
    pub fn seal(&self, first: u64, plain: &[u8], last: bool, par: &Parallelism) -> Result<Vec<u8>, Error> {
        let seg = self.segment_size;
        if !last && plain.len() % seg != 0 {
            return Err(Error::Options(
                "only the last part may end with a partial segment".into(),
            ));
        }
        if plain.is_empty() && !(last && first == 0) {
            return Err(Error::Options(
                "an empty part is only the whole of an empty stream".into(),
            ));
        }
        let mut sealed = Buffer::new(false);
        seal_batch(
            &chunks(&self.key, seg),
            Plain::Memory(plain),
            &mut sealed,
            first,
            last,
            par,
        )?;
        Ok(sealed.into_ciphertext())
    }

    /// Opens sealed segments `first ..` (as [`Segments::seal`] wrote them, or
    /// cut from a stream file at [`Segments::offset`]); `last` if they end
    /// the stream. Returns the plaintext, or the first failing segment's
    /// error. An [`Input::Shared`] (a buffer others may write meanwhile) is
    /// read once, each segment copied before it is opened.
    ///
    /// # Errors
    /// [`Error::SegmentAuthentication`] (modified or misplaced),
    /// [`Error::Truncated`] if `last` but the run's last segment was not
    /// sealed as the stream's last, [`Error::Options`] for a part that is not
    /// whole sealed segments and not last.
    pub fn open<'a>(
        &self,
        first: u64,
        sealed: impl Into<Input<'a>>,
        last: bool,
        par: &Parallelism,
    ) -> Result<SecretBytes, Error> {
        let sealed = sealed.into();
        let enc = self.segment_size + TAG;
        if !last && sealed.len() % enc != 0 {
            return Err(Error::Options(
                "only the last part may end with a partial segment".into(),
            ));
        }
        let mut plain = Buffer::new(true);
        let scratch = Scratch::default();
        open_batch(
            &chunks(&self.key, self.segment_size),
            Sealed::of(sealed, &scratch),
            &mut plain,
            first,
            last,
            par,
        )?;
        Ok(SecretBytes::from(&plain[..]))
    }
}
