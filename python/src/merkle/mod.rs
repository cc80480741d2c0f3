//! `parcrypt.merkle`: RFC 6962/9162 trees with proofs, BitTorrent v2 and
//! Glacier tree hashes, and file hashing, over the library's one engine.

mod compact;
mod files;

use parcrypt::digest::Digest;
use parcrypt::merkle::{self, BitTorrentV2, Chunks, Glacier, Rfc6962};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::buffer::{In, detach_from};
use crate::{errors, par};
use compact::PyCompactRange;
use files::{check_sums, hash_file, hash_files, hash_tree};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rfc6962_root, m)?)?;
    m.add_function(wrap_pyfunction!(rfc6962_inclusion_proof, m)?)?;
    m.add_function(wrap_pyfunction!(rfc6962_consistency_proof, m)?)?;
    m.add_function(wrap_pyfunction!(rfc6962_verify_inclusion, m)?)?;
    m.add_function(wrap_pyfunction!(rfc6962_verify_consistency, m)?)?;
    m.add_function(wrap_pyfunction!(rfc6962_leaf_hash, m)?)?;
    m.add_function(wrap_pyfunction!(rfc6962_node_hash, m)?)?;
    m.add_function(wrap_pyfunction!(bittorrent_v2, m)?)?;
    m.add_function(wrap_pyfunction!(glacier, m)?)?;
    m.add_function(wrap_pyfunction!(hash_file, m)?)?;
    m.add_function(wrap_pyfunction!(hash_files, m)?)?;
    m.add_function(wrap_pyfunction!(check_sums, m)?)?;
    m.add_function(wrap_pyfunction!(hash_tree, m)?)?;
    m.add_class::<PyCompactRange>()?;
    m.add_function(wrap_pyfunction!(bittorrent_piece_hashes, m)?)?;
    m.add_function(wrap_pyfunction!(bittorrent_root_from_pieces, m)?)?;
    m.add_function(wrap_pyfunction!(rfc6962_path, m)?)?;
    Ok(())
}

/// The leaves of a tree: a sequence of bytes-like objects, or one buffer cut
/// into `leaf_size`-byte leaves (the last may be shorter).
enum Leaves {
    List(Vec<In>),
    Buffer(In, usize),
}

impl Leaves {
    fn get(leaves: &Bound<'_, PyAny>, leaf_size: Option<usize>) -> PyResult<Leaves> {
        match leaf_size {
            Some(0) => Err(PyValueError::new_err("leaf_size must be at least 1")),
            Some(size) => Ok(Leaves::Buffer(In::get(leaves, "data")?, size)),
            None => {
                if leaves.is_instance_of::<PyBytes>() || leaves.is_instance_of::<pyo3::types::PyByteArray>() {
                    return Err(PyTypeError::new_err(
                        "leaves must be a sequence of bytes-like objects; for one buffer cut into leaves, pass leaf_size=",
                    ));
                }
                let mut list = Vec::new();
                for (i, leaf) in leaves.try_iter()?.enumerate() {
                    list.push(In::get(&leaf?, &format!("leaves[{i}]"))?);
                }
                Ok(Leaves::List(list))
            }
        }
    }

    /// Runs `f` over the leaves as the library sees them (a slice of
    /// buffers, or [`Chunks`] of one), with the GIL released for large inputs.
    fn with<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&dyn merkle::Leaves) -> T + Send) -> T {
        let bytes = match self {
            Leaves::List(l) => l.iter().map(In::len).sum(),
            Leaves::Buffer(b, _) => b.len(),
        };
        detach_from(py, bytes, || match self {
            Leaves::List(l) => f(&Listed(l)),
            Leaves::Buffer(b, size) => f(&Chunks::new(b.as_slice(), *size)),
        })
    }
}

/// A slice of buffers as the library's `Leaves` (the library implements
/// them for `[T]`; a trait object needs a sized value to point to).
struct Listed<'a>(&'a [In]);

