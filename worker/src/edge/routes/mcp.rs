//! `POST /discovery/v1/mcp/{domain}`: the site's MCP server (Streamable HTTP, stateless). The
//! protocol lives in `docs_edge_core::agents::mcp`; here the body is read, each tool call runs
//! against the live site (search index, stored Markdown, the assistant pipeline), each resource is
//! read from the version's stored documents, and the replies go back as JSON, or 202 when there
//! are none. `GET` is 405 by the route table: no server-initiated stream.

use docs_edge_core::agents::llms::page_url;
use docs_edge_core::agents::mcp::resources::{self, Document};
use docs_edge_core::agents::mcp::{
    self, excerpt, AskArgs, AskOutput, GetPageArgs, PageOutput, SearchArgs, SearchItem,
    SearchOutput, ServerInfo, Step, ToolCall, ToolOutcome,
};
use docs_edge_core::assistant::request::{
    AssistantRequest, Role, Trigger, Turn, DEFAULT_RETRIEVAL_PAGE_SIZE,
};
use docs_edge_core::docs::public_skills::index_path;
use docs_edge_core::search::Query;
use docs_edge_core::wire::SearchFilter;
use serde_json::Value;
use worker::Response;

use crate::edge::agent_docs;
use crate::edge::context::Call;
use crate::edge::live;
use crate::edge::routes::assistant::answer_once;
use crate::edge::routes::discovery::{authorize, Caller};
use crate::edge::search_store;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::{
    empty_response, header, json_bytes_response, read_body, require_content_type,
};
use crate::shared::storage;

pub async fn post(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let version = mcp::header_version(header(&call.req, "mcp-protocol-version").as_deref())
        .map_err(ApiError::Invalid)?;
    require_content_type(
        &call.req,
        &["application/json"],
        "JSON-RPC (Content-Type: application/json)",
    )?;
    let body = read_body(&mut call.req, call.config.max_json_body_bytes).await?;
    let incoming = match mcp::parse_body(&body, version) {
        Ok(incoming) => incoming,
        Err(reply) => return Ok(json_bytes_response(400, serde_json::to_vec(&reply)?, &[])),
    };
    // The route's gate let it through with search or the assistant on; the tools follow each switch.
    let features = crate::shared::config::deployment(&call.env)
        .map_err(ApiError::Internal)?
        .features;
    let server = ServerInfo {
        site_name: &caller.domain,
        domain: &caller.domain,
        version: env!("CARGO_PKG_VERSION"),
        search: features.search,
        assistant: features.assistant,
    };
    let mut replies: Vec<Value> = Vec::new();
    for message in &incoming.messages {
        match mcp::handle(message, version, &server) {
            Step::Reply(reply) => replies.push(reply),
            Step::Call { id, call: tool } => {
                let outcome = run_tool(call, &caller, tool).await;
                replies.push(mcp::tool_reply(&id, outcome, version));
            }
            Step::ListResources { id } => {
                replies.push(list_resources(call, &caller, &server, &id).await?)
            }
            Step::ReadResource { id, document } => {
                let text = read_document(call, &caller, &document).await?;
                replies.push(resources::read_reply(&id, &document, text, &server));
            }
            Step::Nothing => {}
        }
    }
    let body = match (replies.len(), incoming.batch) {
        (0, _) => return Ok(empty_response(202)),
        (1, false) => serde_json::to_vec(&replies[0])?,
        _ => serde_json::to_vec(&replies)?,
    };
    Ok(json_bytes_response(200, body, &[]))
}

/// `llms.txt` always (a published version has one), `skill.md` when the owner wrote one, and the
/// skills of the discovery index.
async fn list_resources(
    call: &Call,
    caller: &Caller,
    server: &ServerInfo<'_>,
    id: &Value,
) -> ApiResult<Value> {
    let root = read_document(call, caller, &Document::SkillMd).await?;
    let bucket = storage::bucket(&call.env)?;
    let version =
        live::live_version(&call.env, &bucket, &caller.domain, &caller.key.org_id).await?;
    let index = agent_docs::text(
        &bucket,
        &caller.domain,
        &version,
        &index_path("agent-skills"),
    )
    .await?;
    Ok(resources::list_reply(
        id,
        root.as_deref(),
        index.as_deref().map(str::as_bytes),
        server,
    ))
}

