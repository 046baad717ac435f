//! The reference section of pages with `openapi:` frontmatter, read from the OpenAPI document in the
//! uploaded tree: endpoint, description, parameters, request body and responses, `$ref`s resolved
//! within the document to a bounded depth. Which document holds the operation:
//! [`crate::docs::spec_lookup`].

use serde_json::Value;

use crate::docs::endpoint::{properties, PARAMETERS_ANCHOR, REQUEST_BODY_ANCHOR, RESPONSES_ANCHOR};
pub(crate) use crate::docs::spec_lookup::parse_target;
use crate::docs::spec_lookup::SpecLookup;
#[cfg(test)]
use crate::docs::spec_lookup::Target;
use crate::docs::SourceTree;

use crate::export::html::{self, attr, class_token, element, open};
use crate::export::reference::operation::{operation_spec, resolve, str_of};
use crate::export::reference::samples::{self, Sample};
use crate::export::render::code::Highlight;
use crate::export::render::links::Linker;
use crate::export::render::markdown::{render_fragment, Heading};

/// Deepest nesting of schema tables; deeper objects are named, not expanded.
const MAX_SCHEMA_DEPTH: usize = 4;
/// Rows written for one operation, so a huge or cyclic schema stays a readable page.
const MAX_ROWS: usize = 400;

/// Parsed OpenAPI documents of one render batch, each parsed once.
pub(crate) struct Specs<'t> {
    lookup: SpecLookup<'t>,
    /// Endpoint pages get a "Try it" panel (see `playground`).
    pub(crate) playground: bool,
}

impl<'t> Specs<'t> {
    pub(crate) fn new(tree: &'t SourceTree) -> Self {
        Self {
            lookup: SpecLookup::new(tree),
            playground: false,
        }
    }

    fn tree(&self) -> &'t SourceTree {
        self.lookup.tree()
    }
}

/// An endpoint page's reference, in the parts `api_page` lays out.
#[derive(Default)]
pub(crate) struct Reference {
    /// The endpoint bar: method badge and path.
    pub(crate) bar: String,
    /// Description, parameters, body and responses, then the "Try it" panel.
    pub(crate) main: String,
    /// Request samples (`x-codeSamples`, curl, Python, JavaScript) and response examples.
    pub(crate) requests: Vec<Sample>,
    pub(crate) responses: Vec<Sample>,
    pub(crate) headings: Vec<Heading>,
}

/// The method badge and path of an endpoint.
pub(crate) fn endpoint_bar(out: &mut String, method: &str, path: &str) {
    open(out, "div", "endpoint");
    element(
        out,
        "span",
        &format!("method method-{}", class_token(method)),
        &method.to_ascii_uppercase(),
    );
    element(out, "code", "api-path", path);
    out.push_str("</div>");
}

/// The reference of the operation `value` (a page's `openapi`) names; `None` when it names none.
/// `title` is the page's, so a summary repeating it is not written twice.
pub(crate) fn render(
    value: &str,
    source: &str,
    title: &str,
    specs: &mut Specs<'_>,
    links: &Linker<'_>,
    highlighter: &dyn Highlight,
) -> Option<Reference> {
    let target = parse_target(value)?;
    let mut reference = Reference::default();
    endpoint_bar(&mut reference.bar, &target.method, &target.path);
    let out = &mut reference.main;
    out.push_str("<section class=\"api-ref\" aria-label=\"API reference\">");
    let tree = specs.tree();
    let playground = specs.playground && target.method != "webhook";
    match specs.lookup.find(&target, source) {
        Ok((doc, item, op)) => {
            let mut w = Writer {
                out,
                doc: &doc,
                tree,
                links,
                highlighter,
                rows: 0,
                headings: &mut reference.headings,
            };
            w.operation(&item, &op, title);
            if target.method != "webhook" {
                let spec = operation_spec(&doc, &item, &op, &target.method, &target.path);
                if playground {
                    crate::export::reference::playground::panel(out, &spec);
                }
                reference.requests = samples::request_samples(&spec, Some(&op));
            }
            reference.responses = samples::response_examples(&doc, &op);
        }
        Err(lacking) => {
            let operation = format!("{} {}", target.method.to_ascii_uppercase(), target.path);
            let message = match (lacking, &target.file) {
                (Some(doc), Some(_)) => {
                    format!("The operation {operation} is not in the OpenAPI document {doc}.")
                }
                (Some(_), None) => {
                    format!("The operation {operation} is not in the site's OpenAPI documents.")
                }
                (None, _) => format!(
                    "The OpenAPI document describing {operation} is not part of the export."
                ),
            };
            element(out, "p", "api-missing", &message);
        }
    }
    out.push_str("</section>");
    Some(reference)
}

