//! The operation an endpoint page documents, as one JSON value the export's API parts share:
//! `{method, path, servers, parameters, body, auth}` with parameter and body examples made from
//! the schemas. The "Try it" panel (`playground`) carries it to its script; the request samples
//! (`samples`) are written from it. Read from an OpenAPI operation ([`operation_spec`]) or from an
//! `api:` page's `ParamField`s (`api_page`).

use serde_json::{json, Map, Value};

pub(crate) use crate::docs::endpoint::resolve;

/// Nesting followed when making a body example from a schema.
const MAX_EXAMPLE_DEPTH: usize = 5;
/// Properties per object in a generated example.
const MAX_EXAMPLE_PROPERTIES: usize = 30;

/// A string field that says something (not blank).
pub(crate) fn str_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// `{method, path, servers, parameters, body, auth}` for the script.
pub(crate) fn operation_spec(
    doc: &Value,
    item: &Value,
    op: &Value,
    method: &str,
    path: &str,
) -> Value {
    let servers: Vec<&str> = op
        .get("servers")
        .or_else(|| item.get("servers"))
        .or_else(|| doc.get("servers"))
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(|s| str_of(s, "url")).collect())
        .unwrap_or_default();
    let mut parameters: Vec<Value> = Vec::new();
    for list in [item.get("parameters"), op.get("parameters")] {
        for p in list.and_then(Value::as_array).into_iter().flatten() {
            let p = resolve(doc, p);
            let (Some(name), Some(location)) = (str_of(p, "name"), str_of(p, "in")) else {
                continue;
            };
            if !["path", "query", "header"].contains(&location) {
                continue;
            }
            parameters.retain(|q| !(q["name"] == name && q["in"] == location));
            let schema = resolve(doc, p.get("schema").unwrap_or(&Value::Null));
            let example = p
                .get("example")
                .or_else(|| schema.get("example"))
                .or_else(|| schema.get("default"));
            parameters.push(json!({
                "name": name,
                "in": location,
                "required": location == "path" || p.get("required").and_then(Value::as_bool) == Some(true),
                "type": str_of(schema, "type").unwrap_or("string"),
                "enum": schema.get("enum").cloned().unwrap_or(Value::Null),
                "example": example.map(scalar_text).unwrap_or_default(),
            }));
        }
    }
    json!({
        "method": method.to_ascii_uppercase(),
        "path": path,
        "servers": servers,
        "parameters": parameters,
        "body": body(doc, op),
        "auth": auth(doc, op),
    })
}

pub(crate) fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The request body's media type and an editable example: the document's own, else one made from
/// the schema.
fn body(doc: &Value, op: &Value) -> Value {
    let Some(body) = op.get("requestBody").map(|b| resolve(doc, b)) else {
        return Value::Null;
    };
    let Some(content) = body.get("content").and_then(Value::as_object) else {
        return Value::Null;
    };
    let Some((media, entry)) = content.get_key_value("application/json").or_else(|| {
        content
            .iter()
            .find(|(k, _)| k.ends_with("+json") || k.starts_with("text/"))
    }) else {
        return Value::Null;
    };
    let example = entry
        .get("example")
        .cloned()
        .or_else(|| {
            entry
                .get("examples")
                .and_then(Value::as_object)
                .and_then(|all| all.values().next())
                .map(|e| resolve(doc, e))
                .and_then(|e| e.get("value").cloned())
        })
        .unwrap_or_else(|| example_of(doc, entry.get("schema").unwrap_or(&Value::Null), 0));
    let text = if media.contains("json") {
        serde_json::to_string_pretty(&example).unwrap_or_default()
    } else {
        scalar_text(&example)
    };
    json!({ "mediaType": media, "required": body.get("required").and_then(Value::as_bool) == Some(true), "example": text })
}

/// A value that satisfies the schema as far as a reader needs to start editing it.
pub(crate) fn example_of(doc: &Value, schema: &Value, depth: usize) -> Value {
    let schema = resolve(doc, schema);
    for key in ["example", "default", "const"] {
        if let Some(v) = schema.get(key) {
            return v.clone();
        }
    }
    if let Some(first) = schema
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if depth >= MAX_EXAMPLE_DEPTH {
        return Value::Null;
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(variants) = schema.get(key).and_then(Value::as_array) {
            if key == "allOf" {
                let mut merged = Map::new();
                for v in variants {
                    if let Value::Object(part) = example_of(doc, v, depth + 1) {
                        merged.extend(part);
                    }
                }
                return Value::Object(merged);
            }
            if let Some(first) = variants
                .iter()
                .find(|v| resolve(doc, v).get("type") != Some(&json!("null")))
            {
                return example_of(doc, first, depth + 1);
            }
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ => "",
    };
    match kind {
        "object" => {
            let mut out = Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (name, prop) in props.iter().take(MAX_EXAMPLE_PROPERTIES) {
                    out.insert(name.clone(), example_of(doc, prop, depth + 1));
                }
            }
            Value::Object(out)
        }
        "array" => Value::Array(vec![example_of(
            doc,
            schema.get("items").unwrap_or(&Value::Null),
            depth + 1,
        )]),
        "integer" => schema.get("minimum").cloned().unwrap_or(json!(0)),
        "number" => schema.get("minimum").cloned().unwrap_or(json!(0)),
        "boolean" => json!(true),
        "string" => json!(match str_of(schema, "format") {
            Some("date-time") => "2026-01-01T00:00:00Z",
            Some("date") => "2026-01-01",
            Some("email") => "user@example.com",
            Some("uri" | "url") => "https://example.com",
            Some("uuid") => "00000000-0000-0000-0000-000000000000",
            _ => "string",
        }),
        _ => Value::Null,
    }
}

