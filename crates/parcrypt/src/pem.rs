//! PEM (RFC 7468) armour for keys: one labelled base64 block.
//!
//! Only the armour lives here; what is inside is parsed by the backend.
//! Decoded bytes are returned as [`SecretBytes`] because they are usually a
//! private key; the base64 text is copied only into wiped buffers on the way.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use zeroize::Zeroizing;

use crate::secret::{SecretBytes, SecretString};

/// Why a PEM document was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PemError {
    /// No `-----BEGIN …-----` / `-----END …-----` pair.
    #[error("no PEM block (expected -----BEGIN {0}-----)")]
    NoBlock(&'static str),
    /// The block's label is not one the caller accepts.
    #[error("PEM block is a {0:?}, not a key of the expected kind")]
    Label(String),
    /// A legacy OpenSSL-encrypted block (`Proc-Type: 4,ENCRYPTED`) or PKCS#8 `ENCRYPTED PRIVATE KEY`.
    #[error("the key is encrypted")]
    Encrypted,
    /// A `Proc-Type: 4,ENCRYPTED` block without a readable `DEK-Info` header.
    #[error("the PEM block's Proc-Type/DEK-Info headers are malformed")]
    Headers,
    /// The body is not base64.
    #[error("PEM body is not valid base64")]
    Base64,
}

/// Whether `bytes` look like PEM (leading whitespace, then `-----BEGIN `).
pub(crate) fn is_pem(bytes: &[u8]) -> bool {
    bytes.trim_ascii_start().starts_with(b"-----BEGIN ")
}

/// The label of PKCS#8's `EncryptedPrivateKeyInfo` (RFC 5958).
pub(crate) const ENCRYPTED_LABEL: &str = "ENCRYPTED PRIVATE KEY";

/// A private-key block as [`decode_private`] finds it.
pub(crate) struct Block {
    /// One of the caller's labels, or [`ENCRYPTED_LABEL`].
    pub(crate) label: &'static str,
    /// The body, decoded: DER, encrypted when `label` is
    /// [`ENCRYPTED_LABEL`] or `dek_info` is set.
    pub(crate) der: SecretBytes,
    /// The `DEK-Info:` header's value of a legacy OpenSSL-encrypted block
    /// (`Proc-Type: 4,ENCRYPTED`), e.g. `AES-256-CBC,<hex IV>`.
    pub(crate) dek_info: Option<String>,
}

/// Decodes the first PEM block in `text`, which must carry one of `labels`.
/// Returns the label and the DER bytes. Encrypted blocks are refused
/// ([`PemError::Encrypted`]).
pub(crate) fn decode(text: &[u8], labels: &[&'static str]) -> Result<(&'static str, SecretBytes), PemError> {
    let block = decode_block(text, labels, false)?;
    Ok((block.label, block.der))
}

/// As [`decode`], but an encrypted block is returned rather than refused:
/// an `ENCRYPTED PRIVATE KEY` whatever `labels` say, and a legacy
/// `Proc-Type: 4,ENCRYPTED` block of one of `labels` with its `DEK-Info`.
pub(crate) fn decode_private(text: &[u8], labels: &[&'static str]) -> Result<Block, PemError> {
    decode_block(text, labels, true)
}

fn decode_block(text: &[u8], labels: &[&'static str], encrypted: bool) -> Result<Block, PemError> {
    let expected = labels.first().copied().unwrap_or("KEY");
    let text = std::str::from_utf8(text).map_err(|_| PemError::NoBlock(expected))?;
    let mut rest = text;
    let mut first_label = None;
    // Blocks in order; ones with other labels (OpenSSL's `EC PARAMETERS`
    // before an `EC PRIVATE KEY`, say) are skipped.
    while let Some(start) = rest.find("-----BEGIN ") {
        let after = &rest[start + "-----BEGIN ".len()..];
        let label_end = after.find("-----").ok_or(PemError::NoBlock(expected))?;
        let found = &after[..label_end];
        let body_and_end = &after[label_end + 5..];
        let end_marker = format!("-----END {found}-----");
        let body_end = body_and_end
            .find(&end_marker)
            .ok_or(PemError::NoBlock(expected))?;
        let body = &body_and_end[..body_end];
        rest = &body_and_end[body_end + end_marker.len()..];
        if found == ENCRYPTED_LABEL {
            if !encrypted {
                return Err(PemError::Encrypted);
            }
            return Ok(Block {
                label: ENCRYPTED_LABEL,
                der: unbase64(body)?,
                dek_info: None,
            });
        }
        let legacy = body.contains("Proc-Type:");
        if legacy && !encrypted {
            return Err(PemError::Encrypted);
        }
        let Some(label) = labels.iter().copied().find(|l| *l == found) else {
            first_label.get_or_insert(found);
            continue;
        };
        if !legacy {
            return Ok(Block {
                label,
                der: unbase64(body)?,
                dek_info: None,
            });
        }
        let (headers, body) = split_headers(body).ok_or(PemError::Headers)?;
        let proc_type = header(headers, "Proc-Type").ok_or(PemError::Headers)?;
        if proc_type != "4,ENCRYPTED" {
            return Err(PemError::Headers);
        }
        let dek_info = header(headers, "DEK-Info").ok_or(PemError::Headers)?;
        return Ok(Block {
            label,
            der: unbase64(body)?,
            dek_info: Some(dek_info.to_owned()),
        });
    }
    match first_label {
        Some(label) => Err(PemError::Label(label.to_owned())),
        None => Err(PemError::NoBlock(expected)),
    }
}

/// RFC 1421 headers (`Name: value` lines) and the base64 after the blank
/// line that ends them.
fn split_headers(body: &str) -> Option<(&str, &str)> {
    let body = body.trim_start_matches(['\r', '\n']);
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        offset += line.len();
        if line.trim().is_empty() {
            return Some((&body[..offset - line.len()], &body[offset..]));
        }
    }
    None
}

/// The value of header `name` among `headers`.
fn header<'a>(headers: &'a str, name: &str) -> Option<&'a str> {
    headers.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == name).then(|| value.trim())
    })
}

