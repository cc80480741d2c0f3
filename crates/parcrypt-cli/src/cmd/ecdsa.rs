//! `parcrypt ecdsa`: P-256 keys and SHA-256 signatures, interoperable with
//! `openssl pkey` and `openssl dgst -sha256 -sign/-verify`; `verify-batch`
//! checks a list of signatures on all cores. The commands are the
//! family's ([`super::family`]); here only P-256's options.

use std::path::Path;

use anyhow::Result;
use parcrypt::ecdsa::{PrivateKey, PublicKey, SignatureFormat, SignatureOptions, VerifyStrategy};
use parcrypt::par::Parallelism;

use super::family::{Family, Names};
use crate::cli::{
    EcFormat, EcPrivateFormat, EcSignature, EcVerify, Ecdsa, NoOptions, SigFormat, VerifyMethod,
};

fn options(sig: &EcSignature, strategy: VerifyStrategy) -> SignatureOptions {
    SignatureOptions {
        format: match sig.sig_format {
            SigFormat::Der => SignatureFormat::Der,
            SigFormat::Fixed => SignatureFormat::Fixed,
        },
        strategy,
    }
}

impl Family for Ecdsa {
    type Private = PrivateKey;
    const NAMES: Names = Names {
        command: "ecdsa",
        a_key: "a P-256 key",
        keygen: "parcrypt ecdsa keygen, openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256",
        encodings: "PKCS#8, SEC1 or SPKI",
        traditional_flag: Some("sec1"),
        long_message_hint: "",
    };

    fn generate(_key: &NoOptions, _par: &Parallelism) -> Result<PrivateKey> {
        Ok(PrivateKey::generate()?)
    }

    fn traditional(format: &EcFormat) -> bool {
        format.format == EcPrivateFormat::Sec1
    }

    fn sign_options(sig: &EcSignature) -> Result<SignatureOptions> {
        Ok(options(sig, VerifyStrategy::Auto))
    }

    fn verify_options(verify: &EcVerify, par: &Parallelism) -> Result<(SignatureOptions, Parallelism)> {
        let (strategy, par) = match verify.method {
            VerifyMethod::Auto => (VerifyStrategy::Auto, *par),
            VerifyMethod::Joint => (VerifyStrategy::Joint, *par),
            VerifyMethod::Split => (VerifyStrategy::Split, *par),
            // The paper's baseline: the split products on one thread.
            VerifyMethod::Separate => (VerifyStrategy::Split, Parallelism::sequential()),
        };
        Ok((options(&verify.sig, strategy), par))
    }

    fn verify_hint(verify: &EcVerify, sig: &Path) -> String {
        format!(
            "the message, signature or key differ from what was signed (is {} a {} signature? --sig-format der|fixed)",
            sig.display(),
            options(&verify.sig, VerifyStrategy::Auto).format.name()
        )
    }

    fn verify_batch_options(sig: &EcSignature, _key: &PublicKey) -> Result<(SignatureOptions, String)> {
        let options = options(sig, VerifyStrategy::Joint);
        Ok((options, options.format.name().to_owned()))
    }
}
