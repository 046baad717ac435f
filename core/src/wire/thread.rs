//! An assistant conversation as the server records it (`GET /v1/threads/{threadId}`), the same for
//! the worker's thread objects and `docs-edge-serve`'s database.

use serde::{Deserialize, Serialize};

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
    /// For assistant messages, the id the stream gave the client (feedback names it); for user
    /// messages, the client's own id when it sent one (v5+), so a regenerate can name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub role: String,
    pub content: String,
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<StoredSource>,
}

impl StoredMessage {
    /// The content cut to [`MAX_STORED_CHARS`].
    pub fn bounded(mut self) -> Self {
        if let Some((at, _)) = self.content.char_indices().nth(MAX_STORED_CHARS) {
            self.content.truncate(at);
        }
        self
    }
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
    /// A Turnstile token sent with one of its turns passed siteverify: later turns need none.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub human_verified: bool,
}