async fn read_document(
    call: &Call,
    caller: &Caller,
    document: &Document,
) -> ApiResult<Option<String>> {
    let bucket = storage::bucket(&call.env)?;
    let version =
        live::live_version(&call.env, &bucket, &caller.domain, &caller.key.org_id).await?;
    agent_docs::text(&bucket, &caller.domain, &version, &document.file()).await
}

/// Runs a tool; what goes wrong is the tool's error, which the model reads (internal details only
/// in the log).
async fn run_tool(call: &Call, caller: &Caller, tool: ToolCall) -> ToolOutcome {
    let result = match tool {
        ToolCall::Search(args) => search(call, caller, args).await,
        ToolCall::GetPage(args) => get_page(call, caller, args).await,
        ToolCall::Ask(args) => ask(call, caller, args).await,
    };
    result.unwrap_or_else(|err| {
        if let Some(detail) = err.log_detail() {
            let line = serde_json::json!({ "event": "mcp_tool_failed", "requestId": call.request_id, "error": detail });
            crate::shared::log_line::error(&line);
        }
        ToolOutcome::Failed(err.public_message())
    })
}

async fn search(call: &Call, caller: &Caller, args: SearchArgs) -> ApiResult<ToolOutcome> {
    let site = search_store::open(
        &call.env,
        call.config.search_cache_bytes,
        &caller.domain,
        &caller.key.org_id,
    )
    .await?;
    let hits = site
        .search(&Query {
            text: &args.query,
            limit: args.limit,
            score_threshold: 0.0,
            language: args.language.as_deref(),
            version: args.version.as_deref(),
            tag: None,
            groups: &[],
            near_path: None,
            current_version: None,
            follow_top: 0,
            by_meaning: true,
            semantic: None,
        })
        .await?;
    let results = hits
        .into_iter()
        .map(|hit| {
            let mut url = page_url(&caller.domain, &hit.path);
            if let Some(anchor) = hit.anchor.as_deref().filter(|a| !a.is_empty()) {
                url.push('#');
                url.push_str(anchor);
            }
            SearchItem {
                title: hit.title,
                heading: hit.heading,
                url,
                path: hit.path,
                excerpt: excerpt(&hit.text),
                score: hit.score,
            }
        })
        .collect();
    Ok(ToolOutcome::Search(SearchOutput {
        query: args.query,
        results,
    }))
}

async fn get_page(call: &Call, caller: &Caller, args: GetPageArgs) -> ApiResult<ToolOutcome> {
    let site = search_store::open(
        &call.env,
        call.config.search_cache_bytes,
        &caller.domain,
        &caller.key.org_id,
    )
    .await?;
    let Some(doc) = site.page(&args.path).await? else {
        return Ok(ToolOutcome::Failed(format!(
            "page `{}` not found; use a path from the search tool's results",
            args.path
        )));
    };
    let bucket = storage::bucket(&call.env)?;
    let markdown = agent_docs::page_markdown(&bucket, &caller.domain, &site.version, &doc.path)
        .await?
        .ok_or_else(|| {
            ApiError::NotFound(format!("page {} has no Markdown rendering", doc.path))
        })?;
    Ok(ToolOutcome::Page(PageOutput {
        path: doc.path,
        markdown,
    }))
}

async fn ask(call: &Call, caller: &Caller, args: AskArgs) -> ApiResult<ToolOutcome> {
    let request = AssistantRequest {
        fp: "mcp".into(),
        thread_id: None,
        retrieval_page_size: DEFAULT_RETRIEVAL_PAGE_SIZE,
        filter: SearchFilter {
            version: args.version,
            language: args.language,
            tag: None,
            groups: Vec::new(),
        },
        context: Vec::new(),
        current_path: None,
        trigger: Trigger::Submit,
        question_id: None,
        conversation: vec![Turn {
            role: Role::User,
            text: args.question,
        }],
    };
    let caller = Caller {
        key: caller.key.clone(),
        domain: caller.domain.clone(),
    };
    let (answer, sources) = answer_once(call, caller, request).await?;
    Ok(ToolOutcome::Ask(AskOutput { answer, sources }))
}
