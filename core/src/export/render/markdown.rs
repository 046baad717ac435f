//! MDX page body -> HTML: the HTML visitor of `docs::walk` (the text one is `docs::sections`), with
//! our own event writer (links, images, headings and code need rewriting, and raw HTML must never
//! pass through), components through `components`, inline HTML through `sanitize`.
//!
//! The walk names headings for both visitors, so the anchors here are `Section::anchor` and search
//! results land on the rendered ids.

use pulldown_cmark::{BlockQuoteKind, Event, LinkType, Tag as MdTag, TagEnd};

use crate::docs::jsx::{Tag, TagKind};
use crate::docs::slug::{slugify, Slugger};
use crate::docs::walk::{
    inline_pieces, walk_markdown, walk_mdx, Heading as WalkHeading, InlinePiece, MarkdownVisitor,
    MdxVisitor, Snippets, MAX_NESTING,
};
use crate::docs::SourceTree;

use crate::export::html::{self, attr, Markup};
use crate::export::render::code::{self, Highlight};
use crate::export::render::components;
use crate::export::render::diagrams;
use crate::export::render::links::{Linker, Media};
use crate::export::render::math;
use crate::export::render::sanitize;

/// A heading of the rendered body, for the table of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Heading {
    pub(crate) level: u8,
    pub(crate) text: String,
    pub(crate) anchor: String,
}

/// The rendered body of a page.
#[derive(Debug, Default)]
pub(crate) struct Body {
    pub(crate) html: String,
    pub(crate) headings: Vec<Heading>,
    /// Diagrams left as code: the block's first line (to find it in the source) and why.
    pub(crate) unrendered_diagrams: Vec<(String, String)>,
}

/// Renders an MDX body (frontmatter removed); `file` is its path in the tree, for snippet imports.
/// Code blocks are coloured by `highlighter`.
pub(crate) fn render_mdx(
    body: &str,
    file: &str,
    tree: &SourceTree,
    links: &Linker<'_>,
    highlighter: &dyn Highlight,
) -> Body {
    let mut renderer = Renderer::new(tree, links, highlighter, true);
    walk_mdx(&mut renderer, body, file, 0);
    renderer.finish()
}

/// [`render_mdx`] and the body's Markdown for agents (`agents::markdown::render_body`, links by
/// `md_urls`) from one walk.
pub(crate) fn render_mdx_and_markdown(
    body: &str,
    file: &str,
    tree: &SourceTree,
    links: &Linker<'_>,
    highlighter: &dyn Highlight,
    md_urls: &Linker<'_>,
) -> (Body, String) {
    let renderer = Renderer::new(tree, links, highlighter, true);
    let (renderer, markdown) =
        crate::agents::markdown::render_body_beside(renderer, body, file, tree, md_urls);
    (renderer.finish(), markdown)
}

/// Renders a Markdown fragment (an OpenAPI description): no heading anchors, no snippets.
pub(crate) fn render_fragment(
    md: &str,
    tree: &SourceTree,
    links: &Linker<'_>,
    highlighter: &dyn Highlight,
) -> String {
    let mut renderer = Renderer::new(tree, links, highlighter, false);
    walk_markdown(&mut renderer, md, "", MAX_NESTING);
    renderer.finish().html
}

/// An open component or HTML element: its name (for matching the close) and what closes it.
struct Open {
    name: String,
    close: String,
    /// Length of the output just after its opening tag.
    content_at: usize,
}

/// `<script>`/`<style>` (or an embed turned link) being dropped: output and stack are cut back to
/// these lengths when its close arrives.
struct Suppress {
    name: String,
    out_len: usize,
    stack_len: usize,
    /// `Renderer::buffer` when it began: `out_len` measures that buffer only. A heading swaps in
    /// its own buffer, so a `<script>` opened in a heading may close after the swap back; cutting
    /// the page's buffer at the heading buffer's length would then cut a tag in half.
    buffer: usize,
}

