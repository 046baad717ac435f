//! `POST /discovery/v1/assistant/{domain}/message` (AI SDK v4 data stream) and
//! `POST /discovery/v2/assistant/{domain}/message` (AI SDK v5+ UI message stream): one pipeline,
//! two encodings. Retrieval from the live index, then generation, streamed as it is produced.

use docs_edge_core::analytics::record::AnswerFacts;
use docs_edge_core::assistant::encode::{estimate_tokens, AnswerEncoder, Protocol, SourceRef};
use docs_edge_core::assistant::extractive::compose_answer;
use docs_edge_core::assistant::passage::Passage;
use docs_edge_core::assistant::prompt::{build_prompt, PromptBudget, PromptInput, PromptRole};
use docs_edge_core::assistant::providers::LlmEvent;
use docs_edge_core::assistant::query::retrieval_query;
use docs_edge_core::assistant::request::{parse_v1, parse_v2, AssistantRequest, Role};
use docs_edge_core::search::Query;
use docs_edge_core::stream::{FinishReason, Usage};
use futures_channel::mpsc;
use worker::{Env, Response};

use crate::app::Call;
use crate::answer_analytics;
use crate::clock::{now_iso, now_ms};
use crate::config::Config;
use crate::durable::thread::{AppendRequest, StoredMessage, StoredSource};
use crate::error::{ApiError, ApiResult};
use crate::generation::{stream_llm, Backend};
use crate::http::read_json_object;
use crate::random::random_id;
use crate::routes::discovery::authorize;
use crate::sites::live_index;
use crate::threads;

pub async fn message_v1(call: &mut Call) -> ApiResult<Response> {
    message(call, Protocol::DataStreamV1).await
}

pub async fn message_v2(call: &mut Call) -> ApiResult<Response> {
    message(call, Protocol::UiMessageStreamV2).await
}

/// The page's address on the docs site itself, which is what a reader follows.
fn page_url(domain: &str, path: &str) -> String {
    if path == "index" {
        format!("https://{domain}/")
    } else {
        format!("https://{domain}/{path}")
    }
}

