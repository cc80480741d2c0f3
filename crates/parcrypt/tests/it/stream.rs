//! The `stream` format: round trips at segment boundaries under every
//! schedule, every way of damaging a stream, every kind of recipient, range
//! decryption, and a header parser that never panics.

#![allow(clippy::unwrap_used)]

use std::sync::OnceLock;

use parcrypt::keys::SigningKey as _;
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa::PrivateKey;
use parcrypt::secret::{SecretBytes, SecretKey};
use parcrypt::stream::{self, DecryptOptions, Error, Identity, Options, Recipient};
use proptest::prelude::*;

const SEG: usize = 4096;
const KEY: [u8; 32] = [0x5a; 32];

fn key() -> SecretKey<32> {
    SecretKey::from_slice(&KEY).unwrap()
}

fn schedules() -> Vec<Parallelism> {
    vec![
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(3, Strategy::WorkStealing),
        Parallelism::new(8, Strategy::WorkStealing),
    ]
}

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

fn seal(pt: &[u8], recipients: &[Recipient<'_>], par: Parallelism) -> Vec<u8> {
    let mut out = Vec::new();
    let opts = Options { segment_size: SEG };
    assert_eq!(
        stream::encrypt_stream(recipients, pt, &mut out, &opts, &par, |_| {}).unwrap(),
        pt.len() as u64
    );
    out
}

fn open(ct: &[u8], id: &Identity<'_>, par: &Parallelism) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    stream::decrypt_stream(
        std::slice::from_ref(id),
        ct,
        &mut out,
        &DecryptOptions::default(),
        par,
        |_| {},
    )
    .map(|_| out)
}

/// The header length of a one-key-recipient stream: 8 + 35 + (3 + 60) + 32.
const HEADER: usize = 138;

fn rsa_key() -> &'static PrivateKey {
    static KEY: OnceLock<PrivateKey> = OnceLock::new();
    KEY.get_or_init(|| PrivateKey::generate(2048, &Parallelism::default()).unwrap())
}

#[test]
fn round_trips_at_segment_boundaries_for_every_schedule() {
    for len in [0, 1, SEG - 1, SEG, SEG + 1, 2 * SEG, 37 * SEG + 5, 300 * SEG] {
        let pt = data(len);
        let sealed = seal(&pt, &[Recipient::Key(key())], Parallelism::sequential());
        let segments = len.div_ceil(SEG).max(1);
        assert_eq!(sealed.len(), HEADER + len + 16 * segments, "{len}");
        for par in schedules() {
            // Sealing under any schedule gives a stream every schedule opens
            // (headers differ: random salt and nonces).
            let other = seal(&pt, &[Recipient::Key(key())], par);
            assert_eq!(other.len(), sealed.len());
            assert_eq!(
                open(&sealed, &Identity::Key(key()), &par).unwrap(),
                pt,
                "{len} {par:?}"
            );
            assert_eq!(
                open(&other, &Identity::Key(key()), &Parallelism::sequential()).unwrap(),
                pt
            );
        }
    }
}

#[test]
fn every_truncation_is_detected() {
    let pt = data(5 * SEG + 100);
    let sealed = seal(&pt, &[Recipient::Key(key())], Parallelism::default());
    let enc = SEG + 16;
    // At every segment boundary: "truncated".
    for k in 1..=5 {
        let cut = &sealed[..HEADER + k * enc];
        match open(cut, &Identity::Key(key()), &Parallelism::default()) {
            Err(Error::Truncated { segment }) => assert_eq!(segment, Some(k as u64 - 1)),
            other => panic!("cut after {k} segments: {other:?}"),
        }
    }
    // Cut at a boundary with a forged empty last segment (16 bytes standing
    // for its tag) appended: the forgery is checked, not skipped.
    for k in 1..=5 {
        let forged = [&sealed[..HEADER + k * enc], &[0xa5u8; 16][..]].concat();
        assert!(
            open(&forged, &Identity::Key(key()), &Parallelism::default()).is_err(),
            "forged after {k}"
        );
    }
    // Right after the header, inside the header, and mid-segment.
    assert!(matches!(
        open(&sealed[..HEADER], &Identity::Key(key()), &Parallelism::default()),
        Err(Error::Truncated { segment: None })
    ));
    for cut in [0, 5, 20, HEADER - 1] {
        assert!(open(&sealed[..cut], &Identity::Key(key()), &Parallelism::default()).is_err());
    }
    for cut in [HEADER + 1, HEADER + 17, HEADER + enc + 100, sealed.len() - 1] {
        let err = open(&sealed[..cut], &Identity::Key(key()), &Parallelism::default()).unwrap_err();
        assert!(err.to_string().contains("truncated"), "{cut}: {err}");
    }
}

