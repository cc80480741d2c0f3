//! Other implementations of the post-quantum signatures beside their
//! workloads (key generation, signing, verification; one operation or a
//! batch):
//!
//! - OpenSSL 3.5 or later through Node.js (`$PARCRYPT_NODE_OPENSSL35`,
//!   else `node` on `PATH`, when its `process.versions.openssl` is ≥ 3.5 and
//!   its `crypto` makes keys of the algorithm): `generateKeyPairSync`,
//!   `crypto.sign`, `crypto.verify` in a loop, timed inside the one `node`
//!   process, so its start is not counted; peer `openssl-3.5`;
//! - pyca/cryptography (`python3` with `cryptography` 50 or later, for ML-DSA:
//!   `cryptography.hazmat.primitives.asymmetric.mldsa`): a loop over `sign` or
//!   `verify` in one Python process, timed inside it with
//!   `time.perf_counter`, as a pyca user's batch would run; peer `pyca`;
//! - an implementation in this process (RustCrypto's `slh-dsa`), given by the
//!   workload: warmed up once, then timed run by run.
//!
//! All on one core (each is serial). Messages are 32 bytes (a digest, as
//! what people sign is), keys made outside the timing.

use std::path::Path;
use std::time::Instant;

use super::{Beside, absent, outcome, peer_row, run_program};
use crate::model::{PeerStatus, Row, Unit};

/// One signature operation of another implementation, beside a workload.
#[derive(Debug, Clone, Copy)]
pub struct SignPeer {
    /// The algorithm as OpenSSL and Node.js name it: `slh-dsa-sha2-128s`,
    /// `ml-dsa-65`.
    pub algorithm: &'static str,
    /// What is timed.
    pub op: SignOp,
    /// pyca's private key class in
    /// `cryptography.hazmat.primitives.asymmetric.mldsa` (`MLDSA65PrivateKey`),
    /// where pyca has the algorithm.
    pub pyca: Option<&'static str>,
    /// An implementation run in this process, where the workload has one.
    pub in_process: Option<InProcess>,
}

/// The operation a [`SignPeer`] times, once per item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignOp {
    /// A new key pair.
    Keygen,
    /// A signature of a 32-byte message.
    Sign,
    /// A verification of a valid signature of a 32-byte message.
    Verify,
}

impl SignOp {
    /// Its name in the peers' programs.
    fn name(self) -> &'static str {
        match self {
            SignOp::Keygen => "keygen",
            SignOp::Sign => "sign",
            SignOp::Verify => "verify",
        }
    }
}

/// Another implementation in this process: `setup(op, items)` makes keys
/// and messages (outside the timing) and returns one run of `items`
/// operations `op`.
#[derive(Debug, Clone, Copy)]
pub struct InProcess {
    /// The peer's name in results (`rustcrypto`).
    pub name: &'static str,
    /// What it is, for the peer's detail line (`RustCrypto slh-dsa 0.2`).
    pub detail: &'static str,
    /// Builds one run.
    pub setup: fn(op: SignOp, items: usize) -> Box<dyn FnMut()>,
}

/// The OpenSSL ≥ 3.5 peer's name in results.
pub const OPENSSL35: &str = "openssl-3.5";

/// The environment variable naming a Node.js binary whose OpenSSL is 3.5 or
/// later (the Node.js 26 binary from npm bundles OpenSSL 3.5.8).
pub const NODE_ENV: &str = "PARCRYPT_NODE_OPENSSL35";

/// `node -e NODE_PROGRAM ALGORITHM OP ITEMS REPEATS`: one warm-up run of
/// ITEMS operations, then REPEATS timed ones, each run's seconds on a line.
const NODE_PROGRAM: &str = "const crypto = require('crypto');
const [alg, op, items, repeats] = [process.argv[1], process.argv[2], +process.argv[3], +process.argv[4]];
const { privateKey, publicKey } = crypto.generateKeyPairSync(alg);
const msgs = Array.from({ length: items }, (_, i) => crypto.createHash('sha256').update('parcrypt lab message ' + i).digest());
const sigs = op === 'verify' ? msgs.map((m) => crypto.sign(null, m, privateKey)) : [];
const run = () => {
  for (let i = 0; i < items; i++) {
    if (op === 'keygen') crypto.generateKeyPairSync(alg);
    else if (op === 'sign') crypto.sign(null, msgs[i], privateKey);
    else if (!crypto.verify(null, msgs[i], publicKey, sigs[i])) throw new Error('a valid signature failed');
  }
};
run();
for (let r = 0; r < repeats; r++) {
  const t = process.hrtime.bigint();
  run();
  console.log(Number(process.hrtime.bigint() - t) / 1e9);
}
";

