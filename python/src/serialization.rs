//! Key serialization for every key class (RSA, P-256, SLH-DSA, ML-DSA,
//! ML-KEM), written once: `private_bytes(encoding, format,
//! encryption_algorithm)` and `public_bytes(encoding, format)` take
//! `cryptography`'s `serialization.Encoding` / `PrivateFormat` /
//! `PublicFormat` members (or `parcrypt.serialization`'s equal ones, or
//! their names as strings) and its encryption objects, and answer as
//! `cryptography` does; each family only says which forms it has
//! ([`PrivateForms`], [`PublicForms`]). The loaders that return whichever
//! family a key holds are here too, over the library's
//! [`parcrypt::anykey`].

use parcrypt::anykey;
use parcrypt::kem::{KemPrivateKey, KemPublicKey};
use parcrypt::keys::{ErrorKind, SigningKey, VerifyingKey};
use parcrypt::secret::SecretBytes;
use parcrypt::{ecdsa, mldsa, mlkem, pkcs8, rsa, slhdsa};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::buffer::In;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(load_public_key, m)?)?;
    Ok(())
}

/// A private key's encodings (`PrivateFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrivateForm {
    /// PKCS#8 (`PRIVATE KEY`).
    Pkcs8,
    /// The family's own: PKCS#1 for RSA, SEC1 for EC (`TraditionalOpenSSL`).
    Traditional,
    /// The raw key: the seed of ML-DSA and ML-KEM, SLH-DSA's 4n bytes.
    Raw,
}

/// A public key's encodings (`PublicFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PublicForm {
    /// X.509 `SubjectPublicKeyInfo`.
    Spki,
    /// RSA's PKCS#1 `RSAPublicKey`.
    Traditional,
    /// The raw key (ML-DSA, ML-KEM, SLH-DSA).
    Raw,
    /// An EC point, uncompressed (`Encoding.X962`).
    Point,
}

/// What a private key class offers `private_bytes`: the key in `form`,
/// PEM or DER (`pem` is ignored for [`PrivateForm::Raw`]); `None` for a
/// form the family has not.
pub trait PrivateForms: Sync {
    fn private_form(&self, form: PrivateForm, pem: bool) -> Option<Result<SecretBytes, String>>;
}

/// What a public key class offers `public_bytes` (as [`PrivateForms`]).
pub trait PublicForms: Sync {
    fn public_form(&self, form: PublicForm, pem: bool) -> Option<Result<Vec<u8>, String>>;
}

/// PKCS#8 and the traditional form of a signature family, through
/// [`SigningKey`].
fn signing_form<K: SigningKey>(key: &K, form: PrivateForm, pem: bool) -> Option<Result<SecretBytes, String>> {
    let out = match (form, pem) {
        (PrivateForm::Pkcs8, true) => key.to_pkcs8_pem().map(|s| SecretBytes::from(s.expose_bytes())),
        (PrivateForm::Pkcs8, false) => key.to_pkcs8_der(),
        (PrivateForm::Traditional, _) if K::FAMILY.traditional.is_none() => return None,
        (PrivateForm::Traditional, true) => key
            .to_traditional_pem()
            .map(|s| SecretBytes::from(s.expose_bytes())),
        (PrivateForm::Traditional, false) => key.to_traditional_der(),
        (PrivateForm::Raw, _) => return None,
    };
    Some(out.map_err(|e| e.to_string()))
}

/// SPKI of a signature family, through [`VerifyingKey`].
fn verifying_spki<P: VerifyingKey>(key: &P, pem: bool) -> Result<Vec<u8>, String> {
    if pem {
        key.to_spki_pem().map(String::into_bytes)
    } else {
        key.to_spki_der()
    }
    .map_err(|e| e.to_string())
}

impl PrivateForms for rsa::PrivateKey {
    fn private_form(&self, form: PrivateForm, pem: bool) -> Option<Result<SecretBytes, String>> {
        signing_form(self, form, pem)
    }
}

