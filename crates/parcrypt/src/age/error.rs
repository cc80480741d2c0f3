//! What can go wrong reading or writing an age file, or its keys.

use std::io;

/// What can go wrong reading or writing an age file, or parsing its keys.
///
/// The C2SP test kit's outcomes map onto it as [`Error::outcome`] says;
/// authentication failures are opaque (which chunk, never why).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing failed; the [`io::Error`] is the source.
    #[error("I/O error")]
    Io(#[from] io::Error),
    /// The input is neither a binary age file (`age-encryption.org/…`) nor
    /// an armored one (`-----BEGIN AGE ENCRYPTED FILE-----`).
    #[error("not an age file (it starts with neither \"age-encryption.org/\" nor an armor line)")]
    WrongFormat,
    /// The header does not parse, breaks a rule of the format, or holds a
    /// malformed stanza of a type an identity given reads (age's fatal
    /// errors): the file is damaged or was not written by age.
    #[error("malformed age header: {0}")]
    MalformedHeader(String),
    /// The ASCII armor is malformed (age's armor is strict: 64-column lines of
    /// canonical base64, no headers, nothing but whitespace around it).
    #[error("malformed ASCII armor: {0}")]
    Armor(String),
    /// No identity given opens any recipient stanza of the header.
    #[error("no identity matched any of the file's recipients{}", no_match_hint(.stanzas))]
    NoMatchingIdentity {
        /// The header's stanza types, in order (what the file was encrypted to).
        stanzas: Vec<String>,
    },
    /// The header MAC does not verify: the header was modified (or a
    /// stanza was forged for the identity that opened it).
    #[error("the header failed authentication (bad header MAC)")]
    HeaderAuthentication,
    /// A scrypt stanza asks for more work than the reader allows; nothing
    /// was computed.
    #[error(
        "the passphrase stanza asks for scrypt work factor {log2_n} (N = 2^{log2_n}), above the limit of {max}"
    )]
    WorkFactor {
        /// log2 of scrypt's N in the header.
        log2_n: u8,
        /// The reader's limit.
        max: u8,
    },
    /// The payload ends before its last chunk: a chunk that is the end of
    /// the file verifies only as a middle chunk, or no chunk follows the nonce.
    #[error("the file is truncated ({})", truncated_after(*.chunk))]
    Truncated {
        /// The last chunk present; `None` when nothing follows the nonce.
        chunk: Option<u64>,
    },
    /// A payload chunk does not verify: modified, reordered, duplicated, or
    /// cut mid-chunk.
    #[error("payload chunk {chunk} failed authentication (modified, reordered or truncated)")]
    ChunkAuthentication {
        /// The chunk's index.
        chunk: u64,
    },
    /// The last chunk is empty although chunks precede it (age never writes
    /// one: only an empty payload has an empty chunk).
    #[error("payload chunk {chunk} is empty; only an empty file ends with an empty chunk")]
    EmptyLastChunk {
        /// The empty chunk's index.
        chunk: u64,
    },
    /// Bytes follow the chunk sealed as the last one.
    #[error("trailing data after the end of the payload (after chunk {chunk})")]
    TrailingData {
        /// The last chunk's index.
        chunk: u64,
    },
    /// A byte range beyond the end of the plaintext.
    #[error("range {start}+{len} is beyond the end of the plaintext ({total} bytes)")]
    Range {
        /// The first byte asked for.
        start: u64,
        /// How many bytes.
        len: u64,
        /// The plaintext length.
        total: u64,
    },
    /// A recipient, identity, key file or recipients file that does not
    /// parse (the message never quotes secret key material).
    #[error("{0}")]
    Key(String),
    /// Bad arguments: no recipients or identities, a passphrase beside
    /// other recipients, post-quantum and classic recipients mixed, a bad
    /// work factor ([`OptionsError`] says which).
    #[error("invalid options: {0}")]
    Options(#[from] OptionsError),
    /// An age plugin failed: it reported an error (its own words), exited
    /// or went silent before finishing, or broke the protocol. The plugin
    /// was killed and reaped.
    #[error("{name} plugin: {message}")]
    Plugin {
        /// The plugin's name (its program is `age-plugin-NAME`).
        name: String,
        /// What went wrong, in the plugin's words where it gave any.
        message: String,
    },
    /// No program `age-plugin-NAME` on `PATH` for a plugin recipient or identity.
    #[error("{name:?} plugin not found: no executable age-plugin-{name} in $PATH")]
    PluginNotFound {
        /// The plugin's name.
        name: String,
    },
    /// An RSA operation of an `ssh-rsa` recipient failed unexpectedly.
    #[error("RSA recipient: {0}")]
    Rsa(#[from] crate::rsa::Error),
}

/// Which argument [`Error::Options`] refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OptionsError {
    /// Encrypting to no recipient.
    #[error("no recipients")]
    NoRecipients,
    /// Decrypting with no identity.
    #[error("no identities")]
    NoIdentities,
    /// A passphrase beside other recipients.
    #[error("a passphrase must be a file's only recipient (age refuses an scrypt stanza beside others)")]
    PassphraseNotAlone,
    /// Post-quantum and classic recipients in one file.
    #[error(
        "post-quantum and classic recipients can't be mixed, or the file would be vulnerable to quantum computers"
    )]
    PostQuantumMixed,
    /// Recipients whose stanzas carry different labels (age refuses to mix them).
    #[error("incompatible recipients: {first:?} and {other:?} can't be mixed")]
    IncompatibleLabels {
        /// The first recipient's labels.
        first: Vec<String>,
        /// The labels of one that differs.
        other: Vec<String>,
    },
    /// An age-keygen file asked of a key that is not age's own.
    #[error("only age keys have an age-keygen file")]
    NotAnAgeKey,
    /// An empty passphrase.
    #[error("the passphrase is empty")]
    EmptyPassphrase,
    /// A scrypt work factor outside what age allows.
    #[error("scrypt work factor {log2_n} is outside 1..={max}")]
    WorkFactorRange {
        /// The work factor asked for (log2 of N).
        log2_n: u8,
        /// The largest allowed.
        max: u8,
    },
    /// scrypt refused its parameters.
    #[error("scrypt refused N = 2^{log2_n}, r = 8, p = 1")]
    ScryptRefused {
        /// log2 of N.
        log2_n: u8,
    },
    /// A stanza a recipient made that the format cannot write (its
    /// `Debug`, which shows no secret).
    #[error("invalid stanza {0}")]
    InvalidStanza(String),
    /// A batch of chunks whose size overflows this machine's addresses.
    #[error("batch size overflows")]
    Overflow,
}

