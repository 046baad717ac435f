//! Pages to retrieval chunks: one per section, long sections cut near [`MAX_CHUNK_CHARS`].
//!
//! Pieces of a cut section are exact substrings that concatenate back to the section text, so the
//! page endpoint can reassemble the page from chunks alone and the text is stored only once.

use crate::docs::sections::is_fence_line;
use crate::docs::Page;

/// About a screenful: long enough to answer from, short enough that a hit points somewhere precise
/// and that a handful fit in an LLM prompt.
pub(crate) const MAX_CHUNK_CHARS: usize = 1500;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Draft<'a> {
    pub heading: &'a str,
    pub anchor: &'a str,
    pub level: u8,
    /// Continues the previous draft's section (a later piece of a cut section).
    pub continued: bool,
    pub text: &'a str,
}

pub(crate) fn chunk_page(page: &Page) -> Vec<Draft<'_>> {
    let mut out = Vec::new();
    for section in &page.sections {
        // An intro with nothing in it would be a chunk that only matches on the page title.
        if section.heading.is_empty() && section.text.trim().is_empty() {
            continue;
        }
        for (i, piece) in split_text(&section.text, MAX_CHUNK_CHARS)
            .into_iter()
            .enumerate()
        {
            out.push(Draft {
                heading: &section.heading,
                anchor: &section.anchor,
                level: section.level,
                continued: i > 0,
                text: piece,
            });
        }
    }
    if out.is_empty() {
        // Keep one chunk so the page stays findable by its title.
        out.push(Draft {
            heading: "",
            anchor: "",
            level: 0,
            continued: false,
            text: "",
        });
    }
    out
}

/// Cuts `text` into pieces of at most about `max` characters, preferring a blank line in the second
/// half of the window, then a line break, then a space; a line outside a fenced code block before one
/// inside it, so a piece rarely starts or ends mid-block (the answer would read code as prose). A
/// remainder up to a quarter over `max` stays whole rather than leaving a scrap.
pub(crate) fn split_text(text: &str, max: usize) -> Vec<&str> {
    let max = max.max(16);
    let slack = max + max / 4;
    let mut pieces = Vec::new();
    let mut rest = text;
    let mut in_fence = false;
    loop {
        if rest.char_indices().nth(slack).is_none() {
            pieces.push(rest);
            break;
        }
        let limit = rest.char_indices().nth(max).map_or(rest.len(), |(i, _)| i);
        let window = rest.get(..limit).unwrap_or(rest);
        let outside = line_starts_outside_fences(window, in_fence);
        let blank_outside = outside
            .iter()
            .rev()
            .find(|&&i| i >= limit / 2 && window.get(..i).is_some_and(|h| h.ends_with("\n\n")));
        let cut = blank_outside
            .or_else(|| outside.iter().rev().find(|&&i| i >= limit / 3))
            .copied()
            .or_else(|| {
                window
                    .rfind("\n\n")
                    .filter(|&i| i >= limit / 2)
                    .map(|i| i + 2)
            })
            .or_else(|| {
                window
                    .rfind('\n')
                    .filter(|&i| i >= limit / 3)
                    .map(|i| i + 1)
            })
            .or_else(|| window.rfind(' ').filter(|&i| i >= limit / 3).map(|i| i + 1))
            .unwrap_or(limit);
        match (rest.get(..cut), rest.get(cut..)) {
            (Some(head), Some(tail)) if !head.is_empty() => {
                in_fence = fence_open_after(head, in_fence);
                pieces.push(head);
                rest = tail;
            }
            _ => {
                pieces.push(rest);
                break;
            }
        }
    }
    pieces
}

/// Offsets (after a line break) where a line starts outside a fenced code block; `in_fence` is whether
/// `text` starts inside one.
fn line_starts_outside_fences(text: &str, mut in_fence: bool) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        in_fence ^= is_fence_line(line);
        at += line.len();
        if !in_fence && line.ends_with('\n') {
            out.push(at);
        }
    }
    out
}

fn fence_open_after(text: &str, in_fence: bool) -> bool {
    text.split_inclusive('\n')
        .fold(in_fence, |open, line| open ^ is_fence_line(line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::Section;

    #[test]
    fn long_text_is_cut_at_paragraphs_and_concatenates_back() {
        let para = "word ".repeat(60) + "\n\n";
        let text = para.repeat(20);
        let pieces = split_text(&text, 1500);
        assert!(pieces.len() > 1);
        assert_eq!(pieces.concat(), text);
        for p in &pieces[..pieces.len() - 1] {
            assert!(p.ends_with("\n\n"));
            assert!(p.chars().count() <= 1500);
        }
    }

    #[test]
    fn a_cut_falls_between_code_blocks_rather_than_inside_one() {
        let block = format!("```\n{}```\n\n", "let x = 1;\n\nlet y = 2;\n".repeat(12));
        let text = format!("Intro sentence.\n\n{}", block.repeat(12));
        let pieces = split_text(&text, 1500);
        assert!(pieces.len() > 1);
        assert_eq!(pieces.concat(), text);
        for p in &pieces {
            let fences = p.lines().filter(|l| l.starts_with("```")).count();
            assert_eq!(fences % 2, 0, "a piece cut inside a block: {p:?}");
        }
    }

    #[test]
    fn a_single_huge_line_is_still_cut() {
        let text = "x".repeat(5000) + "é".repeat(5000).as_str();
        let pieces = split_text(&text, 1500);
        assert_eq!(pieces.concat(), text);
        assert!(pieces.iter().all(|p| p.chars().count() <= 1875));
    }

    #[test]
    fn empty_intro_is_merged_away_and_empty_pages_keep_one_chunk() {
        let mut page = Page {
            title: "T".into(),
            ..Default::default()
        };
        assert_eq!(chunk_page(&page).len(), 1);
        page.sections = vec![
            Section {
                text: " \n".into(),
                ..Default::default()
            },
            Section {
                heading: "A".into(),
                anchor: "a".into(),
                level: 2,
                text: "body".into(),
            },
        ];
        let drafts = chunk_page(&page);
        assert_eq!(drafts.len(), 1);
        assert_eq!(drafts[0].heading, "A");
    }
}
