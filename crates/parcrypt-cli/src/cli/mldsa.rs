//! `ml-dsa`: its options, as `openssl genpkey/pkey/pkeyutl` 3.5 name
//! what they do (`-rawin` signatures, a context string).

use parcrypt::mldsa::ParameterSet;

use super::*;

/// `parcrypt ml-dsa`: the family's key commands.
pub type MlDsaCommand = KeyCommand<MlDsa>;

// `ml-dsa keygen`'s parameter set.
#[derive(Debug, Args)]
pub struct MlDsaParams {
    /// The parameter set
    #[arg(long, value_name = "NAME", value_parser = library_enum::<ParameterSet>(ML_DSA_SETS), default_value = "ML-DSA-65")]
    pub params: ParameterSet,
}

// The context string a signature is bound to (a plain comment: a flattened struct's doc
// comment would become the command's about).
#[derive(Debug, Args)]
pub struct SigContext {
    /// The context string, 0 to 255 bytes (= openssl pkeyutl -pkeyopt context-string:TEXT) [default: empty]
    #[arg(long, value_name = "TEXT", conflicts_with = "context_file")]
    pub context: Option<String>,
    /// The context string as the bytes of FILE (any bytes, at most 255)
    #[arg(long, value_name = "FILE")]
    pub context_file: Option<PathBuf>,
}

/// `--params`: [`ParameterSet`]'s names.
const ML_DSA_SETS: &[(&str, &str)] = &[
    (
        "ML-DSA-44",
        "NIST category 2: 1312-byte public keys, 2420-byte signatures",
    ),
    (
        "ML-DSA-65",
        "category 3: 1952-byte public keys, 3309-byte signatures",
    ),
    (
        "ML-DSA-87",
        "category 5: 2592-byte public keys, 4627-byte signatures",
    ),
];
