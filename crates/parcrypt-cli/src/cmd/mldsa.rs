//! `parcrypt ml-dsa`: ML-DSA keys and signatures, interoperable with
//! OpenSSL 3.5 (`openssl genpkey -algorithm ML-DSA-65`, `pkeyutl -sign
//! -rawin`) and pyca's `mldsa`. The commands are the family's
//! ([`super::family`]); here only ML-DSA's options: the parameter set and
//! the context string.

use std::path::Path;

use anyhow::{Context, Result};
use parcrypt::mldsa::{self, PrivateKey, PublicKey, SignatureOptions};
use parcrypt::par::Parallelism;

use super::family::{self, Family, Names};
use crate::cli::{MlDsa, MlDsaParams, SigContext};

/// The options of `--context TEXT` / `--context-file F`.
fn options(context: &SigContext) -> Result<SignatureOptions> {
    let context = family::context(context, "FIPS 204", mldsa::Error::ContextTooLong)?;
    Ok(SignatureOptions { context })
}

impl Family for MlDsa {
    type Private = PrivateKey;
    const NAMES: Names = Names {
        command: "ml-dsa",
        a_key: "an ML-DSA key",
        keygen: "parcrypt ml-dsa keygen --params ML-DSA-65, openssl genpkey -algorithm ML-DSA-65",
        encodings: "PKCS#8 or SPKI",
        traditional_flag: None,
        long_message_hint: "",
    };

    fn generate(key: &MlDsaParams, _par: &Parallelism) -> Result<PrivateKey> {
        PrivateKey::generate(key.params).context("cannot generate the key")
    }

    fn sign_options(context: &SigContext) -> Result<SignatureOptions> {
        options(context)
    }

    fn verify_options(context: &SigContext, par: &Parallelism) -> Result<(SignatureOptions, Parallelism)> {
        Ok((options(context)?, *par))
    }

    fn verify_hint(_context: &SigContext, _sig: &Path) -> String {
        "the message, signature, key or --context differ from what was signed".to_owned()
    }

    fn verify_batch_options(context: &SigContext, key: &PublicKey) -> Result<(SignatureOptions, String)> {
        Ok((options(context)?, key.parameter_set().name().to_owned()))
    }
}
