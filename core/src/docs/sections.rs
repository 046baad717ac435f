//! MDX body -> plain-text sections for search and the assistant: prose, headings, list items, table
//! rows, code, component children and title-like component attributes. The text visitor of
//! `docs::walk` (the HTML one is `export::render::markdown`): the walk inlines snippets where their tag
//! stands, re-reads indented code and names the headings that start sections. A callout's lines
//! (`<Note>`, `<Warning>` …) are quoted with `> `, as Markdown sets an aside apart: the assistant
//! quotes them but does not lead with them; search reads the same words.

use pulldown_cmark::{Event, Tag as MdTag, TagEnd};

use super::archive::SourceTree;
use super::inline_text::{tag_texts, Inline, CALLOUT_MARK, PARAM_ATTRS};
use super::jsx::{is_callout, Tag, TagKind};
use super::model::Section;
use super::slug::Slugger;
use crate::export::render::code::code_title;
// Where the export reads them (export/site/assets.rs).
pub(crate) use super::snippets::{default_import, snippet_path, MAX_SNIPPET_DEPTH};
use super::walk::{walk_markdown, walk_mdx, Heading, MarkdownVisitor, MdxVisitor, Snippets};

/// The text of a callout's line of section text (`> Hidden pages are not private.`); `None` for any
/// other line. Every reader of section text that sets callouts apart, or shows words alone, reads
/// the mark here.
pub fn callout_text(line: &str) -> Option<&str> {
    line.strip_prefix('>')
        .filter(|rest| rest.is_empty() || rest.starts_with(' '))
        .map(str::trim_start)
}

/// The title `info`, what follows a fence in section text, names (```` ``` Shuttle.toml ```` ->
/// `Shuttle.toml`): written after a space, where a fence from elsewhere names its language at once.
pub fn fence_title(info: &str) -> Option<&str> {
    info.strip_prefix(' ')
        .map(str::trim)
        .filter(|title| !title.is_empty())
}

/// Whether a line of section text opens or closes a code block: section text keeps code in bare
/// fences, indented inside list items. Every reader that pairs fences reads them here.
pub fn is_fence_line(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("```") || line.starts_with("~~~")
}

/// The field a `ParamField` or `ResponseField` documents: its name, and for a parameter where it
/// goes (`<ParamField query="limit">` is `("limit", Some("query"))`).
pub(crate) fn field_name<'a>(tag: &Tag<'a>) -> (&'a str, Option<&'static str>) {
    let location = PARAM_ATTRS
        .into_iter()
        .find(|key| tag.text_attr(key).is_some());
    match location {
        Some(key) if tag.name == "ParamField" => (tag.text_attr(key).unwrap_or(""), Some(key)),
        _ => (tag.text_attr("name").unwrap_or(""), None),
    }
}
/// Text of one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageText {
    /// `sections[0]` is the text before the first heading (empty heading, level 0).
    pub sections: Vec<Section>,
    /// Text of the first level-1 heading, the title fallback.
    pub first_h1: Option<String>,
    pub warnings: Vec<String>,
}

/// Extracts the text of an MDX body (frontmatter already removed). `file` is the body's path in
/// `tree`, against which relative snippet imports resolve.
pub fn extract(body: &str, file: &str, tree: &SourceTree) -> PageText {
    let mut extractor = Extractor::new(tree);
    walk_mdx(&mut extractor, body, file, 0);
    extractor.finish()
}

/// The text reader of [`extract`], for a walk that feeds other readers too (`walk::Pair`).
pub(crate) struct Extractor<'t> {
    out: PageText,
    slugs: Slugger,
    snippets: Snippets<'t>,
    /// Open `<Visibility>` blocks, innermost last: `true` for agent-only content, which the page
    /// does not show and so search does not find.
    visibility: Vec<bool>,
    /// Callouts open around the text being read.
    callouts: usize,
    /// An HTML table written tag per line (`<tr>` alone on its line, each `<td>` a run of text).
    table: BlockTable,
}

/// The state of an HTML table whose rows, cells and header arrive as separate blocks: its rows are
/// written as Markdown table lines, as `inline_text` writes a table read whole.
#[derive(Default)]
struct BlockTable {
    /// The cells of the row being read; `None` outside a row.
    row: Option<Vec<String>>,
    /// Inside `<thead>`.
    head: bool,
    /// The table's header row was written.
    headed: bool,
}

