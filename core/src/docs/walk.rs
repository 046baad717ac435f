//! The one walk over an MDX body that every reader of pages shares: search text (`sections`), the
//! static export's HTML (`export::render::markdown`) and Markdown for agents (`crate::agents::markdown`).
//!
//! Two levels. [`walk_mdx`] owns the block order (`mdx::blocks`), snippet inlining (imports, depth
//! limit, cycles) and the scan of JSX inside a line of text; a reader implements [`MdxVisitor`] and
//! sees Markdown runs, tags and expressions with snippets already in place. [`walk_markdown`] reads
//! each Markdown run for its visitors, text (`sections`), HTML (`export::render::markdown`) and Markdown
//! (`agents::markdown`), through [`MarkdownVisitor`]: it parses with the shared options, re-reads
//! indented code as MDX (which has none), and names each heading (its text by the text rules of
//! `inline_text::Inline`, its anchor from the page's one slug sequence), so search results and the
//! table of contents land on the rendered ids by construction.

use std::borrow::Cow;
use std::collections::BTreeMap;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag as MdTag, TagEnd};
use serde_json::Value;

use super::archive::SourceTree;
use super::frontmatter;
use super::jsx::{self, Tag, TagKind};
use super::mdx::{split, Block, Split};
use super::scope::{self, Scope};
use super::source_text;
// The visitors read inline runs through the walk (export/render/markdown.rs, agents/markdown/).
use super::inline_text::Inline;
pub(crate) use super::inline_text::{inline_pieces, InlinePiece};
use super::slug::Slugger;
use super::snippets::{
    remote_snippet_imports, snippet_imports, snippet_path, LEGACY_SNIPPET_DIRS, MAX_SNIPPET_DEPTH,
};

/// Indented code is re-read as MDX (which has none); this bounds that recursion.
pub(crate) const MAX_NESTING: usize = 8;

/// The Markdown extensions every reader parses Markdown runs with, so all see the same structure.
pub(crate) fn markdown_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM
        | Options::ENABLE_MATH
}

/// The parser's events with the one `$` rule it lacks: inline math whose closing `$` is followed by
/// a digit is text (`$5-$10` is two prices, as Pandoc reads it). Its own rules already keep
/// `costs $5 and $10` text (a closing `$` may not follow a space); `\$` is a literal dollar.
fn with_dollar_rule<'e>(
    events: impl Iterator<Item = Event<'e>>,
) -> impl Iterator<Item = Event<'e>> {
    let mut events = events.peekable();
    std::iter::from_fn(move || {
        let event = events.next()?;
        if let Event::InlineMath(math) = &event {
            if matches!(events.peek(), Some(Event::Text(next)) if next.starts_with(|c: char| c.is_ascii_digit()))
            {
                return Some(Event::Text(format!("${math}$").into()));
            }
        }
        Some(event)
    })
}

/// Bytes of snippet text one page's walk may read and write: snippet bodies inlined, files read
/// for the values they export, and text grown by substituting values. A snippet inlining itself
/// (stopped by the cycle check) or a page repeating a snippet with a huge prop stay within it.
pub(crate) const SNIPPET_BUDGET: usize = 8 << 20;

/// What the walk keeps in each reader: the tree snippets are read from, the snippet files being
/// inlined, innermost last (to stop cycles), and what is left of [`SNIPPET_BUDGET`].
pub(crate) struct Snippets<'t> {
    tree: &'t SourceTree,
    open: Vec<String>,
    budget: usize,
}

impl<'t> Snippets<'t> {
    pub(crate) fn new(tree: &'t SourceTree) -> Self {
        Self {
            tree,
            open: Vec::new(),
            budget: SNIPPET_BUDGET,
        }
    }

    /// Takes `bytes` from the budget; `false` (and nothing taken) when it does not hold them.
    fn charge(&mut self, bytes: usize) -> bool {
        let enough = bytes <= self.budget;
        if enough {
            self.budget -= bytes;
        }
        enough
    }
}

