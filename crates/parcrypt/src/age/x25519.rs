//! The X25519 recipient type: `age1…` public keys, `AGE-SECRET-KEY-1…`
//! identities, `-> X25519 <ephemeral share>` stanzas.

use std::fmt;
use std::str::FromStr;

use super::format::{Stanza, b64_decode, b64_encode};
use super::primitives::{FileKey, Random, WRAPPED, hkdf32, random_scalar, unwrap, wrap, x25519, x25519_base};
use super::{Error, bech};
use crate::secret::{SecretKey, SecretString};

const LABEL: &[u8] = b"age-encryption.org/v1/X25519";
const TYPE: &str = "X25519";

/// An X25519 public key (`age1…`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct X25519Recipient {
    point: [u8; 32],
}

impl X25519Recipient {
    /// Parses an `age1…` public key.
    ///
    /// # Errors
    /// [`Error::Key`] for anything else.
    pub fn parse(s: &str) -> Result<Self, Error> {
        let bad = |why: &str| Error::Key(format!("malformed X25519 recipient {s:?}: {why}"));
        let (hrp, decoded) = bech::decode(s).map_err(|e| bad(&e))?;
        let data = decoded.expose();
        if hrp != "age" {
            return Err(bad(&format!("invalid type {hrp:?}")));
        }
        let point = <[u8; 32]>::try_from(data).map_err(|_| bad("not a 32-byte key"))?;
        Ok(X25519Recipient { point })
    }

    /// The raw Curve25519 point.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.point
    }

    /// Wraps the file key to this recipient (a fresh ephemeral secret from `random`).
    pub(super) fn wrap(&self, file_key: &FileKey, random: Random<'_>) -> Result<Stanza, Error> {
        let ephemeral = random_scalar(random);
        let share = x25519_base(ephemeral.expose());
        let shared = x25519(ephemeral.expose(), &self.point)
            .ok_or_else(|| Error::Key("the X25519 recipient is a low-order point".into()))?;
        let key = hkdf32(&[&share[..], &self.point[..]].concat(), shared.expose(), LABEL);
        Ok(Stanza {
            kind: TYPE.into(),
            args: vec![b64_encode(&share)],
            body: wrap(&key, file_key),
        })
    }
}

impl fmt::Display for X25519Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(bech::encode("age", &self.point, false).expose())
    }
}

impl fmt::Debug for X25519Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "X25519Recipient({self})")
    }
}

impl FromStr for X25519Recipient {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

/// An X25519 secret key (`AGE-SECRET-KEY-1…`): wiped on drop, redacted in `Debug`.
#[derive(Clone)]
pub struct X25519Identity {
    scalar: SecretKey<32>,
    public: [u8; 32],
}

impl fmt::Debug for X25519Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "X25519Identity({}, secret redacted)", self.to_recipient())
    }
}

impl X25519Identity {
    /// A new random key (from the operating system's generator).
    pub fn generate() -> Self {
        Self::from_scalar(random_scalar(&mut super::primitives::os_random))
    }

    fn from_scalar(scalar: SecretKey<32>) -> Self {
        let public = x25519_base(scalar.expose());
        X25519Identity { scalar, public }
    }

    /// Parses an `AGE-SECRET-KEY-1…` secret key. Error messages never
    /// quote the key.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(s: &str) -> Result<Self, Error> {
        let bad = |why: String| Error::Key(format!("malformed X25519 secret key: {why}"));
        let (hrp, decoded) = bech::decode(s).map_err(bad)?;
        let data = decoded.expose();
        if hrp != "AGE-SECRET-KEY-" {
            return Err(bad("not an AGE-SECRET-KEY-1 key".into()));
        }
        let scalar = SecretKey::from_slice(data).ok_or_else(|| bad("not a 32-byte key".into()))?;
        Ok(Self::from_scalar(scalar))
    }

    /// The public key.
    pub fn to_recipient(&self) -> X25519Recipient {
        X25519Recipient { point: self.public }
    }

    /// The `AGE-SECRET-KEY-1…` encoding (wiped when dropped).
    pub fn to_secret_string(&self) -> SecretString {
        bech::encode("age-secret-key-", self.scalar.expose(), true)
    }

    /// The file key if `stanza` is an X25519 stanza for this key; `Ok(None)`
    /// for another stanza; an error for a malformed X25519 stanza.
    pub(super) fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        if stanza.kind != TYPE {
            return Ok(None);
        }
        let bad = |why: &str| Error::MalformedHeader(format!("invalid X25519 stanza: {why}"));
        let [arg] = &stanza.args[..] else {
            return Err(bad("it must have exactly one argument"));
        };
        let share = b64_decode(arg)
            .and_then(|s| <[u8; 32]>::try_from(s).ok())
            .ok_or_else(|| bad("the share is not canonical base64 of 32 bytes"))?;
        if stanza.body.len() != WRAPPED {
            return Err(bad("the body is not a wrapped 16-byte file key"));
        }
        let shared =
            x25519(self.scalar.expose(), &share).ok_or_else(|| bad("the share is a low-order point"))?;
        let key = hkdf32(&[&share[..], &self.public[..]].concat(), shared.expose(), LABEL);
        Ok(unwrap(&key, &stanza.body))
    }
}

impl FromStr for X25519Identity {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_specs_example_key_pair() {
        // C2SP age, "The X25519 recipient type".
        let id = X25519Identity::parse(
            "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX",
        )
        .unwrap();
        assert_eq!(
            id.to_recipient().to_string(),
            "age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj"
        );
        assert_eq!(
            id.to_secret_string().expose(),
            "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX"
        );
        assert!(!format!("{id:?}").contains("GFPYY"));
        // Case and type are checked.
        assert!(
            X25519Identity::parse(
                "age-secret-key-1gfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpq4egaex"
            )
            .is_err()
        );
        assert!(
            X25519Recipient::parse("AGE1ZVKYG2LQZRAA2LNJVQEJ32NKUU0UES2S82HZRYE869XEEXVN73EQUNUJWJ").is_err()
        );
    }

    #[test]
    fn wraps_and_unwraps() {
        let id = X25519Identity::generate();
        let fk = FileKey::from_slice(&[9; 16]).unwrap();
        let stanza = id
            .to_recipient()
            .wrap(&fk, &mut super::super::primitives::os_random)
            .unwrap();
        assert_eq!(id.unwrap(&stanza).unwrap(), Some(fk));
        let other = X25519Identity::generate();
        assert_eq!(other.unwrap(&stanza).unwrap(), None);
    }
}
