//! The whole fixture site exported the way the Durable Object does it (batches of pages, then the
//! finishing files, each a gzip member), checked page by page. Figures are printed:
//! `cargo test -p docs-edge-core export::tests -- --nocapture`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;
use std::time::Instant;

use flate2::read::MultiGzDecoder;

use super::*;
use crate::docs::archive::read_dir_tree;
use crate::docs::build_site;

pub(super) const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/fixtures/mintlify-docs"
);
const BATCH: usize = 100;
const MTIME: u64 = 1_700_000_000;

pub(crate) fn options() -> ExportOptions {
    ExportOptions {
        version: None,
        versions: None,
        paths: None,
        domain: "docs.example.com".into(),
        mtime: MTIME,
        features: Default::default(),
        markdown: None,
    }
}

/// Pages in batches and the finishing files, as files and as the concatenated bundle.
pub(super) fn export(
    site: &Site,
    tree: &SourceTree,
    options: &ExportOptions,
) -> (Vec<ExportFile>, Vec<u8>) {
    let plan = ExportPlan::new(site, tree, options).unwrap();
    let mut files = Vec::new();
    let mut bundle = Vec::new();
    for start in (0..plan.page_count()).step_by(BATCH) {
        let batch = plan.render_pages(site, tree, start..start + BATCH, &PlainCode);
        bundle.extend(tar_gz_member(&batch, options.mtime));
        files.extend(batch);
    }
    let finishing = plan.finishing_files(site, tree);
    bundle.extend(tar_gz_member(&finishing, options.mtime));
    bundle.extend(tar_gz_trailer());
    files.extend(finishing);
    (files, bundle)
}

/// The page's sidebar markup (empty when it has none).
fn sidebar_of(html: &str) -> &str {
    html.split("<aside class=\"sidebar\"")
        .nth(1)
        .and_then(|s| s.split("</aside>").next())
        .unwrap_or("")
}

/// Values of `name="…"` attributes of the tags in `html`, entity-decoded, with the tag's name and
/// whole text. Text never holds a raw `<`, so every `<` opens a tag.
fn attributes<'h>(html: &'h str, name: &str) -> Vec<(&'h str, &'h str, String)> {
    let needle = format!(" {name}=\"");
    let mut out = Vec::new();
    for chunk in html.split('<').skip(1) {
        let tag = &chunk[..chunk.find('>').unwrap_or(chunk.len())];
        let tag_name = tag
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        let mut from = 0;
        while let Some(at) = tag[from..].find(&needle) {
            let start = from + at + needle.len();
            let Some(len) = tag[start..].find('"') else {
                break;
            };
            let value = tag[start..start + len]
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            out.push((tag_name, tag, value));
            from = start + len;
        }
    }
    out
}

/// `<` followed by an ASCII capital outside `<pre>`/`<code>`: a component that was not rendered.
fn raw_component(html: &str) -> Option<String> {
    let b = html.as_bytes();
    let mut depth = 0i32;
    for i in 0..b.len() {
        if b[i] != b'<' {
            continue;
        }
        let rest = &html[i..];
        if rest.starts_with("<pre") || rest.starts_with("<code") {
            depth += 1;
        } else if rest.starts_with("</pre") || rest.starts_with("</code") {
            depth -= 1;
        } else if depth <= 0 && b.get(i + 1).is_some_and(u8::is_ascii_uppercase) {
            return Some(rest.chars().take(60).collect());
        }
    }
    None
}

/// A component's source shown as text outside `<pre>`/`<code>`: `&lt;Card` opening a text line or
/// following a space, with an attribute or the tag's end after its name (a type written in prose,
/// `ReactElement&lt;StepProps&gt;`, follows a word and is text).
fn component_source_as_text(html: &str) -> Option<String> {
    let outside_code = html
        .split("<pre")
        .map(|part| part.split("</pre>").last().unwrap_or(part))
        .flat_map(|part| {
            part.split("<code")
                .map(|p| p.split("</code>").last().unwrap_or(p))
        });
    for text in outside_code {
        for (i, _) in text.match_indices("&lt;") {
            let before = text[..i].chars().next_back();
            let name: String = text[i + 4..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
                .collect();
            let after = text[i + 4 + name.len()..].chars().next();
            let opens_text = before.is_none_or(|c| c == '>' || c.is_whitespace());
            let capital = name.starts_with(|c: char| c.is_ascii_uppercase());
            let tag_goes_on = after.is_some_and(|c| c.is_whitespace() || c == '/' || c == '&');
            if opens_text && capital && tag_goes_on {
                return Some(text[i..].chars().take(60).collect());
            }
        }
    }
    None
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A relative URL of `from` resolved to a bundle path.
/// Destinations of `[text](dest)` links and images in Markdown, outside code.
fn markdown_links(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let dest = match rest.strip_prefix('<') {
                Some(inner) => inner.split('>').next().unwrap_or(""),
                None => rest.split([')', ' ']).next().unwrap_or(""),
            };
            out.push(dest.to_owned());
        }
    }
    out
}

