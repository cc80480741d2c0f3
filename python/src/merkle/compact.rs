//! `parcrypt.merkle.CompactRange`: the roots covering a range of leaves,
//! merged exactly and pickled as their bytes.

use parcrypt::digest::Digest;
use parcrypt::merkle::compact::{CompactRange, Tree};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::{Leaves, hashes_of};
use crate::buffer::In;
use crate::{errors, par};

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

    /// The range of the `length` bytes of the file at `path` from byte
    /// `offset` (a multiple of the leaf size: `leaf_size` for "rfc6962", 16
    /// KiB / 1 MiB for "bittorrent-v2" / "glacier"): what `from_leaves` of
    /// those bytes gives, leaves `offset / leaf size ..`, without reading
    /// them into Python. The library reads them with positional reads (never
    /// a map) into its own buffers and hashes each as the next is read, with
    /// the GIL released. `OSError` if the file ends before `offset + length`
    /// (e.g. truncated meanwhile).
    #[staticmethod]
    #[pyo3(signature = (format, path, offset, length, *, leaf_size = None, threads = None, strategy = "steal"))]
    #[allow(clippy::too_many_arguments)]
    fn from_file(
        py: Python<'_>,
        format: &str,
        path: std::path::PathBuf,
        offset: u64,
        length: u64,
        leaf_size: Option<usize>,
        threads: Option<i64>,
        strategy: &str,
    ) -> PyResult<Self> {
        let tree = tree_of(format)?;
        let par = par::parallelism(threads, strategy)?;
        let leaf = tree.leaf_size().or(leaf_size).ok_or_else(|| {
            PyValueError::new_err(format!("{format} needs leaf_size (its leaves are of any size)"))
        })?;
        if leaf > 0 && offset % leaf as u64 != 0 {
            return Err(PyValueError::new_err(format!(
                "offset {offset} is not a multiple of the {leaf}-byte leaf"
            )));
        }
        let file = std::fs::File::open(&path)?;
        let range = py
            .detach(|| CompactRange::from_file_range(tree, leaf, &file, offset, length, &par))
            .map_err(|e| errors::merkle(py, e))?;
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
