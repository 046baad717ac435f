//! MDX body (frontmatter removed) -> a flat stream of blocks: Markdown runs, JSX tags that stand on
//! their own lines, `{…}` expressions and `import`/`export` statements.
//!
//! This is the one place that knows MDX's block rules; text extraction (`sections`) and a later HTML
//! renderer both walk the same stream and hand the Markdown runs to pulldown-cmark. The scan only
//! tracks fenced code (so nothing inside a fence is taken for JSX or ESM); all other Markdown
//! structure is left to pulldown-cmark.

use std::borrow::Cow;

use super::jsx::{self, Tag};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block<'a> {
    /// Markdown for pulldown-cmark: dedented, and with a leading `<` escaped on lines that would
    /// otherwise open a CommonMark HTML block (MDX has none: such a line is a paragraph holding
    /// inline JSX, which then arrives as text or inline HTML).
    Markdown(Cow<'a, str>),
    /// A tag alone on its line(s) (`<Note>`, `</Note>`, `<Card title="x" />`).
    Tag(Tag<'a>),
    /// A `{…}` expression alone on its line(s), braces removed.
    Expression(&'a str),
    /// An `import`/`export` statement block, verbatim.
    Esm(&'a str),
}

/// Splits an MDX body into blocks.
pub fn blocks(body: &str) -> Vec<Block<'_>> {
    split(body).blocks
}

/// A body read into blocks, with what its author may not have meant.
pub struct Split<'a> {
    pub blocks: Vec<Block<'a>>,
    /// The byte offset of the line opening a code fence that is never closed (it then runs to the
    /// end of the body, as CommonMark reads it: the text stays, as code).
    pub open_fence: Option<usize>,
    /// Byte offsets of lines that start with `import ` or `export ` but are no JavaScript ("export
    /// the site as …"): MDX reads such a line as an ESM statement and fails; they are kept as text.
    pub prose_keyword_lines: Vec<usize>,
}

/// [`blocks`], with the [`Split`]'s findings.
pub fn split(body: &str) -> Split<'_> {
    let mut prose_keyword_lines = Vec::new();
    let mut scans = jsx::ScanBudget::for_text(body);
    let mut esm_budget = EsmBudget::for_text(body);
    let mut out = Vec::new();
    let mut run_start: Option<usize> = None;
    let mut fence: Option<(Fence, usize)> = None;
    // What the math scans learnt, so that a body of unclosed openers is still read once.
    let (mut math_scan, mut latex_close) = (MathScan::default(), CloseScan::default());
    let mut pos = 0;
    while pos < body.len() {
        let line_end = body[pos..].find('\n').map_or(body.len(), |i| pos + i + 1);
        let line = &body[pos..line_end];
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();

        if let Some((open, _)) = fence {
            if open.is_closed_by(trimmed) {
                fence = None;
            }
            pos = line_end;
            continue;
        }
        if let Some(open) = Fence::open(trimmed) {
            fence = Some((open, pos));
            run_start.get_or_insert(pos);
            pos = line_end;
            continue;
        }
        if indent == 0 && is_esm_start(line) {
            flush_run(body, &mut run_start, pos, &mut out);
            let end = esm_end(body, pos, &mut esm_budget);
            out.push(Block::Esm(&body[pos..end]));
            pos = end;
            continue;
        }
        if indent == 0 && starts_with_esm_keyword(line) {
            prose_keyword_lines.push(pos);
        }
        if let Some(end) = math_block_end(body, pos, trimmed, &mut math_scan) {
            // `$$` lines: the LaTeX between is the run's text, never JSX or an expression.
            run_start.get_or_insert(pos);
            pos = end;
            continue;
        }
        if let Some((latex, end)) = latex_block(body, pos + indent, &mut latex_close) {
            flush_run(body, &mut run_start, pos, &mut out);
            out.push(Block::Markdown(Cow::Owned(format!(
                "$$\n{}\n$$\n",
                latex_source(latex)
            ))));
            pos = end;
            continue;
        }
        if trimmed.starts_with(['<', '{']) {
            if let Some((items, end)) = flow_items(body, pos + indent, &mut scans) {
                flush_run(body, &mut run_start, pos, &mut out);
                out.extend(items);
                pos = end;
                continue;
            }
        }
        run_start.get_or_insert(pos);
        pos = line_end;
    }
    flush_run(body, &mut run_start, body.len(), &mut out);
    Split {
        blocks: out,
        open_fence: fence.map(|(_, at)| at),
        prose_keyword_lines,
    }
}

