//! Plots (SVG files) and the self-contained report.html.

use std::path::{Path, PathBuf};

use crate::output::Summary;
use crate::plots::{Bars, Chart, Series, esc};
use crate::stats::amdahl;
use crate::workloads::Unit;
use crate::{LabError, Row};

impl Summary {
    fn rows_of<'a>(&'a self, w: &'a str, implementation: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows
            .iter()
            .filter(move |r| r.workload == w && r.implementation == implementation && !r.peer)
    }

    /// Every chart of the run, named `<workload>-<kind>`.
    pub fn charts(&self) -> Vec<(String, Chart)> {
        let mut out = Vec::new();
        for w in &self.config.workloads {
            let Some(largest) = self.largest_size(w) else {
                continue;
            };
            let parallel = self.rows.iter().any(|r| r.workload == *w && r.threads > 1);
            // An operation (key generation, a signature) has one nominal size
            // and no throughput; items (a batch of signatures) have a rate in
            // items per second over their counts.
            let unit = self.unit(w);
            let operation = unit == Unit::Operation;
            let mut threads: Vec<usize> = self
                .rows
                .iter()
                .filter(|r| r.workload == *w)
                .map(|r| r.threads)
                .collect();
            threads.sort_unstable();
            threads.dedup();
            if parallel {
                // Speed-up vs threads at the largest size, with the ideal and the fitted Amdahl curve.
                let mut series = Vec::new();
                for imp in ["static", "steal"] {
                    let mut rows: Vec<&Row> =
                        self.rows_of(w, imp).filter(|r| r.size_bytes == largest).collect();
                    rows.sort_by_key(|r| r.threads);
                    series.push(Series {
                        name: imp.to_owned(),
                        points: rows.iter().map(|r| (r.threads as f64, r.speedup)).collect(),
                        ci: Some(rows.iter().map(|r| r.speedup_ci95).collect()),
                        reference: false,
                    });
                }
                // More threads than cores cannot beat the cores: both model
                // lines are capped at the machine's core count.
                let cores = self.machine.cores.max(1);
                let capped = |t: usize| t.min(cores);
                series.push(Series {
                    name: format!("ideal ({cores} cores)"),
                    points: threads.iter().map(|&t| (t as f64, capped(t) as f64)).collect(),
                    ci: None,
                    reference: true,
                });
                let fit = self
                    .analysis
                    .iter()
                    .filter(|a| a.workload == *w)
                    .find_map(|a| a.amdahl_serial_fraction);
                if let Some(s) = fit {
                    series.push(Series {
                        name: format!("Amdahl s={s:.3}"),
                        points: threads
                            .iter()
                            .map(|&t| (t as f64, amdahl(s, capped(t))))
                            .collect(),
                        ci: None,
                        reference: true,
                    });
                }
                out.push((
                    format!("{w}-speedup"),
                    Chart {
                        title: if operation {
                            format!("{w}: speed-up")
                        } else {
                            format!("{w}: speed-up at {}", unit.label(largest))
                        },
                        x_label: "threads".into(),
                        y_label: "speed-up vs seq".into(),
                        x_log: false,
                        y_log: false,
                        series,
                    },
                ));
                // Time vs threads, one line per size (steal).
                let mut sizes: Vec<usize> = self.rows_of(w, "steal").map(|r| r.size_bytes).collect();
                sizes.sort_unstable();
                sizes.dedup();
                let series = sizes
                    .iter()
                    .map(|&size| {
                        let mut rows: Vec<&Row> = self
                            .rows_of(w, "steal")
                            .filter(|r| r.size_bytes == size)
                            .collect();
                        rows.sort_by_key(|r| r.threads);
                        Series {
                            name: if operation {
                                "median".to_owned()
                            } else {
                                unit.label(size)
                            },
                            points: rows.iter().map(|r| (r.threads as f64, r.stats.median)).collect(),
                            ci: None,
                            reference: false,
                        }
                    })
                    .collect();
                out.push((
                    format!("{w}-time"),
                    Chart {
                        title: format!("{w}: time vs threads (steal)"),
                        x_label: "threads".into(),
                        y_label: "seconds (median)".into(),
                        x_log: false,
                        y_log: true,
                        series,
                    },
                ));
            }
            // Throughput vs size: seq and each strategy at its best thread
            // count; peers as points. Not for operations (no throughput; one
            // nominal size); items per second over counts for items.
            let (value, title, x_label, y_label): (fn(&Row) -> f64, _, _, _) = match unit {
                Unit::Operation => continue,
                Unit::Bytes => (
                    |r| r.throughput_bps,
                    format!("{w}: throughput vs size"),
                    "input bytes".to_owned(),
                    "bytes / second".to_owned(),
                ),
                Unit::Items(noun) => (
                    |r| r.ops_per_s,
                    format!("{w}: {noun}s per second vs {noun}s per run"),
                    format!("{noun}s per run"),
                    format!("{noun}s / second"),
                ),
            };
            let mut series = Vec::new();
            for imp in ["seq", "static", "steal"] {
                let mut sizes: Vec<usize> = self.rows_of(w, imp).map(|r| r.size_bytes).collect();
                sizes.sort_unstable();
                sizes.dedup();
                let points: Vec<(f64, f64)> = sizes
                    .iter()
                    .filter_map(|&size| {
                        self.rows_of(w, imp)
                            .filter(|r| r.size_bytes == size)
                            .map(value)
                            .fold(None, |best: Option<f64>, t| Some(best.map_or(t, |b| b.max(t))))
                            .map(|t| (size as f64, t))
                    })
                    .collect();
                if !points.is_empty() {
                    let name = if imp == "seq" {
                        "seq".to_owned()
                    } else {
                        format!("{imp} (best threads)")
                    };
                    series.push(Series {
                        name,
                        points,
                        ci: None,
                        reference: false,
                    });
                }
            }
            for r in self.rows.iter().filter(|r| r.workload == *w && r.peer) {
                series.push(Series {
                    name: r.implementation.to_owned(),
                    points: vec![(r.size_bytes as f64, value(r))],
                    ci: None,
                    reference: false,
                });
            }
            out.push((
                format!("{w}-throughput"),
                Chart {
                    title,
                    x_label,
                    y_label,
                    x_log: true,
                    y_log: true,
                    series,
                },
            ));
        }
        out
    }

    /// Ours vs OpenSSL and age: for each byte workload with a peer, the
    /// peers' throughput next to parcrypt's sequential and best throughput
    /// at the largest size.
    pub fn peer_bars(&self) -> Option<Bars> {
        self.bars(false, "parcrypt vs OpenSSL and age (same run)", "GB/s")
    }

    /// As [`Summary::peer_bars`], for operations (RSA signatures, ECDSA
    /// verifications): operations per second.
    pub fn peer_op_bars(&self) -> Option<Bars> {
        self.bars(
            true,
            "parcrypt vs OpenSSL, public-key operations (same run)",
            "operations / second",
        )
    }

    /// [`Summary::peer_bars`] (GB/s) or, with `ops`, [`Summary::peer_op_bars`]
    /// (op/s); `None` without a peer of that kind.
    fn bars(&self, ops: bool, title: &str, y_label: &str) -> Option<Bars> {
        let value = |r: &Row| {
            if ops { r.ops_per_s } else { r.throughput_bps / 1e9 }
        };
        let mut groups = Vec::new();
        for w in &self.config.workloads {
            let peers: Vec<&Row> = self
                .rows
                .iter()
                .filter(|r| r.workload == *w && r.peer && r.throughput_bps.is_finite() != ops)
                .collect();
            if peers.is_empty() {
                continue;
            }
            let Some(largest) = self.largest_size(w) else {
                continue;
            };
            let ours = |imp: Option<&str>| {
                self.rows
                    .iter()
                    .filter(|r| r.workload == *w && !r.peer && r.size_bytes == largest)
                    .filter(|r| imp.is_none_or(|i| r.implementation == i))
                    .map(value)
                    .fold(f64::NAN, f64::max)
            };
            let mut bars: Vec<(String, f64)> = peers
                .iter()
                .map(|r| (r.implementation.to_owned(), value(r)))
                .collect();
            bars.push(("parcrypt seq".into(), ours(Some("seq"))));
            bars.push(("parcrypt best".into(), ours(None)));
            groups.push(((*w).to_owned(), bars));
        }
        (!groups.is_empty()).then(|| Bars {
            title: title.into(),
            y_label: y_label.into(),
            groups,
        })
    }

    /// Writes `plots/*.svg` and `report.html` into `dir`; returns the paths.
    pub(crate) fn write_report(&self, dir: &Path) -> Result<Vec<PathBuf>, LabError> {
        let plots = dir.join("plots");
        std::fs::create_dir_all(&plots).map_err(|source| LabError::Io {
            path: plots.clone(),
            source,
        })?;
        let mut written = Vec::new();
        let mut figures = String::new();
        let raster = crate::png::Rasterizer::new();
        let bars = [
            self.peer_bars().map(|b| ("peers".to_owned(), b.to_svg())),
            self.peer_op_bars().map(|b| ("peers-ops".to_owned(), b.to_svg())),
        ];
        for (name, svg) in self
            .charts()
            .into_iter()
            .map(|(n, c)| (n, c.to_svg()))
            .chain(bars.into_iter().flatten())
        {
            let path = plots.join(format!("{name}.svg"));
            crate::output::write_file(&path, svg.as_bytes())?;
            written.push(path);
            if let Some(png) = raster.png(&svg) {
                let path = plots.join(format!("{name}.png"));
                crate::output::write_file(&path, &png)?;
                written.push(path);
            }
            figures.push_str(&format!(
                "<figure id=\"{name}\">{svg}<figcaption>plots/{name}.svg</figcaption></figure>\n"
            ));
        }
        let machine = serde_json::to_string_pretty(&self.machine).unwrap_or_default();
        let html = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>parcrypt lab report</title>\n<style>{CSS}</style></head><body>\n{}\n<h2>Plots</h2>\n{figures}<h2>Machine</h2>\n<pre>{}</pre>\n</body></html>\n",
            markdown_to_html(&self.markdown()),
            esc(&machine)
        );
        let path = dir.join("report.html");
        crate::output::write_file(&path, html.as_bytes())?;
        written.push(path);
        Ok(written)
    }
}

