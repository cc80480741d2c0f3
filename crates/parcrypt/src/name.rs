//! The one error every `FromStr` of the library returns.

/// A name that is not one of its type's spellings: what was being named
/// (`kind`), what was given (`name`) and the names accepted (`expected`).
///
/// Every `FromStr` in the library ([`Strategy`](crate::par::Strategy),
/// [`Scheme`](crate::rsa::Scheme), [`Hash`](crate::rsa::Hash),
/// [`CrtMode`](crate::rsa::CrtMode),
/// [`VerifyStrategy`](crate::ecdsa::VerifyStrategy)) returns this type, so a
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::UnknownName;
    use crate::ecdsa::VerifyStrategy;
    use crate::par::Strategy;
    use crate::rsa::{CrtMode, Hash, Scheme};

    #[test]
    fn every_from_str_answers_with_unknown_name() {
        let errors: [UnknownName; 5] = [
            "x".parse::<Strategy>().unwrap_err(),
            "x".parse::<Scheme>().unwrap_err(),
            "x".parse::<Hash>().unwrap_err(),
            "x".parse::<CrtMode>().unwrap_err(),
            "x".parse::<VerifyStrategy>().unwrap_err(),
        ];
        let kinds = errors.iter().map(|e| e.kind).collect::<Vec<_>>();
        assert_eq!(
            kinds,
            [
                "strategy",
                "signature scheme",
                "hash",
                "CRT mode",
                "verify strategy"
            ]
        );
        for e in &errors {
            assert_eq!(e.name, "x");
            assert_eq!(
                e.to_string(),
                format!("unknown {} \"x\" (expected {})", e.kind, e.expected)
            );
        }
    }

    #[test]
    fn names_round_trip() {
        for s in [Scheme::Pss, Scheme::Pkcs1v15] {
            assert_eq!(s.name().parse::<Scheme>(), Ok(s));
            assert_eq!(s.to_string(), s.name());
        }
        for (name, v) in [
            ("joint", VerifyStrategy::Joint),
            ("split", VerifyStrategy::Split),
            ("auto", VerifyStrategy::Auto),
        ] {
            assert_eq!(name.parse::<VerifyStrategy>(), Ok(v));
        }
        // A schedule is not an algorithm: the sequential split is
        // `Split` under `Parallelism::sequential()`.
        assert!("sequential-separate".parse::<VerifyStrategy>().is_err());
    }
}
