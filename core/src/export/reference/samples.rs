//! Request code samples and response examples of an endpoint page, as a reader of the live site
//! sees them beside the reference: the spec's own `x-codeSamples` (or `x-code-samples`) first,
//! then a request in curl, Python (`requests`) and JavaScript (`fetch`) written from the operation
//! (`operation`'s JSON: URL with path and query parameters, headers, credentials, body example);
//! and one example per response status.
//!
//! Every string from the spec reaches the code as a literal of the sample's language (a shell
//! single-quoted word, a JSON string, which Python and JavaScript both read), so no spec text can
//! end a string and become code; the HTML escaping is `code`'s.

use serde_json::Value;

use crate::export::html::element;
use crate::export::reference::operation::{example_of, resolve, scalar_text, str_of};
use crate::export::render::code::{self, Highlight};
use crate::export::render::links::encode_component;

/// Samples the spec may list for one operation; more are not shown.
const MAX_SPEC_SAMPLES: usize = 12;
/// Response statuses shown with an example.
const MAX_RESPONSES: usize = 12;
/// A spec sample's source longer than this is not shown.
const MAX_SOURCE_BYTES: usize = 32 * 1024;

/// One tab of a sample group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sample {
    pub(crate) label: String,
    /// The highlighter's name for the language.
    pub(crate) lang: String,
    pub(crate) code: String,
}

/// The request samples of an operation: `op`'s `x-codeSamples` first, then curl, Python and
/// JavaScript written from `spec` (`operation::operation_spec`'s shape).
pub(crate) fn request_samples(spec: &Value, op: Option<&Value>) -> Vec<Sample> {
    let mut out = op.map(spec_samples).unwrap_or_default();
    let request = Request::from_spec(spec);
    for (label, lang, code) in [
        ("cURL", "bash", request.curl()),
        ("Python", "python", request.python()),
        ("JavaScript", "javascript", request.javascript()),
    ] {
        if !out.iter().any(|s| s.label.eq_ignore_ascii_case(label)) {
            out.push(Sample {
                label: label.to_owned(),
                lang: lang.to_owned(),
                code,
            });
        }
    }
    out
}

/// `x-codeSamples` / `x-code-samples`: `[{lang, label?, source}]`.
fn spec_samples(op: &Value) -> Vec<Sample> {
    let list = op
        .get("x-codeSamples")
        .or_else(|| op.get("x-code-samples"))
        .and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter_map(|entry| {
            let source = str_of(entry, "source").filter(|s| s.len() <= MAX_SOURCE_BYTES)?;
            let lang = str_of(entry, "lang").unwrap_or("text");
            let label = str_of(entry, "label").unwrap_or(lang);
            Some(Sample {
                label: label.trim().to_owned(),
                lang: grammar(lang),
                code: source.to_owned(),
            })
        })
        .take(MAX_SPEC_SAMPLES)
        .collect()
}

/// The highlighter's grammar for a language as specs name it (`cURL`, `Node`, `C#`).
fn grammar(lang: &str) -> String {
    let lower = lang.trim().to_ascii_lowercase();
    match lower.as_str() {
        "curl" | "shell" | "sh" => "bash".into(),
        "node" | "nodejs" | "node.js" | "js" => "javascript".into(),
        "c#" | "csharp" | "dotnet" => "csharp".into(),
        "ts" => "typescript".into(),
        "py" | "python3" => "python".into(),
        "golang" => "go".into(),
        _ => lower,
    }
}

/// One example per response status that has content: the document's own example, else one made
/// from the schema, JSON media preferred.
pub(crate) fn response_examples(doc: &Value, op: &Value) -> Vec<Sample> {
    let Some(responses) = op.get("responses").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (status, response) in responses.iter().take(MAX_RESPONSES) {
        let response = resolve(doc, response);
        let Some(content) = response.get("content").and_then(Value::as_object) else {
            continue;
        };
        let Some((media, entry)) = content
            .get_key_value("application/json")
            .or_else(|| content.iter().find(|(k, _)| k.contains("json")))
            .or_else(|| content.iter().next())
        else {
            continue;
        };
        let entry = resolve(doc, entry);
        let value = entry
            .get("example")
            .cloned()
            .or_else(|| {
                let first = entry
                    .get("examples")
                    .and_then(Value::as_object)?
                    .values()
                    .next()?;
                resolve(doc, first).get("value").cloned()
            })
            .unwrap_or_else(|| example_of(doc, entry.get("schema").unwrap_or(&Value::Null), 0));
        if value.is_null() {
            continue;
        }
        let (lang, code) = if media.contains("json") {
            (
                "json",
                serde_json::to_string_pretty(&value).unwrap_or_default(),
            )
        } else {
            ("text", scalar_text(&value))
        };
        out.push(Sample {
            label: status.clone(),
            lang: lang.into(),
            code,
        });
    }
    out
}

