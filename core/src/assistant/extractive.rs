//! The offline answer backend: quotes the best sentences, lists and one code block from the ranked
//! passages, with numbered citations. Deterministic (no maps with random iteration, no clocks), so the
//! same question over the same index always streams the same bytes — air-gapped deployments rely on
//! that for their own tests.
//!
//! Composition, in order:
//! 1. Retrieval's evidence (a passage's coverage plus a share of its score): enough, and the answer
//!    is stated; close (`CLOSE_EVIDENCE`), and the answer quotes the closest passage after saying the
//!    docs do not state this directly (`Answer::uncertain`); less, or a question naming what no page
//!    mentions, and a plain "not covered" answer lists the closest pages. Question terms
//!    (`query::terms`); a passage is relevant when it contains about a third of them (CJK bigrams
//!    count half, as many are word-boundary noise), or for an uncertain answer when retrieval finds
//!    it close, and its score is at least `min_score`. No relevant passage: an answer that was to be
//!    stated becomes uncertain, an uncertain one "not covered".
//! 2. Every sentence, list and table of the relevant passages is scored by the question terms it
//!    contains, each term weighted by how rare it is among those units, damped for long units and for
//!    lower retrieval rank.
//! 3. Up to `max_sources` passages are quoted: the one with the best unit leads, and another page
//!    only when its quote and its retrieval score both hold up beside the lead's (`MIN_SUPPORT`);
//!    the best sentence that can open an answer leads (not a callout's aside, a pointer to another
//!    page, a sentence that refers back, a title line or a bare intro such as "Try the following:",
//!    unless nothing else is quoted), then the other picks of each passage in document order (a sentence ending in `:`
//!    brings the list it introduces), grouped by passage, each group cited `[n]`. A first passage
//!    quoting only pointers elsewhere gives the opening to the next that has a lead.
//!    Prose is capped at `max_prose_chars`.
//!    A lead that is one short sentence also quotes the unit after it, which usually says how.
//! 4. For every question but "why …" and "what is …", one code block from the quoted passages, else
//!    from another retrieved section of the lead's page (its "Installation" under the page that
//!    answers).
//! 5. A "Sources" list maps `[n]` to section links. `Answer::sources` lists the passage indices in `[n]`
//!    order.

mod blocks;
mod chunks;

use super::passage::Passage;
use super::query::terms;
use super::refusal::{NOT_COVERED_EN, NOT_COVERED_JA, NOT_COVERED_KO, NOT_COVERED_ZH};
use crate::text::{is_cjk, is_kana};
use blocks::{is_fragment, parse_blocks, Block};

pub use chunks::stream_chunks;

/// Only the head of the ranking is read; lower passages would only dilute the answer.
const MAX_PASSAGES: usize = 8;
/// Retrieval evidence that the docs cover a question: some passage's coverage (the IDF-weighted
/// share of the question's terms it contains, rare terms weighing most) plus this share of its
/// score must reach `COVERED_EVIDENCE`. A question naming something the docs never mention
/// ("Disqus", "AsciiDoc") leaves its rarest term unmatched and stays below; a paraphrase of a
/// covered topic misses a common word or two, and a strong title or heading match makes up for
/// that. Measured by the eval's refusal and false-refusal rates (docs/assistant/quality.mdx).
const SCORE_IN_EVIDENCE: f32 = 0.2;
/// Longer code blocks are never quoted: a workflow file cut in the middle reads worse than the link.
const MAX_CODE_UNIT_CHARS: usize = 1500;
const COVERED_EVIDENCE: f32 = 0.5;
/// Below `COVERED_EVIDENCE` but at least this: a passage is close to the question without answering
/// it squarely (a long question's narrative, a paraphrase the docs word otherwise). The answer
/// quotes it and says first that the docs do not state this directly (`Answer::uncertain`). Below
/// it, or when the question names something no page mentions (coverage 0), the answer refuses.
const CLOSE_EVIDENCE: f32 = 0.2;
/// A further page is cited only when it supports the answer on both counts: its best quote is at
/// least `MIN_QUOTE_SHARE` as good as the lead's, and that share times its retrieval score's share of
/// the lead's reaches `MIN_SUPPORT`. A page that shares one apt sentence with the question but that
/// retrieval scored far below the lead (a page that mentions the subject in passing), or one
/// retrieval liked whose best sentence only brushes the question, only dilutes the sources. Measured
/// by the eval's citation precision and recall on every set (docs/assistant/quality.mdx).
const MIN_QUOTE_SHARE: f32 = 0.5;
const MIN_SUPPORT: f32 = 0.5;
/// Another section of the lead's page names no new source; its quote only has to be this good.
const SAME_PAGE_QUOTE_SHARE: f32 = 0.6;
/// A line of prose without final punctuation (an image's alt text, a step's or a tutorial card's
/// title, "Badge" under each of eleven badges) is quoted only when it matches far better than the
/// sentences around it: its score is weighed by this. Quoted as filler it reads as a sentence cut
/// short ("… Integration Tutorial [1]"); some hold what a question names and nothing else does
/// ("First class support for Command-R-Plus thumbnail"). 0.3 and 0.4 measure alike on every set,
/// 0.5 as no weight, 0.2 loses that agentops fact (docs/assistant/quality.mdx).
const TITLE_LINE_WEIGHT: f32 = 0.35;

/// For a question asking how, which or where, a unit that names something in code (a config key, a
/// command, a flag in backticks, or a snippet) is weighed by this: that name is what the reader acts on.
const NAMES_WEIGHT: f32 = 1.3;

/// A lead section of at most this many units, and this many snippets, is quoted whole when its
/// prose fits (`quote_short_section`).
const WHOLE_SECTION_UNITS: usize = 8;
const MAX_SNIPPETS_IN_SECTION: usize = 2;

/// An answer quoting one sentence shorter than this also quotes what follows it in its passage.
const THIN_LEAD_CHARS: usize = 160;
/// A lead passage quoted whole in fewer characters than this (a sentence or two opening the page)
/// goes on with the page's next retrieved section.
const THIN_SECTION_CHARS: usize = 2 * THIN_LEAD_CHARS;

/// The composed answer, already cut into stream pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Text pieces to stream in order; their concatenation is the whole Markdown answer.
    pub chunks: Vec<String>,
    /// Indices into the input passages actually quoted, in citation order (`[1]` first). Empty when
    /// the documentation does not cover the question (the suggested pages are not sources).
    pub sources: Vec<usize>,
    /// False when the answer says the documentation does not cover the question.
    pub covered: bool,
    /// No passage answers the question squarely: the answer quotes the closest one and says so first.
    pub uncertain: bool,
}

