//! `POST /discovery/v1/assistant/{domain}/message` (AI SDK v4 data stream) and
//! `POST /discovery/v2/assistant/{domain}/message` (AI SDK v5+ UI message stream): one pipeline,
//! two encodings. Retrieval from the live index, then generation, streamed as it is produced.

use docs_edge_core::analytics::record::AnswerFacts;
use docs_edge_core::assistant::encode::Protocol;
use docs_edge_core::assistant::session::{AnswerSession, CompletedAnswer, Next};
use docs_edge_core::assistant::offline::retrieve;
use docs_edge_core::assistant::passage::Passage;
use docs_edge_core::assistant::prompt::{build_prompt, PromptBudget, PromptInput, PromptRole};
use docs_edge_core::assistant::providers::LlmEvent;
use docs_edge_core::assistant::regenerate::{messages_to_keep, StoredTurn};
use docs_edge_core::assistant::request::{parse_v1, parse_v2, AssistantRequest, Role};
use futures_channel::mpsc;
use worker::{Env, Response};

use crate::app::Call;
use crate::answer_analytics;
use crate::clock::{now_iso, now_ms};
use crate::durable::thread::{AppendRequest, StoredMessage, StoredSource};
use crate::error::{ApiError, ApiResult};
use crate::generation::{keep_alive_interval, stream_llm, Backend};
use crate::http::read_json_object;
use crate::random::random_id;
use crate::routes::discovery::{authorize, Caller};
use crate::sites::live_index;
use crate::threads;

pub async fn message_v1(call: &mut Call) -> ApiResult<Response> {
    message(call, Protocol::DataStreamV1).await
}

pub async fn message_v2(call: &mut Call) -> ApiResult<Response> {
    message(call, Protocol::UiMessageStreamV2).await
}

