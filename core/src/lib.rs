//! Pure logic of the docs edge service, exercised on the host by `cargo test`.
//!
//! Stages, in the order a request meets them:
//! `wire` (shapes shared with the SDK) -> `validate` (request rules with field paths)
//! -> `docs` (archive -> site model) -> `search` (index build and query)
//! -> `assistant` (retrieval answer and the two stream formats) -> `signing` (links, key hashes).
//! `export` renders a site as a static HTML bundle. `routes` is the service's route table (method,
//! pattern, feature gate), declared once and held to the OpenAPI document by a host test.
//!
//! Without the `server` feature only `wire` and the stream codecs are built, which is what the SDK needs.

pub mod wire;
pub mod stream;
pub mod wire_analytics;
pub mod lru;

#[cfg(feature = "server")]
pub mod validate;
#[cfg(feature = "server")]
pub mod docs;
#[cfg(feature = "server")]
pub mod text;
#[cfg(feature = "server")]
pub mod search;
#[cfg(feature = "server")]
pub mod assistant;
#[cfg(feature = "server")]
pub mod signing;
#[cfg(feature = "server")]
pub mod presign;
#[cfg(feature = "server")]
pub mod ratelimit;
#[cfg(feature = "server")]
pub mod domain;
#[cfg(feature = "server")]
pub mod export;
#[cfg(feature = "server")]
pub(crate) mod markdown;
#[cfg(feature = "server")]
pub mod llms;
#[cfg(feature = "server")]
pub mod mcp;

#[cfg(feature = "server")]
pub mod export_api;
#[cfg(feature = "server")]
pub mod byte_range;
#[cfg(feature = "server")]
pub mod deployment;
#[cfg(feature = "server")]
pub mod routes;
#[cfg(feature = "server")]
pub mod retention;
#[cfg(feature = "server")]
pub mod analytics;

#[cfg(all(test, feature = "server"))]
mod fuzz;
