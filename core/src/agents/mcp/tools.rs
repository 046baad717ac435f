//! The three tools: their definitions (JSON Schema in, and out from 2025-06-18), reading their
//! arguments, and writing their results as text (Markdown) and structured content.

use serde_json::{json, Map, Value};

use super::server::ServerInfo;
use crate::agents::markdown::{code_span, destination, escape};
use crate::http::validate::{integer_in, max_chars, not_blank, object, FieldError, Obj, Path};
use crate::search::api::{MAX_PATH_CHARS, MAX_QUERY_CHARS};
use crate::search::normalize_path;

const MAX_QUESTION_CHARS: usize = 2_000;
const MAX_LIMIT: u32 = 20;
const DEFAULT_LIMIT: usize = 5;
/// Excerpts are cut here: enough to judge a hit, while `get_page` gives the whole page.
const EXCERPT_CHARS: usize = 700;

/// A validated tool call for the caller to run.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolCall {
    Search(SearchArgs),
    GetPage(GetPageArgs),
    Ask(AskArgs),
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchArgs {
    pub query: String,
    pub language: Option<String>,
    pub version: Option<String>,
    pub limit: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GetPageArgs {
    /// Site path as the index stores it (`api/overview`, `index`).
    pub path: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AskArgs {
    pub question: String,
    pub language: Option<String>,
    pub version: Option<String>,
}

/// How a tool call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolOutcome {
    Search(SearchOutput),
    Page(PageOutput),
    Ask(AskOutput),
    /// The tool could not do it (page not found, nothing published, a backend failed): an
    /// `isError` result whose text the model reads.
    Failed(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchOutput {
    pub query: String,
    pub results: Vec<SearchItem>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchItem {
    pub title: String,
    pub heading: Option<String>,
    /// The section's address on the live site (`…/page#anchor`).
    pub url: String,
    /// For `get_page`.
    pub path: String,
    pub excerpt: String,
    pub score: f32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PageOutput {
    pub path: String,
    pub markdown: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AskOutput {
    pub answer: String,
    /// `(title, url)` of each page the answer used, in the order first cited.
    pub sources: Vec<(String, String)>,
}

/// Argument problems: a protocol error (-32602) or, from 2025-11-25, a tool error the model can
/// correct (the revision's rule for input validation).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ArgError {
    Protocol(String),
    Tool(String),
}

fn has_structured_output(version: &str) -> bool {
    version >= "2025-06-18"
}

/// The tool definitions; `{site}` and `{domain}` in their texts name the site. The limits in the
/// schemas are the ones `read_call` enforces (a test holds them together).
const DEFINITIONS: &str = include_str!("tools.json");

pub(crate) fn definitions(version: &str, server: &ServerInfo<'_>) -> Value {
    let site = if server.site_name.trim().is_empty() {
        server.domain
    } else {
        server.site_name.trim()
    };
    let mut tools: Value =
        serde_json::from_slice(DEFINITIONS.as_bytes()).unwrap_or_else(|_| Value::Array(Vec::new()));
    fill(&mut tools, &[("{site}", site), ("{domain}", server.domain)]);
    if let Some(list) = tools.as_array_mut() {
        list.retain(|tool| {
            tool.get("name")
                .and_then(Value::as_str)
                .is_some_and(|name| tool_enabled(name, server))
        });
        for tool in list.iter_mut().filter_map(Value::as_object_mut) {
            if !has_structured_output(version) {
                // `title` and `outputSchema` arrived in 2025-06-18.
                tool.remove("title");
                tool.remove("outputSchema");
            }
        }
    }
    tools
}

fn fill(value: &mut Value, names: &[(&str, &str)]) {
    match value {
        Value::String(text) if text.contains('{') => {
            for (placeholder, name) in names {
                *text = text.replace(placeholder, name);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| fill(v, names)),
        Value::Object(fields) => fields.values_mut().for_each(|v| fill(v, names)),
        _ => {}
    }
}

/// Whether the deployment's switches offer the tool `name` (unknown names: true, so they get the
/// unknown-tool error). `search` and `get_page` read the search index (search); `ask` is the assistant.
pub(crate) fn tool_enabled(name: &str, server: &ServerInfo<'_>) -> bool {
    match name {
        "search" | "get_page" => server.search,
        "ask" => server.assistant,
        _ => true,
    }
}

/// The offered tools' names, for messages.
pub(crate) fn enabled_names(server: &ServerInfo<'_>) -> Vec<&'static str> {
    ["search", "get_page", "ask"]
        .into_iter()
        .filter(|name| tool_enabled(name, server))
        .collect()
}

pub(crate) fn read_call(
    params: Option<&Value>,
    version: &str,
    server: &ServerInfo<'_>,
) -> Result<ToolCall, ArgError> {
    let name = params
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
        .ok_or_else(|| ArgError::Protocol("`name` (a string) is required".into()))?;
    if !tool_enabled(name, server) {
        let feature = if name == "ask" { "assistant" } else { "search" };
        return Err(ArgError::Protocol(format!(
            "tool `{name}` is switched off on this deployment (feature `{feature}`); tools: {}",
            enabled_names(server).join(", ")
        )));
    }
    let empty = Value::Object(Map::new());
    let arguments = match params.and_then(|p| p.get("arguments")) {
        None | Some(Value::Null) => &empty,
        Some(a @ Value::Object(_)) => a,
        Some(_) => return Err(ArgError::Protocol("`arguments` must be an object".into())),
    };
    let arguments =
        object(arguments, &Path::root()).map_err(|e| ArgError::Protocol(e.to_string()))?;
    let read = || -> Result<ToolCall, FieldError> {
        Ok(match name {
            "search" => ToolCall::Search(SearchArgs {
                query: text(&arguments, "query", MAX_QUERY_CHARS)?,
                language: optional(&arguments, "language")?,
                version: optional(&arguments, "version")?,
                limit: limit(&arguments)?,
            }),
            "get_page" => {
                let raw = text(&arguments, "path", MAX_PATH_CHARS)?;
                ToolCall::GetPage(GetPageArgs {
                    path: page_path(&raw, server.domain),
                })
            }
            _ => ToolCall::Ask(AskArgs {
                question: text(&arguments, "question", MAX_QUESTION_CHARS)?,
                language: optional(&arguments, "language")?,
                version: optional(&arguments, "version")?,
            }),
        })
    };
    if !matches!(name, "search" | "get_page" | "ask") {
        return Err(ArgError::Protocol(format!(
            "unknown tool `{}` (tools: {})",
            name.chars().take(80).collect::<String>(),
            enabled_names(server).join(", ")
        )));
    }
    read().map_err(|err| {
        if version >= "2025-11-25" {
            ArgError::Tool(format!("Invalid arguments: {err}"))
        } else {
            ArgError::Protocol(err.to_string())
        }
    })
}

fn text(arguments: &Obj, field: &str, max: usize) -> Result<String, FieldError> {
    let value = arguments.req_str(field)?;
    let path = arguments.field_path(field);
    not_blank(value, &path)?;
    max_chars(value, max, &path)?;
    Ok(value.trim().to_owned())
}

/// A label an agent may leave out or blank; an over-long one is cut rather than refused.
fn optional(arguments: &Obj, field: &str) -> Result<Option<String>, FieldError> {
    let value = arguments
        .opt_str(field)?
        .map(str::trim)
        .filter(|s| !s.is_empty());
    Ok(value.map(|s| s.chars().take(100).collect()))
}

fn limit(arguments: &Obj) -> Result<usize, FieldError> {
    match arguments.opt_number("limit")? {
        None => Ok(DEFAULT_LIMIT),
        Some(n) => Ok(integer_in(n, 1, MAX_LIMIT, &arguments.field_path("limit"))? as usize),
    }
}

/// A page path from what an agent sends: the path, or the page's URL on the site.
fn page_path(raw: &str, domain: &str) -> String {
    let raw = raw.trim();
    let without_host = ["https://", "http://"]
        .iter()
        .find_map(|scheme| raw.strip_prefix(scheme)?.strip_prefix(domain))
        .unwrap_or(raw);
    normalize_path(without_host).to_owned()
}

pub(crate) fn error_result(message: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": message }], "isError": true })
}

pub(crate) fn call_result(outcome: ToolOutcome, version: &str) -> Value {
    let structured = has_structured_output(version);
    match outcome {
        ToolOutcome::Failed(message) => error_result(&message),
        ToolOutcome::Page(page) => {
            json!({ "content": [{ "type": "text", "text": page.markdown }] })
        }
        ToolOutcome::Search(output) => {
            let text = search_text(&output);
            let mut result = json!({ "content": [{ "type": "text", "text": text }] });
            if structured {
                let results: Vec<Value> = output
                    .results
                    .iter()
                    .map(|r| {
                        let mut item = json!({ "title": r.title, "url": r.url, "path": r.path, "excerpt": r.excerpt, "score": r.score });
                        if let Some(heading) = &r.heading {
                            item["heading"] = json!(heading);
                        }
                        item
                    })
                    .collect();
                result["structuredContent"] = json!({ "results": results });
            }
            result
        }
        ToolOutcome::Ask(output) => {
            let mut text = output.answer.trim().to_owned();
            if !output.sources.is_empty() {
                text.push_str("\n\nSources:\n");
                for (i, (title, url)) in output.sources.iter().enumerate() {
                    text.push_str(&format!(
                        "{}. [{}]({})\n",
                        i + 1,
                        escape::text(title),
                        destination(url)
                    ));
                }
            }
            let mut result = json!({ "content": [{ "type": "text", "text": text }] });
            if structured {
                let sources: Vec<Value> = output
                    .sources
                    .iter()
                    .map(|(title, url)| json!({ "title": title, "url": url }))
                    .collect();
                result["structuredContent"] =
                    json!({ "answer": output.answer, "sources": sources });
            }
            result
        }
    }
}

fn search_text(output: &SearchOutput) -> String {
    if output.results.is_empty() {
        return format!(
            "No results for \"{}\". Try other words or a broader query.",
            output.query
        );
    }
    let mut text = format!(
        "{} results for \"{}\", most relevant first:\n",
        output.results.len(),
        output.query
    );
    for (i, r) in output.results.iter().enumerate() {
        let title = match &r.heading {
            Some(heading) if !heading.is_empty() && *heading != r.title => {
                format!("{} › {}", r.title, heading)
            }
            _ => r.title.clone(),
        };
        text.push_str(&format!(
            "\n## {}. [{}]({})\npath: {}\n\n{}\n",
            i + 1,
            escape::text(&title),
            destination(&r.url),
            code_span(&r.path),
            r.excerpt.trim()
        ));
    }
    text
}

/// The first `EXCERPT_CHARS` characters of a section's text, cut at a word.
pub fn excerpt(text: &str) -> String {
    if text.chars().count() <= EXCERPT_CHARS {
        return text.trim().to_owned();
    }
    let cut: String = text.chars().take(EXCERPT_CHARS).collect();
    let at = cut.rfind(char::is_whitespace).unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end())
}
