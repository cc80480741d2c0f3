//! `parcrypt encrypt` / `parcrypt decrypt` (the `stream` format,
//! docs/FORMAT.md) run as a binary: round trips at segment boundaries through files and
//! pipes on 1, 2 and 4 threads for every kind of recipient; atomic `-o`
//! output when a stream is damaged, `--force`; wrong identities; `--range`;
//! inputs that are not streams; usage errors; a stdout closed early and a
//! full disk. Every failure exits 1 with a `parcrypt:` message and a hint (2
//! for usage errors) and never panics.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use crate::common::{
    data, entries, fails, fails_in, fails_with_no_output_in, ok_quietly, ok_quietly_in, p, parcrypt, stderr,
    usage, usage_in,
};

/// The segment size every test writes: small, so that a few KiB span many segments.
const SEG: usize = 4096;
const SEG_ARG: &str = "4KiB";
/// A stored segment: plaintext plus the 16-byte GCM tag.
const STORED: usize = SEG + 16;
/// Sizes around the segment boundaries, and many segments (whole and partial).
const SIZES: [usize; 7] = [0, 1, SEG - 1, SEG, SEG + 1, 300 << 10, (300 << 10) + 7];
const THREADS: [&str; 3] = ["1", "2", "4"];
/// The header of a stream to one key file (docs/FORMAT.md): magic, version,
/// segment size, salt, stanza count (43) ‖ kind, length, nonce, wrapped key
/// (63) ‖ MAC (32).
const KEY_HEADER: usize = 43 + 63 + 32;
const PASSPHRASE: &str = "correct horse battery staple";

/// A plaintext of `len` bytes takes this many segments.
fn segments(len: usize) -> usize {
    len.div_ceil(SEG).max(1)
}

/// The header length of `stream`, the encryption of `len` plaintext bytes.
fn header_len(stream: &[u8], len: usize) -> usize {
    stream.len() - len - 16 * segments(len)
}

/// Two RSA-2048 recipients and one stranger, made once by the binary itself.
struct Rsa {
    _dir: tempfile::TempDir,
    keys: [PathBuf; 3],
    pubs: [PathBuf; 3],
}

fn rsa() -> &'static Rsa {
    static RSA: OnceLock<Rsa> = OnceLock::new();
    RSA.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let key = |i| dir.path().join(format!("key{i}.pem"));
        let public = |i| dir.path().join(format!("pub{i}.pem"));
        for i in 0..3 {
            ok_quietly(&parcrypt(
                &["rsa", "keygen", "--bits", "2048", "-o", p(&key(i))],
                b"",
            ));
            ok_quietly(&parcrypt(
                &["rsa", "pubkey", "-i", p(&key(i)), "-o", p(&public(i))],
                b"",
            ));
        }
        Rsa {
            keys: [key(0), key(1), key(2)],
            pubs: [public(0), public(1), public(2)],
            _dir: dir,
        }
    })
}

/// A scratch directory holding key material; streams and outputs go in `out/`
/// so that "nothing left behind" means `out/` holds exactly what it held.
struct Fixture {
    dir: tempfile::TempDir,
    /// 32 raw bytes.
    key: PathBuf,
    /// The same key as 64 lowercase hex digits and a newline.
    key_hex: PathBuf,
    /// Another 32-byte key.
    other_key: PathBuf,
    /// `PASSPHRASE` and a newline.
    pass: PathBuf,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("out")).unwrap();
        let key: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        let fx = Fixture {
            key: dir.path().join("key.bin"),
            key_hex: dir.path().join("key.hex"),
            other_key: dir.path().join("other.bin"),
            pass: dir.path().join("pass.txt"),
            dir,
        };
        std::fs::write(&fx.key, &key).unwrap();
        std::fs::write(&fx.key_hex, format!("{hex}\n")).unwrap();
        std::fs::write(&fx.other_key, [0xa5u8; 32]).unwrap();
        std::fs::write(&fx.pass, format!("{PASSPHRASE}\n")).unwrap();
        fx
    }

    /// A file beside the keys.
    fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// A path in `out/`.
    fn out(&self, name: &str) -> PathBuf {
        self.dir.path().join("out").join(name)
    }

    fn out_entries(&self) -> Vec<String> {
        entries(&self.dir.path().join("out"))
    }

    /// Encrypts `plain` through a pipe to the recipients named by `who`.
    fn encrypt(&self, who: &[&str], plain: &[u8]) -> Vec<u8> {
        let mut args = vec!["encrypt", "--segment-size", SEG_ARG, "--work-factor", "10"];
        args.extend_from_slice(who);
        ok_quietly(&parcrypt(&args, plain)).stdout.clone()
    }

    fn encrypt_to_key(&self, plain: &[u8]) -> Vec<u8> {
        self.encrypt(&["--key-file", p(&self.key)], plain)
    }
}

/// `i % 251` is too regular to stand for "random bytes": an LCG's high bytes.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 56) as u8
        })
        .collect()
}

// ---------------------------------------------------------------------------
// 1. Round trips

#[test]
fn round_trips_through_files_at_segment_boundaries_on_1_2_4_threads() {
    let fx = Fixture::new();
    let key = p(&fx.key);
    let key_hex = p(&fx.key_hex);
    let mut headers = Vec::new();
    for len in SIZES {
        let plain = data(len);
        let input = fx.file("plain", &plain);
        for threads in THREADS {
            let ct = fx.out("ct");
            let back = fx.out("back");
            ok_quietly(&parcrypt(
                &[
                    "--threads",
                    threads,
                    "encrypt",
                    "--key-file",
                    key,
                    "--segment-size",
                    SEG_ARG,
                    "--force",
                    "-i",
                    p(&input),
                    "-o",
                    p(&ct),
                ],
                b"",
            ));
            let stream = std::fs::read(&ct).unwrap();
            assert!(stream.starts_with(b"PARCRYPT\x01\x0c"), "len {len}");
            assert!(stream.len() >= len + 16 * segments(len));
            headers.push(header_len(&stream, len));
            // The key as 32 raw bytes and as hex opens what either wrote.
            for dec_key in [key, key_hex] {
                let case = format!("len {len}, {threads} threads, {dec_key}");
                ok_quietly_in(
                    &case,
                    &parcrypt(
                        &[
                            "--threads",
                            threads,
                            "decrypt",
                            "--key-file",
                            dec_key,
                            "--force",
                            "-i",
                            p(&ct),
                            "-o",
                            p(&back),
                        ],
                        b"",
                    ),
                );
                assert!(std::fs::read(&back).unwrap() == plain, "{case}");
                assert_eq!(fx.out_entries(), ["back", "ct"], "{case}");
            }
        }
    }
    // One key-file stanza, whatever the length: the layout is header ‖ segments.
    assert!(headers.iter().all(|&h| h == KEY_HEADER), "{headers:?}");
}

