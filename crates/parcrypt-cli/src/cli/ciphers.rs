//! `aes`, `rc4` and `parc4`: the OpenSSL-compatible raw cipher commands.

use super::*;

#[derive(Debug, Args)]
pub struct Rc4Args {
    /// Required: acknowledge that RC4 is broken and offers no integrity
    #[arg(long)]
    pub hazmat: bool,
    /// Key as hex, 5 to 256 bytes (10 to 512 digits)
    #[arg(long, value_name = "HEX")]
    pub key: String,
    #[command(flatten)]
    pub io: InOut,
}

#[derive(Debug, Args)]
pub struct Parc4Args {
    /// Required: acknowledge that PARC4 is RC4-based and offers no integrity
    #[arg(long)]
    pub hazmat: bool,
    /// Key as hex, 16 to 256 bytes
    #[arg(long, value_name = "HEX")]
    pub key: String,
    /// Nonce as hex, 8 to 64 bytes; never reuse one with the same key
    #[arg(long, value_name = "HEX")]
    pub nonce: String,
    /// Block size, 1 byte to 16MiB: every block gets its own RC4 key (e.g. 32, 4KiB, 64KiB, 1MiB)
    #[arg(long, value_name = "BYTES", default_value = "64KiB", value_parser = parse_block_size)]
    pub block_size: usize,
    #[command(flatten)]
    pub io: InOut,
}

#[derive(Debug, Args)]
pub struct AesArgs {
    #[arg(value_enum)]
    pub direction: Direction,
    /// Block cipher mode
    #[arg(long, value_enum)]
    pub mode: AesMode,
    /// Key as hex: 32, 48 or 64 digits pick AES-128, -192 or -256
    #[arg(long, value_name = "HEX")]
    pub key: String,
    /// CBC: the 16-byte IV; CTR: the 16-byte initial counter block; GCM: the 12-byte nonce (hex)
    #[arg(long, value_name = "HEX")]
    pub iv: Option<String>,
    /// GCM: additional authenticated data (hex), bound to the tag but not encrypted
    #[arg(long, value_name = "HEX")]
    pub aad: Option<String>,
    /// ECB/CBC: no PKCS#7 padding (input must be whole 16-byte blocks)
    #[arg(long)]
    pub no_pad: bool,
    #[command(flatten)]
    pub io: InOut,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Direction {
    Encrypt,
    Decrypt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AesMode {
    /// ☠ Electronic codebook: equal blocks give equal ciphertext
    Ecb,
    /// Cipher block chaining (decryption is parallel, encryption serial)
    Cbc,
    /// Counter mode, 128-bit big-endian counter
    Ctr,
    /// Galois/counter mode (authenticated): output is ciphertext ‖ 16-byte tag
    Gcm,
}
