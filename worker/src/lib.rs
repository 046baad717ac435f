//! The docs edge Worker: a thin layer binding `docs-edge-core` to HTTP, KV, R2 and Durable Objects.
//!
//! One crate, two Worker scripts, chosen by feature: `edge` (the default) serves every request and
//! runs the cron jobs (`wrangler.toml`); `builder` holds the Durable Objects that publish and export
//! sites (`PublishJob`, `ExportJob`; `wrangler.builder.toml`), which the edge script reaches through
//! their bindings, and, behind a service binding, the work on sites' file stores, the rebuilds of
//! versions from earlier releases, the admin routes' work and the storage sweep (`builder::service`).
//! Building sites needs the MDX parser, the index builder, the static
//! renderer, tar and deflate, none of which a request needs: kept apart, the request-serving module
//! stays small (faster isolate start-up) and a publish's memory never shares an isolate with search
//! caches or answers in flight.
//!
//! The modules are split the same way: `edge/` (the request-serving script only), `builder/` (the
//! builder script only) and `shared/` (both), each folder under one `cfg`.

use worker::{event, Context, Env, Request, Response, Result};
#[cfg(feature = "edge")]
use worker::{ScheduleContext, ScheduledEvent};

// The request-serving script's modules, the builder's, and what both compile: one `cfg` per folder.
#[cfg(feature = "builder")]
mod builder;
#[cfg(feature = "edge")]
mod edge;
// Each script uses part of the shared modules (a binding, a setting, an R2 key the other never
// touches); a build with both features checks that every item is used by one of them. The
// script-only folders are checked in their own script's build.
#[cfg_attr(not(all(feature = "edge", feature = "builder")), allow(dead_code))]
mod shared;

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
/// service binding only (`edge::builder_client`), and its objects through their Durable Object bindings.
#[cfg(all(feature = "builder", not(feature = "edge")))]
#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    Ok(builder::service::serve(req, env).await)
}