/// The credentials the operation takes (its own `security`, else the document's), as inputs to show:
/// `{kind: "bearer"|"basic"|"header"|"query", name, label}`.
fn auth(doc: &Value, op: &Value) -> Vec<Value> {
    let requirements = op
        .get("security")
        .or_else(|| doc.get("security"))
        .and_then(Value::as_array);
    let schemes = doc.pointer("/components/securitySchemes");
    let mut out = Vec::new();
    // The first requirement that names anything is what the panel asks for.
    let Some(first) = requirements
        .into_iter()
        .flatten()
        .find_map(|r| r.as_object().filter(|r| !r.is_empty()))
    else {
        return out;
    };
    for name in first.keys() {
        let Some(scheme) = schemes.and_then(|s| s.get(name)).map(|s| resolve(doc, s)) else {
            continue;
        };
        let label = str_of(scheme, "description")
            .map(|d| d.split(['.', ':']).next().unwrap_or(d).to_string())
            .unwrap_or_else(|| name.clone());
        let entry = match (
            str_of(scheme, "type"),
            str_of(scheme, "scheme")
                .map(str::to_ascii_lowercase)
                .as_deref(),
        ) {
            (Some("http"), Some("basic")) => {
                json!({ "kind": "basic", "name": "Authorization", "label": label })
            }
            (Some("http"), _) | (Some("oauth2" | "openIdConnect"), _) => {
                json!({ "kind": "bearer", "name": "Authorization", "label": label })
            }
            (Some("apiKey"), _) => {
                let location = if str_of(scheme, "in") == Some("query") {
                    "query"
                } else {
                    "header"
                };
                json!({ "kind": location, "name": str_of(scheme, "name").unwrap_or("X-API-Key"), "label": label })
            }
            _ => continue,
        };
        out.push(entry);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Value {
        json!({
            "openapi": "3.1.0",
            "servers": [{"url": "https://api.example.com"}],
            "components": {
                "securitySchemes": {"key": {"type": "http", "scheme": "bearer", "description": "An API key. Secret."}},
                "schemas": {"Query": {"type": "object", "required": ["query"], "properties": {
                    "query": {"type": "string"}, "pageSize": {"type": "integer", "minimum": 1},
                    "filter": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}}},
                    "since": {"type": ["string", "null"], "format": "date-time"}
                }}}
            },
            "paths": {"/v1/search/{domain}": {
                "parameters": [{"name": "domain", "in": "path", "required": true, "schema": {"type": "string"}, "example": "docs.example.com"}],
                "post": {
                    "security": [{"key": []}],
                    "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "default": 5}}, {"name": "c", "in": "cookie"}],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Query"}}}}
                }
            }}
        })
    }

    #[test]
    fn the_spec_has_servers_parameters_auth_and_a_body_example_from_the_schema() {
        let d = doc();
        let item = &d["paths"]["/v1/search/{domain}"];
        let spec = operation_spec(&d, item, &item["post"], "post", "/v1/search/{domain}");
        assert_eq!(spec["method"], "POST");
        assert_eq!(spec["servers"], json!(["https://api.example.com"]));
        let params = spec["parameters"].as_array().unwrap();
        assert_eq!(params.len(), 2, "cookies are not offered: {params:?}");
        assert_eq!(
            (
                params[0]["name"].as_str(),
                params[0]["required"].as_bool(),
                params[0]["example"].as_str()
            ),
            (Some("domain"), Some(true), Some("docs.example.com"))
        );
        assert_eq!(
            (params[1]["in"].as_str(), params[1]["example"].as_str()),
            (Some("query"), Some("5"))
        );
        assert_eq!(
            spec["auth"],
            json!([{"kind": "bearer", "name": "Authorization", "label": "An API key"}])
        );
        let example: Value =
            serde_json::from_str(spec["body"]["example"].as_str().unwrap()).unwrap();
        assert_eq!(
            example,
            json!({"query": "string", "pageSize": 1, "filter": {"tags": ["a"]}, "since": "2026-01-01T00:00:00Z"})
        );
        assert_eq!(spec["body"]["mediaType"], "application/json");
    }

    #[test]
    fn examples_stop_at_cycles_and_prefer_the_documents_own() {
        let d = json!({"components": {"schemas": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Node"}}}}}});
        let v = example_of(&d, &json!({"$ref": "#/components/schemas/Node"}), 0);
        assert!(v.to_string().len() < 200, "{v}");
        assert_eq!(
            example_of(&d, &json!({"type": "string", "example": "x"}), 0),
            json!("x")
        );
        assert_eq!(
            example_of(
                &d,
                &json!({"oneOf": [{"type": "null"}, {"type": "boolean"}]}),
                0
            ),
            json!(true)
        );
    }
}
