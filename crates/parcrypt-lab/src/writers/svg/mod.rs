//! SVG charts, written directly (no plotting dependency): line series with
//! optional CI bars, linear or log axes.
//!
//! [`Chart`] (lines), [`Bars`] and [`Overview`] share the page, the axes
//! and the drawing of ticks, frames and titles below.

mod bars;
mod chart;
mod overview;

use std::fmt::Write as _;

pub use self::bars::Bars;
pub use self::chart::{Chart, Series};
pub use self::overview::{Overview, OverviewRow};

// The page of a [`Chart`] or [`Bars`], and the margins of its plot area.
const W: f64 = 640.0;
const H: f64 = 400.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;
const COLORS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
];

/// Opens a `width` × `height` document on a white background, with `title`
/// in bold centred on `title_at` (x, y).
fn open(s: &mut String, (width, height): (f64, f64), font_size: u32, title: &str, title_at: (f64, f64)) {
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{font_size}">"#
    );
    let _ = write!(s, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle" font-size="14" font-weight="bold">{}</text>"#,
        title_at.0,
        title_at.1,
        esc(title)
    );
}

/// A tick of a horizontal axis: a grid line at `x` from `top` to `bottom`,
/// labelled under `bottom`.
fn x_tick(s: &mut String, x: f64, (top, bottom): (f64, f64), label: &str) {
    let _ = write!(
        s,
        r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{bottom}" stroke="#e0e0e0"/><text x="{x:.1}" y="{}" text-anchor="middle">{label}</text>"##,
        bottom + 16.0
    );
}

/// A tick of a vertical axis: a grid line at `y` from `left` to `right`,
/// labelled left of `left`.
fn y_tick(s: &mut String, y: f64, (left, right): (f64, f64), label: &str) {
    let _ = write!(
        s,
        r##"<line x1="{left}" y1="{y:.1}" x2="{right}" y2="{y:.1}" stroke="#e0e0e0"/><text x="{}" y="{:.1}" text-anchor="end">{label}</text>"##,
        left - 6.0,
        y + 4.0
    );
}

/// The black frame around a plot area.
fn frame(s: &mut String, (x, y): (f64, f64), (width, height): (f64, f64)) {
    let _ = write!(
        s,
        r#"<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="none" stroke="black"/>"#
    );
}

/// The vertical axis's title on the standard page, turned to read upwards.
fn y_title(s: &mut String, title: &str) {
    let _ = write!(
        s,
        r#"<text transform="translate(16 {}) rotate(-90)" text-anchor="middle">{}</text>"#,
        (TOP + H - BOTTOM) / 2.0,
        esc(title)
    );
}

/// Maps data values to pixels along one axis.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    from: f64,
    to: f64,
}

impl Axis {
    fn new(values: &[f64], log: bool, from: f64, to: f64, from_zero: bool) -> Axis {
        let mut lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let mut hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !lo.is_finite() || !hi.is_finite() {
            (lo, hi) = if log { (1.0, 10.0) } else { (0.0, 1.0) };
        }
        if log {
            lo = 10f64.powf(lo.log10().floor());
            hi = 10f64.powf(hi.log10().ceil().max(lo.log10() + 1.0));
        } else {
            if from_zero {
                lo = lo.min(0.0);
            }
            if hi <= lo {
                hi = lo + 1.0;
            }
            let step = nice_step((hi - lo) / 5.0);
            lo = (lo / step).floor() * step;
            hi = (hi / step).ceil() * step;
        }
        Axis {
            lo,
            hi,
            log,
            from,
            to,
        }
    }

    fn shows(&self, v: f64) -> bool {
        v.is_finite() && (!self.log || v > 0.0)
    }

    fn map(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        self.from + t * (self.to - self.from)
    }

    fn ticks(&self) -> Vec<(f64, String)> {
        if self.log {
            let (a, b) = (self.lo.log10().round() as i32, self.hi.log10().round() as i32);
            (a..=b).map(|e| (10f64.powi(e), si(10f64.powi(e)))).collect()
        } else {
            let step = nice_step((self.hi - self.lo) / 5.0);
            let n = ((self.hi - self.lo) / step).round() as i32;
            (0..=n)
                .map(|i| self.lo + step * f64::from(i))
                .map(|v| (v, trim(v)))
                .collect()
        }
    }

    /// Every tick of this axis as a horizontal one, its grid lines across
    /// the plot from `across.0` (top) to `across.1` (bottom).
    fn draw_x(&self, s: &mut String, across: (f64, f64)) {
        for (v, label) in self.ticks() {
            x_tick(s, self.map(v), across, &label);
        }
    }

    /// Every tick of this axis as a vertical one, its grid lines across
    /// the plot from `across.0` (left) to `across.1` (right).
    fn draw_y(&self, s: &mut String, across: (f64, f64)) {
        for (v, label) in self.ticks() {
            y_tick(s, self.map(v), across, &label);
        }
    }
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// 1e3 → "1k", 1e9 → "1G", 1e-6 → "1µ".
fn si(v: f64) -> String {
    const UNITS: [(f64, &str); 8] = [
        (1e12, "T"),
        (1e9, "G"),
        (1e6, "M"),
        (1e3, "k"),
        (1.0, ""),
        (1e-3, "m"),
        (1e-6, "µ"),
        (1e-9, "n"),
    ];
    UNITS.iter().find(|(scale, _)| v >= *scale * 0.999).map_or_else(
        || format!("{v:e}"),
        |(scale, unit)| format!("{}{unit}", trim(v / scale)),
    )
}

/// Escapes text for XML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_and_units() {
        assert_eq!(nice_step(0.3), 0.5);
        assert_eq!(nice_step(7.0), 10.0);
        assert_eq!(si(1e6), "1M");
        assert_eq!(si(64.0 * 1024.0 * 1024.0), "67.109M");
        assert_eq!(si(1e-6), "1µ");
    }
}
