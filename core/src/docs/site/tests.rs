//! Tests of building a `Site` from a source tree: pages, navigation, languages, versions, warnings.

use super::*;
use crate::docs::archive::{pack_tree, read_docs_archive, ArchiveLimits};
use crate::docs::archive::{read_dir_tree, tree};

fn page<'s>(site: &'s Site, path: &str) -> &'s Page {
    site.pages
        .iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("no page {path}"))
}

#[test]
fn a_page_naming_an_operation_holds_its_reference_text() {
    let spec = r#"{"openapi": "3.0.0", "paths": {"/report": {"post": {"summary": "Report",
        "description": "Records a call made outside the SDK.",
        "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["requestedAt"],
          "properties": {"requestedAt": {"type": "integer", "description": "Unix ms"}}}}}},
        "responses": {"200": {"description": "Recorded"}}}}}}"#;
    let site = build_site(&tree(&[
        ("docs.json", r#"{"name": "A", "navigation": {"pages": ["api/report", "api/own", "api/missing"]}}"#),
        ("openapi.json", spec),
        ("api/report.mdx", "---\ntitle: Report\nopenapi: post /report\n---\n"),
        ("api/own.mdx", "---\ntitle: Own\nopenapi: POST /report\n---\n\nRead this first.\n\n## Notes\n\nMore.\n"),
        ("api/missing.mdx", "---\ntitle: Missing\nopenapi: GET /nowhere\n---\n\nText.\n"),
    ]))
    .unwrap();
    let report = page(&site, "api/report");
    let intro = &report.sections[0];
    assert_eq!(intro.level, 0);
    assert!(intro.text.starts_with("`POST /report`"), "{intro:?}");
    assert!(intro.text.contains("Records a call made outside the SDK."));
    assert!(
        report
            .sections
            .iter()
            .any(|s| s.heading == "Request body" && s.text.contains("requestedAt")),
        "{:?}",
        report.sections
    );
    let own = page(&site, "api/own");
    assert!(
        own.sections[0].text.starts_with("`POST /report`")
            && own.sections[0].text.contains("Read this first."),
        "{:?}",
        own.sections
    );
    assert_eq!(own.sections[1].heading, "Notes");
    assert!(own.sections.iter().any(|s| s.heading == "Responses"));
    assert_eq!(page(&site, "api/missing").sections.len(), 1);
}

const I18N_DOCS: &str = r#"{"name": "Acme", "navigation": {"languages": [
    {"language": "en", "tabs": [{"tab": "Docs", "groups": [
        {"group": "Start", "pages": ["index", {"group": "CLI", "root": "cli/index", "pages": ["cli/install"]}]}]}]},
    {"$ref": "es.json"}]}}"#;
const ES_NAV: &str = r#"{"language": "es", "tabs": [{"tab": "Documentación", "groups": [
    {"group": "Inicio", "pages": ["es/index", "es/gone"]}]}]}"#;

