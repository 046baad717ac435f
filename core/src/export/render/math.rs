//! Math (`$…$`, `$$…$$`, `<Latex>`) -> MathML Core, which browsers lay out natively: no script, no
//! fonts to fetch. `math-core` converts the LaTeX; its output is then written anew through an
//! allow-list of MathML elements and attributes, because it may hold what the export never ships:
//! inline `style` (colours, table widths), `<a href>` from `\href` and HTML `<span>`s. A few of those
//! styles become classes of `site.css` (`math-*`); the rest is dropped, keeping the text.
//! `active_content` checks the result against its own copy of the rules.

use std::borrow::Cow;

use math_core::{LatexToMathML, MathCoreConfig, MathDisplay};

use crate::docs::mdx::latex_source;

use crate::export::html;

/// Inline (`$…$`, `<Latex>` inside a paragraph) or display (`$$…$$`, `<Latex>` on its own lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Display {
    Inline,
    Block,
}

/// MathML Core elements, and the two `math-core` writes that Core lacks (`menclose`, `mlabeledtr`
/// are laid out as rows by browsers that lack them).
const ELEMENTS: &[&str] = &[
    "math",
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "msub",
    "msup",
    "msubsup",
    "munder",
    "mover",
    "munderover",
    "mfrac",
    "msqrt",
    "mroot",
    "mstyle",
    "merror",
    "mpadded",
    "mphantom",
    "mtable",
    "mtr",
    "mtd",
    "mmultiscripts",
    "mprescripts",
    "none",
    "menclose",
    "semantics",
];

/// Presentation attributes; values are further limited by [`plain_value`].
const ATTRIBUTES: &[&str] = &[
    "display",
    "displaystyle",
    "scriptlevel",
    "mathvariant",
    "lspace",
    "rspace",
    "stretchy",
    "symmetric",
    "largeop",
    "movablelimits",
    "fence",
    "separator",
    "form",
    "minsize",
    "maxsize",
    "accent",
    "accentunder",
    "linethickness",
    "width",
    "height",
    "depth",
    "voffset",
    "columnspan",
    "rowspan",
    "columnalign",
    "notation",
    "class",
];

/// Inline styles `math-core` writes that matter for layout, and the `site.css` class for each.
const STYLE_CLASSES: &[(&str, &str)] = &[
    ("width: 100%", "math-wide"),
    ("text-align: left", "math-left"),
    ("text-align: right", "math-right"),
    ("width: 50%", "math-half"),
];

/// Writes `latex` as a `<math>` element; LaTeX that does not parse is written as its source in a
/// `<code class="math-error">` with the reason as its title, so the reader sees what the author wrote.
pub(crate) fn write(out: &mut String, latex: &str, display: Display) {
    let latex = latex.trim();
    if latex.is_empty() {
        return;
    }
    let config = MathCoreConfig {
        ignore_unknown_commands: true,
        ..MathCoreConfig::default()
    };
    let converted = LatexToMathML::new(config)
        .map_err(|_| String::new())
        .and_then(|converter| {
            let mode = if display == Display::Block {
                MathDisplay::Block
            } else {
                MathDisplay::Inline
            };
            converter
                .convert_with_local_state(latex, mode)
                .map(|r| r.mathml)
                .map_err(|e| e.to_string())
        });
    match converted {
        Ok(mathml) => allow_listed(out, &mathml),
        Err(reason) => {
            out.push_str("<code class=\"math-error\"");
            if !reason.is_empty() {
                html::attr(out, "title", &reason);
            }
            out.push('>');
            html::text(out, latex);
            out.push_str("</code>");
        }
    }
}

