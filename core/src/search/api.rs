//! The discovery API's request bodies, `POST /discovery/v1/search/{domain}` and
//! `POST /discovery/v1/page/{domain}`, each wire type with its parser, on the one validation
//! vocabulary (`crate::http::validate`): errors name the field and the rule
//! (`pageSize: must be an integer from 1 to 50`). Shared by the worker and docs-edge-serve; the
//! filter's `groups` rule is the assistant's too.

use serde_json::Value;

use crate::http::validate::{
    integer_in, max_chars, not_blank, number_in, object, one_of, FieldError, Obj, Path,
};
use crate::wire::SearchFilter;

pub const MAX_QUERY_CHARS: usize = 1_000;
pub const MAX_PATH_CHARS: usize = 500;
pub const DEFAULT_PAGE_SIZE: u32 = 10;
pub const MAX_PAGE_SIZE: u32 = 50;
/// Each access group, and every filter's `version`, `language` and `tag`.
pub const MAX_LABEL_CHARS: usize = 200;
pub const MAX_FILTER_GROUPS: usize = 50;

#[derive(Debug, Clone, PartialEq)]
pub struct SearchRequest {
    pub query: String,
    /// What search matches: the query, a long one read for what it asks (a question pasted into a
    /// search box carries narrative around its ask: `text::question::focus`, as the assistant reads it).
    pub asked: String,
    pub page_size: usize,
    pub score_threshold: f32,
    pub filter: SearchFilter,
}

pub fn parse_search_request(body: &Value) -> Result<SearchRequest, FieldError> {
    let root = object(body, &Path::root())?;
    let query = root.req_str("query")?;
    let query_path = root.field_path("query");
    not_blank(query, &query_path)?;
    max_chars(query, MAX_QUERY_CHARS, &query_path)?;
    let page_size = match root.opt_number("pageSize")? {
        None => DEFAULT_PAGE_SIZE,
        // A whole number as JSON Schema's `integer` means it: `5.0` counts.
        Some(n) => integer_in(n, 1, MAX_PAGE_SIZE, &root.field_path("pageSize"))?,
    };
    let score_threshold = match root.opt_number("scoreThreshold")? {
        None => 0.0,
        Some(t) => number_in(t, 0.0, 1.0, &root.field_path("scoreThreshold"))? as f32,
    };
    let filter = match root.opt_object("filter")? {
        None => SearchFilter::default(),
        Some(filter) => parse_filter(&filter)?,
    };
    let asked = crate::text::question::focus(query);
    Ok(SearchRequest {
        query: query.to_string(),
        asked,
        page_size: page_size as usize,
        score_threshold,
        filter,
    })
}

fn parse_filter(filter: &Obj) -> Result<SearchFilter, FieldError> {
    let label = |key: &str| {
        Ok::<_, FieldError>(
            filter
                .opt_str_max(key, MAX_LABEL_CHARS)?
                .map(str::to_string),
        )
    };
    Ok(SearchFilter {
        version: label("version")?,
        language: label("language")?,
        tag: label("tag")?,
        groups: groups(filter)?,
    })
}

