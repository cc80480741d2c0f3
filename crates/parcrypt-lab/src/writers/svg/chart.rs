//! Line charts: series of points with optional CI bars, on linear or log axes.

use std::fmt::Write as _;

use super::{Axis, BOTTOM, COLORS, H, LEFT, RIGHT, TOP, W, esc, frame, open, y_title};

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
        open(&mut s, (W, H), 12, &self.title, ((LEFT + W - RIGHT) / 2.0, 22.0));
        // Grid and ticks.
        x_axis.draw_x(&mut s, (TOP, H - BOTTOM));
        y_axis.draw_y(&mut s, (LEFT, W - RIGHT));
        frame(&mut s, (LEFT, TOP), (W - RIGHT - LEFT, H - BOTTOM - TOP));
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            (LEFT + W - RIGHT) / 2.0,
            H - 12.0,
            esc(&self.x_label)
        );
        y_title(&mut s, &self.y_label);
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
}
