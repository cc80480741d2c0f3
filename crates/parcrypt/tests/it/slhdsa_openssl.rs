//! SLH-DSA interop with OpenSSL 3.5, both ways, all twelve parameter sets,
//! through the OpenSSL inside a Node.js ≥ 24 (`crypto.generateKeyPairSync
//! ('slh-dsa-sha2-128s')`, `crypto.sign(null, msg, {key, context})`):
//!
//! - OpenSSL's keys load in parcrypt and are written back byte for byte
//!   (PKCS#8 and SPKI PEM), and OpenSSL's signatures verify here, with the
//!   right context only;
//! - parcrypt's keys load in OpenSSL and are written back byte for byte,
//!   and parcrypt's signatures verify there, with the right context only;
//!   OpenSSL signs with parcrypt's keys and parcrypt verifies.
//!
//! The node binary is `$PARCRYPT_NODE_OPENSSL35` (the Node.js 26 binary from
//! npm bundles OpenSSL 3.5.8), if its OpenSSL makes SLH-DSA keys; missing,
//! the tests skip, or fail under `PARCRYPT_REQUIRE_TOOLS=1` (`.ci/run`).
//!
//! Signing an `s` set is slow (OpenSSL: 0.4–1.5 s for 128s on a quiet
//! core; parcrypt's SHAKE `s` sets 7–11 s in the test profile), so CI
//! signs each `s` set once, alternately with and without a context:
//! parcrypt the SHA2 `s` sets and OpenSSL them with its own keys; OpenSSL
//! the SHAKE `s` sets with parcrypt's keys. Every `f` set is signed with
//! and without a context both ways, and every key crosses both ways.
//! `PARCRYPT_SLHDSA_FULL=1` signs every set both ways with and without a
//! context.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use parcrypt::par::Parallelism;
use parcrypt::slhdsa::{Error, Message, ParameterSet, PrivateKey, PublicKey};
use serde_json::{Value, json};

use crate::slhdsa_acvp::full;

const MESSAGE: &[u8] = "parcrypt \u{2194} OpenSSL 3.5 interop".as_bytes();
const CONTEXT: &[u8] = b"interop context";

/// The script both directions run: `make DIR` generates keys and signs
/// as `DIR/job.json` says; `check DIR` reads keys, writes them back,
/// verifies, and signs with them; results as JSON on stdout.
const SCRIPT: &str = r#"
const c = require("crypto"), fs = require("fs"), path = require("path");
const [mode, dir] = process.argv.slice(2);
const job = JSON.parse(fs.readFileSync(path.join(dir, "job.json"), "utf8"));
const msg = Buffer.from(job.message, "hex");
const file = (name) => path.join(dir, name);
const opts = (key, ctx) => ctx === "" ? { key } : { key, context: Buffer.from(ctx, "hex") };
const sign = (key, set, tag, contexts) => contexts.forEach((ctx, i) =>
  fs.writeFileSync(file(`${set}.${tag}.${i}.sig`), c.sign(null, msg, opts(key, ctx))));
const out = [];
for (const item of job.items) {
  if (mode === "make") {
    const { privateKey, publicKey } = c.generateKeyPairSync(item.set.toLowerCase());
    fs.writeFileSync(file(`${item.set}.key.pem`), privateKey.export({ type: "pkcs8", format: "pem" }));
    fs.writeFileSync(file(`${item.set}.pub.pem`), publicKey.export({ type: "spki", format: "pem" }));
    sign(privateKey, item.set, "openssl", item.sign);
    continue;
  }
  const keyPem = fs.readFileSync(file(`${item.set}.key.pem`), "utf8");
  const pubPem = fs.readFileSync(file(`${item.set}.pub.pem`), "utf8");
  const key = c.createPrivateKey(keyPem), pub = c.createPublicKey(pubPem);
  const r = {
    set: item.set,
    type: key.asymmetricKeyType,
    key_same: key.export({ type: "pkcs8", format: "pem" }) === keyPem,
    pub_same: pub.export({ type: "spki", format: "pem" }) === pubPem,
    derived_same: c.createPublicKey(key).export({ type: "spki", format: "pem" }) === pubPem,
    verified: [], wrong_context: [],
  };
  item.verify.forEach((ctx, i) => {
    const sig = fs.readFileSync(file(`${item.set}.parcrypt.${i}.sig`));
    r.verified.push(c.verify(null, msg, opts(pub, ctx), sig));
    r.wrong_context.push(c.verify(null, msg, opts(pub, ctx === "" ? "00" : ctx + "00"), sig));
  });
  sign(key, item.set, "openssl", item.sign);
  out.push(r);
}
console.log(JSON.stringify(out));
"#;

