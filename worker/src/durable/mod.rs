//! Durable Object classes, one module each, named as in wrangler.toml. Each declares its operations
//! once (`crate::durable_client::durable_operations!`: the enum its `fetch` dispatches on) and has a
//! typed client beside it, which is how the rest of the worker calls it.

pub mod export_job;
pub mod export_org;
pub mod publish_job;
mod json_storage;
pub mod thread;
pub mod chat;
