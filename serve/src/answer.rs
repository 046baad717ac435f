//! One answer, as the worker's `answer.rs` runs it: the thread is checked before the response
//! begins (an unknown thread is 404, a regenerate names what it replaces); the start part goes out at
//! once, then retrieval, then the extractive text or the model's tokens with keep-alives while it is
//! silent; the thread is recorded before the finish part, so a client that continues the thread the
//! moment it reads the id finds it; the analytics row comes after the stream has closed.
//!
//! A reader that leaves (the response body dropped) ends generation at the next part, which drops
//! the model's response and so cancels it upstream; nothing is recorded for it, as on the worker.

use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

use docs_edge_core::analytics::record::{AnswerFacts, AnswerRow};
use docs_edge_core::assistant::encode::Protocol;
use docs_edge_core::assistant::offline::{
    passages, request_prompt, retrieval_search, retrieval_text,
};
use docs_edge_core::assistant::passage::Passage;
use docs_edge_core::assistant::providers::LlmEvent;
use docs_edge_core::assistant::regenerate::{messages_to_keep, StoredTurn};
use docs_edge_core::assistant::request::AssistantRequest;
use docs_edge_core::assistant::session::{AnswerSession, CompletedAnswer, Next};
use docs_edge_core::export::BundleManifest;
use docs_edge_core::privacy::Masked;
use tokio::sync::mpsc::UnboundedSender;

use crate::config::Backend;
use crate::discovery_error::{read_index, DiscoveryError};
use crate::search_packs::PackIndex;
use crate::state::{now_iso, now_ms, State};
use crate::storage::Append;

/// An answer whose request passed every check that can refuse it with a status code.
pub struct AnswerJob {
    pub thread_id: String,
    create: bool,
    keep: Option<usize>,
    message_id: String,
    started_ms: u64,
    domain: String,
    request: AssistantRequest,
    /// The question as the thread and analytics store it; retrieval and the model get it as asked.
    question: Masked,
    /// The bundle's support link (docs.json's), sent with the finish.
    support: Option<String>,
}

/// The thread (which must exist when named) and what a regenerate replaces, for the site of
/// `manifest`.
pub async fn prepare(
    state: &State,
    manifest: &BundleManifest,
    request: AssistantRequest,
    started_ms: u64,
) -> Result<AnswerJob, DiscoveryError> {
    let domain = manifest.domain.as_str();
    let question = state.config().privacy.mask(request.question());
    let (thread_id, create, keep) = match &request.thread_id {
        Some(id) => {
            let record = state
                .store
                .thread(id, Some(domain))
                .await
                .map_err(|e| DiscoveryError::Storage(e.0))?
                .ok_or_else(|| DiscoveryError::NotFound(format!("thread {id} not found")))?;
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
            )
            .map_err(|e| DiscoveryError::Invalid(e.to_string()))?;
            (id.clone(), false, keep)
        }
        None => (random_id("thr_"), true, None),
    };
    Ok(AnswerJob {
        thread_id,
        create,
        keep,
        message_id: random_id("msg_"),
        started_ms,
        domain: domain.to_string(),
        request,
        question,
        support: manifest.support.clone(),
    })
}

pub struct Generation {
    state: Arc<State>,
    index: Arc<PackIndex>,
    backend: Backend,
    job: AnswerJob,
    session: AnswerSession,
    passages: Vec<Passage>,
    query_text: String,
    first_text_ms: Option<u64>,
    sender: UnboundedSender<String>,
}

impl Generation {
    pub fn new(
        state: Arc<State>,
        index: Arc<PackIndex>,
        job: AnswerJob,
        protocol: Protocol,
        sender: UnboundedSender<String>,
    ) -> Generation {
        let backend = state.config().assistant.backend.clone();
        let session = AnswerSession::new(protocol, job.message_id.clone(), job.thread_id.clone());
        Generation {
            state,
            index,
            backend,
            job,
            session,
            passages: Vec::new(),
            query_text: String::new(),
            first_text_ms: None,
            sender,
        }
    }

    /// False once the reader has gone.
    fn send(&self, part: String) -> bool {
        part.is_empty() || self.sender.send(part).is_ok()
    }

    pub async fn run(mut self) {
        let start = self.session.start();
        if !self.send(start) {
            return;
        }
        if let Err(err) = self.retrieve().await {
            log_failure(&format!("retrieval failed: {err:?}"));
            let part = self
                .session
                .fail("the answer could not be completed: the docs could not be searched");
            self.send(part);
            return;
        }
        let delivered = match self.backend.clone() {
            Backend::Extractive => self.extractive(),
            Backend::OpenAi(llm) => self.llm(&llm).await,
        };
        if !delivered || self.sender.is_closed() {
            return;
        }
        self.session
            .suggest(self.job.request.question(), &self.passages);
        self.session.offer_support(self.job.support.clone());
        match self.session.outcome() {
            Ok(answer) => {
                if let Err(err) = self.record(&answer).await {
                    log_failure(&format!("thread not recorded: {}", err.0));
                    let part = self.session.fail("the conversation could not be saved");
                    self.send(part);
                    return;
                }
                let part = self.session.finish(&answer);
                self.send(part);
                let finished_ms = now_ms();
                // The reader has the whole answer once the stream ends; analytics come after.
                drop(std::mem::replace(
                    &mut self.sender,
                    tokio::sync::mpsc::unbounded_channel().0,
                ));
                self.record_analytics(&answer, finished_ms).await;
            }
            Err(detail) => {
                log_failure(&detail);
                let part = self
                    .session
                    .fail("the answer could not be completed: the language model failed");
                self.send(part);
            }
        }
    }

