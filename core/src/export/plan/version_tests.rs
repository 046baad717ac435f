//! Tests of the plan with more than one version in the bundle.

use super::model::*;
use super::render::*;
use crate::docs::archive::tree;
use crate::docs::build_site;
use crate::docs::{Site, SourceTree};
use crate::export::{ExportFile, ExportOptions};
use crate::export::{ExportVersions, PlainCode, SEARCH_INDEX_FILE};

/// Two versions sharing `shared/intro`; the default (v2) listed second.
fn two_versions() -> (Site, SourceTree) {
    let t = tree(&[
        (
            "docs.json",
            r#"{"navigation": {"versions": [
                {"version": "v1", "groups": [{"group": "Old", "pages": ["v1/a", "shared/intro"]}]},
                {"version": "v2", "default": true, "groups": [{"group": "New", "pages": ["v2/a", "shared/intro", "v2/b"]}]}]}}"#,
        ),
        (
            "v1/a.mdx",
            "---\ntitle: Old A\n---\nRead [the intro](/shared/intro) and ![logo](/logo.png).",
        ),
        (
            "v2/a.mdx",
            "---\ntitle: New A\n---\nRead [the intro](/shared/intro).",
        ),
        ("v2/b.mdx", "---\ntitle: New B\n---\nBravo."),
        (
            "shared/intro.mdx",
            "---\ntitle: Intro\n---\nShared [a](/v2/a) [self](#x) ![logo](/logo.png)\n\n## X\n",
        ),
        ("logo.png", "png"),
    ]);
    (build_site(&t).unwrap(), t)
}

fn options(versions: Option<ExportVersions>) -> ExportOptions {
    ExportOptions {
        domain: "docs.example.com".into(),
        versions,
        ..ExportOptions::default()
    }
}

fn text(files: &[ExportFile], path: &str) -> String {
    let file = files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("no {path}"));
    String::from_utf8(file.bytes.clone()).unwrap()
}

#[test]
fn all_versions_keep_the_default_paths_and_copy_shared_pages_under_the_version_prefix() {
    let (site, t) = two_versions();
    let plan = ExportPlan::new(&site, &t, &options(Some(ExportVersions::All))).unwrap();
    assert_eq!(plan.versions(), ["v2", "v1"]);
    assert_eq!(
        plan.page_paths(&site),
        ["shared/intro", "v1/shared/intro", "v2/a", "v2/b", "v1/a"]
    );
    BODY_RENDERS.with(|n| n.set(0));
    let files = plan.render_pages(&site, &t, 0..plan.page_count(), &PlainCode);
    assert_eq!(
        BODY_RENDERS.with(|n| n.get()),
        4,
        "five files, the shared page's body rendered once"
    );

    let shared = text(&files, "shared/intro.html");
    let copy = text(&files, "v1/shared/intro.html");
    assert!(
        shared.contains("href=\"../v2/a.html\"") && copy.contains("href=\"../../v2/a.html\""),
        "{copy}"
    );
    assert!(
        shared.contains("src=\"../logo.png\"") && copy.contains("src=\"../../logo.png\""),
        "{copy}"
    );
    assert!(
        copy.contains("href=\"#x\""),
        "a link to the page itself stays a fragment"
    );
    assert!(!copy.contains('\u{E000}'), "no marker is left");
    // The copy keeps the live page's canonical URL and shows v1's sidebar.
    assert!(
        copy.contains("<link rel=\"canonical\" href=\"https://docs.example.com/shared/intro\">")
    );
    let sidebar = |html: &str| {
        html.split("<aside")
            .nth(1)
            .and_then(|s| s.split("</aside>").next())
            .unwrap_or("")
            .to_owned()
    };
    assert!(
        sidebar(&copy).contains("Old A") && !sidebar(&copy).contains("New A"),
        "{copy}"
    );
    assert!(sidebar(&shared).contains("New A") && !sidebar(&shared).contains("Old A"));
    // v1's own page links to v1's copy of the shared page.
    assert!(text(&files, "v1/a.html").contains("href=\"shared/intro.html\""));

    // The switch: the same page in the other version, else its first page.
    assert!(
        shared.contains("class=\"lang-switch version-switch\""),
        "{shared}"
    );
    assert!(
        shared.contains("<a href=\"../v1/shared/intro.html\">v1</a>"),
        "{shared}"
    );
    assert!(
        copy.contains("<a href=\"../../shared/intro.html\">v2</a>"),
        "{copy}"
    );
    assert!(copy.contains("aria-current=\"page\">v1</a>"), "{copy}");
    let b = text(&files, "v2/b.html");
    assert!(
        b.contains("<a href=\"../v1/a.html\">v1</a>"),
        "v1 lacks v2/b: its first page\n{b}"
    );

    // One search index per version, each finding its own copy.
    let finishing = plan.finishing_files(&site, &t);
    assert!(text(&files, "v1/a.html").contains("data-search=\"../_static/search/en.v1/\""));
    let docs = |dir: &str| -> String {
        finishing
            .iter()
            .filter(|f| f.path.starts_with(&format!("_static/search/{dir}/d/")))
            .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
            .collect()
    };
    assert!(
        docs("en").contains("shared/intro.html") && !docs("en").contains("v1/"),
        "{}",
        docs("en")
    );
    assert!(
        docs("en.v1").contains("v1/shared/intro.html") && docs("en.v1").contains("v1/a.html"),
        "{}",
        docs("en.v1")
    );
    // The sitemap and llms.txt name each page once, at its live URL.
    let sitemap = text(&finishing, "sitemap.xml");
    assert_eq!(sitemap.matches("<loc>").count(), 4, "{sitemap}");
    assert!(!sitemap.contains("v1/shared"));
    let llms = text(&finishing, "llms.txt");
    assert_eq!(llms.matches("shared/intro").count(), 1, "{llms}");
    assert!(!finishing.iter().any(|f| f.path == SEARCH_INDEX_FILE));
}

#[test]
fn the_default_export_holds_one_version_and_links_the_others_to_the_live_site() {
    let (site, t) = two_versions();
    let plan = ExportPlan::new(&site, &t, &options(None)).unwrap();
    assert_eq!(plan.versions(), ["v2"]);
    assert_eq!(
        plan.page_paths(&site),
        ["shared/intro", "v2/a", "v2/b"],
        "the shared page is v2's too"
    );
    let files = plan.render_pages(&site, &t, 0..plan.page_count(), &PlainCode);
    let shared = text(&files, "shared/intro.html");
    assert!(shared.contains("<a href=\"https://docs.example.com/shared/intro\">v1 <span class=\"version-live\">(live site)</span></a>"), "{shared}");
    let b = text(&files, "v2/b.html");
    assert!(
        b.contains("href=\"https://docs.example.com/v1/a\">v1 "),
        "{b}"
    );

    let named = ExportPlan::new(
        &site,
        &t,
        &options(Some(ExportVersions::Only(vec!["v1".into()]))),
    )
    .unwrap();
    assert_eq!(named.versions(), ["v1"]);
    let err = ExportPlan::new(
        &site,
        &t,
        &options(Some(ExportVersions::Only(vec!["v1".into(), "v9".into()]))),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("versions: unknown version `v9`"),
        "{err}"
    );
}
