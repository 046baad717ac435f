//! Fuzzing Mermaid diagrams through the page renderer (`diagrams` builds only): whatever a
//! ```` ```mermaid ```` block holds, the page's SVG keeps to the diagram renderer's allow-list and
//! nothing in it runs (`active_content` is the oracle). `render_fuzz`'s token soup rarely makes a
//! block merman draws, so each case here is one block of a family compiled in, its lines from that
//! family's grammar with hostile labels, links and styles put where authors put theirs; most cases
//! reach the SVG path, and the target fails if too few do.

use std::cell::Cell;

use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::TestRunner;

use crate::export::render::active_content::find_active;
use crate::export::render::render_fuzz::rendered_page;
use crate::fuzz::default_cases;

/// A family's opening keyword and its lines; `{L}` is replaced by a label, `{U}` by a link, `{S}`
/// by a style.
const FAMILIES: &[(&str, &[&str])] = &[
    (
        "flowchart LR",
        &[
            "A[\"{L}\"] --> B",
            "A -->|\"{L}\"| B((\"{L}\"))",
            "B --> C{\"{L}\"}",
            "C -.-> D[/\"{L}\"/]",
            "D ==> E>{L}]",
            "click A href \"{U}\" \"{L}\"",
            "click B \"{U}\"",
            "click C call alert(1)",
            "click D \"{U}\" _blank",
            "style A {S}",
            "classDef c {S}",
            "class B c",
            "E:::c --> A",
            "linkStyle 0 {S}",
            "subgraph S1[\"{L}\"]\n  F --> G\nend",
            "accTitle: {L}",
            "accDescr: {L}",
            "A --> F[fa:fa-user {L}]",
        ],
    ),
    (
        "graph TD",
        &[
            "A[{L}] --> B[{L}]",
            "click A \"{U}\" \"{L}\"",
            "style B {S}",
            "B --- C",
        ],
    ),
    (
        "sequenceDiagram",
        &[
            "participant A as {L}",
            "actor B as {L}",
            "A->>B: {L}",
            "B-->>A: {L}",
            "Note over A,B: {L}",
            "link A: {L} @ {U}",
            "links B: {\"x\": \"{U}\"}",
            "loop {L}\n  A->>B: x\nend",
            "alt {L}\n  A->>B: y\nelse\n  B->>A: z\nend",
            "rect rgb(0, 0, 255)\n  A->>B: w\nend",
            "autonumber",
            "activate A",
            "deactivate A",
        ],
    ),
    (
        "classDiagram",
        &[
            "class A[\"{L}\"]",
            "A <|-- B : {L}",
            "A : +{L}",
            "A : +method({L}) int",
            "click A href \"{U}\" \"{L}\"",
            "link B \"{U}\"",
            "callback A \"alert\"",
            "style A {S}",
            "classDef c {S}",
            "cssClass \"A\" c",
            "note for A \"{L}\"",
        ],
    ),
    (
        "stateDiagram-v2",
        &[
            "[*] --> S1",
            "S1 --> S2 : {L}",
            "state \"{L}\" as S3",
            "note right of S1 : {L}",
            "classDef c {S}",
            "class S1 c",
            "S2 --> [*]",
            "state S4 {\n  [*] --> S5\n}",
        ],
    ),
    (
        "erDiagram",
        &[
            "A ||--o{ B : \"{L}\"",
            "A {\n  string name \"{L}\"\n}",
            "B }|..|{ C : has",
            "C[\"{L}\"]",
        ],
    ),
    (
        "gantt",
        &[
            "title {L}",
            "dateFormat YYYY-MM-DD",
            "section {L}",
            "{L} :a1, 2024-01-01, 3d",
            "Other :after a1, 2d",
            "click a1 href \"{U}\"",
            "click a1 call alert(1)",
        ],
    ),
    (
        "pie",
        &["title {L}", "\"{L}\" : 42", "\"B\" : 7.5", "showData"],
    ),
    (
        "gitGraph",
        &[
            "commit",
            "commit id: \"{L}\"",
            "branch dev",
            "checkout dev",
            "checkout main",
            "merge dev",
            "commit tag: \"{L}\"",
        ],
    ),
    (
        "journey",
        &[
            "title {L}",
            "section {L}",
            "{L}: 5: Me, {L}",
            "Task: 3: You",
        ],
    ),
    (
        "mindmap",
        &[
            "  root((\"{L}\"))",
            "    child[\"{L}\"]",
            "      leaf {L}",
            "    ::icon(fa fa-book)",
            "    other)\"{L}\"(",
        ],
    ),
    (
        "timeline",
        &["title {L}", "section {L}", "2024 : {L}", "     : {L}"],
    ),
];

