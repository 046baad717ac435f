//! `/v1/sites/{domain}`: publish a docs folder (`.tar.gz`) and read what is live. Admin keys only.

use docs_edge_core::docs::archive::read_docs_archive;
use docs_edge_core::docs::site::build_site;
use docs_edge_core::agents::llms;
use docs_edge_core::search::shard::ShardedIndex;
use docs_edge_core::search::SearchIndex;
use docs_edge_core::wire::{KeyKind, PublishedSite};
use worker::Response;

use crate::agent_docs;
use crate::context::Call;
use crate::auth::{require_domain, require_key};
use crate::clock::{now_iso, now_unix};
use crate::durable::export_org::{ExportOrgClient, PublishOrder};
use crate::directory::Directory;
use crate::error::{ApiError, ApiResult};
use crate::http::{json_response, read_body, require_content_type};
use crate::random::random_id;
use crate::sites::{self, IndexFormat, SiteVersion};
use crate::storage::{self, INDEX_OBJECT, SEARCH_META, SEARCH_TERMS, SEARCH_TEXT, SOURCE_OBJECT};

const ARCHIVE_TYPES: &[&str] = &["application/gzip", "application/x-gzip", "application/x-tar+gzip"];

fn published(domain: &str, version: &SiteVersion) -> PublishedSite {
    PublishedSite {
        domain: domain.to_string(),
        published_at: version.published_at.clone(),
        page_count: version.page_count,
        languages: version.languages.clone(),
        versions: version.versions.clone(),
        warnings: version.warnings.clone(),
    }
}

pub async fn publish(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    require_content_type(&call.req, ARCHIVE_TYPES, "a .tar.gz archive (Content-Type: application/gzip)")?;
    // Counted before the upload is read: every publish attempt unpacks and indexes a whole site.
    let order = PublishOrder { per_hour: call.config.publishes_per_hour, now_unix: now_unix() };
    ExportOrgClient::new(&call.env, &key.org_id).admit_publish(&order).await?;
    let upload = read_body(&mut call.req, call.config.max_upload_bytes).await?;

    let tree = read_docs_archive(&upload, &call.config.archive_limits()).map_err(|e| ApiError::InvalidArchive(e.to_string()))?;
    let site = build_site(&tree).map_err(|e| ApiError::InvalidArchive(e.to_string()))?;
    let agent_objects = agent_docs::objects(llms::agent_docs(&site, &tree, &domain));
    drop(tree);

    // Each object is stored as soon as it is made and then dropped, so the isolate never holds the
    // upload, the agent documents, the whole index and its split at once. Nothing is live until
    // the switch at the end.
    let bucket = storage::bucket(&call.env)?;
    let publish_id = random_id("pub_", 8)?;
    let source_bytes = upload.len() as u64;
    sites::store(&bucket, &domain, &publish_id, SOURCE_OBJECT, upload).await?;
    for (name, bytes) in agent_objects {
        sites::store(&bucket, &domain, &publish_id, name, bytes).await?;
    }
    let index = SearchIndex::build(&site.pages);
    let mut version = SiteVersion {
        publish_id,
        published_at: now_iso(),
        page_count: site.pages.len(),
        languages: site.languages.clone(),
        versions: site.versions.clone(),
        warnings: site.warnings.clone(),
        source_bytes,
        index_bytes: 0,
        org_id: Some(key.org_id.clone()),
        index_format: IndexFormat::Sharded,
    };
    drop(site);
    let whole = index.to_bytes();
    version.index_bytes = whole.len() as u64;
    sites::store(&bucket, &domain, &version.publish_id, INDEX_OBJECT, whole).await?;
    let split = ShardedIndex::build(&index).map_err(|e| ApiError::Internal(format!("splitting the index: {e}")))?;
    drop(index);
    for (name, bytes) in [(SEARCH_TERMS, split.terms), (SEARCH_TEXT, split.text), (SEARCH_META, split.meta)] {
        sites::store(&bucket, &domain, &version.publish_id, name, bytes).await?;
    }
    sites::switch_to(&bucket, &domain, &version).await?;
    json_response(200, &published(&domain, &version))
}

pub async fn get(call: &mut Call) -> ApiResult<Response> {
    let directory = Directory::open(&call.env)?;
    let key = require_key(&call.req, &directory, KeyKind::Admin).await?;
    let domain = require_domain(&directory, &key, call.param(0)).await?;
    let version = sites::current_version(&storage::bucket(&call.env)?, &domain, &key.org_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no docs are published for {domain}")))?;
    json_response(200, &published(&domain, &version))
}