struct Writer<'w, 'a> {
    out: &'w mut String,
    doc: &'w Value,
    tree: &'w SourceTree,
    links: &'w Linker<'a>,
    highlighter: &'w dyn Highlight,
    rows: usize,
    headings: &'w mut Vec<Heading>,
}

impl Writer<'_, '_> {
    fn operation(&mut self, item: &Value, op: &Value, title: &str) {
        if let Some(server) = self
            .doc
            .get("servers")
            .and_then(|s| s.get(0))
            .and_then(|s| s.get("url"))
            .and_then(Value::as_str)
        {
            self.out.push_str("<p class=\"api-server\">Base URL: ");
            element(self.out, "code", "", server);
            self.out.push_str("</p>");
        }
        if op.get("deprecated").and_then(Value::as_bool) == Some(true) {
            element(self.out, "p", "badge badge-red", "Deprecated");
        }
        if let Some(summary) = str_of(op, "summary").filter(|s| s.trim() != title.trim()) {
            element(self.out, "p", "api-summary", summary);
        }
        if let Some(description) = str_of(op, "description") {
            self.markdown(description);
        }
        self.parameters(item, op);
        if let Some(body) = op.get("requestBody") {
            let body = resolve(self.doc, body);
            self.heading(2, "Request body", REQUEST_BODY_ANCHOR);
            if let Some(description) = str_of(body, "description") {
                self.markdown(description);
            }
            self.content(body);
        }
        if let Some(Value::Object(responses)) = op.get("responses") {
            self.heading(2, "Responses", RESPONSES_ANCHOR);
            for (status, response) in responses {
                let response = resolve(self.doc, response);
                self.out.push_str("<div class=\"api-response\">");
                self.out.push_str("<h3");
                attr(
                    self.out,
                    "id",
                    &format!("api-response-{}", class_token(status)),
                );
                self.out.push('>');
                let class = format!("status status-{}", status.chars().next().unwrap_or('x'));
                element(self.out, "span", &class_token_list(&class), status);
                self.out.push_str("</h3>");
                self.headings.push(Heading {
                    level: 3,
                    text: status.clone(),
                    anchor: format!("api-response-{}", class_token(status)),
                });
                if let Some(description) = str_of(response, "description") {
                    self.markdown(description);
                }
                self.content(response);
                self.out.push_str("</div>");
            }
        }
    }

    fn heading(&mut self, level: u8, text: &str, anchor: &str) {
        self.out.push_str(&format!("<h{level}"));
        attr(self.out, "id", anchor);
        self.out.push('>');
        html::text(self.out, text);
        self.out.push_str(&format!("</h{level}>"));
        self.headings.push(Heading {
            level,
            text: text.to_owned(),
            anchor: anchor.to_owned(),
        });
    }

    fn markdown(&mut self, md: &str) {
        self.out.push_str("<div class=\"api-description\">");
        self.out.push_str(&render_fragment(
            md,
            self.tree,
            self.links,
            self.highlighter,
        ));
        self.out.push_str("</div>");
    }

