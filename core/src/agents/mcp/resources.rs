//! The MCP server's resources: the site's documents for agents, `llms.txt`, the owner's root
//! `skill.md` when the live version has one (`crate::docs::skill_file`) and every other skill of
//! its discovery index (`crate::docs::public_skills`), named by their URLs on the live site. They
//! follow the search switch, as their discovery endpoints do. Listing and reading need the stored
//! version, so both are handed to the caller ([`super::Step`]) and answered here once it has looked.

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::jsonrpc::{error_with_data, result, ErrorCode};
use super::server::ServerInfo;
use crate::docs::public_skills::{requested_file, SKILL_FILE_NAME};
use crate::security::signing::to_hex;

/// The discovery format whose paths name the skills' resources.
const SKILLS_FORMAT: &str = "agent-skills";

/// A document the server may offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Document {
    LlmsTxt,
    SkillMd,
    /// A skill of the discovery index, by its name there.
    Skill(String),
}

impl Document {
    /// Its path on the live site, which is also its name among the version's stored documents.
    pub fn file(&self) -> String {
        match self {
            Document::LlmsTxt => "llms.txt".into(),
            Document::SkillMd => "skill.md".into(),
            Document::Skill(name) => {
                format!(".well-known/{SKILLS_FORMAT}/{name}/{SKILL_FILE_NAME}")
            }
        }
    }

    fn mime_type(&self) -> &'static str {
        match self {
            Document::LlmsTxt => "text/plain",
            Document::SkillMd | Document::Skill(_) => "text/markdown",
        }
    }

    pub fn uri(&self, domain: &str) -> String {
        format!("https://{domain}/{}", self.file())
    }

    /// The document `uri` names on `domain`'s server.
    pub fn of_uri(uri: &str, domain: &str) -> Option<Document> {
        let path = uri
            .strip_prefix("https://")?
            .strip_prefix(domain)?
            .strip_prefix('/')?;
        match path {
            "llms.txt" => Some(Document::LlmsTxt),
            "skill.md" => Some(Document::SkillMd),
            _ => {
                let (name, file) = path
                    .strip_prefix(".well-known/")?
                    .strip_prefix(SKILLS_FORMAT)?
                    .strip_prefix('/')?
                    .split_once('/')?;
                requested_file(SKILLS_FORMAT, Some((name, file)))?;
                Some(Document::Skill(name.to_owned()))
            }
        }
    }
}

/// The reply to `resources/list`: `llms.txt`; `skill.md` when `root_skill` (its text) is there;
/// then each skill of `agent_index` (the version's `/.well-known/agent-skills/index.json`) but the
/// one that is `skill.md` itself (the same digest).
pub fn list_reply(
    id: &Value,
    root_skill: Option<&str>,
    agent_index: Option<&[u8]>,
    server: &ServerInfo<'_>,
) -> Value {
    let entry = |d: &Document, name: &str, description: &str| json!({ "uri": d.uri(server.domain), "name": name, "description": description, "mimeType": d.mime_type() });
    let mut resources = vec![entry(
        &Document::LlmsTxt,
        "llms.txt",
        "Every page of the documentation with a one-line summary and its URL (llms.txt).",
    )];
    if root_skill.is_some() {
        resources.push(entry(&Document::SkillMd, "skill.md", "What an agent can do with the product: capabilities, inputs and constraints (skill.md)."));
    }
    let root_digest =
        root_skill.map(|text| format!("sha256:{}", to_hex(&Sha256::digest(text.as_bytes()))));
    let index: Value = agent_index
        .and_then(|bytes| serde_json::from_slice(bytes).ok())
        .unwrap_or_default();
    for skill in index["skills"].as_array().into_iter().flatten() {
        let (Some(name), Some(description)) =
            (skill["name"].as_str(), skill["description"].as_str())
        else {
            continue;
        };
        if root_digest
            .as_deref()
            .is_some_and(|d| skill["digest"].as_str() == Some(d))
        {
            continue;
        }
        resources.push(entry(&Document::Skill(name.to_owned()), name, description));
    }
    result(id, json!({ "resources": resources }))
}

/// The reply to `resources/read` of `document`: its text, or -32002 when the version has none.
pub fn read_reply(
    id: &Value,
    document: &Document,
    text: Option<String>,
    server: &ServerInfo<'_>,
) -> Value {
    let uri = document.uri(server.domain);
    match text {
        Some(text) => result(
            id,
            json!({ "contents": [{ "uri": uri, "mimeType": document.mime_type(), "text": text }] }),
        ),
        None => not_found(id, &uri),
    }
}

/// -32002, the code the specification gives a resource that does not exist.
pub(super) fn not_found(id: &Value, uri: &str) -> Value {
    error_with_data(
        id,
        ErrorCode::ResourceNotFound,
        "Resource not found",
        json!({ "uri": uri }),
    )
}
