//! parcrypt: multi-core cryptography.
//!
//! parcrypt is the parallel layer over vetted primitives (AWS-LC): the block
//! cipher, hashes and big-number arithmetic come from the backend; parcrypt
//! cuts the work across cores, one code path per algorithm driven by a
//! [`par::Parallelism`], and implements the formats around it.
//!
//! - [`digest`]: SHA-256/384/512 — the one hash-algorithm type, one-shot and
//!   incremental hashing (every module hashes through it), and many
//!   SHA-256s at once (SHA-NI, AVX2, AVX-512 kernels) for Merkle trees.
//! - [`cpu`]: the CPU features every dispatch point asks for, and
//!   `PARCRYPT_CPU_MASK`, which masks some for tests and measurements.
//! - [`par`]: strategies (`Sequential`, `Static`, `WorkStealing`) and thread counts.
//! - [`aes`]: AES-CBC (parallel decryption), AES-CTR, streaming [`aes::Crypter`],
//!   `openssl enc`'s password-derived keys ([`aes::PasswordKey`]).
//! - [`hazmat`]: raw ECB and unpadded CBC, RC4 and PARC4, the research
//!   paper's chunked ("bulk") RSA — for compatibility and study only.
//! - [`merkle`]: RFC 6962/9162 trees and proofs, BitTorrent v2, Glacier.
//! - [`ecdsa`]: P-256 keys and signatures; joint, split (the JCE paper's) and
//!   batch verification.
//! - [`slhdsa`]: SLH-DSA (FIPS 205), all twelve parameter sets; a
//!   signature's FORS and XMSS trees built on all cores, the SHA2 sets'
//!   hashes in the lanes of the many-message SHA-256 kernels.
//! - [`stream`]: the authenticated, segmented, seekable file format, sealed
//!   and opened on all cores.
//! - [`age`]: C2SP age v1 files, byte-compatible with the age CLI, rage and
//!   filippo.io/age (X25519, post-quantum hybrid, SSH, passphrase
//!   recipients; armor; byte ranges), their chunks sealed and opened on all
//!   cores.
//! - [`cobblestone`]: C2SP chunked-encryption v1 and Cobblestone-128/-256,
//!   byte-identical with pyca/cryptography's `cryptography.cobblestone`, on
//!   all cores, with push encryptors/decryptors and byte ranges.
//!
//! The three chunked formats sit side by side on one private chunk engine
//! (`src/chunked/`: batches of chunks sealed and opened in parallel, the
//! reader/writer pipeline, the file loops, bounded buffers); none imports
//! another.
//! - [`secret`]: key and byte types that are wiped on drop and redacted in
//!   `Debug`; the crate's one wipe function.
//! - [`rsa`]: parallel key generation, CRT halves on two threads, PSS/PKCS#1
//!   signatures, OAEP.
//! - [`mlkem`]: ML-KEM-512/768/1024 (FIPS 203) key encapsulation: keys
//!   from a seed or at random, PKCS#8 (seed, expanded and both forms) and
//!   SPKI, as pyca and OpenSSL 3.5 write them; [`kem`]: the traits every
//!   KEM's keys answer.
//! - [`anykey`]: a key of any family from PEM or DER, the family picked
//!   by the key's algorithm OID ([`keys::Algorithm`]), an encrypted key
//!   decrypted once.
//! - [`pkcs8`]: password-protected private keys (`ENCRYPTED PRIVATE KEY`,
//!   PBES2 with PBKDF2 or scrypt and AES-CBC), as OpenSSL 3 writes them.
//!
//! Every strategy and thread count gives byte-identical output; the sequential
//! strategy is the reference.
//!
//! # Platforms
//! Built and tested on Linux, x86-64 (natively, on every CPU level: see
//! [`cpu`]) and aarch64 (under emulation). Unix only by design: files are
//! read with positional reads (`std::os::unix::fs::FileExt`, `pread(2)`;
//! never mapped), in one module of I/O plumbing ([`io`]);
//! other targets fail to build with a message saying so. The Linux-only
//! calls each sit behind a function with a portable fallback: the pipe
//! size (`F_SETPIPE_SZ`, [`io::grow_pipe`]; elsewhere the pipe keeps its
//! size), the CLI's no-replace rename (`tempfile`'s `persist_noclobber`:
//! `renameat2` on Linux, a link and an unlink elsewhere) and the Python package's huge-page advice (`MADV_HUGEPAGE`;
//! elsewhere none). macOS and the BSDs should build with those fallbacks,
//! but are neither built nor tested here.
//!
//! # API conventions
//!
//! One vocabulary for every family, so a call reads the same whatever the
//! algorithm. These are the rule; a name that breaks one is a bug.
//!
//! - **Where output goes is in the name's suffix**, always last:
//!   - `x(input, …) -> Vec<u8>` returns a new buffer:
//!     [`Cbc::encrypt`](aes::Cbc::encrypt), [`Ecb::decrypt`](hazmat::Ecb::decrypt),
//!     [`Crypter::update`](aes::Crypter::update) and
//!     [`finish`](aes::Crypter::finish),
//!     [`Segments::seal`](stream::Segments::seal) and
//!     [`open`](stream::Segments::open);
//!   - `x_into(input, output, …)` writes into the caller's slice and leaves
//!     the input as it was: [`Ctr::apply_keystream_into`](aes::Ctr::apply_keystream_into),
//!     [`Gcm::seal_into`](aes::Gcm::seal_into), [`Gcm::open_into`](aes::Gcm::open_into),
//!     [`Crypter::update_into`](aes::Crypter::update_into);
//!   - `x_in_place(buf, …)` overwrites its input:
//!     `apply_keystream_in_place` of [`Ctr`](aes::Ctr::apply_keystream_in_place),
//!     [`Parc4`](hazmat::Parc4::apply_keystream_in_place) and
//!     [`Rc4`](hazmat::Rc4::apply_keystream_in_place),
//!     [`Gcm::seal_in_place`](aes::Gcm::seal_in_place),
//!     [`Cbc::decrypt_in_place`](aes::Cbc::decrypt_in_place),
//!     [`Ecb::encrypt_blocks_in_place`](hazmat::Ecb::encrypt_blocks_in_place).
//!
//!   (`mod vocabulary`'s tests hold this rule, `_with`'s meaning and
//!   `par`'s place on every `pub fn`.)
//!   What qualifies the operation comes before the suffix
//!   (`open_private_into`, `encrypt_blocks_in_place`). A family offers the
//!   forms that make sense for it; the bare verb never means in place, and
//!   no name ends in `_to_vec` (a new buffer is the bare verb's).
//!   Readers to writers: a cipher's `process(input, output, …)`; a file
//!   format's `x_stream(…, input, output, …)`; `_with` adds a
//!   buffer size and a progress callback, `_file` reads an open
//!   [`File`](std::fs::File) with positional reads.
//! - **The three file formats offer the same entry points**, by the rule
//!   above ([`stream`], [`age`], [`cobblestone`]; Cobblestone's are methods
//!   of its `Scheme` and `Sealer`, which carry its key and context):
//!   - `encrypt(…, plain, …) -> Vec<u8>` / `decrypt(…, sealed, …) ->`
//!     [`SecretBytes`](secret::SecretBytes) in memory, where the format offers it ([`age::encrypt`],
//!     [`age::decrypt`], [`cobblestone::Sealer::encrypt`],
//!     [`cobblestone::Scheme::decrypt`]);
//!   - `encrypt_stream` / `decrypt_stream`: a reader to a writer
//!     ([`stream::encrypt_stream`], [`age::decrypt_stream`],
//!     [`cobblestone::Scheme::decrypt_stream`]);
//!   - `encrypt_file` / `decrypt_file`: a regular file, read with
//!     positional reads where the format allows it;
//!   - `decrypt_range(…, source, start, len, output, …)`: `source` is any
//!     [`io::Source`] (a `&File` or a `&[u8]`), for every format.
//!
//!   What opens a file is always a slice, `identities: &[Identity]`, tried
//!   in order ([`stream::Identity`], [`age::Identity`]); the same
//!   condition has the same error variant in each format's `Error`:
//!   `WrongFormat` (not this format), `NoMatchingIdentity` (no identity
//!   opens the header), `HeaderAuthentication` (the header was modified),
//!   `MalformedHeader`, `Truncated`, `Range`, `WorkFactor`.
//! - **Secrets out are [`SecretBytes`](secret::SecretBytes) or
//!   [`SecretString`](secret::SecretString)**, wiped when dropped and
//!   redacted in `Debug`, read with `expose()`: private keys' DER and PEM
//!   (`to_pkcs8_der`, `to_pkcs8_pem`, …), age identity strings and key
//!   files, an RSA decryption, and the plaintext of every one-shot or
//!   pushed decryption that returns a new buffer (`Cbc::decrypt`, the
//!   formats' `decrypt`, `open` and `Decryptor::update`/`finalize`). The
//!   one exception, [`aes::Crypter`], serves both directions and returns
//!   plain `Vec`s (its `update_into` writes into a buffer of yours).
//! - **Constructors are named for what they make**, never chosen by `bool`
//!   flags: [`Crypter::cbc_encrypt`](aes::Crypter::cbc_encrypt)`(key, iv)`,
//!   [`hazmat::ecb_decrypter_no_padding`]`(key)`; `new(key, …)` where a
//!   type makes one thing ([`Ctr::new`](aes::Ctr::new), [`Parc4::new`](hazmat::Parc4::new)).
//! - **Keys are named alike in [`rsa`] and [`ecdsa`]**: `PrivateKey` and
//!   `PublicKey`, `private.public_key()`, `PrivateKey::generate(…)`,
//!   `from_bytes(bytes, &par)` (PEM or DER), `to_pkcs8_pem`, `to_spki_pem`; for
//!   password-protected keys ([`pkcs8`]) `from_bytes_with_password` and
//!   `to_pkcs8_encrypted_pem`/`_der`. Every reader that may read a private
//!   key takes the caller's `&par` ([`keys`]): SLH-DSA rebuilds its root on
//!   it, the others ignore it. RSA's
//!   `generate(bits, &par)` searches for primes on the threads of `par`;
//!   ECDSA's `generate()` takes no `par`, having nothing to split.
//!   [`slhdsa`]'s keys have the same names over raw FIPS 205 encodings
//!   (`from_bytes(set, bytes, &par)`: a private key's root is rebuilt on
//!   `par` and checked) and read PKCS#8 with `from_pkcs8_der`/`_pem`/
//!   `_with_password(…, &par)` and SPKI with `from_spki_der`/`_pem`.
//! - **One error type per family**, `Error` in the family's module:
//!   [`aes::Error`] for every AES mode (hazmat's ECB and unpadded CBC
//!   included), [`rsa::Error`] (hazmat's bulk RSA included),
//!   [`ecdsa::Error`], [`stream::Error`], [`merkle::Error`], [`age::Error`],
//!   [`cobblestone::Error`], [`slhdsa::Error`].
//!   RC4 and PARC4 live in [`hazmat`] beside AES and RSA items, so theirs is
//!   named for the family: [`hazmat::Rc4Error`].
//! - **`par: &Parallelism` comes last** among the data arguments: input
//!   first, then sizes and options, then how to run it
//!   (`Rfc6962::root(&leaves, &par)`, `ctr.apply_keystream_in_place(&counter,
//!   &mut data, &par)`, `crypter.process_with(input, output, buffer, &par,
//!   progress)`). [`Parallelism::new`](par::Parallelism::new)`(0, …)` means
//!   every core, as `--threads 0` does. What is serial by nature takes no
//!   `par` rather than one it would ignore: CBC encryption, RC4 (whose
//!   `&mut self` is its keystream position), ECDSA key generation.
//! - **Then, if any, `progress: impl FnMut(u64)`**, called with the number of
//!   bytes (or items) done since the last call.
//! - **`Options` structs hold format choices only** (segment sizes, limits),
//!   never the `Parallelism`: `stream::encrypt_stream(&recipients, input, output,
//!   &opts, &par, progress)`, `stream::decrypt_range(&identity, &file, start,
//!   len, output, &opts, &par)`.
//! - **Names parse one way**: every `FromStr` (strategies, schemes, hashes,
//!   CRT modes, verify strategies) accepts the names its `name()`/`Display`
//!   prints and fails with the one error type [`UnknownName`].
//! - **An algorithm enum names algorithms, not schedules**: whether work runs
//!   on one thread or several is the `Parallelism`'s business
//!   (`ecdsa::VerifyStrategy::Split` under `Parallelism::sequential()` is the
//!   split computed on one thread).
//!
//! AES: the three forms, and a streaming crypter from a named constructor.
//!
//! ```
//! use parcrypt::aes::{Crypter, Ctr, Gcm};
//! use parcrypt::par::{Parallelism, Strategy};
//!
//! let par = Parallelism::new(0, Strategy::WorkStealing); // every core
//! let ctr = Ctr::new(&[1; 16])?;
//! let counter = [0; 16];
//! let mut data = b"attack at dawn".to_vec();
//! let mut copy = vec![0; data.len()];
//! ctr.apply_keystream_into(&counter, &data, &mut copy, &par);
//! ctr.apply_keystream_in_place(&counter, &mut data, &par);
//! assert_eq!(data, copy);
//!
//! let gcm = Gcm::new(&[2; 32])?;
//! let mut sealed = vec![0; copy.len()];
//! let tag = gcm.seal_into(&[3; 12], b"aad", &copy, &mut sealed, &par);
//! gcm.open_in_place(&[3; 12], b"aad", &mut sealed, &tag, &par)?;
//! assert_eq!(sealed, copy);
//!
//! let mut enc = Crypter::cbc_encrypt(&[4; 32], &[5; 16])?;
//! let mut ct = enc.update(b"hello", &par);
//! ct.extend(enc.finish()?);
//! let mut plain = Vec::new();
//! Crypter::cbc_decrypt(&[4; 32], &[5; 16])?.process(&ct[..], &mut plain, &par)?;
//! assert_eq!(plain, b"hello");
//! # Ok::<(), parcrypt::aes::Error>(())
//! ```
//!
//! Hazmat: RC4 and PARC4 in the same shape, as far as RC4 allows.
//!
//! ```
//! use parcrypt::hazmat::{Parc4, Rc4};
//! use parcrypt::par::Parallelism;
//!
//! let par = Parallelism::default();
//! let parc4 = Parc4::new(&[6; 16], &[7; 16], 4096)?;
//! let mut whole = vec![0u8; 10_000];
//! parc4.apply_keystream_in_place(0, &mut whole, &par);
//! let mut out = Vec::new();
//! parc4.process(&[0u8; 10_000][..], &mut out, &par)?;
//! assert_eq!(out, whole);
//!
//! // RC4 has no offset and no `par`: its position is its state.
//! let mut rc4 = Rc4::new(&[8; 16])?;
//! let (mut first, mut rest) = ([0u8; 3], Vec::new());
//! rc4.apply_keystream_in_place(&mut first);
//! rc4.process(&[0u8; 5][..], &mut rest)?;
//! let mut all = [0u8; 8];
//! Rc4::new(&[8; 16])?.apply_keystream_in_place(&mut all);
//! assert_eq!([&first[..], &rest[..]].concat(), all);
//! # Ok::<(), parcrypt::hazmat::Rc4Error>(())
//! ```
//!
//! RSA and ECDSA: the same key pair names.
//!
//! ```
//! use parcrypt::digest::Algorithm;
//! use parcrypt::keys::SigningKey;
//! use parcrypt::par::Parallelism;
//! use parcrypt::{ecdsa, rsa};
//!
//! let par = Parallelism::default();
//! let key = rsa::PrivateKey::generate(2048, &par)?;
//! let sig = key.sign(rsa::Scheme::Pss, Algorithm::Sha256, b"msg", &par)?;
//! key.public_key().verify(rsa::Scheme::Pss, Algorithm::Sha256, b"msg", &sig)?;
//!
//! let key = ecdsa::PrivateKey::generate()?;
//! let sig = key.sign(b"msg")?;
//! key.public_key().verify_vartime(b"msg", &sig)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The stream format: readers to writers (`_stream`); [`stream::Segments`] returns new buffers.
//!
//! ```
//! use parcrypt::par::Parallelism;
//! use parcrypt::secret::SecretKey;
//! use parcrypt::stream::{self, Options, Recipient, Segments};
//!
//! let par = Parallelism::default();
//! let key = SecretKey::from_slice(&[9; 32]).expect("32 bytes");
//! let opts = Options { segment_size: 4096 };
//! let mut file = Vec::new();
//! stream::encrypt_stream(&[Recipient::Key(key.clone())], &b"hi"[..], &mut file, &opts, &par, |_| {})?;
//! let (header, segments) = Segments::create(&[Recipient::Key(key)], &opts)?;
//! let sealed = segments.seal(0, b"hi", true, &par)?;
//! assert_eq!(segments.open(0, &sealed, true, &par)?.expose(), b"hi");
//! assert_eq!(file.len(), header.len() + sealed.len());
//! # Ok::<(), parcrypt::stream::Error>(())
//! ```
//!
//! Merkle trees: `par` last, then `progress`.
//!
//! ```
//! use parcrypt::merkle::{Chunks, Rfc6962};
//! use parcrypt::par::{Parallelism, Strategy};
//!
//! let data = vec![7u8; 100_000];
//! let par = Parallelism::new(2, Strategy::Static);
//! let mut read = 0;
//! let streamed = Rfc6962::root_reader(&data[..], 4096, &par, |n| read += n)?;
//! assert_eq!(streamed, Rfc6962::root(&Chunks::new(&data, 4096), &par));
//! assert_eq!(read, 100_000);
//! # Ok::<(), parcrypt::merkle::Error>(())
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(not(unix))]
compile_error!(
    "parcrypt supports Unix targets only: it reads files with pread(2) \
     (std::os::unix::fs::FileExt)"
);

