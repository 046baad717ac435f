//! The builder script's own `fetch` handler, reached only through the request-serving script's
//! service binding (`crate::shared::config::BUILDER_BINDING`; its client is
//! `crate::edge::builder_client`, where the binding's calls are described): it dispatches on the path
//! (`crate::shared::builder_orders`) to the site's file store (`crate::builder::site_files`), the rebuild of a version from an earlier
//! release (`crate::builder::rebuild`), the admin routes' work (`crate::builder::admin`) and the
//! storage sweep (`crate::builder::sweep`).

/// The builder's `fetch` handler: only the paths `crate::shared::builder_orders` names, with the
/// order the edge sent; anything else is 404 (nothing but the edge can reach this handler).
// A build with both features (a check) exports the edge's `fetch`, not the builder's that calls this.
#[cfg_attr(feature = "edge", allow(dead_code))]
pub async fn serve(mut req: worker::Request, env: worker::Env) -> worker::Response {
    use crate::shared::builder_orders::{
        AdminOrder, FileOp, FileOrder, ADMIN_PREFIX, ORDER_HEADER, SWEEP_PATH,
    };
    use crate::shared::error::{error_response, ApiError};

    let path = req.path();
    let path = path.strip_prefix('/').unwrap_or(&path);
    let order = crate::shared::http::header(&req, ORDER_HEADER);
    let result = if path == SWEEP_PATH {
        crate::builder::sweep::serve(&mut req, &env).await
    } else if path == crate::shared::builder_orders::UPGRADE_PATH {
        crate::builder::rebuild::serve(&mut req, &env).await
    } else if let Some(route_path) = path.strip_prefix(ADMIN_PREFIX) {
        match order.map(|order| serde_json::from_str::<AdminOrder>(&order)) {
            Some(Ok(order)) => {
                crate::builder::admin::serve(&format!("/{route_path}"), &mut req, &env, &order)
                    .await
            }
            _ => Err(ApiError::Internal(format!("builder {path}: no order"))),
        }
    } else if let Some(op) = FileOp::from_path(path) {
        match order.map(|order| serde_json::from_str::<FileOrder>(&order)) {
            Some(Ok(order)) => crate::builder::site_files::serve(op, &mut req, &env, &order).await,
            _ => Err(ApiError::Internal(format!("builder {path}: no order"))),
        }
    } else {
        Err(ApiError::RouteNotFound)
    };
    result.unwrap_or_else(|err| {
        if let Some(detail) = err.log_detail() {
            crate::shared::log_line::error(
                &serde_json::json!({ "event": "builder_error", "path": path, "error": detail }),
            );
        }
        error_response(&err)
    })
}
