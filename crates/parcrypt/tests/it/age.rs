//! age files: every schedule writes the same bytes given the same
//! randomness, round trips at chunk boundaries, armor, passphrases, byte
//! ranges, and hostile files (cut anywhere, flipped bytes, swapped or
//! duplicated chunks, an empty last chunk, trailing data, huge headers,
//! absurd scrypt work factors): a clear error, and never a byte of
//! plaintext that did not verify.

#![allow(clippy::unwrap_used)]

use aws_lc_rs::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey};
use aws_lc_rs::hkdf;
use parcrypt::age::{
    self, Armor, DecryptOptions, Encryptor, Error, Format, Identity, KeyKind, Options, Outcome, Recipient,
};
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::secret::SecretBytes;

use super::common::{data, every_parallelism};

const CHUNK: usize = 64 << 10;
const SEALED: usize = CHUNK + 16;

/// A reproducible byte source (xorshift64*), as the "randomness" of an
/// [`Encryptor::with_randomness`].
fn randomness(seed: u64) -> impl FnMut(&mut [u8]) {
    let mut s = seed | 1;
    move |out: &mut [u8]| {
        for b in out {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            *b = (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8;
        }
    }
}

fn x25519_pair() -> (Identity, Recipient) {
    let id = Identity::parse("AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX")
        .unwrap();
    let r = id.to_recipient().unwrap();
    (id, r)
}

fn seal_with(recipients: &[Recipient], seed: u64, plain: &[u8], armor: bool, par: &Parallelism) -> Vec<u8> {
    let mut out = Vec::new();
    let enc = Encryptor::with_randomness(recipients, randomness(seed)).unwrap();
    let n = enc
        .encrypt_stream(plain, &mut out, &Options { armor }, par, |_| {})
        .unwrap();
    assert_eq!(n, plain.len() as u64);
    out
}

fn open(ids: &[Identity], file: &[u8], par: &Parallelism) -> (Result<u64, Error>, Vec<u8>) {
    let mut out = Vec::new();
    let r = age::decrypt_stream(ids, file, &mut out, &DecryptOptions::default(), par, |_| {});
    (r, out)
}

const SIZES: [usize; 9] = [
    0,
    1,
    CHUNK - 1,
    CHUNK,
    CHUNK + 1,
    3 * CHUNK,
    3 * CHUNK + 5,
    40 * CHUNK + 7,
    3 << 20,
];

#[test]
fn every_schedule_writes_the_same_file_and_reads_it_back() {
    let (id, r) = x25519_pair();
    let other = Identity::generate(KeyKind::X25519);
    let recipients = [r, other.to_recipient().unwrap()];
    for len in SIZES {
        let plain = data(len);
        let reference = seal_with(&recipients, 7, &plain, false, &Parallelism::sequential());
        let header = age::Header::parse(&reference).unwrap().len();
        let chunks = len.div_ceil(CHUNK).max(1);
        assert_eq!(
            reference.len(),
            header + 16 + len + 16 * chunks,
            "header, nonce, chunks and their tags"
        );
        for par in every_parallelism() {
            assert_eq!(
                seal_with(&recipients, 7, &plain, false, &par),
                reference,
                "{len} bytes, {par:?}"
            );
            let mem = Encryptor::with_randomness(&recipients, randomness(7))
                .unwrap()
                .encrypt(&plain, &Options::default(), &par);
            assert_eq!(mem, reference, "in memory, {len} bytes, {par:?}");
            for who in [&id, &other] {
                let (got, out) = open(std::slice::from_ref(who), &reference, &par);
                assert_eq!(got.unwrap(), len as u64);
                assert!(out == plain, "{len} bytes, {par:?}");
            }
            let mem = age::decrypt(
                std::slice::from_ref(&id),
                &reference,
                &DecryptOptions::default(),
                &par,
            )
            .unwrap();
            assert!(mem.expose() == plain);
            // A buffer others may write: each chunk copied before it is opened.
            let shared = age::decrypt(
                std::slice::from_ref(&id),
                age::Input::Shared(&reference),
                &DecryptOptions::default(),
                &par,
            )
            .unwrap();
            assert!(shared.expose() == plain, "shared, {len} bytes, {par:?}");
        }
    }
}

#[test]
fn a_file_larger_than_a_batch_is_the_same_on_every_schedule() {
    // 17 MiB: more than one 16 MiB batch whatever the thread count.
    let (id, r) = x25519_pair();
    let plain = data((17 << 20) + 3);
    let reference = seal_with(
        std::slice::from_ref(&r),
        9,
        &plain,
        false,
        &Parallelism::sequential(),
    );
    for par in [
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(3, Strategy::WorkStealing),
        Parallelism::new(8, Strategy::Static),
    ] {
        assert!(
            seal_with(std::slice::from_ref(&r), 9, &plain, false, &par) == reference,
            "{par:?}"
        );
        let (got, out) = open(std::slice::from_ref(&id), &reference, &par);
        assert_eq!(got.unwrap(), plain.len() as u64);
        assert!(out == plain, "{par:?}");
    }
}

#[test]
fn armor_is_the_binary_file_armored_and_is_detected() {
    let (id, r) = x25519_pair();
    for len in [0, 1, 47, 48, CHUNK + 3] {
        let plain = data(len);
        let binary = seal_with(
            std::slice::from_ref(&r),
            3,
            &plain,
            false,
            &Parallelism::sequential(),
        );
        let mut armored_by_hand = age::ArmoredWriter::new(Vec::new());
        std::io::Write::write_all(&mut armored_by_hand, &binary).unwrap();
        let armored_by_hand = armored_by_hand.finish().unwrap();
        for par in [
            Parallelism::sequential(),
            Parallelism::new(4, Strategy::WorkStealing),
        ] {
            let armored = seal_with(std::slice::from_ref(&r), 3, &plain, true, &par);
            assert_eq!(armored, armored_by_hand);
            let mem = Encryptor::with_randomness(std::slice::from_ref(&r), randomness(3))
                .unwrap()
                .encrypt(&plain, &Options { armor: true }, &par);
            assert_eq!(mem, armored);
            assert_eq!(age::detect(&armored), Some(Format::Armored));
            assert_eq!(age::detect(&binary), Some(Format::Binary));
            let (got, out) = open(std::slice::from_ref(&id), &armored, &par);
            assert_eq!(got.unwrap(), len as u64);
            assert_eq!(out, plain);
            // Told it is binary, armor is not an age header.
            let mut sink = Vec::new();
            let opts = DecryptOptions {
                armor: Armor::Binary,
                ..DecryptOptions::default()
            };
            let err = age::decrypt_stream(
                std::slice::from_ref(&id),
                &armored[..],
                &mut sink,
                &opts,
                &par,
                |_| {},
            );
            assert!(matches!(err, Err(Error::WrongFormat)), "{err:?}");
        }
    }
    assert_eq!(age::detect(b"hello"), None);
    assert_eq!(
        age::detect(b"\n\t -----BEGIN AGE ENCRYPTED FILE-----\n"),
        Some(Format::Armored)
    );
}

#[test]
fn post_quantum_and_passphrase_files_round_trip() {
    let pq = Identity::generate(KeyKind::Hybrid);
    let pq2 = Identity::generate(KeyKind::Hybrid);
    let rs = [pq.to_recipient().unwrap(), pq2.to_recipient().unwrap()];
    let plain = data(2 * CHUNK + 9);
    let par = Parallelism::new(3, Strategy::Static);
    let reference = seal_with(&rs, 5, &plain, false, &Parallelism::sequential());
    assert_eq!(
        seal_with(&rs, 5, &plain, false, &par),
        reference,
        "ML-KEM encapsulation takes the randomness given"
    );
    for who in [&pq, &pq2] {
        let (got, out) = open(std::slice::from_ref(who), &reference, &par);
        assert_eq!(got.unwrap(), plain.len() as u64);
        assert!(out == plain);
    }
    let (got, out) = open(&[Identity::generate(KeyKind::X25519)], &reference, &par);
    assert_eq!(got.unwrap_err().outcome(), Outcome::NoMatch);
    assert!(out.is_empty());

    let pass = age::Passphrase::with_work_factor(SecretBytes::from(&b"correct horse"[..]), 10).unwrap();
    let sealed = seal_with(&[Recipient::Passphrase(pass)], 6, &plain, true, &par);
    let right = Identity::Passphrase(SecretBytes::from(&b"correct horse"[..]));
    let wrong = Identity::Passphrase(SecretBytes::from(&b"battery staple"[..]));
    let (got, out) = open(std::slice::from_ref(&right), &sealed, &par);
    assert_eq!(got.unwrap(), plain.len() as u64);
    assert!(out == plain);
    let (got, _) = open(&[wrong], &sealed, &par);
    assert_eq!(got.unwrap_err().outcome(), Outcome::NoMatch);
    // A work factor above the reader's limit is refused before any work.
    let opts = DecryptOptions {
        max_work_factor: 9,
        ..DecryptOptions::default()
    };
    let err = age::decrypt_stream(&[right], &sealed[..], Vec::new(), &opts, &par, |_| {}).unwrap_err();
    assert!(matches!(err, Error::WorkFactor { log2_n: 10, max: 9 }), "{err}");
}

#[test]
fn age_refuses_to_mix_recipients_and_so_does_this() {
    let x = Identity::generate(KeyKind::X25519).to_recipient().unwrap();
    let pq = Identity::generate(KeyKind::Hybrid).to_recipient().unwrap();
    let pass = Recipient::passphrase(SecretBytes::from(&b"pw"[..])).unwrap();
    for (set, why) in [
        (vec![x.clone(), pq], age::OptionsError::PostQuantumMixed),
        (
            vec![x.clone(), pass.clone()],
            age::OptionsError::PassphraseNotAlone,
        ),
        (vec![pass.clone(), pass], age::OptionsError::PassphraseNotAlone),
        (vec![], age::OptionsError::NoRecipients),
    ] {
        let err = Encryptor::new(&set).unwrap_err();
        assert!(matches!(&err, Error::Options(e) if *e == why), "{err}");
    }
    assert!(Encryptor::new(&[x]).is_ok());
}

/// The released bytes are whole verified chunks from the start.
fn assert_released_prefix(out: &[u8], plain: &[u8], what: &str) {
    assert!(
        out.len() <= plain.len() && out == &plain[..out.len()],
        "{what}: released bytes that are not the plaintext"
    );
    assert!(
        out.len() % CHUNK == 0 || out.len() == plain.len(),
        "{what}: released a partial chunk ({})",
        out.len()
    );
}

#[test]
fn cut_anywhere_the_file_fails_and_releases_only_verified_chunks() {
    let (id, r) = x25519_pair();
    let plain = data(3 * CHUNK + 100);
    let file = seal_with(
        std::slice::from_ref(&r),
        11,
        &plain,
        false,
        &Parallelism::sequential(),
    );
    let header = age::Header::parse(&file).unwrap().len();
    let payload = header + 16;
    let mut cuts: Vec<usize> = (0..payload + 40).collect();
    for k in 1..=4 {
        let edge = payload + k * SEALED;
        cuts.extend(edge.saturating_sub(20)..(edge + 20).min(file.len()));
    }
    cuts.extend((payload..file.len()).step_by(4099));
    for par in [
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::WorkStealing),
    ] {
        for &cut in &cuts {
            let (got, out) = open(std::slice::from_ref(&id), &file[..cut], &par);
            let err = got.expect_err("a cut file never decrypts");
            let want = if cut < payload {
                Outcome::HeaderFailure
            } else {
                Outcome::PayloadFailure
            };
            assert_eq!(err.outcome(), want, "cut at {cut}: {err}");
            assert_released_prefix(&out, &plain, &format!("cut at {cut}"));
            if cut >= payload && (cut - payload) % SEALED == 0 && cut > payload {
                assert!(matches!(err, Error::Truncated { .. }), "cut at {cut}: {err}");
                assert_eq!(
                    out.len(),
                    (cut - payload) / SEALED * CHUNK,
                    "every whole chunk before the cut"
                );
            }
            let mem = age::decrypt(
                std::slice::from_ref(&id),
                &file[..cut],
                &DecryptOptions::default(),
                &par,
            );
            assert_eq!(mem.unwrap_err().outcome(), want, "in memory, cut at {cut}");
        }
    }
}

