//! Pure logic of the docs edge service, exercised on the host by `cargo test`.
//!
//! One folder per concern, in roughly the order a request meets them:
//!
//! - `wire`: JSON shapes shared with the SDK (`wire::analytics` for the analytics API).
//! - `stream`: the assistant stream formats and provider server-sent events, on one line splitter.
//! - `http`: route table, request-body validation with field paths, the domain rule, byte ranges.
//! - `admin`: the operator API's request bodies (organizations, domains, keys).
//! - `security`: key hashes and signed links, S3 presigning, rate-limit arithmetic.
//! - `gzip`: gzip members around flate2's raw deflate (the bundle's encoder, the uploads' decoders).
//! - `docs`: a docs archive -> the site model.
//! - `text`: text -> terms, the one analyzer behind every match.
//! - `search`: index build and query (`search::api`: the discovery endpoints' request bodies).
//! - `assistant`: request rules, retrieval, answer composition, provider wire formats.
//! - `agents`: `llms.txt`, per-page Markdown and the MCP server.
//! - `export`: a site as a static HTML bundle (`export::api`: the export API's own rules).
//! - `analytics`: assistant feedback and web analytics rows and reports.
//! - `privacy`: what readers write, masked before anything stores it.
//! - `platform`: deployment kinds and feature switches, storage retention, the isolate's LRU cache.
//!
//! Without the `server` feature only `wire`, `stream` and `platform::lru` (std only) are built;
//! `wire` and `stream` are what the SDK needs.

pub mod platform;
pub mod sort;
pub mod stream;
pub mod wire;

#[cfg(feature = "server")]
pub mod admin;
#[cfg(feature = "server")]
pub mod agents;
#[cfg(feature = "server")]
pub mod analytics;
#[cfg(feature = "server")]
pub mod assistant;
#[cfg(feature = "server")]
pub mod docs;
#[cfg(feature = "server")]
pub mod export;
#[cfg(feature = "server")]
pub mod gzip;
#[cfg(feature = "server")]
pub mod http;
#[cfg(feature = "server")]
pub mod privacy;
#[cfg(feature = "server")]
pub mod publish;
#[cfg(feature = "server")]
pub mod search;
#[cfg(feature = "server")]
pub mod security;
#[cfg(feature = "server")]
pub mod text;

#[cfg(all(test, feature = "server"))]
mod fuzz;
