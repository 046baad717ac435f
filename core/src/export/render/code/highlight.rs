//! Build-time syntax highlighting: the host's highlighter (the builder script runs highlight.js in
//! its JavaScript; core does no IO and bundles no grammars) returns highlight.js's HTML for a block,
//! and this module reads it strictly back into text and scopes: only `<span class="hljs-…">`,
//! `<span class="language-…">`, `</span>`, the five entities highlight.js writes and text are
//! accepted, and the text must be the block's own, else the block stays plain. The scopes become
//! token classes (`tk-k`, `tk-s`, ... see [`class_of`]), never inline styles (the export's CSP has
//! `style-src 'self'`; the colours are rules of site.css, light and dark), in spans that never
//! cross a line, so the line markup of [`super`] stays right.

use crate::export::html;

/// A syntax highlighter the host provides to the export renderer.
pub trait Highlight {
    /// highlight.js's HTML (`hljs.highlight(code, { language: lang }).value`) for `code`, or `None`
    /// when no grammar knows `lang`.
    fn highlight(&self, lang: &str, code: &str) -> Option<String>;
}

/// No highlighter: every block stays plain escaped text (host tests, the SDK, the one-go export).
pub struct PlainCode;

impl Highlight for PlainCode {
    fn highlight(&self, _lang: &str, _code: &str) -> Option<String> {
        None
    }
}

/// Past these a block is shown as plain text: a grammar's time grows with the block and minified
/// or generated code is not read for its colours.
const MAX_BLOCK_BYTES: usize = 64 * 1024;
const MAX_LINE_BYTES: usize = 4000;

/// A block's lines as HTML (no newlines), coloured when the highlighter knows `lang`; `None` when
/// it does not, the block is too large, or its answer is not highlight.js's markup of these lines.
pub(crate) fn highlight_lines(
    code: &dyn Highlight,
    lang: &str,
    lines: &[&str],
) -> Option<Vec<String>> {
    if lang.is_empty()
        || lines.iter().map(|l| l.len() + 1).sum::<usize>() > MAX_BLOCK_BYTES
        || lines.iter().any(|l| l.len() > MAX_LINE_BYTES)
    {
        return None;
    }
    let text = lines.join("\n");
    let answer = code.highlight(lang, &text)?;
    let runs = parse(&answer)?;
    split_lines(&runs, &text, lines.len())
}

/// What a highlight.js scope does to the colour of the text inside it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Colour {
    /// This token class.
    Class(&'static str),
    /// Plain text again (an interpolation inside a string).
    Reset,
    /// The enclosing scope's colour (punctuation, containers, unknown scopes).
    Inherit,
}

/// highlight.js scope (its CSS classes read back: `hljs-title function_` is `title.function`) ->
/// colour. The longest listed prefix of the scope decides.
const SCOPES: &[(&str, Colour)] = {
    use Colour::*;
    &[
        ("comment", Class("c")),
        ("quote", Class("c")),
        ("meta.prompt", Class("c")),
        ("doctag", Class("k")),
        ("keyword", Class("k")),
        ("template-tag", Class("k")),
        ("template-variable", Class("k")),
        ("meta.keyword", Class("k")),
        ("meta", Class("l")),
        ("string", Class("s")),
        ("regexp", Class("s")),
        ("meta.string", Class("s")),
        ("code", Class("s")),
        ("formula", Class("s")),
        ("link", Class("s")),
        ("char.escape", Class("e")),
        ("subst", Reset),
        ("number", Class("n")),
        ("literal", Class("l")),
        ("symbol", Class("l")),
        ("variable.language", Class("l")),
        ("variable.constant", Class("l")),
        ("variable", Class("p")),
        ("params", Class("p")),
        ("operator", Class("o")),
        ("bullet", Class("o")),
        ("built_in", Class("f")),
        ("title", Class("f")),
        ("function", Class("f")),
        ("title.class", Class("t")),
        ("class", Class("t")),
        ("type", Class("t")),
        ("name", Class("g")),
        ("selector-tag", Class("g")),
        ("attr", Class("a")),
        ("attribute", Class("a")),
        ("property", Class("a")),
        ("selector-id", Class("a")),
        ("selector-class", Class("a")),
        ("selector-attr", Class("a")),
        ("selector-pseudo", Class("a")),
        ("section", Class("h")),
        ("addition", Class("i")),
        ("deletion", Class("d")),
        ("emphasis", Class("b")),
        ("strong", Class("b")),
    ]
};

