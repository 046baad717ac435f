//! [`AdminCall`], what every admin handler takes: apart from the dispatcher (`super`), which builds
//! it, so the handlers import nothing above them.

use docs_edge_core::http::routes::Matched;
use worker::{Env, Request};

use crate::shared::builder_orders::AdminOrder;

/// What a handler here gets: the forwarded request, the builder's bindings, the edge's order.
pub struct AdminCall<'a> {
    pub req: &'a mut Request,
    pub env: &'a Env,
    pub order: &'a AdminOrder,
    pub(super) matched: Matched,
}

impl AdminCall<'_> {
    pub fn param(&self, index: usize) -> &str {
        self.matched.param(index)
    }
}
