//! Pages generated from OpenAPI operations, as Mintlify generates them: a navigation entry
//! `"GET /users/{id}"` (or `"openapi/spec.json GET /users"`) names one operation, and a division
//! with an `openapi` spec and no pages of its own gets one page per operation, grouped by tag.
//!
//! A generated page sits at `{language}/{directory}/{tag}/{slug}` (Mintlify's rule: `directory`
//! from the `openapi` object, default `api-reference`; the operation's first tag; the summary, or
//! the method and path, made URL-safe; `x-mint.href` replaces all of it). Its text is Markdown
//! written from the operation (parameters, request body, responses), read like any page, so
//! search and `llms-full.txt` hold it; its `openapi` names the operation, so the export renders
//! the reference section as for a page with `openapi:` frontmatter.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use serde_json::{Map, Value};

use super::archive::SourceTree;
use super::nav::Endpoint;

pub const METHODS: [&str; 8] = [
    "get", "post", "put", "patch", "delete", "head", "options", "trace",
];
/// Mintlify's folder for generated pages when `openapi` names none.
pub const DEFAULT_DIRECTORY: &str = "api-reference";
/// Where publish-docs writes `{url: path}` for the remote specs it downloaded into the upload.
pub const REMOTE_MANIFEST: &str = ".docs-edge/remote.json";
/// Group of the operations without a tag, in a section generated from a whole spec.
const UNTAGGED_GROUP: &str = "API Reference";
/// Specs larger than this are not parsed.
pub const MAX_SPEC_BYTES: usize = 8 * 1024 * 1024;
/// Deepest schema nesting written as text.
const MAX_SCHEMA_DEPTH: usize = 4;
/// Longest `$ref` chain followed.
const MAX_REF_HOPS: usize = 16;
/// Fields written for one operation, so a huge schema stays a readable page.
const MAX_ROWS: usize = 400;

/// Anchors of an endpoint page's reference parts, as the export renders them: the sections a page
/// gets from its operation link there.
pub const PARAMETERS_ANCHOR: &str = "api-parameters";
pub const REQUEST_BODY_ANCHOR: &str = "api-request-body";
pub const RESPONSES_ANCHOR: &str = "api-responses";

/// Reads a navigation entry naming an operation: `"POST /users"`, `"spec.yaml GET /users"`,
/// `"webhook order.created"`. Anything else (a page path) is `None`.
pub fn parse_entry(entry: &str) -> Option<Endpoint> {
    let mut words = entry.split_whitespace().peekable();
    let first = *words.peek()?;
    let spec = if is_method(first) {
        None
    } else {
        let spec = words.next()?;
        if !looks_like_spec(spec) {
            return None;
        }
        Some(spec.trim_start_matches('/').to_owned())
    };
    let method = words.next().filter(|m| is_method(m))?.to_ascii_uppercase();
    let path = words.collect::<Vec<_>>().join(" ");
    if path.is_empty() || (method != "WEBHOOK" && !path.starts_with('/')) {
        return None;
    }
    Some(Endpoint { spec, method, path })
}

fn is_method(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    METHODS.contains(&lower.as_str()) || lower == "webhook"
}

fn looks_like_spec(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    [".json", ".yaml", ".yml"]
        .iter()
        .any(|e| lower.ends_with(e))
        || is_remote(word)
}

pub fn is_remote(source: &str) -> bool {
    let lower = source.trim().to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// A spec file: JSON, or YAML within the alias bound.
pub fn parse_spec(path: &str, bytes: &[u8]) -> Option<Value> {
    if bytes.len() > MAX_SPEC_BYTES {
        return None;
    }
    let doc = if path.to_ascii_lowercase().ends_with(".json") {
        serde_json::from_slice(bytes).ok()?
    } else {
        let text = std::str::from_utf8(bytes).ok()?;
        super::yaml_budget::check_alias_expansion(text).ok()?;
        let docs = yaml_rust2::YamlLoader::load_from_str(text).ok()?;
        super::frontmatter::to_json(docs.into_iter().next()?)
    };
    (doc.get("paths").is_some() || doc.get("webhooks").is_some()).then_some(doc)
}

/// Follows `$ref` (`#/components/...`) within the document; other refs are left as they are.
pub fn resolve<'v>(doc: &'v Value, mut value: &'v Value) -> &'v Value {
    for _ in 0..MAX_REF_HOPS {
        let Some(pointer) = value.get("$ref").and_then(Value::as_str) else {
            return value;
        };
        let Some(target) = pointer.strip_prefix('#').and_then(|p| doc.pointer(p)) else {
            return value;
        };
        value = target;
    }
    value
}

fn str_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// One operation of a spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// Uppercase, or `WEBHOOK`.
    pub method: String,
    /// The path, or the webhook's name.
    pub path: String,
    pub summary: Option<String>,
    pub description: Option<String>,
    /// First tag's name.
    pub tag: Option<String>,
    /// `x-hidden` or `x-excluded`: left out of a section generated from the whole spec.
    pub hidden: bool,
    /// `x-mint.href`.
    pub href: Option<String>,
    /// `x-mint.metadata`: frontmatter for the page (`title`, `sidebarTitle`, ...).
    pub metadata: Map<String, Value>,
    /// `x-mint.content`: MDX shown before the reference.
    pub content: Option<String>,
}