struct Renderer<'a> {
    links: &'a Linker<'a>,
    highlighter: &'a dyn Highlight,
    anchors: bool,
    out: String,
    stack: Vec<Open>,
    suppress: Option<Suppress>,
    /// Which buffer `out` is: 0 the page's, else the heading being written (each its own number),
    /// so content dropped across blocks (`Visibility`) is cut from the page after headings too.
    buffer: usize,
    headings_begun: usize,
    slugs: Slugger,
    headings: Vec<Heading>,
    snippets: Snippets<'a>,
    /// Text and inline HTML of the current run of inline content, scanned for JSX when complete.
    pending: String,
    /// Stack length at each open Markdown block: components opened inside a paragraph close with it.
    marks: Vec<usize>,
    /// Closes of block components met inside a paragraph, applied when that paragraph ends.
    deferred: Vec<String>,
    /// Depth of `marks` at the current Markdown run's own level (outside any of its blocks).
    run_depth: usize,
    /// Diagrams written so far (their SVG ids are numbered on the page) and those left as code.
    diagrams: usize,
    unrendered_diagrams: Vec<(String, String)>,
    /// While a paragraph of nothing but elements is written: its tags are blocks (see [`Paragraph`]).
    unravelled: bool,
    /// Markdown links open around the current text.
    link_depth: usize,
}

/// A paragraph's events, held until its end: MDX unwraps a paragraph whose content is nothing but
/// JSX or HTML elements and the space between them (`remark-mdx`'s unravelling), so `<h1>Title</h1>`
/// or `<a>` cards one per line, and a one-line `<ParamField body="x">Text</ParamField>`, are blocks
/// of their own, not a `<p>` around them (which would also turn components to their inline markup).
#[derive(Default)]
struct Paragraph {
    events: Vec<Event<'static>>,
}

impl Paragraph {
    /// Whether the paragraph holds elements only: no text, code, emphasis or link outside them.
    fn elements_only(&self) -> bool {
        let mut depth = 0usize;
        let mut elements = 0usize;
        let mut only = true;
        let mut pending = String::new();
        let scan =
            |pending: &mut String, depth: &mut usize, elements: &mut usize, only: &mut bool| {
                inline_pieces(pending, |piece| match piece {
                    InlinePiece::Text(text) | InlinePiece::Literal(text) => {
                        *only &= *depth > 0 || text.trim().is_empty()
                    }
                    InlinePiece::Tag(tag) => match tag.kind {
                        TagKind::Close => *depth = depth.saturating_sub(1),
                        _ if *depth == 0 && tag.name.is_empty() => *only = false,
                        TagKind::SelfClosing => *elements += usize::from(*depth == 0),
                        TagKind::Open if is_void(tag.name) => *elements += usize::from(*depth == 0),
                        TagKind::Open => {
                            *elements += usize::from(*depth == 0);
                            *depth += 1;
                        }
                    },
                });
                pending.clear();
            };
        for event in &self.events {
            match event {
                Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => {
                    pending.push_str(text)
                }
                Event::SoftBreak => pending.push('\n'),
                _ => {
                    scan(&mut pending, &mut depth, &mut elements, &mut only);
                    only &= depth > 0;
                }
            }
        }
        scan(&mut pending, &mut depth, &mut elements, &mut only);
        only && elements > 0 && depth == 0
    }
}

/// HTML elements without a close (`<br>`, `<img>`), however written.
fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area" | "br" | "col" | "embed" | "hr" | "img" | "input" | "source" | "track" | "wbr"
    )
}

/// State of the Markdown run being written.
struct RunState {
    /// `Renderer::marks` and `run_depth` when the run began, restored at its end.
    base_marks: usize,
    outer_run: usize,
    /// The page's output while a heading is written into its own buffer.
    heading: Option<String>,
    image: Option<(String, String)>,
    /// The paragraph being read, written at its end.
    paragraph: Option<Paragraph>,
    html_block: bool,
    table_head: bool,
    aligns: Vec<pulldown_cmark::Alignment>,
    cell: usize,
}