impl<'t> Extractor<'t> {
    pub(crate) fn new(tree: &'t SourceTree) -> Self {
        Extractor {
            out: PageText {
                sections: vec![Section::default()],
                ..PageText::default()
            },
            slugs: Slugger::default(),
            snippets: Snippets::new(tree),
            visibility: Vec::new(),
            callouts: 0,
            table: BlockTable::default(),
        }
    }

    fn hidden(&self) -> bool {
        self.visibility.contains(&true)
    }

    pub(crate) fn finish(mut self) -> PageText {
        for section in &mut self.out.sections {
            let trimmed = section.text.trim_end().len();
            section.text.truncate(trimmed);
            // Growth by doubling leaves up to half of each buffer unused; the site lives on in memory
            // next to the index being built from it.
            section.text.shrink_to_fit();
        }
        self.out
    }
}

impl<'t> MdxVisitor<'t> for Extractor<'t> {
    fn snippets(&mut self) -> &mut Snippets<'t> {
        &mut self.snippets
    }

    fn markdown(&mut self, md: &str, file: &str, depth: usize) {
        walk_markdown(self, md, file, depth);
    }

    fn tag(&mut self, tag: &Tag<'_>) {
        if tag.name == "Visibility" {
            match tag.kind {
                TagKind::Open => self.visibility.push(
                    tag.text_attr("for")
                        .is_some_and(|f| f.trim().eq_ignore_ascii_case("agents")),
                ),
                TagKind::Close => drop(self.visibility.pop()),
                TagKind::SelfClosing => {}
            }
            return;
        }
        if self.hidden() {
            return;
        }
        if is_callout(tag.name) {
            match tag.kind {
                TagKind::Open => self.callouts += 1,
                TagKind::Close => self.callouts = self.callouts.saturating_sub(1),
                TagKind::SelfClosing => {}
            }
        }
        if self.table_tag(tag) {
            return;
        }
        if tag.kind != TagKind::Close {
            for text in tag_texts(tag) {
                self.push_line(text);
            }
        }
    }

    fn literal(&mut self, text: &str) {
        if !self.hidden() {
            self.push_line(text);
        }
    }

    fn warn(&mut self, warning: String) {
        self.out.warnings.push(warning);
    }
}

/// The text visitor's state in one Markdown run.
#[derive(Default)]
pub(crate) struct TextRun {
    inline: Inline,
    /// An HTML block's text, stripped of JSX as one piece at its end.
    html: Option<String>,
    /// Cells of the table row being read.
    row: Vec<String>,
    /// Open lists, innermost last: the next item's number, `None` for a bullet list.
    lists: Vec<Option<u64>>,
    /// The open list item's marker (`- `, `3. `), put before its first line.
    marker: Option<String>,
}

