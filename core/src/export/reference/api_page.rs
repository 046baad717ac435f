//! The layout of an API page: the endpoint bar on top, then two columns on wide screens (site.css
//! `.api-layout`, one column on narrow ones): the page's own text and the reference on the left;
//! the request and response examples on the right, sticky. The authored `RequestExample` and
//! `ResponseExample` move there and take the place of the generated ones (as on the live site).
//!
//! An API page is one with `openapi:` (the reference comes from the OpenAPI document, see
//! `openapi`), one with `api: "POST https://api.example.com/v1/x"` (no document: the request is
//! made from the page's `ParamField`s and docs.json's `api.auth`), or any page holding a
//! `RequestExample` or `ResponseExample`.

use serde_json::{json, Map, Value};

use crate::docs::config::SiteConfig;
use crate::docs::endpoint::METHODS;
use crate::docs::frontmatter;
use crate::docs::jsx::{scan_tag, AttrValue, Tag};

use crate::export::html::element;
use crate::export::reference::openapi::{self, Reference, Specs};
use crate::export::reference::playground;
use crate::export::reference::samples::{self, Sample};
use crate::export::render::code::Highlight;
use crate::export::render::links::Linker;
use crate::export::render::markdown::Heading;

/// The page's rendered MDX `body` laid out with its endpoint reference and examples; the headings
/// the reference adds. `api` is the page's frontmatter `api:` value ([`api_frontmatter`]), `mdx`
/// its body source, `openapi` its `openapi:` value.
pub(crate) fn lay_out(
    body: String,
    openapi_value: Option<&str>,
    api: Option<String>,
    mdx: &str,
    (source, title): (&str, &str),
    config: &SiteConfig,
    specs: &mut Specs<'_>,
    links: &Linker<'_>,
    highlighter: &dyn Highlight,
) -> (String, Vec<Heading>) {
    let reference = match openapi_value {
        Some(value) => openapi::render(value, source, title, specs, links, highlighter),
        None => api.and_then(|value| api_reference(&value, mdx, config, specs.playground)),
    };
    let (body, authored) = take_examples(body);
    if reference.is_none() && authored.is_empty() {
        return (body, Vec::new());
    }
    let reference = reference.unwrap_or_default();
    let mut aside = String::new();
    let requests = authored
        .iter()
        .filter(|e| e.request)
        .map(|e| e.html.as_str())
        .collect::<String>();
    let responses = authored
        .iter()
        .filter(|e| !e.request)
        .map(|e| e.html.as_str())
        .collect::<String>();
    push_or_generate(
        &mut aside,
        &requests,
        "Request",
        &reference.requests,
        highlighter,
    );
    push_or_generate(
        &mut aside,
        &responses,
        "Response",
        &reference.responses,
        highlighter,
    );
    let mut out = reference.bar;
    if aside.is_empty() {
        out.push_str(&body);
        out.push_str(&reference.main);
    } else {
        out.push_str("<div class=\"api-layout\"><div class=\"api-main\">");
        out.push_str(&body);
        out.push_str(&reference.main);
        // A region that scrolls on its own: focusable, so a keyboard reaches it too.
        out.push_str("</div><div class=\"api-aside\" role=\"region\" aria-label=\"Examples\" tabindex=\"0\">");
        out.push_str(&aside);
        out.push_str("</div></div>");
    }
    (out, reference.headings)
}

fn push_or_generate(
    out: &mut String,
    authored: &str,
    title: &str,
    generated: &[Sample],
    highlighter: &dyn Highlight,
) {
    if authored.is_empty() {
        samples::write_group(out, title, generated, highlighter);
    } else {
        out.push_str(authored);
    }
}

