//! OpenAPI specs a site names by URL, fetched once per publish within their bounds.

use super::limits::{MAX_REMOTE_SPECS, MAX_REMOTE_SPEC_BYTES};
use super::step_error::StepResult;
use super::store::Store;
use crate::shared::config::JobSettings;
use crate::shared::error::ApiError;
use docs_edge_core::docs::endpoint::REMOTE_MANIFEST;
use docs_edge_core::docs::openapi_nav::unfetched_remote_specs;
use docs_edge_core::docs::packed::FileTable;
use docs_edge_core::docs::site::check_yaml_file;
use docs_edge_core::platform::deployment::publish_fetch_allowed;
use docs_edge_core::publish::manifest::file_hash;
use docs_edge_core::publish::{self, PublishError};
use futures_util::StreamExt;
use std::collections::{BTreeMap, BTreeSet};
use worker::Request;

/// Remote OpenAPI specs the navigation names and the upload lacks (a `.tar.gz` PUT, or publish-docs
/// with `--no-fetch`): fetched once, here, under the deployment's outbound rule
/// (`publish_fetch_allowed`), at most 10 MB each, and kept with the version in a source pack of
/// their own, mapped in `.docs-edge/remote.json` as publish-docs maps what it downloads. Each is a
/// warning either way. Exports never fetch: they read what the version kept.
pub(super) async fn fetch_remote_specs(
    store: &Store<'_>,
    settings: &JobSettings,
    table: &mut FileTable,
    small: &mut Option<BTreeMap<u32, Vec<u8>>>,
) -> StepResult<()> {
    let paths: BTreeSet<String> = publish::config_files(table).into_iter().collect();
    let config = match small {
        Some(packs) => table.tree_from_packs(packs, &paths),
        None => store.files(table, &paths).await?,
    };
    let urls = unfetched_remote_specs(&config);
    if urls.is_empty() {
        return Ok(());
    }
    let config_file = if config.contains_key("docs.json") {
        "docs.json"
    } else {
        "mint.json"
    };
    let mut remote: serde_json::Map<String, serde_json::Value> = config
        .get(REMOTE_MANIFEST)
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or_default();
    let (mut files, mut warnings) = (Vec::new(), Vec::new());
    for url in urls.iter().take(MAX_REMOTE_SPECS) {
        match fetch_spec(url, settings).await {
            Ok(bytes) => {
                store.traffic.read(bytes.len());
                let ext = if url.to_ascii_lowercase().split(['?', '#']).next().is_some_and(|p| p.ends_with(".yaml") || p.ends_with(".yml")) { ".yaml" } else { ".json" };
                let path = format!(".docs-edge/remote/{}{ext}", file_hash(&bytes));
                check_yaml_file(&path, &bytes).map_err(PublishError::from)?;
                warnings.push(format!("{config_file}: openapi spec {url} was not in the upload; fetched at publish time and kept with this version"));
                remote.insert(url.clone(), path.clone().into());
                files.push((path, bytes));
            }
            Err(why) => warnings.push(format!("{config_file}: openapi spec {url} was not in the upload and could not be fetched ({why}); its pages are left out")),
        }
    }
    if urls.len() > MAX_REMOTE_SPECS {
        warnings.push(format!("{config_file}: {} more remote specs were not fetched (at most {MAX_REMOTE_SPECS} a publish)", urls.len() - MAX_REMOTE_SPECS));
    }
    if !files.is_empty() {
        files.push((
            REMOTE_MANIFEST.to_owned(),
            serde_json::to_vec(&remote).map_err(ApiError::from)?,
        ));
    }
    if let Some(pack) = table.add_files(files, warnings) {
        match small {
            Some(packs) => drop(packs.insert(pack.index, pack.bytes)),
            None => {
                store
                    .put_at(store.pack_key(table, pack.index), pack.bytes)
                    .await?
            }
        }
    }
    Ok(())
}

/// One remote spec's bytes, or why not.
pub(super) async fn fetch_spec(
    url: &str,
    settings: &JobSettings,
) -> std::result::Result<Vec<u8>, String> {
    publish_fetch_allowed(
        settings.air_gapped,
        url,
        &settings.internal_hosts,
        settings.test.fetch_loopback_http,
    )?;
    let mut init = worker::RequestInit::new();
    // A redirect could lead to an address the rule above refuses: it is not followed (Workers
    // support only `follow` and `manual`), and a 3xx is a failure below.
    init.redirect = worker::RequestRedirect::Manual;
    let request = Request::new_with_init(url, &init).map_err(|e| e.to_string())?;
    let mut response = worker::Fetch::Request(request)
        .send()
        .await
        .map_err(|e| format!("unreachable: {e}"))?;
    match response.status_code() {
        200..=299 => {}
        status @ 300..=399 => return Err(format!("HTTP {status}: redirects are not followed")),
        status => return Err(format!("HTTP {status}")),
    }
    let mut stream = response.stream().map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| e.to_string())?;
        if bytes.len() + chunk.len() > MAX_REMOTE_SPEC_BYTES {
            return Err(format!("larger than {MAX_REMOTE_SPEC_BYTES} bytes"));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}
