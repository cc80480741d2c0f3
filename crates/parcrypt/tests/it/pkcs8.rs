//! Encrypted private keys (PKCS#8 PBES2 and OpenSSL's legacy PEM): the
//! files OpenSSL 3 wrote in `tests/data/pkcs8/` (their README says how),
//! parcrypt's own read back and by `openssl pkey`, and hostile files.

#![allow(clippy::unwrap_used)]

use parcrypt::keys::KeyFileError;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use parcrypt::par::Parallelism;
use parcrypt::pkcs8::{self, Cipher, Kdf, Options, Prf};
use parcrypt::{ecdsa, rsa};

use crate::common::require_tool;
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};

const PASSWORD: &[u8] = b"correct-horse";

fn data(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pkcs8")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn ec_plain() -> ecdsa::PrivateKey {
    ecdsa::PrivateKey::from_bytes(&data("ec-plain.pem"), &Parallelism::sequential()).unwrap()
}

fn rsa_plain() -> rsa::PrivateKey {
    rsa::PrivateKey::from_bytes(&data("rsa-plain.pem"), &Parallelism::sequential()).unwrap()
}

#[test]
fn openssl_encrypted_ec_keys() {
    let want = ec_plain();
    for name in [
        "ec-pbkdf2-sha256-aes256.pem",
        "ec-pbkdf2-sha1-aes128.der",
        "ec-pbkdf2-sha224-aes128.pem",
        "ec-pbkdf2-sha384-aes256.pem",
        "ec-pbkdf2-sha512-aes192.pem",
        "ec-scrypt-aes256.pem",
        "ec-legacy-aes128.pem",
    ] {
        let bytes = data(name);
        assert!(pkcs8::is_encrypted(&bytes), "{name}");
        let key = ecdsa::PrivateKey::from_bytes_with_password(&bytes, PASSWORD, &Parallelism::sequential())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            key.public_key().to_spki_der().unwrap(),
            want.public_key().to_spki_der().unwrap(),
            "{name}"
        );
        assert_eq!(
            ecdsa::PrivateKey::from_bytes(&bytes, &Parallelism::sequential()).unwrap_err(),
            ecdsa::Error::Key(KeyFileError::Encrypted),
            "{name}"
        );
        assert_eq!(
            ecdsa::PrivateKey::from_bytes_with_password(&bytes, b"correct-hors", &Parallelism::sequential())
                .unwrap_err(),
            ecdsa::Error::Key(KeyFileError::Encryption(pkcs8::Error::BadDecrypt)),
            "{name}"
        );
        // Public keys are not read from an encrypted file without its password.
        assert_eq!(
            ecdsa::PublicKey::from_bytes(&bytes, &Parallelism::sequential()).unwrap_err(),
            ecdsa::Error::Key(KeyFileError::Encrypted),
            "{name}"
        );
    }
}

#[test]
fn openssl_encrypted_rsa_keys() {
    let want = rsa_plain();
    for name in [
        "rsa-pbkdf2-sha256-aes256.pem",
        "rsa-scrypt-aes256.der",
        "rsa-legacy-aes256.pem",
    ] {
        let bytes = data(name);
        assert!(pkcs8::is_encrypted(&bytes), "{name}");
        let key = rsa::PrivateKey::from_bytes_with_password(&bytes, PASSWORD, &Parallelism::sequential())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            key.public_key().to_spki_der().unwrap(),
            want.public_key().to_spki_der().unwrap(),
            "{name}"
        );
        assert_eq!(
            rsa::PrivateKey::from_bytes(&bytes, &Parallelism::sequential()).unwrap_err(),
            rsa::Error::Key(KeyFileError::Encrypted)
        );
        assert_eq!(
            rsa::PrivateKey::from_bytes_with_password(&bytes, b"", &Parallelism::sequential()).unwrap_err(),
            rsa::Error::Key(KeyFileError::Encryption(pkcs8::Error::BadDecrypt)),
            "{name}"
        );
    }
    // An EC key, encrypted, is still not an RSA key once decrypted.
    assert!(matches!(
        rsa::PrivateKey::from_bytes_with_password(
            &data("ec-scrypt-aes256.pem"),
            PASSWORD,
            &Parallelism::sequential()
        ),
        Err(rsa::Error::Key(KeyFileError::WrongType { .. }))
    ));
}

