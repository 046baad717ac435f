//! The OpenAI-compatible backend's I/O: the request core builds, sent with the server's HTTP client,
//! and the response bytes fed to core's stream parser as they arrive (the worker's
//! `generation::stream_llm`, on tokio). Dropping the response (the reader left) closes the upstream
//! connection, which is how an OpenAI-compatible server learns to stop generating.

use std::future::Future;
use std::pin::pin;
use std::time::Duration;

use docs_edge_core::assistant::prompt::ChatPrompt;
use docs_edge_core::assistant::providers::{build_openai_request, LlmEvent, OpenAiStream};
use futures_util::StreamExt;

use crate::config::Llm;

/// Awaits `work`, calling `on_idle` each time `idle` passes without it completing; `on_idle`
/// returning false (the reader left) gives up: `None`.
async fn with_keep_alive<T>(
    work: impl Future<Output = T>,
    idle: Duration,
    on_idle: &mut impl FnMut() -> bool,
) -> Option<T> {
    let mut work = pin!(work);
    loop {
        match tokio::time::timeout(idle, work.as_mut()).await {
            Ok(value) => return Some(value),
            Err(_) => {
                if !on_idle() {
                    return None;
                }
            }
        }
    }
}

/// Streams one answer: `on_event` gets every parsed event and returns false to stop early; while the
/// model is silent for `idle`, `on_idle` is called (a keep-alive), and false from it stops too.
/// `Err` is a transport failure (for the log only: it may name the endpoint).
pub async fn stream(
    client: &reqwest::Client,
    llm: &Llm,
    prompt: &ChatPrompt,
    idle: Duration,
    mut on_idle: impl FnMut() -> bool,
    mut on_event: impl FnMut(LlmEvent) -> bool,
) -> Result<(), String> {
    let mut request = client
        .post(format!("{}/chat/completions", llm.base_url))
        .header("content-type", "application/json")
        .body(build_openai_request(&llm.model, prompt, llm.max_tokens).to_string());
    if let Some(key) = &llm.api_key {
        request = request.bearer_auth(key.expose());
    }
    let Some(response) = with_keep_alive(request.send(), idle, &mut on_idle).await else {
        return Ok(());
    };
    let response = response.map_err(|e| format!("model unreachable: {}", e.without_url()))?;
    let status = response.status();
    if !status.is_success() {
        let detail = response.text().await.unwrap_or_default();
        return Err(format!(
            "model answered {status}: {}",
            detail.chars().take(300).collect::<String>()
        ));
    }
    let mut body = response.bytes_stream();
    let mut parser = OpenAiStream::new();
    loop {
        let Some(next) = with_keep_alive(body.next(), idle, &mut on_idle).await else {
            return Ok(());
        };
        let Some(chunk) = next else { break };
        let chunk = chunk.map_err(|e| format!("model stream broke: {}", e.without_url()))?;
        for event in parser.push(&chunk) {
            if !on_event(event) {
                return Ok(());
            }
        }
    }
    for event in parser.finish() {
        if !on_event(event) {
            return Ok(());
        }
    }
    Ok(())
}