pub mod aes;
pub mod age;
pub mod anykey;
mod chunked;
pub mod cobblestone;
pub mod cpu;
pub mod digest;
pub mod ecdsa;
mod ffi;
pub mod hazmat;
pub mod io;
pub mod kem;
pub mod keys;
pub mod merkle;
pub mod mldsa;
pub mod mlkem;
mod name;
pub mod par;
mod pem;
mod pipe;
pub mod pkcs8;
pub mod rsa;
pub mod secret;
pub mod slhdsa;
pub mod stream;

pub use name::UnknownName;

/// Whether the tests run under emulation (`scripts/test-aarch64.sh` sets
/// `PARCRYPT_EMULATED=1` for qemu-user, 10–30× slower): sweeps whose cost
/// is the number of schedules run a cross-section there, the native run
/// covers them in full (tests/it/common.rs `emulated` says why).
#[cfg(test)]
pub(crate) fn emulated() -> bool {
    std::env::var_os("PARCRYPT_EMULATED").is_some()
}

/// Every strategy on 1 to `max_threads` threads; under emulation
/// ([`emulated`]) the cross-section sequential, static on 3 threads (uneven
/// parts) and work stealing on `max_threads` (more parts than cores), as
/// tests/it/common.rs `every_parallelism` for the integration tests.
#[cfg(test)]
pub(crate) fn test_schedules(max_threads: usize) -> Vec<par::Parallelism> {
    use par::{Parallelism, Strategy};
    if emulated() {
        return vec![
            Parallelism::sequential(),
            Parallelism::new(3, Strategy::Static),
            Parallelism::new(max_threads, Strategy::WorkStealing),
        ];
    }
    Strategy::ALL
        .into_iter()
        .flat_map(|strategy| (1..=max_threads).map(move |threads| Parallelism::new(threads, strategy)))
        .collect()
}

