//! The library's public functions as their signatures spell them: the input
//! of the vocabulary test (`parcrypt`'s `lib.rs`), which holds the naming
//! rules of the API conventions.

use std::path::{Path, PathBuf};

/// One `pub fn` in the shipped code (comments and `#[cfg(test)]` items
/// skipped), `pub(crate)` and narrower left out; a `pub trait`'s methods
/// (declared and provided) count as `pub fn`s, since every implementor
/// offers them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PubFn {
    /// The file, relative to the source directory.
    pub file: PathBuf,
    /// The function's name.
    pub name: String,
    /// Its parameters as written, whitespace collapsed (`self` forms
    /// included): `out: &mut [Digest]`.
    pub params: Vec<String>,
    /// What it returns as written, whitespace collapsed, without the `->`
    /// (empty for `()`): `Result<SecretBytes, Error>`.
    pub ret: String,
}

impl PubFn {
    /// The parameters' types (what follows the first `:` of each), `self`
    /// forms left out.
    pub fn param_types(&self) -> impl Iterator<Item = &str> {
        self.params
            .iter()
            .filter_map(|p| p.split_once(':').map(|(_, ty)| ty.trim()))
    }
}

/// Every `pub fn` under `src`, file by file.
///
/// # Panics
/// If the tree cannot be read.
pub fn public_fns(src: &Path) -> Vec<PubFn> {
    let mut files = Vec::new();
    super::walk(src, &mut files);
    files.sort();
    let mut all = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
        let relative = file.strip_prefix(src).unwrap_or(&file).to_path_buf();
        for (name, params, ret) in signatures(&public_trait_fns(&super::shipped_code(&text))) {
            all.push(PubFn {
                file: relative.clone(),
                name,
                params,
                ret,
            });
        }
    }
    all
}

/// `(name, parameters, return type)` of each `pub fn` in `code`.
fn signatures(code: &str) -> Vec<(String, Vec<String>, String)> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("pub fn ") {
        // `pub fn` as a word: not the tail of `(crate) fn` or an identifier.
        let before = rest[..at].chars().next_back();
        let after = &rest[at + "pub fn ".len()..];
        rest = after;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // Past the generics (whose bounds may hold parentheses), if any.
        let signature = skip_generics(&after[name.len()..]);
        let Some(open) = signature.find('(') else { break };
        let Some(params) = balanced(&signature[open..]) else {
            break;
        };
        // The return type: from the `)` to the body, the `;` of a
        // declaration or a `where` clause.
        let tail = &signature[open + params.len() + 2..];
        let end = tail.find(['{', ';']).unwrap_or(tail.len());
        let tail = tail[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        let tail = tail.find(" where ").map_or(&tail[..], |w| &tail[..w]);
        let ret = tail.trim_start_matches("->").trim().to_owned();
        found.push((name, split_params(params), ret));
    }
    found
}

/// `code` with each `fn` directly inside a `pub trait`'s body written
/// `pub fn`, so that [`signatures`] reads trait methods as the public
/// functions they are.
fn public_trait_fns(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("pub trait ") {
        let Some(open) = rest[at..].find('{').map(|o| at + o) else {
            break;
        };
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        // The body, to its matching brace; `fn` at depth 0 is a method.
        let mut depth = 0usize;
        let mut end = rest.len();
        let mut previous = ' ';
        for (i, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    end = i;
                    break;
                }
                '}' => depth -= 1,
                'f' if depth == 0
                    && rest[i..].starts_with("fn ")
                    && !(previous.is_alphanumeric() || previous == '_') =>
                {
                    out.push_str("pub ");
                }
                _ => {}
            }
            out.push(c);
            previous = c;
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// `text` past the `<…>` it opens with, if it opens with one (`->` inside
/// is no closing bracket).
fn skip_generics(text: &str) -> &str {
    if !text.starts_with('<') {
        return text;
    }
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'<' => depth += 1,
            b'>' if i > 0 && bytes[i - 1] == b'-' => {}
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return &text[i + 1..];
                }
            }
            _ => {}
        }
    }
    text
}

/// The text inside the parentheses `text` opens with.
fn balanced(text: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[1..i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Parameters split at the commas outside brackets of any kind, each with
/// its whitespace collapsed.
fn split_params(params: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let bytes = params.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            // `->` is no closing bracket.
            b'<' => depth += 1,
            b'>' if i == 0 || bytes[i - 1] != b'-' => depth -= 1,
            b',' if depth == 0 => {
                out.push(params[start..i].to_owned());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(params[start..].to_owned());
    out.into_iter()
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{public_trait_fns, signatures};

    #[test]
    fn reads_a_public_traits_methods() {
        let code = "pub trait T: Sized { type A; fn one(&self, x: &mut [u8]) -> u8; \
                    fn two(&self) -> String { fn inner() {} String::new() } }\n\
                    trait Private { fn hidden(&self); }";
        let names: Vec<String> = signatures(&public_trait_fns(code))
            .into_iter()
            .map(|s| s.0)
            .collect();
        assert_eq!(names, ["one", "two"]);
    }

    #[test]
    fn reads_names_and_parameters_as_written() {
        let code = "pub fn a(x: &[u8], out: &mut [Digest]) {}
            pub(crate) fn hidden(x: u8) {}
            pub fn b<'a, F: Fn(u8) -> u8>(
                &self,
                f: impl FnMut(&mut [u8], u64) -> Result<(), E>,
                m: HashMap<u8, (u8, u8)>,
            ) -> u8 { 0 }
            fn private() {}
            pub fn c() {}
            pub fn d(&self) -> Result<Vec<u8>, E>
            where
                E: Debug,
            {}";
        let got = signatures(code);
        assert_eq!(
            got,
            [
                (
                    "a".into(),
                    vec!["x: &[u8]".into(), "out: &mut [Digest]".into()],
                    String::new()
                ),
                (
                    "b".into(),
                    vec![
                        "&self".into(),
                        "f: impl FnMut(&mut [u8], u64) -> Result<(), E>".into(),
                        "m: HashMap<u8, (u8, u8)>".into()
                    ],
                    "u8".into()
                ),
                ("c".into(), vec![], String::new()),
                ("d".into(), vec!["&self".into()], "Result<Vec<u8>, E>".into()),
            ]
        );
    }
}