#[test]
fn round_trips_through_pipes_at_segment_boundaries_on_1_2_4_threads() {
    let fx = Fixture::new();
    let key = p(&fx.key);
    for len in SIZES {
        let plain = data(len);
        for threads in THREADS {
            let enc = parcrypt(
                &[
                    "--threads",
                    threads,
                    "encrypt",
                    "--key-file",
                    key,
                    "--segment-size",
                    SEG_ARG,
                ],
                &plain,
            );
            let stream = ok_quietly(&enc).stdout.clone();
            assert_eq!(header_len(&stream, len), KEY_HEADER, "len {len}");
            // No `-i`/`-o`, and explicit `-i -` / `-o -`: stdin and stdout both.
            for io in [&[][..], &["-i", "-", "-o", "-"]] {
                let dec = parcrypt(
                    &[&["--threads", threads, "decrypt", "--key-file", key][..], io].concat(),
                    &stream,
                );
                let case = format!("len {len}, {threads} threads, {io:?}");
                assert!(ok_quietly_in(&case, &dec).stdout == plain, "{case}");
            }
        }
    }
}

#[test]
fn pipes_files_thread_counts_and_strategies_read_each_others_streams() {
    let fx = Fixture::new();
    let key = p(&fx.key);
    let plain = data(20 * SEG + 77);
    let input = fx.file("plain", &plain);
    // Written from a pipe on 1 thread, and from a (memory-mapped) file on 4.
    let piped = fx.encrypt_to_key(&plain);
    let from_file = fx.out("from-file");
    ok_quietly(&parcrypt(
        &[
            "--threads",
            "4",
            "encrypt",
            "--key-file",
            key,
            "--segment-size",
            SEG_ARG,
            "-i",
            p(&input),
            "-o",
            p(&from_file),
        ],
        b"",
    ));
    let from_file = std::fs::read(&from_file).unwrap();
    for stream in [&piped, &from_file] {
        let ct = fx.file("ct", stream);
        for threads in ["1", "3", "4"] {
            for strategy in ["seq", "static", "steal"] {
                let common = ["--threads", threads, "--strategy", strategy, "decrypt"];
                let by_pipe = parcrypt(&[&common[..], &["--key-file", key]].concat(), stream);
                assert!(ok_quietly(&by_pipe).stdout == plain, "{threads} {strategy}");
                let by_file = parcrypt(&[&common[..], &["--key-file", key, "-i", p(&ct)]].concat(), b"");
                assert!(ok_quietly(&by_file).stdout == plain, "{threads} {strategy}");
            }
        }
    }
    // Fresh file key, salt and nonces every time.
    assert_ne!(piped, fx.encrypt_to_key(&plain));
    assert_ne!(piped, from_file);
}

#[test]
fn key_file_is_32_raw_bytes_or_64_hex_digits() {
    let fx = Fixture::new();
    let plain = data(3 * SEG + 5);
    let raw = std::fs::read(&fx.key).unwrap();
    let hex: String = raw.iter().map(|b| format!("{b:02x}")).collect();
    let upper = fx.file("key.upper", format!("{}\n", hex.to_uppercase()).as_bytes());
    let bare = fx.file("key.bare", hex.as_bytes());
    let crlf = fx.file("key.crlf", format!("{hex}\r\n").as_bytes());
    let forms = [&fx.key, &fx.key_hex, &upper, &bare, &crlf];
    for enc in forms {
        let stream = fx.encrypt(&["--key-file", p(enc)], &plain);
        for dec in forms {
            let out = parcrypt(&["decrypt", "--key-file", p(dec)], &stream);
            assert!(ok_quietly(&out).stdout == plain, "{enc:?} → {dec:?}");
        }
    }
}

#[test]
fn passphrase_is_the_first_line_of_its_file() {
    let fx = Fixture::new();
    let plain = data(2 * SEG + 9);
    let stream = fx.encrypt(&["--passphrase-file", p(&fx.pass)], &plain);
    // The header records the cost: decrypt needs no --work-factor.
    let same = [
        fx.file("bare", PASSPHRASE.as_bytes()),
        fx.file("crlf", format!("{PASSPHRASE}\r\n").as_bytes()),
        fx.file("more", format!("{PASSPHRASE}\nsecond line\n").as_bytes()),
        fx.pass.clone(),
    ];
    for pass in &same {
        let out = parcrypt(&["decrypt", "--passphrase-file", p(pass)], &stream);
        assert!(ok_quietly(&out).stdout == plain, "{pass:?}");
    }
    // The whole first line counts, spaces included.
    for wrong in [
        format!("{PASSPHRASE} \n"),
        " correct horse battery staple\n".to_owned(),
        "correct horse battery stapl\n".to_owned(),
        "second line\ncorrect horse battery staple\n".to_owned(),
    ] {
        let pass = fx.file("wrong", wrong.as_bytes());
        let out = parcrypt(&["decrypt", "--passphrase-file", p(&pass)], &stream);
        fails_in(&format!("{wrong:?}"), &out, 1, "wrong key or passphrase");
    }
}

