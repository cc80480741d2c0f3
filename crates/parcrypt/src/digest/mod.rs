//! Hash functions: the one hash-algorithm type of the crate.
//!
//! [`Algorithm`] names SHA-256, SHA-384, SHA-512 (and SHA-1, kept only to
//! verify and decrypt legacy data, and for RSA-OAEP where a peer asks for it:
//! the JCA's default OAEP); [`digest`] hashes a byte string in one
//! call, a [`Hasher`] hashes a message that arrives in pieces, and
//! [`Hasher::update_reader`] hashes everything a reader yields — the crate's
//! one streaming hash, used wherever a reader is hashed. The SHA-1/SHA-2
//! hashing of RSA and ECDSA messages, Merkle leaves and nodes, stream
//! recipient ids and SLH-DSA's SHA-256 tweakable hashes goes through this
//! module, so the backend of those algorithms is chosen here, once. Not
//! every hash does: SLH-DSA takes SHA-512, SHAKE and its other prehashes
//! (SHA-224, SHA-512/t, SHA-3) from RustCrypto's `sha2`/`sha3` directly
//! (this module has no SHA-512 midstate and no SHAKE), and ML-DSA's μ and
//! ML-KEM hash inside AWS-LC.
//!
//! Two value types: [`Output`], the digest of any [`Algorithm`] (what
//! [`digest`] and [`Hasher::finish`] return), and [`Digest`], a SHA-256
//! digest as a plain `[u8; 32]` — what [`sha256`] returns and what every
//! Merkle tree node, root and proof entry is ([`crate::merkle`] has no hash
//! type of its own). RSA and ECDSA take an [`Algorithm`] where they ask
//! which hash.
//!
//! They are one idea in two sizes, kept apart on purpose: an [`Output`]
//! carries its algorithm (a SHA-384 and a SHA-512 digest, or a SHA-256 and
//! a truncated one, cannot be mistaken for each other) and room for the
//! longest; a [`Digest`] is the bare 32 bytes Merkle trees keep by the
//! million (a tree of 2²⁰ leaves holds 64 MiB of nodes as `Digest`s, more
//! than twice that as `Output`s). `Digest::try_from(&output[..])` converts
//! one way, [`digest`]`(Algorithm::Sha256, …)` gives the other. What signs
//! or verifies a digest made elsewhere (`ecdsa::PrivateKey::sign_digest`,
//! RSA's prehashed signatures, JCA `NONEwithECDSA`, pyca's `Prehashed`)
//! takes it as `&[u8]` — bytes that arrive from outside carry no algorithm
//! tag: RSA checks its length against the [`Algorithm`] it is given, ECDSA
//! uses its leftmost 256 bits as the standard says.
//! Plain SHA-256 of a file or a reader is [`sha256_file`] /
//! [`sha256_reader`] (`merkle::Format::Sha256` hashes with them).
//!
//! # Examples
//! ```
//! use parcrypt::digest::{self, Algorithm};
//!
//! let one_shot = digest::digest(Algorithm::Sha256, b"hello world");
//! assert_eq!(&one_shot[..], &digest::sha256(b"hello world")[..]);
//! let mut hasher = Algorithm::Sha256.hasher();
//! hasher.update(b"hello ");
//! hasher.update_reader(&b"world"[..])?;
//! assert_eq!(hasher.finish(), one_shot);
//! assert_eq!(one_shot.len(), Algorithm::Sha256.len());
//! assert_eq!("sha256".parse::<Algorithm>(), Ok(Algorithm::Sha256));
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # Performance: which SHA-256
//! SHA-256 is available from two vetted backends in the dependency tree:
//! AWS-LC (through `aws-lc-rs`, which the RSA and ECDSA code need anyway)
//! and RustCrypto's `sha2`. Both use the CPU's SHA extensions. Measured with
//! `cargo run --release -p parcrypt --example sha_backends`, which runs the
//! two alternately for 21 rounds (one core; AMD EPYC with SHA-NI, 2 cores
//! shared with other builds, load average 8; aws-lc-rs 1.19 / aws-lc-sys
//! 0.47, sha2 0.11), four runs, best round of each run:
//!
//! | SHA-256 of | `sha2` | AWS-LC |
//! |---|---|---|
//! | 4 KiB Merkle leaf + prefix byte | 0.94–1.71 GB/s | 1.05–1.69 GB/s |
//! | 16 KiB leaf + prefix byte | 1.02–1.77 GB/s | 0.96–1.76 GB/s |
//! | 1 MiB leaf + prefix byte | 1.12–1.69 GB/s | 0.95–1.74 GB/s |
//! | 65-byte Merkle node | 89–162 ns | 83–146 ns |
//!
//! The medians of each run were within 10 % of each other for every size,
//! with neither backend ahead consistently; quiet machines agree (the
//! project's calibration machine: 1.58 GB/s for both, 90 ns vs 103 ns per
//! node; the Merkle README's earlier run: 124 ns vs 104 ns). So neither wins
//! on short messages or on long ones, and SHA-256 has one backend: `sha2`.
//! It runs without a foreign call per hash and its state lives on the
//! stack, so the tree code's node hashing (`1 + 32 + 32` bytes, millions of
//! times per tree) inlines it; it is also what Merkle trees used before this
//! module existed, so their speed cannot have moved. SHA-1, SHA-384 and
//! SHA-512 come from AWS-LC, as before.
//!
//! # Many SHA-256s at once
//! [`sha256_many_into`], [`sha256_many_prefixed_into`] and [`sha256_pairs_into`] hash many
//! independent messages side by side (SHA-NI ×2/×4, AVX2 ×8, AVX-512 ×16,
//! chosen per CPU, forced with `PARCRYPT_SHA256_BACKEND` or
//! [`Backend::force`]): what Merkle trees hash their leaves and levels with.
//! [`sha256_many_from_into`] starts every message from a cached [`Midstate`]
//! (SLH-DSA-SHA2's `PK.seed` block, hashed once per key).
//! `README.md` beside this file has the kernels' design and measurements.
use std::fs::File;
use std::io::{self, Read};
use std::str::FromStr;

