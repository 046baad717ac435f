//! The bundle's search index, read the way the worker reads it (core's `search::shard`, the same
//! scorer, so the same hits): the meta in memory, term shards and text blocks read from the pack
//! files on demand (positioned reads) and kept in one LRU cache bounded by bytes
//! (`[assistant] search_cache_bytes`). What search holds is the meta plus that bound, whatever the
//! site's size. Bundles made before the packs carry the whole index (`search-index.bin`): it is
//! split on load into the same packs, holding the whole index once, as loading it did before.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex};

use docs_edge_core::export::{SEARCH_INDEX_FILE, SEARCH_PACK_FILES};
use docs_edge_core::platform::lru::ByteLru;
use docs_edge_core::search::semantic::embedded_model;
use docs_edge_core::search::shard::{
    hits, page_from_blocks, score, SearchMeta, ShardedIndex, TermShard, TextBlock,
};
use docs_edge_core::search::{Hit, PageDoc, Query, SearchIndex};
use serde::Serialize;

/// The split index of one unpacked bundle.
pub struct PackIndex {
    meta: SearchMeta,
    terms: File,
    text: File,
    cache: Mutex<ByteLru<Part>>,
}

/// A cached term shard or text block; shared, so one evicted while a query holds it lives until the
/// query ends.
#[derive(Clone)]
enum Part {
    Shard(Arc<TermShard>),
    Block(Arc<TextBlock>),
}

/// What search holds, for health and the figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchStats {
    pub meta_bytes: usize,
    pub cache_bytes: usize,
    pub cache_capacity: usize,
    pub cache_entries: usize,
}

impl std::fmt::Debug for PackIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PackIndex")
            .field("pages", &self.meta.page_count())
            .field("stats", &self.stats())
            .finish()
    }
}

/// Writes the packs of the whole index at `dir`/[`SEARCH_INDEX_FILE`] (a bundle made before the
/// packs) into `dir`, where [`PackIndex::open`] reads them.
pub fn split_whole_index(dir: &Path) -> Result<(), String> {
    let bytes = std::fs::read(dir.join(SEARCH_INDEX_FILE))
        .map_err(|e| format!("{SEARCH_INDEX_FILE}: {e}"))?;
    let index = SearchIndex::from_bytes(&bytes).map_err(|e| format!("{SEARCH_INDEX_FILE}: {e}"))?;
    drop(bytes);
    let ShardedIndex { meta, terms, text } =
        ShardedIndex::build(&index).map_err(|e| format!("{SEARCH_INDEX_FILE}: {e}"))?;
    drop(index);
    for (path, bytes) in SEARCH_PACK_FILES.iter().zip([meta, terms, text]) {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{path}: {e}"))?;
        }
        std::fs::write(&target, bytes).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}

impl PackIndex {
    /// The packs under `dir` ([`SEARCH_PACK_FILES`]), checked: the meta decodes, and each pack is as
    /// long as the meta says, so a truncated bundle is refused here rather than failing queries.
    pub fn open(dir: &Path, cache_bytes: usize) -> Result<PackIndex, String> {
        let [meta_path, terms_path, text_path] = SEARCH_PACK_FILES;
        let bytes = std::fs::read(dir.join(meta_path)).map_err(|e| format!("{meta_path}: {e}"))?;
        let meta = SearchMeta::from_bytes(&bytes).map_err(|e| format!("{meta_path}: {e}"))?;
        let open = |path: &str, expected: u64| -> Result<File, String> {
            let file = File::open(dir.join(path)).map_err(|e| format!("{path}: {e}"))?;
            let len = file.metadata().map_err(|e| format!("{path}: {e}"))?.len();
            if len != expected {
                return Err(format!("{path}: {len} bytes, the meta says {expected}"));
            }
            Ok(file)
        };
        let end = |last: Option<Range<u64>>| last.map_or(0, |r| r.end);
        let terms = open(
            terms_path,
            end(meta
                .shard_count()
                .checked_sub(1)
                .and_then(|id| meta.shard_range(id))),
        )?;
        let text = open(
            text_path,
            end(meta
                .block_count()
                .checked_sub(1)
                .and_then(|id| meta.block_range(id))),
        )?;
        Ok(PackIndex {
            meta,
            terms,
            text,
            cache: Mutex::new(ByteLru::new(cache_bytes)),
        })
    }

    /// The hits of `q`, as the whole index and the worker answer them.
    pub fn search(&self, q: &Query) -> Result<Vec<Hit>, String> {
        if q.limit == 0 {
            return Ok(Vec::new());
        }
        // The bundle's meta has chunk vectors when its publish had the semantic stage's model.
        let vector = (q.by_meaning && self.meta.has_vectors())
            .then(|| embedded_model().embed(q.text))
            .flatten();
        let q = &Query {
            semantic: vector.as_deref(),
            ..*q
        };
        let shards = self.shards(&self.meta.shards_for(q.text))?;
        let shard_refs: Vec<&TermShard> = shards.iter().map(Arc::as_ref).collect();
        let ranked = score(&self.meta, &shard_refs, q).map_err(|e| format!("term shards: {e}"))?;
        drop(shards);
        let blocks = self.blocks(&self.meta.blocks_for(&ranked))?;
        let block_refs: Vec<&TextBlock> = blocks.iter().map(Arc::as_ref).collect();
        hits(&self.meta, &block_refs, &ranked).map_err(|e| format!("text blocks: {e}"))
    }

