//! The worker's one error type, and the one place it becomes an HTTP response.

use docs_edge_core::http::routes::RouteError;
use docs_edge_core::platform::deployment::Feature;
use docs_edge_core::wire::ErrorBody;
use worker::{Headers, Response};

/// Everything a request can fail with. Each variant fixes its status and machine code.
#[derive(Debug)]
#[non_exhaustive]
pub enum ApiError {
    /// No route matches the path.
    RouteNotFound,
    /// The route exists, not with this method; `allow` lists the methods it has.
    MethodNotAllowed {
        allow: String,
    },
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
    /// A manifest names files the site's store does not hold (their paths).
    MissingFiles(Vec<String>),
    /// An uploaded file's bytes do not have the hash it was uploaded under.
    HashMismatch(String),
    Unauthorized(String),
    WrongKeyKind(String),
    /// An assistant key used from a page whose origin its allowed origins do not list (the message).
    OriginNotAllowed(String),
    Conflict {
        code: &'static str,
        message: String,
    },
    /// Another export job of this domain is queued or running.
    JobActive {
        job_id: String,
    },
    /// The organization's plan does not include the feature.
    PlanRequired(String),
    /// A bundle link whose signature does not match what it grants.
    LinkInvalid,
    LinkExpired,
    /// A `Range` outside the object; `size` goes into `Content-Range: bytes */size`.
    RangeNotSatisfiable {
        size: u64,
    },
    /// An error answered by one of our Durable Objects, passed on as it was made there.
    Relayed {
        status: u16,
        body: ErrorBody,
        headers: Vec<(String, String)>,
    },
    RateLimited {
        message: String,
        retry_after_secs: u64,
        headers: Vec<(String, String)>,
    },
    /// The live version is from an earlier release and is being rebuilt (`crate::edge::site_upgrade`).
    SiteUpgrading {
        domain: String,
    },
    /// The storage sweep is judging the site's store; a commit waits for it, then answers this.
    StoreSweeping {
        domain: String,
    },
    /// The deployment switched the feature off (`DEPLOYMENT_KIND`, `FEATURE_*`).
    FeatureDisabled(Feature),
    /// Turnstile is on and the conversation brought no token that siteverify accepted (the message).
    TurnstileFailed(String),
    /// A fault of ours or of a binding: logged with its detail, answered without it.
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

/// Paths a `missing_files` answer lists at most (its message counts them all).
const MAX_MISSING_LISTED: usize = 1000;

/// A small site's rebuild takes a second or two, a large one's tens of seconds.
const SITE_UPGRADE_RETRY_SECS: u64 = 5;

/// A sweep judges one store for seconds; a commit has already waited 30 s for it.
const STORE_SWEEP_RETRY_SECS: u64 = 30;

impl ApiError {
    pub fn status(&self) -> u16 {
        match self {
            ApiError::RouteNotFound | ApiError::NotFound(_) | ApiError::FeatureDisabled(_) => 404,
            ApiError::MethodNotAllowed { .. } => 405,
            ApiError::UnsupportedMediaType(_) => 415,
            ApiError::PayloadTooLarge(_) => 413,
            ApiError::InvalidJson(_)
            | ApiError::Invalid(_)
            | ApiError::InvalidArchive(_)
            | ApiError::MissingFiles(_)
            | ApiError::HashMismatch(_) => 400,
            ApiError::Unauthorized(_) => 401,
            ApiError::WrongKeyKind(_)
            | ApiError::OriginNotAllowed(_)
            | ApiError::PlanRequired(_)
            | ApiError::LinkInvalid
            | ApiError::LinkExpired => 403,
            ApiError::TurnstileFailed(_) => 403,
            ApiError::Conflict { .. } | ApiError::JobActive { .. } => 409,
            ApiError::RangeNotSatisfiable { .. } => 416,
            ApiError::Relayed { status, .. } => *status,
            ApiError::RateLimited { .. } => 429,
            ApiError::Internal(_) => 500,
            ApiError::SiteUpgrading { .. } | ApiError::StoreSweeping { .. } => 503,
        }
    }

    pub fn code(&self) -> &str {
        match self {
            ApiError::RouteNotFound => "route_not_found",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::NotFound(_) => "not_found",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::PayloadTooLarge(_) => "payload_too_large",
            ApiError::InvalidJson(_) => "invalid_json",
            ApiError::Invalid(_) => "invalid_request",
            ApiError::InvalidArchive(_) => "invalid_archive",
            ApiError::MissingFiles(_) => "missing_files",
            ApiError::HashMismatch(_) => "hash_mismatch",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::WrongKeyKind(_) => "wrong_key_kind",
            ApiError::OriginNotAllowed(_) => "origin_not_allowed",
            ApiError::Conflict { code, .. } => code,
            ApiError::JobActive { .. } => "job_active",
            ApiError::PlanRequired(_) => "plan_required",
            ApiError::LinkInvalid => "link_invalid",
            ApiError::LinkExpired => "link_expired",
            ApiError::RangeNotSatisfiable { .. } => "range_not_satisfiable",
            ApiError::Relayed { body, .. } => &body.code,
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::FeatureDisabled(_) => "feature_disabled",
            ApiError::TurnstileFailed(_) => "turnstile_failed",
            ApiError::Internal(_) => "internal_error",
            ApiError::SiteUpgrading { .. } => "site_upgrading",
            ApiError::StoreSweeping { .. } => "store_sweeping",
        }
    }

