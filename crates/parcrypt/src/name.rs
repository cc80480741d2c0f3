//! The one error every `FromStr` of the library returns.

/// A name that is not one of its type's spellings: what was being named
/// (`kind`), what was given (`name`) and the names accepted (`expected`).
///
/// Every `FromStr` in the library ([`Strategy`](crate::par::Strategy),
/// [`Scheme`](crate::rsa::Scheme), [`Algorithm`](crate::digest::Algorithm),
/// [`CrtMode`](crate::rsa::CrtMode),
/// [`VerifyStrategy`](crate::ecdsa::VerifyStrategy),
/// [`Backend`](crate::digest::Backend)) returns this type, so a
/// caller handles an unknown name once.
///
/// # Examples
/// ```
/// use parcrypt::{UnknownName, par::Strategy};
///
/// let err = "fast".parse::<Strategy>().unwrap_err();
/// assert_eq!(err.kind, "strategy");
/// assert_eq!(err.to_string(), r#"unknown strategy "fast" (expected seq, static or steal)"#);
/// # let _: UnknownName = err;
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} {name:?} (expected {expected})")]
pub struct UnknownName {
    /// What the name was for: `"strategy"`, `"hash"`, …
    pub kind: &'static str,
    /// The name given.
    pub name: String,
    /// The accepted names, for a person to read: `"seq, static or steal"`.
    pub expected: &'static str,
}

impl UnknownName {
    pub(crate) fn new(kind: &'static str, name: &str, expected: &'static str) -> Self {
        UnknownName {
            kind,
            name: name.to_owned(),
            expected,
        }
    }
}
