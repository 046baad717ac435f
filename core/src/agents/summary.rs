//! Each page's one-line summary: its line in `llms.txt` and in the site outline. A leaf below both
//! (`agents::llms` and `docs::outline`): it reads only the page and escapes Markdown.

use crate::agents::markdown::escape;
use crate::docs::Page;

/// The first line of the page's text, all [`page_summary`] reads of its sections.
pub(crate) fn first_line(page: &Page) -> &str {
    let text = page
        .sections
        .iter()
        .map(|s| s.text.trim())
        .find(|t| !t.is_empty())
        .unwrap_or("");
    // A code fence is markup of the section text, not its first line; a callout's `> ` as well.
    let line = text.lines().find(|l| !l.starts_with("```")).unwrap_or("");
    crate::docs::sections::callout_text(line).unwrap_or(line)
}

/// The page's one-line description in `llms.txt`: its frontmatter `description`, else the first
/// sentence of its text.
pub fn page_summary(page: &Page) -> String {
    if let Some(d) = page
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        return escape::text(&clip(&one_line(d)));
    }
    let first_line = first_line(page);
    let sentence = match first_line.find(". ") {
        Some(end) => &first_line[..=end],
        None => first_line,
    };
    escape::text(&clip(sentence.trim()))
}

pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most 200 characters, cut at a word.
fn clip(text: &str) -> String {
    const MAX: usize = 200;
    if text.chars().count() <= MAX {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX).collect();
    let at = cut.rfind(' ').unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end())
}
