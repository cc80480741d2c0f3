//! The report's opening figure: per workload, the best speed-up and the ratios to the peers.

use std::fmt::Write as _;

use super::{Axis, COLORS, esc, frame, open, trim, x_tick};

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
        open(&mut s, (WIDTH, height), 12, &self.title, (WIDTH / 2.0, 20.0));
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
        speed.draw_x(&mut s, (HEAD, bottom));
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
            x_tick(&mut s, ratio_x(v), (HEAD, bottom), &format!("{}×", trim(v)));
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
        frame(&mut s, (SPEED.0, HEAD), (SPEED.1 - SPEED.0, bottom - HEAD));
        frame(&mut s, (RATIO.0, HEAD), (RATIO.1 - RATIO.0, bottom - HEAD));
        s.push_str("</svg>\n");
        s
    }
}
