//! `parcrypt ml-kem`: key encapsulation as `openssl genpkey`, `openssl pkey
//! -pubout` and `openssl pkeyutl -encap/-decap` (3.5) do it. The commands
//! are written once over the library's KEM family
//! ([`parcrypt::kem::KemPrivateKey`]); ML-KEM is the member dispatched
//! here.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use parcrypt::kem::{KemPrivateKey, KemPublicKey};
use parcrypt::mlkem;
use parcrypt::pkcs8;
use parcrypt::secret::SecretBytes;

use super::files::{key_output, read_small, write_output};
use super::keypass;
use crate::cli::{KemCommand, KeyEncryption, PassIn, PassSource};
use crate::error::Hint;
use crate::io::{Output, Policy, names_stdout};

/// What the commands need of a KEM family beyond the library's traits:
/// how its key errors are explained.
trait Family: KemPrivateKey {
    /// `ml-kem`, for messages.
    const COMMAND: &'static str;
    /// A hint for a key that could not be read.
    fn hint(e: &Self::Error) -> &'static str;
}

impl Family for mlkem::PrivateKey {
    const COMMAND: &'static str = "ml-kem";

    fn hint(e: &mlkem::Error) -> &'static str {
        match e {
            mlkem::Error::EncryptedKey => {
                "give its password with --passin env:VAR, file:PATH, fd:N or stdin (as openssl's -passin)"
            }
            mlkem::Error::KeyEncryption(pkcs8::Error::BadDecrypt) => "check the password given with --passin",
            mlkem::Error::WrongKeyType(_) => {
                "this command needs an ML-KEM key (parcrypt ml-kem keygen, openssl genpkey -algorithm ML-KEM-768)"
            }
            mlkem::Error::InvalidKey => "the key file is damaged or was not made by an ML-KEM implementation",
            _ => {
                "expected a PEM or DER ML-KEM key (PKCS#8 or SPKI), as written by `parcrypt ml-kem keygen` or openssl"
            }
        }
    }
}

pub fn run(cmd: &KemCommand) -> Result<()> {
    type Kem = mlkem::PrivateKey;
    match cmd {
        KemCommand::Keygen {
            params,
            der,
            encryption,
            output,
            force,
        } => keygen::<Kem>(*params, *der, encryption, output.as_deref(), *force),
        KemCommand::Pubkey { der, passin, io } => {
            pubkey::<Kem>(io.input.as_deref(), passin, *der, io.output.as_deref())
        }
        KemCommand::Encap {
            public,
            output,
            secret,
        } => encap::<Kem>(public, output.as_deref(), secret),
        KemCommand::Decap {
            key,
            passin,
            input,
            secret,
        } => decap::<Kem>(key, passin, input.as_deref(), secret),
    }
}

fn key_error<K: Family>(e: K::Error) -> anyhow::Error {
    let hint = K::hint(&e);
    let err: Result<()> = Err(anyhow!(e)).hint(hint);
    err.expect_err("an error")
}

fn keygen<K: Family>(
    params: K::Params,
    der: bool,
    encryption: &KeyEncryption,
    output: Option<&Path>,
    force: bool,
) -> Result<()> {
    let mut out = key_output(output, force)?;
    let key = K::generate(params).map_err(key_error::<K>)?;
    let encoded = match keypass::passout(encryption)? {
        Some((password, options)) => SecretBytes::new(if der {
            key.to_pkcs8_encrypted_der(password.expose(), &options)
                .map_err(key_error::<K>)?
        } else {
            key.to_pkcs8_encrypted_pem(password.expose(), &options)
                .map_err(key_error::<K>)?
                .into_bytes()
        }),
        None if der => key.to_pkcs8_der().map_err(key_error::<K>)?,
        None => SecretBytes::from(key.to_pkcs8_pem().map_err(key_error::<K>)?.expose_bytes()),
    };
    out.write_all(encoded.expose())?;
    out.commit()
}

