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
