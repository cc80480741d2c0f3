//! ML-DSA: the three PKCS#8 forms, batches on every schedule (sizes 0, 1
//! and 37) against one by one, hostile input, and two independent
//! implementations both ways: pyca/cryptography 50 (same seed, same public
//! key and byte-identical PKCS#8; each verifies the other's signatures
//! with and without a context) and OpenSSL 3.5 through Node.js 26 (it
//! reads our keys in all three PKCS#8 forms and our signatures; we read
//! the forms it writes, its keys and its signatures).
#![allow(clippy::unwrap_used)]

use parcrypt::keys::{BatchItem, ErrorKind, KeyError, SigningKey, VerifyingKey};
use parcrypt::mldsa::{Error, ParameterSet, PrivateKey, PublicKey, SignatureOptions};
use parcrypt::par::Parallelism;

use super::common::every_parallelism;

fn seed(i: u8) -> [u8; 32] {
    std::array::from_fn(|j| i.wrapping_mul(31).wrapping_add(j as u8))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// DER of a PKCS#8 `PrivateKeyInfo` for `set` around `private_key` (the
/// contents of its OCTET STRING).
fn pkcs8(set: ParameterSet, private_key: &[u8]) -> Vec<u8> {
    fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
        let mut out = vec![tag];
        if body.len() < 0x80 {
            out.push(body.len() as u8);
        } else {
            let len = body.len().to_be_bytes();
            let len: Vec<u8> = len.iter().copied().skip_while(|&b| b == 0).collect();
            out.push(0x80 | len.len() as u8);
            out.extend(len);
        }
        out.extend_from_slice(body);
        out
    }
    let arc = match set {
        ParameterSet::MlDsa44 => 17,
        ParameterSet::MlDsa65 => 18,
        _ => 19,
    };
    let oid = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, arc];
    let body = [&[0x02, 0x01, 0x00][..], &tlv(0x30, &oid), &tlv(0x04, private_key)].concat();
    tlv(0x30, &body)
}

/// The contents of PKCS#8's `privateKey` in RFC 9881's three forms for
/// `key`: seed (`[0] IMPLICIT OCTET STRING`), expanded (`OCTET STRING`),
/// both (`SEQUENCE { seed, expanded }`).
fn private_key_forms(key: &PrivateKey) -> [Vec<u8>; 3] {
    let seed_bytes = key.to_seed().unwrap();
    let expanded = key.to_expanded().unwrap();
    let seed_form = [&[0x80, 0x20][..], seed_bytes.expose()].concat();
    let mut expanded_form = vec![0x04, 0x82];
    expanded_form.extend((expanded.len() as u16).to_be_bytes());
    expanded_form.extend_from_slice(expanded.expose());
    let both_body = [&[0x04, 0x20][..], seed_bytes.expose(), &expanded_form].concat();
    let mut both_form = vec![0x30, 0x82];
    both_form.extend((both_body.len() as u16).to_be_bytes());
    both_form.extend(&both_body);
    [seed_form, expanded_form, both_form]
}

#[test]
fn all_three_pkcs8_forms_read_and_the_seed_form_is_written() {
    for set in ParameterSet::ALL {
        let key = PrivateKey::from_seed(set, &seed(1)).unwrap();
        let [seed_form, expanded_form, both_form] = private_key_forms(&key);
        assert_eq!(
            key.to_pkcs8_der().unwrap().expose(),
            pkcs8(set, &seed_form),
            "{set}"
        );
        for form in [&seed_form, &expanded_form, &both_form] {
            let read = PrivateKey::from_bytes(&pkcs8(set, form), &Parallelism::sequential()).unwrap();
            assert_eq!(read.public_key(), key.public_key(), "{set}");
            assert_eq!(read.parameter_set(), set);
        }
        // Seed and expanded key that disagree are refused.
        let other = PrivateKey::from_seed(set, &seed(2)).unwrap();
        let mismatched = [
            &[0x04, 0x20][..],
            other.to_seed().unwrap().expose(),
            &expanded_form,
        ]
        .concat();
        let mut mismatched_form = vec![0x30, 0x82];
        mismatched_form.extend((mismatched.len() as u16).to_be_bytes());
        mismatched_form.extend(&mismatched);
        assert!(
            PrivateKey::from_bytes(&pkcs8(set, &mismatched_form), &Parallelism::sequential()).is_err(),
            "{set}"
        );
        // PEM, SPKI and password-protected PKCS#8 through the family's one reader.
        let pem = key.to_pkcs8_pem().unwrap();
        assert!(pem.expose().starts_with("-----BEGIN PRIVATE KEY-----\n"));
        let spki = key.public_key().to_spki_pem().unwrap();
        assert_eq!(
            &PublicKey::from_bytes(spki.as_bytes(), &Parallelism::sequential()).unwrap(),
            key.public_key()
        );
        assert_eq!(
            &PublicKey::from_bytes(pem.expose_bytes(), &Parallelism::sequential()).unwrap(),
            key.public_key()
        );
        let locked = key
            .to_pkcs8_encrypted_pem(b"pw", &parcrypt::pkcs8::Options::default())
            .unwrap();
        let unlocked =
            PrivateKey::from_bytes_with_password(locked.as_bytes(), b"pw", &Parallelism::sequential())
                .unwrap();
        assert_eq!(unlocked.public_key(), key.public_key());
        assert_eq!(
            PrivateKey::from_bytes(locked.as_bytes(), &Parallelism::sequential())
                .unwrap_err()
                .kind(),
            ErrorKind::EncryptedKey
        );
    }
}

