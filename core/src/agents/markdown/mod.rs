//! A page as Markdown, for agents: `page.md` in the static export, the page endpoint's
//! `format: "markdown"`, the MCP `get_page` tool and `llms-full.txt`.
//!
//! A visitor over the same MDX walk as the search text and the export's HTML (`docs::walk`):
//! Markdown runs are re-written from pulldown-cmark's events (so links can be rewritten and inline
//! JSX resolved), components become plain Markdown (`components`). Nesting is a stack of
//! containers, each adding a line prefix (`> ` for callouts, list indentation for steps, fields
//! and cards), so any mix of components and Markdown blocks nests correctly.

mod components;
pub(crate) mod escape;
mod events;

use crate::docs::frontmatter;
use crate::docs::jsx::{Tag, TagKind};
use crate::docs::sections::{Extractor, PageText};
use crate::docs::walk::{
    inline_pieces, walk_markdown, walk_mdx, InlinePiece, MarkdownVisitor, MdxVisitor, Pair,
    Snippets,
};
use crate::docs::{Page, SourceTree};

pub(crate) use components::{code_span, destination, Urls};
use components::{BlockShape, InlineShape};
use events::Table;

/// Renders `page` as Markdown: `# Title`, a `Source:` line with its URL, the description as a
/// quote, then the body. `urls` decides where links and images point.
pub(crate) fn page_markdown(
    page: &Page,
    tree: &SourceTree,
    source_url: &str,
    urls: &dyn Urls,
) -> String {
    let source = crate::docs::site::page_source_text(tree, page);
    let (_, body) = frontmatter::split(&source);
    page_markdown_around(
        page,
        render_body(body, &page.source, tree, urls),
        source_url,
    )
}

/// [`page_markdown`] of a body already rendered by [`render_body`] (or [`text_and_body`]).
pub(crate) fn page_markdown_around(page: &Page, mut rendered: String, source_url: &str) -> String {
    let title_heading = format!("# {}", escape::text(&page.title));
    // A page titled by its own first heading would repeat it.
    if let Some(rest) = rendered.strip_prefix(&title_heading) {
        rendered = rest.trim_start_matches('\n').to_owned();
    }
    let mut out = title_heading;
    out.push_str("\n\nSource: ");
    out.push_str(source_url);
    out.push('\n');
    if let Some(description) = page
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        out.push_str("\n> ");
        out.push_str(&escape::text(&description.replace('\n', " ")));
        out.push('\n');
    }
    if let Some(operation) = page
        .openapi
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        out.push_str("\nAPI operation: ");
        out.push_str(&code_span(operation));
        out.push('\n');
    }
    if !rendered.trim().is_empty() {
        out.push('\n');
        out.push_str(&rendered);
    }
    out
}

/// Renders an MDX body (frontmatter removed); `file` is its tree path, for snippet imports.
pub(crate) fn render_body(body: &str, file: &str, tree: &SourceTree, urls: &dyn Urls) -> String {
    let mut writer = Writer::new(tree, urls);
    walk_mdx(&mut writer, body, file, 0);
    writer.finish()
}

/// The page's text ([`crate::docs::sections::extract`]) and its body rendered as Markdown ([`render_body`]) in one
/// walk: publishing needs both of every page, and the walk (block scan, Markdown parse) is most of
/// the cost of either.
pub(crate) fn text_and_body(
    body: &str,
    file: &str,
    tree: &SourceTree,
    urls: &dyn Urls,
) -> (PageText, String) {
    let mut both = Pair::new(Extractor::new(tree), Writer::new(tree, urls), tree);
    walk_mdx(&mut both, body, file, 0);
    (both.first.finish(), both.second.finish())
}

/// [`render_body`] in the walk of another reader `first` of the same body (see `walk::Pair`), which
/// it gives back: the export writes a page's HTML and its Markdown twin from one walk.
pub(crate) fn render_body_beside<'t, A: MarkdownVisitor<'t>>(
    first: A,
    body: &str,
    file: &str,
    tree: &'t SourceTree,
    urls: &dyn Urls,
) -> (A, String) {
    let mut both = Pair::new(first, Writer::new(tree, urls), tree);
    walk_mdx(&mut both, body, file, 0);
    (both.first, both.second.finish())
}

/// A block open around the content being written.
struct Container {
    /// Component name, to match its close; empty for Markdown blocks.
    name: String,
    first: String,
    rest: String,
    started: bool,
    tail: String,
    /// `<Steps>`: its children are numbered, and its close ends that numbering.
    numbers_children: bool,
}

/// Inline markup open in the current paragraph.
struct OpenInline {
    name: String,
    close: String,
}

/// Content being dropped up to the close of `name`: output is cut back to `len` then.
struct Suppressed {
    name: String,
    len: usize,
    line_start: bool,
}

