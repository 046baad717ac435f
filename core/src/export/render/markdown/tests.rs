//! Tests of the HTML rendering of MDX page bodies.

use super::*;
use crate::docs::archive::tree;
use crate::docs::sections;
use std::collections::BTreeMap;

fn render_with(body: &str, files: &[(&str, &str)]) -> Body {
    let pages: BTreeMap<String, String> = [
        ("a/b".to_string(), "a/b.html".to_string()),
        ("c/d".into(), "c/d.html".into()),
    ]
    .into();
    let tree = tree(files);
    let links = Linker::new("a/b", "a/b.mdx", &pages, &tree, "d.io");
    render_mdx(body, "a/b.mdx", &tree, &links, &super::code::WordSpans)
}

fn render(body: &str) -> String {
    render_with(body, &[("images/x.png", "png")]).html
}

#[test]
fn a_paragraph_of_elements_only_is_no_paragraph() {
    let body = "<div className=\"uo\">\n  <h1 className=\"text-3xl\">Deploy</h1>\n  <p className=\"mt-3\">Dify *runs* anywhere.</p>\n  <a className=\"cta\" href=\"/c/d\">One</a>\n  <a href=\"/c/d\">Two</a>\n</div>\n\n<ParamField body=\"x\" type=\"string\">Text</ParamField>\n\nSome <a href=\"/c/d\">link</a> text.\n\n<a href=\"/c/d\">Lead</a> and text.\n\n`code` <b>x</b>\n";
    let out = render(body);
    assert!(out.contains("<div class=\"uo\"><h1 class=\"text-3xl\">Deploy</h1>\n<p class=\"mt-3\">Dify <em>runs</em> anywhere.</p>\n<a class=\"cta\" href=\"../c/d.html\">One</a>\n<a href=\"../c/d.html\">Two</a></div>"), "{out}");
    assert!(
        !out.contains("<p><h1") && !out.contains("<p><a class"),
        "{out}"
    );
    assert!(
        out.contains("<p>Some <a href=\"../c/d.html\">link</a> text.</p>"),
        "{out}"
    );
    assert!(
        out.contains("<p><a href=\"../c/d.html\">Lead</a> and text.</p>"),
        "{out}"
    );
    assert!(out.contains("<p><code>code</code> <b>x</b></p>"), "{out}");
    assert!(
        out.contains("<div class=\"field-head\"><code class=\"field-name\">x</code>"),
        "the one-line field keeps its head: {out}"
    );
}

#[test]
fn markdown_basics_tables_lists_and_strikethrough() {
    let out = render("Some *em* and **strong** ~~old~~.\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n- [x] done\n- item\n");
    assert!(
        out.contains("<p>Some <em>em</em> and <strong>strong</strong> <del>old</del>.</p>"),
        "{out}"
    );
    assert!(out.contains("<th class=\"align-left\">a</th>"), "{out}");
    assert!(out.contains("<td class=\"align-right\">2</td>"), "{out}");
    assert!(
        out.contains("<li><label class=\"task\"><input type=\"checkbox\" disabled checked> done</label></li>"),
        "{out}"
    );
}

#[test]
fn a_task_lists_boxes_are_labelled_by_their_items_text() {
    let out = render("- [ ] Plan *it*\n  - [x] nested\n  - plain\n- [x] Ship\n\n1. [ ] loose\n\n   more\n\n2. [x] two\n");
    assert!(out.contains("<li><label class=\"task\"><input type=\"checkbox\" disabled> Plan <em>it</em></label><ul><li><label class=\"task\"><input type=\"checkbox\" disabled checked> nested</label></li>"), "closed before the nested list: {out}");
    assert!(out.contains("<li><p><label class=\"task\"><input type=\"checkbox\" disabled> loose</label></p><p>more</p>"), "a loose item's first paragraph: {out}");
    assert_eq!(
        out.matches("<input").count(),
        out.matches("<label class=\"task\">").count(),
        "{out}"
    );
    assert_eq!(
        out.matches("<label").count(),
        out.matches("</label>").count(),
        "{out}"
    );
}

