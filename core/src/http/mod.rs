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
//! - [`request_url`]: the query, a query parameter, the origin and the host of a request's URL.
//! - [`site_paths`] and [`site_headers`]: a static site served from its exported bundle (which file a
//!   URL names; the headers every served file gets), shared by docs-edge-serve and the worker.

pub mod accept;
pub mod byte_range;
pub mod domain;
pub mod request_url;
pub mod routes;
pub mod site_headers;
pub mod site_paths;
pub mod validate;
