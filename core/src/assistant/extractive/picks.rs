//! Which units of a passage are quoted: the best ones within the prose budget, and what a lead needs
//! around it to read whole.

use super::group::Group;
use super::scoring::Scored;
use super::sentences::{ends_with_colon, is_title_line};
use super::tuning::{MAX_SNIPPETS_IN_SECTION, WHOLE_SECTION_UNITS};
use super::units::{Analyzed, Unit};
use crate::assistant::passage::Passage;

/// Best units of one passage within the shared prose budget, plus the list a picked sentence
/// introduces (and the sentence introducing a picked list); no code block when the answer quotes
/// one already (`code_quoted`).
pub(super) fn pick_units(
    s: &Scored,
    max_units: usize,
    budget: &mut usize,
    code_quoted: bool,
) -> Vec<usize> {
    let units = &s.a.units;
    // One snippet per answer: once one is quoted, a further passage's code would be dropped after
    // picking and leave its slot empty; its best prose is picked instead.
    let mut order: Vec<usize> = (0..units.len())
        .filter(|&i| s.unit_scores.get(i).is_some_and(|&v| v > 0.0))
        .filter(|&i| !(code_quoted && units[i].is_code))
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
pub(super) fn quote_around_best(units: &[Unit], picks: &mut Vec<usize>, budget: &mut usize) {
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
pub(super) fn quote_short_section(units: &[Unit], picks: &mut Vec<usize>, budget: &mut usize) {
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
pub(super) fn continue_thin_lead<'a, 'p>(
    groups: &[Group<'a, 'p>],
    passages: &'p [Passage],
    q: &[String],
    continuation: &'a std::cell::OnceCell<Analyzed<'p>>,
    budget: &mut usize,
    code_quoted: bool,
) -> Option<Group<'a, 'p>> {
    let lead = groups.first()?;
    let whole = lead.picks.len() == lead.analyzed.units.len();
    if !whole || !lead.says_little() {
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
pub(super) fn opening_units(units: &[Unit], budget: &mut usize, code_quoted: bool) -> Vec<usize> {
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
pub(super) fn drop_dangling_intros(units: &[Unit], picks: &mut Vec<usize>) {
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

pub(super) fn is_last_sentence(units: &[Unit], i: usize) -> bool {
    units.get(i + 1).is_none_or(|n| n.block != units[i].block)
}

/// The best-scoring unit of the relevant passages of the pages quoted (of any page with
/// `any_page`) that names something the question and the answer do not, and that is not quoted
/// yet: for an answer that only restates the question.
pub(super) fn best_naming_unit<'s, 'a, 'p>(
    scored: &'s [Scored<'a, 'p>],
    groups: &[Group],
    question: &str,
    budget: usize,
    any_page: bool,
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
    // measured as one the reader did not need (citation precision fell by 0.07 on two sets),
    // unless the answer is a sentence or two that names nothing (the caller's `any_page`).
    let cited = |s: &Scored| {
        any_page
            || groups
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

/// For a snippet (`code`) the answer takes from a passage it does not quote otherwise, the best
/// sentence of that passage naming something neither the question nor the snippet does ("Once the
/// SDK is installed and you've added `OPENPIPE_API_KEY` …"): the snippet says what to call, the
/// sentence what it needs first. Only one the answer could open with, within the prose budget.
pub(super) fn naming_sentence(
    s: &Scored,
    code: usize,
    question: &str,
    budget: usize,
) -> Option<usize> {
    let units = &s.a.units;
    if !units[code].is_code {
        return None;
    }
    let known = format!("{question}\n{}", units[code].text).to_lowercase();
    (0..units.len())
        .filter(|&i| {
            let u = &units[i];
            !u.is_code
                && s.unit_scores[i] > 0.0
                && u.can_lead()
                && u.text.chars().count() < budget
                && u.names_new(&known)
        })
        .max_by(|&a, &b| s.unit_scores[a].total_cmp(&s.unit_scores[b]))
}
