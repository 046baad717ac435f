//! The site config's model, [`SiteConfig`], and what reading docs.json and mint.json shares: their
//! file names, the errors, JSON read with its position, colours, logo and favicon, page paths and
//! the navigation reader ([`NavReader`]). `config` reads docs.json into it, `mint` mint.json.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::endpoint;
use super::keys;
use super::nav::{Division, DivisionKind, NavItem};
use super::page_path::page_path_problem;
use super::settings::{
    self, as_string, str_field, ApiSettings, Appearance, Background, Banner, Feedback, Fonts,
    Footer, Navbar, Redirect,
};

pub const CONFIG_FILE: &str = "docs.json";
/// Mintlify's legacy config, read when there is no docs.json.
pub const LEGACY_CONFIG_FILE: &str = "mint.json";

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct SiteConfig {
    pub name: String,
    pub description: Option<String>,
    pub theme: Option<String>,
    pub logo: Option<Logo>,
    pub favicon: Option<Favicon>,
    pub colors: Colors,
    /// The navigation tree: languages, versions, tabs, groups and pages as declared.
    pub navigation: Vec<NavItem>,
    /// `navigation.global`: links shown on every page (global anchors, tabs, ...); mint.json's
    /// anchors and tabs whose url is external.
    pub global: Vec<NavItem>,
    /// The file it was read from: [`CONFIG_FILE`] or [`LEGACY_CONFIG_FILE`].
    #[serde(default)]
    pub file: String,
    #[serde(default)]
    pub navbar: Navbar,
    #[serde(default)]
    pub footer: Footer,
    #[serde(default)]
    pub redirects: Vec<Redirect>,
    #[serde(default)]
    pub api: ApiSettings,
    #[serde(default)]
    pub appearance: Appearance,
    #[serde(default)]
    pub background: Background,
    #[serde(default)]
    pub fonts: Option<Fonts>,
    #[serde(default)]
    pub banner: Option<Banner>,
    #[serde(default)]
    pub feedback: Option<Feedback>,
    /// docs.json `icons.library` (`fontawesome`, `lucide`, `tabler`); `None` is Font Awesome.
    #[serde(default)]
    pub icon_library: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Logo {
    pub light: Option<String>,
    pub dark: Option<String>,
    pub href: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Favicon {
    pub light: Option<String>,
    pub dark: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Colors {
    pub primary: Option<String>,
    pub light: Option<String>,
    pub dark: Option<String>,
    /// mint.json `colors.anchors`: one colour, or a gradient's stops.
    #[serde(default)]
    pub anchors: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    Missing,
    /// `message` is serde_json's, which ends with the position.
    Json {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    NotAnObject {
        file: String,
    },
    /// `$ref`s expanded past [`super::config::MAX_REF_EXPANSION`]; `file` is where the bound was reached.
    RefExpansion {
        file: String,
        limit: u64,
    },
    /// A page path that breaks [`page_path_problem`]; `field` is where (`navigation.tabs[0].pages[3]`)
    /// in `file` (docs.json or mint.json).
    BadPagePath {
        file: &'static str,
        field: String,
        path: String,
        rule: &'static str,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing => write!(f, "{CONFIG_FILE} is missing (and there is no legacy {LEGACY_CONFIG_FILE})"),
            Self::Json { file, message, .. } => write!(f, "{file}: invalid JSON: {message}"),
            Self::NotAnObject { file } => write!(f, "{file}: expected a JSON object"),
            Self::RefExpansion { file, limit } => write!(
                f,
                "{file}: $ref expansion exceeds {limit} nodes and bytes (each $ref copies the file it names)"
            ),
            Self::BadPagePath { file, field, path, rule } => write!(
                f,
                "{file} {field}: page path {path:?} {rule}; page paths must be plain relative paths"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

pub(super) fn parse_colors(colors: &Value) -> Colors {
    Colors {
        primary: colors.get("primary").and_then(as_string),
        light: colors.get("light").and_then(as_string),
        dark: colors.get("dark").and_then(as_string),
        anchors: colors
            .get("anchors")
            .map(settings::gradient)
            .unwrap_or_default(),
    }
}

pub(super) fn parse_json(file: &str, bytes: &[u8]) -> Result<Value, ConfigError> {
    serde_json::from_slice(bytes).map_err(|err| ConfigError::Json {
        file: file.to_owned(),
        line: err.line(),
        column: err.column(),
        message: err.to_string(),
    })
}

/// Child collections a navigation node may hold, with the kind and label key of their entries.
const COLLECTIONS: [(&str, DivisionKind, &str); 8] = [
    ("languages", DivisionKind::Language, "language"),
    ("versions", DivisionKind::Version, "version"),
    ("products", DivisionKind::Product, "product"),
    ("tabs", DivisionKind::Tab, "tab"),
    ("anchors", DivisionKind::Anchor, "anchor"),
    ("dropdowns", DivisionKind::Dropdown, "dropdown"),
    ("menu", DivisionKind::MenuItem, "item"),
    ("groups", DivisionKind::Group, "group"),
];

/// Reads navigation nodes of one config file, gathering its warnings.
pub(super) struct NavReader<'t> {
    pub(super) file: &'static str,
    /// The file's text, to give unknown keys a line.
    pub(super) text: &'t str,
    pub(super) warnings: Vec<String>,
}

impl NavReader<'_> {
    /// The divisions, pages and endpoints `node` holds, from its collections and `pages`.
    pub(super) fn children(
        &mut self,
        node: &Value,
        field: &str,
    ) -> Result<Vec<NavItem>, ConfigError> {
        let mut items = Vec::new();
        for (key, kind, label_key) in COLLECTIONS {
            if let Some(Value::Array(entries)) = node.get(key) {
                for (i, entry) in entries.iter().enumerate() {
                    if let Some(division) =
                        self.division(entry, kind, label_key, &format!("{field}.{key}[{i}]"))?
                    {
                        items.push(NavItem::Division(division));
                    }
                }
            }
        }
        if let Some(Value::Array(pages)) = node.get("pages") {
            for (i, entry) in pages.iter().enumerate() {
                let field = format!("{field}.pages[{i}]");
                match entry {
                    Value::String(path) => {
                        if let Some(item) = self.page_entry(path, &field)? {
                            items.push(item);
                        }
                    }
                    // Objects among pages are nested groups.
                    Value::Object(_) => {
                        if let Some(group) =
                            self.division(entry, DivisionKind::Group, "group", &field)?
                        {
                            items.push(NavItem::Division(group));
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(items)
    }

    /// A string of `pages`: an endpoint (`"GET /users"`) or a page path.
    pub(super) fn page_entry(
        &self,
        entry: &str,
        field: &str,
    ) -> Result<Option<NavItem>, ConfigError> {
        if let Some(endpoint) = endpoint::parse_entry(entry) {
            return Ok(Some(NavItem::Endpoint(endpoint)));
        }
        Ok(checked_page_path(self.file, entry, field)?.map(NavItem::Page))
    }

    pub(super) fn division(
        &mut self,
        entry: &Value,
        kind: DivisionKind,
        label_key: &str,
        field: &str,
    ) -> Result<Option<Division>, ConfigError> {
        let Value::Object(map) = entry else {
            return Ok(None);
        };
        self.unknown_keys(map, keys::NAVIGATION_NODE, field);
        let mut division = Division::new(kind, str_field(map, label_key).unwrap_or_default());
        division.href = str_field(map, "href");
        division.icon = match map.get("icon") {
            Some(Value::Object(icon)) => str_field(icon, "name"),
            Some(icon) => as_string(icon),
            None => None,
        };
        division.description = str_field(map, "description");
        division.hidden = map.get("hidden").and_then(Value::as_bool).unwrap_or(false);
        division.searchable = map
            .get("searchable")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        division.default = map.get("default").and_then(Value::as_bool).unwrap_or(false);
        division.expanded = map
            .get("expanded")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        division.tag = str_field(map, "tag");
        division.root = match map.get("root").and_then(Value::as_str) {
            Some(root) => checked_page_path(self.file, root, &format!("{field}.root"))?,
            None => None,
        };
        division.openapi = map
            .get("openapi")
            .and_then(|o| settings::openapi_sources(o).into_iter().next());
        division.items = self.children(entry, field)?;
        Ok(Some(division))
    }

    /// Warns about each key of `map` not in `known`; `field` is where `map` sits (empty: the root).
    pub(super) fn unknown_keys(&mut self, map: &Map<String, Value>, known: &[&str], field: &str) {
        for key in map.keys().filter(|k| !known.contains(&k.as_str())) {
            let at = match keys::line_of_key(self.text, key) {
                Some(line) => format!("{}:{line}", self.file),
                None => self.file.to_owned(),
            };
            let key: String = key.chars().take(80).collect();
            self.warnings.push(match field {
                "" => format!("{at}: unknown key `{key}` ignored"),
                field => format!("{at}: unknown key `{key}` at {field} ignored"),
            });
        }
    }
}

/// [`page_path`] of a path `file` lists at `field`, refused when it breaks the page path rule.
pub(super) fn checked_page_path(
    file: &'static str,
    raw: &str,
    field: &str,
) -> Result<Option<String>, ConfigError> {
    match page_path_problem(raw) {
        Some(rule) => Err(ConfigError::BadPagePath {
            file,
            field: field.to_owned(),
            path: raw.chars().take(200).collect(),
            rule,
        }),
        None => Ok(page_path(raw)),
    }
}

/// Page paths as the site serves them: docs.json may write `/guides/x.mdx` for `guides/x`.
pub fn page_path(raw: &str) -> Option<String> {
    let path = raw.trim().trim_start_matches('/');
    let path = path
        .strip_suffix(".mdx")
        .or_else(|| path.strip_suffix(".md"))
        .unwrap_or(path);
    let path = path.trim_end_matches('/');
    (!path.is_empty()).then(|| path.to_owned())
}

pub(super) fn parse_logo(value: &Value) -> Option<Logo> {
    match value {
        Value::String(both) => Some(Logo {
            light: Some(both.clone()),
            dark: Some(both.clone()),
            href: None,
        }),
        Value::Object(map) => Some(Logo {
            light: str_field(map, "light"),
            dark: str_field(map, "dark"),
            href: str_field(map, "href"),
        }),
        _ => None,
    }
}

pub(super) fn parse_favicon(value: &Value) -> Option<Favicon> {
    match value {
        Value::String(both) => Some(Favicon {
            light: Some(both.clone()),
            dark: Some(both.clone()),
        }),
        Value::Object(map) => Some(Favicon {
            light: str_field(map, "light"),
            dark: str_field(map, "dark"),
        }),
        _ => None,
    }
}
