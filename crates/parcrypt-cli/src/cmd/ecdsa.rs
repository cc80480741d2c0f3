//! `parcrypt ecdsa`: P-256 keys and SHA-256 signatures, interoperable with
//! `openssl pkey` and `openssl dgst -sha256 -sign/-verify`; `verify-batch`
//! checks a list of signatures on all cores. The commands are the
//! family's ([`super::family`]); here only P-256's options.

use anyhow::Result;
use parcrypt::ecdsa::{PrivateKey, PublicKey, SignatureFormat, SignatureOptions, VerifyStrategy};
use parcrypt::par::Parallelism;

use super::family::{self, KeyFormat, Names};
use crate::cli::{EcPrivateFormat, EcdsaCommand, SigFormat, VerifyMethod};

const NAMES: Names = Names {
    command: "ecdsa",
    a_key: "a P-256 key",
    keygen: "parcrypt ecdsa keygen, openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256",
    encodings: "PKCS#8, SEC1 or SPKI",
    traditional_flag: Some("sec1"),
    long_message_hint: "",
};

fn key_format(format: EcPrivateFormat, der: bool) -> KeyFormat {
    KeyFormat {
        traditional: format == EcPrivateFormat::Sec1,
        der,
    }
}

fn options(format: SigFormat, strategy: VerifyStrategy) -> SignatureOptions {
    SignatureOptions {
        format: match format {
            SigFormat::Der => SignatureFormat::Der,
            SigFormat::Fixed => SignatureFormat::Fixed,
        },
        strategy,
    }
}

pub fn run(cmd: &EcdsaCommand, par: &Parallelism) -> Result<()> {
    match cmd {
        EcdsaCommand::Keygen {
            format,
            der,
            encryption,
            output,
            force,
        } => family::keygen(
            &NAMES,
            key_format(*format, *der),
            encryption,
            output.as_deref(),
            *force,
            || Ok(PrivateKey::generate()?),
        ),
        EcdsaCommand::Convert {
            format,
            der,
            passin,
            encryption,
            io,
        } => family::convert::<PrivateKey>(&NAMES, key_format(*format, *der), passin, encryption, io),
        EcdsaCommand::Pubkey { der, passin, io } => {
            family::pubkey::<PrivateKey>(&NAMES, passin, io, |public| family::spki(public, *der))
        }
        EcdsaCommand::Sign {
            key,
            passin,
            sig_format,
            io,
        } => family::sign::<PrivateKey>(
            &NAMES,
            key,
            passin,
            &options(*sig_format, VerifyStrategy::Auto),
            io,
            par,
        ),
        EcdsaCommand::Verify {
            public,
            sig,
            sig_format,
            method,
            input,
        } => {
            let (strategy, par) = match method {
                VerifyMethod::Auto => (VerifyStrategy::Auto, *par),
                VerifyMethod::Joint => (VerifyStrategy::Joint, *par),
                VerifyMethod::Split => (VerifyStrategy::Split, *par),
                // The paper's baseline: the split products on one thread.
                VerifyMethod::Separate => (VerifyStrategy::Split, Parallelism::sequential()),
            };
            let options = options(*sig_format, strategy);
            family::verify::<PublicKey>(
                &NAMES,
                public,
                sig,
                &options,
                input.as_deref(),
                &format!(
                    "the message, signature or key differ from what was signed (is {} a {} signature? --sig-format der|fixed)",
                    sig.display(),
                    options.format.name()
                ),
                &par,
            )
        }
        EcdsaCommand::SignBatch {
            key,
            passin,
            list,
            sig_format,
        } => {
            let key: PrivateKey = family::load_private(&NAMES, Some(key), passin)?;
            family::sign_batch(&key, list, &options(*sig_format, VerifyStrategy::Auto), par)
        }
        EcdsaCommand::VerifyBatch {
            public,
            list,
            sig_format,
        } => {
            let options = options(*sig_format, VerifyStrategy::Joint);
            let key: PublicKey = family::load_public(&NAMES, public)?;
            family::verify_batch(&key, list, &options, options.format.name(), par)
        }
    }
}
