//! What an age file is, without opening it: age 1.3's `age-inspect`
//! (filippo.io/age `internal/inspect`), field for field — the version,
//! whether it is armored, its recipient stanza types, whether it is
//! post-quantum, and the sizes of its parts.

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};

use super::armor::ArmoredReader;
use super::decrypt::read_prefix;
use super::format::Header;
use super::payload::CHUNK;
use super::{Error, Format, detect};

/// The sizes of an age file's parts, in bytes (`age-inspect`'s `sizes`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    /// The header, through the MAC line.
    pub header: u64,
    /// What the ASCII armor adds (0 for a binary file).
    pub armor: u64,
    /// The payload nonce and the 16-byte tag of each chunk.
    pub overhead: u64,
    /// The plaintext's length, if the file decrypts (age pads nothing, so
    /// the least and the most are the same).
    pub min_payload: u64,
    /// As `min_payload`.
    pub max_payload: u64,
    /// Padding (none: age does not pad).
    pub min_padding: u64,
    /// As `min_padding`.
    pub max_padding: u64,
}

/// What [`inspect`] finds (`age-inspect --json`'s fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inspection {
    /// The format's version line, `age-encryption.org/v1`.
    pub version: &'static str,
    /// `"yes"`, `"no"` or `"unknown"`, decided from the stanza types
    /// exactly as age-inspect v1.3.2 decides it.
    pub postquantum: &'static str,
    /// Whether the file is ASCII-armored.
    pub armor: bool,
    /// The recipient stanzas' types, in order.
    pub stanza_types: Vec<String>,
    /// The sizes of the parts.
    pub sizes: Sizes,
}

/// Counts the bytes read through it.
struct Counting<'a, R> {
    inner: R,
    count: &'a Cell<u64>,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// The nonce and the chunks' tags of a payload (nonce and chunks) of
/// `payload` bytes, as age-inspect computes it.
fn stream_overhead(payload: u64) -> Result<u64, Error> {
    const NONCE: u64 = 16;
    const TAG: u64 = 16;
    let chunk = CHUNK as u64;
    if payload < NONCE {
        return Err(Error::MalformedHeader(format!(
            "encrypted size too small: {payload}"
        )));
    }
    let encrypted = payload - NONCE;
    let chunks = encrypted.div_ceil(chunk + TAG);
    let invalid = || Error::MalformedHeader(format!("invalid encrypted payload size: {encrypted}"));
    let plain = encrypted.checked_sub(chunks * TAG).ok_or_else(invalid)?;
    // Only an empty plaintext has (and needs) an empty chunk.
    let expected = if plain == 0 { 1 } else { plain.div_ceil(chunk) };
    if expected != chunks {
        return Err(invalid());
    }
    Ok(payload - plain)
}

/// Reads `input` (armored or binary, detected as the age CLI does) and says
/// what the file is, as `age-inspect` does: the header is parsed (strictly),
/// the payload is only counted. `file_size` is the input's length if known
/// (a regular file); otherwise, and for armored input, the input is read
/// to its end.
///
/// # Errors
/// [`Error::WrongFormat`], [`Error::MalformedHeader`] (also for a payload whose length no
/// age file has), [`Error::Armor`], I/O errors.
pub fn inspect(input: impl Read, file_size: Option<u64>) -> Result<Inspection, Error> {
    let count = Cell::new(0);
    let mut raw = Counting {
        inner: input,
        count: &count,
    };
    let prefix = read_prefix(&mut raw)?;
    let armored = detect(&prefix) == Some(Format::Armored);
    let raw = io::Cursor::new(prefix).chain(raw);
    let mut reader: Box<dyn BufRead + '_> = if armored {
        Box::new(BufReader::new(ArmoredReader::new(BufReader::new(raw))))
    } else {
        Box::new(BufReader::new(raw))
    };
    let from_io = |e: Error| match e {
        Error::Io(e) => Error::from_io(e),
        e => e,
    };
    let header = Header::read(&mut reader).map_err(from_io)?;
    // age-inspect v1.3.2's rule, verbatim: "yes" unless a classic stanza
    // says "no"; a type it does not know (a plugin's, grease) turns "yes"
    // into "unknown".
    let mut postquantum = "yes";
    let mut stanza_types = Vec::new();
    for s in header.stanzas() {
        stanza_types.push(s.kind.clone());
        match s.kind.as_str() {
            "X25519" | "ssh-rsa" | "ssh-ed25519" | "p256tag" | "piv-p256" => postquantum = "no",
            "mlkem768x25519" | "scrypt" | "mlkem768p256tag" => {}
            _ if postquantum != "no" => postquantum = "unknown",
            _ => {}
        }
    }
    let header_len = header.len() as u64;
    let mut armor = 0;
    let file_size = match file_size {
        Some(size) if !armored => size,
        _ => {
            let rest = io::copy(&mut reader, &mut io::sink()).map_err(Error::from_io)?;
            drop(reader);
            let size = header_len + rest;
            armor = count.get().saturating_sub(size);
            size
        }
    };
    let overhead = stream_overhead(file_size.saturating_sub(header_len))?;
    let payload = file_size - header_len - overhead;
    Ok(Inspection {
        version: "age-encryption.org/v1",
        postquantum,
        armor: armored,
        stanza_types,
        sizes: Sizes {
            header: header_len,
            armor,
            overhead,
            min_payload: payload,
            max_payload: payload,
            min_padding: 0,
            max_padding: 0,
        },
    })
}

impl Inspection {
    /// `age-inspect --json`'s output, byte for byte: Go's `encoding/json`
    /// with a 4-space indent (and its escaping of `<`, `>`, `&`), a final
    /// newline.
    pub fn to_json(&self) -> String {
        fn quote(s: &str) -> String {
            let mut out = String::with_capacity(s.len() + 2);
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    '<' | '>' | '&' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
                    c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }
        let types = if self.stanza_types.is_empty() {
            "null".to_owned()
        } else {
            let items: Vec<String> = self
                .stanza_types
                .iter()
                .map(|t| format!("        {}", quote(t)))
                .collect();
            format!("[\n{}\n    ]", items.join(",\n"))
        };
        let s = &self.sizes;
        format!(
            "{{\n    \"version\": {},\n    \"postquantum\": {},\n    \"armor\": {},\n    \"stanza_types\": {types},\n    \"sizes\": {{\n        \"header\": {},\n        \"armor\": {},\n        \"overhead\": {},\n        \"min_payload\": {},\n        \"max_payload\": {},\n        \"min_padding\": {},\n        \"max_padding\": {}\n    }}\n}}\n",
            quote(self.version),
            quote(self.postquantum),
            self.armor,
            s.header,
            s.armor,
            s.overhead,
            s.min_payload,
            s.max_payload,
            s.min_padding,
            s.max_padding
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn stream_overhead_as_age_inspect_computes_it() {
        let c = CHUNK as u64;
        for (payload, want) in [
            (0, None),
            (15, None),
            (16, None),
            (16 + 15, None),
            (16 + 16, Some(32)),
            (16 + 1 + 16, Some(32)),
            (16 + c + 16, Some(32)),
            (16 + c + 16 + 1, None),
            (16 + c + 16 + 15, None),
            (16 + c + 16 + 16, None),
            (16 + c + 16 + 1 + 16, Some(48)),
        ] {
            assert_eq!(stream_overhead(payload).ok(), want, "{payload}");
        }
    }
}