impl Operation {
    /// `"spec.json POST /users"`: the page's `openapi`, as frontmatter writes it.
    pub fn target(&self, spec: &str) -> String {
        format!("{spec} {} {}", self.method, self.path)
    }

    /// The page title: `x-mint.metadata.title`, the summary, else the method and path.
    pub fn title(&self) -> String {
        let title = self
            .metadata
            .get("title")
            .and_then(Value::as_str)
            .map(str::to_owned);
        title
            .or_else(|| self.summary.clone())
            .unwrap_or_else(|| format!("{} {}", self.method, self.path))
    }

    /// The last part of the page path: the summary made URL-safe, else `get-users-posts` for
    /// `GET /users/{id}/posts`.
    pub fn slug(&self) -> String {
        let from_summary = self
            .summary
            .as_deref()
            .map(url_part)
            .filter(|s| !s.is_empty());
        from_summary.unwrap_or_else(|| {
            let mut words = vec![self.method.to_ascii_lowercase()];
            words.extend(
                self.path
                    .split('/')
                    .filter(|s| !s.is_empty() && !s.starts_with('{'))
                    .map(url_part),
            );
            words.retain(|w| !w.is_empty());
            words.join("-")
        })
    }
}

/// Mintlify's conversion of a summary or tag to a URL part: spaces to hyphens, `{}(),.'/` removed,
/// lowercase, a run of hyphens made one (`"Get a / b"` is `get-a-b`, as Mintlify publishes it).
/// Characters Mintlify keeps that a page path may not hold (`?`, `#`, `:`, `\`, control
/// characters) are removed too.
pub fn url_part(text: &str) -> String {
    let mut out = String::new();
    for c in text.trim().chars() {
        match c {
            ' ' | '-' if out.ends_with('-') => {}
            ' ' => out.push('-'),
            '{' | '}' | '(' | ')' | ',' | '.' | '\'' | '/' | '?' | '#' | ':' | '\\' => {}
            c if c.is_control() => {}
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// Every operation of `doc`: paths first (path, then method order), then webhooks, ordered as
/// the document lists them when `text` (its JSON) is given, else by path.
pub fn operations(doc: &Value, text: Option<&str>) -> Vec<Operation> {
    let mut out = Vec::new();
    let mut paths: Vec<(&String, &Value)> = doc
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .collect();
    if let Some(text) = text {
        crate::sort::sort_by_key(&mut paths, |(path, _)| {
            super::keys::offset_of_key(text, path).unwrap_or(usize::MAX)
        });
    }
    for (path, item) in paths {
        let item = resolve(doc, item);
        for method in METHODS {
            if let Some(op) = item.get(method) {
                out.push(operation(
                    doc,
                    resolve(doc, op),
                    method.to_ascii_uppercase(),
                    path,
                ));
            }
        }
    }
    for (name, item) in doc
        .get("webhooks")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let item = resolve(doc, item);
        if let Some(op) = METHODS.iter().find_map(|m| item.get(*m)) {
            out.push(operation(doc, resolve(doc, op), "WEBHOOK".to_owned(), name));
        }
    }
    out
}

fn operation(_doc: &Value, op: &Value, method: String, path: &str) -> Operation {
    let flag = |key: &str| op.get(key).and_then(Value::as_bool).unwrap_or(false);
    let mint = op.get("x-mint");
    Operation {
        method,
        path: path.to_owned(),
        summary: str_of(op, "summary").map(|s| s.trim().to_owned()),
        description: str_of(op, "description").map(str::to_owned),
        tag: op
            .get("tags")
            .and_then(|t| t.get(0))
            .and_then(Value::as_str)
            .map(str::to_owned),
        hidden: flag("x-hidden") || flag("x-excluded"),
        href: mint
            .and_then(|m| m.get("href"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        metadata: mint
            .and_then(|m| m.get("metadata"))
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
        content: mint
            .and_then(|m| m.get("content"))
            .and_then(Value::as_str)
            .map(str::to_owned),
    }
}

/// The operation `method path` of `doc`, as [`operations`] lists it.
pub fn find_operation(doc: &Value, method: &str, path: &str) -> Option<Operation> {
    let lower = method.to_ascii_lowercase();
    if lower == "webhook" {
        let item = resolve(doc, doc.get("webhooks")?.get(path)?);
        let op = METHODS.iter().find_map(|m| item.get(*m))?;
        return Some(operation(doc, resolve(doc, op), "WEBHOOK".to_owned(), path));
    }
    let item = resolve(doc, doc.get("paths")?.get(path)?);
    let op = resolve(doc, item.get(lower.as_str())?);
    Some(operation(doc, op, method.to_ascii_uppercase(), path))
}

/// The label of a tag's group: `x-group`, else `x-displayName`, else its name.
pub fn tag_label(doc: &Value, tag: &str) -> String {
    let declared = doc
        .get("tags")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    declared
        .filter(|t| str_of(t, "name") == Some(tag))
        .find_map(|t| str_of(t, "x-group").or_else(|| str_of(t, "x-displayName")))
        .unwrap_or(tag)
        .to_owned()
}

/// Tags in the order the spec declares them, then the ones only operations name.
pub fn tag_order(doc: &Value, ops: &[Operation]) -> Vec<Option<String>> {
    let mut order: Vec<Option<String>> = Vec::new();
    let declared = doc
        .get("tags")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    for name in declared.filter_map(|t| str_of(t, "name")) {
        if ops.iter().any(|op| op.tag.as_deref() == Some(name))
            && !order.contains(&Some(name.to_owned()))
        {
            order.push(Some(name.to_owned()));
        }
    }
    for op in ops {
        if !order.contains(&op.tag) {
            order.push(op.tag.clone());
        }
    }
    order
}

/// The label of the group of untagged operations.
pub fn group_label(doc: &Value, tag: Option<&str>) -> String {
    tag.map_or_else(|| UNTAGGED_GROUP.to_owned(), |tag| tag_label(doc, tag))
}

/// The page path of `op`: `prefix` is the language folder (`en/`, or empty).
pub fn page_path(op: &Operation, prefix: &str, directory: Option<&str>) -> String {
    if let Some(href) = op.href.as_deref().and_then(href_path) {
        return href;
    }
    let directory = directory
        .map(|d| d.trim().trim_matches('/').to_lowercase())
        .filter(|d| !d.is_empty());
    let mut parts = vec![directory.unwrap_or_else(|| DEFAULT_DIRECTORY.to_owned())];
    parts.extend(op.tag.as_deref().map(url_part).filter(|t| !t.is_empty()));
    parts.push(op.slug());
    format!("{prefix}{}", parts.join("/"))
}

/// `x-mint.href` as a page path: lowercase, what follows the last `.` of its last segment dropped.
fn href_path(href: &str) -> Option<String> {
    let lower = href.trim().trim_matches('/').to_lowercase();
    let (head, last) = lower
        .rsplit_once('/')
        .map_or(("", lower.as_str()), |(h, l)| (h, l));
    let last = last.rsplit_once('.').map_or(last, |(stem, _)| stem);
    let path = if head.is_empty() {
        last.to_owned()
    } else {
        format!("{head}/{last}")
    };
    (!path.is_empty() && super::page_path::page_path_problem(&path).is_none()).then_some(path)
}

/// The manifest publish-docs writes for the remote specs it downloaded: `{url: path in the tree}`.
pub fn remote_manifest(tree: &SourceTree) -> HashMap<String, String> {
    let parsed = tree
        .get(REMOTE_MANIFEST)
        .and_then(|b| serde_json::from_slice::<Map<String, Value>>(b).ok());
    parsed
        .into_iter()
        .flatten()
        .filter_map(|(url, path)| Some((url, path.as_str()?.trim_start_matches('/').to_owned())))
        .collect()
}

/// Specs of a tree, each parsed once (`None`: missing or not a spec).
pub struct Specs<'t> {
    tree: &'t SourceTree,
    parsed: BTreeMap<String, Option<Rc<Value>>>,
}

impl<'t> Specs<'t> {
    pub fn new(tree: &'t SourceTree) -> Self {
        Specs {
            tree,
            parsed: BTreeMap::new(),
        }
    }

    pub fn tree(&self) -> &'t SourceTree {
        self.tree
    }

    pub fn get(&mut self, path: &str) -> Option<Rc<Value>> {
        if let Some(parsed) = self.parsed.get(path) {
            return parsed.clone();
        }
        let parsed = self
            .tree
            .get(path)
            .and_then(|bytes| parse_spec(path, bytes))
            .map(Rc::new);
        self.parsed.insert(path.to_owned(), parsed.clone());
        parsed
    }

    /// The spec's JSON text, to order its operations as written.
    pub fn text(&self, path: &str) -> Option<&'t str> {
        path.to_ascii_lowercase()
            .ends_with(".json")
            .then(|| {
                self.tree
                    .get(path)
                    .and_then(|b| std::str::from_utf8(b).ok())
            })
            .flatten()
    }
}

/// The MDX source of the page generated from `target` (`"spec.json GET /x"`), for a page whose
/// source is the spec: frontmatter (title, description, openapi) and the operation as Markdown.
pub fn page_source(specs: &mut Specs<'_>, target: &str) -> Option<String> {
    let endpoint = parse_entry(target)?;
    let spec = endpoint.spec.as_deref()?;
    let doc = specs.get(spec)?;
    let op = find_operation(&doc, &endpoint.method, &endpoint.path)?;
    Some(source_of(&doc, &op, target))
}

fn source_of(doc: &Value, op: &Operation, target: &str) -> String {
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut out = format!("---\ntitle: {}\n", quote(&op.title()));
    let description = op
        .metadata
        .get("description")
        .and_then(Value::as_str)
        .or(op.description.as_deref());
    if let Some(description) = description {
        out.push_str(&format!("description: {}\n", quote(description.trim())));
    }
    out.push_str(&format!("openapi: {}\n", quote(target)));
    // Other frontmatter `x-mint.metadata` sets (`sidebarTitle`, `hidden`, ...), as JSON scalars
    // (which YAML reads as they are) under plain keys.
    let plain = |k: &str| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    for (key, value) in op
        .metadata
        .iter()
        .filter(|(k, _)| plain(k) && !["title", "description", "openapi"].contains(&k.as_str()))
    {
        if matches!(value, Value::String(_) | Value::Bool(_) | Value::Number(_)) {
            out.push_str(&format!("{key}: {value}\n"));
        }
    }
    out.push_str("---\n\n");
    if let Some(content) = &op.content {
        out.push_str(content.trim());
        out.push_str("\n\n");
    }
    let mut w = TextWriter {
        doc,
        out: &mut out,
        rows: 0,
    };
    w.operation(op);
    out
}

struct TextWriter<'w> {
    doc: &'w Value,
    out: &'w mut String,
    rows: usize,
}

