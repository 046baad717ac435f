//! The operations of the upload's OpenAPI documents, read once when the site is planned, so a page
//! whose `openapi:` frontmatter names an operation none of them has is a warning with its file and
//! line (the export then says on the page that the operation is not in the document). Pages are
//! read in batches that hold only their own files; this index is what they know of the documents.
//!
//! The documents a page may name are those the export reads (`export::reference::openapi`): the file the value
//! names (from the root, or beside the page), else any OpenAPI document of the upload.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::archive::SourceTree;
use super::endpoint::{parse_entry, parse_spec, METHODS};
use super::frontmatter;
use super::model::Page;

/// Each OpenAPI document of the upload (tree path) -> its operations, `get /users/{id}` or
/// `webhook order.created`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operations(BTreeMap<String, BTreeSet<String>>);

impl Operations {
    /// The operations of every JSON and YAML file of `tree` that is an OpenAPI document.
    pub fn of_tree(tree: &SourceTree) -> Self {
        let mut out = BTreeMap::new();
        for (path, bytes) in tree.iter() {
            let Some(doc) = parse_spec(path, bytes) else {
                continue;
            };
            let mut keys = BTreeSet::new();
            for (route, item) in doc
                .get("paths")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let item = super::endpoint::resolve(&doc, item);
                keys.extend(
                    METHODS
                        .iter()
                        .filter(|m| item.get(**m).is_some())
                        .map(|m| format!("{m} {route}")),
                );
            }
            keys.extend(
                doc.get("webhooks")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(name, _)| format!("webhook {name}")),
            );
            out.insert(path.clone(), keys);
        }
        Operations(out)
    }

    /// What is wrong with `value` (a page's `openapi:`, read from `source`) when the documents lack
    /// what it names; `None` when one has it, or when it names no operation.
    pub fn problem(&self, value: &str, source: &str) -> Option<String> {
        let endpoint = parse_entry(value)?;
        let key = format!("{} {}", endpoint.method.to_ascii_lowercase(), endpoint.path);
        let Some(file) = endpoint.spec else {
            return match self.0.is_empty() {
                true => Some("the upload has no OpenAPI document".into()),
                false => (!self.0.values().any(|ops| ops.contains(&key)))
                    .then(|| "no OpenAPI document of the upload has this operation".into()),
            };
        };
        let beside = source
            .rsplit_once('/')
            .map(|(dir, _)| format!("{dir}/{file}"));
        let named: Vec<(&String, &BTreeSet<String>)> = [Some(&file), beside.as_ref()]
            .into_iter()
            .flatten()
            .filter_map(|f| self.0.get_key_value(f))
            .collect();
        match named.first() {
            None => Some(format!("`{file}` is not an OpenAPI document of the upload")),
            Some((path, _)) => (!named.iter().any(|(_, ops)| ops.contains(&key)))
                .then(|| format!("`{path}` has no such operation")),
        }
    }

    /// The warning for `page`, read from `text`: `guides/a.mdx:3: …` at its `openapi:` line.
    pub(crate) fn warning(&self, page: &Page, text: Option<&str>) -> Option<String> {
        let value = page.openapi.as_deref().filter(|_| !page.is_generated())?;
        let problem = self.problem(value, &page.source)?;
        let line = text.and_then(|text| frontmatter_line(text, "openapi"));
        let place = line.map_or_else(
            || page.source.clone(),
            |line| format!("{}:{line}", page.source),
        );
        Some(format!(
            "{place}: `openapi: {}`: {problem}, so the page shows no reference for it",
            value.trim()
        ))
    }
}

/// The 1-based line of the frontmatter's top-level `key`.
fn frontmatter_line(text: &str, key: &str) -> Option<usize> {
    let (yaml, _) = frontmatter::split(text);
    let at = yaml?.lines().position(|line| {
        line.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    })?;
    Some(at + 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;

    #[test]
    fn an_operation_no_document_has_is_a_problem_and_one_it_has_is_not() {
        let spec = r#"{"openapi": "3.1.0", "paths": {"/users": {"get": {}, "post": {}}}, "webhooks": {"order.created": {"post": {}}}}"#;
        let t = tree(&[
            ("api/openapi.json", spec),
            ("docs.json", "{}"),
            ("data.json", "[1]"),
        ]);
        let ops = Operations::of_tree(&t);
        assert_eq!(ops.problem("GET /users", "api/a.mdx"), None);
        assert_eq!(ops.problem("api/openapi.json POST /users", "a.mdx"), None);
        assert_eq!(
            ops.problem("openapi.json POST /users", "api/a.mdx"),
            None,
            "beside the page"
        );
        assert_eq!(ops.problem("webhook order.created", "a.mdx"), None);
        assert_eq!(
            ops.problem("DELETE /users", "a.mdx").as_deref(),
            Some("no OpenAPI document of the upload has this operation")
        );
        assert_eq!(
            ops.problem("api/openapi.json GET /orders", "a.mdx")
                .as_deref(),
            Some("`api/openapi.json` has no such operation")
        );
        assert_eq!(
            ops.problem("data.json GET /users", "a.mdx").as_deref(),
            Some("`data.json` is not an OpenAPI document of the upload")
        );
        assert_eq!(ops.problem("not an operation", "a.mdx"), None);
        assert_eq!(
            Operations::default().problem("GET /x", "a.mdx").as_deref(),
            Some("the upload has no OpenAPI document")
        );
        assert_eq!(
            frontmatter_line("---\ntitle: X\nopenapi: GET /x\n---\nBody", "openapi"),
            Some(3)
        );
        assert_eq!(frontmatter_line("---\nopenapis: 1\n---\n", "openapi"), None);
    }
}