#[test]
fn hostile_input_is_a_clear_error() {
    let key = PrivateKey::from_seed(ParameterSet::MlDsa65, &seed(3)).unwrap();
    let public = key.public_key();
    assert_eq!(
        PrivateKey::from_seed(ParameterSet::MlDsa65, &[0; 31]).unwrap_err(),
        Error::SeedLength(31)
    );
    assert_eq!(
        PrivateKey::from_seed(ParameterSet::MlDsa65, &[0; 33]).unwrap_err(),
        Error::SeedLength(33)
    );
    assert_eq!(key.sign(b"m", &[0; 256]).unwrap_err(), Error::ContextTooLong(256));
    assert!(key.sign(b"m", &[0; 255]).is_ok());
    assert_eq!(key.sign_mu(&[0; 63]).unwrap_err(), Error::MuLength(63));
    let sig = key.sign(b"m", b"").unwrap();
    for bad in [&sig[..sig.len() - 1], &[&sig[..], &[0]].concat()[..], &[][..]] {
        assert_eq!(
            public.verify(b"m", bad, b"").unwrap_err().kind(),
            ErrorKind::MalformedSignature
        );
    }
    let mut flipped = sig.clone();
    flipped[100] ^= 1;
    assert_eq!(
        public.verify(b"m", &flipped, b"").unwrap_err(),
        Error::BadSignature
    );
    // Truncated and extended keys, raw and DER.
    let raw = public.to_raw();
    assert!(PublicKey::from_raw(ParameterSet::MlDsa65, &raw[..raw.len() - 1]).is_err());
    assert!(PublicKey::from_raw(ParameterSet::MlDsa44, raw).is_err());
    let der = key.to_pkcs8_der().unwrap();
    let der = der.expose();
    for cut in [0, 1, der.len() / 2, der.len() - 1] {
        assert!(PrivateKey::from_bytes(&der[..cut], &Parallelism::sequential()).is_err());
    }
    assert!(PrivateKey::from_bytes(&[der, &[0]].concat(), &Parallelism::sequential()).is_err());
    let spki = public.to_spki_der().unwrap();
    assert!(PublicKey::from_bytes(&spki[..spki.len() - 1], &Parallelism::sequential()).is_err());
    // ML-DSA-65's OID around ML-DSA-44's key: refused.
    let small = PrivateKey::from_seed(ParameterSet::MlDsa44, &seed(3)).unwrap();
    let expanded = small.to_expanded().unwrap();
    let mut form = vec![0x04, 0x82];
    form.extend((expanded.len() as u16).to_be_bytes());
    form.extend_from_slice(expanded.expose());
    let wrong_set = pkcs8(ParameterSet::MlDsa65, &form);
    assert_eq!(
        PrivateKey::from_bytes(&wrong_set, &Parallelism::sequential())
            .unwrap_err()
            .kind(),
        ErrorKind::MalformedKey
    );
    // The same inside a PEM, and garbage DER and PEM.
    let b64 = |der: &[u8]| {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(der)
    };
    let pem = format!(
        "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
        b64(&wrong_set)
    );
    assert_eq!(
        PrivateKey::from_bytes(pem.as_bytes(), &Parallelism::sequential())
            .unwrap_err()
            .kind(),
        ErrorKind::MalformedKey
    );
    for garbage in [
        &b""[..],
        b"\x30\x00",
        b"\x30\x03\x02\x01\x00",
        b"\x30\x80\x00\x00",
        b"\xff\xff\xff\xff",
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
        b"-----BEGIN PUBLIC KEY-----\n!!\n-----END PUBLIC KEY-----\n",
    ] {
        assert_eq!(
            PrivateKey::from_bytes(garbage, &Parallelism::sequential())
                .unwrap_err()
                .kind(),
            ErrorKind::MalformedKey,
            "{garbage:?}"
        );
        assert_eq!(
            PublicKey::from_bytes(garbage, &Parallelism::sequential())
                .unwrap_err()
                .kind(),
            ErrorKind::MalformedKey,
            "{garbage:?}"
        );
    }
    // A context of 256 bytes, on every path that takes one.
    assert_eq!(
        public.verify(b"m", &sig, &[0; 256]).unwrap_err(),
        Error::ContextTooLong(256)
    );
    assert_eq!(
        public.mu_hasher(&[0; 256]).unwrap_err(),
        Error::ContextTooLong(256)
    );
    assert_eq!(
        key.sign_deterministic(b"m", &[0; 256]).unwrap_err(),
        Error::ContextTooLong(256)
    );
    assert_eq!(
        key.sign_mu_internal(&[0; 65], &[0; 32]).unwrap_err(),
        Error::MuLength(65)
    );
    assert_eq!(public.verify_mu(&[0; 63], &sig).unwrap_err(), Error::MuLength(63));
    // Another family's key is named as such.
    let ec = parcrypt::ecdsa::PrivateKey::generate().unwrap();
    let err = PrivateKey::from_bytes(
        ec.to_pkcs8_pem().unwrap().expose_bytes(),
        &Parallelism::sequential(),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::WrongKeyType, "{err}");
    let err = parcrypt::ecdsa::PrivateKey::from_bytes(
        key.to_pkcs8_pem().unwrap().expose_bytes(),
        &Parallelism::sequential(),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::WrongKeyType, "{err}");
}

