//! The site-wide settings of docs.json and mint.json besides navigation: navbar, footer, redirects,
//! API settings, appearance, background, fonts, banner and feedback, kept as data in
//! [`super::config::SiteConfig`] for whoever renders them. Each reader maps its file's shape onto
//! the same types (mint.json's `topbarLinks` and docs.json's `navbar.links` both become
//! [`Navbar::links`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::nav::OpenApiSource;

/// A link with a label: navbar links, the primary button, footer column items.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Link {
    pub label: String,
    pub href: String,
    /// `type` as written (`github`, `discord`, `button`); `None` for a plain link.
    pub kind: Option<String>,
    pub icon: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Navbar {
    pub links: Vec<Link>,
    /// The call-to-action button (`navbar.primary`, mint.json `topbarCtaButton`).
    pub primary: Option<Link>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Footer {
    /// `(platform, url)` in declared order (`("github", "https://github.com/acme")`).
    pub socials: Vec<(String, String)>,
    pub columns: Vec<FooterColumn>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct FooterColumn {
    pub header: Option<String>,
    pub items: Vec<Link>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Redirect {
    pub source: String,
    pub destination: String,
    /// 308 when true (the default), 307 when false.
    pub permanent: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct ApiSettings {
    /// `api.openapi` (mint.json: top-level `openapi`), string or list or `{source, directory}`.
    pub openapi: Vec<OpenApiSource>,
    /// mint.json `api.baseUrl` (docs.json: `api.mdx.server`).
    pub base_urls: Vec<String>,
    /// `interactive`, `simple`, `none` or `auth` (mint.json's `show`/`hide` mapped to
    /// `interactive`/`none`).
    pub playground: Option<String>,
    pub auth: Option<ApiAuth>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct ApiAuth {
    /// `bearer`, `basic`, `key` or `cobo`.
    pub method: Option<String>,
    pub name: Option<String>,
    pub input_prefix: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Appearance {
    /// `system`, `light` or `dark` (mint.json `modeToggle.default`).
    pub default: Option<String>,
    /// No light/dark toggle (mint.json `modeToggle.isHidden`).
    pub strict: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Background {
    /// `gradient`, `grid` or `windows`.
    pub decoration: Option<String>,
    /// Background colour per mode (mint.json `colors.background`).
    pub color: Option<Pair>,
    /// Background image per mode (mint.json `backgroundImage`, one for both).
    pub image: Option<Pair>,
}

/// A value for light mode and one for dark mode.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Pair {
    pub light: Option<String>,
    pub dark: Option<String>,
}

/// `fonts`: the site's font, and the heading and body fonts that override it field by field.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Fonts {
    pub site: Font,
    pub heading: Font,
    pub body: Font,
}

/// One font as the format gives it: every field optional.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Font {
    pub family: Option<String>,
    /// A CSS weight, 1 to 1000 (variable fonts take any of them, such as 550).
    pub weight: Option<u16>,
    /// Where the font file is: a path in the repository or a URL.
    pub source: Option<String>,
    /// The file's format as written (`woff2`, `woff`, ...).
    pub format: Option<String>,
}

impl Fonts {
    /// The heading font: its own family, source and format, or the site font's. Its weight is only
    /// its own: the site's `weight` is the body text's, and headings stay bold unless told otherwise.
    pub fn for_headings(&self) -> Font {
        Font {
            weight: self.heading.weight,
            ..self.heading.over(&self.site)
        }
    }

    /// The body font: its own fields, or the site font's where it has none. A source and format
    /// belong to their family, so they are taken from the site font only with its family.
    pub fn for_body(&self) -> Font {
        self.body.over(&self.site)
    }

    /// The fonts as written, each with its own family and source: the faces a stylesheet declares.
    pub fn parts(&self) -> [&Font; 3] {
        [&self.site, &self.heading, &self.body]
    }
}

impl Font {
    fn over(&self, base: &Font) -> Font {
        let own_family = self.family.is_some();
        let face = if own_family { self } else { base };
        Font {
            family: face.family.clone(),
            weight: self.weight.or(base.weight),
            source: face.source.clone(),
            format: face.format.clone(),
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Banner {
    pub content: String,
    pub dismissible: bool,
}

/// mint.json `feedback`: which feedback controls pages show.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Feedback {
    pub thumbs_rating: bool,
    pub suggest_edit: bool,
    pub raise_issue: bool,
}

pub(super) fn str_field(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).and_then(as_string)
}

/// Labels are strings, but a version label written as a number (`"version": 2`) still reads.
pub(super) fn as_string(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn flag(map: &Map<String, Value>, key: &str) -> bool {
    map.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items.iter().filter_map(as_string).collect(),
        Some(other) => as_string(other).into_iter().collect(),
        None => Vec::new(),
    }
}

/// `"spec.json"`, `["a.json", "b.json"]` or `{"source": "a.json", "directory": "api"}`.
pub fn openapi_sources(value: &Value) -> Vec<OpenApiSource> {
    match value {
        Value::Array(items) => items.iter().flat_map(openapi_sources).collect(),
        Value::String(source) if !source.trim().is_empty() => {
            vec![OpenApiSource {
                source: source.trim().to_owned(),
                directory: None,
            }]
        }
        Value::Object(map) => match str_field(map, "source").filter(|s| !s.trim().is_empty()) {
            Some(source) => vec![OpenApiSource {
                source: source.trim().to_owned(),
                directory: str_field(map, "directory"),
            }],
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// `redirects` of either file: a list of `{source, destination, permanent?}`.
pub(super) fn redirects(value: &Value) -> Vec<Redirect> {
    let Value::Array(items) = value else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(Value::as_object)
        .filter_map(|map| {
            Some(Redirect {
                source: str_field(map, "source")?,
                destination: str_field(map, "destination")?,
                permanent: map
                    .get("permanent")
                    .and_then(Value::as_bool)
                    .unwrap_or(true),
            })
        })
        .collect()
}

fn pair(value: &Value) -> Option<Pair> {
    match value {
        Value::String(both) => Some(Pair {
            light: Some(both.clone()),
            dark: Some(both.clone()),
        }),
        Value::Object(map) => Some(Pair {
            light: str_field(map, "light"),
            dark: str_field(map, "dark"),
        }),
        _ => None,
    }
}

/// docs.json `navbar`: `links` of `{label, href, type?, icon?}`, `primary` `{type, label?, href}`.
pub(super) fn navbar(value: &Value) -> Navbar {
    let link = |v: &Value| {
        let map = v.as_object()?;
        let kind = str_field(map, "type");
        Some(Link {
            label: str_field(map, "label")
                .or_else(|| kind.clone())
                .unwrap_or_default(),
            href: str_field(map, "href")?,
            kind,
            icon: str_field(map, "icon"),
        })
    };
    Navbar {
        links: value
            .get("links")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(link)
            .collect(),
        primary: value.get("primary").and_then(link),
    }
}

/// docs.json `footer`: `socials` `{platform: url}`, `links` columns `{header?, items: [{label, href}]}`.
pub(super) fn footer(value: &Value) -> Footer {
    let columns = value
        .get("links")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    Footer {
        socials: socials(value.get("socials").unwrap_or(&Value::Null)),
        columns: columns
            .filter_map(Value::as_object)
            .map(|column| FooterColumn {
                header: str_field(column, "header"),
                items: column
                    .get("items")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_object)
                    .filter_map(|item| {
                        Some(Link {
                            label: str_field(item, "label")?,
                            href: str_field(item, "href")?,
                            ..Link::default()
                        })
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// `{platform: url}`, or mint.json's other form, a list of `{type, url}`.
pub(super) fn socials(value: &Value) -> Vec<(String, String)> {
    match value {
        Value::Object(map) => map
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), as_string(v)?)))
            .collect(),
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_object)
            .filter_map(|m| Some((str_field(m, "type")?, str_field(m, "url")?)))
            .collect(),
        _ => Vec::new(),
    }
}

/// docs.json `api`.
pub(super) fn docs_api(value: &Value) -> ApiSettings {
    let mdx = value.get("mdx");
    ApiSettings {
        openapi: value
            .get("openapi")
            .map(openapi_sources)
            .unwrap_or_default(),
        base_urls: strings(mdx.and_then(|m| m.get("server"))),
        playground: value
            .get("playground")
            .and_then(|p| p.get("display"))
            .and_then(as_string),
        auth: mdx
            .and_then(|m| m.get("auth"))
            .and_then(Value::as_object)
            .map(auth),
    }
}

/// mint.json `api` plus its top-level `openapi`.
pub(super) fn mint_api(value: &Value, openapi: &Value) -> ApiSettings {
    let playground = value
        .get("playground")
        .and_then(|p| p.get("mode"))
        .and_then(as_string)
        .map(|mode| match mode.as_str() {
            "show" => "interactive".to_owned(),
            "hide" => "none".to_owned(),
            _ => mode,
        });
    ApiSettings {
        openapi: openapi_sources(openapi),
        base_urls: strings(value.get("baseUrl")),
        playground,
        auth: value.get("auth").and_then(Value::as_object).map(auth),
    }
}

fn auth(map: &Map<String, Value>) -> ApiAuth {
    ApiAuth {
        method: str_field(map, "method"),
        name: str_field(map, "name"),
        input_prefix: str_field(map, "inputPrefix"),
    }
}

/// docs.json `appearance` `{default, strict}`.
pub(super) fn appearance(value: &Value) -> Appearance {
    Appearance {
        default: value.get("default").and_then(as_string),
        strict: value.as_object().is_some_and(|m| flag(m, "strict")),
    }
}

/// mint.json `modeToggle` `{default, isHidden}`.
pub(super) fn mode_toggle(value: &Value) -> Appearance {
    Appearance {
        default: value.get("default").and_then(as_string),
        strict: value.as_object().is_some_and(|m| flag(m, "isHidden")),
    }
}

/// docs.json `background` `{decoration, color: {light, dark}, image: string | {light, dark}}`.
pub(super) fn background(value: &Value) -> Background {
    Background {
        decoration: value.get("decoration").and_then(as_string),
        color: value.get("color").and_then(pair),
        image: value.get("image").and_then(pair),
    }
}

/// mint.json: `colors.background` and `backgroundImage`.
pub(super) fn mint_background(colors: &Value, image: &Value) -> Background {
    Background {
        decoration: None,
        color: colors.get("background").and_then(pair),
        image: pair(image),
    }
}

/// `fonts` `{family, weight, source, format, heading: {…the same}, body: {…}}`; mint.json's `font`
/// has the same shape with `headings` and `url` for `source`.
pub(super) fn fonts(value: &Value) -> Option<Fonts> {
    let map = value.as_object()?;
    let part = |key: &str| {
        map.get(key)
            .and_then(Value::as_object)
            .map(font)
            .unwrap_or_default()
    };
    let heading = if map.contains_key("heading") {
        part("heading")
    } else {
        part("headings")
    };
    Some(Fonts {
        site: font(map),
        heading,
        body: part("body"),
    })
}

fn font(map: &Map<String, Value>) -> Font {
    Font {
        family: str_field(map, "family"),
        weight: map.get("weight").and_then(font_weight),
        source: str_field(map, "source").or_else(|| str_field(map, "url")),
        format: str_field(map, "format"),
    }
}

/// `400`, `"550"`, `"bold"`; anything else (out of CSS's 1–1000, other words) is no weight.
fn font_weight(value: &Value) -> Option<u16> {
    let weight = match value {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => match s.trim() {
            "normal" => 400.0,
            "bold" => 700.0,
            number => number.parse().ok()?,
        },
        _ => return None,
    };
    (1.0..=1000.0)
        .contains(&weight)
        .then(|| weight.round() as u16)
}

pub(super) fn banner(value: &Value) -> Option<Banner> {
    let map = value.as_object()?;
    Some(Banner {
        content: str_field(map, "content")?,
        dismissible: flag(map, "dismissible"),
    })
}

pub(super) fn feedback(value: &Value) -> Option<Feedback> {
    let map = value.as_object()?;
    Some(Feedback {
        thumbs_rating: flag(map, "thumbsRating"),
        suggest_edit: flag(map, "suggestEdit"),
        raise_issue: flag(map, "raiseIssue"),
    })
}

/// mint.json `topbarLinks` / `topbarCtaButton`: `{name, url}` or `{type: "github", url}`.
pub(super) fn mint_link(value: &Value) -> Option<Link> {
    let map = value.as_object()?;
    let kind = str_field(map, "type").filter(|t| t != "link");
    Some(Link {
        label: str_field(map, "name")
            .or_else(|| kind.clone())
            .unwrap_or_default(),
        href: str_field(map, "url")?,
        kind,
        icon: None,
    })
}

/// mint.json `colors.anchors`: one colour or a `{from, via?, to}` gradient, as its stops.
pub(super) fn gradient(value: &Value) -> Vec<String> {
    match value {
        Value::Object(map) => ["from", "via", "to"]
            .iter()
            .filter_map(|k| str_field(map, k))
            .collect(),
        other => as_string(other).into_iter().collect(),
    }
}
