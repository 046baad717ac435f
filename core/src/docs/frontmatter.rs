//! The YAML block between `---` lines at the top of a page.

use std::fmt;

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

use super::yaml_budget::{check_alias_expansion, AliasExpansionTooLarge};

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Frontmatter {
    pub title: Option<String>,
    pub description: Option<String>,
    pub sidebar_title: Option<String>,
    pub openapi: Option<String>,
    pub hidden: bool,
    pub keywords: Vec<String>,
    /// Every other key (`icon`, `mode`, `tag`, ...), as JSON values.
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontmatterError {
    /// yaml-rust2's message, which includes line and column.
    Yaml(String),
    NotAMapping,
    /// Aliases that would expand past the bound: refused, never salvaged.
    Aliases(AliasExpansionTooLarge),
}

impl fmt::Display for FrontmatterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Yaml(message) => write!(f, "invalid frontmatter YAML: {message}"),
            Self::NotAMapping => f.write_str("frontmatter is not a key: value mapping"),
            Self::Aliases(err) => write!(f, "frontmatter: {err}"),
        }
    }
}

impl std::error::Error for FrontmatterError {}

/// Splits `source` into the raw frontmatter (without the `---` lines) and the body after it.
/// Without a complete `---` block, the whole source is the body.
pub fn split(source: &str) -> (Option<&str>, &str) {
    let text = source.strip_prefix('\u{feff}').unwrap_or(source);
    let Some(after_open) = strip_delimiter_line(text) else {
        return (None, source);
    };
    let mut offset = 0;
    for line in after_open.split_inclusive('\n') {
        let bare = line.trim_end();
        if bare == "---" || bare == "..." {
            let yaml = &after_open[..offset];
            let body = &after_open[offset + line.len()..];
            return (Some(yaml), body);
        }
        offset += line.len();
    }
    (None, source)
}

fn strip_delimiter_line(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---")?;
    let rest = rest.trim_start_matches([' ', '\t']);
    rest.strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'))
}

/// Parses frontmatter YAML. Empty input is an empty frontmatter.
pub fn parse(yaml: &str) -> Result<Frontmatter, FrontmatterError> {
    check_alias_expansion(yaml).map_err(FrontmatterError::Aliases)?;
    let docs =
        YamlLoader::load_from_str(yaml).map_err(|e| FrontmatterError::Yaml(e.to_string()))?;
    let Some(doc) = docs.into_iter().next() else {
        return Ok(Frontmatter::default());
    };
    let Yaml::Hash(hash) = doc else {
        return match doc {
            Yaml::Null => Ok(Frontmatter::default()),
            _ => Err(FrontmatterError::NotAMapping),
        };
    };
    let mut fm = Frontmatter::default();
    for (key, value) in hash {
        let Some(key) = scalar_string(&key) else {
            continue;
        };
        match key.as_str() {
            "title" => fm.title = scalar_string(&value),
            "description" => fm.description = scalar_string(&value),
            "sidebarTitle" => fm.sidebar_title = scalar_string(&value),
            "openapi" => fm.openapi = scalar_string(&value),
            "hidden" => fm.hidden = value.as_bool().unwrap_or(false),
            "keywords" => fm.keywords = string_list(&value),
            _ => {
                fm.extra.insert(key, to_json(value));
            }
        }
    }
    Ok(fm)
}

/// Best effort for YAML that does not parse, e.g. `title: Setup: the basics` (an unquoted colon):
/// one `key: value` per top-level line, known string keys only.
pub fn salvage(yaml: &str) -> Frontmatter {
    let mut fm = Frontmatter::default();
    for line in yaml.lines() {
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = unquote(value.trim());
        if value.is_empty() {
            continue;
        }
        let slot = match key.trim() {
            "title" => &mut fm.title,
            "description" => &mut fm.description,
            "sidebarTitle" => &mut fm.sidebar_title,
            "openapi" => &mut fm.openapi,
            _ => continue,
        };
        *slot = Some(value.to_owned());
    }
    fm
}

