//! Structured fuzzing of every parser that reads untrusted input: stream
//! headers and segments, age files (header, armor, payload) and keys, PEM/DER keys (RSA, ECDSA, SLH-DSA,
//! ML-DSA, ML-KEM), signatures (DER ECDSA, RSA, ML-DSA), ML-KEM ciphertexts, RSA bulk ciphertexts, Merkle proofs, tlog-tiles logs (checkpoint,
//! entry bundles, tiles).
//!
//! Each input is either arbitrary bytes or a valid object mutated (bytes
//! flipped, cut, inserted), so that the parsers get past their first checks.
//! Every case asserts: no panic, a typed error (never a success for a
//! changed input where success would mean forgery), and a bounded peak of
//! live heap memory while it runs (a counting global allocator: at most
//! [`HEAP_BOUND`] above what was live before, for inputs of a few KiB).
//! AWS-LC's own allocations (`OPENSSL_malloc`) bypass the Rust allocator and
//! are not counted.
//!
//! A test binary of its own, not a module of `tests/it/`: the allocator is
//! the whole process's, so the peak would count the allocations of the
//! other integration tests running beside it on other threads.
//!
//! `cargo test` runs 256 cases per property (a few seconds in all). A long
//! run:
//!
//! ```text
//! PROPTEST_CASES=100000 cargo test -p parcrypt --test fuzz_parsers --release
//! ```
//!
//! A failure is shrunk to a minimal input and saved under
//! `tests/fuzz_parsers.proptest-regressions`, which later runs replay first.

#![allow(clippy::unwrap_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use parcrypt::age;
use parcrypt::digest::Algorithm;
use parcrypt::ecdsa;
use parcrypt::hazmat;
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};
use parcrypt::merkle::Rfc6962;
use parcrypt::merkle::tiles::{self, RebuildOptions};
use parcrypt::mldsa;
use parcrypt::mlkem;
use parcrypt::par::{Parallelism, Strategy as Schedule};
use parcrypt::rsa::{self, PrivateKey, PublicKey, Scheme};
use parcrypt::secret::SecretKey;
use parcrypt::slhdsa;
use parcrypt::stream::{self, DecryptOptions, Identity, Options, Recipient};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// The most heap one case may hold live above its starting point.
const HEAP_BOUND: usize = 64 << 20;

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: forwards every call to the system allocator unchanged and only
// updates two counters beside it.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One property at a time, so that the peak a case sees is its own.
static SERIAL: Mutex<()> = Mutex::new(());

/// Runs `f` and returns its result and the peak heap it held above the
/// bytes live when it started.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

/// Cases per property: `PROPTEST_CASES`, else 256.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// Runs `test` on `cases()` inputs from `strategy`, one property at a time,
/// asserting each case's heap peak.
fn fuzz<S: Strategy>(name: &str, strategy: S, test: impl Fn(S::Value))
where
    S::Value: Clone + std::fmt::Debug,
{
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let config = Config {
        cases: cases(),
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        source_file: Some(file!()),
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let result = runner.run(&strategy, |input| {
        let ((), peak) = peak_of(|| test(input));
        prop_assert!(peak <= HEAP_BOUND, "{name}: {peak} bytes of heap at peak");
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

fn par() -> Parallelism {
    Parallelism::new(2, Schedule::WorkStealing)
}

/// A change to `valid`: up to eight bytes replaced, then possibly cut short
/// or extended, or bytes inserted.
#[derive(Clone, Debug)]
enum Mutation {
    Set(Vec<(usize, u8)>),
    Cut(usize),
    Insert(usize, Vec<u8>),
    Append(Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => prop::collection::vec((any::<usize>(), any::<u8>()), 1..8).prop_map(Mutation::Set),
        1 => any::<usize>().prop_map(Mutation::Cut),
        1 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..64))
            .prop_map(|(at, b)| Mutation::Insert(at, b)),
        1 => prop::collection::vec(any::<u8>(), 1..256).prop_map(Mutation::Append),
    ]
}

fn mutate(valid: &[u8], m: &Mutation) -> Vec<u8> {
    let mut v = valid.to_vec();
    match m {
        Mutation::Set(changes) => {
            for &(at, byte) in changes {
                if !v.is_empty() {
                    let i = at % v.len();
                    v[i] = byte;
                }
            }
        }
        Mutation::Cut(at) => v.truncate(at % (valid.len() + 1)),
        Mutation::Insert(at, bytes) => {
            let i = at % (v.len() + 1);
            v.splice(i..i, bytes.iter().copied());
        }
        Mutation::Append(bytes) => v.extend_from_slice(bytes),
    }
    v
}

/// Arbitrary bytes, or a valid object of `valid` mutated.
fn untrusted(valid: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let n = valid.len();
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..4096),
        3 => (0..n, mutation()).prop_map(move |(i, m)| mutate(&valid[i], &m)),
    ]
}

