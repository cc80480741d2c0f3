//! SLH-DSA (FIPS 205, the stateless hash-based signature standardised from
//! SPHINCS+): all twelve parameter sets, pure and HashSLH-DSA signing with a
//! context string, hedged by default, on every core.
//!
//! A signature is `R`, a FORS signature of the message digest (k trees of
//! 2^a leaves) and a hypertree signature of the FORS public key (d layers
//! of XMSS trees of 2^h' WOTS+ keys). The digest fixes the address of every
//! tree before any is built, so [`PrivateKey::sign`] builds the k FORS
//! trees and the d XMSS trees as independent units on the
//! [`Parallelism`] it is given; only the WOTS+ signature of each layer
//! waits for the root below it. Signatures are the same bytes on every
//! schedule and thread count (`README.md` beside this file says why).
//!
//! Keys in raw FIPS 205 encodings: a public key is `PK.seed ‖ PK.root`
//! (2n bytes), a private key `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` (4n);
//! and in PKCS#8 / SubjectPublicKeyInfo DER and PEM byte for byte as
//! OpenSSL 3.5 writes them ([`PrivateKey::from_pkcs8_pem`],
//! [`PublicKey::to_spki_pem`], …), password-protected PKCS#8 through
//! [`crate::pkcs8`].
//! Keys are also a [`keys`](crate::keys) family ([`SignatureOptions`]:
//! context, prehash, deterministic), so the shared readers, writers,
//! batches and the CLI's `parcrypt slh-dsa` serve them as they serve
//! ML-DSA; pure signing there holds the message whole
//! ([`MAX_PURE_MESSAGE`]).
//! The secret seeds live in a [`SecretBytes`] (wiped, never printed);
//! every branch and memory index of signing comes from the public message
//! digest.
//!
//! # Examples
//! ```
//! use parcrypt::par::Parallelism;
//! use parcrypt::slhdsa::{Message, ParameterSet, PrivateKey, PublicKey};
//!
//! let par = Parallelism::default();
//! let key = PrivateKey::generate(ParameterSet::Sha2_128f, &par)?;
//! let msg = Message::pure(b"release manifest", b"my-context")?;
//! let sig = key.sign(&msg, &par)?;
//! assert_eq!(sig.len(), ParameterSet::Sha2_128f.signature_len());
//!
//! let public = PublicKey::from_bytes(ParameterSet::Sha2_128f, &key.public_key().to_bytes())?;
//! public.verify(&msg, &sig)?;
//! assert!(public.verify(&Message::pure(b"release manifest", b"")?, &sig).is_err());
//! # Ok::<(), parcrypt::slhdsa::Error>(())
//! ```

mod address;
mod encoding;
mod family;
mod hash;
mod params;
mod prehash;
mod tree;
mod wots;

use std::fmt;

pub use family::{Hasher, MAX_PURE_MESSAGE, SignatureOptions};
pub use params::ParameterSet;
pub use prehash::{Message, PreHash};

use address::{Adrs, Kind};
use hash::{Hashes, Tweak};
use params::Params;
use tree::{Job, Tree};

use crate::par::{Grain, Parallelism};
use crate::secret::SecretBytes;

