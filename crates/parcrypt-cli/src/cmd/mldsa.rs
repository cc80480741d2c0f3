//! `parcrypt ml-dsa`: ML-DSA keys and signatures, interoperable with
//! OpenSSL 3.5 (`openssl genpkey -algorithm ML-DSA-65`, `pkeyutl -sign
//! -rawin`) and pyca's `mldsa`. The commands are the family's
//! ([`super::family`]); here only ML-DSA's options: the parameter set and
//! the context string.

use anyhow::{Context, Result, anyhow};
use parcrypt::mldsa::{self, PrivateKey, PublicKey, SignatureOptions};
use parcrypt::par::Parallelism;

use super::family::{self, KeyFormat, Names};
use super::files::read_small;
use crate::cli::{MlDsaCommand, SigContext};
use crate::error::Hint;

const NAMES: Names = Names {
    command: "ml-dsa",
    a_key: "an ML-DSA key",
    keygen: "parcrypt ml-dsa keygen --params ML-DSA-65, openssl genpkey -algorithm ML-DSA-65",
    encodings: "PKCS#8 or SPKI",
    traditional_flag: None,
    long_message_hint: "",
};

fn key_format(der: bool) -> KeyFormat {
    KeyFormat {
        traditional: false,
        der,
    }
}

/// The options of `--context TEXT` / `--context-file F`.
fn options(context: &SigContext) -> Result<SignatureOptions> {
    let context = match (&context.context, &context.context_file) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(path)) => read_small(Some(path), "context")?.to_vec(),
        (None, None) => Vec::new(),
    };
    if context.len() > mldsa::MAX_CONTEXT {
        return Err(anyhow!(mldsa::Error::ContextTooLong(context.len())))
            .hint("FIPS 204 contexts are 0 to 255 bytes")
            .usage();
    }
    Ok(SignatureOptions { context })
}

pub fn run(cmd: &MlDsaCommand, par: &Parallelism) -> Result<()> {
    match cmd {
        MlDsaCommand::Keygen {
            params,
            der,
            encryption,
            output,
            force,
        } => family::keygen(
            &NAMES,
            key_format(*der),
            encryption,
            output.as_deref(),
            *force,
            || PrivateKey::generate(*params).context("cannot generate the key"),
        ),
        MlDsaCommand::Convert {
            der,
            passin,
            encryption,
            io,
        } => family::convert::<PrivateKey>(&NAMES, key_format(*der), passin, encryption, io),
        MlDsaCommand::Pubkey { der, passin, io } => {
            family::pubkey::<PrivateKey>(&NAMES, passin, io, |public| family::spki(public, *der))
        }
        MlDsaCommand::Sign {
            key,
            passin,
            context,
            io,
        } => family::sign::<PrivateKey>(&NAMES, key, passin, &options(context)?, io, par),
        MlDsaCommand::Verify {
            public,
            sig,
            context,
            input,
        } => family::verify::<PublicKey>(
            &NAMES,
            public,
            sig,
            &options(context)?,
            input.as_deref(),
            "the message, signature, key or --context differ from what was signed",
            par,
        ),
        MlDsaCommand::SignBatch {
            key,
            passin,
            context,
            list,
        } => {
            let options = options(context)?;
            let key: PrivateKey = family::load_private(&NAMES, Some(key), passin)?;
            family::sign_batch(&key, list, &options, par)
        }
        MlDsaCommand::VerifyBatch {
            public,
            context,
            list,
        } => {
            let options = options(context)?;
            let key: PublicKey = family::load_public(&NAMES, public)?;
            let name = key.parameter_set().name();
            family::verify_batch(&key, list, &options, name, par)
        }
    }
}
