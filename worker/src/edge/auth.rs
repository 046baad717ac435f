//! Who is calling: the operator (ROOT_TOKEN, `/v1/admin` only) or an organization's API key.

use docs_edge_core::security::origins::{origin_allowed, MAX_ORIGIN_CHARS};
use docs_edge_core::security::signing::{constant_time_eq, is_well_formed_key, sha256_hex};
use docs_edge_core::wire::KeyKind;
use worker::{Env, Request};

use crate::shared::config;
use crate::shared::directory::{Directory, KeyRecord};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::header;

/// The token from `Authorization: Bearer <token>`; 401 when missing or not of that form.
fn bearer(req: &Request) -> ApiResult<String> {
    let value = header(req, "authorization").ok_or_else(|| {
        ApiError::Unauthorized(
            "missing Authorization header; send Authorization: Bearer <key>".into(),
        )
    })?;
    let mut parts = value.trim().splitn(2, ' ');
    let scheme = parts.next().unwrap_or("");
    let token = parts.next().unwrap_or("").trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() || token.contains(' ') {
        return Err(ApiError::Unauthorized(
            "malformed Authorization header; expected Bearer <key>".into(),
        ));
    }
    Ok(token.to_string())
}

/// The operator API takes only ROOT_TOKEN. Both sides are hashed first so the comparison leaks not
/// even the token's length.
pub fn require_operator(req: &Request, env: &Env) -> ApiResult<()> {
    let token = bearer(req)?;
    let Some(root) = config::root_token(env) else {
        return Err(ApiError::Unauthorized(
            "the operator API is disabled: ROOT_TOKEN is not set".into(),
        ));
    };
    let given = sha256_hex(token.as_bytes());
    let expected = sha256_hex(root.expose().as_bytes());
    if constant_time_eq(given.as_bytes(), expected.as_bytes()) {
        Ok(())
    } else {
        Err(ApiError::Unauthorized("invalid operator token".into()))
    }
}

/// An API key of `kind`: 401 when unknown or revoked, 403 `wrong_key_kind` for a real key of the
/// other kind.
pub async fn require_key(
    req: &Request,
    directory: &Directory,
    kind: KeyKind,
) -> ApiResult<KeyRecord> {
    let token = bearer(req)?;
    if !is_well_formed_key(&token) {
        return Err(ApiError::Unauthorized("invalid API key".into()));
    }
    // The stored hash is looked up by its own value; the lookup is the comparison.
    let record = directory
        .key_by_hash(&sha256_hex(token.as_bytes()))
        .await?
        .ok_or_else(|| ApiError::Unauthorized("unknown or revoked API key".into()))?;
    if record.kind != kind {
        let (got, needed) = match kind {
            KeyKind::Assistant => ("an admin key", "an assistant key (svc_dsc_…)"),
            KeyKind::Admin => ("an assistant key", "an admin key (svc_…)"),
        };
        return Err(ApiError::WrongKeyKind(format!(
            "this endpoint takes {needed}, not {got}"
        )));
    }
    Ok(record)
}

/// A browser's request (`Origin`) from a site the assistant key does not list: 403
/// `origin_not_allowed` naming it (`security::origins`). Without `Origin`, the caller is no page.
pub fn require_origin(req: &Request, key: &KeyRecord) -> ApiResult<()> {
    match header(req, "origin") {
        Some(origin) if !origin_allowed(&key.allowed_origins, &origin) => {
            let shown: String = origin.chars().take(MAX_ORIGIN_CHARS).collect();
            Err(ApiError::OriginNotAllowed(format!("this assistant key may not be used from {shown}: it is limited to the sites its owner listed")))
        }
        _ => Ok(()),
    }
}

/// The domain must belong to the key's organization; unknown and foreign domains are the same 404.
pub async fn require_domain(
    directory: &Directory,
    key: &KeyRecord,
    domain: &str,
) -> ApiResult<String> {
    let host = docs_edge_core::http::domain::validate_domain(domain)
        .map_err(|_| ApiError::NotFound("domain not found".into()))?;
    match directory.domain_owner(&host).await? {
        Some(owner) if owner == key.org_id => Ok(host),
        _ => Err(ApiError::NotFound(format!("domain {host} not found"))),
    }
}
