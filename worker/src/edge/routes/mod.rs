//! One module per endpoint family; each handler takes the [`crate::edge::context::Call`].

pub mod admin;
pub mod analytics;
pub mod assistant;
pub mod discovery;
pub mod export;
pub mod health;
pub mod hosting;
pub mod llms;
pub mod mcp;
pub mod openapi;
pub mod search;
pub mod site_files;
pub mod sites;
pub mod threads;
