//! The import graph between a crate's top-level modules, read from its
//! source tree: one checker for the layering tests of `parcrypt` and
//! `parcrypt-lab` (test support only, never a dependency of a library).
//!
//! A module `m` depends on `n` when code in `src/m.rs` or `src/m/…` names
//! `crate::n` — in a `use` line (grouped imports included) or a path.
//! Comments (`//`, `/* */`) and `#[cfg(test)]` items are skipped: tests may
//! reach anywhere, the layers are about the code that ships.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod items;

pub use items::{PubFn, public_fns};

/// Each top-level module and the top-level modules it names.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// The graph of the crate whose sources are under `src` (`lib.rs`, which
/// declares every module, is left out).
///
/// # Panics
/// If the tree cannot be read.
pub fn graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    walk(src, &mut files);
    let mut graph = Graph::new();
    for file in files {
        let Ok(relative) = file.strip_prefix(src) else {
            continue;
        };
        if relative == Path::new("lib.rs") {
            continue;
        }
        let Some(first) = relative.components().next() else {
            continue;
        };
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
        let deps = graph.entry(module.clone()).or_default();
        deps.extend(references(&text));
        deps.remove(&module);
    }
    // Items of the crate root (`crate::UnknownName`) are no module.
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| modules.contains(d));
    }
    graph
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The source without comments and without `#[cfg(test)]` items (each
/// skipped up to the brace that closes it, or its `;`). String literals are
/// kept (none of them spell a module path).
pub fn shipped_code(src: &str) -> String {
    let mut no_comments = String::with_capacity(src.len());
    let mut rest = src;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
        } else {
            let c = rest.chars().next().unwrap_or_default();
            no_comments.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    let mut code = String::with_capacity(no_comments.len());
    let mut rest = no_comments.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        code.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        // The item ends at its first `;` before any `{`, or at the brace
        // that closes its first `{`.
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    code.push_str(rest);
    code
}

/// The top-level modules `src` names as `crate::…` outside comments and
/// `#[cfg(test)]` items, including grouped imports (`use crate::{a, b::c}`).
pub fn references(src: &str) -> BTreeSet<String> {
    let code = shipped_code(src);
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let preceded_by_ident = code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if preceded_by_ident {
            continue; // `$crate::`, `other_crate::`: not this crate's root
        }
        let path = code[at + "crate::".len()..].trim_start();
        if let Some(group) = path.strip_prefix('{') {
            let (mut depth, mut start) = (0usize, true);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        start = false;
                        found.insert(ident(&group[i..]));
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(ident(path));
        }
    }
    found.retain(|m| !m.is_empty() && m != "self");
    found
}

/// A cycle in `graph`, as `a, b, …, a`, if there is one.
pub fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut cycle = path[i..].to_vec();
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
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

/// Checks `graph` against `layers`, bottom first: every top-level module
/// is in exactly one layer, and imports only modules of lower layers (or
/// of its own layer where `same_layer` lists the pair). Returns every
/// violation, one line each.
pub fn check_layers(graph: &Graph, layers: &[&[&str]], same_layer: &[(&str, &str)]) -> Vec<String> {
    let mut problems = Vec::new();
    let layer_of = |m: &str| layers.iter().position(|l| l.contains(&m));
    for module in graph.keys() {
        if layer_of(module).is_none() {
            problems.push(format!("module {module} is in no layer: add it to the table"));
        }
    }
    for layer in layers {
        for m in *layer {
            if !graph.contains_key(*m) {
                problems.push(format!("the table names {m}, which is no top-level module"));
            }
        }
    }
    for (module, deps) in graph {
        let Some(own) = layer_of(module) else { continue };
        for dep in deps {
            let Some(theirs) = layer_of(dep) else { continue };
            let allowed =
                theirs < own || (theirs == own && same_layer.contains(&(module.as_str(), dep.as_str())));
            if !allowed {
                problems.push(format!(
                    "{module} (layer {own}) imports {dep} (layer {theirs}): a layer imports only lower ones"
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_see_paths_groups_and_not_comments_or_tests() {
        let src = "use crate::{a::X, b, c::{d, e}};\n/// [`crate::doc`]\nlet x = crate::f::g(); // crate::h\n$crate::m\n\
                   /* crate::k */\n#[cfg(test)]\nmod tests {\n    use crate::e2;\n    fn t() { if x { crate::e3() } }\n}\n\
                   #[cfg(test)]\nuse crate::e4;\nfn h() { crate::z::g() }\n";
        let want: BTreeSet<String> = ["a", "b", "c", "f", "z"].map(String::from).into();
        assert_eq!(references(src), want);
    }

    #[test]
    fn cycles_and_layers_are_found() {
        let g = |edges: &[(&str, &str)]| {
            let mut g = Graph::new();
            for (a, b) in edges {
                g.entry((*a).to_owned()).or_default().insert((*b).to_owned());
                g.entry((*b).to_owned()).or_default();
            }
            g
        };
        assert_eq!(find_cycle(&g(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
        assert_eq!(
            find_cycle(&g(&[("a", "b"), ("b", "c"), ("c", "a")])).map(|c| c.join(" -> ")),
            Some("a -> b -> c -> a".to_owned())
        );
        let graph = g(&[("top", "low"), ("low", "base"), ("base", "low")]);
        assert!(check_layers(&graph, &[&["base"], &["low"], &["top"]], &[]).len() == 1);
        assert!(
            check_layers(
                &graph,
                &[&["base", "low"], &["top"]],
                &[("base", "low"), ("low", "base")]
            )
            .is_empty()
        );
        assert_eq!(check_layers(&graph, &[&["base"], &["low"]], &[]).len(), 2);
    }
}