/// Relative links in a Markdown file of the bundle that name no file of the bundle.
fn markdown_link_problems(from: &str, md: &str, paths: &BTreeSet<&str>) -> Vec<String> {
    markdown_links(md)
        .into_iter()
        .filter(|dest| {
            !(dest.is_empty()
                || dest.starts_with('#')
                || dest.starts_with("https://")
                || dest.starts_with("http://")
                || dest.starts_with("mailto:")
                || dest.starts_with("data:"))
        })
        .filter(|dest| !paths.contains(resolve_relative(from, dest).as_str()))
        .map(|dest| format!("{from}: link {dest} is not in the bundle"))
        .collect()
}

fn resolve_relative(from: &str, url: &str) -> String {
    let path = url.split(['#', '?']).next().unwrap_or("");
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    let decoded = percent_decode(path);
    for part in decoded.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

fn is_external(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    ["http:", "https:", "mailto:", "tel:", "//"]
        .iter()
        .any(|p| lower.starts_with(p))
}

/// Problems of one HTML file: raw components, dangling relative links, requests to other hosts.
fn check_html(path: &str, html: &str, paths: &BTreeSet<&str>, problems: &mut Vec<String>) {
    if let Some(raw) = raw_component(html) {
        problems.push(format!("{path}: raw component {raw:?}"));
    }
    if let Some(source) = component_source_as_text(html) {
        problems.push(format!("{path}: component source shown as text {source:?}"));
    }
    for attr in ["href", "src"] {
        for (tag, whole, url) in attributes(html, attr) {
            if url.is_empty() || url.starts_with('#') {
                continue;
            }
            if is_external(&url) {
                let fetched =
                    attr == "src" || (tag == "link" && !whole.contains("rel=\"canonical\""));
                if fetched {
                    problems.push(format!(
                        "{path}: <{tag} {attr}> loads from another host: {url}"
                    ));
                }
                continue;
            }
            if url.contains(':') && !url.starts_with("data:image/") {
                problems.push(format!("{path}: unexpected scheme {url}"));
                continue;
            }
            let target = resolve_relative(path, &url);
            if !url.starts_with("data:") && !paths.contains(target.as_str()) {
                problems.push(format!("{path}: {attr}={url} -> missing {target}"));
            }
        }
    }
    for banned in ["<iframe", "<embed", "<object", "srcset=", "@import"] {
        if html.contains(banned) {
            problems.push(format!("{path}: contains {banned}"));
        }
    }
    // `url(#id)` is a diagram's marker inside the page; any other `url(` fetches.
    if html
        .match_indices("url(")
        .any(|(at, _)| !html[at + 4..].starts_with('#'))
    {
        problems.push(format!(
            "{path}: contains url( of something outside the page"
        ));
    }
}

fn text_of(file: &ExportFile) -> &str {
    std::str::from_utf8(&file.bytes).unwrap_or("")
}

#[test]
fn fixture_exports_a_complete_self_contained_site() {
    let root = Path::new(FIXTURE);
    assert!(
        root.join("docs.json").is_file(),
        "fixture missing at {FIXTURE}"
    );
    let tree = read_dir_tree(root).unwrap();
    let site = build_site(&tree).unwrap();

    let started = Instant::now();
    let (files, bundle) = export(&site, &tree, &options());
    let elapsed = started.elapsed();

    let by_path: BTreeMap<&str, &ExportFile> = files.iter().map(|f| (f.path.as_str(), f)).collect();
    assert_eq!(by_path.len(), files.len(), "duplicate paths in the bundle");
    let paths: BTreeSet<&str> = by_path.keys().copied().collect();

    // Every page of the (unversioned) site, all languages.
    let plan = ExportPlan::new(&site, &tree, &options()).unwrap();
    let expected: BTreeSet<String> = site
        .pages
        .iter()
        .map(|p| format!("{}.html", p.path))
        .collect();
    assert_eq!(plan.page_count(), expected.len());
    for file in &expected {
        assert!(paths.contains(file.as_str()), "missing {file}");
    }
    for required in [
        "index.html",
        "404.html",
        "robots.txt",
        "sitemap.xml",
        "_static/site.css",
        "_static/site.js",
    ] {
        assert!(paths.contains(required), "missing {required}");
    }
    // SVGs run script when opened as documents: the logos are carried rewritten through the
    // allow-list (no script, no event handler), and pages link them rather than inline them.
    let svgs: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| p.to_ascii_lowercase().ends_with(".svg"))
        .collect();
    assert_eq!(
        svgs,
        ["logo/dark.svg", "logo/light.svg"],
        "only the logos are SVG files"
    );
    for svg in svgs {
        let text = text_of(by_path[svg]);
        assert!(
            text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")
                && !text.contains("<script")
                && !text.contains(" on"),
            "{svg}: {text}"
        );
    }
    let index = text_of(by_path["index.html"]);
    for logo in [
        "<img class=\"logo logo-light\" src=\"logo/light.svg\"",
        "<img class=\"logo logo-dark\" src=\"logo/dark.svg\"",
    ] {
        assert!(index.contains(logo), "the logo is linked: {logo}");
    }

    // Page by page: no raw components, links resolve, nothing from other hosts, anchors = search anchors.
    let mut problems = Vec::new();
    let mut anchor_mismatches = Vec::new();
    let hidden: BTreeSet<String> = site
        .pages
        .iter()
        .filter(|p| p.hidden)
        .map(|p| format!("{}.html", p.path))
        .collect();
    assert!(hidden.len() > 50, "the fixture has hidden pages");
    for file in files.iter().filter(|f| f.path.ends_with(".html")) {
        let html = text_of(file);
        check_html(&file.path, html, &paths, &mut problems);
        let sidebar = sidebar_of(html);
        for (_, _, href) in attributes(sidebar, "href") {
            if hidden.contains(&resolve_relative(&file.path, &href)) {
                problems.push(format!("{}: sidebar shows hidden page {href}", file.path));
            }
        }
    }
    for page in &site.pages {
        let html = text_of(by_path[format!("{}.html", page.path).as_str()]);
        let rendered: Vec<String> = attributes(html, "href")
            .into_iter()
            .filter(|(_, whole, _)| whole.starts_with("a class=\"anchor\""))
            .map(|(_, _, v)| v.trim_start_matches('#').to_owned())
            .collect();
        // The reference of an `openapi:` page is rendered with its own anchors.
        let reference = [
            crate::docs::endpoint::PARAMETERS_ANCHOR,
            crate::docs::endpoint::REQUEST_BODY_ANCHOR,
            crate::docs::endpoint::RESPONSES_ANCHOR,
        ];
        let expected: Vec<String> = page
            .sections
            .iter()
            .filter(|s| !s.anchor.is_empty() && !reference.contains(&s.anchor.as_str()))
            .map(|s| s.anchor.clone())
            .collect();
        if rendered != expected {
            anchor_mismatches.push(format!(
                "{}: rendered {rendered:?} sections {expected:?}",
                page.path
            ));
        }
    }
    for p in problems.iter().take(30) {
        eprintln!("  problem: {p}");
    }
    for p in anchor_mismatches.iter().take(10) {
        eprintln!("  anchors: {p}");
    }
    assert!(problems.is_empty(), "{} problems", problems.len());
    assert!(
        anchor_mismatches.is_empty(),
        "{} pages with other anchors",
        anchor_mismatches.len()
    );

    // Sitemap and canonical URLs are extensionless and absolute.
    let sitemap = text_of(by_path["sitemap.xml"]);
    assert!(sitemap.contains("<loc>https://docs.example.com/api/static-export/overview</loc>"));
    assert!(!sitemap.contains(".html"));
    let overview = text_of(by_path["api/static-export/overview.html"]);
    assert!(overview.contains(
        "<link rel=\"canonical\" href=\"https://docs.example.com/api/static-export/overview\">"
    ));
    assert!(
        overview.contains("href=\"start-job.html\""),
        "relative link to a sibling page"
    );
    assert!(
        text_of(by_path["robots.txt"]).contains("Sitemap: https://docs.example.com/sitemap.xml")
    );

    // An OpenAPI page shows its method and path.
    let start_job = text_of(by_path["api/static-export/start-job.html"]);
    assert!(start_job.contains("<span class=\"method method-post\">POST</span><code class=\"api-path\">/static-export/jobs</code>"));
    assert!(
        start_job.contains("<code>domain</code>"),
        "request body properties"
    );

    // For agents: a Markdown twin of every page; llms.txt and every .md link only to bundle files.
    let mut md_problems = Vec::new();
    for page in &site.pages {
        let md_path = format!("{}.md", page.path);
        let Some(file) = by_path.get(md_path.as_str()) else {
            md_problems.push(format!("missing {md_path}"));
            continue;
        };
        let md = text_of(file);
        if !md.starts_with("# ") || !md.contains("\nSource: https://docs.example.com/") {
            md_problems.push(format!("{md_path}: no title or source line"));
        }
        md_problems.extend(markdown_link_problems(&md_path, md, &paths));
    }
    let llms = text_of(by_path["llms.txt"]);
    assert!(llms.starts_with("# ") && llms.contains("\n> "), "{llms}");
    let listed = markdown_links(llms).len();
    assert!(
        listed * 2 > site.pages.len(),
        "llms.txt lists {listed} links"
    );
    md_problems.extend(markdown_link_problems("llms.txt", llms, &paths));
    assert!(text_of(by_path["llms-full.txt"]).contains("# Static export"));
    for p in md_problems.iter().take(20) {
        eprintln!("  markdown: {p}");
    }
    assert!(
        md_problems.is_empty(),
        "{} Markdown problems",
        md_problems.len()
    );

    // Language switch: the same page in Spanish.
    let quickstart = text_of(by_path["quickstart.html"]);
    assert!(
        quickstart.contains("<a href=\"es/quickstart.html\" hreflang=\"es\""),
        "language switch"
    );

    // The bundle reads back with the tar crate: the same files, byte for byte.
    let mut archive = tar::Archive::new(MultiGzDecoder::new(bundle.as_slice()));
    let mut count = 0;
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().to_string_lossy().into_owned();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).unwrap();
        assert_eq!(by_path[path.as_str()].bytes, data, "{path}");
        count += 1;
    }
    assert_eq!(count, files.len());

    // Deterministic: everything again, the same bytes.
    let (files_again, bundle_again) = export(&site, &tree, &options());
    assert!(files == files_again, "files differ between runs");
    assert!(bundle == bundle_again, "bundle differs between runs");

    // A subset: only those pages, and the navigation shows only them.
    let subset = ExportOptions {
        paths: Some(vec![
            "quickstart".into(),
            "/api/static-export/overview".into(),
            "index".into(),
        ]),
        ..options()
    };
    let (sub_files, _) = export(&site, &tree, &subset);
    let sub_pages: BTreeSet<&str> = sub_files
        .iter()
        .map(|f| f.path.as_str())
        .filter(|p| p.ends_with(".html") && *p != "404.html")
        .collect();
    assert_eq!(
        sub_pages,
        BTreeSet::from([
            "api/static-export/overview.html",
            "index.html",
            "quickstart.html"
        ])
    );
    let sub_paths: BTreeSet<&str> = sub_files.iter().map(|f| f.path.as_str()).collect();
    for file in sub_files
        .iter()
        .filter(|f| sub_pages.contains(f.path.as_str()))
    {
        let html = text_of(file);
        let sidebar = sidebar_of(html);
        for (_, _, href) in attributes(sidebar, "href") {
            let target = resolve_relative(&file.path, &href);
            assert!(
                sub_pages.contains(target.as_str()),
                "{}: nav links {href}",
                file.path
            );
        }
        let mut problems = Vec::new();
        check_html(&file.path, html, &sub_paths, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
    }
    let overview = sub_files
        .iter()
        .find(|f| f.path == "api/static-export/overview.html")
        .unwrap();
    assert!(
        text_of(overview).contains("href=\"https://docs.example.com/api/static-export/start-job\""),
        "pages left out link to the live site"
    );

    // Figures.
    let html_count = files.iter().filter(|f| f.path.ends_with(".html")).count();
    let search_bytes: usize = files
        .iter()
        .filter(|f| f.path.starts_with("_static/search/"))
        .map(|f| f.bytes.len())
        .sum();
    let raw: usize = files.iter().map(|f| f.bytes.len()).sum();
    eprintln!(
        "export: {} files ({} html), {:.1} MB raw, bundle {:.2} MB gzip, search index {:.1} MB in {} files, render+pack {:?}",
        files.len(),
        html_count,
        raw as f64 / 1e6,
        bundle.len() as f64 / 1e6,
        search_bytes as f64 / 1e6,
        files.iter().filter(|f| f.path.starts_with("_static/search/")).count(),
        elapsed
    );
    for (language, query) in [
        ("en", "custom domain"),
        ("en", "openapi playground"),
        ("en", "analytics"),
        ("es", "dominio personalizado"),
        ("zh", "自定义域名"),
        ("en", "the"),
    ] {
        eprintln!(
            "  query {query:?} ({language}) loads {} bytes",
            search_bytes_for_query(&files, language, query)
        );
    }
    assert!(search_bytes_for_query(&files, "en", "custom domain") < 200_000);
}

