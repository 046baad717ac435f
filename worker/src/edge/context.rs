//! The per-request context every handler takes: [`Call`]. Made by `crate::edge::app`, read by `crate::edge::routes`;
//! it depends on neither.

use docs_edge_core::http::routes::Matched;
use worker::{Context, Env, Request};

use crate::shared::config::Config;

/// Everything a handler gets: one shape for all of them.
pub struct Call {
    pub req: Request,
    pub env: Env,
    pub ctx: Context,
    pub config: Config,
    pub matched: Matched,
    pub request_id: String,
    /// Headers to put on the response whatever its outcome (rate-limit state, thread id).
    pub response_headers: Vec<(String, String)>,
}

impl Call {
    pub fn param(&self, index: usize) -> &str {
        self.matched.param(index)
    }
}
