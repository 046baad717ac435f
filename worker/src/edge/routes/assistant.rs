//! `POST /discovery/v1/assistant/{domain}/message` (AI SDK v4 data stream) and
//! `POST /discovery/v2/assistant/{domain}/message` (AI SDK v5+ UI message stream): one pipeline,
//! two encodings. Retrieval from the live index, then generation, streamed as it is produced.
//!
//! A v2 request with `"resumable": true` (and its chat `id`) hands generation to the chat's Durable
//! Object; then `GET …/message/{chatId}/stream` replays and follows it, and `POST
//! …/message/{chatId}/stop` ends it for every reader.

use docs_edge_core::assistant::encode::{AnswerEncoder, Protocol};
use docs_edge_core::assistant::request::{parse_v1, parse_v2, AssistantRequest};
use docs_edge_core::assistant::resume::{check_chat_id, resumable_chat};
use futures_channel::mpsc;
use worker::Response;

use crate::edge::answer::{prepare, send_bytes, Generation, PartSender};
use crate::edge::context::Call;
use crate::edge::durable::chat::{ChatClient, ChatKey, ReadReply};
use crate::edge::routes::discovery::{authorize, Caller};
use crate::edge::turnstile::HumanCheck;
use crate::shared::clock::now_ms;
use crate::shared::config::keep_alive_interval;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::{empty_response, json_response, read_json_object};

pub async fn message_v1(call: &mut Call) -> ApiResult<Response> {
    message(call, Protocol::DataStreamV1).await
}

pub async fn message_v2(call: &mut Call) -> ApiResult<Response> {
    message(call, Protocol::UiMessageStreamV2).await
}

async fn message(call: &mut Call, protocol: Protocol) -> ApiResult<Response> {
    let started_ms = now_ms();
    let caller = authorize(call).await?;
    let body = read_json_object(&mut call.req, call.config.max_json_body_bytes).await?;
    let (request, chat_id) = match protocol {
        Protocol::DataStreamV1 => (parse_v1(&body)?, None),
        Protocol::UiMessageStreamV2 => (parse_v2(&body)?, resumable_chat(&body)?),
    };
    let human = HumanCheck::from_request(&call.req);
    let (sender, receiver) = mpsc::unbounded();
    match chat_id {
        None => {
            let (job, backend) = prepare(
                &call.env,
                &caller.key.org_id,
                &caller.domain,
                request,
                started_ms,
                &call.request_id,
                Some(&human),
            )
            .await?;
            call.response_headers
                .push(("x-thread-id".into(), job.thread.thread_id.clone()));
            let answer = Generation::new(call.env.clone(), backend, job, protocol, sender);
            // wait_until keeps the isolate working on the answer for as long as the stream is read.
            call.ctx.wait_until(async move {
                answer.run().await;
            });
        }
        Some(chat_id) => {
            // The chat's object prepares and generates (from the body validated here); this request is
            // only its first reader.
            let key = ChatKey {
                org_id: caller.key.org_id,
                domain: caller.domain,
                chat_id,
            };
            let thread_id = ChatClient::new(&call.env, &key)
                .start(&body, started_ms, &call.request_id, human)
                .await?;
            call.response_headers
                .push(("x-thread-id".into(), thread_id));
            let first = ChatClient::new(&call.env, &key).read(0, 0).await?;
            follow_chat(call, key, first, sender);
        }
    }
    stream_response(receiver, protocol)
}

fn stream_response(
    receiver: crate::edge::answer::PartReceiver,
    protocol: Protocol,
) -> ApiResult<Response> {
    crate::shared::http::stream_response(Box::pin(receiver), protocol.headers())
}

