//! ML-DSA and SLH-DSA: one set of entry points over the library's
//! [`parcrypt::keys`] family traits, the family picked by a code (0 =
//! ML-DSA, 1 = SLH-DSA), for `PqKeys`, `PqSignature` and `ParcryptPq`.
//!
//! Keys are PKCS#8 / SPKI DER (every private form the library reads);
//! messages arrive whole (`Signature` buffers them: SLH-DSA hashes a
//! message twice, so needs it whole anyway).

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass, JObjectArray, JString};
use jni::sys::{jboolean, jbooleanArray, jbyteArray, jint, jlong, jobjectArray};
use parcrypt::keys::{BatchItem, ErrorKind, KeyError, SigningKey, VerifyingKey};
use parcrypt::secret::SecretBytes;
use parcrypt::{mldsa, slhdsa};

use crate::{
    Fail, Handle, ILLEGAL_ARG, INVALID_KEY, INVALID_PARAM, PROVIDER, Res, SIGNATURE, array_of_arrays, bytes,
    encode_fn, entry, fail, free_fn, from_handle, load_key, one_each, par, parse_once,
};

/// A family's error as the JCA exception for its kind.
fn key_fail<E: KeyError>(e: E) -> Fail {
    let class = match e.kind() {
        ErrorKind::MalformedSignature | ErrorKind::BadSignature => SIGNATURE,
        ErrorKind::InvalidInput => INVALID_PARAM,
        ErrorKind::Other => PROVIDER,
        _ => INVALID_KEY,
    };
    Fail::Throw(class, e.to_string())
}

impl From<mldsa::Error> for Fail {
    fn from(e: mldsa::Error) -> Self {
        key_fail(e)
    }
}

impl From<slhdsa::Error> for Fail {
    fn from(e: slhdsa::Error) -> Self {
        key_fail(e)
    }
}

/// A private key of either family, behind a handle.
enum Private {
    MlDsa(mldsa::PrivateKey),
    SlhDsa(slhdsa::PrivateKey),
}

/// A public key of either family, behind a handle.
enum Public {
    MlDsa(mldsa::PublicKey),
    SlhDsa(slhdsa::PublicKey),
}

/// What the entry points need of a family beyond [`SigningKey`].
trait Family: SigningKey<Error: Into<Fail>> {
    /// The parameter set named `name` (the library's spelling, any case).
    fn params(name: &str) -> Res<Self::Params>;
    /// The options of a signature with `context`, `deterministic` (SLH-DSA only).
    fn options(context: Vec<u8>, deterministic: bool) -> Self::Options;
    /// The expanded private key (ML-DSA only).
    fn expanded(&self) -> Res<SecretBytes>;
    fn wrap(self) -> Private;
    fn wrap_public(key: Self::Public) -> Public;
}

fn unknown(e: impl std::fmt::Display) -> Fail {
    Fail::Throw(INVALID_PARAM, e.to_string())
}

impl Family for mldsa::PrivateKey {
    fn params(name: &str) -> Res<mldsa::ParameterSet> {
        mldsa::ParameterSet::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| unknown(format!("unknown ML-DSA parameter set {name:?}")))
    }

    fn options(context: Vec<u8>, _: bool) -> mldsa::SignatureOptions {
        mldsa::SignatureOptions { context }
    }

    fn expanded(&self) -> Res<SecretBytes> {
        Ok(self.to_expanded()?)
    }

    fn wrap(self) -> Private {
        Private::MlDsa(self)
    }

    fn wrap_public(key: mldsa::PublicKey) -> Public {
        Public::MlDsa(key)
    }
}

impl Family for slhdsa::PrivateKey {
    fn params(name: &str) -> Res<slhdsa::ParameterSet> {
        name.parse().map_err(unknown)
    }

    fn options(context: Vec<u8>, deterministic: bool) -> slhdsa::SignatureOptions {
        slhdsa::SignatureOptions {
            context,
            prehash: None,
            deterministic,
        }
    }

    fn expanded(&self) -> Res<SecretBytes> {
        fail(ILLEGAL_ARG, "SLH-DSA private keys have one encoding")
    }

    fn wrap(self) -> Private {
        Private::SlhDsa(self)
    }

    fn wrap_public(key: slhdsa::PublicKey) -> Public {
        Public::SlhDsa(key)
    }
}

