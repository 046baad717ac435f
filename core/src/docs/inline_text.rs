//! The text of inline content, shared by the walk and its text reader (`sections`): a run of
//! Markdown text split into text, JSX tags and literals ([`inline_pieces`]), and [`Inline`], a
//! block's inline content read as text: tags stripped, the attributes that show text kept apart, a
//! callout set apart. The walk names headings with it; `sections` reads every block with it.

use super::jsx::{self, is_callout, Tag, TagKind};

/// Attributes whose value is visible text on the rendered page (card titles, field names, ...).
pub(crate) const TEXT_ATTRS: [&str; 8] = [
    "title",
    "label",
    "name",
    "description",
    "caption",
    "tip",
    "headline",
    "hint",
];
/// What starts each line of a callout's text (`<Note>`, `<Warning>` …) in the section text.
pub(crate) const CALLOUT_MARK: &str = "> ";
/// `ParamField` names its parameter by where it goes: `<ParamField body="email">`.
pub(crate) const PARAM_ATTRS: [&str; 4] = ["path", "query", "body", "header"];

/// A piece of a line of text that may hold JSX.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum InlinePiece<'a> {
    /// Plain text, as written.
    Text(&'a str),
    /// A JSX or HTML tag inside the line.
    Tag(Tag<'a>),
    /// The text of a string literal expression (`{"x"}`).
    Literal(&'a str),
}

/// Splits a completed run of inline text into text, tags and literals; HTML comments and other
/// expressions are dropped, and a `<` or `{` that opens nothing is text.
pub(crate) fn inline_pieces<'a>(raw: &'a str, mut each: impl FnMut(InlinePiece<'a>)) {
    let mut budget = jsx::ScanBudget::for_text(raw);
    let mut rest = raw;
    // A byte search: `str::find` with a set of chars decodes every character.
    while let Some(at) = rest.bytes().position(|b| matches!(b, b'<' | b'{')) {
        if at > 0 {
            each(InlinePiece::Text(&rest[..at]));
        }
        rest = &rest[at..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
        } else if let Some((tag, len)) = rest
            .starts_with('<')
            .then(|| jsx::scan_tag_within(rest, &mut budget))
            .flatten()
        {
            each(InlinePiece::Tag(tag));
            rest = &rest[len..];
        } else if let Some((expr, len)) = rest
            .starts_with('{')
            .then(|| jsx::scan_expression_within(rest, &mut budget))
            .flatten()
        {
            if let Some(text) = jsx::string_literal(expr) {
                each(InlinePiece::Literal(text));
            }
            rest = &rest[len..];
        } else {
            each(InlinePiece::Text(&rest[..1]));
            rest = &rest[1..];
        }
    }
    if !rest.is_empty() {
        each(InlinePiece::Text(rest));
    }
}

/// Inline content of the block being read. Markdown text and inline JSX arrive in pieces (text,
/// inline HTML, breaks), so JSX is stripped once the block is complete; code spans are kept apart
/// because their `<Card>` is literal text. The walk names every visitor's headings with it.
#[derive(Default)]
pub(crate) struct Inline {
    pub(crate) raw: String,
    done: String,
    /// Texts of attributes on inline tags, added after the block.
    extra: Vec<String>,
}

impl Inline {
    /// A block's inline content read whole (an HTML block).
    pub(crate) fn of(raw: String) -> Inline {
        Inline {
            raw,
            ..Inline::default()
        }
    }

    pub(crate) fn code(&mut self, text: &str) {
        strip_jsx(
            &std::mem::take(&mut self.raw),
            &mut self.done,
            &mut self.extra,
        );
        self.done.push_str(text);
    }

    pub(crate) fn take(&mut self) -> (String, Vec<String>) {
        strip_jsx(
            &std::mem::take(&mut self.raw),
            &mut self.done,
            &mut self.extra,
        );
        let text = std::mem::take(&mut self.done).trim().to_owned();
        (text, std::mem::take(&mut self.extra))
    }
}

/// An HTML table's rows read as Markdown table lines (`| Free | 2 | 50,000 |`, the header row
/// followed by its `| --- |` line), so the text keeps it a table as it keeps a Markdown one:
/// search reads the words either way, the assistant quotes the row a question asks about.
#[derive(Default)]
struct HtmlTable {
    /// Cells opened in the row being read; `None` outside a row.
    cells: Option<usize>,
    /// The row being read has header cells.
    header: bool,
    /// A header row was written: later header cells are a body row's.
    headed: bool,
}

impl HtmlTable {
    /// Writes what the tag means to a table; `true` when it was a table tag.
    fn tag(&mut self, tag: &Tag, out: &mut String) -> bool {
        let name = tag.name.to_ascii_lowercase();
        match (name.as_str(), tag.kind) {
            ("tr", TagKind::Open) => {
                self.cells = Some(0);
                self.header = false;
                out.push_str("\n|");
            }
            ("tr", TagKind::Close) if self.cells.is_some() => {
                let cells = self.cells.take().unwrap_or(0);
                out.push('\n');
                if self.header && !self.headed {
                    self.headed = true;
                    out.push('|');
                    out.push_str(&" --- |".repeat(cells.max(1)));
                    out.push('\n');
                }
            }
            ("td" | "th", TagKind::Open) if self.cells.is_some() => {
                self.cells = self.cells.map(|n| n + 1);
                self.header |= name == "th";
            }
            ("td" | "th", TagKind::Close) if self.cells.is_some() => out.push_str(" |"),
            // A row's tags on lines of their own: each cell ends a line, which the section reader
            // takes for a cell of the row it has open.
            ("td" | "th", TagKind::Close) => out.push('\n'),
            ("table", _) => *self = HtmlTable::default(),
            _ => return false,
        }
        true
    }

    /// Text inside a row stays on the row's line (the source's line breaks between cells).
    fn text(&self, text: &str, out: &mut String) {
        match self.cells {
            Some(_) => {
                out.push(' ');
                out.extend(text.chars().map(|c| if c == '\n' { ' ' } else { c }));
            }
            None => out.push_str(text),
        }
    }
}

/// Copies `raw` to `out` without JSX tags, expressions and HTML comments.
fn strip_jsx(raw: &str, out: &mut String, extra: &mut Vec<String>) {
    let mut table = HtmlTable::default();
    inline_pieces(raw, |piece| match piece {
        InlinePiece::Text(text) | InlinePiece::Literal(text) => table.text(text, out),
        InlinePiece::Tag(tag) if table.tag(&tag, out) => {}
        InlinePiece::Tag(tag) => {
            // A line break or a block element (`<h1>`, `<p>`, `<div>`) ends a line: an HTML hero's
            // eyebrow, title and subtitle are three lines, not one run-on sentence.
            if breaks_line(tag.name) {
                // Within a table's row a cell's paragraphs and breaks stay on the row's line.
                out.push(if table.cells.is_some() { ' ' } else { '\n' });
            }
            // A callout written on one line (`<Note>Text.</Note>`) is an aside like a block one.
            if is_callout(tag.name) {
                match tag.kind {
                    TagKind::Open => {
                        out.push('\n');
                        out.push_str(CALLOUT_MARK);
                    }
                    TagKind::Close => out.push('\n'),
                    TagKind::SelfClosing => {}
                }
            }
            if tag.kind != TagKind::Close {
                extra.extend(tag_texts(&tag).map(str::to_owned));
            }
        }
    });
}

fn breaks_line(name: &str) -> bool {
    const BLOCK: [&str; 12] = [
        "br",
        "p",
        "div",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "li",
        "tr",
        "blockquote",
    ];
    BLOCK.iter().any(|b| name.eq_ignore_ascii_case(b))
}

pub(crate) fn tag_texts<'a>(tag: &'a Tag<'a>) -> impl Iterator<Item = &'a str> + 'a {
    let param = tag.name == "ParamField";
    tag.attrs
        .iter()
        .filter(move |a| TEXT_ATTRS.contains(&a.name) || (param && PARAM_ATTRS.contains(&a.name)))
        .filter_map(|a| tag.text_attr(a.name))
        .filter(|text| !text.trim().is_empty())
}
