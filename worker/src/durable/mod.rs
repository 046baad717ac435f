//! Durable Object classes, one module each, named as in wrangler.toml.

pub mod export_job;
pub mod export_org;
pub mod thread;
pub mod chat;
