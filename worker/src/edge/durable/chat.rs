//! `AssistantChat`: one Durable Object per (organization, domain, chat id), the owner of that chat's
//! resumable answer. It runs the generation (so the answer does not depend on the request that asked
//! for it staying connected), appends every chunk to the chat's journal, and answers readers from it.
//!
//! Internal protocol ([`ChatOp`], sent by [`ChatClient`]): `start` ([`StartRequest`]: the validated
//! v2 body; the object looks the thread up, retrieves and generates) starts an answer; `read`
//! ([`ReadRequest`]) returns journal bytes from an offset, waiting up to `waitMs` for new ones while
//! the answer runs; `stop` ([`ChatKey`]) ends the running answer. The journal's bookkeeping is core's
//! [`Journal`]; its sealed entries are stored one value each, the open tail (under 8 KiB) is memory.
//! An alarm deletes the entries once the resume window after the end has passed.

use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::time::Duration;

use docs_edge_core::assistant::encode::{AnswerEncoder, Protocol};
use docs_edge_core::assistant::request::parse_v2;
use docs_edge_core::assistant::resume::{
    ChatRecord, GenerationRecord, GenerationState, Journal, Resumable,
};
use futures_util::future::join;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use worker::{
    durable_object, Delay, DurableObject, Env, Request, Response, Result, State, Storage,
};

use crate::edge::answer::{log_failure, prepare, Generation, PartReceiver};
use crate::edge::turnstile::HumanCheck;
use crate::shared::clock::now_ms;
use crate::shared::config::{resume_window, CHATS_BINDING};
use crate::shared::durable_client::{durable_operations, error_reply, send, send_for_bytes};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::memory::DurableSpan;

const RECORD_KEY: &str = "chat";
/// Stored entries one read returns at most (8 KiB each).
const ENTRIES_PER_READ: usize = 8;
/// How soon a stop reaches a generation whose model is silent.
const STOP_CHECK: Duration = Duration::from_millis(500);
/// How often a waiting reader looks for new bytes.
const POLL: Duration = Duration::from_millis(100);
/// The longest a reader waits for new bytes in one read.
const MAX_WAIT_MS: u64 = 30_000;

fn entry_key(seq: usize) -> String {
    format!("entry:{seq:06}")
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChatKey {
    pub org_id: String,
    pub domain: String,
    pub chat_id: String,
}

impl ChatKey {
    /// The object's name. Chat ids hold no control characters, so the parts cannot run together.
    fn object_name(&self) -> String {
        format!("{}\n{}\n{}", self.org_id, self.domain, self.chat_id)
    }
}

/// The validated v2 body as the client sent it: the object prepares the answer itself (thread,
/// retrieval, backend), so nothing but plain JSON crosses to it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartRequest {
    pub key: ChatKey,
    pub body: serde_json::Value,
    pub started_ms: u64,
    pub request_id: String,
    /// The widget's Turnstile token and address, checked by [`prepare`].
    #[serde(default)]
    pub human: HumanCheck,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadRequest {
    pub key: ChatKey,
    /// The reader's byte offset in the journal.
    pub from: u64,
    /// How long to wait for bytes past `from` while the answer runs (0: answer at once).
    pub wait_ms: u64,
}

/// Bytes from the reader's offset on. On the wire: `text` is the body (no JSON escaping of the
/// stream), the rest are the `x-chat-*` headers.
#[derive(Debug, Default)]
pub struct ReadReply {
    /// Nothing to resume: no answer ran, or the last one ended longer ago than the window.
    pub nothing: bool,
    pub text: String,
    /// The offset to read from next.
    pub next: u64,
    /// The answer has ended and `text` reaches its last byte.
    pub ended: bool,
    pub message_id: String,
    pub thread_id: String,
}

impl ReadReply {
    /// The object's answer: the text as the body, the rest in headers.
    pub fn into_response(self) -> worker::Result<worker::Response> {
        let mut response = worker::Response::ok(self.text)?;
        let headers = response.headers_mut();
        headers.set("x-chat-nothing", if self.nothing { "1" } else { "0" })?;
        headers.set("x-chat-next", &self.next.to_string())?;
        headers.set("x-chat-ended", if self.ended { "1" } else { "0" })?;
        headers.set("x-chat-message-id", &self.message_id)?;
        headers.set("x-chat-thread-id", &self.thread_id)?;
        Ok(response)
    }
}

durable_operations! {
    binding: CHATS_BINDING;
    /// What an `AssistantChat` object does.
    pub enum ChatOp / ChatCall {
        Start(StartRequest) => "start",
        Read(ReadRequest) => "read",
        Stop(ChatKey) => "stop",
    }
}

/// The `AssistantChat` object of one chat, seen from the worker: start a resumable answer, read its
/// journal, stop it. One object per (organization, domain, chat id): another organization's chat id
/// names another object, which knows nothing of it.
pub struct ChatClient<'a> {
    env: &'a Env,
    key: &'a ChatKey,
}

