//! The discovery API's failures ([`crate::discovery`], [`crate::answer`], [`crate::admin`]) and the
//! one place they become HTTP responses, in the worker's error shape; [`read_index`], the bundle's
//! index read on the blocking threads, its failures one of them.

use std::sync::Arc;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use docs_edge_core::platform::deployment::Feature;
use docs_edge_core::wire::ErrorBody;

use crate::search_packs::PackIndex;

/// The largest request body the discovery API reads.
pub(crate) const MAX_BODY_BYTES: usize = 1 << 20;

/// Every failure of the discovery API, mapped to HTTP in one place.
#[derive(Debug)]
pub enum DiscoveryError {
    Unauthorized,
    /// A page of a site `[assistant] allowed_origins` does not list (its origin, as sent).
    OriginNotAllowed(String),
    FeatureDisabled(Feature),
    NotFound(String),
    Invalid(String),
    TooLarge,
    /// No bundle yet, or one without the search index.
    Unavailable(&'static str),
    /// The bundle's index could not be read (logged, never sent).
    Internal(String),
    /// The database failed (logged, never sent).
    Storage(String),
    /// An admin route without a configured admin key.
    AdminUnauthorized,
}

impl IntoResponse for DiscoveryError {
    fn into_response(self) -> Response {
        let (status, code, error) = match self {
            Self::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized", "a valid assistant key is required (Authorization: Bearer …)".to_string()),
            Self::OriginNotAllowed(origin) => (
                StatusCode::FORBIDDEN,
                "origin_not_allowed",
                format!("the assistant keys of this server may not be used from {origin}: it is limited to its own pages and [assistant] allowed_origins"),
            ),
            Self::AdminUnauthorized => (StatusCode::UNAUTHORIZED, "unauthorized", "a valid admin key is required (Authorization: Bearer …)".to_string()),
            Self::FeatureDisabled(f) => (StatusCode::NOT_FOUND, "feature_disabled", format!("{} is switched off in this deployment", f.name())),
            Self::NotFound(message) => (StatusCode::NOT_FOUND, "not_found", message),
            Self::Invalid(message) => (StatusCode::BAD_REQUEST, "invalid_request", message),
            Self::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", format!("the body is larger than {MAX_BODY_BYTES} bytes")),
            Self::Unavailable(why) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable", why.to_string()),
            Self::Internal(detail) => {
                eprintln!("{}", serde_json::json!({"event": "search_failed", "error": detail}));
                (StatusCode::INTERNAL_SERVER_ERROR, "internal_error", "the bundle's search index could not be read".to_string())
            }
            Self::Storage(detail) => {
                eprintln!("{}", serde_json::json!({"event": "storage_failed", "error": detail}));
                (StatusCode::INTERNAL_SERVER_ERROR, "internal_error", "the server's storage failed".to_string())
            }
        };
        let mut res = (
            status,
            Json(ErrorBody {
                error,
                code: code.into(),
                job_id: None,
                missing: None,
            }),
        )
            .into_response();
        if status == StatusCode::UNAUTHORIZED {
            res.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        res
    }
}

/// `read` over the index on the blocking threads: it reads the pack files.
pub(crate) async fn read_index<T: Send + 'static>(
    index: Arc<PackIndex>,
    read: impl FnOnce(&PackIndex) -> Result<T, String> + Send + 'static,
) -> Result<T, DiscoveryError> {
    tokio::task::spawn_blocking(move || read(&index))
        .await
        .map_err(|e| DiscoveryError::Internal(e.to_string()))?
        .map_err(DiscoveryError::Internal)
}