fn pubkey<K: Family>(input: Option<&Path>, passin: &PassIn, der: bool, output: Option<&Path>) -> Result<()> {
    keypass::check_stdin(input, passin)?;
    let bytes = read_small(input, "key")?;
    let name = keypass::key_name(input);
    let (owned, private);
    let public = if pkcs8::is_encrypted(&bytes) {
        private = open_private::<K>(&bytes, passin, &name)?;
        private.public_key()
    } else {
        owned = K::Public::from_bytes(&bytes)
            .map_err(key_error::<K>)
            .with_context(|| format!("cannot use {name} as an {} key", K::COMMAND))?;
        &owned
    };
    let encoded = if der {
        public.to_spki_der().map_err(key_error::<K>)?
    } else {
        public.to_spki_pem().map_err(key_error::<K>)?.into_bytes()
    };
    write_output(output, &encoded)
}

/// The private key in `bytes`, decrypted with `--passin` (or a password
/// asked on the terminal) if it is encrypted.
fn open_private<K: Family>(bytes: &[u8], passin: &PassIn, name: &str) -> Result<K> {
    let password = keypass::password_for(passin, bytes, name)?;
    K::from_bytes_with_password(
        bytes,
        password.as_ref().map(SecretBytes::expose),
        &passin.kdf_limits(),
    )
    .map_err(key_error::<K>)
    .with_context(|| format!("cannot use {name} as a private key"))
}

/// The output for a shared secret: a file (mode 0600, atomic, replaced as
/// `openssl pkeyutl -secret` replaces it), never standard output.
fn secret_output(path: &Path) -> Result<Output> {
    if names_stdout(path) {
        return Err(anyhow!("the shared secret is not written to standard output"))
            .hint("give --secret a file name (it is created with mode 0600)")
            .usage();
    }
    Output::create(Some(path), Policy::REPLACE.secret())
}

fn encap<K: Family>(public: &Path, output: Option<&Path>, secret: &Path) -> Result<()> {
    let mut secret_out = secret_output(secret)?;
    let bytes = read_small(Some(public), "key")?;
    let key = K::Public::from_bytes(&bytes)
        .map_err(key_error::<K>)
        .with_context(|| format!("cannot use {} as a public key", public.display()))?;
    let (shared, ciphertext) = key.encapsulate().map_err(key_error::<K>)?;
    let mut ct_out = Output::create(output, Policy::REPLACE)?;
    ct_out.write_all(&ciphertext)?;
    secret_out.write_all(shared.expose())?;
    // The ciphertext first: when it cannot be written (a full disk, a
    // closed pipe) no secret is left behind.
    ct_out.commit()?;
    secret_out.commit()
}

fn decap<K: Family>(key: &Path, passin: &PassIn, input: Option<&Path>, secret: &Path) -> Result<()> {
    let mut secret_out = secret_output(secret)?;
    keypass::check_stdin(Some(key), passin)?;
    if input.is_none_or(|p| p == Path::new("-")) && matches!(passin.passin, Some(PassSource::Stdin)) {
        return Err(anyhow!("the ciphertext and the key's password cannot both come from standard input"))
            .hint("give the ciphertext with -i FILE, or the password another way: --passin env:VAR, file:PATH or fd:N")
            .usage();
    }
    let name = keypass::key_name(Some(key));
    let key_bytes = read_small(Some(key), "key")?;
    let private = open_private::<K>(&key_bytes, passin, &name)?;
    let ciphertext = read_small(input, "ciphertext")?;
    let shared = private
        .decapsulate(&ciphertext)
        .map_err(|e| anyhow!(e))
        .hint(format!(
            "is it a ciphertext of `parcrypt {} encap` or `openssl pkeyutl -encap` for this key's parameter set ({})?",
            K::COMMAND,
            private.params()
        ))?;
    secret_out.write_all(shared.expose())?;
    secret_out.commit()
}
