//! `parcrypt.merkle`: RFC 6962/9162 trees with proofs, BitTorrent v2 and
//! Glacier tree hashes, and file hashing, over the library's one engine.

use parcrypt::digest::Digest;
use parcrypt::merkle::compact::{CompactRange, Tree};
use parcrypt::merkle::{self, BitTorrentV2, Chunks, Format, Glacier, Rfc6962};
use parcrypt::par::Parallelism;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::buffer::{In, detach_from};
use crate::{errors, par};

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

/// The digest of the file at `path` in `format` ("sha256", "rfc6962",
/// "bittorrent-v2", "glacier"), as `parcrypt hash --format` computes it;
/// None only for an empty file in "bittorrent-v2".
#[pyfunction]
#[pyo3(signature = (path, format = "sha256", *, leaf_size = 4096, threads = None, strategy = "steal"))]
fn hash_file<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    format: &str,
    leaf_size: usize,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let par: Parallelism = par::parallelism(threads, strategy)?;
    let format = format_of(format, leaf_size)?;
    let file = std::fs::File::open(&path).map_err(PyErr::from)?;
    let root = py
        .detach(|| parcrypt::merkle::hash_file(format, &file, &par, |_| {}))
        .map_err(|e| errors::merkle(py, e))?;
    Ok(root.map(|r| PyBytes::new(py, &r)))
}

/// A compact range (`parcrypt.merkle.CompactRange`): the roots of the
/// aligned subtrees covering leaves `[begin, end)` of an RFC 6962,
/// BitTorrent v2 or Glacier tree; adjacent ranges merge exactly. Pickles as
/// its bytes (a few hundred), so it travels between processes and machines.
#[pyclass(name = "CompactRange", module = "parcrypt.merkle", frozen, eq)]
#[derive(Debug, Clone, PartialEq)]
pub struct PyCompactRange {
    pub(crate) range: CompactRange,
}

fn compact_err(e: parcrypt::merkle::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn tree_of(format: &str) -> PyResult<Tree> {
    format
        .parse()
        .map_err(|e: parcrypt::UnknownName| PyValueError::new_err(e.to_string()))
}

#[pymethods]
impl PyCompactRange {
    /// The range of `leaves` (a sequence of bytes-like objects, or one
    /// buffer with `leaf_size`; for "bittorrent-v2" and "glacier" the file's
    /// bytes, cut into 16 KiB / 1 MiB leaves) starting at leaf `begin`.
    #[staticmethod]
    #[pyo3(signature = (format, begin, leaves, *, leaf_size = None, threads = None, strategy = "steal"))]
    fn from_leaves(
        py: Python<'_>,
        format: &str,
        begin: u64,
        leaves: &Bound<'_, PyAny>,
        leaf_size: Option<usize>,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Self> {
        let tree = tree_of(format)?;
        let par = par::parallelism(threads, strategy)?;
        let leaf_size = tree.leaf_size().or(leaf_size);
        let leaves = Leaves::get(leaves, leaf_size)?;
        let range = leaves.with(py, |l| CompactRange::from_leaves(tree, begin, l, &par));
        Ok(PyCompactRange { range })
    }

    /// The range of leaf hashes computed elsewhere (32 bytes each, in one
    /// buffer or a sequence), leaves `begin ..`.
    #[staticmethod]
    fn from_leaf_hashes(format: &str, begin: u64, hashes: &Bound<'_, PyAny>) -> PyResult<Self> {
        let tree = tree_of(format)?;
        let list: Vec<Digest> = if let Ok(buf) = In::get(hashes, "hashes") {
            let b = buf.as_slice();
            if b.len() % 32 != 0 {
                return Err(PyValueError::new_err("hashes must be a multiple of 32 bytes"));
            }
            b.chunks_exact(32)
                .map(|c| c.try_into().expect("32 bytes"))
                .collect()
        } else {
            hashes_of(hashes, "hashes")?
        };
        Ok(PyCompactRange {
            range: CompactRange::from_leaf_hashes(tree, begin, &list),
        })
    }

    /// The empty range at leaf `at`.
    #[staticmethod]
    fn empty(format: &str, at: u64) -> PyResult<Self> {
        Ok(PyCompactRange {
            range: CompactRange::empty(tree_of(format)?, at),
        })
    }

    /// A range from `to_bytes()`.
    #[staticmethod]
    fn from_bytes(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = In::get(data, "data")?;
        let range = CompactRange::from_bytes(data.as_slice()).map_err(compact_err)?;
        Ok(PyCompactRange { range })
    }

    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.range.to_bytes())
    }

    /// This range followed by `right`, which starts where this one ends.
    fn merge(&self, right: &PyCompactRange) -> PyResult<Self> {
        Ok(PyCompactRange {
            range: self.range.merge(&right.range).map_err(compact_err)?,
        })
    }

    /// The tree's root (a range from leaf 0); None for an empty BitTorrent v2 file.
    fn root<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let root = self.range.root().map_err(compact_err)?;
        // BEP 52 lists an empty file without a root (the library gives
        // SHA-256 of nothing, its rule for every format).
        let listed = self.range.tree() != Tree::BitTorrentV2 || self.range.end() > 0;
        Ok(listed.then(|| PyBytes::new(py, &root)))
    }

    /// `[(first leaf, leaf count, root), …]`, left to right.
    fn subtrees<'py>(&self, py: Python<'py>) -> Vec<(u64, u64, Bound<'py, PyBytes>)> {
        self.range
            .subtrees()
            .into_iter()
            .map(|(s, n, h)| (s, n, PyBytes::new(py, &h)))
            .collect()
    }

    #[getter]
    fn format(&self) -> &'static str {
        self.range.tree().name()
    }

    #[getter]
    fn begin(&self) -> u64 {
        self.range.begin()
    }

    #[getter]
    fn end(&self) -> u64 {
        self.range.end()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let ctor = py.get_type::<PyCompactRange>().getattr("from_bytes")?;
        Ok((ctor, (slf.get().to_bytes(py),)))
    }

    fn __repr__(&self) -> String {
        format!(
            "CompactRange({}, [{}, {}))",
            self.range.tree(),
            self.range.begin(),
            self.range.end()
        )
    }
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

