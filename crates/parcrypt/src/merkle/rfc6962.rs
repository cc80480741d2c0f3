//! RFC 6962 / RFC 9162 Merkle tree hash, inclusion and consistency proofs.

use std::fs::File;
use std::io::Read;

use super::Error;
use super::engine::{self, Leaves, Rule, Slice, empty_root};
use super::stream::Source;
use crate::digest::Digest;
use crate::par::Parallelism;

/// The Certificate Transparency Merkle tree (RFC 6962 §2.1, RFC 9162 §2.1):
/// leaf = SHA-256(0x00 ‖ data), node = SHA-256(0x01 ‖ left ‖ right), split at
/// the largest power of two below the size, empty tree = SHA-256 of nothing.
///
/// # Examples
/// ```
/// use parcrypt::merkle::{Chunks, Rfc6962};
/// use parcrypt::par::Parallelism;
///
/// let par = Parallelism::default();
/// let leaves: &[&[u8]] = &[b"a", b"b", b"c"];
/// let root = Rfc6962::root(leaves, &par);
/// let proof = Rfc6962::inclusion_proof(leaves, 2, &par)?;
/// Rfc6962::verify_inclusion(&Rfc6962::leaf_hash(b"c"), 2, 3, &proof, &root)?;
///
/// // A file's bytes cut into 4 KiB leaves:
/// let data = vec![7u8; 100_000];
/// let root = Rfc6962::root(&Chunks::new(&data, 4096), &par);
/// # Ok::<(), parcrypt::merkle::Error>(())
/// ```
///
/// # Performance
/// Parallel from about 512 KiB of leaf data (see [`crate::merkle`]); proofs
/// hash every leaf once.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rfc6962;

impl Rule for Rfc6962 {
    const PADDED: bool = false;
    const LEAF_PREFIX: &'static [u8] = &[0];
    const NODE_PREFIX: &'static [u8] = &[1];
}

/// The largest power of two strictly below `n` (`n >= 2`).
fn split(n: usize) -> usize {
    1 << (usize::BITS - 1 - (n - 1).leading_zeros())
}

impl Rfc6962 {
    /// The hash of a leaf: SHA-256(0x00 ‖ data).
    pub fn leaf_hash(data: &[u8]) -> Digest {
        Rfc6962.leaf(data)
    }

    /// The hash of an inner node: SHA-256(0x01 ‖ left ‖ right).
    pub fn node_hash(left: &Digest, right: &Digest) -> Digest {
        Rfc6962.node(left, right)
    }

    /// The root of the empty tree: SHA-256 of nothing.
    pub fn empty_root() -> Digest {
        empty_root()
    }

    /// The tree head MTH(D\[n\]) of `leaves`.
    pub fn root<L: Leaves + ?Sized>(leaves: &L, par: &Parallelism) -> Digest {
        engine::root(Rfc6962, leaves, par).unwrap_or_else(Self::empty_root)
    }

