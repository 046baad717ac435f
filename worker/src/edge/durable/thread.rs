//! `AssistantThread`: one Durable Object per conversation thread, the server's record of it.
//!
//! Internal protocol ([`ThreadOp`], sent by [`ThreadClient`], never exposed): `append` with
//! [`AppendRequest`] creates the thread on first use and appends turns; `get` with [`OwnerQuery`]
//! returns the [`ThreadRecord`]. The owner (organization and domain) is fixed at creation; a request
//! for another owner is answered 404, the same as an unknown thread.
//!
//! Retention: every turn moves the object's alarm to `THREAD_RETENTION_DAYS` after it; when the
//! alarm fires the thread has had no turn for that long and its storage is deleted (it then reads
//! as unknown). A thread stored before retention existed gets its alarm when it is next read.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use worker::{durable_object, DurableObject, Env, ListOptions, Request, Response, Result, State};

use crate::shared::config::{test_only, Config, THREADS_BINDING};
use crate::shared::durable_client::{durable_operations, error_reply, send};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::memory::DurableSpan;

pub use docs_edge_core::wire::thread::{StoredMessage, ThreadRecord, MAX_STORED_MESSAGES};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppendRequest {
    pub thread_id: String,
    pub org_id: String,
    pub domain: String,
    /// When false the thread must exist already (a client continuing a thread it was given).
    pub create: bool,
    /// Drop every stored message after the first `keep` before appending: a regenerated answer
    /// replaces its question and earlier answer.
    #[serde(default)]
    pub keep: Option<usize>,
    pub now: String,
    pub messages: Vec<StoredMessage>,
    /// This turn's Turnstile token passed (or an earlier one's did): the thread remembers it.
    #[serde(default)]
    pub human_verified: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerQuery {
    pub org_id: String,
    pub domain: Option<String>,
}

durable_operations! {
    binding: THREADS_BINDING;
    /// What an `AssistantThread` object does.
    pub enum ThreadOp / ThreadCall {
        Append(AppendRequest) => "append",
        Get(OwnerQuery) => "get",
    }
}

/// The THREADS namespace seen from the worker: look a thread up, append turns.
pub struct ThreadClient<'a> {
    env: &'a Env,
}

impl<'a> ThreadClient<'a> {
    pub fn new(env: &'a Env) -> Self {
        ThreadClient { env }
    }

    /// The thread if it exists and belongs to this organization (and domain, when given).
    pub async fn find(
        &self,
        thread_id: &str,
        org_id: &str,
        domain: Option<&str>,
    ) -> ApiResult<Option<ThreadRecord>> {
        let owner = OwnerQuery {
            org_id: org_id.into(),
            domain: domain.map(str::to_string),
        };
        absent_as_none(send(self.env, thread_id, &ThreadCall::Get(&owner)).await)
    }

    /// Appends turns; `None` when `create` is false and the thread does not exist for this owner.
    pub async fn append(&self, request: &AppendRequest) -> ApiResult<Option<ThreadRecord>> {
        absent_as_none(send(self.env, &request.thread_id, &ThreadCall::Append(request)).await)
    }
}

/// The object answers 404 for a thread that does not exist for this owner.
fn absent_as_none(result: ApiResult<ThreadRecord>) -> ApiResult<Option<ThreadRecord>> {
    match result {
        Ok(record) => Ok(Some(record)),
        Err(ApiError::Relayed { status: 404, .. }) => Ok(None),
        Err(err) => Err(err),
    }
}

/// The thread without its messages: owner, times and which message keys are live.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ThreadMeta {
    thread_id: String,
    org_id: String,
    domain: String,
    created_at: String,
    updated_at: String,
    /// Messages live under `message:{seq}` for `first_seq <= seq < next_seq`.
    first_seq: u64,
    next_seq: u64,
    #[serde(default)]
    human_verified: bool,
}

/// One storage value per message: a single record holding the whole thread outgrew the Durable
/// Object value limit (128 KiB) long before [`MAX_STORED_MESSAGES`] long messages, after which every
/// answer on the thread failed.
const META_KEY: &str = "meta";
/// Where threads written before per-message storage keep their single record; moved on first use.
const LEGACY_RECORD_KEY: &str = "thread";

fn message_key(seq: u64) -> String {
    format!("message:{seq:012}")
}

#[durable_object(alarm)]
pub struct AssistantThread {
    state: State,
    env: Env,
}

impl AssistantThread {
    /// How long a thread is kept after its last turn (`None`: for ever).
    fn retention(&self) -> Option<Duration> {
        if let Some(test) = test_only::thread_retention(&self.env) {
            return Some(test);
        }
        match Config::from_env(&self.env).thread_retention_days {
            0 => None,
            days => Some(Duration::from_secs(days * 86_400)),
        }
    }