impl PrivateForms for ecdsa::PrivateKey {
    fn private_form(&self, form: PrivateForm, pem: bool) -> Option<Result<SecretBytes, String>> {
        signing_form(self, form, pem)
    }
}

impl PrivateForms for slhdsa::PrivateKey {
    fn private_form(&self, form: PrivateForm, pem: bool) -> Option<Result<SecretBytes, String>> {
        match form {
            PrivateForm::Raw => Some(Ok(self.to_bytes())),
            _ => signing_form(self, form, pem),
        }
    }
}

impl PrivateForms for mldsa::PrivateKey {
    fn private_form(&self, form: PrivateForm, pem: bool) -> Option<Result<SecretBytes, String>> {
        match form {
            PrivateForm::Raw => Some(self.to_seed().map_err(|e| e.to_string())),
            _ => signing_form(self, form, pem),
        }
    }
}

impl PrivateForms for mlkem::PrivateKey {
    fn private_form(&self, form: PrivateForm, pem: bool) -> Option<Result<SecretBytes, String>> {
        let out = match (form, pem) {
            (PrivateForm::Pkcs8, true) => {
                KemPrivateKey::to_pkcs8_pem(self).map(|s| SecretBytes::from(s.expose_bytes()))
            }
            (PrivateForm::Pkcs8, false) => KemPrivateKey::to_pkcs8_der(self),
            (PrivateForm::Raw, _) => {
                return Some(
                    self.seed()
                        .map(|s| SecretBytes::from(s.expose().as_slice()))
                        .ok_or_else(|| {
                            "the key was read without its seed, which cannot be recovered".to_owned()
                        }),
                );
            }
            (PrivateForm::Traditional, _) => return None,
        };
        Some(out.map_err(|e| e.to_string()))
    }
}

impl PublicForms for rsa::PublicKey {
    fn public_form(&self, form: PublicForm, pem: bool) -> Option<Result<Vec<u8>, String>> {
        match form {
            PublicForm::Spki => Some(verifying_spki(self, pem)),
            PublicForm::Traditional => Some(
                if pem {
                    self.to_pkcs1_pem().map(String::into_bytes)
                } else {
                    self.to_pkcs1_der()
                }
                .map_err(|e| e.to_string()),
            ),
            _ => None,
        }
    }
}

impl PublicForms for ecdsa::PublicKey {
    fn public_form(&self, form: PublicForm, pem: bool) -> Option<Result<Vec<u8>, String>> {
        match form {
            PublicForm::Spki => Some(verifying_spki(self, pem)),
            PublicForm::Point => Some(self.to_sec1_point().map_err(|e| e.to_string())),
            _ => None,
        }
    }
}

impl PublicForms for slhdsa::PublicKey {
    fn public_form(&self, form: PublicForm, pem: bool) -> Option<Result<Vec<u8>, String>> {
        match form {
            PublicForm::Spki => Some(verifying_spki(self, pem)),
            PublicForm::Raw => Some(Ok(self.as_bytes().to_vec())),
            _ => None,
        }
    }
}

impl PublicForms for mldsa::PublicKey {
    fn public_form(&self, form: PublicForm, pem: bool) -> Option<Result<Vec<u8>, String>> {
        match form {
            PublicForm::Spki => Some(verifying_spki(self, pem)),
            PublicForm::Raw => Some(Ok(self.to_raw().to_vec())),
            _ => None,
        }
    }
}

impl PublicForms for mlkem::PublicKey {
    fn public_form(&self, form: PublicForm, pem: bool) -> Option<Result<Vec<u8>, String>> {
        let out = match form {
            PublicForm::Spki if pem => KemPublicKey::to_spki_pem(self).map(String::into_bytes),
            PublicForm::Spki => KemPublicKey::to_spki_der(self),
            PublicForm::Raw => self.to_raw(),
            _ => return None,
        };
        Some(out.map_err(|e| e.to_string()))
    }
}

