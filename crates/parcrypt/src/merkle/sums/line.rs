//! One checksum line: read ([`Parser`]) and written ([`write_line`]) as
//! GNU `sha256sum` reads and writes them, plus tags for the tree formats.

use crate::digest::Digest;

use super::super::{Format, MAX_LEAF_SIZE};

/// How [`write_line`] writes a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// BSD form, `SHA256 (NAME) = HASH` (`sha256sum --tag`); the tree
    /// formats get their own tags ([`tag`]).
    pub tag: bool,
    /// End the line with NUL, not newline, and write the name as it is
    /// (`sha256sum -z`).
    pub zero: bool,
}

/// The BSD tag of `format`: `SHA256` (as `sha256sum --tag` writes it),
/// `RFC6962-<leaf size>`, `BITTORRENT-V2`, `GLACIER`; the tree formats' tags
/// say all [`Parser`] needs, so a tagged list is checked without flags.
pub fn tag(format: Format) -> String {
    match format {
        Format::Sha256 => "SHA256".to_owned(),
        Format::Rfc6962 { leaf_size } => format!("RFC6962-{leaf_size}"),
        Format::BitTorrentV2 => "BITTORRENT-V2".to_owned(),
        Format::Glacier => "GLACIER".to_owned(),
    }
}

/// Whether `sha256sum` escapes `name` when it writes a sum line: it holds a
/// backslash, newline or carriage return.
pub fn needs_escape(name: &[u8]) -> bool {
    name.iter().any(|b| matches!(b, b'\\' | b'\n' | b'\r'))
}

/// `name` with `\`, newline and carriage return written `\\`, `\n`, `\r`,
/// appended to `out` (the line then starts with a backslash).
pub fn escape_into(out: &mut Vec<u8>, name: &[u8]) {
    for &b in name {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b => out.push(b),
        }
    }
}

/// The name an escaped line holds, or None where `sha256sum` refuses it: a
/// backslash followed by anything but `\`, `n` or `r`, a trailing
/// backslash, or a NUL.
pub fn unescape(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len());
    let mut bytes = name.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'\\' => out.push(match bytes.next()? {
                b'\\' => b'\\',
                b'n' => b'\n',
                b'r' => b'\r',
                _ => return None,
            }),
            0 => return None,
            b => out.push(b),
        }
    }
    Some(out)
}

/// Appends the line `sha256sum` (with `--tag`, `-z` as `style` says) prints
/// for `name` with `hash`: `HASH  NAME` or `SHA256 (NAME) = HASH`, a leading
/// backslash and the name escaped when it holds `\`, newline or carriage
/// return (unless `style.zero`), then newline or NUL. Tree formats write
/// the same untagged line (`parcrypt hash --format F`), and their own tag.
///
/// # Examples
/// ```
/// use parcrypt::merkle::Format;
/// use parcrypt::merkle::sums::{Style, write_line};
///
/// let mut line = Vec::new();
/// write_line(&mut line, Format::Sha256, &[0xab; 32], b"a\\b", Style::default());
/// assert_eq!(line, [b"\\".as_slice(), &[b'a', b'b'].repeat(32), b"  a\\\\b\n"].concat());
/// ```
pub fn write_line(out: &mut Vec<u8>, format: Format, hash: &Digest, name: &[u8], style: Style) {
    let escape = !style.zero && needs_escape(name);
    if escape {
        out.push(b'\\');
    }
    let mut hex = [0; 64];
    for (pair, b) in hex.chunks_exact_mut(2).zip(hash) {
        pair[0] = HEX_DIGITS[usize::from(b >> 4)];
        pair[1] = HEX_DIGITS[usize::from(b & 15)];
    }
    let put_name = |out: &mut Vec<u8>| {
        if escape {
            escape_into(out, name);
        } else {
            out.extend_from_slice(name);
        }
    };
    if style.tag {
        out.extend_from_slice(tag(format).as_bytes());
        out.extend_from_slice(b" (");
        put_name(out);
        out.extend_from_slice(b") = ");
        out.extend_from_slice(&hex);
    } else {
        out.extend_from_slice(&hex);
        out.extend_from_slice(b"  ");
        put_name(out);
    }
    out.push(if style.zero { 0 } else { b'\n' });
}

/// One line of a checksum list, as [`Parser::parse`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// Not a checksum line: blank, or a comment (`#…`). Not counted.
    Skip,
    /// What `sha256sum -c` calls an improperly formatted line.
    Malformed,
    /// A file and the hash it should have.
    Entry(Entry),
}