impl merkle::Leaves for Listed<'_> {
    fn count(&self) -> usize {
        self.0.count()
    }
    fn leaf(&self, index: usize) -> &[u8] {
        self.0.leaf(index)
    }
    fn bytes(&self) -> usize {
        self.0.bytes()
    }
}

fn hash_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Digest> {
    let b = In::get(obj, what)?;
    b.as_slice()
        .try_into()
        .map_err(|_| PyValueError::new_err(format!("{what} must be 32 bytes, got {}", b.len())))
}

fn hashes_of(list: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Digest>> {
    list.try_iter()?
        .enumerate()
        .map(|(i, h)| hash_of(&h?, &format!("{what}[{i}]")))
        .collect()
}

fn to_list<'py>(py: Python<'py>, hashes: &[Digest]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, hashes.iter().map(|h| PyBytes::new(py, h)))
}

/// The RFC 6962 tree head of `leaves`.
#[pyfunction]
#[pyo3(signature = (leaves, *, leaf_size = None, threads = None, strategy = "steal"))]
fn rfc6962_root<'py>(
    py: Python<'py>,
    leaves: &Bound<'py, PyAny>,
    leaf_size: Option<usize>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let par = par::parallelism(threads, strategy)?;
    let leaves = Leaves::get(leaves, leaf_size)?;
    let root = leaves.with(py, |l| Rfc6962::root(l, &par));
    Ok(PyBytes::new(py, &root))
}

/// The audit path of leaf `index`.
#[pyfunction]
#[pyo3(signature = (leaves, index, *, leaf_size = None, threads = None, strategy = "steal"))]
fn rfc6962_inclusion_proof<'py>(
    py: Python<'py>,
    leaves: &Bound<'py, PyAny>,
    index: u64,
    leaf_size: Option<usize>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyList>> {
    let par = par::parallelism(threads, strategy)?;
    let leaves = Leaves::get(leaves, leaf_size)?;
    let proof = leaves
        .with(py, |l| Rfc6962::inclusion_proof(l, index, &par))
        .map_err(|e| errors::merkle(py, e))?;
    to_list(py, &proof)
}

/// The consistency proof from the first `old_size` leaves to the first `new_size`.
#[pyfunction]
#[pyo3(signature = (leaves, old_size, new_size, *, leaf_size = None, threads = None, strategy = "steal"))]
#[allow(clippy::too_many_arguments)]
fn rfc6962_consistency_proof<'py>(
    py: Python<'py>,
    leaves: &Bound<'py, PyAny>,
    old_size: u64,
    new_size: u64,
    leaf_size: Option<usize>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyList>> {
    let par = par::parallelism(threads, strategy)?;
    let leaves = Leaves::get(leaves, leaf_size)?;
    let proof = leaves
        .with(py, |l| Rfc6962::consistency_proof(l, old_size, new_size, &par))
        .map_err(|e| errors::merkle(py, e))?;
    to_list(py, &proof)
}

/// Checks an inclusion proof; raises `InvalidProof` unless it leads to `root`.
#[pyfunction]
fn rfc6962_verify_inclusion(
    py: Python<'_>,
    leaf_hash: &Bound<'_, PyAny>,
    index: u64,
    tree_size: u64,
    proof: &Bound<'_, PyAny>,
    root: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let (leaf, proof, root) = (
        hash_of(leaf_hash, "leaf_hash")?,
        hashes_of(proof, "proof")?,
        hash_of(root, "root")?,
    );
    Rfc6962::verify_inclusion(&leaf, index, tree_size, &proof, &root).map_err(|e| errors::merkle(py, e))
}

/// Checks a consistency proof; raises `InvalidProof` unless it links the roots.
#[pyfunction]
fn rfc6962_verify_consistency(
    py: Python<'_>,
    old_size: u64,
    new_size: u64,
    old_root: &Bound<'_, PyAny>,
    new_root: &Bound<'_, PyAny>,
    proof: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let (old, new) = (hash_of(old_root, "old_root")?, hash_of(new_root, "new_root")?);
    let proof = hashes_of(proof, "proof")?;
    Rfc6962::verify_consistency(old_size, new_size, &old, &new, &proof).map_err(|e| errors::merkle(py, e))
}

