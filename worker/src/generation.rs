//! Answer backends, chosen by `ASSISTANT_BACKEND`: `extractive` (default, offline), `openai` (any
//! OpenAI-compatible Chat Completions endpoint), `anthropic` (Messages API). The LLM backends stream
//! their tokens straight through.
//!
//! Settings: `LLM_BASE_URL` (default the provider's public API), `LLM_MODEL`, `LLM_MAX_TOKENS`
//! (default 1024), and the secret `LLM_API_KEY`.

use docs_edge_core::assistant::prompt::ChatPrompt;
use docs_edge_core::assistant::providers::{
    anthropic_headers, build_anthropic_request, build_openai_request, openai_headers, AnthropicStream, LlmEvent,
    OpenAiStream,
};
use futures_util::StreamExt;
use wasm_bindgen::JsValue;
use worker::{Env, Fetch, Headers, Method, Request, RequestInit};

use crate::config::text;
use crate::error::{ApiError, ApiResult};

#[derive(Debug, Clone)]
pub enum Backend {
    Extractive,
    OpenAi(LlmSettings),
    Anthropic(LlmSettings),
}

#[derive(Debug, Clone)]
pub struct LlmSettings {
    pub base_url: String,
    pub model: String,
    pub api_key: String,
    pub max_tokens: u32,
}

impl Backend {
    /// A misconfigured backend is our fault, not the caller's: 500, with the reason in the log.
    pub fn from_env(env: &Env) -> ApiResult<Backend> {
        let name = text(env, "ASSISTANT_BACKEND").unwrap_or_else(|| "extractive".into());
        let settings = |default_base: &str, default_model: &str| -> ApiResult<LlmSettings> {
            Ok(LlmSettings {
                base_url: text(env, "LLM_BASE_URL").unwrap_or_else(|| default_base.into()).trim_end_matches('/').to_string(),
                model: text(env, "LLM_MODEL").unwrap_or_else(|| default_model.into()),
                api_key: text(env, "LLM_API_KEY")
                    .ok_or_else(|| ApiError::Internal(format!("ASSISTANT_BACKEND={name} needs the secret LLM_API_KEY")))?,
                max_tokens: text(env, "LLM_MAX_TOKENS").and_then(|v| v.parse().ok()).unwrap_or(1024),
            })
        };
        match name.as_str() {
            "extractive" => Ok(Backend::Extractive),
            "openai" => Ok(Backend::OpenAi(settings("https://api.openai.com/v1", "gpt-4o-mini")?)),
            "anthropic" => Ok(Backend::Anthropic(settings("https://api.anthropic.com/v1", "claude-3-5-haiku-latest")?)),
            other => Err(ApiError::Internal(format!(
                "unknown ASSISTANT_BACKEND {other}; use extractive, openai or anthropic"
            ))),
        }
    }
}

/// Streams one LLM answer: `on_event` gets every parsed event and returns false to stop early (the
/// client went away), which drops the upstream response and so cancels it.
pub async fn stream_llm(backend: &Backend, prompt: &ChatPrompt, mut on_event: impl FnMut(LlmEvent) -> bool) -> Result<(), String> {
    let (url, body, header_list, mut parser): (String, String, Vec<(&str, String)>, Parser) = match backend {
        Backend::Extractive => return Err("the extractive backend does not stream from a provider".into()),
        Backend::OpenAi(s) => (
            format!("{}/chat/completions", s.base_url),
            build_openai_request(&s.model, prompt, s.max_tokens).to_string(),
            openai_headers(&s.api_key),
            Parser::OpenAi(OpenAiStream::new()),
        ),
        Backend::Anthropic(s) => (
            format!("{}/messages", s.base_url),
            build_anthropic_request(&s.model, prompt, s.max_tokens).to_string(),
            anthropic_headers(&s.api_key),
            Parser::Anthropic(AnthropicStream::new()),
        ),
    };
    let headers = Headers::new();
    for (name, value) in &header_list {
        headers.set(name, value).map_err(|e| format!("header {name}: {e}"))?;
    }
    headers.set("content-type", "application/json").map_err(|e| e.to_string())?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_headers(headers).with_body(Some(JsValue::from_str(&body)));
    let request = Request::new_with_init(&url, &init).map_err(|e| format!("request: {e}"))?;
    let mut response = Fetch::Request(request).send().await.map_err(|e| format!("provider unreachable: {e}"))?;
    let status = response.status_code();
    if status >= 400 {
        let detail = response.text().await.unwrap_or_default();
        return Err(format!("provider answered {status}: {}", detail.chars().take(300).collect::<String>()));
    }
    let mut body = response.stream().map_err(|e| format!("provider body: {e}"))?;
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| format!("provider stream broke: {e}"))?;
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

enum Parser {
    OpenAi(OpenAiStream),
    Anthropic(AnthropicStream),
}

impl Parser {
    fn push(&mut self, bytes: &[u8]) -> Vec<LlmEvent> {
        match self {
            Parser::OpenAi(p) => p.push(bytes),
            Parser::Anthropic(p) => p.push(bytes),
        }
    }

    fn finish(&mut self) -> Vec<LlmEvent> {
        match self {
            Parser::OpenAi(p) => p.finish(),
            Parser::Anthropic(p) => p.finish(),
        }
    }
}
