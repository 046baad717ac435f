//! The request-serving script's Durable Object classes (`wrangler.toml`), one module each with its
//! operations and typed client (`crate::shared::durable_client`): `AssistantChat` (an answer in flight,
//! resumable), `AssistantThread` (a conversation's record) and `ExportOrg` (an organization's export
//! jobs and publishes, admitted under its hourly limits).
//! The builder's objects are `crate::builder::publish_job` and `crate::builder::export_job`; their
//! messages and clients, which both scripts compile, are in `crate::shared::durable`.

pub mod chat;
pub mod export_org;
pub mod thread;