/// Hashes many files in one call (files spread over the threads, results in
/// order): a list with, per path, the digest, None (an empty file in
/// "bittorrent-v2"), or the `OSError`/`ValueError` that file raised — the
/// others are still hashed. One GIL release for the whole list.
#[pyfunction]
#[pyo3(signature = (paths, format = "sha256", *, leaf_size = 4096, threads = None, strategy = "steal"))]
fn hash_files<'py>(
    py: Python<'py>,
    paths: Vec<std::path::PathBuf>,
    format: &str,
    leaf_size: usize,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let par: Parallelism = par::parallelism(threads, strategy)?;
    let format = format_of(format, leaf_size)?;
    let mut results: Vec<Result<Option<Digest>, parcrypt::merkle::Error>> = Vec::with_capacity(paths.len());
    py.detach(|| {
        parcrypt::merkle::hash_files(
            format,
            paths.iter().map(parcrypt::merkle::Input::File),
            std::io::empty(),
            &par,
            |r| {
                if let Some(r) = r {
                    results.push(r.hash);
                }
                Ok::<(), ()>(())
            },
        )
    })
    .map_err(|()| PyValueError::new_err("hashing stopped"))?;
    results
        .into_iter()
        .map(|r| -> PyResult<Bound<'py, PyAny>> {
            Ok(match r {
                Ok(Some(h)) => PyBytes::new(py, &h).into_any(),
                Ok(None) => py.None().into_bound(py),
                Err(e) => errors::merkle(py, e).into_value(py).into_bound(py).into_any(),
            })
        })
        .collect()
}

fn format_of(format: &str, leaf_size: usize) -> PyResult<Format> {
    let format: Format = format
        .parse()
        .map_err(|e: parcrypt::UnknownName| PyValueError::new_err(e.to_string()))?;
    Ok(format.with_leaf_size(leaf_size))
}

/// Verifies a checksum list as `parcrypt hash --check` (and `sha256sum -c`)
/// does, on all cores: the list is the file at `path`, or `lines` (one
/// line each, a trailing newline dropped). A list of (name, status), in the
/// list's order: status "OK", "FAILED", "FAILED open or read" for each
/// listed file (a missing one left out with `ignore_missing`), and
/// "improperly formatted" for a line that is no checksum line (with the
/// line as its name). Reading the list fails with `OSError`.
#[pyfunction]
#[pyo3(signature = (path, lines, format = "sha256", *, leaf_size = 4096, threads = None, strategy = "steal", ignore_missing = false, zero = false))]
#[allow(clippy::too_many_arguments)]
fn check_sums(
    py: Python<'_>,
    path: Option<std::path::PathBuf>,
    lines: Option<Vec<Vec<u8>>>,
    format: &str,
    leaf_size: usize,
    threads: Option<i64>,
    strategy: &str,
    ignore_missing: bool,
    zero: bool,
) -> PyResult<Vec<(std::ffi::OsString, &'static str)>> {
    use parcrypt::merkle::sums::{self, CheckError, CheckOptions, Event, Outcome, Parser};
    use std::os::unix::ffi::OsStringExt;
    let par = par::parallelism(threads, strategy)?;
    let format = format_of(format, leaf_size)?;
    let delim = if zero { 0 } else { b'\n' };
    let reader: Box<dyn std::io::BufRead + Send> = match (path, lines) {
        (Some(p), None) => Box::new(std::io::BufReader::new(std::fs::File::open(p)?)),
        (None, Some(lines)) => {
            let mut text = Vec::new();
            for mut line in lines {
                if line.last() == Some(&delim) {
                    line.pop();
                }
                text.extend_from_slice(&line);
                text.push(delim);
            }
            Box::new(std::io::Cursor::new(text))
        }
        _ => return Err(PyTypeError::new_err("give a list's path or its lines, not both")),
    };
    let mut results = Vec::new();
    let options = CheckOptions {
        ignore_missing,
        list_is_stdin: false,
    };
    let done = py.detach(|| {
        let mut parser = Parser::new(format, zero);
        // A list line naming `-` reads the process's standard input, as it did.
        sums::check(reader, std::io::stdin(), &mut parser, options, &par, |event| {
            match event {
                Some(Event::Malformed { text, .. }) => results.push((text, "improperly formatted")),
                Some(Event::Checked { name, outcome }) => match outcome {
                    Outcome::Ok => results.push((name, "OK")),
                    Outcome::Mismatch => results.push((name, "FAILED")),
                    Outcome::Unreadable(_) => results.push((name, "FAILED open or read")),
                    Outcome::Missing => {}
                },
                None => {}
            }
            Ok::<(), std::convert::Infallible>(())
        })
    });
    match done {
        Ok(()) => {}
        Err(CheckError::Read(e)) => return Err(e.into()),
        Err(CheckError::Each(never)) => match never {},
    }
    Ok(results
        .into_iter()
        .map(|(name, status)| (std::ffi::OsString::from_vec(name), status))
        .collect())
}

