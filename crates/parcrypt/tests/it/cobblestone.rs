//! C2SP chunked-encryption and Cobblestone: the C2SP vectors through every
//! path, every schedule byte-identical given the salt, hostile messages,
//! ranges, and pyca/cryptography both ways.

use std::io::{Read, Write};
use std::path::Path;

use base64::Engine as _;
use parcrypt::cobblestone::{
    self, Aead, CHUNK, Error, HEADER, Input, KdfHash, SALT, SEALED_CHUNK, Scheme, Source,
};
use parcrypt::digest::{Algorithm, digest};
use parcrypt::par::Parallelism;
use serde_json::Value;

use super::common::{data, emulated, every_parallelism, unhex};

const KEY16: [u8; 16] = [0x42; 16];
const KEY32: [u8; 32] = [0x24; 32];
const SALT_BYTES: [u8; SALT] = [0x5a; SALT];

fn par() -> Parallelism {
    Parallelism::default()
}

fn sha256_hex(data: &[u8]) -> String {
    hex::encode(digest(Algorithm::Sha256, data).as_bytes())
}

fn file_with(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(bytes).expect("write");
    f.flush().expect("flush");
    f
}

/// Every way to decrypt `sealed` whole, each result (the push decryptor fed
/// in uneven pieces): all must agree.
fn decrypt_every_way(
    scheme: Scheme,
    key: &[u8],
    context: &[u8],
    sealed: &[u8],
) -> Vec<Result<Vec<u8>, String>> {
    let par = par();
    let mut results = Vec::new();
    results.push(
        scheme
            .decrypt(key, context, sealed, &par)
            .map(|p| p.expose().to_vec())
            .map_err(|e| e.to_string()),
    );
    // Into a caller's buffer, which a failure leaves wiped.
    let mut buf = vec![0xeeu8; sealed.len()];
    results.push(match scheme.decrypt_into(key, context, sealed, &mut buf, &par) {
        Ok(n) => Ok(buf[..n].to_vec()),
        Err(e) => {
            let len = cobblestone::plain_len(sealed.len() as u64).unwrap_or(0) as usize;
            assert!(
                buf[..len.min(buf.len())].iter().all(|&b| b == 0 || b == 0xee),
                "plaintext left in the buffer"
            );
            Err(e.to_string())
        }
    });
    let mut out = Vec::new();
    results.push(
        scheme
            .decrypt_stream(key, context, sealed, &mut out, &par, |_| {})
            .map(|_| out)
            .map_err(|e| e.to_string()),
    );
    let f = file_with(sealed);
    let mut out = Vec::new();
    results.push(
        scheme
            .decrypt_file(key, context, f.as_file(), &mut out, &par, |_| {})
            .map(|_| out)
            .map_err(|e| e.to_string()),
    );
    results.push(push_decrypt(scheme, key, context, sealed, 7919).map_err(|e| e.to_string()));
    // As a buffer others may write (`Input::Shared`, what the bindings hand
    // over for a bytearray or a pinned Java array): each chunk copied
    // before it is opened, with the same results.
    let shared = Input::Shared(sealed);
    results.push(
        scheme
            .decrypt(key, context, shared, &par)
            .map(|p| p.expose().to_vec())
            .map_err(|e| e.to_string()),
    );
    let mut buf = vec![0u8; sealed.len()];
    results.push(
        scheme
            .decrypt_into(key, context, shared, &mut buf, &par)
            .map(|n| buf[..n].to_vec())
            .map_err(|e| e.to_string()),
    );
    let pushed = (|| {
        let mut d = scheme.decryptor(key, context, &par)?;
        let mut plain = Vec::new();
        for part in sealed.chunks(3 * SEALED_CHUNK + 5) {
            plain.extend_from_slice(d.update(Input::Shared(part))?.expose());
        }
        plain.extend_from_slice(d.finalize()?.expose());
        Ok::<_, Error>(plain)
    })();
    results.push(pushed.map_err(|e| e.to_string()));
    let mut out = Vec::new();
    let total = cobblestone::plain_len(sealed.len() as u64).unwrap_or(0);
    results.push(
        scheme
            .decrypt_range(key, context, Source::from(shared), 0, total, &mut out, &par)
            .map(|_| out)
            .map_err(|e| e.to_string()),
    );
    results
}