/// The member name of an `Encoding`/`PrivateFormat`/`PublicFormat`
/// argument, upper-cased: a member of `cryptography`'s class or of
/// `parcrypt.serialization`'s (any object whose type is named `enum_name`,
/// read by its `name`, or by its `str`, `Encoding.PEM`, as pyca 50's
/// members have no `name`), or a name as a string (any case); `None` gives
/// `default`.
fn member(arg: Option<&Bound<'_, PyAny>>, default: &str, enum_name: &str) -> PyResult<String> {
    let Some(arg) = arg.filter(|a| !a.is_none()) else {
        return Ok(default.to_owned());
    };
    let name = if arg.is_instance_of::<PyString>() {
        arg.extract::<String>()?
    } else if arg.get_type().name()?.to_str()? == enum_name {
        if arg.hasattr("name")? {
            arg.getattr("name")?.extract::<String>()?
        } else {
            let text = arg.str()?.to_str()?.to_owned();
            text.rsplit('.').next().unwrap_or_default().to_owned()
        }
    } else {
        return Err(PyTypeError::new_err(format!(
            "{} must be an item from the {enum_name} enum",
            if enum_name == "Encoding" {
                "encoding"
            } else {
                "format"
            }
        )));
    };
    Ok(name.to_ascii_uppercase())
}

/// How a key is to be written: PEM, DER, raw, or an X9.62 point.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Pem,
    Der,
    Raw,
    X962,
}

fn encoding_of(arg: Option<&Bound<'_, PyAny>>) -> PyResult<Encoding> {
    match member(arg, "PEM", "Encoding")?.as_str() {
        "PEM" => Ok(Encoding::Pem),
        "DER" => Ok(Encoding::Der),
        "RAW" => Ok(Encoding::Raw),
        "X962" => Ok(Encoding::X962),
        other => Err(PyTypeError::new_err(format!(
            "encoding {other} is not offered: give Encoding.PEM, Encoding.DER or Encoding.Raw"
        ))),
    }
}

fn invalid_format() -> PyErr {
    PyValueError::new_err("format is invalid with this key")
}

fn raw_mismatch() -> PyErr {
    PyValueError::new_err("When using Raw both encoding and format must be Raw")
}

/// A private key class's `private_bytes(encoding, format,
/// encryption_algorithm)`: `cryptography`'s rules (Raw only with Raw; an
/// encrypted key is PKCS#8, PBES2 with PBKDF2-HMAC-SHA256 and AES-256-CBC,
/// what OpenSSL 3 writes), its exception types, and the defaults PEM,
/// PKCS8, no encryption. The native copy is wiped once Python has its
/// bytes; an encryption runs without the GIL.
pub fn private_bytes<'py>(
    py: Python<'py>,
    key: &impl PrivateForms,
    encoding: Option<&Bound<'py, PyAny>>,
    format: Option<&Bound<'py, PyAny>>,
    encryption_algorithm: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let encoding = encoding_of(encoding)?;
    let form = match member(format, "PKCS8", "PrivateFormat")?.as_str() {
        "PKCS8" => PrivateForm::Pkcs8,
        "TRADITIONALOPENSSL" | "PKCS1" | "SEC1" => PrivateForm::Traditional,
        "RAW" => PrivateForm::Raw,
        _ => return Err(invalid_format()),
    };
    let password = encryption_password(encryption_algorithm)?;
    match (encoding, form) {
        (Encoding::Raw, PrivateForm::Raw) if password.is_some() => return Err(invalid_format()),
        (Encoding::Raw, PrivateForm::Raw) => {}
        (_, PrivateForm::Raw) => return Err(invalid_format()),
        (Encoding::Pem | Encoding::Der, _) => {}
        _ => {
            return Err(PyTypeError::new_err(
                "encoding must be Encoding.DER or Encoding.PEM",
            ));
        }
    }
    let pem = encoding == Encoding::Pem;
    let Some(password) = password else {
        let bytes = key.private_form(form, pem).ok_or_else(invalid_format)?;
        return Ok(PyBytes::new(py, bytes.map_err(PyValueError::new_err)?.expose()));
    };
    if form != PrivateForm::Pkcs8 {
        return Err(PyValueError::new_err(
            "an encrypted key is written as PKCS8 only (PrivateFormat.PKCS8)",
        ));
    }
    let bytes = py.detach(|| {
        let der = key.private_form(PrivateForm::Pkcs8, false).ok_or("no PKCS#8")??;
        let options = pkcs8::Options::default();
        if pem {
            pkcs8::encrypt_pem(der.expose(), password.expose(), &options).map(String::into_bytes)
        } else {
            pkcs8::encrypt_der(der.expose(), password.expose(), &options)
        }
        .map_err(|e| e.to_string())
    });
    Ok(PyBytes::new(py, &bytes.map_err(PyValueError::new_err)?))
}

