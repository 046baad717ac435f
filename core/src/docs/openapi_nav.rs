//! Navigation's OpenAPI entries turned into pages before planning: each [`NavItem::Endpoint`]
//! becomes the [`NavItem::Page`] it generates, and a division with an `openapi` spec and nothing
//! else gets one group per tag holding a page per operation (see [`super::endpoint`]).
//!
//! A spec given as a URL is read from the upload when publish-docs downloaded it there (the
//! `{url: path}` manifest [`endpoint::REMOTE_MANIFEST`]); otherwise it is skipped with a warning.
//! A missing spec or operation is a warning naming the config file and the entry, never a failure.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::archive::SourceTree;
use super::config::SiteConfig;
use super::endpoint::{self, Operation, Specs};
use super::nav::{Division, DivisionKind, Endpoint, NavItem, OpenApiSource};
use super::page_path::page_path_problem;

/// A page generated from an operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedPage {
    /// The spec's path in the tree.
    pub spec: String,
    /// `"spec.json GET /x"`: the page's `openapi`.
    pub target: String,
}

/// Replaces the OpenAPI entries of `config`'s navigation by the pages they generate, which it
/// returns by page path. `specs` reads the tree holding the specs (and the remote manifest).
pub fn expand(
    config: &mut SiteConfig,
    specs: &mut Specs<'_>,
    warnings: &mut Vec<String>,
) -> BTreeMap<String, GeneratedPage> {
    let mut expander = Expander {
        file: if config.file.is_empty() {
            super::config::CONFIG_FILE.to_owned()
        } else {
            config.file.clone()
        },
        remote: endpoint::remote_manifest(specs.tree()),
        specs,
        pages: BTreeMap::new(),
        warned: BTreeSet::new(),
        warnings,
        unfetched: Vec::new(),
    };
    let default = config.api.openapi.first().cloned();
    let mut navigation = std::mem::take(&mut config.navigation);
    expander.items(&mut navigation, default.as_ref(), "");
    config.navigation = navigation;
    expander.pages
}

/// The remote specs (URLs) `config_tree`'s navigation names that the upload did not bring: what a
/// publish fetches itself before planning.
pub fn unfetched_remote_specs(config_tree: &SourceTree) -> Vec<String> {
    let Ok(mut config) = super::config::parse_config(config_tree, &mut Vec::new()) else {
        return Vec::new();
    };
    let mut specs = Specs::new(config_tree);
    let mut warnings = Vec::new();
    let mut expander = Expander {
        file: String::new(),
        remote: endpoint::remote_manifest(config_tree),
        specs: &mut specs,
        pages: BTreeMap::new(),
        warned: BTreeSet::new(),
        warnings: &mut warnings,
        unfetched: Vec::new(),
    };
    let default = config.api.openapi.first().cloned();
    let mut navigation = std::mem::take(&mut config.navigation);
    expander.items(&mut navigation, default.as_ref(), "");
    expander.unfetched
}

struct Expander<'s, 't, 'w> {
    file: String,
    specs: &'s mut Specs<'t>,
    remote: HashMap<String, String>,
    pages: BTreeMap<String, GeneratedPage>,
    /// Specs already warned about, so each is reported once.
    warned: BTreeSet<String>,
    warnings: &'w mut Vec<String>,
    /// Remote specs named that the upload did not bring, each once.
    unfetched: Vec<String>,
}