/// The push decryptor fed `piece` bytes at a time.
fn push_decrypt(
    scheme: Scheme,
    key: &[u8],
    context: &[u8],
    sealed: &[u8],
    piece: usize,
) -> Result<Vec<u8>, Error> {
    let mut d = scheme.decryptor(key, context, &par())?;
    let mut plain = Vec::new();
    for part in sealed.chunks(piece.max(1)) {
        plain.extend_from_slice(d.update(part)?.expose());
    }
    plain.extend_from_slice(d.finalize()?.expose());
    Ok(plain)
}

struct Vector {
    name: String,
    aead: Aead,
    key: Vec<u8>,
    context: Vec<u8>,
    ciphertext: Vec<u8>,
    success: bool,
    payload: Option<(u64, String)>,
}

fn vectors() -> Vec<Vector> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chunked-encryption/vectors.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("vectors")).expect("JSON");
    let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_else(|| panic!("{k}")).to_owned();
    json["vectors"]
        .as_array()
        .expect("vectors")
        .iter()
        .map(|v| {
            // `null` for the zero-length message.
            let raw = base64::engine::general_purpose::STANDARD
                .decode(v["ciphertext"].as_str().unwrap_or(""))
                .expect("base64");
            let ciphertext = if v["compressed"].as_bool() == Some(true) {
                let mut out = Vec::new();
                flate2::read::ZlibDecoder::new(&raw[..])
                    .read_to_end(&mut out)
                    .expect("zlib");
                out
            } else {
                raw
            };
            Vector {
                name: text(v, "name"),
                aead: text(v, "aead").parse().expect("an AEAD"),
                key: unhex(&text(v, "key")),
                context: text(v, "context").into_bytes(),
                ciphertext,
                success: text(v, "expect") == "success",
                payload: v["payload_sha256"]
                    .as_str()
                    .filter(|_| v["expect"] == "success")
                    .map(|h| (v["payload_length"].as_u64().expect("length"), h.to_owned())),
            }
        })
        .collect()
}

#[test]
fn c2sp_vectors_every_path() {
    let all = vectors();
    assert_eq!(all.len(), 102);
    assert_eq!(all.iter().filter(|v| v.success).count(), 27);
    for v in &all {
        let scheme = Scheme::new(KdfHash::Sha256, v.aead);
        let results = decrypt_every_way(scheme, &v.key, &v.context, &v.ciphertext);
        for (i, r) in results.iter().enumerate() {
            match (v.success, r) {
                (true, Ok(plain)) => {
                    let (len, hash) = v.payload.as_ref().expect("a payload");
                    assert_eq!(plain.len() as u64, *len, "{} path {i}", v.name);
                    assert_eq!(&sha256_hex(plain), hash, "{} path {i}", v.name);
                }
                (false, Err(_)) => {}
                (want, got) => panic!("{} path {i}: expected success {want}, got {got:?}", v.name),
            }
        }
        if v.success {
            // Sealing the payload again with the vector's salt gives its bytes.
            let plain = results[0].as_ref().expect("decrypted");
            let salt: [u8; SALT] = v.ciphertext[..SALT].try_into().expect("salt");
            let sealed = scheme
                .sealer_with_salt(&v.key, &salt, &v.context)
                .and_then(|s| s.encrypt(plain, &par()))
                .expect("encrypt");
            assert!(sealed == v.ciphertext, "{}: re-encryption differs", v.name);
            // Every range of a short payload, and some of a long one.
            let n = plain.len() as u64;
            let step = (n / 7).max(1);
            for start in (0..=n).step_by(step as usize) {
                for len in [0, 1, step, n - start] {
                    if start + len > n {
                        continue;
                    }
                    let mut out = Vec::new();
                    scheme
                        .decrypt_range(
                            &v.key,
                            &v.context,
                            Source::Bytes(&v.ciphertext),
                            start,
                            len,
                            &mut out,
                            &par(),
                        )
                        .expect("range");
                    assert_eq!(out, &plain[start as usize..(start + len) as usize], "{}", v.name);
                }
            }
        } else if v.key.len() == v.aead.key_len() && v.ciphertext.len() >= HEADER {
            // A failure is refused by a range over everything its length implies.
            let all = cobblestone::plain_len(v.ciphertext.len() as u64).unwrap_or(0);
            let source = Source::Bytes(&v.ciphertext);
            let r = scheme.decrypt_range(&v.key, &v.context, source, 0, all, std::io::sink(), &par());
            assert!(r.is_err(), "{}: a range of a bad message", v.name);
        }
    }
}