impl Answer {
    pub fn text(&self) -> String {
        self.chunks.concat()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExtractiveOptions {
    /// Passages scoring below this are ignored. Retrieval scores are not calibrated across sites,
    /// so the default only drops non-positive nonsense; term coverage does the real gating.
    pub min_score: f32,
    /// Cap on quoted prose (sentences, lists), in characters; code and the sources list are extra.
    pub max_prose_chars: usize,
    /// Most passages quoted.
    pub max_sources: usize,
    /// Longer code blocks are never quoted.
    pub max_code_chars: usize,
}

impl Default for ExtractiveOptions {
    fn default() -> Self {
        Self {
            min_score: 0.0,
            max_prose_chars: 1200,
            max_sources: 3,
            max_code_chars: 1500,
        }
    }
}

/// The answer to `question` from ranked `passages` with default options.
pub fn compose_answer(question: &str, passages: &[Passage]) -> Answer {
    compose_answer_with(question, passages, &ExtractiveOptions::default())
}

/// Same as [`compose_answer`] with explicit thresholds and caps.
pub fn compose_answer_with(
    question: &str,
    passages: &[Passage],
    opts: &ExtractiveOptions,
) -> Answer {
    let words = Words::for_question(question);
    let q = terms(question);
    if q.is_empty() {
        return finish(words.empty_question.to_string(), Vec::new(), false);
    }
    let mut uncertain = !is_covered(passages);
    if uncertain && !is_close(passages) {
        return not_covered(&words, passages);
    }
    // A name the question writes (`Go`, `Hebrew`) that the passages hold only as another word ("go
    // to the settings") is not what they are about: search matched the word, not the name.
    uncertain |= names_unmet(question, passages);
    let analyze = |lenient: bool| -> Vec<Analyzed> {
        passages
            .iter()
            .enumerate()
            .take(MAX_PASSAGES)
            .filter(|(_, p)| p.score >= opts.min_score)
            .map(|(i, p)| Analyzed::new(i, p, &q, lenient))
            .filter(|a| a.relevant)
            .collect()
    };
    let mut analyzed = analyze(uncertain);
    // Retrieval says the docs cover the question but no passage shares enough of its words: the
    // closest is quoted as such rather than refused.
    if analyzed.is_empty() && !uncertain {
        uncertain = true;
        analyzed = analyze(true);
    }
    if analyzed.is_empty() {
        return not_covered(&words, passages);
    }
    let weights = TermWeights::new(&q, &analyzed);
    let wants_code = asks_for_code(question);
    let mut scored: Vec<Scored> = analyzed
        .iter()
        .enumerate()
        .map(|(rank, a)| Scored::new(a, rank, &weights, wants_code))
        .collect();
    // Stable sort keeps retrieval order for ties.
    crate::sort::sort_by(&mut scored, |a, b| b.best.total_cmp(&a.best));
    let top = scored.first().map(|s| s.best).unwrap_or(0.0);
    if top <= 0.0 {
        return not_covered(&words, passages);
    }
    let lead = &scored[0];
    let chosen: Vec<&Scored> = scored
        .iter()
        .enumerate()
        .filter(|(i, s)| *i == 0 || earns_citation(s, lead, top))
        .map(|(_, s)| s)
        .take(opts.max_sources.max(1))
        .collect();

    // The passage a thin lead's page continues in, analyzed only when one is looked for.
    let continuation = std::cell::OnceCell::new();
    let mut budget = opts.max_prose_chars;
    let mut groups: Vec<Group> = Vec::new();
    // Near-copy pages (one per product or version) repeat sentences word for word; each is quoted once.
    let mut quoted: Vec<&str> = Vec::new();
    let mut code_quoted = false;
    for (i, s) in chosen.iter().enumerate() {
        let mut picks = pick_units(s, if i == 0 { 4 } else { 2 }, &mut budget);
        if i == 0 {
            quote_around_best(&s.a.units, &mut picks, &mut budget);
            quote_short_section(&s.a.units, &mut picks, &mut budget);
        }
        // A page may also repeat a sentence of its own (an intro restated under a heading).
        let mut seen: Vec<&str> = Vec::new();
        picks.retain(|&u| {
            let text = s.a.units[u].text.as_str();
            let fresh = !quoted.contains(&text) && !seen.contains(&text);
            seen.push(text);
            fresh
        });
        // One snippet per answer; more is a page, not an answer.
        if code_quoted {
            picks.retain(|&u| !s.a.units[u].is_code);
        }
        code_quoted |= picks.iter().any(|&u| s.a.units[u].is_code);
        drop_dangling_intros(&s.a.units, &mut picks);
        quoted.extend(picks.iter().map(|&u| s.a.units[u].text.as_str()));
        let endpoint = endpoint_line(s.a.passage);
        picks.retain(|&u| Some(s.a.units[u].text.trim()) != endpoint);
        // An operation's parameters, body or responses quoted without its intro still say which
        // call they belong to, when retrieval brought the intro too.
        let endpoint = endpoint
            .or_else(|| {
                is_operation_section(s.a.passage)
                    .then(|| {
                        passages
                            .iter()
                            .filter(|p| p.path == s.a.passage.path)
                            .find_map(endpoint_line)
                    })
                    .flatten()
            })
            .map(str::to_owned);
        if !picks.is_empty() {
            groups.push(Group {
                passage: s.a.index,
                analyzed: s.a,
                picks,
                code: None,
                endpoint,
            });
        }
    }
    // A lone short sentence often only restates the question ("You can customize the title of the
    // 404 page."); what follows it in the passage says how.
    for g in groups.iter_mut() {
        let units = &g.analyzed.units;
        if let [only] = g.picks[..] {
            let next = only + 1;
            let thin = !units[only].is_list && units[only].text.chars().count() < THIN_LEAD_CHARS;
            // A title line, a pointer or an aside would only pad it.
            let says_more = units
                .get(next)
                .is_some_and(|u| (u.is_list || !u.leads_poorly()) && !(u.is_code && code_quoted));
            if thin && says_more {
                code_quoted |= units[next].is_code;
                g.picks.push(next);
            }
        }
    }
    if let Some(next) = continue_thin_lead(
        &groups,
        passages,
        &q,
        &continuation,
        &mut budget,
        code_quoted,
    ) {
        code_quoted |= next.picks.iter().any(|&u| next.analyzed.units[u].is_code);
        groups.insert(1, next);
    }
    // An answer to a how-question that names nothing the question did not has restated it (the
    // symptom a troubleshooting section opens with, "errors such as …"); the reader acts on a key,
    // a flag, a step or a snippet. The best unit naming one goes on the answer.
    if wants_code && !groups.is_empty() && !groups.iter().any(|g| g.names_new(question)) {
        if let Some((s, unit)) = best_naming_unit(&scored, &groups, question, budget) {
            code_quoted |= s.a.units[unit].is_code;
            match groups.iter_mut().find(|g| g.passage == s.a.index) {
                Some(g) => g.picks.push(unit),
                None => groups.push(Group {
                    passage: s.a.index,
                    analyzed: s.a,
                    picks: vec![unit],
                    code: None,
                    endpoint: None,
                }),
            }
        }
    }
    if asks_for_code(question) && !code_quoted && !attach_code(&mut groups, &weights, opts) {
        if let Some(g) = code_from_lead_page(&groups, &analyzed, &weights, opts) {
            groups.push(g);
        }
    }
    if groups.is_empty() {
        return not_covered(&words, passages);
    }
    // A first group whose every sentence points elsewhere (a lone "…, see CSP configuration.")
    // opens the answer after the first group that has a sentence to lead with. An aside or a
    // list's intro, quoted with its list, still leads: it is what the passage says.
    if groups[0].only_points_elsewhere() {
        if let Some(better) = groups.iter().position(|g| g.has_lead()) {
            let group = groups.remove(better);
            groups.insert(0, group);
        }
    }

    let mut text = String::new();
    if uncertain {
        text.push_str(&words.closest_is(&groups[0].analyzed.passage.label()));
        text.push_str("\n\n");
    }
    for (n, group) in groups.iter().enumerate() {
        if n > 0 {
            text.push_str("\n\n");
        }
        text.push_str(&group.render(n + 1, n == 0, &words));
    }
    text.push_str("\n\n");
    text.push_str(words.sources);
    for (n, group) in groups.iter().enumerate() {
        let p = group.analyzed.passage;
        // A skill of the site's guide has no page: it is named, not linked.
        match p.url.is_empty() {
            true => text.push_str(&format!("\n{}. {}", n + 1, escape_label(&p.label()))),
            false => text.push_str(&format!(
                "\n{}. [{}]({})",
                n + 1,
                escape_label(&p.label()),
                escape_url(&p.link())
            )),
        }
    }
    Answer {
        uncertain,
        ..finish(text, groups.iter().map(|g| g.passage).collect(), true)
    }
}

/// Whether a passage after the lead earns a citation of its own (see `MIN_SUPPORT`). `top` is the
/// lead's best unit score.
fn earns_citation(s: &Scored, lead: &Scored, top: f32) -> bool {
    if s.best <= 0.0 || top <= 0.0 {
        return false;
    }
    let quote = s.best / top;
    let lead_score = lead.a.passage.score;
    let retrieval = if lead_score > 0.0 {
        s.a.passage.score / lead_score
    } else {
        1.0
    };
    let same_page = s.a.passage.path == lead.a.passage.path;
    quote >= MIN_QUOTE_SHARE
        && (quote * retrieval >= MIN_SUPPORT || same_page && quote >= SAME_PAGE_QUOTE_SHARE)
}

/// Whether retrieval found evidence that the docs answer the question (see `COVERED_EVIDENCE`).
fn is_covered(passages: &[Passage]) -> bool {
    best_evidence(passages) >= COVERED_EVIDENCE
}

/// Whether some passage is close to the question, though none covers it (see `CLOSE_EVIDENCE`).
fn is_close(passages: &[Passage]) -> bool {
    best_evidence(passages) >= CLOSE_EVIDENCE
}

fn best_evidence(passages: &[Passage]) -> f32 {
    passages
        .iter()
        .take(MAX_PASSAGES)
        .filter(|p| p.coverage > 0.0)
        .map(|p| p.coverage + SCORE_IN_EVIDENCE * p.score)
        .fold(0.0, f32::max)
}

/// Whether a capitalized word of the question (`Go`, `Hebrew`; not an acronym, which code and paths
/// write in lower case: `.pdf`, `json`) appears in no passage as that name: past its sentence's first
/// word with its capital, in code, or in the page's title or the section's heading.
fn names_unmet(question: &str, passages: &[Passage]) -> bool {
    let acronym = |w: &&str| !w.chars().any(char::is_lowercase);
    let asked: Vec<&str> = crate::text::named_words(question)
        .into_iter()
        .filter(|w| !acronym(w))
        .collect();
    if asked.is_empty() {
        return false;
    }
    let passages = &passages[..passages.len().min(MAX_PASSAGES)];
    let mut held: Vec<String> = Vec::new();
    for p in passages {
        let labels = format!("{}\n{}", p.title, p.heading);
        let names = crate::text::named_words(&p.text);
        held.extend(names.into_iter().map(str::to_lowercase));
        held.extend(words(&labels).map(str::to_lowercase));
        held.extend(
            code_text(&p.text)
                .iter()
                .flat_map(|c| words(c))
                .map(str::to_lowercase),
        );
        held.extend(
            p.text
                .lines()
                .filter_map(listed_name)
                .map(str::to_lowercase),
        );
    }
    asked
        .iter()
        .any(|name| !held.contains(&name.to_lowercase()))
}

/// The name a list item is (`- Anthropic (Coming Soon)`, `- Vercel: …`): its first word, when
/// nothing but a note or a description follows it. A step ("- Go to Settings") is not one.
fn listed_name(line: &str) -> Option<&str> {
    let item = line.trim_start();
    let item = item
        .strip_prefix("- ")
        .or_else(|| item.strip_prefix("* "))
        .or_else(|| {
            item.split_once(". ")
                .filter(|(n, _)| n.parse::<u32>().is_ok())
                .map(|(_, i)| i)
        })?;
    let end = item
        .find(|c: char| !c.is_alphanumeric())
        .unwrap_or(item.len());
    let (word, rest) = item.split_at(end);
    let named = rest.is_empty()
        || [" (", ":", " —", " – ", " - ", ","]
            .iter()
            .any(|s| rest.starts_with(s));
    (named && word.chars().next().is_some_and(char::is_uppercase)).then_some(word)
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// The code of a passage's text: its fenced blocks' lines and its inline code spans.
fn code_text(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
        } else if fenced {
            out.push(line);
        } else {
            out.extend(line.split('`').skip(1).step_by(2));
        }
    }
    out
}

fn finish(text: String, sources: Vec<usize>, covered: bool) -> Answer {
    Answer {
        chunks: stream_chunks(&text),
        sources,
        covered,
        uncertain: false,
    }
}

fn not_covered(words: &Words, passages: &[Passage]) -> Answer {
    let mut text = words.not_covered.to_string();
    let mut links: Vec<String> = Vec::new();
    for p in passages.iter().take(MAX_PASSAGES) {
        let line = format!(
            "- [{}]({})",
            escape_label(&title_or_path(p)),
            escape_url(&p.url)
        );
        if !p.url.is_empty() && !links.contains(&line) {
            links.push(line);
        }
        if links.len() == 3 {
            break;
        }
    }
    if !links.is_empty() {
        text.push(' ');
        text.push_str(words.closest);
        text.push('\n');
        text.push_str(&links.join("\n"));
    }
    finish(text, Vec::new(), false)
}

/// Whether a snippet belongs in the answer: for every question but one asking why, or what something
/// is or does ("What is a session?", "Why are my builds slow?"), which prose answers. The asked thing
/// is most often set, called or run in code ("cli headless json output", "Which endpoint …", "Where
/// do I set …"), and a snippet that shares the question's terms states it.
fn asks_for_code(question: &str) -> bool {
    let lower = question.to_lowercase();
    let mut words = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty());
    let explains = matches!(words.next(), Some("why" | "what"))
        && matches!(words.next(), Some("is" | "are" | "does" | "do" | "happens"));
    !explains
}