/// The module layering, checked on the source tree (CI runs it with the
/// unit tests) by the workspace's one checker (`crates/layering`, shared
/// with the lab): every top-level module sits in one layer and imports only
/// lower ones; test code may reach anywhere.
#[cfg(test)]
mod layering {
    /// Bottom first. `io` is the plumbing (fill, positional reads, map
    /// windows, the pipeline), `pipe` the streaming transforms built on it
    /// (below `digest`, whose `sha256_file` hashes through it),
    /// `ffi` the one door to AWS-LC; `chunked` is the chunk engine every
    /// chunked format sits on; `hazmat` sits above the safe families it
    /// builds on (ECB streams through `aes::Crypter`, bulk RSA is `rsa`'s
    /// OAEP per block), so they reach nothing dangerous by importing it;
    /// the chunked formats (`stream`, `age`, `cobblestone`) sit side by
    /// side on the engine, and none imports another. `pkcs8` (encrypted
    /// private keys) sits on `ffi`'s KDFs and under the key families that
    /// read and write it (`rsa`, `ecdsa`, `mlkem`, `slhdsa`, which also
    /// borrows its DER reader and writer); `kem`, the KEM family's
    /// traits, sits above it (its methods name `pkcs8::Options`) and under
    /// the KEMs that implement it (`mlkem`); `anykey`, which reads a key of
    /// any family, sits above them all.
    /// A layer's modules may not import each other, so the formats'
    /// shared layer is what keeps them apart.
    const LAYERS: [&[&str]; 10] = [
        &["cpu", "io", "name", "secret"],
        &["par", "pem"],
        &["pipe"],
        &["digest"],
        &["ffi"],
        &["pkcs8"],
        &["kem", "keys"],
        &[
            "aes", "chunked", "ecdsa", "merkle", "mldsa", "mlkem", "rsa", "slhdsa",
        ],
        &["anykey", "hazmat"],
        &["age", "cobblestone", "stream"],
    ];