/// The colour of a dotted scope (`title.class.inherited`): its longest prefix in [`SCOPES`].
fn class_of(scope: &str) -> Colour {
    let mut scope = scope;
    loop {
        if let Some((_, colour)) = SCOPES.iter().find(|(name, _)| *name == scope) {
            return *colour;
        }
        match scope.rfind('.') {
            Some(dot) => scope = &scope[..dot],
            None => return Colour::Inherit,
        }
    }
}

/// A `class` attribute of highlight.js back to its scope: `hljs-title class_ inherited__` is
/// `title.class.inherited`, `language-xml` (a grammar embedded in another) inherits. `None` for
/// anything highlight.js does not write.
fn scope_of(class: &str) -> Option<Colour> {
    let mut words = class.split(' ');
    let first = words.next()?;
    let token = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    if let Some(lang) = first.strip_prefix("language-") {
        return (token(lang) && words.next().is_none()).then_some(Colour::Inherit);
    }
    let mut scope = first.strip_prefix("hljs-").filter(|s| token(s))?.to_owned();
    for (i, word) in words.enumerate() {
        // The n-th sub-scope carries n + 1 underscores.
        let name = word
            .strip_suffix(&"_".repeat(i + 1))
            .filter(|n| token(n) && !n.ends_with('_'))?;
        scope.push('.');
        scope.push_str(name);
    }
    Some(class_of(&scope))
}

/// Text of the answer with the token class it shows in.
type Run = (Option<&'static str>, String);

/// highlight.js HTML -> runs of text with their class; `None` on anything but its own markup.
fn parse(html: &str) -> Option<Vec<Run>> {
    const OPEN: &str = "<span class=\"";
    let mut runs: Vec<Run> = Vec::new();
    // The colour of each open span, resolved against the one around it.
    let mut stack: Vec<Option<&'static str>> = Vec::new();
    let mut rest = html;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix(OPEN) {
            let end = after.find('"')?;
            let colour = scope_of(&after[..end])?;
            rest = after[end..].strip_prefix("\">")?;
            let outer = stack.last().copied().flatten();
            stack.push(match colour {
                Colour::Class(c) => Some(c),
                Colour::Reset => None,
                Colour::Inherit => outer,
            });
        } else if let Some(after) = rest.strip_prefix("</span>") {
            stack.pop()?;
            rest = after;
        } else if rest.starts_with('<') {
            return None;
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            let text = unescape(&rest[..end])?;
            let class = stack.last().copied().flatten();
            match runs.last_mut() {
                Some((last, run)) if *last == class => run.push_str(&text),
                _ => runs.push((class, text)),
            }
            rest = &rest[end..];
        }
    }
    stack.is_empty().then_some(runs)
}

/// Text as highlight.js escapes it (`&`, `<`, `>`, `"`, `'`); a bare `<`, `>` or any other
/// entity means the answer is not its markup.
fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['&', '>']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let (c, len) = [
            ("&amp;", '&'),
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&quot;", '"'),
            ("&#x27;", '\''),
            ("&#39;", '\''),
        ]
        .iter()
        .find(|(entity, _)| tail.starts_with(entity))
        .map(|(entity, c)| (*c, entity.len()))?;
        out.push(c);
        rest = &tail[len..];
    }
    out.push_str(rest);
    Some(out)
}

/// The runs cut at newlines into `count` lines of HTML, each span closed at its line's end and
/// reopened on the next; `None` unless the runs' text is exactly `text`.
fn split_lines(runs: &[Run], text: &str, count: usize) -> Option<Vec<String>> {
    let mut lines = Vec::with_capacity(count);
    let mut line = Spans::default();
    let mut seen = 0;
    for (class, run) in runs {
        if !text[seen..].starts_with(run.as_str()) {
            return None;
        }
        seen += run.len();
        let mut pieces = run.split('\n');
        if let Some(first) = pieces.next() {
            line.push(*class, first);
        }
        for piece in pieces {
            lines.push(std::mem::take(&mut line).finish());
            line.push(*class, piece);
        }
    }
    lines.push(line.finish());
    (seen == text.len() && lines.len() == count).then_some(lines)
}

/// One line's HTML: runs of the same class merged into one `<span>`.
#[derive(Default)]
struct Spans {
    out: String,
    open: Option<&'static str>,
}