impl<'a> ChatClient<'a> {
    pub fn new(env: &'a Env, key: &'a ChatKey) -> Self {
        ChatClient { env, key }
    }

    /// Starts the chat's answer; its thread id. The object's 4xx (unknown thread, bad `messageId`, an
    /// answer still running) pass through.
    pub async fn start(
        &self,
        body: &serde_json::Value,
        started_ms: u64,
        request_id: &str,
        human: HumanCheck,
    ) -> ApiResult<String> {
        let request = StartRequest {
            key: self.key.clone(),
            body: body.clone(),
            started_ms,
            request_id: request_id.to_string(),
            human,
        };
        let reply: serde_json::Value = send(
            self.env,
            &self.key.object_name(),
            &ChatCall::Start(&request),
        )
        .await?;
        Ok(reply["threadId"].as_str().unwrap_or_default().to_string())
    }

    /// 404 (relayed) for a chat this organization never ran a resumable answer in.
    pub async fn read(&self, from: u64, wait_ms: u64) -> ApiResult<ReadReply> {
        let request = ReadRequest {
            key: self.key.clone(),
            from,
            wait_ms,
        };
        let (headers, bytes) =
            send_for_bytes(self.env, &self.key.object_name(), &ChatCall::Read(&request)).await?;
        let header = |name: &str| headers.get(name).ok().flatten().unwrap_or_default();
        Ok(ReadReply {
            nothing: header("x-chat-nothing") == "1",
            text: String::from_utf8(bytes)
                .map_err(|_| ApiError::Internal("chat journal is not UTF-8".into()))?,
            next: header("x-chat-next").parse().unwrap_or(from),
            ended: header("x-chat-ended") == "1",
            message_id: header("x-chat-message-id"),
            thread_id: header("x-chat-thread-id"),
        })
    }

    /// Whether an answer was running (and is now ending).
    pub async fn stop(&self) -> ApiResult<bool> {
        let reply: serde_json::Value =
            send(self.env, &self.key.object_name(), &ChatCall::Stop(self.key)).await?;
        Ok(reply["stopped"].as_bool().unwrap_or(false))
    }
}

/// The generation this object instance runs (or ran), in memory.
struct Live {
    message_id: String,
    journal: Journal,
    stop: Rc<Cell<bool>>,
    running: bool,
}

#[durable_object(alarm)]
pub struct AssistantChat {
    state: State,
    env: Env,
    /// `AssertUnwindSafe`: see `ExportJob::loaded`.
    live: AssertUnwindSafe<Rc<RefCell<Option<Live>>>>,
}

impl AssistantChat {
    async fn record(&self, key: &ChatKey) -> Result<Option<ChatRecord>> {
        Ok(self
            .state
            .storage()
            .get::<ChatRecord>(RECORD_KEY)
            .await?
            .filter(|r| r.owned_by(&key.org_id, &key.domain) && r.chat_id == key.chat_id))
    }

    fn window_ms(&self) -> u64 {
        resume_window(&self.env).as_millis() as u64
    }

    fn running_live(&self, message_id: &str) -> Option<bool> {
        self.live
            .borrow()
            .as_ref()
            .filter(|l| l.message_id == message_id)
            .map(|l| l.running)
    }

