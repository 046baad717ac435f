//! The site config: docs.json, or Mintlify's legacy mint.json when there is no docs.json (`mint`
//! maps it), both read into one [`SiteConfig`] (`site_config`, with what the two readers share):
//! identity, colours, settings (`settings`) and the navigation tree (`nav`).
//!
//! `$ref` is resolved inside the parts read alone, so a reference elsewhere to a file that was not
//! uploaded does no harm. Keys outside the documented schema are warnings (`keys`), never errors.

use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{Map, Value};

use super::archive::{join_relative, SourceTree};
use super::keys;
use super::settings::{self, str_field};
pub use super::site_config::{
    page_path, Colors, ConfigError, Favicon, Logo, SiteConfig, CONFIG_FILE, LEGACY_CONFIG_FILE,
};
use super::site_config::{parse_colors, parse_favicon, parse_json, parse_logo, NavReader};

/// Deepest `$ref` chain followed; real configs use one level (docs.json -> es.json).
const MAX_REF_DEPTH: usize = 8;

/// Nodes plus string bytes the resolved parts of docs.json may hold, `$ref`s expanded: every
/// `$ref` copies its file, so 30 references per file over 8 levels would otherwise mean 30^8
/// copies from a few KB. Real configs resolve to well under 1 MB.
pub const MAX_REF_EXPANSION: u64 = 4 << 20;

/// Reads docs.json from the tree, else mint.json. Missing `$ref` targets and `$ref` cycles become
/// warnings and the referencing node is dropped; invalid JSON in the config or a referenced file is
/// an error.
pub fn parse_config(
    tree: &SourceTree,
    warnings: &mut Vec<String>,
) -> Result<SiteConfig, ConfigError> {
    if let Some(bytes) = tree.get(CONFIG_FILE) {
        return parse_docs_json(tree, bytes, warnings);
    }
    match tree.get(LEGACY_CONFIG_FILE) {
        Some(bytes) => super::mint::parse_mint_json(bytes, warnings),
        None => Err(ConfigError::Missing),
    }
}

/// The config file of a tree: docs.json when present, else mint.json.
pub fn config_file(tree: &SourceTree) -> Option<&'static str> {
    [CONFIG_FILE, LEGACY_CONFIG_FILE]
        .into_iter()
        .find(|f| tree.contains_key(*f))
}

fn parse_docs_json(
    tree: &SourceTree,
    bytes: &[u8],
    warnings: &mut Vec<String>,
) -> Result<SiteConfig, ConfigError> {
    let root = parse_json(CONFIG_FILE, bytes)?;
    let Value::Object(root) = root else {
        return Err(ConfigError::NotAnObject {
            file: CONFIG_FILE.into(),
        });
    };
    let text = String::from_utf8_lossy(bytes);
    let mut reader = NavReader {
        file: CONFIG_FILE,
        text: &text,
        warnings: Vec::new(),
    };
    reader.unknown_keys(&root, keys::DOCS_JSON_ROOT, "");
    let mut refs = RefResolver {
        tree,
        stack: vec![CONFIG_FILE.to_owned()],
        warnings,
        parsed: HashMap::new(),
        spent: 0,
    };
    let mut field = |key: &str| -> Result<Value, ConfigError> {
        match root.get(key) {
            Some(value) => refs.resolve(value, CONFIG_FILE),
            None => Ok(Value::Null),
        }
    };
    let navigation = field("navigation")?;
    let logo = field("logo")?;
    let favicon = field("favicon")?;
    let colors = field("colors")?;
    let navbar = field("navbar")?;
    let footer = field("footer")?;
    let redirects = field("redirects")?;
    let api = field("api")?;
    let appearance = field("appearance")?;
    let background = field("background")?;
    let fonts = field("fonts")?;
    let banner = field("banner")?;
    let icons = field("icons")?;

    let global = match navigation.get("global") {
        Some(global) => reader.children(global, "navigation.global")?,
        None => Vec::new(),
    };
    if navigation.is_null() {
        warnings.push(format!("{CONFIG_FILE}: no navigation"));
    }
    if let Value::Object(nav) = &navigation {
        reader.unknown_keys(nav, keys::NAVIGATION_NODE, "navigation");
    }
    let navigation = reader.children(&navigation, "navigation")?;
    warnings.append(&mut reader.warnings);
    Ok(SiteConfig {
        name: str_field(&root, "name").unwrap_or_default(),
        description: str_field(&root, "description"),
        theme: str_field(&root, "theme"),
        logo: parse_logo(&logo),
        favicon: parse_favicon(&favicon),
        colors: parse_colors(&colors),
        navigation,
        global,
        file: CONFIG_FILE.to_owned(),
        navbar: settings::navbar(&navbar),
        footer: settings::footer(&footer),
        redirects: settings::redirects(&redirects),
        api: settings::docs_api(&api),
        appearance: settings::appearance(&appearance),
        background: settings::background(&background),
        fonts: settings::fonts(&fonts),
        banner: settings::banner(&banner),
        feedback: None,
        icon_library: icons.get("library").and_then(settings::as_string),
    })
}

