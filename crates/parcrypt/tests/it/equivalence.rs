//! Sequential == parallel, always: every strategy × threads 1..8 gives the
//! sequential reference's bytes at the lengths where cutting goes wrong.

#![allow(clippy::unwrap_used)]

use std::io::Read;

use crate::common::{data, emulated, every_parallelism, openssl_enc, require_tool};
use parcrypt::aes::{BLOCK, Cbc, Crypter, Ctr, CtrKernel, Error, GRAIN};
use parcrypt::hazmat::{self, Ecb};
use parcrypt::par::{Parallelism, Strategy};
use proptest::prelude::*;

/// 0, 1, block ± 1, and ± 1 around one and two minimum parts and tasks, and
/// a few MiB (where every strategy really runs in parallel).
fn boundary_lengths() -> Vec<usize> {
    let mut v = vec![0, 1, 15, 16, 17, 31, 33];
    for n in [
        GRAIN.min_part,
        2 * GRAIN.min_part,
        GRAIN.task,
        2 * GRAIN.task + 17,
        3 * GRAIN.task,
    ] {
        v.extend([n - 1, n, n + 1]);
    }
    v.push((3 << 20) + 5);
    v.sort_unstable();
    v.dedup();
    v
}

const KEYS: [&[u8]; 3] = [&[0x11; 16], &[0x22; 24], &[0x33; 32]];

/// The [`boundary_lengths`] to sweep with `key`: all of them, except under
/// emulation ([`emulated`]) with the 192- and 256-bit keys, which sweep
/// the lengths below one part only. The key size changes the backend's
/// rounds, not where parts are cut: the AES-128 key covers every cut, the
/// other keys every short length, and the vectors every key size (as
/// `ctr_equals_the_backends_ctr_across_the_low_word_wrap` does). Two thirds
/// of the sweeps' emulated time (100–170 s each under qemu, on a busy machine).
fn lengths_for(key: &[u8]) -> Vec<usize> {
    let all = boundary_lengths();
    if emulated() && key.len() != 16 {
        return all.into_iter().filter(|&n| n < GRAIN.min_part).collect();
    }
    all
}

#[test]
fn ctr_matches_sequential() {
    for key in KEYS {
        let ctr = Ctr::new(key).unwrap();
        for len in lengths_for(key) {
            let mut reference = data(len);
            ctr.apply_keystream_in_place(&[9; 16], &mut reference, &Parallelism::sequential());
            for par in every_parallelism() {
                let mut got = data(len);
                ctr.apply_keystream_in_place(&[9; 16], &mut got, &par);
                assert!(got == reference, "CTR len {len} key {} {par:?}", key.len());
            }
        }
    }
}

#[test]
fn cbc_decrypt_matches_sequential_and_round_trips() {
    let iv = [5u8; 16];
    for key in KEYS {
        let cbc = Cbc::new(key).unwrap();
        for len in lengths_for(key) {
            let plaintext = data(len);
            let ciphertext = cbc.encrypt(&iv, &plaintext);
            assert_eq!(ciphertext.len(), (len / 16 + 1) * 16);
            for par in every_parallelism() {
                let got = cbc.decrypt(&iv, &ciphertext, &par).unwrap();
                assert!(
                    got.expose() == plaintext,
                    "CBC len {len} key {} {par:?}",
                    key.len()
                );
            }
        }
    }
}

#[test]
fn ecb_matches_sequential_both_ways() {
    for key in KEYS {
        let ecb = Ecb::new(key).unwrap();
        for len in lengths_for(key).into_iter().map(|n| n / BLOCK * BLOCK) {
            let mut reference = data(len);
            ecb.encrypt_blocks_in_place(&mut reference, &Parallelism::sequential())
                .unwrap();
            for par in every_parallelism() {
                let mut got = data(len);
                ecb.encrypt_blocks_in_place(&mut got, &par).unwrap();
                assert!(got == reference, "ECB enc len {len} {par:?}");
                ecb.decrypt_blocks_in_place(&mut got, &par).unwrap();
                assert!(got == data(len), "ECB dec len {len} {par:?}");
            }
        }
    }
}

