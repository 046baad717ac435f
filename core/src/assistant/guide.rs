//! The repository's guide for its assistant (`crate::docs::assistant_files`) at answer time: which
//! skills a question matches, and the skill the extractive backend quotes instead of the pages.
//!
//! A skill matches by the question's terms (`query::terms`) found in its slug, name and
//! description, each a whole term, and in its text, each half a term: at least one in the first
//! three and [`MIN_SKILL_COVERAGE`] of the question's terms in all. The LLM backends get the
//! [`MAX_PROMPT_SKILLS`] best matches; the extractive backend quotes the best one alone when it
//! covers the question at least as well as the best page passage does, as the format documents
//! skills as "high-priority guidance that takes precedence over general search results".

use std::collections::HashSet;

use super::passage::Passage;
use super::query::terms;
use crate::docs::assistant_files::{AssistantGuide, Skill};

/// Share of the question's terms a skill must hold to match.
pub const MIN_SKILL_COVERAGE: f32 = 0.5;
/// Skills given to an LLM for one question, best first (the hosted service loads up to three).
pub const MAX_PROMPT_SKILLS: usize = 2;

/// The skills `query` matches, best first, with their coverage of its terms.
pub fn matching_skills<'g>(guide: &'g AssistantGuide, query: &str) -> Vec<(&'g Skill, f32)> {
    let wanted = terms(query);
    let mut out: Vec<(&Skill, f32)> = guide
        .skills
        .iter()
        .filter_map(|s| Some((s, coverage(s, &wanted)?)))
        .filter(|(_, c)| *c >= MIN_SKILL_COVERAGE)
        .collect();
    // Stable: equal matches keep the order of their folders.
    crate::sort::sort_by(&mut out, |a, b| b.1.total_cmp(&a.1));
    out
}

/// The share of `wanted` the skill holds; `None` when its slug, name and description hold none.
fn coverage(skill: &Skill, wanted: &[String]) -> Option<f32> {
    if wanted.is_empty() {
        return None;
    }
    let head: HashSet<String> = terms(&format!(
        "{} {} {}",
        skill.slug.replace('-', " "),
        skill.name,
        skill.description
    ))
    .into_iter()
    .collect();
    let in_head = wanted.iter().filter(|t| head.contains(*t)).count();
    if in_head == 0 {
        return None;
    }
    let body: HashSet<String> = terms(&skill.text).into_iter().collect();
    let in_body = wanted
        .iter()
        .filter(|t| !head.contains(*t) && body.contains(*t))
        .count();
    Some((in_head as f32 + in_body as f32 / 2.0) / wanted.len() as f32)
}

/// A skill as a passage: it has no page, so no URL (never cited as a source).
pub fn skill_passage(skill: &Skill, coverage: f32, score: f32) -> Passage {
    Passage {
        title: skill.name.clone(),
        text: skill.text.clone(),
        score,
        coverage,
        ..Passage::default()
    }
}

/// The skill the extractive backend quotes instead of `pages`: the best match, when it covers the
/// question at least as well as the best of the pages.
pub fn skill_over_pages(guide: &AssistantGuide, query: &str, pages: &[Passage]) -> Option<Passage> {
    let (skill, coverage) = matching_skills(guide, query).into_iter().next()?;
    let best_page = pages.iter().map(|p| p.coverage).fold(0.0, f32::max);
    let top_score = pages.iter().map(|p| p.score).fold(1.0, f32::max);
    (coverage >= best_page).then(|| skill_passage(skill, coverage, top_score))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guide() -> AssistantGuide {
        let skill = |slug: &str, name: &str, description: &str, text: &str| Skill {
            slug: slug.into(),
            name: name.into(),
            description: description.into(),
            text: text.into(),
        };
        AssistantGuide {
            instructions: String::new(),
            skills: vec![
                skill(
                    "rotate-keys",
                    "Rotate access tokens",
                    "When a token leaked or expires",
                    "Revoke the old token, then create one.",
                ),
                skill(
                    "debug-webhooks",
                    "Debug webhooks",
                    "Deliveries that fail or never arrive",
                    "Check the signing secret and the retry log.",
                ),
            ],
            support: None,
        }
    }

    #[test]
    fn a_question_matches_the_skill_whose_name_and_description_it_shares() {
        let guide = guide();
        let found = matching_skills(&guide, "How do I rotate a leaked token?");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0.slug, "rotate-keys");
        assert_eq!(found[0].1, 1.0);
        let webhooks = matching_skills(
            &guide,
            "my webhook deliveries fail, where is the retry log?",
        );
        assert_eq!(webhooks[0].0.slug, "debug-webhooks");
        assert!(matching_skills(&guide, "How do I change the logo colors?").is_empty());
        // Text alone never matches: a skill is chosen by what it says it is for.
        assert!(matching_skills(&guide, "signing secret").is_empty());
        assert!(matching_skills(&guide, "").is_empty());
    }

    #[test]
    fn the_extractive_backend_takes_the_skill_only_when_it_beats_the_pages() {
        let guide = guide();
        let page = |coverage: f32| Passage {
            url: "https://d/p".into(),
            title: "P".into(),
            text: "t".into(),
            score: 3.0,
            coverage,
            ..Passage::default()
        };
        let skill = skill_over_pages(&guide, "rotate leaked token", &[page(0.6)])
            .expect("the skill covers more");
        assert_eq!(
            (skill.title.as_str(), skill.url.as_str(), skill.score),
            ("Rotate access tokens", "", 3.0)
        );
        assert!(skill.text.starts_with("Revoke the old token"));
        assert!(
            skill_over_pages(&guide, "rotate the logo", &[page(1.0)]).is_none(),
            "half the terms lose to a page holding all"
        );
        assert!(skill_over_pages(&AssistantGuide::default(), "rotate leaked token", &[]).is_none());
    }
}