impl<'a> MdxVisitor<'a> for Renderer<'a> {
    fn snippets(&mut self) -> &mut Snippets<'a> {
        &mut self.snippets
    }

    fn markdown(&mut self, md: &str, file: &str, depth: usize) {
        walk_markdown(self, md, file, depth);
    }

    fn tag(&mut self, tag: &Tag<'_>) {
        self.write_tag(tag, false);
    }

    fn literal(&mut self, text: &str) {
        html::element(&mut self.out, "p", "", text);
    }
}

impl<'a> MarkdownVisitor<'a> for Renderer<'a> {
    type Run = RunState;

    fn start_run(&mut self) -> RunState {
        let base_marks = self.marks.len();
        let outer_run = self.run_depth;
        self.mark();
        self.run_depth = self.marks.len();
        RunState {
            base_marks,
            outer_run,
            heading: None,
            image: None,
            paragraph: None,
            html_block: false,
            table_head: false,
            aligns: Vec::new(),
            cell: 0,
        }
    }

    fn event(&mut self, st: &mut RunState, event: Event<'_>) {
        self.write_event(event, st);
    }

    fn heading(&mut self, st: &mut RunState, heading: WalkHeading) {
        self.end_block(st, |this, st| {
            this.close_to_mark();
            if let Some(saved) = st.heading.take() {
                let inner = std::mem::replace(&mut this.out, saved);
                this.buffer = 0;
                this.heading(heading, &inner);
            }
        });
    }

    fn code_block(&mut self, st: &mut RunState, info: &str, code: &str) {
        self.end_block(st, |this, _| this.write_code_block(info, code));
    }

    fn end_run(&mut self, st: RunState) {
        self.flush_text(!st.html_block);
        while self.marks.len() > st.base_marks {
            self.close_to_mark();
        }
        self.apply_deferred();
        self.run_depth = st.outer_run;
    }

    fn slugs(&mut self) -> Option<&mut Slugger> {
        Some(&mut self.slugs)
    }
}

impl<'a> Renderer<'a> {
    fn new(
        tree: &'a SourceTree,
        links: &'a Linker<'a>,
        highlighter: &'a dyn Highlight,
        anchors: bool,
    ) -> Self {
        Self {
            links,
            highlighter,
            anchors,
            out: String::new(),
            stack: Vec::new(),
            suppress: None,
            buffer: 0,
            headings_begun: 0,
            slugs: Slugger::default(),
            headings: Vec::new(),
            snippets: Snippets::new(tree),
            pending: String::new(),
            marks: Vec::new(),
            deferred: Vec::new(),
            run_depth: 0,
            diagrams: 0,
            unrendered_diagrams: Vec::new(),
            unravelled: false,
            link_depth: 0,
        }
    }

    fn finish(mut self) -> Body {
        self.suppress = None;
        while let Some(open) = self.stack.pop() {
            self.out.push_str(&open.close);
        }
        Body {
            html: self.out,
            headings: self.headings,
            unrendered_diagrams: self.unrendered_diagrams,
        }
    }

    /// Opens, closes or writes a component or HTML tag.
    fn write_tag(&mut self, tag: &Tag<'_>, inline: bool) {
        if tag.name.is_empty() {
            return; // fragments `<>` `</>` carry nothing
        }
        if tag.kind == TagKind::Close {
            self.close(tag.name, inline);
            return;
        }
        // A remote image in a link: as in `image`.
        if tag.name.eq_ignore_ascii_case("img")
            && self.in_link()
            && matches!(
                self.links.media(tag.text_attr("src").unwrap_or("")),
                Media::Link(_)
            )
        {
            sanitize::image_in_link(&mut self.out, tag.text_attr("alt").unwrap_or(""));
            return;
        }
        let Markup {
            open,
            close,
            suppress,
            void,
        } = components::markup(tag, inline && !self.unravelled, self.links);
        self.out.push_str(&open);
        if void {
            return;
        }
        if tag.kind == TagKind::SelfClosing {
            self.out.push_str(&close);
            return;
        }
        if suppress && self.suppress.is_none() {
            self.suppress = Some(Suppress {
                name: tag.name.to_owned(),
                out_len: self.out.len(),
                stack_len: self.stack.len() + 1,
                buffer: self.buffer,
            });
        }
        self.stack.push(Open {
            name: tag.name.to_owned(),
            close,
            content_at: self.out.len(),
        });
    }