/// `api:` frontmatter, as written: of `parsed`, the frontmatter `yaml` parsed, else of what can be
/// salvaged from it.
pub(crate) fn api_frontmatter(
    yaml: &str,
    parsed: Option<&frontmatter::Frontmatter>,
) -> Option<String> {
    let salvaged;
    let fm = match parsed {
        Some(fm) => fm,
        None => {
            salvaged = frontmatter::salvage(yaml);
            &salvaged
        }
    };
    fm.extra
        .get("api")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// An authored example taken out of the body.
struct Example {
    request: bool,
    html: String,
}

/// The markup `components` writes for the two example components.
const REQUEST_OPEN: &str = "<div class=\"example request-example\"";
const RESPONSE_OPEN: &str = "<div class=\"example response-example\"";

/// Cuts the authored examples that stand at the top level of `body` out of it. The body is the
/// renderer's own markup (text and attribute values escaped), so counting `<div` and `</div>`
/// finds each example's end; an example inside another block stays where it is.
fn take_examples(body: String) -> (String, Vec<Example>) {
    if !body.contains(REQUEST_OPEN) && !body.contains(RESPONSE_OPEN) {
        return (body, Vec::new());
    }
    let mut kept = String::with_capacity(body.len());
    let mut examples = Vec::new();
    let mut depth = 0usize;
    let mut rest = body.as_str();
    while let Some(at) = rest
        .find("<div")
        .into_iter()
        .chain(rest.find("</div>"))
        .min()
    {
        let (before, from) = rest.split_at(at);
        kept.push_str(before);
        if let Some(after) = from.strip_prefix("</div>") {
            depth = depth.saturating_sub(1);
            kept.push_str("</div>");
            rest = after;
            continue;
        }
        let request = from.starts_with(REQUEST_OPEN);
        if depth == 0 && (request || from.starts_with(RESPONSE_OPEN)) {
            if let Some(len) = element_len(from) {
                examples.push(Example {
                    request,
                    html: from[..len].to_owned(),
                });
                rest = &from[len..];
                continue;
            }
        }
        depth += 1;
        kept.push_str("<div");
        rest = &from[4..];
    }
    kept.push_str(rest);
    (kept, examples)
}

/// Length of the `<div>` element `html` starts with, up to its matching `</div>`.
fn element_len(html: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < html.len() {
        let rest = &html[i..];
        let next = rest
            .find("<div")
            .into_iter()
            .chain(rest.find("</div>"))
            .min()?;
        i += next;
        if html[i..].starts_with("</div>") {
            depth -= 1;
            i += 6;
            if depth == 0 {
                return Some(i);
            }
        } else {
            depth += 1;
            i += 4;
        }
    }
    None
}

/// The reference of an `api:` page: `"POST https://api.example.com/v1/x"`, or a path on docs.json's
/// `api.baseUrl` (`api.mdx.server`).
fn api_reference(
    value: &str,
    mdx: &str,
    config: &SiteConfig,
    playground: bool,
) -> Option<Reference> {
    let (method, url) = value.trim().split_once(char::is_whitespace)?;
    let method = method.to_ascii_lowercase();
    if !METHODS.contains(&method.as_str()) {
        return None;
    }
    let url = url.trim();
    let (server, path) = match url.split_once("://") {
        Some((scheme, rest)) => {
            let cut = rest.find('/').unwrap_or(rest.len());
            (
                format!("{scheme}://{}", &rest[..cut]),
                rest[cut..].to_owned(),
            )
        }
        None => (
            config.api.base_urls.first().cloned().unwrap_or_default(),
            url.to_owned(),
        ),
    };
    let path = if path.starts_with('/') {
        path
    } else {
        format!("/{path}")
    };
    let mut reference = Reference::default();
    openapi::endpoint_bar(&mut reference.bar, &method, &path);
    let spec = param_field_spec(&method, &path, &server, mdx, config);
    if !server.is_empty() {
        reference
            .main
            .push_str("<p class=\"api-server\">Base URL: ");
        element(&mut reference.main, "code", "", &server);
        reference.main.push_str("</p>");
    }
    if playground {
        playground::panel(&mut reference.main, &spec);
    }
    reference.requests = samples::request_samples(&spec, None);
    Some(reference)
}

/// Most `ParamField`s read from one page.
const MAX_FIELDS: usize = 200;

/// `operation`'s request shape from the page's `ParamField`s (`path`, `query`, `header`, `body`)
/// and docs.json's `api.auth`.
fn param_field_spec(
    method: &str,
    path: &str,
    server: &str,
    mdx: &str,
    config: &SiteConfig,
) -> Value {
    let mut parameters = Vec::new();
    let mut body = Map::new();
    for tag in param_fields(mdx).iter().take(MAX_FIELDS) {
        let Some((location, name)) = ["path", "query", "header", "body"]
            .iter()
            .find_map(|l| tag.text_attr(l).map(|name| (*l, name)))
        else {
            continue;
        };
        let kind = tag
            .text_attr("type")
            .unwrap_or("string")
            .to_ascii_lowercase();
        let given = tag
            .shown_value("default")
            .or_else(|| tag.text_attr("placeholder"));
        if location == "body" {
            body.insert(name.to_owned(), body_value(&kind, given));
            continue;
        }
        parameters.push(json!({
            "name": name,
            "in": location,
            "required": location == "path" || tag.flag("required"),
            "type": kind,
            "enum": Value::Null,
            "example": given.unwrap_or(""),
        }));
    }
    let body = (!body.is_empty()).then(|| {
        json!({
            "mediaType": "application/json",
            "required": true,
            "example": serde_json::to_string_pretty(&Value::Object(body)).unwrap_or_default(),
        })
    });
    json!({
        "method": method.to_ascii_uppercase(),
        "path": path,
        "servers": if server.is_empty() { vec![] } else { vec![server] },
        "parameters": parameters,
        "body": body,
        "auth": config_auth(config),
    })
}

/// A body field's example: its default read as JSON when it is JSON, else one of its type.
fn body_value(kind: &str, given: Option<&str>) -> Value {
    if let Some(given) = given {
        return serde_json::from_str(given).unwrap_or_else(|_| json!(given));
    }
    match kind.split(['<', '[']).next().unwrap_or("") {
        "number" | "integer" => json!(0),
        "boolean" | "bool" => json!(true),
        "object" => json!({}),
        _ if kind.starts_with("array") || kind.ends_with("[]") => json!([]),
        _ => json!("string"),
    }
}

/// docs.json `api.auth` as `operation`'s credentials: `bearer`, `basic`, or `key` (a header).
fn config_auth(config: &SiteConfig) -> Vec<Value> {
    let Some(auth) = &config.api.auth else {
        return Vec::new();
    };
    match auth.method.as_deref() {
        Some("bearer") => {
            vec![json!({"kind": "bearer", "name": "Authorization", "label": "Bearer token"})]
        }
        Some("basic") => {
            vec![json!({"kind": "basic", "name": "Authorization", "label": "Credentials"})]
        }
        Some("key") => {
            let name = auth.name.as_deref().unwrap_or("X-API-Key");
            vec![json!({"kind": "header", "name": name, "label": name})]
        }
        _ => Vec::new(),
    }
}

/// The `<ParamField …>` tags of an MDX body outside fenced code.
fn param_fields(mdx: &str) -> Vec<Tag<'_>> {
    let mut tags = Vec::new();
    let mut fence: Option<&str> = None;
    let mut offset = 0;
    for line in mdx.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => {
                fence = Some(m);
                continue;
            }
            (Some(open), Some(m)) if open == m => {
                fence = None;
                continue;
            }
            (Some(_), _) => continue,
            (None, None) => {}
        }
        let mut from = 0;
        while let Some(at) = line[from..].find("<ParamField") {
            let at = from + at;
            if let Some((tag, _)) = scan_tag(&mdx[start + at..]) {
                if tag.name == "ParamField"
                    && !tag
                        .attrs
                        .iter()
                        .any(|a| matches!(a.value, AttrValue::Expr(_)) && a.name.is_empty())
                {
                    tags.push(tag);
                }
            }
            from = at + 1;
        }
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::settings::ApiAuth;
    use crate::export::render::code::PlainCode;
    use std::collections::BTreeMap;

    fn lay(
        body: &str,
        openapi_value: Option<&str>,
        yaml: Option<&str>,
        mdx: &str,
        config: &SiteConfig,
        playground: bool,
    ) -> String {
        let files = tree(&[(
            "openapi.json",
            r#"{"openapi": "3.1.0", "servers": [{"url": "https://api.example.com"}], "paths": {"/health": {"get": {"x-codeSamples": [{"lang": "go", "source": "health()"}], "responses": {"200": {"description": "ok", "content": {"application/json": {"example": {"ok": true}}}}}}}}}"#,
        )]);
        let pages = BTreeMap::new();
        let links = Linker::new("api/x", "api/x.mdx", &pages, &files, "d.io");
        let mut specs = Specs::new(&files);
        specs.playground = playground;
        let api = yaml.and_then(|y| api_frontmatter(y, frontmatter::parse(y).ok().as_ref()));
        lay_out(
            body.to_owned(),
            openapi_value,
            api,
            mdx,
            ("api/x.mdx", "X"),
            config,
            &mut specs,
            &links,
            &PlainCode,
        )
        .0
    }

    #[test]
    fn openapi_pages_get_the_bar_on_top_and_the_samples_beside_the_reference() {
        let out = lay(
            "<p>Intro.</p>",
            Some("GET /health"),
            None,
            "",
            &SiteConfig::default(),
            false,
        );
        let bar = out.find("<div class=\"endpoint\">").unwrap();
        let main = out.find("<div class=\"api-layout\"><div class=\"api-main\"><p>Intro.</p><section class=\"api-ref\"").unwrap();
        let aside = out
            .find(
                "<div class=\"api-aside\" role=\"region\" aria-label=\"Examples\" tabindex=\"0\">",
            )
            .unwrap();
        assert!(bar < main && main < aside, "{out}");
        let aside = &out[aside..];
        let tabs: Vec<&str> = aside
            .split("data-title=\"")
            .skip(1)
            .map(|s| s.split('"').next().unwrap())
            .collect();
        assert_eq!(
            tabs,
            ["go", "cURL", "Python", "JavaScript", "200"],
            "{aside}"
        );
        assert!(
            !out.contains("try-it"),
            "no playground unless the deployment has it"
        );
    }

    #[test]
    fn authored_examples_move_beside_and_replace_the_generated_ones() {
        let body = "<p>a</p><div class=\"example request-example\" data-tabs><p class=\"example-title\">Request example</p><div class=\"code-block\">R</div></div><div class=\"tabs\"><div class=\"example response-example\" data-tabs><div>nested</div></div></div><p>b</p>";
        let out = lay(
            body,
            Some("GET /health"),
            None,
            "",
            &SiteConfig::default(),
            false,
        );
        let (main, aside) = out.split_once("api-aside").unwrap();
        assert!(main.contains("<p>a</p><div class=\"tabs\"><div class=\"example response-example\" data-tabs><div>nested</div></div></div><p>b</p>"), "{main}");
        assert!(
            aside.contains("Request example</p><div class=\"code-block\">R</div></div>"),
            "{aside}"
        );
        assert!(
            !aside.contains("cURL"),
            "the authored request replaces the generated ones: {aside}"
        );
        assert!(
            aside.contains("data-title=\"200\""),
            "responses are still generated: {aside}"
        );
        // A plain page with an example gets the two columns too, without a bar.
        let out = lay(body, None, None, "", &SiteConfig::default(), false);
        assert!(
            out.starts_with("<div class=\"api-layout\">") && !out.contains("endpoint"),
            "{out}"
        );
        // A page without any stays as it was.
        assert_eq!(
            lay(
                "<div><p>x</p></div>",
                None,
                None,
                "",
                &SiteConfig::default(),
                false
            ),
            "<div><p>x</p></div>"
        );
    }

    #[test]
    fn api_frontmatter_pages_get_a_bar_samples_from_param_fields_and_the_playground() {
        let mdx = "<ParamField path=\"id\" type=\"string\" required>Id</ParamField>\n<ParamField query=\"limit\" type=\"integer\" default={10}>L</ParamField>\n<ParamField body=\"name\" type=\"string\" placeholder=\"Ada\" />\n<ParamField body=\"tags\" type=\"string[]\" />\n```mdx\n<ParamField query=\"notme\" />\n```\n";
        let mut config = SiteConfig::default();
        config.api.auth = Some(ApiAuth {
            method: Some("key".into()),
            name: Some("X-Key".into()),
            input_prefix: None,
        });
        let yaml = "title: Create\napi: \"POST https://api.example.com/v1/users/{id}\"";
        let out = lay("<p>Doc.</p>", None, Some(yaml), mdx, &config, true);
        assert!(out.starts_with("<div class=\"endpoint\"><span class=\"method method-post\">POST</span><code class=\"api-path\">/v1/users/{id}</code></div>"), "{out}");
        assert!(
            out.contains("Base URL: <code>https://api.example.com</code>"),
            "{out}"
        );
        assert!(out.contains("class=\"try-it-spec\">"), "{out}");
        let spec: Value = serde_json::from_str(
            out.split("try-it-spec\">")
                .nth(1)
                .unwrap()
                .split("</script>")
                .next()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(spec["servers"], json!(["https://api.example.com"]));
        let names: Vec<&str> = spec["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["id", "limit"], "fenced code is not read");
        assert_eq!(spec["parameters"][1]["example"], "10");
        assert_eq!(
            serde_json::from_str::<Value>(spec["body"]["example"].as_str().unwrap()).unwrap(),
            json!({"name": "Ada", "tags": []})
        );
        assert_eq!(
            spec["auth"],
            json!([{"kind": "header", "name": "X-Key", "label": "X-Key"}])
        );
        assert!(out.contains("data-title=\"cURL\""), "{out}");
        assert!(
            out.contains("--header &#39;X-Key: &lt;api-key&gt;&#39;")
                || out.contains("--header 'X-Key: &lt;api-key&gt;'"),
            "{out}"
        );
        // A path alone is on docs.json's base URL; a value that is no endpoint is no reference.
        config.api.base_urls = vec!["https://base.example.com".into()];
        let out = lay("", None, Some("api: GET /v2/x"), "", &config, false);
        assert!(
            out.contains("--url &#39;https://base.example.com/v2/x&#39;")
                || out.contains("--url 'https://base.example.com/v2/x'"),
            "{out}"
        );
        assert_eq!(
            lay(
                "<p>x</p>",
                None,
                Some("api: hello world"),
                "",
                &config,
                false
            ),
            "<p>x</p>"
        );
    }

    #[test]
    fn unbalanced_markup_leaves_the_body_whole() {
        let body = "<div class=\"example request-example\"><div>never closed";
        let (kept, examples) = take_examples(body.to_owned());
        assert_eq!((kept.as_str(), examples.len()), (body, 0));
    }
}
