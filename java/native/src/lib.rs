//! The native side of the Java provider `Parcrypt` (`java/`): JNI entry
//! points over the parcrypt library, called from `dev.parcrypt.jca.Native`.
//!
//! Rules every entry point keeps:
//! - **Nothing reaches the JVM as a crash.** Each body runs inside [`guard`]
//!   (through [`entry`]): a panic is caught (`catch_unwind`) and becomes a
//!   `ProviderException`; a library error becomes the exception the JCA
//!   names for it (`AEADBadTagException`, `BadPaddingException`,
//!   `InvalidKeyException`, …) through the `From<Error> for Fail` each
//!   module gives its library's error type, so bodies just use `?`.
//! - **An entry point states only what is its own**: its body returns a Rust
//!   value (bytes, a `bool`, a length, a [`Handle`], hashes: see
//!   [`ToJava`]) and [`entry`] makes it the JNI value.
//! - **Secrets are never printed**: messages name sizes and kinds, never
//!   key bytes; plaintext copies are wiped.
//! - **Handles** are `Box`es handed to Java as a `long`; the Java class that
//!   holds one frees it exactly once (a `Cleaner`) and keeps its owner
//!   reachable for the length of every call.
//! - **Java arrays are copied once into native memory** (`GetByteArrayRegion`)
//!   and the parallel work runs on that copy: no JVM array is pinned while
//!   other threads work. Direct `ByteBuffer`s are used in place. The
//!   exceptions are AES-GCM's `doFinal` on `byte[]`s and Cobblestone's
//!   one-shot calls and stream updates, which run on the arrays themselves
//!   inside a JNI critical region ([`Pinned`]): there the two copies cost
//!   more than the cipher — except for GCM messages of 1–2 KiB and less,
//!   copied onto the stack ([`read_into`]), where pinning's JNI calls cost
//!   more than the copies.

use std::panic::{AssertUnwindSafe, catch_unwind};

use jni::JNIEnv;
use jni::sys::jint;
use parcrypt::par::{Parallelism, Strategy};

mod aes;
mod arrays;
mod cobblestone;
mod crypter;
mod digest;
mod direct;
mod ecdsa;
mod entry;
mod files;
mod handles;
mod merkle;
mod mlkem;
mod pkcs8;
mod pq;
mod rsa;
mod stream;

/// Why an entry point stopped.
#[derive(Debug)]
pub enum Fail {
    /// Throw a new exception of this class (JNI name) with this message.
    Throw(&'static str, String),
    /// A JNI call already left an exception pending: let it propagate.
    Pending,
}

pub const PROVIDER: &str = "java/security/ProviderException";
pub const INVALID_KEY: &str = "java/security/InvalidKeyException";
pub const INVALID_KEY_SPEC: &str = "java/security/spec/InvalidKeySpecException";
pub const INVALID_PARAM: &str = "java/security/InvalidAlgorithmParameterException";
pub const SIGNATURE: &str = "java/security/SignatureException";
pub const BAD_TAG: &str = "javax/crypto/AEADBadTagException";
pub const BAD_PADDING: &str = "javax/crypto/BadPaddingException";
pub const BLOCK_SIZE: &str = "javax/crypto/IllegalBlockSizeException";
pub const ILLEGAL_ARG: &str = "java/lang/IllegalArgumentException";
pub const ILLEGAL_STATE: &str = "java/lang/IllegalStateException";
pub const IO: &str = "java/io/IOException";

pub type Res<T> = Result<T, Fail>;

pub use arrays::*;
pub use direct::*;
pub use entry::{Handle, ToJava, entry};
pub use handles::*;

pub fn fail<T>(class: &'static str, msg: impl Into<String>) -> Res<T> {
    Err(Fail::Throw(class, msg.into()))
}

impl From<jni::errors::Error> for Fail {
    fn from(e: jni::errors::Error) -> Self {
        match e {
            jni::errors::Error::JavaException => Fail::Pending,
            jni::errors::Error::NullPtr(what) | jni::errors::Error::NullDeref(what) => Fail::Throw(
                "java/lang/NullPointerException",
                format!("null argument ({what})"),
            ),
            other => Fail::Throw(PROVIDER, format!("JNI call failed: {other}")),
        }
    }
}

/// Runs an entry point's body: its value, or `default` with an exception
/// thrown (a panic becomes a `ProviderException`).
pub fn guard<'l, T>(env: &mut JNIEnv<'l>, default: T, body: impl FnOnce(&mut JNIEnv<'l>) -> Res<T>) -> T {
    // PARCRYPT_CPU_MASK reaches AWS-LC before the first entry point uses it
    // (one load once applied; see `parcrypt::cpu`).
    let _ = parcrypt::cpu::enabled();
    let outcome = catch_unwind(AssertUnwindSafe(|| body(env)));
    let (class, msg) = match outcome {
        Ok(Ok(value)) => return value,
        Ok(Err(Fail::Pending)) => return default,
        Ok(Err(Fail::Throw(class, msg))) => (class, msg),
        Err(_) => (
            PROVIDER,
            "internal error in parcrypt's native code (a Rust panic: please report it)".to_string(),
        ),
    };
    if !env.exception_check().unwrap_or(true) {
        // If even this fails there is nothing left to report with.
        let _ = env.throw_new(class, msg);
    }
    default
}

/// The `Parallelism` a call asked for: `threads` ≤ 0 is every core the
/// process may use; `strategy` 0 = seq, 1 = static, 2 = steal.
pub fn par(threads: jint, strategy: jint) -> Res<Parallelism> {
    let strategy = match strategy {
        0 => Strategy::Sequential,
        1 => Strategy::Static,
        2 => Strategy::WorkStealing,
        other => return fail(ILLEGAL_ARG, format!("unknown strategy code {other}")),
    };
    let threads = usize::try_from(threads)
        .ok()
        .filter(|&t| t > 0)
        .unwrap_or_else(parcrypt::par::available_threads);
    Ok(Parallelism::new(threads, strategy))
}

/// Panics on purpose, inside [`guard`]: lets the Java tests check that a Rust
/// panic reaches Java as a `ProviderException` and the JVM carries on.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_panicForTest<'l>(
    mut env: JNIEnv<'l>,
    _class: jni::objects::JClass<'l>,
) -> jint {
    guard(&mut env, 0, |_| -> Res<jint> {
        panic!("deliberate panic (test of the panic guard)")
    })
}
