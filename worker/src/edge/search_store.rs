//! Search and page text of the live site through the split index (core's `search::shard`): a query
//! reads the site's meta, its terms' shards and its hits' text blocks, as ranged reads of the
//! version's packs in R2 (adjacent ones in one read, the reads concurrently), and the isolate keeps
//! what it read in one byte-bounded LRU cache (`SEARCH_CACHE_BYTES`) shared by every site it serves.
//! Before, each site's whole index was loaded and kept forever, which ran isolates out of memory.
//! A staged version's text pack is its batches' pieces (`crate::shared::pieced`), its table cached with the
//! meta.
//!
//! A version published before the split has only `index.bin`, which no request reads whole any
//! more: unless an earlier release split it on first use, its search and exports answer 409
//! `republish_required` (`crate::shared::sites::republish_required`).

use std::rc::Rc;

use crate::edge::live;
use crate::shared::join::join_all;
use docs_edge_core::publish::pieced::{Pieced, Pieces};
use docs_edge_core::search::shard::{
    hits, page_from_blocks, score, SearchMeta, TermShard, TextBlock,
};
use docs_edge_core::search::{Hit, IndexError, PageDoc, Query};
use worker::{Bucket, Env};

use crate::edge::search_cache::{self, Cached};
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::pieced::Stored;
use crate::shared::sites::{self, IndexFormat, SiteVersion};
use crate::shared::storage::{self, version_key, ASSISTANT_GUIDE, SEARCH_META, SEARCH_TERMS};
use docs_edge_core::docs::assistant_files::AssistantGuide;

fn corrupt(what: &str, domain: &str, err: IndexError) -> ApiError {
    ApiError::Internal(format!("search {what} of {domain}: {err}"))
}

/// The live site of a domain, ready to search.
pub struct SiteSearch {
    pub version: SiteVersion,
    domain: String,
    bucket: Bucket,
    meta: Rc<SearchMeta>,
    /// The text pack (the term pack is always whole).
    text: Stored,
    /// To read the semantic stage's model when a search asks for it (`Query::by_meaning`).
    env: Env,
}

/// The live version of `domain` for `org_id` and its search meta; 404 when nothing is published.
/// `cache_bytes` is the setting (`Config::search_cache_bytes`), applied to the isolate's cache.
pub async fn open(
    env: &Env,
    cache_bytes: usize,
    domain: &str,
    org_id: &str,
) -> ApiResult<SiteSearch> {
    search_cache::set_capacity(cache_bytes);
    let bucket = storage::bucket(env)?;
    let version = live::live_version(env, &bucket, domain, org_id).await?;
    let meta = load_meta(&bucket, domain, &version).await?;
    let table = if version.pieces {
        Some(load_pieces(&bucket, domain, &version).await?)
    } else {
        None
    };
    let text = Stored::of(domain, &version.publish_id, table, Pieced::Text);
    Ok(SiteSearch {
        env: env.clone(),
        version,
        domain: domain.to_string(),
        bucket,
        meta,
        text,
    })
}

impl SiteSearch {
    /// The live version's guide for the assistant, kept per isolate like the meta; none for a
    /// version published before guides were kept.
    pub async fn assistant_guide(&self) -> ApiResult<Rc<AssistantGuide>> {
        let key = format!("{}/{}/assistant", self.domain, self.version.publish_id);
        if let Some(guide) = search_cache::get::<AssistantGuide>(&key) {
            return Ok(guide);
        }
        let stored = storage::read(
            &self.bucket,
            &version_key(&self.domain, &self.version.publish_id, ASSISTANT_GUIDE),
            None,
        )
        .await?;
        let bytes = stored.as_ref().map_or(0, Vec::len);
        let guide = Rc::new(
            stored
                .map(|b| AssistantGuide::from_json(&b))
                .unwrap_or_default(),
        );
        search_cache::put(&key, guide.clone(), bytes);
        Ok(guide)
    }
}

/// The piece table of a version whose text pack is pieces.
async fn load_pieces(
    bucket: &Bucket,
    domain: &str,
    version: &SiteVersion,
) -> ApiResult<Rc<Pieces>> {
    let key = format!("{domain}/{}/pieces", version.publish_id);
    if let Some(table) = search_cache::get::<Pieces>(&key) {
        return Ok(table);
    }
    let table =
        Rc::new(crate::shared::pieced::required_table(bucket, domain, &version.publish_id).await?);
    search_cache::put(&key, table.clone(), table.heap_bytes());
    Ok(table)
}

