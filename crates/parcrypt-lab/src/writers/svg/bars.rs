//! Grouped bar charts: one group per workload, one bar per label.

use std::fmt::Write as _;

use super::{Axis, BOTTOM, COLORS, H, LEFT, RIGHT, TOP, W, esc, frame, open, y_title};

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
        open(&mut s, (W, H), 11, &self.title, ((LEFT + W - RIGHT) / 2.0, 22.0));
        y.draw_y(&mut s, (LEFT, W - RIGHT));
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
        frame(&mut s, (LEFT, TOP), (width, H - BOTTOM - TOP));
        y_title(&mut s, &self.y_label);
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
