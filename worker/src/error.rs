//! The worker's one error type, and the one place it becomes an HTTP response.

use docs_edge_core::wire::ErrorBody;

/// Everything a request can fail with. Each variant fixes its status and machine code.
#[derive(Debug)]
#[non_exhaustive]
pub enum ApiError {
    /// No route matches the path.
    RouteNotFound,
    /// The route exists, not with this method; `allow` lists the methods it has.
    MethodNotAllowed { allow: String },
    /// A resource the caller may not see or that does not exist (no leak of which).
    NotFound(String),
    UnsupportedMediaType(String),
    PayloadTooLarge(String),
    /// The body is not JSON; the message says where parsing stopped.
    InvalidJson(String),
    /// A field breaks a rule; the message names the field path and the rule.
    Invalid(String),
    /// An uploaded archive is unsafe or unreadable.
    InvalidArchive(String),
    Unauthorized(String),
    WrongKeyKind(String),
    Conflict { code: &'static str, message: String },
    RateLimited { message: String, retry_after_secs: u64, headers: Vec<(String, String)> },
    /// A route that this build does not serve yet.
    NotImplemented,
    /// A fault of ours or of a binding: logged with its detail, answered without it.
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn status(&self) -> u16 {
        match self {
            ApiError::RouteNotFound | ApiError::NotFound(_) => 404,
            ApiError::MethodNotAllowed { .. } => 405,
            ApiError::UnsupportedMediaType(_) => 415,
            ApiError::PayloadTooLarge(_) => 413,
            ApiError::InvalidJson(_) | ApiError::Invalid(_) | ApiError::InvalidArchive(_) => 400,
            ApiError::Unauthorized(_) => 401,
            ApiError::WrongKeyKind(_) => 403,
            ApiError::Conflict { .. } => 409,
            ApiError::RateLimited { .. } => 429,
            ApiError::Internal(_) => 500,
            ApiError::NotImplemented => 501,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::RouteNotFound => "route_not_found",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::NotFound(_) => "not_found",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::PayloadTooLarge(_) => "payload_too_large",
            ApiError::InvalidJson(_) => "invalid_json",
            ApiError::Invalid(_) => "invalid_request",
            ApiError::InvalidArchive(_) => "invalid_archive",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::WrongKeyKind(_) => "wrong_key_kind",
            ApiError::Conflict { code, .. } => code,
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Internal(_) => "internal_error",
            ApiError::NotImplemented => "not_implemented",
        }
    }

    /// What the client reads. Internal details stay in the log.
    pub fn public_message(&self) -> String {
        match self {
            ApiError::RouteNotFound => "no such route".into(),
            ApiError::MethodNotAllowed { allow } => format!("method not allowed; allowed: {allow}"),
            ApiError::Internal(_) => "internal error".into(),
            ApiError::NotImplemented => "this endpoint is not available in this build yet".into(),
            ApiError::NotFound(m)
            | ApiError::UnsupportedMediaType(m)
            | ApiError::PayloadTooLarge(m)
            | ApiError::InvalidJson(m)
            | ApiError::Invalid(m)
            | ApiError::InvalidArchive(m)
            | ApiError::Unauthorized(m)
            | ApiError::WrongKeyKind(m) => m.clone(),
            ApiError::Conflict { message, .. } | ApiError::RateLimited { message, .. } => message.clone(),
        }
    }

    /// Headers the status calls for (`Allow`, `WWW-Authenticate`, `Retry-After`, rate-limit state).
    pub fn headers(&self) -> Vec<(String, String)> {
        match self {
            ApiError::MethodNotAllowed { allow } => vec![("Allow".into(), allow.clone())],
            ApiError::Unauthorized(_) => vec![("WWW-Authenticate".into(), "Bearer".into())],
            ApiError::RateLimited { retry_after_secs, headers, .. } => {
                let mut all = headers.clone();
                all.push(("Retry-After".into(), retry_after_secs.to_string()));
                all
            }
            _ => Vec::new(),
        }
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody { error: self.public_message(), code: self.code().to_string() }
    }

    /// Detail for the log line; never holds request bodies or secrets, only our own messages.
    pub fn log_detail(&self) -> Option<&str> {
        match self {
            ApiError::Internal(detail) => Some(detail),
            _ => None,
        }
    }
}

impl From<worker::Error> for ApiError {
    fn from(err: worker::Error) -> Self {
        ApiError::Internal(format!("worker: {err}"))
    }
}

impl From<worker::kv::KvError> for ApiError {
    fn from(err: worker::kv::KvError) -> Self {
        ApiError::Internal(format!("kv: {err}"))
    }
}

impl From<serde_json::Error> for ApiError {
    fn from(err: serde_json::Error) -> Self {
        ApiError::Internal(format!("json: {err}"))
    }
}

impl From<docs_edge_core::validate::FieldError> for ApiError {
    fn from(err: docs_edge_core::validate::FieldError) -> Self {
        ApiError::Invalid(err.to_string())
    }
}
