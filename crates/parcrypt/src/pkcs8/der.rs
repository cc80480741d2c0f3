//! The little DER this module needs: a strict reader (definite, minimal
//! lengths; one-byte tags; non-negative minimal INTEGERs) and a writer.
//! Everything else about keys is parsed by the backend, except for
//! `slhdsa`, which has no backend key parser (AWS-LC has no SLH-DSA) and
//! reads and writes its PKCS#8 and SPKI with this module too.

/// A DER problem, said in words for [`super::Error::Malformed`].
pub(crate) type DerError = &'static str;

pub(crate) const SEQUENCE: u8 = 0x30;
pub(crate) const INTEGER: u8 = 0x02;
pub(crate) const OCTET_STRING: u8 = 0x04;
pub(crate) const NULL: u8 = 0x05;
pub(crate) const OID: u8 = 0x06;
pub(crate) const BIT_STRING: u8 = 0x03;

/// Reads consecutive TLVs from a slice.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Reader { data }
    }

    /// The tag of the next element, if any.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.data.first().copied()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The contents of the next element, which must carry `tag`.
    pub(crate) fn read(&mut self, tag: u8) -> Result<&'a [u8], DerError> {
        let (&found, rest) = self.data.split_first().ok_or("truncated DER")?;
        if found != tag {
            return Err("unexpected DER element");
        }
        let (&first, rest) = rest.split_first().ok_or("truncated DER")?;
        let (len, rest) = if first < 0x80 {
            (usize::from(first), rest)
        } else {
            let n = usize::from(first & 0x7f);
            if n == 0 || n > 4 || rest.len() < n {
                return Err("bad DER length");
            }
            let (bytes, rest) = rest.split_at(n);
            if bytes[0] == 0 {
                return Err("non-minimal DER length");
            }
            let len = bytes.iter().fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
            if len < 0x80 {
                return Err("non-minimal DER length");
            }
            (len, rest)
        };
        if rest.len() < len {
            return Err("truncated DER");
        }
        let (contents, rest) = rest.split_at(len);
        self.data = rest;
        Ok(contents)
    }

    /// The next element must be a SEQUENCE: a reader over its contents.
    pub(crate) fn sequence(&mut self) -> Result<Reader<'a>, DerError> {
        self.read(SEQUENCE).map(Reader::new)
    }

    /// A non-negative INTEGER that fits a `u64`.
    pub(crate) fn uint(&mut self) -> Result<u64, DerError> {
        let bytes = self.read(INTEGER)?;
        match bytes {
            [] => Err("empty INTEGER"),
            [b, ..] if b & 0x80 != 0 => Err("negative INTEGER"),
            [0, b, ..] if b & 0x80 == 0 => Err("non-minimal INTEGER"),
            _ => {
                let bytes = if bytes[0] == 0 { &bytes[1..] } else { bytes };
                if bytes.len() > 8 {
                    return Err("INTEGER too large");
                }
                Ok(bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
            }
        }
    }

    /// Nothing may follow.
    pub(crate) fn finish(&self) -> Result<(), DerError> {
        if self.data.is_empty() {
            Ok(())
        } else {
            Err("trailing data after the DER structure")
        }
    }
}

/// One TLV.
pub(crate) fn tlv(tag: u8, contents: &[u8]) -> Vec<u8> {
    let mut out = header(tag, contents.len());
    out.extend_from_slice(contents);
    out
}

/// The tag and length of a TLV whose `len` bytes of contents follow: for
/// a writer that puts secret contents into a wiped buffer of its own.
pub(crate) fn header(tag: u8, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len.min(1 << 20) + 10);
    out.push(tag);
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|&&b| b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
    out
}

/// A SEQUENCE of the concatenated `parts`.
pub(crate) fn sequence(parts: &[&[u8]]) -> Vec<u8> {
    tlv(SEQUENCE, &parts.concat())
}

/// A non-negative INTEGER.
pub(crate) fn uint(v: u64) -> Vec<u8> {
    let bytes = v.to_be_bytes();
    let skip = bytes.iter().take_while(|&&b| b == 0).count().min(7);
    let mut contents = Vec::with_capacity(9);
    if bytes[skip] & 0x80 != 0 {
        contents.push(0);
    }
    contents.extend_from_slice(&bytes[skip..]);
    tlv(INTEGER, &contents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_integers_round_trip_and_strictness() {
        for len in [0usize, 1, 127, 128, 255, 256, 70_000] {
            let contents = vec![7u8; len];
            let enc = tlv(OCTET_STRING, &contents);
            let mut r = Reader::new(&enc);
            assert_eq!(r.read(OCTET_STRING), Ok(contents.as_slice()));
            assert!(r.finish().is_ok());
        }
        for v in [0u64, 1, 127, 128, 255, 256, 2048, 16384, u64::MAX] {
            let enc = uint(v);
            assert_eq!(Reader::new(&enc).uint(), Ok(v), "{v}");
        }
        // Long form for a short length, a leading zero length byte, an indefinite length.
        for bad in [
            &[0x04, 0x81, 0x01, 0][..],
            &[0x04, 0x82, 0x00, 0x80],
            &[0x30, 0x80, 0, 0],
        ] {
            assert!(Reader::new(bad).read(bad[0]).is_err(), "{bad:?}");
        }
        // Negative, non-minimal, empty and oversized integers.
        for bad in [
            &[2, 1, 0x80][..],
            &[2, 2, 0, 1],
            &[2, 0],
            &[2, 10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ] {
            assert!(Reader::new(bad).uint().is_err(), "{bad:?}");
        }
        assert!(Reader::new(&[4, 5, 1]).read(OCTET_STRING).is_err());
        let mut r = Reader::new(&[4, 0, 0]);
        r.read(OCTET_STRING).unwrap();
        assert!(r.finish().is_err());
    }
}
