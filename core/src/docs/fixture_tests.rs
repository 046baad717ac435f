//! The two real fixtures in the legacy and the current format (`../shared/fixtures`): every page
//! their navigation names is a page of the site, generated endpoint pages included, and each
//! warning they give is a real authoring mistake of theirs. The expected pages come from a walk of
//! the config written here, apart from the reader's code.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::archive::{read_dir_tree, SourceTree};
use super::model::Site;
use super::site::build_site;

fn fixture(name: &str) -> Option<(PathBuf, SourceTree)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/fixtures")
        .join(name);
    if !root.is_dir() {
        eprintln!(
            "skipped: fixture {} is absent (the shared folder sits beside the repo)",
            root.display()
        );
        return None;
    }
    let tree = read_dir_tree(&root).expect("the fixture is readable");
    Some((root, tree))
}

fn json(tree: &SourceTree, path: &str) -> Value {
    serde_json::from_slice(&tree[path]).unwrap()
}

fn has_page_file(tree: &SourceTree, path: &str) -> bool {
    ["mdx", "md"]
        .iter()
        .any(|ext| tree.contains_key(&format!("{path}.{ext}")))
}

fn listed(site: &Site) -> BTreeSet<&str> {
    site.pages
        .iter()
        .filter(|p| p.in_navigation)
        .map(|p| p.path.as_str())
        .collect()
}

fn page_warnings<'s>(site: &'s Site, text: &str) -> Vec<&'s str> {
    site.warnings
        .iter()
        .map(String::as_str)
        .filter(|w| w.contains(text))
        .collect()
}

/// Page paths and generated endpoint paths of a docs.json navigation node, by Mintlify's rules as
/// this fixture needs them: an entry `METHOD /path` in a group with `openapi` is the page at its
/// `x-mint.href`, else
/// `{language}/api-reference/{tag}/{summary}`, lowercased, words (split at spaces and `/`) joined
/// by hyphens.
fn walk_docs_json(
    tree: &SourceTree,
    node: &Value,
    language: &str,
    spec: Option<&str>,
    pages: &mut Vec<String>,
    generated: &mut Vec<(String, String)>,
) {
    let Value::Object(map) = node else { return };
    let language = map
        .get("language")
        .and_then(Value::as_str)
        .unwrap_or(language);
    let spec = map.get("openapi").and_then(Value::as_str).or(spec);
    if let Some(root) = map.get("root").and_then(Value::as_str) {
        pages.push(root.trim_matches('/').to_owned());
    }
    for key in [
        "languages",
        "versions",
        "products",
        "tabs",
        "anchors",
        "dropdowns",
        "menu",
        "groups",
        "pages",
    ] {
        for child in map.get(key).and_then(Value::as_array).into_iter().flatten() {
            match child {
                Value::String(entry) => match entry.split_once(' ') {
                    Some((method, path))
                        if ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(&method) =>
                    {
                        let doc = json(
                            tree,
                            spec.expect("an endpoint entry under an openapi group"),
                        );
                        let op = &doc["paths"][path][method.to_lowercase()];
                        let slug = |s: &str| {
                            let words = s.split([' ', '/']).filter(|w| !w.is_empty());
                            words.collect::<Vec<_>>().join("-").to_lowercase()
                        };
                        // `x-mint.href` and `x-mint.metadata.title` override the path and the title.
                        let page = match op["x-mint"]["href"].as_str() {
                            Some(href) => href.trim_matches('/').to_owned(),
                            None => format!(
                                "{language}/api-reference/{}/{}",
                                slug(op["tags"][0].as_str().unwrap()),
                                slug(op["summary"].as_str().unwrap())
                            ),
                        };
                        let title = op["x-mint"]["metadata"]["title"]
                            .as_str()
                            .or(op["summary"].as_str());
                        generated.push((page, title.unwrap().to_owned()));
                    }
                    _ => pages.push(entry.trim_matches('/').to_owned()),
                },
                other => walk_docs_json(tree, other, language, spec, pages, generated),
            }
        }
    }
}

