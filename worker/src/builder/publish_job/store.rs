//! A step's R2 I/O: reads and writes counted for the step's log line, media writes, and the writes
//! an unpack makes.

use crate::builder::multipart::PartWriter;
use crate::builder::publish_job::concat::Piece;
use crate::builder::publish_job::reuse::LiveParsed;
use crate::shared::clock::now_ms;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::join::try_join_all;
use crate::shared::memory::InMemoryBuild;
use crate::shared::storage::{
    media_pack, site_file_key, source_pack_key, version_key, ASSISTANT_GUIDE, LLMS_FULL_TXT,
    LLMS_TXT, MARKDOWN_MANIFEST, SEARCH_META, SEARCH_TEXT, SITE_OUTLINE, SKILL_MD,
};
use docs_edge_core::docs::archive::SourceTree;
use docs_edge_core::docs::packed::{pack_object_name, FileTable, SourcePack};
use docs_edge_core::docs::Site;
use docs_edge_core::publish::kept::{batch_part, BatchPart, KeptBatch};
use docs_edge_core::publish::parsed::{PageKey, Reused, PARSED_INDEX_OBJECT};
use docs_edge_core::publish::{self, Finished};
use futures_channel::oneshot;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;
use worker::{Bucket, Range};

/// How the unpack left a publish: staged (the plan next), or a small site, its packs by index and
/// its file table in hand, holding the isolate's in-memory slot until it is built.
pub(super) enum Unpacked {
    Staged,
    Small(BTreeMap<u32, Vec<u8>>, FileTable, Writes, InMemoryBuild),
}

/// Writes started in the background: a small site's packs go to R2 while its pages are parsed.
#[derive(Default)]
pub(super) struct Writes(Vec<oneshot::Receiver<worker::Result<()>>>);

impl Writes {
    pub(super) fn start(&mut self, store: &Store<'_>, name: &str, bytes: Vec<u8>) {
        self.start_at(store, store.key(name), bytes);
    }

    /// [`Writes::start`] of the object `key`, anywhere in the bucket.
    pub(super) fn start_at(&mut self, store: &Store<'_>, key: String, bytes: Vec<u8>) {
        store.traffic.wrote(bytes.len());
        let (done, handle) = oneshot::channel();
        let bucket = store.bucket.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let _ = done.send(bucket.put(key, bytes).execute().await.map(drop));
        });
        self.0.push(handle);
    }

    /// Waits for every write started (all of them, so none lands later); the first failure.
    pub(super) async fn finish(&mut self) -> ApiResult<()> {
        let mut outcome = Ok(());
        for handle in self.0.drain(..) {
            let written = match handle.await {
                Ok(written) => written.map_err(ApiError::from),
                Err(_) => Err(ApiError::Internal("a background write was dropped".into())),
            };
            outcome = outcome.and(written);
        }
        outcome
    }
}

/// The large media file being streamed into its own object, if any.
#[derive(Default)]
pub(super) struct MediaWrites<'a>(Option<PartWriter<'a>>);

impl<'a> MediaWrites<'a> {
    pub(super) fn start(&mut self, writer: PartWriter<'a>) {
        self.0 = Some(writer);
    }

    pub(super) async fn write(&mut self, bytes: &[u8]) -> ApiResult<()> {
        match &mut self.0 {
            Some(writer) => Ok(writer.write(bytes).await?),
            None => Err(ApiError::Internal("media data outside a media file".into())),
        }
    }

    pub(super) async fn finish(&mut self) -> ApiResult<u64> {
        match self.0.take() {
            Some(writer) => Ok(writer.finish().await?),
            None => Err(ApiError::Internal(
                "a media file ended that never began".into(),
            )),
        }
    }

    pub(super) async fn abort(&mut self) {
        if let Some(writer) = self.0.take() {
            writer.abort("publish_media").await;
        }
    }
}

/// Lets the writes started so far get going before a long computation holds the isolate: a
/// timer, not a resolved promise, so the runtime's event loop turns (sending their requests and
/// as much of their bodies as the connection takes), not only the microtask queue.
pub(super) async fn yield_now() {
    worker::Delay::from(Duration::ZERO).await;
}

/// R2 traffic of one step, and the milliseconds into it at which its phases ended, for its
/// `publish_step` log line.
#[derive(Default)]
pub(super) struct R2Traffic {
    pub(super) phases: RefCell<serde_json::Map<String, serde_json::Value>>,
    pub(super) reads: Cell<u32>,
    pub(super) read_bytes: Cell<u64>,
    pub(super) writes: Cell<u32>,
    pub(super) write_bytes: Cell<u64>,
    /// Pages taken from the live version's parsed pages rather than parsed.
    pub(super) reused_pages: Cell<u32>,
    /// Batches the step took whole from the live version.
    pub(super) taken_batches: Cell<u32>,
    /// Live source packs the step shared rather than copied.
    pub(super) shared_packs: Cell<u32>,
}

impl R2Traffic {
    pub(super) fn read(&self, bytes: usize) {
        self.reads.set(self.reads.get() + 1);
        self.read_bytes.set(self.read_bytes.get() + bytes as u64);
    }