/// The outcomes the C2SP age test kit (`c2sp.org/CCTV/age`) tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// The header does not parse, or a stanza is malformed.
    HeaderFailure,
    /// No identity matched.
    NoMatch,
    /// A file key was unwrapped but the header MAC is wrong.
    HmacFailure,
    /// The payload does not decrypt to its end.
    PayloadFailure,
    /// The ASCII armor is malformed.
    ArmorFailure,
    /// Anything else (I/O, bad options, keys).
    Other,
}

impl Error {
    /// Which of the test kit's outcomes this error is (the CLI's exit codes
    /// and messages may group them the same way).
    pub fn outcome(&self) -> Outcome {
        match self {
            Error::WrongFormat | Error::MalformedHeader(_) | Error::WorkFactor { .. } => {
                Outcome::HeaderFailure
            }
            Error::Armor(_) => Outcome::ArmorFailure,
            Error::NoMatchingIdentity { .. } => Outcome::NoMatch,
            Error::HeaderAuthentication => Outcome::HmacFailure,
            Error::Truncated { .. }
            | Error::ChunkAuthentication { .. }
            | Error::EmptyLastChunk { .. }
            | Error::TrailingData { .. } => Outcome::PayloadFailure,
            Error::Io(e) => match e.get_ref().and_then(|inner| inner.downcast_ref::<ArmorError>()) {
                Some(_) => Outcome::ArmorFailure,
                None => Outcome::Other,
            },
            Error::Range { .. }
            | Error::Key(_)
            | Error::Options(_)
            | Error::Rsa(_)
            | Error::Plugin { .. }
            | Error::PluginNotFound { .. } => Outcome::Other,
        }
    }

    /// Turns an I/O error from the armor decoder back into [`Error::Armor`].
    pub(super) fn from_io(e: io::Error) -> Error {
        if e.get_ref().is_some_and(|inner| inner.is::<ArmorError>()) {
            let inner = e.into_inner().map(|b| b.to_string()).unwrap_or_default();
            return Error::Armor(inner);
        }
        Error::Io(e)
    }
}

/// An armor error travelling through `io::Read` as the source of an
/// `io::Error` (the payload pipeline reads the decoded bytes as any reader).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct ArmorError(pub(super) String);

impl ArmorError {
    pub(super) fn io(msg: impl Into<String>) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, ArmorError(msg.into()))
    }
}

fn truncated_after(chunk: Option<u64>) -> String {
    match chunk {
        Some(c) => format!("it ends after payload chunk {c}"),
        None => "no payload chunk follows the header".to_owned(),
    }
}

fn no_match_hint(stanzas: &[String]) -> String {
    if stanzas.is_empty() {
        return String::new();
    }
    format!(" (the file is encrypted to: {})", stanzas.join(", "))
}