/// A public key class's `public_bytes(encoding, format)`, as
/// [`private_bytes`] (defaults PEM, SubjectPublicKeyInfo).
pub fn public_bytes<'py>(
    py: Python<'py>,
    key: &impl PublicForms,
    encoding: Option<&Bound<'py, PyAny>>,
    format: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let encoding = encoding_of(encoding)?;
    let form = match member(format, "SUBJECTPUBLICKEYINFO", "PublicFormat")?.as_str() {
        "SUBJECTPUBLICKEYINFO" | "SPKI" => PublicForm::Spki,
        "PKCS1" => PublicForm::Traditional,
        "RAW" => PublicForm::Raw,
        "UNCOMPRESSEDPOINT" | "X962" | "SEC1" | "POINT" => PublicForm::Point,
        _ => return Err(invalid_format()),
    };
    match (encoding, form) {
        (Encoding::Raw, PublicForm::Raw) | (_, PublicForm::Point) => {}
        (Encoding::Raw, _) | (_, PublicForm::Raw) => return Err(raw_mismatch()),
        (Encoding::X962, _) => return Err(invalid_format()),
        _ => {}
    }
    let bytes = key
        .public_form(form, encoding == Encoding::Pem)
        .ok_or_else(invalid_format)?
        .map_err(PyValueError::new_err)?;
    Ok(PyBytes::new(py, &bytes))
}

/// The password a loader was given (`password=`, any bytes-like object or
/// `None`), checked against the key as `cryptography` checks it: a
/// password for a key that is not encrypted, or none for one that is, is a
/// `TypeError`.
pub fn load_password(data: &[u8], password: Option<&Bound<'_, PyAny>>) -> PyResult<Option<SecretBytes>> {
    let password = match password {
        Some(p) if !p.is_none() => {
            let p = In::get(p, "password")?;
            Some(SecretBytes::from(p.as_slice()))
        }
        _ => None,
    };
    match (pkcs8::is_encrypted(data), &password) {
        (false, Some(_)) => Err(PyTypeError::new_err(
            "Password was given but private key is not encrypted.",
        )),
        (true, None) => Err(PyTypeError::new_err(
            "Password was not given but private key is encrypted",
        )),
        _ => Ok(password),
    }
}

/// The key-derivation limits a loader's `allow_costly_kdf` chooses.
pub fn kdf_limits(allow_costly_kdf: bool) -> pkcs8::KdfLimits {
    if allow_costly_kdf {
        pkcs8::KdfLimits::COSTLY
    } else {
        pkcs8::KdfLimits::DEFAULT
    }
}

/// The password of `private_bytes`'s `encryption_algorithm`: `None` or a
/// `NoEncryption` give none; an object with a `password` attribute
/// (`parcrypt.serialization.BestAvailableEncryption`, or
/// `cryptography`'s) gives its bytes, which may not be empty.
fn encryption_password(algorithm: Option<&Bound<'_, PyAny>>) -> PyResult<Option<SecretBytes>> {
    let Some(algorithm) = algorithm.filter(|a| !a.is_none()) else {
        return Ok(None);
    };
    if algorithm.hasattr("password")? {
        let password = algorithm.getattr("password")?;
        let password = In::get(&password, "password")?;
        if password.as_slice().is_empty() {
            return Err(PyValueError::new_err("Password must be 1 or more bytes"));
        }
        return Ok(Some(SecretBytes::from(password.as_slice())));
    }
    let name = algorithm.get_type().name()?;
    if name == "NoEncryption" {
        return Ok(None);
    }
    Err(PyTypeError::new_err(
        "Encryption algorithm must be a KeySerializationEncryption instance",
    ))
}

