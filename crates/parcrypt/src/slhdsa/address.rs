//! ADRS, the 32-byte hash address of FIPS 205 §4.2, and its 22-byte
//! compressed form for the SHA-2 sets (§11.2).

/// The address types (FIPS 205 Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Kind {
    WotsHash = 0,
    WotsPk = 1,
    Tree = 2,
    ForsTree = 3,
    ForsRoots = 4,
    WotsPrf = 5,
    ForsPrf = 6,
}

/// layer (4 bytes) ‖ tree (12) ‖ type (4) ‖ three words of 4 bytes: the key
/// pair address, then chain address / tree height, then hash address /
/// tree index. Every field is built from public data (the message digest
/// and loop counters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Adrs([u8; 32]);

impl Adrs {
    /// An address in `layer`, tree `tree`, of `kind`, its words cleared.
    pub(super) fn new(layer: u32, tree: u64, kind: Kind) -> Adrs {
        let mut a = Adrs::default();
        a.0[0..4].copy_from_slice(&layer.to_be_bytes());
        // The tree field is 12 bytes; tree indices fit in 64 bits (h − h' ≤ 64).
        a.0[8..16].copy_from_slice(&tree.to_be_bytes());
        a.0[19] = kind as u8;
        a
    }

    pub(super) fn set_keypair(&mut self, i: u32) -> &mut Self {
        self.0[20..24].copy_from_slice(&i.to_be_bytes());
        self
    }

    /// The chain address (WOTS+) or the tree height (trees): the same word.
    pub(super) fn set_word2(&mut self, v: u32) -> &mut Self {
        self.0[24..28].copy_from_slice(&v.to_be_bytes());
        self
    }

    /// The hash address (WOTS+) or the tree index (trees): the same word.
    pub(super) fn set_word3(&mut self, v: u32) -> &mut Self {
        self.0[28..32].copy_from_slice(&v.to_be_bytes());
        self
    }

    pub(super) fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// ADRS^c: layer (1 byte) ‖ tree (low 8 bytes) ‖ type (1 byte) ‖ the
    /// three words.
    pub(super) fn compressed(&self) -> [u8; 22] {
        let mut c = [0u8; 22];
        c[0] = self.0[3];
        c[1..9].copy_from_slice(&self.0[8..16]);
        c[9] = self.0[19];
        c[10..22].copy_from_slice(&self.0[20..32]);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_land_where_fips_205_puts_them() {
        let mut a = Adrs::new(0x0102_0304, 0x1112_1314_1516_1718, Kind::ForsPrf);
        a.set_keypair(0x2122_2324)
            .set_word2(0x3132_3334)
            .set_word3(0x4142_4344);
        let b = a.bytes();
        assert_eq!(&b[0..4], &[1, 2, 3, 4]);
        assert_eq!(&b[4..8], &[0; 4]);
        assert_eq!(&b[8..16], &[0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18]);
        assert_eq!(&b[16..20], &[0, 0, 0, 6]);
        assert_eq!(&b[20..24], &[0x21, 0x22, 0x23, 0x24]);
        let c = a.compressed();
        assert_eq!(c[0], 4);
        assert_eq!(&c[1..9], &b[8..16]);
        assert_eq!(c[9], 6);
        assert_eq!(&c[10..], &b[20..]);
    }
}
