//! `POST /discovery/v1/search/{domain}` and `POST /discovery/v1/page/{domain}` as rules and answers,
//! shared by the worker and `docs-edge-serve`: the request body read with field-path errors, and the
//! index's hits in the wire shape of the hosted service's discovery API.

use serde_json::Value;

use crate::wire::{PageContent, SearchFilter, SearchMetadata, SearchResult};

use super::{Hit, PageDoc, Query};

pub const MAX_QUERY_CHARS: usize = 1_000;
pub const MAX_PATH_CHARS: usize = 500;

#[derive(Debug, Clone, PartialEq)]
pub struct SearchRequest {
    pub query: String,
    pub page_size: usize,
    pub score_threshold: f32,
    pub filter: SearchFilter,
}

/// The search body; errors name the field and the rule (`pageSize: must be an integer from 1 to 50`).
pub fn parse_search_request(body: &Value) -> Result<SearchRequest, String> {
    let query = required_string(body, "query")?;
    if query.trim().is_empty() {
        return Err("query: must not be empty".into());
    }
    if query.chars().count() > MAX_QUERY_CHARS {
        return Err(format!("query: must be at most {MAX_QUERY_CHARS} characters"));
    }
    let page_size = match body.get("pageSize") {
        None | Some(Value::Null) => 10,
        // A whole number, as JSON Schema's `integer` means it: `5.0` counts, as in the assistant's rules.
        Some(v) => match v.as_f64() {
            Some(n) if n.fract() == 0.0 && (1.0..=50.0).contains(&n) => n as usize,
            _ => return Err("pageSize: must be an integer from 1 to 50".into()),
        },
    };
    let score_threshold = match body.get("scoreThreshold") {
        None | Some(Value::Null) => 0.0,
        Some(v) => match v.as_f64() {
            Some(t) if (0.0..=1.0).contains(&t) => t as f32,
            _ => return Err("scoreThreshold: must be a number from 0 to 1".into()),
        },
    };
    let filter = match body.get("filter") {
        None | Some(Value::Null) => SearchFilter::default(),
        Some(filter @ Value::Object(_)) => parse_filter(filter, "filter")?,
        Some(_) => return Err("filter: must be an object".into()),
    };
    Ok(SearchRequest { query, page_size, score_threshold, filter })
}

fn parse_filter(filter: &Value, path: &str) -> Result<SearchFilter, String> {
    let field = |name: &str| optional_string(filter, name).map_err(|_| format!("{path}.{name}: must be a string"));
    let groups = parse_groups(filter.get("groups"), &format!("{path}.groups"))?;
    Ok(SearchFilter { version: field("version")?, language: field("language")?, tag: field("tag")?, groups })
}

/// Optional `groups`: absent or null is none; otherwise an array of strings, or an error naming `path`.
pub fn parse_groups(value: Option<&Value>, path: &str) -> Result<Vec<String>, String> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| item.as_str().map(str::to_string).ok_or_else(|| format!("{path}[{i}]: must be a string")))
            .collect(),
        Some(_) => Err(format!("{path}: must be an array of strings")),
    }
}

/// A page body: `path` (at most [`MAX_PATH_CHARS`]), `format`, and `groups`, accepted and checked like
/// search's: no page here is restricted to groups.
#[derive(Debug, PartialEq, Eq)]
pub struct PageRequest {
    pub path: String,
    pub format: PageFormat,
}

/// `text` (the default) is the indexed plain text; `markdown` the page's Markdown rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageFormat {
    Text,
    Markdown,
}

pub fn parse_page_request(body: &Value) -> Result<PageRequest, String> {
    let path = required_string(body, "path")?;
    if path.chars().count() > MAX_PATH_CHARS {
        return Err(format!("path: must be at most {MAX_PATH_CHARS} characters"));
    }
    parse_groups(body.get("groups"), "groups")?;
    let format = match optional_string(body, "format")?.as_deref() {
        None | Some("text") => PageFormat::Text,
        Some("markdown") => PageFormat::Markdown,
        Some(_) => return Err("format: must be \"text\" or \"markdown\"".into()),
    };
    Ok(PageRequest { path, format })
}

/// The search a discovery request runs (whichever form of the index runs it). `groups` are access
/// groups (who may see a page), not navigation groups; sites here have no access control, so every
/// page is public and the field restricts nothing.
pub fn discovery_query(request: &SearchRequest) -> Query<'_> {
    Query {
        text: &request.query,
        limit: request.page_size,
        score_threshold: request.score_threshold,
        language: request.filter.language.as_deref(),
        version: request.filter.version.as_deref(),
        tag: request.filter.tag.as_deref(),
        groups: &[],
        near_path: None,
    }
}

/// Hits in the wire shape of search's answer.
pub fn discovery_results(hits: Vec<Hit>) -> Vec<SearchResult> {
    hits.into_iter()
        .map(|hit| SearchResult {
            content: hit.text,
            path: hit.path,
            metadata: SearchMetadata {
                title: hit.title,
                heading: hit.heading,
                anchor: hit.anchor,
                language: hit.language,
                version: hit.version,
                groups: hit.groups,
                score: hit.score,
            },
        })
        .collect()
}

/// A page in the wire shape of page's answer.
pub fn page_content(doc: PageDoc) -> PageContent {
    PageContent { path: doc.path, content: doc.text }
}

fn optional_string(body: &Value, field: &str) -> Result<Option<String>, String> {
    match body.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("{field}: must be a string")),
    }
}

fn required_string(body: &Value, field: &str) -> Result<String, String> {
    optional_string(body, field)?.ok_or_else(|| format!("{field}: is required"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn search_bodies_and_their_errors() {
        let r = parse_search_request(&json!({"query": "keys", "pageSize": 5.0, "filter": {"language": "en", "groups": ["a"]}})).unwrap();
        assert_eq!((r.page_size, r.filter.language.as_deref(), r.filter.groups.len()), (5, Some("en"), 1));
        let err = |body| parse_search_request(&body).unwrap_err();
        assert_eq!(err(json!({})), "query: is required");
        assert_eq!(err(json!({"query": " "})), "query: must not be empty");
        assert!(err(json!({"query": "x", "pageSize": 51})).starts_with("pageSize:"));
        assert!(err(json!({"query": "x", "scoreThreshold": 2})).starts_with("scoreThreshold:"));
        assert_eq!(err(json!({"query": "x", "filter": {"groups": [1]}})), "filter.groups[0]: must be a string");
        assert_eq!(parse_page_request(&json!({"path": "a/b"})).unwrap(), PageRequest { path: "a/b".into(), format: PageFormat::Text });
        assert_eq!(parse_page_request(&json!({"path": "a", "format": "markdown"})).unwrap().format, PageFormat::Markdown);
        assert_eq!(parse_page_request(&json!({"path": "a", "format": "html"})).unwrap_err(), "format: must be \"text\" or \"markdown\"");
        assert_eq!(parse_page_request(&json!({"path": "a", "groups": "x"})).unwrap_err(), "groups: must be an array of strings");
    }
}