/// What can go wrong with SLH-DSA keys, messages and signatures.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A raw public key of the wrong length for its parameter set.
    #[error("an {set} public key is {expected} bytes, not {got}")]
    PublicKeyLength {
        /// The parameter set the key was read as.
        set: ParameterSet,
        /// 2n.
        expected: usize,
        /// What was given.
        got: usize,
    },
    /// A raw private key of the wrong length for its parameter set.
    #[error("an {set} private key is {expected} bytes, not {got}")]
    PrivateKeyLength {
        /// The parameter set the key was read as.
        set: ParameterSet,
        /// 4n.
        expected: usize,
        /// What was given.
        got: usize,
    },
    /// A seed (or `opt_rand`) that is not n bytes.
    #[error("{set} seeds and opt_rand are {expected} bytes, not {got}")]
    SeedLength {
        /// The parameter set.
        set: ParameterSet,
        /// n.
        expected: usize,
        /// What was given.
        got: usize,
    },
    /// A signature of the wrong length for the key's parameter set (a
    /// truncated file, or a signature of another set).
    #[error("an {set} signature is {expected} bytes, not {got}")]
    SignatureLength {
        /// The verifying key's parameter set.
        set: ParameterSet,
        /// The set's signature length.
        expected: usize,
        /// What was given.
        got: usize,
    },
    /// A context string over 255 bytes.
    #[error("the context string is {0} bytes; SLH-DSA allows at most 255")]
    ContextTooLong(usize),
    /// A prehashed digest of the wrong length for its hash.
    #[error("a {hash} digest is {expected} bytes, not {got}")]
    DigestLength {
        /// The prehash named.
        hash: PreHash,
        /// Its digest length.
        expected: usize,
        /// What was given.
        got: usize,
    },
    /// A private key whose `PK.root` is not the root its seeds make: a
    /// damaged key, or a key of another parameter set.
    #[error(
        "the private key's PK.root does not match its seeds (a damaged key, or one of another parameter set)"
    )]
    KeyMismatch,
    /// The signature does not verify.
    #[error("signature verification failed")]
    BadSignature,
    /// The operating system's random number generator failed.
    #[error("the operating system's random number generator failed")]
    Random,
    /// A key's encoding, password protection or type (the problems every
    /// family shares).
    #[error(transparent)]
    Key(#[from] crate::keys::KeyFileError),
}

/// An SLH-DSA public key: `PK.seed ‖ PK.root`.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicKey {
    set: ParameterSet,
    bytes: [u8; 64],
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({}, ", self.set)?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

/// An SLH-DSA private key: the secret `SK.seed` and `SK.prf` (wiped on
/// drop, never printed) and the public key.
#[derive(Clone)]
pub struct PrivateKey {
    /// `SK.seed ‖ SK.prf`.
    seeds: SecretBytes,
    public: PublicKey,
    /// The leaves of the top XMSS tree (the 2^h′ WOTS+ public keys of
    /// layer d − 1, n bytes each), kept from building `PK.root`: every
    /// signature's top layer is climbed from them instead of rebuilt
    /// (a key generation's work saved per signature). Public values.
    top: Vec<u8>,
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey")
            .field("seeds", &self.seeds)
            .field("public", &self.public)
            .finish()
    }
}

fn check_len(set: ParameterSet, got: usize) -> Result<(), Error> {
    if got == set.n() {
        Ok(())
    } else {
        Err(Error::SeedLength {
            set,
            expected: set.n(),
            got,
        })
    }
}

impl PublicKey {
    /// Reads a raw public key, `PK.seed ‖ PK.root` (2n bytes).
    ///
    /// # Errors
    /// [`Error::PublicKeyLength`] if `bytes` is not 2n bytes long.
    pub fn from_bytes(set: ParameterSet, bytes: &[u8]) -> Result<PublicKey, Error> {
        if bytes.len() != set.public_key_len() {
            return Err(Error::PublicKeyLength {
                set,
                expected: set.public_key_len(),
                got: bytes.len(),
            });
        }
        let mut key = PublicKey { set, bytes: [0; 64] };
        key.bytes[..bytes.len()].copy_from_slice(bytes);
        Ok(key)
    }