/// `GET /discovery/v2/assistant/{domain}/message/{chatId}/stream` (`useChat({ resume: true })`):
/// the chat's running answer, or one that ended within the window, from its first byte and then
/// live; `204` when there is none.
pub async fn resume_v2(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let key = chat_key(call, caller)?;
    let first = ChatClient::new(&call.env, &key).read(0, 0).await?;
    if first.nothing {
        return Ok(empty_response(204));
    }
    call.response_headers
        .push(("x-thread-id".into(), first.thread_id.clone()));
    let (sender, receiver) = mpsc::unbounded();
    follow_chat(call, key, first, sender);
    stream_response(receiver, Protocol::UiMessageStreamV2)
}

/// `POST /discovery/v2/assistant/{domain}/message/{chatId}/stop`: ends the chat's running answer for
/// every reader (finish and `[DONE]`; the partial answer is recorded in the thread). `{"stopped":
/// false}` when nothing was running.
pub async fn stop_v2(call: &mut Call) -> ApiResult<Response> {
    let caller = authorize(call).await?;
    let key = chat_key(call, caller)?;
    let stopped = ChatClient::new(&call.env, &key).stop().await?;
    json_response(200, &serde_json::json!({ "stopped": stopped }))
}

fn chat_key(call: &Call, caller: Caller) -> ApiResult<ChatKey> {
    let chat_id = call.param(1).to_string();
    check_chat_id(&chat_id).map_err(|rule| ApiError::Invalid(format!("chatId: {rule}")))?;
    Ok(ChatKey {
        org_id: caller.key.org_id,
        domain: caller.domain,
        chat_id,
    })
}

/// Moves the chat's journal to this reader: `first`, then long-polls from where it ends until the
/// answer ends or the reader leaves. While nothing new arrives a keep-alive goes out.
fn follow_chat(call: &Call, key: ChatKey, first: ReadReply, sender: PartSender) {
    let env = call.env.clone();
    let wait_ms = keep_alive_interval(&env).as_millis() as u64;
    let keep_alive = AnswerEncoder::new(Protocol::UiMessageStreamV2, "", "").keep_alive();
    call.ctx.wait_until(async move {
        let mut reply = first;
        loop {
            let progressed = !reply.text.is_empty();
            if !send_bytes(&sender, std::mem::take(&mut reply.text)) {
                return;
            }
            if reply.ended {
                return;
            }
            if !progressed && !send_bytes(&sender, keep_alive.to_string()) {
                return;
            }
            reply = match ChatClient::new(&env, &key).read(reply.next, wait_ms).await {
                Ok(next) => next,
                Err(err) => {
                    crate::edge::answer::log_failure(
                        "",
                        &format!("chat journal unreadable: {err}"),
                    );
                    let end = AnswerEncoder::new(
                        Protocol::UiMessageStreamV2,
                        reply.message_id.clone(),
                        reply.thread_id.clone(),
                    )
                    .error("the answer stream was interrupted");
                    send_bytes(&sender, end);
                    return;
                }
            };
        }
    });
}

/// An answer, not streamed (the MCP `ask` tool): the same pipeline run to its end. Returns the text
/// and the `(title, url)` of its sources; a failed answer is an error (its detail is logged).
pub async fn answer_once(
    call: &Call,
    caller: Caller,
    request: AssistantRequest,
) -> ApiResult<(String, Vec<(String, String)>)> {
    let (job, backend) = prepare(
        &call.env,
        &caller.key.org_id,
        &caller.domain,
        request,
        now_ms(),
        &call.request_id,
        None,
    )
    .await?;
    // Nobody reads the stream, but it stays open: a dropped receiver means the client left.
    let (sender, _stream) = mpsc::unbounded();
    let answer = Generation::new(
        call.env.clone(),
        backend,
        job,
        Protocol::UiMessageStreamV2,
        sender,
    );
    let answer = answer
        .run()
        .await
        .ok_or_else(|| ApiError::Internal("the answer could not be completed".into()))?;
    Ok((
        answer.text,
        answer
            .sources
            .into_iter()
            .map(|s| (s.title, s.url))
            .collect(),
    ))
}