#[test]
fn every_header_bit_flip_and_sampled_segment_flips_are_detected() {
    let pt = data(3 * SEG + 7);
    let sealed = seal(&pt, &[Recipient::Key(key())], Parallelism::default());
    for bit in 0..HEADER * 8 {
        let mut bad = sealed.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert!(
            open(&bad, &Identity::Key(key()), &Parallelism::sequential()).is_err(),
            "header bit {bit}"
        );
    }
    for byte in (HEADER..sealed.len())
        .step_by(97)
        .chain([HEADER, sealed.len() - 1])
    {
        let mut bad = sealed.clone();
        bad[byte] ^= 0x10;
        match open(
            &bad,
            &Identity::Key(key()),
            &Parallelism::new(2, Strategy::WorkStealing),
        ) {
            Err(Error::SegmentAuthentication { segment }) => {
                assert_eq!(segment, ((byte - HEADER) / (SEG + 16)) as u64)
            }
            other => panic!("byte {byte}: {other:?}"),
        }
    }
}

#[test]
fn swapped_duplicated_and_spliced_segments_are_detected() {
    let enc = SEG + 16;
    let pt = data(4 * SEG);
    let sealed = seal(&pt, &[Recipient::Key(key())], Parallelism::default());
    let seg = |k: usize| &sealed[HEADER + k * enc..HEADER + (k + 1) * enc];
    let header = &sealed[..HEADER];
    let swapped = [header, seg(1), seg(0), seg(2), seg(3)].concat();
    let duplicated = [header, seg(0), seg(0), seg(1), seg(2), seg(3)].concat();
    let dropped_middle = [header, seg(0), seg(2), seg(3)].concat();
    let other = seal(&pt, &[Recipient::Key(key())], Parallelism::default());
    let spliced = [&other[..HEADER], seg(0), seg(1), seg(2), seg(3)].concat();
    for bad in [swapped, duplicated, dropped_middle, spliced] {
        assert!(open(&bad, &Identity::Key(key()), &Parallelism::default()).is_err());
    }
    // Data after the last segment is not accepted either.
    let extended = [&sealed[..], &[0u8][..]].concat();
    assert!(open(&extended, &Identity::Key(key()), &Parallelism::default()).is_err());
}

#[test]
fn recipients_of_every_kind_and_wrong_identities() {
    let pt = data(2 * SEG + 3);
    let pass = SecretBytes::from(&b"correct horse battery staple"[..]);
    let rsa = rsa_key();
    // A key and an RSA key in one stream; a passphrase only alone.
    let recipients = [Recipient::Key(key()), Recipient::Rsa(rsa.public_key())];
    let sealed = seal(&pt, &recipients, Parallelism::default());
    let par = Parallelism::default();
    assert_eq!(open(&sealed, &Identity::Key(key()), &par).unwrap(), pt);
    assert_eq!(open(&sealed, &Identity::Rsa(rsa), &par).unwrap(), pt);
    let only_pass = seal(
        &pt,
        &[Recipient::Passphrase {
            passphrase: pass.clone(),
            log2_n: 10,
        }],
        par,
    );
    assert_eq!(
        open(&only_pass, &Identity::Passphrase(pass.clone()), &par).unwrap(),
        pt
    );
    let other_rsa = PrivateKey::generate(2048, &par).unwrap();
    for (stream, wrong) in [
        (&sealed, Identity::Key(SecretKey::from_slice(&[0; 32]).unwrap())),
        (&sealed, Identity::Passphrase(SecretBytes::from(&b"wrong"[..]))),
        (&sealed, Identity::Rsa(&other_rsa)),
        (&only_pass, Identity::Passphrase(SecretBytes::from(&b"wrong"[..]))),
        // A passphrase-only stream: the key identity finds no stanza.
        (&only_pass, Identity::Key(key())),
    ] {
        assert!(
            matches!(open(stream, &wrong, &par), Err(Error::NoMatchingIdentity)),
            "{wrong:?}"
        );
    }
    // Bad options.
    let mut sink = Vec::new();
    for opts in [
        Options { segment_size: 1000 },
        Options {
            segment_size: 1 << 11,
        },
    ] {
        assert!(matches!(
            stream::encrypt_stream(
                &[Recipient::Key(key())],
                &b"x"[..],
                &mut sink,
                &opts,
                &par,
                |_| {}
            ),
            Err(Error::Options(_))
        ));
    }
    assert!(matches!(
        stream::encrypt_stream(&[], &b"x"[..], &mut sink, &Options::default(), &par, |_| {}),
        Err(Error::Options(_))
    ));
}