/// The node of `$PARCRYPT_NODE_OPENSSL35`, if its OpenSSL makes SLH-DSA keys.
fn node() -> Option<&'static Path> {
    static NODE: OnceLock<Option<PathBuf>> = OnceLock::new();
    NODE.get_or_init(|| {
        let node = PathBuf::from(std::env::var_os("PARCRYPT_NODE_OPENSSL35")?);
        let probe = Command::new(&node)
            .args(["-e", "require('crypto').generateKeyPairSync('slh-dsa-sha2-128f')"])
            .output();
        probe.is_ok_and(|o| o.status.success()).then_some(node)
    })
    .as_deref()
}

/// The node, after reporting on it under the tool name the ML-DSA interop
/// tests use too (one line in CI's list of the tools that ran).
fn require_node() -> Option<&'static Path> {
    let node = node();
    crate::tools::require("node-openssl35 (PARCRYPT_NODE_OPENSSL35)", node.is_some()).then_some(node?)
}

/// Runs the script in `mode` over `dir` with `items`; the parsed stdout.
fn run(node: &Path, mode: &str, dir: &Path, items: Value) -> Value {
    std::fs::write(dir.join("script.js"), SCRIPT).expect("write script");
    let job = json!({ "message": hex::encode(MESSAGE), "items": items });
    std::fs::write(dir.join("job.json"), job.to_string()).expect("write job");
    let out = Command::new(node)
        .arg(dir.join("script.js"))
        .args([mode, dir.to_str().expect("utf-8 temp dir")])
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "node {mode} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    if mode == "make" {
        return Value::Null;
    }
    serde_json::from_slice(&out.stdout).expect("the script's JSON")
}

/// The contexts (hex, "" for none) a signer signs `set` with: both for the
/// `f` sets (and everything under `PARCRYPT_SLHDSA_FULL`), one for the `s`
/// sets, with a context and without in turn.
fn contexts(set: ParameterSet) -> Vec<String> {
    let ctx = hex::encode(CONTEXT);
    if set.is_fast() || full() {
        return vec![String::new(), ctx];
    }
    // ALL is 128s, 128f, 192s, … with SHA2 before SHAKE: SHA2-128s with
    // a context, SHAKE-128s without, SHA2-192s without, SHAKE-192s with, …
    let i = ParameterSet::ALL.iter().position(|s| *s == set).unwrap_or(0);
    if (i / 4 + i % 2) % 2 == 0 {
        vec![ctx]
    } else {
        vec![String::new()]
    }
}

fn message(ctx: &str) -> Message<'static> {
    Message::pure(MESSAGE, &hex::decode(ctx).expect("hex")).expect("short context")
}

/// Checks that `sig` verifies under `public` with `ctx` only.
fn verifies_with_its_context_only(public: &PublicKey, ctx: &str, sig: &[u8]) {
    let set = public.parameter_set();
    public
        .verify(&message(ctx), sig)
        .unwrap_or_else(|e| panic!("{set}: OpenSSL's signature (context {ctx:?}): {e}"));
    let wrong = if ctx.is_empty() {
        "00".to_owned()
    } else {
        format!("{ctx}00")
    };
    assert_eq!(
        public.verify(&message(&wrong), sig),
        Err(Error::BadSignature),
        "{set}: verified under another context"
    );
}