#[test]
fn flipped_swapped_duplicated_or_added_bytes_fail() {
    let (id, r) = x25519_pair();
    let plain = data(3 * CHUNK + 100);
    let file = seal_with(
        std::slice::from_ref(&r),
        12,
        &plain,
        false,
        &Parallelism::sequential(),
    );
    let payload = age::Header::parse(&file).unwrap().len() + 16;
    let par = Parallelism::new(3, Strategy::Static);
    let mut positions: Vec<usize> = (0..payload).collect();
    positions.extend((payload..file.len()).step_by(997));
    positions.push(file.len() - 1);
    for at in positions {
        let mut bad = file.clone();
        bad[at] ^= 0x04;
        let (got, out) = open(std::slice::from_ref(&id), &bad, &par);
        let err = got.expect_err("a changed file never decrypts");
        assert_ne!(err.outcome(), Outcome::Other, "flip at {at}: {err}");
        assert_released_prefix(&out, &plain, &format!("flip at {at}"));
        if at >= payload {
            let chunk = (at - payload) / SEALED;
            assert_eq!(
                out.len(),
                chunk * CHUNK,
                "flip at {at}: the chunks before it, and only those"
            );
        }
    }
    let chunk = |i: usize| payload + i * SEALED..payload + (i + 1) * SEALED;
    let swapped = [
        &file[..payload],
        &file[chunk(1)],
        &file[chunk(0)],
        &file[chunk(2).start..],
    ]
    .concat();
    let duplicated = [&file[..chunk(1).end], &file[chunk(1)], &file[chunk(2).start..]].concat();
    let dropped = [&file[..chunk(1).start], &file[chunk(2).start..]].concat();
    let trailing = [&file[..], b"x"].concat();
    let trailing_chunk = [&file[..], &file[chunk(0)]].concat();
    for (name, bad, released) in [
        ("swapped", swapped, 0),
        ("duplicated", duplicated, 2),
        ("dropped", dropped, 1),
        ("trailing byte", trailing, 3),
        ("trailing chunk", trailing_chunk, 3),
    ] {
        let (got, out) = open(std::slice::from_ref(&id), &bad, &par);
        let err = got.expect_err(name);
        assert_eq!(err.outcome(), Outcome::PayloadFailure, "{name}: {err}");
        assert_released_prefix(&out, &plain, name);
        assert_eq!(out.len(), released * CHUNK, "{name}: {err}");
    }
}

