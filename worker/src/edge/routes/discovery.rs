//! What every `/discovery/` endpoint does first: an assistant key of the domain's organization, used
//! from a site it allows, then the
//! rate limits, whose headers go on the response whatever happens next.

use docs_edge_core::wire::KeyKind;

use crate::edge::auth::{require_domain, require_key, require_origin};
use crate::edge::context::Call;
use crate::edge::ratelimit;
use crate::shared::directory::{Directory, KeyRecord};
use crate::shared::error::ApiResult;

pub struct Caller {
    pub key: KeyRecord,
    pub domain: String,
}

pub async fn authorize(call: &mut Call) -> ApiResult<Caller> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Assistant).await?;
    require_origin(&call.req, &key)?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    let ip = ratelimit::client_ip(&call.req);
    let headers = ratelimit::check(&call.env, &call.ctx, &call.config, &key.org_id, &ip)?;
    call.response_headers.extend(headers);
    Ok(Caller { key, domain })
}