#[cfg(unix)]
#[test]
fn range_decryption_equals_slicing() {
    let pt = data(10 * SEG + 123);
    let sealed = seal(&pt, &[Recipient::Key(key())], Parallelism::default());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s");
    std::fs::write(&path, &sealed).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    let total = pt.len() as u64;
    for (start, len) in [
        (0, 0),
        (0, 1),
        (0, total),
        (5, 10),
        (SEG as u64 - 1, 2),
        (3 * SEG as u64, SEG as u64),
        (total - 1, 1),
        (total - 200, 200),
        (1234, 5 * SEG as u64),
    ] {
        for par in schedules() {
            let mut out = Vec::new();
            stream::decrypt_range(
                &[Identity::Key(key())],
                &file,
                start,
                len,
                &mut out,
                &DecryptOptions::default(),
                &par,
            )
            .unwrap();
            assert!(
                out[..] == pt[start as usize..(start + len) as usize],
                "{start}+{len}"
            );
        }
    }
    let mut out = Vec::new();
    assert!(matches!(
        stream::decrypt_range(
            &[Identity::Key(key())],
            &file,
            total,
            1,
            &mut out,
            &DecryptOptions::default(),
            &Parallelism::default()
        ),
        Err(Error::Range { .. })
    ));
}

#[test]
fn files_encrypted_through_memory_maps_decrypt_like_any_stream() {
    let dir = tempfile::tempdir().unwrap();
    for len in [0, 1, SEG, 3 * SEG + 1, 100 * SEG + 7] {
        let pt = data(len);
        let path = dir.path().join("p");
        std::fs::write(&path, &pt).unwrap();
        for par in schedules() {
            let mut sealed = Vec::new();
            let opts = Options { segment_size: SEG };
            let file = std::fs::File::open(&path).unwrap();
            assert_eq!(
                stream::encrypt_file(&[Recipient::Key(key())], &file, &mut sealed, &opts, &par, |_| {})
                    .unwrap(),
                len as u64
            );
            assert_eq!(sealed.len(), HEADER + len + 16 * len.div_ceil(SEG).max(1));
            assert_eq!(
                open(&sealed, &Identity::Key(key()), &Parallelism::sequential()).unwrap(),
                pt,
                "{len} {par:?}"
            );
        }
    }
}

/// The file readers (`decrypt_file`, `decrypt_range`) report truncation
/// exactly as the piped reader does, including a file cut right after its
/// header, which has no segment to name.
#[test]
fn file_readers_report_truncation_like_the_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut");
    let pt = data(3 * SEG + 9);
    let sealed = seal(&pt, &[Recipient::Key(key())], Parallelism::default());
    let enc = SEG + 16;
    let cuts = [
        (HEADER, None),
        (HEADER + enc, Some(0)),
        (HEADER + 3 * enc, Some(2)),
    ];
    for (cut, segment) in cuts {
        std::fs::write(&path, &sealed[..cut]).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let par = Parallelism::default();
        let piped = open(&sealed[..cut], &Identity::Key(key()), &par).unwrap_err();
        let mut out = Vec::new();
        let whole = stream::decrypt_file(
            &[Identity::Key(key())],
            &file,
            &mut out,
            &DecryptOptions::default(),
            &par,
            |_| {},
        )
        .unwrap_err();
        assert!(out.is_empty(), "nothing written for a cut at {cut}");
        // A range in the last segment present.
        let start = segment.map_or(0, |s| s * SEG as u64);
        let range = stream::decrypt_range(
            &[Identity::Key(key())],
            &file,
            start,
            1,
            &mut out,
            &DecryptOptions::default(),
            &par,
        )
        .unwrap_err();
        for e in [&piped, &whole, &range] {
            match e {
                Error::Truncated { segment: s } => assert_eq!(*s, segment, "cut at {cut}"),
                other => panic!("cut at {cut}: {other:?}"),
            }
        }
        let expected = match segment {
            None => "the file is truncated (it ends right after the header, before any segment)".to_owned(),
            Some(s) => format!("the file is truncated (it ends after segment {s})"),
        };
        assert_eq!(whole.to_string(), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Arbitrary bytes, and arbitrary bytes after a valid magic: errors, never panics.
    #[test]
    fn header_parser_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400), magic in any::<bool>()) {
        let input = if magic { [&b"PARCRYPT\x01\x0c"[..], &bytes[..]].concat() } else { bytes };
        let mut out = Vec::new();
        let r = stream::decrypt_stream(&[Identity::Key(key())], &input[..], &mut out, &DecryptOptions::default(), &Parallelism::sequential(), |_| {});
        prop_assert!(r.is_err());
        prop_assert!(out.is_empty());
    }
}