#[test]
fn batches_on_every_schedule_equal_one_by_one() {
    let keys: Vec<PrivateKey> = (0..3)
        .map(|i| PrivateKey::from_seed(ParameterSet::ALL[i], &seed(i as u8)).unwrap())
        .collect();
    let options = SignatureOptions {
        context: b"batch".to_vec(),
    };
    let messages: Vec<Vec<u8>> = (0..37).map(|i| vec![i as u8; i * 13]).collect();
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    for par in every_parallelism() {
        for key in &keys {
            let sigs: Vec<Vec<u8>> = key
                .sign_batch(&refs, &options, &par)
                .into_iter()
                .map(Result::unwrap)
                .collect();
            assert_eq!(sigs.len(), refs.len());
            let mut items: Vec<BatchItem<'_, PublicKey>> = refs
                .iter()
                .zip(&sigs)
                .map(|(m, s)| BatchItem {
                    key: key.public_key(),
                    message: m,
                    signature: s,
                })
                .collect();
            // Failing indexes: another message, a signature of another key's length.
            items[5].message = b"not this";
            let short = vec![0u8; 10];
            items[20].signature = &short;
            let results = PublicKey::verify_batch(&items, &options, &par);
            let one_by_one: Vec<bool> = items
                .iter()
                .map(|i| i.key.verify(i.message, i.signature, &options.context).is_ok())
                .collect();
            assert_eq!(
                results.iter().map(Result::is_ok).collect::<Vec<_>>(),
                one_by_one,
                "{par:?}"
            );
            let failing: Vec<usize> = (0..results.len()).filter(|&i| results[i].is_err()).collect();
            assert_eq!(failing, [5, 20], "{par:?}");
            assert_eq!(
                results[20].as_ref().unwrap_err().kind(),
                ErrorKind::MalformedSignature
            );
        }
    }
    // Sizes 0 and 1 on every schedule: nothing, and the one signature.
    for par in every_parallelism() {
        assert!(keys[0].sign_batch(&[], &options, &par).is_empty(), "{par:?}");
        assert!(PublicKey::verify_batch(&[], &options, &par).is_empty(), "{par:?}");
        let one = keys[1].sign_batch(&[b"one"], &options, &par);
        let [Ok(sig)] = &one[..] else {
            panic!("{par:?}: {one:?}")
        };
        keys[1]
            .public_key()
            .verify(b"one", sig, &options.context)
            .unwrap();
        let item = BatchItem {
            key: keys[1].public_key(),
            message: b"one",
            signature: sig,
        };
        assert!(
            PublicKey::verify_batch(&[item], &options, &par)[0].is_ok(),
            "{par:?}"
        );
        let wrong = BatchItem {
            key: keys[0].public_key(),
            ..item
        };
        assert_eq!(
            PublicKey::verify_batch(&[wrong], &options, &par)[0]
                .as_ref()
                .unwrap_err()
                .kind(),
            ErrorKind::MalformedSignature,
            "{par:?}: an ML-DSA-65 signature under an ML-DSA-44 key"
        );
    }
}