/// The payload key of a file sealed with [`randomness`]`(seed)` for one
/// X25519 recipient: the file key is the first 16 random bytes, the nonce
/// the last 16 (after the 32-byte ephemeral secret).
fn payload_key(seed: u64) -> LessSafeKey {
    let mut random = randomness(seed);
    let mut file_key = [0u8; 16];
    random(&mut file_key);
    random(&mut [0u8; 32]);
    let mut nonce = [0u8; 16];
    random(&mut nonce);
    struct Len;
    impl hkdf::KeyType for Len {
        fn len(&self) -> usize {
            32
        }
    }
    let mut key = [0u8; 32];
    hkdf::Salt::new(hkdf::HKDF_SHA256, &nonce)
        .extract(&file_key)
        .expand(&[b"payload"], Len)
        .unwrap()
        .fill(&mut key)
        .unwrap();
    LessSafeKey::new(UnboundKey::new(&CHACHA20_POLY1305, &key).unwrap())
}

fn chunk_nonce(i: u64, last: bool) -> Nonce {
    let mut n = [0u8; 12];
    n[3..11].copy_from_slice(&i.to_be_bytes());
    n[11] = u8::from(last);
    Nonce::assume_unique_for_key(n)
}

#[test]
fn forged_chunks_with_the_right_key_still_break_the_rules() {
    // With the payload key, a forger can seal chunks that authenticate; the
    // STREAM rules still refuse an empty last chunk after full ones, a
    // second last chunk, and a file without one.
    let (id, r) = x25519_pair();
    let plain = data(2 * CHUNK);
    let file = seal_with(
        std::slice::from_ref(&r),
        13,
        &plain,
        false,
        &Parallelism::sequential(),
    );
    let payload = age::Header::parse(&file).unwrap().len() + 16;
    let key = payload_key(13);
    let seal = |i: u64, last: bool, body: &[u8]| {
        let mut b = body.to_vec();
        key.seal_in_place_append_tag(chunk_nonce(i, last), Aad::empty(), &mut b)
            .unwrap();
        b
    };
    // Sanity: the key is right (chunk 1 as the file has it).
    assert_eq!(seal(1, true, &plain[CHUNK..]), file[payload + SEALED..]);
    let head = &file[..payload];
    let c0 = seal(0, false, &plain[..CHUNK]);
    let c1_mid = seal(1, false, &plain[CHUNK..]);
    let cases = [
        (
            "empty last chunk after full ones",
            [head, &c0, &c1_mid, &seal(2, true, b"")].concat(),
            2,
            "empty",
        ),
        ("no last chunk", [head, &c0, &c1_mid].concat(), 2, "truncated"),
        (
            "two last chunks",
            [
                head,
                &seal(0, true, &plain[..CHUNK]),
                &seal(1, true, &plain[CHUNK..]),
            ]
            .concat(),
            1,
            "trailing",
        ),
        (
            "a short middle chunk",
            [head, &seal(0, false, &plain[..100]), &seal(1, true, b"x")].concat(),
            0,
            "chunk 0",
        ),
    ];
    for par in [Parallelism::sequential(), Parallelism::new(2, Strategy::Static)] {
        for (name, bad, released, says) in &cases {
            let (got, out) = open(std::slice::from_ref(&id), bad, &par);
            let err = got.expect_err(name);
            assert_eq!(err.outcome(), Outcome::PayloadFailure, "{name}: {err}");
            assert!(err.to_string().contains(says), "{name}: {err}");
            assert_eq!(out.len(), released * CHUNK, "{name}: {err}");
            assert_released_prefix(&out, &plain, name);
        }
    }
}