#[test]
fn search_switched_off_leaves_no_search_box_or_index_and_the_csp_allows_the_inline_script() {
    let tree = read_dir_tree(Path::new(FIXTURE)).unwrap();
    let site = build_site(&tree).unwrap();
    let features = crate::platform::deployment::Features {
        search: false,
        ..Default::default()
    };
    let options = ExportOptions {
        paths: Some(vec!["index".into()]),
        features,
        ..options()
    };
    let (files, _) = export(&site, &tree, &options);
    assert!(!files.iter().any(|f| f.path.starts_with("_static/search/")));
    let index = files.iter().find(|f| f.path == "index.html").unwrap();
    let html = String::from_utf8_lossy(&index.bytes);
    assert!(!html.contains("search-input") && !html.contains("data-search"));

    // The one inline script is the theme boot; the policy names its hash.
    let script = html
        .split("<script>")
        .nth(1)
        .and_then(|s| s.split("</script>").next())
        .unwrap();
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(script.as_bytes());
    let policy = content_security_policy(&PageExtras::default());
    assert!(policy.contains("connect-src 'self';"), "{policy}");
    let beacon = PageExtras {
        beacon_endpoint: Some(
            "https://api.example.com:8443/discovery/v1/analytics/d/events".into(),
        ),
        playground: false,
        ..PageExtras::default()
    };
    assert!(content_security_policy(&beacon)
        .contains("connect-src 'self' https://api.example.com:8443;"));
    let odd = PageExtras {
        beacon_endpoint: Some("javascript:alert(1)".into()),
        playground: false,
        ..PageExtras::default()
    };
    assert!(content_security_policy(&odd).contains("connect-src 'self';"));
    let playground = PageExtras {
        beacon_endpoint: None,
        playground: true,
        ..PageExtras::default()
    };
    assert!(content_security_policy(&playground).contains("connect-src 'self' https: http:;"));
    assert!(
        policy.contains(&format!("'sha256-{}'", super::html::base64_std(&digest))),
        "{policy}"
    );
    assert_eq!(html.matches("<script>").count(), 1);
    assert!(!html.contains(" style=\""));
}

