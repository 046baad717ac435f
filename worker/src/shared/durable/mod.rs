//! Durable Object classes, one module each, named as in wrangler.toml. Each declares its operations
//! once (`crate::shared::durable_client::durable_operations!`: the enum its `fetch` dispatches on) and has a
//! typed client beside it, which is how the rest of the worker calls it. `PublishJob` and `ExportJob`
//! run in the builder script (`wrangler.builder.toml`): their modules keep the messages and the client
//! for both scripts, and the objects themselves are in `crate::builder` (`publish_job`, `export_job`).
//! `ExportOrg` is the request-serving script's, and the builder's `PublishJob` calls it too: its
//! messages and client are here as well (`export_org`). These messages are an interface between two
//! deployments: the builder is deployed first, so for a moment the previous request-serving script
//! talks to the new builder (and the new builder to the previous `ExportOrg`). A field added to a
//! message gets a serde default, and none is renamed or removed in one release.

pub mod export_job;
pub mod export_org;
pub mod json_storage;
pub mod publish_job;