impl Spans {
    fn push(&mut self, class: Option<&'static str>, text: &str) {
        if text.is_empty() {
            return;
        }
        if class != self.open {
            if self.open.is_some() {
                self.out.push_str("</span>");
            }
            if let Some(c) = class {
                self.out.push_str("<span class=\"tk-");
                self.out.push_str(c);
                self.out.push_str("\">");
            }
            self.open = class;
        }
        html::text(&mut self.out, text);
    }

    fn finish(mut self) -> String {
        if self.open.is_some() {
            self.out.push_str("</span>");
        }
        self.out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// highlight.js 11.12's answers, recorded with worker/src/builder/highlight.mjs under node (its bash
    /// with the command and option rules that module adds).
    pub(crate) struct Recorded;

    const RECORDED: &[(&str, &str, &str)] = &[
        (
            "python",
            "def greet(name):\n    \"\"\"Say hi.\"\"\"\n    return f\"hi {name}\"  # say hi\n@dataclass\nclass A(B): pass",
            "<span class=\"hljs-keyword\">def</span> <span class=\"hljs-title function_\">greet</span>(<span class=\"hljs-params\">name</span>):\n    <span class=\"hljs-string\">&quot;&quot;&quot;Say hi.&quot;&quot;&quot;</span>\n    <span class=\"hljs-keyword\">return</span> <span class=\"hljs-string\">f&quot;hi <span class=\"hljs-subst\">{name}</span>&quot;</span>  <span class=\"hljs-comment\"># say hi</span>\n<span class=\"hljs-meta\">@dataclass</span>\n<span class=\"hljs-keyword\">class</span> <span class=\"hljs-title class_\">A</span>(<span class=\"hljs-title class_ inherited__\">B</span>): <span class=\"hljs-keyword\">pass</span>",
        ),
        (
            "bash",
            "export KEY=\"a $HOME b\" # c\ncurl -X POST https://x.io \\\n  -H \"Authorization: Bearer $T\"",
            "<span class=\"hljs-built_in\">export</span> KEY=<span class=\"hljs-string\">&quot;a <span class=\"hljs-variable\">$HOME</span> b&quot;</span> <span class=\"hljs-comment\"># c</span>\n<span class=\"hljs-title function_\">curl</span> <span class=\"hljs-attr\">-X</span> POST https://x.io \\\n  <span class=\"hljs-attr\">-H</span> <span class=\"hljs-string\">&quot;Authorization: Bearer <span class=\"hljs-variable\">$T</span>&quot;</span>",
        ),
        (
            "ts",
            "const a: string = \"<script>\" as string; // </span>\nfunction f<T>(x: T): T { return x }",
            "<span class=\"hljs-keyword\">const</span> <span class=\"hljs-attr\">a</span>: <span class=\"hljs-built_in\">string</span> = <span class=\"hljs-string\">&quot;&lt;script&gt;&quot;</span> <span class=\"hljs-keyword\">as</span> <span class=\"hljs-built_in\">string</span>; <span class=\"hljs-comment\">// &lt;/span&gt;</span>\n<span class=\"hljs-keyword\">function</span> f&lt;T&gt;(<span class=\"hljs-attr\">x</span>: T): T { <span class=\"hljs-keyword\">return</span> x }",
        ),
        (
            "html",
            "<a href=\"x\" class='y'>t &amp; u</a>\n<script>let a = 1 < 2;</script>",
            "<span class=\"hljs-tag\">&lt;<span class=\"hljs-name\">a</span> <span class=\"hljs-attr\">href</span>=<span class=\"hljs-string\">&quot;x&quot;</span> <span class=\"hljs-attr\">class</span>=<span class=\"hljs-string\">&#x27;y&#x27;</span>&gt;</span>t <span class=\"hljs-symbol\">&amp;amp;</span> u<span class=\"hljs-tag\">&lt;/<span class=\"hljs-name\">a</span>&gt;</span>\n<span class=\"hljs-tag\">&lt;<span class=\"hljs-name\">script</span>&gt;</span><span class=\"language-javascript\"><span class=\"hljs-keyword\">let</span> a = <span class=\"hljs-number\">1</span> &lt; <span class=\"hljs-number\">2</span>;</span><span class=\"hljs-tag\">&lt;/<span class=\"hljs-name\">script</span>&gt;</span>",
        ),
        (
            "json",
            "{\n  \"a\": [1, true, null],\n  \"b\": \"c\"\n}",
            "<span class=\"hljs-punctuation\">{</span>\n  <span class=\"hljs-attr\">&quot;a&quot;</span><span class=\"hljs-punctuation\">:</span> <span class=\"hljs-punctuation\">[</span><span class=\"hljs-number\">1</span><span class=\"hljs-punctuation\">,</span> <span class=\"hljs-literal\"><span class=\"hljs-keyword\">true</span></span><span class=\"hljs-punctuation\">,</span> <span class=\"hljs-literal\"><span class=\"hljs-keyword\">null</span></span><span class=\"hljs-punctuation\">]</span><span class=\"hljs-punctuation\">,</span>\n  <span class=\"hljs-attr\">&quot;b&quot;</span><span class=\"hljs-punctuation\">:</span> <span class=\"hljs-string\">&quot;c&quot;</span>\n<span class=\"hljs-punctuation\">}</span>",
        ),
        (
            "diff",
            "+ added\n- removed\n@@ -1 +1 @@",
            "<span class=\"hljs-addition\">+ added</span>\n<span class=\"hljs-deletion\">- removed</span>\n<span class=\"hljs-meta\">@@ -1 +1 @@</span>",
        ),
        ("text", "plain <b>", "plain &lt;b&gt;"),
    ];

    impl Highlight for Recorded {
        fn highlight(&self, lang: &str, code: &str) -> Option<String> {
            RECORDED
                .iter()
                .find(|(l, c, _)| *l == lang && *c == code)
                .map(|(_, _, html)| (*html).to_owned())
        }
    }

    /// Every space-separated word in a span of highlight.js's making, escaped as it escapes, spans
    /// crossing lines included: what the fuzzer renders code with.
    pub(crate) struct WordSpans;

    impl Highlight for WordSpans {
        fn highlight(&self, _lang: &str, code: &str) -> Option<String> {
            const SCOPES: [&str; 4] = ["keyword", "string", "title function_", "subst"];
            let mut out = String::new();
            for (i, word) in code.split(' ').enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                if word.is_empty() {
                    continue;
                }
                let escaped = word
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
                    .replace('"', "&quot;")
                    .replace('\'', "&#x27;");
                out.push_str(&format!(
                    "<span class=\"hljs-{}\">{escaped}</span>",
                    SCOPES[i % SCOPES.len()]
                ));
            }
            Some(out)
        }
    }

