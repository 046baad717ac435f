//! The docs edge Worker: a thin layer binding `docs-edge-core` to HTTP, KV, R2 and Durable Objects.
//!
//! One crate, two Worker scripts, chosen by feature: `edge` (the default) serves every request and
//! runs the cron jobs (`wrangler.toml`); `builder` holds the Durable Objects that publish and export
//! sites (`PublishJob`, `ExportJob`; `wrangler.builder.toml`), which the edge script reaches through
//! their bindings, and, behind a service binding, the work on sites' file stores, the rebuilds of
//! versions from earlier releases, the admin routes' work and the storage sweep (`builder_service`).
//! Building sites needs the MDX parser, the index builder, the static
//! renderer, tar and deflate, none of which a request needs: kept apart, the request-serving module
//! stays small (faster isolate start-up) and a publish's memory never shares an isolate with search
//! caches or answers in flight.

// Each script uses part of the shared modules (a binding, a setting, an R2 key the other never
// touches); a build with both features checks that every item is used by one of them.
#![cfg_attr(not(all(feature = "edge", feature = "builder")), allow(dead_code))]

use worker::{event, Context, Env, Request, Response, Result};
#[cfg(feature = "edge")]
use worker::{ScheduleContext, ScheduledEvent};

// Used by both scripts.
mod analytics_store;
mod assets;
mod builder_orders;
mod builder_service;
mod clock;
mod config;
mod directory;
mod durable;
mod durable_client;
mod error;
mod exports;
mod http;
mod join;
mod log_line;
mod memory;
mod pieced;
mod random;
mod semantic_model;
mod site_upgrade;
mod sites;
mod storage;

// The request-serving script only.
#[cfg(feature = "edge")]
mod edge;

// The builder script only.
#[cfg(feature = "builder")]
mod builder;

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[cfg(feature = "edge")]
#[event(fetch)]
async fn fetch(req: Request, env: Env, ctx: Context) -> Result<Response> {
    Ok(edge::app::handle(req, env, ctx).await)
}

/// Cron triggers (wrangler.toml `[triggers]`): every periodic job runs from here.
#[cfg(feature = "edge")]
#[event(scheduled)]
async fn scheduled(event: ScheduledEvent, env: Env, _ctx: ScheduleContext) {
    edge::scheduled::run(&event, &env).await;
}

/// The builder script has no public URL: the request-serving script reaches this handler through its
/// service binding only (`builder_service`), and its objects through their Durable Object bindings.
#[cfg(all(feature = "builder", not(feature = "edge")))]
#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    Ok(builder_service::serve(req, env).await)
}