    /// What the client reads. Internal details stay in the log.
    pub fn public_message(&self) -> String {
        match self {
            ApiError::RouteNotFound => "no such route".into(),
            ApiError::MethodNotAllowed { allow } => format!("method not allowed; allowed: {allow}"),
            ApiError::Internal(_) => "internal error".into(),
            ApiError::FeatureDisabled(feature) => {
                format!("{} is switched off in this deployment (see GET /v1/features)", feature.name())
            }
            ApiError::JobActive { job_id } => {
                format!("an export job for this domain is already queued or running: {job_id}")
            }
            ApiError::LinkInvalid => "this bundle link is not valid (its signature does not match)".into(),
            ApiError::SiteUpgrading { domain } => format!(
                "the live version of {domain} was published by an earlier release and is being rebuilt from its stored upload; try again in a few seconds"
            ),
            ApiError::StoreSweeping { domain } => format!("the daily storage sweep is cleaning the files of {domain}; commit again in a minute"),
            ApiError::LinkExpired => "this bundle link has expired; ask for a new one".into(),
            ApiError::RangeNotSatisfiable { size } => format!("the range is outside the bundle ({size} bytes)"),
            ApiError::Relayed { body, .. } => body.error.clone(),
            ApiError::PlanRequired(m) => m.clone(),
            ApiError::MissingFiles(paths) => format!(
                "{} file(s) of the manifest are not in the site's store (first: {}); upload them (PUT /v1/sites/{{domain}}/files/{{hash}}) and commit again",
                paths.len(),
                paths.first().map_or("", String::as_str)
            ),
            ApiError::HashMismatch(m) => m.clone(),
            ApiError::NotFound(m)
            | ApiError::UnsupportedMediaType(m)
            | ApiError::PayloadTooLarge(m)
            | ApiError::InvalidJson(m)
            | ApiError::Invalid(m)
            | ApiError::InvalidArchive(m)
            | ApiError::Unauthorized(m)
            | ApiError::WrongKeyKind(m)
            | ApiError::OriginNotAllowed(m)
            | ApiError::TurnstileFailed(m) => m.clone(),
            ApiError::Conflict { message, .. } | ApiError::RateLimited { message, .. } => message.clone(),
        }
    }

    /// Headers the status calls for (`Allow`, `WWW-Authenticate`, `Retry-After`, rate-limit state).
    pub fn headers(&self) -> Vec<(String, String)> {
        match self {
            ApiError::MethodNotAllowed { allow } => vec![("Allow".into(), allow.clone())],
            ApiError::Unauthorized(_) => vec![("WWW-Authenticate".into(), "Bearer".into())],
            ApiError::RangeNotSatisfiable { size } => {
                vec![("Content-Range".into(), format!("bytes */{size}"))]
            }
            ApiError::Relayed { headers, .. } => headers.clone(),
            ApiError::SiteUpgrading { .. } => {
                vec![("Retry-After".into(), SITE_UPGRADE_RETRY_SECS.to_string())]
            }
            ApiError::StoreSweeping { .. } => {
                vec![("Retry-After".into(), STORE_SWEEP_RETRY_SECS.to_string())]
            }
            ApiError::RateLimited {
                retry_after_secs,
                headers,
                ..
            } => {
                let mut all = headers.clone();
                all.push(("Retry-After".into(), retry_after_secs.to_string()));
                all
            }
            _ => Vec::new(),
        }
    }

    pub fn body(&self) -> ErrorBody {
        let job_id = match self {
            ApiError::JobActive { job_id } => Some(job_id.clone()),
            ApiError::Relayed { body, .. } => body.job_id.clone(),
            _ => None,
        };
        let missing = match self {
            ApiError::MissingFiles(paths) => {
                Some(paths.iter().take(MAX_MISSING_LISTED).cloned().collect())
            }
            ApiError::Relayed { body, .. } => body.missing.clone(),
            _ => None,
        };
        ErrorBody {
            error: self.public_message(),
            code: self.code().to_string(),
            job_id,
            missing,
        }
    }

    /// Detail for the log line; never holds request bodies or secrets, only our own messages.
    pub fn log_detail(&self) -> Option<&str> {
        match self {
            ApiError::Internal(detail) => Some(detail),
            _ => None,
        }
    }
}

/// The log form: the code and the detail (an internal error's own, never sent) or the public message.
/// Log lines use this, not `{:?}`: the worker is built with `-Zfmt-debug=shallow`, under which a
/// derived `Debug` prints only the variant's name.
impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.log_detail() {
            Some(detail) => write!(f, "{}: {detail}", self.code()),
            None => write!(f, "{}: {}", self.code(), self.public_message()),
        }
    }
}

/// The one place an error becomes HTTP: its status, its headers, `{"error", "code"}` as JSON (the
/// response `crate::shared::http::json_bytes_response` makes, built here so this module imports no other).
pub fn error_response(err: &ApiError) -> Response {
    let body = serde_json::to_vec(&err.body()).unwrap_or_default();
    let headers = Headers::new();
    let _ = headers.set("content-type", "application/json; charset=utf-8");
    for (name, value) in err.headers() {
        let _ = headers.set(&name, &value);
    }
    Response::builder()
        .with_status(err.status())
        .with_headers(headers)
        .fixed(body)
}

/// The route table's answer when nothing matches (`docs_edge_core::http::routes::match_route`).
impl From<RouteError> for ApiError {
    fn from(err: RouteError) -> Self {
        match err {
            RouteError::NotFound => ApiError::RouteNotFound,
            RouteError::MethodNotAllowed { allow } => ApiError::MethodNotAllowed { allow },
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

impl From<docs_edge_core::http::validate::FieldError> for ApiError {
    fn from(err: docs_edge_core::http::validate::FieldError) -> Self {
        ApiError::Invalid(err.to_string())
    }
}
