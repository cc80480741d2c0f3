//! One stream sealed in parts by separate sealers (as cluster workers do)
//! is the same format: the plain readers open it, and parts of any stream
//! open on their own.

use std::io::Write;

use parcrypt::par::{Parallelism, Strategy};
use parcrypt::secret::SecretKey;
use parcrypt::stream::{self, DecryptOptions, Error, Identity, Input, Options, Recipient, Segments};

const SEG: usize = 4096;

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

fn key() -> SecretKey<32> {
    SecretKey::from_slice(&[42u8; 32]).expect("32 bytes")
}

/// Seals `plain` in parts of `part` bytes (a multiple of SEG), each by its own sealer.
fn sealed_in_parts(plain: &[u8], part: usize, par: &Parallelism) -> Vec<u8> {
    let (header, sealer) =
        Segments::create(&[Recipient::Key(key())], &Options { segment_size: SEG }).expect("create");
    let mut file = header;
    let chunks: Vec<&[u8]> = if plain.is_empty() {
        vec![&[][..]]
    } else {
        plain.chunks(part).collect()
    };
    for (i, chunk) in chunks.iter().enumerate() {
        let worker =
            Segments::from_payload_key(sealer.payload_key(), SEG, sealer.header_len()).expect("worker");
        let first = (i * part / SEG) as u64;
        assert_eq!(
            worker.offset(first),
            file.len() as u64,
            "parts land at their offsets"
        );
        file.extend(
            worker
                .seal(first, chunk, i + 1 == chunks.len(), par)
                .expect("seal"),
        );
    }
    file
}

#[test]
fn parts_sealed_apart_make_a_stream_every_reader_opens() {
    let dir = tempfile::tempdir().expect("tempdir");
    for par in [
        Parallelism::sequential(),
        Parallelism::new(3, Strategy::WorkStealing),
    ] {
        for len in [0, 1, SEG - 1, SEG, SEG + 1, 3 * SEG, 10 * SEG + 17] {
            for part in [SEG, 2 * SEG, 8 * SEG] {
                let plain = data(len);
                let file = sealed_in_parts(&plain, part, &par);
                let mut out = Vec::new();
                stream::decrypt_stream(
                    &[Identity::Key(key())],
                    &file[..],
                    &mut out,
                    &DecryptOptions::default(),
                    &par,
                    |_| {},
                )
                .expect("decrypt");
                assert_eq!(out, plain, "len {len} part {part}");
                let path = dir.path().join("s.pc");
                std::fs::File::create(&path)
                    .and_then(|mut f| f.write_all(&file))
                    .expect("write");
                let mut out = Vec::new();
                let f = std::fs::File::open(&path).expect("open");
                stream::decrypt_file(
                    &[Identity::Key(key())],
                    &f,
                    &mut out,
                    &DecryptOptions::default(),
                    &par,
                    |_| {},
                )
                .expect("decrypt_file");
                assert_eq!(out, plain);
            }
        }
    }
}

#[test]
fn any_run_of_a_stream_opens_alone_and_misplaced_runs_fail() {
    let par = Parallelism::new(2, Strategy::Static);
    let plain = data(7 * SEG + 100);
    let mut file = Vec::new();
    stream::encrypt_stream(
        &[Recipient::Key(key())],
        &plain[..],
        &mut file,
        &Options { segment_size: SEG },
        &par,
        |_| {},
    )
    .expect("encrypt");
    let mut reader = &file[..];
    let opener = Segments::from_header(
        &mut reader,
        &[Identity::Key(key())],
        &DecryptOptions::default(),
        &par,
    )
    .expect("header");
    let at = |i: u64| opener.offset(i) as usize;
    assert_eq!(
        opener
            .open(2, &file[at(2)..at(5)], false, &par)
            .expect("middle")
            .expose(),
        &plain[2 * SEG..5 * SEG]
    );
    assert_eq!(
        opener.open(5, &file[at(5)..], true, &par).expect("end").expose(),
        &plain[5 * SEG..]
    );
    // A buffer others may write: each segment copied before it is opened.
    assert_eq!(
        opener
            .open(2, Input::Shared(&file[at(2)..]), true, &par)
            .expect("shared")
            .expose(),
        &plain[2 * SEG..]
    );
    // A run given the wrong index, a middle run flagged last (truncated), and
    // a flipped byte fail with the segment named; the stream's end not flagged last is
    // refused too (here its short last segment makes it a misuse).
    assert!(matches!(
        opener.open(5, &file[at(5)..], false, &par),
        Err(Error::Options(_))
    ));
    for (first, range, last) in [
        (3, at(2)..at(5), false),
        (2, at(2)..at(5), true),
        (0, at(0)..at(7), true),
    ] {
        let got = opener.open(first, &file[range.clone()], last, &par);
        let named = matches!(
            got,
            Err(Error::SegmentAuthentication { .. }) | Err(Error::Truncated { segment: Some(_) })
        );
        assert!(named, "{first} {range:?} {last}: {got:?}");
    }
    let mut bad = file[at(1)..at(3)].to_vec();
    bad[SEG + 20] ^= 1;
    assert!(matches!(
        opener.open(1, &bad, false, &par),
        Err(Error::SegmentAuthentication { segment: 2 })
    ));
    assert!(matches!(
        opener.open(1, Input::Shared(&bad), false, &par),
        Err(Error::SegmentAuthentication { segment: 2 })
    ));
    // Misuse is an error, not a malformed stream.
    assert!(matches!(
        opener.seal(0, &plain[..100], false, &par),
        Err(Error::Options(_))
    ));
    assert!(matches!(opener.seal(3, &[], true, &par), Err(Error::Options(_))));
    assert!(matches!(
        Segments::from_payload_key(&key(), 1000, 0),
        Err(Error::Options(_))
    ));
    assert!(!format!("{opener:?}").contains("42"), "Debug shows no key");
}
