//! SVG charts, written directly (no plotting dependency): line series with
//! optional CI bars, linear or log axes.

use std::fmt::Write as _;

/// One line on a chart.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// (x, y) points, drawn in order.
    pub points: Vec<(f64, f64)>,
    /// Per point (low, high) of y, drawn as error bars.
    pub ci: Option<Vec<(f64, f64)>>,
    /// A reference line (ideal, fitted): dashed, no markers.
    pub reference: bool,
}

/// A chart: title, axes and series.
#[derive(Debug, Clone)]
pub struct Chart {
    /// Title above the plot.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// Logarithmic x axis.
    pub x_log: bool,
    /// Logarithmic y axis.
    pub y_log: bool,
    /// The lines.
    pub series: Vec<Series>,
}

const W: f64 = 640.0;
const H: f64 = 400.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;
const COLORS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
];

impl Chart {
    /// The chart as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let pts = || self.series.iter().flat_map(|s| s.points.iter().copied());
        let ci = || {
            self.series
                .iter()
                .filter_map(|s| s.ci.as_ref())
                .flatten()
                .flat_map(|&(a, b)| [a, b])
        };
        let xs: Vec<f64> = pts()
            .map(|p| p.0)
            .filter(|v| v.is_finite() && (!self.x_log || *v > 0.0))
            .collect();
        let ys: Vec<f64> = pts()
            .map(|p| p.1)
            .chain(ci())
            .filter(|v| v.is_finite() && (!self.y_log || *v > 0.0))
            .collect();
        let x_axis = Axis::new(&xs, self.x_log, LEFT, W - RIGHT, false);
        let y_axis = Axis::new(&ys, self.y_log, H - BOTTOM, TOP, !self.y_log);
        let mut s = String::new();
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
        );
        let _ = write!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
        let _ = write!(
            s,
            r#"<text x="{}" y="22" text-anchor="middle" font-size="14" font-weight="bold">{}</text>"#,
            (LEFT + W - RIGHT) / 2.0,
            esc(&self.title)
        );
        // Grid and ticks.
        for (v, label) in x_axis.ticks() {
            let x = x_axis.map(v);
            let _ = write!(
                s,
                r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{}" stroke="#e0e0e0"/>"##,
                H - BOTTOM
            );
            let _ = write!(
                s,
                r#"<text x="{x:.1}" y="{}" text-anchor="middle">{label}</text>"#,
                H - BOTTOM + 16.0
            );
        }
        for (v, label) in y_axis.ticks() {
            let y = y_axis.map(v);
            let _ = write!(
                s,
                r##"<line x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#e0e0e0"/>"##,
                W - RIGHT
            );
            let _ = write!(
                s,
                r#"<text x="{}" y="{:.1}" text-anchor="end">{label}</text>"#,
                LEFT - 6.0,
                y + 4.0
            );
        }
        let _ = write!(
            s,
            r#"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke="black"/>"#,
            W - RIGHT - LEFT,
            H - BOTTOM - TOP
        );
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            (LEFT + W - RIGHT) / 2.0,
            H - 12.0,
            esc(&self.x_label)
        );
        let _ = write!(
            s,
            r#"<text transform="translate(16 {}) rotate(-90)" text-anchor="middle">{}</text>"#,
            (TOP + H - BOTTOM) / 2.0,
            esc(&self.y_label)
        );
        // Series.
        for (i, series) in self.series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let visible: Vec<(f64, f64)> = series
                .points
                .iter()
                .copied()
                .filter(|&(x, y)| x_axis.shows(x) && y_axis.shows(y))
                .collect();
            let path: Vec<String> = visible
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", x_axis.map(x), y_axis.map(y)))
                .collect();
            if !path.is_empty() {
                let dash = if series.reference {
                    r#" stroke-dasharray="6 4""#
                } else {
                    ""
                };
                let _ = write!(
                    s,
                    r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"{dash}/>"#,
                    path.join(" ")
                );
            }
            if !series.reference {
                for &(x, y) in &visible {
                    let _ = write!(
                        s,
                        r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{color}"/>"#,
                        x_axis.map(x),
                        y_axis.map(y)
                    );
                }
            }
            if let Some(ci) = &series.ci {
                for (&(x, _), &(lo, hi)) in series.points.iter().zip(ci) {
                    if x_axis.shows(x) && y_axis.shows(lo) && y_axis.shows(hi) {
                        let (cx, y1, y2) = (x_axis.map(x), y_axis.map(lo), y_axis.map(hi));
                        let _ = write!(
                            s,
                            r#"<line x1="{cx:.1}" y1="{y1:.1}" x2="{cx:.1}" y2="{y2:.1}" stroke="{color}"/>"#
                        );
                        for y in [y1, y2] {
                            let _ = write!(
                                s,
                                r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{color}"/>"#,
                                cx - 4.0,
                                cx + 4.0
                            );
                        }
                    }
                }
            }
            let ly = TOP + 14.0 + 18.0 * i as f64;
            let lx = W - RIGHT + 12.0;
            let dash = if series.reference {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let _ = write!(
                s,
                r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{color}" stroke-width="2"{dash}/>"#,
                lx + 20.0
            );
            let _ = write!(
                s,
                r#"<text x="{}" y="{}">{}</text>"#,
                lx + 26.0,
                ly + 4.0,
                esc(&series.name)
            );
        }
        s.push_str("</svg>\n");
        s
    }
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

