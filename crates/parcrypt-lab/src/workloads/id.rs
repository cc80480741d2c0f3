//! Every workload's name, once. The registry names its workloads with
//! these, and everything else that picks a workload out by name (the
//! report's sections, the papers' tables) uses them too, so renaming a
//! workload renames it everywhere instead of silently dropping a section.
//! The names are the contract of `--only`, results.csv and results.json.

/// `aes-128-ctr`.
pub const AES_128_CTR: &str = "aes-128-ctr";
/// `aes-256-ctr`.
pub const AES_256_CTR: &str = "aes-256-ctr";
/// `aes-256-cbc-dec`.
pub const AES_256_CBC_DEC: &str = "aes-256-cbc-dec";
/// `aes-256-ecb-enc`.
pub const AES_256_ECB_ENC: &str = "aes-256-ecb-enc";
/// `aes-256-ecb-dec`.
pub const AES_256_ECB_DEC: &str = "aes-256-ecb-dec";
/// `aes-256-gcm-seal`.
pub const AES_256_GCM_SEAL: &str = "aes-256-gcm-seal";
/// `aes-256-gcm-open`.
pub const AES_256_GCM_OPEN: &str = "aes-256-gcm-open";
/// `rc4`.
pub const RC4: &str = "rc4";
/// `parc4-32b`.
pub const PARC4_32B: &str = "parc4-32b";
/// `parc4-4kib`.
pub const PARC4_4KIB: &str = "parc4-4kib";
/// `parc4-64kib`.
pub const PARC4_64KIB: &str = "parc4-64kib";
/// `parc4-1mib`.
pub const PARC4_1MIB: &str = "parc4-1mib";
/// `sha256`.
pub const SHA256: &str = "sha256";
/// `sha256-many-sha2`.
pub const SHA256_MANY_SHA2: &str = "sha256-many-sha2";
/// `sha256-many-shani-x2`.
pub const SHA256_MANY_SHANI_X2: &str = "sha256-many-shani-x2";
/// `sha256-many-shani-x4`.
pub const SHA256_MANY_SHANI_X4: &str = "sha256-many-shani-x4";
/// `sha256-many-avx2-x8`.
pub const SHA256_MANY_AVX2_X8: &str = "sha256-many-avx2-x8";
/// `sha256-many-avx512-x16`.
pub const SHA256_MANY_AVX512_X16: &str = "sha256-many-avx512-x16";
/// `merkle-rfc6962-4kib`.
pub const MERKLE_RFC6962_4KIB: &str = "merkle-rfc6962-4kib";
/// `merkle-rfc6962-32b`.
pub const MERKLE_RFC6962_32B: &str = "merkle-rfc6962-32b";
/// `merkle-per-level-4kib`.
pub const MERKLE_PER_LEVEL_4KIB: &str = "merkle-per-level-4kib";
/// `merkle-per-level-32b`.
pub const MERKLE_PER_LEVEL_32B: &str = "merkle-per-level-32b";
/// `merkle-bittorrent-v2`.
pub const MERKLE_BITTORRENT_V2: &str = "merkle-bittorrent-v2";
/// `merkle-glacier`.
pub const MERKLE_GLACIER: &str = "merkle-glacier";
/// `merkle-rfc6962-file`.
pub const MERKLE_RFC6962_FILE: &str = "merkle-rfc6962-file";
/// `merkle-tiles-verify`.
pub const MERKLE_TILES_VERIFY: &str = "merkle-tiles-verify";
/// `hash-many-files`.
pub const HASH_MANY_FILES: &str = "hash-many-files";
/// `rsa-keygen-1024`.
pub const RSA_KEYGEN_1024: &str = "rsa-keygen-1024";
/// `rsa-keygen-2048`.
pub const RSA_KEYGEN_2048: &str = "rsa-keygen-2048";
/// `rsa-keygen-4096`.
pub const RSA_KEYGEN_4096: &str = "rsa-keygen-4096";
/// `rsa-sign-2048`.
pub const RSA_SIGN_2048: &str = "rsa-sign-2048";
/// `rsa-sign-2048-threads`.
pub const RSA_SIGN_2048_THREADS: &str = "rsa-sign-2048-threads";
/// `rsa-sign-4096`.
pub const RSA_SIGN_4096: &str = "rsa-sign-4096";
/// `rsa-sign-4096-threads`.
pub const RSA_SIGN_4096_THREADS: &str = "rsa-sign-4096-threads";
/// `rsa-bulk-enc`.
pub const RSA_BULK_ENC: &str = "rsa-bulk-enc";
/// `rsa-bulk-dec`.
pub const RSA_BULK_DEC: &str = "rsa-bulk-dec";
/// `ecdsa-verify-joint`.
pub const ECDSA_VERIFY_JOINT: &str = "ecdsa-verify-joint";
/// `ecdsa-verify-separate`.
pub const ECDSA_VERIFY_SEPARATE: &str = "ecdsa-verify-separate";
/// `ecdsa-verify-split`.
pub const ECDSA_VERIFY_SPLIT: &str = "ecdsa-verify-split";
/// `ecdsa-verify-batch`.
pub const ECDSA_VERIFY_BATCH: &str = "ecdsa-verify-batch";
/// `stream-encrypt`.
pub const STREAM_ENCRYPT: &str = "stream-encrypt";
/// `stream-decrypt`.
pub const STREAM_DECRYPT: &str = "stream-decrypt";
/// `age-encrypt`.
pub const AGE_ENCRYPT: &str = "age-encrypt";
/// `age-decrypt`.
pub const AGE_DECRYPT: &str = "age-decrypt";
/// `cobblestone-encrypt`.
pub const COBBLESTONE_ENCRYPT: &str = "cobblestone-encrypt";
/// `cobblestone-decrypt`.
pub const COBBLESTONE_DECRYPT: &str = "cobblestone-decrypt";

