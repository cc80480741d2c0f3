//! One message sealed or opened in parts, by several processes or
//! machines: chunk *k* sits at byte `HEADER + k × SEALED_CHUNK` whatever
//! else the message holds, so each worker seals (or opens) its own run of
//! chunks and writes it at its offset, and the runs together are exactly
//! the message one process writes given the salt.

use super::{CHUNK, Error, HEADER, Keys, SALT, SEALED_CHUNK, Scheme};
use crate::chunked::TAG;
use crate::chunked::seal::{Plain, Scratch, Sealed, open_into, seal_into};
use crate::io::Input;
use crate::par::Parallelism;
use crate::secret::{SecretBytes, wipe};

/// Seals and opens runs of one message's chunks, from its keys derived once
/// (from [`Scheme::parts`], [`Scheme::parts_with_salt`] or
/// [`Scheme::parts_from_header`]).
///
/// A run is chunks `first ..` of the message: whole 16 KiB chunks, except
/// the run that ends the message (`last`), whose final chunk is always
/// shorter than 16 KiB (empty when the message is a multiple of 16 KiB).
/// Every worker derives the same keys from the input key, the message's
/// header and the context: the input key travels to the workers, so send
/// it only over an authenticated, encrypted channel. `Debug` shows no key.
///
/// Opening a run releases nothing of it unless every chunk in it verifies;
/// a run opened without the final chunk proves nothing about the
/// message's length, so whoever splits a message must open the run holding
/// the final chunk too (with `last`) before trusting the whole.
///
/// # Examples
/// ```
/// use parcrypt::cobblestone::{CHUNK, Scheme};
/// use parcrypt::par::Parallelism;
///
/// let par = Parallelism::default();
/// let scheme = Scheme::COBBLESTONE_128;
/// let key = [7u8; 16];
/// let data = vec![1u8; 3 * CHUNK + 100];
/// let parts = scheme.parts(&key, b"ctx")?;
/// let header = *parts.header();
/// // Two workers: chunks 0-1, and chunks 2-3 (the last, 100 bytes).
/// let w1 = scheme.parts_from_header(&key, b"ctx", &header)?.seal(0, &data[..2 * CHUNK], false, &par)?;
/// let w2 = scheme.parts_from_header(&key, b"ctx", &header)?.seal(2, &data[2 * CHUNK..], true, &par)?;
/// let sealed = [&header[..], &w1, &w2].concat();
/// assert_eq!(scheme.decrypt(&key, b"ctx", &sealed, &par)?.expose(), data);
/// # Ok::<(), parcrypt::cobblestone::Error>(())
/// ```
pub struct Parts {
    keys: Keys,
    header: [u8; HEADER],
}

impl std::fmt::Debug for Parts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Parts { keys: (redacted) }")
    }
}

impl Scheme {
    /// The parts of a new message under `key` and `context`, with a fresh
    /// random salt (from the operating system): write
    /// [`Parts::header`] first.
    ///
    /// # Errors
    /// [`Error::KeyLength`].
    pub fn parts(self, key: &[u8], context: &[u8]) -> Result<Parts, Error> {
        let sealer = self.sealer(key, context)?;
        Ok(Parts {
            header: *sealer.header(),
            keys: sealer.keys,
        })
    }

    /// The parts of a message with a salt of the caller's (tests; a salt
    /// must never repeat under one key, see [`Scheme::sealer_with_salt`]).
    ///
    /// # Errors
    /// [`Error::KeyLength`].
    pub fn parts_with_salt(self, key: &[u8], salt: &[u8; SALT], context: &[u8]) -> Result<Parts, Error> {
        let sealer = self.sealer_with_salt(key, salt, context)?;
        Ok(Parts {
            header: *sealer.header(),
            keys: sealer.keys,
        })
    }

    /// The parts of the message whose header (salt ‖ commitment, its first
    /// 56 bytes) is `header`: the keys derived from `key`, the salt and
    /// `context`, and the commitment checked in constant time before
    /// anything else, so no chunk is opened under the wrong key or context.
    /// A worker sealing its part of a message whose header it was given
    /// uses this too.
    ///
    /// # Errors
    /// [`Error::KeyLength`], [`Error::Commitment`].
    pub fn parts_from_header(
        self,
        key: &[u8],
        context: &[u8],
        header: &[u8; HEADER],
    ) -> Result<Parts, Error> {
        let keys = self.open_header(key, context, header)?;
        Ok(Parts {
            keys,
            header: *header,
        })
    }
}

