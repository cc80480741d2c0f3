//! Reading a private key that may be encrypted (PEM or DER, for `rsa` and
//! `ecdsa`), and OpenSSL's legacy encrypted PEM (`Proc-Type: 4,ENCRYPTED`).

use super::der::Reader;
use super::{
    Cipher, Error, KdfLimits, MAX_ENCRYPTED, cbc_decrypt, decrypt_der_with_limits, is_encrypted, malformed,
};
use crate::ffi;
use crate::pem::{self, PemError};
use crate::secret::SecretBytes;

/// Why [`unlock_pem`] failed.
pub(crate) enum UnlockError {
    Pem(PemError),
    Pkcs8(Error),
}

/// The label PKCS#8 keys carry, which [`unlock_pem`] returns for a
/// decrypted `ENCRYPTED PRIVATE KEY`.
pub(crate) const PKCS8_LABEL: &str = "PRIVATE KEY";

/// Decodes the first PEM block of `text` with one of `labels`, decrypting
/// it with `password` when it is encrypted (PKCS#8 `ENCRYPTED PRIVATE KEY`
/// or legacy `Proc-Type: 4,ENCRYPTED`). A password given for a key that is
/// not encrypted is ignored, as OpenSSL ignores `-passin`. The key
/// derivation may cost at most `limits`. Returns the label (one of
/// `labels`, or `PRIVATE KEY` for a decrypted `ENCRYPTED PRIVATE KEY`) and
/// the DER.
pub(crate) fn unlock_pem(
    text: &[u8],
    labels: &[&'static str],
    password: Option<&[u8]>,
    limits: &KdfLimits,
) -> Result<(&'static str, SecretBytes), UnlockError> {
    let block = pem::decode_private(text, labels).map_err(UnlockError::Pem)?;
    if block.label == pem::ENCRYPTED_LABEL {
        let password = password.ok_or(UnlockError::Pkcs8(Error::PasswordNeeded))?;
        let der =
            decrypt_der_with_limits(block.der.expose(), password, limits).map_err(UnlockError::Pkcs8)?;
        return Ok((PKCS8_LABEL, der));
    }
    let Some(dek_info) = block.dek_info else {
        return Ok((block.label, block.der));
    };
    let password = password.ok_or(UnlockError::Pkcs8(Error::PasswordNeeded))?;
    let der = decrypt_legacy(&dek_info, block.der.expose(), password).map_err(UnlockError::Pkcs8)?;
    Ok((block.label, der))
}

/// `Some` decrypted `PrivateKeyInfo` if `der` is an encrypted key, `None`
/// if it is not (the caller parses it as it is); the key derivation may
/// cost at most `limits`.
pub(crate) fn unlock_der(
    der: &[u8],
    password: Option<&[u8]>,
    limits: &KdfLimits,
) -> Result<Option<SecretBytes>, Error> {
    if !is_encrypted(der) {
        return Ok(None);
    }
    let password = password.ok_or(Error::PasswordNeeded)?;
    decrypt_der_with_limits(der, password, limits).map(Some)
}

/// OpenSSL's legacy PEM encryption (`openssl rsa -aes256`): the key is
/// `EVP_BytesToKey(MD5, password, salt = the IV's first 8 bytes, 1 round)`,
/// the body AES-CBC with PKCS#7 padding.
fn decrypt_legacy(dek_info: &str, body: &[u8], password: &[u8]) -> Result<SecretBytes, Error> {
    let (name, iv_hex) = dek_info
        .split_once(',')
        .ok_or_else(|| malformed("DEK-Info is not CIPHER,IV"))?;
    let cipher = match name.trim().to_ascii_uppercase().as_str() {
        "AES-128-CBC" => Cipher::Aes128Cbc,
        "AES-192-CBC" => Cipher::Aes192Cbc,
        "AES-256-CBC" => Cipher::Aes256Cbc,
        other => {
            return Err(Error::Unsupported(format!(
                "legacy PEM encryption with {other}; convert the key with \
                 `openssl pkcs8 -topk8 -v2 aes-256-cbc -in OLD.pem -out NEW.pem`"
            )));
        }
    };
    let iv_hex = iv_hex.trim().as_bytes();
    if iv_hex.len() != 32 {
        return Err(malformed("the DEK-Info IV is not 16 bytes of hex"));
    }
    let mut iv = [0u8; 16];
    for (slot, pair) in iv.iter_mut().zip(iv_hex.chunks(2)) {
        let hex = std::str::from_utf8(pair).map_err(|_| malformed("the DEK-Info IV is not hex"))?;
        *slot = u8::from_str_radix(hex, 16).map_err(|_| malformed("the DEK-Info IV is not hex"))?;
    }
    if body.is_empty() || body.len() % 16 != 0 || body.len() > MAX_ENCRYPTED {
        return Err(malformed("the encrypted key is not whole AES blocks"));
    }
    let mut salt = [0u8; 8];
    salt.copy_from_slice(&iv[..8]);
    let mut kek = SecretBytes::zeroed(cipher.key_len());
    if !ffi::bytes_to_key(ffi::Md::Md5, password, Some(&salt), kek.expose_mut(), &mut []) {
        return Err(Error::Backend);
    }
    let mut data = SecretBytes::from(body);
    let len = cbc_decrypt(cipher, kek.expose(), &iv, data.expose_mut())?;
    let plain = &data.expose()[..len];
    let mut r = Reader::new(plain);
    if r.sequence().is_err() || r.finish().is_err() {
        return Err(Error::BadDecrypt);
    }
    Ok(SecretBytes::from(plain))
}