/// `math-core`'s markup, written anew: allowed elements with allowed attributes, text as it is
/// (already escaped), everything else dropped but its text. Assumes well-formed input (it is the
/// library's output), and stays balanced when it is not: every allowed close matches an open.
fn allow_listed(out: &mut String, mathml: &str) {
    // Open allowed elements, innermost last, and whether each was written (a nested `<math>` is not).
    let mut open: Vec<(&str, bool)> = Vec::new();
    let mut rest = mathml;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let Some(gt) = rest[lt..].find('>') else {
            break;
        };
        let inside = &rest[lt + 1..lt + gt];
        rest = &rest[lt + gt + 1..];
        if let Some(name) = inside.strip_prefix('/') {
            if open.last().is_some_and(|(top, _)| *top == name.trim()) {
                if let Some((name, true)) = open.pop() {
                    close(out, name);
                }
                if open.is_empty() {
                    return;
                }
            }
            continue;
        }
        let self_closing = inside.ends_with('/');
        let inside = inside.trim_end_matches('/');
        let name_end = inside
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(inside.len());
        let Some(&name) = ELEMENTS.iter().find(|e| **e == &inside[..name_end]) else {
            continue;
        };
        if (name == "math") != open.is_empty() {
            if !self_closing {
                open.push((name, false));
            }
            continue;
        }
        out.push('<');
        out.push_str(name);
        let mut classes: Vec<&str> = Vec::new();
        for (key, value) in attributes(&inside[name_end..]) {
            if key == "style" {
                classes.extend(value.split(';').filter_map(|rule| {
                    STYLE_CLASSES
                        .iter()
                        .find(|(style, _)| *style == rule.trim())
                        .map(|(_, class)| *class)
                }));
            } else if key == "class" {
                classes.extend(value.split_ascii_whitespace().filter(|c| plain_value(c)));
            } else if ATTRIBUTES.contains(&key) && plain_value(value) {
                html::attr(out, key, value);
            }
        }
        if !classes.is_empty() {
            html::attr(out, "class", &classes.join(" "));
        }
        out.push('>');
        if self_closing {
            close(out, name);
        } else {
            open.push((name, true));
        }
    }
    out.push_str(rest.split('<').next().unwrap_or(""));
    while let Some((name, written)) = open.pop() {
        if written {
            close(out, name);
        }
    }
}

fn close(out: &mut String, name: &str) {
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// `key="value"` pairs of a tag's inside (double quotes, as `math-core` and merman write them).
pub(in crate::export) fn attributes(mut s: &str) -> impl Iterator<Item = (&str, &str)> {
    std::iter::from_fn(move || {
        let eq = s.find("=\"")?;
        let key = s[..eq].trim();
        let value_start = eq + 2;
        let value_end = value_start + s[value_start..].find('"')?;
        let value = &s[value_start..value_end];
        s = &s[value_end + 1..];
        Some((key, value))
    })
}

/// A value with nothing a URL, a style or markup needs: letters, digits, spaces, `.`, `-`, `%`, `#`.
fn plain_value(value: &str) -> bool {
    value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '-' | '%' | '#' | '_'))
}