/// `ml-dsa-sign-batch`.
pub const ML_DSA_SIGN_BATCH: &str = "ml-dsa-sign-batch";
/// `ml-dsa-verify-batch`.
pub const ML_DSA_VERIFY_BATCH: &str = "ml-dsa-verify-batch";
/// `sha512`.
pub const SHA512: &str = "sha512";
/// `shake256`.
pub const SHAKE256: &str = "shake256";
/// `slh-dsa-sign-<set>`, in `slhdsa::ParameterSet::ALL`'s order.
pub const SLH_DSA_SIGN: [&str; 12] = [
    "slh-dsa-sign-sha2-128s",
    "slh-dsa-sign-shake-128s",
    "slh-dsa-sign-sha2-128f",
    "slh-dsa-sign-shake-128f",
    "slh-dsa-sign-sha2-192s",
    "slh-dsa-sign-shake-192s",
    "slh-dsa-sign-sha2-192f",
    "slh-dsa-sign-shake-192f",
    "slh-dsa-sign-sha2-256s",
    "slh-dsa-sign-shake-256s",
    "slh-dsa-sign-sha2-256f",
    "slh-dsa-sign-shake-256f",
];
/// `slh-dsa-verify-<set>`, as [`SLH_DSA_SIGN`].
pub const SLH_DSA_VERIFY: [&str; 12] = [
    "slh-dsa-verify-sha2-128s",
    "slh-dsa-verify-shake-128s",
    "slh-dsa-verify-sha2-128f",
    "slh-dsa-verify-shake-128f",
    "slh-dsa-verify-sha2-192s",
    "slh-dsa-verify-shake-192s",
    "slh-dsa-verify-sha2-192f",
    "slh-dsa-verify-shake-192f",
    "slh-dsa-verify-sha2-256s",
    "slh-dsa-verify-shake-256s",
    "slh-dsa-verify-sha2-256f",
    "slh-dsa-verify-shake-256f",
];
/// `slh-dsa-keygen-<set>`, as [`SLH_DSA_SIGN`].
pub const SLH_DSA_KEYGEN: [&str; 12] = [
    "slh-dsa-keygen-sha2-128s",
    "slh-dsa-keygen-shake-128s",
    "slh-dsa-keygen-sha2-128f",
    "slh-dsa-keygen-shake-128f",
    "slh-dsa-keygen-sha2-192s",
    "slh-dsa-keygen-shake-192s",
    "slh-dsa-keygen-sha2-192f",
    "slh-dsa-keygen-shake-192f",
    "slh-dsa-keygen-sha2-256s",
    "slh-dsa-keygen-shake-256s",
    "slh-dsa-keygen-sha2-256f",
    "slh-dsa-keygen-shake-256f",
];

