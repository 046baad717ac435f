//! The values an MDX file's `{…}` expressions can name, and their substitution into its text.
//!
//! Mintlify (https://mintlify.com/docs/create/reusable-snippets) lets a file show values it
//! declares (`export const name = "Acme"`), values it imports from a snippet
//! (`import { name } from "/snippets/vars.mdx"`) and, in a snippet, the props its tag passes
//! (`<MySnippet word="bonjour" />` fills `{word}` and `{props.word}`, in fenced code too). Without
//! JavaScript, the walk substitutes them in the text before reading it: an expression naming a
//! value becomes a string literal expression (`{"bonjour"}`), which every reader already shows as
//! text; in fenced code the value itself is written. Expressions naming nothing known, and values
//! React cannot show (objects), are left as they are (and read as nothing, as before).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::Value;

use super::js_value;
use super::jsx::{self, AttrValue, ScanBudget};
use super::mdx::Fence;

/// What a file's expressions may name.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Scope {
    /// `export const` values of the file and values it imports by name.
    pub(crate) values: BTreeMap<String, Value>,
    /// The props its tag passed (a snippet's).
    pub(crate) props: BTreeMap<String, Value>,
}

/// Longest `export const` value read: past it, the value is not substituted.
const MAX_EXPORT_BYTES: usize = 64 * 1024;

impl Scope {
    pub(crate) fn is_empty(&self) -> bool {
        self.values.is_empty() && self.props.is_empty()
    }

    /// The props of a snippet's tag: quoted strings, literal expressions (`{"x"}`, `{5}`,
    /// `{{a: 1}}`) and bare flags (`true`); other expressions are code and pass nothing.
    pub(crate) fn props_of(tag: &jsx::Tag<'_>) -> BTreeMap<String, Value> {
        let mut props = BTreeMap::new();
        for attr in tag.attrs.iter().filter(|a| !a.name.is_empty()) {
            let value = match &attr.value {
                AttrValue::Str(s) => Value::String((*s).to_owned()),
                AttrValue::Flag => Value::Bool(true),
                AttrValue::Expr(e) => match js_value::literal(e) {
                    Some((value, len)) if len == e.len() => value,
                    _ => continue,
                },
            };
            props.insert(attr.name.to_owned(), value);
        }
        props
    }

    /// Adds the `export const name = <literal>` declarations of an ESM block.
    pub(crate) fn add_exports(&mut self, esm: &str) {
        for (name, value) in exports(esm) {
            self.values.insert(name, value);
        }
    }

    /// The value an expression names: `name`, `name.key`, `name[0]`, `name["key"]`, or a prop as
    /// `props.name…`; in code (`code`), only props.
    fn resolve(&self, expr: &str, code: bool) -> Option<&Value> {
        let expr = expr.trim();
        let (root, mut rest) = split_ident(expr)?;
        let mut value = if root == "props" && rest.starts_with('.') {
            let (name, after) = split_ident(&rest[1..])?;
            rest = after;
            self.props.get(name)?
        } else if code {
            self.props.get(root)?
        } else {
            self.values.get(root).or_else(|| self.props.get(root))?
        };
        while !rest.trim().is_empty() {
            let r = rest.trim_start();
            if let Some(after) = r.strip_prefix('.') {
                let (key, after) = split_ident(after)?;
                value = value.get(key)?;
                rest = after;
            } else if let Some(after) = r.strip_prefix('[') {
                let close = after.find(']')?;
                let index = after[..close].trim();
                value = match jsx::string_literal(index) {
                    Some(key) => value.get(key)?,
                    None => value.get(index.parse::<usize>().ok()?)?,
                };
                rest = &after[close + 1..];
            } else {
                return None;
            }
        }
        Some(value)
    }

    /// The text shown for an expression, when it names a value React shows.
    fn shown(&self, expr: &str, code: bool) -> Option<String> {
        self.resolve(expr, code).and_then(js_value::shown)
    }
}

fn split_ident(s: &str) -> Option<(&str, &str)> {
    let end = s
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_alphanumeric() || c == '_' || c == '$') || (i == 0 && c.is_ascii_digit())
        })
        .map_or(s.len(), |(i, _)| i);
    (end > 0).then(|| s.split_at(end))
}

/// The `export const|let|var name = <literal>` declarations of an ESM block.
pub(crate) fn exports(esm: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut rest = esm;
    while let Some(at) = rest.find("export") {
        let at_statement = at == 0 || rest[..at].ends_with(['\n', ';', ' ', '\t']);
        rest = &rest[at + "export".len()..];
        if !at_statement {
            continue;
        }
        let Some(decl) = ["const", "let", "var"].iter().find_map(|kw| {
            rest.trim_start()
                .strip_prefix(kw)
                .filter(|r| r.starts_with(char::is_whitespace))
        }) else {
            continue;
        };
        let Some((name, after)) = split_ident(decl.trim_start()) else {
            continue;
        };
        let Some(init) = after.trim_start().strip_prefix('=') else {
            continue;
        };
        let window = &init[..floor_char_boundary(init, MAX_EXPORT_BYTES)];
        if let Some((value, _)) = js_value::literal(window) {
            out.push((name.to_owned(), value));
        }
    }
    out
}

fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A named import of an ESM block: `(local name, exported name, source)`.
pub(crate) fn named_imports(esm: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for statement in esm.split("import").skip(1) {
        let Some(open) = statement.find('{') else {
            continue;
        };
        let Some(close) = statement[open..].find('}').map(|c| open + c) else {
            continue;
        };
        // `import Default, { a } from …` or `import { a } from …`: nothing but a name before `{`.
        let before = statement[..open].trim().trim_end_matches(',').trim();
        if !before
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        {
            continue;
        }
        let Some(from) = statement[close + 1..].trim_start().strip_prefix("from") else {
            continue;
        };
        let from = from.trim_start();
        let Some(quote) = from.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
            continue;
        };
        let Some(end) = from[1..].find(quote) else {
            continue;
        };
        let source = &from[1..1 + end];
        for name in statement[open + 1..close].split(',') {
            let mut words = name.split_whitespace();
            let (Some(exported), local) = (words.next(), words.nth(1)) else {
                continue;
            };
            out.push((
                local.unwrap_or(exported).to_owned(),
                exported.to_owned(),
                source.to_owned(),
            ));
        }
    }
    out
}

/// `body` with the expressions `scope` names substituted, growing by at most `limit` bytes; the
/// second value tells whether the limit stopped substitution (the rest is left as written).
pub(crate) fn substitute<'a>(body: &'a str, scope: &Scope, limit: usize) -> (Cow<'a, str>, bool) {
    if scope.is_empty() || !body.contains('{') {
        return (Cow::Borrowed(body), false);
    }
    let mut out = Substitution {
        body,
        scope,
        out: String::new(),
        copied: 0,
        limit: body.len().saturating_add(limit),
        stopped: false,
    };
    let mut scans = ScanBudget::for_text(body);
    let mut fence: Option<Fence> = None;
    let mut pos = 0;
    while pos < body.len() {
        let line_end = body[pos..].find('\n').map_or(body.len(), |i| pos + i + 1);
        let trimmed = body[pos..line_end].trim_start();
        if let Some(open) = fence {
            if open.is_closed_by(trimmed) {
                fence = None;
            } else {
                out.code_line(pos, line_end);
            }
            pos = line_end;
        } else if let Some(open) = Fence::open(trimmed) {
            fence = Some(open);
            pos = line_end;
        } else {
            pos = out.prose(pos, &mut scans);
        }
    }
    let stopped = out.stopped;
    if out.copied == 0 {
        return (Cow::Borrowed(body), stopped);
    }
    (Cow::Owned(out.finish()), stopped)
}

struct Substitution<'a> {
    body: &'a str,
    scope: &'a Scope,
    out: String,
    /// `body[..copied]` is in `out`.
    copied: usize,
    /// Longest `out` may grow.
    limit: usize,
    stopped: bool,
}

impl Substitution<'_> {
    /// Writes `text` in place of `body[start..end]`, unless that passes the limit.
    fn replace(&mut self, start: usize, end: usize, text: &str) {
        if self.stopped || self.out.len() + (start - self.copied) + text.len() > self.limit {
            self.stopped = true;
            return;
        }
        self.out.push_str(&self.body[self.copied..start]);
        self.out.push_str(text);
        self.copied = end;
    }

    fn finish(mut self) -> String {
        self.out.push_str(&self.body[self.copied..]);
        self.out
    }

    /// A line of fenced code: `{prop}` becomes the prop's text.
    fn code_line(&mut self, start: usize, end: usize) {
        let mut at = start;
        while let Some(open) = self.body[at..end].find('{').map(|i| at + i) {
            let Some(close) = self.body[open..end].find('}').map(|i| open + i) else {
                return;
            };
            if let Some(text) = self.scope.shown(&self.body[open + 1..close], true) {
                self.replace(open, close + 1, &text);
            }
            at = close + 1;
        }
    }

    /// Prose from `pos` to the end of its line (or past it, over a tag or expression spanning
    /// lines): expressions, and expressions in tag attributes, naming a value become string
    /// literals; code spans and quoted attribute values are left alone. Returns where it stopped.
    fn prose(&mut self, mut pos: usize, scans: &mut ScanBudget) -> usize {
        let body = self.body;
        let b = body.as_bytes();
        while pos < body.len() {
            match b[pos] {
                b'\n' => return pos + 1,
                b'`' => {
                    let run = body[pos..].bytes().take_while(|&c| c == b'`').count();
                    let line_end = body[pos..].find('\n').map_or(body.len(), |i| pos + i);
                    let ticks = &body[pos..pos + run];
                    // A code span ends at the same run of backticks on the line; unmatched, they are text.
                    pos = match body[pos + run..line_end].find(ticks) {
                        Some(i) => pos + run + i + run,
                        None => pos + run,
                    };
                }
                b'<' => match jsx::scan_tag_within(&body[pos..], scans) {
                    Some((tag, len)) => {
                        for attr in &tag.attrs {
                            if let AttrValue::Expr(expr) = attr.value {
                                let start = expr.as_ptr() as usize - body.as_ptr() as usize;
                                self.expression(start - 1, start + expr.len() + 1);
                            }
                        }
                        pos += len;
                    }
                    None => pos += 1,
                },
                b'{' => match jsx::scan_expression_within(&body[pos..], scans) {
                    Some((_, len)) => {
                        self.expression(pos, pos + len);
                        pos += len;
                    }
                    None => pos += 1,
                },
                _ => {
                    pos += body[pos..]
                        .bytes()
                        .position(|b| matches!(b, b'\n' | b'`' | b'<' | b'{'))
                        .unwrap_or(body.len() - pos)
                        .max(1)
                }
            }
        }
        pos
    }

    /// The expression `body[start..end]` (braces included) as a string literal when it names a value.
    fn expression(&mut self, start: usize, end: usize) {
        if let Some(text) = self.scope.shown(&self.body[start + 1..end - 1], false) {
            self.replace(start, end, &string_expression(&text));
        }
    }
}

