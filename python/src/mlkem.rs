//! `parcrypt.mlkem`: ML-KEM-512/768/1024 (FIPS 203) keys in pyca 50's
//! shape — `MLKEM768PrivateKey`/`MLKEM1024PrivateKey` (and
//! `MLKEM512PrivateKey`, which pyca lacks) and their public keys — over
//! [`parcrypt::mlkem`]. Encapsulation and decapsulation run without the
//! GIL; a ciphertext is copied before (read once).

use std::sync::Arc;

use parcrypt::mlkem::{self, Params, PrivateKey, PublicKey};
use parcrypt::secret::SecretBytes;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::In;
use crate::keyclass::PublicOf;
use crate::serialization;

/// Every ML-KEM error is a `ValueError` (a wrong length, a malformed key),
/// as pyca raises; a ciphertext not made for the key is no error at all
/// (implicit rejection: a pseudorandom secret).
fn err(e: mlkem::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn generate(py: Python<'_>, params: Params) -> PyResult<Arc<PrivateKey>> {
    Ok(Arc::new(py.detach(|| PrivateKey::generate(params)).map_err(err)?))
}

fn from_seed(py: Python<'_>, params: Params, seed: &Bound<'_, PyAny>) -> PyResult<Arc<PrivateKey>> {
    let seed = SecretBytes::from(In::get(seed, "data")?.as_slice());
    let key = py
        .detach(|| PrivateKey::from_seed(params, seed.expose()))
        .map_err(err)?;
    Ok(Arc::new(key))
}

fn from_raw(params: Params, data: &Bound<'_, PyAny>) -> PyResult<PublicKey> {
    let raw = In::get(data, "data")?.as_slice().to_vec();
    PublicKey::from_raw(params, &raw).map_err(err)
}

fn decapsulate<'py>(
    py: Python<'py>,
    key: &PrivateKey,
    ciphertext: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let ciphertext = In::get(ciphertext, "ciphertext")?.as_slice().to_vec();
    let secret = py.detach(|| key.decapsulate(&ciphertext)).map_err(err)?;
    Ok(PyBytes::new(py, secret.expose()))
}

fn encapsulate<'py>(
    py: Python<'py>,
    key: &PublicKey,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (secret, ciphertext) = py.detach(|| key.encapsulate()).map_err(err)?;
    Ok((PyBytes::new(py, secret.expose()), PyBytes::new(py, &ciphertext)))
}

fn seed<'py>(py: Python<'py>, key: &PrivateKey) -> PyResult<Bound<'py, PyBytes>> {
    let seed = key.seed().ok_or_else(|| {
        PyValueError::new_err("the key was read without its seed, which cannot be recovered")
    })?;
    Ok(PyBytes::new(py, seed.expose()))
}