/// Grouped bars: for each group (a workload), one bar per label.
#[derive(Debug, Clone)]
pub struct Bars {
    /// Title above the plot.
    pub title: String,
    /// Y axis label.
    pub y_label: String,
    /// (group name, [(bar label, value)]).
    pub groups: Vec<(String, Vec<(String, f64)>)>,
}

impl Bars {
    /// The chart as a standalone SVG document (linear y axis from 0).
    pub fn to_svg(&self) -> String {
        let values: Vec<f64> = self
            .groups
            .iter()
            .flat_map(|(_, b)| b.iter().map(|(_, v)| *v))
            .filter(|v| v.is_finite())
            .collect();
        let y = Axis::new(&values, false, H - BOTTOM, TOP, true);
        let mut labels: Vec<&str> = Vec::new();
        for (_, bars) in &self.groups {
            for (label, _) in bars {
                if !labels.contains(&label.as_str()) {
                    labels.push(label);
                }
            }
        }
        let width = W - RIGHT - LEFT;
        let group_w = width / self.groups.len().max(1) as f64;
        let bar_w = (group_w * 0.8) / labels.len().max(1) as f64;
        let mut s = String::new();
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="11">"#
        );
        let _ = write!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
        let _ = write!(
            s,
            r#"<text x="{}" y="22" text-anchor="middle" font-size="14" font-weight="bold">{}</text>"#,
            (LEFT + W - RIGHT) / 2.0,
            esc(&self.title)
        );
        for (v, label) in y.ticks() {
            let py = y.map(v);
            let _ = write!(
                s,
                r##"<line x1="{LEFT}" y1="{py:.1}" x2="{}" y2="{py:.1}" stroke="#e0e0e0"/>"##,
                W - RIGHT
            );
            let _ = write!(
                s,
                r#"<text x="{}" y="{:.1}" text-anchor="end">{label}</text>"#,
                LEFT - 6.0,
                py + 4.0
            );
        }
        for (g, (name, bars)) in self.groups.iter().enumerate() {
            let gx = LEFT + group_w * g as f64 + group_w * 0.1;
            for (label, v) in bars {
                let Some(k) = labels.iter().position(|l| l == label) else {
                    continue;
                };
                if !v.is_finite() {
                    continue;
                }
                let (x, top) = (gx + bar_w * k as f64, y.map(*v));
                let _ = write!(
                    s,
                    r#"<rect x="{x:.1}" y="{top:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {v:.3}</title></rect>"#,
                    bar_w * 0.9,
                    (H - BOTTOM - top).max(0.0),
                    COLORS[k % COLORS.len()],
                    esc(label)
                );
            }
            let _ = write!(
                s,
                r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
                gx + group_w * 0.4,
                H - BOTTOM + 16.0,
                esc(name)
            );
        }
        let _ = write!(
            s,
            r#"<rect x="{LEFT}" y="{TOP}" width="{width}" height="{}" fill="none" stroke="black"/>"#,
            H - BOTTOM - TOP
        );
        let _ = write!(
            s,
            r#"<text transform="translate(16 {}) rotate(-90)" text-anchor="middle">{}</text>"#,
            (TOP + H - BOTTOM) / 2.0,
            esc(&self.y_label)
        );
        for (k, label) in labels.iter().enumerate() {
            let ly = TOP + 14.0 + 18.0 * k as f64;
            let lx = W - RIGHT + 12.0;
            let _ = write!(
                s,
                r#"<rect x="{lx}" y="{}" width="14" height="10" fill="{}"/>"#,
                ly - 8.0,
                COLORS[k % COLORS.len()]
            );
            let _ = write!(
                s,
                r#"<text x="{}" y="{}">{}</text>"#,
                lx + 20.0,
                ly + 1.0,
                esc(label)
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

/// The overview that opens the report: one band per workload, with the
/// best parallel speed-up at the largest size (a bar with its 95% CI as a
/// whisker) on the left and, where peers were measured, parcrypt's best
/// against each peer as a ratio (a dot on a log axis) on the right.
#[derive(Debug, Clone)]
pub struct Overview {
    /// Title above the figure.
    pub title: String,
    /// The machine's cores: the speed-up axis reaches at least this far.
    pub cores: usize,
    /// One per workload, top to bottom.
    pub rows: Vec<OverviewRow>,
}

/// One workload in the [`Overview`].
#[derive(Debug, Clone)]
pub struct OverviewRow {
    /// The workload's name and its largest size, e.g. `aes-128-ctr, 64 MiB`.
    pub label: String,
    /// The best parallel speed-up there with its 95% CI (low, high) and
    /// who achieved it (`steal ×2`); `None` for a sequential-only workload.
    pub speedup: Option<(f64, (f64, f64), String)>,
    /// (peer, how many times faster parcrypt's best is than the peer).
    pub peers: Vec<(String, f64)>,
}

impl Overview {
    /// The figure as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        const WIDTH: f64 = 1040.0;
        const NAMES: f64 = 220.0; // right edge of the names
        const SPEED: (f64, f64) = (230.0, 500.0); // speed-up panel
        const VALUE: f64 = 508.0; // the speed-up as text
        const RATIO: (f64, f64) = (640.0, 860.0); // vs-peer panel
        const LINE: f64 = 18.0; // one line of a band
        const HEAD: f64 = 64.0;
        let band = |r: &OverviewRow| LINE * r.peers.len().max(1) as f64 + 6.0;
        let height = HEAD + self.rows.iter().map(band).sum::<f64>() + 40.0;
        let bottom = height - 40.0;
        // Speed-up axis: linear from 0 to the cores or the largest CI end.
        let top = self
            .rows
            .iter()
            .filter_map(|r| r.speedup.as_ref())
            .flat_map(|(s, (lo, hi), _)| [*s, *lo, *hi])
            .filter(|v| v.is_finite())
            .fold(self.cores.max(1) as f64, f64::max);
        let speed = Axis::new(&[0.0, top], false, SPEED.0, SPEED.1, true);
        // Ratio axis: logarithmic, around 1, over every ratio.
        let ratios: Vec<f64> = self
            .rows
            .iter()
            .flat_map(|r| r.peers.iter().map(|(_, v)| *v))
            .filter(|v| v.is_finite() && *v > 0.0)
            .collect();
        let lo = ratios.iter().copied().fold(1.0, f64::min) / 1.5;
        let hi = ratios.iter().copied().fold(1.0, f64::max) * 1.5;
        let ratio_x = |v: f64| RATIO.0 + (v.ln() - lo.ln()) / (hi.ln() - lo.ln()) * (RATIO.1 - RATIO.0);
        let mut s = String::new();
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
        );
        let _ = write!(s, r#"<rect width="{WIDTH}" height="{height}" fill="white"/>"#);
        let _ = write!(
            s,
            r#"<text x="{}" y="20" text-anchor="middle" font-size="14" font-weight="bold">{}</text>"#,
            WIDTH / 2.0,
            esc(&self.title)
        );
        let _ = write!(
            s,
            r#"<text x="{}" y="44" text-anchor="middle" font-weight="bold">speed-up over seq at the largest size, 95% CI</text>"#,
            (SPEED.0 + SPEED.1) / 2.0
        );
        let _ = write!(
            s,
            r#"<text x="{}" y="44" text-anchor="middle" font-weight="bold">parcrypt's best vs a peer (right of 1: parcrypt faster)</text>"#,
            (RATIO.0 + RATIO.1) / 2.0
        );
        // Grids, ticks, and the line at 1 in each panel.
        for (v, label) in speed.ticks() {
            let x = speed.map(v);
            let _ = write!(
                s,
                r##"<line x1="{x:.1}" y1="{HEAD}" x2="{x:.1}" y2="{bottom}" stroke="#e0e0e0"/><text x="{x:.1}" y="{}" text-anchor="middle">{label}</text>"##,
                bottom + 16.0
            );
        }
        // 1-2-5 ticks over a short range; powers of ten over a long one,
        // where 1-2-5 labels would run into each other.
        let ticks: &[f64] = if hi / lo > 50.0 {
            &[0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]
        } else {
            &[
                0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0,
            ]
        };
        for &v in ticks {
            if v < lo || v > hi {
                continue;
            }
            let x = ratio_x(v);
            let _ = write!(
                s,
                r##"<line x1="{x:.1}" y1="{HEAD}" x2="{x:.1}" y2="{bottom}" stroke="#e0e0e0"/><text x="{x:.1}" y="{}" text-anchor="middle">{}×</text>"##,
                bottom + 16.0,
                trim(v)
            );
        }
        for x in [speed.map(1.0), ratio_x(1.0)] {
            let _ = write!(
                s,
                r##"<line x1="{x:.1}" y1="{HEAD}" x2="{x:.1}" y2="{bottom}" stroke="#444" stroke-dasharray="4 3"/>"##
            );
        }
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">× faster than seq (dashed: 1, no gain)</text>"#,
            (SPEED.0 + SPEED.1) / 2.0,
            bottom + 32.0
        );
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">× faster than the peer (log scale)</text>"#,
            (RATIO.0 + RATIO.1) / 2.0,
            bottom + 32.0
        );
        let mut y = HEAD;
        for (i, row) in self.rows.iter().enumerate() {
            let h = band(row);
            if i % 2 == 1 {
                let _ = write!(
                    s,
                    r##"<rect x="0" y="{y:.1}" width="{WIDTH}" height="{h:.1}" fill="#000" fill-opacity="0.04"/>"##
                );
            }
            let mid = y + 3.0 + LINE / 2.0;
            let _ = write!(
                s,
                r#"<text x="{NAMES}" y="{:.1}" text-anchor="end">{}</text>"#,
                mid + 4.0,
                esc(&row.label)
            );
            match &row.speedup {
                Some((value, (low, high), who)) if value.is_finite() => {
                    let (x0, x1) = (speed.map(0.0), speed.map(*value));
                    let _ = write!(
                        s,
                        r#"<rect x="{x0:.1}" y="{:.1}" width="{:.1}" height="10" fill="{}"/>"#,
                        mid - 5.0,
                        (x1 - x0).max(0.0),
                        COLORS[0]
                    );
                    if low.is_finite() && high.is_finite() {
                        let (a, b) = (speed.map(*low), speed.map(*high));
                        let _ = write!(
                            s,
                            r#"<line x1="{a:.1}" y1="{mid:.1}" x2="{b:.1}" y2="{mid:.1}" stroke="black"/>"#
                        );
                        for x in [a, b] {
                            let _ = write!(
                                s,
                                r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="black"/>"#,
                                mid - 5.0,
                                mid + 5.0
                            );
                        }
                    }
                    let _ = write!(
                        s,
                        r#"<text x="{VALUE}" y="{:.1}">{value:.2}× {}</text>"#,
                        mid + 4.0,
                        esc(who)
                    );
                }
                _ => {
                    let _ = write!(
                        s,
                        r##"<text x="{}" y="{:.1}" fill="#777">sequential only</text>"##,
                        SPEED.0 + 4.0,
                        mid + 4.0
                    );
                }
            }
            for (k, (peer, ratio)) in row.peers.iter().enumerate() {
                let py = mid + LINE * k as f64;
                if !(ratio.is_finite() && *ratio > 0.0) {
                    continue;
                }
                let x = ratio_x(*ratio);
                let _ = write!(
                    s,
                    r#"<line x1="{:.1}" y1="{py:.1}" x2="{x:.1}" y2="{py:.1}" stroke="{}" stroke-width="2"/><circle cx="{x:.1}" cy="{py:.1}" r="4" fill="{}"/>"#,
                    ratio_x(1.0),
                    COLORS[1],
                    COLORS[1]
                );
                let _ = write!(
                    s,
                    r#"<text x="{}" y="{:.1}">{ratio:.2}× vs {}</text>"#,
                    RATIO.1 + 8.0,
                    py + 4.0,
                    esc(peer)
                );
            }
            y += h;
        }
        let _ = write!(
            s,
            r#"<rect x="{}" y="{HEAD}" width="{}" height="{}" fill="none" stroke="black"/>"#,
            SPEED.0,
            SPEED.1 - SPEED.0,
            bottom - HEAD
        );
        let _ = write!(
            s,
            r#"<rect x="{}" y="{HEAD}" width="{}" height="{}" fill="none" stroke="black"/>"#,
            RATIO.0,
            RATIO.1 - RATIO.0,
            bottom - HEAD
        );
        s.push_str("</svg>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(y_log: bool) -> Chart {
        Chart {
            title: "a <title> & more".into(),
            x_label: "threads".into(),
            y_label: "speed-up".into(),
            x_log: false,
            y_log,
            series: vec![
                Series {
                    name: "steal".into(),
                    points: vec![(1.0, 1.0), (2.0, 1.9), (4.0, 2.0)],
                    ci: Some(vec![(0.9, 1.1), (1.8, 2.0), (1.9, 2.1)]),
                    reference: false,
                },
                Series {
                    name: "ideal".into(),
                    points: vec![(1.0, 1.0), (4.0, 4.0)],
                    ci: None,
                    reference: true,
                },
            ],
        }
    }

    #[test]
    fn svg_is_well_formed_and_escaped() {
        for log in [false, true] {
            let svg = chart(log).to_svg();
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
            assert!(svg.contains("a &lt;title&gt; &amp; more"));
            assert_eq!(svg.matches("<polyline").count(), 2);
            assert_eq!(svg.matches("<circle").count(), 3);
            // Every element opened is closed (all are self-closing or text/svg pairs).
            assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
        }
    }

    #[test]
    fn ticks_and_units() {
        assert_eq!(nice_step(0.3), 0.5);
        assert_eq!(nice_step(7.0), 10.0);
        assert_eq!(si(1e6), "1M");
        assert_eq!(si(64.0 * 1024.0 * 1024.0), "67.109M");
        assert_eq!(si(1e-6), "1µ");
    }
}