/// What an author (or an attacker) writes as a label.
const LABELS: &[&str] = &[
    "Plain",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<b onclick=x>b</b>",
    "a & b < c > d",
    "&lt;script&gt;",
    "&#60;script&#62;",
    "javascript:alert(1)",
    "<a href='javascript:x'>x</a>",
    "<foreignObject><div>x</div></foreignObject>",
    "<style>*{x:url(https://evil.example)}</style>",
    "ü 漢字 🚀",
    "`**bold**`",
    "line<br/>break",
    "x\" onmouseover=\"alert(1)",
    "]]><!--",
    "url(https://evil.example/x)",
    "<svg><use href=\"#x\"/></svg>",
    "#quot;",
];

/// Where a `click`/`link` leads: the linker keeps http(s) and the site's pages, the allow-list
/// nothing else.
const LINKS: &[&str] = &[
    "https://x.dev/a?b=1&c=2",
    "/a/b",
    "/guides/intro",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "mailto:a@b.dev",
    "//evil.example/x",
    "vbscript:x",
    "#anchor",
    "./rel",
    " javascript:alert(1)",
];

const STYLES: &[&str] = &[
    "fill:#f00",
    "fill:url(https://evil.example/x)",
    "stroke:url(javascript:x)",
    "color:red;background:url(//evil.example)",
    "font-family:expression(alert(1))",
    "fill:red</style><script>alert(1)</script>",
    "stroke-width:4px,stroke-dasharray: 5 5",
];

/// What comes before the opening keyword: nothing, front matter, or directives asking for what the
/// renderer refuses (HTML labels, loose security, theme CSS).
const PREAMBLES: &[&str] = &[
    "", "", "---\ntitle: \"T <b>x</b>\"\n---\n",
    "%%{init: {\"securityLevel\": \"loose\", \"htmlLabels\": true, \"themeCSS\": \"svg{background:url(https://evil.example)}\"}}%%\n",
    "---\nconfig:\n  htmlLabels: true\n  securityLevel: loose\n---\n",
    "%%{init: {\"theme\": \"base\", \"themeVariables\": {\"primaryColor\": \"url(https://evil.example)\"}}}%%\n",
    "%% a comment\n",
];

/// A page holding one Mermaid block, now and then with a line of arbitrary text in it.
fn diagram_page() -> impl Strategy<Value = String> {
    let line = (
        any::<Index>(),
        select(LABELS),
        select(LINKS),
        select(STYLES),
    );
    (
        any::<Index>(),
        select(PREAMBLES),
        prop::collection::vec(line, 0..8),
        prop::option::weighted(0.1, any::<String>()),
    )
        .prop_map(|(family, preamble, lines, stray)| {
            let (opening, grammar) = FAMILIES[family.index(FAMILIES.len())];
            let mut source = format!("{preamble}{opening}\n");
            for (at, label, link, style) in lines {
                let line = grammar[at.index(grammar.len())]
                    .replace("{L}", label)
                    .replace("{U}", link)
                    .replace("{S}", style);
                source.push_str(&line);
                source.push('\n');
            }
            if let Some(stray) = stray {
                source.push_str(&stray.replace("```", ""));
                source.push('\n');
            }
            format!("# Diagram\n\n```mermaid\n{source}```\n")
        })
}

/// Most cases are drawn (the rest stay code: merman refuses the source); `fuzz_mermaid_diagrams`
/// fails below this share, which would mean it no longer tests the SVG path.
const MIN_DRAWN_PERCENT: u32 = 30;

#[test]
fn fuzz_mermaid_diagrams() {
    let config = default_cases(256);
    let cases = config.cases;
    let drawn = Cell::new(0u32);
    let result = TestRunner::new(config).run(&diagram_page(), |page| {
        let html = rendered_page(&page);
        if html.contains("<svg class=\"diagram-svg\"") {
            drawn.set(drawn.get() + 1);
        }
        prop_assert_eq!(find_active(&html, &[]), None, "{}\n{}", page, html);
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
    let drawn = drawn.get();
    eprintln!("fuzz_mermaid_diagrams: {drawn} of {cases} cases drawn as SVG");
    assert!(
        drawn * 100 >= cases * MIN_DRAWN_PERCENT,
        "only {drawn} of {cases} cases reached the SVG path"
    );
}
