//! PKCS#7 padding for 16-byte blocks.

use super::BLOCK;

/// `data` followed by 1–16 bytes of padding, each equal to the padding length.
pub(crate) fn pad(data: &[u8]) -> Vec<u8> {
    let n = BLOCK - data.len() % BLOCK;
    let mut out = Vec::with_capacity(data.len() + n);
    out.extend_from_slice(data);
    out.resize(data.len() + n, n as u8);
    out
}

/// The length of `data` without its PKCS#7 padding, or `None` if the padding is
/// invalid or `data` is empty or not whole blocks.
///
/// Only the last block is examined, and in constant time: every byte is read
/// and folded into one mask whatever the padding length, so the time taken
/// does not say where the padding went wrong.
pub(crate) fn unpadded_len(data: &[u8]) -> Option<usize> {
    if data.is_empty() || data.len() % BLOCK != 0 {
        return None;
    }
    let last = &data[data.len() - BLOCK..];
    let n = last[BLOCK - 1];
    // bad != 0 iff n == 0 or n > 16 or one of the last n bytes differs from n.
    let mut bad = ct_eq_mask(n, 0) | ct_gt_mask(n, BLOCK as u8);
    for (i, &b) in last.iter().enumerate() {
        let from_end = (BLOCK - i) as u8; // 16 … 1
        let in_padding = !ct_gt_mask(from_end, n); // from_end <= n
        bad |= in_padding & !ct_eq_mask(b, n);
    }
    if bad == 0 {
        Some(data.len() - usize::from(n))
    } else {
        None
    }
}

/// 0xff if a == b else 0, without branches.
fn ct_eq_mask(a: u8, b: u8) -> u8 {
    let x = u32::from(a ^ b);
    // x - 1 underflows (sets bit 31) only when x == 0.
    (x.wrapping_sub(1) >> 31) as u8 * 0xff
}

/// 0xff if a > b else 0, without branches.
fn ct_gt_mask(a: u8, b: u8) -> u8 {
    // b - a is negative (bit 31 set) exactly when a > b.
    (u32::from(b).wrapping_sub(u32::from(a)) >> 31) as u8 * 0xff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads_to_the_next_block() {
        assert_eq!(pad(b""), vec![16; 16]);
        assert_eq!(pad(&[0; 15]).last(), Some(&1));
        assert_eq!(pad(&[0; 16]).len(), 32);
    }

    #[test]
    fn unpad_accepts_every_valid_length() {
        for len in 0..=48 {
            let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
            assert_eq!(unpadded_len(&pad(&data)), Some(len));
        }
    }

    #[test]
    fn unpad_rejects_bad_padding() {
        let mut block = [0u8; 16];
        assert_eq!(unpadded_len(&block), None); // n = 0
        block[15] = 17;
        assert_eq!(unpadded_len(&block), None); // n > 16
        block = [3; 16];
        block[13] = 2;
        assert_eq!(unpadded_len(&block), None); // one wrong byte inside
        block[13] = 3;
        block[12] = 2; // outside the padding: fine
        assert_eq!(unpadded_len(&block), Some(13));
        assert_eq!(unpadded_len(&[]), None);
        assert_eq!(unpadded_len(&[1; 15]), None);
    }

    #[test]
    fn masks() {
        for a in 0..=255u8 {
            for b in [0u8, 1, 16, 17, 255] {
                assert_eq!(ct_eq_mask(a, b) == 0xff, a == b);
                assert_eq!(ct_gt_mask(a, b) == 0xff, a > b);
            }
        }
    }
}