    /// Path-item parameters, overridden by the operation's of the same name and location.
    fn parameters(&mut self, item: &Value, op: &Value) {
        let mut params: Vec<&Value> = Vec::new();
        for list in [item.get("parameters"), op.get("parameters")] {
            let Some(Value::Array(list)) = list else {
                continue;
            };
            for p in list {
                let p = resolve(self.doc, p);
                let key = (str_of(p, "name"), str_of(p, "in"));
                params.retain(|q| (str_of(q, "name"), str_of(q, "in")) != key);
                params.push(p);
            }
        }
        if params.is_empty() {
            return;
        }
        self.heading(2, "Parameters", PARAMETERS_ANCHOR);
        self.out.push_str("<div class=\"table-wrap\"><table class=\"api-table\"><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>");
        for p in params {
            if self.rows >= MAX_ROWS {
                break;
            }
            self.rows += 1;
            self.out.push_str("<tr><td>");
            element(self.out, "code", "", str_of(p, "name").unwrap_or(""));
            if p.get("required").and_then(Value::as_bool) == Some(true) {
                element(self.out, "span", "field-required", "required");
            }
            self.out.push_str("</td><td>");
            html::text(self.out, str_of(p, "in").unwrap_or(""));
            self.out.push_str("</td><td>");
            let schema = p.get("schema").unwrap_or(&Value::Null);
            html::text(self.out, &type_text(self.doc, schema));
            self.out.push_str("</td><td>");
            let description = str_of(p, "description")
                .or_else(|| str_of(resolve(self.doc, schema), "description"));
            if let Some(description) = description {
                self.markdown(description);
            }
            self.out.push_str("</td></tr>");
        }
        self.out.push_str("</tbody></table></div>");
    }

    /// The schema of a request body or response, preferring JSON content.
    fn content(&mut self, holder: &Value) {
        let Some(Value::Object(content)) = holder.get("content") else {
            return;
        };
        let chosen = content
            .get("application/json")
            .map(|v| ("application/json", v))
            .or_else(|| content.iter().next().map(|(k, v)| (k.as_str(), v)));
        let Some((media, body)) = chosen else { return };
        self.out.push_str("<p class=\"api-media\">");
        element(self.out, "code", "", media);
        self.out.push_str("</p>");
        if let Some(schema) = body.get("schema") {
            self.schema(schema, 0);
        }
    }

    fn schema(&mut self, schema: &Value, depth: usize) {
        let doc = self.doc;
        let schema = resolve(doc, schema);
        let (properties, required) = properties(doc, schema, 0);
        if !properties.is_empty() {
            self.properties(&properties, &required, depth);
            return;
        }
        if let Some(items) = schema.get("items") {
            self.out.push_str("<p class=\"api-type\">");
            html::text(self.out, &type_text(doc, schema));
            self.out.push_str("</p>");
            if depth < MAX_SCHEMA_DEPTH {
                self.schema(items, depth + 1);
            }
            return;
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(variants)) = schema.get(key) {
                element(self.out, "p", "api-type", "One of:");
                for variant in variants.iter().take(8) {
                    let resolved = resolve(doc, variant);
                    self.out.push_str("<div class=\"api-variant\">");
                    element(
                        self.out,
                        "p",
                        "api-variant-title",
                        &variant_title(doc, variant, resolved),
                    );
                    if depth < MAX_SCHEMA_DEPTH {
                        self.schema(variant, depth + 1);
                    }
                    self.out.push_str("</div>");
                }
                return;
            }
        }
        if !schema.is_null() {
            self.out.push_str("<p class=\"api-type\">");
            html::text(self.out, &type_text(doc, schema));
            self.out.push_str("</p>");
            if let Some(description) = str_of(schema, "description") {
                self.markdown(description);
            }
        }
    }

    fn properties(&mut self, properties: &[(String, Value)], required: &[String], depth: usize) {
        let doc = self.doc;
        self.out.push_str("<div class=\"table-wrap\"><table class=\"api-table\"><thead><tr><th>Property</th><th>Type</th><th>Description</th></tr></thead><tbody>");
        for (name, prop) in properties {
            if self.rows >= MAX_ROWS {
                break;
            }
            self.rows += 1;
            let resolved = resolve(doc, prop);
            self.out.push_str("<tr><td>");
            element(self.out, "code", "", name);
            if required.contains(name) {
                element(self.out, "span", "field-required", "required");
            }
            self.out.push_str("</td><td>");
            html::text(self.out, &type_text(doc, prop));
            self.out.push_str("</td><td>");
            if let Some(description) =
                str_of(prop, "description").or_else(|| str_of(resolved, "description"))
            {
                self.markdown(description);
            }
            if let Some(default) = resolved.get("default") {
                self.out.push_str("<p class=\"field-default\">default: ");
                element(self.out, "code", "", &default.to_string());
                self.out.push_str("</p>");
            }
            let nested = resolve(doc, resolved.get("items").unwrap_or(resolved));
            let expandable = !properties_of(doc, nested).is_empty()
                || nested.get("oneOf").is_some()
                || nested.get("anyOf").is_some();
            if expandable && depth + 1 < MAX_SCHEMA_DEPTH {
                self.out.push_str("<details class=\"expandable\"><summary>Properties</summary><div class=\"details-body\">");
                self.schema(nested, depth + 1);
                self.out.push_str("</div></details>");
            }
            self.out.push_str("</td></tr>");
        }
        self.out.push_str("</tbody></table></div>");
    }
}