#[test]
fn hostile_headers_fail_fast_in_bounded_memory() {
    let (id, _) = x25519_pair();
    let par = Parallelism::default();
    // 3 MiB of stanza body: refused at 2 MiB.
    let mut huge = b"age-encryption.org/v1\n-> X25519 AAAA\n".to_vec();
    huge.extend(std::iter::repeat_n(b'A', 3 << 20));
    let (got, _) = open(std::slice::from_ref(&id), &huge, &par);
    assert!(got.unwrap_err().to_string().contains("longer than 2 MiB"));
    // A line without end.
    let endless = [&b"age-encryption.org/v1\n-> "[..], &vec![b'x'; 3 << 20]].concat();
    assert_eq!(
        open(std::slice::from_ref(&id), &endless, &par)
            .0
            .unwrap_err()
            .outcome(),
        Outcome::HeaderFailure
    );
    // Absurd scrypt work factors: refused before any scrypt work.
    let pass = Identity::Passphrase(SecretBytes::from(&b"pw"[..]));
    for log2_n in ["23", "30", "64", "255", "99999999999999999999"] {
        let file = format!(
            "age-encryption.org/v1\n-> scrypt AAAAAAAAAAAAAAAAAAAAAA {log2_n}\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n--- AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
        );
        let err = open(std::slice::from_ref(&pass), file.as_bytes(), &par)
            .0
            .unwrap_err();
        assert_eq!(err.outcome(), Outcome::HeaderFailure, "{log2_n}: {err}");
    }
    // Not an age file at all.
    assert!(matches!(
        open(std::slice::from_ref(&id), b"PK\x03\x04 a zip file\n", &par).0,
        Err(Error::WrongFormat)
    ));
}