/// Splits inline `<Latex>…</Latex>` out of a paragraph's raw text: the text before, the LaTeX (a
/// string literal `{"…"}` unwrapped) and the rest; `None` when `raw` holds no complete one.
pub(crate) fn inline_latex(raw: &str) -> Option<(&str, Cow<'_, str>, &str)> {
    const OPEN: &str = "<Latex>";
    const CLOSE: &str = "</Latex>";
    let start = raw.find(OPEN)?;
    let inner_start = start + OPEN.len();
    let inner_len = raw[inner_start..].find(CLOSE)?;
    let inner = &raw[inner_start..inner_start + inner_len];
    Some((
        &raw[..start],
        latex_source(inner),
        &raw[inner_start + inner_len + CLOSE.len()..],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn math(latex: &str, display: Display) -> String {
        let mut out = String::new();
        write(&mut out, latex, display);
        out
    }

    #[test]
    fn fractions_keep_their_groups() {
        let out = math(r"\frac{a}{b}", Display::Inline);
        assert!(
            out.starts_with("<math>") && out.ends_with("</math>"),
            "{out}"
        );
        assert!(out.contains("<mfrac><mi>a</mi><mi>b</mi></mfrac>"), "{out}");
        let out = math("E = mc^2", Display::Block);
        assert!(out.starts_with("<math display=\"block\">"), "{out}");
        assert!(out.contains("<msup><mi>c</mi><mn>2</mn></msup>"), "{out}");
    }

    #[test]
    fn styles_links_and_spans_never_reach_the_page() {
        for latex in [
            r"\color{red} x",
            r"\href{javascript:alert(1)}{click}",
            r"\textcolor{blue}{y}",
            r"\begin{align} a &= b \\ c &= d \end{align}",
            r"\textsc{Caps} \textsf{sans}",
            r"\cancel{x} \kern1em y",
        ] {
            let out = math(latex, Display::Block);
            assert!(
                !out.contains(" style=")
                    && !out.contains("href=")
                    && !out.contains("<span")
                    && !out.contains("<a"),
                "{latex}: {out}"
            );
            assert!(out.starts_with("<math"), "{latex}: {out}");
        }
        assert!(math(r"\text{plain words}", Display::Inline)
            .contains("<mtext>plain\u{a0}words</mtext>"));
        let aligned = math(r"\begin{align} a &= b \end{align}", Display::Block);
        assert!(aligned.contains("class=\"math-wide\""), "{aligned}");
    }

    #[test]
    fn latex_that_does_not_parse_is_shown_as_written() {
        let out = math(r"\frac{a", Display::Inline);
        assert!(
            out.starts_with("<code class=\"math-error\" title=\""),
            "{out}"
        );
        assert!(out.ends_with(">\\frac{a</code>"), "{out}");
        assert!(math(r"\unknowncommand x", Display::Inline).starts_with("<math>"));
        assert_eq!(math("  ", Display::Inline), "");
    }

    #[test]
    fn allow_list_rewrites_hostile_markup() {
        let mut out = String::new();
        allow_listed(&mut out, "<math><mi onclick=\"x\" mathvariant=\"normal\">a</mi><script>b</script><mtext><a href=\"javascript:x\">c</a></mtext><math>d</math><mo lspace=\"url(x)\">+</mo></math><mi>after</mi>");
        assert_eq!(
            out,
            "<math><mi mathvariant=\"normal\">a</mi>b<mtext>c</mtext>d<mo>+</mo></math>"
        );
    }

    #[test]
    fn inline_latex_is_split_out_of_text() {
        assert_eq!(
            inline_latex(r"a <Latex>\frac{1}{2}</Latex> b"),
            Some(("a ", r"\frac{1}{2}".into(), " b"))
        );
        assert_eq!(
            inline_latex(r#"<Latex>{"x^2"}</Latex>"#),
            Some(("", "x^2".into(), ""))
        );
        assert_eq!(inline_latex("<Latex>open"), None);
    }

    fn page(body: &str) -> String {
        let tree = crate::docs::archive::tree(&[]);
        let pages = std::collections::BTreeMap::new();
        let links =
            crate::export::render::links::Linker::new("a/b", "a/b.mdx", &pages, &tree, "d.io");
        crate::export::render::markdown::render_mdx(
            body,
            "a/b.mdx",
            &tree,
            &links,
            &crate::export::render::code::PlainCode,
        )
        .html
    }

    #[test]
    fn pages_render_dollar_math_display_blocks_and_latex_components() {
        let out = page("The theorem $(a^2 + b^2 = c^2)$ and $\\frac{a}{b}$ hold.\n\n$$\n{n \\choose k} = \\frac{n!}{k!(n-k)!}\n$$\n\n<Latex>\\sqrt{x}</Latex>\n\nInline <Latex>{\"\\\\alpha_{1}\"}</Latex> too.\n");
        assert!(
            out.contains("<p>The theorem <math><mo stretchy=\"false\">(</mo>"),
            "{out}"
        );
        assert!(out.contains("<mfrac><mi>a</mi><mi>b</mi></mfrac>"), "{out}");
        assert_eq!(out.matches("<math display=\"block\">").count(), 2, "{out}");
        assert!(out.contains("<msqrt><mi>x</mi></msqrt>"), "{out}");
        assert!(
            out.contains("Inline <math><msub><mi>α</mi><mn>1</mn></msub></math> too."),
            "{out}"
        );
        assert!(
            !out.contains('$') && !out.contains("\\frac") && !out.contains("Latex"),
            "{out}"
        );
        assert_eq!(
            crate::export::render::active_content::find_active(&out, &[]),
            None
        );
    }

    #[test]
    fn prices_stay_text() {
        for prose in [
            "It costs $5 and $10.",
            "From $5-$10 a month.",
            "It's $20,000 and $30,000.",
            "Pay \\$59 now.",
        ] {
            let out = page(prose);
            assert!(!out.contains("<math"), "{prose}: {out}");
            assert!(out.contains('$'), "{prose}: {out}");
        }
        assert!(
            page("`$x$` and\n\n```\n$y$\n```\n")
                .matches("<math")
                .count()
                == 0
        );
    }

    #[test]
    fn unclosed_math_leaves_the_rest_of_the_page_alone() {
        let out =
            page("$$\n<Note>\nStill a note.\n</Note>\n\n$$ x\n<Latex>\n\n<Tip>\nTip\n</Tip>\n");
        assert!(
            out.contains("callout-note") && out.contains("callout-tip"),
            "{out}"
        );
    }
}
