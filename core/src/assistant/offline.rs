//! Retrieval for the assistant (the worker's and `docs-edge-serve`'s, each running [`retrieval_text`],
//! [`retrieval_search`] over the split index and [`passages`]), and the LLM prompt of a request
//! ([`request_prompt`]).

use super::fences::balance_fences;
use super::guide::{matching_skills, MAX_PROMPT_SKILLS};
use super::passage::Passage;
use super::prompt::{add_guide, build_prompt, ChatPrompt, PromptBudget, PromptInput, PromptRole};
use super::query::retrieval_query;
use super::request::{AssistantRequest, Role};
use crate::docs::assistant_files::AssistantGuide;
use crate::search::{Hit, Query};

/// The page's address on the docs site itself, which is what a reader follows.
pub fn page_url(domain: &str, path: &str) -> String {
    if path == "index" {
        format!("https://{domain}/")
    } else {
        format!("https://{domain}/{path}")
    }
}

/// The text retrieval searches for: the question with what a follow-up leaves implicit.
pub fn retrieval_text(request: &AssistantRequest) -> String {
    let user_turns: Vec<&str> = request
        .conversation
        .iter()
        .rev()
        .filter(|t| t.role == Role::User)
        .map(|t| t.text.as_str())
        .collect();
    let context: Vec<&str> = request.context.iter().map(|c| c.value.as_str()).collect();
    retrieval_query(&user_turns, &context)
}

/// The search retrieval runs for `query_text`: the request's size, filters and current page.
pub fn retrieval_search<'a>(request: &'a AssistantRequest, query_text: &'a str) -> Query<'a> {
    Query {
        text: query_text,
        limit: request
            .retrieval_page_size
            .saturating_mul(CHUNKS_PER_PASSAGE),
        score_threshold: 0.0,
        language: request.filter.language.as_deref(),
        version: request.filter.version.as_deref(),
        tag: None,
        groups: &request.filter.groups,
        near_path: request.current_path.as_deref(),
        current_version: None,
        follow_top: FOLLOWED_SECTIONS,
        by_meaning: false,
        semantic: None,
    }
}

/// Sections retrieval reads on after a short best section ([`Query::follow_top`]): its page's
/// "Diagnosis" and "Solution" after a "Symptom".
pub const FOLLOWED_SECTIONS: usize = 2;

/// Chunks retrieval fetches per passage the request asks for: a long section is cut into chunks
/// (`search::chunk`), and the pieces of one section that rank together make one passage, so the
/// answer reads the section whole and the other slots go to other sections.
pub const CHUNKS_PER_PASSAGE: usize = 2;

/// The best `limit` sections among `hits` (ranked chunks, `limit * CHUNKS_PER_PASSAGE` of them) as
/// passages to answer from and cite: the ranked pieces of one section joined in their order, at
/// the rank and score of its best piece.
pub fn passages(hits: Vec<Hit>, domain: &str, limit: usize) -> Vec<Passage> {
    // Each section's best hit, with every ranked piece of it.
    let mut sections: Vec<(Hit, Vec<(u32, String)>)> = Vec::new();
    for mut hit in hits {
        let same = sections.iter().position(|(s, _)| {
            s.path == hit.path && s.anchor == hit.anchor && s.version == hit.version
        });
        match same {
            Some(at) => {
                let (best, pieces) = &mut sections[at];
                best.coverage = best.coverage.max(hit.coverage);
                pieces.push((hit.chunk, balanced(hit.text)));
            }
            None if sections.len() < limit || extends_top_page(&sections, &hit, limit) => {
                let piece = (hit.chunk, balanced(std::mem::take(&mut hit.text)));
                sections.push((hit, vec![piece]));
            }
            None => {}
        }
    }
    sections
        .into_iter()
        .map(|(hit, mut pieces)| {
            crate::sort::sort_by_key(&mut pieces, |(chunk, _)| *chunk);
            let text = pieces
                .into_iter()
                .map(|(_, text)| text)
                .collect::<Vec<_>>()
                .join("\n");
            Passage {
                url: page_url(domain, &hit.path),
                path: hit.path,
                title: hit.title,
                heading: hit.heading.unwrap_or_default(),
                anchor: hit.anchor.unwrap_or_default(),
                text,
                score: hit.score,
                coverage: hit.coverage,
            }
        })
        .collect()
}

