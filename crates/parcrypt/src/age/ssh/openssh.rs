//! OpenSSH private key files (`openssh-key-v1`): their parsing, the
//! passphrase-protected form ([`EncryptedSshIdentity`], bcrypt_pbkdf and
//! AES-CTR/CBC) and its decryption when a stanza names the key.

use std::fmt;
use std::sync::{Arc, OnceLock};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use zeroize::Zeroizing;

use super::{OPENSSH_BEGIN, OPENSSH_END, SshIdentity, SshRecipient, Wire, tag};
use crate::age::Error;
use crate::age::format::Stanza;
use crate::age::primitives::FileKey;
use crate::par::Parallelism;
use crate::secret::SecretBytes;

/// Why a private section was refused: its check values differ (with a
/// passphrase: the wrong one), or anything else.
pub(super) enum PrivateError {
    Check,
    Other(String),
}

impl From<&str> for PrivateError {
    fn from(s: &str) -> Self {
        PrivateError::Other(s.to_owned())
    }
}

impl From<String> for PrivateError {
    fn from(s: String) -> Self {
        PrivateError::Other(s)
    }
}

impl From<PrivateError> for String {
    fn from(e: PrivateError) -> String {
        match e {
            PrivateError::Check => "corrupt private section (check values differ)".into(),
            PrivateError::Other(s) => s,
        }
    }
}

/// An OpenSSH private key file, its private part in the clear or not.
pub(super) enum OpenSsh {
    Plain(SshIdentity),
    Encrypted(EncryptedSshIdentity),
}

/// The ciphers of a passphrase-protected key this reads: those age reads
/// (golang.org/x/crypto/ssh), `aes256-ctr` (ssh-keygen's default) and
/// `aes256-cbc`, under a 32-byte key and 16-byte IV from bcrypt_pbkdf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyCipher {
    Aes256Ctr,
    Aes256Cbc,
}

/// The most bcrypt_pbkdf rounds honoured (as x/crypto/ssh: 128 times
/// ssh-keygen's 16): the cost is linear in them, and the file sets them.
const MAX_BCRYPT_ROUNDS: u32 = 1 << 11;

pub(super) fn parse_openssh(data: &[u8]) -> Result<OpenSsh, String> {
    let mut w = Wire(
        data.strip_prefix(b"openssh-key-v1\0")
            .ok_or("not an openssh-key-v1 key")?,
    );
    let cipher = w.string().ok_or("truncated")?;
    let kdf = w.string().ok_or("truncated")?;
    let kdf_options = w.string().ok_or("truncated")?;
    if w.u32() != Some(1) {
        return Err("the file must hold exactly one key".into());
    }
    let public_blob = w.string().ok_or("truncated")?.to_vec();
    let private = w.string().ok_or("truncated")?;
    if cipher == b"none" && kdf == b"none" {
        return SshIdentity::from_private_section(public_blob, private)
            .map(OpenSsh::Plain)
            .map_err(String::from);
    }
    let key_cipher = match cipher {
        b"aes256-ctr" => KeyCipher::Aes256Ctr,
        b"aes256-cbc" => KeyCipher::Aes256Cbc,
        other => {
            return Err(format!(
                "unknown cipher {:?}, only aes256-ctr and aes256-cbc are read (as age)",
                String::from_utf8_lossy(other)
            ));
        }
    };
    if kdf != b"bcrypt" {
        return Err(format!(
            "the key's passphrase is derived with {:?}, which parcrypt does not read (bcrypt is)",
            String::from_utf8_lossy(kdf)
        ));
    }
    let mut o = Wire(kdf_options);
    let salt = o.string().ok_or("malformed bcrypt options")?.to_vec();
    let rounds = o.u32().ok_or("malformed bcrypt options")?;
    if rounds > MAX_BCRYPT_ROUNDS {
        return Err(format!(
            "bcrypt KDF rounds {rounds} exceed maximum {MAX_BCRYPT_ROUNDS}"
        ));
    }
    if rounds == 0 || private.len() % 16 != 0 {
        return Err("malformed encrypted private section".into());
    }
    let kind = std::str::from_utf8(Wire(&public_blob).string().ok_or("truncated")?)
        .map_err(|_| "bad key type")?
        .to_owned();
    let public = SshRecipient::from_blob(&kind, public_blob)?;
    Ok(OpenSsh::Encrypted(EncryptedSshIdentity {
        public,
        cipher: key_cipher,
        salt,
        rounds,
        encrypted: private.to_vec(),
        passphrase: None,
        opened: Arc::new(OnceLock::new()),
    }))
}

