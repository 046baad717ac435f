//! Answer backends, chosen by `ASSISTANT_BACKEND`: `extractive` (default, offline), `openai` (any
//! OpenAI-compatible Chat Completions endpoint), `anthropic` (Messages API), `workers-ai` (the Workers
//! AI binding `AI`). The LLM backends stream their tokens straight through.
//!
//! Settings (read in `crate::shared::config::backend_settings`): `LLM_BASE_URL` (default the provider's
//! public API), `LLM_MODEL`, `LLM_MAX_TOKENS` (default 1024), and the secret `LLM_API_KEY`;
//! `workers-ai` needs only `LLM_MODEL` (optional) and the binding, which authenticates itself.

use docs_edge_core::assistant::prompt::ChatPrompt;
use docs_edge_core::assistant::providers::{
    anthropic_headers, build_anthropic_request, build_openai_request, build_workers_ai_input,
    openai_headers, AnthropicStream, LlmEvent, OpenAiStream, WorkersAiStream,
};
use docs_edge_core::platform::deployment::backend_allowed;
use std::future::Future;
use std::pin::pin;
use std::time::Duration;

use futures_util::future::{select, Either};
use futures_util::StreamExt;
use js_sys::{Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::ReadableStream;
use worker::{ByteStream, Delay, Env, Fetch, Headers};

use crate::shared::config;
use crate::shared::error::{ApiError, ApiResult};

#[derive(Debug, Clone)]
pub enum Backend {
    Extractive,
    OpenAi(LlmSettings),
    Anthropic(LlmSettings),
    WorkersAi(WorkersAiSettings),
}

/// The `AI` binding is kept as a plain JS object and called by its `run` method, so any object with
/// Workers AI's `run(model, inputs)` contract works (a test double bound as an RPC service, too).
#[derive(Debug, Clone)]
pub struct WorkersAiSettings {
    pub binding: JsValue,
    pub model: String,
    pub max_tokens: u32,
}

pub const WORKERS_AI_BINDING: &str = "AI";

#[derive(Debug, Clone)]
pub struct LlmSettings {
    pub base_url: String,
    pub model: String,
    /// `Debug` shows it as set, never its value.
    pub api_key: config::Secret,
    pub max_tokens: u32,
}

impl Backend {
    /// As `ASSISTANT_BACKEND` names it (analytics record which backend answered).
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Extractive => "extractive",
            Backend::OpenAi(_) => "openai",
            Backend::Anthropic(_) => "anthropic",
            Backend::WorkersAi(_) => "workers-ai",
        }
    }

    /// A misconfigured backend is our fault, not the caller's: 500, with the reason in the log.
    pub fn from_env(env: &Env) -> ApiResult<Backend> {
        let set = config::backend_settings(env);
        let name = set.backend.clone();
        if name != "extractive" {
            let kind = config::deployment(env).map_err(ApiError::Internal)?.kind;
            backend_allowed(
                kind,
                &name,
                set.llm_base_url.as_deref(),
                &set.internal_hosts,
            )
            .map_err(ApiError::Internal)?;
        }
        let settings = |default_base: &str, default_model: &str| -> ApiResult<LlmSettings> {
            Ok(LlmSettings {
                base_url: set
                    .llm_base_url
                    .clone()
                    .unwrap_or_else(|| default_base.into())
                    .trim_end_matches('/')
                    .to_string(),
                model: set
                    .llm_model
                    .clone()
                    .unwrap_or_else(|| default_model.into()),
                api_key: set.llm_api_key.clone().ok_or_else(|| {
                    ApiError::Internal(format!(
                        "ASSISTANT_BACKEND={name} needs the secret LLM_API_KEY"
                    ))
                })?,
                max_tokens: set.llm_max_tokens,
            })
        };
        match name.as_str() {
            "extractive" => Ok(Backend::Extractive),
            "openai" => Ok(Backend::OpenAi(settings(
                "https://api.openai.com/v1",
                "gpt-4o-mini",
            )?)),
            "anthropic" => Ok(Backend::Anthropic(settings(
                "https://api.anthropic.com/v1",
                "claude-3-5-haiku-latest",
            )?)),
            "workers-ai" => {
                let binding = Reflect::get(env, &JsValue::from_str(WORKERS_AI_BINDING))
                    .ok()
                    .filter(|b| b.is_object())
                    .ok_or_else(|| {
                        ApiError::Internal(format!(
                            "ASSISTANT_BACKEND=workers-ai needs the binding {WORKERS_AI_BINDING} ([ai] in wrangler.toml)"
                        ))
                    })?;
                Ok(Backend::WorkersAi(WorkersAiSettings {
                    binding,
                    model: set
                        .llm_model
                        .clone()
                        .unwrap_or_else(|| "@cf/meta/llama-3.1-8b-instruct".into()),
                    max_tokens: set.llm_max_tokens,
                }))
            }
            other => Err(ApiError::Internal(format!(
                "unknown ASSISTANT_BACKEND {other}; use extractive, openai, anthropic or workers-ai"
            ))),
        }
    }
}