/// Keys, made once: generating RSA keys is slow.
struct Keys {
    rsa: PrivateKey,
    ec: ecdsa::PrivateKey,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| Keys {
        rsa: PrivateKey::generate(2048, &par()).unwrap(),
        ec: ecdsa::PrivateKey::generate().unwrap(),
    })
}

const STREAM_KEY: [u8; 32] = [0x5a; 32];

fn stream_key() -> SecretKey<32> {
    SecretKey::from_slice(&STREAM_KEY).expect("32 bytes")
}

fn dec_opts() -> DecryptOptions {
    DecryptOptions::default()
}
const PLAIN_LEN: usize = 6000;

fn plaintext() -> Vec<u8> {
    (0..PLAIN_LEN).map(|i| (i % 251) as u8).collect()
}

/// A stream of two 4 KiB segments for a key file and an RSA recipient.
fn valid_stream() -> Vec<u8> {
    let plain = plaintext();
    let opts = Options {
        segment_size: stream::MIN_SEGMENT,
    };
    let recipients = [
        Recipient::Key(stream_key()),
        Recipient::Rsa(keys().rsa.public_key()),
    ];
    let mut out = Vec::new();
    stream::encrypt_stream(&recipients, &plain[..], &mut out, &opts, &par(), |_| {}).unwrap();
    out
}

#[test]
fn stream_decryption_rejects_anything_but_the_stream_sealed() {
    let valid = valid_stream();
    let magic = valid[..9].to_vec();
    // Arbitrary bytes, the same after the magic and version, mutations.
    let inputs = prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..4096),
        1 => prop::collection::vec(any::<u8>(), 0..4096).prop_map(move |tail| [magic.clone(), tail].concat()),
        6 => mutation().prop_map({
            let valid = valid.clone();
            move |m| mutate(&valid, &m)
        }),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stream.pc");
    let how = (any::<bool>(), 0..3u8, any::<u16>(), any::<u16>());
    fuzz(
        "stream",
        (inputs, how),
        |(input, (by_rsa, reader, start, len))| {
            let rsa = &keys().rsa;
            let identity = if by_rsa {
                Identity::Rsa(rsa)
            } else {
                Identity::Key(stream_key())
            };
            let mut out = Vec::new();
            // From a pipe, from a file, or a range of a file.
            let (start, len) = (u64::from(start) % 7000, u64::from(len) % 7000);
            let result = match reader {
                0 => stream::decrypt_stream(
                    std::slice::from_ref(&identity),
                    &input[..],
                    &mut out,
                    &dec_opts(),
                    &par(),
                    |_| {},
                ),
                r => {
                    std::fs::write(&path, &input).unwrap();
                    let file = std::fs::File::open(&path).unwrap();
                    if r == 1 {
                        stream::decrypt_file(
                            std::slice::from_ref(&identity),
                            &file,
                            &mut out,
                            &dec_opts(),
                            &par(),
                            |_| {},
                        )
                    } else {
                        stream::decrypt_range(
                            std::slice::from_ref(&identity),
                            &file,
                            start,
                            len,
                            &mut out,
                            &dec_opts(),
                            &par(),
                        )
                    }
                }
            };
            // Whatever is released is genuine plaintext, of the range asked for.
            let plain = plaintext();
            let (from, to) = match reader {
                2 => (start.min(PLAIN_LEN as u64), (start + len).min(PLAIN_LEN as u64)),
                _ => (0, PLAIN_LEN as u64),
            };
            let genuine = &plain[from as usize..to as usize];
            assert!(genuine.starts_with(&out), "bytes that were never sealed released");
            match result {
                Ok(n) => {
                    assert_eq!(n, out.len() as u64);
                    if reader == 2 {
                        // A range reads only its own segments, which may be intact.
                        assert!(start + len <= PLAIN_LEN as u64 && out == genuine);
                    } else {
                        assert!(input == valid && out == plain, "a changed stream opened");
                    }
                }
                Err(e) => {
                    // Reading memory or a whole regular file cannot fail: every
                    // error is about the data.
                    assert!(!matches!(e, stream::Error::Io(_)), "{e:?}");
                    assert!(input != valid || reader == 2, "the stream sealed fails: {e}");
                }
            }
        },
    );
}