/// A private key file's identity: [`SshIdentity::parse`]'s, or an
/// [`EncryptedSshIdentity`] for a passphrase-protected OpenSSH key.
pub(in crate::age) fn parse_private(pem: &[u8]) -> Result<crate::age::Identity, Error> {
    let bad = |why: &str| Error::Key(format!("SSH private key: {why}"));
    let text = std::str::from_utf8(pem).map_err(|_| bad("not a PEM text file"))?;
    let Some(start) = text.find(OPENSSH_BEGIN) else {
        return SshIdentity::parse(pem).map(crate::age::Identity::Ssh);
    };
    let body = &text[start + OPENSSH_BEGIN.len()..];
    let end = body.find(OPENSSH_END).ok_or_else(|| bad("no end line"))?;
    let b64: Zeroizing<String> =
        Zeroizing::new(body[..end].chars().filter(|c| !c.is_ascii_whitespace()).collect());
    let der = Zeroizing::new(STANDARD.decode(b64.as_bytes()).map_err(|_| bad("not base64"))?);
    match parse_openssh(&der).map_err(|e| bad(&e))? {
        OpenSsh::Plain(id) => Ok(crate::age::Identity::Ssh(id)),
        OpenSsh::Encrypted(id) => Ok(crate::age::Identity::EncryptedSsh(id)),
    }
}

/// Where a passphrase comes from when it is needed (a prompt, say); `None`
/// if it could not be had.
pub type PassphraseSource = Arc<dyn Fn() -> Option<SecretBytes> + Send + Sync>;

/// A passphrase-protected OpenSSH private key (Ed25519 or RSA; bcrypt_pbkdf
/// and AES-CTR, as `ssh-keygen -N` writes it), as age's
/// `agessh.EncryptedSSHIdentity`: its public key is in the clear, so a
/// stanza is matched without the passphrase, which is asked for from
/// [`EncryptedSshIdentity::with_passphrase`]'s source only when a stanza
/// names this key, once. Redacted in `Debug`; the decrypted key is wiped on drop.
#[derive(Clone)]
pub struct EncryptedSshIdentity {
    public: SshRecipient,
    cipher: KeyCipher,
    salt: Vec<u8>,
    rounds: u32,
    encrypted: Vec<u8>,
    passphrase: Option<PassphraseSource>,
    opened: Arc<OnceLock<SshIdentity>>,
}

impl fmt::Debug for EncryptedSshIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EncryptedSshIdentity({:?}, secret redacted)", self.public)
    }
}

impl EncryptedSshIdentity {
    /// The public key (in the clear in the file).
    pub fn to_recipient(&self) -> SshRecipient {
        self.public.clone()
    }

    /// Asks `source` for the passphrase when (and if) it is needed.
    #[must_use]
    pub fn with_passphrase(mut self, source: PassphraseSource) -> Self {
        self.passphrase = Some(source);
        // What another source opened is not this one's to reuse.
        self.opened = Arc::new(OnceLock::new());
        self
    }

    /// The key, decrypted with `passphrase`.
    ///
    /// # Errors
    /// [`Error::Key`]: "incorrect passphrase", or a malformed key.
    pub fn decrypt(&self, passphrase: &[u8]) -> Result<SshIdentity, Error> {
        let bad = |why: &str| Error::Key(format!("SSH private key: {why}"));
        let mut key_iv = Zeroizing::new([0u8; 48]);
        bcrypt_pbkdf::bcrypt_pbkdf(passphrase, &self.salt, self.rounds, &mut key_iv[..])
            .map_err(|e| bad(&format!("bcrypt_pbkdf: {e}")))?;
        let (key, iv) = key_iv.split_at(32);
        let iv: [u8; 16] = iv.try_into().expect("16 bytes");
        let mut plain = Zeroizing::new(self.encrypted.clone());
        let seq = Parallelism::sequential();
        match self.cipher {
            KeyCipher::Aes256Ctr => crate::aes::Ctr::new(key)
                .map_err(|e| bad(&e.to_string()))?
                .apply_keystream_in_place(&iv, &mut plain, &seq),
            KeyCipher::Aes256Cbc => crate::aes::Cbc::new(key)
                .map_err(|e| bad(&e.to_string()))?
                .decrypt_blocks(&mut iv.clone(), &mut plain, &seq),
        }
        SshIdentity::from_private_section(self.public.blob.clone(), &plain).map_err(|e| match e {
            PrivateError::Check => Error::Key("incorrect passphrase for the SSH private key".into()),
            PrivateError::Other(why) => bad(&why),
        })
    }

    /// The file key if a stanza names this key: the passphrase is asked
    /// for then (once), and the decrypted key unwraps it.
    pub(in crate::age) fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        let kind = self.public.kind();
        let tagged = stanza.kind == kind && stanza.args.first().is_some_and(|t| *t == tag(&self.public.blob));
        if !tagged {
            return Ok(None);
        }
        if let Some(id) = self.opened.get() {
            return id.unwrap(stanza);
        }
        let Some(source) = &self.passphrase else {
            return Err(Error::Key(
                "the SSH private key is passphrase-protected and no passphrase can be asked for".into(),
            ));
        };
        let pass = source().ok_or_else(|| Error::Key("no passphrase for the SSH private key".into()))?;
        let id = self.decrypt(pass.expose())?;
        self.opened.get_or_init(|| id).unwrap(stanza)
    }
}
