//! `parcrypt slh-dsa`: SLH-DSA keys and signatures, interoperable with
//! OpenSSL 3.5 (`openssl genpkey -algorithm SLH-DSA-SHA2-128s`, `pkeyutl
//! -sign -rawin`). The commands are the family's ([`super::family`]);
//! here only SLH-DSA's options: the parameter set, the context string,
//! HashSLH-DSA's prehash and deterministic signing. `--threads` is the
//! [`Parallelism`] a signature's trees are built on.

use std::path::Path;

use anyhow::{Context, Result};
use parcrypt::keys::SigningKey;
use parcrypt::par::Parallelism;
use parcrypt::slhdsa::{self, PrivateKey, PublicKey, SignatureOptions};

use super::family::{self, Family, Names};
use crate::cli::{SigContext, SlhDsa, SlhDsaParams, SlhPrehash, SlhSign, SlhVerify};

/// The options of `--context TEXT` / `--context-file F`, `--prehash` and
/// `--deterministic`.
fn options(context: &SigContext, prehash: &SlhPrehash, deterministic: bool) -> Result<SignatureOptions> {
    Ok(SignatureOptions {
        context: family::context(context, "FIPS 205", slhdsa::Error::ContextTooLong)?,
        prehash: prehash.prehash,
        deterministic,
    })
}

impl Family for SlhDsa {
    type Private = PrivateKey;
    const NAMES: Names = Names {
        command: "slh-dsa",
        a_key: "an SLH-DSA key",
        keygen: "parcrypt slh-dsa keygen --params SLH-DSA-SHA2-128s, openssl genpkey -algorithm SLH-DSA-SHA2-128s",
        encodings: "PKCS#8 or SPKI",
        traditional_flag: None,
        long_message_hint: "pure SLH-DSA holds the whole message in memory: sign a large file with --prehash sha256 \
                            (or sha512, shake128, shake256), which streams it, and verify with the same --prehash",
    };

    fn generate(key: &SlhDsaParams, par: &Parallelism) -> Result<PrivateKey> {
        <PrivateKey as SigningKey>::generate(&key.params, par).context("cannot generate the key")
    }

    fn sign_options(sign: &SlhSign) -> Result<SignatureOptions> {
        options(&sign.context, &sign.prehash, sign.deterministic)
    }

    fn verify_options(verify: &SlhVerify, par: &Parallelism) -> Result<(SignatureOptions, Parallelism)> {
        Ok((options(&verify.context, &verify.prehash, false)?, *par))
    }

    fn verify_hint(_verify: &SlhVerify, _sig: &Path) -> String {
        "the message, signature, key, --context or --prehash differ from what was signed".to_owned()
    }

    fn verify_batch_options(verify: &SlhVerify, key: &PublicKey) -> Result<(SignatureOptions, String)> {
        let options = options(&verify.context, &verify.prehash, false)?;
        Ok((options, key.parameter_set().name().to_owned()))
    }
}