fn balanced(text: String) -> String {
    match balance_fences(&text) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(fixed) => fixed,
    }
}

/// Sections of the best section's page beyond `limit`: a page whose opening section ranks first but
/// only introduces it ("Once your request logs are recorded, you can export them") answers in a later
/// section the ranking placed past the other pages' (see the extractive composer's thin lead).
const TOP_PAGE_EXTRA_SECTIONS: usize = 1;

fn extends_top_page(sections: &[(Hit, Vec<(u32, String)>)], hit: &Hit, limit: usize) -> bool {
    let Some((top, _)) = sections.first() else {
        return false;
    };
    sections.len() < limit + TOP_PAGE_EXTRA_SECTIONS
        && top.path == hit.path
        && top.version == hit.version
}

/// The LLM prompt for `request` over `passages`: its user and assistant turns (client-sent system
/// and data turns could rewrite the rules, so they are not passed on), its current page and context,
/// and the site's `guide`: its instructions, and the skills `query_text` (`retrieval_text`) matches.
pub fn request_prompt(
    request: &AssistantRequest,
    site_name: &str,
    passages: &[Passage],
    guide: &AssistantGuide,
    query_text: &str,
) -> ChatPrompt {
    let turns: Vec<(PromptRole, &str)> = request
        .conversation
        .iter()
        .filter_map(|t| match t.role {
            Role::User => Some((PromptRole::User, t.text.as_str())),
            Role::Assistant => Some((PromptRole::Assistant, t.text.as_str())),
            _ => None,
        })
        .collect();
    let context: Vec<&str> = request.context.iter().map(|c| c.value.as_str()).collect();
    let input = PromptInput {
        site_name,
        turns: &turns,
        passages,
        current_path: request.current_path.as_deref(),
        context: &context,
    };
    let mut prompt = build_prompt(&input, &PromptBudget::default());
    let skills: Vec<_> = matching_skills(guide, query_text)
        .into_iter()
        .take(MAX_PROMPT_SKILLS)
        .map(|(s, _)| s)
        .collect();
    add_guide(&mut prompt, &guide.instructions, &skills);
    prompt
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(path: &str, anchor: &str, chunk: u32, text: &str, score: f32) -> Hit {
        Hit {
            path: path.into(),
            title: "T".into(),
            heading: Some(anchor.into()),
            anchor: Some(anchor.into()),
            text: text.into(),
            score,
            language: "en".into(),
            version: None,
            groups: Vec::new(),
            coverage: score,
            chunk,
        }
    }

    #[test]
    fn the_ranked_pieces_of_one_section_make_one_passage_in_their_order() {
        let hits = vec![
            hit("faq", "ollama", 8, "2. Update your config.", 0.9),
            hit("guide", "setup", 3, "Install it.", 0.8),
            hit("faq", "ollama", 7, "1. Set `OLLAMA_HOST=0.0.0.0`.", 0.7),
            hit("other", "a", 1, "A.", 0.6),
            hit("more", "b", 2, "B.", 0.5),
        ];
        let passages = passages(hits, "d.example", 3);
        let found: Vec<(&str, f32)> = passages
            .iter()
            .map(|p| (p.path.as_str(), p.score))
            .collect();
        assert_eq!(found, [("faq", 0.9), ("guide", 0.8), ("other", 0.6)]);
        assert_eq!(
            passages[0].text,
            "1. Set `OLLAMA_HOST=0.0.0.0`.\n2. Update your config."
        );
        assert_eq!(passages[0].coverage, 0.9);
    }

    #[test]
    fn one_more_section_of_the_best_section_s_page_is_kept_past_the_limit() {
        let hits = vec![
            hit("export", "", 0, "You can export them.", 0.9),
            hit("guide", "setup", 3, "Install it.", 0.8),
            hit("other", "a", 1, "A.", 0.6),
            hit("export", "fields", 1, "- `input`", 0.3),
            hit("export", "format", 2, "JSONL.", 0.2),
        ];
        let found: Vec<(String, String)> = passages(hits, "d.example", 2)
            .into_iter()
            .map(|p| (p.path, p.anchor))
            .collect();
        let expected = [("export", ""), ("guide", "setup"), ("export", "fields")];
        assert_eq!(found, expected.map(|(p, a)| (p.to_owned(), a.to_owned())));
    }
}
