//! `parcrypt ecdsa`: P-256 keys and SHA-256 signatures, interoperable with
//! `openssl pkey` and `openssl dgst -sha256 -sign/-verify`; `verify-batch`
//! checks a list of signatures on all cores.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use parcrypt::digest::Algorithm;
use parcrypt::ecdsa::{self, DigestItem, PrivateKey, PublicKey, Signature, VerifyStrategy};
use parcrypt::par::Parallelism;
use parcrypt::pkcs8;
use parcrypt::secret::SecretBytes;

use super::files::{hash_input, hash_reader, key_output, read_small, write_output};
use super::keypass;
use crate::cli::{EcPrivateFormat, EcdsaCommand, KeyEncryption, PassIn, SigFormat, VerifyMethod};
use crate::error::{Hint, eprint_line};
use crate::io::{Output, println};

/// List entries verified together: enough to keep every thread busy, few
/// enough that memory stays bounded whatever the list's length.
const BATCH_ENTRIES: usize = 4096;

pub fn run(cmd: &EcdsaCommand, par: &Parallelism) -> Result<()> {
    match cmd {
        EcdsaCommand::Keygen {
            format,
            der,
            encryption,
            output,
            force,
        } => {
            check_encrypted_format(*format, encryption)?;
            let mut out = key_output(output.as_deref(), *force)?;
            let key = PrivateKey::generate()?;
            out.write_all(encode_private(&key, *format, *der, encryption)?.expose())?;
            out.commit()
        }
        EcdsaCommand::Convert {
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
        EcdsaCommand::Pubkey { der, passin, io } => {
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
            let encoded = if *der {
                public.to_spki_der()?
            } else {
                public.to_spki_pem()?.into_bytes()
            };
            write_output(io.output.as_deref(), &encoded)
        }
        EcdsaCommand::Sign {
            key,
            passin,
            sig_format,
            io,
        } => {
            let key = load_private(Some(key), passin)?;
            let digest = hash_input(io.input.as_deref(), Algorithm::Sha256)?;
            let sig = key.sign_digest(&digest)?;
            let encoded = match sig_format {
                SigFormat::Der => sig.to_der()?,
                SigFormat::Fixed => sig.to_fixed().ok_or(ecdsa::Error::Backend)?.to_vec(),
            };
            write_output(io.output.as_deref(), &encoded)
        }
        EcdsaCommand::Verify {
            public,
            sig,
            sig_format,
            method,
            input,
        } => {
            let key = load_public(public)?;
            let sig_bytes = read_small(Some(sig), "signature")?;
            let signature = parse_signature(&sig_bytes, *sig_format).hint(format!(
                "is {} a {} signature? (--sig-format der|fixed)",
                sig.display(),
                format_name(*sig_format)
            ))?;
            let digest = hash_input(input.as_deref(), Algorithm::Sha256)?;
            let (strategy, par) = match method {
                VerifyMethod::Auto => (VerifyStrategy::Auto, *par),
                VerifyMethod::Joint => (VerifyStrategy::Joint, *par),
                VerifyMethod::Split => (VerifyStrategy::Split, *par),
                // The paper's baseline: the split products on one thread.
                VerifyMethod::Separate => (VerifyStrategy::Split, Parallelism::sequential()),
            };
            key.verify_digest_vartime(&digest, &signature, strategy, &par)
                .map_err(|e| anyhow!(e))
                .hint("the message, signature or key differ from what was signed")?;
            println("Verified OK")
        }
        EcdsaCommand::VerifyBatch {
            public,
            list,
            sig_format,
        } => verify_batch(&load_public(public)?, list, *sig_format, par),
    }
}

fn format_name(f: SigFormat) -> &'static str {
    match f {
        SigFormat::Der => "DER",
        SigFormat::Fixed => "64-byte fixed-width",
    }
}

fn parse_signature(bytes: &[u8], format: SigFormat) -> Result<Signature, ecdsa::Error> {
    match format {
        SigFormat::Der => Signature::from_der(bytes),
        SigFormat::Fixed => Signature::from_fixed(bytes),
    }
}

fn key_error(e: ecdsa::Error) -> anyhow::Error {
    let hint = match &e {
        ecdsa::Error::EncryptedKey => {
            "give its password with --passin env:VAR, file:PATH, fd:N or stdin (as openssl's -passin)"
        }
        ecdsa::Error::KeyEncryption(pkcs8::Error::BadDecrypt) => "check the password given with --passin",
        ecdsa::Error::WrongKeyType(_) => {
            "this command needs a P-256 key (parcrypt ecdsa keygen, openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256)"
        }
        _ => {
            "expected a PEM or DER P-256 key (PKCS#8, SEC1 or SPKI), as written by `parcrypt ecdsa keygen` or openssl"
        }
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
        ecdsa::Error::KeyEncryption(pkcs8::Error::TooCostly(_)) => keypass::too_costly(e, passin),
        e => key_error(e),
    })
    .with_context(|| format!("cannot use {name} as a private key"))
}