const CSS: &str = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:1em 0;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\
td:first-child,th:first-child{text-align:left}th{background:#f0f0f0}blockquote{color:#a50;margin:0}\
figure{display:inline-block;margin:8px}figcaption{font-size:11px;color:#777;text-align:center}pre{background:#f6f6f6;padding:1em}";

/// The Markdown summary.md uses (headings, tables, quotes, paragraphs,
/// `code`, **bold**) as HTML.
fn markdown_to_html(md: &str) -> String {
    let inline = |s: &str| {
        let mut out = String::new();
        let mut code = false;
        for (i, part) in esc(s).split('`').enumerate() {
            if i > 0 {
                out.push_str(if code { "</code>" } else { "<code>" });
                code = !code;
            }
            out.push_str(part);
        }
        out
    };
    let mut html = String::new();
    let mut table_row = 0;
    for line in md.lines() {
        if !line.starts_with('|') && table_row > 0 {
            html.push_str("</table>\n");
            table_row = 0;
        }
        if let Some(h) = line.strip_prefix("## ") {
            html.push_str(&format!("<h2>{}</h2>\n", inline(h)));
        } else if let Some(h) = line.strip_prefix("# ") {
            html.push_str(&format!("<h1>{}</h1>\n", inline(h)));
        } else if let Some(q) = line.strip_prefix("> ") {
            html.push_str(&format!("<blockquote>{}</blockquote>\n", inline(q)));
        } else if line.starts_with('|') {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            if cells.iter().all(|c| c.chars().all(|ch| ch == '-')) {
                continue; // the header separator
            }
            if table_row == 0 {
                html.push_str("<table>\n");
            }
            let tag = if table_row == 0 { "th" } else { "td" };
            html.push_str("<tr>");
            for c in cells {
                html.push_str(&format!("<{tag}>{}</{tag}>", inline(c)));
            }
            html.push_str("</tr>\n");
            table_row += 1;
        } else if !line.trim().is_empty() {
            html.push_str(&format!("<p>{}</p>\n", inline(line)));
        }
    }
    if table_row > 0 {
        html.push_str("</table>\n");
    }
    html
}

#[cfg(test)]
mod tests {
    use super::markdown_to_html;

    #[test]
    fn tables_headings_and_code() {
        let html = markdown_to_html("# T\n\n| a | b |\n|---|---|\n| 1 | `x<y` |\n\ntext\n> note");
        assert!(html.contains("<h1>T</h1>"));
        assert!(html.contains("<tr><th>a</th><th>b</th></tr>"));
        assert!(html.contains("<td><code>x&lt;y</code></td>"));
        assert!(html.contains("</table>\n<p>text</p>"));
        assert!(html.contains("<blockquote>note</blockquote>"));
    }
}
