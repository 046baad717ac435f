//! A small scanner for the JSX that MDX mixes into Markdown: tags with their attributes and `{…}`
//! expressions. It only finds where they start and end; it does not parse JavaScript.

use std::cell::Cell;

/// Longest tag or expression scanned; beyond it the `<` or `{` is taken as text.
const MAX_SCAN: usize = 16 * 1024;

/// Bytes the scans over one text may examine, shared by all of them: every `<` and `{` may start a
/// scan, and failed scans overlap (`<a x="<a x="…` rescans the same window from each `<`), so a
/// page pays at most a fixed multiple of its length; past that, `<` and `{` are text. Ordinary
/// pages examine each byte about once.
#[derive(Debug)]
pub struct ScanBudget {
    remaining: usize,
}

impl ScanBudget {
    /// Bytes examined per byte of text before scans stop.
    const PER_BYTE: usize = 8;

    /// The budget for scanning `text`.
    pub fn for_text(text: &str) -> Self {
        Self {
            remaining: text
                .len()
                .saturating_mul(Self::PER_BYTE)
                .saturating_add(MAX_SCAN),
        }
    }

    /// How far a scan of `s` may read: a char boundary, since the scans slice `s` up to it (a
    /// window ending inside a multi-byte character would fail every scan that reaches it).
    fn window(&self, s: &str) -> usize {
        let mut end = s.len().min(MAX_SCAN).min(self.remaining);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        end
    }

    fn charge(&mut self, examined: usize) {
        #[cfg(test)]
        EXAMINED.with(|e| e.set(e.get() + examined.max(1)));
        self.remaining = self.remaining.saturating_sub(examined.max(1));
    }
}

#[cfg(test)]
thread_local! {
    /// Bytes the scans of this thread examined, for the linear-work tests.
    pub(crate) static EXAMINED: Cell<usize> = const { Cell::new(0) };
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagKind {
    Open,
    Close,
    SelfClosing,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag<'a> {
    pub kind: TagKind,
    /// Empty for fragments (`<>`, `</>`).
    pub name: &'a str,
    pub attrs: Vec<Attr<'a>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attr<'a> {
    /// Empty for a spread (`{...props}`).
    pub name: &'a str,
    pub value: AttrValue<'a>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttrValue<'a> {
    /// A bare attribute (`required`).
    Flag,
    /// A quoted string, quotes removed, as written.
    Str(&'a str),
    /// An expression, braces removed.
    Expr(&'a str),
}

impl<'a> Tag<'a> {
    pub fn attr(&self, name: &str) -> Option<&AttrValue<'a>> {
        self.attrs.iter().find(|a| a.name == name).map(|a| &a.value)
    }

    /// A boolean attribute: `required`, `required={true}` or `required="true"`.
    pub fn flag(&self, name: &str) -> bool {
        match self.attr(name) {
            Some(AttrValue::Flag) => true,
            Some(AttrValue::Expr(e)) => e.trim() == "true",
            Some(AttrValue::Str(s)) => s.trim() == "true",
            None => false,
        }
    }

    /// An attribute as a reader sees it: a string's text, a literal's text, else the expression's
    /// source (`default={10}` is `10`); `None` for a bare flag or no attribute.
    pub fn shown_value(&self, name: &str) -> Option<&'a str> {
        match self.attr(name)? {
            AttrValue::Str(s) => Some(s),
            AttrValue::Expr(e) => Some(string_literal(e).unwrap_or(e.trim())),
            AttrValue::Flag => None,
        }
    }

    /// Text of an attribute when it is a string: `title="x"` or `title={"x"}`.
    pub fn text_attr(&self, name: &str) -> Option<&'a str> {
        match self.attr(name)? {
            AttrValue::Str(s) => Some(s),
            AttrValue::Expr(e) => string_literal(e),
            AttrValue::Flag => None,
        }
    }
}

/// The callout components (`<Note>`, `<Warning>` …): an aside beside the page's text, which every
/// reader of a page (renderer, Markdown for agents, search text) sets apart.
pub fn is_callout(name: &str) -> bool {
    matches!(
        name,
        "Note" | "Warning" | "Info" | "Tip" | "Check" | "Danger" | "Callout"
    )
}

/// Scans a tag at the start of `s` (which begins with `<`); returns it and its length in bytes.
pub fn scan_tag(s: &str) -> Option<(Tag<'_>, usize)> {
    scan_tag_within(s, &mut ScanBudget::for_text(s))
}

/// [`scan_tag`], charging the bytes it examines to `budget`.
pub fn scan_tag_within<'a>(s: &'a str, budget: &mut ScanBudget) -> Option<(Tag<'a>, usize)> {
    let reach = Cell::new(0);
    let found = scan_tag_inner(s, budget.window(s), &reach);
    budget.charge(found.as_ref().map_or(reach.get(), |(_, len)| *len));
    found
}

/// `reach` is raised to every index the scan looks at, so a failed scan is charged what it read.
fn scan_tag_inner<'a>(s: &'a str, limit: usize, reach: &Cell<usize>) -> Option<(Tag<'a>, usize)> {
    let b = s.as_bytes();
    let mut i = 1;
    let closing = b.get(i) == Some(&b'/');
    if closing {
        i += 1;
    }
    let name_start = i;
    if i < limit && b[i].is_ascii_alphabetic() {
        while i < limit && is_name_byte(b[i]) {
            i += 1;
        }
    }
    reach.set(i + 1);
    let name = s.get(name_start..i)?;
    if name.is_empty() {
        // Only the fragments `<>` and `</>` have no name.
        return (b.get(i) == Some(&b'>')).then(|| {
            let kind = if closing {
                TagKind::Close
            } else {
                TagKind::Open
            };
            (
                Tag {
                    kind,
                    name,
                    attrs: Vec::new(),
                },
                i + 1,
            )
        });
    }
    let mut attrs = Vec::new();
    loop {
        let after_ws = skip_ws(b, i, limit);
        let had_ws = after_ws > i;
        i = after_ws;
        reach.set(reach.get().max(i + 1));
        match *b.get(i).filter(|_| i < limit)? {
            b'>' => {
                let kind = if closing {
                    TagKind::Close
                } else {
                    TagKind::Open
                };
                return Some((Tag { kind, name, attrs }, i + 1));
            }
            b'/' if !closing => {
                let j = skip_ws(b, i + 1, limit);
                reach.set(reach.get().max(j + 1));
                return (b.get(j) == Some(&b'>')).then(|| {
                    (
                        Tag {
                            kind: TagKind::SelfClosing,
                            name,
                            attrs,
                        },
                        j + 1,
                    )
                });
            }
            b'{' if !closing => {
                let end = scan_braces(s, i, limit, reach)?;
                attrs.push(Attr {
                    name: "",
                    value: AttrValue::Expr(s.get(i + 1..end - 1)?),
                });
                i = end;
            }
            c if !closing && had_ws && is_attr_start(c) => {
                let start = i;
                while i < limit && is_name_byte(b[i]) {
                    i += 1;
                }
                let attr_name = s.get(start..i)?;
                let j = skip_ws(b, i, limit);
                reach.set(reach.get().max(j + 1));
                if b.get(j) != Some(&b'=') {
                    attrs.push(Attr {
                        name: attr_name,
                        value: AttrValue::Flag,
                    });
                    continue;
                }
                i = skip_ws(b, j + 1, limit);
                reach.set(reach.get().max(i + 1));
                let (value, end) = match *b.get(i).filter(|_| i < limit)? {
                    q @ (b'"' | b'\'') => {
                        reach.set(limit);
                        let close = i + 1 + s.get(i + 1..limit)?.find(q as char)?;
                        (AttrValue::Str(s.get(i + 1..close)?), close + 1)
                    }
                    b'{' => {
                        let end = scan_braces(s, i, limit, reach)?;
                        (AttrValue::Expr(s.get(i + 1..end - 1)?), end)
                    }
                    _ => return None,
                };
                attrs.push(Attr {
                    name: attr_name,
                    value,
                });
                i = end;
            }
            _ => return None,
        }
    }
}