#[test]
fn headings_get_the_search_anchors_with_a_link() {
    let body = "# Intro\n\n## Use `docs.json` <Badge>new</Badge>\n\n## Intro\n";
    let out = render_with(body, &[]);
    let ids: Vec<&str> = out.headings.iter().map(|h| h.anchor.as_str()).collect();
    let text = sections::extract(body, "a/b.mdx", &SourceTree::new());
    let anchors: Vec<&str> = text.sections[1..]
        .iter()
        .map(|s| s.anchor.as_str())
        .collect();
    assert_eq!(ids, anchors);
    assert!(out.html.contains("<h2 id=\"use-docsjson-new\">Use <code>docs.json</code> <span class=\"badge\">new</span><a class=\"anchor\" href=\"#use-docsjson-new\""), "{}", out.html);
    assert!(out.html.contains("id=\"intro-1\""));
}

#[test]
fn fenced_code_keeps_its_text_and_language() {
    let out = render("```ts title=\"api.ts\" {2}\nconst a = <Card />;\n```\n");
    assert!(out.contains("<div class=\"code-title\">api.ts</div><pre tabindex=\"0\"><code class=\"language-ts\">"), "{out}");
    let code = &out[out.find("<code").unwrap()..out.find("</code>").unwrap()];
    let mut text = String::new();
    let mut in_tag = false;
    for c in code.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    assert_eq!(text, "const a = &lt;Card /&gt;;", "{out}");
}

#[test]
fn code_group_blocks_become_titled_tab_panels() {
    let out =
        render("<CodeGroup>\n```bash npm\nnpm i\n```\n```bash yarn\nyarn add\n```\n</CodeGroup>\n");
    assert!(
        out.starts_with("<div class=\"code-group\" data-tabs>"),
        "{out}"
    );
    assert!(
        out.contains("<div class=\"code-block tab-panel\" data-title=\"npm\">"),
        "{out}"
    );
    assert!(out.ends_with("</div>"));
    let out = render("<CodeGroup dropdown>\n```js a.js\nx\n```\n</CodeGroup>\n\n<Tabs sync={false}>\n<Tab title=\"A\">a</Tab>\n</Tabs>\n");
    assert!(
        out.starts_with("<div class=\"code-group\" data-tabs data-dropdown>"),
        "{out}"
    );
    assert!(
        out.contains("<div class=\"tabs\" data-tabs data-nosync>"),
        "{out}"
    );
}

#[test]
fn text_on_lines_of_its_own_inside_a_heading_or_paragraph_element_stays_inside_it() {
    let out = render("<div>\n  <h3 className=\"x\">\n    Store a memory\n  </h3>\n  <p>\n    Five minutes.\n\n    Then search.\n  </p>\n</div>\n");
    assert!(out.contains(">Store a memory</h3>"), "{out}");
    assert!(
        out.contains("<p>Five minutes.<br>Then search.</p>"),
        "{out}"
    );
    assert!(
        !out.contains("<p><p>") && !out.contains("<h3 class=\"x\"><p>"),
        "{out}"
    );
}

#[test]
fn links_and_images_are_rewritten() {
    let out = render(
        "[D](/c/d#x) [ext](https://x.dev) ![Local](/images/x.png) ![Remote](https://cdn.x/y.png)\n",
    );
    assert!(out.contains("<a href=\"../c/d.html#x\">D</a>"), "{out}");
    assert!(out.contains("<a href=\"https://x.dev\">ext</a>"), "{out}");
    assert!(
        out.contains("<img loading=\"lazy\" src=\"../images/x.png\" alt=\"Local\">"),
        "{out}"
    );
    assert!(out.contains("<span class=\"image-placeholder\" data-image-origin=\"https://cdn.x\" data-image-src=\"https://cdn.x/y.png\" data-image-alt=\"Remote\">"), "{out}");
    assert!(
        out.contains(">Load the image from cdn.x</button></span>\n</p>")
            || out.contains(">Load the image from cdn.x</button></span></p>"),
        "{out}"
    );
}