/// pyca's side: for each line `SET SEED MSG CTX OURSIG` (hex), checks our
/// signature and prints `PUBLIC PKCS8PEM(hex) ITS_SIG`.
const PYCA: &str = r#"
import sys
from cryptography.hazmat.primitives.asymmetric import mldsa
from cryptography.hazmat.primitives import serialization as s
cls = {"ML-DSA-44": mldsa.MLDSA44PrivateKey, "ML-DSA-65": mldsa.MLDSA65PrivateKey, "ML-DSA-87": mldsa.MLDSA87PrivateKey}
for line in open(sys.argv[1]):
    name, seed, msg, ctx, sig = line.split()
    seed, msg, ctx, sig = (bytes.fromhex(x) for x in (seed, msg, ctx, sig))
    key = cls[name].from_seed_bytes(seed)
    context = ctx[1:] if ctx[:1] == b"c" else None
    key.public_key().verify(sig, msg, context)
    pem = key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption())
    print(key.public_key().public_bytes_raw().hex(), pem.hex(), key.sign(msg, context).hex())
"#;

#[test]
fn pyca_and_parcrypt_agree_both_ways() {
    let Some(python) = super::tools::pyca_pq_python() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut cases = Vec::new();
    let mut lines = String::new();
    for (i, set) in ParameterSet::ALL.into_iter().cycle().take(9).enumerate() {
        let seed = seed(i as u8 + 10);
        // Hex cannot be empty: the shortest message is one byte.
        let msg: Vec<u8> = (0..=i * 97).map(|j| j as u8).collect();
        // pyca's `context=None`, then a short and the longest context
        // (a marker byte says which).
        let context: Vec<u8> = match i % 3 {
            0 => Vec::new(),
            1 => b"a context".to_vec(),
            _ => vec![0xab; 255],
        };
        let marker = if context.is_empty() {
            b"n".to_vec()
        } else {
            [&b"c"[..], &context].concat()
        };
        let key = PrivateKey::from_seed(set, &seed).unwrap();
        let sig = key.sign(&msg, &context).unwrap();
        lines.push_str(&format!(
            "{} {} {} {} {}\n",
            set.name(),
            hex(&seed),
            hex(&msg),
            hex(&marker),
            hex(&sig)
        ));
        cases.push((key, msg, context));
    }
    let input = dir.path().join("cases");
    std::fs::write(&input, lines).unwrap();
    let script = dir.path().join("pyca.py");
    std::fs::write(&script, PYCA).unwrap();
    let out = std::process::Command::new(python)
        .arg(&script)
        .arg(&input)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), cases.len());
    for (line, (key, msg, context)) in text.lines().zip(&cases) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            unhex(f[0]),
            key.public_key().to_raw(),
            "same seed, same public key"
        );
        assert_eq!(
            unhex(f[1]),
            key.to_pkcs8_pem().unwrap().expose_bytes(),
            "byte-identical PKCS#8 PEM"
        );
        key.public_key().verify(msg, &unhex(f[2]), context).unwrap();
        // pyca's key, read by us.
        let theirs = PrivateKey::from_bytes(&unhex(f[1]), &Parallelism::sequential()).unwrap();
        assert_eq!(theirs.public_key(), key.public_key());
    }
}