#[test]
fn what_openssl_3_writes_is_the_default() {
    // genpkey -aes256 / pkcs8 -topk8 -v2 aes-256-cbc in OpenSSL 3.0.
    let der = pkcs8_der_of(&data("ec-pbkdf2-sha256-aes256.pem"));
    assert_eq!(pkcs8::options_of(&der).unwrap(), Options::default());
    assert_eq!(
        pkcs8::options_of(&data("ec-pbkdf2-sha1-aes128.der")).unwrap(),
        Options {
            cipher: Cipher::Aes128Cbc,
            kdf: Kdf::Pbkdf2 {
                prf: Prf::HmacSha1,
                iterations: 2048
            }
        }
    );
    assert_eq!(
        pkcs8::options_of(&data("rsa-scrypt-aes256.der")).unwrap(),
        Options {
            cipher: Cipher::Aes256Cbc,
            kdf: Kdf::SCRYPT_DEFAULT
        }
    );
}

/// The DER inside a PEM block (base64 between the markers).
fn pkcs8_der_of(pem: &[u8]) -> Vec<u8> {
    use base64::Engine as _;
    let text = std::str::from_utf8(pem).unwrap();
    let body: String = text.lines().filter(|l| !l.starts_with("-----")).collect();
    base64::engine::general_purpose::STANDARD.decode(body).unwrap()
}

#[test]
fn unsupported_schemes_say_how_to_convert() {
    for name in ["ec-pbes1-3des.pem", "ec-legacy-des3.pem"] {
        let err =
            ecdsa::PrivateKey::from_bytes_with_password(&data(name), PASSWORD, &Parallelism::sequential())
                .unwrap_err();
        assert!(
            matches!(
                err,
                ecdsa::Error::Key(KeyFileError::Encryption(pkcs8::Error::Unsupported(_)))
            ),
            "{name}: {err:?}"
        );
        assert!(err.to_string().contains("openssl pkcs8 -topk8"), "{name}: {err}");
    }
}