mod keccak;
mod many;

pub use keccak::{Shake256Backend, Shake256Unavailable, shake256_many_into};
pub use many::{
    BACKEND_ENV, Backend, Digest, EnvError, Midstate, Unavailable, sha256_many_from_into, sha256_many_into,
    sha256_many_prefixed_into, sha256_pairs_into, sha256_prefixed,
};
pub(crate) use many::{Chains, sha256_chains_in_place};

/// A hash algorithm.
///
/// Parsed from its name (`sha256`, `SHA-256`, …) with [`FromStr`]; the
/// command line's `--hash sha256|sha384|sha512` are these names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// SHA-1: only for verifying and decrypting legacy data, and for RSA-OAEP
    /// where a peer asks for it (the JCA's default; OAEP does not rely on
    /// collision resistance).
    Sha1,
    /// SHA-256, the default.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
}

/// The longest digest of any [`Algorithm`] (SHA-512's), in bytes.
pub const MAX_LEN: usize = 64;

impl Algorithm {
    /// The digest length in bytes.
    pub const fn len(self) -> usize {
        match self {
            Algorithm::Sha1 => 20,
            Algorithm::Sha256 => 32,
            Algorithm::Sha384 => 48,
            Algorithm::Sha512 => 64,
        }
    }

    /// Always false (a digest is never empty); here for clippy's `len` convention.
    pub const fn is_empty(self) -> bool {
        false
    }

    /// The lower-case name, as [`FromStr`] reads it: `sha1`, `sha256`, `sha384`, `sha512`.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Sha1 => "sha1",
            Algorithm::Sha256 => "sha256",
            Algorithm::Sha384 => "sha384",
            Algorithm::Sha512 => "sha512",
        }
    }

    /// An incremental hasher, for messages read in pieces.
    pub fn hasher(self) -> Hasher {
        Hasher::new(self)
    }

    fn aws_lc(self) -> &'static aws_lc_rs::digest::Algorithm {
        match self {
            Algorithm::Sha1 => &aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY,
            Algorithm::Sha256 => &aws_lc_rs::digest::SHA256,
            Algorithm::Sha384 => &aws_lc_rs::digest::SHA384,
            Algorithm::Sha512 => &aws_lc_rs::digest::SHA512,
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = crate::name::UnknownName;

    /// Case-insensitive, with or without the dash: `sha256`, `SHA-256`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('-', "").as_str() {
            "sha256" => Ok(Algorithm::Sha256),
            "sha384" => Ok(Algorithm::Sha384),
            "sha512" => Ok(Algorithm::Sha512),
            "sha1" => Ok(Algorithm::Sha1),
            _ => Err(crate::name::UnknownName::new(
                "hash",
                s,
                "sha256, sha384 or sha512",
            )),
        }
    }
}