/// `{"text"}` in a quote the text does not hold, as `jsx::string_literal` reads it back.
fn string_expression(text: &str) -> String {
    let quote = if text.contains('\n') && !text.contains('`') && !text.contains("${") {
        '`'
    } else if !text.contains('"') && !text.contains('\n') {
        '"'
    } else if !text.contains('\'') && !text.contains('\n') {
        '\''
    } else if !text.contains('`') && !text.contains("${") {
        '`'
    } else {
        // Every quote is in it: the double quotes become typographic ones.
        return format!(
            "{{\"{}\"}}",
            text.replace('"', "\u{201d}").replace('\n', " ")
        );
    };
    format!("{{{quote}{text}{quote}}}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scope(values: Value, props: Value) -> Scope {
        let map = |v: Value| v.as_object().unwrap().clone().into_iter().collect();
        Scope {
            values: map(values),
            props: map(props),
        }
    }

    fn sub(body: &str, scope: &Scope) -> String {
        substitute(body, scope, 1 << 20).0.into_owned()
    }

    #[test]
    fn expressions_naming_values_become_string_literals_in_text_and_attributes() {
        let s = scope(
            json!({"name": "Acme", "plan": {"seats": 5.0, "tiers": ["a", "b"]}}),
            json!({"word": "bonjour"}),
        );
        assert_eq!(
            sub("Hi {name}, {props.word} {word} { plan.seats } {plan.tiers[1]} {plan[\"seats\"]} {other} {plan}\n", &s),
            "Hi {\"Acme\"}, {\"bonjour\"} {\"bonjour\"} {\"5\"} {\"b\"} {\"5\"} {other} {plan}\n"
        );
        assert_eq!(
            sub(
                "<Card title={name} href=\"/{name}\">\n`{name}` and ``{name}``\n",
                &s
            ),
            "<Card title={\"Acme\"} href=\"/{name}\">\n`{name}` and ``{name}``\n"
        );
    }

    #[test]
    fn in_fenced_code_only_props_are_written_as_text() {
        let s = scope(json!({"name": "Acme"}), json!({"packageName": "@org/sdk"}));
        assert_eq!(
            sub(
                "```bash\nnpm install {packageName} {name} {\n```\n{name}\n",
                &s
            ),
            "```bash\nnpm install @org/sdk {name} {\n```\n{\"Acme\"}\n"
        );
    }

    #[test]
    fn growth_past_the_limit_stops_substitution_and_says_so() {
        let s = scope(json!({}), json!({"w": "x".repeat(100)}));
        let (out, stopped) = substitute("{w} {w} {w}", &s, 250);
        assert!(stopped);
        assert_eq!(out.matches(&"x".repeat(100)).count(), 2, "{out}");
        assert!(out.ends_with("{w}"));
    }

    #[test]
    fn string_literals_survive_any_quotes() {
        for text in [
            "plain",
            "say \"hi\"",
            "it's \"x\"",
            "a\nb",
            "all \" ' ` ${x}",
        ] {
            let expr = string_expression(text);
            let inner = &expr[1..expr.len() - 1];
            assert!(jsx::string_literal(inner).is_some(), "{text:?} -> {expr}");
        }
    }

    #[test]
    fn reads_exports_and_named_imports() {
        let esm = "export const myName = \"Ronan\";\nexport const myObject = { fruit: \"strawberries\" };\nexport const Comp = () => <div />;\nexport let n = 3, m = 4\nexport default x\n";
        let found: Vec<_> = exports(esm).into_iter().map(|(n, _)| n).collect();
        assert_eq!(found, ["myName", "myObject", "n"]);
        let imports = named_imports("import { myName, myObject as obj } from \"/snippets/vars.mdx\";\nimport X from './x.mdx'\nimport D, { a } from '../d.mdx'\n");
        assert_eq!(
            imports,
            [
                (
                    "myName".into(),
                    "myName".into(),
                    "/snippets/vars.mdx".into()
                ),
                ("obj".into(), "myObject".into(), "/snippets/vars.mdx".into()),
                ("a".into(), "a".into(), "../d.mdx".into()),
            ]
        );
    }
}