/// Sizes at every chunk boundary, and (natively) one crossing batches.
fn sizes() -> Vec<usize> {
    let mut s = vec![
        0,
        1,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        2 * CHUNK,
        2 * CHUNK + 1,
        64 * CHUNK + 5,
    ];
    if !emulated() {
        s.push((3 << 20) + 7);
    }
    s
}

#[test]
fn every_schedule_and_path_writes_the_same_bytes_given_the_salt() {
    for scheme in [Scheme::COBBLESTONE_128, Scheme::COBBLESTONE_256] {
        let key = &KEY32[..scheme.key_len()];
        for len in sizes() {
            let plain = data(len);
            let sealer = || scheme.sealer_with_salt(key, &SALT_BYTES, b"ctx").expect("sealer");
            let reference = sealer()
                .encrypt(&plain, &Parallelism::sequential())
                .expect("encrypt");
            assert_eq!(
                reference.len() as u64,
                cobblestone::sealed_len(len as u64).expect("len")
            );
            let pars = every_parallelism();
            let pars: Vec<_> = if len > (1 << 20) {
                pars.into_iter().step_by(4).collect()
            } else {
                pars
            };
            let f = file_with(&plain);
            for p in &pars {
                assert!(
                    sealer().encrypt(&plain, p).expect("memory") == reference,
                    "{len} {p:?} memory"
                );
                let mut out = Vec::new();
                sealer()
                    .encrypt_stream(&plain[..], &mut out, p, |_| {})
                    .expect("stream");
                assert!(out == reference, "{len} {p:?} stream");
                let mut out = Vec::new();
                sealer()
                    .encrypt_file(f.as_file(), &mut out, p, |_| {})
                    .expect("file");
                assert!(out == reference, "{len} {p:?} file");
                let mut out = Vec::new();
                scheme
                    .decrypt_stream(key, b"ctx", &reference[..], &mut out, p, |_| {})
                    .expect("open");
                assert!(out == plain, "{len} {p:?} decrypt");
            }
            // The push encryptor in uneven pieces, and pyca's output sizes.
            for piece in [1usize, 1000, CHUNK, 3 * CHUNK + 1] {
                if piece == 1 && len > 4 * CHUNK {
                    continue;
                }
                let mut e = sealer().encryptor(&par());
                let mut out = Vec::new();
                for part in plain.chunks(piece) {
                    let expect = e.update_len(part.len());
                    let got = e.update(part).expect("update");
                    assert_eq!(got.len(), expect);
                    out.extend(got);
                }
                out.extend(e.finalize().expect("finalize"));
                assert!(out == reference, "{len} pieces of {piece}");
                assert_eq!(
                    push_decrypt(scheme, key, b"ctx", &reference, piece).expect("push"),
                    plain
                );
            }
            for r in decrypt_every_way(scheme, key, b"ctx", &reference) {
                assert!(r.as_ref().is_ok_and(|p| *p == plain), "{len}: {:?}", r.err());
            }
        }
    }
}