    async fn start(&self, start: StartRequest) -> Result<Response> {
        let storage = self.state.storage();
        let key = start.key;
        let prepared = match parse_v2(&start.body) {
            Ok(request) => {
                prepare(
                    &self.env,
                    &key.org_id,
                    &key.domain,
                    request,
                    start.started_ms,
                    &start.request_id,
                    Some(&start.human),
                )
                .await
            }
            Err(err) => Err(err.into()),
        };
        let (job, backend) = match prepared {
            Ok(prepared) => prepared,
            Err(err) => return error_reply(&err),
        };
        if self.live.borrow().as_ref().is_some_and(|l| l.running) {
            return error_reply(&answer_running());
        }
        let mut record = match storage.get::<ChatRecord>(RECORD_KEY).await? {
            Some(r) if !r.owned_by(&key.org_id, &key.domain) => return unknown_chat(),
            Some(r) => r,
            None => ChatRecord {
                org_id: key.org_id,
                domain: key.domain,
                chat_id: key.chat_id,
                generation: None,
            },
        };
        if let Some(previous) = &record.generation {
            for seq in 0..previous.sealed_ends.len() {
                storage.delete(&entry_key(seq)).await?;
            }
        }
        let thread_id = job.thread.thread_id.clone();
        let message_id = job.message_id.clone();
        record.generation = Some(GenerationRecord {
            message_id: message_id.clone(),
            thread_id: job.thread.thread_id.clone(),
            state: GenerationState::Running,
            ended_ms: None,
            sealed_ends: Vec::new(),
        });
        storage.put(RECORD_KEY, &record).await?;

        let (sender, receiver) = futures_channel::mpsc::unbounded();
        let answer = Generation::new(
            self.env.clone(),
            backend,
            job,
            Protocol::UiMessageStreamV2,
            sender,
        )
        .checking_stop_every(STOP_CHECK);
        *self.live.borrow_mut() = Some(Live {
            message_id,
            journal: Journal::new(),
            stop: answer.stop_flag(),
            running: true,
        });
        let live = self.live.clone();
        let window = resume_window(&self.env);
        self.state.wait_until(async move {
            let (_, journaled) = join(
                answer.run(),
                journal_answer(receiver, live.clone(), &storage, record, window),
            )
            .await;
            if let Err(err) = journaled {
                log_failure("", &format!("chat journal not stored: {err}"));
            }
            if let Some(live) = live.borrow_mut().as_mut() {
                live.running = false;
            }
        });
        Response::from_json(&serde_json::json!({ "threadId": thread_id }))
    }

    async fn read(&self, read: ReadRequest) -> Result<Response> {
        let storage = self.state.storage();
        let Some(mut record) = self.record(&read.key).await? else {
            return unknown_chat();
        };
        let Some(generation) = record.generation.clone() else {
            return nothing().into_response();
        };
        let now = now_ms();
        let live_running = self.running_live(&generation.message_id);
        if generation.state == GenerationState::Running && live_running.is_none() {
            // This instance never ran it: the object was evicted or restarted mid-answer.
            if let Some(g) = record.generation.as_mut() {
                g.state = GenerationState::Interrupted;
                g.ended_ms = Some(now);
            }
            storage.put(RECORD_KEY, &record).await?;
        }
        if read.from == 0 && record.resumable(now, self.window_ms()) == Resumable::Nothing {
            return nothing().into_response();
        }
        let deadline = now + read.wait_ms.min(MAX_WAIT_MS);
        loop {
            let (plan, open, running, len) = {
                let live = self.live.borrow();
                let ours = live
                    .as_ref()
                    .filter(|l| l.message_id == generation.message_id);
                let rebuilt;
                let journal = match ours {
                    Some(l) => &l.journal,
                    None => {
                        rebuilt = Journal::from_sealed(
                            record
                                .generation
                                .as_ref()
                                .map(|g| g.sealed_ends.clone())
                                .unwrap_or_default(),
                        );
                        &rebuilt
                    }
                };
                let Some(plan) = journal.plan(read.from, ENTRIES_PER_READ) else {
                    return error_reply(&ApiError::Internal(format!(
                        "read past the journal's end ({})",
                        read.from
                    )));
                };
                let open = plan
                    .open_skip
                    .and_then(|skip| journal.open_from(skip))
                    .map(str::to_string);
                (plan, open, ours.is_some_and(|l| l.running), journal.len())
            };
            // Nothing new yet: look again shortly (in memory, no storage read) until the deadline.
            if plan.stored.is_empty() && open.is_none() && running && now_ms() < deadline {
                Delay::from(POLL).await;
                continue;
            }
            let mut text = String::new();
            for (seq, skip) in &plan.stored {
                let Some(entry) = storage.get::<String>(&entry_key(*seq)).await? else {
                    return error_reply(&ApiError::Internal(format!(
                        "journal entry {seq} missing"
                    )));
                };
                text.push_str(entry.get(*skip..).unwrap_or_default());
            }
            text.push_str(open.as_deref().unwrap_or_default());
            let next = read.from + text.len() as u64;
            let ended = !running && next >= len;
            if ended
                && record
                    .generation
                    .as_ref()
                    .is_some_and(|g| g.state == GenerationState::Interrupted)
            {
                text.push_str(
                    &AnswerEncoder::new(
                        Protocol::UiMessageStreamV2,
                        generation.message_id.clone(),
                        generation.thread_id.clone(),
                    )
                    .error("the answer was interrupted"),
                );
            }
            return ReadReply {
                nothing: false,
                text,
                next,
                ended,
                message_id: generation.message_id.clone(),
                thread_id: generation.thread_id.clone(),
            }
            .into_response();
        }
    }