/// A digest value: up to [`MAX_LEN`] bytes held inline (no allocation).
/// Dereferences to its bytes.
#[derive(Clone, Copy)]
pub struct Output {
    bytes: [u8; MAX_LEN],
    algorithm: Algorithm,
}

impl Output {
    fn new(algorithm: Algorithm, digest: &[u8]) -> Output {
        let mut bytes = [0; MAX_LEN];
        bytes[..digest.len()].copy_from_slice(digest);
        Output { bytes, algorithm }
    }

    /// The algorithm that produced it.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The digest bytes ([`Algorithm::len`] of them).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.algorithm.len()]
    }
}

impl std::ops::Deref for Output {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl AsRef<[u8]> for Output {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl PartialEq for Output {
    fn eq(&self, other: &Output) -> bool {
        self.algorithm == other.algorithm && self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Output {}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Output({}:", self.algorithm)?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

/// The digest of `data` under `algorithm`.
pub fn digest(algorithm: Algorithm, data: &[u8]) -> Output {
    let mut hasher = Hasher::new(algorithm);
    hasher.update(data);
    hasher.finish()
}

/// SHA-256 of `data` in one call, as the 32-byte [`Digest`] (the same bytes
/// as [`digest`]`(Algorithm::Sha256, data)`, without the [`Output`] wrapper).
/// One core: Merkle–Damgård is serial.
pub fn sha256(data: &[u8]) -> Digest {
    sha256_parts(&[data])
}

/// SHA-256 of the concatenation of `parts`, as the 32-byte array Merkle trees
/// store (no intermediate copy of the parts).
pub(crate) fn sha256_parts(parts: &[&[u8]]) -> Digest {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finish()
}

/// The crate's SHA-256 (the backend chosen in the module docs), with a
/// fixed 32-byte output: what Merkle trees hash with. RustCrypto `sha2` on
/// CPUs with the SHA extensions; AWS-LC's assembly (AVX2/AVX/SSSE3) where
/// they are absent or masked by `PARCRYPT_CPU_MASK` — `sha2` would fall back
/// to portable Rust there, and it cannot be masked (it detects the CPU
/// itself), while AWS-LC honours the mask.
#[derive(Clone)]
pub(crate) enum Sha256 {
    Sha2(sha2::Sha256),
    AwsLc(aws_lc_rs::digest::Context),
}

impl Sha256 {
    pub(crate) fn new() -> Sha256 {
        use sha2::Digest as _;
        if crate::cpu::has(crate::cpu::Feature::ShaNi) {
            Sha256::Sha2(sha2::Sha256::new())
        } else {
            Sha256::AwsLc(aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA256))
        }
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        use sha2::Digest as _;
        match self {
            Sha256::Sha2(h) => h.update(data),
            Sha256::AwsLc(h) => h.update(data),
        }
    }

    pub(crate) fn finish(self) -> Digest {
        use sha2::Digest as _;
        match self {
            Sha256::Sha2(h) => h.finalize().into(),
            Sha256::AwsLc(h) => {
                let mut out = [0u8; 32];
                out.copy_from_slice(h.finish().as_ref());
                out
            }
        }
    }
}

/// The state of an incremental digest (see [`Algorithm::hasher`]).
#[derive(Clone)]
pub struct Hasher {
    algorithm: Algorithm,
    state: State,
}

#[derive(Clone)]
enum State {
    Sha256(Sha256),
    AwsLc(aws_lc_rs::digest::Context),
}

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hasher({})", self.algorithm)
    }
}

/// How much [`Hasher::update_reader`] reads at a time: big enough that the
/// read calls cost under 1 % of the hashing (256 KiB take ~170 µs to hash),
/// small enough to stay in the L2 cache and not to matter for short readers.
const READ_BUFFER: usize = 256 << 10;

impl Hasher {
    /// A hasher with nothing added yet.
    pub fn new(algorithm: Algorithm) -> Hasher {
        let state = match algorithm {
            Algorithm::Sha256 => State::Sha256(Sha256::new()),
            other => State::AwsLc(aws_lc_rs::digest::Context::new(other.aws_lc())),
        };
        Hasher { algorithm, state }
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Adds data.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.state {
            State::Sha256(h) => h.update(data),
            State::AwsLc(h) => h.update(data),
        }
    }

