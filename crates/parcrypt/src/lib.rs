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
