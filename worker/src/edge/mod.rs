//! The request-serving script (`wrangler.toml`, the `edge` feature): the router and its routes, what
//! they answer with (search, the assistant, agent documents, hosted sites), the per-request context,
//! authentication, rate limits and the cron jobs. Nothing here is compiled into the builder script.

pub mod agent_docs;
pub mod answer;
pub mod answer_analytics;
pub mod app;
pub mod auth;
pub mod builder_client;
pub mod context;
pub mod cors;
pub mod durable;
pub mod generation;
pub mod hosted_site;
pub mod live;
pub mod ratelimit;
pub mod routes;
pub mod scheduled;
pub mod search_cache;
pub mod search_store;
pub mod site_upgrade;
pub mod turnstile;