/// Runs `$body` with `$K` the family type of code `$family`.
macro_rules! by_family {
    ($family:expr, $K:ident => $body:expr) => {
        match $family {
            0 => {
                type $K = mldsa::PrivateKey;
                $body
            }
            1 => {
                type $K = slhdsa::PrivateKey;
                $body
            }
            other => fail(ILLEGAL_ARG, format!("unknown signature family code {other}")),
        }
    };
}

/// Runs `$body` with `$k` the key inside the [`Private`] or [`Public`] `$key`.
macro_rules! on_key {
    ($enum:ident, $key:expr, $k:ident => $body:expr) => {
        match $key {
            $enum::MlDsa($k) => $body,
            $enum::SlhDsa($k) => $body,
        }
    };
}

/// A new key of parameter set `set` (its top tree built on the threads, for
/// SLH-DSA), as a handle.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_sigGenerate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    family: jint,
    set: JString<'l>,
    threads: jint,
    strategy: jint,
) -> jlong {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let set: String = env.get_string(&set)?.into();
        by_family!(family, K => {
            let key = <K as SigningKey>::generate(&K::params(&set)?, &par)?;
            Ok(Handle(key.wrap()))
        })
    })
}

/// A private key from PKCS#8 DER (wiped once parsed), read on the
/// provider's threads (SLH-DSA rebuilds its top tree; ML-DSA only parses).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_sigPrivateLoad<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    family: jint,
    der: JByteArray<'l>,
    threads: jint,
    strategy: jint,
) -> jlong {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        by_family!(family, K => load_key(env, &der, true, |d| {
            <K as SigningKey>::from_pkcs8_der(d, &par).map(K::wrap)
        }))
    })
}

/// A public key from SPKI DER.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_sigPublicLoad<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    family: jint,
    der: JByteArray<'l>,
) -> jlong {
    entry(&mut env, |env| {
        by_family!(family, K => load_key(env, &der, false, |d| {
            <<K as SigningKey>::Public as VerifyingKey>::from_spki_der(d).map(K::wrap_public)
        }))
    })
}

/// The public key of a private key handle, as a public key handle: the
/// library's parsed key shared, nothing parsed or hashed again (what a
/// generated key pair's public half is made from).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_sigPublicOf<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jlong {
    entry(&mut env, |_| {
        // SAFETY: a live private key handle of this module (see `from_handle`).
        let key = unsafe { from_handle::<Private>(handle)? };
        Ok(Handle(match key {
            Private::MlDsa(k) => Public::MlDsa(k.public_key().clone()),
            Private::SlhDsa(k) => Public::SlhDsa(k.public_key().clone()),
        }))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_sigPrivateFree, Private);
free_fn!(Java_dev_parcrypt_jca_Native_sigPublicFree, Public);

fn pkcs8<K: Family>(key: &K) -> Res<SecretBytes> {
    SigningKey::to_pkcs8_der(key).map_err(Into::into)
}

fn spki<P: VerifyingKey<Error: Into<Fail>>>(key: &P) -> Res<Vec<u8>> {
    VerifyingKey::to_spki_der(key).map_err(Into::into)
}

encode_fn!(
    /// `what` 0 = PKCS#8 DER (ML-DSA: the seed form, or the expanded one for
    /// a key read without its seed), 2 = the raw expanded private key
    /// (ML-DSA only). The public key: `sigPublicOf`.
    Java_dev_parcrypt_jca_Native_sigPrivateEncode,
    Private,
    |key| {
        0 => on_key!(Private, key, k => pkcs8(k)?),
        2 => on_key!(Private, key, k => k.expanded()?),
    }
);

encode_fn!(
    /// `what` 0 = SPKI DER.
    Java_dev_parcrypt_jca_Native_sigPublicEncode,
    Public,
    |key| {
        0 => on_key!(Public, key, k => spki(k)?),
    }
);

fn sign<K: Family>(
    key: &K,
    message: &[u8],
    context: Vec<u8>,
    deterministic: bool,
    threads: jint,
    strategy: jint,
) -> Res<Vec<u8>> {
    let par = par(threads, strategy)?;
    key.sign_message(message, &K::options(context, deterministic), &par)
        .map_err(Into::into)
}

/// A signature over `message` with `context` (0–255 bytes), hedged unless
/// `deterministic` (SLH-DSA only; ML-DSA is always hedged), SLH-DSA's trees
/// built on the threads.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_sigSign<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    message: JByteArray<'l>,
    context: JByteArray<'l>,
    deterministic: jboolean,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    entry(&mut env, |env| {
        // SAFETY: a live private key handle of this module (see `from_handle`).
        let key = unsafe { from_handle::<Private>(handle)? };
        let message = bytes(env, &message, "message")?;
        let context = bytes(env, &context, "context")?;
        let det = deterministic != 0;
        on_key!(Private, key, k => sign(k, &message, context, det, threads, strategy))
    })
}