    /// The page at `path`; `None` when the site has no such page.
    pub fn page(&self, path: &str) -> Result<Option<PageDoc>, String> {
        let Some((page, ids)) = self.meta.page_blocks(path) else {
            return Ok(None);
        };
        let blocks = self.blocks(&ids)?;
        let refs: Vec<&TextBlock> = blocks.iter().map(Arc::as_ref).collect();
        page_from_blocks(&self.meta, page, &refs)
            .map(Some)
            .map_err(|e| format!("text blocks: {e}"))
    }

    pub fn stats(&self) -> SearchStats {
        let cache = self
            .cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        SearchStats {
            meta_bytes: self.meta.heap_bytes(),
            cache_bytes: cache.bytes(),
            cache_capacity: cache.capacity(),
            cache_entries: cache.len(),
        }
    }

    fn shards(&self, ids: &[u32]) -> Result<Vec<Arc<TermShard>>, String> {
        self.parts(
            ids,
            "t",
            |id| self.read_shard(id),
            |part| match part {
                Part::Shard(shard) => Some(shard),
                Part::Block(_) => None,
            },
        )
    }

    fn blocks(&self, ids: &[u32]) -> Result<Vec<Arc<TextBlock>>, String> {
        self.parts(
            ids,
            "x",
            |id| self.read_block(id),
            |part| match part {
                Part::Block(block) => Some(block),
                Part::Shard(_) => None,
            },
        )
    }

    /// Parts `ids` of one kind (`tag` in their cache keys), each from the cache or `read`.
    fn parts<T>(
        &self,
        ids: &[u32],
        tag: &str,
        read: impl Fn(u32) -> Result<(Part, usize), String>,
        typed: impl Fn(Part) -> Option<Arc<T>>,
    ) -> Result<Vec<Arc<T>>, String> {
        ids.iter()
            .map(|&id| {
                typed(self.part(&format!("{tag}{id}"), || read(id))?)
                    .ok_or_else(|| format!("search cache: {tag}{id} of another kind"))
            })
            .collect()
    }

    /// The part under `key`, from the cache or read (outside the lock: a read does not hold up
    /// other queries' cache hits).
    fn part(
        &self,
        key: &str,
        read: impl FnOnce() -> Result<(Part, usize), String>,
    ) -> Result<Part, String> {
        if let Some(part) = self
            .cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(key)
        {
            return Ok(part);
        }
        let (part, bytes) = read()?;
        self.cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(key, part.clone(), bytes);
        Ok(part)
    }

    fn read_shard(&self, id: u32) -> Result<(Part, usize), String> {
        let range = self
            .meta
            .shard_range(id)
            .ok_or_else(|| format!("term shard {id}: out of range"))?;
        let bytes =
            read_at(&self.terms, range).map_err(|e| format!("{}: {e}", SEARCH_PACK_FILES[1]))?;
        let shard =
            TermShard::from_bytes(&bytes, id, self.meta.shard_count(), self.meta.chunk_count())
                .map_err(|e| format!("term shard {id}: {e}"))?;
        let size = shard.heap_bytes();
        Ok((Part::Shard(Arc::new(shard)), size))
    }

    fn read_block(&self, id: u32) -> Result<(Part, usize), String> {
        let range = self
            .meta
            .block_range(id)
            .ok_or_else(|| format!("text block {id}: out of range"))?;
        let bytes =
            read_at(&self.text, range).map_err(|e| format!("{}: {e}", SEARCH_PACK_FILES[2]))?;
        let block = TextBlock::from_bytes(&bytes, id, &self.meta)
            .map_err(|e| format!("text block {id}: {e}"))?;
        let size = block.heap_bytes();
        Ok((Part::Block(Arc::new(block)), size))
    }
}

/// Bytes `range` of `file`, without moving a shared cursor (queries read concurrently).
fn read_at(file: &File, range: Range<u64>) -> io::Result<Vec<u8>> {
    let len = usize::try_from(range.end.saturating_sub(range.start))
        .map_err(|_| io::Error::other("range too large"))?;
    let mut buf = vec![0; len];
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(&mut buf, range.start)?;
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let mut done = 0;
        while done < buf.len() {
            let n = file.seek_read(&mut buf[done..], range.start + done as u64)?;
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            done += n;
        }
    }
    Ok(buf)
}

#[cfg(test)]
#[path = "search_packs_tests.rs"]
mod tests;