    async fn retrieve(&mut self) -> Result<(), DiscoveryError> {
        self.query_text = retrieval_text(&self.job.request);
        let (request, query_text) = (self.job.request.clone(), self.query_text.clone());
        let hits = read_index(self.index.clone(), move |index| {
            index.search(&retrieval_search(&request, &query_text))
        })
        .await?;
        self.passages = passages(hits, &self.job.domain, self.job.request.retrieval_page_size);
        Ok(())
    }

    /// False when the reader went away.
    fn extractive(&mut self) -> bool {
        let parts = self.session.extractive(
            &self.query_text,
            &self.passages,
            self.job.request.question(),
        );
        self.first_text_ms.get_or_insert_with(now_ms);
        parts.into_iter().all(|part| self.send(part))
    }

    /// False when the reader went away.
    async fn llm(&mut self, llm: &crate::config::Llm) -> bool {
        let part = self
            .session
            .cite(&self.query_text, &self.passages, 0..self.passages.len());
        if !self.send(part) {
            return false;
        }
        let prompt = request_prompt(
            &self.job.request,
            &self.job.domain,
            &self.passages,
            &Default::default(),
            &self.query_text,
        );
        let keep_alive = self.session.keep_alive();
        let idle = self.state.config().assistant.keep_alive;
        let (session, sender, first_text_ms) =
            (&mut self.session, &self.sender, &mut self.first_text_ms);
        let on_idle = || sender.send(keep_alive.to_string()).is_ok();
        let result = crate::llm::stream(&self.state.client, llm, &prompt, idle, on_idle, |event| {
            if matches!(event, LlmEvent::TextDelta(_)) {
                first_text_ms.get_or_insert_with(now_ms);
            }
            match session.on_llm_event(event) {
                Next::Continue(bytes) => bytes.is_empty() || sender.send(bytes).is_ok(),
                Next::Done => false,
            }
        })
        .await;
        if let Err(detail) = result {
            self.session.on_backend_error(detail);
        }
        true
    }

    async fn record(&self, answer: &CompletedAnswer) -> Result<(), crate::storage::StoreError> {
        let now = now_iso();
        let messages = answer.thread_messages(
            self.job.request.question_id.as_deref(),
            &self.job.question,
            &now,
        );
        let append = Append {
            thread_id: &self.job.thread_id,
            domain: &self.job.domain,
            create: self.job.create,
            keep: self.job.keep,
            now: &now,
            now_ms: now_ms(),
            messages,
        };
        match self.state.store.append(append).await? {
            true => Ok(()),
            false => Err(crate::storage::StoreError(
                "the thread disappeared while answering".into(),
            )),
        }
    }

    async fn record_analytics(&self, answer: &CompletedAnswer, finished_ms: u64) {
        if !self.state.config().deployment.features.analytics {
            return;
        }
        let cited = answer.cited_pages();
        let scores: Vec<f32> = self.passages.iter().map(|p| p.score).collect();
        let row = AnswerRow::new(&AnswerFacts {
            message_id: &answer.message_id,
            thread_id: &self.job.thread_id,
            org_id: crate::storage::ORG_ID,
            domain: &self.job.domain,
            started_ms: self.job.started_ms,
            first_byte_ms: self.first_text_ms.unwrap_or(finished_ms),
            finished_ms,
            question: &self.job.question,
            answer: &answer.text,
            scores: &scores,
            cited_paths: &cited,
            uncertain: answer.uncertain,
            unanswered: answer.unanswered,
            backend: self.backend.name(),
            // Without a salt no fingerprint is kept (the worker hashes it with ANALYTICS_SALT).
            fingerprint: None,
            salt: None,
            new_thread: self.job.create,
        });
        if let Err(err) = self.state.store.record_answer(&row).await {
            eprintln!(
                "{}",
                serde_json::json!({"event": "analytics_failed", "error": err.0})
            );
        }
    }
}

fn log_failure(detail: &str) {
    eprintln!(
        "{}",
        serde_json::json!({"event": "assistant_failed", "error": detail})
    );
}

/// Ids that only need to be unique (message and thread ids), from the standard library's per-process
/// random hasher keys.
fn random_id(prefix: &str) -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    format!("{prefix}{:016x}", hasher.finish())
}