const AGE_PLAIN_LEN: usize = 70_000;

/// age files of two chunks: binary and armored for two X25519 keys, and a
/// post-quantum one.
fn valid_age_files() -> (Vec<age::Identity>, Vec<Vec<u8>>) {
    let ids = vec![
        age::Identity::generate(age::KeyKind::X25519),
        age::Identity::generate(age::KeyKind::X25519),
        age::Identity::generate(age::KeyKind::Hybrid),
    ];
    let plain = &plaintext_of(AGE_PLAIN_LEN);
    let classic = [ids[0].to_recipient().unwrap(), ids[1].to_recipient().unwrap()];
    let pq = [ids[2].to_recipient().unwrap()];
    let files = [(&classic[..], false), (&classic[..], true), (&pq[..], false)]
        .into_iter()
        .map(|(rs, armor)| age::encrypt(rs, plain, &age::Options { armor }, &par()).unwrap())
        .collect();
    (ids, files)
}

fn plaintext_of(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

#[test]
fn age_decryption_rejects_anything_but_the_files_sealed() {
    let (ids, valid) = valid_age_files();
    let intro = b"age-encryption.org/v1\n-> X25519 ".to_vec();
    let inputs = prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..4096),
        1 => prop::collection::vec(any::<u8>(), 0..4096).prop_map(move |tail| [intro.clone(), tail].concat()),
        6 => (0..valid.len(), mutation()).prop_map({
            let valid = valid.clone();
            move |(i, m)| mutate(&valid[i], &m)
        }),
    ];
    let how = (0..3u8, any::<u32>(), any::<u32>());
    fuzz("age", (inputs, how), |(input, (reader, start, len))| {
        let plain = plaintext_of(AGE_PLAIN_LEN);
        let opts = age::DecryptOptions::default();
        let mut out = Vec::new();
        let (start, len) = (u64::from(start) % 80_000, u64::from(len) % 80_000);
        let _ = age::Header::parse(&input);
        let _ = age::detect(&input);
        let result = match reader {
            0 => age::decrypt_stream(&ids, &input[..], &mut out, &opts, &par(), |_| {}),
            1 => age::decrypt(&ids, &input, &opts, &par()).map(|p| {
                out = p.expose().to_vec();
                out.len() as u64
            }),
            _ => age::decrypt_range(&ids, &input[..], start, len, &mut out, &opts, &par()),
        };
        // Whatever is released is genuine plaintext, of the range asked for.
        let (from, to) = match reader {
            2 => (
                start.min(AGE_PLAIN_LEN as u64),
                (start + len).min(AGE_PLAIN_LEN as u64),
            ),
            _ => (0, AGE_PLAIN_LEN as u64),
        };
        let genuine = &plain[from as usize..to as usize];
        assert!(genuine.starts_with(&out), "bytes that were never sealed released");
        match result {
            Ok(n) => {
                assert_eq!(n, out.len() as u64);
                assert!(out == genuine, "a changed file opened to other bytes");
                if reader != 2 && !input.starts_with(b"-----") {
                    // The binary format is not malleable (armor allows
                    // whitespace around it and CRLF line ends).
                    assert!(valid.contains(&input), "a changed binary file opened");
                }
            }
            Err(e) => assert!(!matches!(e, age::Error::Io(_)), "{e:?}"),
        }
    });
}