struct Writer<'t, 'u> {
    urls: &'u dyn Urls,
    snippets: Snippets<'t>,
    out: String,
    containers: Vec<Container>,
    /// Next number of each open numbered list (`None` for bullets), innermost last.
    numbering: Vec<Option<u64>>,
    line_start: bool,
    blank_before_next: bool,
    pending: String,
    inline: Vec<OpenInline>,
    suppressed: Option<Suppressed>,
    /// Closes of block components met inside a paragraph: applied when the Markdown run ends.
    deferred: Vec<String>,
    heading: bool,
    /// Container depth at the current Markdown run's own level.
    run_base: usize,
    image: Option<(String, String)>,
    links: Vec<String>,
    table: Option<Table>,
}

impl<'t> MdxVisitor<'t> for Writer<'t, '_> {
    fn snippets(&mut self) -> &mut Snippets<'t> {
        &mut self.snippets
    }

    fn markdown(&mut self, md: &str, file: &str, depth: usize) {
        walk_markdown(self, md, file, depth);
    }

    fn tag(&mut self, tag: &Tag<'_>) {
        self.block_tag(tag);
    }

    fn literal(&mut self, text: &str) {
        self.end_block();
        self.inline_text(text);
        self.end_block();
    }
}

impl<'t, 'u> Writer<'t, 'u> {
    fn new(tree: &'t SourceTree, urls: &'u dyn Urls) -> Self {
        Self {
            urls,
            snippets: Snippets::new(tree),
            out: String::new(),
            containers: Vec::new(),
            numbering: Vec::new(),
            line_start: true,
            blank_before_next: false,
            pending: String::new(),
            inline: Vec::new(),
            suppressed: None,
            deferred: Vec::new(),
            heading: false,
            run_base: 0,
            image: None,
            links: Vec::new(),
            table: None,
        }
    }

    fn finish(mut self) -> String {
        self.suppressed = None;
        while let Some(container) = self.containers.pop() {
            self.close_container(container);
        }
        let mut out = self.out.trim_end().to_owned();
        out.push('\n');
        out
    }

    // ---- output -------------------------------------------------------------------------------