/// A file listed with its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file's name, unescaped (bytes, as the file system takes them).
    pub name: Vec<u8>,
    /// The hash listed for it.
    pub hash: Digest,
    /// Its format: the line's tag, else the parser's format.
    pub format: Format,
}

/// Reads checksum lines exactly as `sha256sum -c` (GNU coreutils) does:
/// `HASH  NAME`, `HASH *NAME`, `HASH NAME` (BSD `-r`, when the first line
/// that decides is one), a leading backslash for an escaped name, BSD
/// `SHA256 (NAME) = HASH` (also `SHA256(NAME)= HASH`), hex digits in either
/// case; and the tags [`tag`] gives the tree formats. Untagged lines are
/// in the parser's format.
///
/// A parser holds one piece of state across lines, as coreutils does across
/// all the lists of one run: whether untagged lines are the BSD reversed
/// form (`HASH NAME`) or the standard one; the first untagged line decides.
#[derive(Debug, Clone)]
pub struct Parser {
    format: Format,
    zero: bool,
    reversed: Option<bool>,
}

const HEX_LEN: usize = 64;
const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";
/// The shortest untagged line: the digest, a blank and one character.
const MIN_LINE: usize = HEX_LEN + 2;

fn white(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl Parser {
    /// A parser for lists of `format` (untagged lines). With `zero`, lines
    /// come NUL-terminated (written by `sha256sum -z`): names are taken as
    /// they are, never unescaped, and a carriage return is part of them.
    pub fn new(format: Format, zero: bool) -> Parser {
        Parser {
            format,
            zero,
            reversed: None,
        }
    }

    /// The format of untagged lines.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Whether lines are NUL-terminated.
    pub fn zero(&self) -> bool {
        self.zero
    }

    /// Reads one line (without its terminator).
    pub fn parse(&mut self, line: &[u8]) -> Parsed {
        if line.first() == Some(&b'#') {
            return Parsed::Skip;
        }
        let line = match line {
            [rest @ .., b'\r'] if !self.zero => rest,
            _ => line,
        };
        if line.is_empty() {
            return Parsed::Skip;
        }
        match self.split(line) {
            Some(entry) => Parsed::Entry(entry),
            None => Parsed::Malformed,
        }
    }

    /// coreutils' `split_3`, with `line[len]` read as NUL as the C code
    /// reads its terminated string.
    fn split(&mut self, s: &[u8]) -> Option<Entry> {
        let at = |i: usize| s.get(i).copied().unwrap_or(0);
        let mut i = 0;
        while white(at(i)) {
            i += 1;
        }
        let escaped = !self.zero && at(i) == b'\\';
        if escaped {
            i += 1;
        }
        if let Some((format, len)) = tag_at(&s[i..]) {
            i += len;
            if at(i) == b' ' {
                i += 1;
            }
            if at(i) != b'(' {
                return None;
            }
            return bsd_split(&s[i + 1..], escaped, format);
        }
        if s.len() - i < MIN_LINE + usize::from(at(i) == b'\\') {
            return None;
        }
        let start = i;
        while at(i) != 0 && !white(at(i)) {
            i += 1;
        }
        if i == s.len() {
            return None;
        }
        let hash = parse_hex(&s[start..i])?;
        i += 1;
        if s.len() - i == 1 || (at(i) != b' ' && at(i) != b'*') {
            // "HASH NAME", BSD reversed: not mixed with the standard form, so
            // that a renamed file with a leading blank cannot slip in.
            if self.reversed == Some(false) {
                return None;
            }
            self.reversed = Some(true);
        } else if self.reversed != Some(true) {
            self.reversed = Some(false);
            i += 1;
        }
        let name = name_of(&s[i..], escaped)?;
        Some(Entry {
            name,
            hash,
            format: self.format,
        })
    }
}

/// The name as the C code sees it: unescaped, or up to a NUL.
fn name_of(raw: &[u8], escaped: bool) -> Option<Vec<u8>> {
    if escaped {
        return unescape(raw);
    }
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    Some(raw[..end].to_vec())
}

/// coreutils' `bsd_split_3` for what follows `TAG (`.
fn bsd_split(s: &[u8], escaped: bool, format: Format) -> Option<Entry> {
    let close = s.iter().rposition(|&b| b == b')')?;
    let name = name_of(&s[..close], escaped)?;
    let mut i = close + 1;
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    while white(at(i)) {
        i += 1;
    }
    if at(i) != b'=' {
        return None;
    }
    i += 1;
    while white(at(i)) {
        i += 1;
    }
    let hash = parse_hex(&s[i..])?;
    Some(Entry { name, hash, format })
}

/// 64 hex digits (either case) as a digest.
fn parse_hex(digits: &[u8]) -> Option<Digest> {
    if digits.len() != HEX_LEN {
        return None;
    }
    let nibble = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut hash = [0; 32];
    for (b, pair) in hash.iter_mut().zip(digits.chunks_exact(2)) {
        *b = nibble(pair[0])? << 4 | nibble(pair[1])?;
    }
    Some(hash)
}

/// The tag `s` starts with and its length: `SHA256`, `RFC6962-N`,
/// `BITTORRENT-V2`, `GLACIER`.
fn tag_at(s: &[u8]) -> Option<(Format, usize)> {
    for (tag, format) in [
        (&b"SHA256"[..], Format::Sha256),
        (b"BITTORRENT-V2", Format::BitTorrentV2),
        (b"GLACIER", Format::Glacier),
    ] {
        if s.starts_with(tag) {
            return Some((format, tag.len()));
        }
    }
    let rest = s.strip_prefix(b"RFC6962-")?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let leaf_size: usize = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
    if leaf_size == 0 || leaf_size > MAX_LEAF_SIZE {
        return None;
    }
    Some((Format::Rfc6962 { leaf_size }, 8 + digits))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const H: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    fn parse(p: &mut Parser, line: &str) -> Option<(Vec<u8>, Format)> {
        match p.parse(line.as_bytes()) {
            Parsed::Entry(e) => Some((e.name, e.format)),
            _ => None,
        }
    }

    #[test]
    fn every_form_sha256sum_reads() {
        let mut p = Parser::new(Format::Sha256, false);
        assert_eq!(parse(&mut p, &format!("{H}  a b")).unwrap().0, b"a b");
        assert_eq!(parse(&mut p, &format!("{H} *bin")).unwrap().0, b"bin");
        assert_eq!(
            parse(&mut p, &format!("\\{H}  a\\nb\\\\c\\rd")).unwrap().0,
            b"a\nb\\c\rd"
        );
        assert_eq!(parse(&mut p, &format!("SHA256 (x) = {H}")).unwrap().0, b"x");
        assert_eq!(
            parse(&mut p, &format!("SHA256(x)= {}", H.to_uppercase()))
                .unwrap()
                .0,
            b"x"
        );
        assert_eq!(parse(&mut p, &format!("SHA256 (a) b) = {H}")).unwrap().0, b"a) b");
        // The standard form came first: the reversed one is refused.
        assert_eq!(parse(&mut p, &format!("{H} x")), None);
        for bad in [
            "",
            "garbage",
            H,
            &format!("{H}  "),
            &format!("\\{H}  a\\b"),
            &format!("\\{H}  a\\"),
            &format!("{}  x", &H[1..]),
            &format!("SHA256 x = {H}"),
            &format!("SHA256 (x) {H}"),
            &format!("RFC6962-0 (x) = {H}"),
        ] {
            assert!(!matches!(p.parse(bad.as_bytes()), Parsed::Entry(_)), "{bad:?}");
        }
        assert_eq!(p.parse(b"# comment"), Parsed::Skip);
        assert_eq!(p.parse(b"\r"), Parsed::Skip);
        let mut reversed = Parser::new(Format::Sha256, false);
        assert_eq!(parse(&mut reversed, &format!("{H} x")).unwrap().0, b"x");
        assert_eq!(parse(&mut reversed, &format!("{H}  y")).unwrap().0, b" y");
    }

    #[test]
    fn tags_round_trip_for_every_format() {
        for format in [
            Format::Sha256,
            Format::Rfc6962 { leaf_size: 1024 },
            Format::BitTorrentV2,
            Format::Glacier,
        ] {
            for zero in [false, true] {
                for name in [&b"plain"[..], b"new\nline\\", b"x) = y"] {
                    let mut line = Vec::new();
                    write_line(&mut line, format, &[7; 32], name, Style { tag: true, zero });
                    let body = &line[..line.len() - 1];
                    let mut p = Parser::new(Format::Sha256, zero);
                    let Parsed::Entry(e) = p.parse(body) else {
                        panic!("{line:?}");
                    };
                    assert_eq!((e.name.as_slice(), e.hash, e.format), (name, [7; 32], format));
                }
            }
        }
    }
}