/// A filter's `groups`: access groups, at most [`MAX_FILTER_GROUPS`] of at most [`MAX_LABEL_CHARS`]
/// characters; absent or null is none. The rule of every request that filters by group.
pub fn groups(filter: &Obj) -> Result<Vec<String>, FieldError> {
    let groups = filter.opt_str_list("groups", MAX_FILTER_GROUPS, MAX_LABEL_CHARS)?;
    Ok(groups.into_iter().map(str::to_string).collect())
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

const PAGE_FORMATS: [&str; 2] = ["text", "markdown"];

pub fn parse_page_request(body: &Value) -> Result<PageRequest, FieldError> {
    let root = object(body, &Path::root())?;
    let path = root.req_str_max("path", MAX_PATH_CHARS)?;
    groups(&root)?;
    let format = match root.opt_str("format")? {
        None => PageFormat::Text,
        Some(format) => match one_of(format, &PAGE_FORMATS, &root.field_path("format"))? {
            "markdown" => PageFormat::Markdown,
            _ => PageFormat::Text,
        },
    };
    Ok(PageRequest {
        path: path.to_string(),
        format,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn search_error(body: Value) -> String {
        parse_search_request(&body).unwrap_err().to_string()
    }

    #[test]
    fn a_long_question_is_searched_for_what_it_asks() {
        let pasted = "We moved our docs to a new host last week and set everything up the same way as before, \
            with the same CI job and the same secrets. The bundle link in the email now returns 403 after a while. \
            How long is the bundle link valid?";
        let r = parse_search_request(&json!({"query": pasted})).unwrap();
        assert_eq!(r.query, pasted, "the query as sent");
        assert!(
            r.asked.starts_with("How long is the bundle link valid?")
                && !r.asked.contains("secrets"),
            "{}",
            r.asked
        );
        let keywords = parse_search_request(&json!({"query": "bundle link expiry"})).unwrap();
        assert_eq!(keywords.asked, "bundle link expiry");
    }

    #[test]
    fn search_bodies_and_their_errors() {
        let r = parse_search_request(&json!({"query": "keys", "pageSize": 5.0, "filter": {"language": "en", "groups": ["a"]}})).unwrap();
        assert_eq!(
            (
                r.page_size,
                r.filter.language.as_deref(),
                r.filter.groups.len()
            ),
            (5, Some("en"), 1)
        );
        let defaults =
            parse_search_request(&json!({"query": "k", "pageSize": null, "filter": null})).unwrap();
        assert_eq!(
            (
                defaults.page_size,
                defaults.score_threshold,
                defaults.filter
            ),
            (10, 0.0, SearchFilter::default())
        );
        assert_eq!(search_error(json!({})), "query: is required");
        assert_eq!(
            search_error(json!({"query": " "})),
            "query: must not be empty"
        );
        assert_eq!(
            search_error(json!({"query": "x".repeat(1001)})),
            "query: must be at most 1000 characters"
        );
        assert_eq!(
            search_error(json!({"query": "x", "pageSize": 51})),
            "pageSize: must be an integer from 1 to 50"
        );
        assert_eq!(
            search_error(json!({"query": "x", "pageSize": 2.5})),
            "pageSize: must be an integer from 1 to 50"
        );
        assert_eq!(
            search_error(json!({"query": "x", "scoreThreshold": 2})),
            "scoreThreshold: must be a number from 0 to 1"
        );
        assert_eq!(
            search_error(json!({"query": "x", "filter": []})),
            "filter: must be an object"
        );
        assert_eq!(
            search_error(json!({"query": "x", "filter": {"tag": 1}})),
            "filter.tag: must be a string"
        );
        assert_eq!(
            search_error(json!({"query": "x", "filter": {"groups": [1]}})),
            "filter.groups[0]: must be a string"
        );
        assert_eq!(
            search_error(json!({"query": "x", "filter": {"groups": "a"}})),
            "filter.groups: must be an array"
        );
    }

    #[test]
    fn search_filter_labels_are_capped() {
        let long = "v".repeat(MAX_LABEL_CHARS + 1);
        for key in ["version", "language", "tag"] {
            let error = search_error(json!({"query": "x", "filter": {key: long}}));
            assert_eq!(
                error,
                format!("filter.{key}: must be at most 200 characters")
            );
        }
        let at_cap = "v".repeat(MAX_LABEL_CHARS);
        assert!(parse_search_request(&json!({"query": "x", "filter": {"tag": at_cap}})).is_ok());
    }

    #[test]
    fn search_groups_are_capped_as_the_assistants_are() {
        let many: Vec<String> = (0..=MAX_FILTER_GROUPS).map(|i| i.to_string()).collect();
        assert_eq!(
            search_error(json!({"query": "x", "filter": {"groups": many}})),
            "filter.groups: must have at most 50 items"
        );
        let long = "g".repeat(MAX_LABEL_CHARS + 1);
        assert_eq!(
            search_error(json!({"query": "x", "filter": {"groups": ["a", long]}})),
            "filter.groups[1]: must be at most 200 characters"
        );
        let assistant = crate::assistant::request::parse_v2(&json!({
            "fp": "f", "messages": [{"id": "m", "role": "user", "parts": [{"type": "text", "text": "hi"}]}],
            "filter": {"groups": (0..=MAX_FILTER_GROUPS).map(|i| i.to_string()).collect::<Vec<_>>()}
        }));
        assert_eq!(
            assistant.unwrap_err().to_string(),
            "filter.groups: must have at most 50 items"
        );
    }

    #[test]
    fn page_bodies_and_their_errors() {
        assert_eq!(
            parse_page_request(&json!({"path": "a/b"})).unwrap(),
            PageRequest {
                path: "a/b".into(),
                format: PageFormat::Text
            }
        );
        assert_eq!(
            parse_page_request(&json!({"path": "a", "format": "markdown"}))
                .unwrap()
                .format,
            PageFormat::Markdown
        );
        let error = |body: Value| parse_page_request(&body).unwrap_err().to_string();
        assert_eq!(
            error(json!({"path": "a", "format": "html"})),
            "format: must be one of text, markdown"
        );
        assert_eq!(
            error(json!({"path": "a", "groups": "x"})),
            "groups: must be an array"
        );
        assert_eq!(
            error(json!({"path": "p".repeat(501)})),
            "path: must be at most 500 characters"
        );
        assert_eq!(error(json!([])), "body: must be an object");
    }
}