/// `Ctr` (whose parts of 16 KiB and more run through AWS-LC's stitched GCM
/// code, cut where the counter's low 32 bits wrap) equals AWS-LC's own CTR
/// over the whole input in one call, in place and into another buffer,
/// under every schedule: at the stitched path's threshold, across parallel
/// parts, and with the low word wrapping at the first block, inside a
/// piece, on a part boundary and never. Under emulation the 3 MiB input
/// (parts of every thread count) runs with the AES-128 key only: the key
/// size changes the backend's rounds, not where parts are cut.
#[test]
fn ctr_equals_the_backends_ctr_across_the_low_word_wrap() {
    use aws_lc_rs::cipher::{AES_128, AES_192, AES_256, EncryptingKey, EncryptionContext, UnboundCipherKey};
    let stitched = 16 << 10;
    let lengths = [
        stitched - 1,
        stitched,
        stitched + 1,
        (64 << 10) + 7,
        GRAIN.min_part + 16,
        (3 << 20) + 5,
    ];
    let high = [0x5au8; 12];
    let low_words = [
        0u32,
        u32::MAX,
        u32::MAX - 3,
        u32::MAX - 1023,
        u32::MAX - (GRAIN.min_part / BLOCK) as u32 + 1,
        0x1234_5678,
    ];
    // Both kernels, whichever this CPU picks (`Ctr::new`).
    for (key, alg, kernel) in KEYS
        .iter()
        .zip([&AES_128, &AES_192, &AES_256])
        .flat_map(|(k, a)| [CtrKernel::Ctr, CtrKernel::Gcm].map(|kernel| (k, a, kernel)))
    {
        let ctr = Ctr::with_kernel(key, kernel).unwrap();
        let backend = EncryptingKey::ctr(UnboundCipherKey::new(alg, key).unwrap()).unwrap();
        for low in low_words {
            let mut counter = [0u8; 16];
            counter[..12].copy_from_slice(&high);
            counter[12..].copy_from_slice(&low.to_be_bytes());
            for len in lengths {
                if emulated() && len > 1 << 20 && key.len() != 16 {
                    continue;
                }
                let input = data(len);
                let mut want = input.clone();
                backend
                    .less_safe_encrypt(&mut want, EncryptionContext::Iv128(counter.into()))
                    .unwrap();
                for par in every_parallelism() {
                    let mut got = input.clone();
                    ctr.apply_keystream_in_place(&counter, &mut got, &par);
                    assert!(
                        got == want,
                        "in place: key {} {kernel:?} low {low:#x} len {len} {par:?}",
                        key.len()
                    );
                    let mut out = vec![0u8; len];
                    ctr.apply_keystream_into(&counter, &input, &mut out, &par);
                    assert!(
                        out == want,
                        "into: key {} {kernel:?} low {low:#x} len {len} {par:?}",
                        key.len()
                    );
                }
            }
        }
    }
}

/// A counter that wraps past 2¹²⁸ − 1 inside the input, with the input cut
/// so the wrap falls inside a part and on a part boundary.
#[test]
fn ctr_counter_wraps_modulo_2_128() {
    let ctr = Ctr::new(&[0x44; 16]).unwrap();
    let len = 4 * GRAIN.task + 100;
    for blocks_before_wrap in [
        3u128,
        (GRAIN.task / BLOCK) as u128,
        (2 * GRAIN.task / BLOCK) as u128 - 1,
    ] {
        let counter = (u128::MAX - blocks_before_wrap + 1).to_be_bytes();
        let mut reference = data(len);
        ctr.apply_keystream_in_place(&counter, &mut reference, &Parallelism::sequential());
        // Independent check of the wrap: the block at the wrap point uses counter 0.
        let mut zero_block = vec![0u8; 16];
        ctr.apply_keystream_in_place(&[0; 16], &mut zero_block, &Parallelism::sequential());
        let at = blocks_before_wrap as usize * BLOCK;
        let expect: Vec<u8> = data(len)[at..at + 16]
            .iter()
            .zip(&zero_block)
            .map(|(d, k)| d ^ k)
            .collect();
        assert_eq!(&reference[at..at + 16], &expect[..]);
        for par in every_parallelism() {
            let mut got = data(len);
            ctr.apply_keystream_in_place(&counter, &mut got, &par);
            assert!(
                got == reference,
                "wrap after {blocks_before_wrap} blocks, {par:?}"
            );
        }
        if require_tool("openssl") {
            let iv = hex::encode(counter);
            let key = hex::encode([0x44u8; 16]);
            let theirs = openssl_enc(&["-aes-128-ctr", "-K", &key, "-iv", &iv], &data(len));
            assert!(theirs == reference, "openssl disagrees at the 128-bit wrap");
        }
    }
}