#[test]
fn age_keys_parse_or_fail_cleanly() {
    let x = age::Identity::generate(age::KeyKind::X25519);
    let pq = age::Identity::generate(age::KeyKind::Hybrid);
    let valid = vec![
        x.to_recipient().unwrap().to_string().into_bytes(),
        pq.to_recipient().unwrap().to_string().into_bytes(),
        x.keygen_file("2026-11-27T00:00:00Z")
            .unwrap()
            .expose_bytes()
            .to_vec(),
        pq.keygen_file("2026-11-27T00:00:00Z")
            .unwrap()
            .expose_bytes()
            .to_vec(),
        // A throwaway key made by ssh-keygen for this test.
        b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMCvSehou4sCmZEMdbjUZeYINo7V/OKM4RW6l2uafPVJ fuzz".to_vec(),
        b"-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACDAr0noaLuLApmRDHW41GXmCDaO1fzijOEVupdrmnz1SQAAAIisIsX5rCLF
+QAAAAtzc2gtZWQyNTUxOQAAACDAr0noaLuLApmRDHW41GXmCDaO1fzijOEVupdrmnz1SQ
AAAEDX1v+Vvnux4MsmcgoxQGsu5aTsdg3A43chet83PuH19sCvSehou4sCmZEMdbjUZeYI
No7V/OKM4RW6l2uafPVJAAAABGZ1enoB
-----END OPENSSH PRIVATE KEY-----
"
        .to_vec(),
    ];
    // The valid ones parse.
    assert!(age::Recipient::parse(std::str::from_utf8(&valid[4]).unwrap()).is_ok());
    let public = age::Recipient::parse(std::str::from_utf8(&valid[4]).unwrap()).unwrap();
    let private = age::parse_identities(&valid[5]).unwrap();
    assert_eq!(private[0].to_recipient().unwrap().to_string(), public.to_string());
    fuzz("age keys", untrusted(valid), |input| {
        let text = String::from_utf8_lossy(&input);
        let _ = age::Recipient::parse(&text);
        let _ = age::Identity::parse(&text);
        let _ = age::parse_identities(&input);
        let _ = age::parse_recipients(&input);
    });
}

#[test]
fn rsa_keys_parse_or_fail_cleanly() {
    let k = &keys().rsa;
    let valid = vec![
        k.to_pkcs8_der().unwrap().expose().to_vec(),
        k.to_pkcs8_pem().unwrap().expose_bytes().to_vec(),
        k.to_pkcs1_der().unwrap().expose().to_vec(),
        k.to_pkcs1_pem().unwrap().expose_bytes().to_vec(),
        k.public_key().to_spki_der().unwrap(),
        k.public_key().to_spki_pem().unwrap().into_bytes(),
        k.public_key().to_pkcs1_der().unwrap(),
        k.public_key().to_pkcs1_pem().unwrap().into_bytes(),
    ];
    fuzz("rsa keys", untrusted(valid), |input| {
        // Either outcome is allowed (a change inside PEM whitespace or an
        // unused field can still parse); a parsed key must be usable.
        if let Ok(key) = PrivateKey::from_bytes(&input, &Parallelism::sequential()) {
            assert!(key.bits() >= rsa::MIN_BITS);
        }
        if let Ok(key) = PublicKey::from_bytes(&input, &Parallelism::sequential()) {
            assert!(key.bits() >= rsa::MIN_BITS);
            let _ = key.verify(Scheme::Pss, Algorithm::Sha256, b"m", &[1; 256]);
        }
    });
}