    /// Answers whatever it was given, for feeding the parser by hand.
    struct Answer(&'static str);

    impl Highlight for Answer {
        fn highlight(&self, _lang: &str, _code: &str) -> Option<String> {
            Some(self.0.to_owned())
        }
    }

    fn lines_of(lang: &str) -> Vec<String> {
        let (_, code, _) = RECORDED.iter().find(|(l, _, _)| *l == lang).unwrap();
        let lines: Vec<&str> = code.split('\n').collect();
        highlight_lines(&Recorded, lang, &lines).expect("highlighted")
    }

    #[test]
    fn python_scopes_become_token_classes() {
        let out = lines_of("python");
        assert_eq!(out[0], "<span class=\"tk-k\">def</span> <span class=\"tk-f\">greet</span>(<span class=\"tk-p\">name</span>):");
        // An f-string's interpolation is code again, not string.
        assert_eq!(
            out[2],
            "    <span class=\"tk-k\">return</span> <span class=\"tk-s\">f\"hi </span>{name}<span class=\"tk-s\">\"</span>  <span class=\"tk-c\"># say hi</span>"
        );
        assert_eq!(out[3], "<span class=\"tk-l\">@dataclass</span>");
        assert!(
            out[4].contains("<span class=\"tk-t\">A</span>(<span class=\"tk-t\">B</span>)"),
            "{}",
            out[4]
        );
    }

    #[test]
    fn text_is_escaped_again_and_never_carries_markup_of_its_own() {
        let out = lines_of("ts").join("\n");
        assert!(
            out.contains("<span class=\"tk-s\">\"&lt;script&gt;\"</span>"),
            "{out}"
        );
        assert!(
            out.contains("<span class=\"tk-c\">// &lt;/span&gt;</span>"),
            "{out}"
        );
        assert!(
            out.contains("f&lt;T&gt;(<span class=\"tk-a\">x</span>"),
            "{out}"
        );
        let html = lines_of("html").join("\n");
        assert!(
            html.starts_with("&lt;<span class=\"tk-g\">a</span> <span class=\"tk-a\">href</span>="),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"tk-l\">&amp;amp;</span>"),
            "{html}"
        );
        assert!(
            html.contains(
                "<span class=\"tk-k\">let</span> a = <span class=\"tk-n\">1</span> &lt; "
            ),
            "{html}"
        );
        assert!(!out.contains("style") && !html.contains("style"));
    }