/// One relevant passage, parsed.
struct Analyzed<'p> {
    index: usize,
    passage: &'p Passage,
    blocks: Vec<Block>,
    units: Vec<Unit>,
    heading_terms: Vec<String>,
    relevant: bool,
}

/// A quotable piece: one sentence, or a whole list, table or code block.
struct Unit {
    block: usize,
    seq: usize,
    text: String,
    terms: Vec<String>,
    /// A block quoted whole on its own lines (list, table, code), not a sentence of prose.
    is_list: bool,
    is_code: bool,
    /// A sentence of a callout (`<Note>`, `<Warning>`): quoted after the answer, never leading it.
    aside: bool,
}

impl Unit {
    /// A sentence the answer should not open with: a callout's aside, a bare intro, a title line, a
    /// pointer to another page ("See an example of a hidden page.") whose link the quote has lost,
    /// or one that refers back to a sentence the answer does not quote before it ("This lets you …").
    fn leads_poorly(&self) -> bool {
        self.aside
            || is_bare_intro(&self.text)
            || is_title_line(&self.text)
            || self.points_elsewhere()
    }

    /// Prose the answer can open with (a list, table or code block is never the lead).
    fn can_lead(&self) -> bool {
        !self.is_list && !self.leads_poorly()
    }

    fn points_elsewhere(&self) -> bool {
        is_cross_reference(&self.text) || refers_back(&self.text)
    }
}

