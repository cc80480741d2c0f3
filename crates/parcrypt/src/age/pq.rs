//! The post-quantum hybrid recipient type `mlkem768x25519` (`age1pq1…`,
//! `AGE-SECRET-KEY-PQ-1…`), as filippo.io/age v1.3 writes it: HPKE base
//! mode (RFC 9180) with the MLKEM768-X25519 KEM of draft-ietf-hpke-pq
//! (X-Wing's combiner), HKDF-SHA-256 and ChaCha20-Poly1305, info
//! `age-encryption.org/mlkem768x25519`. ML-KEM-768, X25519, SHA3-256 and
//! SHAKE256 are AWS-LC's; the HPKE key schedule is the few HKDF calls below.
//!
//! The secret key is a 32-byte seed; SHAKE256(seed) gives the ML-KEM-768
//! seed `d ‖ z` (64 bytes) and then the X25519 scalar (32 bytes).

use std::fmt;
use std::str::FromStr;

use aws_lc_rs::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey};
use aws_lc_rs::{digest, hkdf, hmac};
use zeroize::Zeroizing;

use super::format::{Stanza, b64_decode, b64_encode};
use super::primitives::{FILE_KEY, FileKey, Random, WRAPPED, random_scalar, x25519, x25519_base};
use super::{Error, bech};
use crate::ffi::kem::{
    DecapsulationKey, ML_KEM_768, MLKEM768_CIPHERTEXT, MLKEM768_PUBLIC, mlkem768_encapsulate,
};
use crate::secret::{SecretKey, SecretString, wipe};

const TYPE: &str = "mlkem768x25519";
const INFO: &[u8] = b"age-encryption.org/mlkem768x25519";
/// The hybrid KEM's label in the shared-secret combiner (X-Wing's).
const KEM_LABEL: &[u8] = b"\\.//^\\";
/// "HPKE" ‖ KEM 0x647a (MLKEM768-X25519) ‖ KDF 0x0001 (HKDF-SHA256) ‖ AEAD 0x0003 (ChaCha20Poly1305).
const SUITE: &[u8] = b"HPKE\x64\x7a\x00\x01\x00\x03";
/// The encapsulated key: an ML-KEM-768 ciphertext and an X25519 share.
const ENC: usize = MLKEM768_CIPHERTEXT + 32;
/// The public key: an ML-KEM-768 encapsulation key and an X25519 point.
const PUBLIC: usize = MLKEM768_PUBLIC + 32;

/// X-Wing's combiner: SHA3-256(ss_PQ ‖ ss_T ‖ ct_T ‖ pk_T ‖ label).
fn combine(ss_pq: &SecretKey<32>, ss_t: &SecretKey<32>, ct_t: &[u8; 32], pk_t: &[u8; 32]) -> SecretKey<32> {
    let mut ctx = digest::Context::new(&digest::SHA3_256);
    for part in [
        &ss_pq.expose()[..],
        &ss_t.expose()[..],
        &ct_t[..],
        &pk_t[..],
        KEM_LABEL,
    ] {
        ctx.update(part);
    }
    let out = ctx.finish();
    SecretKey::from_slice(out.as_ref()).expect("SHA3-256 is 32 bytes")
}

/// HPKE's LabeledExtract(salt = "", label, ikm) under `suite`: the PRK
/// bytes (for public inputs, and the DH-based KEMs' `eae_prk`).
pub(super) fn labeled_extract(suite: &[u8], label: &[u8], ikm: &[u8]) -> [u8; 32] {
    let mut ctx = hmac::Context::with_key(&hmac::Key::new(hmac::HMAC_SHA256, &[]));
    for part in [b"HPKE-v1".as_slice(), suite, label, ikm] {
        ctx.update(part);
    }
    let mut out = [0u8; 32];
    out.copy_from_slice(ctx.sign().as_ref());
    out
}

pub(super) struct Len(pub(super) usize);

impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

/// The HPKE base-mode context for `shared_secret` under `suite` (`HPKE` ‖
/// KEM ‖ KDF ‖ AEAD ids) and `info`: the ChaCha20-Poly1305 key and the
/// first (only) nonce.
pub(super) fn key_schedule(
    suite: &[u8],
    info: &[u8],
    shared_secret: &SecretKey<32>,
) -> (LessSafeKey, [u8; 12]) {
    let psk_id_hash = labeled_extract(suite, b"psk_id_hash", b"");
    let info_hash = labeled_extract(suite, b"info_hash", info);
    let mut context = [0u8; 65];
    context[1..33].copy_from_slice(&psk_id_hash);
    context[33..].copy_from_slice(&info_hash);
    // secret = LabeledExtract(salt = shared_secret, "secret", ikm = psk = "").
    let secret = hkdf::Salt::new(hkdf::HKDF_SHA256, shared_secret.expose())
        .extract(&[b"HPKE-v1".as_slice(), suite, b"secret"].concat());
    let expand = |label: &[u8], out: &mut [u8]| {
        let len = (out.len() as u16).to_be_bytes();
        secret
            .expand(&[&len, b"HPKE-v1", suite, label, &context], Len(out.len()))
            .and_then(|okm| okm.fill(out))
            .expect("HKDF-SHA-256 of at most 32 bytes");
    };
    let mut key = [0u8; 32];
    expand(b"key", &mut key);
    let mut nonce = [0u8; 12];
    expand(b"base_nonce", &mut nonce);
    let aead = LessSafeKey::new(UnboundKey::new(&CHACHA20_POLY1305, &key).expect("a 32-byte key"));
    wipe(&mut key);
    (aead, nonce)
}