    /// Adds everything `reader` yields until its end; the number of bytes read.
    ///
    /// # Errors
    /// The first read error other than [`io::ErrorKind::Interrupted`] (an
    /// interrupted read is retried). What was read before it has been added.
    pub fn update_reader(&mut self, mut reader: impl Read) -> io::Result<u64> {
        let mut buf = vec![0u8; READ_BUFFER];
        let mut total = 0u64;
        loop {
            // The crate's one read loop (retries interrupted reads); a short
            // fill means the input ended.
            let n = crate::io::fill(&mut reader, &mut buf)?;
            self.update(&buf[..n]);
            total += n as u64;
            if n < buf.len() {
                return Ok(total);
            }
        }
    }

    /// The digest of everything added.
    pub fn finish(self) -> Output {
        match self.state {
            State::Sha256(h) => Output::new(self.algorithm, &h.finish()),
            State::AwsLc(h) => Output::new(self.algorithm, h.finish().as_ref()),
        }
    }
}

/// SHA-256 of a file from its first byte, as `sha256sum` prints it: one
/// core hashes (Merkle–Damgård is serial) while a reader thread reads ahead
/// (the crate's one file pipeline, `pipe::run_file`: a regular file whole,
/// as long as it is when hashing starts, a file that shrinks meanwhile an
/// error; a pipe or FIFO as a stream). `progress` gets the bytes of each
/// batch as it is hashed. What `merkle::Format::Sha256` and `parcrypt hash --format sha256`
/// run.
///
/// # Errors
/// A read error, or the file shrinking while it is read.
pub fn sha256_file(file: &File, progress: impl FnMut(u64)) -> io::Result<Digest> {
    let mut hasher = Hasher::new(Algorithm::Sha256);
    let one = crate::par::Parallelism::sequential();
    crate::pipe::run_file(
        Plain(&mut hasher),
        &[],
        file,
        io::sink(),
        crate::pipe::MIN_BUFFER,
        &one,
        progress,
    )?;
    Ok(hasher.sha256())
}

/// [`sha256_file`] of whatever `reader` yields until its end (standard
/// input, a socket), read ahead on a thread of its own. Where no read-ahead
/// is wanted, [`Hasher::update_reader`] reads and hashes in turn.
///
/// # Errors
/// The first read error.
pub fn sha256_reader(reader: impl Read + Send, progress: impl FnMut(u64)) -> io::Result<Digest> {
    let mut hasher = Hasher::new(Algorithm::Sha256);
    let one = crate::par::Parallelism::sequential();
    crate::pipe::run(
        Plain(&mut hasher),
        reader,
        io::sink(),
        crate::pipe::MIN_BUFFER,
        &one,
        progress,
    )?;
    Ok(hasher.sha256())
}

impl Hasher {
    /// The SHA-256 digest as the 32-byte [`Digest`] (a SHA-256 hasher).
    fn sha256(self) -> Digest {
        let mut out = [0u8; 32];
        out.copy_from_slice(&self.finish());
        out
    }
}

/// Plain SHA-256 of a stream as a pipeline transform: each buffer is
/// added to the hasher where it lies (nothing is written).
struct Plain<'a>(&'a mut Hasher);

impl crate::pipe::Transform for Plain<'_> {
    type Error = io::Error;
    fn unit(&self) -> usize {
        64
    }
    fn hold_back(&self, _len: usize) -> usize {
        0
    }
    fn apply(&mut self, data: &mut [u8], _par: &crate::par::Parallelism) {
        self.0.update(data);
    }
    fn finish(self, _tail: &[u8]) -> io::Result<Vec<u8>> {
        Ok(Vec::new())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn sha256_of_a_file_and_a_reader_is_the_one_shot_sha256() {
        use std::io::Write;
        let mb = crate::pipe::MIN_BUFFER;
        let sizes: &[usize] = if crate::emulated() {
            &[0, 1, 64, 65, mb + 1]
        } else {
            &[0, 1, 63, 64, 65, 4096, mb - 1, mb, mb + 1, 2 * mb + 77]
        };
        for &len in sizes {
            let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let mut file = tempfile::tempfile().unwrap();
            file.write_all(&data).unwrap();
            let mut seen = 0;
            let got = sha256_file(&file, |n| seen += n).unwrap();
            assert_eq!(got, sha256(&data), "{len} bytes from a file");
            assert_eq!(seen, len as u64, "progress of {len} bytes");
            assert_eq!(
                sha256_reader(&data[..], |_| {}).unwrap(),
                sha256(&data),
                "{len} bytes read"
            );
        }
    }

    const ALL: [Algorithm; 4] = [
        Algorithm::Sha1,
        Algorithm::Sha256,
        Algorithm::Sha384,
        Algorithm::Sha512,
    ];

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// FIPS 180-4 examples ("abc").
    #[test]
    fn known_answers() {
        let abc = [
            (Algorithm::Sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (
                Algorithm::Sha256,
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            ),
            (
                Algorithm::Sha384,
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed\
                 8086072ba1e7cc2358baeca134c825a7",
            ),
            (
                Algorithm::Sha512,
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                 2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            ),
        ];
        for (alg, want) in abc {
            assert_eq!(hex(&digest(alg, b"abc")), want, "{alg}");
            assert_eq!(alg.len(), want.len() / 2);
        }
        assert_eq!(
            hex(&sha256_parts(&[b"a", b"", b"bc"])),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(sha256(b"abc"), sha256_parts(&[b"ab", b"c"]));
    }

    /// Incremental hashing, in any split, equals the one-shot digest.
    #[test]
    fn pieces_equal_one_shot() {
        let data: Vec<u8> = (0..10_000usize).map(|i| (i % 251) as u8).collect();
        for alg in ALL {
            let want = digest(alg, &data);
            for cut in [0, 1, 63, 64, 65, 4096, data.len()] {
                let mut h = alg.hasher();
                h.update(&data[..cut]);
                h.update(&data[cut..]);
                assert_eq!(h.finish(), want, "{alg} cut at {cut}");
            }
            let mut h = alg.hasher();
            assert_eq!(h.update_reader(&data[..]).unwrap(), data.len() as u64);
            assert_eq!(h.finish(), want, "{alg} from a reader");
            assert_eq!(want.algorithm(), alg);
        }
    }

    /// A reader that is interrupted before every read, returns a few bytes
    /// at a time, then fails or ends.
    struct Flaky<'a> {
        data: &'a [u8],
        interrupt: bool,
        fail_at_end: bool,
    }

    impl Read for Flaky<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(io::ErrorKind::Interrupted.into());
            }
            if self.data.is_empty() && self.fail_at_end {
                return Err(io::Error::other("disk on fire"));
            }
            let n = self.data.len().min(buf.len()).min(7);
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn update_reader_retries_interrupts_and_reports_errors() {
        let data: Vec<u8> = (0..1000usize).map(|i| (i % 251) as u8).collect();
        let mut h = Algorithm::Sha256.hasher();
        let read = h.update_reader(Flaky {
            data: &data,
            interrupt: false,
            fail_at_end: false,
        });
        assert_eq!(read.unwrap(), 1000);
        assert_eq!(h.finish(), digest(Algorithm::Sha256, &data));

        let mut h = Algorithm::Sha512.hasher();
        let err = h
            .update_reader(Flaky {
                data: &data,
                interrupt: false,
                fail_at_end: true,
            })
            .unwrap_err();
        assert_eq!(err.to_string(), "disk on fire");
    }

    #[test]
    fn names_parse_and_unknown_names_are_typed_errors() {
        for alg in ALL {
            assert_eq!(alg.name().parse::<Algorithm>(), Ok(alg));
            assert_eq!(alg.to_string(), alg.name());
        }
        assert_eq!("SHA-384".parse::<Algorithm>(), Ok(Algorithm::Sha384));
        let err = "md5".parse::<Algorithm>().unwrap_err();
        assert_eq!(err.kind, "hash");
        assert_eq!(
            err.to_string(),
            "unknown hash \"md5\" (expected sha256, sha384 or sha512)"
        );
    }
}
