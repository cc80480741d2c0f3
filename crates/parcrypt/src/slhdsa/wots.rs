//! WOTS+ (FIPS 205 §5): chains of F, stepped many at a time.
//!
//! Every chain of a batch — all `len` chains of one key, of several keys,
//! or of the keys of every hypertree layer — takes its next step in one
//! call to the hashing seam, so the SHA-2 path runs them in lanes. Chains
//! that have finished drop out of the batch; the others' results do not
//! depend on who else is in it.

use std::ops::Range;

use super::address::{Adrs, Kind};
use super::hash::{Hashes, Tweak};
use super::params::{Params, W};

/// The `len` base-w digits signed for an n-byte message: its `2n` nibbles,
/// high first, then the three digits of the checksum (Algorithm 7).
pub(super) fn digits(p: &Params, msg: &[u8]) -> Vec<u8> {
    let mut d = Vec::with_capacity(p.len());
    for &b in &msg[..p.n] {
        d.push(b >> 4);
        d.push(b & 15);
    }
    let csum: u32 = d.iter().map(|&x| W - 1 - u32::from(x)).sum();
    // csum < 2^12: `toByte(csum << 4, 2)` read as three nibbles.
    d.extend([(csum >> 8) as u8 & 15, (csum >> 4) as u8 & 15, csum as u8 & 15]);
    d
}

/// The secret chain starts and chain addresses of the keys `keys`
/// (layer, tree, key pair): `len` of each, in key order.
fn starts(p: &Params, h: &Hashes, sk_seed: &[u8], keys: &[(u32, u64, u32)]) -> (Vec<Adrs>, Vec<u8>) {
    let len = p.len();
    let mut prf = Vec::with_capacity(keys.len() * len);
    let mut chain = Vec::with_capacity(keys.len() * len);
    for &(layer, tree, keypair) in keys {
        for i in 0..len as u32 {
            prf.push(
                *Adrs::new(layer, tree, Kind::WotsPrf)
                    .set_keypair(keypair)
                    .set_word2(i),
            );
            chain.push(
                *Adrs::new(layer, tree, Kind::WotsHash)
                    .set_keypair(keypair)
                    .set_word2(i),
            );
        }
    }
    let mut vals = vec![0u8; prf.len() * p.n];
    h.prf_many_into(&prf, sk_seed, &mut vals);
    (chain, vals)
}

/// `wots_pkGen` (Algorithm 6) of key pairs `keypairs` of XMSS tree
/// (`layer`, `tree`): the compressed public keys, n bytes each, into `out`.
pub(super) fn public_keys_into(
    p: &Params,
    h: &Hashes,
    sk_seed: &[u8],
    layer: u32,
    tree: u64,
    keypairs: Range<u32>,
    out: &mut [u8],
) {
    let keys: Vec<(u32, u64, u32)> = keypairs.map(|kp| (layer, tree, kp)).collect();
    let (chain, mut vals) = starts(p, h, sk_seed, &keys);
    let top = (W - 1) as u8;
    let zeros = vec![0u8; chain.len()];
    let ends = vec![top; chain.len()];
    h.chains_in_place(&chain, &zeros, &ends, &mut vals);
    let pk: Vec<Adrs> = keys
        .iter()
        .map(|&(layer, tree, kp)| *Adrs::new(layer, tree, Kind::WotsPk).set_keypair(kp))
        .collect();
    h.many_into(Tweak::H, &pk, &vals, out);
}

/// `wots_sign` (Algorithm 7) of `msgs` (n bytes each) with each of `keys`
/// (layer, tree, key pair), all chains of all keys in one batch: the
/// signatures (`len·n` bytes each) side by side.
pub(super) fn sign_many(
    p: &Params,
    h: &Hashes,
    sk_seed: &[u8],
    keys: &[(u32, u64, u32)],
    msgs: &[u8],
) -> Vec<u8> {
    let (chain, mut vals) = starts(p, h, sk_seed, keys);
    let steps: Vec<u8> = msgs.chunks(p.n).flat_map(|m| digits(p, m)).collect();
    let zeros = vec![0u8; chain.len()];
    h.chains_in_place(&chain, &zeros, &steps, &mut vals);
    vals
}

/// `wots_pkFromSig` (Algorithm 8): the public key a signature `sig` of
/// `msg` implies for key pair (`layer`, `tree`, `keypair`).
pub(super) fn public_key_from_sig(
    p: &Params,
    h: &Hashes,
    sig: &[u8],
    msg: &[u8],
    (layer, tree, keypair): (u32, u64, u32),
) -> [u8; 32] {
    let start = digits(p, msg);
    let steps: Vec<u8> = start.iter().map(|&d| (W - 1) as u8 - d).collect();
    let chain: Vec<Adrs> = (0..p.len() as u32)
        .map(|i| {
            *Adrs::new(layer, tree, Kind::WotsHash)
                .set_keypair(keypair)
                .set_word2(i)
        })
        .collect();
    let mut vals = sig.to_vec();
    h.chains_in_place(&chain, &start, &steps, &mut vals);
    let mut pk = [0u8; 32];
    h.one_into(
        Tweak::H,
        Adrs::new(layer, tree, Kind::WotsPk).set_keypair(keypair),
        &vals,
        &mut pk[..p.n],
    );
    pk
}