#[test]
fn round_trips_through_parcrypt() {
    let ec = ec_plain();
    let rsa = rsa_plain();
    let options = [
        Options::default(),
        Options::with_cipher(Cipher::Aes128Cbc),
        Options {
            cipher: Cipher::Aes192Cbc,
            kdf: Kdf::Pbkdf2 {
                prf: Prf::HmacSha512,
                iterations: 1,
            },
        },
        Options {
            cipher: Cipher::Aes256Cbc,
            kdf: Kdf::Scrypt {
                log2_n: 10,
                r: 8,
                p: 1,
            },
        },
    ];
    for o in options {
        let pem = ec.to_pkcs8_encrypted_pem(b"pw", &o).unwrap();
        assert!(pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"));
        let der = ec.to_pkcs8_encrypted_der(b"pw", &o).unwrap();
        assert_eq!(pkcs8::options_of(&der).unwrap(), o);
        for bytes in [pem.as_bytes(), &der] {
            let back = ecdsa::PrivateKey::from_bytes_with_password(bytes, b"pw", &Parallelism::sequential())
                .unwrap();
            assert_eq!(
                back.public_key().to_spki_der().unwrap(),
                ec.public_key().to_spki_der().unwrap()
            );
        }
        let der = rsa.to_pkcs8_encrypted_der(b"pw", &o).unwrap();
        let back =
            rsa::PrivateKey::from_bytes_with_password(&der, b"pw", &Parallelism::sequential()).unwrap();
        assert_eq!(back.public_key(), rsa.public_key());
    }
    // Two encryptions differ (random salt and IV).
    let a = ec.to_pkcs8_encrypted_der(b"pw", &Options::default()).unwrap();
    let b = ec.to_pkcs8_encrypted_der(b"pw", &Options::default()).unwrap();
    assert_ne!(a, b);
    // A password for a key that is not encrypted is ignored (as openssl's -passin).
    assert!(
        ecdsa::PrivateKey::from_bytes_with_password(&data("ec-plain.pem"), b"pw", &Parallelism::sequential())
            .is_ok()
    );
}

#[test]
fn parcrypts_encrypted_keys_are_read_by_openssl() {
    if !require_tool("openssl") {
        return;
    }
    let ec = ec_plain();
    let cases: [(Options, bool); 4] = [
        (Options::default(), false),
        (Options::with_cipher(Cipher::Aes128Cbc), true),
        (
            Options {
                cipher: Cipher::Aes192Cbc,
                kdf: Kdf::Pbkdf2 {
                    prf: Prf::HmacSha1,
                    iterations: 5000,
                },
            },
            false,
        ),
        (
            Options {
                cipher: Cipher::Aes256Cbc,
                kdf: Kdf::SCRYPT_DEFAULT,
            },
            true,
        ),
    ];
    let want = String::from_utf8(ec.to_pkcs8_pem().unwrap().expose_bytes().to_vec()).unwrap();
    for (options, der) in cases {
        let bytes = if der {
            ec.to_pkcs8_encrypted_der(PASSWORD, &options).unwrap()
        } else {
            ec.to_pkcs8_encrypted_pem(PASSWORD, &options)
                .unwrap()
                .into_bytes()
        };
        let out = openssl(
            &[
                "pkey",
                "-inform",
                if der { "DER" } else { "PEM" },
                "-passin",
                "env:PARCRYPT_TEST_PW",
            ],
            &bytes,
        );
        assert_eq!(out, want, "{options:?}");
    }
    let rsa = rsa_plain();
    let bytes = rsa.to_pkcs8_encrypted_pem(PASSWORD, &Options::default()).unwrap();
    let out = openssl(&["pkey", "-passin", "env:PARCRYPT_TEST_PW"], bytes.as_bytes());
    assert_eq!(out.as_bytes(), rsa.to_pkcs8_pem().unwrap().expose_bytes());
}

fn openssl(args: &[&str], input: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new("openssl")
        .args(args)
        .env("PARCRYPT_TEST_PW", std::str::from_utf8(PASSWORD).unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn hostile_files_are_errors_not_panics() {
    let der = data("ec-pbkdf2-sha1-aes128.der");
    for cut in 0..der.len() {
        assert!(
            ecdsa::PrivateKey::from_bytes_with_password(&der[..cut], PASSWORD, &Parallelism::sequential())
                .is_err()
        );
    }
    let pem = data("ec-pbkdf2-sha256-aes256.pem");
    let text = std::str::from_utf8(&pem).unwrap();
    let garbage = text.replacen("MI", "!!", 1);
    assert!(matches!(
        ecdsa::PrivateKey::from_bytes_with_password(garbage.as_bytes(), PASSWORD, &Parallelism::sequential()),
        Err(ecdsa::Error::Key(KeyFileError::Malformed(_)))
    ));
    let no_end = &text[..text.len() - 40];
    assert!(
        ecdsa::PrivateKey::from_bytes_with_password(no_end.as_bytes(), PASSWORD, &Parallelism::sequential())
            .is_err()
    );
    // Legacy PEM with a bad IV and with a missing DEK-Info.
    let legacy = String::from_utf8(data("ec-legacy-aes128.pem")).unwrap();
    let bad_iv = legacy.replacen("AES-128-CBC,", "AES-128-CBC,ZZ", 1);
    assert!(matches!(
        ecdsa::PrivateKey::from_bytes_with_password(bad_iv.as_bytes(), PASSWORD, &Parallelism::sequential()),
        Err(ecdsa::Error::Key(KeyFileError::Encryption(
            pkcs8::Error::Malformed(_)
        )))
    ));
}