#[test]
fn ecdsa_keys_parse_or_fail_cleanly() {
    let k = &keys().ec;
    let valid = vec![
        k.to_pkcs8_der().unwrap().expose().to_vec(),
        k.to_pkcs8_pem().unwrap().expose_bytes().to_vec(),
        k.to_sec1_der().unwrap().expose().to_vec(),
        k.to_sec1_pem().unwrap().expose_bytes().to_vec(),
        k.public_key().to_spki_der().unwrap(),
        k.public_key().to_spki_pem().unwrap().into_bytes(),
        k.public_key().to_sec1_point().unwrap(),
    ];
    fuzz("ecdsa keys", untrusted(valid), |input| {
        let _ = ecdsa::PrivateKey::from_bytes(&input, &Parallelism::sequential());
        let _ = ecdsa::PublicKey::from_bytes(&input, &Parallelism::sequential());
        let _ = ecdsa::PublicKey::from_sec1_point(&input);
    });
}

#[test]
fn slhdsa_keys_parse_or_fail_cleanly() {
    // SHA2-128f: a changed key that still parses rebuilds an 8-leaf tree.
    let k = slhdsa::PrivateKey::generate(slhdsa::ParameterSet::Sha2_128f, &par()).unwrap();
    let valid = vec![
        k.to_pkcs8_der().expose().to_vec(),
        k.to_pkcs8_pem().expose_bytes().to_vec(),
        k.to_pkcs8_encrypted_der(b"pw", &quick_password()).unwrap(),
        k.public_key().to_spki_der(),
        k.public_key().to_spki_pem().into_bytes(),
    ];
    fuzz("slh-dsa keys", untrusted(valid), |input| {
        let seq = Parallelism::sequential();
        let _ = slhdsa::PrivateKey::from_pkcs8_der(&input, &seq);
        let _ = slhdsa::PrivateKey::from_pkcs8_pem(&input, &seq);
        let _ = slhdsa::PrivateKey::from_pkcs8_with_password(&input, b"pw", &seq);
        let _ = slhdsa::PublicKey::from_spki_der(&input);
        let _ = slhdsa::PublicKey::from_spki_pem(&input);
    });
}

/// Password-protected PKCS#8 that is quick to open (one PBKDF2 round).
fn quick_password() -> parcrypt::pkcs8::Options {
    parcrypt::pkcs8::Options {
        cipher: parcrypt::pkcs8::Cipher::Aes128Cbc,
        kdf: parcrypt::pkcs8::Kdf::Pbkdf2 {
            prf: parcrypt::pkcs8::Prf::HmacSha256,
            iterations: 1,
        },
    }
}

#[test]
fn mldsa_keys_parse_or_fail_cleanly() {
    let set = mldsa::ParameterSet::MlDsa44;
    let k = mldsa::PrivateKey::from_seed(set, &[7; 32]).unwrap();
    let expanded = mldsa::PrivateKey::from_expanded(set, k.to_expanded().unwrap().expose()).unwrap();
    let valid = vec![
        k.to_pkcs8_der().unwrap().expose().to_vec(),
        k.to_pkcs8_pem().unwrap().expose_bytes().to_vec(),
        expanded.to_pkcs8_der().unwrap().expose().to_vec(),
        k.to_pkcs8_encrypted_der(b"pw", &quick_password()).unwrap(),
        k.public_key().to_spki_der().unwrap(),
        k.public_key().to_spki_pem().unwrap().into_bytes(),
        k.public_key().to_raw().to_vec(),
        k.to_expanded().unwrap().expose().to_vec(),
    ];
    fuzz("ml-dsa keys", untrusted(valid), |input| {
        // Either outcome is allowed; a key that parses signs, and its
        // signature of its own length is checked without a panic.
        let private = [
            mldsa::PrivateKey::from_bytes(&input, &Parallelism::sequential()),
            mldsa::PrivateKey::from_bytes_with_password(&input, b"pw", &Parallelism::sequential()),
            mldsa::PrivateKey::from_expanded(set, &input),
            mldsa::PrivateKey::from_seed(set, &input),
        ];
        for key in private.into_iter().flatten() {
            let sig = key.sign(b"m", b"").unwrap();
            let _ = key.public_key().verify(b"m", &sig, b"");
        }
        for key in [
            mldsa::PublicKey::from_bytes(&input, &Parallelism::sequential()),
            mldsa::PublicKey::from_raw(set, &input),
        ]
        .into_iter()
        .flatten()
        {
            let _ = key.verify(b"m", &input, b"");
        }
    });
}