#[test]
fn contents_pages_get_their_icons_filled_as_the_pages_do() {
    let groups: Vec<serde_json::Value> = (0..site::nav::SECTION_WINDOW + 2)
        .map(|n| serde_json::json!({"group": format!("Group {n}"), "icon": "rocket", "pages": [format!("g{n}")]}))
        .collect();
    let config = serde_json::json!({"name": "Many", "navigation": {"groups": groups}}).to_string();
    let mut files = vec![("docs.json".to_owned(), config)];
    files.extend(
        (0..site::nav::SECTION_WINDOW + 2).map(|n| (format!("g{n}.mdx"), format!("# Page {n}"))),
    );
    let t = crate::docs::archive::tree(
        &files
            .iter()
            .map(|(p, b)| (p.as_str(), b.as_str()))
            .collect::<Vec<_>>(),
    );
    let site = build_site(&t).unwrap();
    let exported =
        export_files_with_icons(&site, &t, &options(), &icons::tests::test_shards()).unwrap();
    let contents: Vec<&ExportFile> = exported
        .iter()
        .filter(|f| f.path.starts_with(page::layout::CONTENTS_DIR))
        .collect();
    assert!(!contents.is_empty(), "a contents page");
    for file in contents
        .iter()
        .copied()
        .chain(exported.iter().filter(|f| f.path == "404.html"))
    {
        let html = text_of(file);
        assert!(
            !html.contains("<svg data-icon="),
            "{}: an unfilled marker",
            file.path
        );
    }
    assert!(
        text_of(contents[0]).contains("M128 320L24.5 320z"),
        "the rocket's path: {}",
        text_of(contents[0])
    );
}

