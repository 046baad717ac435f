//! The service's HTTP surface, sans IO: what the worker checks of a request before any handler
//! logic runs, kept here so each rule is tested on the host.
//!
//! - [`routes`]: the route table (method, path pattern, feature gate), declared once and held to
//!   `docs/openapi.json` by a host test.
//! - [`validate`]: the one vocabulary every request-body parser uses (field paths, rules: the 400
//!   messages); the parsers live with their endpoints' wire types.
//! - [`domain`]: the docs site domain rule, for path parameters and request bodies alike.
//! - [`byte_range`]: `Range: bytes=...` on downloads.
//! - [`accept`]: whether a page request prefers Markdown (`Accept: text/markdown`).

pub mod accept;
pub mod byte_range;
pub mod domain;
pub mod routes;
pub mod validate;