/// Where an earlier `$$` opener's scan found no closing line: openers before it have none either.
#[derive(Default)]
struct MathScan {
    unclosed_until: usize,
}

/// A display math block: a line opening with `$$` (and no other `$`) up to a line of `$$`, with no
/// blank line between (as the Markdown parser reads display math, a paragraph at most). Returns the
/// position after the closing line; `None` for anything else, whose `$$` stays text.
fn math_block_end(body: &str, pos: usize, trimmed: &str, scan: &mut MathScan) -> Option<usize> {
    let after = trimmed.strip_prefix("$$")?;
    if after.contains('$') || pos < scan.unclosed_until {
        return None;
    }
    let mut at = pos + body[pos..].find('\n')? + 1;
    while at < body.len() {
        let end = body[at..].find('\n').map_or(body.len(), |i| at + i + 1);
        let line = body[at..end].trim();
        if line.is_empty() {
            break;
        }
        if line.starts_with("$$") && line.trim_start_matches('$').is_empty() {
            return Some(end);
        }
        at = end;
    }
    scan.unclosed_until = at;
    None
}

/// The first `</Latex>` at or after some position, remembered (`None`: there is none after `from`).
#[derive(Default)]
struct CloseScan {
    from: usize,
    found: Option<Option<usize>>,
}

/// `<Latex>…</Latex>` filling its line(s) from `at` (no blank line inside): its LaTeX as written
/// and the position after its last line. Inside, `{…}` is LaTeX grouping, not an expression.
fn latex_block<'a>(body: &'a str, at: usize, close: &mut CloseScan) -> Option<(&'a str, usize)> {
    const OPEN: &str = "<Latex>";
    const CLOSE: &str = "</Latex>";
    if !body[at..].starts_with(OPEN) {
        return None;
    }
    let inner_start = at + OPEN.len();
    let cached = close
        .found
        .filter(|found| close.from <= inner_start && found.is_none_or(|c| c >= inner_start));
    let close_at = match cached {
        Some(found) => found?,
        None => {
            let found = body[inner_start..].find(CLOSE).map(|i| inner_start + i);
            *close = CloseScan {
                from: inner_start,
                found: Some(found),
            };
            found?
        }
    };
    let inner = &body[inner_start..close_at];
    let after = close_at + CLOSE.len();
    let line_end = body[after..]
        .find('\n')
        .map_or(body.len(), |i| after + i + 1);
    let blank_inside = inner.split('\n').skip(1).any(|line| line.trim().is_empty());
    (body[after..line_end].trim().is_empty() && !blank_inside).then_some((inner, line_end))
}