    /// The raw encoding, `PK.seed ‖ PK.root`.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.set.public_key_len()]
    }

    /// The raw encoding, `PK.seed ‖ PK.root`, as a new buffer.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }

    /// The key's parameter set.
    pub fn parameter_set(&self) -> ParameterSet {
        self.set
    }

    fn seed(&self) -> &[u8] {
        &self.bytes[..self.set.n()]
    }

    fn root(&self) -> &[u8] {
        &self.bytes[self.set.n()..self.set.public_key_len()]
    }

    /// Verifies `sig` over `msg` (pure or prehashed, with its context).
    ///
    /// # Errors
    /// [`Error::SignatureLength`] for a signature of the wrong length,
    /// [`Error::BadSignature`] for one that does not verify.
    pub fn verify(&self, msg: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
        self.verify_parts(&msg.parts(), sig)
    }

    /// `slh_verify_internal` (FIPS 205 Algorithm 20): verifies `sig` over
    /// `msg` as given, with no domain separator or context. For test
    /// vectors and protocols that build M' themselves; use
    /// [`PublicKey::verify`] otherwise.
    ///
    /// # Errors
    /// As [`PublicKey::verify`].
    pub fn verify_internal(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.verify_parts(&[msg], sig)
    }

    fn verify_parts(&self, msg: &[&[u8]], sig: &[u8]) -> Result<(), Error> {
        let p = self.set.params();
        if sig.len() != p.sig_len() {
            return Err(Error::SignatureLength {
                set: self.set,
                expected: p.sig_len(),
                got: sig.len(),
            });
        }
        let n = p.n;
        let h = Hashes::new(p, self.seed());
        let (r, rest) = sig.split_at(n);
        let (fors_sig, ht_sig) = rest.split_at(p.fors_len());
        let digest = h.h_msg(r, self.root(), msg);
        let (md, mut tree, mut leaf) = split_digest(p, &digest);
        let mut node = fors_public_key_from_sig(p, &h, fors_sig, &indices(md, p.a, p.k), tree, leaf);
        for (layer, xmss) in ht_sig.chunks(p.xmss_len()).enumerate() {
            let layer = layer as u32;
            let (wots_sig, auth) = xmss.split_at(p.len() * n);
            let mut cur = wots::public_key_from_sig(p, &h, wots_sig, &node[..n], (layer, tree, leaf));
            let xmss_tree = Tree::Xmss { layer, tree };
            let mut pair = vec![0u8; 2 * n];
            for (z, sibling) in auth.chunks(n).enumerate() {
                let z = z as u32;
                let (l, r) = pair.split_at_mut(n);
                if (leaf >> z) & 1 == 0 {
                    l.copy_from_slice(&cur[..n]);
                    r.copy_from_slice(sibling);
                } else {
                    l.copy_from_slice(sibling);
                    r.copy_from_slice(&cur[..n]);
                }
                h.one_into(
                    Tweak::H,
                    &xmss_tree.node_adrs(p, z + 1, leaf >> (z + 1)),
                    &pair,
                    &mut cur[..n],
                );
            }
            node = cur;
            leaf = (tree & ((1 << p.hp) - 1)) as u32;
            tree >>= p.hp;
        }
        if node[..n] == *self.root() {
            Ok(())
        } else {
            Err(Error::BadSignature)
        }
    }
}

impl PrivateKey {
    /// A new key from the operating system's random number generator, the
    /// top XMSS tree built on `par`.
    ///
    /// # Errors
    /// [`Error::Random`] if the random number generator fails.
    pub fn generate(set: ParameterSet, par: &Parallelism) -> Result<PrivateKey, Error> {
        let n = set.n();
        let mut seeds = SecretBytes::zeroed(2 * n);
        getrandom::fill(seeds.expose_mut()).map_err(|_| Error::Random)?;
        let mut pk_seed = [0u8; 32];
        getrandom::fill(&mut pk_seed[..n]).map_err(|_| Error::Random)?;
        Ok(PrivateKey::from_parts(set, seeds, &pk_seed[..n], par))
    }

    /// `slh_keygen_internal` (FIPS 205 Algorithm 18): the key of the given
    /// seeds (n bytes each), for test vectors and keys derived elsewhere.
    ///
    /// # Errors
    /// [`Error::SeedLength`] if a seed is not n bytes.
    pub fn from_seeds(
        set: ParameterSet,
        sk_seed: &[u8],
        sk_prf: &[u8],
        pk_seed: &[u8],
        par: &Parallelism,
    ) -> Result<PrivateKey, Error> {
        for seed in [sk_seed, sk_prf, pk_seed] {
            check_len(set, seed.len())?;
        }
        let mut seeds = SecretBytes::zeroed(2 * set.n());
        let (s, p) = seeds.expose_mut().split_at_mut(set.n());
        s.copy_from_slice(sk_seed);
        p.copy_from_slice(sk_prf);
        Ok(PrivateKey::from_parts(set, seeds, pk_seed, par))
    }

    fn from_parts(set: ParameterSet, seeds: SecretBytes, pk_seed: &[u8], par: &Parallelism) -> PrivateKey {
        let p = set.params();
        let n = p.n;
        let h = Hashes::new(p, pk_seed);
        let top = Job {
            tree: Tree::Xmss {
                layer: p.d - 1,
                tree: 0,
            },
            target: None,
            keep_leaves: true,
        };
        let built = tree::build(p, &h, &seeds.expose()[..n], &[top], par).pop();
        let (root, top) = built.map(|b| (b.root, b.leaves)).unwrap_or_default();
        let mut public = PublicKey { set, bytes: [0; 64] };
        public.bytes[..n].copy_from_slice(pk_seed);
        public.bytes[n..2 * n].copy_from_slice(&root[..n]);
        PrivateKey { seeds, public, top }
    }