    fn close(&mut self, name: &str, inline: bool) {
        let Some(pos) = self.stack.iter().rposition(|o| o.name == name) else {
            return; // a stray close: nothing of it is written
        };
        if let Some(s) = &self.suppress {
            if s.name == name && pos + 1 == s.stack_len {
                if s.buffer == self.buffer {
                    self.out.truncate(s.out_len);
                }
                self.stack.truncate(s.stack_len);
                self.suppress = None;
            }
        }
        let floor = self.marks.last().copied().unwrap_or(0);
        if inline && pos < floor {
            // `Text.</Note>`: the callout opened outside this paragraph closes after it.
            self.deferred.push(name.to_owned());
            return;
        }
        while self.stack.len() > pos {
            if let Some(open) = self.stack.pop() {
                self.out.push_str(&open.close);
            }
        }
    }

    /// Closes components opened since the innermost Markdown block began.
    fn close_to_mark(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        while self.stack.len() > mark {
            if let Some(open) = self.stack.pop() {
                self.out.push_str(&open.close);
            }
        }
    }

    fn mark(&mut self) {
        self.marks.push(self.stack.len());
    }

    /// Writes the pending inline text: JSX tags become components, `{"x"}` text, other `{…}` and
    /// HTML comments nothing, the rest escaped text.
    fn flush_text(&mut self, inline: bool) {
        if self.pending.is_empty() {
            return;
        }
        let raw = std::mem::take(&mut self.pending);
        let mut rest = raw.as_str();
        while let Some((before, latex, after)) = math::inline_latex(rest) {
            self.write_pieces(before, inline);
            math::write(&mut self.out, &latex, math::Display::Inline);
            rest = after;
        }
        self.write_pieces(rest, inline);
    }

    fn write_pieces(&mut self, raw: &str, inline: bool) {
        inline_pieces(raw, |piece| match piece {
            InlinePiece::Text(text) | InlinePiece::Literal(text) => html::text(&mut self.out, text),
            InlinePiece::Tag(tag) => self.write_tag(&tag, inline),
        });
    }

    fn apply_deferred(&mut self) {
        for name in std::mem::take(&mut self.deferred) {
            self.close(&name, false);
        }
    }

    fn write_event(&mut self, event: Event<'_>, st: &mut RunState) {
        if let Some(paragraph) = &mut st.paragraph {
            if event != Event::End(TagEnd::Paragraph) {
                paragraph.events.push(event.into_static());
                return;
            }
        }
        match event {
            Event::Text(text) => match &mut st.image {
                Some((_, alt)) => alt.push_str(&text),
                None => self.pending.push_str(&text),
            },
            Event::Html(text) | Event::InlineHtml(text) => self.pending.push_str(&text),
            Event::Code(text) => {
                self.flush_text(true);
                html::element(&mut self.out, "code", "", &text);
            }
            Event::InlineMath(text) | Event::DisplayMath(text) if st.image.is_some() => {
                if let Some((_, alt)) = &mut st.image {
                    alt.push_str(&text);
                }
            }
            Event::InlineMath(text) => {
                self.flush_text(true);
                math::write(&mut self.out, &text, math::Display::Inline);
            }
            Event::DisplayMath(text) => {
                self.flush_text(true);
                math::write(&mut self.out, &text, math::Display::Block);
            }
            Event::SoftBreak => {
                if st.image.is_none() {
                    self.pending.push('\n');
                }
            }
            Event::HardBreak => {
                self.flush_text(true);
                self.out.push_str("<br>");
            }
            Event::Rule => {
                self.flush_text(true);
                self.out.push_str("<hr>");
            }
            Event::TaskListMarker(checked) => {
                // The item's text labels its box; the label closes before a nested list, or with
                // the item's first block.
                self.flush_text(true);
                self.out.push_str(if checked {
                    "<label class=\"task\"><input type=\"checkbox\" disabled checked> "
                } else {
                    "<label class=\"task\"><input type=\"checkbox\" disabled> "
                });
                self.stack.push(Open {
                    name: "label".into(),
                    close: "</label>".into(),
                    content_at: self.out.len(),
                });
            }
            Event::FootnoteReference(label) => {
                self.flush_text(true);
                let id = footnote_id(&label);
                self.out.push_str("<sup class=\"footnote-ref\"><a");
                attr(&mut self.out, "href", &format!("#{id}"));
                self.out.push('>');
                html::text(&mut self.out, &label);
                self.out.push_str("</a></sup>");
            }
            Event::Start(tag) => self.start(tag, st),
            // Inside an image's alt text nothing but its end counts.
            Event::End(end) if st.image.is_some() && end != TagEnd::Image => {}
            Event::End(end) => self.end_block(st, |this, st| this.end(end, st)),
        }
    }

