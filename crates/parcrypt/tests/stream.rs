//! The `stream` format: round trips at segment boundaries under every
//! schedule, every way of damaging a stream, every kind of recipient, range
//! decryption, and a header parser that never panics.

#![allow(clippy::unwrap_used)]

use std::sync::OnceLock;

use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa::PrivateKey;
use parcrypt::stream::{self, Error, Identity, Options, Recipient};
use proptest::prelude::*;
use zeroize::Zeroizing;

const SEG: usize = 4096;
const KEY: [u8; 32] = [0x5a; 32];

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
    let opts = Options {
        segment_size: SEG,
        par,
    };
    assert_eq!(
        stream::encrypt(recipients, pt, &mut out, &opts, |_| {}).unwrap(),
        pt.len() as u64
    );
    out
}

fn open(ct: &[u8], id: &Identity<'_>, par: &Parallelism) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    stream::decrypt(id, ct, &mut out, par, |_| {}).map(|_| out)
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
        let sealed = seal(&pt, &[Recipient::Key(KEY)], Parallelism::sequential());
        let segments = len.div_ceil(SEG).max(1);
        assert_eq!(sealed.len(), HEADER + len + 16 * segments, "{len}");
        for par in schedules() {
            // Sealing under any schedule gives a stream every schedule opens
            // (headers differ: random salt and nonces).
            let other = seal(&pt, &[Recipient::Key(KEY)], par);
            assert_eq!(other.len(), sealed.len());
            assert_eq!(
                open(&sealed, &Identity::Key(KEY), &par).unwrap(),
                pt,
                "{len} {par:?}"
            );
            assert_eq!(
                open(&other, &Identity::Key(KEY), &Parallelism::sequential()).unwrap(),
                pt
            );
        }
    }
}

#[test]
fn every_truncation_is_detected() {
    let pt = data(5 * SEG + 100);
    let sealed = seal(&pt, &[Recipient::Key(KEY)], Parallelism::default());
    let enc = SEG + 16;
    // At every segment boundary: "truncated".
    for k in 1..=5 {
        let cut = &sealed[..HEADER + k * enc];
        match open(cut, &Identity::Key(KEY), &Parallelism::default()) {
            Err(Error::Truncated { segment }) => assert_eq!(segment, Some(k as u64 - 1)),
            other => panic!("cut after {k} segments: {other:?}"),
        }
    }
    // Cut at a boundary with a forged empty last segment (16 bytes standing
    // for its tag) appended: the forgery is checked, not skipped.
    for k in 1..=5 {
        let forged = [&sealed[..HEADER + k * enc], &[0xa5u8; 16][..]].concat();
        assert!(
            open(&forged, &Identity::Key(KEY), &Parallelism::default()).is_err(),
            "forged after {k}"
        );
    }
    // Right after the header, inside the header, and mid-segment.
    assert!(matches!(
        open(&sealed[..HEADER], &Identity::Key(KEY), &Parallelism::default()),
        Err(Error::Truncated { segment: None })
    ));
    for cut in [0, 5, 20, HEADER - 1] {
        assert!(open(&sealed[..cut], &Identity::Key(KEY), &Parallelism::default()).is_err());
    }
    for cut in [HEADER + 1, HEADER + 17, HEADER + enc + 100, sealed.len() - 1] {
        let err = open(&sealed[..cut], &Identity::Key(KEY), &Parallelism::default()).unwrap_err();
        assert!(err.to_string().contains("truncated"), "{cut}: {err}");
    }
}

