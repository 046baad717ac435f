//! The docs edge Worker: a thin layer binding `docs-edge-core` to HTTP, KV, R2 and Durable Objects.

use worker::{event, Context, Env, Request, Response, Result, ScheduleContext, ScheduledEvent};

mod agent_docs;
mod answer;
mod analytics_store;
mod answer_analytics;
mod app;
mod assets;
mod auth;
mod clock;
mod config;
mod context;
mod cors;
mod directory;
mod durable_client;
mod durable;
mod error;
mod export_search;
mod export_source;
mod exports;
mod generation;
mod http;
mod join;
mod log_line;
mod memory;
mod random;
mod ratelimit;
mod routes;
mod scheduled;
mod search_cache;
mod search_store;
mod site_upgrade;
mod sites;
mod storage;
mod upload;

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, ctx: Context) -> Result<Response> {
    Ok(app::handle(req, env, ctx).await)
}

/// Cron triggers (wrangler.toml `[triggers]`): every periodic job runs from here.
#[event(scheduled)]
async fn scheduled(event: ScheduledEvent, env: Env, _ctx: ScheduleContext) {
    scheduled::run(&event, &env).await;
}