#[test]
fn an_unlisted_page_file_named_like_a_url_scheme_is_refused() {
    let err = build_site(&tree(&[
        ("docs.json", r#"{"navigation": {"pages": ["index"]}}"#),
        ("index.mdx", "Home"),
        ("javascript:alert(document.domain).mdx", "x"),
    ]))
    .unwrap_err();
    assert!(
        matches!(&err, SiteError::BadPageFile { file, .. } if file == "javascript:alert(document.domain).mdx"),
        "{err:?}"
    );
    assert!(err.to_string().contains("URL scheme"), "{err}");
}

#[test]
fn yaml_aliases_past_the_bound_are_refused_naming_the_file() {
    let laughs = crate::docs::yaml_budget::tests::billion_laughs();
    let page = format!("---\ntitle: x\n{laughs}---\nBody");
    let err = build_site(&tree(&[
        ("docs.json", r#"{"navigation": {"pages": ["index"]}}"#),
        ("index.mdx", &page),
    ]))
    .unwrap_err();
    assert!(
        matches!(&err, SiteError::YamlAliases { file, .. } if file == "index.mdx"),
        "{err:?}"
    );
    assert!(err.to_string().contains("aliases expand"), "{err}");
    let err = build_site(&tree(&[
        ("docs.json", r#"{"navigation": {"pages": ["index"]}}"#),
        ("index.mdx", "Home"),
        ("api/openapi.yaml", &laughs),
    ]))
    .unwrap_err();
    assert!(
        matches!(&err, SiteError::YamlAliases { file, .. } if file == "api/openapi.yaml"),
        "{err:?}"
    );
}

#[test]
fn builds_pages_with_language_tab_groups_and_titles() {
    let site = build_site(&tree(&[
        ("docs.json", I18N_DOCS),
        ("es.json", ES_NAV),
        (
            "index.mdx",
            "---\ntitle: Welcome\nsidebarTitle: Home\ndescription: Hi\n---\nHello.",
        ),
        ("cli/index.mdx", "# The CLI\n\nText."),
        ("cli/install.mdx", "No title here."),
        ("es/index.mdx", "---\ntitle: Bienvenido\n---\nHola."),
    ]))
    .unwrap();
    assert_eq!(site.name, "Acme");
    assert_eq!(site.languages, ["en", "es"]);
    let paths: Vec<_> = site.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["index", "cli/index", "cli/install", "es/index"]);
    let home = page(&site, "index");
    assert_eq!(
        (home.title.as_str(), home.sidebar_title.as_deref()),
        ("Welcome", Some("Home"))
    );
    assert_eq!(
        (home.language.as_str(), home.tab.as_deref()),
        ("en", Some("Docs"))
    );
    assert_eq!(page(&site, "cli/index").title, "The CLI");
    assert_eq!(page(&site, "cli/index").groups, ["Start", "CLI"]);
    assert_eq!(page(&site, "cli/install").title, "Install");
    let es = page(&site, "es/index");
    assert_eq!(
        (es.language.as_str(), es.tab.as_deref()),
        ("es", Some("Documentación"))
    );
    assert_eq!(
        site.warnings,
        ["es.json:2: navigation entry `es/gone` has no page file"]
    );
    assert!(site.pages.iter().all(|p| p.in_navigation && !p.hidden));
}

#[test]
fn site_round_trips_through_postcard_and_json() {
    let site = build_site(&tree(&[
        ("docs.json", I18N_DOCS),
        ("es.json", ES_NAV),
        (
            "index.mdx",
            "---\ntitle: Home\nicon: house\n---\n## A\n\nText",
        ),
    ]))
    .unwrap();
    let bytes = postcard::to_allocvec(&site).unwrap();
    assert_eq!(postcard::from_bytes::<Site>(&bytes).unwrap(), site);
    let json = serde_json::to_string(&site).unwrap();
    assert_eq!(serde_json::from_str::<Site>(&json).unwrap(), site);
}

#[test]
fn unlisted_pages_are_hidden_pages_and_snippets_are_not_pages() {
    let site = build_site(&tree(&[
        ("docs.json", I18N_DOCS),
        ("es.json", ES_NAV),
        ("index.mdx", "Home"),
        ("es/index.mdx", "Hola"),
        ("es/secret.mdx", "Oculto"),
        ("extra.md", "# Extra"),
        ("snippets/s.mdx", "Snippet"),
    ]))
    .unwrap();
    let secret = page(&site, "es/secret");
    assert!(secret.hidden && !secret.in_navigation);
    assert_eq!(secret.language, "es");
    assert_eq!(page(&site, "extra").language, "en");
    assert!(site.pages.iter().all(|p| !p.path.starts_with("snippets/")));
    assert!(
        site.warnings
            .iter()
            .any(|w| w.starts_with("2 pages not in navigation")),
        "{:?}",
        site.warnings
    );
}

#[test]
fn search_keeps_the_pages_the_format_says_it_keeps() {
    let nav = r#""navigation": {"groups": [
        {"group": "Guides", "pages": ["listed", "noindex", "unsearched", "own-hidden"]},
        {"group": "Internal", "hidden": true, "pages": ["internal"]},
        {"group": "Help", "hidden": true, "searchable": true, "pages": ["help"]}]}"#;
    let files = |config: &str| {
        tree(&[
            ("docs.json", config),
            ("listed.mdx", "A"),
            ("noindex.mdx", "---\nnoindex: true\n---\nB"),
            ("unsearched.mdx", "---\nsearchable: false\n---\nC"),
            ("own-hidden.mdx", "---\nhidden: true\n---\nD"),
            ("internal.mdx", "E"),
            ("help.mdx", "F"),
            ("unlisted.mdx", "G"),
        ])
    };
    let unsearchable = |config: &str| -> Vec<String> {
        let site = build_site(&files(config)).unwrap();
        assert!(site.warnings.iter().all(|w| !w.contains("searchable")));
        let mut out: Vec<String> = site
            .pages
            .iter()
            .filter(|p| p.unsearchable)
            .map(|p| p.path.clone())
            .collect();
        out.sort();
        out
    };
    assert_eq!(
        unsearchable(&format!("{{{nav}}}")),
        [
            "internal",
            "noindex",
            "own-hidden",
            "unlisted",
            "unsearched"
        ]
    );
    assert_eq!(
        unsearchable(&format!(r#"{{"seo": {{"indexing": "all"}}, {nav}}}"#)),
        ["noindex", "unsearched"]
    );
}

#[test]
fn page_listed_twice_is_kept_once_per_language() {
    let site = build_site(&tree(&[
        (
            "docs.json",
            r#"{"navigation": {"languages": [
                {"language": "en", "tabs": [{"tab": "A", "pages": ["shared"]}, {"tab": "B", "pages": ["shared"]}]},
                {"language": "fr", "default": true, "pages": ["shared"]}]}}"#,
        ),
        ("shared.mdx", "Text"),
    ]))
    .unwrap();
    assert_eq!(site.languages, ["fr", "en"]);
    let found: Vec<_> = site
        .pages
        .iter()
        .map(|p| (p.language.as_str(), p.tab.as_deref()))
        .collect();
    assert_eq!(found, [("en", Some("A")), ("fr", None)]);
}

