//! `parcrypt rsa`: keys, signatures and OAEP encryption, interoperable with
//! `openssl pkey`, `openssl dgst` and `openssl pkeyutl`.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use parcrypt::hazmat;
use parcrypt::par::Parallelism;
use parcrypt::pkcs8;
use parcrypt::rsa::{self, PrivateKey, PublicKey};
use parcrypt::secret::SecretBytes;
use zeroize::Zeroizing;

use super::files::{hash_input, key_output, read_all, read_small, write_output};
use super::keypass;
use crate::cli::{KeyEncryption, PassIn, PrivateFormat, PublicFormat, RsaCommand};
use crate::error::{Hint, note, warn};
use crate::io::println;

pub fn run(cmd: &RsaCommand, par: &Parallelism) -> Result<()> {
    match cmd {
        RsaCommand::Keygen {
            bits,
            format,
            der,
            encryption,
            output,
            force,
        } => keygen(*bits, *format, *der, encryption, output.as_deref(), *force, par),
        RsaCommand::Convert {
            format,
            der,
            passin,
            encryption,
            io,
        } => {
            check_encrypted_format(*format, encryption)?;
            keypass::check_passout_stdin(io.input.as_deref(), encryption)?;
            let mut out = key_output(io.output.as_deref(), io.force)?;
            let key = load_private(io.input.as_deref(), passin)?;
            out.write_all(encode_private(&key, *format, *der, encryption)?.expose())?;
            out.commit()
        }
        RsaCommand::Pubkey {
            format,
            der,
            passin,
            io,
        } => {
            keypass::check_stdin(io.input.as_deref(), passin)?;
            let bytes = read_small(io.input.as_deref(), "key")?;
            let (owned, private);
            let public = if pkcs8::is_encrypted(&bytes) {
                let name = keypass::key_name(io.input.as_deref());
                let password = keypass::password_for(passin, &bytes, &name)?;
                private = open_private(&bytes, password.as_ref(), passin, &name)?;
                private.public_key()
            } else {
                owned = PublicKey::from_bytes(&bytes).map_err(key_error)?;
                &owned
            };
            let encoded = match (format, der) {
                (PublicFormat::Spki, false) => public.to_spki_pem().map(String::into_bytes),
                (PublicFormat::Spki, true) => public.to_spki_der(),
                (PublicFormat::Pkcs1, false) => public.to_pkcs1_pem().map(String::into_bytes),
                (PublicFormat::Pkcs1, true) => public.to_pkcs1_der(),
            }?;
            write_output(io.output.as_deref(), &encoded)
        }
        RsaCommand::Sign { key, passin, sig, io } => {
            let key = load_private(Some(key), passin)?;
            let (scheme, hash) = (sig.scheme, sig.hash);
            let digest = hash_input(io.input.as_deref(), hash)?;
            let signature = key.sign_digest(scheme, hash, &digest, par)?;
            write_output(io.output.as_deref(), &signature)
        }
        RsaCommand::Verify {
            public,
            sig,
            options,
            input,
        } => {
            let public = load_public(public)?;
            let signature = read_small(Some(sig), "signature")?;
            let (scheme, hash) = (options.scheme, options.hash);
            let digest = hash_input(input.as_deref(), hash)?;
            public
                .verify_digest(scheme, hash, &digest, &signature)
                .map_err(|e| anyhow!(e))
                .hint(format!(
                    "the message, signature or key differ from what was signed, or it was not signed with --scheme {} --hash {}",
                    options.scheme.name(),
                    options.hash.name()
                ))?;
            println("Verified OK")
        }
        RsaCommand::Encrypt {
            public,
            single_block,
            io,
        } => {
            let public = load_public(public)?;
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
            let key = load_private(Some(key), passin)?;
            let ciphertext = read_all(io.input.as_deref())?;
            let plain = hazmat::rsa_bulk_decrypt(&key, &ciphertext, par)
                .map_err(|e| anyhow!(e))
                .hint("wrong key, or the ciphertext was modified or truncated (it must be whole blocks of the key size)")?;
            write_output(io.output.as_deref(), plain.expose())
        }
    }
}

fn keygen(
    bits: usize,
    format: PrivateFormat,
    der: bool,
    encryption: &KeyEncryption,
    output: Option<&Path>,
    force: bool,
    par: &Parallelism,
) -> Result<()> {
    check_encrypted_format(format, encryption)?;
    // Before the (slow) generation: an existing key is not replaced unless --force.
    let mut out = key_output(output, force)?;
    if bits < 2048 && (rsa::MIN_BITS..=rsa::MAX_BITS).contains(&bits) {
        warn(format_args!(
            "{bits}-bit RSA keys are breakable; use them only for study (2048 or more)"
        ));
    }
    let key = PrivateKey::generate(bits, par)
        .map_err(|e| anyhow!(e))
        .hint("e.g. --bits 3072")
        .usage()?;
    // The temporary file behind -o is created with mode 0600 and keeps it.
    out.write_all(encode_private(&key, format, der, encryption)?.expose())?;
    out.commit()
}