impl Expander<'_, '_, '_> {
    fn items(&mut self, items: &mut Vec<NavItem>, spec: Option<&OpenApiSource>, prefix: &str) {
        let mut out = Vec::with_capacity(items.len());
        for item in std::mem::take(items) {
            match item {
                NavItem::Endpoint(entry) => {
                    out.extend(self.entry(&entry, spec, prefix).map(NavItem::Page))
                }
                NavItem::Division(mut division) => {
                    self.division(&mut division, spec, prefix);
                    out.push(NavItem::Division(division));
                }
                page => out.push(page),
            }
        }
        *items = out;
    }

    fn division(
        &mut self,
        division: &mut Division,
        inherited: Option<&OpenApiSource>,
        prefix: &str,
    ) {
        let prefix = match division.kind {
            DivisionKind::Language if !division.label.is_empty() => format!("{}/", division.label),
            _ => prefix.to_owned(),
        };
        let own = division.openapi.clone();
        let spec = own.as_ref().or(inherited);
        if let Some(own) = own
            .as_ref()
            .filter(|_| division.items.is_empty() && division.root.is_none())
        {
            division.items = self.whole_spec(own, &prefix);
            return;
        }
        self.items(&mut division.items, spec, &prefix);
    }

    /// One group per tag, a page per operation not marked hidden.
    fn whole_spec(&mut self, source: &OpenApiSource, prefix: &str) -> Vec<NavItem> {
        let Some(path) = self.spec_path(&source.source, "a navigation `openapi`") else {
            return Vec::new();
        };
        let Some(doc) = self.load(&path, &source.source, "a navigation `openapi`") else {
            return Vec::new();
        };
        let ops: Vec<Operation> = endpoint::operations(&doc, self.specs.text(&path))
            .into_iter()
            .filter(|op| !op.hidden)
            .collect();
        let mut groups = Vec::new();
        for tag in endpoint::tag_order(&doc, &ops) {
            let mut group = Division::new(
                DivisionKind::Group,
                endpoint::group_label(&doc, tag.as_deref()),
            );
            for op in ops.iter().filter(|op| op.tag == tag) {
                let page = self.page(op, &path, prefix, source.directory.as_deref());
                group.items.extend(page.map(NavItem::Page));
            }
            groups.push(NavItem::Division(group));
        }
        groups
    }

    /// The page an entry generates, or `None` with a warning.
    fn entry(
        &mut self,
        entry: &Endpoint,
        inherited: Option<&OpenApiSource>,
        prefix: &str,
    ) -> Option<String> {
        let name = format!("{} {}", entry.method, entry.path);
        let (source, directory) = match (&entry.spec, inherited) {
            (Some(spec), _) => (spec.clone(), None),
            (None, Some(inherited)) => (inherited.source.clone(), inherited.directory.clone()),
            (None, None) => {
                self.warnings.push(format!(
                    "{}: navigation entry `{name}` names an endpoint but no `openapi` spec applies to it",
                    self.file
                ));
                return None;
            }
        };
        let named_by = format!("`{name}`");
        let path = self.spec_path(&source, &named_by)?;
        let doc = self.load(&path, &source, &named_by)?;
        let Some(op) = endpoint::find_operation(&doc, &entry.method, &entry.path) else {
            self.warnings.push(format!(
                "{}: navigation entry `{name}`: `{path}` has no such operation",
                self.file
            ));
            return None;
        };
        self.page(&op, &path, prefix, directory.as_deref())
    }

    /// The page of `op`; a path another operation took gets `-1`, `-2`, ... as Mintlify adds them.
    fn page(
        &mut self,
        op: &Operation,
        spec: &str,
        prefix: &str,
        directory: Option<&str>,
    ) -> Option<String> {
        let target = op.target(spec);
        let base = endpoint::page_path(op, prefix, directory);
        if let Some(rule) = page_path_problem(&base) {
            self.warnings.push(format!(
                "{}: the page of `{} {}` would be at {base:?}, which {rule}; skipped",
                self.file, op.method, op.path
            ));
            return None;
        }
        let mut path = base.clone();
        let mut n = 0;
        while let Some(taken) = self.pages.get(&path) {
            if taken.target == target {
                return Some(path);
            }
            n += 1;
            path = format!("{base}-{n}");
        }
        self.pages.insert(
            path.clone(),
            GeneratedPage {
                spec: spec.to_owned(),
                target,
            },
        );
        Some(path)
    }

    /// The tree path of a spec: itself, or for a URL the file publish-docs downloaded it to.
    fn spec_path(&mut self, source: &str, named_by: &str) -> Option<String> {
        if !endpoint::is_remote(source) {
            return Some(
                source
                    .trim()
                    .trim_start_matches("./")
                    .trim_start_matches('/')
                    .to_owned(),
            );
        }
        if let Some(path) = self.remote.get(source.trim()) {
            return Some(path.clone());
        }
        if self.warned.insert(source.to_owned()) {
            self.unfetched.push(source.trim().to_owned());
            self.warnings.push(format!(
                "{}: openapi spec {source} (named by {named_by}) is remote and was not uploaded; its pages are left out",
                self.file
            ));
        }
        None
    }

    fn load(
        &mut self,
        path: &str,
        source: &str,
        named_by: &str,
    ) -> Option<std::rc::Rc<serde_json::Value>> {
        let doc = self.specs.get(path);
        if doc.is_none() && self.warned.insert(path.to_owned()) {
            self.warnings.push(format!(
                "{}: openapi spec `{source}` (named by {named_by}) is missing or not an OpenAPI document; its pages are left out",
                self.file
            ));
        }
        doc
    }
}

#[cfg(test)]
mod unfetched_tests {
    use super::*;
    use crate::docs::archive::tree;

    #[test]
    fn remote_specs_the_upload_lacks_are_named_once_and_those_it_brought_are_not() {
        let docs = r#"{"navigation": {"tabs": [
            {"tab": "A", "openapi": "https://api.example.com/a.json", "pages": []},
            {"tab": "B", "openapi": "https://api.example.com/b.json", "pages": ["GET /x"]},
            {"tab": "C", "groups": [{"group": "G", "openapi": "https://api.example.com/a.json", "pages": []}]}]}}"#;
        let remote = r#"{"https://api.example.com/b.json": ".docs-edge/remote/b.json"}"#;
        let files = tree(&[("docs.json", docs), (endpoint::REMOTE_MANIFEST, remote)]);
        assert_eq!(
            unfetched_remote_specs(&files),
            ["https://api.example.com/a.json"]
        );
        assert!(unfetched_remote_specs(&tree(&[("docs.json", "{")])).is_empty());
    }
}
