//! ML-KEM against its independent peers, both ways: pyca/cryptography 50
//! (same seed → same public key and the same PKCS#8 PEM; each
//! decapsulates what the other encapsulated) and OpenSSL 3.5 through
//! Node.js 26 (each reads the other's PEM keys and decapsulates the
//! other's ciphertexts; OpenSSL writes our keys back byte for byte).
//! The known answers and hostile input are the library's unit tests
//! (`src/mlkem/tests.rs`).

use std::process::Command;

use parcrypt::mlkem::{Params, PrivateKey, PublicKey};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn seed(params: Params) -> [u8; 64] {
    std::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ params.public_key_len() as u8)
}

/// pyca's side, for a seed: its public key and PKCS#8 PEM, the secret of
/// our ciphertext, and a ciphertext of its own to our SPKI PEM.
const PYCA: &str = r#"
import sys
from cryptography.hazmat.primitives.asymmetric import mlkem
from cryptography.hazmat.primitives import serialization as s
bits, seed, ct, pub_pem = sys.argv[1], bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3]), sys.argv[4]
cls = {"768": mlkem.MLKEM768PrivateKey, "1024": mlkem.MLKEM1024PrivateKey}[bits]
key = cls.from_seed_bytes(seed)
print(key.public_key().public_bytes_raw().hex())
print(key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()).hex())
print(key.decapsulate(ct).hex())
ours = s.load_pem_public_key(open(pub_pem, "rb").read())
ss, ct2 = ours.encapsulate()
print(ss.hex())
print(ct2.hex())
"#;

#[test]
fn pyca_makes_the_same_keys_and_decapsulates_ours_and_we_its() {
    let Some(python) = super::tools::pyca_pq_python() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    // pyca 50 has ML-KEM-768 and -1024 (not 512).
    for params in [Params::MlKem768, Params::MlKem1024] {
        let seed = seed(params);
        let key = PrivateKey::from_seed(params, &seed).expect("key");
        let (ss, ct) = key.public_key().encapsulate().expect("encapsulate");
        let pub_pem = dir.path().join("pub.pem");
        std::fs::write(&pub_pem, key.public_key().to_spki_pem().expect("spki")).expect("write");
        let out = Command::new(&python)
            .args([
                "-c",
                PYCA,
                &params.name()["ML-KEM-".len()..],
                &hex(&seed),
                &hex(&ct),
            ])
            .arg(&pub_pem)
            .output()
            .expect("python");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let lines: Vec<String> = String::from_utf8(out.stdout)
            .expect("utf-8")
            .lines()
            .map(str::to_owned)
            .collect();
        let [pk, pem, their_ss, ss2, ct2] = &lines[..] else {
            panic!("pyca printed {lines:?}")
        };
        assert_eq!(*pk, hex(&key.public_key().to_raw().expect("raw")), "{params}");
        assert_eq!(
            *pem,
            hex(key.to_pkcs8_pem().expect("pem").expose_bytes()),
            "{params}"
        );
        assert_eq!(*their_ss, hex(ss.expose()), "{params}");
        let ct2: Vec<u8> = (0..ct2.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&ct2[i..i + 2], 16).expect("hex"))
            .collect();
        assert_eq!(
            hex(key.decapsulate(&ct2).expect("decapsulate").expose()),
            *ss2,
            "{params}"
        );
    }
}