    /// Moves the expiry to a full retention period from now.
    async fn keep_from_now(&self) -> Result<()> {
        match self.retention() {
            Some(period) => self.state.storage().set_alarm(period).await,
            None => self.state.storage().delete_alarm().await,
        }
    }

    async fn meta(&self) -> Result<Option<ThreadMeta>> {
        let storage = self.state.storage();
        if let Some(meta) = storage.get::<ThreadMeta>(META_KEY).await? {
            return Ok(Some(meta));
        }
        let Some(legacy) = storage.get::<ThreadRecord>(LEGACY_RECORD_KEY).await? else {
            return Ok(None);
        };
        let meta = ThreadMeta {
            thread_id: legacy.thread_id,
            org_id: legacy.org_id,
            domain: legacy.domain,
            created_at: legacy.created_at,
            updated_at: legacy.updated_at,
            first_seq: 0,
            next_seq: legacy.messages.len() as u64,
            human_verified: legacy.human_verified,
        };
        for (seq, message) in legacy.messages.iter().enumerate() {
            storage.put(&message_key(seq as u64), message).await?;
        }
        storage.put(META_KEY, &meta).await?;
        storage.delete(LEGACY_RECORD_KEY).await?;
        Ok(Some(meta))
    }

    async fn record(&self, meta: ThreadMeta) -> Result<ThreadRecord> {
        // One list of the kept range (keys are zero-padded, so they list in turn order) instead of a
        // storage read per message: up to MAX_STORED_MESSAGES on every turn.
        let (start, end) = (message_key(meta.first_seq), message_key(meta.next_seq));
        let stored = self
            .state
            .storage()
            .list_with_options(ListOptions::new().start(&start).end(&end))
            .await?;
        let mut messages = Vec::with_capacity(stored.size() as usize);
        for value in stored.values() {
            messages.push(serde_wasm_bindgen::from_value::<StoredMessage>(value?)?);
        }
        Ok(ThreadRecord {
            thread_id: meta.thread_id,
            org_id: meta.org_id,
            domain: meta.domain,
            created_at: meta.created_at,
            updated_at: meta.updated_at,
            messages,
            human_verified: meta.human_verified,
        })
    }

    async fn append(&self, append: AppendRequest) -> Result<Response> {
        let storage = self.state.storage();
        let mut meta = match self.meta().await? {
            Some(meta) if meta.org_id == append.org_id && meta.domain == append.domain => meta,
            Some(_) => return not_found(),
            None if append.create => ThreadMeta {
                thread_id: append.thread_id.clone(),
                org_id: append.org_id.clone(),
                domain: append.domain.clone(),
                created_at: append.now.clone(),
                updated_at: append.now.clone(),
                first_seq: 0,
                next_seq: 0,
                human_verified: false,
            },
            None => return not_found(),
        };
        if let Some(keep) = append.keep {
            while meta.next_seq > meta.first_seq + keep as u64 {
                meta.next_seq -= 1;
                storage.delete(&message_key(meta.next_seq)).await?;
            }
        }
        for message in append.messages {
            let message = message.bounded();
            storage.put(&message_key(meta.next_seq), &message).await?;
            meta.next_seq += 1;
        }
        while meta.next_seq - meta.first_seq > MAX_STORED_MESSAGES as u64 {
            storage.delete(&message_key(meta.first_seq)).await?;
            meta.first_seq += 1;
        }
        meta.human_verified |= append.human_verified;
        meta.updated_at = append.now;
        storage.put(META_KEY, &meta).await?;
        self.keep_from_now().await?;
        Response::from_json(&self.record(meta).await?)
    }
}

impl DurableObject for AssistantThread {
    fn new(state: State, env: Env) -> Self {
        Self { state, env }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let _span = DurableSpan::start("AssistantThread", req.path());
        let op = match ThreadOp::receive(&mut req).await {
            Ok(op) => op,
            Err(err) => return error_reply(&err),
        };
        match op {
            ThreadOp::Append(append) => self.append(append).await,
            ThreadOp::Get(owner) => match self.meta().await? {
                Some(meta)
                    if meta.org_id == owner.org_id
                        && owner.domain.as_ref().is_none_or(|d| d == &meta.domain) =>
                {
                    if self.state.storage().get_alarm().await?.is_none() {
                        self.keep_from_now().await?;
                    }
                    Response::from_json(&self.record(meta).await?)
                }
                _ => not_found(),
            },
        }
    }

    async fn alarm(&self) -> Result<Response> {
        let _span = DurableSpan::start("AssistantThread", "/alarm");
        self.state.storage().delete_all().await?;
        Response::ok("expired")
    }
}

fn not_found() -> Result<Response> {
    error_reply(&ApiError::NotFound("thread not found".into()))
}
