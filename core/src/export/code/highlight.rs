//! Build-time syntax highlighting: a code block's lines as HTML with token classes (`tk-k`,
//! `tk-s`, ... see [`CLASSES`]), never inline styles (the export's CSP has `style-src 'self'`;
//! the colours are rules of site.css, light and dark).
//!
//! Grammars are Sublime Text's (syntect's defaults) plus bat's extras (TypeScript, TSX, TOML,
//! Dockerfile, GraphQL, Kotlin, Swift, ...) from the two-face crate, run by syntect with the
//! pure-Rust fancy-regex engine so the builder's wasm needs no C. The set is loaded on first use,
//! once per thread (isolate), and [`release`] drops it with every regex compiled so far: compiled
//! regexes are what costs memory (measured on the host, a grammar's first use costs 0.1 MiB for
//! JSON, about 5 for Python, 11 for Bash, 32 for TypeScript), so a caller that renders in batches
//! releases after each batch to bound the high-water to the grammars one batch uses.

use std::cell::RefCell;

#[cfg(feature = "highlight")]
use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

/// Past these a block is shown as plain text: a grammar's time grows with line length and
/// minified or generated code is not read for its colours.
const MAX_BLOCK_BYTES: usize = 64 * 1024;
const MAX_LINE_BYTES: usize = 4000;

/// Scope prefix -> token class, in order: the innermost scope of a token that matches one of these
/// names its class; later, broader prefixes catch what the specific ones leave.
#[cfg(feature = "highlight")]
const CLASSES: &[(&str, &str)] = &[
    ("comment", "c"),
    ("punctuation.definition.comment", "c"),
    ("constant.character.escape", "e"),
    ("string", "s"),
    ("markup.raw", "s"),
    ("constant.numeric", "n"),
    ("constant.language", "l"),
    ("variable.language", "l"),
    ("support.constant", "l"),
    ("constant", "l"),
    ("keyword.operator", "o"),
    ("keyword", "k"),
    ("storage", "k"),
    ("entity.name.function", "f"),
    ("support.function", "f"),
    ("variable.function", "f"),
    ("entity.name.tag", "g"),
    ("entity.other.attribute-name", "a"),
    ("support.type.property-name", "a"),
    ("meta.mapping.key", "a"),
    ("entity.name.type", "t"),
    ("entity.name.class", "t"),
    ("entity.other.inherited-class", "t"),
    ("support.type", "t"),
    ("support.class", "t"),
    ("entity.name.section", "h"),
    ("markup.heading", "h"),
    ("entity.name", "t"),
    ("variable.parameter", "p"),
    ("markup.inserted", "i"),
    ("markup.deleted", "d"),
    ("meta.diff", "h"),
    ("markup.bold", "b"),
    ("markup.italic", "b"),
    ("markup.underline.link", "s"),
];

/// Fence names the grammars do not know by that name (syntect matches names and file extensions).
#[cfg(feature = "highlight")]
const ALIASES: &[(&str, &str)] = &[
    ("shell", "bash"),
    ("sh", "bash"),
    ("zsh", "bash"),
    ("console", "bash"),
    ("terminal", "bash"),
    ("shellscript", "bash"),
    ("curl", "bash"),
    ("jsx", "tsx"),
    ("javascriptreact", "tsx"),
    ("typescriptreact", "tsx"),
    ("csharp", "cs"),
    ("c#", "cs"),
    ("mdx", "md"),
    ("jsonc", "json"),
    ("json5", "json"),
    ("jsonl", "json"),
    ("golang", "go"),
    ("py", "python"),
    ("python3", "python"),
    ("rb", "ruby"),
    ("yml", "yaml"),
    ("docker", "dockerfile"),
    ("gql", "graphql"),
    ("env", "sh"),
    ("dotenv", "sh"),
    ("cjs", "js"),
    ("mjs", "js"),
    ("vue", "html"),
    ("svelte", "html"),
];