/// OpenSSL's side (Node.js `crypto`). `ours`: reads our PEM keys, writes
/// them back, decapsulates our ciphertext, encapsulates to our key, and
/// makes a key pair of its own with a ciphertext to it. `theirs`:
/// decapsulates our ciphertext to its key.
const NODE: &str = r#"
const c = require('crypto'), fs = require('fs');
const [mode, dir, alg, ctHex] = process.argv.slice(1);
const hex = (b) => Buffer.from(b).toString('hex');
const out = {};
if (mode === 'ours') {
  const priv = c.createPrivateKey(fs.readFileSync(dir + '/key.pem'));
  const pub = c.createPublicKey(fs.readFileSync(dir + '/pub.pem'));
  out.type = priv.asymmetricKeyType;
  out.privPem = priv.export({ type: 'pkcs8', format: 'pem' });
  out.pubPem = pub.export({ type: 'spki', format: 'pem' });
  out.ss = hex(c.decapsulate(priv, Buffer.from(ctHex, 'hex')));
  const e = c.encapsulate(pub);
  out.ss2 = hex(e.sharedKey); out.ct2 = hex(e.ciphertext);
  const pair = c.generateKeyPairSync(alg);
  fs.writeFileSync(dir + '/their.pem', pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  out.theirPub = pair.publicKey.export({ type: 'spki', format: 'pem' });
  const e3 = c.encapsulate(pair.publicKey);
  out.ss3 = hex(e3.sharedKey); out.ct3 = hex(e3.ciphertext);
} else {
  const priv = c.createPrivateKey(fs.readFileSync(dir + '/their.pem'));
  out.ss = hex(c.decapsulate(priv, Buffer.from(ctHex, 'hex')));
}
console.log(JSON.stringify(out));
"#;

fn node(node: &str, args: &[&str]) -> serde_json::Value {
    let out = Command::new(node)
        .args(["-e", NODE])
        .args(args)
        .output()
        .expect("node");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn unhex(s: &serde_json::Value) -> Vec<u8> {
    let s = s.as_str().expect("a hex string");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn openssl_35_reads_our_keys_and_we_read_its_both_ways() {
    let Some(node_bin) = super::tools::node_openssl35() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let d = dir.path().to_str().expect("utf-8 path");
    for params in Params::ALL {
        let key = PrivateKey::generate(params).expect("key");
        let pem = key.to_pkcs8_pem().expect("pem");
        let pub_pem = key.public_key().to_spki_pem().expect("spki");
        std::fs::write(dir.path().join("key.pem"), pem.expose()).expect("write");
        std::fs::write(dir.path().join("pub.pem"), &pub_pem).expect("write");
        let (ss, ct) = key.public_key().encapsulate().expect("encapsulate");
        let alg = params.name().to_ascii_lowercase();
        let got = node(&node_bin, &["ours", d, &alg, &hex(&ct)]);
        // OpenSSL reads our keys as the parameter set they are and writes
        // them back byte for byte (the seed form, SPKI).
        assert_eq!(got["type"], alg.as_str());
        assert_eq!(got["privPem"], pem.expose());
        assert_eq!(got["pubPem"], pub_pem.as_str());
        assert_eq!(unhex(&got["ss"]), ss.expose());
        assert_eq!(
            key.decapsulate(&unhex(&got["ct2"]))
                .expect("decapsulate")
                .expose()[..],
            unhex(&got["ss2"])[..]
        );
        // Its key pair, read by us: we decapsulate its ciphertext and
        // encapsulate to its public key for it to decapsulate.
        let their_pem = std::fs::read(dir.path().join("their.pem")).expect("their key");
        let theirs = PrivateKey::from_bytes(&their_pem).expect("OpenSSL's private key");
        assert_eq!(theirs.params(), params);
        assert_eq!(theirs.to_pkcs8_pem().expect("pem").expose_bytes(), &their_pem[..]);
        let their_pub = PublicKey::from_bytes(got["theirPub"].as_str().expect("PEM").as_bytes())
            .expect("OpenSSL's public key");
        assert_eq!(
            their_pub.to_raw().expect("raw"),
            theirs.public_key().to_raw().expect("raw")
        );
        assert_eq!(
            theirs
                .decapsulate(&unhex(&got["ct3"]))
                .expect("decapsulate")
                .expose()[..],
            unhex(&got["ss3"])[..]
        );
        let (ss4, ct4) = their_pub.encapsulate().expect("encapsulate");
        let back = node(&node_bin, &["theirs", d, &alg, &hex(&ct4)]);
        assert_eq!(unhex(&back["ss"]), ss4.expose(), "{params}");
    }
}