    fn start(&mut self, tag: MdTag<'_>, st: &mut RunState) {
        if st.image.is_some() {
            return; // alt text is plain: markup inside it is not written
        }
        self.flush_text(!st.html_block);
        match tag {
            MdTag::Paragraph => {
                self.mark();
                st.paragraph = Some(Paragraph::default());
            }
            MdTag::Heading { .. } => {
                // The heading is written into its own buffer: its id is known only at its end.
                self.mark();
                let saved = std::mem::take(&mut self.out);
                self.headings_begun += 1;
                self.buffer = self.headings_begun;
                st.heading = Some(saved);
            }
            MdTag::BlockQuote(kind) => {
                self.mark();
                match kind.map(alert_class) {
                    Some(class) => {
                        html::open(&mut self.out, "div", &format!("callout callout-{class}"));
                        html::open(&mut self.out, "div", "callout-body");
                    }
                    None => self.out.push_str("<blockquote>"),
                }
            }
            MdTag::HtmlBlock => st.html_block = true,
            MdTag::List(_)
                if self
                    .stack
                    .last()
                    .is_some_and(|open| open.close == "</label>" && open.name == "label") =>
            {
                self.stack.pop();
                self.out.push_str("</label>");
                self.start(tag, st);
            }
            MdTag::List(Some(1)) => {
                self.mark();
                self.out.push_str("<ol>");
            }
            MdTag::List(Some(start)) => {
                self.mark();
                self.out.push_str("<ol");
                attr(&mut self.out, "start", &start.to_string());
                self.out.push('>');
            }
            MdTag::List(None) => {
                self.mark();
                self.out.push_str("<ul>");
            }
            MdTag::Item => {
                self.mark();
                self.out.push_str("<li>");
            }
            MdTag::FootnoteDefinition(label) => {
                self.mark();
                self.out.push_str("<div class=\"footnote\"");
                attr(&mut self.out, "id", &footnote_id(&label));
                self.out.push_str("><span class=\"footnote-label\">");
                html::text(&mut self.out, &label);
                self.out.push_str("</span>");
            }
            MdTag::Table(aligns) => {
                st.aligns = aligns;
                self.out.push_str("<div class=\"table-wrap\"><table>");
            }
            MdTag::TableHead => {
                st.table_head = true;
                st.cell = 0;
                self.out.push_str("<thead><tr>");
            }
            MdTag::TableRow => {
                st.cell = 0;
                self.out.push_str("<tr>");
            }
            MdTag::TableCell => {
                self.mark();
                self.out.push_str(if st.table_head { "<th" } else { "<td" });
                let align = match st.aligns.get(st.cell) {
                    Some(pulldown_cmark::Alignment::Left) => "left",
                    Some(pulldown_cmark::Alignment::Center) => "center",
                    Some(pulldown_cmark::Alignment::Right) => "right",
                    _ => "",
                };
                if !align.is_empty() {
                    attr(&mut self.out, "class", &format!("align-{align}"));
                }
                self.out.push('>');
            }
            MdTag::Emphasis => self.out.push_str("<em>"),
            MdTag::Strong => self.out.push_str("<strong>"),
            MdTag::Strikethrough => self.out.push_str("<del>"),
            MdTag::Superscript => self.out.push_str("<sup>"),
            MdTag::Subscript => self.out.push_str("<sub>"),
            MdTag::Link {
                link_type,
                dest_url,
                title,
                ..
            } => {
                let href = if link_type == LinkType::Email && !dest_url.starts_with("mailto:") {
                    format!("mailto:{dest_url}")
                } else {
                    self.links.href(&dest_url)
                };
                self.link_depth += 1;
                self.out.push_str("<a");
                attr(&mut self.out, "href", &href);
                if !title.is_empty() {
                    attr(&mut self.out, "title", &title);
                }
                self.out.push('>');
            }
            MdTag::Image { dest_url, .. } => {
                st.image = Some((dest_url.into_string(), String::new()));
            }
            _ => {}
        }
    }

