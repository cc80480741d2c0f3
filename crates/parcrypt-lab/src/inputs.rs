//! What every implementation and every peer processes: the same
//! deterministic bytes, `i % 251`.

/// The same deterministic input for every implementation: `i % 251`.
pub fn input(size: usize) -> Vec<u8> {
    (0..size).map(|i| (i % 251) as u8).collect()
}

/// Writes [`input`]`(size)` to `out` a megabyte at a time, so a 1 GiB file
/// needs no 1 GiB buffer.
pub fn write_input(out: &mut impl std::io::Write, size: usize) -> std::io::Result<()> {
    // A whole number of periods, so every chunk starts at 0.
    let chunk = input(251 * 4096);
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len());
        out.write_all(&chunk[..n])?;
        left -= n;
    }
    Ok(())
}