#[test]
fn hidden_tab_group_or_frontmatter_hides_a_listed_page() {
    let site = build_site(&tree(&[
        (
            "docs.json",
            r#"{"navigation": {"tabs": [{"tab": "Help", "hidden": true, "pages": ["a"]},
                {"tab": "Docs", "pages": ["b", "c"]}]}}"#,
        ),
        ("a.mdx", "A"),
        ("b.mdx", "---\nhidden: true\n---\nB"),
        ("c.mdx", "C"),
    ]))
    .unwrap();
    let hidden: Vec<_> = site.pages.iter().map(|p| p.hidden).collect();
    assert_eq!(hidden, [true, true, false]);
}

#[test]
fn bad_frontmatter_and_invalid_utf8_are_warnings_not_failures() {
    let mut files = tree(&[
        (
            "docs.json",
            r#"{"navigation": {"pages": ["bad", "latin1"]}}"#,
        ),
        ("bad.mdx", "---\ntitle: Setup: basics\n---\n# Heading\n"),
    ]);
    files.insert("latin1.mdx".into(), b"# Caf\xe9\n".to_vec());
    let site = build_site(&files).unwrap();
    assert_eq!(page(&site, "bad").title, "Setup: basics");
    assert_eq!(page(&site, "latin1").title, "Caf\u{fffd}");
    assert_eq!(site.warnings.len(), 2, "{:?}", site.warnings);
    assert!(site.warnings[0].starts_with("bad: invalid frontmatter YAML"));
    assert!(site.warnings[1].starts_with("latin1: not valid UTF-8"));
}

#[test]
fn versions_are_listed_in_declared_order() {
    let site = build_site(&tree(&[
        (
            "docs.json",
            r#"{"navigation": {"versions": [{"version": "v2", "pages": ["v2/a"]}, {"version": "v1", "pages": ["v1/a"]}]}}"#,
        ),
        ("v2/a.mdx", "A2"),
        ("v1/a.mdx", "A1"),
    ]))
    .unwrap();
    assert_eq!(site.versions, ["v2", "v1"]);
    assert_eq!(site.languages, ["en"]);
    assert_eq!(page(&site, "v1/a").version.as_deref(), Some("v1"));
}

#[test]
fn navigation_path_may_name_a_folder_index() {
    let site = build_site(&tree(&[
        ("docs.json", r#"{"navigation": {"pages": ["/guides"]}}"#),
        ("guides/index.mdx", "Guides"),
    ]))
    .unwrap();
    assert_eq!(site.pages.len(), 1);
    assert_eq!(
        (site.pages[0].path.as_str(), site.pages[0].source.as_str()),
        ("guides", "guides/index.mdx")
    );
}

#[test]
fn site_without_pages_is_an_error() {
    let err = build_site(&tree(&[(
        "docs.json",
        r#"{"navigation": {"pages": ["gone"]}}"#,
    )]));
    assert_eq!(err, Err(SiteError::NoPages));
}

#[test]
fn humanises_paths_for_missing_titles() {
    assert_eq!(
        humanise("api/static-export/get-job-status"),
        "Get job status"
    );
    assert_eq!(humanise("cli/index"), "Cli");
    assert_eq!(humanise("index"), "Index");
}

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/fixtures/mintlify-docs"
);