async fn message(call: &mut Call, protocol: Protocol) -> ApiResult<Response> {
    let started_ms = now_ms();
    let caller = authorize(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let request = match protocol {
        Protocol::DataStreamV1 => parse_v1(&body)?,
        Protocol::UiMessageStreamV2 => parse_v2(&body)?,
    };
    let backend = Backend::from_env(&call.env)?;

    let (thread_id, create_thread) = match &request.thread_id {
        Some(id) => {
            if threads::find(&call.env, id, &caller.key.org_id, Some(&caller.domain)).await?.is_none() {
                return Err(ApiError::NotFound(format!("thread {id} not found")));
            }
            (id.clone(), false)
        }
        None => (random_id("thr_", 8)?, true),
    };
    call.response_headers.push(("x-thread-id".into(), thread_id.clone()));

    let (_, index) = live_index(&call.env, &caller.domain).await?;
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
    let passages: Vec<Passage> = hits
        .into_iter()
        .map(|hit| Passage {
            url: page_url(&caller.domain, &hit.path),
            path: hit.path,
            title: hit.title,
            heading: hit.heading.unwrap_or_default(),
            anchor: hit.anchor.unwrap_or_default(),
            text: hit.text,
            score: hit.score,
        })
        .collect();

    let (sender, receiver) = mpsc::unbounded::<Result<Vec<u8>, worker::Error>>();
    let answer = Generation {
        env: call.env.clone(),
        config: call.config.clone(),
        backend,
        encoder: AnswerEncoder::new(protocol, random_id("msg_", 8)?, thread_id.clone()),
        started_ms,
        first_text_ms: None,
        request,
        passages,
        query_text,
        thread: AppendRequest {
            thread_id,
            org_id: caller.key.org_id,
            domain: caller.domain,
            create: create_thread,
            now: String::new(),
            messages: Vec::new(),
        },
        request_id: call.request_id.clone(),
        sender,
    };
    // wait_until keeps the isolate working on the answer for as long as the stream is read.
    call.ctx.wait_until(answer.run());
    let mut response = Response::from_stream(receiver)?;
    let headers = response.headers_mut();
    for (name, value) in protocol.headers() {
        headers.set(name, value)?;
    }
    Ok(response)
}

struct Generation {
    env: Env,
    config: Config,
    backend: Backend,
    encoder: AnswerEncoder,
    started_ms: u64,
    /// When the first text part went out: the first byte a reader sees of the answer.
    first_text_ms: Option<u64>,
    request: AssistantRequest,
    passages: Vec<Passage>,
    /// The question with what a follow-up leaves implicit ("and how long is it valid?").
    query_text: String,
    thread: AppendRequest,
    request_id: String,
    sender: mpsc::UnboundedSender<Result<Vec<u8>, worker::Error>>,
}

/// How a generation ended.
enum Outcome {
    Finished { text: String, sources: Vec<StoredSource>, reason: FinishReason, usage: Usage },
    Failed(String),
    ClientGone,
}

impl Generation {
    /// False once the client has gone: the receiver was dropped with the response stream.
    fn send(&self, text: String) -> bool {
        text.is_empty() || self.sender.unbounded_send(Ok(text.into_bytes())).is_ok()
    }

    async fn run(mut self) {
        let start = self.encoder.start();
        if !self.send(start) {
            return;
        }
        let outcome = match self.backend.clone() {
            Backend::Extractive => self.extractive(),
            backend => self.llm(&backend).await,
        };
        match outcome {
            Outcome::Finished { text, sources, reason, usage } => {
                // Recorded before the finish part goes out, so a client that continues the thread the
                // moment it reads the id finds it.
                let question = self.request.question().to_string();
                if let Err(err) = self.record(question, text, sources).await {
                    log_failure(&self.request_id, &format!("thread not recorded: {err:?}"));
                    let part = self.encoder.error("the conversation could not be saved");
                    self.send(part);
                    return;
                }
                let part = self.encoder.finish(reason, usage);
                self.send(part);
                // The client has the whole answer once the stream ends; analytics come after.
                self.sender.close_channel();
                self.record_analytics().await;
            }
            Outcome::Failed(detail) => {
                log_failure(&self.request_id, &detail);
                let part = self.encoder.error("the answer could not be completed: the language model failed");
                self.send(part);
            }
            Outcome::ClientGone => {}
        }
    }

    /// Sources are whole pages: one per page, in the order first cited.
    fn send_sources(&mut self, indices: impl IntoIterator<Item = usize>) -> Option<Vec<StoredSource>> {
        let mut sources: Vec<StoredSource> = Vec::new();
        for i in indices {
            let Some(passage) = self.passages.get(i) else { continue };
            if sources.iter().any(|s| s.url == passage.url) {
                continue;
            }
            sources.push(StoredSource { id: passage.path.clone(), url: passage.url.clone(), title: passage.title.clone() });
        }
        let refs: Vec<SourceRef> = sources.iter().map(|s| SourceRef { url: &s.url, title: &s.title }).collect();
        let part = self.encoder.sources(&self.query_text, &refs);
        self.send(part).then_some(sources)
    }

    fn extractive(&mut self) -> Outcome {
        let answer = compose_answer(&self.query_text, &self.passages);
        let Some(sources) = self.send_sources(answer.sources.clone()) else { return Outcome::ClientGone };
        for chunk in &answer.chunks {
            self.first_text_ms.get_or_insert_with(now_ms);
            let part = self.encoder.text(chunk);
            if !self.send(part) {
                return Outcome::ClientGone;
            }
        }
        let prompt_text: usize = self.passages.iter().map(|p| p.text.len()).sum::<usize>() + self.request.question().len();
        let text = answer.text();
        let usage = Usage { prompt_tokens: (prompt_text as u64).div_ceil(4), completion_tokens: estimate_tokens(&text) };
        Outcome::Finished { text, sources, reason: FinishReason::Stop, usage }
    }

    async fn llm(&mut self, backend: &Backend) -> Outcome {
        let Some(sources) = self.send_sources(0..self.passages.len()) else { return Outcome::ClientGone };
        let turns: Vec<(PromptRole, &str)> = self
            .request
            .conversation
            .iter()
            .filter_map(|t| match t.role {
                Role::User => Some((PromptRole::User, t.text.as_str())),
                Role::Assistant => Some((PromptRole::Assistant, t.text.as_str())),
                // Client-sent system and data turns could rewrite the rules: not passed on.
                _ => None,
            })
            .collect();
        let context: Vec<&str> = self.request.context.iter().map(|c| c.value.as_str()).collect();
        let prompt = build_prompt(
            &PromptInput {
                site_name: &self.thread.domain,
                turns: &turns,
                passages: &self.passages,
                current_path: self.request.current_path.as_deref(),
                context: &context,
            },
            &PromptBudget::default(),
        );
        let mut text = String::new();
        let mut finish: Option<(FinishReason, Usage)> = None;
        let mut failure: Option<String> = None;
        let mut gone = false;
        let encoder = &mut self.encoder;
        let sender = &self.sender;
        let first_text_ms = &mut self.first_text_ms;
        let result = stream_llm(backend, &prompt, |event| match event {
            LlmEvent::TextDelta(delta) => {
                first_text_ms.get_or_insert_with(now_ms);
                text.push_str(&delta);
                let part = encoder.text(&delta);
                if part.is_empty() || sender.unbounded_send(Ok(part.into_bytes())).is_ok() {
                    true
                } else {
                    gone = true;
                    false
                }
            }
            LlmEvent::Finish { reason, prompt_tokens, completion_tokens } => {
                let usage = Usage {
                    prompt_tokens: prompt_tokens.map(u64::from).unwrap_or(0),
                    completion_tokens: completion_tokens.map(u64::from).unwrap_or_else(|| estimate_tokens(&text)),
                };
                finish = Some((finish_reason(&reason), usage));
                true
            }
            LlmEvent::Error(message) => {
                failure = Some(message);
                false
            }
        })
        .await;
        if gone {
            return Outcome::ClientGone;
        }
        if let Some(message) = failure.or(result.err()) {
            return Outcome::Failed(message);
        }
        let (reason, usage) = finish.unwrap_or((FinishReason::Stop, Usage { prompt_tokens: 0, completion_tokens: estimate_tokens(&text) }));
        Outcome::Finished { text, sources, reason, usage }
    }

    async fn record_analytics(&self) {
        let Some(StoredMessage { content: answer, sources, .. }) = self.thread.messages.last() else { return };
        let cited: Vec<String> = sources.iter().map(|s| s.id.clone()).collect();
        let scores: Vec<f32> = self.passages.iter().map(|p| p.score).collect();
        let finished = now_ms();
        let facts = AnswerFacts {
            message_id: self.encoder.message_id(),
            thread_id: &self.thread.thread_id,
            org_id: &self.thread.org_id,
            domain: &self.thread.domain,
            started_ms: self.started_ms,
            first_byte_ms: self.first_text_ms.unwrap_or(finished),
            finished_ms: finished,
            question: self.request.question(),
            answer,
            scores: &scores,
            cited_paths: &cited,
            backend: self.backend.name(),
            fingerprint: Some(self.request.fp.as_str()),
            salt: None,
            new_thread: self.thread.create,
        };
        answer_analytics::record(&self.env, &self.config, facts, &self.request_id).await;
    }

    async fn record(&mut self, question: String, answer: String, sources: Vec<StoredSource>) -> ApiResult<()> {
        let now = now_iso();
        self.thread.now = now.clone();
        self.thread.messages = vec![
            StoredMessage {
                id: None,
                role: "user".into(),
                content: question,
                created_at: now.clone(),
                sources: Vec::new(),
            },
            // The id the client saw on `start` (v2) or `f:` (v1), so answers can be referred to later.
            StoredMessage {
                id: Some(self.encoder.message_id().to_string()),
                role: "assistant".into(),
                content: answer,
                created_at: now,
                sources,
            },
        ];
        match threads::append(&self.env, &self.thread).await? {
            Some(_) => Ok(()),
            None => Err(ApiError::Internal("thread disappeared while answering".into())),
        }
    }
}

fn finish_reason(reason: &str) -> FinishReason {
    match reason {
        "stop" => FinishReason::Stop,
        "length" => FinishReason::Length,
        "content-filter" => FinishReason::ContentFilter,
        "tool-calls" => FinishReason::ToolCalls,
        "error" => FinishReason::Error,
        _ => FinishReason::Other,
    }
}

fn log_failure(request_id: &str, detail: &str) {
    let line = serde_json::json!({ "event": "assistant_failed", "requestId": request_id, "error": detail });
    worker::console_error!("{line}");
}