async fn load_meta(
    bucket: &Bucket,
    domain: &str,
    version: &SiteVersion,
) -> ApiResult<Rc<SearchMeta>> {
    let key = format!("{domain}/{}/meta", version.publish_id);
    if let Some(meta) = search_cache::get::<SearchMeta>(&key) {
        return Ok(meta);
    }
    let stored = storage::read(
        bucket,
        &version_key(domain, &version.publish_id, SEARCH_META),
        None,
    )
    .await?
    .map(|bytes| SearchMeta::from_bytes(&bytes));
    let meta = match (stored, version.index_format) {
        (Some(Ok(meta)), _) => meta,
        // Older than the split, or split in a format this build does not read.
        (None, IndexFormat::Whole) | (Some(Err(IndexError::UnsupportedVersion(_))), _) => {
            return Err(sites::republish_required(
                domain,
                "has no split search index stored with it",
            ))
        }
        (None, IndexFormat::Sharded) => {
            return Err(ApiError::Internal(format!(
                "search meta of {domain} {} is missing",
                version.publish_id
            )))
        }
        (Some(Err(e)), _) => return Err(corrupt("meta", domain, e)),
    };
    let meta = Rc::new(meta);
    search_cache::put(&key, meta.clone(), meta.heap_bytes());
    Ok(meta)
}

/// 409 `republish_required` unless the version has the split index a static export copies into
/// its bundle.
pub async fn require_split(bucket: &Bucket, domain: &str, version: &SiteVersion) -> ApiResult<()> {
    if version.index_format == IndexFormat::Sharded
        || bucket
            .head(version_key(domain, &version.publish_id, SEARCH_META))
            .await?
            .is_some()
    {
        return Ok(());
    }
    Err(sites::republish_required(
        domain,
        "has no split search index stored with it",
    ))
}

/// Term shards or text blocks: which pack they are in, where, and how one loads.
#[derive(Clone, Copy)]
enum Kind {
    Shard,
    Block,
}

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Kind::Shard => "t",
            Kind::Block => "x",
        }
    }
    fn range(self, meta: &SearchMeta, id: u32) -> Option<std::ops::Range<u64>> {
        match self {
            Kind::Shard => meta.shard_range(id),
            Kind::Block => meta.block_range(id),
        }
    }
    /// The loaded part and the bytes to charge for it.
    fn load(self, bytes: &[u8], id: u32, meta: &SearchMeta) -> Result<(Cached, usize), IndexError> {
        Ok(match self {
            Kind::Shard => {
                let shard =
                    TermShard::from_bytes(bytes, id, meta.shard_count(), meta.chunk_count())?;
                let size = shard.heap_bytes();
                (Rc::new(shard), size)
            }
            Kind::Block => {
                let block = TextBlock::from_bytes(bytes, id, meta)?;
                let size = block.heap_bytes();
                (Rc::new(block), size)
            }
        })
    }
}

/// Parts of one kind as their type.
fn typed<T: 'static>(parts: Vec<Cached>) -> ApiResult<Vec<Rc<T>>> {
    parts
        .into_iter()
        .map(|p| {
            p.downcast::<T>()
                .map_err(|_| ApiError::Internal("search cache: wrong type".into()))
        })
        .collect()
}

impl SiteSearch {
    /// The hits of `q`, as the whole index would answer them.
    pub async fn search(&self, q: &Query<'_>) -> ApiResult<Vec<Hit>> {
        if q.limit == 0 {
            return Ok(Vec::new());
        }
        let current_version = q
            .current_version
            .or(self.version.default_version.as_deref());
        // The assistant's retrieval never asks, so its isolates need not hold the model.
        let model = match q.by_meaning && self.meta.has_vectors() {
            true => crate::shared::semantic_model::load(&self.env).await,
            false => None,
        };
        let vector = model.and_then(|m| m.embed(q.text));
        let q = &Query {
            current_version,
            semantic: vector.as_deref(),
            ..*q
        };
        let shards: Vec<Rc<TermShard>> = typed(
            self.parts(Kind::Shard, &self.meta.shards_for(q.text))
                .await?,
        )?;
        let shard_refs: Vec<&TermShard> = shards.iter().map(Rc::as_ref).collect();
        let ranked =
            score(&self.meta, &shard_refs, q).map_err(|e| corrupt("shards", &self.domain, e))?;
        drop(shards);
        let blocks: Vec<Rc<TextBlock>> = typed(
            self.parts(Kind::Block, &self.meta.blocks_for(&ranked))
                .await?,
        )?;
        let block_refs: Vec<&TextBlock> = blocks.iter().map(Rc::as_ref).collect();
        hits(&self.meta, &block_refs, &ranked).map_err(|e| corrupt("text", &self.domain, e))
    }

