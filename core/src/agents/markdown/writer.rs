//! The Markdown being written: the output, the open containers (each a line prefix), inline markup,
//! dropped content, and the MDX visitor's side (components as blocks and inline markup). Its
//! Markdown visitor's side, pulldown-cmark's events, is `events`.

use crate::docs::jsx::{Tag, TagKind};
use crate::docs::walk::{inline_pieces, walk_markdown, InlinePiece, MdxVisitor, Snippets};
use crate::docs::SourceTree;

use super::components::{self, BlockShape, InlineShape, Urls};
use super::escape;
use super::table::Table;

/// A block open around the content being written.
pub(super) struct Container {
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
pub(super) struct Suppressed {
    name: String,
    len: usize,
    line_start: bool,
}

pub(super) struct Writer<'t, 'u> {
    pub(super) urls: &'u dyn Urls,
    snippets: Snippets<'t>,
    pub(super) out: String,
    pub(super) containers: Vec<Container>,
    /// Next number of each open numbered list (`None` for bullets), innermost last.
    pub(super) numbering: Vec<Option<u64>>,
    pub(super) line_start: bool,
    blank_before_next: bool,
    pub(super) pending: String,
    inline: Vec<OpenInline>,
    pub(super) suppressed: Option<Suppressed>,
    /// Closes of block components met inside a paragraph: applied when the Markdown run ends.
    pub(super) deferred: Vec<String>,
    pub(super) heading: bool,
    /// Container depth at the current Markdown run's own level.
    pub(super) run_base: usize,
    pub(super) image: Option<(String, String)>,
    pub(super) links: Vec<String>,
    pub(super) table: Option<Table>,
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
    pub(super) fn new(tree: &'t SourceTree, urls: &'u dyn Urls) -> Self {
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

    pub(super) fn finish(mut self) -> String {
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
    pub(super) fn write(&mut self, text: &str) {
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

    pub(super) fn begin_line(&mut self) {
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
    pub(super) fn end_block(&mut self) {
        if self.suppressed.is_some() {
            return;
        }
        if !self.line_start {
            self.out.push('\n');
            self.line_start = true;
        }
        self.blank_before_next = true;
    }

    pub(super) fn paragraph(&mut self, markdown: &str) {
        if markdown.trim().is_empty() {
            return;
        }
        self.end_block();
        self.write(markdown);
        self.end_block();
    }

    pub(super) fn push_container(&mut self, name: &str, first: String, rest: String, tail: String) {
        self.end_block();
        self.containers.push(Container {
            tail,
            first,
            rest,
            ..transparent(name)
        });
    }

    pub(super) fn close_container(&mut self, container: Container) {
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

    pub(super) fn close_component(&mut self, name: &str) {
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
    pub(super) fn flush_text(&mut self) {
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
    pub(super) fn close_inline(&mut self) {
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
