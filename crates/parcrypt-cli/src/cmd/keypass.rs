//! Passwords of encrypted private keys, as openssl's `-passin` and
//! `-passout` take them (the sources `aes --pass` reads), or asked on the
//! terminal as openssl asks: `Enter pass phrase for KEY:` to read a key,
//! `Enter PEM pass phrase:` twice to write one.

use anyhow::{Result, anyhow};
use parcrypt::pkcs8;
use parcrypt::secret::SecretBytes;

use super::aes::password::from_source;
use std::path::Path;

use zeroize::Zeroizing;

use super::files::read_small;
use crate::cli::{KeyEncryption, PassIn, PassSource};
use crate::error::Hint;
use crate::tty;

/// Reads the private key at `path` (stdin for `None` or `-`) and its
/// password, if it needs one: the key's bytes, the password and the name
/// to use in messages.
pub fn read_private(
    path: Option<&Path>,
    passin: &PassIn,
) -> Result<(Zeroizing<Vec<u8>>, Option<SecretBytes>, String)> {
    check_stdin(path, passin)?;
    let name = key_name(path);
    let bytes = read_small(path, "key")?;
    let password = password_for(passin, &bytes, &name)?;
    Ok((bytes, password, name))
}

/// A key read from standard input cannot have its new password there too.
pub fn check_passout_stdin(path: Option<&Path>, encryption: &KeyEncryption) -> Result<()> {
    if is_stdin(path) && encryption.passout.as_ref().is_some_and(PassSource::reads_stdin) {
        return Err(anyhow!(
            "the key and its new password cannot both come from standard input"
        ))
        .hint("give the password another way: --passout env:VAR, file:PATH or fd:N")
        .usage();
    }
    Ok(())
}

/// The key and its password cannot both be standard input.
pub fn check_stdin(path: Option<&Path>, passin: &PassIn) -> Result<()> {
    if is_stdin(path) && passin.passin.as_ref().is_some_and(PassSource::reads_stdin) {
        return Err(anyhow!(
            "the key and its password cannot both come from standard input"
        ))
        .hint("give the password another way: --passin env:VAR, file:PATH or fd:N")
        .usage();
    }
    Ok(())
}

fn is_stdin(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p == Path::new("-"))
}

/// The key file's name for messages and the prompt.
pub fn key_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if !is_stdin(path) => p.display().to_string(),
        _ => "the key on standard input".to_owned(),
    }
}

/// The password for the private key `key` (named `name` in messages):
/// from `--passin` if given, else asked on the terminal if the key is
/// encrypted, else none.
pub fn password_for(passin: &PassIn, key: &[u8], name: &str) -> Result<Option<SecretBytes>> {
    if let Some(source) = &passin.passin {
        return from_source(source, "--passin").map(Some);
    }
    if !pkcs8::is_encrypted(key) {
        return Ok(None);
    }
    // A key that would be refused is refused before its password is asked.
    pkcs8::check_cost(key, &passin.kdf_limits()).map_err(|e| {
        too_costly(
            anyhow::Error::new(e).context(format!("cannot use {name} as a private key")),
            passin,
        )
    })?;
    let password = tty::read_secret(&format!("Enter pass phrase for {name}:"))
        .map_err(|e| anyhow!("{name} is an encrypted private key, and no password was given ({e})"))
        .hint("give its password with --passin env:VAR, file:PATH, fd:N or stdin (as openssl's -passin)")?;
    Ok(Some(password))
}

/// `error`, a key whose password derivation asks for more than
/// `passin`'s limits, with the hint that fits them.
pub fn too_costly(error: impl Into<anyhow::Error>, passin: &PassIn) -> anyhow::Error {
    let hint = if passin.allow_costly_kdf {
        "this is above even --allow-costly-kdf's limits (10000000 PBKDF2 iterations, 1 GiB and \
         N·r·p = 2^27 of scrypt); re-encrypt the key where it was made, with cheaper parameters"
    } else {
        "refused before any work: a wrong password would pay it all; if you trust the file, \
         give --allow-costly-kdf (up to 10000000 PBKDF2 iterations, 1 GiB and N·r·p = 2^27 of scrypt)"
    };
    let err: Result<()> = Err(error.into()).hint(hint);
    err.expect_err("an error")
}

/// The password and options to encrypt a new private key with, if the
/// command line asks for encryption (`--passout`, `--cipher`, `--iter` or
/// `--scrypt`); without `--passout`, the password is asked twice on the
/// terminal.
pub fn passout(args: &KeyEncryption) -> Result<Option<(SecretBytes, pkcs8::Options)>> {
    if !args.wanted() {
        return Ok(None);
    }
    let mut options = pkcs8::Options::with_cipher(args.cipher.unwrap_or_default());
    if args.scrypt {
        options.kdf = pkcs8::Kdf::SCRYPT_DEFAULT;
    } else if let Some(iterations) = args.iter {
        options.kdf = pkcs8::Kdf::Pbkdf2 {
            prf: pkcs8::Prf::HmacSha256,
            iterations,
        };
    }
    let password = match &args.passout {
        Some(source) => from_source(source, "--passout")?,
        None => {
            let no_terminal =
                "give the password with --passout env:VAR, file:PATH, fd:N or stdin (as openssl's -passout)";
            let first = tty::read_secret("Enter PEM pass phrase:").hint(no_terminal)?;
            let again = tty::read_secret("Verifying - Enter PEM pass phrase:").hint(no_terminal)?;
            if again != first {
                return Err(anyhow!("the passwords differ (verify failure)"))
                    .hint("type the same password twice");
            }
            first
        }
    };
    Ok(Some((password, options)))
}
