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

use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag as MdTag, TagEnd};

use crate::docs::frontmatter;
use crate::docs::jsx::{Tag, TagKind};
use crate::docs::sections::MAX_NESTING;
use crate::docs::walk::{inline_pieces, walk_mdx, InlinePiece, MdxVisitor, Snippets};
use crate::docs::{Page, SourceTree};

use components::{BlockShape, InlineShape};
pub(crate) use components::{code_span, destination, Urls};

/// Renders `page` as Markdown: `# Title`, a `Source:` line with its URL, the description as a
/// quote, then the body. `urls` decides where links and images point.
pub(crate) fn page_markdown(page: &Page, tree: &SourceTree, source_url: &str, urls: &dyn Urls) -> String {
    let source = tree
        .get(&page.source)
        .map(|b| String::from_utf8_lossy(b))
        .unwrap_or_default();
    let (_, body) = frontmatter::split(&source);
    let mut rendered = render_body(body, &page.source, tree, urls);
    let title_heading = format!("# {}", escape::text(&page.title));
    // A page titled by its own first heading would repeat it.
    if let Some(rest) = rendered.strip_prefix(&title_heading) {
        rendered = rest.trim_start_matches('\n').to_owned();
    }
    let mut out = title_heading;
    out.push_str("\n\nSource: ");
    out.push_str(source_url);
    out.push('\n');
    if let Some(description) = page.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        out.push_str("\n> ");
        out.push_str(&escape::text(&description.replace('\n', " ")));
        out.push('\n');
    }
    if let Some(operation) = page.openapi.as_deref().map(str::trim).filter(|o| !o.is_empty()) {
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

/// A block open around the content being written.
struct Container {
    /// Component name, to match its close; empty for Markdown blocks.
    name: String,
    first: String,
    rest: String,
    started: bool,
    tail: String,
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

struct Table {
    head: Option<Vec<String>>,
    aligns: Vec<pulldown_cmark::Alignment>,
    rows: Vec<Vec<String>>,
    row: Vec<String>,
    /// Output saved while a cell is written into `Writer::out`.
    saved: Option<String>,
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
    code: Option<(Option<String>, String)>,
    links: Vec<String>,
    table: Option<Table>,
}

impl<'t> MdxVisitor<'t> for Writer<'t, '_> {
    fn snippets(&mut self) -> &mut Snippets<'t> {
        &mut self.snippets
    }

    fn markdown(&mut self, md: &str, file: &str, depth: usize) {
        self.markdown_run(md, file, depth);
    }

    fn tag(&mut self, tag: &Tag<'_>) {
        self.block_tag(tag);
    }

    fn literal(&mut self, text: &str) {
        self.paragraph(&escape::text(text));
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
            code: None,
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
        self.containers.push(Container { name: name.to_owned(), first, rest, started: false, tail });
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
                    let mut marker = transparent(tag.name);
                    marker.tail = NUMBERED_MARK.to_owned();
                    self.containers.push(marker);
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
            BlockShape::Container { first, rest, head, tail, numbered } => {
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
        if let Some(s) = &self.suppressed {
            if s.name == name {
                let (len, line_start) = (s.len, s.line_start);
                self.suppressed = None;
                self.out.truncate(len);
                self.line_start = line_start;
            }
            return;
        }
        let Some(pos) = self.containers.iter().rposition(|c| c.name == name) else {
            return; // a stray close
        };
        while self.containers.len() > pos {
            if let Some(container) = self.containers.pop() {
                if container.tail == NUMBERED_MARK {
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
        let text = if self.heading { text.replace('\n', " ") } else { text.to_owned() };
        let escaped = escape::text(&text);
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
            if let Some(s) = &self.suppressed {
                if s.name == tag.name {
                    let (len, line_start) = (s.len, s.line_start);
                    self.suppressed = None;
                    self.out.truncate(len);
                    self.line_start = line_start;
                }
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
        let InlineShape { open, close, void, suppress } = components::inline(tag, self.urls);
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
        self.inline.push(OpenInline { name: tag.name.to_owned(), close });
    }

    /// Closes inline markup left open at the end of a block.
    fn close_inline(&mut self) {
        while let Some(open) = self.inline.pop() {
            self.write(&open.close);
        }
    }

    // ---- Markdown -------------------------------------------------------------------------------

    fn markdown_run(&mut self, md: &str, file: &str, depth: usize) {
        let options = Options::ENABLE_TABLES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_FOOTNOTES
            | Options::ENABLE_GFM;
        let base = self.containers.len();
        let outer_base = std::mem::replace(&mut self.run_base, base);
        for event in Parser::new_ext(md, options) {
            self.event(event, file, depth);
        }
        self.run_base = outer_base;
        self.flush_text();
        self.close_inline();
        // Markdown blocks the run left open (it never does, pulldown-cmark balances them).
        while self.containers.len() > base {
            if let Some(container) = self.containers.pop() {
                self.close_container(container);
            }
        }
        for name in std::mem::take(&mut self.deferred) {
            self.close_component(&name);
        }
    }

    fn event(&mut self, event: Event<'_>, file: &str, depth: usize) {
        if let Some((_, alt)) = &mut self.image {
            match event {
                Event::Text(text) | Event::Code(text) => alt.push_str(&text),
                Event::End(TagEnd::Image) => {
                    if let Some((src, alt)) = self.image.take() {
                        let md = components::image(&alt, &self.urls.media(&src));
                        self.write(&md);
                    }
                }
                _ => {}
            }
            return;
        }
        if let Some((_, code)) = &mut self.code {
            match event {
                Event::Text(text) => code.push_str(&text),
                Event::End(TagEnd::CodeBlock) => self.end_code(file, depth),
                _ => {}
            }
            return;
        }
        match event {
            Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => self.pending.push_str(&text),
            Event::SoftBreak => self.pending.push('\n'),
            Event::Code(text) => {
                self.flush_text();
                self.write(&code_span(&text));
            }
            Event::InlineMath(text) => {
                self.flush_text();
                self.write(&format!("${text}$"));
            }
            Event::DisplayMath(text) => {
                self.flush_text();
                self.write(&format!("$${text}$$"));
            }
            Event::HardBreak => {
                self.flush_text();
                self.write(if self.heading { " " } else { "\\\n" });
            }
            Event::Rule => {
                self.flush_text();
                self.paragraph("---");
            }
            Event::TaskListMarker(checked) => {
                self.write(if checked { "[x] " } else { "[ ] " });
            }
            Event::FootnoteReference(label) => {
                self.flush_text();
                self.write(&format!("[^{label}]"));
            }
            Event::Start(tag) => {
                self.flush_text();
                self.start(tag);
            }
            Event::End(end) => {
                self.flush_text();
                self.end(end);
                if self.containers.len() == self.run_base && !self.deferred.is_empty() {
                    for name in std::mem::take(&mut self.deferred) {
                        self.close_component(&name);
                    }
                }
            }
        }
    }

    fn start(&mut self, tag: MdTag<'_>) {
        match tag {
            MdTag::Paragraph | MdTag::HtmlBlock => self.end_block(),
            MdTag::Heading { level, .. } => {
                self.end_block();
                self.heading = true;
                let hashes = "#".repeat(level as usize);
                self.write(&format!("{hashes} "));
            }
            MdTag::BlockQuote(kind) => {
                self.push_container("", "> ".into(), "> ".into(), String::new());
                if let Some(kind) = kind {
                    let label = match kind {
                        pulldown_cmark::BlockQuoteKind::Note => "NOTE",
                        pulldown_cmark::BlockQuoteKind::Tip => "TIP",
                        pulldown_cmark::BlockQuoteKind::Important => "IMPORTANT",
                        pulldown_cmark::BlockQuoteKind::Warning => "WARNING",
                        pulldown_cmark::BlockQuoteKind::Caution => "CAUTION",
                    };
                    self.write(&format!("[!{label}]\n"));
                }
            }
            MdTag::CodeBlock(kind) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => Some(info.into_string()),
                    CodeBlockKind::Indented => None,
                };
                self.code = Some((info, String::new()));
            }
            MdTag::List(start) => {
                self.end_block();
                self.numbering.push(start);
            }
            MdTag::Item => {
                let first = match self.numbering.last_mut() {
                    Some(Some(n)) => {
                        let marker = format!("{n}. ");
                        *n += 1;
                        marker
                    }
                    _ => "- ".to_owned(),
                };
                let rest = " ".repeat(first.len());
                self.push_container("", first, rest, String::new());
            }
            MdTag::FootnoteDefinition(label) => {
                self.push_container("", format!("[^{label}]: "), "    ".into(), String::new());
            }
            MdTag::Table(aligns) => {
                self.end_block();
                self.table = Some(Table { head: None, aligns, rows: Vec::new(), row: Vec::new(), saved: None });
            }
            MdTag::TableHead | MdTag::TableRow => {
                if let Some(table) = &mut self.table {
                    table.row.clear();
                }
            }
            MdTag::TableCell => {
                let saved = std::mem::take(&mut self.out);
                if let Some(table) = &mut self.table {
                    table.saved = Some(saved);
                }
            }
            MdTag::Emphasis => self.write("*"),
            MdTag::Strong => self.write("**"),
            MdTag::Strikethrough => self.write("~~"),
            MdTag::Superscript => self.write("^"),
            MdTag::Subscript => self.write("~"),
            MdTag::Link { link_type, dest_url, .. } => {
                let href = if link_type == LinkType::Email && !dest_url.starts_with("mailto:") {
                    format!("mailto:{dest_url}")
                } else {
                    self.urls.href(&dest_url)
                };
                self.write("[");
                self.links.push(format!("]({})", destination(&href)));
            }
            MdTag::Image { dest_url, .. } => self.image = Some((dest_url.into_string(), String::new())),
            _ => {}
        }
    }

    fn end(&mut self, end: TagEnd) {
        match end {
            TagEnd::Paragraph | TagEnd::HtmlBlock => {
                self.close_inline();
                self.end_block();
            }
            TagEnd::Heading(_) => {
                self.close_inline();
                self.heading = false;
                self.end_block();
            }
            TagEnd::BlockQuote(_) | TagEnd::Item | TagEnd::FootnoteDefinition => {
                self.close_inline();
                if let Some(container) = self.containers.pop() {
                    self.close_container(container);
                }
            }
            TagEnd::List(_) => {
                self.numbering.pop();
                self.end_block();
            }
            TagEnd::TableCell => {
                self.close_inline();
                if let Some(table) = &mut self.table {
                    let saved = table.saved.take().unwrap_or_default();
                    let cell = std::mem::replace(&mut self.out, saved);
                    table.row.push(cell.trim().replace('|', "\\|"));
                }
            }
            TagEnd::TableHead => {
                if let Some(table) = &mut self.table {
                    table.head = Some(std::mem::take(&mut table.row));
                }
            }
            TagEnd::TableRow => {
                if let Some(table) = &mut self.table {
                    let row = std::mem::take(&mut table.row);
                    table.rows.push(row);
                }
            }
            TagEnd::Table => {
                if let Some(table) = self.table.take() {
                    let text = table_markdown(&table);
                    self.paragraph(&text);
                }
            }
            TagEnd::Emphasis => self.write("*"),
            TagEnd::Strong => self.write("**"),
            TagEnd::Strikethrough => self.write("~~"),
            TagEnd::Superscript => self.write("^"),
            TagEnd::Subscript => self.write("~"),
            TagEnd::Link => {
                if let Some(close) = self.links.pop() {
                    self.write(&close);
                }
            }
            _ => {}
        }
    }

    fn end_code(&mut self, file: &str, depth: usize) {
        match self.code.take() {
            Some((Some(info), code)) => self.code_block(&info, &code),
            // MDX has no indented code: what pulldown-cmark read as code is content.
            Some((None, code)) if depth < MAX_NESTING => walk_mdx(self, &code, file, depth + 1),
            Some((None, code)) => self.code_block("", &code),
            None => {}
        }
    }

    fn code_block(&mut self, info: &str, code: &str) {
        let fence = "`".repeat(components::longest_run(code, '`').max(2) + 1);
        let info = info.trim().replace('`', "");
        let code = code.strip_suffix('\n').unwrap_or(code);
        self.end_block();
        // Written line by line so `write` does not escape code as text.
        let mut lines = vec![format!("{fence}{info}")];
        lines.extend(code.split('\n').map(str::to_owned));
        lines.push(fence);
        for line in lines {
            if self.suppressed.is_some() {
                return;
            }
            if self.line_start {
                self.begin_line();
            }
            self.out.push_str(&line);
            self.out.push('\n');
            self.line_start = true;
        }
        self.end_block();
    }
}

/// Marks the transparent container of `<Steps>`, whose close also ends its numbering.
const NUMBERED_MARK: &str = "\u{0}numbered";

fn transparent(name: &str) -> Container {
    Container { name: name.to_owned(), first: String::new(), rest: String::new(), started: false, tail: String::new() }
}

fn table_markdown(table: &Table) -> String {
    let width = table
        .head
        .iter()
        .chain(table.rows.iter())
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(1);
    let row = |cells: &[String]| {
        let mut line = String::from("|");
        for i in 0..width {
            line.push(' ');
            line.push_str(cells.get(i).map(String::as_str).unwrap_or(""));
            line.push_str(" |");
        }
        line
    };
    let empty = Vec::new();
    let mut lines = vec![row(table.head.as_ref().unwrap_or(&empty))];
    let mut rule = String::from("|");
    for i in 0..width {
        rule.push_str(match table.aligns.get(i) {
            Some(pulldown_cmark::Alignment::Left) => " :-- |",
            Some(pulldown_cmark::Alignment::Center) => " :-: |",
            Some(pulldown_cmark::Alignment::Right) => " --: |",
            _ => " --- |",
        });
    }
    lines.push(rule);
    lines.extend(table.rows.iter().map(|r| row(r)));
    lines.join("\n")
}

#[cfg(test)]
mod tests;