/// What `parcrypt hash -r DIRECTORY` lists: every regular file under
/// `directory`, in byte order of the paths (which start with `directory`
/// as given), with its digest in `format` — or None (an empty file in
/// "bittorrent-v2"), or the exception it raised; a directory that cannot
/// be read appears with its `OSError`. FIFOs, sockets and devices are
/// left out; symbolic links inside are followed only with
/// `follow_symlinks` (loops left out).
#[pyfunction]
#[pyo3(signature = (directory, format = "sha256", *, leaf_size = 4096, threads = None, strategy = "steal", follow_symlinks = false))]
fn hash_tree<'py>(
    py: Python<'py>,
    directory: std::path::PathBuf,
    format: &str,
    leaf_size: usize,
    threads: Option<i64>,
    strategy: &str,
    follow_symlinks: bool,
) -> PyResult<Vec<(std::path::PathBuf, Bound<'py, PyAny>)>> {
    use parcrypt::merkle::sums::{Found, walk};
    use parcrypt::merkle::{FileHash, Input};
    let par = par::parallelism(threads, strategy)?;
    let format = format_of(format, leaf_size)?;
    type Hashed = (
        std::path::PathBuf,
        Result<Option<Digest>, parcrypt::merkle::Error>,
    );
    let mut results: Vec<Hashed> = Vec::new();
    // Directories that could not be read, in walk order: (index in
    // `results` they go before, path, error).
    let unread = std::sync::Mutex::new(Vec::new());
    let seen = std::sync::atomic::AtomicUsize::new(0);
    py.detach(|| {
        let inputs = walk(&directory, follow_symlinks).filter_map(|found| match found {
            Found::File(p) => {
                seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Some(Input::File(p))
            }
            Found::Error(p, e) => {
                let at = seen.load(std::sync::atomic::Ordering::Relaxed);
                if let Ok(mut list) = unread.lock() {
                    list.push((at, p, e));
                }
                None
            }
            Found::Special { .. } | Found::Loop(_) => None,
        });
        parcrypt::merkle::hash_files(format, inputs, std::io::empty(), &par, |r| {
            if let Some(FileHash { input, hash }) = r {
                let path = match input {
                    Input::File(p) => p,
                    Input::Stdin => std::path::PathBuf::from("-"),
                };
                results.push((path, hash));
            }
            Ok::<(), std::convert::Infallible>(())
        })
    })
    .unwrap_or_else(|never| match never {});
    let unread = unread.into_inner().unwrap_or_default();
    let mut unread = unread.into_iter().peekable();
    let mut out = Vec::with_capacity(results.len());
    let mut put_unread = |out: &mut Vec<_>, upto: usize| -> PyResult<()> {
        while let Some((_, p, e)) = unread.next_if(|(at, _, _)| *at <= upto) {
            let err: PyErr = e.into();
            out.push((p, err.into_value(py).into_bound(py).into_any()));
        }
        Ok(())
    };
    for (i, (path, hash)) in results.into_iter().enumerate() {
        put_unread(&mut out, i)?;
        let value = match hash {
            Ok(Some(h)) => PyBytes::new(py, &h).into_any(),
            Ok(None) => py.None().into_bound(py),
            Err(e) => errors::merkle(py, e).into_value(py).into_bound(py).into_any(),
        };
        out.push((path, value));
    }
    put_unread(&mut out, usize::MAX)?;
    Ok(out)
}
