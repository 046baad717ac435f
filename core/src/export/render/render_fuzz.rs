//! Fuzzing the MDX -> HTML renderer (see `crate::fuzz`): whatever a page holds, the HTML of its
//! body holds no script, no event handler attribute and no URL that runs script, and its SVG and
//! MathML (math, Mermaid diagrams) keep to the renderers' allow-lists; and whatever the
//! redirects say, the stub pages run nothing (`active_content` is the oracle).

use proptest::prelude::*;

use crate::docs::archive::tree;
use crate::export::render::active_content::{find_active, find_active_in_stub};
use crate::export::render::code::WordSpans;
use crate::export::render::links::Linker;
use crate::export::render::markdown::render_mdx;
use crate::fuzz::{default_cases, text_from};

const MDX_TOKENS: &[&str] = &[
    "<script>",
    "</script>",
    "<img src=",
    "<a href=",
    "\"",
    "'",
    " onerror=",
    " onclick=",
    " on",
    "=",
    "javascript:",
    "JaVaScRiPt:",
    "java\tscript:",
    "&#106;",
    "&colon;",
    "data:text/html,",
    "data:image/svg+xml,",
    "vbscript:",
    "./",
    "/",
    "x",
    "alert(1)",
    ">",
    "<",
    "/>",
    "\n",
    "\n\n",
    "  ",
    "[x](",
    "](",
    ")",
    "![i](",
    "<Card href=",
    "<Card img=",
    "<Frame>",
    "</Frame>",
    "<iframe src=",
    "<svg>",
    "<style>",
    "<object data=",
    "<video poster=",
    "<source src=",
    "{",
    "}",
    "{\"",
    "`",
    "```",
    "<!--",
    "-->",
    "# ",
    "<div style=",
    "url(",
    "expression(",
    "<Tab title=",
    "</Tab>",
    "<Tabs>",
    "</Tabs>",
    "<base href=",
    "<meta http-equiv=",
    "<form action=",
    "<button formaction=",
    "import X from './s.mdx'\n",
    "<X />",
    "&",
    "&amp;",
    "<br>",
    "<Note>",
    "</Note>",
    "```js\n",
    "```py title=",
    "srcdoc=",
    "<details>",
    "<summary>",
    "\\",
    "evil.svg",
    "evil.html",
    "pic.png",
    "<Icon icon=",
    " icon=",
    " iconType=",
    "rocket",
    "github",
    "brands",
    "<Step ",
    "<Badge ",
    "<Callout ",
    "<svg data-icon=",
    // Math: MathML passes only as the math renderer writes it.
    "$",
    "$$",
    "$$\n",
    "\\frac{",
    "\\color{red}",
    "\\href{javascript:x}{",
    "\\text{",
    "\\begin{align}",
    "\\\\",
    "<Latex>",
    "</Latex>",
    "<math>",
    "<mi style=",
    "<mtext><a href=",
    // Diagrams: SVG passes only as the diagram renderer writes it.
    "```mermaid\n",
    "flowchart LR\n",
    "sequenceDiagram\n",
    "A-->B",
    " A[",
    "]",
    "-->|",
    "|",
    "click A ",
    "style A fill:",
    "classDef c ",
    ":::c",
    "%%{init: {\"htmlLabels\": true}}%%\n",
    "A->>B: ",
    "Note over A: ",
];

/// The HTML of page `a/b` whose body is `body`, as its reader gets it, in a site holding hostile
/// files beside it.
pub(in crate::export) fn rendered_page(body: &str) -> String {
    let t = tree(&[
        (
            "s.mdx",
            "<script>alert(1)</script> [s](javascript:alert(1))",
        ),
        ("evil.svg", "<svg><script>alert(1)</script></svg>"),
        ("evil.html", "<script>alert(1)</script>"),
        ("pic.png", "png"),
    ]);
    let pages = [
        ("index".to_owned(), "index.html".to_owned()),
        ("a/b".to_owned(), "a/b.html".to_owned()),
    ]
    .into_iter()
    .collect();
    let links = Linker::new("a/b", "a/b.mdx", &pages, &t, "docs.example.com");
    let html = render_mdx(body, "a/b.mdx", &t, &links, &WordSpans).html;
    // Icons are filled in after rendering: the page as its reader gets it.
    let mut files = vec![crate::export::ExportFile::new("a/b.html".into(), html)];
    crate::export::page::icons::fill(
        &mut files,
        crate::export::page::icons::Library::FontAwesome,
        &crate::export::page::icons::tests::test_shards(),
        &t,
    );
    String::from_utf8(files.remove(0).bytes).unwrap()
}

