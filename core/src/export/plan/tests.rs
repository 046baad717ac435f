//! Tests of the plan: page choice, links and the finishing files of one version.

use super::choice::*;
use super::model::*;
use crate::docs::archive::tree;
use crate::docs::build_site;
use crate::docs::{Site, SourceTree};
use crate::export::page::extras::PageExtras;
use crate::export::site::agent::MarkdownPages;
use crate::export::{ExportError, ExportOptions};
use crate::export::{PlainCode, MARKDOWN_PAGES_DEFAULT_MAX};

fn opts() -> ExportOptions {
    ExportOptions {
        version: None,
        versions: None,
        paths: None,
        domain: "docs.example.com".into(),
        mtime: 0,
        features: Default::default(),
        markdown: None,
    }
}

fn versioned() -> (Site, SourceTree) {
    let t = tree(&[
        (
            "docs.json",
            r#"{"navigation": {"versions": [
                {"version": "v1", "pages": ["v1/a"]},
                {"version": "v2", "default": true, "pages": ["v2/a", "v2/b"]}]}}"#,
        ),
        ("v1/a.mdx", "[b](/v2/b) [old](/v1/a)"),
        ("v2/a.mdx", "[b](/v2/b) [old](/v1/a)"),
        ("v2/b.mdx", "B"),
    ]);
    (build_site(&t).unwrap(), t)
}

#[test]
fn default_version_is_the_marked_one_and_unknown_versions_are_named() {
    let (site, t) = versioned();
    let plan = ExportPlan::new(&site, &t, &opts()).unwrap();
    assert_eq!(plan.version(), Some("v2"));
    assert_eq!(plan.page_paths(&site), ["v2/a", "v2/b"]);
    let err = ExportPlan::new(
        &site,
        &t,
        &ExportOptions {
            version: Some("v9".into()),
            versions: None,
            ..opts()
        },
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("v9") && err.to_string().contains("v1"),
        "{err}"
    );
    let v1 = ExportPlan::new(
        &site,
        &t,
        &ExportOptions {
            version: Some("v1".into()),
            versions: None,
            ..opts()
        },
    )
    .unwrap();
    assert_eq!(v1.page_paths(&site), ["v1/a"]);
}

#[test]
fn links_to_other_versions_stay_absolute() {
    let (site, t) = versioned();
    let plan = ExportPlan::new(&site, &t, &opts()).unwrap();
    let files = plan.render_pages(&site, &t, 0..1, &PlainCode);
    let html = String::from_utf8(files[0].bytes.clone()).unwrap();
    assert!(html.contains("<a href=\"b.html\">b</a>"), "{html}");
    assert!(
        html.contains("<a href=\"https://docs.example.com/v1/a\">old</a>"),
        "{html}"
    );
}

#[test]
fn paths_filter_accepts_slashes_and_names_unknown_paths() {
    let (site, t) = versioned();
    let plan = ExportPlan::new(
        &site,
        &t,
        &ExportOptions {
            paths: Some(vec!["/v2/b".into()]),
            ..opts()
        },
    )
    .unwrap();
    assert_eq!(plan.page_paths(&site), ["v2/b"]);
    let err = ExportPlan::new(
        &site,
        &t,
        &ExportOptions {
            paths: Some(vec!["nope".into(), "v2/a".into(), "/x/".into()]),
            ..opts()
        },
    )
    .unwrap_err();
    assert_eq!(
        err,
        ExportError::UnknownPaths {
            paths: vec!["nope".into(), "/x/".into()]
        }
    );
}

#[test]
fn domains_are_normalised_or_refused() {
    assert_eq!(
        normalise_domain("https://docs.x.dev/").unwrap(),
        "docs.x.dev"
    );
    assert_eq!(normalise_domain("x.dev/docs").unwrap(), "x.dev/docs");
    assert!(normalise_domain("").is_err());
    assert!(normalise_domain("x.dev\"><script>").is_err());
}