/// A loader's error as `cryptography` raises it: `ValueError`, its
/// message saying which problem (a wrong password is one clear error,
/// whatever the key inside).
fn load_error(e: anykey::Error) -> PyErr {
    match e.kind() {
        ErrorKind::BadPassword => {
            PyValueError::new_err(format!("Incorrect password, could not decrypt key ({e})"))
        }
        _ => PyValueError::new_err(format!("Could not deserialize key data: {e}")),
    }
}

/// A private key of whichever family `data` holds (PEM or DER; PKCS#8,
/// encrypted PKCS#8, PKCS#1, SEC1), decrypted once with `password`, the
/// family picked by the key's algorithm OID; an SLH-DSA key's root is
/// rebuilt and checked on `threads` (the other families only parse).
#[pyfunction]
#[pyo3(signature = (data, password = None, *, allow_costly_kdf = false, threads = None, strategy = "steal"))]
fn load_private_key<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    password: Option<&Bound<'py, PyAny>>,
    allow_costly_kdf: bool,
    threads: Option<i64>,
    strategy: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let par = crate::par::parallelism(threads, strategy)?;
    // Parsed from a wiped copy: the bytes are read by several parsers in
    // turn (PEM, DER, the key), which another thread must not change between.
    let data = SecretBytes::from(In::get(data, "data")?.as_slice());
    let password = load_password(data.expose(), password)?;
    let limits = kdf_limits(allow_costly_kdf);
    let key = py
        .detach(|| {
            anykey::read_private(
                data.expose(),
                password.as_ref().map(SecretBytes::expose),
                &limits,
                &par,
            )
        })
        .map_err(load_error)?;
    Ok(match key {
        anykey::PrivateKey::Rsa(key) => Bound::new(py, crate::rsa::RsaPrivateKey { key })?.into_any(),
        anykey::PrivateKey::Ec(key) => Bound::new(py, crate::ecdsa::EcPrivateKey { key })?.into_any(),
        anykey::PrivateKey::SlhDsa(key) => {
            Bound::new(py, crate::slhdsa::SlhDsaPrivateKey { key })?.into_any()
        }
        anykey::PrivateKey::MlDsa(key) => crate::mldsa::private_object(py, key)?,
        anykey::PrivateKey::MlKem(key) => crate::mlkem::private_object(py, key)?,
        _ => {
            return Err(PyValueError::new_err(
                "a key of a family this build does not offer",
            ));
        }
    })
}

/// A public key of whichever family `data` holds (PEM or DER SPKI, or
/// RSA's PKCS#1).
#[pyfunction]
fn load_public_key<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let data = In::get(data, "data")?.as_slice().to_vec();
    let key = py.detach(|| anykey::read_public(&data)).map_err(load_error)?;
    Ok(match key {
        anykey::PublicKey::Rsa(key) => Bound::new(py, crate::rsa::RsaPublicKey { key })?.into_any(),
        anykey::PublicKey::Ec(key) => Bound::new(py, crate::ecdsa::EcPublicKey { key })?.into_any(),
        anykey::PublicKey::SlhDsa(key) => Bound::new(py, crate::slhdsa::SlhDsaPublicKey { key })?.into_any(),
        anykey::PublicKey::MlDsa(key) => crate::mldsa::public_object(py, key)?,
        anykey::PublicKey::MlKem(key) => crate::mlkem::public_object(py, key)?,
        _ => {
            return Err(PyValueError::new_err(
                "a key of a family this build does not offer",
            ));
        }
    })
}