/// An encrypted key is PKCS#8 (`ENCRYPTED PRIVATE KEY`), as openssl writes it.
fn check_encrypted_format(format: PrivateFormat, encryption: &KeyEncryption) -> Result<()> {
    if encryption.wanted() && format != PrivateFormat::Pkcs8 {
        return Err(anyhow!("an encrypted private key is written as PKCS#8 only"))
            .hint("drop --format pkcs1, or drop --passout/--cipher for an unencrypted PKCS#1 key")
            .usage();
    }
    Ok(())
}

/// The key in `format` (PEM unless `der`), encrypted if `encryption` asks.
fn encode_private(
    key: &PrivateKey,
    format: PrivateFormat,
    der: bool,
    encryption: &KeyEncryption,
) -> Result<SecretBytes> {
    if let Some((password, options)) = keypass::passout(encryption)? {
        let encoded = if der {
            key.to_pkcs8_encrypted_der(password.expose(), &options)?
        } else {
            key.to_pkcs8_encrypted_pem(password.expose(), &options)?
                .into_bytes()
        };
        return Ok(SecretBytes::new(encoded));
    }
    Ok(match (format, der) {
        (PrivateFormat::Pkcs8, false) => SecretBytes::from(key.to_pkcs8_pem()?.expose_bytes()),
        (PrivateFormat::Pkcs8, true) => key.to_pkcs8_der()?,
        (PrivateFormat::Pkcs1, false) => SecretBytes::from(key.to_pkcs1_pem()?.expose_bytes()),
        (PrivateFormat::Pkcs1, true) => key.to_pkcs1_der()?,
    })
}

/// Adds a hint for each kind of key problem.
fn key_error(e: rsa::Error) -> anyhow::Error {
    let hint = match &e {
        rsa::Error::EncryptedKey => {
            "give its password with --passin env:VAR, file:PATH, fd:N or stdin (as openssl's -passin)"
        }
        rsa::Error::KeyEncryption(pkcs8::Error::BadDecrypt) => "check the password given with --passin",
        rsa::Error::WrongKeyType(_) => {
            "this command needs an RSA key (parcrypt rsa keygen, openssl genpkey -algorithm RSA)"
        }
        rsa::Error::MalformedKey(_) => {
            "expected a PEM or DER RSA key (PKCS#8, PKCS#1 or SPKI), as written by `parcrypt rsa keygen` or openssl"
        }
        _ => "check the key file",
    };
    let err: Result<()> = Err(anyhow!(e)).hint(hint);
    err.expect_err("an error")
}

/// The private key at `path` (stdin for `None` or `-`), decrypted with
/// `--passin` (or a password asked on the terminal) if it is encrypted.
fn load_private(path: Option<&Path>, passin: &PassIn) -> Result<PrivateKey> {
    let (bytes, password, name) = keypass::read_private(path, passin)?;
    open_private(&bytes, password.as_ref(), passin, &name)
}

/// The private key in `bytes`, decrypted with `password` if it is
/// encrypted, within the KDF limits `passin` chooses.
fn open_private(
    bytes: &[u8],
    password: Option<&SecretBytes>,
    passin: &PassIn,
    name: &str,
) -> Result<PrivateKey> {
    match password {
        Some(password) => {
            PrivateKey::from_bytes_with_password_and_limits(bytes, password.expose(), &passin.kdf_limits())
        }
        None => PrivateKey::from_bytes(bytes),
    }
    .map_err(|e| match e {
        rsa::Error::KeyEncryption(pkcs8::Error::TooCostly(_)) => keypass::too_costly(e, passin),
        e => key_error(e),
    })
    .with_context(|| format!("cannot use {name} as a private key"))
}

fn load_public(path: &Path) -> Result<PublicKey> {
    let bytes = read_small(Some(path), "key")?;
    PublicKey::from_bytes(&bytes)
        .map_err(|e| match e {
            // No --passin here: the public half is what is wanted.
            rsa::Error::EncryptedKey => {
                let err: Result<()> = Err(anyhow!(e)).hint(
                    "give its public key, written by `parcrypt rsa pubkey --passin SOURCE -i KEY -o PUB`",
                );
                err.expect_err("an error")
            }
            other => key_error(other),
        })
        .with_context(|| format!("cannot use {} as a public key", path.display()))
}
