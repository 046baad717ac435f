//! CORS for the browser-facing endpoints (everything under `/discovery/`, and the keyless `/health`
//! and `/openapi.json`, which API playgrounds on docs sites call); no other endpoint sends
//! `Access-Control-Allow-*`, so browsers cannot call the admin, export or operator APIs cross-origin.

use worker::{Headers, Response};

pub fn applies_to(path: &str) -> bool {
    path.starts_with("/discovery/") || path == "/health" || path == "/openapi.json"
}

const EXPOSED: &str =
    "x-thread-id, x-request-id, x-vercel-ai-data-stream, x-vercel-ai-ui-message-stream, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After";

pub fn add_headers(headers: &Headers) -> worker::Result<()> {
    headers.set("Access-Control-Allow-Origin", "*")?;
    headers.set("Access-Control-Expose-Headers", EXPOSED)?;
    Ok(())
}

/// Answer to `OPTIONS` on a discovery path.
pub fn preflight() -> worker::Result<Response> {
    let headers = Headers::new();
    headers.set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")?;
    // MCP clients in a browser send the protocol revision (and, to servers with sessions, the id).
    headers.set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, X-Turnstile-Token")?;
    headers.set("Access-Control-Max-Age", "86400")?;
    Ok(Response::empty()?.with_status(204).with_headers(headers))
}