#[test]
fn dify_docs_json_publishes_every_page_its_navigation_names_with_generated_endpoint_pages() {
    let Some((_, tree)) = fixture("dify-docs") else {
        return;
    };
    let site = build_site(&tree).unwrap();
    let config = json(&tree, "docs.json");
    let (mut pages, mut generated) = (Vec::new(), Vec::new());
    walk_docs_json(
        &tree,
        &config["navigation"],
        "en",
        None,
        &mut pages,
        &mut generated,
    );

    let listed = listed(&site);
    let missing: Vec<&String> = pages.iter().filter(|p| !has_page_file(&tree, p)).collect();
    assert_eq!(
        missing,
        Vec::<&String>::new(),
        "every page dify's navigation names has a file"
    );
    for page in &pages {
        assert!(
            listed.contains(page.as_str()),
            "{page} is not a listed page"
        );
    }
    // The same API groups appear under both products (Cloud, Self-Host): one page each.
    let unique: BTreeSet<&(String, String)> = generated.iter().collect();
    assert_eq!(unique.len(), 246, "{} endpoint pages named", unique.len());
    for (path, summary) in unique {
        let page = site
            .pages
            .iter()
            .find(|p| p.path == *path)
            .unwrap_or_else(|| panic!("no page {path}"));
        assert!(page.is_generated() && page.in_navigation, "{path}");
        assert_eq!(&page.title, summary);
        let spec = format!("{}/api-reference/openapi_service.json", &path[..2]);
        assert!(
            page.openapi.as_deref().unwrap().starts_with(&spec),
            "{:?}",
            page.openapi
        );
        assert!(
            page.full_text().contains("## Responses"),
            "{path}: {}",
            page.full_text()
        );
    }
    // The pages link to the generated pages by the paths Mintlify gives them.
    let mut linked = BTreeSet::new();
    for (file, bytes) in tree.iter().filter(|(f, _)| f.ends_with(".mdx")) {
        let text = String::from_utf8_lossy(bytes);
        for (at, _) in text.match_indices("/api-reference/") {
            let start = text[..at].rfind('(').map_or(at, |i| i + 1);
            let link: String = text[start..]
                .chars()
                .take_while(|c| !matches!(c, ')' | '#' | '"' | ' '))
                .collect();
            let path = link.trim_matches('/');
            let guide = path.contains("/guides/") || !path.starts_with(['e', 'j', 'z']);
            if !guide && path.split('/').count() == 4 {
                linked.insert((path.to_owned(), file.clone()));
            }
        }
    }
    assert!(linked.len() > 100, "{} links", linked.len());
    for (path, file) in &linked {
        assert!(
            site.pages.iter().any(|p| p.path == *path),
            "{file} links to {path}, which is no page"
        );
    }

    // One warning: the few pages navigation does not list (its `.mintignore` and the format's
    // default ignores leave out the repository's own notes: `.claude/`, `writing-guides/`, README).
    assert_eq!(site.warnings.len(), 1, "{:#?}", site.warnings);
    assert!(
        site.warnings[0].starts_with("7 pages not in navigation"),
        "{}",
        site.warnings[0]
    );

    let config = &site.config;
    assert_eq!(
        config.navbar.primary.as_ref().map(|p| p.label.as_str()),
        Some("Try Dify")
    );
    assert_eq!(config.navbar.links.len(), 1);
    assert_eq!(config.footer.socials.len(), 3);
    assert!(config.redirects.len() > 100 && config.redirects.iter().all(|r| r.permanent));
}

#[test]
fn agentops_mint_json_publishes_every_page_its_navigation_names_in_its_versions() {
    let Some((_, tree)) = fixture("agentops-docs") else {
        return;
    };
    assert!(
        !tree.contains_key("docs.json"),
        "the fixture is a mint.json site"
    );
    let site = build_site(&tree).unwrap();
    let config = json(&tree, "mint.json");
    fn walk(node: &Value, version: &str, out: &mut Vec<(String, String)>) {
        for page in node["pages"].as_array().into_iter().flatten() {
            match page {
                Value::String(path) => out.push((path.clone(), version.to_owned())),
                group => walk(group, version, out),
            }
        }
    }
    let mut pages = Vec::new();
    for group in config["navigation"].as_array().unwrap() {
        walk(group, group["version"].as_str().unwrap(), &mut pages);
    }
    assert_eq!(pages.len(), 87);
    let mut missing = Vec::new();
    for (path, version) in &pages {
        if !has_page_file(&tree, path) {
            missing.push(path.as_str());
            continue;
        }
        let page = site
            .pages
            .iter()
            .find(|p| p.path == *path)
            .unwrap_or_else(|| panic!("no page {path}"));
        assert!(page.in_navigation && !page.hidden, "{path}");
        assert_eq!(page.version.as_deref(), Some(version.as_str()), "{path}");
    }
    assert_eq!(missing, ["v1/integrations/agents_sdk"]);
    assert_eq!(site.versions, ["v2", "v1", "v0"]);

    // Four warnings, each the fixture's: the listed page that does not exist; two descriptions
    // whose quoted value continues on an unindented line (YAML requires the indent; the known keys
    // are salvaged); and the repository's notes (SOURCE, v0's old pages; the root README is ignored by default) not in navigation.
    let missing = page_warnings(&site, "has no page file");
    assert_eq!(missing.len(), 1, "{missing:?}");
    assert!(
        missing[0].starts_with("mint.json:")
            && missing[0]
                .ends_with(": navigation entry `v1/integrations/agents_sdk` has no page file"),
        "{}",
        missing[0]
    );
    let yaml = page_warnings(
        &site,
        "invalid frontmatter YAML: invalid indentation in quoted scalar",
    );
    assert_eq!(yaml.len(), 2, "{yaml:?} {:#?}", site.warnings);
    assert_eq!(
        page_warnings(&site, "42 pages not in navigation").len(),
        1,
        "{:#?}",
        site.warnings
    );
    assert_eq!(site.warnings.len(), 4, "{:#?}", site.warnings);

    let config = &site.config;
    assert_eq!(config.file, "mint.json");
    assert_eq!(config.name, "AgentOps");
    assert_eq!(config.colors.primary.as_deref(), Some("#a9bed4"));
    assert_eq!(config.colors.anchors, ["#D1E5F7", "#a9bed4"]);
    assert_eq!(
        config
            .background
            .color
            .as_ref()
            .and_then(|c| c.dark.as_deref()),
        Some("#18191a")
    );
    let cta = config.navbar.primary.as_ref().unwrap();
    assert_eq!(
        (cta.label.as_str(), cta.href.as_str()),
        ("Your Dashboard", "https://app.agentops.ai")
    );
    assert_eq!(
        config
            .footer
            .socials
            .iter()
            .map(|(k, _)| k.as_str())
            .collect::<Vec<_>>(),
        ["twitter", "discord", "github"],
        "the order mint.json writes them in"
    );
    assert_eq!(
        config.logo.as_ref().and_then(|l| l.dark.as_deref()),
        Some("/images/external/logo/banner-badge-docs-resized-white.png")
    );
}
