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
//!    lower retrieval rank (a changelog's rank weighs half unless the question asks about history).
//!    A passage's lead score adds its heading's terms, the names the question writes (a code span,
//!    an identifier, a product noun) weighing most, and keeps half of itself plus half times the
//!    share of those names the passage holds (`NAMES_HELD_WEIGHT`).
//! 3. Up to `max_sources` passages are quoted: the one with the best unit leads, and another page
//!    only when its quote and its retrieval score both hold up beside the lead's (`MIN_SUPPORT`);
//!    the best sentence that can open an answer leads (not a callout's aside, a pointer to another
//!    page, a sentence that refers back, a title line or a bare intro such as "Try the following:",
//!    unless nothing else is quoted), then the other picks of each passage in document order (a sentence ending in `:`
//!    brings the list it introduces), grouped by passage, each group cited `[n]`. A first passage
//!    quoting only pointers elsewhere gives the opening to the next that has a lead.
//!    Prose is capped at `max_prose_chars`.
//!    A lead that is one short sentence also quotes the unit after it, which usually says how.
//!    A quote of an API operation's section opens with its method and path, and one of a reference
//!    section headed by an identifier (`RateLimitingMiddleware`) with that name, which its
//!    sentences leave unsaid.
//! 4. For every question but "why …" and "what is …", one code block from the quoted passages, else
//!    from another retrieved section of the lead's page (its "Installation" under the page that
//!    answers).
//! 5. A "Sources" list maps `[n]` to section links. `Answer::sources` lists the passage indices in `[n]`
//!    order.

mod blocks;
mod chunks;
mod code;
mod endpoint;
mod evidence;
mod group;
mod labels;
mod markdown;
mod options;
mod picks;
mod scoring;
mod sentences;
mod tuning;
mod units;

use crate::assistant::passage::Passage;
use crate::assistant::query::terms;
use crate::search::page_kind::asks_history;
pub use chunks::stream_chunks;
use code::{attach_code, code_from_lead_page};
use endpoint::{endpoint_line, is_operation_section, named_heading};
use evidence::{asks_for_code, earns_citation, is_close, is_covered, names_unmet};
use group::Group;
pub(crate) use labels::ask_about;
use labels::Words;
use markdown::{escape_label, escape_url, title_or_path};
pub use options::{Answer, ExtractiveOptions};
use picks::{
    best_naming_unit, continue_thin_lead, drop_dangling_intros, naming_sentence, pick_units,
    quote_around_best, quote_short_section,
};
use scoring::{Scored, TermWeights};
use tuning::{MAX_PASSAGES, THIN_LEAD_CHARS};
use units::Analyzed;

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
    let weights = TermWeights::new(question, &q, &analyzed);
    let wants_code = asks_for_code(question);
    let lower_history = !asks_history(question);
    let mut scored: Vec<Scored> = analyzed
        .iter()
        .enumerate()
        .map(|(rank, a)| Scored::new(a, rank, &weights, wants_code, lower_history))
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
        let mut picks = pick_units(s, if i == 0 { 4 } else { 2 }, &mut budget, code_quoted);
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
            .map(str::to_owned)
            .or_else(|| {
                let name = named_heading(s.a.passage)?;
                let lower = name.to_lowercase();
                let said = picks
                    .iter()
                    .any(|&u| s.a.units[u].text.to_lowercase().contains(&lower));
                (!said).then(|| format!("`{name}`"))
            });
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
        // A confident answer of a sentence or two of prose whose pages name nothing ("Hoppscotch
        // CLI is a command-line tool that …") takes the name from another page (`hopp test`).
        let thin = !uncertain && groups.len() == 1 && groups[0].says_little();
        let named = best_naming_unit(&scored, &groups, question, budget, false).or_else(|| {
            thin.then(|| best_naming_unit(&scored, &groups, question, budget, true))?
        });
        if let Some((s, unit)) = named {
            code_quoted |= s.a.units[unit].is_code;
            match groups.iter_mut().find(|g| g.passage == s.a.index) {
                Some(g) => g.picks.push(unit),
                None => {
                    // A snippet from a passage the answer does not quote otherwise comes with the
                    // sentence of that passage naming what it needs (the key to set first).
                    let mut picks = vec![unit];
                    if let Some(i) = naming_sentence(s, unit, question, budget) {
                        budget -= s.a.units[i].text.chars().count() + 1;
                        picks.push(i);
                    }
                    groups.push(Group {
                        passage: s.a.index,
                        analyzed: s.a,
                        picks,
                        code: None,
                        endpoint: None,
                    })
                }
            }
        }
    }
    if asks_for_code(question) && !code_quoted && !attach_code(&mut groups, &weights, opts) {
        if let Some(g) = code_from_lead_page(&groups, &analyzed, &weights, opts, &mut budget) {
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

#[cfg(test)]
mod tests;