/// A reader of MDX bodies. `'t` is the lifetime of the source tree snippets are read from.
pub(crate) trait MdxVisitor<'t> {
    fn snippets(&mut self) -> &mut Snippets<'t>;
    /// A Markdown run. Readers hand it to pulldown-cmark; indentation pulldown-cmark reads as code
    /// is content in MDX, which they re-read with [`walk_mdx`] at `depth + 1`.
    fn markdown(&mut self, md: &str, file: &str, depth: usize);
    /// A tag alone on its line(s) that is not an imported snippet.
    fn tag(&mut self, tag: &Tag<'_>);
    /// A string literal expression alone on its line(s) (`{"text"}`); other expressions carry nothing.
    fn literal(&mut self, text: &str);
    /// An authoring mistake, as `file:line: message`.
    fn warn(&mut self, _warning: String) {}
}

/// Walks `body` (frontmatter removed, line endings normalised by `source_text`); `file` is its tree
/// path, against which snippet imports resolve and whose lines warnings count.
pub(crate) fn walk_mdx<'t, V: MdxVisitor<'t> + ?Sized>(
    visitor: &mut V,
    body: &str,
    file: &str,
    depth: usize,
) {
    let first_line = visitor
        .snippets()
        .tree
        .get(file)
        .map_or(1, |raw| first_line_of(raw, body));
    walk_body(
        visitor,
        body,
        file,
        depth,
        Some(first_line),
        BTreeMap::new(),
    );
}

/// The line of its file `body` starts at, `body` being the end of the file after the frontmatter:
/// the file's line breaks less the body's (line endings are normalised one for one).
fn first_line_of(raw: &[u8], body: &str) -> usize {
    // Most files need no normalising: the body is then their tail, and only what precedes it counts.
    if !raw.contains(&b'\r') && raw.ends_with(body.as_bytes()) {
        let head = &raw[..raw.len() - body.len()];
        return head.iter().filter(|&&b| b == b'\n').count() + 1;
    }
    source_text::line_breaks(raw).saturating_sub(body.matches('\n').count()) + 1
}

/// Where in a file a warning points: `file:line`, or `file` for text that is no file's body.
struct Place<'a> {
    file: &'a str,
    /// Line of the body's start; `None` for indented code re-read.
    first_line: Option<usize>,
    body: &'a str,
    /// The last position asked about and its line, so asking in order counts each line once.
    last: (usize, usize),
}

impl<'a> Place<'a> {
    fn new(file: &'a str, first_line: Option<usize>, body: &'a str) -> Self {
        Place {
            file,
            first_line,
            body,
            last: (0, first_line.unwrap_or(1)),
        }
    }

    /// `file:line` of the byte `at` of the body (or of `part`, a slice of it).
    fn at(&mut self, at: usize) -> String {
        let Some(_) = self.first_line else {
            return self.file.to_owned();
        };
        let (from, line) = if at >= self.last.0 {
            self.last
        } else {
            (0, self.first_line.unwrap_or(1))
        };
        let line = line + self.body[from..at].matches('\n').count();
        self.last = (at, line);
        format!("{}:{line}", self.file)
    }

    fn of(&mut self, part: &str) -> String {
        let at = (part.as_ptr() as usize).wrapping_sub(self.body.as_ptr() as usize);
        self.at(if at <= self.body.len() { at } else { 0 })
    }
}

