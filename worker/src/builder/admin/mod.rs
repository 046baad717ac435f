//! The admin routes the builder serves for the edge: the operator API (`orgs`) and the
//! analytics report and CSV (`reports`). They are rarely called and need code no reader's request
//! does (key minting, setting validation, report building, CSV writing), so they stay out of the
//! request-serving script, which checks the caller and forwards the request through the service
//! binding (`crate::builder::service`).
//! The builder matches the forwarded path against the same route table; any other route is 404.

mod call;
mod orgs;
mod reports;

use docs_edge_core::http::routes::{match_route, Route};
use worker::{Env, Request, Response};

use crate::shared::builder_orders::AdminOrder;
use crate::shared::error::{ApiError, ApiResult};
use call::AdminCall;

/// Runs the admin route that `path` (the original request's path) names.
pub async fn serve(
    path: &str,
    req: &mut Request,
    env: &Env,
    order: &AdminOrder,
) -> ApiResult<Response> {
    let method = req.method().to_string();
    let matched = match_route(&method, path).map_err(|_| ApiError::RouteNotFound)?;
    let route = matched.route;
    let mut call = AdminCall {
        req,
        env,
        order,
        matched,
    };
    match route {
        Route::CreateOrg => orgs::create_org(&mut call).await,
        Route::GetOrg => orgs::get_org(&mut call).await,
        Route::UpdateOrg => orgs::update_org(&mut call).await,
        Route::AddDomain => orgs::add_domain(&mut call).await,
        Route::RemoveDomain => orgs::remove_domain(&mut call).await,
        Route::CreateKey => orgs::create_key(&mut call).await,
        Route::ListKeys => orgs::list_keys(&mut call).await,
        Route::UpdateKey => orgs::update_key(&mut call).await,
        Route::RevokeKey => orgs::revoke_key(&mut call).await,
        Route::GetHosting => orgs::get_hosting(&mut call).await,
        Route::PutHosting => orgs::put_hosting(&mut call).await,
        Route::RollbackHosting => orgs::rollback_hosting(&mut call).await,
        Route::AnalyticsReport => reports::report(&mut call).await,
        Route::ConversationsCsv => reports::conversations_csv(&mut call).await,
        _ => Err(ApiError::RouteNotFound),
    }
}