async fn message(call: &mut Call, protocol: Protocol) -> ApiResult<Response> {
    let started_ms = now_ms();
    let caller = authorize(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let request = match protocol {
        Protocol::DataStreamV1 => parse_v1(&body)?,
        Protocol::UiMessageStreamV2 => parse_v2(&body)?,
    };
    let (answer, receiver) = prepare(call, caller, request, protocol, started_ms).await?;
    call.response_headers.push(("x-thread-id".into(), answer.thread.thread_id.clone()));
    // wait_until keeps the isolate working on the answer for as long as the stream is read.
    call.ctx.wait_until(async move {
        answer.run().await;
    });
    let mut response = Response::from_stream(receiver)?;
    let headers = response.headers_mut();
    for (name, value) in protocol.headers() {
        headers.set(name, value)?;
    }
    Ok(response)
}

/// An answer, not streamed (the MCP `ask` tool): the same pipeline run to its end. Returns the text
/// and the `(title, url)` of its sources; a failed answer is an error (its detail is logged).
pub async fn answer_once(call: &Call, caller: Caller, request: AssistantRequest) -> ApiResult<(String, Vec<(String, String)>)> {
    // Nobody reads the stream, but it stays open: a dropped receiver means the client left.
    let (answer, _stream) = prepare(call, caller, request, Protocol::UiMessageStreamV2, now_ms()).await?;
    let answer = answer.run().await.ok_or_else(|| ApiError::Internal("the answer could not be completed".into()))?;
    Ok((answer.text, answer.sources.into_iter().map(|s| (s.title, s.url)).collect()))
}

type PartReceiver = mpsc::UnboundedReceiver<Result<Vec<u8>, worker::Error>>;

/// Everything before generation: the thread, retrieval from the live index, the backend.
async fn prepare(
    call: &Call,
    caller: Caller,
    request: AssistantRequest,
    protocol: Protocol,
    started_ms: u64,
) -> ApiResult<(Generation, PartReceiver)> {
    let backend = Backend::from_env(&call.env)?;

    let (thread_id, create_thread, keep) = match &request.thread_id {
        Some(id) => {
            let Some(record) = threads::find(&call.env, id, &caller.key.org_id, Some(&caller.domain)).await? else {
                return Err(ApiError::NotFound(format!("thread {id} not found")));
            };
            let stored: Vec<StoredTurn> =
                record.messages.iter().map(|m| StoredTurn { is_user: m.role == "user", id: m.id.as_deref(), text: &m.content }).collect();
            let keep = messages_to_keep(&stored, &request.trigger, request.question_id.as_deref(), request.question())?;
            (id.clone(), false, keep)
        }
        None => (random_id("thr_", 8)?, true, None),
    };

    let (_, index) = live_index(&call.env, &caller.domain, &caller.key.org_id).await?;
    let (query_text, passages) = retrieve(&index, &request, &caller.domain);

    let (sender, receiver) = mpsc::unbounded::<Result<Vec<u8>, worker::Error>>();
    let answer = Generation {
        env: call.env.clone(),
        backend,
        started_ms,
        first_text_ms: None,
        session: AnswerSession::new(protocol, random_id("msg_", 8)?, thread_id.clone()),
        request,
        passages,
        query_text,
        thread: AppendRequest {
            thread_id,
            org_id: caller.key.org_id,
            domain: caller.domain,
            create: create_thread,
            keep,
            now: String::new(),
            messages: Vec::new(),
        },
        request_id: call.request_id.clone(),
        sender,
    };
    Ok((answer, receiver))
}

struct Generation {
    env: Env,
    backend: Backend,
    started_ms: u64,
    /// When the first text part went out: the first byte a reader sees of the answer.
    first_text_ms: Option<u64>,
    session: AnswerSession,
    request: AssistantRequest,
    passages: Vec<Passage>,
    /// The question with what a follow-up leaves implicit ("and how long is it valid?").
    query_text: String,
    thread: AppendRequest,
    request_id: String,
    sender: mpsc::UnboundedSender<Result<Vec<u8>, worker::Error>>,
}

impl Generation {
    /// False once the client has gone: the receiver was dropped with the response stream.
    fn send(&self, text: String) -> bool {
        send_bytes(&self.sender, text)
    }

    /// Generates, records and streams the answer; the answer once recorded.
    async fn run(mut self) -> Option<CompletedAnswer> {
        let start = self.session.start();
        if !self.send(start) {
            return None;
        }
        let delivered = match self.backend.clone() {
            Backend::Extractive => self.extractive(),
            backend => self.llm(&backend).await,
        };
        if !delivered || self.sender.is_closed() {
            return None;
        }
        match self.session.outcome() {
            Ok(answer) => {
                // Recorded before the finish part goes out, so a client that continues the thread the
                // moment it reads the id finds it.
                if let Err(err) = self.record(&answer).await {
                    log_failure(&self.request_id, &format!("thread not recorded: {err:?}"));
                    let part = self.session.fail("the conversation could not be saved");
                    self.send(part);
                    return None;
                }
                let part = self.session.finish(&answer);
                self.send(part);
                // The client has the whole answer once the stream ends; analytics come after.
                self.sender.close_channel();
                self.record_analytics(&answer).await;
                Some(answer)
            }
            Err(detail) => {
                log_failure(&self.request_id, &detail);
                let part = self.session.fail("the answer could not be completed: the language model failed");
                self.send(part);
                None
            }
        }
    }

    /// False when the client went away.
    fn extractive(&mut self) -> bool {
        let parts = self.session.extractive(&self.query_text, &self.passages, self.request.question());
        self.first_text_ms.get_or_insert_with(now_ms);
        parts.into_iter().all(|part| self.send(part))
    }

    /// False when the client went away.
    async fn llm(&mut self, backend: &Backend) -> bool {
        let part = self.session.cite(&self.query_text, &self.passages, 0..self.passages.len());
        if !self.send(part) {
            return false;
        }
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
        let keep_alive = self.session.keep_alive();
        let session = &mut self.session;
        let sender = &self.sender;
        let idle = keep_alive_interval(&self.env);
        let first_text_ms = &mut self.first_text_ms;
        let on_idle = || send_bytes(sender, keep_alive.to_string());
        let result = stream_llm(backend, &prompt, idle, on_idle, |event| {
            if matches!(event, LlmEvent::TextDelta(_)) {
                first_text_ms.get_or_insert_with(now_ms);
            }
            match session.on_llm_event(event) {
                Next::Continue(bytes) => send_bytes(sender, bytes),
                Next::Done => false,
            }
        })
        .await;
        if let Err(detail) = result {
            self.session.on_backend_error(detail);
        }
        true
    }

    async fn record_analytics(&self, answer: &CompletedAnswer) {
        let cited: Vec<String> = answer.sources.iter().map(|s| s.id.clone()).collect();
        let scores: Vec<f32> = self.passages.iter().map(|p| p.score).collect();
        let finished = now_ms();
        let facts = AnswerFacts {
            message_id: &answer.message_id,
            thread_id: &self.thread.thread_id,
            org_id: &self.thread.org_id,
            domain: &self.thread.domain,
            started_ms: self.started_ms,
            first_byte_ms: self.first_text_ms.unwrap_or(finished),
            finished_ms: finished,
            question: self.request.question(),
            answer: &answer.text,
            scores: &scores,
            cited_paths: &cited,
            backend: self.backend.name(),
            fingerprint: Some(self.request.fp.as_str()),
            salt: None,
            new_thread: self.thread.create,
        };
        answer_analytics::record(&self.env, facts, &self.request_id).await;
    }

    async fn record(&mut self, answer: &CompletedAnswer) -> ApiResult<()> {
        let now = now_iso();
        self.thread.now = now.clone();
        self.thread.messages = vec![
            StoredMessage {
                id: self.request.question_id.clone(),
                role: "user".into(),
                content: self.request.question().to_string(),
                created_at: now.clone(),
                sources: Vec::new(),
            },
            // The id the client saw on `start` (v2) or `f:` (v1), so answers can be referred to later.
            StoredMessage {
                id: Some(answer.message_id.clone()),
                role: "assistant".into(),
                content: answer.text.clone(),
                created_at: now,
                sources: answer
                    .sources
                    .iter()
                    .map(|s| StoredSource { id: s.id.clone(), url: s.url.clone(), title: s.title.clone() })
                    .collect(),
            },
        ];
        match threads::append(&self.env, &self.thread).await? {
            Some(_) => Ok(()),
            None => Err(ApiError::Internal("thread disappeared while answering".into())),
        }
    }
}

/// False once the client has gone.
fn send_bytes(sender: &mpsc::UnboundedSender<Result<Vec<u8>, worker::Error>>, text: String) -> bool {
    text.is_empty() || sender.unbounded_send(Ok(text.into_bytes())).is_ok()
}

fn log_failure(request_id: &str, detail: &str) {
    let line = serde_json::json!({ "event": "assistant_failed", "requestId": request_id, "error": detail });
    worker::console_error!("{line}");
}