#[test]
fn several_rsa_recipients_and_a_key_file_each_decrypt() {
    let fx = Fixture::new();
    let rsa = rsa();
    let plain = data(5 * SEG + 1);
    let input = fx.file("plain", &plain);
    let ct = fx.out("ct");
    ok_quietly(&parcrypt(
        &[
            "--threads",
            "2",
            "encrypt",
            "--recipient",
            p(&rsa.pubs[0]),
            "--key-file",
            p(&fx.key),
            "--recipient",
            p(&rsa.pubs[1]),
            "--segment-size",
            SEG_ARG,
            "-i",
            p(&input),
            "-o",
            p(&ct),
        ],
        b"",
    ));
    let stream = std::fs::read(&ct).unwrap();
    for who in [
        ["--identity", p(&rsa.keys[0])],
        ["--identity", p(&rsa.keys[1])],
        ["--key-file", p(&fx.key)],
        ["--key-file", p(&fx.key_hex)],
    ] {
        for threads in THREADS {
            let by_file = parcrypt(
                &[&["--threads", threads, "decrypt"][..], &who, &["-i", p(&ct)]].concat(),
                b"",
            );
            assert!(ok_quietly(&by_file).stdout == plain, "{who:?}");
            let by_pipe = parcrypt(&[&["--threads", threads, "decrypt"][..], &who].concat(), &stream);
            assert!(ok_quietly(&by_pipe).stdout == plain, "{who:?}");
        }
    }
    // Not a recipient: the third key, a stranger key file, any passphrase.
    for who in [
        ["--identity", p(&rsa.keys[2])],
        ["--key-file", p(&fx.other_key)],
        ["--passphrase-file", p(&fx.pass)],
    ] {
        let case = format!("{who:?}");
        let by_file = parcrypt(&[&["decrypt"][..], &who, &["-i", p(&ct)]].concat(), b"");
        fails_with_no_output_in(&case, &by_file, 1, "wrong key or passphrase");
        let by_pipe = parcrypt(&[&["decrypt"][..], &who].concat(), &stream);
        fails_with_no_output_in(&case, &by_pipe, 1, "wrong key or passphrase");
    }
}

#[test]
fn key_file_and_rsa_recipients_share_a_stream_and_a_passphrase_stands_alone() {
    let fx = Fixture::new();
    let rsa = rsa();
    let plain = data(SEG + 3);
    // At the default segment size (no --segment-size).
    let enc = [
        "encrypt",
        "--recipient",
        p(&rsa.pubs[2]),
        "--key-file",
        p(&fx.key_hex),
    ];
    let stream = ok_quietly(&parcrypt(&enc, &plain)).stdout.clone();
    for who in [["--identity", p(&rsa.keys[2])], ["--key-file", p(&fx.key)]] {
        let out = parcrypt(&[&["decrypt"][..], &who].concat(), &stream);
        assert!(ok_quietly(&out).stdout == plain, "{who:?}");
    }
    // A passphrase stanza must be a header's only one (readers refuse
    // others before running scrypt), so the writer refuses it as usage.
    for others in [["--key-file", p(&fx.key)], ["--recipient", p(&rsa.pubs[2])]] {
        let out = parcrypt(
            &[&["encrypt", "--passphrase-file", p(&fx.pass)][..], &others].concat(),
            &plain,
        );
        usage_in(&format!("{others:?}"), &out, "cannot be used with");
    }
}

// ---------------------------------------------------------------------------
// 2. Atomic output: a damaged stream leaves nothing, an existing file is kept

/// Decrypting `stream` (damaged; `case` names how) must fail with
/// `needle`, leave `out/` as it was, and release on stdout at most a
/// verified prefix of `plain`.
fn refuses_damaged(fx: &Fixture, case: &str, stream: &[u8], plain: &[u8], needle: &str) {
    let before = fx.out_entries();
    let ct = fx.file("damaged", stream);
    let back = fx.out("back");
    let key = p(&fx.key);
    for threads in ["1", "4"] {
        let case = format!("{case}, {threads} threads");
        let decrypt = ["--threads", threads, "decrypt", "--key-file", key];
        // From a file (memory-mapped) and from a pipe, to -o: nothing written.
        let by_file = parcrypt(&[&decrypt[..], &["-i", p(&ct), "-o", p(&back)]].concat(), b"");
        fails_in(&case, &by_file, 1, needle);
        assert!(stderr(&by_file).contains("nothing was written"), "{case}");
        let by_pipe = parcrypt(&[&decrypt[..], &["-o", p(&back)]].concat(), stream);
        fails_in(&case, &by_pipe, 1, needle);
        assert_eq!(fx.out_entries(), before, "{case}");
        // To stdout: whatever came out is authentic plaintext from the start.
        let to_stdout = parcrypt(&decrypt, stream);
        fails_in(&case, &to_stdout, 1, needle);
        assert!(plain.starts_with(&to_stdout.stdout), "{case}");
    }
}

#[test]
fn a_flipped_byte_in_a_middle_segment_fails_that_segment_and_writes_nothing() {
    let fx = Fixture::new();
    let plain = data(5 * SEG + 100);
    let stream = fx.encrypt_to_key(&plain);
    let header = header_len(&stream, plain.len());
    for (offset, segment) in [
        (header + 2 * STORED + 100, 2),
        (header + 3 * STORED - 1, 2), // the last byte of its tag
        (header + 3 * STORED, 3),     // the first byte of the next
        (stream.len() - 1, 5),        // the final segment's tag
    ] {
        let mut damaged = stream.clone();
        damaged[offset] ^= 0x01;
        refuses_damaged(
            &fx,
            &format!("byte {offset} flipped"),
            &damaged,
            &plain,
            &format!("segment {segment} failed authentication"),
        );
    }
}

#[test]
fn truncation_at_a_segment_boundary_is_reported_as_truncation() {
    let fx = Fixture::new();
    let plain = data(5 * SEG + 100);
    let stream = fx.encrypt_to_key(&plain);
    let header = header_len(&stream, plain.len());
    // After segments 0..=2, after segment 0, and a whole-segment stream cut after its first.
    for segments_kept in [3, 1] {
        let cut = &stream[..header + segments_kept * STORED];
        let case = format!("{segments_kept} segments kept");
        refuses_damaged(&fx, &case, cut, &plain, "truncated");
    }
    let whole = data(4 * SEG);
    let stream = fx.encrypt_to_key(&whole);
    let cut = &stream[..header_len(&stream, whole.len()) + 3 * STORED];
    refuses_damaged(&fx, "3 of 4 whole segments kept", cut, &whole, "truncated");
}