/// A reader that returns 1..=7 bytes per call.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.step = self.step % 7 + 1;
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

type MakeCrypter = Box<dyn Fn() -> Crypter>;

fn all_crypters(encrypt: bool) -> Vec<(&'static str, MakeCrypter)> {
    let (k, iv) = ([0x55u8; 32], [0x66u8; 16]);
    vec![
        ("ctr", Box::new(move || Crypter::ctr(&k, &iv).unwrap())),
        (
            "cbc",
            Box::new(move || {
                if encrypt {
                    Crypter::cbc_encrypt(&k, &iv)
                } else {
                    Crypter::cbc_decrypt(&k, &iv)
                }
                .unwrap()
            }),
        ),
        (
            "ecb",
            Box::new(move || {
                if encrypt {
                    hazmat::ecb_encrypter(&k)
                } else {
                    hazmat::ecb_decrypter(&k)
                }
                .unwrap()
            }),
        ),
    ]
}

#[test]
fn streaming_matches_one_shot_for_any_buffer_and_read_size() {
    let par = Parallelism::new(3, Strategy::WorkStealing);
    for len in [0, 1, 15, 16, 17, 100, 1000] {
        let input = data(len);
        for (name, make) in all_crypters(true) {
            let mut c = make();
            let mut reference = c.update(&input, &Parallelism::sequential());
            reference.extend(c.finish().unwrap());
            for buffer in [32, 48, 1 << 20] {
                let mut got = Vec::new();
                make()
                    .process_with(
                        Trickle {
                            data: &input,
                            step: 0,
                        },
                        &mut got,
                        buffer,
                        &par,
                        |_| {},
                    )
                    .unwrap();
                assert_eq!(got, reference, "{name} len {len} buffer {buffer}");
            }
            // And back.
            let decrypt = all_crypters(false)
                .into_iter()
                .find(|(n, _)| *n == name)
                .unwrap()
                .1;
            let mut back = Vec::new();
            decrypt()
                .process_with(&reference[..], &mut back, 48, &par, |_| {})
                .unwrap();
            assert_eq!(back, input, "{name} len {len} round trip");
        }
    }
}

#[test]
fn streaming_a_large_input_through_the_pipeline() {
    // Longer than three buffers, so the reader/writer threads and buffer
    // recycling all run; odd length so a tail is carried between buffers.
    let input = data((5 << 20) + 13);
    let par = Parallelism::new(2, Strategy::Static);
    for (name, make) in all_crypters(true) {
        let mut c = make();
        let mut one_shot = c.update(&input, &Parallelism::sequential());
        one_shot.extend(c.finish().unwrap());
        let mut piped = Vec::new();
        let n = make()
            .process_with(&input[..], &mut piped, (1 << 20) + 16, &par, |_| {})
            .unwrap();
        assert_eq!(n as usize, piped.len());
        assert!(piped == one_shot, "{name}");
    }
}

#[test]
fn errors_are_the_documented_ones() {
    for len in [0usize, 15, 17, 33] {
        assert!(matches!(Ctr::new(&vec![0; len]), Err(Error::KeyLength(n)) if n == len));
        assert!(matches!(Cbc::new(&vec![0; len]), Err(Error::KeyLength(_))));
        assert!(matches!(Ecb::new(&vec![0; len]), Err(Error::KeyLength(_))));
    }
    assert!(matches!(
        Crypter::ctr(&[0; 16], &[0; 15]),
        Err(Error::IvLength(15))
    ));
    assert!(matches!(
        Crypter::cbc_decrypt(&[0; 16], &[0; 17]),
        Err(Error::IvLength(17))
    ));
    let cbc = Cbc::new(&[0; 16]).unwrap();
    let par = Parallelism::default();
    assert!(matches!(
        cbc.decrypt(&[0; 16], &[0; 17], &par),
        Err(Error::NotBlockAligned)
    ));
    assert!(matches!(cbc.decrypt(&[0; 16], &[], &par), Err(Error::Decrypt)));
    // Bad padding, found whatever the schedule.
    let mut ct = cbc.encrypt(&[0; 16], &data(5000));
    let last = ct.len() - 1;
    ct[last] ^= 1;
    for p in every_parallelism() {
        assert!(matches!(cbc.decrypt(&[0; 16], &ct, &p), Err(Error::Decrypt)));
    }
    let mut out = Vec::new();
    let streamed = Crypter::cbc_decrypt(&[0; 16], &[0; 16])
        .unwrap()
        .process(&ct[..], &mut out, &par);
    assert!(matches!(streamed, Err(Error::Decrypt)));
    let mut out = Vec::new();
    let unaligned = hazmat::cbc_encrypter_no_padding(&[0; 16], &[0; 16])
        .unwrap()
        .process(&[0u8; 20][..], &mut out, &par);
    assert!(matches!(unaligned, Err(Error::NotBlockAligned)));
}