#[test]
fn the_root_skill_md_is_copied_to_the_bundle_root_and_is_no_page() {
    let skill = "---\nname: acme\ndescription: Deploy Acme apps.\n---\n\n# Acme\n";
    let tree = crate::docs::archive::tree(&[
        (
            "docs.json",
            r#"{"name": "Acme", "navigation": {"pages": ["index"]}}"#,
        ),
        ("index.mdx", "---\ntitle: Home\n---\nWelcome."),
        ("SKILL.md", skill),
    ]);
    let site = build_site(&tree).unwrap();
    let (files, _) = export(&site, &tree, &options());
    let by_path: BTreeMap<&str, &ExportFile> = files.iter().map(|f| (f.path.as_str(), f)).collect();
    assert_eq!(by_path.get("skill.md").map(|f| text_of(f)), Some(skill));
    assert!(
        !by_path
            .keys()
            .any(|p| p.to_ascii_lowercase().starts_with("skill.") && *p != "skill.md"),
        "{:?}",
        by_path.keys()
    );
    assert!(!text_of(by_path["llms.txt"])
        .to_ascii_lowercase()
        .contains("skill"));
}

#[test]
fn the_skills_discovery_files_are_in_the_bundle_and_no_mintlify_file_is() {
    let skill = "---\nname: acme\ndescription: Deploy Acme apps.\n---\n\n# Acme\n";
    let payments = "---\nname: Payments\ndescription: Charge cards.\n---\n\n# Payments\n";
    let tree = crate::docs::archive::tree(&[
        (
            "docs.json",
            r#"{"name": "Acme", "navigation": {"pages": ["index"]}}"#,
        ),
        ("index.mdx", "---\ntitle: Home\n---\nWelcome."),
        ("skill.md", skill),
        (".mintlify/skills/payments/SKILL.md", payments),
        (
            ".mintlify/assistant/skills/private/skill.md",
            "---\nname: private\ndescription: the assistant's\n---\n",
        ),
    ]);
    let site = build_site(&tree).unwrap();
    let (files, _) = export(&site, &tree, &options());
    let by_path: BTreeMap<&str, &ExportFile> = files.iter().map(|f| (f.path.as_str(), f)).collect();
    let well_known: Vec<&str> = by_path
        .keys()
        .copied()
        .filter(|p| p.starts_with(".well-known/"))
        .collect();
    assert_eq!(
        well_known,
        [
            ".well-known/agent-skills/acme/SKILL.md",
            ".well-known/agent-skills/index.json",
            ".well-known/agent-skills/payments/SKILL.md",
            ".well-known/skills/acme/SKILL.md",
            ".well-known/skills/index.json",
            ".well-known/skills/payments/SKILL.md",
        ]
    );
    assert_eq!(
        text_of(by_path[".well-known/skills/payments/SKILL.md"]),
        payments
    );
    let skills = crate::docs::public_skills::site_skills(&tree, Some(skill), &mut Vec::new());
    assert_eq!(
        by_path[".well-known/agent-skills/index.json"].bytes,
        crate::docs::public_skills::agent_skills_index(&skills)
    );
    assert!(
        !by_path
            .keys()
            .any(|p| p.contains("mintlify") || p.contains("private")),
        "{:?}",
        by_path.keys()
    );
    assert!(!text_of(by_path["llms.txt"]).contains("Payments"));
}