/// Whether `text` shows `secret`: as hex (either case), as text, or as a
/// run of its bytes in decimal (`[192, 193, …]`, one a line under `{:#?}`).
fn shows(text: &str, secret: &[u8]) -> bool {
    let hex: String = secret.iter().map(|b| format!("{b:02x}")).collect();
    let numbers: Vec<u64> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .collect();
    let decimal = secret.windows(4).any(|w| {
        numbers
            .windows(4)
            .any(|n| n.iter().zip(w).all(|(&a, &b)| a == u64::from(b)))
    });
    text.contains(&hex[..8])
        || text.contains(&hex[..8].to_uppercase())
        || std::str::from_utf8(secret).is_ok_and(|s| text.contains(&s[..6]))
        || decimal
}

#[test]
fn debug_of_recipients_and_identities_shows_no_key_or_passphrase_byte() {
    let raw: [u8; 32] = std::array::from_fn(|i| 0xc0 + i as u8);
    let pass = b"hunter2 is my passphrase";
    let key = || SecretKey::from_slice(&raw).unwrap();
    let recipients = [
        Recipient::Key(key()),
        Recipient::Passphrase {
            passphrase: SecretBytes::from(&pass[..]),
            log2_n: 10,
        },
    ];
    let identities = [
        Identity::Key(key()),
        Identity::Passphrase(SecretBytes::from(&pass[..])),
    ];
    let mut texts = Vec::new();
    for r in &recipients {
        texts.extend([format!("{r:?}"), format!("{r:#?}")]);
    }
    for i in &identities {
        texts.extend([format!("{i:?}"), format!("{i:#?}")]);
    }
    texts.push(format!("{recipients:?}"));
    // The helper itself finds what it should.
    assert!(shows(&format!("{:?}", raw), &raw) && shows(&format!("{:#?}", &pass[..]), pass));
    assert!(shows(&hex::encode(raw), &raw) && shows("hunter2 is", pass));
    for text in texts {
        assert!(!shows(&text, &raw) && !shows(&text, pass), "{text}");
        assert!(text.contains("redacted"), "{text}");
    }
}

/// A writer that fails as a closed pipe does.
struct ClosedPipe;

impl std::io::Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn io_errors_are_the_source_of_stream_errors() {
    let sealed = seal(&data(3 * SEG), &[Recipient::Key(key())], Parallelism::default());
    let encrypting = stream::encrypt_stream(
        &[Recipient::Key(key())],
        &b"x"[..],
        ClosedPipe,
        &Options::default(),
        &Parallelism::default(),
        |_| {},
    );
    let decrypting = stream::decrypt_stream(
        &[Identity::Key(key())],
        &sealed[..],
        ClosedPipe,
        &DecryptOptions::default(),
        &Parallelism::default(),
        |_| {},
    );
    for result in [encrypting, decrypting] {
        let err = result.unwrap_err();
        assert!(matches!(err, Error::Io(_)), "{err:?}");
        // A caller walking the chain (as the CLI does) finds the io::Error.
        let source = std::error::Error::source(&err).expect("the io::Error as source");
        let io = source.downcast_ref::<std::io::Error>().expect("an io::Error");
        assert_eq!(io.kind(), std::io::ErrorKind::BrokenPipe);
    }
}

/// A header with `stanzas` (kind, body) and a MAC of zeros, then a 17-byte
/// "segment": what anyone can write without a key.
fn forged_header(stanzas: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let mut h = b"PARCRYPT\x01\x0c".to_vec();
    h.extend_from_slice(&[0x11; 32]);
    h.push(stanzas.len() as u8);
    for (kind, body) in stanzas {
        h.push(*kind);
        h.extend_from_slice(&(body.len() as u16).to_be_bytes());
        h.extend_from_slice(body);
    }
    h.extend_from_slice(&[0; 32 + 17]);
    h
}

/// A passphrase stanza body asking for scrypt N = 2^log2_n.
fn scrypt_stanza(log2_n: u8) -> (u8, Vec<u8>) {
    let mut body = vec![log2_n, 8, 1];
    body.extend_from_slice(&[0x22; 16 + 12 + 48]);
    (2, body)
}

