//! The R2 bucket and every key in it: the one place a key is formatted. The layout's top-level
//! prefixes are core's (`docs_edge_core::platform::retention`), so the retention sweep parses what is made here.
//!
//! - `sites/{domain}/current.json` ([`current_key`]): the live version's pointer (`crate::shared::sites`).
//! - `sites/{domain}/{publishId}/{name}` ([`version_key`]): a published version's objects, `name`
//!   one of the `*_OBJECT` constants below: the upload as received, the whole search index (what an
//!   export ships to docs-edge-serve), the same index split so a query reads only its term shards
//!   and its hits' text blocks (`crate::edge::search_store`), and the agent documents (`crate::edge::agent_docs`).
//!   The upload's files are also kept unpacked: source packs ([`source_pack_key`]: in the site's
//!   store, or beside a version of an earlier release) and the file table ([`SOURCE_FILE_TABLE`])
//!   saying where each file sits (`docs_edge_core::docs::packed`), with each file's digest
//!   ([`SOURCE_DIGESTS`], what a re-publish's page keys take for the files it shares), the
//!   site outline ([`SITE_OUTLINE`], `docs_edge_core::docs::outline`): a reader that needs a few
//!   pages reads the outline and those pages' files, never the whole upload. A publish in progress
//!   keeps its intermediate objects under `build/` ([`build_object`]) and deletes them once live.
//! - `files/{domain}/{hash}` ([`site_file_key`]): a file of a site published file by file, stored
//!   once and shared by every version that lists it (`crate::builder::site_files`); likewise the publish's
//!   batch objects (`batch-{id}.{part}`) and source packs (`pack-{hash}`), which a version's
//!   `batches/index.bin` lists;
//!   `files/{domain}/sweep-{run}` ([`sweep_marker_key`]): a sweep judging the store (`crate::builder::sweep::file_stores`).
//! - `hosted/{domain}/{exportId}/{path}` ([`hosted_file_key`]): a hosted domain's site, one object per
//!   file of an export's bundle; `hosted/{domain}/live.json` ([`hosted_live_key`]): which export is
//!   served (`docs_edge_core::export::hosting::LiveSite`), written after its files.
//! - `exports/{jobId}/part-{n:05}.tgz` ([`part_key`]): an export job's rendered batches, each one
//!   gzip member of tar entries; `exports/{jobId}/bundle.tar.gz` ([`bundle_key`]): the bundle, their
//!   concatenation (`crate::shared::durable::export_job`).

use docs_edge_core::platform::retention::{
    EXPORTS_PREFIX, FILES_PREFIX, HOSTED_PREFIX, SITES_PREFIX,
};
use docs_edge_core::platform::store_sweep::MARKER_PREFIX;
use worker::{Bucket, Env, Range};

use crate::shared::config::R2_BINDING;
use crate::shared::error::{ApiError, ApiResult};

pub fn bucket(env: &Env) -> ApiResult<Bucket> {
    Ok(env.bucket(R2_BINDING)?)
}

/// R2 multipart parts must be equal-sized except the last, and at least 5 MiB: the upload, the
/// publish's concatenated packs and the export bundle are written in parts of this size.
pub const PART_BYTES: usize = 5 << 20;

/// The upload as received.
pub const SOURCE_OBJECT: &str = "source.tar.gz";
/// Beside a version from an earlier release: the publish that rebuilds it (`crate::edge::site_upgrade`).
pub const SITE_REBUILD: &str = "rebuild.json";
/// The split search index.
pub const SEARCH_META: &str = "search/meta.bin";
pub const SEARCH_TERMS: &str = "search/terms.bin";
pub const SEARCH_TEXT: &str = "search/text.bin";
/// The agent documents: `llms.txt`, `llms-full.txt` (every page as Markdown) and where each page
/// sits in it.
pub const LLMS_TXT: &str = "llms.txt";
pub const LLMS_FULL_TXT: &str = "llms-full.txt";
pub const MARKDOWN_MANIFEST: &str = "markdown-pages.txt";
/// The owner's root `skill.md` (`docs_edge_core::docs::skill_file`), when the version has one.
/// Beside it, when the version has skills, their discovery files under their site paths
/// (`.well-known/agent-skills/index.json`, `.well-known/skills/<name>/SKILL.md`, …:
/// `docs_edge_core::docs::public_skills::well_known_files`).
pub const SKILL_MD: &str = "skill.md";
/// Where each file of the upload sits in the source packs ([`docs_edge_core::docs::FileTable`]).
pub const SOURCE_FILE_TABLE: &str = "source/files.bin";
/// The SHA-256 of every source file (`docs_edge_core::publish::parsed::FileDigests`).
pub const SOURCE_DIGESTS: &str = "source/digests.bin";
/// The site without page bodies ([`docs_edge_core::docs::SiteOutline`]).
pub const SITE_OUTLINE: &str = "outline.bin";
/// The repository's instructions and skills for the assistant (`docs_edge_core::docs::assistant_files`),
/// as JSON: read by the assistant only, never served.
pub const ASSISTANT_GUIDE: &str = "assistant.json";