#[test]
fn openssl_keys_and_signatures_work_in_parcrypt() {
    let Some(node) = require_node() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    // OpenSSL's SHAKE `s` signatures are checked with parcrypt's keys in
    // the other test: here they would double the slowest signing.
    let signs = |set: ParameterSet| set.is_fast() || set.is_sha2() || full();
    let items: Vec<Value> = ParameterSet::ALL
        .iter()
        .map(|&set| json!({ "set": set.name(), "sign": if signs(set) { contexts(set) } else { Vec::new() } }))
        .collect();
    run(node, "make", dir.path(), Value::Array(items));
    let par = Parallelism::default();
    for set in ParameterSet::ALL {
        let read = |suffix: &str| {
            std::fs::read_to_string(dir.path().join(format!("{set}.{suffix}"))).expect("node's file")
        };
        let (key_pem, pub_pem) = (read("key.pem"), read("pub.pem"));
        let key = PrivateKey::from_pkcs8_pem(key_pem.as_bytes(), &par).expect("OpenSSL's private key");
        let public = PublicKey::from_spki_pem(pub_pem.as_bytes()).expect("OpenSSL's public key");
        assert_eq!(key.parameter_set(), set);
        assert_eq!(key.public_key(), &public, "{set}");
        assert_eq!(
            key.to_pkcs8_pem().expose(),
            key_pem,
            "{set}: PKCS#8 PEM written back"
        );
        assert_eq!(public.to_spki_pem(), pub_pem, "{set}: SPKI PEM written back");
        for (i, ctx) in contexts(set).iter().enumerate().filter(|_| signs(set)) {
            let sig =
                std::fs::read(dir.path().join(format!("{set}.openssl.{i}.sig"))).expect("node's signature");
            verifies_with_its_context_only(&public, ctx, &sig);
        }
    }
}

#[test]
fn parcrypt_keys_and_signatures_work_in_openssl() {
    let Some(node) = require_node() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let par = Parallelism::default();
    let mut keys = Vec::new();
    let mut items = Vec::new();
    for set in ParameterSet::ALL {
        let key = PrivateKey::generate(set, &par).expect("rng");
        let write = |suffix: &str, text: &str| {
            std::fs::write(dir.path().join(format!("{set}.{suffix}")), text).expect("write")
        };
        write("key.pem", key.to_pkcs8_pem().expose());
        write("pub.pem", &key.public_key().to_spki_pem());
        // parcrypt signs what it signs quickly in the test profile; OpenSSL
        // signs the SHAKE `s` sets with parcrypt's key.
        let ours = set.is_fast() || set.is_sha2() || full();
        let (verify, sign) = if ours {
            (contexts(set), Vec::new())
        } else {
            (Vec::new(), contexts(set))
        };
        for (i, ctx) in verify.iter().enumerate() {
            let sig = key.sign(&message(ctx), &par).expect("rng");
            std::fs::write(dir.path().join(format!("{set}.parcrypt.{i}.sig")), sig).expect("write");
        }
        items.push(json!({ "set": set.name(), "verify": verify, "sign": sign }));
        keys.push((key, sign));
    }
    let results = run(node, "check", dir.path(), Value::Array(items));
    let results = results.as_array().expect("a list");
    assert_eq!(results.len(), 12);
    for ((key, sign), r) in keys.iter().zip(results) {
        let set = key.parameter_set();
        assert_eq!(r["set"], set.name());
        assert_eq!(
            r["type"],
            set.name().to_ascii_lowercase(),
            "{set}: OpenSSL's key type"
        );
        for field in ["key_same", "pub_same", "derived_same"] {
            assert_eq!(
                r[field], true,
                "{set}: OpenSSL wrote our key back differently ({field})"
            );
        }
        let (verified, wrong) = (r["verified"].as_array(), r["wrong_context"].as_array());
        assert!(
            verified.is_some_and(|v| v.iter().all(|b| b == true)),
            "{set}: OpenSSL refused our signature: {r}"
        );
        assert!(
            wrong.is_some_and(|v| v.iter().all(|b| b == false)),
            "{set}: OpenSSL ignored the context: {r}"
        );
        for (i, ctx) in sign.iter().enumerate() {
            let sig =
                std::fs::read(dir.path().join(format!("{set}.openssl.{i}.sig"))).expect("node's signature");
            verifies_with_its_context_only(key.public_key(), ctx, &sig);
        }
    }
}