#[test]
fn a_passphrase_stanza_beside_others_is_malformed_before_any_scrypt() {
    let key_stanza = (1, vec![0x33; 60]);
    let pass = || Identity::Passphrase(SecretBytes::from(&b"anything"[..]));
    // At N = 2^22 each of these would cost seconds of scrypt and 4 GiB if
    // run: the header is refused first.
    for stanzas in [
        vec![scrypt_stanza(22), scrypt_stanza(22)],
        vec![key_stanza.clone(), scrypt_stanza(22)],
        vec![scrypt_stanza(22), key_stanza.clone()],
        vec![scrypt_stanza(22); 64],
    ] {
        let forged = forged_header(&stanzas);
        for id in [pass(), Identity::Key(key())] {
            match open(&forged, &id, &Parallelism::default()) {
                Err(Error::MalformedHeader(why)) => assert!(why.contains("only stanza"), "{why}"),
                other => panic!("{} stanzas: {other:?}", stanzas.len()),
            }
        }
    }
    // Writers refuse to make such a header.
    let mut sink = Vec::new();
    let err = stream::encrypt_stream(
        &[
            Recipient::Key(key()),
            Recipient::Passphrase {
                passphrase: SecretBytes::from(&b"pw"[..]),
                log2_n: 10,
            },
        ],
        &b"x"[..],
        &mut sink,
        &Options::default(),
        &Parallelism::default(),
        |_| {},
    )
    .unwrap_err();
    assert!(matches!(err, Error::Options(_)), "{err:?}");
}

#[test]
fn a_work_factor_over_the_limit_is_refused_before_any_scrypt() {
    let pass = || Identity::Passphrase(SecretBytes::from(&b"anything"[..]));
    let par = Parallelism::default();
    for (log2_n, max) in [(21, stream::DEFAULT_MAX_WORK_FACTOR), (22, 21), (11, 10)] {
        let forged = forged_header(&[scrypt_stanza(log2_n)]);
        let opts = DecryptOptions { max_work_factor: max };
        let mut out = Vec::new();
        match stream::decrypt_stream(
            std::slice::from_ref(&pass()),
            &forged[..],
            &mut out,
            &opts,
            &par,
            |_| {},
        ) {
            Err(Error::WorkFactor { log2_n: n, max: m }) => assert_eq!((n, m), (log2_n, max)),
            other => panic!("2^{log2_n}: {other:?}"),
        }
    }
    assert_eq!(stream::DEFAULT_MAX_WORK_FACTOR, 20);
    // At the limit, the stream opens.
    let pt = data(100);
    let sealed = seal(
        &pt,
        &[Recipient::Passphrase {
            passphrase: SecretBytes::from(&b"pw"[..]),
            log2_n: 11,
        }],
        par,
    );
    let opts = |max| DecryptOptions { max_work_factor: max };
    let id = Identity::Passphrase(SecretBytes::from(&b"pw"[..]));
    let mut out = Vec::new();
    assert!(matches!(
        stream::decrypt_stream(
            std::slice::from_ref(&id),
            &sealed[..],
            &mut out,
            &opts(10),
            &par,
            |_| {}
        ),
        Err(Error::WorkFactor { log2_n: 11, max: 10 })
    ));
    stream::decrypt_stream(
        std::slice::from_ref(&id),
        &sealed[..],
        &mut out,
        &opts(11),
        &par,
        |_| {},
    )
    .unwrap();
    assert_eq!(out, pt);
}

/// Ranges far longer than a batch stream through in batches, and agree
/// with slicing at every batch boundary.
#[cfg(unix)]
#[test]
fn long_ranges_stream_in_batches() {
    // 4 KiB segments: a batch is 4 per thread (8 on two threads).
    let pt = data(50 * SEG + 11);
    let sealed = seal(&pt, &[Recipient::Key(key())], Parallelism::default());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s");
    std::fs::write(&path, &sealed).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    let total = pt.len() as u64;
    let s = SEG as u64;
    for (start, len) in [
        (0, total),
        (1, total - 1),
        (s - 1, 8 * s + 2),
        (7 * s + 5, 30 * s),
        (8 * s, 8 * s),
    ] {
        for par in [
            Parallelism::new(2, Strategy::WorkStealing),
            Parallelism::sequential(),
        ] {
            let mut out = Vec::new();
            stream::decrypt_range(
                &[Identity::Key(key())],
                &file,
                start,
                len,
                &mut out,
                &DecryptOptions::default(),
                &par,
            )
            .unwrap();
            assert!(
                out[..] == pt[start as usize..(start + len) as usize],
                "{start}+{len}"
            );
        }
    }
}
