//! What the post-quantum key classes share: pyca has one Python class per
//! parameter set (`MLDSA65PrivateKey`, `MLKEM768PublicKey`, …), so one
//! library key type stands behind three classes; a public key is held on
//! its own (`from_public_bytes`, a loader) or as its private key's half
//! (`public_key()`, which copies nothing).

use std::ops::Deref;
use std::sync::Arc;

/// A private key type with a public half.
pub trait Halves: std::fmt::Debug + Send + Sync + 'static {
    type Public: std::fmt::Debug + Send + Sync + 'static;
    fn public_half(&self) -> &Self::Public;
}

impl Halves for parcrypt::mldsa::PrivateKey {
    type Public = parcrypt::mldsa::PublicKey;
    fn public_half(&self) -> &Self::Public {
        parcrypt::keys::SigningKey::public_key(self)
    }
}

impl Halves for parcrypt::mlkem::PrivateKey {
    type Public = parcrypt::mlkem::PublicKey;
    fn public_half(&self) -> &Self::Public {
        self.public_key()
    }
}

/// A public key: its own, or the half of a private key it shares.
#[derive(Debug)]
pub enum PublicOf<K: Halves> {
    Own(K::Public),
    Of(Arc<K>),
}

impl<K: Halves> Deref for PublicOf<K> {
    type Target = K::Public;
    fn deref(&self) -> &K::Public {
        match self {
            PublicOf::Own(public) => public,
            PublicOf::Of(private) => private.public_half(),
        }
    }
}

/// pyca's classes of one post-quantum family: for each parameter set a
/// private and a public class over the family's library key types, with
/// what every such class has written here once — `generate()`,
/// `from_seed_bytes`, `public_key()`, `private_bytes`/`private_bytes_raw`,
/// `from_public_bytes`, `public_bytes`/`public_bytes_raw`, `==`, copies,
/// `repr` — and the family's own methods (`sign`, `decapsulate`, …) given
/// as blocks. Also `register_classes`, and `private_object`/`public_object` (a
/// library key as its class, for the loaders).
///
/// The invoking module supplies, by these names: `generate(py, set) ->
/// PyResult<Arc<Private>>`, `from_seed(py, set, data)`, `seed(py,
/// &Private) -> PyResult<Bound<PyBytes>>`, `from_raw(py, set, data) ->
/// PyResult<Public>`, `raw(py, &Public) -> PyResult<Bound<PyBytes>>`,
/// `same(&Public, &Public) -> bool`, and `set_of(&Private)` /
/// `public_set_of(&Public)`.
macro_rules! key_classes {
    (
        module = $module:literal,
        types = ($Private:ty, $Public:ty),
        sets = [$($set:expr => $private:ident($private_name:literal), $public:ident($public_name:literal);)*],
        private_methods = $private_methods:tt,
        public_methods = $public_methods:tt $(,)?
    ) => {
        $(
            #[doc = concat!("An ", $private_name, " (pyca's class of that name).")]
            #[pyclass(name = $private_name, module = $module, frozen)]
            #[derive(Debug)]
            pub struct $private {
                key: std::sync::Arc<$Private>,
            }

            #[doc = concat!("An ", $public_name, " (pyca's class of that name).")]
            #[pyclass(name = $public_name, module = $module, frozen)]
            #[derive(Debug)]
            pub struct $public {
                key: $crate::keyclass::PublicOf<$Private>,
            }

            $crate::keyclass::key_classes!(@private $private, $private_name, $module, $set, $public, $private_methods);
            $crate::keyclass::key_classes!(@public $public, $public_name, $module, $set, $public_methods);
        )*

        /// Adds the classes to the module.
        pub fn register_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(
                m.add_class::<$private>()?;
                m.add_class::<$public>()?;
            )*
            Ok(())
        }

        /// The class object of a library private key, by its set.
        pub fn private_object(py: Python<'_>, key: $Private) -> PyResult<Bound<'_, PyAny>> {
            let set = set_of(&key);
            let key = std::sync::Arc::new(key);
            $(
                if set == $set {
                    return Ok(Bound::new(py, $private { key })?.into_any());
                }
            )*
            Err(pyo3::exceptions::PyValueError::new_err(format!("no class for {set}")))
        }

        /// The class object of a library public key, by its set.
        pub fn public_object(py: Python<'_>, key: $Public) -> PyResult<Bound<'_, PyAny>> {
            let set = public_set_of(&key);
            $(
                if set == $set {
                    let key = $crate::keyclass::PublicOf::Own(key);
                    return Ok(Bound::new(py, $public { key })?.into_any());
                }
            )*
            Err(pyo3::exceptions::PyValueError::new_err(format!("no class for {set}")))
        }
    };
    (@private $private:ident, $name:literal, $module:literal, $set:expr, $public:ident, { $($methods:tt)* }) => {
        #[pymethods]
        impl $private {
            /// A new key from a random seed.
            #[staticmethod]
            fn generate(py: Python<'_>) -> PyResult<Self> {
                Ok(Self { key: generate(py, $set)? })
            }

            /// The key of its seed (as pyca's `from_seed_bytes`).
            #[staticmethod]
            fn from_seed_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
                Ok(Self { key: from_seed(py, $set, data)? })
            }

            fn public_key(&self) -> $public {
                $public { key: $crate::keyclass::PublicOf::Of(std::sync::Arc::clone(&self.key)) }
            }

            /// The key as pyca writes it: PEM/DER PKCS#8 (the seed form), or
            /// Raw/Raw (the seed).
            #[pyo3(signature = (encoding = None, format = None, encryption_algorithm = None))]
            fn private_bytes<'py>(
                &self,
                py: Python<'py>,
                encoding: Option<&Bound<'py, PyAny>>,
                format: Option<&Bound<'py, PyAny>>,
                encryption_algorithm: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                $crate::serialization::private_bytes(py, &*self.key, encoding, format, encryption_algorithm)
            }

            /// The seed.
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
                format!("<{}.{} (private values redacted)>", $module, $name)
            }

            $($methods)*
        }
    };
    (@public $public:ident, $name:literal, $module:literal, $set:expr, { $($methods:tt)* }) => {
        #[pymethods]
        impl $public {
            /// The key of its raw encoding.
            #[staticmethod]
            fn from_public_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
                Ok(Self { key: $crate::keyclass::PublicOf::Own(from_raw(py, $set, data)?) })
            }

            /// The key as pyca writes it: PEM/DER SubjectPublicKeyInfo, or Raw/Raw.
            #[pyo3(signature = (encoding = None, format = None))]
            fn public_bytes<'py>(
                &self,
                py: Python<'py>,
                encoding: Option<&Bound<'py, PyAny>>,
                format: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                $crate::serialization::public_bytes(py, &*self.key, encoding, format)
            }

            fn public_bytes_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                raw(py, &self.key)
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                other.cast::<Self>().is_ok_and(|o| same(&o.get().key, &self.key))
            }

            fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
                slf
            }

            fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
                slf
            }

            fn __repr__(&self) -> String {
                format!("<{}.{}>", $module, $name)
            }

            $($methods)*
        }
    };
}

pub(crate) use key_classes;
