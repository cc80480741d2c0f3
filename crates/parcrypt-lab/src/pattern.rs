//! `--only` patterns: comma-separated alternatives, each a substring or a glob
//! with `*`.

/// Whether `name` matches any alternative of `pattern`.
pub fn matches(pattern: &str, name: &str) -> bool {
    pattern
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .any(|p| {
            if p.contains('*') {
                glob(p.as_bytes(), name.as_bytes())
            } else {
                name.contains(p)
            }
        })
}

/// `*` matches any run of characters; everything else matches itself.
fn glob(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|i| glob(rest, &s[i..])),
        Some((c, rest)) => s.first() == Some(c) && glob(rest, &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn substrings_globs_and_alternatives() {
        assert!(matches("ctr", "aes-128-ctr"));
        assert!(!matches("cbc", "aes-128-ctr"));
        assert!(matches("aes-256-*", "aes-256-ecb-dec"));
        assert!(!matches("aes-256-*", "aes-128-ctr"));
        assert!(matches("*ctr", "aes-128-ctr"));
        assert!(!matches("*ct", "aes-128-ctr"));
        assert!(matches("rsa, aes-128-*", "aes-128-ctr"));
        assert!(matches("*", "anything"));
        assert!(!matches("", "anything"));
    }
}