#[test]
fn changed_mldsa_signatures_never_verify() {
    let k = mldsa::PrivateKey::from_seed(mldsa::ParameterSet::MlDsa44, &[8; 32]).unwrap();
    let (msg, ctx) = (b"fuzzed message", b"fuzz context");
    let sig = k.sign(msg, ctx).unwrap();
    fuzz("ml-dsa signatures", untrusted(vec![sig.clone()]), |input| {
        // ML-DSA is strongly unforgeable (hints are decoded canonically):
        // only the signature made verifies.
        let ok = k.public_key().verify(msg, &input, ctx).is_ok();
        assert_eq!(ok, input == sig);
    });
}

#[test]
fn mlkem_keys_parse_or_fail_cleanly() {
    let params = mlkem::Params::MlKem512;
    let k = mlkem::PrivateKey::from_seed(params, &[9; 64]).unwrap();
    let expanded = [
        &[0x30, 0x82, 0x06, 0x78, 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09][..],
        &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x01],
        &[0x04, 0x82, 0x06, 0x64, 0x04, 0x82, 0x06, 0x60],
        k.to_expanded_bytes().unwrap().expose(),
    ]
    .concat();
    // The expanded form of PKCS#8 (RFC 9935), read back as the same key.
    assert_eq!(
        mlkem::PrivateKey::from_bytes(&expanded)
            .unwrap()
            .public_key()
            .to_raw()
            .unwrap(),
        k.public_key().to_raw().unwrap()
    );
    let valid = vec![
        k.to_pkcs8_der().unwrap().expose().to_vec(),
        k.to_pkcs8_pem().unwrap().expose_bytes().to_vec(),
        expanded,
        k.to_pkcs8_encrypted_der(b"pw", &quick_password()).unwrap(),
        k.public_key().to_spki_der().unwrap(),
        k.public_key().to_spki_pem().unwrap().into_bytes(),
        k.public_key().to_raw().unwrap(),
    ];
    fuzz("ml-kem keys", untrusted(valid), |input| {
        // A key that parses works: decapsulation of a ciphertext of its
        // length (implicit rejection), encapsulation to its public key.
        let private = [
            mlkem::PrivateKey::from_bytes(&input),
            mlkem::PrivateKey::from_bytes_with_password(&input, b"pw"),
            mlkem::PrivateKey::from_seed(params, &input),
        ];
        for key in private.into_iter().flatten() {
            let (ss, ct) = key.public_key().encapsulate().unwrap();
            assert_eq!(key.decapsulate(&ct).unwrap(), ss);
        }
        for key in [
            mlkem::PublicKey::from_bytes(&input),
            mlkem::PublicKey::from_raw(params, &input),
        ]
        .into_iter()
        .flatten()
        {
            key.encapsulate().unwrap();
        }
    });
}

#[test]
fn changed_mlkem_ciphertexts_give_another_secret() {
    let k = mlkem::PrivateKey::from_seed(mlkem::Params::MlKem512, &[10; 64]).unwrap();
    let (ss, ct) = k.public_key().encapsulate().unwrap();
    fuzz("ml-kem ciphertexts", untrusted(vec![ct.clone()]), |input| {
        match k.decapsulate(&input) {
            // Implicit rejection: any other ciphertext of the right length
            // gives a pseudorandom secret, never the real one.
            Ok(got) => {
                assert_eq!(input.len(), ct.len());
                assert_eq!(got == ss, input == ct);
            }
            Err(e) => {
                assert_ne!(input.len(), ct.len());
                assert!(matches!(e, mlkem::Error::CiphertextLength { .. }), "{e}");
            }
        }
    });
}

