//! age files exchanged both ways with independent implementations:
//! filippo.io/age v1.3.2 (the reference, through the small Go program in
//! `tests/tools/age-go`, built here: every recipient type, post-quantum
//! included) and the `age` CLI on the machine (Debian's 1.1.1: X25519 and
//! SSH keys). Armored and binary, at chunk boundaries and over several MiB;
//! keys made by either side. Tools missing: the tests skip, or fail under
//! `PARCRYPT_REQUIRE_TOOLS=1` (`.ci/run`).

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use parcrypt::age::{self, DecryptOptions, Identity, KeyKind, Options, Recipient};
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::secret::SecretBytes;

use super::common::{data, emulated, require_tool};
use super::tools::require;

const CHUNK: usize = 64 << 10;
const SIZES: [usize; 7] = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, (5 << 20) + 3];
const TOOLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools");

/// The Go helper, built once per test run (`None` without Go).
fn age_go() -> Option<&'static Path> {
    static BUILT: OnceLock<Option<(tempfile::TempDir, PathBuf)>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let present = Command::new("go")
                .arg("version")
                .output()
                .is_ok_and(|o| o.status.success());
            if !present {
                return None;
            }
            let dir = tempfile::tempdir().unwrap();
            let bin = dir.path().join("age-go");
            let out = Command::new("go")
                .args(["build", "-o"])
                .arg(&bin)
                .arg(".")
                .current_dir(Path::new(TOOLS).join("age-go"))
                .env("GOTOOLCHAIN", "local")
                .env("GOFLAGS", "-mod=readonly")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "go build: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some((dir, bin))
        })
        .as_ref()
        .map(|(_, bin)| bin.as_path())
}

fn go_present() -> Option<&'static Path> {
    let present = Command::new("go")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !require("go", present) {
        return None;
    }
    age_go()
}

/// Runs `program args` with `input` on stdin; its stdout, after checking it succeeded.
fn run(program: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join().unwrap();
    assert!(
        out.status.success(),
        "{} {args:?}: {}",
        program.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn par() -> Parallelism {
    Parallelism::new(4, Strategy::WorkStealing)
}

fn ours_encrypt(recipients: &[Recipient], plain: &[u8], armor: bool) -> Vec<u8> {
    let mut out = Vec::new();
    age::encrypt_stream(recipients, plain, &mut out, &Options { armor }, &par(), |_| {}).unwrap();
    out
}

fn ours_decrypt(identities: &[Identity], file: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    age::decrypt_stream(
        identities,
        file,
        &mut out,
        &DecryptOptions::default(),
        &par(),
        |_| {},
    )
    .unwrap();
    out
}

/// An identity file of ours, written where the other side can read it.
fn identity_file(dir: &Path, name: &str, id: &Identity) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        id.keygen_file("2026-11-27T06:31:00Z").unwrap().expose_bytes(),
    )
    .unwrap();
    path
}

#[test]
fn filippo_io_age_reads_what_we_write_and_we_read_what_it_writes() {
    let Some(go) = go_present() else { return };
    let dir = tempfile::tempdir().unwrap();
    for kind in [KeyKind::X25519, KeyKind::Hybrid] {
        // Our key, their key: each side encrypts to both.
        let ours = Identity::generate(kind);
        let ours_path = identity_file(dir.path(), "ours.txt", &ours);
        let keygen: &[&str] = if kind == KeyKind::Hybrid {
            &["keygen", "-pq"]
        } else {
            &["keygen"]
        };
        let theirs_text = run(go, keygen, b"");
        let theirs = age::parse_identities(&theirs_text).unwrap();
        assert_eq!(theirs.len(), 1);
        let theirs_path = dir.path().join("theirs.txt");
        std::fs::write(&theirs_path, &theirs_text).unwrap();
        let recipients = [ours.to_recipient().unwrap(), theirs[0].to_recipient().unwrap()];
        let r_args: Vec<String> = recipients
            .iter()
            .flat_map(|r| ["-r".to_owned(), r.to_string()])
            .collect();
        for armor in [false, true] {
            for len in SIZES {
                let plain = data(len);
                let what = format!("{kind:?}, armor {armor}, {len} bytes");
                // Ours → filippo.io/age, with either key.
                let file = ours_encrypt(&recipients, &plain, armor);
                for path in [&ours_path, &theirs_path] {
                    let got = run(go, &["decrypt", "-i", path.to_str().unwrap()], &file);
                    assert!(got == plain, "ours → Go: {what}");
                }
                // filippo.io/age → ours, with either key.
                let mut args: Vec<&str> = vec!["encrypt"];
                if armor {
                    args.push("-a");
                }
                args.extend(r_args.iter().map(String::as_str));
                let file = run(go, &args, &plain);
                assert!(age::detect(&file).is_some());
                for id in [&ours, &theirs[0]] {
                    assert!(
                        ours_decrypt(std::slice::from_ref(id), &file) == plain,
                        "Go → ours: {what}"
                    );
                }
            }
        }
    }
}