#[test]
fn truncation_inside_a_segment_fails() {
    let fx = Fixture::new();
    let plain = data(5 * SEG + 100);
    let stream = fx.encrypt_to_key(&plain);
    let header = header_len(&stream, plain.len());
    // Mid-segment the cut tail cannot verify as a final segment.
    let cut = &stream[..header + 2 * STORED + 1000];
    let case = "cut 1000 bytes into segment 2";
    refuses_damaged(&fx, case, cut, &plain, "segment 2 failed authentication");
    // Shorter than a tag, or one byte short of the end: still a failure.
    for len in [header + 2 * STORED + 5, stream.len() - 1] {
        let cut = &stream[..len];
        let ct = fx.file("cut", cut);
        let back = fx.out("back");
        let decrypt = ["decrypt", "--key-file", p(&fx.key)];
        for (how, out) in [
            (
                "by file",
                parcrypt(&[&decrypt[..], &["-i", p(&ct), "-o", p(&back)]].concat(), b""),
            ),
            (
                "by pipe",
                parcrypt(&[&decrypt[..], &["-o", p(&back)]].concat(), cut),
            ),
        ] {
            let err = stderr(&out);
            let case = format!("cut to {len} bytes, {how}");
            assert_eq!(out.status.code(), Some(1), "{case}: {err}");
            assert!(
                err.contains("truncated") || err.contains("failed authentication"),
                "{case}: {err}"
            );
            assert!(err.contains("hint: "), "{case}: {err}");
            assert!(!err.contains("panicked"), "{case}: {err}");
        }
        assert!(fx.out_entries().is_empty(), "cut to {len} bytes");
    }
    // Nothing but the header: no final segment at all.
    refuses_damaged(&fx, "the header alone", &stream[..header], &plain, "truncated");
}

#[test]
fn reordered_duplicated_appended_and_spliced_segments_fail() {
    let fx = Fixture::new();
    let plain = data(5 * SEG + 100);
    let stream = fx.encrypt_to_key(&plain);
    let h = header_len(&stream, plain.len());
    let seg = |i: usize| &stream[h + i * STORED..h + (i + 1) * STORED];
    // Another stream of the same plaintext to the same key.
    let other = fx.encrypt_to_key(&plain);
    let other_seg = &other[h + STORED..h + 2 * STORED];
    let cases = [
        (
            "segments 1 and 2 swapped",
            [&stream[..h + STORED], seg(2), seg(1), &stream[h + 3 * STORED..]].concat(),
            "segment 1 failed authentication",
        ),
        (
            "segment 1 twice, 2 dropped",
            [&stream[..h + 2 * STORED], seg(1), &stream[h + 3 * STORED..]].concat(),
            "segment 2 failed authentication",
        ),
        (
            "segment 1 of another stream",
            [&stream[..h + STORED], other_seg, &stream[h + 2 * STORED..]].concat(),
            "segment 1 failed authentication",
        ),
        (
            "another stream's header",
            [&other[..h], &stream[h..]].concat(),
            "segment 0 failed authentication",
        ),
    ];
    for (case, damaged, needle) in cases {
        refuses_damaged(&fx, case, &damaged, &plain, needle);
    }
    // Data after the final segment: the former final segment is now a middle one.
    for (case, appended) in [
        ("40 zero bytes appended", [&stream[..], &[0u8; 40][..]].concat()),
        ("segment 0 appended", [&stream[..], seg(0)].concat()),
    ] {
        let out = parcrypt(&["decrypt", "--key-file", p(&fx.key)], &appended);
        fails_in(case, &out, 1, "failed authentication");
    }
}