#[test]
fn changed_ecdsa_signatures_never_verify() {
    let k = &keys().ec;
    let msg = b"fuzzed message";
    let sig = k.sign(msg).unwrap();
    let der = sig.to_der().unwrap();
    let fixed = sig.to_fixed().unwrap().to_vec();
    fuzz(
        "ecdsa signatures",
        untrusted(vec![der.clone(), fixed.clone()]),
        |input| {
            let vk = k.public_key();
            for parsed in [
                ecdsa::Signature::from_der(&input),
                ecdsa::Signature::from_fixed(&input),
            ] {
                let Ok(parsed) = parsed else { continue };
                for strategy in [ecdsa::VerifyStrategy::Joint, ecdsa::VerifyStrategy::Split] {
                    let ok = vk.verify_with_vartime(msg, &parsed, strategy, &par()).is_ok();
                    // Only the signature made verifies, in one of its two encodings.
                    assert_eq!(ok, input == der || input == fixed, "{strategy:?}");
                }
            }
        },
    );
}

#[test]
fn changed_rsa_signatures_never_verify() {
    let k = &keys().rsa;
    let msg = b"fuzzed message";
    let pss = k.sign(Scheme::Pss, Algorithm::Sha256, msg, &par()).unwrap();
    let pkcs1 = k.sign(Scheme::Pkcs1v15, Algorithm::Sha256, msg, &par()).unwrap();
    fuzz(
        "rsa signatures",
        untrusted(vec![pss.clone(), pkcs1.clone()]),
        |input| {
            let public = k.public_key();
            let pss_ok = public.verify(Scheme::Pss, Algorithm::Sha256, msg, &input).is_ok();
            let pkcs1_ok = public
                .verify(Scheme::Pkcs1v15, Algorithm::Sha256, msg, &input)
                .is_ok();
            assert_eq!(pss_ok, input == pss);
            assert_eq!(pkcs1_ok, input == pkcs1);
        },
    );
}

#[test]
fn changed_rsa_bulk_ciphertexts_never_decrypt() {
    let k = &keys().rsa;
    let ct = hazmat::rsa_bulk_encrypt(k.public_key(), &[7; 500], &par()).unwrap();
    fuzz("rsa bulk ciphertexts", untrusted(vec![ct.clone()]), |input| {
        let result = hazmat::rsa_bulk_decrypt(k, &input, &par());
        // OAEP is not malleable: any change inside a block fails its
        // decoding. Nothing binds the blocks together (by design, see
        // hazmat/rsa_bulk.rs): whole blocks dropped, reordered or repeated pass.
        let size = k.size();
        let whole_blocks = !input.is_empty()
            && input.len() % size == 0
            && input.chunks(size).all(|b| ct.chunks(size).any(|c| c == b));
        if result.is_ok() {
            assert!(whole_blocks, "a changed block decrypted");
        }
        if input == ct {
            assert!(result.is_ok());
        }
    });
}