#[test]
fn generic_schemes_round_trip_and_differ() {
    let plain = data(40_000);
    let mut seen = Vec::new();
    for hash in [KdfHash::Sha256, KdfHash::Sha512] {
        for aead in [Aead::Aes128Gcm, Aead::Aes256Gcm, Aead::ChaCha20Poly1305] {
            let scheme = Scheme::new(hash, aead);
            let key = &KEY32[..scheme.key_len()];
            let sealed = scheme
                .sealer_with_salt(key, &SALT_BYTES, b"")
                .and_then(|s| s.encrypt(&plain, &par()))
                .expect("encrypt");
            assert_eq!(
                scheme
                    .decrypt(key, b"", &sealed, &par())
                    .expect("decrypt")
                    .expose(),
                plain
            );
            // Another scheme's message fails its commitment.
            for other in &seen {
                let (o, _): &(Scheme, Vec<u8>) = other;
                if o.key_len() == scheme.key_len() {
                    assert!(matches!(
                        o.decrypt(key, b"", &sealed, &par()),
                        Err(Error::Commitment)
                    ));
                }
            }
            seen.push((scheme, sealed));
        }
    }
    assert_eq!(
        Scheme::COBBLESTONE_128,
        Scheme::new(KdfHash::Sha512, Aead::Aes128Gcm)
    );
    assert_eq!(Scheme::COBBLESTONE_256.key_len(), 32);
}

#[test]
fn keys_of_the_wrong_length_are_refused() {
    let s = Scheme::COBBLESTONE_128;
    assert!(matches!(
        s.sealer(&KEY32, b""),
        Err(Error::KeyLength {
            expected: 16,
            got: 32,
            ..
        })
    ));
    assert!(matches!(
        s.decryptor(&[], b"", &par()),
        Err(Error::KeyLength { .. })
    ));
    assert!(matches!(
        Scheme::COBBLESTONE_256.decrypt(&KEY16, b"", &[0; 100], &par()),
        Err(Error::KeyLength { .. })
    ));
    assert_eq!(s.generate_key().len(), 16);
    assert_ne!(s.generate_key().expose(), s.generate_key().expose());
}

/// A message of 4 full chunks and a short one, for the hostile tests.
fn message() -> (Vec<u8>, Vec<u8>) {
    let plain = data(4 * CHUNK + 1000);
    let sealed = Scheme::COBBLESTONE_128
        .sealer_with_salt(&KEY16, &SALT_BYTES, b"ctx")
        .and_then(|s| s.encrypt(&plain, &par()))
        .expect("encrypt");
    (plain, sealed)
}

fn chunk_at(k: usize) -> usize {
    HEADER + k * SEALED_CHUNK
}