#[test]
fn passphrases_both_ways_with_filippo_io_age() {
    let Some(go) = go_present() else { return };
    let plain = data(2 * CHUNK + 17);
    let pass = age::Passphrase::with_work_factor(SecretBytes::from(&b"hunter2 hunter2"[..]), 10).unwrap();
    for armor in [false, true] {
        let file = ours_encrypt(&[Recipient::Passphrase(pass.clone())], &plain, armor);
        assert!(run(go, &["decrypt", "-p", "hunter2 hunter2"], &file) == plain);
        let mut args = vec!["encrypt", "-p", "hunter2 hunter2", "-w", "10"];
        if armor {
            args.push("-a");
        }
        let file = run(go, &args, &plain);
        let id = Identity::Passphrase(SecretBytes::from(&b"hunter2 hunter2"[..]));
        assert!(ours_decrypt(&[id], &file) == plain);
    }
}

#[test]
fn the_age_cli_reads_what_we_write_and_we_read_what_it_writes() {
    if !require_tool("age") {
        return;
    }
    let age_cli = Path::new("age");
    let dir = tempfile::tempdir().unwrap();
    // age-keygen's key file is ours to read; ours is the CLI's.
    let keygen = Command::new("age-keygen").output().unwrap();
    assert!(keygen.status.success());
    let theirs = age::parse_identities(&keygen.stdout).unwrap();
    let theirs_path = dir.path().join("theirs.txt");
    std::fs::write(&theirs_path, &keygen.stdout).unwrap();
    let ours = Identity::generate(KeyKind::X25519);
    let ours_path = identity_file(dir.path(), "ours.txt", &ours);
    let recipients = [ours.to_recipient().unwrap(), theirs[0].to_recipient().unwrap()];
    for armor in [false, true] {
        for len in SIZES {
            let plain = data(len);
            let file = ours_encrypt(&recipients, &plain, armor);
            for path in [&ours_path, &theirs_path] {
                let got = run(age_cli, &["-d", "-i", path.to_str().unwrap()], &file);
                assert!(got == plain, "ours → age: armor {armor}, {len} bytes");
            }
            let mut args = vec!["-e".to_owned()];
            if armor {
                args.push("-a".into());
            }
            for r in &recipients {
                args.extend(["-r".to_owned(), r.to_string()]);
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let file = run(age_cli, &args, &plain);
            for id in [&ours, &theirs[0]] {
                assert!(
                    ours_decrypt(std::slice::from_ref(id), &file) == plain,
                    "age → ours: armor {armor}, {len} bytes"
                );
            }
        }
    }
}

/// An SSH key pair made by `ssh-keygen` (no passphrase): the private key
/// file and the authorized_keys line.
fn ssh_keygen(dir: &Path, kind: &[&str], name: &str) -> (PathBuf, String) {
    let path = dir.join(name);
    let out = Command::new("ssh-keygen")
        .args(kind)
        .args(["-N", "", "-q", "-C", "test@parcrypt", "-f"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ssh-keygen: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let public = std::fs::read_to_string(path.with_extension("pub")).unwrap();
    (path, public.trim().to_owned())
}

fn ssh_keygen_present() -> bool {
    let present = Command::new("ssh-keygen").arg("-?").output().is_ok();
    require("ssh-keygen", present)
}

#[test]
fn ssh_keys_both_ways_with_the_age_cli_and_filippo_io_age() {
    if !ssh_keygen_present() || !require_tool("age") {
        return;
    }
    let go = go_present();
    let dir = tempfile::tempdir().unwrap();
    let keys = [
        ssh_keygen(dir.path(), &["-t", "ed25519"], "ed"),
        ssh_keygen(dir.path(), &["-t", "rsa", "-b", "2048"], "rsa"),
        ssh_keygen(dir.path(), &["-t", "rsa", "-b", "3072", "-m", "PEM"], "rsa-pem"),
    ];
    for (k, (path, public)) in keys.iter().enumerate() {
        let recipient = Recipient::parse(public).unwrap();
        assert!(public.starts_with(&recipient.to_string()), "{public}");
        let identity = age::read_identities(path).unwrap();
        assert_eq!(identity.len(), 1);
        assert_eq!(
            identity[0].to_recipient().unwrap().to_string(),
            recipient.to_string()
        );
        let pairs = [false, true]
            .into_iter()
            .flat_map(|armor| [0, CHUNK + 1, 3 * CHUNK].map(|len| (armor, len)));
        for (j, (armor, len)) in pairs.enumerate() {
            // Under qemu (`common::emulated`: the RSA private operations
            // are emulated) each key takes half of the armor × length
            // pairs, in turns; every pair still meets an RSA key.
            if emulated() && (j + k) % 2 != 0 {
                continue;
            }
            let plain = data(len);
            let what = format!("{public:.20}, armor {armor}, {len} bytes");
            let file = ours_encrypt(std::slice::from_ref(&recipient), &plain, armor);
            let got = run(Path::new("age"), &["-d", "-i", path.to_str().unwrap()], &file);
            assert!(got == plain, "ours → age: {what}");
            if let Some(go) = go {
                let got = run(go, &["decrypt", "-i", path.to_str().unwrap()], &file);
                assert!(got == plain, "ours → Go: {what}");
            }
            let mut args = vec!["-e", "-r", public.as_str()];
            if armor {
                args.push("-a");
            }
            let file = run(Path::new("age"), &args, &plain);
            assert!(ours_decrypt(&identity, &file) == plain, "age → ours: {what}");
            if let Some(go) = go {
                let mut args = vec!["encrypt", "-r", public.as_str()];
                if armor {
                    args.push("-a");
                }
                let file = run(go, &args, &plain);
                assert!(ours_decrypt(&identity, &file) == plain, "Go → ours: {what}");
            }
        }
    }
    // A file for the Ed25519 key does not open with the RSA one.
    let file = ours_encrypt(&[Recipient::parse(&keys[0].1).unwrap()], b"x", false);
    let mut out = Vec::new();
    let err = age::decrypt_stream(
        &age::read_identities(&keys[1].0).unwrap(),
        &file[..],
        &mut out,
        &DecryptOptions::default(),
        &par(),
        |_| {},
    )
    .unwrap_err();
    assert_eq!(err.outcome(), age::Outcome::NoMatch, "{err}");
    // A recipients file with a key type age skips (ECDSA), as age skips it.
    let (_, ecdsa) = ssh_keygen(dir.path(), &["-t", "ecdsa"], "ec");
    let text = format!("# keys\n{}\n{ecdsa}\n{}\n", keys[0].1, keys[1].1);
    let parsed = age::parse_recipients(text.as_bytes()).unwrap();
    assert_eq!(parsed.recipients.len(), 2);
    assert_eq!(parsed.ignored.len(), 1, "{:?}", parsed.ignored);
    assert!(
        parsed.ignored[0].contains("ecdsa-sha2-nistp256"),
        "{:?}",
        parsed.ignored
    );
    // Passphrase-protected keys (ssh-keygen -N: bcrypt_pbkdf, aes256-ctr or
    // -Z aes256-cbc, the two age reads):
    // the public key is read without the passphrase, which is asked for
    // once, and only for a file that names the key.
    let kinds = [
        &["-t", "ed25519"][..],
        &["-t", "rsa", "-b", "2048"][..],
        &["-t", "ed25519", "-Z", "aes256-cbc"][..],
    ];
    for (i, kind) in kinds.into_iter().enumerate() {
        let protected = dir.path().join(format!("protected-{i}"));
        let out = Command::new("ssh-keygen")
            .args(kind)
            .args(["-N", "secret words", "-q", "-C", "", "-f"])
            .arg(&protected)
            .output()
            .unwrap();
        assert!(out.status.success());
        let public = std::fs::read_to_string(protected.with_extension("pub")).unwrap();
        let ids = age::read_identities(&protected).unwrap();
        let Identity::EncryptedSsh(key) = &ids[0] else {
            panic!("{:?}", ids[0])
        };
        assert_eq!(key.to_recipient().to_string(), public.trim());
        let plain = data(CHUNK + 3);
        let file = ours_encrypt(&[Recipient::parse(public.trim()).unwrap()], &plain, false);
        // No way to ask: a clear error.
        let err = age::decrypt(&ids, &file, &DecryptOptions::default(), &par())
            .map(|_| "decrypted")
            .unwrap_err()
            .to_string();
        assert!(err.contains("passphrase-protected"), "{err}");
        let asked = Arc::new(AtomicUsize::new(0));
        let with = |pass: &'static str| {
            let asked = asked.clone();
            Identity::EncryptedSsh(key.clone().with_passphrase(Arc::new(move || {
                asked.fetch_add(1, Ordering::SeqCst);
                Some(SecretBytes::from(pass.as_bytes()))
            })))
        };
        assert!(ours_decrypt(&[with("secret words")], &file) == plain);
        assert_eq!(asked.load(Ordering::SeqCst), 1);
        // Also filippo.io/age's file for the key.
        if let Some(go) = go_present() {
            let theirs = run(go, &["encrypt", "-r", public.trim()], &plain);
            assert!(ours_decrypt(&[with("secret words")], &theirs) == plain);
        }
        let err = age::decrypt(&[with("wrong")], &file, &DecryptOptions::default(), &par())
            .map(|_| "decrypted")
            .unwrap_err()
            .to_string();
        assert!(err.contains("incorrect passphrase"), "{err}");
        // A file for another key: never asked.
        asked.store(0, Ordering::SeqCst);
        let other = Identity::generate(KeyKind::X25519);
        let file = ours_encrypt(&[other.to_recipient().unwrap()], b"x", false);
        assert!(ours_decrypt(&[with("secret words"), other], &file) == b"x");
        assert_eq!(asked.load(Ordering::SeqCst), 0);
    }
}
