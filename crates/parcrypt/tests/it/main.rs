//! The library's integration tests, in one binary: each test binary links
//! AWS-LC, so one link instead of one per file. One module per family; the
//! helpers in `common`, the one reader of `tests/data/` in `vectors`.
//!
//! `tests/fuzz_parsers.rs` stays a binary of its own: it installs a
//! counting `#[global_allocator]` whose peak-memory bounds would count the
//! allocations of every other test running beside it in the same process.

mod common;
mod tools;
mod vector_sets;
mod vectors;

mod age;
mod age_go_tools;
mod age_interop;
mod age_plugin;
mod age_testkit;
mod cobblestone;
mod ecdsa;
mod ecdsa_wycheproof;
mod embedded;
mod equivalence;
mod kat;
mod merkle;
mod merkle_files;
mod mldsa;
mod mldsa_kat;
mod mldsa_wycheproof;
mod mlkem;
mod openssl_kdf;
mod pkcs8;
mod rc4_parc4;
mod rsa;
mod rsa_wycheproof;
mod secrets;
mod sha_many;
mod shake_many;
mod slhdsa;
mod slhdsa_acvp;
mod slhdsa_keys;
mod slhdsa_openssl;
mod stream;
mod stream_kat;
mod stream_segments;
mod tiles;
mod wycheproof_cbc;
mod wycheproof_gcm;