/// pyca's classes, one private and one public per parameter set, each a
/// thin shell over the functions above; and the functions that map a
/// library key to its class.
macro_rules! classes {
    ($($params:expr => $private:ident($private_name:literal), $public:ident($public_name:literal);)*) => {
        $(
            #[doc = concat!("An ", $private_name, " (pyca's class of that name).")]
            #[pyclass(name = $private_name, module = "parcrypt.mlkem", frozen)]
            #[derive(Debug)]
            pub struct $private {
                key: Arc<PrivateKey>,
            }

            #[doc = concat!("An ", $public_name, " (pyca's class of that name).")]
            #[pyclass(name = $public_name, module = "parcrypt.mlkem", frozen)]
            #[derive(Debug)]
            pub struct $public {
                key: PublicOf<PrivateKey>,
            }

            #[pymethods]
            impl $private {
                /// A new random key pair.
                #[staticmethod]
                fn generate(py: Python<'_>) -> PyResult<Self> {
                    Ok(Self { key: generate(py, $params)? })
                }

                /// The key pair of a 64-byte seed `d ‖ z`.
                #[staticmethod]
                fn from_seed_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
                    Ok(Self { key: from_seed(py, $params, data)? })
                }

                fn public_key(&self) -> $public {
                    $public { key: PublicOf::Of(Arc::clone(&self.key)) }
                }

                /// The 32-byte shared secret of `ciphertext`.
                fn decapsulate<'py>(&self, py: Python<'py>, ciphertext: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
                    decapsulate(py, &self.key, ciphertext)
                }

                /// The key as pyca writes it: PEM/DER PKCS#8 (the seed form),
                /// or Raw/Raw (the seed).
                #[pyo3(signature = (encoding = None, format = None, encryption_algorithm = None))]
                fn private_bytes<'py>(
                    &self,
                    py: Python<'py>,
                    encoding: Option<&Bound<'py, PyAny>>,
                    format: Option<&Bound<'py, PyAny>>,
                    encryption_algorithm: Option<&Bound<'py, PyAny>>,
                ) -> PyResult<Bound<'py, PyBytes>> {
                    serialization::private_bytes(py, &*self.key, encoding, format, encryption_algorithm)
                }

                /// The 64-byte seed.
                fn private_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                    seed(py, &self.key)
                }

                fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
                    slf
                }

                fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
                    slf
                }

                fn __repr__(&self) -> String {
                    format!("<parcrypt.mlkem.{} (private values redacted)>", $private_name)
                }
            }

            #[pymethods]
            impl $public {
                /// The key of its raw encoding (checked as FIPS 203 says).
                #[staticmethod]
                fn from_public_bytes(data: &Bound<'_, PyAny>) -> PyResult<Self> {
                    Ok(Self { key: PublicOf::Own(from_raw($params, data)?) })
                }

                /// `(shared_secret, ciphertext)`, in pyca's order.
                fn encapsulate<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
                    encapsulate(py, &self.key)
                }

                /// The key as pyca writes it: PEM/DER SubjectPublicKeyInfo, or Raw/Raw.
                #[pyo3(signature = (encoding = None, format = None))]
                fn public_bytes<'py>(
                    &self,
                    py: Python<'py>,
                    encoding: Option<&Bound<'py, PyAny>>,
                    format: Option<&Bound<'py, PyAny>>,
                ) -> PyResult<Bound<'py, PyBytes>> {
                    serialization::public_bytes(py, &*self.key, encoding, format)
                }

                fn public_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                    Ok(PyBytes::new(py, &self.key.to_raw().map_err(err)?))
                }

                fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
                    let Ok(other) = other.cast::<Self>() else {
                        return Ok(false);
                    };
                    Ok(other.get().key.to_raw().map_err(err)? == self.key.to_raw().map_err(err)?)
                }

                fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
                    slf
                }

                fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
                    slf
                }

                fn __repr__(&self) -> String {
                    format!("<parcrypt.mlkem.{}>", $public_name)
                }
            }
        )*

        pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(
                m.add_class::<$private>()?;
                m.add_class::<$public>()?;
            )*
            Ok(())
        }

        /// The class object of a library private key, by its parameter set.
        pub fn private_object(py: Python<'_>, key: PrivateKey) -> PyResult<Bound<'_, PyAny>> {
            let params = key.params();
            let key = Arc::new(key);
            $(
                if params == $params {
                    return Ok(Bound::new(py, $private { key })?.into_any());
                }
            )*
            Err(PyValueError::new_err(format!("no class for {params}")))
        }

        /// The class object of a library public key, by its parameter set.
        pub fn public_object(py: Python<'_>, key: PublicKey) -> PyResult<Bound<'_, PyAny>> {
            let params = key.params();
            $(
                if params == $params {
                    return Ok(Bound::new(py, $public { key: PublicOf::Own(key) })?.into_any());
                }
            )*
            Err(PyValueError::new_err(format!("no class for {params}")))
        }
    };
}

classes! {
    Params::MlKem512 => MlKem512PrivateKey("MLKEM512PrivateKey"), MlKem512PublicKey("MLKEM512PublicKey");
    Params::MlKem768 => MlKem768PrivateKey("MLKEM768PrivateKey"), MlKem768PublicKey("MLKEM768PublicKey");
    Params::MlKem1024 => MlKem1024PrivateKey("MLKEM1024PrivateKey"), MlKem1024PublicKey("MLKEM1024PublicKey");
}
