//! Retrieval for the assistant (the worker's and `docs-edge-serve`'s), and a whole extractive answer
//! with nothing outside the process, for `docs-edge-serve` (the worker streams the same parts as it
//! produces them, and also records threads).

use crate::search::{Query, SearchIndex};
use crate::stream::{FinishReason, Usage};

use super::encode::{estimate_tokens, AnswerEncoder};
use super::extractive::compose_answer;
use super::passage::Passage;
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

/// The retrieval query (the question with what a follow-up leaves implicit) and its passages.
pub fn retrieve(index: &SearchIndex, request: &AssistantRequest, domain: &str) -> (String, Vec<Passage>) {
    let user_turns: Vec<&str> =
        request.conversation.iter().rev().filter(|t| t.role == Role::User).map(|t| t.text.as_str()).collect();
    let context: Vec<&str> = request.context.iter().map(|c| c.value.as_str()).collect();
    let query_text = retrieval_query(&user_turns, &context);
    let hits = index.search(&Query {
        text: &query_text,
        limit: request.retrieval_page_size,
        score_threshold: 0.0,
        language: request.filter.language.as_deref(),
        version: request.filter.version.as_deref(),
        tag: None,
        groups: &request.filter.groups,
        near_path: request.current_path.as_deref(),
    });
    let passages = hits
        .into_iter()
        .map(|hit| Passage {
            url: page_url(domain, &hit.path),
            path: hit.path,
            title: hit.title,
            heading: hit.heading.unwrap_or_default(),
            anchor: hit.anchor.unwrap_or_default(),
            text: hit.text,
            score: hit.score,
        })
        .collect();
    (query_text, passages)
}

/// Every part of one extractive answer in the encoder's protocol: start, sources (one per page, in
/// citation order), text, finish with `thread_id`.
pub fn extractive_stream(
    encoder: &mut AnswerEncoder,
    request: &AssistantRequest,
    query_text: &str,
    passages: &[Passage],
    thread_id: &str,
) -> Vec<String> {
    let mut parts = vec![encoder.start()];
    let answer = compose_answer(query_text, passages);
    let mut cited: Vec<&Passage> = Vec::new();
    for passage in answer.sources.iter().filter_map(|&i| passages.get(i)) {
        if !cited.iter().any(|c| c.url == passage.url) {
            cited.push(passage);
        }
    }
    for passage in cited {
        parts.push(encoder.source(&passage.url, &passage.title));
    }
    for chunk in &answer.chunks {
        parts.push(encoder.text(chunk));
    }
    let prompt_text = passages.iter().map(|p| p.text.len()).sum::<usize>() + request.question().len();
    let usage = Usage { prompt_tokens: (prompt_text as u64).div_ceil(4), completion_tokens: estimate_tokens(&answer.text()) };
    parts.push(encoder.finish(FinishReason::Stop, usage, thread_id));
    parts.retain(|p| !p.is_empty());
    parts
}