fn properties_of(doc: &Value, schema: &Value) -> Vec<(String, Value)> {
    properties(doc, schema, 0).0
}

/// `string`, `integer<int64>`, `array of Job`, `enum: a | b`, `Job` (a `$ref` by name).
fn type_text(doc: &Value, schema: &Value) -> String {
    if let Some(name) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
    {
        let resolved = resolve(doc, schema);
        let base = resolved
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("object");
        return if base == "object" {
            name.to_owned()
        } else {
            format!("{base} ({name})")
        };
    }
    let mut text = match schema.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" | "),
        _ if schema.get("properties").is_some() || schema.get("allOf").is_some() => "object".into(),
        _ if schema.get("oneOf").is_some() || schema.get("anyOf").is_some() => "one of".into(),
        _ => "any".into(),
    };
    if text == "array" {
        if let Some(items) = schema.get("items") {
            text = format!("array of {}", type_text(doc, items));
        }
    }
    if let Some(format) = str_of(schema, "format") {
        text.push_str(&format!(" <{format}>"));
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        let shown: Vec<String> = values
            .iter()
            .take(12)
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            .collect();
        text.push_str(&format!(" (one of: {})", shown.join(", ")));
    }
    if schema.get("nullable").and_then(Value::as_bool) == Some(true) {
        text.push_str(" | null");
    }
    text
}

fn variant_title(doc: &Value, variant: &Value, resolved: &Value) -> String {
    str_of(resolved, "title")
        .map(str::to_owned)
        .unwrap_or_else(|| type_text(doc, variant))
}