    pub(super) fn wrote(&self, bytes: usize) {
        self.writes.set(self.writes.get() + 1);
        self.write_bytes.set(self.write_bytes.get() + bytes as u64);
    }
}

/// The objects of one version in R2.
pub(super) struct Store<'a> {
    pub(super) bucket: &'a Bucket,
    pub(super) domain: String,
    pub(super) publish_id: String,
    pub(super) traffic: R2Traffic,
    /// When the step began (ms since the epoch).
    pub(super) started: u64,
}

impl<'a> Store<'a> {
    pub(super) fn key(&self, name: &str) -> String {
        version_key(&self.domain, &self.publish_id, name)
    }

    /// Marks the end of the step's phase `name`.
    pub(super) fn phase(&self, name: &str) {
        self.traffic
            .phases
            .borrow_mut()
            .insert(name.into(), now_ms().saturating_sub(self.started).into());
    }

    /// Source pack `pack` of this version, whose file table is `table`.
    pub(super) fn pack_key(&self, table: &FileTable, pack: u32) -> String {
        source_pack_key(&self.domain, &self.publish_id, table, pack)
    }

    /// Part `part` of batch `stem`, in the site's store.
    pub(super) fn batch_key(&self, stem: &str, part: BatchPart) -> String {
        site_file_key(&self.domain, &batch_part(stem, part))
    }

    pub(super) async fn put(&self, name: &str, bytes: Vec<u8>) -> ApiResult<()> {
        self.put_at(self.key(name), bytes).await
    }

    pub(super) async fn put_at(&self, key: String, bytes: Vec<u8>) -> ApiResult<()> {
        self.traffic.wrote(bytes.len());
        self.bucket.put(key, bytes).execute().await?;
        Ok(())
    }

    /// Writes the objects (by key) at once.
    pub(super) async fn put_all(&self, objects: Vec<(String, Vec<u8>)>) -> ApiResult<()> {
        try_join_all(
            objects
                .into_iter()
                .map(|(key, bytes)| self.put_at(key, bytes)),
        )
        .await?;
        Ok(())
    }

    /// Stores what the unpack made: media packs and large media at once (a media object streamed a
    /// piece at a time), source packs through [`Store::put_packs`].
    pub(super) async fn put_stored(
        &self,
        stored: Vec<publish::Stored>,
        small: &mut Option<BTreeMap<u32, Vec<u8>>>,
        writes: &mut Writes,
        media: &mut MediaWrites<'a>,
    ) -> ApiResult<()> {
        let mut packs = Vec::new();
        for item in stored {
            match item {
                publish::Stored::Pack(pack) if pack.media => {
                    self.put(&media_pack(pack.index), pack.bytes).await?
                }
                publish::Stored::Pack(pack) => packs.push(pack),
                publish::Stored::ObjectStart { name, .. } => {
                    media.start(PartWriter::new(self.bucket, self.key(&name)))
                }
                publish::Stored::ObjectData(bytes) => media.write(&bytes).await?,
                publish::Stored::ObjectEnd => self.traffic.wrote(media.finish().await? as usize),
            }
        }
        if !packs.is_empty() {
            self.put_packs(packs, small, writes).await?;
        }
        Ok(())
    }

    /// Writes source packs, or keeps them in `small` while their total stays within
    /// [`publish::SMALL_SITE_BYTES`] (the unpack writes those once the upload is read: R2 would
    /// serve that read and these writes at once). Past the bound `small` becomes `None` for good,
    /// its packs written then, and every later one at once.
    pub(super) async fn put_packs(
        &self,
        packs: Vec<SourcePack>,
        small: &mut Option<BTreeMap<u32, Vec<u8>>>,
        writes: &mut Writes,
    ) -> ApiResult<()> {
        if let Some(held) = small {
            let bytes: u64 = held
                .values()
                .chain(packs.iter().map(|p| &p.bytes))
                .map(|b| b.len() as u64)
                .sum();
            if bytes <= publish::SMALL_SITE_BYTES {
                held.extend(packs.into_iter().map(|p| (p.index, p.bytes)));
                return Ok(());
            }
            for bytes in std::mem::take(held).into_values() {
                writes.start_at(
                    self,
                    site_file_key(&self.domain, &pack_object_name(&bytes)),
                    bytes,
                );
            }
            *small = None;
        }
        writes.finish().await?;
        try_join_all(packs.into_iter().map(|p| async move {
            self.put_at(site_file_key(&self.domain, &p.name), p.bytes)
                .await
        }))
        .await?;
        Ok(())
    }

    /// The finish step's objects: the search meta, the outline and `llms.txt` at once, with
    /// `writes` (any other writes still going), then the Markdown manifest (its presence says the
    /// agent documents are there). Returns the site.
    /// The parsed pages `live` kept for `keys`, counted as this step's reads.
    pub(super) async fn reused(&self, live: Option<&LiveParsed>, keys: &[PageKey]) -> Reused {
        let Some(live) = live else {
            return Reused::default();
        };
        let (reused, bytes) = live.reused(self.bucket, &self.domain, keys).await;
        if bytes > 0 {
            self.traffic.read(bytes);
        }
        reused
    }