/// Awaits `work`, calling `on_idle` each time `idle` passes without it completing. `on_idle`
/// returning false (the client went away) gives up: `None`.
async fn with_keep_alive<T>(
    work: impl Future<Output = T>,
    idle: Duration,
    on_idle: &mut impl FnMut() -> bool,
) -> Option<T> {
    let mut work = pin!(work);
    loop {
        match select(work.as_mut(), Delay::from(idle)).await {
            Either::Left((value, _)) => return Some(value),
            Either::Right(((), _)) => {
                if !on_idle() {
                    return None;
                }
            }
        }
    }
}

/// Streams one LLM answer: `on_event` gets every parsed event and returns false to stop early (the
/// client went away), which drops the upstream response and so cancels it. While the provider is
/// silent for `idle`, `on_idle` is called (to send a keep-alive); false from it stops too.
pub async fn stream_llm(
    backend: &Backend,
    prompt: &ChatPrompt,
    idle: Duration,
    mut on_idle: impl FnMut() -> bool,
    mut on_event: impl FnMut(LlmEvent) -> bool,
) -> Result<(), String> {
    let Some(opened) = with_keep_alive(open_llm(backend, prompt), idle, &mut on_idle).await else {
        return Ok(());
    };
    let (mut body, mut parser) = opened?;
    loop {
        let Some(next) = with_keep_alive(body.next(), idle, &mut on_idle).await else {
            return Ok(());
        };
        let Some(chunk) = next else { break };
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

async fn open_llm(backend: &Backend, prompt: &ChatPrompt) -> Result<(ByteStream, Parser), String> {
    Ok(match backend {
        Backend::Extractive => {
            return Err("the extractive backend does not stream from a provider".into())
        }
        Backend::OpenAi(s) => (
            post_json(
                &format!("{}/chat/completions", s.base_url),
                &build_openai_request(&s.model, prompt, s.max_tokens).to_string(),
                &openai_headers(s.api_key.expose()),
            )
            .await?,
            Parser::OpenAi(OpenAiStream::new()),
        ),
        Backend::Anthropic(s) => (
            post_json(
                &format!("{}/messages", s.base_url),
                &build_anthropic_request(&s.model, prompt, s.max_tokens).to_string(),
                &anthropic_headers(s.api_key.expose()),
            )
            .await?,
            Parser::Anthropic(AnthropicStream::new()),
        ),
        Backend::WorkersAi(s) => (
            run_workers_ai(s, prompt).await?,
            Parser::WorkersAi(WorkersAiStream::new()),
        ),
    })
}

async fn post_json(
    url: &str,
    body: &str,
    header_list: &[(&str, String)],
) -> Result<ByteStream, String> {
    let headers = Headers::new();
    for (name, value) in header_list {
        headers
            .set(name, value)
            .map_err(|e| format!("header {name}: {e}"))?;
    }
    let request =
        crate::shared::http::json_post(url, &headers, body).map_err(|e| format!("request: {e}"))?;
    let mut response = Fetch::Request(request)
        .send()
        .await
        .map_err(|e| format!("provider unreachable: {e}"))?;
    let status = response.status_code();
    if status >= 400 {
        let detail = response.text().await.unwrap_or_default();
        return Err(format!(
            "provider answered {status}: {}",
            detail.chars().take(300).collect::<String>()
        ));
    }
    response.stream().map_err(|e| format!("provider body: {e}"))
}

/// `env.AI.run(model, {messages, max_tokens, stream: true})` resolves to the SSE byte stream.
async fn run_workers_ai(
    settings: &WorkersAiSettings,
    prompt: &ChatPrompt,
) -> Result<ByteStream, String> {
    let run: Function = Reflect::get(&settings.binding, &JsValue::from_str("run"))
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or("the AI binding has no run method")?;
    let input =
        js_sys::JSON::parse(&build_workers_ai_input(prompt, settings.max_tokens).to_string())
            .map_err(|_| "workers-ai input did not serialize")?;
    // Reflect.apply, not `run.call(..)`: on an RPC stub `call` would be looked up as a remote method.
    let args = js_sys::Array::of2(&JsValue::from_str(&settings.model), &input);
    let pending = Reflect::apply(&run, &settings.binding, &args)
        .map_err(|e| format!("workers-ai run failed: {}", js_error_text(&e)))?;
    let output = JsFuture::from(js_sys::Promise::resolve(&pending))
        .await
        .map_err(|e| format!("workers-ai run failed: {}", js_error_text(&e)))?;
    let stream: ReadableStream = output.dyn_into().map_err(|_| {
        "workers-ai returned no stream (is the model a text-generation model?)".to_string()
    })?;
    Ok(ByteStream::from(stream))
}

fn js_error_text(value: &JsValue) -> String {
    let text = value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| "unknown error".into());
    text.chars().take(300).collect()
}

enum Parser {
    OpenAi(OpenAiStream),
    Anthropic(AnthropicStream),
    WorkersAi(WorkersAiStream),
}

impl Parser {
    fn push(&mut self, bytes: &[u8]) -> Vec<LlmEvent> {
        match self {
            Parser::OpenAi(p) => p.push(bytes),
            Parser::Anthropic(p) => p.push(bytes),
            Parser::WorkersAi(p) => p.push(bytes),
        }
    }

    fn finish(&mut self) -> Vec<LlmEvent> {
        match self {
            Parser::OpenAi(p) => p.finish(),
            Parser::Anthropic(p) => p.finish(),
            Parser::WorkersAi(p) => p.finish(),
        }
    }
}