/// A block's lines as HTML (no trailing newlines), coloured when a grammar knows `lang`;
/// `None` when none does, the block is too large, or the grammar fails on it.
pub(crate) fn highlight_lines(lang: &str, lines: &[&str]) -> Option<Vec<String>> {
    if lang.is_empty()
        || lines.iter().map(|l| l.len() + 1).sum::<usize>() > MAX_BLOCK_BYTES
        || lines.iter().any(|l| l.len() > MAX_LINE_BYTES)
    {
        return None;
    }
    with_grammars(|g| g.highlight(lang, lines))?
}

/// Drops the loaded grammars and every regex compiled so far (see the module docs).
pub fn release() {
    GRAMMARS.with(|cell| cell.borrow_mut().take());
}

thread_local! {
    static GRAMMARS: RefCell<Option<Grammars>> = const { RefCell::new(None) };
}

fn with_grammars<T>(f: impl FnOnce(&Grammars) -> T) -> Option<T> {
    GRAMMARS.with(|cell| {
        let mut slot = cell.borrow_mut();
        let grammars = slot.get_or_insert_with(Grammars::load);
        Some(f(grammars))
    })
}

#[cfg(feature = "highlight")]
struct Grammars {
    set: SyntaxSet,
    classes: Vec<(Scope, &'static str)>,
}

#[cfg(feature = "highlight")]
impl Grammars {
    fn load() -> Self {
        let classes = CLASSES
            .iter()
            .filter_map(|(prefix, class)| Scope::new(prefix).ok().map(|s| (s, *class)))
            .collect();
        Grammars { set: two_face::syntax::extra_newlines(), classes }
    }

    fn syntax(&self, lang: &str) -> Option<&SyntaxReference> {
        let lang = lang.to_ascii_lowercase();
        let name = ALIASES.iter().find(|(alias, _)| *alias == lang).map_or(lang.as_str(), |(_, n)| n);
        self.set.find_syntax_by_token(name).filter(|s| s.name != "Plain Text")
    }

    fn class_of(&self, stack: &ScopeStack) -> Option<&'static str> {
        stack.as_slice().iter().rev().find_map(|scope| {
            self.classes.iter().find(|(prefix, _)| prefix.is_prefix_of(*scope)).map(|(_, c)| *c)
        })
    }

    fn highlight(&self, lang: &str, lines: &[&str]) -> Option<Vec<String>> {
        let syntax = self.syntax(lang)?;
        let mut state = ParseState::new(syntax);
        let mut stack = ScopeStack::new();
        let mut out = Vec::with_capacity(lines.len());
        let mut line_nl = String::new();
        for line in lines {
            // Grammars of the "newlines" set expect each line with its newline.
            line_nl.clear();
            line_nl.push_str(line);
            line_nl.push('\n');
            let ops = state.parse_line(&line_nl, &self.set).ok()?;
            let mut html = Spans::default();
            let mut at = 0;
            for (pos, op) in ops {
                let pos = pos.min(line.len());
                if pos > at {
                    html.push(self.class_of(&stack), &line[at..pos]);
                    at = pos;
                }
                stack.apply(&op).ok()?;
            }
            if at < line.len() {
                html.push(self.class_of(&stack), &line[at..]);
            }
            out.push(html.finish());
        }
        Some(out)
    }
}

/// Without the grammars (the request-serving script) nothing is coloured.
#[cfg(not(feature = "highlight"))]
struct Grammars;

#[cfg(not(feature = "highlight"))]
impl Grammars {
    fn load() -> Self {
        Grammars
    }

    fn highlight(&self, _lang: &str, _lines: &[&str]) -> Option<Vec<String>> {
        None
    }
}

/// One line's HTML: runs of the same class merged into one `<span>`.
#[derive(Default)]
#[cfg_attr(not(feature = "highlight"), allow(dead_code))]
struct Spans {
    out: String,
    open: Option<&'static str>,
}