/// Checks that the node runs OpenSSL ≥ 3.5 and makes keys of `ALGORITHM`
/// (`node -e NODE_CHECK ALGORITHM`); prints its versions.
const NODE_CHECK: &str = "const [a, b] = process.versions.openssl.split('.').map(Number);
const versions = 'Node.js ' + process.version + ', OpenSSL ' + process.versions.openssl;
if (a < 3 || (a === 3 && b < 5)) { console.error(versions + ': OpenSSL 3.5 or later needed'); process.exit(1); }
require('crypto').generateKeyPairSync(process.argv[1]);
console.log(versions);
";

/// `python3 -c PYCA_PROGRAM CLASS OP ITEMS REPEATS`, as [`NODE_PROGRAM`].
const PYCA_PROGRAM: &str = "import sys, time, hashlib
from cryptography.hazmat.primitives.asymmetric import mldsa
cls, op, items, repeats = getattr(mldsa, sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
key = cls.generate()
pub = key.public_key()
msgs = [hashlib.sha256(b'parcrypt lab message %d' % i).digest() for i in range(items)]
sigs = [key.sign(m) for m in msgs] if op == 'verify' else []
def run():
    if op == 'keygen':
        for _ in range(items): cls.generate()
    elif op == 'sign':
        for m in msgs: key.sign(m)
    else:
        for m, s in zip(msgs, sigs): pub.verify(s, m)
run()
for _ in range(repeats):
    t = time.perf_counter()
    run()
    print(time.perf_counter() - t)
";

/// The Python interpreter the pyca peer runs.
const PYTHON: &str = "python3";

/// The peers of `w`'s signature operation: OpenSSL ≥ 3.5 (through Node.js),
/// pyca where it has the algorithm, and the in-process implementation where
/// the workload has one; `size` is the workload's largest size (items per
/// run for an item workload, else one operation), `repeats` the timed runs
/// after one warm-up.
pub(super) fn measure(
    w: &Beside,
    peer: SignPeer,
    size: usize,
    repeats: usize,
) -> Vec<(Option<Row>, PeerStatus)> {
    let items = match w.unit {
        Unit::Items(_) => size.max(1),
        Unit::Bytes | Unit::Operation => 1,
    };
    let mut peers = vec![measure_node(w, peer, size, items, repeats)];
    if let Some(class) = peer.pyca {
        peers.push(measure_pyca(w, peer, class, size, items, repeats));
    }
    if let Some(own) = peer.in_process {
        peers.push(measure_in_process(w, peer.op, own, size, items, repeats));
    }
    peers
}

/// The node whose OpenSSL is ≥ 3.5 and makes `algorithm` keys, with its
/// versions; or why there is none.
pub fn find_node(algorithm: &str) -> Result<(String, String), String> {
    let from_env = std::env::var(NODE_ENV).ok().filter(|v| !v.is_empty());
    let node = from_env.clone().unwrap_or_else(|| "node".to_owned());
    let whence = if from_env.is_some() {
        format!("${NODE_ENV} ({node})")
    } else {
        format!("node on PATH (${NODE_ENV} unset)")
    };
    match run_program(Path::new(&node), &["-e", NODE_CHECK, algorithm]) {
        Ok(versions) => Ok((node, versions.trim().to_owned())),
        Err(why) => Err(format!(
            "no Node.js whose OpenSSL (3.5 or later) makes {algorithm} keys: {whence}: {why}"
        )),
    }
}

fn measure_node(
    w: &Beside,
    peer: SignPeer,
    size: usize,
    items: usize,
    repeats: usize,
) -> (Option<Row>, PeerStatus) {
    let (node, versions) = match find_node(peer.algorithm) {
        Ok(found) => found,
        Err(why) => return absent(w, OPENSSL35, why),
    };
    let (items_s, repeats_s) = (items.to_string(), repeats.max(1).to_string());
    let args = [
        "-e",
        NODE_PROGRAM,
        peer.algorithm,
        peer.op.name(),
        &items_s,
        &repeats_s,
    ];
    let detail = format!(
        "{versions}: node -e NODE_SIGNATURE_PROGRAM {} {} {items} {} (crypto.{}, timed inside the process)",
        peer.algorithm,
        peer.op.name(),
        repeats.max(1),
        match peer.op {
            SignOp::Keygen => "generateKeyPairSync",
            SignOp::Sign => "sign",
            SignOp::Verify => "verify",
        }
    );
    let samples = run_program(Path::new(&node), &args).and_then(|out| parse_seconds(&out));
    outcome(
        w,
        OPENSSL35,
        detail,
        samples.map(|s| peer_row(w, OPENSSL35, size, &s)),
    )
}

fn measure_pyca(
    w: &Beside,
    peer: SignPeer,
    class: &str,
    size: usize,
    items: usize,
    repeats: usize,
) -> (Option<Row>, PeerStatus) {
    let python = Path::new(PYTHON);
    let check = format!("from cryptography.hazmat.primitives.asymmetric.mldsa import {class}");
    if let Err(why) = run_program(python, &["-c", &check]) {
        return absent(
            w,
            super::PYCA,
            format!(
                "{PYTHON} has no cryptography.hazmat.primitives.asymmetric.mldsa.{class} (pyca/cryptography 50 or later): {why}"
            ),
        );
    }
    let (items_s, repeats_s) = (items.to_string(), repeats.max(1).to_string());
    let args = ["-c", PYCA_PROGRAM, class, peer.op.name(), &items_s, &repeats_s];
    let detail = format!(
        "{PYTHON} -c PYCA_SIGNATURE_PROGRAM {class} {} {items} {} (a loop in one process, timed inside it)",
        peer.op.name(),
        repeats.max(1)
    );
    let samples = run_program(python, &args).and_then(|out| parse_seconds(&out));
    outcome(
        w,
        super::PYCA,
        detail,
        samples.map(|s| peer_row(w, super::PYCA, size, &s)),
    )
}

fn measure_in_process(
    w: &Beside,
    op: SignOp,
    own: InProcess,
    size: usize,
    items: usize,
    repeats: usize,
) -> (Option<Row>, PeerStatus) {
    let mut run = (own.setup)(op, items);
    run(); // warm-up
    let samples: Vec<f64> = (0..repeats.max(1))
        .map(|_| {
            let t = Instant::now();
            run();
            t.elapsed().as_secs_f64()
        })
        .collect();
    let detail = format!("{} in this process, one thread, {items} per run", own.detail);
    outcome(w, own.name, detail, Ok(peer_row(w, own.name, size, &samples)))
}

/// The seconds a program printed, one run a line; at least one, each
/// positive.
pub fn parse_seconds(out: &str) -> Result<Vec<f64>, String> {
    let samples: Vec<f64> = out
        .lines()
        .map(|l| {
            l.trim()
                .parse::<f64>()
                .map_err(|_| format!("not a time in seconds: {l:?}"))
        })
        .collect::<Result<_, _>>()?;
    if samples.is_empty() || samples.iter().any(|s| !(*s > 0.0 && s.is_finite())) {
        return Err(format!("no positive times in the output: {out:?}"));
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{InProcess, OPENSSL35, SignOp, SignPeer, measure, parse_seconds};
    use crate::model::Unit;
    use crate::peers::{Beside, Input};

    #[test]
    fn a_peer_that_cannot_run_is_listed_absent_with_why() {
        let w = Beside {
            workload: "pq-test",
            unit: Unit::Operation,
            input: Input::Memory,
            openssl: None,
            age: None,
            every_age: false,
            b3sum: false,
            pyca: None,
            signer: None,
        };
        let peer = SignPeer {
            algorithm: "no-such-algorithm",
            op: SignOp::Sign,
            pyca: Some("NoSuchPrivateKey"),
            in_process: Some(InProcess {
                name: "in-process",
                detail: "a counter",
                setup: |_op, items| {
                    let mut n = 0;
                    Box::new(move || {
                        n += items;
                        std::hint::black_box(n);
                    })
                },
            }),
        };
        let found = measure(&w, peer, 32, 2);
        let names: Vec<&str> = found.iter().map(|(_, st)| st.peer).collect();
        assert_eq!(names, [OPENSSL35, "pyca", "in-process"]);
        // No node (or python) makes no-such-algorithm keys: absent, saying why.
        let (row, st) = &found[0];
        assert!(row.is_none() && !st.available, "{}", st.detail);
        assert!(st.detail.contains("no-such-algorithm"), "{}", st.detail);
        let (row, st) = &found[1];
        assert!(row.is_none() && !st.available, "{}", st.detail);
        assert!(st.detail.contains("NoSuchPrivateKey"), "{}", st.detail);
        // The in-process peer always runs: one row of two samples.
        let (row, st) = &found[2];
        assert!(st.available && st.detail.contains("a counter"), "{}", st.detail);
        let row = row.as_ref().unwrap();
        assert_eq!((row.samples.len(), row.size_bytes, row.peer), (2, 32, true));
    }

    #[test]
    fn runs_are_read_one_a_line() {
        assert_eq!(parse_seconds("0.5\n0.25\n").unwrap(), vec![0.5, 0.25]);
        assert!(parse_seconds("").is_err());
        assert!(parse_seconds("0\n").is_err());
        assert!(parse_seconds("fast\n").unwrap_err().contains("fast"));
    }
}