/// Source pack `index` of a version of an earlier release, beside it: about a MiB of the
/// upload's files, concatenated.
pub fn source_pack(index: u32) -> String {
    format!("source/pack-{index:05}.bin")
}

/// Where source pack `pack` of version `publish_id` (whose file table is `table`) is: in the site's
/// store under its name, or beside a version whose table names none.
pub fn source_pack_key(
    domain: &str,
    publish_id: &str,
    table: &docs_edge_core::docs::FileTable,
    pack: u32,
) -> String {
    match table.pack_object(pack) {
        Some(name) => site_file_key(domain, name),
        None => version_key(domain, publish_id, &source_pack(pack)),
    }
}

/// Media pack `index` of a version: small media files of the upload, concatenated; large ones are
/// objects of their own beside it (`docs_edge_core::publish::media_object`).
pub fn media_pack(index: u32) -> String {
    format!("media/pack-{index:05}.bin")
}

/// An intermediate object of a publish in progress (`part` names it: `plan.bin`, `batch-00003-text.bin`).
pub fn build_object(part: &str) -> String {
    format!("build/{part}")
}

/// A file of `domain`'s content-addressed store.
pub fn site_file_key(domain: &str, hash: &str) -> String {
    format!("{FILES_PREFIX}{domain}/{hash}")
}

/// The prefix of `domain`'s content-addressed store.
pub fn site_files_prefix(domain: &str) -> String {
    format!("{FILES_PREFIX}{domain}/")
}

/// The marker of sweep run `run` on `domain`'s store, while it judges the store
/// (`docs_edge_core::platform::store_sweep`).
pub fn sweep_marker_key(domain: &str, run: &str) -> String {
    format!("{FILES_PREFIX}{domain}/{MARKER_PREFIX}{run}")
}

/// The prefix of every sweep's marker on `domain`'s store.
pub fn sweep_markers_prefix(domain: &str) -> String {
    format!("{FILES_PREFIX}{domain}/{MARKER_PREFIX}")
}

pub fn current_key(domain: &str) -> String {
    format!("{SITES_PREFIX}{domain}/current.json")
}

/// The key of object `name` of a published version.
pub fn version_key(domain: &str, publish_id: &str, name: &str) -> String {
    format!("{SITES_PREFIX}{domain}/{publish_id}/{name}")
}

/// File `path` of export `export_id`, served for hosted `domain`.
pub fn hosted_file_key(domain: &str, export_id: &str, path: &str) -> String {
    format!("{HOSTED_PREFIX}{domain}/{export_id}/{path}")
}

/// The pointer naming the export `domain`'s site is served from.
pub fn hosted_live_key(domain: &str) -> String {
    format!("{HOSTED_PREFIX}{domain}/live.json")
}

pub fn part_key(job_id: &str, index: u32) -> String {
    format!("{EXPORTS_PREFIX}{job_id}/part-{index:05}.tgz")
}

/// What the finishing files take from the pages of batch `index` (part `index`) of an export job:
/// `docs_edge_core::export::BatchProducts`, stored beside the part.
pub fn products_key(job_id: &str, index: u32) -> String {
    format!("{EXPORTS_PREFIX}{job_id}/products-{index:05}.bin")
}

/// The delta listing entries of a hosted export's copy step that starts at part `first`.
pub fn delta_step_key(job_id: &str, first: u32) -> String {
    format!("{EXPORTS_PREFIX}{job_id}/delta-step-{first:05}.json")
}

/// The keys of a hosted export's batches of pages, for the next export to take those unchanged.
pub fn batches_key(job_id: &str) -> String {
    format!("{EXPORTS_PREFIX}{job_id}/batches.json")
}

/// The host whose hosted site serves export `job_id` (written before its pointer switches to it):
/// the sweep and the bundle call read its pointer to tell whether the export is still served.
pub fn export_host_key(job_id: &str) -> String {
    format!("{EXPORTS_PREFIX}{job_id}/_host")
}

pub fn bundle_key(job_id: &str) -> String {
    format!("{EXPORTS_PREFIX}{job_id}/bundle.tar.gz")
}

/// An object, or the given byte range of it; `None` when it does not exist.
pub async fn read(
    bucket: &Bucket,
    key: &str,
    range: Option<std::ops::Range<u64>>,
) -> ApiResult<Option<Vec<u8>>> {
    let mut get = bucket.get(key);
    if let Some(r) = range {
        get = get.range(Range::OffsetWithLength {
            offset: r.start,
            length: r.end - r.start,
        });
    }
    let Some(object) = get.execute().await? else {
        return Ok(None);
    };
    let body = object
        .body()
        .ok_or_else(|| ApiError::Internal(format!("{key} has no body")))?;
    Ok(Some(body.bytes().await?))
}