#[cfg_attr(not(feature = "highlight"), allow(dead_code))]
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
        super::super::html::text(&mut self.out, text);
    }

    fn finish(mut self) -> String {
        if self.open.is_some() {
            self.out.push_str("</span>");
        }
        self.out
    }
}

#[cfg(all(test, feature = "highlight"))]
mod tests {
    use super::*;

    fn one(lang: &str, code: &str) -> String {
        let lines: Vec<&str> = code.lines().collect();
        highlight_lines(lang, &lines).expect("a grammar").join("\n")
    }

    #[test]
    fn python_keywords_strings_and_comments_get_their_classes() {
        let html = one("python", "def greet(name):\n    return \"hi \" + name  # say hi");
        assert!(html.contains("<span class=\"tk-k\">def</span>"), "{html}");
        assert!(html.contains("<span class=\"tk-f\">greet</span>"), "{html}");
        assert!(html.contains("<span class=\"tk-s\">&quot;hi &quot;</span>") || html.contains("<span class=\"tk-s\">\"hi \"</span>"), "{html}");
        assert!(html.contains("<span class=\"tk-c\"># say hi</span>"), "{html}");
    }

    #[test]
    fn text_is_escaped_inside_spans() {
        let html = one("ts", "const a = \"<script>\" as string; // </span>");
        assert!(!html.contains("<script>") && html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("// </span>"), "{html}");
        assert!(!html.contains("style="));
    }

    #[test]
    fn the_languages_real_repositories_use_most_all_have_a_grammar() {
        let langs = [
            "python", "bash", "shell", "sh", "json", "typescript", "ts", "tsx", "javascript", "js", "jsx", "sql",
            "yaml", "yml", "go", "rust", "java", "ruby", "php", "c", "cpp", "csharp", "kotlin", "swift", "html",
            "css", "xml", "toml", "dockerfile", "graphql", "markdown", "mdx", "diff", "env",
        ];
        let missing: Vec<&str> = langs.iter().copied().filter(|l| highlight_lines(l, &["x = 1"]).is_none()).collect();
        assert!(missing.is_empty(), "no grammar for {missing:?}");
        let sample = |lang: &str| match lang {
            "php" => "<?php echo \"hi\"; ?>",
            "html" | "xml" => "<a href=\"x\">t</a>",
            "dockerfile" => "FROM node:20",
            "markdown" | "mdx" => "# Title",
            "diff" => "+added",
            _ => "x = 1 // \"s\" # c 42",
        };
        let plain: Vec<&str> = langs.iter().copied().filter(|l| !one(l, sample(l)).contains("tk-")).collect();
        assert!(plain.is_empty(), "no tokens at all for {plain:?}");
    }

    #[test]
    fn unknown_languages_and_oversized_blocks_are_left_plain() {
        assert!(highlight_lines("no-such-language", &["x"]).is_none());
        assert!(highlight_lines("", &["x"]).is_none());
        let long = "x".repeat(MAX_LINE_BYTES + 1);
        assert!(highlight_lines("python", &[long.as_str()]).is_none());
    }

    #[test]
    fn lines_stay_lines_and_spans_never_cross_them() {
        let lines = ["s = \"\"\"a", "b\"\"\"", "x = 1"];
        let out = highlight_lines("python", &lines).unwrap();
        assert_eq!(out.len(), 3);
        for line in &out {
            assert_eq!(line.matches("<span").count(), line.matches("</span>").count(), "{line}");
        }
        assert!(out[1].starts_with("<span class=\"tk-s\">b"), "{:?}", out);
    }

    #[test]
    fn release_drops_the_set_and_the_next_use_loads_it_again() {
        assert!(highlight_lines("json", &["{\"a\": 1}"]).is_some());
        release();
        assert!(GRAMMARS.with(|c| c.borrow().is_none()));
        assert!(highlight_lines("json", &["{\"a\": 1}"]).is_some());
    }
}