/// The base64 `body` without its whitespace, decoded. Every buffer is sized
/// up front (no reallocation leaves a copy behind) and wiped on drop, also
/// when the base64 is bad halfway.
fn unbase64(body: &str) -> Result<SecretBytes, PemError> {
    let mut compact = SecretBytes::zeroed(body.len());
    let mut len = 0;
    for (slot, b) in compact
        .expose_mut()
        .iter_mut()
        .zip(body.bytes().filter(|b| !b.is_ascii_whitespace()))
    {
        *slot = b;
        len += 1;
    }
    let compact = &compact.expose()[..len];
    let mut der = SecretBytes::zeroed(base64::decoded_len_estimate(len));
    let written = STANDARD
        .decode_slice(compact, der.expose_mut())
        .map_err(|_| PemError::Base64)?;
    Ok(SecretBytes::from(&der.expose()[..written]))
}

/// Encodes `der` as a PEM block with `label`, 64 characters a line.
pub(crate) fn encode(label: &str, der: &[u8]) -> SecretString {
    let b64 = Zeroizing::new(STANDARD.encode(der));
    let mut out = String::with_capacity(b64.len() + b64.len() / 64 + 2 * label.len() + 40);
    out.push_str("-----BEGIN ");
    out.push_str(label);
    out.push_str("-----\n");
    for line in b64.as_bytes().chunks(64) {
        // base64 output is ASCII.
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out.push_str("-----END ");
    out.push_str(label);
    out.push_str("-----\n");
    SecretString::new(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_refusals() {
        let der: Vec<u8> = (0..200u8).collect();
        let pem = encode("PUBLIC KEY", &der);
        assert!(is_pem(pem.expose_bytes()));
        let (label, back) = decode(pem.expose_bytes(), &["PUBLIC KEY"]).unwrap();
        assert_eq!((label, back.expose()), ("PUBLIC KEY", der.as_slice()));
        assert_eq!(
            decode(pem.expose_bytes(), &["PRIVATE KEY"]),
            Err(PemError::Label("PUBLIC KEY".into()))
        );
        assert_eq!(
            decode(b"hello", &["PRIVATE KEY"]),
            Err(PemError::NoBlock("PRIVATE KEY"))
        );
        let enc = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n";
        assert_eq!(decode(enc.as_bytes(), &["PRIVATE KEY"]), Err(PemError::Encrypted));
        let legacy = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAAA\n-----END RSA PRIVATE KEY-----\n";
        assert_eq!(
            decode(legacy.as_bytes(), &["RSA PRIVATE KEY"]),
            Err(PemError::Encrypted)
        );
        let block = decode_private(enc.as_bytes(), &["PRIVATE KEY"]).unwrap();
        assert_eq!((block.label, block.der.len()), (ENCRYPTED_LABEL, 3));
        let block = decode_private(legacy.as_bytes(), &["RSA PRIVATE KEY"]).unwrap();
        assert_eq!(block.label, "RSA PRIVATE KEY");
        assert_eq!(block.dek_info.as_deref(), Some("AES-128-CBC,00"));
        let no_dek = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nAAAA\n-----END RSA PRIVATE KEY-----\n";
        assert!(matches!(
            decode_private(no_dek.as_bytes(), &["RSA PRIVATE KEY"]),
            Err(PemError::Headers)
        ));
        let bad = "-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n";
        assert_eq!(decode(bad.as_bytes(), &["PUBLIC KEY"]), Err(PemError::Base64));
        let two = format!(
            "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n{}",
            pem.expose()
        );
        assert_eq!(
            decode(two.as_bytes(), &["PUBLIC KEY"]).unwrap().1.expose(),
            der.as_slice()
        );
        let truncated = "-----BEGIN PUBLIC KEY-----\nAAAA\n";
        assert_eq!(
            decode(truncated.as_bytes(), &["PUBLIC KEY"]),
            Err(PemError::NoBlock("PUBLIC KEY"))
        );
    }
}