fn class_token_list(class: &str) -> String {
    class
        .split_whitespace()
        .map(class_token)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use std::collections::BTreeMap;

    const SPEC: &str = r##"{"openapi": "3.0.0", "servers": [{"url": "https://api.x.dev/v1"}],
      "paths": {"/jobs/{id}": {
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}, "description": "Job id"}],
        "post": {"summary": "Start job", "description": "Starts **a** job.",
          "parameters": [{"$ref": "#/components/parameters/Limit"}],
          "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Req"}}}},
          "responses": {"202": {"description": "Accepted", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Job"}}}},
                        "400": {"description": "Bad & wrong"}}}}},
      "components": {
        "parameters": {"Limit": {"name": "limit", "in": "query", "schema": {"type": "integer", "format": "int32"}}},
        "schemas": {
          "Req": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"type": "object", "required": ["domain"], "properties": {"domain": {"type": "string", "description": "Host"}, "paths": {"type": "array", "items": {"type": "string"}}}}]},
          "Base": {"type": "object", "properties": {"version": {"type": "string", "enum": ["v1", "v2"]}}},
          "Job": {"type": "object", "properties": {"jobId": {"type": "string"}, "self": {"$ref": "#/components/schemas/Job"}}}}}}"##;

    fn render_page(value: &str, files: &[(&str, &str)]) -> (String, Vec<Heading>) {
        let tree = tree(files);
        let pages = BTreeMap::new();
        let links = Linker::new("api/x", "api/x.mdx", &pages, &tree, "d.io");
        let mut specs = Specs::new(&tree);
        let r = render(
            value,
            "api/x.mdx",
            "X",
            &mut specs,
            &links,
            &crate::export::render::code::PlainCode,
        )
        .unwrap();
        (r.bar + &r.main, r.headings)
    }

    #[test]
    fn parses_the_three_frontmatter_forms() {
        assert_eq!(
            parse_target("POST /v1/x"),
            Some(Target {
                file: None,
                method: "post".into(),
                path: "/v1/x".into()
            })
        );
        assert_eq!(
            parse_target("/zh/spec.json get /a/{b}")
                .unwrap()
                .file
                .as_deref(),
            Some("zh/spec.json")
        );
        assert_eq!(
            parse_target("openapi.json webhook orderUpdated")
                .unwrap()
                .method,
            "webhook"
        );
        assert_eq!(parse_target("openapi-file-path method path"), None);
        assert_eq!(parse_target(""), None);
    }

    #[test]
    fn renders_endpoint_parameters_body_and_responses() {
        let (out, headings) = render_page("POST /jobs/{id}", &[("spec.json", SPEC)]);
        for part in [
            "<span class=\"method method-post\">POST</span><code class=\"api-path\">/jobs/{id}</code>",
            "Base URL: <code>https://api.x.dev/v1</code>",
            "<p class=\"api-summary\">Start job</p>",
            "<strong>a</strong>",
            "<code>id</code><span class=\"field-required\">required</span></td><td>path</td><td>string</td>",
            "<code>limit</code></td><td>query</td><td>integer &lt;int32&gt;</td>",
            "<code>version</code></td><td>string (one of: v1, v2)</td>",
            "<code>domain</code><span class=\"field-required\">required</span>",
            "array of string",
            "<span class=\"status status-2\">202</span>",
            "Bad &amp; wrong",
            "<code>jobId</code>",
        ] {
            assert!(out.contains(part), "missing {part} in {out}");
        }
        let anchors: Vec<&str> = headings.iter().map(|h| h.anchor.as_str()).collect();
        assert_eq!(
            anchors,
            [
                "api-parameters",
                "api-request-body",
                "api-responses",
                "api-response-202",
                "api-response-400"
            ]
        );
    }

    #[test]
    fn named_file_and_missing_document() {
        let (out, _) = render_page("/specs/a.json POST /jobs/{id}", &[("specs/a.json", SPEC)]);
        assert!(out.contains("Start job"));
        let (out, _) = render_page("GET /nowhere", &[("spec.json", SPEC)]);
        assert!(
            out.contains("GET</span><code class=\"api-path\">/nowhere</code>"),
            "{out}"
        );
        assert!(out.contains("<p class=\"api-missing\">The operation GET /nowhere is not in the site's OpenAPI documents.</p>"), "{out}");
        let (out, _) = render_page("specs/a.json GET /jobs/{id}", &[("specs/a.json", SPEC)]);
        assert!(
            out.contains(
                "The operation GET /jobs/{id} is not in the OpenAPI document specs/a.json."
            ),
            "{out}"
        );
        let (out, _) = render_page("GET /nowhere", &[]);
        assert!(
            out.contains("The OpenAPI document describing GET /nowhere is not part of the export."),
            "{out}"
        );
    }

    #[test]
    fn yaml_documents_and_webhooks() {
        let yaml =
            "openapi: 3.1.0\nwebhooks:\n  orderUpdated:\n    post:\n      summary: Order updated\n";
        let (out, _) = render_page("hooks.yaml webhook orderUpdated", &[("hooks.yaml", yaml)]);
        assert!(out.contains("Order updated"), "{out}");
    }
}
