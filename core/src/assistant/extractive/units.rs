//! A relevant passage parsed into quotable units: sentences, and whole lists, tables and code blocks.

use super::blocks::{is_fragment, parse_blocks, Block};
use super::markdown::{quoted_code, snippet_terms};
use super::sentences::{is_bare_intro, is_cross_reference, is_title_line, refers_back};
use super::tuning::{CLOSE_EVIDENCE, MAX_CODE_UNIT_CHARS, SCORE_IN_EVIDENCE};
use crate::assistant::passage::Passage;
use crate::assistant::query::terms;
use crate::text::is_cjk;

/// One relevant passage, parsed.
pub(super) struct Analyzed<'p> {
    pub(super) index: usize,
    pub(super) passage: &'p Passage,
    pub(super) blocks: Vec<Block>,
    pub(super) units: Vec<Unit>,
    pub(super) heading_terms: Vec<String>,
    pub(super) relevant: bool,
}

/// A quotable piece: one sentence, or a whole list, table or code block.
pub(super) struct Unit {
    pub(super) block: usize,
    pub(super) seq: usize,
    pub(super) text: String,
    pub(super) terms: Vec<String>,
    /// A block quoted whole on its own lines (list, table, code), not a sentence of prose.
    pub(super) is_list: bool,
    pub(super) is_code: bool,
    /// A sentence of a callout (`<Note>`, `<Warning>`): quoted after the answer, never leading it.
    pub(super) aside: bool,
    /// A table row or list item opening with an identifier the question names (`waitFor` — integer
    /// — Extra wait time …): where the page says what it is.
    pub(super) defines: bool,
}

impl Unit {
    /// A sentence the answer should not open with: a callout's aside, a bare intro, a title line, a
    /// pointer to another page ("See an example of a hidden page.") whose link the quote has lost,
    /// or one that refers back to a sentence the answer does not quote before it ("This lets you …").
    pub(super) fn leads_poorly(&self) -> bool {
        self.aside
            || is_bare_intro(&self.text)
            || is_title_line(&self.text)
            || self.points_elsewhere()
    }

    /// Prose the answer can open with (a list, table or code block is never the lead).
    pub(super) fn can_lead(&self) -> bool {
        !self.is_list && !self.leads_poorly()
    }

    pub(super) fn points_elsewhere(&self) -> bool {
        is_cross_reference(&self.text) || refers_back(&self.text)
    }
}

impl<'p> Analyzed<'p> {
    /// `lenient`: the answer will say it quotes the closest passage (see `close` below).
    pub(super) fn new(index: usize, passage: &'p Passage, q: &[String], lenient: bool) -> Self {
        let blocks = parse_blocks(&passage.text);
        let mut units = Vec::new();
        let mut all_terms = terms(&format!("{} {}", passage.title, passage.heading));
        let heading_terms = all_terms.clone();
        for (b, block) in blocks.iter().enumerate() {
            match block {
                Block::Prose(sentences) | Block::Aside(sentences) => {
                    let aside = matches!(block, Block::Aside(_));
                    for (seq, s) in sentences.iter().enumerate() {
                        // An FAQ's question is the page's label for its answer, not part of it:
                        // quoted, it reads as the answer asking back ("Why was I charged $59?").
                        if is_fragment(s) || s.trim_end().ends_with(['?', '？']) {
                            all_terms.extend(terms(s));
                            continue;
                        }
                        units.push(Unit {
                            block: b,
                            seq,
                            text: s.clone(),
                            terms: terms(s),
                            is_list: false,
                            is_code: false,
                            aside,
                            defines: false,
                        });
                    }
                }
                // A grid of cards is a list whose items stand alone: the one card a question
                // names is quoted, not the forty beside it.
                Block::Cards(items) => {
                    for (seq, item) in items.iter().enumerate() {
                        let (label, line) = item
                            .trim_start_matches("- ")
                            .split_once(": ")
                            .unwrap_or(("", item));
                        all_terms.extend(terms(label));
                        units.push(Unit {
                            block: b,
                            seq,
                            terms: terms(line),
                            text: item.clone(),
                            is_list: true,
                            is_code: false,
                            aside: false,
                            defines: false,
                        });
                    }
                }
                Block::List(items) | Block::Table(items) => {
                    // The one item defining what the question names is quoted alone (the row of
                    // `waitFor`, not the table of every parameter); a question naming several of
                    // the items asks about the list.
                    let mut named = items
                        .iter()
                        .enumerate()
                        .filter(|(_, i)| defines_asked(i, q));
                    let defining = match (named.next(), named.next()) {
                        (Some((k, _)), None) => Some(k),
                        _ => None,
                    };
                    if let Some(k) = defining {
                        // The other items still tell what the passage is about.
                        for (i, item) in items.iter().enumerate() {
                            if i != k {
                                all_terms.extend(terms(item));
                            }
                        }
                        units.push(Unit {
                            block: b,
                            seq: 0,
                            terms: terms(&items[k]),
                            text: items[k].clone(),
                            is_list: true,
                            is_code: false,
                            aside: false,
                            defines: true,
                        });
                        continue;
                    }
                    let text = items.join("\n");
                    units.push(Unit {
                        block: b,
                        seq: 0,
                        terms: terms(&text),
                        text,
                        is_list: true,
                        is_code: false,
                        aside: false,
                        defines: false,
                    });
                }
                // A snippet is an answer of its own ("npm install …"), quoted whole in its fence;
                // one too long to quote still tells what the passage is about.
                Block::Code { lang, title, code }
                    if code.chars().count() <= MAX_CODE_UNIT_CHARS =>
                {
                    units.push(Unit {
                        block: b,
                        seq: 0,
                        terms: snippet_terms(title, code),
                        text: quoted_code(lang, title, code),
                        is_list: true,
                        is_code: true,
                        aside: false,
                        defines: false,
                    });
                }
                Block::Code { code, .. } | Block::Diagram(code) => all_terms.extend(terms(code)),
            }
        }
        for u in &units {
            all_terms.extend(u.terms.iter().cloned());
        }
        merge_before_after(&blocks, &mut units);
        let matched: Vec<&String> = q.iter().filter(|t| all_terms.contains(t)).collect();
        let have = effective_count(matched.iter().map(|t| t.as_str()));
        let want = effective_count(q.iter().map(|t| t.as_str()));
        // Retrieval weighs the question's terms by rarity, this count does not: for an answer that
        // quotes the closest passage anyway, one holding the one rare term of "how long are cached
        // responses kept" ("Requests will be cached for 3 days") and close by retrieval's measure is
        // relevant, though it shares no other word with the question.
        let close =
            lenient && passage.coverage + SCORE_IN_EVIDENCE * passage.score >= CLOSE_EVIDENCE;
        let relevant =
            !matched.is_empty() && (close || have + 1e-6 >= want.min((want * 0.34).max(1.0)));
        Self {
            index,
            passage,
            blocks,
            units,
            heading_terms,
            relevant,
        }
    }
}

