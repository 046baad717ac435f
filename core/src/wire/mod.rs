//! JSON shapes that cross the wire, defined once for the worker and the SDK.
//!
//! Field names follow `../shared/reference/` (the hosted service's OpenAPI documents): camelCase.
//!
//! Built without the `server` feature: the SDK deserializes these same types, so nothing here may
//! need more than serde. The service's core shapes (errors, sites, search, assistant, export jobs)
//! are in this file; [`analytics`] holds the analytics report and assistant feedback shapes, [`thread`] a stored
//! conversation.

pub mod analytics;
pub mod thread;

use serde::{Deserialize, Serialize};

/// Every error response: `{"error": "<message>", "code": "<machine_code>"}`; a conflict with a running
/// export job also names it (`jobId`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ErrorBody {
    pub error: String,
    pub code: String,
    #[serde(rename = "jobId", default, skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
    /// `missing_files`: the manifest's paths whose hashes the site's store does not hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Health {
    pub status: String,
    pub version: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Free,
    Pro,
    Enterprise,
}

impl Plan {
    pub const NAMES: &'static str = "free, pro, enterprise";
    pub fn parse(name: &str) -> Option<Plan> {
        match name {
            "free" => Some(Plan::Free),
            "pro" => Some(Plan::Pro),
            "enterprise" => Some(Plan::Enterprise),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Organization {
    pub org_id: String,
    pub name: String,
    pub plan: Plan,
    pub created_at: String,
    #[serde(default)]
    pub domains: Vec<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum KeyKind {
    /// `svc_dsc_…`: public, browser-safe, assistant/search/page endpoints only.
    Assistant,
    /// `svc_…`: secret, static export, sites and threads.
    Admin,
}

impl KeyKind {
    pub const NAMES: &'static str = "assistant, admin";
    pub fn parse(name: &str) -> Option<KeyKind> {
        match name {
            "assistant" => Some(KeyKind::Assistant),
            "admin" => Some(KeyKind::Admin),
            _ => None,
        }
    }
    pub fn prefix(self) -> &'static str {
        match self {
            KeyKind::Assistant => "svc_dsc_",
            KeyKind::Admin => "svc_",
        }
    }
    /// The kind a key claims by its prefix; `None` for anything that is not one of ours.
    pub fn of_key(key: &str) -> Option<KeyKind> {
        if key.starts_with("svc_dsc_") {
            Some(KeyKind::Assistant)
        } else if key.starts_with("svc_") {
            Some(KeyKind::Admin)
        } else {
            None
        }
    }
}

/// Returned once, when a key is created: the only time the secret is shown.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CreatedKey {
    pub key_id: String,
    pub kind: KeyKind,
    pub name: Option<String>,
    pub key: String,
    pub created_at: String,
    /// The sites an assistant key may be used from; empty: any.
    pub allowed_origins: Vec<String>,
}

/// A key as listed: never the secret and none of its random characters, only its kind's prefix and a
/// fingerprint (the first hex digits of its SHA-256) to tell keys apart.
/// `KeyInfo::listed` (security/signing.rs, the server's) makes one from a stored record.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct KeyInfo {
    pub key_id: String,
    pub kind: KeyKind,
    pub name: Option<String>,
    pub key_prefix: String,
    /// Empty for keys listed before fingerprints existed.
    #[serde(default)]
    pub fingerprint: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
    /// The sites an assistant key may be used from; empty: any. Absent in records from before.
    #[serde(default)]
    pub allowed_origins: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SearchFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    pub content: String,
    pub path: String,
    pub metadata: SearchMetadata,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SearchMetadata {
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<String>,
    pub language: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub groups: Vec<String>,
    /// Relevance in 0-1, comparable with `scoreThreshold`.
    pub score: f32,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PageContent {
    pub path: String,
    pub content: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PublishedSite {
    pub domain: String,
    pub published_at: String,
    pub page_count: usize,
    pub languages: Vec<String>,
    pub versions: Vec<String>,
    pub warnings: Vec<String>,
    /// Set for a preview publish (the version above is its, not the live one): where its site is
    /// served once its export is written (`crate::publish::preview`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_url: Option<String>,
}

/// A publish as its status resource shows it (`GET /v1/sites/{domain}/publishes/{publishId}`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PublishStatus {
    pub publish_id: String,
    pub domain: String,
    pub status: PublishState,
    /// 0 to 1.
    pub progress: f64,
    /// Pages of the site once planned (0 before).
    pub page_count: u32,
    /// Pages parsed so far: the finished page batches' pages (`page_count` once they are all done).
    #[serde(default)]
    pub pages_parsed: u32,
    pub created_at: String,
    pub updated_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Set for a preview publish, which never replaces the live version (`live` then means built,
    /// and its site's export started): where its site is served once its export is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_url: Option<String>,
}

/// `queued` (uploaded, waiting for its first step), `running`, `live` (the version is served; for a
/// preview, built) or `failed` (the previous version, if any, stays live).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum PublishState {
    Queued,
    Running,
    Live,
    Failed,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Completed,
    Failed,
    /// Stopped by `DELETE /v1/static-export/jobs/{jobId}`.
    Cancelled,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ExportJob {
    pub job_id: String,
    pub status: JobStatus,
    pub progress: f64,
    pub page_count: u32,
    pub created_at: String,
    pub updated_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// A hosted site's export, completed: the objects it wrote to storage (its files that differ
    /// from the base's, its delta listing's new objects, and the live pointer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_writes: Option<u32>,
    /// A hosted site's export: the pages it rendered so far (those of batches whose inputs the live
    /// export's did not share; the rest it took from that export).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages_rendered: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BundleLink {
    pub job_id: String,
    pub bundle_url: String,
    pub size_bytes: u64,
    /// SHA-256 of the archive (lowercase hex): what a self-hosted server checks the download against.
    #[serde(default)]
    pub sha256: String,
    pub expires_at: String,
}

// ---------------------------------------------------------------------------------------------
// Request bodies as clients send them. The worker validates raw JSON itself (with field paths,
// see `validate`); these types are what the SDK builds, so the shapes are written down once.

/// `POST /discovery/v1/search/{domain}`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SearchRequest {
    pub query: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_threshold: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<SearchFilter>,
}

/// `POST /discovery/v1/page/{domain}`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PageRequest {
    pub path: String,
}

/// `POST /v1/static-export/jobs`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ExportRequest {
    pub domain: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<String>>,
    /// `"pages"` (a `.md` file beside every page) or `"llms-full"` (only `llms.txt`/`llms-full.txt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The assistant widget on every page; absent: no widget and no request from the pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assistant: Option<ExportAssistant>,
}

/// `assistant` of an export request: where the pages' widget asks its questions.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ExportAssistant {
    /// `"same-origin"` (the server hosting the bundle answers, as docs-edge-serve does) or the
    /// service's https URL (http only for localhost).
    pub api_base: String,
    /// The public assistant key (`svc_dsc_…`) the widget sends.
    pub key: String,
    /// `turnstileSiteKey`: the widget gets a Cloudflare Turnstile token with a conversation's first
    /// question (for a service that verifies them); the pages' policy then allows Turnstile's origin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turnstile_site_key: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MessageRole {
    System,
    User,
    Assistant,
}

/// The only part kind a client needs to send: the server reads a message's text.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum MessagePart {
    Text { text: String },
}

/// One message of an assistant request: v1 (AI SDK v4) sends `content` and `parts`, v2 (AI SDK
/// v5+) `parts` only.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RequestMessage {
    pub id: String,
    pub role: MessageRole,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(default)]
    pub parts: Vec<MessagePart>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum ContextType {
    Code,
    TextSelection,
}

/// Code or a text selection the user shows the assistant with the question.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RequestContext {
    #[serde(rename = "type")]
    pub kind: ContextType,
    pub value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element_id: Option<String>,
}

/// `POST /discovery/v{1,2}/assistant/{domain}/message`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MessageRequest {
    pub fp: String,
    pub messages: Vec<RequestMessage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<RequestContext>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<SearchFilter>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieval_page_size: Option<u32>,
    /// v2: the chat id (`useChat({ id })`); with `resumable`, the chat a resumable answer runs under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// v2: opt in to a resumable answer (see `assistant::resume`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumable: Option<bool>,
}
