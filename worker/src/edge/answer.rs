//! One answer being generated: the [`AnswerJob`] says what was checked before the response began
//! (the thread, the live site, the backend); retrieval runs after the first part has gone out, so a
//! client (and any proxy between) sees bytes at once, however long the index takes to read. Run by
//! the request that asked (`wait_until`), or, for a resumable v2 answer, by the chat's Durable Object
//! ([`crate::edge::durable::chat`]), which journals the bytes for every reader.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use docs_edge_core::analytics::record::AnswerFacts;
use docs_edge_core::assistant::encode::Protocol;
use docs_edge_core::assistant::guide::skill_over_pages;
use docs_edge_core::assistant::offline::{
    passages, request_prompt, retrieval_search, retrieval_text,
};
use docs_edge_core::assistant::passage::Passage;
use docs_edge_core::assistant::providers::LlmEvent;
use docs_edge_core::assistant::regenerate::{messages_to_keep, StoredTurn};
use docs_edge_core::assistant::request::AssistantRequest;
use docs_edge_core::assistant::session::{AnswerSession, CompletedAnswer, Next};
use docs_edge_core::docs::assistant_files::AssistantGuide;
use docs_edge_core::privacy::Masked;
use futures_channel::mpsc;
use worker::{Delay, Env};

use crate::edge::answer_analytics;
use crate::edge::durable::thread::{AppendRequest, ThreadClient};
use crate::edge::generation::{stream_llm, Backend};
use crate::edge::live;
use crate::edge::search_store;
use crate::edge::turnstile::HumanCheck;
use crate::shared::clock::{now_iso, now_ms};
use crate::shared::config::keep_alive_interval;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::random::random_id;
use crate::shared::storage;

pub type PartSender = mpsc::UnboundedSender<Result<Vec<u8>, worker::Error>>;
pub type PartReceiver = mpsc::UnboundedReceiver<Result<Vec<u8>, worker::Error>>;

/// Everything an answer needs once the request is validated: what can refuse it with a status code
/// is settled; retrieval is the generation's first step.
#[derive(Debug, Clone)]
pub struct AnswerJob {
    pub message_id: String,
    pub started_ms: u64,
    pub request: AssistantRequest,
    /// The question as the thread and analytics store it; retrieval and the model get it as asked.
    pub question: Masked,
    pub thread: AppendRequest,
    pub request_id: String,
}

/// Everything before the response: the thread (which must be this owner's), a live site for the
/// caller (404 otherwise), Turnstile for a widget's request (`human`; `None` for the MCP server's,
/// which is not checked), the backend. Run by the request, or by the chat's object for a resumable
/// answer.
pub async fn prepare(
    env: &Env,
    org_id: &str,
    domain: &str,
    request: AssistantRequest,
    started_ms: u64,
    request_id: &str,
    human: Option<&HumanCheck>,
) -> ApiResult<(AnswerJob, Backend)> {
    let backend = Backend::from_env(env)?;
    let question = crate::shared::config::masker(env)?.mask(request.question());

    let (thread_id, create_thread, keep, thread_verified) = match &request.thread_id {
        Some(id) => {
            let Some(record) = ThreadClient::new(env)
                .find(id, org_id, Some(domain))
                .await?
            else {
                return Err(ApiError::NotFound(format!("thread {id} not found")));
            };
            let stored: Vec<StoredTurn> = record
                .messages
                .iter()
                .map(|m| StoredTurn {
                    is_user: m.role == "user",
                    id: m.id.as_deref(),
                    text: &m.content,
                })
                .collect();
            let keep = messages_to_keep(
                &stored,
                &request.trigger,
                request.question_id.as_deref(),
                question.as_str(),
            )?;
            (id.clone(), false, keep, record.human_verified)
        }
        None => (random_id("thr_", 8)?, true, None, false),
    };

    live::live_version(env, &storage::bucket(env)?, domain, org_id).await?;
    let human_verified = match human {
        Some(check) => crate::edge::turnstile::verify(env, check, thread_verified).await?,
        None => thread_verified,
    };

    let job = AnswerJob {
        message_id: random_id("msg_", 8)?,
        started_ms,
        request,
        question,
        thread: AppendRequest {
            thread_id,
            org_id: org_id.to_string(),
            domain: domain.to_string(),
            create: create_thread,
            keep,
            human_verified,
            now: String::new(),
            messages: Vec::new(),
        },
        request_id: request_id.to_string(),
    };
    Ok((job, backend))
}

