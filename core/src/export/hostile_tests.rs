//! Hostile docs through the whole export: nothing in the bundle runs script, and only passive
//! files of the upload are copied.

use super::render::active_content::{find_active, find_active_in_stub};
use super::tests::{export, options};
use super::*;
use crate::docs::archive::tree;
use crate::docs::build_site;

const SVG: &str = r#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script><circle r="4"/></svg>"#;

#[test]
fn the_bundle_copies_only_passive_files_and_runs_nothing() {
    let guide = "# Guide\n\n[x](./javascript:alert(1)) [y](javascript:alert(1)) [z](JaVaScRiPt:alert(1))\n\
        [d](data:text/html,<script>alert(1)</script>) [v](vbscript:msgbox)\n\n\
        ![pic](/images/pic.png) ![vector](/images/evil.svg)\n\n\
        [page](/evil.html) [code](/evil.js) [vector](/images/evil.svg) [pdf](/files/f.pdf)\n\n\
        <img src=\"/evil.html\" onerror=\"alert(1)\" />\n\n<a href=\"javascript:alert(1)\" onclick=\"alert(1)\">a</a>\n\n\
        <script>alert(1)</script>\n\n<Card title=\"c\" href=\"javascript:alert(1)\" img=\"/images/evil.svg\" />\n";
    let tree = tree(&[
        (
            "docs.json",
            r#"{"name": "Evil", "logo": "/images/evil.svg", "favicon": "/evil.html",
                "navigation": {"tabs": [{"tab": "T", "href": "javascript:alert(1)"},
                    {"tab": "Docs", "pages": ["index", "guide"]}]},
                "redirects": [{"source": "/r1", "destination": "javascript:alert(1)"},
                    {"source": "/r2", "destination": "/x\"><script>alert(1)</script>"},
                    {"source": "/r3", "destination": "'javascript:alert(1)'"},
                    {"source": "/r4", "destination": "//evil.example/x"},
                    {"source": "/r5", "destination": "/guide#\"onmouseover=\"alert(1)"},
                    {"source": "/r6", "destination": "data:text/html,<script>alert(1)</script>"}]}"#,
        ),
        ("index.mdx", "Home"),
        ("guide.mdx", guide),
        ("evil.html", "<script>alert(document.domain)</script>"),
        ("evil.js", "alert(document.domain)"),
        ("images/evil.svg", SVG),
        ("images/pic.png", "png"),
        ("files/f.pdf", "pdf"),
    ]);
    let site = build_site(&tree).unwrap();
    let (files, _) = export(&site, &tree, &options());
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert!(
        paths.contains(&"images/pic.png") && paths.contains(&"files/f.pdf"),
        "{paths:?}"
    );
    for active in ["evil.html", "evil.js"] {
        assert!(!paths.contains(&active), "{active} was copied");
    }
    // The logo, in every page, is a file: rewritten through the allow-list, its script gone.
    let logo = files
        .iter()
        .find(|f| f.path == "images/evil.svg")
        .expect("the logo is carried");
    assert_eq!(
        String::from_utf8_lossy(&logo.bytes).trim_end(),
        r#"<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>"#
    );
    let shell_scripts = shell_scripts(&files);
    let allowed: Vec<&str> = shell_scripts.iter().map(String::as_str).collect();
    let stubs = [
        "r1.html", "r2.html", "r3.html", "r4.html", "r5.html", "r6.html",
    ];
    // Destinations with a scheme other than http(s) get no rule and no stub; the others lead to a
    // path of the bundle or of the live site.
    let made: Vec<&str> = stubs
        .iter()
        .copied()
        .filter(|stub| paths.contains(stub))
        .collect();
    assert_eq!(made, ["r2.html", "r4.html", "r5.html"]);
    for file in files.iter().filter(|f| f.path.ends_with(".html")) {
        let html = String::from_utf8_lossy(&file.bytes);
        match stubs.contains(&file.path.as_str()) {
            true => assert_eq!(find_active_in_stub(&html), None, "{}: {html}", file.path),
            false => assert_eq!(find_active(&html, &allowed), None, "{}", file.path),
        }
    }
    let guide_html = files.iter().find(|f| f.path == "guide.html").unwrap();
    let guide_html = String::from_utf8_lossy(&guide_html.bytes);
    assert!(
        guide_html.contains("src=\"data:image/svg+xml;base64,"),
        "the SVG image is inlined"
    );
    for file in files
        .iter()
        .filter(|f| f.path.ends_with(".md") || f.path.starts_with("llms"))
    {
        let text = String::from_utf8_lossy(&file.bytes).to_ascii_lowercase();
        assert!(
            !text.contains("](javascript:") && !text.contains("](data:"),
            "{}",
            file.path
        );
    }
}