    #[test]
    fn spans_crossing_lines_are_closed_and_reopened() {
        let lines = ["s = \"\"\"a", "b\"\"\"", "x = 1"];
        let answer = Answer("s = <span class=\"hljs-string\">&quot;&quot;&quot;a\nb&quot;&quot;&quot;</span>\nx = <span class=\"hljs-number\">1</span>");
        let out = highlight_lines(&answer, "python", &lines).unwrap();
        assert_eq!(
            out,
            [
                "s = <span class=\"tk-s\">\"\"\"a</span>",
                "<span class=\"tk-s\">b\"\"\"</span>",
                "x = <span class=\"tk-n\">1</span>"
            ]
        );
        let out = lines_of("bash");
        assert_eq!(out.len(), 3);
        assert_eq!(
            out[1],
            "<span class=\"tk-f\">curl</span> <span class=\"tk-a\">-X</span> POST https://x.io \\"
        );
        for line in lines_of("json") {
            assert_eq!(
                line.matches("<span").count(),
                line.matches("</span>").count(),
                "{line}"
            );
        }
    }

    #[test]
    fn diff_and_plain_text() {
        assert_eq!(
            lines_of("diff"),
            [
                "<span class=\"tk-i\">+ added</span>",
                "<span class=\"tk-d\">- removed</span>",
                "<span class=\"tk-l\">@@ -1 +1 @@</span>"
            ]
        );
        assert_eq!(lines_of("text"), ["plain &lt;b&gt;"]);
    }

    #[test]
    fn anything_but_highlight_js_markup_leaves_the_block_plain() {
        let code = ["a < b"];
        for answer in [
            "<b>a</b> &lt; b",
            "<span class=\"x\">a</span> &lt; b",
            "<span class=\"hljs-keyword\" style=\"color:red\">a</span> &lt; b",
            "<span class=\"hljs-keyword\">a &lt; b",
            "a</span> &lt; b",
            "a < b",
            "a &nbsp; b",
            "a &lt; c",
            "a &lt; b\nc",
            "<span class=\"hljs-title function\">a</span> &lt; b",
            "<span class=\"hljs-a\"onclick=\"x\">a</span> &lt; b",
            "<span class=\"language-x y\">a</span> &lt; b",
        ] {
            let leaked: &'static str = answer;
            assert_eq!(
                highlight_lines(&Answer(leaked), "js", &code),
                None,
                "{answer}"
            );
        }
        assert!(highlight_lines(
            &Answer("<span class=\"hljs-keyword\">a</span> &lt; b"),
            "js",
            &code
        )
        .is_some());
    }

    #[test]
    fn unknown_languages_and_oversized_blocks_are_left_plain() {
        assert!(highlight_lines(&Recorded, "no-such-language", &["x"]).is_none());
        assert!(highlight_lines(&Answer("x"), "", &["x"]).is_none());
        let long = "x".repeat(MAX_LINE_BYTES + 1);
        assert!(highlight_lines(&Answer("x"), "python", &[long.as_str()]).is_none());
        assert!(highlight_lines(&PlainCode, "python", &["x"]).is_none());
    }

    #[test]
    fn scopes_read_back_from_classes() {
        assert_eq!(
            scope_of("hljs-title class_ inherited__"),
            Some(Colour::Class("t"))
        );
        assert_eq!(
            scope_of("hljs-title function_ invoke__"),
            Some(Colour::Class("f"))
        );
        assert_eq!(
            scope_of("hljs-variable language_"),
            Some(Colour::Class("l"))
        );
        assert_eq!(scope_of("hljs-char escape_"), Some(Colour::Class("e")));
        assert_eq!(scope_of("hljs-punctuation"), Some(Colour::Inherit));
        assert_eq!(scope_of("hljs-made-up"), Some(Colour::Inherit));
        assert_eq!(scope_of("hljs-title class__"), None);
        assert_eq!(scope_of("hljs-"), None);
    }
}
