//! `parcrypt rsa`: keys, signatures and OAEP encryption, interoperable with
//! `openssl pkey`, `openssl dgst` and `openssl pkeyutl`.

use std::path::Path;

use anyhow::{Result, anyhow};
use parcrypt::hazmat;
use parcrypt::par::Parallelism;
use parcrypt::rsa::{self, PrivateKey, PublicKey, SignatureOptions};
use zeroize::Zeroizing;

use super::family::{self, Family, Names};
use super::files::{read_all, write_output};
use crate::cli::{
    PrivateFormat, PublicFormat, Rsa, RsaBits, RsaCommand, RsaFormat, RsaPublicFormat, SigOptions,
};
use crate::error::{Hint, note, warn};

const NAMES: Names = Names {
    command: "rsa",
    a_key: "an RSA key",
    keygen: "parcrypt rsa keygen, openssl genpkey -algorithm RSA",
    encodings: "PKCS#8, PKCS#1 or SPKI",
    traditional_flag: Some("pkcs1"),
    long_message_hint: "",
};

fn options(sig: &SigOptions) -> SignatureOptions {
    SignatureOptions {
        scheme: sig.scheme,
        hash: sig.hash,
    }
}

impl Family for Rsa {
    type Private = PrivateKey;
    const NAMES: Names = NAMES;

    fn generate(key: &RsaBits, par: &Parallelism) -> Result<PrivateKey> {
        let bits = key.bits;
        if bits < 2048 && (rsa::MIN_BITS..=rsa::MAX_BITS).contains(&bits) {
            warn(format_args!(
                "{bits}-bit RSA keys are breakable; use them only for study (2048 or more)"
            ));
        }
        PrivateKey::generate(bits, par)
            .map_err(|e| anyhow!(e))
            .hint("e.g. --bits 3072")
            .usage()
    }

    fn traditional(format: &RsaFormat) -> bool {
        format.format == PrivateFormat::Pkcs1
    }

    fn encode_public(format: &RsaPublicFormat, public: &PublicKey, der: bool) -> Result<Vec<u8>, rsa::Error> {
        match (format.format, der) {
            (PublicFormat::Spki, der) => family::spki(public, der),
            (PublicFormat::Pkcs1, false) => public.to_pkcs1_pem().map(String::into_bytes),
            (PublicFormat::Pkcs1, true) => public.to_pkcs1_der(),
        }
    }

    fn sign_options(sig: &SigOptions) -> Result<SignatureOptions> {
        Ok(options(sig))
    }

    fn verify_options(sig: &SigOptions, par: &Parallelism) -> Result<(SignatureOptions, Parallelism)> {
        Ok((options(sig), *par))
    }

    fn verify_hint(options: &SigOptions, _sig: &Path) -> String {
        format!(
            "the message, signature or key differ from what was signed, or it was not signed with --scheme {} --hash {}",
            options.scheme.name(),
            options.hash.name()
        )
    }

    fn verify_batch_options(sig: &SigOptions, key: &PublicKey) -> Result<(SignatureOptions, String)> {
        Ok((options(sig), format!("{}-bit RSA", key.bits())))
    }
}

pub fn run(cmd: &RsaCommand, par: &Parallelism) -> Result<()> {
    match cmd {
        RsaCommand::Key(cmd) => family::run(cmd, par),
        RsaCommand::Encrypt {
            public,
            single_block,
            io,
        } => {
            let public: PublicKey = family::load_public(&NAMES, public, par)?;
            let msg = Zeroizing::new(read_all(io.input.as_deref())?);
            let blocks = hazmat::rsa_bulk_blocks(msg.len(), public.size());
            let ciphertext = if *single_block || blocks == 1 {
                public
                    .encrypt(&msg)
                    .map_err(|e| anyhow!(e))
                    .hint("drop --single-block to encrypt it as several blocks, or use `parcrypt encrypt` for real data")
                    .usage()?
            } else {
                note(format_args!(
                    "{} bytes do not fit one {}-bit OAEP block; writing {blocks} independent blocks \
                     (the research paper's bulk mode: only `parcrypt rsa decrypt` reads it, and blocks can be \
                     dropped or reordered undetected; use `parcrypt encrypt` for real data)",
                    msg.len(),
                    public.bits()
                ));
                hazmat::rsa_bulk_encrypt(&public, &msg, par)?
            };
            write_output(io.output.as_deref(), &ciphertext)
        }
        RsaCommand::Decrypt { key, passin, io } => {
            let key: PrivateKey = family::load_private(&NAMES, Some(key), passin, par)?;
            let ciphertext = read_all(io.input.as_deref())?;
            let plain = hazmat::rsa_bulk_decrypt(&key, &ciphertext, par)
                .map_err(|e| anyhow!(e))
                .hint("wrong key, or the ciphertext was modified or truncated (it must be whole blocks of the key size)")?;
            write_output(io.output.as_deref(), plain.expose())
        }
    }
}