#[test]
fn real_fixture_archive_builds_a_complete_site() {
    let root = std::path::Path::new(FIXTURE);
    assert!(
        root.join("docs.json").is_file(),
        "fixture missing: expected the Mintlify docs fixture at {FIXTURE} (the shared folder sits beside the repo)"
    );
    let gz = pack_tree(&read_dir_tree(root).unwrap());

    let started = std::time::Instant::now();
    let tree = read_docs_archive(&gz, &ArchiveLimits::default()).unwrap();
    let unpacked = started.elapsed();
    let site = build_site(&tree).unwrap();
    let elapsed = started.elapsed();

    let count = |lang: &str| site.pages.iter().filter(|p| p.language == lang).count();
    eprintln!(
        "fixture: {} pages (en {}, es {}, fr {}, zh {}), {} hidden, {} warnings, archive->site {:?} (unpack {:?})",
        site.pages.len(),
        count("en"),
        count("es"),
        count("fr"),
        count("zh"),
        site.pages.iter().filter(|p| p.hidden).count(),
        site.warnings.len(),
        elapsed,
        unpacked
    );
    for warning in &site.warnings {
        eprintln!("  warning: {warning}");
    }

    // 1,101 .md/.mdx files: 44 are snippets, 976 are listed (8 listed paths are missing), 81 unlisted.
    assert!(site.pages.len() >= 1_050, "{} pages", site.pages.len());
    let mut others = site.languages[1..].to_vec();
    others.sort();
    assert_eq!(site.languages[0], "en");
    assert_eq!(others, ["es", "fr", "zh"]);
    assert!(site.pages.iter().all(|p| !p.title.trim().is_empty()));
    assert_eq!(site.name, "Mintlify");
    assert_eq!(site.config.colors.primary.as_deref(), Some("#166E3F"));

    let overview = page(&site, "api/static-export/overview");
    assert_eq!(overview.tab.as_deref(), Some("Learn"));
    assert_eq!(overview.groups, ["Use cases"]);
    assert_eq!(page(&site, "cli/install").groups, ["Get started", "CLI"]);

    let es = page(&site, "es/quickstart");
    assert_eq!(es.language, "es");
    assert!(site
        .pages
        .iter()
        .filter(|p| p.path.starts_with("es/"))
        .all(|p| p.language == "es"));

    let home_text = page(&site, "index").full_text();
    assert!(
        home_text.contains("Meet the next generation of documentation."),
        "{home_text}"
    );
    assert!(home_text.contains("CLI installation"), "{home_text}");
    // quickstart uses <Tip>, <Card title>, <Step title>, an inline <Tooltip> and an .mdx snippet.
    let text = page(&site, "quickstart").full_text();
    for expected in [
        "Using an AI agent?",
        "Use the web editor",
        "Install the CLI",
        "stored in your documentation repository.",
        "Get my documentation live on a published Mintlify site.",
    ] {
        assert!(
            text.contains(expected),
            "quickstart lacks {expected:?}:\n{text}"
        );
    }
    for jsx in [
        "<Card",
        "<Tip",
        "<Step",
        "<Tooltip",
        "<SetupAgentPrompt",
        "import ",
    ] {
        assert!(!text.contains(jsx), "quickstart has {jsx:?}:\n{text}");
    }

    // Top-level snippet imports must not reach the text; the same line inside a fenced example
    // (migration/gitbook shows one) is content and may.
    let mut checked = 0;
    for page in &site.pages {
        let source = std::str::from_utf8(&tree[&page.source]).unwrap();
        let text = page.full_text();
        for block in crate::docs::mdx::blocks(frontmatter::split(source).1) {
            let crate::docs::mdx::Block::Esm(esm) = block else {
                continue;
            };
            for line in esm
                .lines()
                .filter(|l| l.starts_with("import ") && l.contains("/snippets/"))
            {
                checked += 1;
                if source.matches(line).count() == 1 {
                    assert!(
                        !text.contains(line),
                        "{}: import left in text: {line}",
                        page.path
                    );
                }
            }
        }
    }
    assert!(checked > 100, "{checked} snippet imports checked");
}