/// OpenSSL's side (Node.js 26 `crypto`): reads our public key and our
/// private key in each of the three PKCS#8 forms (`seed.der`,
/// `expanded.der`, `both.der`), writes each back, signs with each under
/// the context, verifies our signature; then makes a key pair of its own
/// and signs with it, with and without the context.
const NODE: &str = r#"
const c = require('crypto'), fs = require('fs');
const [dir, alg] = process.argv.slice(1);
const hex = (b) => Buffer.from(b).toString('hex');
const rd = (f) => fs.readFileSync(dir + '/' + f);
const msg = rd('msg'), context = rd('ctx');
const pub = c.createPublicKey(rd('pub.pem'));
const out = { type: pub.asymmetricKeyType, pubPem: pub.export({ type: 'spki', format: 'pem' }), forms: {} };
for (const form of ['seed', 'expanded', 'both']) {
  const k = c.createPrivateKey({ key: rd(form + '.der'), format: 'der', type: 'pkcs8' });
  out.forms[form] = {
    pubPem: c.createPublicKey(k).export({ type: 'spki', format: 'pem' }),
    pkcs8: hex(k.export({ type: 'pkcs8', format: 'der' })),
    sig: hex(c.sign(null, msg, { key: k, context })),
  };
}
out.oursVerifies = c.verify(null, msg, { key: pub, context }, rd('sig'));
out.oursVerifiesWithoutContext = c.verify(null, msg, pub, rd('sig'));
const pair = c.generateKeyPairSync(alg);
out.theirPkcs8 = pair.privateKey.export({ type: 'pkcs8', format: 'pem' });
out.theirPub = pair.publicKey.export({ type: 'spki', format: 'pem' });
out.theirSig = hex(c.sign(null, msg, { key: pair.privateKey, context }));
out.theirSigWithoutContext = hex(c.sign(null, msg, pair.privateKey));
console.log(JSON.stringify(out));
"#;

#[test]
fn openssl_35_and_parcrypt_agree_both_ways() {
    let Some(node) = super::tools::node_openssl35() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).unwrap();
    let msg: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
    write("msg", &msg);
    // An empty context, a short one, the longest.
    for (set, context) in ParameterSet::ALL
        .into_iter()
        .zip([vec![], b"ctx".to_vec(), vec![0x5a; 255]])
    {
        let key = PrivateKey::from_seed(set, &seed(40)).unwrap();
        let pub_pem = key.public_key().to_spki_pem().unwrap();
        let forms = private_key_forms(&key);
        for (name, form) in ["seed", "expanded", "both"].iter().zip(&forms) {
            write(&format!("{name}.der"), &pkcs8(set, form));
        }
        write("pub.pem", pub_pem.as_bytes());
        write("ctx", &context);
        write("sig", &key.sign(&msg, &context).unwrap());
        let out = std::process::Command::new(&node)
            .args(["-e", NODE])
            .arg(dir.path())
            .arg(set.name().to_ascii_lowercase())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let text = |v: &serde_json::Value| v.as_str().unwrap_or_else(|| panic!("{v}")).to_owned();
        assert_eq!(text(&got["type"]), set.name().to_ascii_lowercase());
        assert_eq!(
            text(&got["pubPem"]),
            pub_pem,
            "{set}: SPKI written back byte for byte"
        );
        assert!(
            got["oursVerifies"].as_bool().unwrap(),
            "{set}: OpenSSL verifies ours"
        );
        assert_eq!(
            got["oursVerifiesWithoutContext"].as_bool().unwrap(),
            context.is_empty(),
            "{set}: the context is bound"
        );
        for (name, form) in ["seed", "expanded", "both"].iter().zip(&forms) {
            let f = &got["forms"][name];
            assert_eq!(text(&f["pubPem"]), pub_pem, "{set} {name}: OpenSSL reads our key");
            key.public_key()
                .verify(&msg, &unhex(&text(&f["sig"])), &context)
                .unwrap_or_else(|e| panic!("{set} {name}: OpenSSL's signature: {e}"));
            // What OpenSSL writes back for each (the seed form for a key
            // with its seed, the expanded form for one without), read by us.
            let written = unhex(&text(&f["pkcs8"]));
            let read = PrivateKey::from_bytes(&written, &Parallelism::sequential()).unwrap();
            assert_eq!(read.public_key(), key.public_key(), "{set} {name}");
            if *name != "both" {
                assert_eq!(
                    written,
                    pkcs8(set, form),
                    "{set} {name}: the same form, byte for byte"
                );
            }
        }
        // Its key pair, read by us: the seed form byte for byte, and its
        // signatures with and without the context.
        let their_pem = text(&got["theirPkcs8"]);
        let theirs = PrivateKey::from_bytes(their_pem.as_bytes(), &Parallelism::sequential()).unwrap();
        assert_eq!(theirs.parameter_set(), set);
        assert_eq!(theirs.to_pkcs8_pem().unwrap().expose(), their_pem, "{set}");
        let their_pub =
            PublicKey::from_bytes(text(&got["theirPub"]).as_bytes(), &Parallelism::sequential()).unwrap();
        assert_eq!(&their_pub, theirs.public_key());
        their_pub
            .verify(&msg, &unhex(&text(&got["theirSig"])), &context)
            .unwrap();
        their_pub
            .verify(&msg, &unhex(&text(&got["theirSigWithoutContext"])), b"")
            .unwrap();
    }
}