impl Parts {
    /// The message's header: salt ‖ commitment (not secret).
    pub fn header(&self) -> &[u8; HEADER] {
        &self.header
    }

    /// Where chunk `index` starts in the message: `HEADER + index ×
    /// SEALED_CHUNK`.
    pub fn offset(index: u64) -> u64 {
        HEADER as u64 + index * SEALED_CHUNK as u64
    }

    /// Sealed bytes of a run of `plain` plaintext bytes: a tag per chunk,
    /// and the final (short, possibly empty) chunk if `last`.
    pub fn sealed_len(plain: usize, last: bool) -> usize {
        let chunks = plain / CHUNK + usize::from(last);
        plain + chunks * TAG
    }

    /// Chunks in a run of `plain` bytes (as for [`Parts::sealed_len`]).
    fn chunks_in(plain: usize, last: bool) -> u64 {
        (plain / CHUNK + usize::from(last)) as u64
    }

    /// Seals `plain` as chunks `first ..` of the message into `out` (at
    /// least [`Parts::sealed_len`] bytes), on `par`'s threads; returns the
    /// bytes written. Unless `last`, `plain` must be whole chunks (at least
    /// one); with `last` it may be any length, and ends with the message's
    /// final chunk, always shorter than 16 KiB: a run of whole chunks
    /// sealed as the last gets an empty final chunk after them.
    ///
    /// # Errors
    /// [`Error::Part`] for a run that is not whole chunks and not last, or
    /// empty and not last; [`Error::TooLarge`] past 2^38 chunks (nothing
    /// sealed); [`Error::BufferTooSmall`].
    pub fn seal_into(
        &self,
        first: u64,
        plain: &[u8],
        last: bool,
        out: &mut [u8],
        par: &Parallelism,
    ) -> Result<usize, Error> {
        if !last && (plain.is_empty() || plain.len() % CHUNK != 0) {
            return Err(Error::Part(
                "a run that does not end the message must be whole 16 KiB chunks, at least one",
            ));
        }
        let chunks = self.keys.chunks();
        chunks.check_limit(first, Self::chunks_in(plain.len(), last))?;
        let len = Self::sealed_len(plain.len(), last);
        if out.len() < len {
            return Err(Error::BufferTooSmall {
                needed: len,
                got: out.len(),
            });
        }
        seal_into(&chunks, Plain::Memory(plain), &mut out[..len], first, last, par)?;
        Ok(len)
    }

    /// [`Parts::seal_into`] a new buffer.
    ///
    /// # Errors
    /// As [`Parts::seal_into`].
    pub fn seal(&self, first: u64, plain: &[u8], last: bool, par: &Parallelism) -> Result<Vec<u8>, Error> {
        let mut out = vec![0u8; Self::sealed_len(plain.len(), last)];
        self.seal_into(first, plain, last, &mut out, par)?;
        Ok(out)
    }

    /// Plaintext bytes of a run of `sealed` bytes, if a run can have that
    /// length: whole sealed chunks unless `last`; with `last`, whole sealed
    /// chunks and a final one shorter than a sealed full chunk but at least
    /// a tag.
    ///
    /// # Errors
    /// As [`Parts::open_into`] for the run's shape (chunk numbers counted
    /// from `first`).
    pub fn plain_len(first: u64, sealed: usize, last: bool) -> Result<usize, Error> {
        let full = (sealed / SEALED_CHUNK) as u64;
        let rest = sealed % SEALED_CHUNK;
        if !last {
            if sealed == 0 || rest != 0 {
                return Err(Error::Part(
                    "a run that does not end the message must be whole sealed chunks, at least one",
                ));
            }
            return Ok(sealed / SEALED_CHUNK * CHUNK);
        }
        if rest == 0 {
            // It ends with a full chunk, or has none: the final chunk is missing.
            return Err(Error::Truncated {
                chunk: (first + full).checked_sub(1),
            });
        }
        if rest < TAG {
            return Err(Error::ChunkAuthentication { chunk: first + full });
        }
        Ok(sealed - (sealed / SEALED_CHUNK + 1) * TAG)
    }