/// The `<script …>` openings of the page shell (theme boot, site script), as the 404 page has them.
fn shell_scripts(files: &[ExportFile]) -> Vec<String> {
    let page = files.iter().find(|f| f.path == "404.html").unwrap();
    let html = String::from_utf8_lossy(&page.bytes);
    html.match_indices("<script")
        .map(|(i, _)| html[i..i + html[i..].find('>').unwrap() + 1].to_owned())
        .collect()
}

/// An SVG image too large to inline (a hero illustration) is a file of the bundle that pages load
/// with `<img>`, rewritten to the allow-list: its picture kept, its script gone.
#[test]
fn a_large_svg_image_is_a_sanitised_file_of_the_bundle() {
    let paths: String = (0..900)
        .map(|i| format!("<path d=\"M{i} 0h10v10z\" fill=\"url(#g)\"/>"))
        .collect();
    let big = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\"><script>alert(1)</script>\
         <defs><linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"#123456\"/></linearGradient></defs>{paths}</svg>"
    );
    assert!(big.len() > render::links::MAX_INLINE_SVG_BYTES);
    let tree = tree(&[
        (
            "docs.json",
            r#"{"name": "S", "navigation": {"pages": ["index", "guides/a"]}}"#,
        ),
        ("index.mdx", "Home"),
        ("guides/a.mdx", "# A\n\n![Hero Light](/images/hero.svg)\n"),
        ("images/hero.svg", big.as_str()),
    ]);
    let site = build_site(&tree).unwrap();
    let (files, _) = export(&site, &tree, &options());
    let page = files.iter().find(|f| f.path == "guides/a.html").unwrap();
    let page = String::from_utf8_lossy(&page.bytes);
    assert!(
        page.contains("<img loading=\"lazy\" src=\"../images/hero.svg\" alt=\"Hero Light\">"),
        "{page}"
    );
    let svg = files
        .iter()
        .find(|f| f.path == "images/hero.svg")
        .expect("the SVG is in the bundle");
    let svg = String::from_utf8_lossy(&svg.bytes);
    assert_eq!(find_active(&svg, &[]), None);
    assert!(
        !svg.contains("script")
            && svg.contains("stop-color=\"#123456\"")
            && svg.matches("<path").count() == 900
    );
}

/// The publish's copies of remote images are under a dot-folder of the stored tree, which static
/// hosts often refuse to serve: the bundle holds them, and pages link them, under `_static/remote/`.
#[test]
fn remote_copies_are_written_outside_dot_folders() {
    let tree = tree(&[
        (
            "docs.json",
            r#"{"name": "S", "navigation": {"pages": ["index", "guides/a"]}}"#,
        ),
        ("index.mdx", "Home"),
        (
            "guides/a.mdx",
            "# A\n\n![Shot](https://cdn.example/shot.png)\n",
        ),
        (
            crate::docs::endpoint::REMOTE_MANIFEST,
            r#"{"https://cdn.example/shot.png": ".docs-edge/remote/ab12.png"}"#,
        ),
        (".docs-edge/remote/ab12.png", "png"),
    ]);
    let site = build_site(&tree).unwrap();
    let (files, _) = export(&site, &tree, &options());
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert!(paths.contains(&"_static/remote/ab12.png"), "{paths:?}");
    assert!(
        paths
            .iter()
            .all(|p| !p.split('/').any(|part| part.starts_with('.'))),
        "{paths:?}"
    );
    let page = files.iter().find(|f| f.path == "guides/a.html").unwrap();
    assert!(String::from_utf8_lossy(&page.bytes).contains("src=\"../_static/remote/ab12.png\""));
}