/// `op` of `doc` as a rendered endpoint page shows it: endpoint, description, parameters, body and
/// responses, written as generated pages write them.
pub fn reference_text(doc: &Value, op: &Operation) -> String {
    let mut out = String::new();
    let mut w = TextWriter {
        doc,
        out: &mut out,
        rows: 0,
    };
    w.endpoint(op);
    w.prose(op.description.as_deref().or(op.summary.as_deref()));
    w.details(op);
    out
}

impl<'w> TextWriter<'w> {
    fn operation(&mut self, op: &Operation) {
        self.endpoint(op);
        self.details(op);
    }

    fn endpoint(&mut self, op: &Operation) {
        self.line(&format!("`{} {}`", op.method, op.path.replace('`', "")));
    }

    fn details(&mut self, op: &Operation) {
        let (item, raw) = match self.lookup(op) {
            Some(found) => found,
            None => return,
        };
        let mut params: Vec<&Value> = Vec::new();
        for list in [item.get("parameters"), raw.get("parameters")] {
            for p in list.and_then(Value::as_array).into_iter().flatten() {
                let p = resolve(self.doc, p);
                let key = (str_of(p, "name"), str_of(p, "in"));
                params.retain(|q| (str_of(q, "name"), str_of(q, "in")) != key);
                params.push(p);
            }
        }
        for location in ["path", "query", "header", "cookie"] {
            let here: Vec<&&Value> = params
                .iter()
                .filter(|p| str_of(p, "in") == Some(location))
                .collect();
            if here.is_empty() {
                continue;
            }
            self.heading(&format!(
                "{}{} parameters",
                location[..1].to_uppercase(),
                &location[1..]
            ));
            for p in here {
                let schema = p.get("schema").unwrap_or(&Value::Null);
                let description = str_of(p, "description")
                    .or_else(|| str_of(resolve(self.doc, schema), "description"));
                let required = p.get("required").and_then(Value::as_bool) == Some(true);
                self.field(
                    0,
                    str_of(p, "name").unwrap_or(""),
                    &type_text(self.doc, schema),
                    required,
                    description,
                );
            }
        }
        if let Some(body) = raw.get("requestBody") {
            let body = resolve(self.doc, body);
            self.heading("Request body");
            self.prose(str_of(body, "description"));
            self.content(body);
        }
        if let Some(responses) = raw.get("responses").and_then(Value::as_object) {
            self.heading("Responses");
            for (status, response) in responses {
                let response = resolve(self.doc, response);
                self.out.push_str(&format!("### {}\n\n", escape(status)));
                self.prose(str_of(response, "description"));
                self.content(response);
            }
        }
    }

