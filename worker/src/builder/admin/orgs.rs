//! The operator API under `/v1/admin`, the builder's half: organizations, their domains, API keys and
//! domains' hosting settings. The edge checked the operator token (`crate::edge::routes::admin`); request
//! bodies and their rules are core's `admin` and `export::hosting`.
//!
//! A stored hosting setting goes back to the edge as stored too, in [`HOSTING_STORED_HEADER`] (never
//! passed to the client): the edge starts the site's export with it, or forgets the site's pointer
//! (`crate::edge::routes::hosting`). Turning hosting off takes the site offline here (its pointer is
//! deleted; the exports' files stay).

use docs_edge_core::admin::{
    parse_add_domain, parse_create_key, parse_create_org, parse_update_key, parse_update_org,
    CreateKey, CreateOrg, UpdateKey, UpdateOrg,
};
use docs_edge_core::export::hosting::{parse_hosting, LiveSite};
use docs_edge_core::security::signing::{fingerprint_of_hash, key_fingerprint, sha256_hex};
use docs_edge_core::wire::{CreatedKey, KeyInfo, KeyKind};
use serde_json::Value;
use worker::Response;

use super::call::AdminCall;
use crate::shared::builder_orders::HOSTING_STORED_HEADER;
use crate::shared::clock::now_iso;
use crate::shared::directory::{
    new_key_id, new_org_id, new_org_record, Directory, KeyRecord, OrgRecord,
};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::{empty_response, json_response, read_json_object};
use crate::shared::random::new_api_key;
use crate::shared::storage::{self, hosted_live_key};

async fn operator_body(call: &mut AdminCall<'_>) -> ApiResult<Value> {
    read_json_object(call.req, call.order.max_json_body_bytes).await
}

pub async fn create_org(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let CreateOrg { name, plan } = parse_create_org(&operator_body(call).await?)?;
    let record = new_org_record(new_org_id()?, name, plan, now_iso());
    Directory::open(call.env)?.save_org(&record).await?;
    json_response(201, &record.org)
}

pub async fn get_org(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let record = Directory::open(call.env)?
        .require_org(call.param(0))
        .await?;
    json_response(200, &record.org)
}

pub async fn update_org(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let UpdateOrg { name, plan } = parse_update_org(&operator_body(call).await?)?;
    let directory = Directory::open(call.env)?;
    let mut record = directory.require_org(call.param(0)).await?;
    if let Some(name) = name {
        record.org.name = name;
    }
    if let Some(plan) = plan {
        record.org.plan = plan;
    }
    directory.save_org(&record).await?;
    json_response(200, &record.org)
}

pub async fn add_domain(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let domain = parse_add_domain(&operator_body(call).await?)?;
    let directory = Directory::open(call.env)?;
    let mut record = directory.require_org(call.param(0)).await?;
    match directory.domain_owner(&domain).await? {
        Some(owner) if owner == record.org.org_id => {}
        Some(_) => {
            return Err(ApiError::Conflict {
                code: "domain_taken",
                message: format!("domain {domain} already belongs to another organization"),
            })
        }
        None => directory.claim_domain(&domain, &record.org.org_id).await?,
    }
    if !record.org.domains.contains(&domain) {
        record.org.domains.push(domain.clone());
        directory.save_org(&record).await?;
    }
    json_response(
        201,
        &serde_json::json!({ "orgId": record.org.org_id, "domain": domain }),
    )
}

pub async fn remove_domain(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let (directory, mut record, domain) = org_domain(call).await?;
    record.org.domains.retain(|d| d != &domain);
    directory.save_org(&record).await?;
    if directory.domain_owner(&domain).await?.as_deref() == Some(record.org.org_id.as_str()) {
        directory.release_domain(&domain).await?;
        // The content stays with the organization that published it: offline now, swept later.
        crate::shared::sites::unpublish(&crate::shared::storage::bucket(call.env)?, &domain)
            .await?;
    }
    Ok(empty_response(204))
}

pub async fn create_key(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let CreateKey {
        kind,
        name,
        allowed_origins,
    } = parse_create_key(&operator_body(call).await?)?;
    let directory = Directory::open(call.env)?;
    let mut record = directory.require_org(call.param(0)).await?;

    let key = new_api_key(kind)?;
    let key_id = new_key_id()?;
    let created_at = now_iso();
    directory
        .store_key(
            &sha256_hex(key.as_bytes()),
            &KeyRecord {
                key_id: key_id.clone(),
                org_id: record.org.org_id.clone(),
                kind,
                allowed_origins: allowed_origins.clone(),
            },
        )
        .await?;
    record.keys.push(KeyInfo {
        key_id: key_id.clone(),
        kind,
        name: name.clone(),
        key_prefix: kind.prefix().to_string(),
        fingerprint: key_fingerprint(&key),
        created_at: created_at.clone(),
        last_used_at: None,
        allowed_origins: allowed_origins.clone(),
    });
    directory.save_org(&record).await?;
    json_response(
        201,
        &CreatedKey {
            key_id,
            kind,
            name,
            key,
            created_at,
            allowed_origins,
        },
    )
}

