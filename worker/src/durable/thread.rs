//! `AssistantThread`: one Durable Object per conversation thread, the server's record of it.
//!
//! Internal protocol (worker → object, never exposed): `POST /append` with [`AppendRequest`] creates the
//! thread on first use and appends turns; `GET /thread` returns the [`ThreadRecord`]. The owner
//! (organization and domain) is fixed at creation; a request for another owner is answered 404, the
//! same as an unknown thread.

use serde::{Deserialize, Serialize};
use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

use crate::durable_client::error_reply;
use crate::error::ApiError;

/// Turns kept per thread; older ones are dropped first so storage stays bounded.
pub const MAX_STORED_MESSAGES: usize = 200;
/// Characters kept per stored message.
pub const MAX_STORED_CHARS: usize = 16_000;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StoredSource {
    pub id: String,
    pub url: String,
    pub title: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StoredMessage {
    /// Answers carry the id their stream's start part gave the client, which feedback names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub role: String,
    pub content: String,
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<StoredSource>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ThreadRecord {
    pub thread_id: String,
    pub org_id: String,
    pub domain: String,
    pub created_at: String,
    pub updated_at: String,
    pub messages: Vec<StoredMessage>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppendRequest {
    pub thread_id: String,
    pub org_id: String,
    pub domain: String,
    /// When false the thread must exist already (a client continuing a thread it was given).
    pub create: bool,
    pub now: String,
    pub messages: Vec<StoredMessage>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerQuery {
    pub org_id: String,
    pub domain: Option<String>,
}

const RECORD_KEY: &str = "thread";

#[durable_object]
pub struct AssistantThread {
    state: State,
}

impl DurableObject for AssistantThread {
    fn new(state: State, _env: Env) -> Self {
        Self { state }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let storage = self.state.storage();
        match (req.method().to_string().as_str(), req.path().as_str()) {
            ("POST", "/append") => {
                let append: AppendRequest = req.json().await?;
                let existing: Option<ThreadRecord> = storage.get(RECORD_KEY).await?;
                let mut record = match existing {
                    Some(record) if record.org_id == append.org_id && record.domain == append.domain => record,
                    Some(_) => return not_found(),
                    None if append.create => ThreadRecord {
                        thread_id: append.thread_id.clone(),
                        org_id: append.org_id.clone(),
                        domain: append.domain.clone(),
                        created_at: append.now.clone(),
                        updated_at: append.now.clone(),
                        messages: Vec::new(),
                    },
                    None => return not_found(),
                };
                for mut message in append.messages {
                    if message.content.chars().count() > MAX_STORED_CHARS {
                        message.content = message.content.chars().take(MAX_STORED_CHARS).collect();
                    }
                    record.messages.push(message);
                }
                let overflow = record.messages.len().saturating_sub(MAX_STORED_MESSAGES);
                record.messages.drain(..overflow);
                record.updated_at = append.now;
                storage.put(RECORD_KEY, &record).await?;
                Response::from_json(&record)
            }
            ("POST", "/get") => {
                let owner: OwnerQuery = req.json().await?;
                let record: Option<ThreadRecord> = storage.get(RECORD_KEY).await?;
                match record {
                    Some(record)
                        if record.org_id == owner.org_id
                            && owner.domain.as_ref().is_none_or(|d| d == &record.domain) =>
                    {
                        Response::from_json(&record)
                    }
                    _ => not_found(),
                }
            }
            _ => error_reply(&ApiError::Internal("no such thread operation".into())),
        }
    }
}

fn not_found() -> Result<Response> {
    error_reply(&ApiError::NotFound("thread not found".into()))
}