/// A tabbed group titled `title` holding `samples` (nothing when there are none): the markup of an
/// authored `RequestExample`, so site.js makes it tabs and site.css lays it out alike.
pub(crate) fn write_group(
    out: &mut String,
    title: &str,
    samples: &[Sample],
    highlighter: &dyn Highlight,
) {
    if samples.is_empty() {
        return;
    }
    out.push_str("<div class=\"example api-samples\" data-tabs>");
    element(out, "p", "example-title", title);
    for sample in samples {
        code::write_sample(out, &sample.lang, &sample.label, &sample.code, highlighter);
    }
    out.push_str("</div>");
}

/// The request a sample makes, every part still plain text.
struct Request {
    method: String,
    /// Server and path, path parameters filled in, query string appended.
    url: String,
    headers: Vec<(String, String)>,
    /// Media type and the body's text.
    body: Option<(String, String)>,
    /// The body as JSON when its media type is JSON and its text parses.
    json: Option<Value>,
}

impl Request {
    fn from_spec(spec: &Value) -> Self {
        let method = str_of(spec, "method").unwrap_or("GET").to_ascii_uppercase();
        let server = spec
            .get("servers")
            .and_then(|s| s.get(0))
            .and_then(Value::as_str)
            .unwrap_or("");
        let mut path = str_of(spec, "path").unwrap_or("/").to_owned();
        let mut query: Vec<(String, String)> = Vec::new();
        let mut headers: Vec<(String, String)> = Vec::new();
        for p in spec
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = str_of(p, "name").unwrap_or("");
            let example = p.get("example").map(scalar_text).unwrap_or_default();
            let required = p.get("required").and_then(Value::as_bool) == Some(true);
            match str_of(p, "in") {
                Some("path") if !example.is_empty() => {
                    path = path.replace(&format!("{{{name}}}"), &encode_component(&example));
                }
                Some("query") if required || !example.is_empty() => {
                    query.push((name.to_owned(), placeholder(example, name)));
                }
                Some("header") if required || !example.is_empty() => {
                    headers.push((name.to_owned(), placeholder(example, name)));
                }
                _ => {}
            }
        }
        for a in spec
            .get("auth")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = str_of(a, "name").unwrap_or("Authorization").to_owned();
            match str_of(a, "kind") {
                Some("bearer") => headers.push((name, "Bearer <token>".into())),
                Some("basic") => headers.push((name, "Basic <encoded-credentials>".into())),
                Some("query") => query.push((name, "<api-key>".into())),
                Some(_) => headers.push((name, "<api-key>".into())),
                None => {}
            }
        }
        let body = spec.get("body").filter(|b| b.is_object()).map(|b| {
            let media = str_of(b, "mediaType")
                .unwrap_or("application/json")
                .to_owned();
            (
                media,
                b.get("example")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
            )
        });
        if let Some((media, _)) = &body {
            if !headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
            {
                headers.push(("Content-Type".into(), media.clone()));
            }
        }
        let json = body
            .as_ref()
            .filter(|(media, _)| media.contains("json"))
            .and_then(|(_, text)| serde_json::from_str(text).ok());
        let mut url = format!("{}{}", server.trim_end_matches('/'), path);
        for (i, (name, value)) in query.iter().enumerate() {
            url.push(if i == 0 { '?' } else { '&' });
            url.push_str(&encode_component(name));
            url.push('=');
            url.push_str(&encode_component(value));
        }
        Request {
            method,
            url,
            headers,
            body,
            json,
        }
    }

    fn curl(&self) -> String {
        let mut lines = vec![format!(
            "curl --request {} \\\n  --url {}",
            self.method,
            shell_word(&self.url)
        )];
        for (name, value) in &self.headers {
            lines.push(format!(
                "  --header {}",
                shell_word(&format!("{name}: {value}"))
            ));
        }
        if let Some((_, text)) = &self.body {
            lines.push(format!("  --data {}", shell_word(text)));
        }
        lines.join(" \\\n")
    }

    fn python(&self) -> String {
        let mut out = String::from("import requests\n\n");
        out.push_str(&format!("url = {}\n", string_literal(&self.url)));
        let mut args = vec!["url".to_owned()];
        if !self.headers.is_empty() {
            out.push_str("headers = {\n");
            for (name, value) in &self.headers {
                out.push_str(&format!(
                    "    {}: {},\n",
                    string_literal(name),
                    string_literal(value)
                ));
            }
            out.push_str("}\n");
            args.push("headers=headers".into());
        }
        match (&self.json, &self.body) {
            (Some(json), _) => {
                out.push_str(&format!("payload = {}\n", python_value(json, 0)));
                args.push("json=payload".into());
            }
            (None, Some((_, text))) => {
                out.push_str(&format!("payload = {}\n", string_literal(text)));
                args.push("data=payload".into());
            }
            (None, None) => {}
        }
        let call = match self.method.as_str() {
            "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" => {
                format!(
                    "requests.{}({})",
                    self.method.to_ascii_lowercase(),
                    args.join(", ")
                )
            }
            other => format!(
                "requests.request({}, {})",
                string_literal(other),
                args.join(", ")
            ),
        };
        out.push_str(&format!("\nresponse = {call}\nprint(response.text)"));
        out
    }

    fn javascript(&self) -> String {
        let mut out = format!(
            "const url = {};\nconst options = {{\n  method: {},\n",
            string_literal(&self.url),
            string_literal(&self.method)
        );
        if !self.headers.is_empty() {
            out.push_str("  headers: {\n");
            for (name, value) in &self.headers {
                out.push_str(&format!(
                    "    {}: {},\n",
                    string_literal(name),
                    string_literal(value)
                ));
            }
            out.push_str("  },\n");
        }
        match (&self.json, &self.body) {
            (Some(json), _) => {
                let text = serde_json::to_string_pretty(json)
                    .unwrap_or_default()
                    .replace('\n', "\n  ");
                out.push_str(&format!("  body: JSON.stringify({text}),\n"));
            }
            (None, Some((_, text))) => {
                out.push_str(&format!("  body: {},\n", string_literal(text)))
            }
            (None, None) => {}
        }
        out.push_str("};\n\nfetch(url, options)\n  .then((response) => response.text())\n  .then((text) => console.log(text))\n  .catch((error) => console.error(error));");
        out
    }
}

