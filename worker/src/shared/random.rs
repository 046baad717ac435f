//! Identifiers and secrets from the platform CSPRNG (`crypto.getRandomValues` through getrandom).

use docs_edge_core::security::signing::{key_from_random, to_hex, KEY_RANDOM_CHARS};
use docs_edge_core::wire::KeyKind;

use crate::shared::error::{ApiError, ApiResult};

pub fn random_bytes(len: usize) -> ApiResult<Vec<u8>> {
    let mut buf = vec![0u8; len];
    getrandom::fill(&mut buf).map_err(|e| ApiError::Internal(format!("csprng: {e}")))?;
    Ok(buf)
}

/// `prefix` followed by `bytes` random bytes in hex (e.g. `se_` + 8 bytes = `se_<16 hex>`).
pub fn random_id(prefix: &str, bytes: usize) -> ApiResult<String> {
    Ok(format!("{prefix}{}", to_hex(&random_bytes(bytes)?)))
}

/// Whether `id` has the shape [`random_id`] gives `prefix` and `bytes`.
pub fn is_random_id(id: &str, prefix: &str, bytes: usize) -> bool {
    id.strip_prefix(prefix).is_some_and(|hex| {
        hex.len() == bytes * 2 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

pub fn new_api_key(kind: KeyKind) -> ApiResult<String> {
    // Rejection sampling discards about 3% of bytes; four times the need never runs short in practice,
    // and a short run simply draws again.
    for _ in 0..4 {
        if let Some(key) = key_from_random(kind, &random_bytes(KEY_RANDOM_CHARS * 4)?) {
            return Ok(key);
        }
    }
    Err(ApiError::Internal("csprng produced no usable key".into()))
}