/// A remote image inside a link (a badge) is its alt text: the placeholder's link and button
/// would nest in the link, which HTML does not allow.
#[test]
fn remote_images_in_links_are_their_alt_text() {
    let out = render("[![build](https://img.shields.io/b.svg)](https://ci.example.com) <a href=\"https://x.dev\"><img src=\"https://cdn.x/y.png\" alt=\"Y\" /></a> [![](/images/x.png)](https://x.dev)\n");
    assert!(
        out.contains(
            "<a href=\"https://ci.example.com\"><span class=\"external-media\">build</span></a>"
        ),
        "{out}"
    );
    assert!(
        out.contains("<a href=\"https://x.dev\"><span class=\"external-media\">Y</span></a>"),
        "{out}"
    );
    assert!(
        out.contains(
            "<a href=\"https://x.dev\"><img loading=\"lazy\" src=\"../images/x.png\" alt=\"\"></a>"
        ),
        "{out}"
    );
    assert!(!out.contains("<button"), "{out}");
    assert!(
        render("[a](https://x.dev) ![b](https://cdn.x/b.png)\n")
            .contains(">Load the image from cdn.x</button>"),
        "the link closed"
    );
}

#[test]
fn components_nest_and_balance() {
    let out = render("<Note>\n  Be **careful**.\n</Note>\n\n<Steps>\n<Step title=\"One\">\nDo it.\n</Step>\n</Steps>\n");
    assert!(
        out.starts_with("<div class=\"callout callout-note\">"),
        "{out}"
    );
    assert!(
        out.contains("<p>Be <strong>careful</strong>.</p></div></div>"),
        "{out}"
    );
    assert!(out.contains("<ol class=\"steps\"><li class=\"step\"><p class=\"step-title\">One</p><div class=\"step-body\"><p>Do it.</p></div></li></ol>"), "{out}");
}

#[test]
fn unclosed_and_stray_tags_still_give_balanced_html() {
    let out = render("<Tabs>\n<Tab title=\"A\">\nText\n</Note>\n");
    assert!(out.ends_with("</section></div>"), "{out}");
    assert!(!out.contains("Note"));
}

#[test]
fn inline_jsx_in_text_renders_or_vanishes() {
    let out = render("Hover <Tooltip tip=\"Hi there\">me</Tooltip> {\"lit\"} {props.x} {/* c */} <Custom a={1}>kid</Custom> a < b\n");
    assert!(
        out.contains("<span class=\"tooltip\" tabindex=\"0\" title=\"Hi there\">me</span>"),
        "{out}"
    );
    assert!(out.contains(" lit "), "{out}");
    assert!(!out.contains("props") && !out.contains("Custom"), "{out}");
    assert!(out.contains("kid a &lt; b"), "{out}");
}

#[test]
fn line_start_component_followed_by_text() {
    // One element filling its paragraph is a block, as in MDX: the frame keeps its box.
    let out = render("<Frame>Some *text*</Frame>\n");
    assert_eq!(out, "<figure class=\"frame\">Some <em>text</em></figure>");
    let out = render("<Frame>Some</Frame> *text*\n");
    assert_eq!(out, "<p>Some <em>text</em></p>");
}

#[test]
fn close_inside_a_paragraph_closes_the_callout_after_it() {
    let out = render("<Info>\nText.</Info>\n\nAfter\n");
    assert!(
        out.contains("<p>Text.</p></div></div><p>After</p>"),
        "{out}"
    );
}