    fn lookup<'d>(&self, op: &Operation) -> Option<(&'d Value, &'d Value)>
    where
        'w: 'd,
    {
        let doc: &'d Value = self.doc;
        if op.method == "WEBHOOK" {
            let item = resolve(doc, doc.get("webhooks")?.get(&op.path)?);
            return Some((
                item,
                resolve(doc, METHODS.iter().find_map(|m| item.get(*m))?),
            ));
        }
        let item = resolve(doc, doc.get("paths")?.get(&op.path)?);
        Some((
            item,
            resolve(doc, item.get(op.method.to_ascii_lowercase().as_str())?),
        ))
    }

    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push_str("\n\n");
    }

    fn heading(&mut self, text: &str) {
        self.out.push_str(&format!("## {text}\n\n"));
    }

    fn prose(&mut self, text: Option<&str>) {
        if let Some(text) = text {
            self.line(&escape(text.trim()));
        }
    }

    fn content(&mut self, holder: &Value) {
        let Some(content) = holder.get("content").and_then(Value::as_object) else {
            return;
        };
        let chosen = content
            .get_key_value("application/json")
            .or_else(|| content.iter().next());
        let Some((media, body)) = chosen else { return };
        self.line(&format!("`{}`", media.replace('`', "")));
        if let Some(schema) = body.get("schema") {
            self.schema(schema, 0);
            self.out.push('\n');
        }
    }

    fn schema(&mut self, schema: &Value, depth: usize) {
        let doc = self.doc;
        let schema = resolve(doc, schema);
        let (properties, required) = properties(doc, schema, 0);
        for (name, prop) in &properties {
            if self.rows >= MAX_ROWS {
                return;
            }
            let resolved = resolve(doc, prop);
            let description =
                str_of(prop, "description").or_else(|| str_of(resolved, "description"));
            self.field(
                depth,
                name,
                &type_text(doc, prop),
                required.contains(name),
                description,
            );
            let nested = resolve(doc, resolved.get("items").unwrap_or(resolved));
            if depth + 1 < MAX_SCHEMA_DEPTH && nested != schema {
                self.schema(nested, depth + 1);
            }
        }
        if properties.is_empty() && depth < MAX_SCHEMA_DEPTH {
            if let Some(items) = schema.get("items") {
                self.schema(items, depth + 1);
            }
            for key in ["oneOf", "anyOf"] {
                for variant in schema
                    .get(key)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .take(8)
                {
                    self.schema(variant, depth + 1);
                }
            }
        }
    }

    fn field(
        &mut self,
        depth: usize,
        name: &str,
        kind: &str,
        required: bool,
        description: Option<&str>,
    ) {
        self.rows += 1;
        let indent = "  ".repeat(depth);
        let required = if required { ", required" } else { "" };
        let mut line = format!(
            "{indent}- `{}` ({}{required})",
            name.replace('`', ""),
            escape(kind)
        );
        if let Some(description) = description {
            line.push_str(": ");
            line.push_str(&escape(
                &description.split_whitespace().collect::<Vec<_>>().join(" "),
            ));
        }
        self.out.push_str(&line);
        self.out.push('\n');
    }
}