pub async fn list_keys(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let directory = Directory::open(call.env)?;
    let record = directory.require_org(call.param(0)).await?;
    let mut keys = Vec::with_capacity(record.keys.len());
    for key in record.keys {
        // Records from before fingerprints hold key characters in `keyPrefix`; `listed` drops them
        // and takes the fingerprint from the stored hash (one KV read, for those old records only).
        let hash = if fingerprint_of_hash(&key.fingerprint).is_none() {
            directory.key_hash(&key.key_id).await?
        } else {
            None
        };
        keys.push(key.listed(hash.as_deref()));
    }
    json_response(200, &serde_json::json!({ "keys": keys }))
}

/// Replaces an assistant key's allowed origins, in the record the key resolves to (what requests
/// are checked against) and in its organization's listing.
pub async fn update_key(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let UpdateKey { allowed_origins } = parse_update_key(&operator_body(call).await?)?;
    let directory = Directory::open(call.env)?;
    let key_id = call.param(0).to_string();
    let not_found = || ApiError::NotFound(format!("key {key_id} not found"));
    let hash = directory.key_hash(&key_id).await?.ok_or_else(not_found)?;
    let mut key = directory.key_by_hash(&hash).await?.ok_or_else(not_found)?;
    if key.kind != KeyKind::Assistant && !allowed_origins.is_empty() {
        return Err(ApiError::Invalid("allowedOrigins: only an assistant key takes allowed origins: an admin key never goes on a page".into()));
    }
    key.allowed_origins = allowed_origins.clone();
    directory.store_key(&hash, &key).await?;
    let mut record = directory.require_org(&key.org_id).await?;
    let info = record
        .keys
        .iter_mut()
        .find(|k| k.key_id == key_id)
        .ok_or_else(not_found)?;
    info.allowed_origins = allowed_origins;
    let listed = info.clone().listed(Some(hash.as_str()));
    directory.save_org(&record).await?;
    json_response(200, &listed)
}

pub async fn revoke_key(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let directory = Directory::open(call.env)?;
    let key_id = call.param(0).to_string();
    let removed = directory
        .remove_key(&key_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("key {key_id} not found")))?;
    if let Some(mut record) = directory.org(&removed.org_id).await? {
        record.keys.retain(|k| k.key_id != key_id);
        directory.save_org(&record).await?;
    }
    Ok(empty_response(204))
}

/// The organization's directory and record, and the path's domain, which must be one of its domains.
async fn org_domain(call: &AdminCall<'_>) -> ApiResult<(Directory, OrgRecord, String)> {
    let directory = Directory::open(call.env)?;
    let record = directory.require_org(call.param(0)).await?;
    let domain = call.param(1).to_ascii_lowercase();
    if !record.org.domains.contains(&domain) {
        return Err(ApiError::NotFound(format!(
            "domain {domain} not found in this organization"
        )));
    }
    Ok((directory, record, domain))
}

pub async fn get_hosting(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let (directory, _, domain) = org_domain(call).await?;
    let settings = directory.hosting(&domain).await?.unwrap_or_default();
    json_response(
        200,
        &serde_json::json!({ "domain": domain, "hosting": settings.to_json() }),
    )
}

pub async fn put_hosting(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let (directory, _, domain) = org_domain(call).await?;
    let body = read_json_object(call.req, call.order.max_json_body_bytes).await?;
    let settings = parse_hosting(&body, &domain)?;
    directory.save_hosting(&domain, &settings).await?;
    if !settings.enabled {
        storage::bucket(call.env)?
            .delete(hosted_live_key(&domain))
            .await?;
    }
    // `exportJob`: the edge puts the export it starts there.
    let view =
        serde_json::json!({ "domain": domain, "hosting": settings.to_json(), "exportJob": null });
    let mut response = json_response(200, &view)?;
    response.headers_mut().set(
        HOSTING_STORED_HEADER,
        &ascii_json(&serde_json::to_string(&settings)?),
    )?;
    Ok(response)
}

/// Switches the domain's hosted site back to the export it was served from before its last switch
/// (`crate::builder::hosted_pointer::roll_back`); a second rollback switches it forth again.
pub async fn rollback_hosting(call: &mut AdminCall<'_>) -> ApiResult<Response> {
    let (_, _, domain) = org_domain(call).await?;
    let bucket = storage::bucket(call.env)?;
    let live = crate::builder::hosted_pointer::roll_back(&bucket, &domain)
        .await?
        .ok_or_else(|| ApiError::Conflict {
            code: "no_previous_export",
            message: format!(
                "the site of {domain} has no previous export to roll back to: it is not live, or has been switched only once"
            ),
        })?;
    let export = |site: &LiveSite| serde_json::json!({ "exportId": site.export_id, "publishId": site.publish_id, "createdAt": site.created_at });
    json_response(
        200,
        &serde_json::json!({
            "domain": domain,
            "live": export(&live),
            "previous": live.previous.as_deref().map(export),
        }),
    )
}

/// `json` with every non-ASCII character escaped (`\uXXXX`, surrogate pairs beyond the BMP): a header
/// value is ASCII, and a version label may be any text.
fn ascii_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        let mut units = [0u16; 2];
        for unit in c.encode_utf16(&mut units) {
            out.push_str(&format!("\\u{unit:04x}"));
        }
    }
    out
}
