//! The `stream` file format (the CLI's `encrypt` / `decrypt`) between files.
//! The output appears only complete: it is written to a temporary file
//! beside the destination and renamed when the last segment is done (for
//! decryption: authenticated), as the CLI does (see [`crate::files`]).

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass, JObjectArray, JString};
use jni::sys::{jint, jlong};
use parcrypt::rsa::{PrivateKey, PublicKey};
use parcrypt::secret::{SecretBytes, SecretKey};
use parcrypt::stream::{self, DecryptOptions, Error, Identity, Options, Recipient};

use crate::files::between_files;
use crate::{
    BAD_TAG, Fail, ILLEGAL_ARG, INVALID_KEY, IO, PROVIDER, Res, array_of_arrays, fail, guard, par,
    secret_bytes_opt,
};
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};

fn err(e: Error) -> Fail {
    let msg = e.to_string();
    match e {
        Error::Io(io) => Fail::Throw(IO, format!("{msg}: {io}")),
        Error::Truncated { .. } | Error::SegmentAuthentication { .. } | Error::HeaderAuthentication => {
            Fail::Throw(BAD_TAG, msg)
        }
        Error::NoMatchingIdentity => Fail::Throw(INVALID_KEY, msg),
        Error::WrongFormat | Error::UnsupportedVersion(_) | Error::MalformedHeader(_) => {
            Fail::Throw("java/io/StreamCorruptedException", msg)
        }
        Error::Options(_) | Error::WorkFactor { .. } | Error::Range { .. } => Fail::Throw(ILLEGAL_ARG, msg),
        Error::Rsa(e) => e.into(),
        _ => Fail::Throw(PROVIDER, msg),
    }
}

/// The 32-byte stream key in `key` (which stays the caller's, wiped when
/// it drops it).
fn key32(key: &SecretBytes) -> Res<SecretKey<32>> {
    SecretKey::from_slice(key.expose()).ok_or_else(|| {
        Fail::Throw(
            INVALID_KEY,
            format!("stream key must be 32 bytes, got {}", key.len()),
        )
    })
}

fn passphrase(p: SecretBytes) -> Res<SecretBytes> {
    if p.is_empty() {
        return fail(ILLEGAL_ARG, "the passphrase is empty");
    }
    Ok(p)
}

/// Encrypts the file `input` to the file `output` for a 32-byte `key`, a
/// `passphrase` (alone), and/or RSA public keys (SPKI DER); returns the
/// plaintext length.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_streamEncrypt<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    input: JString<'l>,
    output: JString<'l>,
    key: JByteArray<'l>,
    pass: JByteArray<'l>,
    rsa_keys: JObjectArray<'l>,
    segment_size: jint,
    log2_n: jint,
    threads: jint,
    strategy: jint,
) -> jlong {
    guard(&mut env, 0, |env| {
        let par = par(threads, strategy)?;
        let rsa: Vec<PublicKey> = if rsa_keys.is_null() {
            Vec::new()
        } else {
            array_of_arrays(env, &rsa_keys, "recipients")?
                .iter()
                .map(|der| PublicKey::from_bytes(der, &par).map_err(Fail::from))
                .collect::<Res<_>>()?
        };
        // Secrets from the moment they are read: any error below wipes them.
        let (key, pass) = (secret_bytes_opt(env, &key)?, secret_bytes_opt(env, &pass)?);
        let mut recipients: Vec<Recipient<'_>> = Vec::new();
        if let Some(k) = &key {
            recipients.push(Recipient::Key(key32(k)?));
        }
        if let Some(p) = pass {
            let log2_n =
                u8::try_from(log2_n).or_else(|_| fail(ILLEGAL_ARG, format!("scrypt cost 2^{log2_n}")))?;
            recipients.push(Recipient::Passphrase {
                passphrase: passphrase(p)?,
                log2_n,
            });
        }
        recipients.extend(rsa.iter().map(Recipient::Rsa));
        if recipients.is_empty() {
            return fail(ILLEGAL_ARG, "give a key, a passphrase or RSA recipients");
        }
        let segment_size = usize::try_from(segment_size)
            .or_else(|_| fail(ILLEGAL_ARG, format!("segment size {segment_size}")))?;
        let opts = Options { segment_size };
        between_files(env, &input, &output, |file, w| {
            stream::encrypt_file(&recipients, file, w, &opts, &par, |_| {}).map_err(err)
        })
    })
}

/// Decrypts the file `input` to the file `output` with exactly one of a
/// 32-byte `key`, a `passphrase` or an RSA private key (PKCS#8 DER);
/// returns the plaintext length. Nothing is written unless every segment
/// authenticates.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_streamDecrypt<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    input: JString<'l>,
    output: JString<'l>,
    key: JByteArray<'l>,
    pass: JByteArray<'l>,
    rsa_key: JByteArray<'l>,
    max_work_factor: jint,
    threads: jint,
    strategy: jint,
) -> jlong {
    guard(&mut env, 0, |env| {
        let par = par(threads, strategy)?;
        // Secrets from the moment they are read: any error below wipes them.
        let (key, pass, rsa) = (
            secret_bytes_opt(env, &key)?,
            secret_bytes_opt(env, &pass)?,
            secret_bytes_opt(env, &rsa_key)?,
        );
        let rsa = match rsa {
            Some(der) => Some(PrivateKey::from_bytes(der.expose(), &par)?),
            None => None,
        };
        let who = match (key, pass, rsa.as_ref()) {
            (Some(k), None, None) => Identity::Key(key32(&k)?),
            (None, Some(p), None) => Identity::Passphrase(passphrase(p)?),
            (None, None, Some(r)) => Identity::Rsa(r),
            _ => {
                return fail(
                    ILLEGAL_ARG,
                    "give exactly one of a key, a passphrase or an RSA private key",
                );
            }
        };
        let max_work_factor = u8::try_from(max_work_factor)
            .or_else(|_| fail(ILLEGAL_ARG, format!("work factor {max_work_factor}")))?;
        let opts = DecryptOptions { max_work_factor };
        between_files(env, &input, &output, |file, w| {
            stream::decrypt_file(std::slice::from_ref(&who), file, w, &opts, &par, |_| {}).map_err(err)
        })
    })
}