/// Opens with a pronoun or determiner pointing at what came before ("This", "These", "It", "Cela",
/// "Esto", "这", "これ"): read first, it points at nothing. "This guide …" names its page, and stands.
fn refers_back(sentence: &str) -> bool {
    const PAGE_NOUNS: [&str; 9] = [
        "guide",
        "page",
        "reference",
        "section",
        "document",
        "documentation",
        "tutorial",
        "article",
        "quickstart",
    ];
    const WORDS: [&str; 22] = [
        "this", "these", "that", "those", "it", "they", "such", "cela", "ceci", "ce", "cette",
        "ces", "il", "elle", "ils", "esto", "esta", "este", "estos", "estas", "eso", "ello",
    ];
    const CJK: [&str; 7] = ["这", "此", "它", "该", "これ", "この", "それ"];
    let text = sentence.trim_start();
    let lower = text.to_lowercase();
    let mut words = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty());
    let (first, second) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    (WORDS.contains(&first) && !PAGE_NOUNS.contains(&second))
        || CJK.iter().any(|w| text.starts_with(w))
}

/// An intro that says nothing but that a list follows ("Try the following:", "Essayez les étapes
/// suivantes :"); one that says something ("Sign in to your Dify host:") leads with its block.
fn is_bare_intro(text: &str) -> bool {
    let words = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .count();
    ends_with_colon(text) && words + text.chars().filter(|&c| is_cjk(c)).count() / 2 < 5
}

/// A line without final punctuation (nor a list's `:`) is a label or a title ("External Knowledge
/// Base Architecture"), not a sentence.
fn is_title_line(text: &str) -> bool {
    !(ends_as_sentence(text) || ends_with_colon(text))
}

/// Ends with a full stop or an exclamation, past closing quotes and brackets.
fn ends_as_sentence(text: &str) -> bool {
    text.trim_end()
        .trim_end_matches(['"', '\'', '”', '’', '*', '_', ')', '）', '」'])
        .ends_with(['.', '!', '。', '！', '…'])
}

/// "See …", "For more information, see …", "Consulta …", "Voir …", "参见 …": a sentence whose
/// substance is a link elsewhere.
fn is_cross_reference(sentence: &str) -> bool {
    const OPENERS: [&str; 22] = [
        "see ",
        "refer to ",
        "for more information",
        "for more details",
        "for details",
        "learn more",
        "to learn more",
        "read more",
        "check out ",
        "consulta ",
        "ver ",
        "para más información",
        "para obtener más información",
        "voir ",
        "consultez ",
        "pour plus d'informations",
        "pour en savoir plus",
        "参见",
        "请参阅",
        "详见",
        "詳しくは",
        "詳細は",
    ];
    // "If you use a cloud-hosted instance, see the GitHub page." points elsewhere too.
    const CLAUSES: [&str; 5] = [
        ", see ",
        ", refer to ",
        ", consulta ",
        ", consultez ",
        ", voir ",
    ];
    let lower = sentence.trim_start().to_lowercase().replace('’', "'");
    OPENERS.iter().any(|o| lower.starts_with(o)) || CLAUSES.iter().any(|c| lower.contains(c))
}