/// The LaTeX of a `<Latex>` element's children: a string literal (`{"\\frac{a}{b}"}`) unwrapped and
/// its `\\` read as `\`, else the text as written.
pub(crate) fn latex_source(inner: &str) -> Cow<'_, str> {
    let trimmed = inner.trim();
    let literal = trimmed
        .strip_prefix('{')
        .and_then(|e| e.strip_suffix('}'))
        .and_then(jsx::string_literal);
    match literal {
        Some(text) if text.contains("\\\\") => Cow::Owned(text.replace("\\\\", "\\")),
        Some(text) => Cow::Borrowed(text),
        None => Cow::Borrowed(trimmed),
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Fence {
    marker: u8,
    len: usize,
}

impl Fence {
    /// Any indentation opens a fence: MDX has no indented code, and fences inside components are
    /// routinely indented four spaces or more.
    pub(crate) fn open(trimmed: &str) -> Option<Self> {
        let marker = *trimmed.as_bytes().first()?;
        if marker != b'`' && marker != b'~' {
            return None;
        }
        let len = trimmed.bytes().take_while(|&c| c == marker).count();
        if len < 3 || (marker == b'`' && trimmed[len..].contains('`')) {
            return None;
        }
        Some(Self { marker, len })
    }

    pub(crate) fn is_closed_by(self, trimmed: &str) -> bool {
        let len = trimmed.bytes().take_while(|&c| c == self.marker).count();
        len >= self.len && trimmed[len..].trim().is_empty()
    }
}

/// `import` or `export` followed by a space or a bracket: what MDX takes for the start of ESM.
fn starts_with_esm_keyword(line: &str) -> bool {
    ["import", "export"].iter().any(|kw| {
        line.strip_prefix(kw)
            .is_some_and(|rest| rest.starts_with([' ', '\t', '{', '*']))
    })
}

/// A line that opens an ESM statement: `import` of a binding, a list, a namespace or a module
/// (`import X from`, `import {`, `import * as`, `import "m"`, `import type`), or `export` of a
/// declaration, a default or a list. Other lines starting with the keyword are prose.
fn is_esm_start(line: &str) -> bool {
    const EXPORTED: [&str; 10] = [
        "const",
        "let",
        "var",
        "function",
        "async",
        "class",
        "default",
        "type",
        "interface",
        "enum",
    ];
    let word_then = |rest: &str, words: &[&str]| {
        words.iter().any(|w| {
            rest.strip_prefix(w).is_some_and(|after| {
                after.is_empty()
                    || after.starts_with(|c: char| !c.is_alphanumeric() && c != '_' && c != '$')
            })
        })
    };
    if let Some(rest) = line.strip_prefix("export") {
        if rest.starts_with(['{', '*']) {
            return true;
        }
        let rest = rest.trim_start_matches([' ', '\t']);
        return rest.len() < line.len() - "export".len()
            && (rest.starts_with(['{', '*']) || word_then(rest, &EXPORTED));
    }
    if let Some(rest) = line.strip_prefix("import") {
        if rest.starts_with(['{', '*']) {
            return true;
        }
        let rest = rest.trim_start_matches([' ', '\t']);
        if rest.len() == line.len() - "import".len() {
            return false;
        }
        if rest.starts_with(['{', '*', '"', '\'']) || word_then(rest, &["type"]) {
            return true;
        }
        // `import Name from "…"` or `import Name, { … } from "…"`.
        let name_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(rest.len());
        let after = rest[name_end..].trim_start();
        return name_end > 0 && (after.starts_with(',') || word_then(after, &["from"]));
    }
    false
}

/// Bytes the bracket scans of ESM blocks may read over one body. A block whose brackets never
/// balance is read to the end of the body, so a page of such blocks would read it once per block;
/// past the budget a block ends at its first blank line (the fallback for unbalanced JavaScript).
struct EsmBudget {
    remaining: usize,
}

impl EsmBudget {
    fn for_text(body: &str) -> Self {
        Self {
            remaining: body.len().saturating_mul(4).saturating_add(64 * 1024),
        }
    }
}

/// End of an ESM block starting at `start`: MDX ends it at a blank line once the JavaScript is
/// complete, so brackets must balance first (`export const X = () => {` spans blank lines).
/// When the scan cannot balance (unusual syntax) or `budget` is spent, the first blank line ends it.
fn esm_end(body: &str, start: usize, budget: &mut EsmBudget) -> usize {
    let first_blank = next_blank_line(body, start);
    let limit = body.len().min(start.saturating_add(budget.remaining));
    let (end, read_to) = esm_scan(body, start, limit);
    let read = read_to.saturating_sub(start);
    #[cfg(test)]
    ESM_READ.with(|r| r.set(r.get() + read));
    budget.remaining = budget.remaining.saturating_sub(read);
    end.unwrap_or(first_blank)
}

#[cfg(test)]
thread_local! {
    /// Bytes the ESM bracket scans of this thread read, for the linear-work tests.
    pub(crate) static ESM_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The bracket scan of [`esm_end`] up to `limit`: the end when the brackets balance (`None` when
/// they do not, or `limit` came first), and how far it read.
fn esm_scan(body: &str, start: usize, limit: usize) -> (Option<usize>, usize) {
    let b = body.as_bytes();
    let mut depth: i64 = 0;
    let mut i = start;
    let mut line_start = true;
    while i < limit {
        if line_start && depth <= 0 && i > start && is_blank_line(body, i) {
            return (Some(i), i);
        }
        line_start = false;
        match b[i] {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth -= 1,
            q @ (b'"' | b'\'' | b'`') => {
                match body[i + 1..].find(|c: char| c == q as char || (c == '\n' && q != b'`')) {
                    Some(k) if b[i + 1 + k] == q => i += 1 + k,
                    // An unclosed template literal cannot balance.
                    None if q == b'`' => return (None, b.len()),
                    _ => {}
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i += body[i..].find('\n').map_or(b.len() - i, |k| k) - 1;
            }
            b'\n' => line_start = true,
            _ => {}
        }
        i += 1;
    }
    let complete = limit == b.len() && depth == 0;
    (complete.then_some(b.len()), i)
}

fn is_blank_line(body: &str, at: usize) -> bool {
    let line = body[at..].split('\n').next().unwrap_or("");
    line.trim().is_empty()
}

fn next_blank_line(body: &str, start: usize) -> usize {
    let mut pos = start;
    for line in body[start..].split_inclusive('\n') {
        if pos > start && line.trim().is_empty() {
            return pos;
        }
        pos += line.len();
    }
    body.len()
}

/// Tags and expressions filling the line(s) from `at` to a line end, or `None` if other text shares
/// the line (then the line is a paragraph holding inline JSX). Returns the items and the position
/// after the last line.
fn flow_items<'a>(
    body: &'a str,
    mut at: usize,
    scans: &mut jsx::ScanBudget,
) -> Option<(Vec<Block<'a>>, usize)> {
    let mut items = Vec::new();
    loop {
        let rest = &body[at..];
        let len = if rest.starts_with('<') {
            let (tag, len) = jsx::scan_tag_within(rest, scans)?;
            items.push(Block::Tag(tag));
            len
        } else if rest.starts_with('{') {
            let (expr, len) = jsx::scan_expression_within(rest, scans)?;
            items.push(Block::Expression(expr));
            len
        } else {
            return None;
        };
        at += len;
        let after = &body[at..];
        let gap = after.len() - after.trim_start_matches([' ', '\t']).len();
        at += gap;
        match body.as_bytes().get(at) {
            None => return Some((items, at)),
            Some(b'\n') => return Some((items, at + 1)),
            Some(b'\r') if body.as_bytes().get(at + 1) == Some(&b'\n') => {
                return Some((items, at + 2))
            }
            Some(_) => {}
        }
    }
}

fn flush_run<'a>(
    body: &'a str,
    run_start: &mut Option<usize>,
    end: usize,
    out: &mut Vec<Block<'a>>,
) {
    if let Some(start) = run_start.take() {
        let run = &body[start..end];
        if !run.trim().is_empty() {
            out.push(Block::Markdown(normalise_run(run)));
        }
    }
}

/// Removes the indentation common to the run (content nested in components is indented, and four
/// spaces would make CommonMark code) and escapes `<` at the start of lines that CommonMark would
/// read as an HTML block. Fenced code lines keep their text.
fn normalise_run(run: &str) -> Cow<'_, str> {
    let mut common = usize::MAX;
    let mut needs_escape = false;
    let mut fence: Option<Fence> = None;
    for line in run.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some(open) = fence {
            if open.is_closed_by(trimmed) {
                fence = None;
                common = common.min(indent);
            }
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        fence = Fence::open(trimmed);
        common = common.min(indent);
        needs_escape |= starts_html_block(trimmed);
    }
    let common = if common == usize::MAX { 0 } else { common };
    if common == 0 && !needs_escape {
        return Cow::Borrowed(run);
    }
    let mut out = String::with_capacity(run.len() + 8);
    let mut fence: Option<Fence> = None;
    for line in run.split_inclusive('\n') {
        let ws = line.len() - line.trim_start_matches([' ', '\t']).len();
        let line = &line[ws.min(common)..];
        let trimmed = line.trim_start();
        match fence {
            Some(open) => {
                if open.is_closed_by(trimmed) {
                    fence = None;
                }
            }
            None => {
                fence = Fence::open(trimmed);
                let indent = line.len() - trimmed.len();
                if fence.is_none() && indent < 4 && starts_html_block(trimmed) {
                    out.push_str(&line[..indent]);
                    out.push('\\');
                    out.push_str(trimmed);
                    continue;
                }
            }
        }
        out.push_str(line);
    }
    Cow::Owned(out)
}

/// `<` followed by what CommonMark accepts as the start of an HTML block (tag, closing tag,
/// comment, declaration or processing instruction).
fn starts_html_block(trimmed: &str) -> bool {
    let mut chars = trimmed.chars();
    chars.next() == Some('<')
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'))
}

#[cfg(test)]
mod tests {
    #[test]
    fn esm_starts_are_statements_and_other_keyword_lines_are_prose() {
        for esm in [
            "import X from './x.mdx'",
            "import { A, B } from \"y\"",
            "import * as Z from 'z'",
            "import './side.css'",
            "import type { T } from 't'",
            "import X, { Y } from 'x'",
            "import{A}from'a'",
            "export const a = 1",
            "export default function P() {}",
            "export { a, b }",
            "export * from 'm'",
            "export async function f() {}",
            "export{a}",
            "export\tlet x = 2",
        ] {
            assert!(is_esm_start(esm), "{esm}");
        }
        for prose in [
            "export the site as one bundle",
            "import your docs",
            "exported pages",
            "importance",
            "export",
            "import X into Y",
            "export constantly",
        ] {
            assert!(!is_esm_start(prose), "{prose}");
        }
        let found = split("export the site.\n\n```\nexport nothing here\n```\n  export indented\nimport docs now\n");
        assert_eq!(found.prose_keyword_lines, [0, 64]);
    }

    use super::*;
    use crate::docs::jsx::TagKind;

    fn md<'b>(block: &'b Block<'b>) -> Option<&'b str> {
        match block {
            Block::Markdown(text) => Some(text),
            _ => None,
        }
    }

    fn tag<'b>(block: &'b Block<'b>) -> Option<(&'b str, TagKind)> {
        match block {
            Block::Tag(tag) => Some((tag.name, tag.kind)),
            _ => None,
        }
    }

    #[test]
    fn tags_on_their_own_lines_become_tag_blocks_and_content_is_dedented() {
        let out = blocks("Intro\n\n<Note>\n    Indented **text**\n</Note>\n");
        assert_eq!(out.len(), 4);
        assert_eq!(md(&out[0]), Some("Intro\n\n"));
        assert_eq!(tag(&out[1]), Some(("Note", TagKind::Open)));
        assert_eq!(md(&out[2]), Some("Indented **text**\n"));
        assert_eq!(tag(&out[3]), Some(("Note", TagKind::Close)));
    }

    #[test]
    fn several_tags_on_one_line_and_multi_line_tags() {
        let out = blocks("</Step> <Step\n  title=\"Two\"\n>\nBody\n");
        assert_eq!(tag(&out[0]), Some(("Step", TagKind::Close)));
        assert_eq!(tag(&out[1]), Some(("Step", TagKind::Open)));
        assert_eq!(md(&out[2]), Some("Body\n"));
    }

    #[test]
    fn tag_followed_by_text_stays_in_markdown_with_escaped_angle() {
        let out = blocks("<Frame>Some *text*</Frame>\n");
        assert_eq!(out.len(), 1);
        assert_eq!(md(&out[0]), Some("\\<Frame>Some *text*</Frame>\n"));
    }

    #[test]
    fn fenced_code_inside_components_is_kept_whole() {
        let src = "<CodeGroup>\n  ```bash npm\n  <Card title=\"not a tag\" />\n  import x from 'y'\n  ```\n</CodeGroup>\n";
        let out = blocks(src);
        assert_eq!(out.len(), 3);
        assert_eq!(
            md(&out[1]),
            Some("```bash npm\n<Card title=\"not a tag\" />\nimport x from 'y'\n```\n")
        );
    }

    #[test]
    fn esm_blocks_run_to_a_blank_line_after_brackets_balance() {
        let src = "import A from \"/snippets/a.mdx\";\nimport { B } from './b.jsx'\n\nexport const C = () => {\n  const s = \"}\";\n\n  return <div>{s}</div>;\n};\n\nText\n";
        let out = blocks(src);
        assert_eq!(out.len(), 3, "{out:?}");
        assert!(matches!(out[0], Block::Esm(e) if e.ends_with("'./b.jsx'\n")));
        assert!(
            matches!(out[1], Block::Esm(e) if e.starts_with("export const C") && e.ends_with("};\n"))
        );
        assert_eq!(md(&out[2]), Some("\nText\n"));
    }

    #[test]
    fn import_word_in_prose_is_not_esm() {
        let out = blocks("important note\n  import x from 'y'\n");
        assert_eq!(out.len(), 1);
        assert!(md(&out[0]).is_some());
    }

    #[test]
    fn flow_expressions_become_expression_blocks() {
        let out = blocks("{/* editor note */}\nText {inline}\n");
        assert_eq!(out[0], Block::Expression("/* editor note */"));
        assert_eq!(md(&out[1]), Some("Text {inline}\n"));
    }

    #[test]
    fn a_fence_never_closed_is_reported_where_it_opens_and_keeps_the_rest_as_code() {
        let body = "Text\n\n  ```js\ncode\n<Note>\n";
        let Split {
            blocks: out,
            open_fence: open,
            ..
        } = split(body);
        assert_eq!(open, Some(6));
        assert_eq!(out.len(), 1);
        assert!(
            md(&out[0]).is_some_and(|m| m.ends_with("<Note>\n")),
            "{out:?}"
        );
        assert_eq!(split("```\nx\n```\n").open_fence, None);
    }

    #[test]
    fn autolinks_and_comparisons_are_not_tags() {
        let out = blocks("<https://example.com>\n< 5 apples\n");
        assert_eq!(out.len(), 1);
        assert!(md(&out[0]).is_some());
    }
}
