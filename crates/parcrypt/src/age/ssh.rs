//! SSH keys as age recipients and identities (`ssh-ed25519`, `ssh-rsa`).
//! Not supported yet: parsing refuses them.

use std::convert::Infallible;
use std::fmt;

use super::Error;
use super::format::Stanza;
use super::primitives::{FileKey, Random};

/// An SSH public key (`ssh-ed25519 AAAA…` or `ssh-rsa AAAA…`).
#[derive(Clone)]
pub struct SshRecipient {
    never: Infallible,
}

impl SshRecipient {
    /// Parses an authorized_keys line.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(_s: &str) -> Result<Self, Error> {
        Err(Error::Key("SSH recipients are not supported yet".into()))
    }

    pub(super) fn wrap(&self, _file_key: &FileKey, _random: Random<'_>) -> Result<Stanza, Error> {
        match self.never {}
    }
}

impl fmt::Display for SshRecipient {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.never {}
    }
}

impl fmt::Debug for SshRecipient {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.never {}
    }
}

/// An unencrypted OpenSSH private key.
#[derive(Clone)]
pub struct SshIdentity {
    never: Infallible,
}

impl fmt::Debug for SshIdentity {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.never {}
    }
}

impl SshIdentity {
    /// Parses an OpenSSH private key file.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(_pem: &[u8]) -> Result<Self, Error> {
        Err(Error::Key("SSH identities are not supported yet".into()))
    }

    /// The public key.
    pub fn to_recipient(&self) -> SshRecipient {
        match self.never {}
    }

    pub(super) fn unwrap(&self, _stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        match self.never {}
    }
}

/// The type of a valid SSH public key age does not encrypt to.
pub(super) fn unsupported_key_type(_line: &str) -> Option<String> {
    None
}
