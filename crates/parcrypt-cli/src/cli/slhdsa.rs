//! `slh-dsa`: its options, as `openssl genpkey/pkey/pkeyutl` 3.5 name
//! what they do (`-rawin` signatures, a context string), and HashSLH-DSA's
//! prehash.

use parcrypt::slhdsa::{ParameterSet, PreHash};

use super::*;

/// `parcrypt slh-dsa`: the family's key commands.
pub type SlhDsaCommand = KeyCommand<SlhDsa>;

// `slh-dsa keygen`'s parameter set.
#[derive(Debug, Args)]
pub struct SlhDsaParams {
    /// The parameter set
    #[arg(long, value_name = "NAME", value_parser = library_enum::<ParameterSet>(SLH_DSA_SETS), default_value = "SLH-DSA-SHA2-128s")]
    pub params: ParameterSet,
}

// How `slh-dsa sign` signs.
#[derive(Debug, Args)]
pub struct SlhSign {
    #[command(flatten)]
    pub context: SigContext,
    #[command(flatten)]
    pub prehash: SlhPrehash,
    /// Sign deterministically (opt_rand = PK.seed): the same message always gets the same signature
    #[arg(long)]
    pub deterministic: bool,
}

// How `slh-dsa verify` checks a signature.
#[derive(Debug, Args)]
pub struct SlhVerify {
    #[command(flatten)]
    pub context: SigContext,
    #[command(flatten)]
    pub prehash: SlhPrehash,
}

// HashSLH-DSA (a plain comment: a flattened struct's doc comment would become the command's about).
#[derive(Debug, Args)]
pub struct SlhPrehash {
    /// HashSLH-DSA: sign the message's digest (FIPS 205 §10.2.2), streamed, for files of any size [default: pure SLH-DSA]
    #[arg(long, value_name = "HASH", value_parser = library_enum::<PreHash>(PREHASHES))]
    pub prehash: Option<PreHash>,
}

/// `--prehash`: the hashes FIPS 205 §10.2.2 names.
const PREHASHES: &[(&str, &str)] = &[("sha256", ""), ("sha512", ""), ("shake128", ""), ("shake256", "")];

/// `--params`: [`ParameterSet`]'s names.
const SLH_DSA_SETS: &[(&str, &str)] = &[
    (
        "SLH-DSA-SHA2-128s",
        "NIST category 1, small: 32-byte public keys, 7856-byte signatures, slow signing",
    ),
    ("SLH-DSA-SHA2-128f", "category 1, fast: 17088-byte signatures"),
    ("SLH-DSA-SHA2-192s", "category 3, small: 16224-byte signatures"),
    ("SLH-DSA-SHA2-192f", "category 3, fast: 35664-byte signatures"),
    ("SLH-DSA-SHA2-256s", "category 5, small: 29792-byte signatures"),
    ("SLH-DSA-SHA2-256f", "category 5, fast: 49856-byte signatures"),
    ("SLH-DSA-SHAKE-128s", "as SHA2-128s, over SHAKE256"),
    ("SLH-DSA-SHAKE-128f", "as SHA2-128f, over SHAKE256"),
    ("SLH-DSA-SHAKE-192s", "as SHA2-192s, over SHAKE256"),
    ("SLH-DSA-SHAKE-192f", "as SHA2-192f, over SHAKE256"),
    ("SLH-DSA-SHAKE-256s", "as SHA2-256s, over SHAKE256"),
    ("SLH-DSA-SHAKE-256f", "as SHA2-256f, over SHAKE256"),
];