fn unquote(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|v| v.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

/// Titles like `404` or `2.0` are written unquoted; they are still titles.
fn scalar_string(value: &Yaml) -> Option<String> {
    match value {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn string_list(value: &Yaml) -> Vec<String> {
    match value {
        Yaml::Array(items) => items.iter().filter_map(scalar_string).collect(),
        other => scalar_string(other).into_iter().collect(),
    }
}

/// YAML as JSON; the static export reads YAML OpenAPI documents with it.
pub(crate) fn to_json(value: Yaml) -> Value {
    match value {
        Yaml::String(s) => Value::String(s),
        Yaml::Integer(i) => Value::Number(i.into()),
        Yaml::Real(s) => s
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map_or(Value::String(s), Value::Number),
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Array(items) => Value::Array(items.into_iter().map(to_json).collect()),
        Yaml::Hash(hash) => {
            // Inserted one by one: collecting would compile std's sort for these pairs.
            let mut object = serde_json::Map::new();
            for (key, value) in hash {
                if let Some(key) = scalar_string(&key) {
                    object.insert(key, to_json(value));
                }
            }
            Value::Object(object)
        }
        Yaml::Null | Yaml::Alias(_) | Yaml::BadValue => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_frontmatter_from_body() {
        let (yaml, body) = split("---\ntitle: \"Hi\"\n---\n\n# Body\n");
        assert_eq!(yaml, Some("title: \"Hi\"\n"));
        assert_eq!(body, "\n# Body\n");
    }

    #[test]
    fn splits_crlf_frontmatter() {
        let (yaml, body) = split("---\r\ntitle: Hi\r\n---\r\nBody");
        assert_eq!(yaml, Some("title: Hi\r\n"));
        assert_eq!(body, "Body");
    }

    #[test]
    fn source_without_frontmatter_is_all_body() {
        assert_eq!(split("# Title\n---\n"), (None, "# Title\n---\n"));
        assert_eq!(
            split("---\ntitle: never closed\n"),
            (None, "---\ntitle: never closed\n")
        );
        assert_eq!(split("---- not a fence\n---\n").0, None);
    }

    #[test]
    fn parses_known_keys_and_keeps_unknown_ones() {
        let fm = parse(
            "title: \"Quickstart\"\nsidebarTitle: Start\ndescription: Get going\n\
             openapi: \"POST /v1/jobs\"\nhidden: true\nkeywords: [\"a\", \"b\"]\nicon: rocket\nboost: 3\n",
        )
        .unwrap();
        assert_eq!(fm.title.as_deref(), Some("Quickstart"));
        assert_eq!(fm.sidebar_title.as_deref(), Some("Start"));
        assert_eq!(fm.description.as_deref(), Some("Get going"));
        assert_eq!(fm.openapi.as_deref(), Some("POST /v1/jobs"));
        assert!(fm.hidden);
        assert_eq!(fm.keywords, ["a", "b"]);
        assert_eq!(fm.extra.get("icon"), Some(&Value::from("rocket")));
        assert_eq!(fm.extra.get("boost"), Some(&Value::from(3)));
    }

    #[test]
    fn numeric_title_is_a_string() {
        assert_eq!(parse("title: 404\n").unwrap().title.as_deref(), Some("404"));
    }

    #[test]
    fn empty_frontmatter_is_default() {
        assert_eq!(parse("").unwrap(), Frontmatter::default());
    }

    #[test]
    fn bad_yaml_is_an_error_with_position() {
        let err = parse("title: \"unclosed\ndescription: x\n").unwrap_err();
        assert!(err.to_string().contains("line"), "{err}");
        assert_eq!(parse("- a\n- b\n"), Err(FrontmatterError::NotAMapping));
    }

    #[test]
    fn salvages_known_keys_from_bad_yaml() {
        let yaml = "title: Setup: the basics\ndescription: 'Quoted'\n  nested: skip\n";
        assert!(parse(yaml).is_err());
        let fm = salvage(yaml);
        assert_eq!(fm.title.as_deref(), Some("Setup: the basics"));
        assert_eq!(fm.description.as_deref(), Some("Quoted"));
    }
}
