//! The answer's one code block: which snippet illustrates the quoted text, and where to look for one
//! when the quoted passages hold none.

use super::blocks::Block;
use super::group::Group;
use super::markdown::{quoted_code, snippet_terms};
use super::options::ExtractiveOptions;
use super::scoring::TermWeights;
use super::units::Analyzed;

/// Picks one code block from the quoted passages — the code should illustrate the text above it,
/// and a relevant-looking snippet from an unquoted page (or another language's copy) misleads more
/// than it helps. Ranked by shared question terms, the first group breaking ties; blocks too long to
/// quote whole are skipped (a workflow file cut in the middle reads worse than the link).
pub(super) fn attach_code(
    groups: &mut [Group],
    weights: &TermWeights,
    opts: &ExtractiveOptions,
) -> bool {
    let mut best: Option<(f32, usize, String)> = None;
    for (g, group) in groups.iter().enumerate() {
        let first = if g == 0 { 0.5 } else { 0.0 };
        for block in &group.analyzed.blocks {
            if let Block::Code { lang, title, code } = block {
                if code.chars().count() > opts.max_code_chars {
                    continue;
                }
                let score = weights.score(&snippet_terms(title, code)) + first;
                if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                    best = Some((score, g, quoted_code(lang, title, code)));
                }
            }
        }
    }
    if let Some((_, g, quoted)) = best {
        if let Some(group) = groups.get_mut(g) {
            group.code = Some(quoted);
            return true;
        }
    }
    false
}

/// For a how-question whose quoted passages hold no snippet usable: another section of the lead
/// passage's page ("Installation" under the page that answers), quoted as its own group with the
/// section's best sentence when the prose budget allows: a snippet alone says what to run, the
/// sentence beside it when ("If you're using a replicated deployment, also set …").
pub(super) fn code_from_lead_page<'a, 'p>(
    groups: &[Group<'a, 'p>],
    analyzed: &'a [Analyzed<'p>],
    weights: &TermWeights,
    opts: &ExtractiveOptions,
    budget: &mut usize,
) -> Option<Group<'a, 'p>> {
    let lead = groups.first()?.analyzed.passage;
    let mut best: Option<(f32, &'a Analyzed<'p>, String)> = None;
    for a in analyzed {
        if a.passage.path != lead.path || groups.iter().any(|g| g.passage == a.index) {
            continue;
        }
        for block in &a.blocks {
            if let Block::Code { lang, title, code } = block {
                let score = weights.score(&snippet_terms(title, code));
                if code.chars().count() <= opts.max_code_chars
                    && score > 0.0
                    && best.as_ref().is_none_or(|(s, ..)| score > *s)
                {
                    best = Some((score, a, quoted_code(lang, title, code)));
                }
            }
        }
    }
    let (_, a, quoted) = best?;
    let sentence = best_sentence(a, weights).filter(|&u| a.units[u].text.chars().count() < *budget);
    if let Some(u) = sentence {
        *budget -= a.units[u].text.chars().count() + 1;
    }
    Some(Group {
        passage: a.index,
        analyzed: a,
        picks: sentence.into_iter().collect(),
        code: Some(quoted),
        endpoint: None,
    })
}

/// The sentence of `a` holding the most of the question's weight, the first on ties; none that an
/// answer could not open with (an aside, a pointer elsewhere, a title line).
fn best_sentence(a: &Analyzed, weights: &TermWeights) -> Option<usize> {
    let mut best: Option<(f32, usize)> = None;
    for (i, u) in a.units.iter().enumerate() {
        let score = weights.score(&u.terms);
        if u.can_lead() && score > 0.0 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, i));
        }
    }
    best.map(|(_, i)| i)
}
