//! report.html: summary.md as HTML, opening with the overview figure, then
//! every plot (embedded SVG; the same also written under `plots/` as SVG
//! and PNG) and the machine.

use std::path::{Path, PathBuf};

use super::svg::esc;
use super::{markdown, plots, write_file};
use crate::error::LabError;
use crate::model::Summary;

/// Writes `plots/*.svg` (each with a PNG copy) and `report.html` into
/// `dir`; returns the paths.
///
/// The page opens with the overview figure, before the first table: a
/// reader sees at a glance what the tables below detail.
///
/// # Errors
/// [`LabError::Io`] if a file cannot be written.
pub fn report(summary: &Summary, dir: &Path) -> Result<Vec<PathBuf>, LabError> {
    let plots_dir = dir.join("plots");
    std::fs::create_dir_all(&plots_dir).map_err(|source| LabError::Io {
        path: plots_dir.clone(),
        source,
    })?;
    let mut written = Vec::new();
    let raster = super::png::Rasterizer::new();
    let mut write_plot = |name: &str, svg: &str| -> Result<(), LabError> {
        let path = plots_dir.join(format!("{name}.svg"));
        write_file(&path, svg.as_bytes())?;
        written.push(path);
        if let Some(png) = raster.png(svg) {
            let path = plots_dir.join(format!("{name}.png"));
            write_file(&path, &png)?;
            written.push(path);
        }
        Ok(())
    };
    let figure = |name: &str, svg: &str| {
        format!("<figure id=\"{name}\">{svg}<figcaption>plots/{name}.svg</figcaption></figure>\n")
    };
    let overview = plots::overview(summary).to_svg();
    write_plot(plots::OVERVIEW, &overview)?;
    let bars = [
        plots::peer_bars(summary).map(|b| ("peers".to_owned(), b.to_svg())),
        plots::peer_op_bars(summary).map(|b| ("peers-ops".to_owned(), b.to_svg())),
    ];
    let mut figures = String::new();
    for (name, svg) in plots::charts(summary)
        .into_iter()
        .chain(plots::rooflines(summary))
        .map(|(n, c)| (n, c.to_svg()))
        .chain(bars.into_iter().flatten())
    {
        write_plot(&name, &svg)?;
        figures.push_str(&figure(&name, &svg));
    }
    let machine = serde_json::to_string_pretty(&summary.machine).unwrap_or_default();
    let body = markdown_to_html(&markdown::markdown(summary));
    // The overview goes after the title, the run's line and its notes, before
    // the first section (and so before the first table).
    let at = body.find("<h2>").unwrap_or(body.len());
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>parcrypt lab report</title>\n<style>{CSS}</style></head><body>\n{}{}{}\n<h2>Plots</h2>\n{figures}<h2>Machine</h2>\n<pre>{}</pre>\n</body></html>\n",
        &body[..at],
        figure(plots::OVERVIEW, &overview),
        &body[at..],
        esc(&machine)
    );
    let path = dir.join("report.html");
    write_file(&path, html.as_bytes())?;
    written.push(path);
    Ok(written)
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