#[test]
fn snippets_are_inlined_and_scripts_dropped() {
    let out = render_with(
        "import Setup from '/snippets/setup.mdx';\n\n<Setup />\n\n<script>\nalert(1)\n</script>\n\nEnd\n",
        &[("snippets/setup.mdx", "---\ntitle: x\n---\n## From snippet\n")],
    );
    assert!(
        out.html.contains("<h2 id=\"from-snippet\">"),
        "{}",
        out.html
    );
    assert!(
        !out.html.contains("alert") && !out.html.contains("import"),
        "{}",
        out.html
    );
    assert!(out.html.ends_with("<p>End</p>"), "{}", out.html);
}

#[test]
fn gfm_alerts_and_footnotes() {
    let out = render("> [!WARNING]\n> Careful\n\nSee[^1].\n\n[^1]: The note.\n");
    assert!(out.contains("callout callout-warning"), "{out}");
    assert!(out.contains("<a href=\"#fn-1\">1</a>"), "{out}");
    assert!(out.contains("id=\"fn-1\""), "{out}");
}

#[test]
fn hostile_input_renders_without_panicking_or_raw_tags() {
    let deep = "<Note>\n".repeat(300) + &"> ".repeat(200) + "x";
    let inputs = [
        "<Card title=\"a\" href=\"javascript:alert(1)\">x</Card>",
        "<Tabs><Tab title={`x ${y}`}>\n# \u{0}\n</Tabs></Tab></Nope>",
        "{unclosed <Frame caption='\"><script>'>\n```\nnever closed",
        "<img src=\"//evil.example/x.png\" onerror=\"alert(1)\" />",
        "import X from '/snippets/x.mdx'\n\n<X />\n<X>kid</X>",
        "\u{feff}<>frag</> <a.b.c d='e'/> <Ünïcode> ß <ParamField body=",
        deep.as_str(),
    ];
    for input in inputs {
        let out = render_with(
            input,
            &[(
                "snippets/x.mdx",
                "import X from '/snippets/x.mdx'\n\n<X />\n",
            )],
        )
        .html;
        let raw = out.match_indices('<').any(|(i, _)| {
            out.as_bytes()
                .get(i + 1)
                .is_some_and(u8::is_ascii_uppercase)
                && !out[..i].ends_with("<code>")
        });
        assert!(!raw, "{input:?} -> {out}");
        assert!(
            !out.contains("javascript:")
                && !out.contains("onerror")
                && !out.contains("src=\"//")
                && !out.contains("src=\"http"),
            "{out}"
        );
    }
}

/// The walk names headings once for both visitors: on every page source of the fixture, the
/// text visitor's sections and the HTML visitor's headings are the same headings (level, text,
/// anchor) in the same order.
#[test]
fn text_and_html_visitors_see_the_same_blocks_on_every_fixture_page() {
    let root = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/fixtures/mintlify-docs"
    );
    let tree = crate::docs::archive::read_dir_tree(std::path::Path::new(root))
        .expect("the fixture is readable");
    let pages = BTreeMap::new();
    let (mut files, mut headings) = (0, 0);
    for (file, bytes) in tree.iter().filter(|(path, _)| path.ends_with(".mdx")) {
        let Ok(source) = std::str::from_utf8(bytes) else {
            continue;
        };
        let (_, body) = crate::docs::frontmatter::split(source);
        let text = sections::extract(body, file, &tree);
        let links = Linker::new("p", file, &pages, &tree, "d.io");
        let html = render_mdx(body, file, &tree, &links, &super::code::PlainCode);
        let from_text: Vec<(u8, &str, &str)> = text
            .sections
            .iter()
            .skip(1)
            .map(|s| (s.level, s.heading.as_str(), s.anchor.as_str()))
            .collect();
        let from_html: Vec<(u8, &str, &str)> = html
            .headings
            .iter()
            .map(|h| (h.level, h.text.as_str(), h.anchor.as_str()))
            .collect();
        assert_eq!(from_text, from_html, "{file}");
        files += 1;
        headings += from_html.len();
    }
    assert!(
        files > 50 && headings > 200,
        "{files} files, {headings} headings"
    );
}