/// The names before the post-quantum ones, in report order.
const CLASSICAL: [&str; 46] = [
    AES_128_CTR,
    AES_256_CTR,
    AES_256_CBC_DEC,
    AES_256_ECB_ENC,
    AES_256_ECB_DEC,
    AES_256_GCM_SEAL,
    AES_256_GCM_OPEN,
    RC4,
    PARC4_32B,
    PARC4_4KIB,
    PARC4_64KIB,
    PARC4_1MIB,
    SHA256,
    SHA256_MANY_SHA2,
    SHA256_MANY_SHANI_X2,
    SHA256_MANY_SHANI_X4,
    SHA256_MANY_AVX2_X8,
    SHA256_MANY_AVX512_X16,
    MERKLE_RFC6962_4KIB,
    MERKLE_RFC6962_32B,
    MERKLE_PER_LEVEL_4KIB,
    MERKLE_PER_LEVEL_32B,
    MERKLE_BITTORRENT_V2,
    MERKLE_GLACIER,
    MERKLE_RFC6962_FILE,
    HASH_MANY_FILES,
    MERKLE_TILES_VERIFY,
    RSA_KEYGEN_1024,
    RSA_KEYGEN_2048,
    RSA_KEYGEN_4096,
    RSA_SIGN_2048,
    RSA_SIGN_2048_THREADS,
    RSA_SIGN_4096,
    RSA_SIGN_4096_THREADS,
    RSA_BULK_ENC,
    RSA_BULK_DEC,
    ECDSA_VERIFY_JOINT,
    ECDSA_VERIFY_SEPARATE,
    ECDSA_VERIFY_SPLIT,
    ECDSA_VERIFY_BATCH,
    STREAM_ENCRYPT,
    STREAM_DECRYPT,
    AGE_ENCRYPT,
    AGE_DECRYPT,
    COBBLESTONE_ENCRYPT,
    COBBLESTONE_DECRYPT,
];

/// Every name above, in report order (the registry's order).
pub const ALL: [&str; 86] = {
    let mut all = [""; 86];
    let mut i = 0;
    while i < CLASSICAL.len() {
        all[i] = CLASSICAL[i];
        i += 1;
    }
    let post_quantum = [ML_DSA_SIGN_BATCH, ML_DSA_VERIFY_BATCH, SHA512, SHAKE256];
    let mut j = 0;
    while j < post_quantum.len() {
        all[i] = post_quantum[j];
        i += 1;
        j += 1;
    }
    let slh_dsa = [SLH_DSA_SIGN, SLH_DSA_VERIFY, SLH_DSA_KEYGEN];
    let mut o = 0;
    while o < slh_dsa.len() {
        let mut s = 0;
        while s < 12 {
            all[i] = slh_dsa[o][s];
            i += 1;
            s += 1;
        }
        o += 1;
    }
    all
};

#[cfg(test)]
mod tests {
    #[test]
    fn the_registry_registers_every_name_once_in_order() {
        let registered: Vec<&str> = super::super::registry().iter().map(|w| w.name).collect();
        assert_eq!(registered, super::ALL);
    }
}