    #[test]
    fn top_level_modules_import_only_lower_layers() {
        let graph = layering::graph(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
        // The reader sees the imports it must (or the check would pass on nothing).
        assert!(
            graph["hazmat"].contains("aes")
                && graph["hazmat"].contains("rsa")
                && graph["age"].contains("chunked")
                && graph["stream"].contains("chunked")
                && graph["cobblestone"].contains("chunked")
                && graph["rsa"].contains("pkcs8")
                && graph["ecdsa"].contains("pkcs8")
                && graph["mlkem"].contains("kem")
                && graph["rsa"].contains("keys")
                && graph["ecdsa"].contains("keys")
                && graph["keys"].contains("pkcs8")
                && graph["slhdsa"].contains("pkcs8"),
            "{graph:?}"
        );
        if let Some(cycle) = layering::find_cycle(&graph) {
            panic!("import cycle between top-level modules: {}", cycle.join(" -> "));
        }
        let problems = layering::check_layers(&graph, &LAYERS, &[]);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

/// The naming rules of the API conventions above, held on every `pub fn`
/// of the shipped code (read from the source tree by `crates/layering`),
/// so that the next family or format cannot drift from them.
#[cfg(test)]
mod vocabulary {
    use layering::PubFn;

    /// Functions that take a `&mut [_]` without naming where output goes in
    /// their suffix, each with its reason.
    const CALLER_BUFFER_BY_NATURE: &[(&str, &str, &str)] = &[
        ("secret.rs", "wipe", "wiping its argument is the whole operation"),
        (
            "secret.rs",
            "new",
            "takes the key out of the caller's array and wipes it there",
        ),
    ];

    fn fns() -> Vec<PubFn> {
        let all = layering::public_fns(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
        // The reader sees the library (or every rule would pass on nothing).
        assert!(all.len() > 200, "only {} pub fns read", all.len());
        assert!(all.iter().any(|f| f.name == "seal_into"));
        all
    }

    fn at(f: &PubFn) -> String {
        format!("{}: {}({})", f.file.display(), f.name, f.params.join(", "))
    }

    #[test]
    fn output_into_a_callers_buffer_is_named_in_the_suffix() {
        let mut wrong = Vec::new();
        for f in fns() {
            let writes_a_buffer = f.param_types().any(|ty| ty.starts_with("&mut ["));
            let named = ["_into", "_in_place", "_mut"].iter().any(|s| f.name.ends_with(s))
                || CALLER_BUFFER_BY_NATURE
                    .iter()
                    .any(|(file, name, _)| f.file.ends_with(file) && f.name == *name);
            if writes_a_buffer && !named {
                wrong.push(at(&f));
            }
        }
        assert!(
            wrong.is_empty(),
            "a caller's buffer (`&mut [_]`) is written by a function not named `_into`, `_in_place` (or, for \
             the executors' generic data, `_mut`):\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn the_with_suffix_means_a_buffer_size_and_a_progress_callback() {
        let wrong: Vec<String> = fns()
            .into_iter()
            .filter(|f| f.name.ends_with("_with"))
            .filter(|f| {
                !(f.params.iter().any(|p| p.starts_with("buffer: usize"))
                    && f.params.iter().any(|p| p.contains("progress: impl FnMut(u64)")))
            })
            .map(|f| at(&f))
            .collect();
        assert!(
            wrong.is_empty(),
            "a `_with` function without `buffer: usize` and `progress: impl FnMut(u64)`:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn par_is_named_par_and_only_callbacks_follow_it() {
        let mut wrong = Vec::new();
        let mut seen = 0;
        for f in fns() {
            let takes_par = |p: &String| {
                p.split_once(':')
                    .is_some_and(|(_, ty)| ty.trim().starts_with('&') && ty.trim().ends_with("Parallelism"))
            };
            let Some(i) = f.params.iter().position(takes_par) else {
                continue;
            };
            seen += 1;
            let named_par = f.params[i].trim_start_matches("mut ").starts_with("par:");
            let callbacks_after = f.params[i + 1..].iter().all(|p| p.contains("impl FnMut("));
            if !named_par || !callbacks_after {
                wrong.push(at(&f));
            }
        }
        assert!(seen > 50, "only {seen} functions take a Parallelism");
        assert!(
            wrong.is_empty(),
            "`par: &Parallelism` comes last among the data arguments (then only callbacks: progress, each result):\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn no_name_ends_in_to_vec() {
        let wrong: Vec<String> = fns()
            .into_iter()
            .filter(|f| f.name.ends_with("_to_vec"))
            .map(|f| at(&f))
            .collect();
        assert!(
            wrong.is_empty(),
            "a new buffer is the bare verb's (`encrypt`, `decrypt`), never `_to_vec`:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn secrets_out_are_secret_bytes_or_strings() {
        let mut wrong = Vec::new();
        let mut secret = 0;
        for f in fns() {
            if f.ret.contains("Zeroizing") {
                wrong.push(format!(
                    "returns the zeroize crate's `Zeroizing` (its `Debug` prints): {}",
                    at(&f)
                ));
            }
            // What decrypts into a new buffer, and what exports a private
            // key or identity, hands out a secret. (A pushed decryptor's
            // `update`/`finalize` share their names with the encryptor's:
            // a name alone cannot tell them apart, so they are not read here.)
            let decrypts = f.name.contains("decrypt") || f.name == "open";
            let private = f.file.starts_with("age") && (f.name.contains("secret") || f.name == "keygen_file")
                || !f.file.starts_with("hazmat")
                    && f.file.iter().any(|c| {
                        ["rsa", "ecdsa", "keys", "mldsa", "slhdsa"].contains(&c.to_str().unwrap_or(""))
                    })
                    && [
                        "to_pkcs8_der",
                        "to_pkcs8_pem",
                        "to_sec1_der",
                        "to_sec1_pem",
                        "to_traditional_der",
                        "to_traditional_pem",
                        "to_seed",
                        "to_expanded",
                    ]
                    .contains(&f.name.as_str());
            let new_buffer = f.ret.contains("Vec<u8>") || f.ret.contains("String");
            // `aes::Crypter` serves both directions (lib.rs says so).
            let crypter = f.file.ends_with("crypter.rs");
            if (decrypts || private) && !crypter {
                if f.ret.contains("SecretBytes") || f.ret.contains("SecretString") {
                    secret += 1;
                } else if new_buffer {
                    wrong.push(format!("hands out a secret in a plain buffer: {}", at(&f)));
                }
            }
        }
        assert!(secret >= 15, "only {secret} functions return a secret");
        // The rule is read where it matters.
        let hands_out = |file: &str, name: &str| {
            fns()
                .iter()
                .any(|f| f.file.ends_with(file) && f.name == name && f.ret.contains("Secret"))
        };
        assert!(hands_out("cbc.rs", "decrypt") && hands_out("age/decrypt.rs", "decrypt"));
        assert!(hands_out("keys/mod.rs", "to_pkcs8_pem") && hands_out("age/keys.rs", "keygen_file"));
        assert!(hands_out("keys/mod.rs", "to_pkcs8_der") && hands_out("rsa/key.rs", "to_pkcs1_pem"));
        assert!(
            wrong.is_empty(),
            "secrets out are `SecretBytes`/`SecretString` (wiped, redacted):\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn a_reader_to_a_writer_is_process_or_stream_and_a_file_is_named_file() {
        let mut wrong = Vec::new();
        let (mut streams, mut files) = (0, 0);
        for f in fns() {
            let reads = f.param_types().any(|ty| ty.starts_with("impl Read"));
            let writes = f.param_types().any(|ty| ty.starts_with("impl Write"));
            if reads && writes {
                streams += 1;
                if !(f.name.starts_with("process") || f.name.ends_with("_stream")) {
                    wrong.push(format!("reader to writer, not `process`/`_stream`: {}", at(&f)));
                }
            }
            let file = f
                .param_types()
                .any(|ty| ["&File", "&std::fs::File", "&fs::File"].contains(&ty));
            if file {
                files += 1;
                if !f.name.contains("_file") {
                    wrong.push(format!("reads a `&File`, not named `_file`: {}", at(&f)));
                }
            }
        }
        assert!(
            streams >= 10 && files >= 10,
            "only {streams} reader → writer and {files} file functions"
        );
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn hazmat_constants_are_named_for_their_family() {
        // `hazmat` holds several families side by side: a bare `DROP` or
        // `NONCE_LEN` there would not say whose it is.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/hazmat/mod.rs");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let mut consts = Vec::new();
        for statement in text
            .split(';')
            .filter_map(|s| s.trim_start().strip_prefix("pub use "))
        {
            for name in statement.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                let constant = name.len() > 1
                    && name.chars().any(|c| c.is_ascii_uppercase())
                    && name
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
                if constant {
                    consts.push(name.to_owned());
                }
            }
        }
        assert!(consts.len() >= 5, "only {consts:?} read");
        let wrong: Vec<&String> = consts
            .iter()
            .filter(|c| !["PARC4_", "RC4_"].iter().any(|family| c.starts_with(family)))
            .collect();
        assert!(
            wrong.is_empty(),
            "hazmat constants not named for their family: {wrong:?}"
        );
    }

    /// The same condition has the same variant name in every format's
    /// `Error`: this does not compile if one is renamed apart.
    #[test]
    fn the_formats_name_the_same_conditions_alike() {
        use crate::{age, cobblestone, stream};
        let stream = [
            stream::Error::WrongFormat,
            stream::Error::NoMatchingIdentity,
            stream::Error::HeaderAuthentication,
            stream::Error::MalformedHeader("x"),
            stream::Error::Truncated { segment: None },
            stream::Error::Range {
                start: 0,
                len: 0,
                total: 0,
            },
            stream::Error::WorkFactor { log2_n: 1, max: 0 },
        ];
        let age = [
            age::Error::WrongFormat,
            age::Error::NoMatchingIdentity { stanzas: Vec::new() },
            age::Error::HeaderAuthentication,
            age::Error::MalformedHeader("x".into()),
            age::Error::Truncated { chunk: None },
            age::Error::Range {
                start: 0,
                len: 0,
                total: 0,
            },
            age::Error::WorkFactor { log2_n: 1, max: 0 },
        ];
        let cobblestone = [
            cobblestone::Error::Truncated { chunk: None },
            cobblestone::Error::Range {
                start: 0,
                len: 0,
                total: 0,
            },
            cobblestone::Error::ChunkAuthentication { chunk: 0 },
        ];
        assert!(matches!(age[6], age::Error::WorkFactor { .. }));
        assert_eq!((stream.len(), age.len(), cobblestone.len()), (7, 7, 3));
    }

    #[test]
    fn the_formats_decrypt_ranges_of_a_source_with_a_slice_of_identities() {
        let mut wrong = Vec::new();
        let mut ranges = 0;
        for f in fns() {
            if f.name == "decrypt_range" {
                ranges += 1;
                if !f.param_types().any(|ty| ty.starts_with("impl Into<Source<")) {
                    wrong.push(format!("a range not read from an `io::Source`: {}", at(&f)));
                }
            }
            let format = ["stream/", "age/"].iter().any(|d| f.file.starts_with(d));
            if format
                && f.name.starts_with("decrypt")
                && f.param_types().any(|ty| ty.starts_with("&Identity"))
            {
                wrong.push(format!("one identity, not `&[Identity]`: {}", at(&f)));
            }
        }
        assert_eq!(
            ranges, 3,
            "stream, age and cobblestone each have one `decrypt_range`"
        );
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}

/// Every `FromStr` answers with [`UnknownName`]: a test above the
/// families (here, not in `name`, which the families import).
#[cfg(test)]
mod names {
    #![allow(clippy::unwrap_used)]

    use crate::UnknownName;
    use crate::aes::KdfDigest;
    use crate::cobblestone::{Aead, KdfHash};
    use crate::digest::Algorithm;
    use crate::digest::Backend;
    use crate::ecdsa::VerifyStrategy;
    use crate::merkle::Format;
    use crate::merkle::compact::Tree;
    use crate::par::Strategy;
    use crate::rsa::{CrtMode, Scheme};

    #[test]
    fn every_from_str_answers_with_unknown_name() {
        let errors: [UnknownName; 12] = [
            "x".parse::<Strategy>().unwrap_err(),
            "x".parse::<Scheme>().unwrap_err(),
            "x".parse::<Algorithm>().unwrap_err(),
            "x".parse::<CrtMode>().unwrap_err(),
            "x".parse::<VerifyStrategy>().unwrap_err(),
            "x".parse::<Backend>().unwrap_err(),
            "x".parse::<Tree>().unwrap_err(),
            "x".parse::<Format>().unwrap_err(),
            "x".parse::<Aead>().unwrap_err(),
            "x".parse::<KdfHash>().unwrap_err(),
            "x".parse::<KdfDigest>().unwrap_err(),
            "x".parse::<crate::mlkem::Params>().unwrap_err(),
        ];
        let kinds = errors.iter().map(|e| e.kind).collect::<Vec<_>>();
        assert_eq!(
            kinds,
            [
                "strategy",
                "signature scheme",
                "hash",
                "CRT mode",
                "verify strategy",
                "SHA-256 backend",
                "tree format",
                "hash format",
                "AEAD",
                "KDF hash",
                "KDF digest",
                "ML-KEM parameter set"
            ]
        );
        for e in &errors {
            assert_eq!(e.name, "x");
            assert_eq!(
                e.to_string(),
                format!("unknown {} \"x\" (expected {})", e.kind, e.expected)
            );
        }
    }

    #[test]
    fn names_round_trip() {
        for s in [Scheme::Pss, Scheme::Pkcs1v15] {
            assert_eq!(s.name().parse::<Scheme>(), Ok(s));
            assert_eq!(s.to_string(), s.name());
        }
        for (name, v) in [
            ("joint", VerifyStrategy::Joint),
            ("split", VerifyStrategy::Split),
            ("auto", VerifyStrategy::Auto),
        ] {
            assert_eq!(name.parse::<VerifyStrategy>(), Ok(v));
        }
        // A schedule is not an algorithm: the sequential split is
        // `Split` under `Parallelism::sequential()`.
        assert!("sequential-separate".parse::<VerifyStrategy>().is_err());
    }
}