impl<'p> Analyzed<'p> {
    /// `lenient`: the answer will say it quotes the closest passage (see `close` below).
    fn new(index: usize, passage: &'p Passage, q: &[String], lenient: bool) -> Self {
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
                        });
                    }
                }
                Block::List(items) | Block::Table(items) => {
                    let text = items.join("\n");
                    units.push(Unit {
                        block: b,
                        seq: 0,
                        terms: terms(&text),
                        text,
                        is_list: true,
                        is_code: false,
                        aside: false,
                    });
                }
                // A snippet is an answer of its own ("npm install …"), quoted whole in its fence;
                // one too long to quote still tells what the passage is about.
                Block::Code { lang, code } if code.chars().count() <= MAX_CODE_UNIT_CHARS => {
                    units.push(Unit {
                        block: b,
                        seq: 0,
                        terms: terms(code),
                        text: fenced(lang, code),
                        is_list: true,
                        is_code: true,
                        aside: false,
                    });
                }
                Block::Code { code, .. } => all_terms.extend(terms(code)),
            }
        }
        for u in &units {
            all_terms.extend(u.terms.iter().cloned());
        }
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

/// Word terms count 1, CJK bigrams ½: a Chinese question yields bigrams across word boundaries that
/// never match, and should not need more matches than its English twin.
fn effective_count<'a>(terms: impl Iterator<Item = &'a str>) -> f32 {
    terms
        .map(|t| if t.chars().any(is_cjk) { 0.5 } else { 1.0 })
        .sum()
}

/// Inverse unit frequency of each question term over the relevant passages.
struct TermWeights {
    weights: Vec<(String, f32)>,
}

impl TermWeights {
    fn new(q: &[String], analyzed: &[Analyzed]) -> Self {
        let units: Vec<&Unit> = analyzed.iter().flat_map(|a| a.units.iter()).collect();
        let total = units.len().max(1) as f32;
        let weights = q
            .iter()
            .map(|t| {
                let df = units.iter().filter(|u| u.terms.contains(t)).count().max(1) as f32;
                let cjk = if t.chars().any(is_cjk) { 0.5 } else { 1.0 };
                (t.clone(), cjk * (1.0 + libm::logf(total / df)))
            })
            .collect();
        Self { weights }
    }

    fn score(&self, terms: &[String]) -> f32 {
        self.weights
            .iter()
            .filter(|(t, _)| terms.contains(t))
            .map(|(_, w)| w)
            .sum()
    }
}

/// A relevant passage with its unit scores.
struct Scored<'a, 'p> {
    a: &'a Analyzed<'p>,
    unit_scores: Vec<f32>,
    best: f32,
}

impl<'a, 'p> Scored<'a, 'p> {
    fn new(a: &'a Analyzed<'p>, rank: usize, weights: &TermWeights, wants_code: bool) -> Self {
        // Retrieval already weighed titles and headings; a lower-ranked passage must quote clearly
        // better to be preferred.
        let rank_factor = 1.0 / (1.0 + 0.3 * rank as f32);
        let match_scores: Vec<f32> = a
            .units
            .iter()
            .map(|u| {
                let len = u
                    .text
                    .split_whitespace()
                    .count()
                    .max(u.text.chars().count() / 3) as f32;
                let length_factor = 1.0 / (1.0 + (len - 40.0).max(0.0) / 40.0);
                let title_line = if !u.is_list && is_title_line(&u.text) {
                    TITLE_LINE_WEIGHT
                } else {
                    1.0
                };
                weights.score(&u.terms) * length_factor * rank_factor * title_line
            })
            .collect();
        // The weight for names also decides which passage leads: the one whose best unit names
        // what the reader sets or runs.
        let unit_scores: Vec<f32> = a
            .units
            .iter()
            .zip(&match_scores)
            .map(|(u, &score)| {
                if wants_code && (u.is_code || u.text.contains('`')) {
                    score * NAMES_WEIGHT
                } else {
                    score
                }
            })
            .collect();
        let best_unit = unit_scores.iter().copied().fold(0.0f32, f32::max);
        // A heading that names the question's subject makes the section the better source.
        let heading_bonus = 0.3 * weights.score(&a.heading_terms) * rank_factor;
        let best = if best_unit > 0.0 {
            best_unit + heading_bonus
        } else {
            0.0
        };
        Self {
            a,
            unit_scores,
            best,
        }
    }
}

/// Best units of one passage within the shared prose budget, plus the list a picked sentence
/// introduces (and the sentence introducing a picked list).
fn pick_units(s: &Scored, max_units: usize, budget: &mut usize) -> Vec<usize> {
    let units = &s.a.units;
    let mut order: Vec<usize> = (0..units.len())
        .filter(|&i| s.unit_scores.get(i).is_some_and(|&v| v > 0.0))
        .collect();
    crate::sort::sort_by(&mut order, |&x, &y| {
        s.unit_scores[y].total_cmp(&s.unit_scores[x])
    });
    let mut picks: Vec<usize> = Vec::new();
    let take = |i: usize, picks: &mut Vec<usize>, budget: &mut usize| {
        // Code is quoted whole or not at all, and is not prose: it does not spend the prose budget.
        let len = if units[i].is_code {
            0
        } else {
            units[i].text.chars().count() + 1
        };
        if !picks.contains(&i) && len <= *budget {
            *budget -= len;
            picks.push(i);
        }
    };
    let best = order
        .first()
        .and_then(|&i| s.unit_scores.get(i))
        .copied()
        .unwrap_or(0.0);
    for i in order {
        // Weak matches (one common term) are filler next to the best unit.
        if picks.len() >= max_units || s.unit_scores[i] < best * 0.34 {
            break;
        }
        take(i, &mut picks, budget);
        if !picks.contains(&i) {
            continue;
        }
        let u = &units[i];
        if !u.is_list && ends_with_colon(&u.text) {
            let list = units
                .iter()
                .position(|n| n.is_list && n.block == u.block + 1)
                .filter(|_| is_last_sentence(units, i));
            if let Some(next) = list {
                take(next, &mut picks, budget);
            }
            // An intro whose list (or code) is not quoted would dangle.
            if !list.is_some_and(|n| picks.contains(&n)) {
                picks.retain(|&p| p != i);
                *budget += units[i].text.chars().count() + 1;
            }
        } else if u.is_list {
            if let Some(intro) = units
                .iter()
                .rposition(|p| !p.is_list && p.block + 1 == u.block)
            {
                if ends_with_colon(&units[intro].text) {
                    take(intro, &mut picks, budget);
                }
            }
        }
    }
    picks
}

