//! Hex command-line arguments (`--key`, `--iv`, `--nonce`, `--aad`),
//! decoded with an error that names the flag: shared by the `aes` and
//! `rc4`/`parc4` commands.

use anyhow::Result;

use crate::error::Hint;

/// A secret given as hex (`--key`), decoded straight into wiped memory: a
/// bad digit halfway leaves no partly decoded key behind.
pub fn hex_key(flag: &str, value: &str) -> Result<parcrypt::secret::SecretBytes> {
    let value = value.trim();
    let mut key = parcrypt::secret::SecretBytes::zeroed(value.len() / 2);
    hex::decode_to_slice(value, key.expose_mut())
        .map_err(|e| anyhow::anyhow!("--{flag} is not valid hex: {e}"))
        .hint(format!("--{flag} takes hex digits, e.g. `openssl rand -hex 16`"))
        .usage()?;
    Ok(key)
}

/// Decodes a hex argument, naming the flag in the error.
pub fn hex_arg(flag: &str, value: &str) -> Result<Vec<u8>> {
    hex::decode(value.trim())
        .map_err(|e| anyhow::anyhow!("--{flag} is not valid hex: {e}"))
        .hint(format!("--{flag} takes hex digits, e.g. `openssl rand -hex 16`"))
        .usage()
}
