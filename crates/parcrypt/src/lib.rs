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
//! - [`aes`]: AES-CBC (parallel decryption), AES-CTR, streaming [`aes::Crypter`].
//! - [`hazmat`]: raw ECB and unpadded CBC, RC4 and PARC4, the research
//!   paper's chunked ("bulk") RSA — for compatibility and study only.
//! - [`merkle`]: RFC 6962/9162 trees and proofs, BitTorrent v2, Glacier.
//! - [`ecdsa`]: P-256 keys and signatures; joint, split (the JCE paper's) and
//!   batch verification.
//! - [`stream`]: the authenticated, segmented, seekable file format, sealed
//!   and opened on all cores.
//! - [`age`]: C2SP age v1 files, byte-compatible with the age CLI, rage and
//!   filippo.io/age (X25519, post-quantum hybrid, SSH, passphrase
//!   recipients; armor; byte ranges), their chunks sealed and opened on all
//!   cores by the stream format's pipeline.
//! - [`secret`]: key and byte types that are wiped on drop and redacted in
//!   `Debug`; the crate's one wipe function.
//! - [`rsa`]: parallel key generation, CRT halves on two threads, PSS/PKCS#1
//!   signatures, OAEP.
//!
//! Every strategy and thread count gives byte-identical output; the sequential
//! strategy is the reference.
//!
//! # Platforms
//! Built and tested on Linux, x86-64 (natively, on every CPU level: see
//! [`cpu`]) and aarch64 (under emulation). Unix only by design: files are
//! read with positional reads (`std::os::unix::fs::FileExt`, `pread(2)`)
//! and memory maps (`mmap(2)`), in one module of I/O plumbing ([`io`]);
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
//! Every family follows the same rules, so a call reads the same whatever
//! the algorithm:
//!
//! - **`par: &Parallelism` comes last** among the data arguments: input
//!   first, then sizes and options, then how to run it
//!   (`Rfc6962::root(&leaves, &par)`, `ctr.apply_keystream(&counter, &mut
//!   data, &par)`, `crypter.process_with(input, output, buffer, &par, progress)`).
//! - **Then, if any, `progress: impl FnMut(u64)`**, called with the number of
//!   bytes (or items) done since the last call.
//! - **`Options` structs hold format choices only** (segment sizes, limits),
//!   never the `Parallelism`: `stream::encrypt(&recipients, input, output,
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
     (std::os::unix::fs::FileExt) and mmap(2)"
);

pub mod aes;
pub mod age;
pub mod cpu;
pub mod digest;
pub mod ecdsa;
mod ffi;
pub mod hazmat;
pub mod io;
pub mod merkle;
mod name;
pub mod par;
mod pem;
mod pipe;
pub mod rsa;
pub mod secret;
pub mod stream;

pub use name::UnknownName;

/// The module layering, checked on the source tree (CI runs it with the
/// unit tests) by the workspace's one checker (`crates/layering`, shared
/// with the lab): every top-level module sits in one layer and imports only
/// lower ones; test code may reach anywhere.
#[cfg(test)]
mod layering {
    /// Bottom first. `io` is the plumbing (fill, positional reads, map
    /// windows, the pipeline), `pipe` the streaming transforms built on it,
    /// `ffi` the one door to AWS-LC; `hazmat` sits above the safe families
    /// it builds on (ECB streams through `aes::Crypter`, bulk RSA is `rsa`'s
    /// OAEP per block), so they reach nothing dangerous by importing it;
    /// `age` builds on `stream`'s segment pipeline.
    const LAYERS: [&[&str]; 7] = [
        &["cpu", "io", "name", "secret"],
        &["par", "pem"],
        &["digest", "pipe"],
        &["ffi"],
        &["aes", "ecdsa", "merkle", "rsa"],
        &["hazmat", "stream"],
        &["age"],
    ];

    #[test]
    fn top_level_modules_import_only_lower_layers() {
        let graph = layering::graph(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
        // The reader sees the imports it must (or the check would pass on nothing).
        assert!(
            graph["hazmat"].contains("aes")
                && graph["hazmat"].contains("rsa")
                && graph["age"].contains("stream"),
            "{graph:?}"
        );
        if let Some(cycle) = layering::find_cycle(&graph) {
            panic!("import cycle between top-level modules: {}", cycle.join(" -> "));
        }
        let problems = layering::check_layers(&graph, &LAYERS, &[]);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

/// Every `FromStr` answers with [`UnknownName`]: a test above the
/// families (here, not in `name`, which the families import).
#[cfg(test)]
mod names {
    #![allow(clippy::unwrap_used)]

    use crate::UnknownName;
    use crate::digest::Algorithm;
    use crate::digest::Backend;
    use crate::ecdsa::VerifyStrategy;
    use crate::merkle::Format;
    use crate::merkle::compact::Tree;
    use crate::par::Strategy;
    use crate::rsa::{CrtMode, Scheme};

    #[test]
    fn every_from_str_answers_with_unknown_name() {
        let errors: [UnknownName; 8] = [
            "x".parse::<Strategy>().unwrap_err(),
            "x".parse::<Scheme>().unwrap_err(),
            "x".parse::<Algorithm>().unwrap_err(),
            "x".parse::<CrtMode>().unwrap_err(),
            "x".parse::<VerifyStrategy>().unwrap_err(),
            "x".parse::<Backend>().unwrap_err(),
            "x".parse::<Tree>().unwrap_err(),
            "x".parse::<Format>().unwrap_err(),
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
                "hash format"
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