/// [`walk_mdx`] of a file's body starting at line `first_line` of the file (`None`: indented code
/// re-read, whose fences are not reported), its expressions naming its exports, its named imports
/// and `props`, the props its tag passed.
fn walk_body<'t, V: MdxVisitor<'t> + ?Sized>(
    visitor: &mut V,
    body: &str,
    file: &str,
    depth: usize,
    first_line: Option<usize>,
    props: BTreeMap<String, Value>,
) {
    let Split {
        blocks,
        open_fence,
        prose_keyword_lines,
    } = split(body);
    let mut place = Place::new(file, first_line, body);
    if first_line.is_some() {
        for at in prose_keyword_lines {
            let at = place.at(at);
            visitor.warn(format!("{at}: a line starting with `import` or `export` that is not JavaScript is read as text (MDX would read it as an import or export and fail: reword or indent it)"));
        }
    }
    if let (Some(at), Some(_)) = (open_fence, first_line) {
        let at = place.at(at);
        visitor.warn(format!("{at}: code fence opened here is never closed"));
    }
    let mut scope = Scope {
        props,
        ..Scope::default()
    };
    for block in &blocks {
        if let Block::Esm(esm) = block {
            scope.add_exports(esm);
            imported_values(visitor, esm, file, &mut scope);
        }
    }
    if scope.is_empty() {
        return walk_blocks(visitor, &blocks, file, depth, place);
    }
    let limit = visitor.snippets().budget;
    let (text, stopped) = scope::substitute(body, &scope, limit);
    if stopped {
        let at = place.at(0);
        visitor.warn(format!(
            "{at}: values not substituted past the page's {} MiB of snippet text",
            SNIPPET_BUDGET >> 20
        ));
    }
    match text {
        Cow::Borrowed(_) => walk_blocks(visitor, &blocks, file, depth, place),
        Cow::Owned(text) => {
            visitor
                .snippets()
                .charge(text.len().saturating_sub(body.len()));
            let blocks = split(&text).blocks;
            walk_blocks(
                visitor,
                &blocks,
                file,
                depth,
                Place::new(file, first_line, &text),
            );
        }
    }
}

/// Adds to `scope` the values the ESM block `esm` of `file` imports by name from `.mdx` snippets.
/// A missing file is no warning: a named import is most often a component (`import { Widget }`),
/// which the walk does not render either way.
fn imported_values<'t, V: MdxVisitor<'t> + ?Sized>(
    visitor: &mut V,
    esm: &str,
    file: &str,
    scope: &mut Scope,
) {
    let mut read: BTreeMap<String, Vec<(String, Value)>> = BTreeMap::new();
    for (local, exported, source) in scope::named_imports(esm) {
        let Some(path) = snippet_path(file, &source) else {
            continue;
        };
        if !read.contains_key(&path) {
            let tree = visitor.snippets().tree;
            let exports = match tree.get(&path) {
                Some(bytes) if visitor.snippets().charge(bytes.len()) => exports_of(bytes),
                _ => Vec::new(),
            };
            read.insert(path.clone(), exports);
        }
        if let Some((_, value)) = read[&path].iter().find(|(name, _)| *name == exported) {
            scope.values.insert(local, value.clone());
        }
    }
}

