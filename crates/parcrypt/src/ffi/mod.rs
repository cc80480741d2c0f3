//! The only place parcrypt calls AWS-LC directly (`aws-lc-sys`), for the
//! operations the safe `aws-lc-rs` API lacks or makes slow. One file per
//! concern:
//!
//! - [`internal`]: the twenty-two functions AWS-LC compiles in but declares only
//!   in its internal headers, linked under the symbol prefix `build.rs` finds;
//! - [`error`]: the one backend error and the checks of C return values;
//! - [`bn`]: big numbers — constant-time modular exponentiation of one CRT
//!   half, Montgomery arithmetic for the recombination, the prime search
//!   steps of key generation;
//! - [`owned`]: one owning wrapper per AWS-LC object type, freed (and
//!   cleansed) on drop, so no path forgets one;
//! - [`der`]: DER parsing and encoding, `EVP_PKEY` (PKCS#8, SPKI);
//! - [`rsa`]: RSA keys, their components, and the padding functions;
//! - [`ec`]: P-256 keys, ECDSA and the point arithmetic of split verification;
//! - [`cipher`]: AES-ECB in bulk (`aws_lc_rs::cipher::EncryptingKey::ecb`
//!   makes one C call per 16-byte block, 1.5 GB/s measured here; the EVP
//!   interface hands the whole buffer to the pipelined AES-NI/VAES code,
//!   6.8 GB/s), RC4, AES-GCM with 16-byte nonces;
//! - [`kdf`], key derivation: scrypt, SHAKE256, and `openssl enc`'s
//!   PBKDF2-HMAC and EVP_BytesToKey;
//! - [`kem`]: ML-KEM-512/768/1024 key pairs (random or from their seed),
//!   encapsulation (random or with given randomness, for age's
//!   post-quantum recipients and the known answers), decapsulation, and
//!   the three PKCS#8 forms of RFC 9935;
//! - [`mldsa`]: ML-DSA-44/65/87 keys (seed, expanded, PKCS#8/SPKI),
//!   signing with a context or an external μ, and streaming SHAKE256;
//!
//! This layer sits below the algorithm families and imports none of them
//! (only [`crate::digest`], for the hash names the padding functions take,
//! and [`crate::cpu`], for the mask).
//! Every `unsafe` block states why it is sound. `README.md` beside this file
//! explains how the internal functions are linked and how to upgrade aws-lc-sys.
#![allow(unsafe_code)]

pub(crate) mod bn;
pub(crate) mod cipher;
pub(crate) mod der;
pub(crate) mod ec;
pub(crate) mod error;
mod internal;
pub(crate) mod kdf;
pub(crate) mod kem;
pub(crate) mod mldsa;
mod owned;
pub(crate) mod rsa;

pub(crate) use cipher::{AeadKey, Direction, GcmDecrypter, PartInput, Rc4State, aes_ecb_in_place};
pub(crate) use error::BackendError;
pub(crate) use kdf::{Md, bytes_to_key, pbkdf2_hmac, scrypt, shake256};

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    /// The version of `package` in the workspace's `Cargo.lock`.
    fn locked_version(lock: &str, package: &str) -> String {
        let mut versions = lock
            .split("[[package]]")
            .filter(|entry| entry.lines().any(|l| l == format!("name = \"{package}\"")))
            .filter_map(|entry| {
                entry
                    .lines()
                    .find_map(|l| l.strip_prefix("version = \""))
                    .map(|v| v.trim_end_matches('"').to_owned())
            });
        let version = versions
            .next()
            .unwrap_or_else(|| panic!("{package} not in Cargo.lock"));
        assert!(versions.next().is_none(), "{package} locked twice");
        version
    }

    #[test]
    fn the_symbol_prefix_is_the_locked_and_pinned_aws_lc_sys() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let lock = std::fs::read_to_string(format!("{root}/Cargo.lock")).unwrap();
        let version = locked_version(&lock, "aws-lc-sys");
        let links = format!("aws_lc_{}", version.replace('.', "_"));
        assert_eq!(env!("PARCRYPT_AWS_LC_LINKS"), links);
        // Prefixed as aws-lc-sys builds it by default (empty only for an
        // unprefixed system AWS-LC, which this workspace does not use).
        assert_eq!(env!("PARCRYPT_AWS_LC_SYMBOL_PREFIX"), format!("{links}_"));
        // The workspace pins exactly the locked version, so `cargo update`
        // cannot move it under the internal symbols.
        let manifest = std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap();
        let pin = format!("aws-lc-sys = \"={version}\"");
        assert!(
            manifest.lines().any(|l| l == pin),
            "the workspace Cargo.toml lacks `{pin}`"
        );
    }

    #[test]
    fn every_internal_aws_lc_function_links() {
        let all = super::internal::all();
        assert_eq!(all.len(), 22);
        for (name, address) in all {
            assert!(name.starts_with(env!("PARCRYPT_AWS_LC_SYMBOL_PREFIX")), "{name}");
            assert!(!address.is_null(), "{name}");
        }
    }
}