    /// Writes `text` (Markdown: nothing is escaped), prefixing every new line with the open containers.
    fn write(&mut self, text: &str) {
        if self.suppressed.is_some() || text.is_empty() {
            return;
        }
        if self.table.as_ref().is_some_and(|t| t.saved.is_some()) {
            self.out.push_str(&text.replace('\n', " "));
            return;
        }
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.out.push('\n');
                self.line_start = true;
            }
            if line.is_empty() {
                continue;
            }
            if self.line_start {
                self.begin_line();
            }
            self.out.push_str(line);
        }
    }

    fn begin_line(&mut self) {
        if self.blank_before_next && !self.out.is_empty() {
            let blank: String = self
                .containers
                .iter()
                .filter(|c| c.started)
                .map(|c| c.rest.as_str())
                .collect();
            self.out.push_str(blank.trim_end());
            self.out.push('\n');
        }
        self.blank_before_next = false;
        for c in &mut self.containers {
            if c.started {
                self.out.push_str(&c.rest);
            } else {
                self.out.push_str(&c.first);
                c.started = true;
            }
        }
        self.line_start = false;
    }

    /// Ends the current block: the next one starts after a blank line.
    fn end_block(&mut self) {
        if self.suppressed.is_some() {
            return;
        }
        if !self.line_start {
            self.out.push('\n');
            self.line_start = true;
        }
        self.blank_before_next = true;
    }

    fn paragraph(&mut self, markdown: &str) {
        if markdown.trim().is_empty() {
            return;
        }
        self.end_block();
        self.write(markdown);
        self.end_block();
    }

    fn push_container(&mut self, name: &str, first: String, rest: String, tail: String) {
        self.end_block();
        self.containers.push(Container {
            tail,
            first,
            rest,
            ..transparent(name)
        });
    }

    fn close_container(&mut self, container: Container) {
        let tail = container.tail.clone();
        if !tail.is_empty() {
            self.containers.push(container);
            self.paragraph(&tail);
            self.containers.pop();
        } else if !container.started && !container.first.trim().is_empty() {
            // An empty item still shows its marker.
            self.containers.push(container);
            self.write(" ");
            self.containers.pop();
        }
        self.end_block();
    }

    // ---- components ---------------------------------------------------------------------------

    fn block_tag(&mut self, tag: &Tag<'_>) {
        if tag.name.is_empty() {
            return;
        }
        if tag.kind == TagKind::Close {
            self.close_component(tag.name);
            return;
        }
        let shape = components::block(tag, self.urls);
        let self_closing = tag.kind == TagKind::SelfClosing;
        match shape {
            BlockShape::Transparent => {
                if !self_closing {
                    self.containers.push(transparent(tag.name));
                }
            }
            BlockShape::Numbered => {
                if !self_closing {
                    self.numbering.push(Some(1));
                    self.containers.push(Container {
                        numbers_children: true,
                        ..transparent(tag.name)
                    });
                }
            }
            BlockShape::Leaf(text) => self.paragraph(&text),
            BlockShape::Suppress => {
                if !self_closing && self.suppressed.is_none() {
                    self.suppressed = Some(Suppressed {
                        name: tag.name.to_owned(),
                        len: self.out.len(),
                        line_start: self.line_start,
                    });
                }
            }
            BlockShape::Container {
                first,
                rest,
                head,
                tail,
                numbered,
            } => {
                let (first, rest) = if numbered {
                    let n = self.next_number();
                    let marker = format!("{n}. ");
                    let indent = " ".repeat(marker.len());
                    (marker, indent)
                } else {
                    (first, rest)
                };
                self.push_container(tag.name, first, rest, tail);
                if !head.is_empty() {
                    self.paragraph(&head);
                }
                if self_closing {
                    self.close_component(tag.name);
                }
            }
        }
    }

    /// At the close of `name`: when it is what is being dropped, its content goes.
    fn end_suppression(&mut self, name: &str) {
        if let Some(s) = self.suppressed.take_if(|s| s.name == name) {
            self.out.truncate(s.len);
            self.line_start = s.line_start;
        }
    }

    fn next_number(&mut self) -> u64 {
        match self.numbering.last_mut() {
            Some(Some(n)) => {
                let current = *n;
                *n += 1;
                current
            }
            _ => 1,
        }
    }

    fn close_component(&mut self, name: &str) {
        if self.suppressed.is_some() {
            self.end_suppression(name);
            return;
        }
        let Some(pos) = self.containers.iter().rposition(|c| c.name == name) else {
            return; // a stray close
        };
        while self.containers.len() > pos {
            if let Some(container) = self.containers.pop() {
                if container.numbers_children {
                    self.numbering.pop();
                    self.end_block();
                } else {
                    self.close_container(container);
                }
            }
        }
    }

    /// Writes the pending inline text: tags become inline markup, text is escaped.
    fn flush_text(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let raw = std::mem::take(&mut self.pending);
        inline_pieces(&raw, |piece| match piece {
            InlinePiece::Text(text) | InlinePiece::Literal(text) => self.inline_text(text),
            InlinePiece::Tag(tag) => self.inline_tag(&tag),
        });
    }

    fn inline_text(&mut self, text: &str) {
        if self.suppressed.is_some() {
            return;
        }
        let joined;
        let text = match self.heading && text.contains('\n') {
            true => {
                joined = text.replace('\n', " ");
                joined.as_str()
            }
            false => text,
        };
        let escaped = escape::text(text);
        if !self.line_start && !escaped.contains('\n') {
            return self.write(&escaped);
        }
        // What would start a block at the start of a line is escaped there.
        let mut out = String::with_capacity(escaped.len());
        for (i, line) in escaped.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            if (i > 0 || self.line_start) && !line.is_empty() {
                out.push_str(&escape::line_start(line));
            } else {
                out.push_str(line);
            }
        }
        self.write(&out);
    }

    fn inline_tag(&mut self, tag: &Tag<'_>) {
        if tag.name.is_empty() {
            return;
        }
        if tag.kind == TagKind::Close {
            if self.suppressed.is_some() {
                self.end_suppression(tag.name);
                return;
            }
            if let Some(pos) = self.inline.iter().rposition(|o| o.name == tag.name) {
                while self.inline.len() > pos {
                    if let Some(open) = self.inline.pop() {
                        self.write(&open.close);
                    }
                }
            } else if self.containers.iter().any(|c| c.name == tag.name) {
                // `Text.</Note>`: the callout opened on its own line closes after this paragraph.
                self.deferred.push(tag.name.to_owned());
            }
            return;
        }
        let InlineShape {
            open,
            close,
            void,
            suppress,
        } = components::inline(tag, self.urls);
        if suppress && self.suppressed.is_none() {
            self.write(&open);
            self.suppressed = Some(Suppressed {
                name: tag.name.to_owned(),
                len: self.out.len(),
                line_start: self.line_start,
            });
            return;
        }
        self.write(&open);
        if void || tag.kind == TagKind::SelfClosing {
            self.write(&close);
            return;
        }
        self.inline.push(OpenInline {
            name: tag.name.to_owned(),
            close,
        });
    }

    /// Closes inline markup left open at the end of a block.
    fn close_inline(&mut self) {
        while let Some(open) = self.inline.pop() {
            self.write(&open.close);
        }
    }
}

fn transparent(name: &str) -> Container {
    Container {
        name: name.to_owned(),
        first: String::new(),
        rest: String::new(),
        started: false,
        tail: String::new(),
        numbers_children: false,
    }
}

#[cfg(test)]
mod tests;