    /// Reads a raw private key, `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`
    /// (4n bytes), and checks `PK.root` against the seeds (rebuilding the
    /// top XMSS tree on `par`, the cost of a key generation).
    ///
    /// # Errors
    /// [`Error::PrivateKeyLength`] for the wrong length,
    /// [`Error::KeyMismatch`] if `PK.root` is not the seeds' root.
    pub fn from_bytes(set: ParameterSet, bytes: &[u8], par: &Parallelism) -> Result<PrivateKey, Error> {
        let n = set.n();
        if bytes.len() != set.private_key_len() {
            return Err(Error::PrivateKeyLength {
                set,
                expected: set.private_key_len(),
                got: bytes.len(),
            });
        }
        let key = PrivateKey::from_seeds(set, &bytes[..n], &bytes[n..2 * n], &bytes[2 * n..3 * n], par)?;
        // Public data: compared in variable time.
        if key.public.root() == &bytes[3 * n..] {
            Ok(key)
        } else {
            Err(Error::KeyMismatch)
        }
    }

    /// The raw encoding, `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`.
    pub fn to_bytes(&self) -> SecretBytes {
        let mut out = SecretBytes::zeroed(self.public.set.private_key_len());
        let (seeds, public) = out.expose_mut().split_at_mut(self.seeds.len());
        seeds.copy_from_slice(self.seeds.expose());
        public.copy_from_slice(self.public.as_bytes());
        out
    }