#[test]
fn a_generated_api_page_shows_its_operation_description_as_markdown_once() {
    let t = tree(&[
        (
            "docs.json",
            r#"{"navigation": {"groups": [{"group": "API", "openapi": "openapi.json", "pages": ["POST /chat"]}]}}"#,
        ),
        (
            "openapi.json",
            r#"{"openapi": "3.1.0", "paths": {"/chat": {"post": {"summary": "Chat", "description": "**Available for**: Chatflow apps.\n\nSends a message.", "responses": {"200": {"description": "ok"}}}}}}"#,
        ),
    ]);
    let site = build_site(&t).unwrap();
    let plan = ExportPlan::new(&site, &t, &opts()).unwrap();
    let files = plan.render_pages(&site, &t, 0..9, &PlainCode);
    let html = files
        .iter()
        .find(|f| f.path.ends_with(".html"))
        .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
        .unwrap();
    let body = &html[html.find("<body").unwrap()..];
    assert!(
        body.contains("<strong>Available for</strong>: Chatflow apps.</p><p>Sends a message.</p>"),
        "{body}"
    );
    assert!(!body.contains("**"), "raw Markdown: {body}");
    assert_eq!(body.matches("Sends a message.").count(), 1, "{body}");
}

#[test]
fn a_site_that_hides_the_playground_gets_no_try_it_panel() {
    for (file, api, shown) in [
        (
            "docs.json",
            r#""api": {"playground": {"display": "none"}}"#,
            false,
        ),
        (
            "mint.json",
            r#""api": {"playground": {"mode": "hide"}}"#,
            false,
        ),
        (
            "docs.json",
            r#""api": {"playground": {"display": "interactive"}}"#,
            true,
        ),
    ] {
        let config = format!(r#"{{"name": "x", {api}, "navigation": {{"pages": ["a"]}}}}"#);
        let config = if file == "mint.json" {
            config.replace(
                r#""navigation": {"pages": ["a"]}"#,
                r#""navigation": [{"group": "G", "pages": ["a"]}]"#,
            )
        } else {
            config
        };
        let t = tree(&[
            (file, config.as_str()),
            (
                "a.mdx",
                "---\ntitle: A\napi: \"GET https://api.example.com/x\"\n---\n",
            ),
        ]);
        let site = build_site(&t).unwrap();
        let extras = PageExtras {
            playground: true,
            ..PageExtras::default()
        };
        let plan = ExportPlan::new(&site, &t, &opts())
            .unwrap()
            .with_extras(extras);
        let html: String = plan
            .render_pages(&site, &t, 0..9, &PlainCode)
            .iter()
            .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
            .collect();
        assert_eq!(html.contains("try-it"), shown, "{file} {api}");
    }
}

#[test]
fn ranges_are_clamped() {
    let (site, t) = versioned();
    let plan = ExportPlan::new(&site, &t, &opts()).unwrap();
    assert_eq!(
        plan.render_pages(&site, &t, 1..99, &PlainCode).len(),
        2,
        "one page: its .html and .md"
    );
    let reversed = std::ops::Range { start: 5, end: 3 };
    assert!(plan
        .render_pages(&site, &t, reversed, &PlainCode)
        .is_empty());
}

#[test]
fn without_markdown_pages_llms_files_link_the_html_pages() {
    let (site, t) = versioned();
    let options = ExportOptions {
        markdown: Some(MarkdownPages::LlmsFull),
        ..opts()
    };
    let plan = ExportPlan::new(&site, &t, &options).unwrap();
    let pages = plan.render_pages(&site, &t, 0..9, &PlainCode);
    assert_eq!(
        pages.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
        ["v2/a.html", "v2/b.html"]
    );
    let finishing = plan.finishing_files(&site, &t);
    assert!(!finishing.iter().any(|f| f.path.ends_with(".md")));
    let text = |name: &str| {
        String::from_utf8(
            finishing
                .iter()
                .find(|f| f.path == name)
                .unwrap()
                .bytes
                .clone(),
        )
        .unwrap()
    };
    let index = text("llms.txt");
    assert!(
        index.contains("(v2/b.html)") && !index.contains(".md)"),
        "{index}"
    );
    let full = text("llms-full.txt");
    assert!(
        full.contains("[b](b.html)") && !full.contains(".md)"),
        "{full}"
    );

    assert_eq!(
        MarkdownPages::resolve(None, MARKDOWN_PAGES_DEFAULT_MAX),
        MarkdownPages::Pages
    );
    assert_eq!(
        MarkdownPages::resolve(None, MARKDOWN_PAGES_DEFAULT_MAX + 1),
        MarkdownPages::LlmsFull
    );
    assert_eq!(
        MarkdownPages::resolve(Some(MarkdownPages::Pages), 50_000),
        MarkdownPages::Pages
    );
}
