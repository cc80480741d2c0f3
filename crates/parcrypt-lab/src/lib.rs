//! parcrypt's measurement lab: every registered workload × implementation ×
//! thread count × input size, timed with warm-up and repeats, summarized with
//! medians, confidence intervals and speed-ups, and written as CSV, JSON,
//! Markdown, HTML and plots.
//!
//! Algorithms add workloads in [`workloads`]; the runner, statistics and
//! writers are generic.
//!
//! ```no_run
//! let config = parcrypt_lab::LabConfig { quick: true, ..Default::default() };
//! let summary = parcrypt_lab::run(&config)?;
//! println!("{summary}");
//! # Ok::<(), parcrypt_lab::LabError>(())
//! ```
//!
//! # Layers
//! Modules depend one way only, bottom to top (a unit test fails on an
//! import cycle between them):
//!
//! 1. [`units`] (sizes and times for people), [`stats`], [`machine`],
//!    [`inputs`], `pattern` (`--only`), [`error`]: depend on nothing in the lab;
//! 2. [`model`]: [`Row`], [`Impl`], [`Unit`](model::Unit), [`Summary`] as
//!    plain data with queries;
//! 3. [`peers`]: other tools doing a workload's job (OpenSSL, age), and the
//!    words a workload declares them with;
//! 4. [`workloads`]: the registry, and every workload's name as a constant
//!    ([`workloads::id`]);
//! 5. [`papers`] (the published numbers beside ours), [`analysis`] (Amdahl
//!    fits, crossovers), [`compare`] (two runs);
//! 6. [`runner`]: sweeps, sampling, and the statistics of the samples;
//! 7. [`writers`]: results.csv, results.json, machine.json, summary.md,
//!    report.html, plots and the printed summary, as functions over
//!    [`&Summary`](Summary).

pub mod analysis;
pub mod compare;
pub mod error;
pub mod inputs;
pub mod machine;
pub mod model;
pub mod papers;
mod pattern;
pub mod peers;
pub mod runner;
pub mod stats;
pub mod units;
pub mod workloads;
pub mod writers;

pub use error::LabError;
pub use machine::Machine;
pub use model::{Impl, Row, Summary};
pub use runner::{
    DEFAULT_BUDGET, DEFAULT_OUT_DIR, DEFAULT_QUICK_BUDGET, LabConfig, TARGET_REL_CI, THREAD_STEPS,
    default_out_dir, default_threads,
};
pub use workloads::DEFAULT_SIZES;

/// Runs the configured study and writes its files into `config.out_dir`.
///
/// # Errors
/// [`LabError::NoMatch`] for a pattern matching nothing, [`LabError::Config`]
/// for empty or zero thread/size lists, [`LabError::Io`] if results cannot be
/// written.
pub fn run(config: &LabConfig) -> Result<Summary, LabError> {
    let mut summary = runner::measure_all(config)?;
    writers::write_all(&mut summary, &config.out_dir)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The top-level modules each top-level module names as `crate::X`
    /// (in `use` lines and paths alike), from the source files under
    /// `dir`. Comments are skipped, and so are `#[cfg(test)]` items
    /// (tests may reach up: they are not what the layers are about).
    fn dependencies(dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "rs") {
                    continue;
                }
                let relative = path.strip_prefix(dir).unwrap();
                let first = relative.components().next().unwrap();
                let module = first
                    .as_os_str()
                    .to_str()
                    .unwrap()
                    .trim_end_matches(".rs")
                    .to_owned();
                if module == "lib" {
                    continue; // the crate root declares every module
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let deps = graph.entry(module.clone()).or_default();
                for target in crate_references(&text) {
                    if target != module {
                        deps.insert(target);
                    }
                }
            }
        }
        graph
    }

    /// The names `crate::NAME` and `crate::{NAME, …}` refer to in `source`,
    /// outside comments and `#[cfg(test)]` items.
    fn crate_references(source: &str) -> Vec<String> {
        // Lines outside comments and `#[cfg(test)]` items (skipped up to
        // the brace that closes them).
        let mut code = String::new();
        let mut skipping = false;
        let mut depth = 0i32;
        for line in source.lines() {
            let line = line.split("//").next().unwrap_or("");
            if line.trim() == "#[cfg(test)]" {
                skipping = true;
                depth = 0;
                continue;
            }
            if skipping {
                depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
                if depth <= 0 && line.contains('}') {
                    skipping = false;
                }
                continue;
            }
            code.push_str(line);
            code.push('\n');
        }
        let ident = |s: &str| -> String {
            s.trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        };
        let mut names = Vec::new();
        for (at, _) in code.match_indices("crate::") {
            let after = &code[at + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                // The first name of each item at depth 1 of the braces.
                let mut depth = 1;
                let mut item_start = true;
                for (i, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 1 => break,
                        '}' => depth -= 1,
                        ',' if depth == 1 => item_start = true,
                        c if item_start && depth == 1 && !c.is_whitespace() => {
                            names.push(ident(&group[i..]));
                            item_start = false;
                        }
                        _ => {}
                    }
                }
            } else {
                names.push(ident(after));
            }
        }
        names.retain(|n| !n.is_empty());
        names
    }

    /// A cycle in `graph`, as the modules along it, if there is one.
    fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
        fn visit(
            node: &str,
            graph: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
        ) -> Option<Vec<String>> {
            if let Some(at) = path.iter().position(|n| n == node) {
                let mut cycle = path[at..].to_vec();
                cycle.push(node.to_owned());
                return Some(cycle);
            }
            if done.contains(node) {
                return None;
            }
            path.push(node.to_owned());
            for next in graph.get(node).into_iter().flatten() {
                if let Some(cycle) = visit(next, graph, path, done) {
                    return Some(cycle);
                }
            }
            path.pop();
            done.insert(node.to_owned());
            None
        }
        let mut done = BTreeSet::new();
        graph
            .keys()
            .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
    }

    #[test]
    fn no_import_cycle_between_the_labs_modules() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let graph = dependencies(&src);
        // The reader sees the modules it must (or the check would pass on nothing).
        assert!(graph["writers"].contains("model"), "{graph:?}");
        assert!(graph["workloads"].contains("peers"), "{graph:?}");
        assert!(graph["papers"].contains("workloads"), "{graph:?}");
        if let Some(cycle) = find_cycle(&graph) {
            panic!("import cycle between the lab's modules: {}", cycle.join(" → "));
        }
    }

    #[test]
    fn the_cycle_check_sees_use_lines_groups_and_paths() {
        let source = "use crate::a::B;\nuse crate::{b, c::{D, E}};\n// crate::commented\nfn f() { crate::d::g(); }\n#[cfg(test)]\nmod tests {\n    use crate::e;\n}\nfn h() { crate::f::g() }\n";
        assert_eq!(crate_references(source), ["a", "b", "c", "d", "f"]);
        let graph = |edges: &[(&str, &str)]| {
            let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for (a, b) in edges {
                g.entry((*a).to_owned()).or_default().insert((*b).to_owned());
            }
            g
        };
        assert_eq!(find_cycle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
        assert_eq!(
            find_cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a")])).unwrap(),
            ["a", "b", "c", "a"]
        );
    }
}