/// A migration's pair of snippets, labelled "Before" and "After" (the old `config.json` form, then
/// its `config.yaml` replacement), is one unit: the After snippet, matched by the words of both. A
/// question names the old form it wants replaced, and quoting that alone hands the reader the
/// deprecated code.
fn merge_before_after(blocks: &[Block], units: &mut Vec<Unit>) {
    let labelled = |u: &Unit, label: &str| {
        u.is_code
            && u.block > 0
            && matches!(&blocks[u.block - 1], Block::Prose(lines)
                if lines.iter().any(|l| l.trim().trim_end_matches(':').eq_ignore_ascii_case(label)))
    };
    let mut i = 0;
    while i < units.len() {
        let after = labelled(&units[i], "before")
            .then(|| (i + 1..units.len()).find(|&k| units[k].is_code))
            .flatten()
            .filter(|&k| labelled(&units[k], "after"));
        match after {
            Some(k) => {
                let before = units.remove(i);
                units[k - 1].terms.extend(before.terms);
            }
            None => i += 1,
        }
    }
}

/// Word terms count 1, CJK bigrams ½: a Chinese question yields bigrams across word boundaries that
/// never match, and should not need more matches than its English twin.
pub(super) fn effective_count<'a>(terms: impl Iterator<Item = &'a str>) -> f32 {
    terms
        .map(|t| if t.chars().any(is_cjk) { 0.5 } else { 1.0 })
        .sum()
}

impl Unit {
    /// A code block, or a code span that reads as a name (a key, flag, path or call: no spaces, or
    /// code punctuation) which `known` (lowercased) does not already hold.
    pub(super) fn names_new(&self, known: &str) -> bool {
        if self.is_code {
            return true;
        }
        // A list item that is only a code span (an error message among those a symptom shows)
        // lists values; it says nothing about them.
        let said = |line: &&str| {
            let item = line.trim().trim_start_matches("- ").trim();
            !(item.starts_with('`') && item.ends_with('`') && item.matches('`').count() == 2)
        };
        self.text.lines().filter(said).any(|line| {
            line.split('`').skip(1).step_by(2).any(|span| {
                let span = span.trim();
                let name_like = !span.contains(char::is_whitespace)
                    || span.contains(['=', '.', '/', '_', '(', '{', '[', '<', '$'])
                    || span.starts_with('-');
                !span.is_empty() && name_like && !known.contains(&span.to_lowercase())
            })
        })
    }
}

/// A list item or table row (`- \`waitFor\` — integer (ms) — …`, `- \`max_size\`: …`) that opens
/// with a code span the question names as one of its terms.
fn defines_asked(item: &str, q: &[String]) -> bool {
    let Some(rest) = item.trim_start_matches("- ").strip_prefix('`') else {
        return false;
    };
    let Some((name, _)) = rest.split_once('`') else {
        return false;
    };
    let name = name.trim();
    // Shaped like an identifier (`waitFor`, `max_size`, `api.key`): a plain word or a number
    // (`permanent`, `307`) opening a list item is a value among others, not the asked name.
    let shaped = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && (name.chars().skip(1).any(|c| c.is_ascii_uppercase()) || name.contains(['_', '.', '-']));
    let lower = name.to_lowercase();
    shaped && q.contains(&lower)
}