    /// Opens sealed chunks `first ..` (as [`Parts::seal`] wrote them, or
    /// cut from a message at [`Parts::offset`]) into `out` (at least
    /// [`Parts::plain_len`] bytes) on `par`'s threads; `last` if the run
    /// ends the message (its final chunk is opened as the final one).
    /// Returns the plaintext length. All or nothing: on any failure every
    /// byte of `out` that could have held plaintext is wiped. An
    /// [`Input::Shared`] (a buffer others may write meanwhile) is read once,
    /// each chunk copied before it is opened.
    ///
    /// # Errors
    /// [`Error::ChunkAuthentication`] (modified, moved, or sealed as final
    /// when it is not, or the other way round), [`Error::Truncated`] (a
    /// `last` run ending in a full chunk), [`Error::Part`] (a run that is
    /// not whole sealed chunks and not last), [`Error::TooLarge`],
    /// [`Error::BufferTooSmall`] (nothing done).
    pub fn open_into<'a>(
        &self,
        first: u64,
        sealed: impl Into<Input<'a>>,
        last: bool,
        out: &mut [u8],
        par: &Parallelism,
    ) -> Result<usize, Error> {
        let sealed = sealed.into();
        let len = Self::plain_len(first, sealed.len(), last)?;
        let chunks = self.keys.chunks();
        chunks.check_limit(first, sealed.len().div_ceil(SEALED_CHUNK) as u64)?;
        if out.len() < len {
            return Err(Error::BufferTooSmall {
                needed: len,
                got: out.len(),
            });
        }
        let out = &mut out[..len];
        let scratch = Scratch::default();
        match open_into(&chunks, Sealed::of(sealed, &scratch), out, first, last, par) {
            Ok(_) => Ok(len),
            Err(e) => {
                wipe(out);
                Err(e.into())
            }
        }
    }

    /// [`Parts::open_into`] a new buffer (returned only if every chunk
    /// verified).
    ///
    /// # Errors
    /// As [`Parts::open_into`].
    pub fn open<'a>(
        &self,
        first: u64,
        sealed: impl Into<Input<'a>>,
        last: bool,
        par: &Parallelism,
    ) -> Result<SecretBytes, Error> {
        let sealed = sealed.into();
        let mut out = SecretBytes::zeroed(Self::plain_len(first, sealed.len(), last)?);
        self.open_into(first, sealed, last, out.expose_mut(), par)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::Strategy;

    fn pattern(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i % 251) as u8).collect()
    }

    const KEY: [u8; 16] = [3; 16];
    const SALT_: [u8; SALT] = [5; SALT];

    fn pars() -> Vec<Parallelism> {
        vec![
            Parallelism::new(1, Strategy::Sequential),
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(3, Strategy::WorkStealing),
        ]
    }

    /// Cuts `len` bytes into runs of `per` chunks: `(first chunk, plaintext range, last)`.
    fn runs(len: usize, per: usize) -> Vec<(u64, std::ops::Range<usize>, bool)> {
        let step = per * CHUNK;
        let mut out = Vec::new();
        let mut at = 0;
        loop {
            // A run ends the message once what is left fits in it with the
            // final chunk (a whole run of full chunks still leaves an empty
            // final chunk for the next one).
            if len - at < step {
                out.push(((at / CHUNK) as u64, at..len, true));
                return out;
            }
            out.push(((at / CHUNK) as u64, at..at + step, false));
            at += step;
        }
    }

    #[test]
    fn parts_sealed_apart_concatenate_to_the_one_shot_message() {
        let scheme = Scheme::COBBLESTONE_128;
        for len in [
            0,
            1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            2 * CHUNK,
            5 * CHUNK + 7,
            8 * CHUNK,
        ] {
            let data = pattern(len);
            let one = scheme
                .sealer_with_salt(&KEY, &SALT_, b"ctx")
                .and_then(|s| s.encrypt(&data, &Parallelism::default()))
                .expect("one shot");
            for per in [1, 2, 3, 64] {
                for par in pars() {
                    let parts = scheme.parts_with_salt(&KEY, &SALT_, b"ctx").expect("parts");
                    let mut joined = parts.header().to_vec();
                    for (first, range, last) in runs(len, per) {
                        assert_eq!(Parts::offset(first), joined.len() as u64);
                        let worker = scheme
                            .parts_from_header(&KEY, b"ctx", parts.header())
                            .expect("the header's commitment");
                        joined.extend(worker.seal(first, &data[range], last, &par).expect("seal"));
                    }
                    assert_eq!(joined, one, "len {len}, {per} chunks a run, {par:?}");
                    // And opened back a run at a time, at the same offsets.
                    let mut plain = Vec::new();
                    for (first, range, last) in runs(len, per) {
                        let at = Parts::offset(first) as usize;
                        let end = if last {
                            joined.len()
                        } else {
                            at + range.len() / CHUNK * SEALED_CHUNK
                        };
                        plain.extend_from_slice(
                            parts
                                .open(first, &joined[at..end], last, &par)
                                .expect("open")
                                .expose(),
                        );
                    }
                    assert_eq!(plain, data);
                }
            }
        }
    }

    #[test]
    fn the_final_chunk_rules_hold_for_runs() {
        let scheme = Scheme::COBBLESTONE_256;
        let parts = scheme.parts(&[9; 32], b"").expect("parts");
        let par = Parallelism::default();
        // A last run of whole chunks ends with an empty final chunk.
        let sealed = parts.seal(4, &pattern(2 * CHUNK), true, &par).expect("seal");
        assert_eq!(sealed.len(), 2 * SEALED_CHUNK + TAG);
        // Only the last run may be partial or empty.
        assert!(matches!(
            parts.seal(0, &pattern(CHUNK + 1), false, &par),
            Err(Error::Part(_))
        ));
        assert!(matches!(parts.seal(0, &[], false, &par), Err(Error::Part(_))));
        // A last run cut before its final chunk is truncated; one cut inside
        // its final chunk's tag fails authentication.
        assert!(matches!(
            parts.open(4, &sealed[..2 * SEALED_CHUNK], true, &par),
            Err(Error::Truncated { chunk: Some(5) })
        ));
        assert!(matches!(
            parts.open(4, &sealed[..2 * SEALED_CHUNK + 5], true, &par),
            Err(Error::ChunkAuthentication { chunk: 6 })
        ));
        // Full chunks opened as the last run, or the final one as a middle
        // run, or at another index, fail.
        let middle = parts.seal(0, &pattern(2 * CHUNK), false, &par).expect("seal");
        assert!(parts.open(0, &middle, false, &par).is_ok());
        assert!(parts.open(1, &middle, false, &par).is_err());
        assert!(matches!(
            parts.open(0, &middle, true, &par),
            Err(Error::Truncated { chunk: Some(1) })
        ));
        let short = parts.seal(3, &pattern(100), true, &par).expect("seal");
        assert!(parts.open(3, &short, true, &par).is_ok());
        assert!(matches!(parts.open(3, &short, false, &par), Err(Error::Part(_))));
        // A flipped bit anywhere: nothing released, the buffer wiped.
        let mut bad = middle.clone();
        bad[SEALED_CHUNK + 3] ^= 1;
        let mut out = vec![0xAA; 2 * CHUNK];
        assert!(matches!(
            parts.open_into(0, &bad, false, &mut out, &par),
            Err(Error::ChunkAuthentication { chunk: 1 })
        ));
        assert!(out.iter().all(|&b| b == 0));
    }

    #[test]
    fn workers_check_the_commitment_and_the_limit() {
        let scheme = Scheme::COBBLESTONE_128;
        let parts = scheme.parts(&KEY, b"ctx").expect("parts");
        assert!(matches!(
            scheme.parts_from_header(&KEY, b"other", parts.header()),
            Err(Error::Commitment)
        ));
        assert!(matches!(
            scheme.parts_from_header(&[4; 16], b"ctx", parts.header()),
            Err(Error::Commitment)
        ));
        assert!(matches!(
            scheme.parts_from_header(&[4; 32], b"ctx", parts.header()),
            Err(Error::KeyLength { .. })
        ));
        let par = Parallelism::default();
        let limit = super::super::MAX_CHUNKS;
        assert!(matches!(
            parts.seal(limit - 1, &pattern(CHUNK), true, &par),
            Err(Error::TooLarge)
        ));
        assert!(parts.seal(limit - 1, &pattern(CHUNK - 1), true, &par).is_ok());
        assert_eq!(format!("{parts:?}"), "Parts { keys: (redacted) }");
    }
}