#[test]
fn hostile_messages_are_refused_on_every_path() {
    let (_, good) = message();
    let s = Scheme::COBBLESTONE_128;
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    // Truncation at every chunk boundary and inside chunks, and below the header.
    for k in 0..=4 {
        cases.push((format!("cut at chunk {k}"), good[..chunk_at(k)].to_vec()));
        cases.push((
            format!("cut inside chunk {k}"),
            good[..chunk_at(k) + 100].to_vec(),
        ));
        cases.push((
            format!("cut to a runt of chunk {k}"),
            good[..chunk_at(k) + 15].to_vec(),
        ));
    }
    for n in [0, 1, SALT, HEADER - 1] {
        cases.push((format!("{n} bytes"), good[..n].to_vec()));
    }
    cases.push(("last byte cut".into(), good[..good.len() - 1].to_vec()));
    // Extension: bytes, a copied chunk, a whole second message.
    let mut ext = good.clone();
    ext.push(0);
    cases.push(("one byte more".into(), ext));
    let mut ext = good.clone();
    ext.extend_from_slice(&good[chunk_at(1)..chunk_at(2)]);
    cases.push(("a chunk appended".into(), ext));
    let mut ext = good.clone();
    ext.extend_from_slice(&good[HEADER..]);
    cases.push(("the body twice".into(), ext));
    // Chunks swapped, duplicated, dropped; the final chunk moved.
    let body = |order: &[usize]| {
        let mut m = good[..HEADER].to_vec();
        for &k in order {
            m.extend_from_slice(&good[chunk_at(k)..chunk_at(k + 1).min(good.len())]);
        }
        m
    };
    cases.push(("chunks 1 and 2 swapped".into(), body(&[0, 2, 1, 3, 4])));
    cases.push(("chunk 1 twice".into(), body(&[0, 1, 1, 2, 3, 4])));
    cases.push(("chunk 2 dropped".into(), body(&[0, 1, 3, 4])));
    cases.push(("final chunk early".into(), body(&[0, 1, 4])));
    // Every region flipped: salt, commitment, a chunk's body and tag.
    for at in [
        0,
        SALT,
        HEADER - 1,
        chunk_at(0),
        chunk_at(2) + 5,
        chunk_at(3) - 1,
        good.len() - 1,
    ] {
        let mut m = good.clone();
        m[at] ^= 1;
        cases.push((format!("bit flipped at {at}"), m));
    }
    for (name, m) in &cases {
        for (i, r) in decrypt_every_way(s, &KEY16, b"ctx", m).into_iter().enumerate() {
            assert!(r.is_err(), "{name}: path {i} accepted it");
        }
        // The whole plaintext as a range: every chunk read, the length checked.
        let all = (4 * CHUNK + 1000) as u64;
        for source in [Source::Bytes(m), Source::Shared(m)] {
            let r = s.decrypt_range(&KEY16, b"ctx", source, 0, all, std::io::sink(), &par());
            assert!(r.is_err(), "{name}: a range accepted it ({source:?})");
        }
    }
    // The errors say what happened.
    let err = |m: &[u8]| s.decrypt(&KEY16, b"ctx", m, &par()).expect_err("refused");
    assert!(matches!(
        err(&good[..chunk_at(2)]),
        Error::Truncated { chunk: Some(1) }
    ));
    assert!(matches!(err(&good[..HEADER]), Error::Truncated { chunk: None }));
    assert!(matches!(err(&good[..10]), Error::TooShort { len: 10 }));
    assert!(matches!(
        err(&good[..chunk_at(4) + 3]),
        Error::ChunkAuthentication { chunk: 4 }
    ));
    assert!(matches!(
        err(&body(&[0, 2, 1, 3, 4])),
        Error::ChunkAuthentication { chunk: 1 }
    ));
    let mut salt_flip = good.clone();
    salt_flip[0] ^= 1;
    assert!(matches!(err(&salt_flip), Error::Commitment));
    // Wrong key or context: the commitment, before any chunk.
    assert!(matches!(
        s.decrypt(&[0; 16], b"ctx", &good, &par()),
        Err(Error::Commitment)
    ));
    assert!(matches!(
        s.decrypt(&KEY16, b"ctx\0", &good, &par()),
        Err(Error::Commitment)
    ));
    assert!(matches!(
        Scheme::new(KdfHash::Sha256, Aead::Aes128Gcm).decrypt(&KEY16, b"ctx", &good, &par()),
        Err(Error::Commitment)
    ));
    let msg = err(&good[..chunk_at(3)]).to_string();
    assert!(msg.contains("truncated"), "{msg}");
}

#[test]
fn nothing_of_a_failing_batch_is_released() {
    let (_, good) = message();
    let mut bad = good.clone();
    let at = good.len() - 1;
    bad[at] ^= 1;
    let s = Scheme::COBBLESTONE_128;
    // Reader and file: one batch, so nothing at all.
    let mut out = Vec::new();
    assert!(
        s.decrypt_stream(&KEY16, b"ctx", &bad[..], &mut out, &par(), |_| {})
            .is_err()
    );
    assert!(out.is_empty());
    let f = file_with(&bad);
    let mut out = Vec::new();
    assert!(
        s.decrypt_file(&KEY16, b"ctx", f.as_file(), &mut out, &par(), |_| {})
            .is_err()
    );
    assert!(out.is_empty());
    // The push decryptor releases verified full chunks; a damaged one
    // fails its update, whose output is wiped, and the decryptor refuses
    // everything after.
    let mut bad_middle = good.clone();
    bad_middle[chunk_at(2) + 7] ^= 1;
    let mut d = s.decryptor(&KEY16, b"ctx", &par()).expect("decryptor");
    let first = d.update(&bad_middle[..chunk_at(2)]).expect("two good chunks");
    assert_eq!(first.len(), 2 * CHUNK);
    let mut buf = vec![0xeeu8; 3 * CHUNK];
    let e = d.update_into(&bad_middle[chunk_at(2)..], &mut buf);
    assert!(matches!(e, Err(Error::ChunkAuthentication { chunk: 2 })), "{e:?}");
    assert!(
        buf[..2 * CHUNK].iter().all(|&b| b == 0),
        "the failing call's output is wiped"
    );
    assert!(matches!(d.update(&[]), Err(Error::Failed)));
    assert!(matches!(d.finalize(), Err(Error::Failed)));
    // A buffer too small is refused before anything is done.
    let mut d = s.decryptor(&KEY16, b"ctx", &par()).expect("decryptor");
    assert!(matches!(
        d.update_into(&good, &mut [0u8; 10]),
        Err(Error::BufferTooSmall { .. })
    ));
    assert!(d.update(&good).is_ok());
}