    /// The end of an element, heading or code block: pending text written first, then `write`, then
    /// the closes deferred to the run's own level.
    fn end_block(&mut self, st: &mut RunState, write: impl FnOnce(&mut Self, &mut RunState)) {
        self.flush_text(!st.html_block);
        write(self, st);
        if self.marks.len() == self.run_depth && !self.deferred.is_empty() {
            self.apply_deferred();
        }
    }

    fn end(&mut self, end: TagEnd, st: &mut RunState) {
        match end {
            TagEnd::Paragraph => self.paragraph(st),
            TagEnd::BlockQuote(kind) => {
                self.close_to_mark();
                self.out.push_str(if kind.is_some() {
                    "</div></div>"
                } else {
                    "</blockquote>"
                });
            }
            TagEnd::HtmlBlock => st.html_block = false,
            TagEnd::List(ordered) => {
                self.close_to_mark();
                self.out.push_str(if ordered { "</ol>" } else { "</ul>" });
            }
            TagEnd::Item => {
                self.close_to_mark();
                self.out.push_str("</li>");
            }
            TagEnd::FootnoteDefinition => {
                self.close_to_mark();
                self.out.push_str("</div>");
            }
            TagEnd::Table => self.out.push_str("</tbody></table></div>"),
            TagEnd::TableHead => {
                st.table_head = false;
                self.out.push_str("</tr></thead><tbody>");
            }
            TagEnd::TableRow => self.out.push_str("</tr>"),
            TagEnd::TableCell => {
                self.close_to_mark();
                self.out
                    .push_str(if st.table_head { "</th>" } else { "</td>" });
                st.cell += 1;
            }
            TagEnd::Emphasis => self.out.push_str("</em>"),
            TagEnd::Strong => self.out.push_str("</strong>"),
            TagEnd::Strikethrough => self.out.push_str("</del>"),
            TagEnd::Superscript => self.out.push_str("</sup>"),
            TagEnd::Subscript => self.out.push_str("</sub>"),
            TagEnd::Link => {
                self.link_depth = self.link_depth.saturating_sub(1);
                self.out.push_str("</a>");
            }
            TagEnd::Image => {
                if let Some((src, alt)) = st.image.take() {
                    self.image(&src, &alt);
                }
            }
            _ => {}
        }
    }

    /// Writes the paragraph read since its start: in `<p>`, or unwrapped when it holds elements only
    /// or stands inside an element that holds phrasing only (`<h3>` and `<p>` with their text on
    /// lines of its own, as MDX reads them: a `<p>` there would end the outer `<p>` in the browser and
    /// leave the text outside it; a second paragraph there starts on a new line).
    fn paragraph(&mut self, st: &mut RunState) {
        let paragraph = st.paragraph.take().unwrap_or_default();
        let in_phrasing = self
            .stack
            .last()
            .filter(|open| holds_phrasing_only(&open.name));
        if in_phrasing.is_some_and(|open| self.out.len() > open.content_at) {
            self.out.push_str("<br>");
        }
        let unravel = in_phrasing.is_some() || paragraph.elements_only();
        if !unravel {
            self.out.push_str("<p>");
        }
        self.unravelled = unravel;
        for event in paragraph.events {
            self.write_event(event, st);
        }
        self.flush_text(!unravel);
        self.unravelled = false;
        self.close_to_mark();
        if !unravel {
            self.out.push_str("</p>");
        }
    }