    /// The tree head of a stream cut into leaves of `leaf_size` bytes, read
    /// in bounded memory (a few buffers of ~8 MiB, or of one block of leaves
    /// if larger). `progress` is called with the number of bytes read.
    ///
    /// # Errors
    /// [`Error::LeafSize`] for a leaf size of 0 or over
    /// [`super::MAX_LEAF_SIZE`]; [`Error::Io`] from reading.
    pub fn root_reader(
        input: impl Read + Send,
        leaf_size: usize,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<Digest, Error> {
        Self::root_source(Source::Reader(input), leaf_size, par, progress)
    }

    /// [`Rfc6962::root_reader`] of a file, read with positional
    /// reads when it is a regular file (see [`crate::merkle::hash_file`]).
    ///
    /// # Errors
    /// [`Error::LeafSize`]; [`Error::Io`] from reading (`UnexpectedEof` if the file shrinks meanwhile).
    pub fn root_file(
        file: &File,
        leaf_size: usize,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<Digest, Error> {
        Self::root_source(Source::of_file(file), leaf_size, par, progress)
    }

    pub(crate) fn root_source(
        source: Source<'_, impl Read + Send>,
        leaf_size: usize,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<Digest, Error> {
        if !(1..=super::MAX_LEAF_SIZE).contains(&leaf_size) {
            return Err(Error::LeafSize(leaf_size));
        }
        let builder = engine::Builder::new(Rfc6962, leaf_size, None);
        let (root, _) = source.build(builder, leaf_size, par, progress)?;
        Ok(root.unwrap_or_else(Self::empty_root))
    }

    /// The inclusion proof (audit path, RFC 9162 §2.1.3.1) of leaf `index`
    /// in the tree of all `leaves`, ordered from the leaf up.
    ///
    /// # Errors
    /// [`Error::Index`] if `index` is not a leaf.
    pub fn inclusion_proof<L: Leaves + ?Sized>(
        leaves: &L,
        index: u64,
        par: &Parallelism,
    ) -> Result<Vec<Digest>, Error> {
        let size = leaves.count();
        let m = usize::try_from(index)
            .ok()
            .filter(|&m| m < size)
            .ok_or(Error::Index {
                index,
                size: size as u64,
            })?;
        let mut path = Vec::new();
        inclusion_path(leaves, 0, size, m, &mut path, par);
        Ok(path)
    }

    /// The consistency proof (RFC 9162 §2.1.4.1) that the tree of the first
    /// `old_size` leaves is a prefix of the tree of the first `new_size`.
    ///
    /// # Errors
    /// [`Error::Sizes`] unless `0 < old_size <= new_size <= leaves.count()`
    /// (a proof from the empty tree proves nothing and does not exist).
    pub fn consistency_proof<L: Leaves + ?Sized>(
        leaves: &L,
        old_size: u64,
        new_size: u64,
        par: &Parallelism,
    ) -> Result<Vec<Digest>, Error> {
        let count = leaves.count() as u64;
        if old_size == 0 || old_size > new_size || new_size > count {
            return Err(Error::Sizes {
                old_size,
                new_size,
                leaves: count,
            });
        }
        let (m, n) = (old_size as usize, new_size as usize);
        let mut path = Vec::new();
        if m < n {
            subproof(leaves, 0, n, m, true, &mut path, par);
        }
        Ok(path)
    }

    /// Verifies an inclusion proof exactly as RFC 9162 §2.1.3.2 specifies:
    /// `leaf_hash` at `index` is in the tree of `size` leaves whose head is
    /// `root`.
    ///
    /// # Errors
    /// [`Error::Index`] if `index >= size`; [`Error::ProofLength`] if the path
    /// is too long or too short for this index and size; [`Error::RootMismatch`]
    /// if the path leads to another root.
    pub fn verify_inclusion(
        leaf_hash: &Digest,
        index: u64,
        size: u64,
        path: &[Digest],
        root: &Digest,
    ) -> Result<(), Error> {
        if index >= size {
            return Err(Error::Index { index, size });
        }
        let (mut f, mut s) = (index, size - 1);
        let mut r = *leaf_hash;
        for p in path {
            if s == 0 {
                return Err(Error::ProofLength);
            }
            if f & 1 == 1 || f == s {
                r = Self::node_hash(p, &r);
                while f & 1 == 0 && f != 0 {
                    f >>= 1;
                    s >>= 1;
                }
            } else {
                r = Self::node_hash(&r, p);
            }
            f >>= 1;
            s >>= 1;
        }
        if s != 0 {
            return Err(Error::ProofLength);
        }
        if &r != root {
            return Err(Error::RootMismatch);
        }
        Ok(())
    }

    /// Verifies a consistency proof exactly as RFC 9162 §2.1.4.2 specifies:
    /// the tree of `old_size` leaves with head `old_root` is a prefix of the
    /// tree of `new_size` leaves with head `new_root`. Equal sizes need an
    /// empty proof and equal roots; a proof from the empty tree is rejected
    /// (it would prove nothing).
    ///
    /// # Errors
    /// [`Error::Sizes`], [`Error::ProofLength`], [`Error::RootMismatch`].
    pub fn verify_consistency(
        old_size: u64,
        new_size: u64,
        old_root: &Digest,
        new_root: &Digest,
        path: &[Digest],
    ) -> Result<(), Error> {
        if old_size == 0 || old_size > new_size {
            return Err(Error::Sizes {
                old_size,
                new_size,
                leaves: new_size,
            });
        }
        if old_size == new_size {
            if !path.is_empty() {
                return Err(Error::ProofLength);
            }
            return if old_root == new_root {
                Ok(())
            } else {
                Err(Error::RootMismatch)
            };
        }
        if path.is_empty() {
            return Err(Error::ProofLength);
        }
        // Step 2: a power-of-two old tree is itself a node of the new one.
        let mut nodes = Vec::with_capacity(path.len() + 1);
        if old_size.is_power_of_two() {
            nodes.push(*old_root);
        }
        nodes.extend_from_slice(path);
        let (mut f, mut s) = (old_size - 1, new_size - 1);
        while f & 1 == 1 {
            f >>= 1;
            s >>= 1;
        }
        let (mut fr, mut sr) = (nodes[0], nodes[0]);
        for c in &nodes[1..] {
            if s == 0 {
                return Err(Error::ProofLength);
            }
            if f & 1 == 1 || f == s {
                fr = Self::node_hash(c, &fr);
                sr = Self::node_hash(c, &sr);
                while f & 1 == 0 && f != 0 {
                    f >>= 1;
                    s >>= 1;
                }
            } else {
                sr = Self::node_hash(&sr, c);
            }
            f >>= 1;
            s >>= 1;
        }
        if s != 0 {
            return Err(Error::ProofLength);
        }
        if &fr != old_root || &sr != new_root {
            return Err(Error::RootMismatch);
        }
        Ok(())
    }

    /// The audit path (RFC 9162 §2.1.3.1) of item `index` in a tree whose
    /// lowest nodes are `nodes` (subtree roots, not leaves: they are not
    /// hashed again).
    ///
    /// With the leaves cut into parts of `2^j` leaves (the last may be
    /// shorter), every part is a node of the RFC 6962 tree, so a leaf's
    /// global path is its path inside its part ([`Rfc6962::inclusion_proof`]
    /// over the part) followed by this path of the part among the parts'
    /// roots — what a cluster computes without gathering the leaves.
    ///
    /// # Panics
    /// If `index` is not below `nodes.len()`.
    pub fn subtree_path(nodes: &[Digest], index: usize) -> Vec<Digest> {
        assert!(index < nodes.len(), "index outside the nodes");
        fn mth(nodes: &[Digest]) -> Digest {
            if nodes.len() == 1 {
                return nodes[0];
            }
            let k = split(nodes.len());
            Rfc6962::node_hash(&mth(&nodes[..k]), &mth(&nodes[k..]))
        }
        fn path(nodes: &[Digest], m: usize, out: &mut Vec<Digest>) {
            if nodes.len() <= 1 {
                return;
            }
            let k = split(nodes.len());
            if m < k {
                path(&nodes[..k], m, out);
                out.push(mth(&nodes[k..]));
            } else {
                path(&nodes[k..], m - k, out);
                out.push(mth(&nodes[..k]));
            }
        }
        let mut out = Vec::new();
        path(nodes, index, &mut out);
        out
    }
}

/// MTH(D\[start:end\]).
fn mth<L: Leaves + ?Sized>(leaves: &L, start: usize, end: usize, par: &Parallelism) -> Digest {
    Rfc6962::root(
        &Slice {
            inner: leaves,
            start,
            end,
        },
        par,
    )
}

/// PATH(m, D\[start:end\]), appended bottom-up.
fn inclusion_path<L: Leaves + ?Sized>(
    leaves: &L,
    start: usize,
    end: usize,
    m: usize,
    out: &mut Vec<Digest>,
    par: &Parallelism,
) {
    let n = end - start;
    if n <= 1 {
        return;
    }
    let k = split(n);
    if m < k {
        inclusion_path(leaves, start, start + k, m, out, par);
        out.push(mth(leaves, start + k, end, par));
    } else {
        inclusion_path(leaves, start + k, end, m - k, out, par);
        out.push(mth(leaves, start, start + k, par));
    }
}

/// SUBPROOF(m, D\[start:end\], b), appended bottom-up.
fn subproof<L: Leaves + ?Sized>(
    leaves: &L,
    start: usize,
    end: usize,
    m: usize,
    b: bool,
    out: &mut Vec<Digest>,
    par: &Parallelism,
) {
    let n = end - start;
    if m == n {
        if !b {
            out.push(mth(leaves, start, end, par));
        }
        return;
    }
    let k = split(n);
    if m <= k {
        subproof(leaves, start, start + k, m, b, out, par);
        out.push(mth(leaves, start + k, end, par));
    } else {
        subproof(leaves, start + k, end, m - k, false, out, par);
        out.push(mth(leaves, start, start + k, par));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_is_the_largest_power_of_two_below() {
        assert_eq!(split(2), 1);
        assert_eq!(split(3), 2);
        assert_eq!(split(4), 2);
        assert_eq!(split(5), 4);
        assert_eq!(split(8), 4);
        assert_eq!(split(9), 8);
    }

    #[test]
    fn a_global_audit_path_is_the_parts_path_then_the_path_among_parts() {
        let par = Parallelism::sequential();
        let leaves: Vec<Vec<u8>> = (0..77u32).map(|i| i.to_le_bytes().to_vec()).collect();
        for n in [1usize, 2, 3, 4, 5, 8, 9, 16, 17, 31, 64, 77] {
            for j in 0..5u32 {
                let part = 1usize << j;
                let parts: Vec<&[Vec<u8>]> = leaves[..n].chunks(part).collect();
                let roots: Vec<Digest> = parts.iter().map(|p| Rfc6962::root(*p, &par)).collect();
                assert_eq!(Rfc6962::subtree_path(&roots, 0).is_empty(), roots.len() == 1);
                for m in 0..n {
                    let mut proof =
                        Rfc6962::inclusion_proof(parts[m / part], (m % part) as u64, &par).expect("in part");
                    proof.extend(Rfc6962::subtree_path(&roots, m / part));
                    let expected = Rfc6962::inclusion_proof(&leaves[..n], m as u64, &par).expect("in tree");
                    assert_eq!(proof, expected, "n={n} j={j} m={m}");
                }
            }
        }
    }
}