impl<'t> MarkdownVisitor<'t> for Extractor<'t> {
    type Run = TextRun;

    fn start_run(&mut self) -> TextRun {
        TextRun::default()
    }

    fn event(&mut self, run: &mut TextRun, event: Event<'_>) {
        if self.hidden() {
            return;
        }
        let inline = &mut run.inline;
        match event {
            Event::Text(text) => match &mut run.html {
                Some(buf) => buf.push_str(&text),
                None => inline.raw.push_str(&text),
            },
            // Backticks keep a code span apart from prose for readers of the text (answers quote it).
            Event::Code(text) => inline.code(&code_span(&text)),
            Event::InlineHtml(text) | Event::Html(text) => match &mut run.html {
                Some(buf) => buf.push_str(&text),
                None => inline.raw.push_str(&text),
            },
            Event::InlineMath(text) | Event::DisplayMath(text) => inline.raw.push_str(&text),
            // A paragraph is one line of text however it was wrapped.
            Event::SoftBreak | Event::HardBreak => inline.raw.push(' '),
            Event::Start(MdTag::HtmlBlock) => {
                self.flush(inline);
                run.html = Some(String::new());
            }
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(raw) = run.html.take() {
                    self.flush(&mut Inline::of(raw));
                }
            }
            Event::Start(MdTag::TableCell) => *inline = Inline::default(),
            Event::End(TagEnd::TableCell) => {
                let (cell, extra) = inline.take();
                run.row.push(cell);
                run.row.extend(extra);
            }
            // Rows as Markdown table lines, so a table is not read as prose.
            Event::End(end @ (TagEnd::TableHead | TagEnd::TableRow)) => {
                self.push_line(&format!("| {} |", run.row.join(" | ")));
                if end == TagEnd::TableHead {
                    self.push_line(&format!("|{}", " --- |".repeat(run.row.len().max(1))));
                }
                run.row.clear();
            }
            Event::Start(MdTag::List(start)) => {
                self.flush_item(inline, &mut run.marker);
                run.lists.push(start);
            }
            Event::End(TagEnd::List(_)) => {
                self.flush_item(inline, &mut run.marker);
                run.lists.pop();
            }
            // Items keep their marker, so a list is read as one.
            Event::Start(MdTag::Item) => {
                self.flush_item(inline, &mut run.marker);
                run.marker = Some(match run.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}. ", *n - 1)
                    }
                    _ => "- ".to_owned(),
                });
            }
            Event::Start(tag) if is_block(&tag) => self.flush_item(inline, &mut run.marker),
            Event::End(end) if is_block_end(end) => self.flush_item(inline, &mut run.marker),
            _ => {}
        }
    }

    fn heading(&mut self, run: &mut TextRun, heading: Heading) {
        // The walk named the heading from the same events: what this run gathered of it is spent.
        run.inline = Inline::default();
        if self.hidden() {
            return;
        }
        if let Some(anchor) = heading.anchor {
            self.start_section(heading.level, heading.text, anchor);
        }
        heading.extra.iter().for_each(|t| self.push_line(t));
    }

    fn code_block(&mut self, _run: &mut TextRun, info: &str, code: &str) {
        if !self.hidden() {
            self.push_code(&code_title(info), code);
        }
    }

    fn end_run(&mut self, mut run: TextRun) {
        self.flush_item(&mut run.inline, &mut run.marker);
    }

    fn slugs(&mut self) -> Option<&mut Slugger> {
        Some(&mut self.slugs)
    }
}

impl Extractor<'_> {
    fn start_section(&mut self, level: u8, heading: String, anchor: String) {
        if level == 1 && self.out.first_h1.is_none() {
            self.out.first_h1 = Some(heading.clone());
        }
        self.out.sections.push(Section {
            heading,
            anchor,
            level,
            text: String::new(),
        });
    }

    fn flush(&mut self, inline: &mut Inline) {
        self.flush_item(inline, &mut None);
    }

    /// Appends the block's lines, the open list item's marker before the first.
    fn flush_item(&mut self, inline: &mut Inline, marker: &mut Option<String>) {
        let (text, extra) = inline.take();
        for line in text.lines().map(str::to_owned).chain(extra) {
            match marker.take().filter(|_| !line.trim().is_empty()) {
                Some(m) => self.push_line(&format!("{m}{line}")),
                None => self.push_line(&line),
            }
        }
    }

    /// Reads a table tag standing on its own line; `true` when it was one.
    fn table_tag(&mut self, tag: &Tag<'_>) -> bool {
        let name = tag.name.to_ascii_lowercase();
        match (name.as_str(), tag.kind) {
            // HTML lets a row end without `</tr>`: the next row, or the table's end, closes it.
            ("table", _) => {
                self.end_row();
                self.table = BlockTable::default();
            }
            ("thead", TagKind::Open) => self.table.head = true,
            ("thead", TagKind::Close) => {
                self.end_row();
                self.table.head = false;
            }
            ("tr", TagKind::Open) => {
                self.end_row();
                self.table.row = Some(Vec::new());
            }
            ("tr", TagKind::Close) => self.end_row(),
            _ => return false,
        }
        true
    }

    /// Writes the open row of an HTML table as a Markdown table line (after the header's, its rule).
    fn end_row(&mut self) {
        let Some(cells) = self.table.row.take() else {
            return;
        };
        self.push_line(&format!("| {} |", cells.join(" | ")));
        if self.table.head && !self.table.headed {
            self.table.headed = true;
            self.push_line(&format!("|{}", " --- |".repeat(cells.len().max(1))));
        }
    }

    /// Appends one block of prose, whitespace collapsed (inside an HTML table's row: one cell).
    fn push_line(&mut self, text: &str) {
        if let Some(cells) = &mut self.table.row {
            cells.push(text.split_whitespace().collect::<Vec<_>>().join(" "));
            return;
        }
        let mut words = text.split_whitespace().peekable();
        if words.peek().is_none() {
            return;
        }
        let aside = self.callouts > 0;
        let section = self.current();
        if !section.text.is_empty() {
            section.text.push('\n');
        }
        if aside {
            section.text.push_str(CALLOUT_MARK);
        }
        for (i, word) in words.enumerate() {
            if i > 0 {
                section.text.push(' ');
            }
            section.text.push_str(word);
        }
    }

    /// Appends code verbatim (indentation and line breaks carry meaning there) in a fence, so it is
    /// read as code and not as lines of prose. The fence names no language (the index would take
    /// the name for a word of the section: measured, it cost agentops a first hit), only the
    /// block's title, after the fence and a space (```` ``` Shuttle.toml ````, read by
    /// [`fence_title`]).
    fn push_code(&mut self, title: &str, code: &str) {
        let code = code.trim_end();
        if code.trim().is_empty() {
            return;
        }
        let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        let title: String = title.chars().filter(|&c| c != '`' && c != '\n').collect();
        let title = title.trim();
        let section = self.current();
        if !section.text.is_empty() {
            section.text.push('\n');
        }
        let space = if title.is_empty() { "" } else { " " };
        for part in [
            fence.as_str(),
            space,
            title,
            "\n",
            code,
            "\n",
            fence.as_str(),
        ] {
            section.text.push_str(part);
        }
    }

    fn current(&mut self) -> &mut Section {
        if self.out.sections.is_empty() {
            self.out.sections.push(Section::default());
        }
        let last = self.out.sections.len() - 1;
        &mut self.out.sections[last]
    }
}