/// The lead passage's best unit rarely stands alone: the table its sentence introduces ("Rate limits
/// per plan:" then the rows), the sentence it continues, the list of exit codes after "failures exit
/// with a predictable code". The units on either side of it are quoted too, within the prose budget,
/// unless a callout's aside or a title line.
fn quote_around_best(units: &[Unit], picks: &mut Vec<usize>, budget: &mut usize) {
    let Some(&best) = picks.first() else { return };
    for n in [best + 1, best.wrapping_sub(1)] {
        let Some(u) = units.get(n) else { continue };
        let len = if u.is_code {
            0
        } else {
            u.text.chars().count() + 1
        };
        let title_line = !u.is_list && is_title_line(&u.text);
        if !picks.contains(&n) && !u.aside && !title_line && len <= *budget {
            *budget -= len;
            picks.push(n);
        }
    }
}

/// A short lead section (a FAQ's answer, a procedure whose steps code blocks interrupt) is the
/// answer as a whole: all of it is quoted when the rest of its prose fits the budget. Label lines
/// ("Badge") and callouts' asides stay out, as they do around the best unit.
fn quote_short_section(units: &[Unit], picks: &mut Vec<usize>, budget: &mut usize) {
    let code = units.iter().filter(|u| u.is_code).count();
    if units.len() > WHOLE_SECTION_UNITS || code > MAX_SNIPPETS_IN_SECTION {
        return;
    }
    // The picks keep their order: the first is the best, which leads.
    let rest: Vec<usize> = (0..units.len())
        .filter(|i| {
            !picks.contains(i)
                && !units[*i].aside
                && (units[*i].is_list || !is_title_line(&units[*i].text))
        })
        .collect();
    let extra: usize = rest
        .iter()
        .filter(|&&i| !units[i].is_code)
        .map(|&i| units[i].text.chars().count() + 1)
        .sum();
    if extra <= *budget {
        *budget -= extra;
        picks.extend(rest);
    }
}

/// A lead that only opens its page ("You can set up webhooks on agents so that you can listen to
/// events.") quotes all there is of its passage and says little; the page's next retrieved section
/// (the list of events, the export's fields) is what the reader asked for. Its opening units are
/// quoted after the lead: a sentence or two, and the list or code one of them introduces.
fn continue_thin_lead<'a, 'p>(
    groups: &[Group<'a, 'p>],
    passages: &'p [Passage],
    q: &[String],
    continuation: &'a std::cell::OnceCell<Analyzed<'p>>,
    budget: &mut usize,
    code_quoted: bool,
) -> Option<Group<'a, 'p>> {
    let lead = groups.first()?;
    let units = &lead.analyzed.units;
    let prose: usize = lead
        .picks
        .iter()
        .map(|&i| units[i].text.chars().count())
        .sum();
    let whole = lead.picks.len() == units.len();
    let plain = lead.picks.iter().all(|&i| !units[i].is_list);
    if !whole || !plain || prose >= THIN_SECTION_CHARS {
        return None;
    }
    let lead_passage = lead.analyzed.passage;
    // Any passage of the page, relevant to the question's words or not: the page may continue in
    // a section that shares none of them (a table of fields under "Fields").
    let (index, passage) = passages.iter().enumerate().find(|(i, p)| {
        *i != lead.passage
            && p.path == lead_passage.path
            && p.anchor != lead_passage.anchor
            && groups.iter().all(|g| g.passage != *i)
    })?;
    let next = continuation.get_or_init(|| Analyzed::new(index, passage, q, true));
    let picks = opening_units(&next.units, budget, code_quoted);
    (!picks.is_empty()).then_some(Group {
        passage: next.index,
        analyzed: next,
        picks,
        code: None,
        endpoint: None,
    })
}

/// A section's first sentences (at most two, leaving out asides and title lines) and the list or
/// code block one of them introduces, within the prose budget.
fn opening_units(units: &[Unit], budget: &mut usize, code_quoted: bool) -> Vec<usize> {
    let mut picks = Vec::new();
    let mut sentences = 0;
    for (i, u) in units.iter().enumerate() {
        if u.is_list {
            // A section opening with its table or list is that; a later one is quoted only after
            // the sentence introducing it.
            let introduced = picks
                .last()
                .is_none_or(|&p: &usize| ends_with_colon(&units[p].text));
            let len = if u.is_code {
                0
            } else {
                u.text.chars().count() + 1
            };
            if introduced && !(u.is_code && code_quoted) && len <= *budget {
                *budget -= len;
                picks.push(i);
            }
            break;
        }
        if u.aside || is_title_line(&u.text) {
            continue;
        }
        let len = u.text.chars().count() + 1;
        if sentences == 2 || len > *budget {
            break;
        }
        *budget -= len;
        picks.push(i);
        sentences += 1;
    }
    drop_dangling_intros(units, &mut picks);
    picks
}

/// A sentence ending in `:` introduces the block after it; without that block quoted it dangles.
fn drop_dangling_intros(units: &[Unit], picks: &mut Vec<usize>) {
    let keep: Vec<usize> = picks
        .iter()
        .copied()
        .filter(|&i| {
            let u = &units[i];
            u.is_list
                || !ends_with_colon(&u.text)
                || units
                    .iter()
                    .enumerate()
                    .any(|(n, b)| b.is_list && b.block == u.block + 1 && picks.contains(&n))
        })
        .collect();
    *picks = keep;
}

fn ends_with_colon(text: &str) -> bool {
    text.ends_with(':') || text.ends_with('：')
}

fn is_last_sentence(units: &[Unit], i: usize) -> bool {
    units.get(i + 1).is_none_or(|n| n.block != units[i].block)
}

/// Quoted material of one passage.
struct Group<'a, 'p> {
    passage: usize,
    analyzed: &'a Analyzed<'p>,
    picks: Vec<usize>,
    code: Option<(String, String)>,
    /// The endpoint line (`` `POST /report` ``) opening an API reference page's intro: the quote
    /// opens with it, since the method and path are what a reader calls.
    endpoint: Option<String>,
}