/// Scans a `{…}` expression at the start of `s`; returns its inside (braces removed) and its length.
pub fn scan_expression(s: &str) -> Option<(&str, usize)> {
    scan_expression_within(s, &mut ScanBudget::for_text(s))
}

/// [`scan_expression`], charging the bytes it examines to `budget`.
pub fn scan_expression_within<'a>(s: &'a str, budget: &mut ScanBudget) -> Option<(&'a str, usize)> {
    let reach = Cell::new(0);
    let end = scan_braces(s, 0, budget.window(s), &reach);
    budget.charge(end.unwrap_or(reach.get()));
    Some((s.get(1..end? - 1)?, end?))
}

/// The end (exclusive) of the balanced `{…}` starting at `start`, skipping strings, template
/// literals and comments so their braces do not count.
fn scan_braces(s: &str, start: usize, limit: usize, reach: &Cell<usize>) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    // Unless the braces balance, the scan reads (strings and comments included) up to `limit`.
    let before = reach.get();
    reach.set(before.max(limit));
    while i < limit {
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    reach.set(before.max(i + 1));
                    return Some(i + 1);
                }
            }
            q @ (b'"' | b'\'' | b'`') => i = skip_string(b, i, q, limit)?,
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = i + 2 + s.get(i + 2..limit)?.find("*/")? + 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i += s.get(i..limit)?.find('\n')?;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Index of the closing quote of the string opening at `i`.
fn skip_string(b: &[u8], mut i: usize, quote: u8, limit: usize) -> Option<usize> {
    i += 1;
    while i < limit {
        match b[i] {
            b'\\' => i += 1,
            c if c == quote => return Some(i),
            // JSX text like `don't` is not a string; an unterminated one ends at the line.
            b'\n' if quote != b'`' => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

fn skip_ws(b: &[u8], mut i: usize, limit: usize) -> usize {
    while i < limit && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b':' | b'$')
}

fn is_attr_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || matches!(c, b'_' | b'$' | b':')
}

/// The text of an expression that is only a string literal (`{"x"}`, `{'x'}`, `` {`x`} ``).
pub fn string_literal(expr: &str) -> Option<&str> {
    let e = expr.trim();
    let quote = e.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = e.get(1..)?.strip_suffix(quote)?;
    let interpolates = quote == '`' && inner.contains("${");
    (!inner.contains(quote) && !interpolates).then_some(inner)
}

/// Whether the expression is only a comment (`{/* … */}`), which MDX uses for notes to editors.
pub fn is_comment(expr: &str) -> bool {
    let e = expr.trim();
    if e.is_empty() {
        return true;
    }
    e.strip_prefix("/*")
        .and_then(|inner| inner.strip_suffix("*/"))
        .is_some_and(|inner| !inner.contains("*/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_open_tag_with_string_expression_and_flag_attributes() {
        let src = r#"<ParamField path="id" type={"string"} required default={{a: "}"}}>rest"#;
        let (tag, len) = scan_tag(src).unwrap();
        assert_eq!(&src[len..], "rest");
        assert_eq!(tag.kind, TagKind::Open);
        assert_eq!(tag.name, "ParamField");
        assert_eq!(tag.text_attr("path"), Some("id"));
        assert_eq!(tag.text_attr("type"), Some("string"));
        assert_eq!(tag.attr("required"), Some(&AttrValue::Flag));
        assert_eq!(tag.attr("default"), Some(&AttrValue::Expr(r#"{a: "}"}"#)));
    }

    #[test]
    fn scans_a_tag_whose_window_ends_inside_a_multi_byte_character() {
        // The text after the tag is long enough that the scan's window ends inside "标" (3 bytes),
        // at each of its offsets: the tag is found every time.
        for pad in 0..3 {
            let tag = "<Card title=\"标签\" href=\"/zh/a\" icon={<svg d=\"M1\n\tc2\"\n/>} />";
            let filler = "a".repeat(MAX_SCAN - tag.len() - pad);
            let src = format!("{tag}{filler}{}", "标签。".repeat(100));
            let (found, len) = scan_tag(&src).expect("tag");
            assert_eq!((found.name, len), ("Card", tag.len()));
            assert_eq!(found.text_attr("title"), Some("标签"));
        }
    }

    #[test]
    fn scans_multi_line_self_closing_tag() {
        let src = "<Card\n  title='Quick start'\n  href=\"/q\"\n/>\nafter";
        let (tag, len) = scan_tag(src).unwrap();
        assert_eq!(tag.kind, TagKind::SelfClosing);
        assert_eq!(tag.text_attr("title"), Some("Quick start"));
        assert_eq!(&src[len..], "\nafter");
    }

    #[test]
    fn scans_closing_tags_fragments_and_dotted_names() {
        assert_eq!(scan_tag("</Note>").unwrap().0.kind, TagKind::Close);
        assert_eq!(scan_tag("<>").unwrap().0.name, "");
        assert_eq!(scan_tag("</>").unwrap().0.kind, TagKind::Close);
        assert_eq!(
            scan_tag("<Tree.Folder name=\"src\">").unwrap().0.name,
            "Tree.Folder"
        );
    }

    #[test]
    fn attribute_expression_may_hold_jsx_with_angle_brackets() {
        let (tag, _) = scan_tag("<Tab icon={<Icon name=\"x\" />} title=\"T\">").unwrap();
        assert_eq!(tag.text_attr("title"), Some("T"));
    }

    #[test]
    fn text_that_only_looks_like_a_tag_is_not_one() {
        for text in [
            "< b",
            "<https://example.com>",
            "<a@b.c>",
            "<= 5",
            "<Card title=unquoted>",
            "<Card",
        ] {
            assert_eq!(scan_tag(text), None, "{text}");
        }
    }

    #[test]
    fn expression_scan_skips_strings_and_comments() {
        let src = "{/* a } comment */}tail";
        let (inner, len) = scan_expression(src).unwrap();
        assert_eq!(inner, "/* a } comment */");
        assert!(is_comment(inner));
        assert!(!is_comment("/*/"));
        assert_eq!(&src[len..], "tail");
        assert_eq!(scan_expression("{`a ${b} }`}").unwrap().0, "`a ${b} }`");
        assert_eq!(scan_expression("{unclosed"), None);
    }

    #[test]
    fn string_literal_expressions_are_text() {
        assert_eq!(string_literal(" \"hi\" "), Some("hi"));
        assert_eq!(string_literal("'a' + 'b'"), None);
        assert_eq!(string_literal("`x ${y}`"), None);
        assert_eq!(string_literal("props.x"), None);
    }
}
