//! Markdown runs, as the Markdown visitor of `docs::walk`: pulldown-cmark's events written back as
//! Markdown (links and images through the caller's URL rules, inline JSX resolved; the walk re-reads
//! indented code as MDX), with tables and fenced code, which need their whole content before they
//! are written.

use pulldown_cmark::{Event, LinkType, Tag as MdTag, TagEnd};

use crate::docs::slug::Slugger;
use crate::docs::walk::{Heading, MarkdownVisitor};

use super::components::{self, code_span, destination};
use super::table::{table_markdown, Table};
use super::writer::Writer;

/// The container depth a run began at, and the enclosing run's, restored at its end.
pub(super) struct RunBase {
    base: usize,
    outer: usize,
}

impl<'t> MarkdownVisitor<'t> for Writer<'t, '_> {
    type Run = RunBase;

    fn start_run(&mut self) -> RunBase {
        let base = self.containers.len();
        RunBase {
            base,
            outer: std::mem::replace(&mut self.run_base, base),
        }
    }

    fn event(&mut self, _run: &mut RunBase, event: Event<'_>) {
        self.write_event(event);
    }

    fn heading(&mut self, _run: &mut RunBase, _heading: Heading) {
        self.flush_text();
        self.close_inline();
        self.heading = false;
        self.end_block();
        self.close_deferred_at_run_level();
    }

    fn code_block(&mut self, _run: &mut RunBase, info: &str, code: &str) {
        self.write_code_block(info, code);
    }

    fn end_run(&mut self, run: RunBase) {
        let base = run.base;
        self.run_base = run.outer;
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

    fn slugs(&mut self) -> Option<&mut Slugger> {
        None
    }
}

impl Writer<'_, '_> {
    fn write_event(&mut self, event: Event<'_>) {
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
        match event {
            Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => {
                self.pending.push_str(&text)
            }
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
                self.close_deferred_at_run_level();
            }
        }
    }

    /// Components closed inside a paragraph close once the run is back at its own level.
    fn close_deferred_at_run_level(&mut self) {
        if self.containers.len() == self.run_base && !self.deferred.is_empty() {
            for name in std::mem::take(&mut self.deferred) {
                self.close_component(&name);
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
                self.table = Some(Table {
                    head: None,
                    aligns,
                    rows: Vec::new(),
                    row: Vec::new(),
                    saved: None,
                });
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
            MdTag::Link {
                link_type,
                dest_url,
                ..
            } => {
                let href = if link_type == LinkType::Email && !dest_url.starts_with("mailto:") {
                    format!("mailto:{dest_url}")
                } else {
                    self.urls.href(&dest_url)
                };
                self.write("[");
                self.links.push(format!("]({})", destination(&href)));
            }
            MdTag::Image { dest_url, .. } => {
                self.image = Some((dest_url.into_string(), String::new()))
            }
            _ => {}
        }
    }

    fn end(&mut self, end: TagEnd) {
        match end {
            TagEnd::Paragraph | TagEnd::HtmlBlock => {
                self.close_inline();
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

    fn write_code_block(&mut self, info: &str, code: &str) {
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