/// What a verification's result is for Java: true, false for a signature
/// that does not verify, `SignatureException` for one of the wrong length
/// (as the JDK's ML-DSA throws).
fn verdict<E: KeyError>(result: Result<(), E>) -> Res<bool> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == ErrorKind::BadSignature => Ok(false),
        Err(e) => Err(key_fail(e)),
    }
}

fn verify<P: VerifyingKey<Private: Family>>(
    key: &P,
    message: &[u8],
    sig: &[u8],
    context: Vec<u8>,
) -> Res<bool> {
    let options = P::Private::options(context, false);
    verdict(key.verify_message(message, sig, &options, &parcrypt::par::Parallelism::sequential()))
}

/// Verifies `sig` over `message` with `context`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_sigVerify<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    message: JByteArray<'l>,
    sig: JByteArray<'l>,
    context: JByteArray<'l>,
) -> jboolean {
    entry(&mut env, |env| {
        // SAFETY: a live public key handle of this module (see `from_handle`).
        let key = unsafe { from_handle::<Public>(handle)? };
        let message = bytes(env, &message, "message")?;
        let sig = bytes(env, &sig, "signature")?;
        let context = bytes(env, &context, "context")?;
        on_key!(Public, key, k => verify(k, &message, &sig, context))
    })
}

fn sign_batch<K: Family>(
    key: &K,
    messages: &[Vec<u8>],
    context: Vec<u8>,
    deterministic: bool,
    par: &parcrypt::par::Parallelism,
) -> Res<Vec<Vec<u8>>> {
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    key.sign_batch(&refs, &K::options(context, deterministic), par)
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.map_err(|e| {
                let fail: Fail = e.into();
                match fail {
                    Fail::Throw(class, msg) => Fail::Throw(class, format!("messages[{i}]: {msg}")),
                    pending => pending,
                }
            })
        })
        .collect()
}

/// Signs every message with one key across the threads: one signature each, in order.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_sigSignBatch<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    messages: JObjectArray<'l>,
    context: JByteArray<'l>,
    deterministic: jboolean,
    threads: jint,
    strategy: jint,
) -> jobjectArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        // SAFETY: a live private key handle of this module (see `from_handle`).
        let key = unsafe { from_handle::<Private>(handle)? };
        let messages = array_of_arrays(env, &messages, "messages")?;
        let context = bytes(env, &context, "context")?;
        let det = deterministic != 0;
        on_key!(Private, key, k => sign_batch(k, &messages, context, det, &par))
    })
}

fn verify_batch<K: Family>(
    spkis: &[Vec<u8>],
    messages: &[Vec<u8>],
    sigs: &[Vec<u8>],
    context: Vec<u8>,
    par: &parcrypt::par::Parallelism,
) -> Res<Vec<bool>> {
    let (keys, key_at) = parse_once(spkis, <K::Public as VerifyingKey>::from_spki_der)?;
    let items: Vec<BatchItem<'_, K::Public>> = (0..sigs.len())
        .map(|i| BatchItem {
            key: &keys[key_at[i]],
            message: &messages[i],
            signature: &sigs[i],
        })
        .collect();
    let options = K::options(context, false);
    Ok(<K as SigningKey>::Public::verify_batch(&items, &options, par)
        .iter()
        .map(Result::is_ok)
        .collect())
}

/// Verifies `messages[i]` / `signatures[i]` under `keys[i]` (SPKI DER), all
/// with `context`, across the threads; one boolean each (a signature of the
/// wrong length is simply false; a malformed key throws
/// `InvalidKeyException` naming its index).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_sigVerifyBatch<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    family: jint,
    keys: JObjectArray<'l>,
    messages: JObjectArray<'l>,
    signatures: JObjectArray<'l>,
    context: JByteArray<'l>,
    threads: jint,
    strategy: jint,
) -> jbooleanArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let keys = array_of_arrays(env, &keys, "keys")?;
        let messages = array_of_arrays(env, &messages, "messages")?;
        let sigs = array_of_arrays(env, &signatures, "signatures")?;
        let context = bytes(env, &context, "context")?;
        one_each(keys.len(), messages.len(), sigs.len())?;
        by_family!(family, K => verify_batch::<K>(&keys, &messages, &sigs, context, &par))
    })
}
