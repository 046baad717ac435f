//! Authoring mistakes and legacy forms found in real docs repositories: each is read as the author
//! meant where that is clear, and reported as a `file:line: message` warning, never a failure.
//! Every case goes through the publish path (plan, then each page read once for its search text
//! and its Markdown for agents), so both readers are checked.

use std::collections::BTreeMap;

use crate::agents::llms::read_planned_with_markdown;
use crate::docs::archive::tree;
use crate::docs::model::{Page, Site};
use crate::docs::site::plan_site;
use crate::docs::SourceTree;

/// The site as the publish job makes it, and each page's Markdown body by page path.
fn publish(files: &SourceTree) -> (Site, BTreeMap<String, String>) {
    let paths: Vec<&str> = files.keys().map(String::as_str).collect();
    let plan = plan_site(files, &paths).unwrap();
    let mut reads = Vec::new();
    let mut bodies = BTreeMap::new();
    for planned in plan.pages() {
        let mut body = String::new();
        reads.push(read_planned_with_markdown(files, planned, "d.io", &mut body).unwrap());
        bodies.insert(planned.path.clone(), body);
    }
    (plan.finish(reads), bodies)
}

fn page<'s>(site: &'s Site, path: &str) -> &'s Page {
    site.pages.iter().find(|p| p.path == path).unwrap_or_else(|| panic!("no page {path}"))
}

const NAV: (&str, &str) = ("docs.json", r#"{"navigation": {"pages": ["a"]}}"#);

#[test]
fn a_file_ending_inside_a_code_fence_publishes_whole_with_a_warning_at_the_fence() {
    let files = tree(&[NAV, ("a.mdx", "---\ntitle: A\n---\nIntro.\n\n```bash\nnpm i x\n\n## After\n\nLast words.\n")]);
    let (site, bodies) = publish(&files);
    let text = page(&site, "a").full_text();
    assert!(text.contains("Intro.") && text.contains("npm i x") && text.contains("Last words."), "{text}");
    assert!(bodies["a"].contains("Last words."), "{}", bodies["a"]);
    assert_eq!(site.warnings, ["a.mdx:6: code fence opened here is never closed"]);
}

#[test]
fn a_closed_fence_and_a_fence_closed_by_a_longer_one_give_no_warning() {
    let files = tree(&[NAV, ("a.mdx", "```js\nx\n```\n\n~~~~\ny\n~~~~~\n")]);
    assert!(publish(&files).0.warnings.is_empty());
}

/// One page written with every construct the line ending matters to.
const EVERY_CONSTRUCT: &str = "---\ntitle: Lines\ndescription: Ends\n---\nimport S from '/snippets/s.mdx'\nexport const v = \"val\"\n\n# Heading\n\n<Note>\n  Inside **note**.\n</Note>\n\n<Card\n  title=\"Card title\"\n/>\n\n```js\nlet a = 1;\n```\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n<S />\n\nValue {v}.\n";

#[test]
fn crlf_lone_cr_and_a_bom_read_exactly_like_lf() {
    let lf = publish(&tree(&[NAV, ("a.mdx", EVERY_CONSTRUCT), ("snippets/s.mdx", "From snippet.\n")]));
    assert!(lf.0.warnings.is_empty(), "{:?}", lf.0.warnings);
    assert!(page(&lf.0, "a").full_text().contains("A | B\n1 | 2"), "{}", page(&lf.0, "a").full_text());
    for (name, ending, bom) in [("crlf", "\r\n", ""), ("cr", "\r", ""), ("bom", "\n", "\u{feff}"), ("bom crlf", "\r\n", "\u{feff}")] {
        let page_text = format!("{bom}{}", EVERY_CONSTRUCT.replace('\n', ending));
        let snippet = format!("{bom}From snippet.{ending}");
        let other = publish(&tree(&[NAV, ("a.mdx", &page_text), ("snippets/s.mdx", &snippet)]));
        assert_eq!(other.0, lf.0, "{name}");
        assert_eq!(other.1, lf.1, "{name}");
    }
}

#[test]
fn line_numbers_count_crlf_and_lone_cr_lines() {
    for ending in ["\r\n", "\r"] {
        let source = "---\r\ntitle: A\r\n---\r\n\r\n```\r\nopen".replace("\r\n", ending);
        let (site, _) = publish(&tree(&[NAV, ("a.mdx", &source)]));
        assert_eq!(site.warnings, ["a.mdx:5: code fence opened here is never closed"], "{ending:?}");
    }
}

#[test]
fn a_navigation_entry_naming_no_page_is_a_warning_at_its_line_in_the_config() {
    let files = tree(&[
        ("docs.json", "{\n  \"navigation\": {\"languages\": [\n    {\"language\": \"en\", \"pages\": [\"a\",\n      \"/gone.mdx\"]},\n    {\"$ref\": \"es.json\"}]}\n}\n"),
        ("es.json", "{\"language\": \"es\",\r\n \"pages\": [\"es/a\", \"es/gone\"]}"),
        ("a.mdx", "A"),
        ("es/a.mdx", "A"),
    ]);
    let (site, _) = publish(&files);
    assert_eq!(
        site.warnings,
        ["docs.json:4: navigation entry `gone` has no page file", "es.json:2: navigation entry `es/gone` has no page file"]
    );
}
