//! Units for people: sizes (`64 KiB`, `1 MB`) and times (`45.6 ms`). The
//! bottom layer of the lab: it depends on nothing else in the crate.

/// `10 B`, `1.0 MB`, `64 MiB`: powers of two in binary units, others in decimal.
pub fn human_size(n: usize) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n if n >= 1_000_000 => format!("{} MB", n as f64 / 1e6),
        n if n >= 1_000 => format!("{} kB", n as f64 / 1e3),
        n => format!("{n} B"),
    }
}

/// Seconds in the unit that reads best: `1.23 s`, `45.6 ms`, `789 µs`.
pub fn secs(t: f64) -> String {
    if t >= 1.0 {
        format!("{t:.2} s")
    } else if t >= 1e-3 {
        format!("{:.1} ms", t * 1e3)
    } else {
        format!("{:.0} µs", t * 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::{human_size, secs};

    #[test]
    fn sizes_and_times_read_as_people_write_them() {
        assert_eq!(human_size(10), "10 B");
        assert_eq!(human_size(1_000_000), "1 MB");
        assert_eq!(human_size(1_500_000), "1.5 MB");
        assert_eq!(human_size(786_432), "768 KiB");
        assert_eq!(human_size(64 << 20), "64 MiB");
        assert_eq!(secs(1.234), "1.23 s");
        assert_eq!(secs(0.0456), "45.6 ms");
        assert_eq!(secs(0.000_789), "789 µs");
    }
}
