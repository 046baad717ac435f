//! Fenced code blocks of the export: options from the info string ([`options`]), colours from the
//! host's highlighter ([`highlight`]), and the markup site.css and site.js read:
//!
//! ```text
//! <div class="code-block [tab-panel] [lines] [wrap] [expandable] [has-focus] [nocopy]" [data-title]>
//!   <div class="code-title">[icon] title</div>
//!   <pre tabindex="0"><code class="language-x"><span class="line [hl] [focus] [add|del]">…</span>\n…</code></pre>
//! </div>
//! ```
//!
//! Every line is a `span.line` (line numbers are a CSS counter, highlighted, focused and diff lines
//! are classes), so everything shows without a script; site.js adds only copy buttons (not on
//! `nocopy` blocks), the expand button of `expandable` ones, and the tabs of a group.

mod highlight;
mod options;

#[cfg(test)]
pub(crate) use highlight::tests::{Recorded, WordSpans};
pub use highlight::{Highlight, PlainCode};
use options::CodeOptions;

/// The title a fence's info string gives its block (`config.json` of ```` ```json config.json ````,
/// `title="…"`), empty when none: the file the snippet goes in, which search and the assistant
/// read with the snippet.
pub(crate) fn code_title(info: &str) -> String {
    CodeOptions::parse(info).title
}

use crate::export::html::{self, attr};

/// Where a block sits: inside a `CodeGroup` (or request/response example) it is a tab panel
/// labelled by its title, else its language.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placement {
    Alone,
    InGroup,
}

pub(crate) fn write_block(
    out: &mut String,
    info: &str,
    code: &str,
    placement: Placement,
    highlighter: &dyn Highlight,
    icon: impl Fn(&mut String, Option<&str>),
) {
    write_with(
        out,
        &CodeOptions::parse(info),
        None,
        code,
        placement,
        highlighter,
        icon,
    );
}

/// A block the export writes itself (an API request sample): one tab of a group, labelled `label`
/// (no title line), in `lang`, without the option words an info string would be read for.
pub(crate) fn write_sample(
    out: &mut String,
    lang: &str,
    label: &str,
    code: &str,
    highlighter: &dyn Highlight,
) {
    let opts = CodeOptions {
        lang: html::class_token(lang),
        ..CodeOptions::default()
    };
    write_with(
        out,
        &opts,
        Some(label),
        code,
        Placement::InGroup,
        highlighter,
        |_, _| {},
    );
}

fn write_with(
    out: &mut String,
    opts: &CodeOptions,
    label: Option<&str>,
    code: &str,
    placement: Placement,
    highlighter: &dyn Highlight,
    icon: impl Fn(&mut String, Option<&str>),
) {
    let code = code.strip_suffix('\n').unwrap_or(code);
    let (lines, marks) = diff_marks(code);
    let line_refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let coloured = highlight::highlight_lines(highlighter, &opts.lang, &line_refs);

    let mut class = String::from("code-block");
    let has_focus = !opts.focus.is_empty() || marks.iter().any(|m| m.focus);
    for (on, name) in [
        (placement == Placement::InGroup, " tab-panel"),
        (opts.lines, " lines"),
        (opts.wrap, " wrap"),
        (opts.expandable, " expandable"),
        (has_focus, " has-focus"),
        (opts.nocopy, " nocopy"),
    ] {
        if on {
            class.push_str(name);
        }
    }
    out.push_str("<div");
    attr(out, "class", &class);
    if placement == Placement::InGroup {
        let label = [label.unwrap_or(""), opts.title.as_str(), opts.lang.as_str()]
            .into_iter()
            .find(|s| !s.is_empty())
            .unwrap_or("Code");
        attr(out, "data-title", label);
    }
    out.push('>');
    if !opts.title.is_empty() || opts.icon.is_some() {
        out.push_str("<div class=\"code-title\">");
        icon(out, opts.icon.as_deref());
        html::text(out, &opts.title);
        out.push_str("</div>");
    }
    out.push_str("<pre tabindex=\"0\"><code");
    if !opts.lang.is_empty() {
        attr(out, "class", &format!("language-{}", opts.lang));
    }
    out.push('>');
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        let mark = marks[i];
        out.push_str("<span class=\"line");
        if opts.highlight.contains(n) || mark.highlight {
            out.push_str(" hl");
        }
        if opts.focus.contains(n) || mark.focus {
            out.push_str(" focus");
        }
        match mark.diff {
            Some(Diff::Add) => out.push_str(" add"),
            Some(Diff::Del) => out.push_str(" del"),
            None => {}
        }
        out.push_str("\">");
        match &coloured {
            Some(coloured) => out.push_str(&coloured[i]),
            None => html::text(out, line),
        }
        out.push_str("</span>");
        if n < lines.len() {
            out.push('\n');
        }
    }
    out.push_str("</code></pre></div>");
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Diff {
    Add,
    Del,
}

#[derive(Clone, Copy, Default, Debug)]
struct Mark {
    diff: Option<Diff>,
    highlight: bool,
    focus: bool,
}

/// The block's lines with `[!code ++]`, `[!code --]`, `[!code highlight]` and `[!code focus]`
/// notations (and the comment holding them) removed, and the mark each gives its line; `++:3`
/// marks the line and the two after it.
fn diff_marks(code: &str) -> (Vec<String>, Vec<Mark>) {
    let mut lines = Vec::new();
    let mut marks: Vec<Mark> = Vec::new();
    let mut carry: Option<(Mark, usize)> = None;
    for line in code.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let (text, own) = match notation(line) {
            Some((text, mark, count)) => {
                if count > 1 {
                    carry = Some((mark, count - 1));
                }
                (text, Some(mark))
            }
            None => (line.to_owned(), None),
        };
        let mark = own.unwrap_or_else(|| match carry.as_mut() {
            Some((mark, left)) if *left > 0 => {
                *left -= 1;
                *mark
            }
            _ => Mark::default(),
        });
        lines.push(text);
        marks.push(mark);
    }
    (lines, marks)
}