/// SHA-256(0x00 ‖ data).
#[pyfunction]
fn rfc6962_leaf_hash<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let data = In::get(data, "data")?;
    let h = detach_from(py, data.len(), || Rfc6962::leaf_hash(data.as_slice()));
    Ok(PyBytes::new(py, &h))
}

/// SHA-256(0x01 ‖ left ‖ right).
#[pyfunction]
fn rfc6962_node_hash<'py>(
    py: Python<'py>,
    left: &Bound<'py, PyAny>,
    right: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let h = Rfc6962::node_hash(&hash_of(left, "left")?, &hash_of(right, "right")?);
    Ok(PyBytes::new(py, &h))
}

/// BEP 52: `(pieces_root or None for empty data, piece_layer)` of a file's bytes.
#[pyfunction]
#[pyo3(signature = (data, *, piece_length = 16384, threads = None, strategy = "steal"))]
fn bittorrent_v2<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    piece_length: u64,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<(Option<Bound<'py, PyBytes>>, Bound<'py, PyList>)> {
    let par = par::parallelism(threads, strategy)?;
    let data = In::get(data, "data")?;
    let src = data.as_slice();
    let hashes = detach_from(py, src.len(), || BitTorrentV2::hashes(src, piece_length, &par))
        .map_err(|e| errors::merkle(py, e))?;
    Ok((
        hashes.pieces_root.map(|r| PyBytes::new(py, &r)),
        to_list(py, &hashes.piece_layer)?,
    ))
}

/// The Amazon Glacier tree hash (1 MiB chunks) of `data`.
#[pyfunction]
#[pyo3(signature = (data, *, threads = None, strategy = "steal"))]
fn glacier<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let par = par::parallelism(threads, strategy)?;
    let data = In::get(data, "data")?;
    let src = data.as_slice();
    let h = detach_from(py, src.len(), || Glacier::root(src, &par));
    Ok(PyBytes::new(py, &h))
}

/// BEP 52 piece-layer hashes of a piece-aligned part of a file.
#[pyfunction]
#[pyo3(signature = (data, piece_length, *, threads = None, strategy = "steal"))]
fn bittorrent_piece_hashes<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    piece_length: u64,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyList>> {
    let par = par::parallelism(threads, strategy)?;
    let data = In::get(data, "data")?;
    let src = data.as_slice();
    let layer = detach_from(py, src.len(), || {
        BitTorrentV2::piece_hashes(src, piece_length, &par)
    })
    .map_err(|e| errors::merkle(py, e))?;
    to_list(py, &layer)
}

/// The pieces root of a file longer than one piece, from its piece layer.
#[pyfunction]
fn bittorrent_root_from_pieces<'py>(
    py: Python<'py>,
    layer: &Bound<'py, PyAny>,
    piece_length: u64,
) -> PyResult<Bound<'py, PyBytes>> {
    let layer = hashes_of(layer, "layer")?;
    let root = BitTorrentV2::root_from_pieces(&layer, piece_length).map_err(|e| errors::merkle(py, e))?;
    Ok(PyBytes::new(py, &root))
}

/// An RFC 6962 audit path among subtree roots (see the library's `Rfc6962::subtree_path`).
#[pyfunction]
fn rfc6962_path<'py>(
    py: Python<'py>,
    nodes: &Bound<'py, PyAny>,
    index: usize,
) -> PyResult<Bound<'py, PyList>> {
    let nodes = hashes_of(nodes, "nodes")?;
    if index >= nodes.len() {
        return Err(PyValueError::new_err(format!(
            "index {index} is outside {} nodes",
            nodes.len()
        )));
    }
    to_list(py, &Rfc6962::subtree_path(&nodes, index))
}