#[test]
fn ranges_open_only_what_they_need_and_check_the_length() {
    let (plain, sealed) = message();
    let s = Scheme::COBBLESTONE_128;
    let f = file_with(&sealed);
    let n = plain.len() as u64;
    let points = [
        0,
        1,
        CHUNK as u64 - 1,
        CHUNK as u64,
        CHUNK as u64 + 1,
        3 * CHUNK as u64 + 5,
        n - 1,
        n,
    ];
    for source in [Source::Bytes(&sealed), Source::File(f.as_file())] {
        for &start in &points {
            for &end in &points {
                if end < start {
                    continue;
                }
                let mut out = Vec::new();
                let got = s
                    .decrypt_range(&KEY16, b"ctx", source, start, end - start, &mut out, &par())
                    .expect("range");
                assert_eq!(got, end - start);
                assert_eq!(out, &plain[start as usize..end as usize], "{start}..{end}");
            }
        }
        let e = s.decrypt_range(&KEY16, b"ctx", source, n - 1, 2, std::io::sink(), &par());
        assert!(
            matches!(e, Err(Error::Range { total, .. }) if total == n),
            "{e:?}"
        );
        let e = s.decrypt_range(&KEY16, b"ctx", source, u64::MAX, 2, std::io::sink(), &par());
        assert!(matches!(e, Err(Error::Range { .. })), "{e:?}");
    }
    // Damage outside the range does not matter, except to the final chunk,
    // which proves the length; a truncated message is refused whatever the range.
    let mut damaged = sealed.clone();
    damaged[chunk_at(2) + 1] ^= 1;
    let mut out = Vec::new();
    s.decrypt_range(&KEY16, b"ctx", Source::Bytes(&damaged), 0, 100, &mut out, &par())
        .expect("chunk 2 is not read");
    assert_eq!(out, &plain[..100]);
    let e = s.decrypt_range(
        &KEY16,
        b"ctx",
        Source::Bytes(&damaged),
        2 * CHUNK as u64,
        1,
        std::io::sink(),
        &par(),
    );
    assert!(matches!(e, Err(Error::ChunkAuthentication { chunk: 2 })), "{e:?}");
    let mut final_damaged = sealed.clone();
    let last = final_damaged.len() - 1;
    final_damaged[last] ^= 1;
    let e = s.decrypt_range(
        &KEY16,
        b"ctx",
        Source::Bytes(&final_damaged),
        0,
        1,
        std::io::sink(),
        &par(),
    );
    assert!(matches!(e, Err(Error::ChunkAuthentication { chunk: 4 })), "{e:?}");
    let e = s.decrypt_range(
        &KEY16,
        b"ctx",
        Source::Bytes(&sealed[..chunk_at(4)]),
        0,
        1,
        std::io::sink(),
        &par(),
    );
    assert!(matches!(e, Err(Error::Truncated { chunk: Some(3) })), "{e:?}");
}

#[test]
fn secrets_stay_out_of_debug() {
    let sealer = Scheme::COBBLESTONE_256.sealer(&KEY32, b"").expect("sealer");
    assert!(!format!("{sealer:?}").contains("36"));
    let e = sealer.encryptor(&par());
    let shown = format!("{e:?}");
    assert!(shown.contains("redacted"), "{shown}");
    let d = Scheme::COBBLESTONE_256
        .decryptor(&KEY32, b"secret context", &par())
        .expect("d");
    let shown = format!("{d:?}");
    assert!(shown.contains("redacted") && !shown.contains("36, 36"), "{shown}");
}