#[test]
fn every_header_bit_flip_and_sampled_segment_flips_are_detected() {
    let pt = data(3 * SEG + 7);
    let sealed = seal(&pt, &[Recipient::Key(KEY)], Parallelism::default());
    for bit in 0..HEADER * 8 {
        let mut bad = sealed.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert!(
            open(&bad, &Identity::Key(KEY), &Parallelism::sequential()).is_err(),
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
            &Identity::Key(KEY),
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
    let sealed = seal(&pt, &[Recipient::Key(KEY)], Parallelism::default());
    let seg = |k: usize| &sealed[HEADER + k * enc..HEADER + (k + 1) * enc];
    let header = &sealed[..HEADER];
    let swapped = [header, seg(1), seg(0), seg(2), seg(3)].concat();
    let duplicated = [header, seg(0), seg(0), seg(1), seg(2), seg(3)].concat();
    let dropped_middle = [header, seg(0), seg(2), seg(3)].concat();
    let other = seal(&pt, &[Recipient::Key(KEY)], Parallelism::default());
    let spliced = [&other[..HEADER], seg(0), seg(1), seg(2), seg(3)].concat();
    for bad in [swapped, duplicated, dropped_middle, spliced] {
        assert!(open(&bad, &Identity::Key(KEY), &Parallelism::default()).is_err());
    }
    // Data after the last segment is not accepted either.
    let extended = [&sealed[..], &[0u8][..]].concat();
    assert!(open(&extended, &Identity::Key(KEY), &Parallelism::default()).is_err());
}

#[test]
fn recipients_of_every_kind_and_wrong_identities() {
    let pt = data(2 * SEG + 3);
    let pass = Zeroizing::new(b"correct horse battery staple".to_vec());
    let rsa = rsa_key();
    let recipients = [
        Recipient::Key(KEY),
        Recipient::Passphrase {
            passphrase: pass.clone(),
            log2_n: 10,
        },
        Recipient::Rsa(rsa.public_key()),
    ];
    let sealed = seal(&pt, &recipients, Parallelism::default());
    let par = Parallelism::default();
    assert_eq!(open(&sealed, &Identity::Key(KEY), &par).unwrap(), pt);
    assert_eq!(open(&sealed, &Identity::Passphrase(&pass), &par).unwrap(), pt);
    assert_eq!(open(&sealed, &Identity::Rsa(rsa), &par).unwrap(), pt);
    let other_rsa = PrivateKey::generate(2048, &par).unwrap();
    for wrong in [
        Identity::Key([0; 32]),
        Identity::Passphrase(b"wrong"),
        Identity::Rsa(&other_rsa),
    ] {
        assert!(
            matches!(open(&sealed, &wrong, &par), Err(Error::NoMatchingIdentity)),
            "{wrong:?}"
        );
    }
    // A passphrase-only stream: the key identity finds no stanza.
    let only_pass = seal(
        &pt,
        &[Recipient::Passphrase {
            passphrase: pass.clone(),
            log2_n: 10,
        }],
        par,
    );
    assert!(matches!(
        open(&only_pass, &Identity::Key(KEY), &par),
        Err(Error::NoMatchingIdentity)
    ));
    // Bad options.
    let mut sink = Vec::new();
    for opts in [
        Options {
            segment_size: 1000,
            par,
        },
        Options {
            segment_size: 1 << 11,
            par,
        },
    ] {
        assert!(matches!(
            stream::encrypt(&[Recipient::Key(KEY)], &b"x"[..], &mut sink, &opts, |_| {}),
            Err(Error::Options(_))
        ));
    }
    assert!(matches!(
        stream::encrypt(&[], &b"x"[..], &mut sink, &Options::default(), |_| {}),
        Err(Error::Options(_))
    ));
}

#[cfg(unix)]
#[test]
fn range_decryption_equals_slicing() {
    let pt = data(10 * SEG + 123);
    let sealed = seal(&pt, &[Recipient::Key(KEY)], Parallelism::default());
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
            stream::decrypt_range(&Identity::Key(KEY), &file, start, len, &mut out, &par).unwrap();
            assert!(
                out[..] == pt[start as usize..(start + len) as usize],
                "{start}+{len}"
            );
        }
    }
    let mut out = Vec::new();
    assert!(matches!(
        stream::decrypt_range(
            &Identity::Key(KEY),
            &file,
            total,
            1,
            &mut out,
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
            let opts = Options {
                segment_size: SEG,
                par,
            };
            let file = std::fs::File::open(&path).unwrap();
            assert_eq!(
                stream::encrypt_file(&[Recipient::Key(KEY)], &file, &mut sealed, &opts, |_| {}).unwrap(),
                len as u64
            );
            assert_eq!(sealed.len(), HEADER + len + 16 * len.div_ceil(SEG).max(1));
            assert_eq!(
                open(&sealed, &Identity::Key(KEY), &Parallelism::sequential()).unwrap(),
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
    let sealed = seal(&pt, &[Recipient::Key(KEY)], Parallelism::default());
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
        let piped = open(&sealed[..cut], &Identity::Key(KEY), &par).unwrap_err();
        let mut out = Vec::new();
        let whole = stream::decrypt_file(&Identity::Key(KEY), &file, &mut out, &par, |_| {}).unwrap_err();
        assert!(out.is_empty(), "nothing written for a cut at {cut}");
        // A range in the last segment present.
        let start = segment.map_or(0, |s| s * SEG as u64);
        let range = stream::decrypt_range(&Identity::Key(KEY), &file, start, 1, &mut out, &par).unwrap_err();
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
        let r = stream::decrypt(&Identity::Key(KEY), &input[..], &mut out, &Parallelism::sequential(), |_| {});
        prop_assert!(r.is_err());
        prop_assert!(out.is_empty());
    }
}
