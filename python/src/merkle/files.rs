//! Hashing files: one file, many files, a directory tree, and checking a
//! checksum list, as `parcrypt hash` and `--check` do, on all cores.

use parcrypt::digest::Digest;
use parcrypt::merkle::Format;
use parcrypt::par::Parallelism;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::{errors, par};

/// The digest of the file at `path` in `format` ("sha256", "rfc6962",
/// "bittorrent-v2", "glacier"), as `parcrypt hash --format` computes it;
/// None only for an empty file in "bittorrent-v2".
#[pyfunction]
#[pyo3(signature = (path, format = "sha256", *, leaf_size = 4096, threads = None, strategy = "steal"))]
pub(super) fn hash_file<'py>(
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

/// Hashes many files in one call (files spread over the threads, results in
/// order): a list with, per path, the digest, None (an empty file in
/// "bittorrent-v2"), or the `OSError`/`ValueError` that file raised — the
/// others are still hashed. One GIL release for the whole list.
#[pyfunction]
#[pyo3(signature = (paths, format = "sha256", *, leaf_size = 4096, threads = None, strategy = "steal"))]
pub(super) fn hash_files<'py>(
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
pub(super) fn check_sums(
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
pub(super) fn hash_tree<'py>(
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