/// A post-quantum hybrid public key (`age1pq1…`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct HybridRecipient {
    mlkem: Box<[u8; MLKEM768_PUBLIC]>,
    x25519: [u8; 32],
}

impl HybridRecipient {
    /// Parses an `age1pq1…` public key, checking its ML-KEM part as FIPS
    /// 203 asks before encapsulating.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(s: &str) -> Result<Self, Error> {
        let mut shown: String = s.chars().take(20).collect();
        if shown.len() < s.len() {
            shown.push('…');
        }
        let bad = |why: &str| Error::Key(format!("malformed post-quantum recipient {shown:?}: {why}"));
        let (hrp, decoded) = bech::decode(s).map_err(|e| bad(&e))?;
        let data = decoded.expose();
        if hrp != "age1pq" {
            return Err(bad(&format!("invalid type {hrp:?}")));
        }
        if data.len() != PUBLIC {
            return Err(bad("not a 1216-byte MLKEM768-X25519 key"));
        }
        let mut mlkem = Box::new([0u8; MLKEM768_PUBLIC]);
        mlkem.copy_from_slice(&data[..MLKEM768_PUBLIC]);
        let mut x = [0u8; 32];
        x.copy_from_slice(&data[MLKEM768_PUBLIC..]);
        // The modulus check FIPS 203 requires runs in encapsulation.
        mlkem768_encapsulate(&mlkem, &[0; 32]).map_err(|_| bad("invalid ML-KEM-768 encapsulation key"))?;
        Ok(HybridRecipient { mlkem, x25519: x })
    }

    fn to_bytes(&self) -> Vec<u8> {
        [&self.mlkem[..], &self.x25519[..]].concat()
    }

    /// HPKE SealBase of the file key.
    pub(super) fn wrap(&self, file_key: &FileKey, random: Random<'_>) -> Result<Stanza, Error> {
        let ephemeral = random_scalar(random);
        let m = random_scalar(random);
        let ct_t = x25519_base(ephemeral.expose());
        let ss_t = x25519(ephemeral.expose(), &self.x25519).ok_or_else(|| {
            Error::Key("the post-quantum recipient's X25519 part is a low-order point".into())
        })?;
        let (ct_pq, ss_pq) = mlkem768_encapsulate(&self.mlkem, m.expose())
            .map_err(|_| Error::Key("invalid ML-KEM-768 encapsulation key".into()))?;
        let (aead, nonce) = key_schedule(SUITE, INFO, &combine(&ss_pq, &ss_t, &ct_t, &self.x25519));
        let mut body = vec![0u8; WRAPPED];
        body[..FILE_KEY].copy_from_slice(file_key.expose());
        let tag = aead
            .seal_in_place_separate_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::empty(),
                &mut body[..FILE_KEY],
            )
            .expect("ChaCha20-Poly1305 seal of 16 bytes");
        body[FILE_KEY..].copy_from_slice(tag.as_ref());
        Ok(Stanza {
            kind: TYPE.into(),
            args: vec![b64_encode(&[&ct_pq[..], &ct_t[..]].concat())],
            body,
        })
    }
}

impl fmt::Display for HybridRecipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(bech::encode("age1pq", &self.to_bytes(), false).expose())
    }
}

impl fmt::Debug for HybridRecipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.to_string();
        write!(f, "HybridRecipient({}…)", &s[..24])
    }
}

impl FromStr for HybridRecipient {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

/// A post-quantum hybrid secret key (`AGE-SECRET-KEY-PQ-1…`): its 32-byte
/// seed and the keys expanded from it, wiped on drop (AWS-LC cleanses the
/// ML-KEM key), redacted in `Debug`.
pub struct HybridIdentity {
    seed: SecretKey<32>,
    mlkem: DecapsulationKey,
    x25519: SecretKey<32>,
    public: HybridRecipient,
}

impl Clone for HybridIdentity {
    fn clone(&self) -> Self {
        Self::from_seed(self.seed.clone())
    }
}

impl fmt::Debug for HybridIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HybridIdentity({:?}, secret redacted)", self.public)
    }
}