/// The `export const` values of an MDX file.
fn exports_of(bytes: &[u8]) -> Vec<(String, Value)> {
    let source = source_text::read(bytes);
    let (_, body) = frontmatter::split(&source);
    split(body)
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Esm(esm) => Some(scope::exports(esm)),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The blocks of a body, snippets inlined where their tags stand.
fn walk_blocks<'t, V: MdxVisitor<'t> + ?Sized>(
    visitor: &mut V,
    blocks: &[Block<'_>],
    file: &str,
    depth: usize,
    mut place: Place<'_>,
) {
    let imports = snippet_imports(blocks, file);
    let remote = remote_snippet_imports(blocks);
    for block in blocks {
        match block {
            Block::Markdown(md) => visitor.markdown(md, file, depth),
            Block::Tag(tag) => {
                let target = match imports.get(tag.name) {
                    Some(path) => Some(Ok(path.clone())),
                    None => legacy_snippet(visitor.snippets().tree, tag),
                };
                match target {
                    Some(_) if tag.kind == TagKind::Close => {}
                    Some(Ok(path)) => {
                        let at = place.of(tag.name);
                        snippet(visitor, &path, tag, depth, &at);
                    }
                    Some(Err(name)) => {
                        let at = place.of(tag.name);
                        visitor.warn(format!("{at}: snippet `{name}` is missing (looked in _snippets/ and snippets/)"));
                    }
                    None => match remote.get(tag.name) {
                        Some(_) if tag.kind == TagKind::Close => {}
                        Some(address) => {
                            let at = place.of(tag.name);
                            visitor.warn(format!("{at}: snippet `{address}` is imported from an address and not read (snippets are files of the docs folder)"));
                        }
                        None => visitor.tag(tag),
                    },
                }
            }
            Block::Expression(expr) => {
                if let Some(text) = jsx::string_literal(expr) {
                    visitor.literal(text);
                }
            }
            Block::Esm(_) => {}
        }
    }
}

/// The file a legacy `<Snippet file="name.mdx" />` inlines: `_snippets/name.mdx` (where Mintlify
/// kept snippets before `snippets/`), else `snippets/name.mdx`; `Err(name)` when neither exists.
fn legacy_snippet(tree: &SourceTree, tag: &Tag<'_>) -> Option<Result<String, String>> {
    if tag.name != "Snippet" {
        return None;
    }
    let name = tag.text_attr("file")?.trim().trim_start_matches('/');
    let found = LEGACY_SNIPPET_DIRS
        .iter()
        .map(|dir| format!("{dir}{name}"))
        .find(|path| tree.contains_key(path));
    Some(found.ok_or_else(|| name.to_owned()))
}

/// Inlines the `.mdx` snippet `path` where its tag stands (`at`: the tag's `file:line`), with the
/// tag's attributes as its props.
fn snippet<'t, V: MdxVisitor<'t> + ?Sized>(
    visitor: &mut V,
    path: &str,
    tag: &Tag<'_>,
    depth: usize,
    at: &str,
) {
    if depth >= MAX_SNIPPET_DEPTH || visitor.snippets().open.iter().any(|p| p == path) {
        visitor.warn(format!(
            "{at}: snippet `{path}` not inlined (nested too deep or cyclic)"
        ));
        return;
    }
    let tree = visitor.snippets().tree;
    let Some(bytes) = tree.get(path) else {
        visitor.warn(format!("{at}: imported snippet `{path}` is missing"));
        return;
    };
    if std::str::from_utf8(bytes).is_err() {
        visitor.warn(format!("{at}: snippet `{path}` is not valid UTF-8"));
        return;
    }
    if !visitor.snippets().charge(bytes.len()) {
        visitor.warn(format!(
            "{at}: snippet `{path}` not inlined: the page's snippets passed {} MiB",
            SNIPPET_BUDGET >> 20
        ));
        return;
    }
    let source = source_text::read(bytes);
    let (_, body) = frontmatter::split(&source);
    let first_line = source[..source.len() - body.len()].matches('\n').count() + 1;
    let mut props = Scope::props_of(tag);
    if tag.name == "Snippet" {
        props.remove("file");
    }
    visitor.snippets().open.push(path.to_owned());
    walk_body(visitor, body, path, depth + 1, Some(first_line), props);
    visitor.snippets().open.pop();
}

/// A heading of a Markdown run, named once for every visitor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Heading {
    pub(crate) level: u8,
    /// Its text without markup or JSX; may be empty.
    pub(crate) text: String,
    /// The page-unique slug of `text`; `None` when the text is empty or the visitor keeps no slugs.
    pub(crate) anchor: Option<String>,
    /// Visible attribute texts of inline tags in it (`<Tooltip tip="…">`).
    pub(crate) extra: Vec<String>,
}

/// A reader of Markdown runs through [`walk_markdown`]. `Run` is its state for one run (runs nest:
/// indented code re-read as MDX holds runs of its own).
pub(crate) trait MarkdownVisitor<'t>: MdxVisitor<'t> {
    type Run;
    fn start_run(&mut self) -> Self::Run;
    /// Every pulldown-cmark event except a heading's end (see `heading`) and the text and end of a
    /// code block (see `code_block`); a code block's start comes here.
    fn event(&mut self, run: &mut Self::Run, event: Event<'_>);
    /// In place of a heading's end.
    fn heading(&mut self, run: &mut Self::Run, heading: Heading);
    /// A code block at its end: fenced (`info` its info string), or indented past [`MAX_NESTING`]
    /// (`info` empty). Indented code within the limit is re-read as MDX instead.
    fn code_block(&mut self, run: &mut Self::Run, info: &str, code: &str);
    fn end_run(&mut self, run: Self::Run);
    /// The page's heading slugs, shared by every run and snippet of the page; `None` for a visitor
    /// that writes no anchors (its headings have none).
    fn slugs(&mut self) -> Option<&mut Slugger>;
}

/// Two readers fed by one walk (one block scan and one Markdown parse for both), each seeing exactly
/// the calls it would see walking alone. Holds for readers whose `markdown` is [`walk_markdown`] on
/// themselves, as every reader's is: the pair walks the run once for both.
pub(crate) struct Pair<'t, A, B> {
    pub(crate) first: A,
    pub(crate) second: B,
    snippets: Snippets<'t>,
}

impl<'t, A, B> Pair<'t, A, B> {
    pub(crate) fn new(first: A, second: B, tree: &'t SourceTree) -> Self {
        Self {
            first,
            second,
            snippets: Snippets::new(tree),
        }
    }
}

impl<'t, A: MarkdownVisitor<'t>, B: MarkdownVisitor<'t>> MdxVisitor<'t> for Pair<'t, A, B> {
    fn snippets(&mut self) -> &mut Snippets<'t> {
        &mut self.snippets
    }

    fn markdown(&mut self, md: &str, file: &str, depth: usize) {
        walk_markdown(self, md, file, depth);
    }

    fn tag(&mut self, tag: &Tag<'_>) {
        self.first.tag(tag);
        self.second.tag(tag);
    }

    fn literal(&mut self, text: &str) {
        self.first.literal(text);
        self.second.literal(text);
    }

    fn warn(&mut self, warning: String) {
        self.first.warn(warning.clone());
        self.second.warn(warning);
    }
}