#[test]
fn merkle_proofs_verify_only_for_their_leaf() {
    let leaves: Vec<Vec<u8>> = (0..37u8).map(|i| vec![i; 1 + usize::from(i)]).collect();
    let chunks: Vec<&[u8]> = leaves.iter().map(Vec::as_slice).collect();
    let root = Rfc6962::root(&chunks[..], &par());
    let index = 21u64;
    let path = Rfc6962::inclusion_proof(&chunks[..], index, &par()).unwrap();
    let leaf = Rfc6962::leaf_hash(&leaves[21]);
    let hash = prop::array::uniform32(any::<u8>());
    let proofs = prop_oneof![
        // Anything: sizes and indices at the edges, paths up to 80 hashes.
        1 => (
            prop_oneof![any::<u64>(), 0..64u64, Just(u64::MAX)],
            prop_oneof![any::<u64>(), 0..64u64, Just(u64::MAX)],
            prop::collection::vec(hash, 0..80),
        ),
        // The valid proof with its index, size or path changed.
        3 => (
            prop_oneof![Just(index), 0..64u64],
            prop_oneof![Just(37u64), 0..64u64],
            (any::<usize>(), hash, any::<u8>()).prop_map({
                let path = path.clone();
                move |(at, h, how)| {
                    let mut p = path.clone();
                    match how % 3 {
                        0 => p[at % path.len()] = h,
                        1 => p.truncate(at % path.len()),
                        _ => p.insert(at % (path.len() + 1), h),
                    }
                    p
                }
            }),
        ),
    ];
    fuzz("merkle inclusion", proofs, |(i, n, p)| {
        let ok = Rfc6962::verify_inclusion(&leaf, i, n, &p, &root).is_ok();
        assert_eq!(ok, (i, n, &p) == (index, 37, &path));
        // The same path read as a consistency proof: any answer, no panic.
        let _ = Rfc6962::verify_consistency(i, n, &root, &root, &p);
        let _ = Rfc6962::verify_consistency(i.min(n), n, &leaf, &root, &p);
    });
}

#[test]
fn tlog_tiles_logs_verify_only_unchanged() {
    // A log of 2,600 entries (ten full level-0 tiles, a partial one, a
    // partial level-1 tile), written once; each case replaces one of its
    // files with an untrusted version and puts it back.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let entries: Vec<Vec<u8>> = (0..2600usize).map(|i| vec![i as u8; i % 50]).collect();
    for (n, chunk) in entries.chunks(256).enumerate() {
        let mut bundle = Vec::new();
        for e in chunk {
            bundle.extend_from_slice(&(e.len() as u16).to_be_bytes());
            bundle.extend_from_slice(e);
        }
        let name = if chunk.len() == 256 {
            format!("{n:03}")
        } else {
            format!("{n:03}.p/{}", chunk.len())
        };
        let path = dir.join("tile/entries").join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bundle).unwrap();
    }
    let rebuilt = tiles::rebuild(dir, &RebuildOptions::default(), &par(), |_| {}).unwrap();
    let root = tiles::base64_hash(&rebuilt.root);
    std::fs::write(
        dir.join("checkpoint"),
        format!("o.example/log\n2600\n{root}\n\n— o.example/log AAAA\n"),
    )
    .unwrap();
    let files = [
        "checkpoint",
        "tile/entries/003",
        "tile/entries/010.p/40",
        "tile/0/007",
        "tile/0/010.p/40",
        "tile/1/000.p/10",
    ];
    let originals: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    assert!(tiles::verify(dir, &par(), |_| {}).is_ok());
    let cases = (0..files.len()).prop_flat_map(move |i| (Just(i), untrusted(vec![originals[i].clone()])));
    let originals: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    fuzz("tlog-tiles", cases, |(i, bytes)| {
        let path = dir.join(files[i]);
        std::fs::write(&path, &bytes).unwrap();
        let result = tiles::verify(dir, &par(), |_| {});
        std::fs::write(&path, &originals[i]).unwrap();
        match result {
            // Only the checkpoint's unbound parts (origin, extension lines,
            // signatures) may change and still verify.
            Ok(v) => assert!(
                bytes == originals[i]
                    || (i == 0 && (v.checkpoint.size, v.checkpoint.root) == (2600, rebuilt.root)),
                "{} changed, yet the log verified",
                files[i]
            ),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    });
}

/// The unchanged stream opens, with either identity (the properties above
/// would also hold for a decryptor that rejects everything).
#[test]
fn the_unchanged_stream_opens() {
    let valid = valid_stream();
    for identity in [Identity::Key(stream_key()), Identity::Rsa(&keys().rsa)] {
        let mut out = Vec::new();
        let n = stream::decrypt_stream(
            std::slice::from_ref(&identity),
            &valid[..],
            &mut out,
            &dec_opts(),
            &par(),
            |_| {},
        )
        .unwrap();
        assert_eq!((n, out.len()), (PLAIN_LEN as u64, PLAIN_LEN));
    }
}