impl HybridIdentity {
    /// A new random key (from the operating system's generator).
    pub fn generate() -> Self {
        Self::from_seed(random_scalar(&mut super::primitives::os_random))
    }

    fn from_seed(seed: SecretKey<32>) -> Self {
        let mut expanded = Zeroizing::new([0u8; 96]);
        assert!(
            crate::ffi::shake256(&[seed.expose()], &mut expanded[..]),
            "SHAKE256"
        );
        let mut mlkem_seed = Zeroizing::new([0u8; 64]);
        mlkem_seed.copy_from_slice(&expanded[..64]);
        let mlkem = DecapsulationKey::from_seed(ML_KEM_768, &mlkem_seed)
            .expect("ML-KEM-768 key generation from a seed");
        let x25519 = SecretKey::from_slice(&expanded[64..]).expect("32 bytes");
        let public = HybridRecipient {
            mlkem: mlkem
                .public_key()
                .and_then(|ek| ek.raw())
                .ok()
                .and_then(|raw| raw.into_boxed_slice().try_into().ok())
                .expect("the public key of a fresh ML-KEM-768 key"),
            x25519: x25519_base(x25519.expose()),
        };
        HybridIdentity {
            seed,
            mlkem,
            x25519,
            public,
        }
    }

    /// Parses an `AGE-SECRET-KEY-PQ-1…` secret key. Error messages never
    /// quote the key.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(s: &str) -> Result<Self, Error> {
        let bad = |why: String| Error::Key(format!("malformed post-quantum secret key: {why}"));
        let (hrp, decoded) = bech::decode(s).map_err(bad)?;
        let data = decoded.expose();
        if hrp != "AGE-SECRET-KEY-PQ-" {
            return Err(bad("not an AGE-SECRET-KEY-PQ-1 key".into()));
        }
        let seed = SecretKey::from_slice(data).ok_or_else(|| bad("not a 32-byte seed".into()))?;
        Ok(Self::from_seed(seed))
    }

    /// The public key.
    pub fn to_recipient(&self) -> HybridRecipient {
        self.public.clone()
    }

    /// The `AGE-SECRET-KEY-PQ-1…` encoding (wiped when dropped).
    pub fn to_secret_string(&self) -> SecretString {
        bech::encode("age-secret-key-pq-", self.seed.expose(), true)
    }

    /// HPKE OpenBase of an `mlkem768x25519` stanza: the file key, `Ok(None)`
    /// for another stanza or another key (ML-KEM rejects implicitly), an
    /// error for a malformed stanza.
    pub(super) fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        if stanza.kind != TYPE {
            return Ok(None);
        }
        let bad = |why: &str| Error::MalformedHeader(format!("invalid mlkem768x25519 stanza: {why}"));
        let [arg] = &stanza.args[..] else {
            return Err(bad("it must have exactly one argument"));
        };
        let enc = b64_decode(arg).ok_or_else(|| bad("the encapsulated key is not canonical base64"))?;
        if stanza.body.len() != WRAPPED {
            return Err(bad("the body is not a wrapped 16-byte file key"));
        }
        if enc.len() != ENC {
            return Err(bad("the encapsulated key is not 1120 bytes"));
        }
        let mut ct_pq = [0u8; MLKEM768_CIPHERTEXT];
        ct_pq.copy_from_slice(&enc[..MLKEM768_CIPHERTEXT]);
        let mut ct_t = [0u8; 32];
        ct_t.copy_from_slice(&enc[MLKEM768_CIPHERTEXT..]);
        let ss_pq = self
            .mlkem
            .decapsulate(&ct_pq)
            .map_err(|_| bad("ML-KEM-768 decapsulation failed"))?;
        let ss_t = x25519(self.x25519.expose(), &ct_t)
            .ok_or_else(|| bad("the X25519 share is a low-order point"))?;
        let (aead, nonce) = key_schedule(SUITE, INFO, &combine(&ss_pq, &ss_t, &ct_t, &self.public.x25519));
        let mut buf = [0u8; WRAPPED];
        buf.copy_from_slice(&stanza.body);
        let key = aead
            .open_in_place(Nonce::assume_unique_for_key(nonce), Aad::empty(), &mut buf)
            .ok()
            .and_then(|plain| SecretKey::from_slice(plain));
        wipe(&mut buf);
        Ok(key)
    }
}

