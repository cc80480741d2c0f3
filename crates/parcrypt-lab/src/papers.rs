//! The papers' published numbers, set next to ours in summary.md, each
//! with the workloads of ours that stand beside it.

use crate::workloads::id;
/// ParalCrypto's inputs and the RSA research application's sizes: the
/// workloads' grids hold them, so they are defined there.
pub use crate::workloads::{PARALCRYPTO_IMAGE, PARALCRYPTO_TEXT, RSA_APP_SIZES};

/// PARC4 paper, Table 2: seconds to encrypt a file of each size, sequential
/// and on 2, 4, 6, 8 cores (OpenMP; one RC4 key for every block).
pub const PARC4_TABLE2: [(usize, &str, [f64; 5]); 5] = [
    (512_000, "512 KB", [0.01037, 0.01015, 0.00366, 0.00261, 0.00193]),
    (1_000_000, "1 MB", [0.01457, 0.00664, 0.00641, 0.00483, 0.00196]),
    (1_500_000, "1.5 MB", [0.01457, 0.01331, 0.00965, 0.00783, 0.00525]),
    (2_500_000, "2.5 MB", [0.02749, 0.02559, 0.01808, 0.01098, 0.00807]),
    (3_000_000, "3.0 MB", [0.03957, 0.03260, 0.02261, 0.01389, 0.01074]),
];
/// The core counts of the columns of [`PARC4_TABLE2`] after the first.
pub const PARC4_CORES: [usize; 4] = [2, 4, 6, 8];

/// ParalCrypto Tables 1, 3, 4, 5 (seconds, Python): (what, our workload,
/// image sequential, image parallel, text sequential, text parallel).
pub const PARALCRYPTO: [(&str, &str, f64, f64, f64, f64); 5] = [
    (
        "CTR encryption (Table 1)",
        id::AES_256_CTR,
        2.6472,
        2.1453,
        0.0024,
        0.0021,
    ),
    (
        "ECB encryption (Table 3)",
        id::AES_256_ECB_ENC,
        0.9390,
        0.1288,
        0.000881,
        0.000896,
    ),
    (
        "ECB decryption (Table 3)",
        id::AES_256_ECB_DEC,
        0.9473,
        0.1274,
        0.000596,
        0.000606,
    ),
    (
        "CBC decryption (Table 4)",
        id::AES_256_CBC_DEC,
        1.9588,
        0.3498,
        0.0013,
        0.0003,
    ),
    (
        "Merkle tree, 32-byte blocks, level by level (Table 5)",
        id::MERKLE_PER_LEVEL_32B,
        0.6698,
        0.5767,
        0.00158,
        0.00055,
    ),
];

/// JCE paper (Ivkovic and Zefferer, WEBIST 2011), its three measurement
/// environments (2 cores each, Sun JRE 7).
pub const JCE_ENVIRONMENTS: [(&str, &str); 3] = [
    ("ME 1", "Core 2 Duo P8600, 2.4 GHz, 32-bit JRE"),
    ("ME 2", "Pentium D 930, 3 GHz, 32-bit JRE"),
    ("ME 3", "Pentium D 930, 3 GHz, 64-bit JRE"),
];

/// One of the JCE paper's speed-up tables.
#[derive(Debug, Clone, Copy)]
pub struct JceTable {
    /// `Table 3`, …
    pub table: &'static str,
    /// What was parallelized.
    pub operation: &'static str,
    /// Our workloads doing the same.
    pub ours: &'static [&'static str],
    /// Speed-up over the sequential IAIK JCE per environment ME 1–3, as
    /// (JCE P I: Executors, JCE P II: ForkJoin).
    pub speedups: [(f64, f64); 3],
}

/// JCE paper, Tables 3, 4 and 5: speed-ups with two tasks. Table 3 is
/// RSA-1024 key generation (p ∥ q, dP ∥ dQ); Table 4 the RSA-CRT private
/// operation (m^dP mod p ∥ m^dQ mod q; the key size is not stated); Table 5
/// ECDSA verification (u1·G ∥ u2·Q).
pub const JCE: [JceTable; 3] = [
    JceTable {
        table: "Table 3",
        operation: "RSA-1024 key-pair generation",
        ours: &[id::RSA_KEYGEN_1024, id::RSA_KEYGEN_2048, id::RSA_KEYGEN_4096],
        speedups: [(1.39, 1.35), (1.41, 1.38), (1.40, 1.37)],
    },
    JceTable {
        table: "Table 4",
        operation: "RSA private operation with CRT",
        ours: &[
            id::RSA_SIGN_2048,
            id::RSA_SIGN_2048_THREADS,
            id::RSA_SIGN_4096,
            id::RSA_SIGN_4096_THREADS,
        ],
        speedups: [(1.65, 1.65), (1.74, 1.74), (1.49, 1.62)],
    },
    JceTable {
        table: "Table 5",
        operation: "ECDSA signature verification",
        ours: &[
            id::ECDSA_VERIFY_SPLIT,
            id::ECDSA_VERIFY_SEPARATE,
            id::ECDSA_VERIFY_JOINT,
        ],
        speedups: [(1.67, 1.67), (1.73, 1.72), (1.76, 1.78)],
    },
];

/// The RSA research application (Sinyagina, Kalpachka, Todorov, Kalpachki,
/// TEM Journal 9(4), 2020): its message sizes ([`RSA_APP_SIZES`], in
/// characters, one byte each here), encrypted and decrypted in chunks on 1–8
/// threads with 1024-bit keys, 4 cores with Hyper-Threading, mean of 100
/// runs. What it reports in words (section 7; its times are only in
/// figures), quoted.
pub const RSA_APP_QUOTES: [&str; 2] = [
    "Most of the tests show almost 50 % time reduction when using two threads instead of one. \
     Comparing 1 thread with 3 threads gives almost 60 % time reduction and 4 threads – 65 %. \
     Intel’s Hyperthread technology saves additional 5 % time when used on big input data (when using 5-8 threads).",
    "In terms of input data size, it is confirmed that multithread has negative impact on data smaller than \
     100 characters during decryption and 1 000 characters during encryption.",
];

/// [`RSA_APP_QUOTES`]' reductions as (threads, fraction of the 1-thread time
/// saved).
pub const RSA_APP_REDUCTION: [(usize, f64); 3] = [(2, 0.50), (3, 0.60), (4, 0.65)];

/// [`RSA_APP_QUOTES`]' sizes below which threads hurt, as (operation, our
/// workload, characters).
pub const RSA_APP_SLOWER_BELOW: [(&str, &str, usize); 2] = [
    ("decryption", id::RSA_BULK_DEC, 100),
    ("encryption", id::RSA_BULK_ENC, 1_000),
];