pub struct Generation {
    env: Env,
    backend: Backend,
    started_ms: u64,
    /// When the first text part went out: the first byte a reader sees of the answer.
    first_text_ms: Option<u64>,
    session: AnswerSession,
    request: AssistantRequest,
    question: Masked,
    passages: Vec<Passage>,
    /// The repository's instructions and skills for the assistant.
    guide: Rc<AssistantGuide>,
    /// The question with what a follow-up leaves implicit ("and how long is it valid?").
    query_text: String,
    thread: AppendRequest,
    request_id: String,
    sender: mpsc::UnboundedSender<Result<Vec<u8>, worker::Error>>,
    /// Set by a stop request (resumable answers): generation ends, the partial answer is recorded and
    /// finished like a whole one.
    stop: Rc<Cell<bool>>,
    /// How long the backend may be silent before `on_idle` (a keep-alive, and a look at `stop`).
    idle: Option<Duration>,
}

impl Generation {
    pub fn new(
        env: Env,
        backend: Backend,
        job: AnswerJob,
        protocol: Protocol,
        sender: PartSender,
    ) -> Generation {
        Generation {
            env,
            backend,
            started_ms: job.started_ms,
            first_text_ms: None,
            session: AnswerSession::new(protocol, job.message_id, job.thread.thread_id.clone()),
            request: job.request,
            question: job.question,
            passages: Vec::new(),
            guide: Rc::default(),
            query_text: String::new(),
            thread: job.thread,
            request_id: job.request_id,
            sender,
            stop: Rc::new(Cell::new(false)),
            idle: None,
        }
    }

    /// Looks at the stop flag at least this often while the backend is silent (instead of once per
    /// keep-alive interval), so a stop takes effect at once. Keep-alives go out as often: only for a
    /// consumer that drops them (the chat journal does).
    pub fn checking_stop_every(mut self, every: Duration) -> Generation {
        self.idle = Some(every);
        self
    }

    /// Setting it ends the generation as if the backend had finished.
    pub fn stop_flag(&self) -> Rc<Cell<bool>> {
        self.stop.clone()
    }

    /// False once the client has gone: the receiver was dropped with the response stream.
    fn send(&self, text: String) -> bool {
        send_bytes(&self.sender, text)
    }