struct RefResolver<'t, 'w> {
    tree: &'t SourceTree,
    /// Files being resolved, outermost first: a `$ref` to one of them is a cycle.
    stack: Vec<String>,
    warnings: &'w mut Vec<String>,
    /// Referenced files by path, each parsed once however often it is referenced.
    parsed: HashMap<String, Rc<Value>>,
    /// Nodes, string bytes and object key bytes resolved so far, bounded by [`MAX_REF_EXPANSION`].
    spent: u64,
}

impl RefResolver<'_, '_> {
    /// Charges `amount` to the expansion budget; every byte the output copies must pass here, or a
    /// copied part (a 1 MB key behind a fan-out) escapes the bound.
    fn charge(&mut self, amount: u64, file: &str) -> Result<(), ConfigError> {
        self.spent = self.spent.saturating_add(amount);
        if self.spent > MAX_REF_EXPANSION {
            return Err(ConfigError::RefExpansion {
                file: file.to_owned(),
                limit: MAX_REF_EXPANSION,
            });
        }
        Ok(())
    }

    /// A copy of `value` with every `{"$ref": "file.json", ...}` replaced by that file's content,
    /// sibling keys taking precedence. Paths are relative to the file holding the `$ref`.
    fn resolve(&mut self, value: &Value, file: &str) -> Result<Value, ConfigError> {
        let size = match value {
            Value::String(s) => 1 + s.len() as u64,
            _ => 1,
        };
        self.charge(size, file)?;
        match value {
            Value::Array(items) => items
                .iter()
                .map(|item| self.resolve(item, file))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array),
            Value::Object(map) => match map.get("$ref").and_then(Value::as_str) {
                Some(target) => self.resolve_ref(map, target, file),
                None => {
                    let mut out = Map::with_capacity(map.len());
                    for (key, item) in map {
                        // Charged before the copy: the key is cloned into the output as its value is.
                        self.charge(key.len() as u64, file)?;
                        out.insert(key.clone(), self.resolve(item, file)?);
                    }
                    Ok(Value::Object(out))
                }
            },
            other => Ok(other.clone()),
        }
    }

    fn resolve_ref(
        &mut self,
        map: &Map<String, Value>,
        target: &str,
        file: &str,
    ) -> Result<Value, ConfigError> {
        let Some(path) = join_relative(file, target) else {
            self.warnings.push(format!(
                "{file}: $ref `{target}` points outside the docs folder"
            ));
            return Ok(Value::Null);
        };
        if self.stack.contains(&path) {
            self.warnings
                .push(format!("{file}: $ref cycle through `{path}`"));
            return Ok(Value::Null);
        }
        if self.stack.len() > MAX_REF_DEPTH {
            self.warnings
                .push(format!("{file}: $ref chain too deep at `{path}`"));
            return Ok(Value::Null);
        }
        let loaded = match self.parsed.get(&path) {
            Some(loaded) => Rc::clone(loaded),
            None => {
                let Some(bytes) = self.tree.get(&path) else {
                    self.warnings
                        .push(format!("{file}: $ref `{target}` not found"));
                    return Ok(Value::Null);
                };
                let loaded = Rc::new(parse_json(&path, bytes)?);
                self.parsed.insert(path.clone(), Rc::clone(&loaded));
                loaded
            }
        };
        self.stack.push(path.clone());
        let resolved = self.resolve(&loaded, &path);
        self.stack.pop();
        let mut resolved = resolved?;
        if let Value::Object(out) = &mut resolved {
            for (key, item) in map {
                if key != "$ref" {
                    self.charge(key.len() as u64, file)?;
                    let item = self.resolve(item, file)?;
                    out.insert(key.clone(), item);
                }
            }
        }
        Ok(resolved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::nav::{page_refs, DivisionKind, NavItem};

    fn parse(files: &[(&str, &str)]) -> (Result<SiteConfig, ConfigError>, Vec<String>) {
        let mut warnings = Vec::new();
        let config = parse_config(&tree(files), &mut warnings);
        (config, warnings)
    }

    #[test]
    fn reads_name_logo_colors_and_favicon() {
        let (config, _) = parse(&[(
            "docs.json",
            r##"{"name": "Acme", "theme": "luma", "colors": {"primary": "#166E3F", "dark": "#000"},
                "logo": {"light": "/l.svg", "dark": "/d.svg", "href": "https://acme.dev"},
                "favicon": "/favicon.ico", "navigation": {"pages": ["index"]}}"##,
        )]);
        let config = config.unwrap();
        assert_eq!(config.name, "Acme");
        assert_eq!(config.theme.as_deref(), Some("luma"));
        assert_eq!(config.colors.primary.as_deref(), Some("#166E3F"));
        assert_eq!(config.colors.light, None);
        assert_eq!(
            config.logo.unwrap().href.as_deref(),
            Some("https://acme.dev")
        );
        assert_eq!(
            config.favicon.unwrap().dark.as_deref(),
            Some("/favicon.ico")
        );
        assert_eq!(config.navigation, vec![NavItem::Page("index".into())]);
    }

    #[test]
    fn reports_invalid_docs_json_with_line_and_column() {
        let (config, _) = parse(&[("docs.json", "{\n  \"name\": \"x\",\n  oops\n}")]);
        let err = config.unwrap_err();
        assert!(
            matches!(
                err,
                ConfigError::Json {
                    line: 3,
                    column: 3,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string().starts_with("docs.json: invalid JSON"),
            "{err}"
        );
        assert!(err.to_string().contains("line 3 column 3"), "{err}");
    }

    #[test]
    fn rejects_docs_json_that_is_not_an_object() {
        let (config, _) = parse(&[("docs.json", "[]")]);
        assert!(matches!(config, Err(ConfigError::NotAnObject { .. })));
    }

    #[test]
    fn resolves_language_refs_relative_to_the_referencing_file() {
        let (config, warnings) = parse(&[
            (
                "docs.json",
                r#"{"navigation": {"languages": [
                    {"language": "en", "groups": [{"group": "Start", "pages": ["index"]}]},
                    {"$ref": "./nav/es.json"}]}}"#,
            ),
            (
                "nav/es.json",
                r#"{"language": "es", "tabs": [{"tab": "Docs", "groups": [{"$ref": "group.json"}]}]}"#,
            ),
            (
                "nav/group.json",
                r#"{"group": "Inicio", "pages": ["/es/index.mdx"]}"#,
            ),
        ]);
        let config = config.unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let refs = page_refs(&config.navigation);
        assert_eq!(refs.len(), 2);
        assert_eq!(refs[1].path, "es/index");
        assert_eq!(refs[1].language, Some("es"));
        assert_eq!(refs[1].tab, Some("Docs"));
        assert_eq!(refs[1].groups, ["Inicio"]);
    }

    #[test]
    fn ref_sibling_keys_override_the_referenced_file() {
        let (config, _) = parse(&[
            (
                "docs.json",
                r#"{"navigation": {"tabs": [{"$ref": "t.json", "tab": "Override"}]}}"#,
            ),
            ("t.json", r#"{"tab": "Original", "pages": ["a"]}"#),
        ]);
        let NavItem::Division(tab) = &config.unwrap().navigation[0] else {
            panic!("expected a tab")
        };
        assert_eq!(tab.label, "Override");
        assert_eq!(tab.items, vec![NavItem::Page("a".into())]);
    }

    #[test]
    fn ref_cycle_is_a_warning_not_a_hang() {
        let (config, warnings) = parse(&[
            (
                "docs.json",
                r#"{"navigation": {"tabs": [{"$ref": "a.json"}]}}"#,
            ),
            ("a.json", r#"{"tab": "A", "groups": [{"$ref": "b.json"}]}"#),
            ("b.json", r#"{"group": "B", "pages": [{"$ref": "a.json"}]}"#),
        ]);
        assert!(config.is_ok());
        assert!(warnings.iter().any(|w| w.contains("cycle")), "{warnings:?}");
    }

    #[test]
    fn self_referencing_docs_json_is_a_cycle() {
        let (config, warnings) =
            parse(&[("docs.json", r#"{"navigation": {"$ref": "docs.json"}}"#)]);
        assert!(config.is_ok());
        assert!(warnings.iter().any(|w| w.contains("cycle")), "{warnings:?}");
    }

    #[test]
    fn missing_ref_is_a_warning_and_refs_outside_navigation_are_ignored() {
        let (config, warnings) = parse(&[(
            "docs.json",
            r#"{"integrations": {"$ref": "./integrations.json"}, "redirects": {"$ref": "./redirects.json"},
                "navigation": {"tabs": [{"tab": "A", "pages": ["a"]}, {"$ref": "gone.json"}]}}"#,
        )]);
        assert_eq!(config.unwrap().navigation.len(), 1);
        // Redirects are read (the site model keeps them), integrations are not.
        assert_eq!(
            warnings,
            [
                "docs.json: $ref `gone.json` not found",
                "docs.json: $ref `./redirects.json` not found"
            ]
        );
    }

    #[test]
    fn invalid_json_in_a_referenced_file_names_that_file() {
        let (config, _) = parse(&[
            (
                "docs.json",
                r#"{"navigation": {"languages": [{"$ref": "es.json"}]}}"#,
            ),
            ("es.json", "{,}"),
        ]);
        assert!(matches!(config, Err(ConfigError::Json { file, .. }) if file == "es.json"));
    }

    #[test]
    fn reads_tabs_with_href_menus_hidden_flags_and_nested_groups() {
        let (config, _) = parse(&[(
            "docs.json",
            r#"{"navigation": {"tabs": [
                {"tab": "Blog", "href": "https://blog.example"},
                {"tab": "Help", "hidden": true, "groups": [{"group": "FAQ", "pages": ["faq"]}]},
                {"tab": "Learn", "menu": [{"item": "Guides", "icon": "book", "groups": [
                    {"group": "Use cases", "root": "guides/index", "pages": [
                        "guides/a", {"group": "Deep", "hidden": true, "pages": ["guides/b"]}]}]}]}
            ]}}"#,
        )]);
        let config = config.unwrap();
        let NavItem::Division(blog) = &config.navigation[0] else {
            panic!()
        };
        assert_eq!(blog.href.as_deref(), Some("https://blog.example"));
        assert!(blog.items.is_empty());
        let refs = page_refs(&config.navigation);
        let paths: Vec<_> = refs.iter().map(|r| r.path).collect();
        assert_eq!(paths, ["faq", "guides/index", "guides/a", "guides/b"]);
        assert!(refs[0].hidden);
        assert_eq!(refs[1].tab, Some("Learn"));
        assert_eq!(refs[1].groups, ["Use cases"]);
        assert_eq!(refs[3].groups, ["Use cases", "Deep"]);
        assert!(refs[3].hidden && !refs[2].hidden);
    }

    #[test]
    fn reads_versions_anchors_and_dropdowns() {
        let (config, _) = parse(&[(
            "docs.json",
            r#"{"navigation": {"versions": [
                {"version": "v2", "default": true, "anchors": [{"anchor": "API", "pages": ["v2/api"]}]},
                {"version": "v1", "dropdowns": [{"dropdown": "SDK", "pages": ["v1/sdk"]}]}]}}"#,
        )]);
        let config = config.unwrap();
        let refs = page_refs(&config.navigation);
        assert_eq!(refs[0].version, Some("v2"));
        assert_eq!(refs[0].tab, Some("API"));
        assert_eq!(refs[1].version, Some("v1"));
        let NavItem::Division(v2) = &config.navigation[0] else {
            panic!()
        };
        assert!(v2.default && v2.kind == DivisionKind::Version);
    }

    #[test]
    fn page_paths_a_browser_reads_as_a_scheme_or_host_are_refused_naming_the_field() {
        let (config, _) = parse(&[(
            "docs.json",
            r#"{"navigation": {"tabs": [{"tab": "T", "groups": [{"group": "G",
                "pages": ["a", "b", "c", "javascript:alert(document.domain)"]}]}]}}"#,
        )]);
        let err = config.unwrap_err();
        assert!(
            matches!(&err, ConfigError::BadPagePath { field, .. } if field == "navigation.tabs[0].groups[0].pages[3]"),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .starts_with("docs.json navigation.tabs[0].groups[0].pages[3]: "),
            "{err}"
        );
        for (bad, field) in [
            (
                r#"{"navigation": {"pages": ["//evil.example/x"]}}"#,
                "navigation.pages[0]",
            ),
            (
                r#"{"navigation": {"pages": ["../x"]}}"#,
                "navigation.pages[0]",
            ),
            (
                r#"{"navigation": {"pages": ["a\b"]}}"#,
                "navigation.pages[0]",
            ),
            (
                r#"{"navigation": {"groups": [{"group": "G", "root": "data:x", "pages": []}]}}"#,
                "navigation.groups[0].root",
            ),
            (
                r#"{"navigation": {"global": {"tabs": [{"tab": "x", "pages": ["a\nb"]}]}}}"#,
                "navigation.global.tabs[0].pages[0]",
            ),
        ] {
            let (config, _) = parse(&[("docs.json", bad)]);
            assert!(
                matches!(&config, Err(ConfigError::BadPagePath { field: f, .. }) if f == field),
                "{bad}: {config:?}"
            );
        }
    }

    #[test]
    fn ref_fan_out_is_refused_after_bounded_work() {
        // 30 references per file over 8 files: 30^8 copies if expanded naively.
        let mut files = vec![(
            "docs.json".to_owned(),
            format!(
                r#"{{"navigation": {{"groups": [{}]}}}}"#,
                vec![r#"{"$ref": "l1.json"}"#; 30].join(",")
            ),
        )];
        for level in 1..8 {
            let refs = vec![format!(r#"{{"$ref": "l{}.json"}}"#, level + 1); 30].join(",");
            files.push((
                format!("l{level}.json"),
                format!(r#"{{"group": "g", "pages": [{refs}]}}"#),
            ));
        }
        files.push((
            "l8.json".into(),
            r#"{"group": "leaf", "pages": ["a"]}"#.into(),
        ));
        let input: usize = files.iter().map(|(_, f)| f.len()).sum();
        assert!(input < 16 * 1024, "{input} bytes");
        let borrowed: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, d)| (p.as_str(), d.as_str()))
            .collect();
        let (config, _) = parse(&borrowed);
        let err = config.unwrap_err();
        assert!(
            matches!(
                err,
                ConfigError::RefExpansion {
                    limit: MAX_REF_EXPANSION,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("$ref expansion exceeds"), "{err}");
    }

    #[test]
    fn ref_fan_out_of_a_big_key_is_refused_after_bounded_work() {
        // Few nodes, but each copy of the leaf clones a 1 MiB object key: 30 copies are 30 MiB of
        // output that a node-and-string count alone lets through.
        let key = "k".repeat(1 << 20);
        let leaf = format!(r#"{{"group": "leaf", "pages": ["a"], "{key}": 0}}"#);
        let docs = format!(
            r#"{{"navigation": {{"groups": [{}]}}}}"#,
            vec![r#"{"$ref": "leaf.json"}"#; 30].join(",")
        );
        let files = tree(&[("docs.json", docs.as_str()), ("leaf.json", leaf.as_str())]);
        let mut warnings = Vec::new();
        let err = parse_config(&files, &mut warnings).unwrap_err();
        assert!(
            matches!(
                err,
                ConfigError::RefExpansion {
                    limit: MAX_REF_EXPANSION,
                    ..
                }
            ),
            "{err:?}"
        );

        // Bounded work: the resolver stops within one key of the budget, not after all 30 copies.
        let value: Value = serde_json::from_str(&docs).unwrap();
        let mut refs = RefResolver {
            tree: &files,
            stack: vec![CONFIG_FILE.to_owned()],
            warnings: &mut warnings,
            parsed: HashMap::new(),
            spent: 0,
        };
        assert!(refs.resolve(&value, CONFIG_FILE).is_err());
        assert!(
            refs.spent <= MAX_REF_EXPANSION + key.len() as u64 + 1,
            "spent {}",
            refs.spent
        );

        // Sibling keys next to a `$ref` are charged too.
        let docs = format!(
            r#"{{"navigation": {{"groups": [{}]}}}}"#,
            vec![format!(r#"{{"$ref": "small.json", "{key}": 0}}"#); 5].join(",")
        );
        let files = tree(&[
            ("docs.json", docs.as_str()),
            ("small.json", r#"{"group": "g", "pages": ["a"]}"#),
        ]);
        let err = parse_config(&files, &mut Vec::new()).unwrap_err();
        assert!(matches!(err, ConfigError::RefExpansion { .. }), "{err:?}");
    }

    #[test]
    fn normalises_page_paths() {
        assert_eq!(page_path("/guides/x.mdx").as_deref(), Some("guides/x"));
        assert_eq!(page_path("a/b.md").as_deref(), Some("a/b"));
        assert_eq!(page_path(" index ").as_deref(), Some("index"));
        assert_eq!(page_path("/"), None);
    }

    #[test]
    fn join_relative_stays_inside_the_folder() {
        assert_eq!(
            join_relative("docs.json", "./es.json").as_deref(),
            Some("es.json")
        );
        assert_eq!(
            join_relative("nav/es.json", "../x.json").as_deref(),
            Some("x.json")
        );
        assert_eq!(
            join_relative("nav/es.json", "/root.json").as_deref(),
            Some("root.json")
        );
        assert_eq!(join_relative("docs.json", "../../etc/passwd"), None);
    }
}