proptest! {
    #![proptest_config(default_cases(256))]

    #[test]
    fn fuzz_mdx_renderer(body in text_from(MDX_TOKENS, 40)) {
        let html = rendered_page(&body);
        prop_assert_eq!(find_active(&html, &[]), None, "{}", html);
    }
}

/// Found by this fuzzer: a heading holding an unterminated inline tag, then `<script>` blocks.
#[test]
fn heading_with_an_unterminated_tag_then_scripts_runs_nothing() {
    let t = tree(&[]);
    let pages = std::collections::BTreeMap::new();
    let links = Linker::new("a/b", "a/b.mdx", &pages, &t, "docs.example.com");
    let html = render_mdx(
        "# <img src=\"<script>\n<script></script><script>",
        "a/b.mdx",
        &t,
        &links,
        &WordSpans,
    )
    .html;
    assert_eq!(find_active(&html, &[]), None, "{html}");
}

const REDIRECT_TOKENS: &[&str] = &[
    "/",
    "a",
    "b",
    "index",
    ":slug",
    "*",
    "+",
    "?",
    "#",
    "x",
    "\"",
    "'",
    "<",
    ">",
    "<script>",
    "javascript:",
    "JaVaScRiPt:",
    "data:text/html,",
    "https://",
    "http://",
    "//",
    "..",
    ".",
    " ",
    "\t",
    "\n",
    "&",
    "&#106;",
    "%27",
    "%22",
    ";",
    ",",
    "url=",
    "_static",
    "_docs-edge",
    "\\",
    "\u{0}",
    "ü",
];

proptest! {
    #![proptest_config(default_cases(64))]

    /// Whatever the redirects say, a stub runs nothing and leads only to a relative or http(s) URL,
    /// and no other page of the bundle refreshes.
    #[test]
    fn fuzz_redirect_stubs(pairs in prop::collection::vec((text_from(REDIRECT_TOKENS, 8), text_from(REDIRECT_TOKENS, 8), any::<bool>()), 1..6)) {
        let redirects: Vec<serde_json::Value> = pairs
            .iter()
            .map(|(source, destination, permanent)| serde_json::json!({"source": source, "destination": destination, "permanent": permanent}))
            .collect();
        let config = serde_json::json!({"name": "Fuzz", "navigation": {"pages": ["a/b"]}, "redirects": redirects});
        let config = config.to_string();
        let t = tree(&[("docs.json", config.as_str()), ("a/b.mdx", "B")]);
        let site = crate::docs::build_site(&t).unwrap();
        let (files, _) = crate::export::tests::export(&site, &t, &crate::export::tests::options());
        let own = ["a/b.html", "404.html"];
        let shells: Vec<String> = files.iter().filter(|f| own.contains(&f.path.as_str())).map(|f| String::from_utf8_lossy(&f.bytes).into_owned()).collect();
        let scripts: Vec<&str> = shells.iter().flat_map(|shell| shell.match_indices("<script").map(move |(i, _)| &shell[i..i + shell[i..].find('>').unwrap() + 1])).collect();
        let allowed = scripts;
        for file in files.iter().filter(|f| f.path.ends_with(".html")) {
            let html = String::from_utf8_lossy(&file.bytes);
            if own.contains(&file.path.as_str()) {
                prop_assert_eq!(find_active(&html, &allowed), None, "{}", html);
            } else {
                prop_assert_eq!(find_active_in_stub(&html), None, "{}: {}", file.path, html);
            }
        }
    }
}