/// `<name>` when a parameter has no example.
fn placeholder(example: String, name: &str) -> String {
    if example.is_empty() {
        format!("<{name}>")
    } else {
        example
    }
}

/// A POSIX shell word holding exactly `text`: single-quoted, each `'` closed, escaped and reopened.
fn shell_word(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A double-quoted string literal holding exactly `text`, read alike by Python and JavaScript:
/// JSON's escapes, plus the line and paragraph separators older JavaScript ends a line at.
fn string_literal(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_default()
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// `value` as a Python literal (`True`, `None`, dicts and lists indented by four spaces).
fn python_value(value: &Value, indent: usize) -> String {
    let pad = "    ".repeat(indent + 1);
    let close = "    ".repeat(indent);
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string_literal(s),
        Value::Array(items) if items.is_empty() => "[]".into(),
        Value::Array(items) => {
            let inner: Vec<String> = items
                .iter()
                .map(|v| format!("{pad}{}", python_value(v, indent + 1)))
                .collect();
            format!("[\n{},\n{close}]", inner.join(",\n"))
        }
        Value::Object(map) if map.is_empty() => "{}".into(),
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{pad}{}: {}",
                        string_literal(k),
                        python_value(v, indent + 1)
                    )
                })
                .collect();
            format!("{{\n{},\n{close}}}", inner.join(",\n"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::reference::operation::operation_spec;
    use crate::export::render::code::{Recorded, WordSpans};
    use serde_json::json;

    fn doc() -> Value {
        json!({
            "openapi": "3.1.0",
            "servers": [{"url": "https://api.example.com/v1/"}],
            "components": {"securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "key": {"type": "apiKey", "in": "header", "name": "X-Api-Key"},
                "q": {"type": "apiKey", "in": "query", "name": "api_key"}
            }},
            "security": [{"bearer": []}],
            "paths": {"/users/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}, "example": "u 1/2"}],
                "post": {
                    "parameters": [
                        {"name": "limit", "in": "query", "required": true, "schema": {"type": "integer", "default": 5}},
                        {"name": "cursor", "in": "query", "schema": {"type": "string"}},
                        {"name": "X-Trace", "in": "header", "required": true, "schema": {"type": "string"}}
                    ],
                    "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
                        "name": {"type": "string", "example": "Ada"}, "admin": {"type": "boolean"}, "note": {"type": ["string", "null"], "default": null}
                    }}}}},
                    "responses": {
                        "200": {"description": "ok", "content": {"application/json": {"example": {"id": "u1"}}}},
                        "204": {"description": "none"},
                        "404": {"$ref": "#/components/responses/Missing"}
                    }
                }
            }}
        })
    }

    /// Words of a shell command line: blanks and `\\`-newline separate, `'…'` quotes, `\\x` escapes.
    fn shell_words(line: &str) -> Vec<String> {
        let (mut words, mut word, mut quoted) = (Vec::new(), None::<String>, false);
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match (quoted, c) {
                (true, '\'') => quoted = false,
                (true, c) => word.get_or_insert_with(String::new).push(c),
                (false, '\'') => {
                    quoted = true;
                    word.get_or_insert_with(String::new);
                }
                (false, '\\') => match chars.next() {
                    Some('\n') | None => {}
                    Some(c) => word.get_or_insert_with(String::new).push(c),
                },
                (false, ' ' | '\n') => words.extend(word.take()),
                (false, c) => word.get_or_insert_with(String::new).push(c),
            }
        }
        assert!(!quoted, "an open quote in {line}");
        words.extend(word);
        words
    }

    fn samples_of(d: &Value, path: &str, method: &str) -> Vec<Sample> {
        let item = &d["paths"][path];
        request_samples(
            &operation_spec(d, item, &item[method], method, path),
            Some(&item[method]),
        )
    }

    fn code<'s>(samples: &'s [Sample], label: &str) -> &'s str {
        &samples
            .iter()
            .find(|s| s.label == label)
            .unwrap_or_else(|| panic!("no {label} in {samples:?}"))
            .code
    }

    #[test]
    fn curl_python_and_javascript_carry_params_auth_and_body() {
        let samples = samples_of(&doc(), "/users/{id}", "post");
        let labels: Vec<&str> = samples.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["cURL", "Python", "JavaScript"]);
        assert_eq!(
            code(&samples, "cURL"),
            "curl --request POST \\\n  --url 'https://api.example.com/v1/users/u%201%2F2?limit=5' \\\n  --header 'X-Trace: <X-Trace>' \\\n  --header 'Authorization: Bearer <token>' \\\n  --header 'Content-Type: application/json' \\\n  --data '{\n  \"name\": \"Ada\",\n  \"admin\": true,\n  \"note\": null\n}'"
        );
        let python = code(&samples, "Python");
        assert!(
            python.starts_with(
                "import requests\n\nurl = \"https://api.example.com/v1/users/u%201%2F2?limit=5\"\n"
            ),
            "{python}"
        );
        assert!(
            python.contains("    \"Authorization\": \"Bearer <token>\",\n"),
            "{python}"
        );
        assert!(python.contains("payload = {\n    \"name\": \"Ada\",\n    \"admin\": True,\n    \"note\": None,\n}\n"), "{python}");
        assert!(python.ends_with("response = requests.post(url, headers=headers, json=payload)\nprint(response.text)"), "{python}");
        let js = code(&samples, "JavaScript");
        assert!(
            js.contains("  method: \"POST\",\n  headers: {\n    \"X-Trace\": \"<X-Trace>\",\n"),
            "{js}"
        );
        assert!(js.contains("  body: JSON.stringify({\n    \"name\": \"Ada\",\n    \"admin\": true,\n    \"note\": null\n  }),\n"), "{js}");
        assert!(js.contains("fetch(url, options)"), "{js}");
        assert!(
            !code(&samples, "cURL").contains("cursor"),
            "optional parameters without an example stay out"
        );
    }

    #[test]
    fn api_keys_go_where_the_scheme_says() {
        let mut d = doc();
        d["security"] = json!([{"key": [], "q": []}]);
        let curl = code(&samples_of(&d, "/users/{id}", "post"), "cURL").to_owned();
        assert!(curl.contains("--header 'X-Api-Key: <api-key>'"), "{curl}");
        assert!(curl.contains("?limit=5&api_key=%3Capi-key%3E'"), "{curl}");
        d["security"] = json!([]);
        assert!(!code(&samples_of(&d, "/users/{id}", "post"), "cURL").contains("Authorization"));
    }

    #[test]
    fn the_specs_own_samples_come_first_and_replace_a_language_they_give() {
        let mut d = doc();
        d["paths"]["/users/{id}"]["post"]["x-codeSamples"] = json!([
            {"lang": "Go", "source": "client.Users.Create()"},
            {"lang": "cURL", "label": "curl", "source": "curl https://x"},
            {"lang": "python", "label": "Python SDK", "source": "x.users.create()"},
            {"lang": "ruby"}
        ]);
        let samples = samples_of(&d, "/users/{id}", "post");
        let tabs: Vec<(&str, &str)> = samples
            .iter()
            .map(|s| (s.label.as_str(), s.lang.as_str()))
            .collect();
        assert_eq!(
            tabs,
            [
                ("Go", "go"),
                ("curl", "bash"),
                ("Python SDK", "python"),
                ("Python", "python"),
                ("JavaScript", "javascript")
            ]
        );
        assert_eq!(samples[1].code, "curl https://x");
        // The older spelling is read too.
        let mut d = doc();
        d["paths"]["/users/{id}"]["post"]["x-code-samples"] =
            json!([{"lang": "PHP", "source": "<?php"}]);
        assert_eq!(samples_of(&d, "/users/{id}", "post")[0].label, "PHP");
    }

    #[test]
    fn hostile_spec_strings_stay_inside_their_literals() {
        let evil = "x' ; rm -rf / ; echo '\"\\\n</script>\u{2028}";
        let d = json!({
            "servers": [{"url": "https://h.example/a'b"}],
            "paths": {"/p": {"put": {
                "parameters": [{"name": evil, "in": "header", "required": true, "example": evil}],
                "requestBody": {"content": {"text/plain": {"example": evil}}}
            }}}
        });
        let samples = samples_of(&d, "/p", "put");
        // Read back as a POSIX shell reads it, the command is exactly these words.
        let words = shell_words(code(&samples, "cURL"));
        let header = format!("{evil}: {evil}");
        let url = "https://h.example/a'b/p";
        assert_eq!(
            words,
            [
                "curl",
                "--request",
                "PUT",
                "--url",
                url,
                "--header",
                &header,
                "--header",
                "Content-Type: text/plain",
                "--data",
                evil
            ]
        );
        for label in ["Python", "JavaScript"] {
            let text = code(&samples, label);
            let literal = string_literal(evil);
            assert!(
                text.contains(&format!("{literal}: {literal}")),
                "{label}: {text}"
            );
            assert!(
                !text.contains('\u{2028}') && !text.contains("\n</script>"),
                "{text}"
            );
            // The JSON literal reads back as exactly the hostile text.
            assert_eq!(serde_json::from_str::<String>(&literal).unwrap(), evil);
        }
        assert!(code(&samples, "Python").contains("data=payload"));
        // Written into the page, the code is text: no element opens.
        let mut out = String::new();
        write_group(&mut out, "Request", &samples, &WordSpans);
        assert!(
            !out.contains("<script")
                && !out.contains("</script>")
                && out.contains("&lt;/script&gt;"),
            "{out}"
        );
    }

    #[test]
    fn responses_show_the_documents_example_or_one_from_the_schema() {
        let mut d = doc();
        d["components"]["responses"] = json!({"Missing": {"content": {"application/problem+json": {"schema": {"type": "object", "properties": {"title": {"type": "string"}}}}}}});
        let item = &d["paths"]["/users/{id}"];
        let examples = response_examples(&d, &item["post"]);
        let got: Vec<(&str, &str, &str)> = examples
            .iter()
            .map(|s| (s.label.as_str(), s.lang.as_str(), s.code.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("200", "json", "{\n  \"id\": \"u1\"\n}"),
                ("404", "json", "{\n  \"title\": \"string\"\n}")
            ]
        );
    }

    #[test]
    fn a_group_is_tabs_of_highlighted_blocks() {
        let samples = samples_of(&doc(), "/users/{id}", "post");
        let mut out = String::new();
        write_group(&mut out, "Request", &samples, &Recorded);
        assert!(out.starts_with("<div class=\"example api-samples\" data-tabs><p class=\"example-title\">Request</p>"), "{out}");
        for (label, lang) in [
            ("cURL", "bash"),
            ("Python", "python"),
            ("JavaScript", "javascript"),
        ] {
            assert!(
                out.contains(&format!(
                    "data-title=\"{label}\"><pre tabindex=\"0\"><code class=\"language-{lang}\">"
                )),
                "{out}"
            );
        }
        assert!(
            !out.contains("code-title"),
            "the tab names the sample: {out}"
        );
        let mut empty = String::new();
        write_group(&mut empty, "Request", &[], &Recorded);
        assert!(empty.is_empty());
    }
}
