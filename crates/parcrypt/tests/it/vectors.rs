//! The one reader of the test-vector files under `tests/data/`.
//!
//! Two shapes: records of `KEY = value` lines (`nist_sp800_38a.txt`,
//! `rfc6229.txt`, `parc4_vectors.txt`, `stream_vectors.txt`), read by
//! [`records`]; and lines of whitespace-separated columns
//! (`merkle_vectors.txt`, `transparency-dev/leaves_roots.txt`), read by
//! [`rows`]. In both, a line starting with `#` is a comment.
//!
//! Self-contained (std only), so the CLI's tests read the library's vector
//! files with this same file.
#![allow(dead_code)]

/// One record of a `KEY = value` file: its `[name]` header, if it has one,
/// and its fields in file order.
#[derive(Debug, Default)]
pub struct Record {
    pub header: Option<String>,
    pub fields: Vec<(String, String)>,
}

impl Record {
    /// The value of `key`, if the record has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `key`, which the record must have.
    pub fn field(&self, key: &str) -> &str {
        self.get(key).unwrap_or_else(|| panic!("no {key} in {self:?}"))
    }
}

/// The records of a `KEY = value` file. A record ends at a blank line or
/// where a `[name]` header starts the next one; a value may be empty
/// (`CIPHERTEXT = `). Every other line is a comment or a field: anything
/// else panics, naming the line.
pub fn records(text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let mut cur = Record::default();
    let mut flush = |cur: &mut Record| {
        let done = std::mem::take(cur);
        if done.header.is_some() || !done.fields.is_empty() {
            out.push(done);
        }
    };
    for line in text.lines().map(str::trim_start) {
        if line.starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            flush(&mut cur);
        } else if let Some(name) = line.strip_prefix('[') {
            flush(&mut cur);
            let name = name.trim_end().strip_suffix(']').expect("[name] header");
            cur.header = Some(name.to_owned());
        } else {
            let (k, v) = line
                .split_once(" =")
                .unwrap_or_else(|| panic!("not a KEY = value line: {line:?}"));
            let v = v.strip_prefix(' ').unwrap_or(v);
            cur.fields.push((k.to_owned(), v.to_owned()));
        }
    }
    flush(&mut cur);
    out
}

/// The rows of a file of whitespace-separated columns: every line that is
/// neither blank nor a comment, as `(line, columns)`.
pub fn rows(text: &str) -> impl Iterator<Item = (&str, Vec<&str>)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| (l, l.split_whitespace().collect()))
}