fn is_block(tag: &MdTag<'_>) -> bool {
    !matches!(
        tag,
        MdTag::Emphasis
            | MdTag::Strong
            | MdTag::Strikethrough
            | MdTag::Superscript
            | MdTag::Subscript
            | MdTag::Link { .. }
            | MdTag::Image { .. }
    )
}

fn is_block_end(end: TagEnd) -> bool {
    !matches!(
        end,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
    )
}

/// `text` as a Markdown code span, its fence longer than any backtick run inside.
fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(body: &str) -> PageText {
        extract(body, "page.mdx", &SourceTree::new())
    }

    fn all_text(page: &PageText) -> String {
        page.sections
            .iter()
            .map(|s| format!("{}\n{}", s.heading, s.text))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn code_lists_tables_and_code_spans_keep_their_markdown_shape() {
        let page = text_of(
            "Run `mint dev`:\n\n```bash\nmint dev --no-open\n```\n\n1. One\n2. Two\n\n- a\n- b\n\n| Key | Use |\n|---|---|\n| `x` | y |\n",
        );
        assert_eq!(
            page.sections[0].text,
            "Run `mint dev`:\n```\nmint dev --no-open\n```\n1. One\n2. Two\n- a\n- b\n| Key | Use |\n| --- | --- |\n| `x` | y |"
        );
    }

    #[test]
    fn intro_section_comes_first_and_headings_cut_sections() {
        let page = text_of("Intro *text*.\n\n## Install it\n\nRun **this**.\n\n### Next\nMore");
        let s = &page.sections;
        assert_eq!(s.len(), 3);
        assert_eq!(
            (s[0].heading.as_str(), s[0].level, s[0].text.as_str()),
            ("", 0, "Intro text.")
        );
        assert_eq!(
            (s[1].heading.as_str(), s[1].anchor.as_str(), s[1].level),
            ("Install it", "install-it", 2)
        );
        assert_eq!(s[1].text, "Run this.");
        assert_eq!(s[2].text, "More");
    }

    #[test]
    fn page_starting_with_a_heading_has_an_empty_intro() {
        let page = text_of("# Title\n\nBody");
        assert_eq!(page.sections[0], Section::default());
        assert_eq!(page.first_h1.as_deref(), Some("Title"));
    }

    #[test]
    fn duplicate_headings_get_suffixed_anchors() {
        let page = text_of("## Example\n\n## Example\n\n## Example");
        let anchors: Vec<_> = page.sections.iter().map(|s| s.anchor.as_str()).collect();
        assert_eq!(anchors, ["", "example", "example-1", "example-2"]);
    }

    #[test]
    fn list_items_and_table_rows_are_one_line_each() {
        let page = text_of("- one\n- two\n  - nested\n\n| A | B |\n|---|---|\n| `x` | y |\n");
        assert_eq!(
            page.sections[0].text,
            "- one\n- two\n- nested\n| A | B |\n| --- | --- |\n| `x` | y |"
        );
    }

    #[test]
    fn html_tables_are_read_as_markdown_table_lines() {
        // Tag per line, as MDX pages write them (each `<tr>` a block, its cells a run of text).
        let per_line = text_of(
            "Plans:\n\n<table style={{ width: '100%' }}>\n<thead>\n<tr>\n<th style={{ padding: 8 }}>Plan</th>\n<th>Browsers</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>Free</td>\n<td>2</td>\n</tr>\n<tr>\n<td>Scale / Enterprise</td>\n<td>150+</td>\n</tr>\n</tbody>\n</table>\n\nAfter.\n",
        );
        assert_eq!(
            per_line.sections[0].text,
            "Plans:\n| Plan | Browsers |\n| --- | --- |\n| Free | 2 |\n| Scale / Enterprise | 150+ |\nAfter."
        );
        // One row a line, inside one HTML block.
        let inline = text_of(
            "<div>\n<table><tr><th>Plan</th><th>Browsers</th></tr>\n<tr><td>Free</td><td>2</td></tr></table>\n</div>\n",
        );
        assert_eq!(
            inline.sections[0].text,
            "| Plan | Browsers |\n| --- | --- |\n| Free | 2 |"
        );
        // Rows HTML lets end without `</tr>`: the next row and the table's end close them.
        let unclosed = text_of(
            "<table>\n<thead>\n<tr>\n<th>Plan</th>\n<th>Browsers</th>\n</thead>\n<tr>\n<td>Free</td>\n<td>2</td>\n<tr>\n<td>Scale</td>\n<td>150+</td>\n</table>\n",
        );
        assert_eq!(
            unclosed.sections[0].text,
            "| Plan | Browsers |\n| --- | --- |\n| Free | 2 |\n| Scale | 150+ |"
        );
    }

    #[test]
    fn code_blocks_keep_their_lines_and_indentation() {
        let page = text_of("Text\n\n```js\nfunction f() {\n  return 1;\n}\n```\n");
        assert_eq!(
            page.sections[0].text,
            "Text\n```\nfunction f() {\n  return 1;\n}\n```"
        );
    }

    #[test]
    fn component_children_and_title_props_are_text_without_jsx() {
        let page = text_of(
            "<CardGroup cols={2}>\n  <Card title=\"Quick start\" icon=\"rocket\" href=\"/q\">\n    Deploy in *minutes*.\n  </Card>\n</CardGroup>\n\n<Note>A note with <Tooltip tip=\"explained\">jargon</Tooltip>.</Note>\n",
        );
        let text = &page.sections[0].text;
        assert_eq!(
            text,
            "Quick start\nDeploy in minutes.\n> A note with jargon.\nexplained"
        );
        assert!(!text.contains('<'));
    }

    #[test]
    fn callout_lines_are_quoted_as_asides() {
        let page = text_of(
            "Hidden pages stay reachable.\n\n<Warning title=\"Not private\">\n  Anyone with the URL can view them.\n\n  - Links still work.\n\n  ```bash\n  mint dev\n  ```\n</Warning>\n\nBack to prose.\n",
        );
        assert_eq!(
            page.sections[0].text,
            "Hidden pages stay reachable.\n> Not private\n> Anyone with the URL can view them.\n> - Links still work.\n```\nmint dev\n```\nBack to prose."
        );
    }

    #[test]
    fn param_and_response_fields_contribute_their_names() {
        let page = text_of(
            "<ParamField body=\"email\" type=\"string\" required>\n  The address.\n</ParamField>\n<ResponseField name=\"id\" type=\"string\">\n  Job id.\n</ResponseField>\n",
        );
        assert_eq!(page.sections[0].text, "email\nThe address.\nid\nJob id.");
    }

    #[test]
    fn fenced_code_inside_components_survives() {
        let page = text_of(
            "<CodeGroup>\n    ```bash npm\n    npm i mint\n    ```\n    ```html\n    <Card title=\"literal\" />\n    ```\n</CodeGroup>\n",
        );
        assert_eq!(
            page.sections[0].text,
            "``` npm\nnpm i mint\n```\n```\n<Card title=\"literal\" />\n```"
        );
    }

    #[test]
    fn a_code_block_keeps_the_file_it_names() {
        let page = text_of(
            "Declare them:\n\n```toml Shuttle.toml {2}\n[deploy]\n```\n\n```md title=\".continue/rules/ts.md\" lines\n---\n```\n",
        );
        assert_eq!(
            page.sections[0].text,
            "Declare them:\n``` Shuttle.toml\n[deploy]\n```\n``` .continue/rules/ts.md\n---\n```"
        );
    }

    #[test]
    fn inline_code_keeps_literal_tags() {
        let page = text_of("Use the `<Card>` component {/* not this */}.");
        assert_eq!(page.sections[0].text, "Use the `<Card>` component .");
    }

    #[test]
    fn headings_inside_components_start_sections() {
        let page =
            text_of("<Update label=\"May 2025\">\n  ## New editor\n\n  Faster.\n</Update>\n");
        assert_eq!(page.sections[0].text, "May 2025");
        assert_eq!(page.sections[1].heading, "New editor");
        assert_eq!(page.sections[1].text, "Faster.");
    }

    #[test]
    fn import_and_export_lines_are_dropped() {
        let page = text_of(
            "import { X } from \"/snippets/x.jsx\";\nexport const Y = () => {\n  return <div>hidden</div>;\n};\n\nVisible.\n",
        );
        assert_eq!(all_text(&page).trim(), "Visible.");
    }

    #[test]
    fn mdx_comments_and_expressions_are_dropped_but_string_literals_kept() {
        let page = text_of("{/* todo */}\n\nHello {props.name}{\" \"}world.\n");
        assert_eq!(page.sections[0].text, "Hello world.");
    }

    #[test]
    fn html_comments_and_inline_html_are_stripped() {
        let page = text_of(
            "<!-- hidden -->\nA <b>bold</b> word<br/>next\n\n<div>\n\nInside div\n\n</div>\n",
        );
        assert_eq!(page.sections[0].text, "A bold word\nnext\nInside div");
    }

    #[test]
    fn deeply_indented_prose_inside_components_is_not_code() {
        let page = text_of("<Steps>\n  <Step title=\"One\">\n        Deep **prose**.\n\n            Deeper *prose*.\n  </Step>\n</Steps>\n");
        assert_eq!(page.sections[0].text, "One\nDeep prose.\nDeeper prose.");
    }

    fn tree(files: &[(&str, &str)]) -> SourceTree {
        files
            .iter()
            .map(|(p, d)| (p.to_string(), d.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn mdx_snippets_are_inlined_where_used() {
        let tree = tree(&[
            (
                "snippets/setup.mdx",
                "---\ntitle: ignored\n---\nRun the **setup**.\n\n## Snippet heading\n",
            ),
            ("guides/local.mdx", "Local snippet."),
        ]);
        let body = "import Setup from \"/snippets/setup.mdx\";\nimport Local from './local.mdx'\nimport { Widget } from '/snippets/w.jsx'\n\nBefore.\n\n<Setup />\n\n<Local/>\n<Widget />\n";
        let page = extract(body, "guides/page.mdx", &tree);
        assert_eq!(page.sections[0].text, "Before.\nRun the setup.");
        assert_eq!(page.sections[1].heading, "Snippet heading");
        assert_eq!(page.sections[1].text, "Local snippet.");
        assert!(page.warnings.is_empty(), "{:?}", page.warnings);
        assert!(!all_text(&page).contains("import"));
    }

    #[test]
    fn snippet_cycles_stop_with_a_warning() {
        let tree = tree(&[
            (
                "snippets/a.mdx",
                "import B from '/snippets/b.mdx'\n\nA text\n\n<B />\n",
            ),
            (
                "snippets/b.mdx",
                "import A from '/snippets/a.mdx'\n\nB text\n\n<A />\n",
            ),
        ]);
        let page = extract("import A from '/snippets/a.mdx'\n\n<A />\n", "p.mdx", &tree);
        assert_eq!(page.sections[0].text, "A text\nB text");
        assert_eq!(page.warnings.len(), 1);
    }

    #[test]
    fn missing_snippet_is_a_warning() {
        let page = text_of("import Gone from '/snippets/gone.mdx'\n\n<Gone />\n");
        assert_eq!(
            page.warnings,
            ["page.mdx:3: imported snippet `snippets/gone.mdx` is missing"]
        );
    }
}
