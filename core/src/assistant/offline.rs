//! Retrieval for the assistant (the worker's and `docs-edge-serve`'s, each running [`retrieval_text`],
//! [`retrieval_search`] over the split index and [`passages`]), and the LLM prompt of a request
//! ([`request_prompt`]).

use crate::search::{Hit, Query};
use super::passage::Passage;
use super::guide::{matching_skills, MAX_PROMPT_SKILLS};
use super::prompt::{add_guide, build_prompt, ChatPrompt, PromptBudget, PromptInput, PromptRole};
use crate::docs::assistant_files::AssistantGuide;
use super::query::retrieval_query;
use super::request::{AssistantRequest, Role};

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
    let user_turns: Vec<&str> =
        request.conversation.iter().rev().filter(|t| t.role == Role::User).map(|t| t.text.as_str()).collect();
    let context: Vec<&str> = request.context.iter().map(|c| c.value.as_str()).collect();
    retrieval_query(&user_turns, &context)
}

/// The search retrieval runs for `query_text`: the request's size, filters and current page.
pub fn retrieval_search<'a>(request: &'a AssistantRequest, query_text: &'a str) -> Query<'a> {
    Query {
        text: query_text,
        limit: request.retrieval_page_size,
        score_threshold: 0.0,
        language: request.filter.language.as_deref(),
        version: request.filter.version.as_deref(),
        tag: None,
        groups: &request.filter.groups,
        near_path: request.current_path.as_deref(),
        current_version: None,
    }
}

/// The hits as passages to answer from and cite.
pub fn passages(hits: Vec<Hit>, domain: &str) -> Vec<Passage> {
    hits.into_iter()
        .map(|hit| Passage {
            url: page_url(domain, &hit.path),
            path: hit.path,
            title: hit.title,
            heading: hit.heading.unwrap_or_default(),
            anchor: hit.anchor.unwrap_or_default(),
            text: hit.text,
            score: hit.score,
            coverage: hit.coverage,
        })
        .collect()
}

/// The LLM prompt for `request` over `passages`: its user and assistant turns (client-sent system
/// and data turns could rewrite the rules, so they are not passed on), its current page and context,
/// and the site's `guide`: its instructions, and the skills `query_text` (`retrieval_text`) matches.
pub fn request_prompt(request: &AssistantRequest, site_name: &str, passages: &[Passage], guide: &AssistantGuide, query_text: &str) -> ChatPrompt {
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
    let input = PromptInput { site_name, turns: &turns, passages, current_path: request.current_path.as_deref(), context: &context };
    let mut prompt = build_prompt(&input, &PromptBudget::default());
    let skills: Vec<_> = matching_skills(guide, query_text).into_iter().take(MAX_PROMPT_SKILLS).map(|(s, _)| s).collect();
    add_guide(&mut prompt, &guide.instructions, &skills);
    prompt
}