impl FromStr for HybridIdentity {
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
        // C2SP age, "The MLKEM768-X25519 (i.e. X-Wing) hybrid post-quantum recipient type".
        let id = HybridIdentity::parse(
            "AGE-SECRET-KEY-PQ-1XX76JRALNLXDMEW0CRK45QMCCH4X06SE84UN3VPM33W6HWDX0H3SK3ZQFR",
        )
        .unwrap();
        let public = id.to_recipient().to_string();
        assert_eq!(
            public,
            "age1pq1x34nzsvr0rxjsgdn8zgyhfe8j7ceq5r9rdelkjuh3y235jzxshfg87pzf5zrqtzdxz95paef6caq5aapdmwjjqpjfdyxnzr2zampc3uxy0dg4z2n2gm9su72p0pc3u0jvev55l694v78snxg3yzvcl7yda0eyytqj6a0ec477lnhcy5hzpz4zq3pxanve4cn62gqj3pjy5lqj9c6kyj4v2z8alktn8zh99970x79gjkv7522hv9kfz35zsnxhsx8wwtmu9cy3ftzjgwcp4sshn3llnylnpdsyz5jm72vefv4x5vfwytrefxg4wq3mv42wcrvkj742479zrxzpvp2p3e9fed9f0739vcu80r7ma28qfhnvlv4gfzel9q654dj3zmuvvz893azhxdvs9fxd0r7jzchzcfcs5mkyyjxhw0n2z6dvp9yn9qfdp29h0azxqyjw6v7fhyuzj7zel0uq6j9rd7wgrpz7mf5dnj43jwsgvrc8qcnhy7tu6dkdujuxzkp9xj43xe8h92ktre2a3u3s8mm5mrp9nr9pwkgtz4mdlq9hgn4fps4k57ff6wddn2fy23t47sm20r8km8sd2pcyyafnet8f0dajsrlyjeah4n3mssr6aseevuuskdvq5lzguyvpgwpta742c6698vgutzqgny8usfg0w2he7kq5vyxjd0f9hqg8xk26y9e4th0gezq92q4cpp5p2y9hf5f2cje5l0c3sa3a2qxmm38pxxvhxh99yzmfz0zk7r2s64nnwjhkfgfr3gf8xnmppcgmaykvh5sh6g7vk9790rf8ws0axmr2t7z8aae5fq2029uvcn2ghgt4fu4wgwdc0k0cz52qkvwmuzj8p8k5jgf3xzk5zmrkavjekjrpeq408xz3zxazwkc6tyfmhayrkfpjhwtz5mp8j8guqe43k2q6m2kte03vrw27y3wmqyu5etmt9dnkwcnnpmu9gz9dekfhdevf42ucshphnrk38ra6hx8w5f8q5ru0xdhrjxmwqf6cused7zc5xvq43r0zscjglpwlptpwydhqw64xz7ptjdyeyzpq2zkxtmzg29gzjpvzva4d3l0cenn9xs297wf4y4ukwrunf57xj6pm7nvrkwvtrt8hwcmgv8x7ajw7258ugf9wvkmk4052ekg87tw5vnx8nq2swyzv77v8yqlwsenvamr0zssknwts8rrhfuwj7ykysnq9jxy0uv3kuyt22djszjdtvpz6d0s0kwh8ryynddzud92emeyvvyqktd0jtj7rvvg5gch25v8smlvny3kvn5gagyz475ze2y6q466xqmz2n3hs77lddeqyta2nch5k2u5yacuk9ywnwfdzvyejnucz724hj77hrrmakm7pr3kxsrxq22ejexlud9fy2kdqmkg5yncz7jm5wv2qjk5w5kvcpqsry2yqffh2la52dxfjkjq5rzhjzeyn6dupn0qwtyv7s4lwg3xdarsdlwe2y3tujy480y7z39q259fzx6jhd2j0f5hagqpcpees7hzc2yrk5cy788uk3s7qvp5cpepx24gvws3m2g433exgwppnkjscec8qu4y9z9r7vccexjcjaen42245lmgmxmuavg9alej92322gvvyy2t6267v09ch64y0m53jff0vjj96s0ypk60hr3jw4myd6m5hpn3xjstx7tl2szhpr5qe8jj08ydjc4wy2rch2fhuy3pdfjax5awe9j99ly5hkntzz9fe5zatgjvzdd0kgtxs25njnajyf6ssekp7gelxquusn4pt25czh3scj68kq79wdn5tgm6yvm9nzavrg043x3msnygf8dweknw5jmqd0uvny6ttsn09508k0c55zfnegrm9efhxpfqdkmhh6gjtqmwze9pyyzk3tlhl53k2ykx3qheyty7saeq0d3fzv49zc0k"
        );
        assert_eq!(HybridRecipient::parse(&public).unwrap(), id.to_recipient());
        assert!(!format!("{id:?}").contains("XX76J"));
        let fk = FileKey::from_slice(&[5; 16]).unwrap();
        let stanza = id
            .to_recipient()
            .wrap(&fk, &mut super::super::primitives::os_random)
            .unwrap();
        assert_eq!(id.unwrap(&stanza).unwrap(), Some(fk));
        assert_eq!(HybridIdentity::generate().unwrap(&stanza).unwrap(), None);
    }
}