/// An encrypted key is PKCS#8 (`ENCRYPTED PRIVATE KEY`), as openssl writes it.
fn check_encrypted_format(format: EcPrivateFormat, encryption: &KeyEncryption) -> Result<()> {
    if encryption.wanted() && format != EcPrivateFormat::Pkcs8 {
        return Err(anyhow!("an encrypted private key is written as PKCS#8 only"))
            .hint("drop --format sec1, or drop --passout/--cipher for an unencrypted SEC1 key")
            .usage();
    }
    Ok(())
}

/// The key in `format` (PEM unless `der`), encrypted if `encryption` asks.
fn encode_private(
    key: &PrivateKey,
    format: EcPrivateFormat,
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
        (EcPrivateFormat::Pkcs8, false) => SecretBytes::from(key.to_pkcs8_pem()?.expose_bytes()),
        (EcPrivateFormat::Pkcs8, true) => key.to_pkcs8_der()?,
        (EcPrivateFormat::Sec1, false) => SecretBytes::from(key.to_sec1_pem()?.expose_bytes()),
        (EcPrivateFormat::Sec1, true) => key.to_sec1_der()?,
    })
}

fn load_public(path: &Path) -> Result<PublicKey> {
    let bytes = read_small(Some(path), "key")?;
    PublicKey::from_bytes(&bytes)
        .map_err(|e| match e {
            // No --passin here: the public half is what is wanted.
            ecdsa::Error::EncryptedKey => {
                let err: Result<()> = Err(anyhow!(e)).hint(
                    "give its public key, written by `parcrypt ecdsa pubkey --passin SOURCE -i KEY -o PUB`",
                );
                err.expect_err("an error")
            }
            other => key_error(other),
        })
        .with_context(|| format!("cannot use {} as a public key", path.display()))
}

/// One list entry, read and hashed, or why it could not be.
struct Entry {
    label: String,
    item: Result<(parcrypt::digest::Output, Signature), String>,
}

fn read_entry(line_no: usize, line: &str, format: SigFormat) -> Entry {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let label = fields.join(" ");
    let item = match fields[..] {
        [msg, sig] => (|| {
            let digest = File::open(msg)
                .and_then(|f| hash_reader(f, Algorithm::Sha256))
                .map_err(|e| format!("cannot read message {msg}: {e}"))?;
            let mut bytes = Vec::new();
            File::open(sig)
                .and_then(|f| f.take(1 << 20).read_to_end(&mut bytes))
                .map_err(|e| format!("cannot read signature {sig}: {e}"))?;
            let signature = parse_signature(&bytes, format)
                .map_err(|_| format!("{sig} is not a {} signature", format_name(format)))?;
            Ok((digest, signature))
        })(),
        _ => Err(format!("line {line_no}: expected `MSGFILE SIGFILE`")),
    };
    Entry { label, item }
}

/// Reads the list in bounded batches; each batch's signatures are verified
/// across the threads, results printed in list order.
fn verify_batch(key: &PublicKey, list: &Path, format: SigFormat, par: &Parallelism) -> Result<()> {
    let reader: Box<dyn BufRead> = if list == Path::new("-") {
        Box::new(BufReader::new(io::stdin()))
    } else {
        Box::new(BufReader::new(
            File::open(list)
                .with_context(|| format!("cannot open list {}", list.display()))
                .hint("--list names a file of `MSGFILE SIGFILE` lines")?,
        ))
    };
    let mut lines = reader.lines().enumerate();
    let mut out = Output::stdout();
    let (mut total, mut failed) = (0usize, 0usize);
    loop {
        let mut entries = Vec::with_capacity(BATCH_ENTRIES);
        for (i, line) in lines.by_ref() {
            let line = line
                .with_context(|| format!("cannot read list {}", list.display()))
                .hint("the list must be text: lines of `MSGFILE SIGFILE`")?;
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            entries.push(read_entry(i + 1, trimmed, format));
            if entries.len() == BATCH_ENTRIES {
                break;
            }
        }
        if entries.is_empty() {
            break;
        }
        let items: Vec<DigestItem<'_>> = entries
            .iter()
            .filter_map(|e| e.item.as_ref().ok())
            .map(|(digest, signature)| DigestItem {
                key,
                digest,
                signature,
            })
            .collect();
        let mut results = ecdsa::verify_batch_digests_vartime(&items, par).into_iter();
        for entry in &entries {
            let ok = match &entry.item {
                Ok(_) => results.next().unwrap_or(false),
                Err(why) => {
                    eprint_line(format_args!("parcrypt: {why}"));
                    false
                }
            };
            total += 1;
            failed += usize::from(!ok);
            writeln!(out, "{}: {}", entry.label, if ok { "OK" } else { "FAIL" })?;
        }
        out.flush()?;
    }
    if failed > 0 {
        return Err(anyhow!("{failed} of {total} signatures did not verify"))
            .hint("the lines marked FAIL name the message and signature files");
    }
    if total == 0 {
        return Err(anyhow!("the list {} has no entries", list.display()))
            .hint("lines are `MSGFILE SIGFILE`");
    }
    Ok(())
}