    /// The page at `path`; `None` when the site has no such page.
    pub async fn page(&self, path: &str) -> ApiResult<Option<PageDoc>> {
        let Some((page, ids)) = self.meta.page_blocks(path) else {
            return Ok(None);
        };
        let blocks: Vec<Rc<TextBlock>> = typed(self.parts(Kind::Block, &ids).await?)?;
        let refs: Vec<&TextBlock> = blocks.iter().map(Rc::as_ref).collect();
        page_from_blocks(&self.meta, page, &refs)
            .map(Some)
            .map_err(|e| corrupt("text", &self.domain, e))
    }

    /// Parts `ids` (ascending), from the cache or read: runs of adjacent missing ids are one ranged
    /// read each, and the reads run concurrently.
    async fn parts(&self, kind: Kind, ids: &[u32]) -> ApiResult<Vec<Cached>> {
        let key = |id: u32| {
            format!(
                "{}/{}/{}/{id}",
                self.domain,
                self.version.publish_id,
                kind.tag()
            )
        };
        let mut found: Vec<Option<Cached>> = ids
            .iter()
            .map(|&id| search_cache::get_raw(&key(id)))
            .collect();
        let mut runs: Vec<Vec<(usize, u32)>> = Vec::new();
        for (at, &id) in ids.iter().enumerate() {
            if found.get(at).is_some_and(Option::is_some) {
                continue;
            }
            match runs.last_mut() {
                Some(run) if run.last().is_some_and(|&(_, prev)| prev + 1 == id) => {
                    run.push((at, id))
                }
                _ => runs.push(vec![(at, id)]),
            }
        }
        let pack = match kind {
            Kind::Shard => Stored::Whole(version_key(
                &self.domain,
                &self.version.publish_id,
                SEARCH_TERMS,
            )),
            Kind::Block => self.text.clone(),
        };
        let reads = runs.iter().map(|run| self.read_run(kind, &pack, run));
        for loaded in join_all(reads).await {
            for (at, id, part, size) in loaded? {
                search_cache::put(&key(id), part.clone(), size);
                if let Some(slot) = found.get_mut(at) {
                    *slot = Some(part);
                }
            }
        }
        found
            .into_iter()
            .map(|p| {
                p.ok_or_else(|| {
                    ApiError::Internal(format!("search {} of {} not read", kind.tag(), self.domain))
                })
            })
            .collect()
    }

    /// One ranged read of adjacent parts, cut into the parts.
    async fn read_run(
        &self,
        kind: Kind,
        pack: &Stored,
        run: &[(usize, u32)],
    ) -> ApiResult<Vec<(usize, u32, Cached, usize)>> {
        let ranges: Vec<(usize, u32, std::ops::Range<u64>)> = run
            .iter()
            .map(|&(at, id)| {
                let r = kind.range(&self.meta, id).ok_or_else(|| {
                    ApiError::Internal(format!("search {} {id} out of range", kind.tag()))
                })?;
                Ok((at, id, r))
            })
            .collect::<ApiResult<_>>()?;
        let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else {
            return Ok(Vec::new());
        };
        let span = first.2.start..last.2.end;
        let bytes = pack
            .read(&self.bucket, span.clone())
            .await?
            .ok_or_else(|| {
                ApiError::Internal(format!(
                    "search {} of {} is missing",
                    kind.tag(),
                    self.domain
                ))
            })?;
        ranges
            .into_iter()
            .map(|(at, id, r)| {
                let slice = bytes
                    .get((r.start - span.start) as usize..(r.end - span.start) as usize)
                    .ok_or_else(|| ApiError::Internal(format!("search {}: range", kind.tag())))?;
                let (part, size) = kind
                    .load(slice, id, &self.meta)
                    .map_err(|e| corrupt(kind.tag(), &self.domain, e))?;
                Ok((at, id, part, size))
            })
            .collect()
    }
}
