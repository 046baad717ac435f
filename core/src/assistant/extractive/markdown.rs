//! Writing quoted text as Markdown: fences, sentence joins, link labels and addresses.

use crate::assistant::passage::Passage;
use crate::assistant::query::terms;
use crate::text::is_cjk;

pub(super) fn fenced(lang: &str, code: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(code).max(2) + 1);
    format!("{fence}{lang}\n{code}\n{fence}")
}

/// The terms a snippet is matched by: its title's and its code's.
pub(super) fn snippet_terms(title: &str, code: &str) -> Vec<String> {
    terms(&format!("{title}\n{code}"))
}

/// A snippet as the answer quotes it: under the file (`Shuttle.toml`, in code) or the caption
/// ("Apply rate limit with IP", a tab's label) its block names, when it names one.
pub(super) fn quoted_code(lang: &str, title: &str, code: &str) -> String {
    let block = fenced(lang, code);
    match title {
        "" => block,
        caption if caption.contains(char::is_whitespace) => format!("{caption}:\n{block}"),
        file => format!("`{file}`:\n{block}"),
    }
}

pub(super) fn longest_backtick_run(code: &str) -> usize {
    code.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Sentences joined with a space, except between CJK sentences, which are written without one.
pub(super) fn join_sentences(run: &[&str]) -> String {
    let mut out = String::new();
    for s in run {
        let cjk_seam = out
            .chars()
            .last()
            .is_some_and(|c| is_cjk(c) || is_cjk_punct(c))
            && s.chars().next().is_some_and(is_cjk);
        // A line without final punctuation (a card's subtitle, a hero's tagline) would run into
        // the next sentence as if one.
        if out
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() && !is_cjk(c))
        {
            out.push('.');
        }
        if !out.is_empty() && !cjk_seam {
            out.push(' ');
        }
        out.push_str(s);
    }
    out
}

pub(super) fn is_cjk_punct(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '；' | '：' | '）' | '」' | '』')
}

pub(super) fn escape_label(label: &str) -> String {
    label.replace('[', "\\[").replace(']', "\\]")
}

pub(super) fn escape_url(url: &str) -> String {
    url.replace(' ', "%20")
        .replace('(', "%28")
        .replace(')', "%29")
}

pub(super) fn title_or_path(p: &Passage) -> String {
    if p.title.trim().is_empty() {
        p.path.clone()
    } else {
        p.title.trim().to_string()
    }
}
