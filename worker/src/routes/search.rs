//! `POST /discovery/v1/search/{domain}` and `POST /discovery/v1/page/{domain}`: search the live docs and
//! read one page. Shapes as the hosted service's discovery OpenAPI document.

use docs_edge_core::search::Query;
use docs_edge_core::wire::{PageContent, SearchFilter, SearchMetadata, SearchResult};
use serde_json::Value;
use worker::Response;

use crate::app::Call;
use crate::error::{ApiError, ApiResult};
use crate::http::{json_response, optional_string, read_json_object, required_string};
use crate::routes::discovery::authorize;
use crate::agent_docs;
use crate::sites::{self, live_index};

const MAX_QUERY_CHARS: usize = 1_000;
const MAX_PATH_CHARS: usize = 500;

struct SearchRequest {
    query: String,
    page_size: usize,
    score_threshold: f32,
    filter: SearchFilter,
}

fn parse_search(body: &Value) -> ApiResult<SearchRequest> {
    let query = required_string(body, "query")?;
    if query.trim().is_empty() {
        return Err(ApiError::Invalid("query: must not be empty".into()));
    }
    if query.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::Invalid(format!("query: must be at most {MAX_QUERY_CHARS} characters")));
    }
    let page_size = match body.get("pageSize") {
        None | Some(Value::Null) => 10,
        // A whole number, as JSON Schema's `integer` means it: `5.0` counts, as in the assistant's rules.
        Some(v) => match v.as_f64() {
            Some(n) if n.fract() == 0.0 && (1.0..=50.0).contains(&n) => n as usize,
            _ => return Err(ApiError::Invalid("pageSize: must be an integer from 1 to 50".into())),
        },
    };
    let score_threshold = match body.get("scoreThreshold") {
        None | Some(Value::Null) => 0.0,
        Some(v) => match v.as_f64() {
            Some(t) if (0.0..=1.0).contains(&t) => t as f32,
            _ => return Err(ApiError::Invalid("scoreThreshold: must be a number from 0 to 1".into())),
        },
    };
    let filter = match body.get("filter") {
        None | Some(Value::Null) => SearchFilter::default(),
        Some(filter @ Value::Object(_)) => parse_filter(filter, "filter")?,
        Some(_) => return Err(ApiError::Invalid("filter: must be an object".into())),
    };
    Ok(SearchRequest { query, page_size, score_threshold, filter })
}

pub fn parse_filter(filter: &Value, path: &str) -> ApiResult<SearchFilter> {
    let field = |name: &str| {
        optional_string(filter, name).map_err(|_| ApiError::Invalid(format!("{path}.{name}: must be a string")))
    };
    let groups = groups(filter.get("groups"), &format!("{path}.groups"))?;
    Ok(SearchFilter { version: field("version")?, language: field("language")?, tag: field("tag")?, groups })
}

/// Optional `groups`: absent or null is none; otherwise an array of strings, or a 400 naming `path`.
fn groups(value: Option<&Value>, path: &str) -> ApiResult<Vec<String>> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                item.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| ApiError::Invalid(format!("{path}[{i}]: must be a string")))
            })
            .collect(),
        Some(_) => Err(ApiError::Invalid(format!("{path}: must be an array of strings"))),
    }
}

pub async fn search(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let request = parse_search(&body)?;
    let (_, index) = live_index(&call.env, &caller.domain).await?;
    let query = Query {
        text: &request.query,
        limit: request.page_size,
        score_threshold: request.score_threshold,
        language: request.filter.language.as_deref(),
        version: request.filter.version.as_deref(),
        tag: request.filter.tag.as_deref(),
        // Search's `groups` are access groups (who may see a page), not navigation groups; sites here
        // have no access control, so every page is public and the field restricts nothing.
        groups: &[],
        near_path: None,
    };
    let results: Vec<SearchResult> = index
        .search(&query)
        .into_iter()
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
        .collect();
    json_response(200, &results)
}

pub async fn page(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let path = required_string(&body, "path")?;
    if path.chars().count() > MAX_PATH_CHARS {
        return Err(ApiError::Invalid(format!("path: must be at most {MAX_PATH_CHARS} characters")));
    }
    // Accepted for compatibility and checked like search's: no page here is restricted to groups.
    groups(body.get("groups"), "groups")?;
    let markdown = match optional_string(&body, "format")?.as_deref() {
        None | Some("text") => false,
        Some("markdown") => true,
        Some(_) => return Err(ApiError::Invalid("format: must be \"text\" or \"markdown\"".into())),
    };
    let (version, index) = live_index(&call.env, &caller.domain).await?;
    let doc = index.page(&path).ok_or_else(|| ApiError::NotFound(format!("page {path} not found")))?;
    let content = if markdown {
        let limits = call.config.archive_limits();
        agent_docs::page_markdown(&sites::bucket(&call.env)?, &caller.domain, &version.publish_id, &doc.path, &limits)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("page {path} has no Markdown rendering")))?
    } else {
        doc.text
    };
    json_response(200, &PageContent { path: doc.path, content })
}
