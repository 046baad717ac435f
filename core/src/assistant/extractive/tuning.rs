//! The thresholds and caps of the extractive answer, each measured by the eval
//! (docs/assistant/quality.mdx) where it says so.

/// Only the head of the ranking is read; lower passages would only dilute the answer.
pub(super) const MAX_PASSAGES: usize = 8;

/// Retrieval evidence that the docs cover a question: some passage's coverage (the IDF-weighted
/// share of the question's terms it contains, rare terms weighing most) plus this share of its
/// score must reach `COVERED_EVIDENCE`. A question naming something the docs never mention
/// ("Disqus", "AsciiDoc") leaves its rarest term unmatched and stays below; a paraphrase of a
/// covered topic misses a common word or two, and a strong title or heading match makes up for
/// that. Measured by the eval's refusal and false-refusal rates (docs/assistant/quality.mdx).
pub(super) const SCORE_IN_EVIDENCE: f32 = 0.2;

/// Longer code blocks are never quoted: a workflow file cut in the middle reads worse than the link.
pub(super) const MAX_CODE_UNIT_CHARS: usize = 1500;

pub(super) const COVERED_EVIDENCE: f32 = 0.5;

/// Below `COVERED_EVIDENCE` but at least this: a passage is close to the question without answering
/// it squarely (a long question's narrative, a paraphrase the docs word otherwise). The answer
/// quotes it and says first that the docs do not state this directly (`Answer::uncertain`). Below
/// it, or when the question names something no page mentions (coverage 0), the answer refuses.
pub(super) const CLOSE_EVIDENCE: f32 = 0.2;

/// A further page is cited only when it supports the answer on both counts: its best quote is at
/// least `MIN_QUOTE_SHARE` as good as the lead's, and that share times its retrieval score's share of
/// the lead's reaches `MIN_SUPPORT`. A page that shares one apt sentence with the question but that
/// retrieval scored far below the lead (a page that mentions the subject in passing), or one
/// retrieval liked whose best sentence only brushes the question, only dilutes the sources. Measured
/// by the eval's citation precision and recall on every set (docs/assistant/quality.mdx).
pub(super) const MIN_QUOTE_SHARE: f32 = 0.5;

pub(super) const MIN_SUPPORT: f32 = 0.5;

/// Another section of the lead's page names no new source; its quote only has to be this good.
pub(super) const SAME_PAGE_QUOTE_SHARE: f32 = 0.6;

/// A line of prose without final punctuation (an image's alt text, a step's or a tutorial card's
/// title, "Badge" under each of eleven badges) is quoted only when it matches far better than the
/// sentences around it: its score is weighed by this. Quoted as filler it reads as a sentence cut
/// short ("… Integration Tutorial [1]"); some hold what a question names and nothing else does
/// ("First class support for Command-R-Plus thumbnail"). 0.3 and 0.4 measure alike on every set,
/// 0.5 as no weight, 0.2 loses that agentops fact (docs/assistant/quality.mdx).
pub(super) const TITLE_LINE_WEIGHT: f32 = 0.35;

/// For a question asking how, which or where, a unit that names something in code (a config key, a
/// command, a flag in backticks, or a snippet) is weighed by this: that name is what the reader acts on.
pub(super) const NAMES_WEIGHT: f32 = 1.3;

/// A table row or list item opening with the identifier the question asks about (`waitFor` —
/// integer — Extra wait time …) is weighed by this: it is where the page says what that is, while a
/// sentence listing it among others ("these parameters must match: `url`, `waitFor` …") only
/// mentions it.
pub(super) const DEFINITION_WEIGHT: f32 = 2.0;

/// A unit longer than this many words (or a third of its characters, whichever is more) weighs less
/// the longer it is: a long unit holds the question's words by chance.
pub(super) const FREE_WORDS: f32 = 40.0;

/// The same for a code block, when the question asks how (or which, or where): the block is what
/// the reader runs, and its syntax spends words that say nothing. At 40, a block holding five of
/// six question terms (`@mcp.tool(task=TaskConfig(mode="required"))` under "# Requires background
/// execution" for "force a tool to only run as a background task") lost to one sentence holding
/// three. Measured on every set (docs/assistant/quality.mdx): dev key facts 58 → 60, no other fact
/// moved.
pub(super) const CODE_FREE_WORDS: f32 = 80.0;

/// A lead section of at most this many units, and this many snippets, is quoted whole when its
/// prose fits (`quote_short_section`).
pub(super) const WHOLE_SECTION_UNITS: usize = 8;

pub(super) const MAX_SNIPPETS_IN_SECTION: usize = 2;

/// An answer quoting one sentence shorter than this also quotes what follows it in its passage.
pub(super) const THIN_LEAD_CHARS: usize = 160;

/// A lead passage quoted whole in fewer characters than this (a sentence or two opening the page)
/// goes on with the page's next retrieved section.
pub(super) const THIN_SECTION_CHARS: usize = 2 * THIN_LEAD_CHARS;

/// A section heading holding a name the question writes (a key in backticks, an identifier, a
/// product noun: `text::question::identifiers`) adds this much of that name's weight to the section's lead score, beside the 0.3 of
/// every heading term.
pub(super) const NAMED_HEADING_WEIGHT: f32 = 0.7;

/// A changelog or release notes passage's rank factor is weighed by this unless the question asks
/// about history (`search::page_kind`): its entry holds the question's words ("ResponseLimitingMiddleware
/// caps tool response sizes") and led over the middleware's own section.
pub(super) const HISTORY_RANK_WEIGHT: f32 = 0.5;

/// A passage's lead score keeps `1 - w + w * share` of itself, the share being the weight of the
/// question's names (`held_names`: `Azure`, `OpenAI`, a code span) it holds anywhere, its heading
/// and title included. At 0.5 dev key facts 69 → 70 and no fact of any set fell; at 0.3 none gained,
/// at 1 (a passage holding no name scores 0) six were lost (docs/assistant/quality.mdx).
pub(super) const NAMES_HELD_WEIGHT: f32 = 0.5;