    fn heading(&mut self, heading: WalkHeading, inner: &str) {
        let level = heading.level.clamp(1, 6);
        let text = heading.text;
        let tag = format!("h{level}");
        let Some(anchor) = heading.anchor.filter(|_| self.anchors) else {
            self.out.push_str(&format!("<{tag}>{inner}</{tag}>"));
            return;
        };
        self.out.push('<');
        self.out.push_str(&tag);
        attr(&mut self.out, "id", &anchor);
        self.out.push('>');
        self.out.push_str(inner);
        self.out.push_str("<a class=\"anchor\"");
        attr(&mut self.out, "href", &format!("#{anchor}"));
        attr(&mut self.out, "aria-label", &format!("Link to {text}"));
        self.out.push_str(">#</a></");
        self.out.push_str(&tag);
        self.out.push('>');
        if self.suppress.is_some() {
            return; // inside content the page drops (`Visibility for="agents"`): not in its contents
        }
        self.headings.push(Heading {
            level,
            text,
            anchor,
        });
    }

    fn image(&mut self, src: &str, alt: &str) {
        match self.links.media(src) {
            Media::Local(src) | Media::ImageOnly { src, .. } => {
                self.out.push_str("<img loading=\"lazy\"");
                attr(&mut self.out, "src", &src);
                attr(&mut self.out, "alt", alt);
                self.out.push('>');
            }
            Media::Link(_) if self.in_link() => sanitize::image_in_link(&mut self.out, alt),
            Media::Link(href) => {
                sanitize::remote_image(&mut self.out, &href, src, alt, [None, None], &[])
            }
        }
    }

    /// Whether a link is open (a Markdown link, or an HTML `<a>`), in which no link or button may nest.
    fn in_link(&self) -> bool {
        self.link_depth > 0 || self.stack.iter().any(|o| o.name == "a")
    }

    /// A fenced block (see [`code`]); inside a CodeGroup or example it is one of the group's tabs.
    fn write_code_block(&mut self, info: &str, code: &str) {
        if diagrams::ENABLED && info.split_ascii_whitespace().next() == Some("mermaid") {
            let links = self.links;
            match diagrams::write(&mut self.out, code, self.diagrams, &|url| links.href(url)) {
                Ok(()) => {
                    self.diagrams += 1;
                    return;
                }
                Err(diagrams::NotRendered(reason)) => {
                    let first = code
                        .lines()
                        .find(|l| !l.trim().is_empty())
                        .unwrap_or("")
                        .trim()
                        .to_owned();
                    self.unrendered_diagrams.push((first, reason));
                }
            }
        }
        let grouped = self.stack.iter().any(|o| {
            matches!(
                o.name.as_str(),
                "CodeGroup" | "RequestExample" | "ResponseExample"
            )
        });
        let placement = if grouped {
            code::Placement::InGroup
        } else {
            code::Placement::Alone
        };
        let links = self.links;
        code::write_block(
            &mut self.out,
            info,
            code,
            placement,
            self.highlighter,
            |out, name| crate::export::page::icons::component_icon(out, name, None, links),
        );
    }
}

fn alert_class(kind: BlockQuoteKind) -> &'static str {
    match kind {
        BlockQuoteKind::Note => "note",
        BlockQuoteKind::Tip => "tip",
        BlockQuoteKind::Important => "info",
        BlockQuoteKind::Warning => "warning",
        BlockQuoteKind::Caution => "danger",
    }
}

fn footnote_id(label: &str) -> String {
    format!("fn-{}", slugify(label))
}

/// HTML elements whose content is phrasing only: a paragraph's `<p>` inside one would be split out
/// of it by the browser's parser.
fn holds_phrasing_only(name: &str) -> bool {
    matches!(
        name,
        "p" | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "span"
            | "strong"
            | "em"
            | "b"
            | "i"
            | "u"
            | "small"
            | "label"
            | "button"
            | "code"
            | "sub"
            | "sup"
            | "mark"
            | "abbr"
            | "q"
            | "cite"
            | "time"
    )
}

#[cfg(test)]
mod tests;