    /// The public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.public
    }

    /// The key's parameter set.
    pub fn parameter_set(&self) -> ParameterSet {
        self.public.set
    }

    /// Signs `msg` (pure or prehashed, with its context), **hedged**: with
    /// a fresh `opt_rand` from the operating system's random number
    /// generator, so two signatures of one message differ and a fault or a
    /// side channel in one signing reveals less. The trees are built on
    /// `par`.
    ///
    /// # Errors
    /// [`Error::Random`] if the random number generator fails.
    ///
    /// # Performance
    /// The work is `k` FORS trees and `d − 1` XMSS trees (SHA2-128s: 14
    /// trees of 4,096 leaves and 6 of 512 WOTS+ keys; the top tree's leaves
    /// the key keeps), cut into units of at most 256 FORS or 32 XMSS
    /// leaves; every parameter set offers dozens of units, enough for every
    /// core of a machine.
    pub fn sign(&self, msg: &Message<'_>, par: &Parallelism) -> Result<Vec<u8>, Error> {
        let n = self.public.set.n();
        let mut opt_rand = [0u8; 32];
        getrandom::fill(&mut opt_rand[..n]).map_err(|_| Error::Random)?;
        Ok(self.sign_parts(&msg.parts(), &opt_rand[..n], par))
    }

    /// Signs `msg` **deterministically**: `opt_rand` is `PK.seed` (FIPS 205
    /// §9.2), so a message always gets the same signature. For
    /// reproducible builds and tests; prefer the hedged [`PrivateKey::sign`].
    pub fn sign_deterministic(&self, msg: &Message<'_>, par: &Parallelism) -> Vec<u8> {
        self.sign_parts(&msg.parts(), self.public.seed(), par)
    }

    /// `slh_sign_internal` (FIPS 205 Algorithm 19): signs `msg` as given,
    /// with no domain separator or context, with the given `opt_rand`
    /// (n bytes). For test vectors and protocols that build M' themselves.
    ///
    /// # Errors
    /// [`Error::SeedLength`] if `opt_rand` is not n bytes.
    pub fn sign_internal(&self, msg: &[u8], opt_rand: &[u8], par: &Parallelism) -> Result<Vec<u8>, Error> {
        check_len(self.public.set, opt_rand.len())?;
        Ok(self.sign_parts(&[msg], opt_rand, par))
    }

    fn sign_parts(&self, msg: &[&[u8]], opt_rand: &[u8], par: &Parallelism) -> Vec<u8> {
        let p = self.public.set.params();
        let n = p.n;
        let (sk_seed, sk_prf) = self.seeds.expose().split_at(n);
        let h = Hashes::new(p, self.public.seed());
        let r = h.prf_msg(sk_prf, opt_rand, msg);
        let digest = h.h_msg(&r[..n], self.public.root(), msg);
        let (md, idx_tree, idx_leaf) = split_digest(p, &digest);
        let fors_idx = indices(md, p.a, p.k);

        // Every tree's address, from the digest alone.
        let mut layers = Vec::with_capacity(p.d as usize);
        let (mut tree, mut leaf) = (idx_tree, idx_leaf);
        for layer in 0..p.d {
            layers.push((layer, tree, leaf));
            leaf = (tree & ((1 << p.hp) - 1)) as u32;
            tree >>= p.hp;
        }
        let fors_trees = (0..p.k).map(|i| Job {
            tree: Tree::Fors {
                i,
                tree: idx_tree,
                keypair: idx_leaf,
            },
            target: Some(fors_idx[i as usize]),
            keep_leaves: false,
        });
        let xmss_trees = layers.iter().map(|&(layer, tree, leaf)| Job {
            tree: Tree::Xmss { layer, tree },
            target: Some(leaf),
            keep_leaves: false,
        });
        let mut xmss_jobs: Vec<Job> = xmss_trees.collect();
        // The top layer's tree is the key's own (tree 0 of layer d − 1):
        // climbed from the leaves the key keeps, not rebuilt.
        let top = xmss_jobs.pop();
        let jobs: Vec<Job> = fors_trees.chain(xmss_jobs).collect();
        let mut built = tree::build(p, &h, sk_seed, &jobs, par);
        built.extend(top.map(|job| tree::from_leaves(p, &h, &job, &self.top)));
        let (fors, xmss) = built.split_at(p.k as usize);

        let mut sig = Vec::with_capacity(p.sig_len());
        sig.extend_from_slice(&r[..n]);
        // FORS: each tree's secret leaf, then its authentication path.
        let sk_adrs: Vec<Adrs> = (0..p.k)
            .map(|i| tree::fors_sk_adrs(p, idx_tree, idx_leaf, i, fors_idx[i as usize]))
            .collect();
        let mut sks = SecretBytes::zeroed(p.k as usize * n);
        h.prf_many_into(&sk_adrs, sk_seed, sks.expose_mut());
        let mut roots = Vec::with_capacity(p.k as usize * n);
        for (i, built) in fors.iter().enumerate() {
            sig.extend_from_slice(&sks.expose()[i * n..][..n]);
            sig.extend_from_slice(&built.auth);
            roots.extend_from_slice(&built.root[..n]);
        }
        let mut fors_pk = [0u8; 32];
        h.one_into(
            Tweak::H,
            Adrs::new(0, idx_tree, Kind::ForsRoots).set_keypair(idx_leaf),
            &roots,
            &mut fors_pk[..n],
        );

        // The hypertree: layer j's WOTS+ key signs the root below it (the
        // FORS public key for layer 0); all layers' chains in one batch.
        let mut signed = Vec::with_capacity(p.d as usize * n);
        signed.extend_from_slice(&fors_pk[..n]);
        for below in &xmss[..xmss.len() - 1] {
            signed.extend_from_slice(&below.root[..n]);
        }
        // Split by layers over the threads where there are many layers
        // (the `f` sets: 5 % of SHA2-128f's work, left after the trees).
        let wots_sigs = par
            .map_range(layers.len(), &WOTS_GRAIN, |range| {
                let (first, end) = (range.start, range.end);
                wots::sign_many(p, &h, sk_seed, &layers[first..end], &signed[first * n..end * n])
            })
            .concat();
        for (wots_sig, built) in wots_sigs.chunks(p.len() * n).zip(xmss) {
            sig.extend_from_slice(wots_sig);
            sig.extend_from_slice(&built.auth);
        }
        debug_assert_eq!(sig.len(), p.sig_len());
        sig
    }
}

