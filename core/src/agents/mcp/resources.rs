//! The MCP server's resources: the site's documents for agents, `llms.txt` and the owner's
//! `skill.md` when the live version has one (`crate::docs::skill_file`), named by their URLs on
//! the live site. They follow the search switch, as their discovery endpoints do. Listing and
//! reading need the stored version, so both are handed to the caller ([`super::Step`]) and answered
//! here once it has looked.

use serde_json::{json, Value};

use super::jsonrpc::{error_with_data, result, ErrorCode};
use super::server::ServerInfo;

/// A document the server may offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Document {
    LlmsTxt,
    SkillMd,
}

impl Document {
    const ALL: [Document; 2] = [Document::LlmsTxt, Document::SkillMd];

    /// Its file name on the live site and in the version's stored documents.
    pub fn file(self) -> &'static str {
        match self {
            Document::LlmsTxt => "llms.txt",
            Document::SkillMd => "skill.md",
        }
    }

    fn mime_type(self) -> &'static str {
        match self {
            Document::LlmsTxt => "text/plain",
            Document::SkillMd => "text/markdown",
        }
    }

    fn description(self) -> &'static str {
        match self {
            Document::LlmsTxt => "Every page of the documentation with a one-line summary and its URL (llms.txt).",
            Document::SkillMd => "What an agent can do with the product: capabilities, inputs and constraints (skill.md).",
        }
    }

    pub fn uri(self, domain: &str) -> String {
        format!("https://{domain}/{}", self.file())
    }

    /// The document `uri` names on `domain`'s server.
    pub fn of_uri(uri: &str, domain: &str) -> Option<Document> {
        Document::ALL.into_iter().find(|d| d.uri(domain) == uri)
    }
}

/// The reply to `resources/list`: `present` are the documents the live version has.
pub fn list_reply(id: &Value, present: &[Document], server: &ServerInfo<'_>) -> Value {
    let resources: Vec<Value> = present
        .iter()
        .map(|&d| json!({ "uri": d.uri(server.domain), "name": d.file(), "description": d.description(), "mimeType": d.mime_type() }))
        .collect();
    result(id, json!({ "resources": resources }))
}

/// The reply to `resources/read` of `document`: its text, or -32002 when the version has none.
pub fn read_reply(id: &Value, document: Document, text: Option<String>, server: &ServerInfo<'_>) -> Value {
    let uri = document.uri(server.domain);
    match text {
        Some(text) => result(id, json!({ "contents": [{ "uri": uri, "mimeType": document.mime_type(), "text": text }] })),
        None => not_found(id, &uri),
    }
}

/// -32002, the code the specification gives a resource that does not exist.
pub(super) fn not_found(id: &Value, uri: &str) -> Value {
    error_with_data(id, ErrorCode::ResourceNotFound, "Resource not found", json!({ "uri": uri }))
}
