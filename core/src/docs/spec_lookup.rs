//! Which OpenAPI document of the upload holds the operation a page's `openapi:` value names. The
//! page reader uses it to add the operation's text to the page's sections (search, answers and
//! `llms-full.txt` see what the rendered page shows); the export uses it to render the reference.
//!
//! The document is the file named in the value (`/zh/admin-openapi.json POST /v1/x`, from the root
//! or beside the page), else the first document declaring the operation: files docs.json names
//! under an `openapi` key first, then the other JSON/YAML files of the tree, those in the page's own
//! top folder first.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use serde_json::Value;

use super::archive::SourceTree;
use super::endpoint::{find_operation, parse_entry, parse_spec, reference_text, resolve, METHODS};

/// Documents parsed while searching for an operation that names no file.
const MAX_CANDIDATES: usize = 64;

/// The operation a page's `openapi:` value names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub file: Option<String>,
    /// Lowercase method, or `webhook`.
    pub method: String,
    pub path: String,
}

/// Reads `"POST /v1/x"`, `"file.json GET /x"`, `"/spec.yaml webhook name"`, as navigation reads
/// its endpoint entries.
pub fn parse_target(value: &str) -> Option<Target> {
    let endpoint = parse_entry(value)?;
    Some(Target {
        file: endpoint.spec,
        method: endpoint.method.to_ascii_lowercase(),
        path: endpoint.path,
    })
}

/// Whether a file of the upload may be an OpenAPI document a page names.
pub fn may_be_spec(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    path != super::config::CONFIG_FILE
        && [".json", ".yaml", ".yml"]
            .iter()
            .any(|ext| lower.ends_with(ext))
}

/// The parsed OpenAPI documents of one tree, each parsed once.
pub struct SpecLookup<'t> {
    tree: &'t SourceTree,
    cache: BTreeMap<String, Option<Rc<Value>>>,
    declared: Vec<String>,
}

impl<'t> SpecLookup<'t> {
    pub fn new(tree: &'t SourceTree) -> Self {
        let mut declared = Vec::new();
        if let Some(config) = super::config::config_file(tree)
            .and_then(|file| tree.get(file))
            .and_then(|b| serde_json::from_slice::<Value>(b).ok())
        {
            collect_declared(&config, &mut declared);
        }
        Self {
            tree,
            cache: BTreeMap::new(),
            declared,
        }
    }

    pub fn tree(&self) -> &'t SourceTree {
        self.tree
    }

    fn load(&mut self, path: &str) -> Option<Rc<Value>> {
        if let Some(cached) = self.cache.get(path) {
            return cached.clone();
        }
        let parsed = self
            .tree
            .get(path)
            .and_then(|bytes| parse_spec(path, bytes))
            .map(Rc::new);
        self.cache.insert(path.to_owned(), parsed.clone());
        parsed
    }

    /// The document, path item and operation `target` names, for a page read from `source`; else
    /// the first document read that lacks it, if any was.
    pub fn find(
        &mut self,
        target: &Target,
        source: &str,
    ) -> Result<(Rc<Value>, Value, Value), Option<String>> {
        let candidates: Vec<String> = match &target.file {
            Some(file) => {
                let beside = match source.rsplit_once('/') {
                    Some((dir, _)) => format!("{dir}/{file}"),
                    None => file.clone(),
                };
                vec![file.clone(), beside]
            }
            None => self.candidates(source),
        };
        let mut lacking = None;
        for path in candidates.iter().take(MAX_CANDIDATES) {
            let Some(doc) = self.load(path) else { continue };
            if let Some((item, op)) = operation(&doc, target) {
                return Ok((doc.clone(), item, op));
            }
            lacking = lacking.or_else(|| Some(path.clone()));
        }
        Err(lacking)
    }

    fn candidates(&self, source: &str) -> Vec<String> {
        let top = source.split_once('/').map(|(t, _)| t);
        let is_spec = |p: &&String| may_be_spec(p);
        let mut out: Vec<String> = self.declared.clone();
        let files: Vec<&String> = self.tree.keys().filter(is_spec).collect();
        let in_top = |p: &&&String| top.is_some_and(|t| p.starts_with(&format!("{t}/")));
        out.extend(files.iter().filter(in_top).map(|p| (*p).clone()));
        out.extend(
            files
                .iter()
                .filter(|p| !p.contains('/'))
                .map(|p| (*p).clone()),
        );
        out.extend(files.iter().map(|p| (*p).clone()));
        let mut seen = BTreeSet::new();
        out.retain(|p| seen.insert(p.clone()));
        out
    }
}

/// The operation a page's `openapi:` value names (the page read from `source`), as the rendered page
/// shows it below the page's own text ([`reference_text`]). `None` when no document of the tree has
/// it.
pub fn operation_text(specs: &mut SpecLookup<'_>, value: &str, source: &str) -> Option<String> {
    let target = parse_target(value)?;
    let (doc, _, _) = specs.find(&target, source).ok()?;
    let op = find_operation(&doc, &target.method, &target.path)?;
    Some(reference_text(&doc, &op))
}

/// Files named by `openapi` keys of docs.json (a string, a list, or `{source}`), in document order.
fn collect_declared(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                if key == "openapi" {
                    let mut push = |v: &Value| {
                        let s = v
                            .as_str()
                            .or_else(|| v.get("source").and_then(Value::as_str));
                        if let Some(s) = s.filter(|s| !s.starts_with("http")) {
                            out.push(s.trim_start_matches('/').to_owned());
                        }
                    };
                    match item {
                        Value::Array(items) => items.iter().for_each(&mut push),
                        other => push(other),
                    }
                } else {
                    collect_declared(item, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_declared(i, out)),
        _ => {}
    }
}

/// The path item and operation of `target` in `doc`.
fn operation(doc: &Value, target: &Target) -> Option<(Value, Value)> {
    if target.method == "webhook" {
        let item = resolve(doc, doc.get("webhooks")?.get(&target.path)?).clone();
        let op = METHODS
            .iter()
            .find_map(|m| item.get(*m))
            .map(|op| resolve(doc, op).clone())?;
        return Some((item, op));
    }
    let item = resolve(doc, doc.get("paths")?.get(&target.path)?).clone();
    let op = resolve(doc, item.get(&target.method)?).clone();
    Some((item, op))
}