/// Cases of the schedule property below: 24, or `PARCRYPT_SCHEDULE_CASES`.
/// `scripts/test-aarch64.sh` sets 6 under qemu, where each case (up to 5 MiB
/// through CTR and CBC on every schedule, AES emulated instruction by
/// instruction) takes about 30 s; the native passes run all 24.
fn schedule_cases() -> u32 {
    std::env::var("PARCRYPT_SCHEDULE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: schedule_cases(), ..ProptestConfig::default() })]

    #[test]
    fn any_length_any_schedule(
        len in 0usize..(5 << 20),
        key_len in prop::sample::select(vec![16usize, 24, 32]),
        threads in 1usize..=8,
        strategy in prop::sample::select(Strategy::ALL.to_vec()),
        counter in any::<u128>(),
    ) {
        let key = vec![0x77u8; key_len];
        let par = Parallelism::new(threads, strategy);
        let ctr = Ctr::new(&key).unwrap();
        let mut reference = data(len);
        ctr.apply_keystream_in_place(&counter.to_be_bytes(), &mut reference, &Parallelism::sequential());
        let mut got = data(len);
        ctr.apply_keystream_in_place(&counter.to_be_bytes(), &mut got, &par);
        prop_assert!(got == reference);

        let iv = counter.to_be_bytes();
        let cbc = Cbc::new(&key).unwrap();
        let ct = cbc.encrypt(&iv, &data(len));
        prop_assert!(cbc.decrypt(&iv, &ct, &par).unwrap().expose() == data(len));
    }
}

#[test]
fn process_after_update_continues_the_stream() {
    let input = data(100_003);
    let par = Parallelism::default();
    for (name, make) in all_crypters(true) {
        let mut c = make();
        let mut reference = c.update(&input, &par);
        reference.extend(c.finish().unwrap());
        for split in [0, 1, 7, 16, 33, 50_000] {
            let mut c = make();
            let mut got = c.update(&input[..split], &par);
            let mut rest = Vec::new();
            c.process_with(&input[split..], &mut rest, 4096, &par, |_| {})
                .unwrap();
            got.extend(rest);
            assert!(got == reference, "{name} split at {split}");
        }
    }
}

/// A temporary regular file holding `bytes` (its cursor left at the end:
/// the file paths read from the start whatever the cursor).
fn file_with(bytes: &[u8]) -> std::fs::File {
    use std::io::Write;
    let mut f = tempfile::tempfile().unwrap();
    f.write_all(bytes).unwrap();
    f
}

#[test]
fn files_read_positionally_equal_the_reader_path() {
    // Buffers of 4 KiB + 16: lengths around one buffer (read positionally,
    // no map) and over several (mapped windows) with ragged tails, in both
    // directions, after input given to `update`, on every parallelism.
    let buffer = 4096 + 16;
    for len in [0, 1, buffer - 1, buffer, buffer + 1, 3 * buffer + 7, 5 * buffer] {
        for encrypt in [true, false] {
            for (name, make) in all_crypters(encrypt) {
                let input = if encrypt {
                    data(len)
                } else {
                    let enc = all_crypters(true)
                        .into_iter()
                        .find(|(n, _)| *n == name)
                        .unwrap()
                        .1;
                    let mut ct = Vec::new();
                    enc()
                        .process(&data(len)[..], &mut ct, &Parallelism::sequential())
                        .unwrap();
                    ct
                };
                let mut reference = Vec::new();
                make()
                    .process_with(
                        &input[..],
                        &mut reference,
                        buffer,
                        &Parallelism::sequential(),
                        |_| {},
                    )
                    .unwrap();
                for split in [0, 5, 16] {
                    let split = split.min(input.len());
                    let file = file_with(&input[split..]);
                    for par in every_parallelism() {
                        // Progress as the reader path reports it (held-back
                        // input from `update` included).
                        let mut c = make();
                        c.update(&input[..split], &par);
                        let mut want_read = 0;
                        c.process_with(&input[split..], Vec::new(), buffer, &par, |r| want_read += r)
                            .unwrap();
                        let mut c = make();
                        let mut got = c.update(&input[..split], &par);
                        let mut read = 0;
                        let mut rest = Vec::new();
                        let n = c
                            .process_file_with(&file, &mut rest, buffer, &par, |r| read += r)
                            .unwrap();
                        assert_eq!(n as usize, rest.len());
                        assert_eq!(read, want_read, "{name} progress");
                        got.extend(rest);
                        assert!(
                            got == reference,
                            "{name} len {len} encrypt {encrypt} split {split} {par:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_file_with_bad_padding_fails_through_the_map_too() {
    let cbc = Cbc::new(&[0; 16]).unwrap();
    let mut ct = cbc.encrypt(&[0; 16], &data(50_000));
    let last = ct.len() - 1;
    ct[last] ^= 1;
    let file = file_with(&ct);
    let mut out = Vec::new();
    let got = Crypter::cbc_decrypt(&[0; 16], &[0; 16])
        .unwrap()
        .process_file_with(&file, &mut out, 4096, &Parallelism::default(), |_| {});
    assert!(matches!(got, Err(Error::Decrypt)));
}

#[test]
fn large_files_read_in_parts_by_every_thread_equal_the_reader_path() {
    // Buffers of 4 MiB + 16, so the parallel parts (1 MiB and up) read and
    // transform at offsets past the tail carried from the buffer before.
    let input = data((9 << 20) + 13);
    let buffer = (4 << 20) + 16;
    for (name, make) in all_crypters(true) {
        let mut reference = Vec::new();
        make()
            .process_with(
                &input[..],
                &mut reference,
                buffer,
                &Parallelism::sequential(),
                |_| {},
            )
            .unwrap();
        let file = file_with(&input[5..]);
        for par in every_parallelism() {
            let mut c = make();
            let mut got = c.update(&input[..5], &par);
            c.process_file_with(&file, &mut got, buffer, &par, |_| {})
                .unwrap();
            assert!(got == reference, "{name} {par:?}");
        }
    }
}

/// `process_file_from_with` skips a header (`openssl enc`'s 16-byte
/// `Salted__` and salt): the rest of the file, read by every thread, gives
/// the reader path's bytes of the message alone, below one buffer and
/// across several (parallel parts at offsets past the header).
#[test]
fn a_file_read_from_an_offset_equals_the_message_alone() {
    let header = b"Salted__\x01\x02\x03\x04\x05\x06\x07\x08";
    let buffer = (4 << 20) + 16;
    for len in [0, 1, 17, 1000, (9 << 20) + 13] {
        let message = data(len);
        let file = file_with(&[&header[..], &message].concat());
        for (name, make) in all_crypters(true) {
            let mut reference = Vec::new();
            make()
                .process_with(
                    &message[..],
                    &mut reference,
                    buffer,
                    &Parallelism::sequential(),
                    |_| {},
                )
                .unwrap();
            // The large file under a cross-section of schedules (the file
            // paths' schedules are covered in full above).
            let schedules = if len > buffer {
                vec![
                    Parallelism::sequential(),
                    Parallelism::new(3, Strategy::Static),
                    Parallelism::new(2, Strategy::WorkStealing),
                ]
            } else {
                every_parallelism()
            };
            for par in schedules {
                let mut got = Vec::new();
                let mut read = 0;
                make()
                    .process_file_from_with(&file, 16, &mut got, buffer, &par, |r| read += r)
                    .unwrap();
                assert!(got == reference, "{name} len {len} {par:?}");
                assert_eq!(read, len as u64, "{name} progress");
            }
        }
    }
}
