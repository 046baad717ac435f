//! The service's HTTP surface, sans IO: what the worker checks of a request before any handler
//! logic runs, kept here so each rule is tested on the host.
//!
//! - [`routes`]: the route table (method, path pattern, feature gate), declared once and held to
//!   `worker/public/openapi.json` by a host test.
//! - [`validate`]: field-path validation of JSON request bodies (the 400 messages).
//! - [`domain`]: the docs site domain rule, for path parameters and request bodies alike.
//! - [`byte_range`]: `Range: bytes=...` on downloads.

pub mod byte_range;
pub mod domain;
pub mod routes;
pub mod validate;