#[test]
fn ranges_read_exactly_their_bytes() {
    let (id, r) = x25519_pair();
    let plain = data(5 * CHUNK + 77);
    let file = seal_with(
        std::slice::from_ref(&r),
        21,
        &plain,
        false,
        &Parallelism::sequential(),
    );
    let armored = seal_with(
        std::slice::from_ref(&r),
        21,
        &plain,
        true,
        &Parallelism::sequential(),
    );
    let total = plain.len() as u64;
    let ranges = [
        (0, 0),
        (0, 1),
        (0, total),
        (CHUNK as u64 - 1, 2),
        (CHUNK as u64, CHUNK as u64),
        (3 * CHUNK as u64 + 5, 2 * CHUNK as u64),
        (total - 1, 1),
        (total, 0),
    ];
    for par in [
        Parallelism::sequential(),
        Parallelism::new(3, Strategy::WorkStealing),
    ] {
        for f in [&file, &armored] {
            for (start, len) in ranges {
                let mut out = Vec::new();
                let n = age::decrypt_range(
                    std::slice::from_ref(&id),
                    &f[..],
                    start,
                    len,
                    &mut out,
                    &DecryptOptions::default(),
                    &par,
                )
                .unwrap();
                assert_eq!(n, len);
                assert!(
                    out == plain[start as usize..(start + len) as usize],
                    "{start}+{len}"
                );
            }
            for (start, len) in [(total, 1), (total + 1, 0), (u64::MAX, 2)] {
                let err = age::decrypt_range(
                    std::slice::from_ref(&id),
                    &f[..],
                    start,
                    len,
                    Vec::new(),
                    &DecryptOptions::default(),
                    &par,
                )
                .unwrap_err();
                assert!(matches!(err, Error::Range { .. }), "{start}+{len}: {err}");
            }
        }
        // Damage outside the range is not read, except the last chunk,
        // which is always checked (it proves where the plaintext ends).
        let payload = age::Header::parse(&file).unwrap().len() + 16;
        let mut bad = file.clone();
        bad[payload + 3] ^= 1;
        let mut out = Vec::new();
        age::decrypt_range(
            std::slice::from_ref(&id),
            &bad[..],
            2 * CHUNK as u64,
            10,
            &mut out,
            &DecryptOptions::default(),
            &par,
        )
        .unwrap();
        assert_eq!(out, plain[2 * CHUNK..2 * CHUNK + 10]);
        let mut bad = file.clone();
        *bad.last_mut().unwrap() ^= 1;
        let err = age::decrypt_range(
            std::slice::from_ref(&id),
            &bad[..],
            0,
            10,
            Vec::new(),
            &DecryptOptions::default(),
            &par,
        )
        .unwrap_err();
        assert_eq!(err.outcome(), Outcome::PayloadFailure, "{err}");
        // A file held past other data: ranges are relative to the file's start.
        let mut prefixed = b"junk".to_vec();
        prefixed.extend_from_slice(&file);
        let mut out = Vec::new();
        age::decrypt_range(
            std::slice::from_ref(&id),
            &prefixed[4..],
            1,
            3,
            &mut out,
            &DecryptOptions::default(),
            &par,
        )
        .unwrap();
        assert_eq!(out, plain[1..4]);
    }
}