/// The best-scoring unit of the relevant passages of the pages quoted that names something the
/// question and the answer do not, and that is not quoted yet: for an answer that only restates
/// the question.
fn best_naming_unit<'s, 'a, 'p>(
    scored: &'s [Scored<'a, 'p>],
    groups: &[Group],
    question: &str,
    budget: usize,
) -> Option<(&'s Scored<'a, 'p>, usize)> {
    // Named by the question or by what the answer quotes already, a span is nothing new.
    let mut known = question.to_lowercase();
    for g in groups {
        for &i in &g.picks {
            known.push('\n');
            known.push_str(&g.analyzed.units[i].text.to_lowercase());
        }
    }
    let mut best: Option<(f32, &Scored, usize)> = None;
    // From a page the answer cites already: another page's name is another source, and it
    // measured as one the reader did not need (citation precision fell by 0.07 on two sets).
    let cited = |s: &Scored| {
        groups
            .iter()
            .any(|g| g.analyzed.passage.path == s.a.passage.path)
    };
    for s in scored.iter().filter(|s| cited(s)) {
        for (i, u) in s.a.units.iter().enumerate() {
            let score = s.unit_scores[i];
            let quoted = groups
                .iter()
                .any(|g| g.passage == s.a.index && g.picks.contains(&i));
            let fits = u.is_code || u.text.chars().count() < budget;
            if score > 0.0
                && !quoted
                && fits
                && !u.aside
                && !u.points_elsewhere()
                && (u.is_list || !ends_with_colon(&u.text))
                && u.names_new(&known)
                && best.as_ref().is_none_or(|(b, ..)| score > *b)
            {
                best = Some((score, s, i));
            }
        }
    }
    best.map(|(_, s, i)| (s, i))
}

impl Unit {
    /// A code block, or a code span that reads as a name (a key, flag, path or call: no spaces, or
    /// code punctuation) which `known` (lowercased) does not already hold.
    fn names_new(&self, known: &str) -> bool {
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

impl Group<'_, '_> {
    /// Quotes a unit (or a code block) naming something the question does not.
    fn names_new(&self, question: &str) -> bool {
        let question = question.to_lowercase();
        self.code.is_some()
            || self
                .picks
                .iter()
                .any(|&i| self.analyzed.units[i].names_new(&question))
    }

    /// Quotes a sentence the answer can open with.
    fn has_lead(&self) -> bool {
        self.picks
            .iter()
            .any(|&i| self.analyzed.units[i].can_lead())
    }

    /// Quotes prose, all of it pointers to other pages or sentences that refer back.
    fn only_points_elsewhere(&self) -> bool {
        let units = &self.analyzed.units;
        let mut prose = self.picks.iter().filter(|&&i| !units[i].is_list).peekable();
        prose.peek().is_some() && prose.all(|&i| units[i].points_elsewhere())
    }

    /// Paragraphs in document order, except that the group's lead sentence (its best) comes first
    /// in the opening group; every prose paragraph ends with the citation.
    fn render(&self, n: usize, lead: bool, words: &Words) -> String {
        let units = &self.analyzed.units;
        let mut order = self.picks.clone();
        crate::sort::sort_by_key(&mut order, |&i| (units[i].block, units[i].seq));
        if lead {
            // The lead keeps the picks that follow it in its paragraph; earlier ones come after.
            let prose = |i: &usize| !units[*i].is_list;
            let first = self.picks.iter().copied().find(|&i| units[i].can_lead());
            if let Some(first) = first.or_else(|| self.picks.iter().copied().find(prose)) {
                let key = |i: usize| (units[i].block, units[i].seq);
                let block = units[first].block;
                // A paragraph ending in `:` keeps the list or code it introduces right after it.
                let intro = order
                    .iter()
                    .rev()
                    .find(|&&i| units[i].block == block)
                    .is_some_and(|&i| !units[i].is_list && ends_with_colon(&units[i].text));
                let (follow, rest): (Vec<usize>, Vec<usize>) = order.iter().partition(|&&i| {
                    units[i].block == block && key(i) >= key(first)
                        || intro && units[i].block == block + 1
                });
                order = follow.into_iter().chain(rest).collect();
            }
        }
        let cite = format!(" [{n}]");
        // Consecutive sentences of one passage read as one paragraph even across source blocks; a
        // list breaks the run. Each run ends with the citation.
        let mut out: Vec<String> = Vec::new();
        let mut run: Vec<&str> = Vec::new();
        let mut any_prose = false;
        let mut prev: Option<&Unit> = None;
        for &i in &order {
            let u = &units[i];
            let was = prev.replace(u);
            let prev = was;
            if u.is_list {
                if !run.is_empty() {
                    out.push(format!("{}{cite}", join_sentences(&run)));
                    run.clear();
                }
                // Items of one card grid stay one Markdown list.
                let same_grid =
                    prev.is_some_and(|p: &Unit| p.is_list && !p.is_code && p.block == u.block);
                match out.last_mut() {
                    Some(last) if same_grid => {
                        last.push('\n');
                        last.push_str(&u.text);
                    }
                    _ => out.push(u.text.clone()),
                }
            } else {
                any_prose = true;
                run.push(&u.text);
            }
        }
        if !run.is_empty() {
            out.push(format!("{}{cite}", join_sentences(&run)));
        }
        // A group of only lists or code still needs to say where it comes from.
        if !any_prose {
            out.insert(0, words.from(&self.analyzed.passage.label(), n));
        }
        if let Some(endpoint) = &self.endpoint {
            out.insert(0, endpoint.clone());
        }
        if let Some((lang, code)) = &self.code {
            out.push(fenced(lang, code));
        }
        out.join("\n\n")
    }
}

/// `` `GET /users/{id}` `` or `` `WEBHOOK order.created` ``: a line naming one operation, as the
/// reference of a page with `openapi:` frontmatter opens.
/// The endpoint line opening `passage`, if it opens an API reference page's intro.
fn endpoint_line(passage: &Passage) -> Option<&str> {
    passage
        .text
        .lines()
        .next()
        .map(str::trim)
        .filter(|line| is_endpoint_line(line))
}

/// A section an API reference page holds for its operation's parameters, body or responses.
fn is_operation_section(passage: &Passage) -> bool {
    use crate::docs::endpoint::{PARAMETERS_ANCHOR, REQUEST_BODY_ANCHOR, RESPONSES_ANCHOR};
    [PARAMETERS_ANCHOR, REQUEST_BODY_ANCHOR, RESPONSES_ANCHOR].contains(&passage.anchor.as_str())
}

fn is_endpoint_line(text: &str) -> bool {
    let Some(inner) = text
        .trim()
        .strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
    else {
        return false;
    };
    let Some((method, path)) = inner.split_once(' ') else {
        return false;
    };
    let methods = [
        "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "WEBHOOK",
    ];
    methods.contains(&method)
        && !path.is_empty()
        && !path.contains(char::is_whitespace)
        && (method == "WEBHOOK" || path.starts_with('/'))
}

fn fenced(lang: &str, code: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(code).max(2) + 1);
    format!("{fence}{lang}\n{code}\n{fence}")
}

fn longest_backtick_run(code: &str) -> usize {
    code.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Sentences joined with a space, except between CJK sentences, which are written without one.
fn join_sentences(run: &[&str]) -> String {
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

fn is_cjk_punct(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '；' | '：' | '）' | '」' | '』')
}

/// Picks one code block from the quoted passages — the code should illustrate the text above it,
/// and a relevant-looking snippet from an unquoted page (or another language's copy) misleads more
/// than it helps. Ranked by shared question terms, the first group breaking ties; blocks too long to
/// quote whole are skipped (a workflow file cut in the middle reads worse than the link).
fn attach_code(groups: &mut [Group], weights: &TermWeights, opts: &ExtractiveOptions) -> bool {
    let mut best: Option<(f32, usize, String, String)> = None;
    for (g, group) in groups.iter().enumerate() {
        let first = if g == 0 { 0.5 } else { 0.0 };
        for block in &group.analyzed.blocks {
            if let Block::Code { lang, code } = block {
                if code.chars().count() > opts.max_code_chars {
                    continue;
                }
                let score = weights.score(&terms(code)) + first;
                if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                    best = Some((score, g, lang.clone(), code.clone()));
                }
            }
        }
    }
    if let Some((_, g, lang, code)) = best {
        if let Some(group) = groups.get_mut(g) {
            group.code = Some((lang, code));
            return true;
        }
    }
    false
}

/// For a how-question whose quoted passages hold no snippet usable: another section of the lead
/// passage's page ("Installation" under the page that answers), quoted as its own group.
fn code_from_lead_page<'a, 'p>(
    groups: &[Group<'a, 'p>],
    analyzed: &'a [Analyzed<'p>],
    weights: &TermWeights,
    opts: &ExtractiveOptions,
) -> Option<Group<'a, 'p>> {
    let lead = groups.first()?.analyzed.passage;
    let mut best: Option<(f32, &'a Analyzed<'p>, &'a str, &'a str)> = None;
    for a in analyzed {
        if a.passage.path != lead.path || groups.iter().any(|g| g.passage == a.index) {
            continue;
        }
        for block in &a.blocks {
            if let Block::Code { lang, code } = block {
                let score = weights.score(&terms(code));
                if code.chars().count() <= opts.max_code_chars
                    && score > 0.0
                    && best.as_ref().is_none_or(|(s, ..)| score > *s)
                {
                    best = Some((score, a, lang, code));
                }
            }
        }
    }
    let (_, a, lang, code) = best?;
    Some(Group {
        passage: a.index,
        analyzed: a,
        picks: Vec::new(),
        code: Some((lang.to_string(), code.to_string())),
        endpoint: None,
    })
}