    /// Generates, records and streams the answer; the answer once recorded.
    pub async fn run(mut self) -> Option<CompletedAnswer> {
        let start = self.session.start();
        if !self.send(start) {
            return None;
        }
        if let Err(err) = self.retrieve().await {
            log_failure(&self.request_id, &format!("retrieval failed: {err}"));
            let part = self
                .session
                .fail("the answer could not be completed: the docs could not be searched");
            self.send(part);
            return None;
        }
        let delivered = match self.backend.clone() {
            Backend::Extractive => self.extractive(),
            backend => self.llm(&backend).await,
        };
        if !delivered || self.sender.is_closed() {
            return None;
        }
        self.session
            .suggest(self.request.question(), &self.passages);
        self.session.offer_support(self.guide.support.clone());
        match self.session.outcome() {
            Ok(answer) => {
                // Recorded before the finish part goes out, so a client that continues the thread the
                // moment it reads the id finds it.
                if let Err(err) = self.record(&answer).await {
                    log_failure(&self.request_id, &format!("thread not recorded: {err}"));
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
                let part = self
                    .session
                    .fail("the answer could not be completed: the language model failed");
                self.send(part);
                None
            }
        }
    }

    /// The passages from the live index (read after the start part went out), and one log line with
    /// how long that took.
    async fn retrieve(&mut self) -> ApiResult<()> {
        let started = now_ms();
        if let Some(delay) = crate::shared::config::test_only::retrieval_delay(&self.env) {
            Delay::from(delay).await;
        }
        let (domain, org_id) = (&self.thread.domain, &self.thread.org_id);
        let site = search_store::open(
            &self.env,
            crate::shared::config::search_cache_bytes(&self.env),
            domain,
            org_id,
        )
        .await?;
        self.query_text = retrieval_text(&self.request);
        let hits = site
            .search(&retrieval_search(&self.request, &self.query_text))
            .await?;
        self.passages = passages(hits, domain, self.request.retrieval_page_size);
        self.guide = site.assistant_guide().await?;
        let line = serde_json::json!({
            "event": "retrieval",
            "requestId": self.request_id,
            "durationMs": now_ms().saturating_sub(started),
            "passages": self.passages.len(),
            "wasmMemoryBytes": crate::shared::memory::wasm_memory_bytes(),
        });
        crate::shared::log_line::info(&line);
        Ok(())
    }

    /// False when the client went away.
    fn extractive(&mut self) -> bool {
        let skill = skill_over_pages(&self.guide, &self.query_text, &self.passages);
        let quoted = skill
            .as_ref()
            .map_or(&self.passages[..], std::slice::from_ref);
        let parts = self
            .session
            .extractive(&self.query_text, quoted, self.request.question());
        self.first_text_ms.get_or_insert_with(now_ms);
        parts.into_iter().all(|part| self.send(part))
    }

    /// False when the client went away.
    async fn llm(&mut self, backend: &Backend) -> bool {
        let part = self
            .session
            .cite(&self.query_text, &self.passages, 0..self.passages.len());
        if !self.send(part) {
            return false;
        }
        let prompt = request_prompt(
            &self.request,
            &self.thread.domain,
            &self.passages,
            &self.guide,
            &self.query_text,
        );
        let keep_alive = self.session.keep_alive();
        let session = &mut self.session;
        let sender = &self.sender;
        let idle = self.idle.unwrap_or_else(|| keep_alive_interval(&self.env));
        let first_text_ms = &mut self.first_text_ms;
        let stop = &self.stop;
        let on_idle = || !stop.get() && send_bytes(sender, keep_alive.to_string());
        let result = stream_llm(backend, &prompt, idle, on_idle, |event| {
            if stop.get() {
                return false;
            }
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
        let cited = answer.cited_pages();
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
            question: &self.question,
            answer: &answer.text,
            scores: &scores,
            cited_paths: &cited,
            uncertain: answer.uncertain,
            unanswered: answer.unanswered,
            backend: self.backend.name(),
            fingerprint: Some(self.request.fp.as_str()),
            salt: None,
            new_thread: self.thread.create,
        };
        answer_analytics::record(&self.env, facts, &self.request_id).await;
    }

    async fn record(&mut self, answer: &CompletedAnswer) -> ApiResult<()> {
        let now = now_iso();
        self.thread.messages =
            answer.thread_messages(self.request.question_id.as_deref(), &self.question, &now);
        self.thread.now = now;
        match ThreadClient::new(&self.env).append(&self.thread).await? {
            Some(_) => Ok(()),
            None => Err(ApiError::Internal(
                "thread disappeared while answering".into(),
            )),
        }
    }
}

/// False once the client has gone.
pub fn send_bytes(sender: &PartSender, text: String) -> bool {
    text.is_empty() || sender.unbounded_send(Ok(text.into_bytes())).is_ok()
}

pub fn log_failure(request_id: &str, detail: &str) {
    let line = serde_json::json!({ "event": "assistant_failed", "requestId": request_id, "error": detail });
    crate::shared::log_line::error(&line);
}
