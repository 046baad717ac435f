//! The CHATS Durable Object namespace, seen from the worker: start a resumable answer, read its
//! journal, stop it. One object per (organization, domain, chat id): another organization's chat id
//! names another object, which knows nothing of it.

use serde::{Deserialize, Serialize};

use crate::config::CHATS_BINDING;
use crate::durable_client::{post, post_for_bytes};
use crate::error::{ApiError, ApiResult};

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


/// Starts the chat's answer; its thread id. The object's 4xx (unknown thread, bad `messageId`, an
/// answer still running) pass through.
pub async fn start(env: &worker::Env, key: &ChatKey, body: &serde_json::Value, started_ms: u64, request_id: &str) -> ApiResult<String> {
    let request = StartRequest { key: key.clone(), body: body.clone(), started_ms, request_id: request_id.to_string() };
    let reply: serde_json::Value = post(env, CHATS_BINDING, &key.object_name(), "start", &request).await?;
    Ok(reply["threadId"].as_str().unwrap_or_default().to_string())
}

/// 404 (relayed) for a chat this organization never ran a resumable answer in.
pub async fn read(env: &worker::Env, key: &ChatKey, from: u64, wait_ms: u64) -> ApiResult<ReadReply> {
    let request = ReadRequest { key: key.clone(), from, wait_ms };
    let (headers, bytes) = post_for_bytes(env, CHATS_BINDING, &key.object_name(), "read", &request).await?;
    let header = |name: &str| headers.get(name).ok().flatten().unwrap_or_default();
    Ok(ReadReply {
        nothing: header("x-chat-nothing") == "1",
        text: String::from_utf8(bytes).map_err(|_| ApiError::Internal("chat journal is not UTF-8".into()))?,
        next: header("x-chat-next").parse().unwrap_or(from),
        ended: header("x-chat-ended") == "1",
        message_id: header("x-chat-message-id"),
        thread_id: header("x-chat-thread-id"),
    })
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

/// Whether an answer was running (and is now ending).
pub async fn stop(env: &worker::Env, key: &ChatKey) -> ApiResult<bool> {
    let reply: serde_json::Value = post(env, CHATS_BINDING, &key.object_name(), "stop", key).await?;
    Ok(reply["stopped"].as_bool().unwrap_or(false))
}
