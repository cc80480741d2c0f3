//! The papers' published numbers, set next to ours in summary.md.

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

/// ParalCrypto's inputs: a 512×512 RGB image and a ~300-byte text.
pub const PARALCRYPTO_IMAGE: usize = 512 * 512 * 3;
/// See [`PARALCRYPTO_IMAGE`].
pub const PARALCRYPTO_TEXT: usize = 300;

/// ParalCrypto Tables 1, 3, 4, 5 (seconds, Python): (what, our workload,
/// image sequential, image parallel, text sequential, text parallel).
pub const PARALCRYPTO: [(&str, &str, f64, f64, f64, f64); 5] = [
    (
        "CTR encryption (Table 1)",
        "aes-256-ctr",
        2.6472,
        2.1453,
        0.0024,
        0.0021,
    ),
    (
        "ECB encryption (Table 3)",
        "aes-256-ecb-enc",
        0.9390,
        0.1288,
        0.000881,
        0.000896,
    ),
    (
        "ECB decryption (Table 3)",
        "aes-256-ecb-dec",
        0.9473,
        0.1274,
        0.000596,
        0.000606,
    ),
    (
        "CBC decryption (Table 4)",
        "aes-256-cbc-dec",
        1.9588,
        0.3498,
        0.0013,
        0.0003,
    ),
    (
        "Merkle tree, 32-byte blocks, level by level (Table 5)",
        "merkle-per-level-32b",
        0.6698,
        0.5767,
        0.00158,
        0.00055,
    ),
];