fn escape_label(label: &str) -> String {
    label.replace('[', "\\[").replace(']', "\\]")
}

fn escape_url(url: &str) -> String {
    url.replace(' ', "%20")
        .replace('(', "%28")
        .replace(')', "%29")
}

fn title_or_path(p: &Passage) -> String {
    if p.title.trim().is_empty() {
        p.path.clone()
    } else {
        p.title.trim().to_string()
    }
}

/// Fixed phrases of the answer, in the question's language as its script tells: kana is Japanese
/// (a Japanese question is mostly Han, so kana decides), other Han Chinese, Hangul Korean, anything
/// else English. A Japanese question used to get Chinese labels ("来源：") after a Japanese answer.
struct Words {
    not_covered: &'static str,
    closest: &'static str,
    /// An uncertain answer's opening: the text before and after the closest passage's label.
    closest_is: (&'static str, &'static str),
    empty_question: &'static str,
    sources: &'static str,
    /// A quote's lead-in: the text before and after "{label} [{n}]".
    from: (&'static str, &'static str),
    /// A follow-up question (`suggest`): the text before and after its topic.
    about: (&'static str, &'static str),
}

/// A follow-up question about `topic` in `question`'s language (see `Words`).
pub(crate) fn ask_about(question: &str, topic: &str) -> String {
    let (before, after) = Words::for_question(question).about;
    format!("{before}{topic}{after}")
}

impl Words {
    fn for_question(question: &str) -> Self {
        let hangul =
            |c: char| matches!(c as u32, 0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF);
        if question.chars().any(is_kana) {
            Self {
                // Says "does not cover" as the eval's refusal check reads it (扱っていません).
                not_covered: NOT_COVERED_JA,
                closest: "最も近いページ：",
                closest_is: (
                    "ドキュメントには直接の記載がありません。最も近いのは「",
                    "」です：",
                ),
                empty_question: "ドキュメントについて質問してください。",
                sources: "出典：",
                from: ("", " より："),
                about: ("「", "」について教えてください"),
            }
        } else if question.chars().any(is_cjk) {
            Self {
                not_covered: NOT_COVERED_ZH,
                closest: "最接近的页面：",
                closest_is: ("文档中没有直接说明这一点；最接近的是「", "」："),
                empty_question: "请提出一个关于文档的问题。",
                sources: "来源：",
                from: ("摘自 ", "："),
                about: ("请介绍一下「", "」"),
            }
        } else if question.chars().any(hangul) {
            Self {
                not_covered: NOT_COVERED_KO,
                closest: "가장 가까운 페이지:",
                closest_is: (
                    "문서에 직접 나와 있지 않습니다. 가장 가까운 내용은 「",
                    "」입니다:",
                ),
                empty_question: "문서에 관해 질문해 주세요.",
                sources: "출처:",
                from: ("", "에서:"),
                about: ("「", "」에 대해 알려 주세요"),
            }
        } else {
            Self {
                not_covered: NOT_COVERED_EN,
                closest: "The closest pages I found:",
                closest_is: ("The docs don't state this directly; the closest is ", ":"),
                empty_question: "Ask a question about the documentation and I'll answer from it.",
                sources: "Sources:",
                from: ("From ", ":"),
                about: ("Tell me about ", ""),
            }
        }
    }

    fn closest_is(&self, label: &str) -> String {
        let (before, after) = self.closest_is;
        format!("{before}{}{after}", label.trim_end_matches([':', '：']))
    }

    fn from(&self, label: &str, n: usize) -> String {
        // A heading written as a lead-in ("Optional settings:") would end up with two colons.
        let label = label.trim_end_matches([':', '：']);
        let (before, after) = self.from;
        format!("{before}{label} [{n}]{after}")
    }
}

#[cfg(test)]
mod tests;