#[test]
fn a_modified_header_fails_authentication() {
    let fx = Fixture::new();
    let plain = data(2 * SEG + 1);
    let stream = fx.encrypt_to_key(&plain);
    let h = header_len(&stream, plain.len());
    // A salt byte, the last MAC byte.
    for offset in [10, 41, h - 1] {
        let mut damaged = stream.clone();
        damaged[offset] ^= 0x80;
        let case = format!("byte {offset} flipped");
        refuses_damaged(&fx, &case, &damaged, &plain, "header failed authentication");
    }
    // The segment size (2^12 → 2^13): caught by the MAC, whatever the layout then says.
    let mut damaged = stream.clone();
    damaged[9] = 13;
    let out = parcrypt(&["decrypt", "--key-file", p(&fx.key)], &damaged);
    fails(&out, 1, "header");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_failed_decrypt_with_force_keeps_the_existing_output() {
    let fx = Fixture::new();
    let plain = data(5 * SEG + 100);
    let stream = fx.encrypt_to_key(&plain);
    let h = header_len(&stream, plain.len());
    let mut flipped = stream.clone();
    flipped[h + 2 * STORED + 7] ^= 0x40;
    let existing = fx.out("existing");
    let precious = b"do not lose me\n".repeat(1000);
    std::fs::write(&existing, &precious).unwrap();
    for (damaged, needle) in [
        (&flipped[..], "segment 2 failed authentication"),
        (&stream[..h + 3 * STORED], "truncated"),
        (
            &stream[..h + 2 * STORED + 1000],
            "segment 2 failed authentication",
        ),
        (&data(500)[..], "not a parcrypt stream"),
        (&[][..], "not a parcrypt stream"),
    ] {
        let ct = fx.file("damaged", damaged);
        for threads in ["1", "4"] {
            let case = format!("{needle}, {} bytes, {threads} threads", damaged.len());
            let decrypt = [
                "--threads",
                threads,
                "decrypt",
                "--force",
                "--key-file",
                p(&fx.key),
            ];
            let by_file = parcrypt(&[&decrypt[..], &["-i", p(&ct), "-o", p(&existing)]].concat(), b"");
            fails_in(&case, &by_file, 1, needle);
            let by_pipe = parcrypt(&[&decrypt[..], &["-o", p(&existing)]].concat(), damaged);
            fails_in(&case, &by_pipe, 1, needle);
            assert!(std::fs::read(&existing).unwrap() == precious, "{case}");
            assert_eq!(fx.out_entries(), ["existing"], "{case}");
        }
    }
    // The intact stream does replace it under --force.
    let ct = fx.file("ct", &stream);
    ok_quietly(&parcrypt(
        &[
            "decrypt",
            "--force",
            "--key-file",
            p(&fx.key),
            "-i",
            p(&ct),
            "-o",
            p(&existing),
        ],
        b"",
    ));
    assert!(std::fs::read(&existing).unwrap() == plain);
    assert_eq!(fx.out_entries(), ["existing"]);
}

#[test]
fn an_existing_output_is_refused_without_force() {
    let fx = Fixture::new();
    let plain = data(SEG + 1);
    let input = fx.file("plain", &plain);
    let stream = fx.encrypt_to_key(&plain);
    let ct = fx.file("ct", &stream);
    let existing = fx.out("existing");
    let precious = b"precious".to_vec();
    std::fs::write(&existing, &precious).unwrap();
    let key = p(&fx.key);
    let to = ["-o", p(&existing)];
    let (enc, dec) = (["encrypt", "--key-file", key], ["decrypt", "--key-file", key]);
    let cases: [(&str, Vec<&str>, &[u8]); 5] = [
        (
            "encrypt a file",
            [&enc[..], &["-i", p(&input)], &to].concat(),
            b"",
        ),
        ("encrypt a pipe", [&enc[..], &to].concat(), &plain),
        ("decrypt a file", [&dec[..], &["-i", p(&ct)], &to].concat(), b""),
        ("decrypt a pipe", [&dec[..], &to].concat(), &stream),
        (
            "decrypt a range",
            [&dec[..], &["--range", "0:10", "-i", p(&ct)], &to].concat(),
            b"",
        ),
    ];
    for (case, args, stdin) in cases {
        let out = parcrypt(&args, stdin);
        fails_in(case, &out, 1, "exists");
        assert!(stderr(&out).contains("--force"), "{case}: {}", stderr(&out));
        assert!(std::fs::read(&existing).unwrap() == precious, "{case}");
        assert_eq!(fx.out_entries(), ["existing"], "{case}");
    }
    // --force replaces it, for both commands.
    ok_quietly(&parcrypt(
        &[
            "encrypt",
            "--force",
            "--key-file",
            key,
            "-i",
            p(&input),
            "-o",
            p(&existing),
        ],
        b"",
    ));
    let replaced = std::fs::read(&existing).unwrap();
    assert!(replaced.starts_with(b"PARCRYPT"));
    let back = parcrypt(&["decrypt", "--key-file", key], &replaced);
    assert!(ok_quietly(&back).stdout == plain);
    ok_quietly(&parcrypt(
        &[
            "decrypt",
            "--force",
            "--key-file",
            key,
            "-i",
            p(&ct),
            "-o",
            p(&existing),
        ],
        b"",
    ));
    assert!(std::fs::read(&existing).unwrap() == plain);
    assert_eq!(fx.out_entries(), ["existing"]);
}

// ---------------------------------------------------------------------------
// 3. Wrong identities

#[test]
fn a_wrong_key_passphrase_or_rsa_identity_is_named_as_such() {
    let fx = Fixture::new();
    let rsa = rsa();
    let plain = data(3 * SEG);
    let wrong_pass = fx.file("wrong-pass", b"Correct horse battery staple\n");
    let wrong_hex = fx.file("wrong.hex", format!("{}\n", "ab".repeat(32)).as_bytes());
    let to_key = fx.encrypt(&["--key-file", p(&fx.key)], &plain);
    let to_pass = fx.encrypt(&["--passphrase-file", p(&fx.pass)], &plain);
    let to_rsa = fx.encrypt(&["--recipient", p(&rsa.pubs[0])], &plain);
    let cases: [(&[u8], [&str; 2]); 9] = [
        (&to_key, ["--key-file", p(&fx.other_key)]),
        (&to_key, ["--key-file", p(&wrong_hex)]),
        (&to_key, ["--passphrase-file", p(&fx.pass)]),
        (&to_key, ["--identity", p(&rsa.keys[0])]),
        (&to_pass, ["--passphrase-file", p(&wrong_pass)]),
        (&to_pass, ["--key-file", p(&fx.key)]),
        (&to_rsa, ["--identity", p(&rsa.keys[1])]),
        (&to_rsa, ["--key-file", p(&fx.key)]),
        (&to_rsa, ["--passphrase-file", p(&fx.pass)]),
    ];
    let back = fx.out("back");
    for (stream, who) in cases {
        let ct = fx.file("ct", stream);
        let case = format!("{who:?}");
        let by_pipe = parcrypt(&[&["decrypt"][..], &who].concat(), stream);
        fails_with_no_output_in(&case, &by_pipe, 1, "wrong key or passphrase");
        let by_file = parcrypt(
            &[&["decrypt"][..], &who, &["-i", p(&ct), "-o", p(&back)]].concat(),
            b"",
        );
        fails_in(&case, &by_file, 1, "wrong key or passphrase");
        let by_range = parcrypt(
            &[&["decrypt"][..], &who, &["--range", "0:1", "-i", p(&ct)]].concat(),
            b"",
        );
        fails_in(&case, &by_range, 1, "wrong key or passphrase");
        assert!(fx.out_entries().is_empty(), "{who:?}");
    }
}

// ---------------------------------------------------------------------------
// 4. --range

#[test]
fn range_equals_slicing_the_plaintext() {
    let fx = Fixture::new();
    let len = 10 * SEG + 123;
    let plain = data(len);
    let ct = fx.file("ct", &fx.encrypt_to_key(&plain));
    let ranges = [
        (0, 0),
        (0, 1),
        (0, 10),
        (100, 200),      // inside one segment
        (SEG - 3, 7),    // across one boundary
        (SEG - 1, 2),    // across one boundary
        (SEG, SEG),      // exactly segment 1
        (4000, 200),     // across one boundary
        (1000, 5 * SEG), // across several
        (2 * SEG, 3 * SEG + 1),
        (len - 10, 10),  // the last bytes
        (len - 1, 1),    // the last byte
        (10 * SEG, 123), // all of the final segment
        (len, 0),        // empty, at the end
        (0, len),        // everything
    ];
    for threads in ["1", "4"] {
        for (start, n) in ranges {
            let range = format!("{start}:{n}");
            let out = parcrypt(
                &[
                    "--threads",
                    threads,
                    "decrypt",
                    "--key-file",
                    p(&fx.key),
                    "--range",
                    &range,
                    "-i",
                    p(&ct),
                ],
                b"",
            );
            assert!(
                ok_quietly(&out).stdout == plain[start..start + n],
                "--range {range}, {threads} threads"
            );
        }
    }
    // To a file, atomically.
    let back = fx.out("back");
    ok_quietly(&parcrypt(
        &[
            "decrypt",
            "--key-file",
            p(&fx.key),
            "--range",
            "5000:9000",
            "-i",
            p(&ct),
            "-o",
            p(&back),
        ],
        b"",
    ));
    assert!(std::fs::read(&back).unwrap() == plain[5000..14000]);
    assert_eq!(fx.out_entries(), ["back"]);
}

#[test]
fn range_works_for_passphrase_and_rsa_streams() {
    let fx = Fixture::new();
    let rsa = rsa();
    let plain = data(6 * SEG + 5);
    let by_pass = fx.file(
        "by-pass",
        &fx.encrypt(&["--passphrase-file", p(&fx.pass)], &plain),
    );
    let by_rsa = fx.file("by-rsa", &fx.encrypt(&["--recipient", p(&rsa.pubs[0])], &plain));
    for (ct, who) in [
        (&by_pass, ["--passphrase-file", p(&fx.pass)]),
        (&by_rsa, ["--identity", p(&rsa.keys[0])]),
    ] {
        let out = parcrypt(
            &[&["decrypt"][..], &who, &["--range", "8190:4100", "-i", p(ct)]].concat(),
            b"",
        );
        assert!(ok_quietly(&out).stdout == plain[8190..12290], "{who:?}");
    }
}

#[test]
fn range_reads_only_its_segments_and_still_authenticates_them() {
    let fx = Fixture::new();
    let plain = data(6 * SEG + 5);
    let stream = fx.encrypt_to_key(&plain);
    let h = header_len(&stream, plain.len());
    let mut damaged = stream.clone();
    damaged[h + 3 * STORED + 50] ^= 0x02; // segment 3
    let ct = fx.file("ct", &damaged);
    let range = |r: &str| {
        parcrypt(
            &[
                "decrypt",
                "--key-file",
                p(&fx.key),
                "--range",
                r,
                "-i",
                p(&ct),
                "-o",
                p(&fx.out("back")),
            ],
            b"",
        )
    };
    // Segments 0..=2 and 4..=6 are intact.
    ok_quietly(&range("0:12288"));
    assert!(std::fs::read(fx.out("back")).unwrap() == plain[..3 * SEG]);
    std::fs::remove_file(fx.out("back")).unwrap();
    ok_quietly(&range("16384:8197"));
    assert!(std::fs::read(fx.out("back")).unwrap() == plain[4 * SEG..]);
    std::fs::remove_file(fx.out("back")).unwrap();
    // Touching segment 3, by one byte or many: nothing is written.
    for r in ["12287:2", "12288:1", "16383:1", "0:24581"] {
        fails_in(r, &range(r), 1, "segment 3 failed authentication");
        assert!(fx.out_entries().is_empty(), "--range {r}");
    }
    // A stream cut at a segment boundary: its final segment is not final.
    let cut = fx.file("cut", &stream[..h + 4 * STORED]);
    let out = parcrypt(
        &[
            "decrypt",
            "--key-file",
            p(&fx.key),
            "--range",
            "16000:384",
            "-i",
            p(&cut),
        ],
        b"",
    );
    fails(&out, 1, "truncated");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_range_past_the_end_fails() {
    let fx = Fixture::new();
    let len = 3 * SEG + 10;
    let ct = fx.file("ct", &fx.encrypt_to_key(&data(len)));
    let back = fx.out("back");
    for range in [
        format!("{}:11", len - 10),
        format!("{len}:1"),
        format!("{}:0", len + 1),
        format!("0:{}", len + 1),
        format!("{}:1", 100 * SEG),
        format!("{}:0", i64::MAX),
    ] {
        let out = parcrypt(
            &[
                "decrypt",
                "--key-file",
                p(&fx.key),
                "--range",
                &range,
                "-i",
                p(&ct),
                "-o",
                p(&back),
            ],
            b"",
        );
        fails_in(&range, &out, 1, "beyond the end of the plaintext");
        assert!(fx.out_entries().is_empty(), "--range {range}");
    }
}

#[test]
fn range_needs_a_file_and_a_well_formed_start_len() {
    let fx = Fixture::new();
    let stream = fx.encrypt_to_key(&data(SEG));
    let ct = fx.file("ct", &stream);
    let key = p(&fx.key);
    // A usage error (exit 2) with a hint.
    let decrypt = ["decrypt", "--key-file", key, "--range", "0:10"];
    for (case, io) in [("stdin", &[][..]), ("-i -", &["-i", "-"])] {
        let out = parcrypt(&[&decrypt[..], io].concat(), &stream);
        fails_with_no_output_in(case, &out, 2, "--range needs a seekable input file");
    }
    for bad in [
        "",
        "x",
        "10",
        ":",
        "5:",
        ":5",
        "a:b",
        "1:2:3",
        "-1:5",
        "5:-1",
        "1.5:2",
        "0x10:4",
        "18446744073709551616:1",
    ] {
        let out = parcrypt(
            &[
                "decrypt",
                "--key-file",
                key,
                &format!("--range={bad}"),
                "-i",
                p(&ct),
            ],
            b"",
        );
        fails_with_no_output_in(&format!("--range={bad}"), &out, 2, "is not START:LEN");
    }
}

// ---------------------------------------------------------------------------
// 5. Not a stream

#[test]
fn input_that_is_not_a_stream_is_refused_without_panic() {
    let fx = Fixture::new();
    let stream = fx.encrypt_to_key(&data(100));
    let mut v2 = stream.clone();
    v2[8] = 2;
    let mut seg11 = stream.clone();
    seg11[9] = 11;
    let mut seg31 = stream.clone();
    seg31[9] = 31;
    let mut no_stanzas = stream.clone();
    no_stanzas[42] = 0;
    let mut many_stanzas = stream.clone();
    many_stanzas[42] = 200;
    let cases: [(&str, Vec<u8>, &str); 12] = [
        ("noise", noise(10_000, 1), "not a parcrypt stream"),
        ("i % 251", data(500), "not a parcrypt stream"),
        ("empty", Vec::new(), "not a parcrypt stream"),
        ("short", b"PARC".to_vec(), "not a parcrypt stream"),
        ("text", b"hello, world\n".to_vec(), "not a parcrypt stream"),
        ("magic only", b"PARCRYPT".to_vec(), "header"),
        ("cut header", stream[..60].to_vec(), "header"),
        ("version 2", v2, "version 2"),
        ("segment 2^11", seg11, "header"),
        ("segment 2^31", seg31, "header"),
        ("no stanzas", no_stanzas, "header"),
        ("200 stanzas", many_stanzas, "header"),
    ];
    let back = fx.out("back");
    for (what, bytes, needle) in cases {
        let input = fx.file("input", &bytes);
        for threads in ["1", "4"] {
            let case = format!("{what}, {threads} threads");
            let decrypt = ["--threads", threads, "decrypt", "--key-file", p(&fx.key)];
            let by_file = parcrypt(&[&decrypt[..], &["-i", p(&input), "-o", p(&back)]].concat(), b"");
            fails_in(&case, &by_file, 1, needle);
            let by_pipe = parcrypt(&decrypt, &bytes);
            fails_with_no_output_in(&case, &by_pipe, 1, needle);
            let by_range = parcrypt(
                &[
                    "decrypt",
                    "--key-file",
                    p(&fx.key),
                    "--range",
                    "0:1",
                    "-i",
                    p(&input),
                ],
                b"",
            );
            fails_in(&case, &by_range, 1, needle);
            assert!(fx.out_entries().is_empty(), "{case}");
        }
    }
    // A plaintext that merely starts with the magic is still not a stream.
    let out = parcrypt(
        &["decrypt", "--key-file", p(&fx.key)],
        &[&b"PARCRYPT\x01\x0c"[..], &noise(5000, 2)].concat(),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_tampered_scrypt_cost_is_refused_before_any_work() {
    let fx = Fixture::new();
    let stream = fx.encrypt(&["--passphrase-file", p(&fx.pass)], &data(10));
    // Stanza 0: kind at 43, body length at 44..46, log2 N at 46.
    assert_eq!(stream[43], 2);
    assert_eq!(stream[46], 10);
    for log2_n in [23, 40, 64, 255, 0] {
        let mut damaged = stream.clone();
        damaged[46] = log2_n;
        let out = parcrypt(&["decrypt", "--passphrase-file", p(&fx.pass)], &damaged);
        let case = format!("log2 N = {log2_n}");
        fails_with_no_output_in(&case, &out, 1, "malformed stream header");
    }
}

// ---------------------------------------------------------------------------
// 6. Usage

#[test]
fn recipients_and_identities_are_checked() {
    let fx = Fixture::new();
    let rsa = rsa();
    let stream = fx.encrypt_to_key(&data(10));
    let key = p(&fx.key);
    let pass = p(&fx.pass);
    let id = p(&rsa.keys[0]);
    let ct = fx.out("ct");
    let ct = p(&ct);
    let (x, stream) = (&b"x"[..], &stream[..]);
    let cases: [(&str, &[&str], &[u8], &str); 11] = [
        ("encrypt to no one", &["encrypt"], x, "required"),
        (
            "encrypt to no one, -o",
            &["encrypt", "--segment-size", SEG_ARG, "-o", ct],
            x,
            "required",
        ),
        ("decrypt as no one", &["decrypt"], stream, "required"),
        // Two identities.
        (
            "key file and RSA key",
            &["decrypt", "--key-file", key, "--identity", id],
            stream,
            "cannot be used",
        ),
        (
            "key file and passphrase",
            &["decrypt", "--key-file", key, "--passphrase-file", pass],
            stream,
            "cannot be used",
        ),
        (
            "passphrase and RSA key",
            &["decrypt", "--passphrase-file", pass, "--identity", id],
            stream,
            "cannot be used",
        ),
        (
            "two key files",
            &["decrypt", "--key-file", key, "--key-file", key],
            stream,
            "cannot be used",
        ),
        (
            "two RSA keys",
            &["decrypt", "--identity", id, "--identity", id],
            stream,
            "cannot be used",
        ),
        // scrypt cost outside 2^10..=2^22.
        (
            "work factor 9",
            &["encrypt", "--passphrase-file", pass, "--work-factor", "9"],
            x,
            "--work-factor",
        ),
        (
            "work factor 23",
            &["encrypt", "--passphrase-file", pass, "--work-factor", "23"],
            x,
            "--work-factor",
        ),
        (
            "work factor x",
            &["encrypt", "--passphrase-file", pass, "--work-factor", "x"],
            x,
            "--work-factor",
        ),
    ];
    for (case, args, stdin, needle) in cases {
        usage_in(case, &parcrypt(args, stdin), needle);
    }
    assert!(fx.out_entries().is_empty());
}

#[test]
fn a_key_file_of_the_wrong_length_fails_with_a_hint() {
    let fx = Fixture::new();
    let stream = fx.encrypt_to_key(&data(10));
    let ct = fx.file("ct", &stream);
    for (name, contents) in [
        ("empty", Vec::new()),
        ("16", vec![1u8; 16]),
        ("31", vec![7u8; 31]),
        ("33", vec![7u8; 33]),
        ("32+newline", [&[7u8; 32][..], b"\n"].concat()),
        ("63 hex", format!("{}\n", "a".repeat(63)).into_bytes()),
        ("62 hex", format!("{}\n", "ab".repeat(31)).into_bytes()),
        ("66 hex", format!("{}\n", "ab".repeat(33)).into_bytes()),
        ("not hex", format!("{}\n", "zz".repeat(32)).into_bytes()),
    ] {
        let bad = fx.file("bad.key", &contents);
        let (bad, ct_out, pt_out) = (p(&bad), fx.out("ct"), fx.out("pt"));
        for (how, out) in [
            (
                "encrypt",
                parcrypt(&["encrypt", "--key-file", bad, "-o", p(&ct_out)], b"hi"),
            ),
            (
                "decrypt a file",
                parcrypt(
                    &["decrypt", "--key-file", bad, "-i", p(&ct), "-o", p(&pt_out)],
                    b"",
                ),
            ),
            (
                "decrypt a pipe",
                parcrypt(&["decrypt", "--key-file", bad], &stream),
            ),
        ] {
            let case = format!("{name}, {how}");
            fails_with_no_output_in(&case, &out, 1, "is not a 32-byte key");
            assert!(stderr(&out).contains("bad.key"), "{case}: {}", stderr(&out));
        }
        assert!(fx.out_entries().is_empty(), "{name}");
    }
    // A missing key file is named.
    let missing = fx.dir.path().join("missing.key");
    let out = parcrypt(&["encrypt", "--key-file", p(&missing)], b"hi");
    fails(&out, 1, "missing.key");
}

#[test]
fn bad_passphrase_files_and_keys_fail_with_a_hint() {
    let fx = Fixture::new();
    let rsa = rsa();
    let stream = fx.encrypt_to_key(&data(10));
    let x = &b"x"[..];
    for contents in [&b""[..], b"\n", b"\r\n", b"\nsecret on line two\n"] {
        let pass = fx.file("empty-pass", contents);
        let pass = p(&pass);
        let case = format!("passphrase file {:?}", String::from_utf8_lossy(contents));
        for (args, stdin) in [
            (
                &["encrypt", "--passphrase-file", pass, "--work-factor", "10"][..],
                x,
            ),
            (&["decrypt", "--passphrase-file", pass], &stream),
        ] {
            fails_in(&case, &parcrypt(args, stdin), 1, "empty");
        }
    }
    let junk = fx.file(
        "junk.pem",
        b"-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----\n",
    );
    let ct = fx.out("ct");
    let cases: [(&str, &[&str], &[u8], &str); 2] = [
        (
            "a recipient that is no key",
            &["encrypt", "--recipient", p(&junk), "-o", p(&ct)],
            x,
            "junk.pem",
        ),
        // A public key is no identity.
        (
            "a public key as identity",
            &["decrypt", "--identity", p(&rsa.pubs[0])],
            &stream,
            "identity",
        ),
    ];
    for (case, args, stdin, needle) in cases {
        fails_in(case, &parcrypt(args, stdin), 1, needle);
    }
    assert!(fx.out_entries().is_empty());
}

#[test]
fn bad_segment_sizes_and_too_many_recipients_are_refused() {
    let fx = Fixture::new();
    let rsa = rsa();
    let key = p(&fx.key);
    for size in ["5000", "2KiB", "0", "2GiB", "1MB"] {
        let out = parcrypt(&["encrypt", "--key-file", key, "--segment-size", size], b"x");
        let err = stderr(&out);
        // A usage error (exit 2), like a bad --work-factor, naming the option.
        assert_eq!(out.status.code(), Some(2), "{size}: {err}");
        assert!(
            err.contains("--segment-size") && err.contains("power of two"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(out.stdout.is_empty());
    }
    usage(
        &parcrypt(&["encrypt", "--key-file", key, "--segment-size", "lots"], b"x"),
        "--segment-size",
    );
    // The header holds at most 64 stanzas.
    let public = p(&rsa.pubs[0]);
    let mut args = vec!["encrypt", "--segment-size", SEG_ARG];
    for _ in 0..64 {
        args.extend(["--recipient", public]);
    }
    let stream = ok_quietly(&parcrypt(&args, b"sixty-four")).stdout.clone();
    let out = parcrypt(&["decrypt", "--identity", p(&rsa.keys[0])], &stream);
    assert_eq!(ok_quietly(&out).stdout, b"sixty-four");
    args.extend(["--key-file", key]);
    fails(&parcrypt(&args, b"x"), 1, "64 recipients");
}

// ---------------------------------------------------------------------------
// 7. Output that goes away

/// Runs parcrypt reading `input` as a file (`-i`) or as stdin, reads the
/// first bytes of its stdout and closes the pipe, as `| head -c 10` does.
fn closed_early(args: &[&str], input: &Path, as_file: bool) -> Output {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut cmd = Command::new(crate::common::bin());
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    if as_file {
        cmd.args(["-i", p(input)]).stdin(Stdio::null());
    } else {
        cmd.stdin(std::fs::File::open(input).unwrap());
    }
    let mut child = cmd.spawn().unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here: the next writes get EPIPE.
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_is_not_an_error() {
    let fx = Fixture::new();
    // Many batches (threads × 4 segments each), so the pipe closes mid-stream.
    let plain = noise(3 << 20, 3);
    let input = fx.file("plain", &plain);
    let ct = fx.file("ct", &fx.encrypt_to_key(&plain));
    let key = p(&fx.key);
    let encrypt = ["encrypt", "--key-file", key, "--segment-size", SEG_ARG];
    let decrypt = ["decrypt", "--key-file", key];
    for threads in ["1", "4"] {
        for (cmd, input) in [(&encrypt[..], &input), (&decrypt[..], &ct)] {
            let args = [&["--threads", threads][..], cmd].concat();
            for as_file in [true, false] {
                let out = closed_early(&args, input, as_file);
                let err = stderr(&out);
                assert!(
                    out.status.success() && err.is_empty(),
                    "{args:?}, -i file: {as_file}: {:?}\n{err}",
                    out.status
                );
            }
        }
    }
}

#[test]
fn a_full_disk_is_named_not_hidden() {
    if !crate::common::require_tool("/dev/full") {
        return;
    }
    let full = Path::new("/dev/full");
    let fx = Fixture::new();
    let plain = data(300 << 10);
    let input = fx.file("plain", &plain);
    let ct = fx.file("ct", &fx.encrypt_to_key(&plain));
    let key = p(&fx.key);
    for threads in ["1", "4"] {
        for (cmd, input) in [("encrypt", &input), ("decrypt", &ct)] {
            let case = format!("{cmd}, {threads} threads");
            let args = ["--threads", threads, cmd, "--key-file", key, "-o", p(full)];
            let by_file = parcrypt(&[&args[..], &["-i", p(input)]].concat(), b"");
            fails_in(&case, &by_file, 1, "No space left on device");
            let by_pipe = parcrypt(&args, &std::fs::read(input).unwrap());
            fails_in(&case, &by_pipe, 1, "No space left on device");
        }
    }
}
