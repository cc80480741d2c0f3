//! `parcrypt._parcrypt`: the compiled half of the Python package.
//!
//! The Python modules in `python/parcrypt/` are the public API (named like
//! pyca/cryptography's); this module holds the classes and functions they
//! re-export. Conventions, applied everywhere:
//!
//! - data arguments take any C-contiguous buffer-protocol object (bytes,
//!   bytearray, memoryview, numpy arrays), read in place ([`buffer::In`]);
//! - work on 2 KiB or more runs with the GIL released ([`buffer::RELEASE_GIL_FROM`]),
//!   so Python threads run in parallel too;
//! - every parallel call takes `threads=None` (all cores) and
//!   `strategy="steal"|"static"|"seq"` ([`par::parallelism`]);
//! - errors are Python exceptions carrying the library's message
//!   ([`errors`]); a Rust panic becomes `pyo3_runtime.PanicException`, never
//!   an abort (tested through the private hook in [`testing`]).

mod aead;
mod age;
mod batch;
mod buffer;
mod ciphers;
mod cobblestone;
mod ecdsa;
mod errors;
mod hazmat;
mod keyclass;
mod merkle;
mod mldsa;
mod mlkem;
mod par;
mod rsa;
mod serialization;
mod slhdsa;
mod stream;
mod testing;

use pyo3::prelude::*;

#[pymodule(gil_used = false)]
fn _parcrypt(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Applies PARCRYPT_CPU_MASK to AWS-LC now, after the extension's
    // load-time initializers (AWS-LC's CPU probe among them) have run.
    let _ = parcrypt::cpu::enabled();
    errors::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(par::available_threads, m)?)?;
    aead::register(m)?;
    ciphers::register(m)?;
    merkle::register(m)?;
    rsa::register(m)?;
    ecdsa::register(m)?;
    slhdsa::register(m)?;
    mldsa::register(m)?;
    mlkem::register(m)?;
    serialization::register(m)?;
    hazmat::register(m)?;
    stream::register(m)?;
    age::register(m)?;
    cobblestone::register(m)?;
    testing::register(m)?;
    Ok(())
}
