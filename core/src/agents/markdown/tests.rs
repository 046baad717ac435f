use std::collections::BTreeMap;

use super::*;
use crate::docs::archive::tree;
use crate::export::render::links::Linker;

fn render_with(body: &str, files: &[(&str, &str)]) -> String {
    let pages: BTreeMap<String, String> = [
        ("a/b".to_string(), "a/b.md".to_string()),
        ("c/d".into(), "c/d.md".into()),
    ]
    .into();
    let tree = tree(files);
    let links = Linker::new("a/b", "a/b.mdx", &pages, &tree, "d.io");
    render_body(body, "a/b.mdx", &tree, &links)
}

fn render(body: &str) -> String {
    render_with(body, &[("images/x.png", "png")])
}

#[test]
fn markdown_survives_with_links_rewritten() {
    let out = render("# Title\n\nSome *em*, **strong**, ~~old~~ and `code`.\n\n[D](/c/d#x) [ext](https://x.dev) ![Local](/images/x.png) ![Remote](https://cdn.x/y.png)\n\n| a | b |\n|:-|-:|\n| 1 | `x\\|y` |\n\n- [x] done\n- item\n  1. nested\n");
    assert!(
        out.starts_with("# Title\n\nSome *em*, **strong**, ~~old~~ and `code`.\n\n"),
        "{out}"
    );
    assert!(out.contains("[D](../c/d.md#x) [ext](https://x.dev) ![Local](../images/x.png) ![Remote](https://cdn.x/y.png)"), "{out}");
    assert!(
        out.contains("| a | b |\n| :-- | --: |\n| 1 | `x\\|y` |"),
        "{out}"
    );
    assert!(out.contains("- [x] done\n\n- item\n\n  1. nested"), "{out}");
}

#[test]
fn callouts_steps_and_fields_become_plain_markdown() {
    let out = render("<Warning title=\"Careful\">\n  Back up **first**.\n\n  Then go.\n</Warning>\n\n<Steps>\n<Step title=\"Install\">\nRun it:\n```bash\nnpm i x\n```\n</Step>\n<Step title=\"Use\">\nDone.\n</Step>\n</Steps>\n\n<ParamField query=\"limit\" type=\"integer\" required default={10}>\nHow many.\n</ParamField>\n");
    assert!(
        out.starts_with("> **Warning: Careful**\n>\n> Back up **first**.\n>\n> Then go.\n\n"),
        "{out}"
    );
    assert!(out.contains("1. **Install**\n\n   Run it:\n\n   ```bash\n   npm i x\n   ```\n\n2. **Use**\n\n   Done.\n"), "{out}");
    assert!(
        out.contains("- `limit` (integer, query, required, default: `10`)\n\n  How many.\n"),
        "{out}"
    );
}

#[test]
fn cards_tabs_code_groups_accordions_and_frames_keep_their_text() {
    let out = render("<CardGroup cols={2}>\n<Card title=\"Start\" href=\"/c/d\">\nDeploy fast.\n</Card>\n<Card title=\"Plain\" />\n</CardGroup>\n\n<Tabs>\n<Tab title=\"npm\">\n```bash npm\nnpm i\n```\n</Tab>\n</Tabs>\n\n<AccordionGroup>\n<Accordion title=\"Why?\">\nBecause.\n</Accordion>\n</AccordionGroup>\n\n<Frame caption=\"A view\">\n![Shot](/images/x.png)\n</Frame>\n");
    assert!(
        out.contains("- [Start](../c/d.md)\n\n  Deploy fast.\n\n- **Plain**\n"),
        "{out}"
    );
    assert!(
        out.contains("**npm**\n\n```bash npm\nnpm i\n```\n"),
        "{out}"
    );
    assert!(out.contains("**Why?**\n\nBecause.\n"), "{out}");
    assert!(
        out.contains("![Shot](../images/x.png)\n\n*A view*\n"),
        "{out}"
    );
}

#[test]
fn inline_jsx_becomes_inline_markdown() {
    let out = render("Hover <Tooltip tip=\"Hi there\">me</Tooltip> {\"lit\"} {props.x} <Badge>new</Badge> <Icon icon=\"x\" /> <a href=\"/c/d\">link</a> a < b\n\n<Note>One line **callout**.</Note>\n\n<Info>\nText.</Info>\n\nAfter\n");
    assert!(
        out.starts_with("Hover me (Hi there) lit  new  [link](../c/d.md) a < b\n"),
        "{out}"
    );
    assert!(out.contains("**Note:** One line **callout**."), "{out}");
    assert!(out.contains("> **Info**\n>\n> Text.\n\nAfter"), "{out}");
}

