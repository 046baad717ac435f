//! Cloudflare Turnstile before an assistant answer (`docs_edge_core::security::turnstile` has the
//! rules): the widget's token, from the `x-turnstile-token` header, is verified with siteverify once
//! per conversation; the thread keeps the verdict (`ThreadRecord::human_verified`).

use docs_edge_core::security::turnstile::{
    read_verdict, siteverify_body, token_to_verify, Verdict, TOKEN_HEADER,
};
use serde::{Deserialize, Serialize};
use worker::{Env, Fetch, Headers, Request};

use crate::shared::config::turnstile;
use crate::shared::error::{ApiError, ApiResult};

/// What a widget's request brings to be verified: its token (if any) and the reader's address.
/// The MCP server's `ask` has none and is not checked: agents cannot solve a challenge.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HumanCheck {
    pub token: Option<String>,
    pub remote_ip: Option<String>,
}

impl HumanCheck {
    pub fn from_request(req: &Request) -> HumanCheck {
        HumanCheck {
            token: crate::shared::http::header(req, TOKEN_HEADER),
            remote_ip: crate::shared::http::header(req, "cf-connecting-ip"),
        }
    }
}

/// Whether the conversation counts as verified after this request: `thread_verified` when it was
/// already, else the token's verdict. Turnstile off: false, and nothing is asked. A missing or
/// failed token is `turnstile_failed`; siteverify unreachable is a 500.
pub async fn verify(env: &Env, check: &HumanCheck, thread_verified: bool) -> ApiResult<bool> {
    let Some((settings, secret)) = turnstile(env)? else {
        return Ok(false);
    };
    let token = token_to_verify(true, thread_verified, check.token.as_deref())
        .map_err(|refusal| ApiError::TurnstileFailed(refusal.message().into()))?;
    let Some(token) = token else { return Ok(true) };
    let body = siteverify_body(secret.expose(), token, check.remote_ip.as_deref());
    let request = crate::shared::http::json_post(&settings.siteverify_url, &Headers::new(), &body)?;
    let mut response = Fetch::Request(request)
        .send()
        .await
        .map_err(|e| ApiError::Internal(format!("turnstile siteverify unreachable: {e}")))?;
    let status = response.status_code();
    let bytes = response.bytes().await.unwrap_or_default();
    match read_verdict(status, &bytes) {
        Verdict::Passed => Ok(true),
        Verdict::Failed(codes) => {
            crate::shared::log_line::info(
                &serde_json::json!({ "event": "turnstile_failed", "errorCodes": codes }),
            );
            Err(ApiError::TurnstileFailed(
                "the Turnstile token was not accepted; get a new one and ask again".into(),
            ))
        }
    }
}