    async fn stop(&self, key: ChatKey) -> Result<Response> {
        let Some(record) = self.record(&key).await? else {
            return unknown_chat();
        };
        let message_id = record.generation.map(|g| g.message_id).unwrap_or_default();
        let stopped = match self
            .live
            .borrow()
            .as_ref()
            .filter(|l| l.message_id == message_id && l.running)
        {
            Some(live) => {
                live.stop.set(true);
                true
            }
            None => false,
        };
        Response::from_json(&serde_json::json!({ "stopped": stopped }))
    }
}

/// Moves the answer's chunks into the journal: sealed entries stored. Keep-alives are
/// left out (every reader sends its own while it waits). At the end the record says so and an alarm
/// is set to delete the entries after the resume window.
async fn journal_answer(
    mut receiver: PartReceiver,
    live: Rc<RefCell<Option<Live>>>,
    storage: &Storage,
    mut record: ChatRecord,
    window: Duration,
) -> Result<()> {
    while let Some(Ok(bytes)) = receiver.next().await {
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        if text.starts_with(':') {
            continue;
        }
        let sealed = {
            let mut live = live.borrow_mut();
            let Some(live) = live.as_mut() else { continue };
            let appended = live.journal.append(&text);
            if live.journal.nearly_full() {
                live.stop.set(true);
            }
            appended
        };
        match sealed {
            Ok(Some(entry)) => {
                store_entry(storage, &mut record, &live, entry.seq, &entry.text).await?
            }
            Ok(None) => {}
            Err(_) => log_failure("", "chat journal full: a chunk was dropped"),
        }
    }
    let last = live.borrow_mut().as_mut().and_then(|l| l.journal.seal());
    if let Some(entry) = last {
        store_entry(storage, &mut record, &live, entry.seq, &entry.text).await?;
    }
    if let Some(g) = record.generation.as_mut() {
        g.state = GenerationState::Ended;
        g.ended_ms = Some(now_ms());
    }
    storage.put(RECORD_KEY, &record).await?;
    storage.set_alarm(window + Duration::from_secs(1)).await?;
    Ok(())
}

async fn store_entry(
    storage: &Storage,
    record: &mut ChatRecord,
    live: &Rc<RefCell<Option<Live>>>,
    seq: usize,
    text: &str,
) -> Result<()> {
    storage.put(&entry_key(seq), text).await?;
    let ends = live
        .borrow()
        .as_ref()
        .map(|l| l.journal.sealed_ends().to_vec())
        .unwrap_or_default();
    if let Some(g) = record.generation.as_mut() {
        g.sealed_ends = ends;
    }
    storage.put(RECORD_KEY, &*record).await
}

fn answer_running() -> ApiError {
    ApiError::Conflict {
        code: "answer_running",
        message: "id: an answer is still running in this chat; stop it or wait for its end".into(),
    }
}

fn nothing() -> ReadReply {
    ReadReply {
        nothing: true,
        ..ReadReply::default()
    }
}

fn unknown_chat() -> Result<Response> {
    error_reply(&ApiError::NotFound(
        "chatId: no resumable answer was started in this chat by this organization on this domain"
            .into(),
    ))
}

impl DurableObject for AssistantChat {
    fn new(state: State, env: Env) -> Self {
        Self {
            state,
            env,
            live: AssertUnwindSafe(Rc::new(RefCell::new(None))),
        }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let _span = DurableSpan::start("AssistantChat", req.path());
        match ChatOp::receive(&mut req).await {
            Ok(ChatOp::Start(start)) => self.start(start).await,
            Ok(ChatOp::Read(read)) => self.read(read).await,
            Ok(ChatOp::Stop(key)) => self.stop(key).await,
            Err(err) => error_reply(&err),
        }
    }

    /// The resume window after the end has passed: the journal's entries go.
    async fn alarm(&self) -> Result<Response> {
        let _span = DurableSpan::start("AssistantChat", "alarm");
        let storage = self.state.storage();
        let Some(mut record) = storage.get::<ChatRecord>(RECORD_KEY).await? else {
            return Response::ok("");
        };
        if record.expired(now_ms(), self.window_ms()) {
            if let Some(g) = record.generation.as_mut() {
                for seq in 0..g.sealed_ends.len() {
                    storage.delete(&entry_key(seq)).await?;
                }
                g.sealed_ends.clear();
            }
            storage.put(RECORD_KEY, &record).await?;
            let mut live = self.live.borrow_mut();
            if live.as_ref().is_some_and(|l| !l.running) {
                *live = None;
            }
        }
        Response::ok("")
    }
}