impl<'t, A: MarkdownVisitor<'t>, B: MarkdownVisitor<'t>> MarkdownVisitor<'t> for Pair<'t, A, B> {
    type Run = (A::Run, B::Run);

    fn start_run(&mut self) -> Self::Run {
        (self.first.start_run(), self.second.start_run())
    }

    fn event(&mut self, run: &mut Self::Run, event: Event<'_>) {
        self.first.event(&mut run.0, event.clone());
        self.second.event(&mut run.1, event);
    }

    /// `heading.anchor` is the first reader's (see `slugs`); the second names it by its own slugs.
    fn heading(&mut self, run: &mut Self::Run, heading: Heading) {
        let anchor = match self.second.slugs() {
            Some(slugs) if !heading.text.is_empty() => Some(slugs.slug(&heading.text)),
            _ => None,
        };
        let second = Heading {
            anchor,
            ..heading.clone()
        };
        self.first.heading(&mut run.0, heading);
        self.second.heading(&mut run.1, second);
    }

    fn code_block(&mut self, run: &mut Self::Run, info: &str, code: &str) {
        self.first.code_block(&mut run.0, info, code);
        self.second.code_block(&mut run.1, info, code);
    }

    fn end_run(&mut self, run: Self::Run) {
        self.first.end_run(run.0);
        self.second.end_run(run.1);
    }

    fn slugs(&mut self) -> Option<&mut Slugger> {
        self.first.slugs()
    }
}

/// Reads one Markdown run of the MDX file `file` at snippet and re-read `depth`.
pub(crate) fn walk_markdown<'t, V: MarkdownVisitor<'t>>(
    visitor: &mut V,
    md: &str,
    file: &str,
    depth: usize,
) {
    let mut run = visitor.start_run();
    // A code block's info string (`None` when indented) and text so far.
    let mut code: Option<(Option<String>, String)> = None;
    let mut heading: Option<Inline> = None;
    for event in with_dollar_rule(Parser::new_ext(md, markdown_options())) {
        if let Some((info, text)) = &mut code {
            match event {
                Event::Text(chunk) => text.push_str(&chunk),
                Event::End(TagEnd::CodeBlock) => {
                    let (info, text) = (info.take(), std::mem::take(text));
                    code = None;
                    match info {
                        Some(info) => visitor.code_block(&mut run, &info, &text),
                        // MDX has no indented code: indentation pulldown-cmark read as code is content.
                        None if depth < MAX_NESTING => {
                            walk_body(visitor, &text, file, depth + 1, None, BTreeMap::new())
                        }
                        None => visitor.code_block(&mut run, "", &text),
                    }
                }
                _ => {}
            }
            continue;
        }
        match &event {
            Event::Start(MdTag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => Some(info.to_string()),
                    CodeBlockKind::Indented => None,
                };
                code = Some((info, String::new()));
            }
            Event::Start(MdTag::Heading { .. }) => heading = Some(Inline::default()),
            Event::End(TagEnd::Heading(level)) => {
                let (text, extra) = heading
                    .take()
                    .map(|mut inline| inline.take())
                    .unwrap_or_default();
                let anchor = if text.is_empty() {
                    None
                } else {
                    visitor.slugs().map(|slugs| slugs.slug(&text))
                };
                visitor.heading(
                    &mut run,
                    Heading {
                        level: *level as u8,
                        text,
                        anchor,
                        extra,
                    },
                );
                continue;
            }
            _ => {
                if let Some(inline) = &mut heading {
                    heading_text(inline, &event);
                }
            }
        }
        visitor.event(&mut run, event);
    }
    visitor.end_run(run);
}