    pub(super) async fn put_finished(
        &self,
        finished: Finished,
        mut writes: Writes,
    ) -> ApiResult<Site> {
        writes.start(self, SEARCH_META, finished.meta);
        writes.start(self, PARSED_INDEX_OBJECT, finished.parsed_index);
        writes.start(self, SITE_OUTLINE, finished.outline);
        writes.start(self, LLMS_TXT, finished.llms_txt.into_bytes());
        writes.start(self, ASSISTANT_GUIDE, finished.assistant);
        if let Some(skill) = finished.skill_md {
            writes.start(self, SKILL_MD, skill.into_bytes());
        }
        for (path, bytes) in finished.well_known {
            writes.start(self, &path, bytes);
        }
        writes.finish().await?;
        self.put(MARKDOWN_MANIFEST, finished.manifest.into_bytes())
            .await?;
        Ok(finished.site)
    }

    pub(super) async fn get(&self, name: &str) -> ApiResult<Vec<u8>> {
        self.get_at(&self.key(name)).await
    }

    pub(super) async fn get_at_owned(&self, key: String) -> ApiResult<Vec<u8>> {
        self.get_at(&key).await
    }

    pub(super) async fn get_at(&self, key: &str) -> ApiResult<Vec<u8>> {
        self.read(key, None).await
    }

    /// `length` bytes at `offset` of the object `key`.
    pub(super) async fn read_range(
        &self,
        key: &str,
        offset: u64,
        length: u64,
    ) -> ApiResult<Vec<u8>> {
        if length == 0 {
            return Ok(Vec::new());
        }
        self.read(key, Some(Range::OffsetWithLength { offset, length }))
            .await
    }

    /// The object `key`, or its `range` (counted as one read); an error naming `key` when the
    /// object is missing or has no body.
    async fn read(&self, key: &str, range: Option<Range>) -> ApiResult<Vec<u8>> {
        let mut get = self.bucket.get(key);
        if let Some(range) = range {
            get = get.range(range);
        }
        let object = get
            .execute()
            .await?
            .ok_or_else(|| ApiError::Internal(format!("{key} is missing")))?;
        let bytes = object
            .body()
            .ok_or_else(|| ApiError::Internal(format!("{key} has no body")))?
            .bytes()
            .await?;
        self.traffic.read(bytes.len());
        Ok(bytes)
    }

    /// The files `paths` of the upload, by ranged reads of their packs, each read's files taken out
    /// before the next (a batch whose pages are spread over many packs holds one pack at a time).
    pub(super) async fn files(
        &self,
        table: &FileTable,
        paths: &BTreeSet<String>,
    ) -> ApiResult<SourceTree> {
        let mut tree = SourceTree::new();
        for read in table.reads_for(paths) {
            let bytes = self
                .read_range(
                    &self.pack_key(table, read.pack),
                    u64::from(read.start),
                    u64::from(read.end - read.start),
                )
                .await?;
            tree.extend(table.tree_from(paths, &[(read, bytes)]));
        }
        Ok(tree)
    }

    /// Copies batch `kept`'s text and Markdown out of the packs of version `publish_id`, which keeps
    /// them whole, into its pieces in the site's store (what a version taking it refers to). Once
    /// per batch: the versions after it refer to the pieces.
    pub(super) async fn copy_pieces(&self, publish_id: &str, kept: &KeptBatch) -> ApiResult<()> {
        let copies = [
            (SEARCH_TEXT, kept.text, BatchPart::Text),
            (LLMS_FULL_TXT, kept.llms, BatchPart::Llms),
        ]
        .map(|(whole, (offset, len), part)| async move {
            if len == 0 {
                return Ok(());
            }
            let bytes = self
                .read_range(&version_key(&self.domain, publish_id, whole), offset, len)
                .await?;
            self.put_at(site_file_key(&self.domain, &kept.object(part)), bytes)
                .await
        });
        try_join_all(copies).await?;
        Ok(())
    }

    /// Writes `name` as the concatenation of `pieces` ([`crate::builder::publish_job::concat`]).
    pub(super) async fn concat(
        &self,
        name: &str,
        pieces: impl Iterator<Item = Piece>,
    ) -> ApiResult<()> {
        let pieces = Piece::joined(pieces);
        let size =
            crate::builder::publish_job::concat::concat(self.bucket, &self.key(name), &pieces)
                .await?;
        for piece in &pieces {
            self.traffic.read(piece.len as usize);
        }
        self.traffic.wrote(size as usize);
        Ok(())
    }
}

/// Deletes every object under `prefix`, a listing page at a time.
pub(super) async fn delete_prefix(bucket: &Bucket, prefix: &str) -> ApiResult<()> {
    loop {
        let listed = bucket
            .list()
            .prefix(prefix.to_owned())
            .limit(1000)
            .execute()
            .await?;
        let keys: Vec<String> = listed.objects().iter().map(|o| o.key()).collect();
        if keys.is_empty() {
            return Ok(());
        }
        bucket.delete_multiple(keys).await?;
        if !listed.truncated() {
            return Ok(());
        }
    }
}