/// A line's notation: the text without it, the mark, and how many lines it covers.
fn notation(line: &str) -> Option<(String, Mark, usize)> {
    let start = line.rfind("[!code ")?;
    let len = line[start..].find(']')? + 1;
    let inner = &line[start + 7..start + len - 1];
    let (kind, count) = inner
        .split_once(':')
        .map_or((inner, 1), |(k, n)| (k, n.trim().parse().unwrap_or(1)));
    let mut mark = Mark::default();
    match kind.trim() {
        "++" => mark.diff = Some(Diff::Add),
        "--" => mark.diff = Some(Diff::Del),
        "highlight" | "hl" => mark.highlight = true,
        "focus" => mark.focus = true,
        _ => return None,
    }
    let before = line[..start].trim_end();
    let after = line[start + len..].trim();
    // The comment that held the notation goes with it; a closing `-->`/`*/` after it too.
    let (before, closed) = match after {
        "" => (before, true),
        "-->" | "*/" => (before, true),
        _ => (before, false),
    };
    if !closed {
        return None;
    }
    let code = ["<!--", "//", "/*", "#", "--", ";", "%", "'"]
        .iter()
        .find_map(|opener| before.strip_suffix(opener))
        .unwrap_or(before)
        .trim_end();
    Some((code.to_owned(), mark, count.clamp(1, 10_000)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(info: &str, code: &str, placement: Placement) -> String {
        let mut out = String::new();
        write_block(&mut out, info, code, placement, &Recorded, |out, name| {
            if let Some(n) = name {
                out.push_str(&format!("<span class=\"icon\">{n}</span>"));
            }
        });
        out
    }

    #[test]
    fn options_become_classes_and_lines_marks() {
        let out = render(
            "js Example {2} lines wrap expandable nocopy icon=js",
            "a\nb\nc\n",
            Placement::Alone,
        );
        assert!(
            out.starts_with("<div class=\"code-block lines wrap expandable nocopy\">"),
            "{out}"
        );
        assert!(
            out.contains("<div class=\"code-title\"><span class=\"icon\">js</span>Example</div>"),
            "{out}"
        );
        assert!(
            out.contains("<pre tabindex=\"0\"><code class=\"language-js\">"),
            "{out}"
        );
        assert_eq!(out.matches("<span class=\"line").count(), 3, "{out}");
        assert_eq!(out.matches("<span class=\"line hl\">").count(), 1, "{out}");
        assert!(!out.contains("style"));
    }

    #[test]
    fn focus_dims_the_other_lines() {
        let out = render("py focus=2", "a = 1\nb = 2\n", Placement::Alone);
        assert!(out.contains("has-focus"), "{out}");
        assert_eq!(
            out.matches("<span class=\"line focus\">").count(),
            1,
            "{out}"
        );
    }

    #[test]
    fn grouped_blocks_are_tab_panels_labelled_by_title_then_language() {
        assert!(render("bash npm", "npm i", Placement::InGroup)
            .contains("class=\"code-block tab-panel\" data-title=\"npm\""));
        assert!(render("bash", "npm i", Placement::InGroup).contains("data-title=\"bash\""));
    }

    #[test]
    fn diff_notations_mark_lines_and_leave_the_code() {
        let code = "const a = 1; // [!code ++]\nold(); // [!code --]\nkeep();\nx = 1 # [!code ++:2]\ny = 2\nz = 3\n<p/> <!-- [!code --] -->";
        let (lines, marks) = diff_marks(code);
        assert_eq!(
            lines,
            [
                "const a = 1;",
                "old();",
                "keep();",
                "x = 1",
                "y = 2",
                "z = 3",
                "<p/>"
            ]
        );
        let diffs: Vec<Option<Diff>> = marks.iter().map(|m| m.diff).collect();
        use Diff::*;
        assert_eq!(
            diffs,
            [
                Some(Add),
                Some(Del),
                None,
                Some(Add),
                Some(Add),
                None,
                Some(Del)
            ]
        );
        let out = render(
            "js",
            "a(); // [!code ++]\nb(); // [!code --]",
            Placement::Alone,
        );
        assert!(
            out.contains("line add") && out.contains("line del") && !out.contains("[!code"),
            "{out}"
        );
    }

    #[test]
    fn a_notation_inside_a_string_is_left_alone() {
        let (lines, marks) = diff_marks("print(\"[!code ++]\")");
        assert_eq!(lines, ["print(\"[!code ++]\")"]);
        assert!(marks[0].diff.is_none());
    }

    #[test]
    fn known_languages_are_split_into_tokens_inside_lines() {
        let out = render(
            "diff {2}",
            "+ added\n- removed\n@@ -1 +1 @@\n",
            Placement::Alone,
        );
        assert!(
            out.contains("<span class=\"line\"><span class=\"tk-i\">+ added</span></span>\n"),
            "{out}"
        );
        assert!(
            out.contains("<span class=\"line hl\"><span class=\"tk-d\">- removed</span></span>"),
            "{out}"
        );
        let out = render("nocopy", "User -> CDN", Placement::Alone);
        assert!(!out.contains("tk-") && !out.contains("code-title"), "{out}");
    }
}