/// Text from a spec made inert for MDX: `<` and `{` would open JSX or an expression, so they are
/// written as character references, which the Markdown reader turns back into the characters.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '{' => out.push_str("&#123;"),
            '}' => out.push_str("&#125;"),
            c => out.push(c),
        }
    }
    out
}

/// Properties and required names of an object schema, `allOf` parts merged (the export's reference
/// section lists the same).
pub(crate) fn properties(
    doc: &Value,
    schema: &Value,
    depth: usize,
) -> (Vec<(String, Value)>, Vec<String>) {
    let schema = resolve(doc, schema);
    let mut props: Vec<(String, Value)> = Vec::new();
    let mut required: Vec<String> = Vec::new();
    if depth > MAX_SCHEMA_DEPTH {
        return (props, required);
    }
    for part in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (p, r) = properties(doc, part, depth + 1);
        for (name, value) in p {
            props.retain(|(n, _)| *n != name);
            props.push((name, value));
        }
        required.extend(r);
    }
    for (name, value) in schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        props.retain(|(n, _)| n != name);
        props.push((name.clone(), value.clone()));
    }
    let names = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    required.extend(names.filter_map(Value::as_str).map(str::to_owned));
    (props, required)
}

/// `string`, `integer`, `array of Job`, `Job` (a `$ref` by name).
fn type_text(doc: &Value, schema: &Value) -> String {
    if let Some(name) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
    {
        return name.to_owned();
    }
    let schema = resolve(doc, schema);
    match schema.get("type") {
        Some(Value::String(t)) if t == "array" => {
            format!(
                "array of {}",
                schema
                    .get("items")
                    .map_or_else(|| "any".to_owned(), |i| type_text(doc, i))
            )
        }
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" | "),
        _ if schema.get("properties").is_some() => "object".to_owned(),
        _ => "any".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_naming_operations_parse_and_page_paths_do_not() {
        let e = parse_entry("GET /users/{id}").unwrap();
        assert_eq!(
            (e.spec, e.method.as_str(), e.path.as_str()),
            (None, "GET", "/users/{id}")
        );
        let e = parse_entry("/openapi/spec.json post /users").unwrap();
        assert_eq!(
            (e.spec.as_deref(), e.method.as_str()),
            (Some("openapi/spec.json"), "POST")
        );
        assert_eq!(
            parse_entry("webhook order.created").unwrap().path,
            "order.created"
        );
        for page in [
            "get-started",
            "guides/get users",
            "GET",
            "spec.json GET",
            "GET users",
            "notes.md GET /x",
        ] {
            assert_eq!(parse_entry(page), None, "{page}");
        }
    }

    #[test]
    fn slugs_follow_mintlifys_conversion() {
        let op = |summary: Option<&str>, method: &str, path: &str| Operation {
            method: method.into(),
            path: path.into(),
            summary: summary.map(str::to_owned),
            description: None,
            tag: Some("User Management".into()),
            hidden: false,
            href: None,
            metadata: Map::new(),
            content: None,
        };
        assert_eq!(
            op(Some("Get user (v2), fast."), "GET", "/u").slug(),
            "get-user-v2-fast"
        );
        assert_eq!(
            op(Some("Retrieve Chunks / Test"), "GET", "/u").slug(),
            "retrieve-chunks-test"
        );
        assert_eq!(
            op(None, "GET", "/users/{id}/posts").slug(),
            "get-users-posts"
        );
        assert_eq!(
            page_path(&op(Some("Get user"), "GET", "/u"), "", None),
            "api-reference/user-management/get-user"
        );
        assert_eq!(
            page_path(
                &op(Some("Get user"), "GET", "/u"),
                "en/",
                Some("/Users-API/")
            ),
            "en/users-api/user-management/get-user"
        );
        let mut moved = op(Some("Legacy"), "GET", "/u");
        moved.href = Some("/Deprecated/legacy.v1".into());
        assert_eq!(page_path(&moved, "en/", None), "deprecated/legacy");
    }
}