/// The Python interpreter for the differential tests: `PARCRYPT_PYTHON`,
/// or `python3`; present when it imports `cryptography.cobblestone`
/// (pyca/cryptography 50 or later).
fn pyca_python() -> Option<String> {
    let python = std::env::var("PARCRYPT_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let present = std::process::Command::new(&python)
        .args(["-c", "import cryptography.cobblestone"])
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    super::tools::require("python3-cryptography-cobblestone", present).then_some(python)
}

/// pyca's side: encrypts `data(len)` for each length into DIR/LEN.cob, or
/// decrypts DIR/LEN.rs and checks it is `data(len)`; Cobblestone-128 or
/// -256 by the key's length; pushed through `update` in uneven pieces.
const PYCA: &str = r#"
import sys, os
from cryptography import cobblestone as c
mode, d, key, ctx = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3]), bytes.fromhex(sys.argv[4])
lens = [int(x) for x in sys.argv[5:]]
E = c.Cobblestone128Encryptor if len(key) == 16 else c.Cobblestone256Encryptor
D = c.Cobblestone128Decryptor if len(key) == 16 else c.Cobblestone256Decryptor
def data(n): return bytes(i % 251 for i in range(n))
for n in lens:
    if mode == "enc":
        e = E(key, ctx); p = data(n); out = bytearray()
        for i in range(0, n, 7001): out += e.update(p[i:i+7001])
        out += e.finalize()
        open(os.path.join(d, f"{n}.cob"), "wb").write(out)
    else:
        s = open(os.path.join(d, f"{n}.rs"), "rb").read()
        dec = D(key, ctx); out = bytearray()
        for i in range(0, len(s), 5003): out += dec.update(s[i:i+5003])
        out += dec.finalize()
        if bytes(out) != data(n): sys.exit(f"pyca decrypted {n} bytes wrongly")
        try:
            bad = bytearray(s); bad[-1] ^= 1
            dec = D(key, ctx); dec.update(bytes(bad)); dec.finalize()
            sys.exit(f"pyca accepted a damaged message of {n} bytes")
        except Exception:
            pass
"#;

#[test]
fn pyca_reads_ours_and_we_read_pycas() {
    let Some(python) = pyca_python() else { return };
    let dir = tempfile::tempdir().expect("dir");
    let lens: Vec<usize> = vec![
        0,
        1,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        2 * CHUNK,
        100_000,
        (1 << 20) + 3,
    ];
    let args: Vec<String> = lens.iter().map(ToString::to_string).collect();
    let context = b"parcrypt \x00 interop";
    for key in [&KEY16[..], &KEY32[..]] {
        let scheme = if key.len() == 16 {
            Scheme::COBBLESTONE_128
        } else {
            Scheme::COBBLESTONE_256
        };
        let run = |mode: &str| {
            let status = std::process::Command::new(&python)
                .args(["-c", PYCA, mode])
                .arg(dir.path())
                .args([hex::encode(key), hex::encode(context)])
                .args(&args)
                .status()
                .expect("python");
            assert!(status.success(), "pyca {mode} failed");
        };
        // pyca → parcrypt, on every path.
        run("enc");
        for &n in &lens {
            let sealed = std::fs::read(dir.path().join(format!("{n}.cob"))).expect("pyca's file");
            for r in decrypt_every_way(scheme, key, context, &sealed) {
                assert!(
                    r.as_ref().is_ok_and(|p| *p == data(n)),
                    "pyca's {n} bytes: {:?}",
                    r.err()
                );
            }
        }
        // parcrypt → pyca, from memory and from a file on all cores.
        for &n in &lens {
            let sealed = if n % 2 == 0 {
                scheme
                    .sealer(key, context)
                    .and_then(|s| s.encrypt(&data(n), &par()))
            } else {
                let f = file_with(&data(n));
                let mut out = Vec::new();
                scheme
                    .sealer(key, context)
                    .and_then(|s| s.encrypt_file(f.as_file(), &mut out, &par(), |_| {}))
                    .map(|_| out)
            }
            .expect("encrypt");
            std::fs::write(dir.path().join(format!("{n}.rs")), sealed).expect("write");
        }
        run("dec");
    }
}