#[test]
fn snippets_inline_and_scripts_vanish() {
    let out = render_with(
        "import Setup from '/snippets/setup.mdx';\n\n<Setup />\n\n<script>\nalert(1)\n</script>\n\nEnd\n",
        &[("snippets/setup.mdx", "---\ntitle: x\n---\n## From snippet\n")],
    );
    assert_eq!(out, "## From snippet\n\nEnd\n");
}

#[test]
fn text_that_looks_like_markup_is_escaped() {
    let out = render("\\# not a heading, \\*not em\\*, snake_case and a <= b\n");
    assert!(
        out.starts_with("\\# not a heading, \\*not em\\*, snake_case and a <= b"),
        "{out}"
    );
    // Fenced code is never escaped and a fence inside code gets a longer fence.
    let code = render("````md\n```js\nx\n```\n````\n");
    assert_eq!(code, "````md\n```js\nx\n```\n````\n");
}

#[test]
fn hostile_input_renders_without_panicking() {
    let deep = "<Note>\n".repeat(300) + &"> ".repeat(200) + "x";
    for input in [
        "<Card title=\"a\" href=\"javascript:alert(1)\">x</Card>",
        "<Tabs><Tab title={`x ${y}`}>\n# \u{0}\n</Tabs></Tab></Nope>",
        "{unclosed <Frame caption='\"><script>'>\n```\nnever closed",
        "<Steps>\n<Step>\n</Steps>\n</Step>\n| a |\n|---|\n| <b>x |\n",
        deep.as_str(),
    ] {
        let out = render(input);
        assert!(!out.contains("javascript:"), "{out}");
    }
}

#[test]
fn one_walk_for_text_and_markdown_gives_what_two_walks_give() {
    let files = [
        (
            "snippets/a.mdx",
            "## Shared\n\nFrom the snippet with <Tooltip tip=\"hint\">a tip</Tooltip>.\n",
        ),
        (
            "snippets/self.mdx",
            "import Me from '/snippets/self.mdx'\n\n<Me />\n",
        ),
        ("images/x.png", "png"),
    ];
    let body = "import A from '/snippets/a.mdx'\nimport Me from '/snippets/self.mdx'\nimport Gone from '/snippets/gone.mdx'\n\n# Title\n\n## Shared\n\n<A />\n\n<Me />\n\n<Gone />\n\n{\"a literal\"}\n\n<Note>\n  Indented **content** re-read as MDX.\n\n      deeper still\n</Note>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet x = 1;\n```\n\n## Shared\n\n[D](/c/d#x) ![Local](/images/x.png)\n";
    let pages: BTreeMap<String, String> = [("a/b".to_string(), "a/b.md".to_string())].into();
    let tree = tree(&files);
    let links = Linker::new("a/b", "a/b.mdx", &pages, &tree, "d.io");
    let (text, markdown) = text_and_body(body, "a/b.mdx", &tree, &links);
    assert_eq!(text, crate::docs::sections::extract(body, "a/b.mdx", &tree));
    assert_eq!(markdown, render_body(body, "a/b.mdx", &tree, &links));
    let anchors: Vec<_> = text.sections.iter().map(|s| s.anchor.as_str()).collect();
    assert!(
        anchors.contains(&"shared-1") && anchors.contains(&"shared-2"),
        "{anchors:?}"
    );
    assert_eq!(text.warnings.len(), 2, "{:?}", text.warnings);
}

#[test]
fn agent_content_stays_and_web_only_content_goes() {
    let out = render("<Visibility for=\"humans\">\n  Click **Get started**.\n</Visibility>\n\n<Visibility for=\"agents\">\n  Call `POST /v1/accounts`.\n</Visibility>\n\n<View title=\"Python\">\n  Py only.\n</View>\n\nIt is $\\frac{a}{b}$ and\n\n<Latex>\\sqrt{x}</Latex>\n");
    assert!(!out.contains("Get started"), "{out}");
    assert!(out.contains("Call `POST /v1/accounts`."), "{out}");
    assert!(out.contains("**Python**\n\nPy only."), "{out}");
    assert!(
        out.contains("It is $\\frac{a}{b}$ and") && out.contains("$$\n\\sqrt{x}\n$$"),
        "{out}"
    );
}
