//! parcrypt: multi-core cryptography.
//!
//! parcrypt is the parallel layer over vetted primitives (AWS-LC): the block
//! cipher, hashes and big-number arithmetic come from the backend; parcrypt
//! cuts the work across cores, one code path per algorithm driven by a
//! [`par::Parallelism`], and implements the formats around it.
//!
//! - [`par`]: strategies (`Sequential`, `Static`, `WorkStealing`) and thread counts.
//! - [`aes`]: AES-CBC (parallel decryption), AES-CTR, streaming [`aes::Crypter`].
//! - [`hazmat`]: raw ECB and unpadded modes, RC4 and PARC4.
//! - [`merkle`]: RFC 6962/9162 trees and proofs, BitTorrent v2, Glacier.
//! - [`ecdsa`]: P-256 keys and signatures; joint, split (the JCE paper's) and
//!   batch verification.
//! - [`stream`]: the authenticated, segmented, seekable file format, sealed
//!   and opened on all cores.
//! - [`secret`]: key and byte types that are wiped on drop and redacted in
//!   `Debug`; the crate's one wipe function.
//! - [`rsa`]: parallel key generation, CRT halves on two threads, PSS/PKCS#1
//!   signatures, OAEP, the research paper's chunked bulk encryption.
//!
//! Every strategy and thread count gives byte-identical output; the sequential
//! strategy is the reference.
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
//!   never the `Parallelism`. (`stream`'s `Options` and `DecryptOptions`
//!   still carry one; they are the known exception, to be moved out.)
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

pub mod aes;
pub mod ecdsa;
mod ffi;
pub mod hazmat;
pub mod merkle;
mod mmap;
mod name;
pub mod par;
mod pem;
mod pipe;
pub mod rsa;
pub mod secret;
pub mod stream;

pub use name::UnknownName;