/// The FORS public key a FORS signature implies (`fors_pkFromSig`,
/// Algorithm 17), the k trees climbed side by side.
fn fors_public_key_from_sig(
    p: &Params,
    h: &Hashes,
    sig: &[u8],
    idx: &[u32],
    tree: u64,
    keypair: u32,
) -> [u8; 32] {
    let n = p.n;
    let k = p.k as usize;
    let per_tree = (1 + p.a as usize) * n;
    let trees: Vec<Tree> = (0..p.k).map(|i| Tree::Fors { i, tree, keypair }).collect();
    let adrs: Vec<Adrs> = trees
        .iter()
        .zip(idx)
        .map(|(t, &x)| t.node_adrs(p, 0, x))
        .collect();
    let sks: Vec<u8> = sig.chunks(per_tree).flat_map(|c| &c[..n]).copied().collect();
    let mut nodes = vec![0u8; k * n];
    h.many_into(Tweak::F, &adrs, &sks, &mut nodes);
    let mut pairs = vec![0u8; k * 2 * n];
    for z in 0..p.a {
        let mut adrs = Vec::with_capacity(k);
        for i in 0..k {
            let sibling = &sig[i * per_tree + n + z as usize * n..][..n];
            let (l, r) = pairs[i * 2 * n..][..2 * n].split_at_mut(n);
            if (idx[i] >> z) & 1 == 0 {
                l.copy_from_slice(&nodes[i * n..][..n]);
                r.copy_from_slice(sibling);
            } else {
                l.copy_from_slice(sibling);
                r.copy_from_slice(&nodes[i * n..][..n]);
            }
            adrs.push(trees[i].node_adrs(p, z + 1, idx[i] >> (z + 1)));
        }
        h.many_into(Tweak::H, &adrs, &pairs, &mut nodes);
    }
    let mut pk = [0u8; 32];
    h.one_into(
        Tweak::H,
        Adrs::new(0, tree, Kind::ForsRoots).set_keypair(keypair),
        &nodes,
        &mut pk[..n],
    );
    pk
}

/// Splits the message digest into the FORS message and the hypertree
/// indices (FIPS 205 Algorithm 19, lines 7–10).
fn split_digest<'d>(p: &Params, digest: &'d [u8]) -> (&'d [u8], u64, u32) {
    let md_len = (p.k * p.a).div_ceil(8) as usize;
    let tree_bits = p.h - p.hp;
    let tree_len = tree_bits.div_ceil(8) as usize;
    let leaf_len = p.hp.div_ceil(8) as usize;
    let (md, rest) = digest.split_at(md_len);
    let to_int = |b: &[u8]| b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
    let tree = to_int(&rest[..tree_len]);
    let tree = if tree_bits >= 64 {
        tree
    } else {
        tree & ((1 << tree_bits) - 1)
    };
    let leaf = to_int(&rest[tree_len..tree_len + leaf_len]) & ((1 << p.hp) - 1);
    (md, tree, leaf as u32)
}

/// `base_2b(md, a, k)` (Algorithm 4): k indices of a bits each.
fn indices(md: &[u8], a: u32, k: u32) -> Vec<u32> {
    let mut out = Vec::with_capacity(k as usize);
    let (mut total, mut bits, mut at) = (0u64, 0u32, 0usize);
    for _ in 0..k {
        while bits < a {
            total = (total << 8) | u64::from(md[at]);
            at += 1;
            bits += 8;
        }
        bits -= a;
        out.push(((total >> bits) & ((1 << a) - 1)) as u32);
    }
    out
}

/// One signature to check in [`verify_batch`].
#[derive(Clone, Copy, Debug)]
pub struct BatchItem<'a> {
    /// The key it should verify under.
    pub key: &'a PublicKey,
    /// What was signed.
    pub message: &'a Message<'a>,
    /// The signature.
    pub signature: &'a [u8],
}

/// The layers' WOTS+ signatures of a signature, split over the threads in
/// parts of at least 8 layers: the `f` sets' 17–22 layers in two or more
/// parts (SHA2-128f: 5.8 k compressions, ~5 % of a signature, which would
/// otherwise run on one thread after the trees); the `s` sets' 7–8 layers
/// (under 0.1 % of theirs) on the calling thread.
const WOTS_GRAIN: Grain = Grain {
    unit: 1,
    min_part: 8,
    task: 8,
};

/// Verifications per task: one (a verification is thousands of hashes).
const BATCH: Grain = Grain {
    unit: 1,
    min_part: 1,
    task: 1,
};

/// Verifies many signatures, spread over `par`; one answer per item, in
/// order (`true`: it verifies).
pub fn verify_batch(items: &[BatchItem<'_>], par: &Parallelism) -> Vec<bool> {
    par.map_items(items, &BATCH, |item| {
        item.key.verify(item.message, item.signature).is_ok()
    })
}

#[cfg(test)]
mod tests;