/// What of an event inside a heading is the heading's text.
fn heading_text(inline: &mut Inline, event: &Event<'_>) {
    match event {
        Event::Text(text)
        | Event::Html(text)
        | Event::InlineHtml(text)
        | Event::InlineMath(text) => inline.raw.push_str(text),
        Event::Code(text) => inline.code(text),
        Event::SoftBreak | Event::HardBreak => inline.raw.push(' '),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;

    struct Log<'t> {
        snippets: Snippets<'t>,
        seen: Vec<String>,
    }

    impl<'t> MdxVisitor<'t> for Log<'t> {
        fn snippets(&mut self) -> &mut Snippets<'t> {
            &mut self.snippets
        }
        fn markdown(&mut self, md: &str, file: &str, _depth: usize) {
            self.seen.push(format!("md {file}: {}", md.trim()));
        }
        fn tag(&mut self, tag: &Tag<'_>) {
            self.seen.push(format!("tag {} {:?}", tag.name, tag.kind));
        }
        fn literal(&mut self, text: &str) {
            self.seen.push(format!("literal {text}"));
        }
        fn warn(&mut self, warning: String) {
            self.seen.push(format!("warn {warning}"));
        }
    }

    #[test]
    fn snippets_are_walked_in_place_and_cycles_stop() {
        let t = tree(&[
            ("s/a.mdx", "import A from '/s/a.mdx'\n\nIn A\n\n<A />\n"),
            ("p.mdx", "unused"),
        ]);
        let mut log = Log {
            snippets: Snippets::new(&t),
            seen: Vec::new(),
        };
        let body = "import A from '/s/a.mdx'\nimport B from '/s/b.mdx'\n\n<Note>\n{\"lit\"}\n<A />\n<B />\n</Note>\n";
        walk_mdx(&mut log, body, "p.mdx", 0);
        assert_eq!(
            log.seen,
            [
                "tag Note Open",
                "literal lit",
                "md s/a.mdx: In A",
                "warn s/a.mdx:5: snippet `s/a.mdx` not inlined (nested too deep or cyclic)",
                "warn p.mdx:7: imported snippet `s/b.mdx` is missing",
                "tag Note Close",
            ]
        );
        assert!(log.snippets.open.is_empty());
    }

    #[test]
    fn inline_pieces_split_text_tags_and_literals() {
        let mut pieces = Vec::new();
        inline_pieces("a <b>x</b> {\"y\"}{z} <!-- c --> < d", |p| pieces.push(p));
        let names: Vec<String> = pieces
            .iter()
            .map(|p| match p {
                InlinePiece::Text(t) => format!("t:{t}"),
                InlinePiece::Tag(tag) => format!("<{}:{:?}>", tag.name, tag.kind),
                InlinePiece::Literal(l) => format!("l:{l}"),
            })
            .collect();
        assert_eq!(
            names,
            [
                "t:a ",
                "<b:Open>",
                "t:x",
                "<b:Close>",
                "t: ",
                "l:y",
                "t: ",
                "t: ",
                "t:<",
                "t: d"
            ]
        );
    }
}
