//! `parcrypt slh-dsa`: SLH-DSA keys and signatures, interoperable with
//! OpenSSL 3.5 (`openssl genpkey -algorithm SLH-DSA-SHA2-128s`, `pkeyutl
//! -sign -rawin`). The commands are the family's ([`super::family`]);
//! here only SLH-DSA's options: the parameter set, the context string,
//! HashSLH-DSA's prehash and deterministic signing. `--threads` is the
//! [`Parallelism`] a signature's trees are built on.

use anyhow::{Context, Result, anyhow};
use parcrypt::keys::SigningKey;
use parcrypt::par::Parallelism;
use parcrypt::slhdsa::{self, PrivateKey, PublicKey, SignatureOptions};

use super::family::{self, KeyFormat, Names};
use super::files::read_small;
use crate::cli::{SigContext, SlhDsaCommand, SlhPrehash};
use crate::error::Hint;

const NAMES: Names = Names {
    command: "slh-dsa",
    a_key: "an SLH-DSA key",
    keygen: "parcrypt slh-dsa keygen --params SLH-DSA-SHA2-128s, openssl genpkey -algorithm SLH-DSA-SHA2-128s",
    encodings: "PKCS#8 or SPKI",
    traditional_flag: None,
    long_message_hint: "pure SLH-DSA holds the whole message in memory: sign a large file with --prehash sha256 \
                        (or sha512, shake128, shake256), which streams it, and verify with the same --prehash",
};

fn key_format(der: bool) -> KeyFormat {
    KeyFormat {
        traditional: false,
        der,
    }
}

/// The options of `--context TEXT` / `--context-file F`, `--prehash` and
/// `--deterministic`.
fn options(context: &SigContext, prehash: &SlhPrehash, deterministic: bool) -> Result<SignatureOptions> {
    let context = match (&context.context, &context.context_file) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(path)) => read_small(Some(path), "context")?.to_vec(),
        (None, None) => Vec::new(),
    };
    if context.len() > 255 {
        return Err(anyhow!(slhdsa::Error::ContextTooLong(context.len())))
            .hint("FIPS 205 contexts are 0 to 255 bytes")
            .usage();
    }
    Ok(SignatureOptions {
        context,
        prehash: prehash.prehash,
        deterministic,
    })
}

pub fn run(cmd: &SlhDsaCommand, par: &Parallelism) -> Result<()> {
    match cmd {
        SlhDsaCommand::Keygen {
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
            || <PrivateKey as SigningKey>::generate(params, par).context("cannot generate the key"),
        ),
        SlhDsaCommand::Convert {
            der,
            passin,
            encryption,
            io,
        } => family::convert::<PrivateKey>(&NAMES, key_format(*der), passin, encryption, io),
        SlhDsaCommand::Pubkey { der, passin, io } => {
            family::pubkey::<PrivateKey>(&NAMES, passin, io, |public| family::spki(public, *der))
        }
        SlhDsaCommand::Sign {
            key,
            passin,
            context,
            prehash,
            deterministic,
            io,
        } => family::sign::<PrivateKey>(
            &NAMES,
            key,
            passin,
            &options(context, prehash, *deterministic)?,
            io,
            par,
        ),
        SlhDsaCommand::Verify {
            public,
            sig,
            context,
            prehash,
            input,
        } => family::verify::<PublicKey>(
            &NAMES,
            public,
            sig,
            &options(context, prehash, false)?,
            input.as_deref(),
            "the message, signature, key, --context or --prehash differ from what was signed",
            par,
        ),
        SlhDsaCommand::SignBatch {
            key,
            passin,
            context,
            prehash,
            deterministic,
            list,
        } => {
            let options = options(context, prehash, *deterministic)?;
            let key: PrivateKey = family::load_private(&NAMES, Some(key), passin)?;
            family::sign_batch(&key, list, &options, par)
        }
        SlhDsaCommand::VerifyBatch {
            public,
            context,
            prehash,
            list,
        } => {
            let options = options(context, prehash, false)?;
            let key: PublicKey = family::load_public(&NAMES, public)?;
            let name = key.parameter_set().name();
            family::verify_batch(&key, list, &options, name, par)
        }
    }
}