#[test]
fn the_decryptor_shows_the_header_before_choosing_identities() {
    let pass = age::Passphrase::with_work_factor(SecretBytes::from(&b"pw"[..]), 10).unwrap();
    let file = seal_with(
        &[Recipient::Passphrase(pass)],
        1,
        b"secret",
        true,
        &Parallelism::sequential(),
    );
    let d = age::Decryptor::new(&file[..], &DecryptOptions::default()).unwrap();
    assert!(d.is_armored());
    assert!(d.header().is_passphrase());
    assert_eq!(d.header().stanzas()[0].kind, "scrypt");
    let mut out = Vec::new();
    let n = d
        .decrypt_stream(
            &[Identity::Passphrase(SecretBytes::from(&b"pw"[..]))],
            &mut out,
            &Parallelism::sequential(),
            |_| {},
        )
        .unwrap();
    assert_eq!((n, &out[..]), (6, &b"secret"[..]));
}

#[test]
fn progress_counts_every_plaintext_byte() {
    let (id, r) = x25519_pair();
    let plain = data(40 * CHUNK + 3);
    let par = Parallelism::new(2, Strategy::WorkStealing);
    let mut sealed = Vec::new();
    let mut done = 0;
    age::encrypt_stream(
        std::slice::from_ref(&r),
        &plain[..],
        &mut sealed,
        &Options::default(),
        &par,
        |n| done += n,
    )
    .unwrap();
    assert_eq!(done, plain.len() as u64);
    let mut out = Vec::new();
    let mut done = 0;
    age::decrypt_stream(
        std::slice::from_ref(&id),
        &sealed[..],
        &mut out,
        &DecryptOptions::default(),
        &par,
        |n| done += n,
    )
    .unwrap();
    assert_eq!(done, plain.len() as u64);
}

#[test]
fn encrypting_a_file_writes_the_same_bytes_as_streaming_it() {
    let (id, r) = x25519_pair();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plain");
    for len in [0, 1, CHUNK, CHUNK + 1, 40 * CHUNK + 7, (17 << 20) + 1] {
        let plain = data(len);
        std::fs::write(&path, &plain).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        for armor in [false, true] {
            let reference = seal_with(
                std::slice::from_ref(&r),
                31,
                &plain,
                armor,
                &Parallelism::sequential(),
            );
            for par in [
                Parallelism::sequential(),
                Parallelism::new(2, Strategy::Static),
                Parallelism::new(5, Strategy::WorkStealing),
            ] {
                let mut out = Vec::new();
                let mut done = 0;
                let n = Encryptor::with_randomness(std::slice::from_ref(&r), randomness(31))
                    .unwrap()
                    .encrypt_file(&file, &mut out, &Options { armor }, &par, |k| done += k)
                    .unwrap();
                assert_eq!((n, done), (len as u64, len as u64));
                assert!(out == reference, "{len} bytes, armor {armor}, {par:?}");
            }
            if len == CHUNK + 1 {
                let (got, out) = open(std::slice::from_ref(&id), &reference, &Parallelism::default());
                assert_eq!(got.unwrap(), len as u64);
                assert_eq!(out, plain);
            }
        }
    }
}
