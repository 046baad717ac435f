//! The publish's steps: unpack, gather, plan, batches, merge and finish, each one resumable.

use super::job::{Loaded, PublishJob};
use super::limits::{
    GATHER_READS, LIVE_READS_AT_ONCE, PLAN_OBJECT, RECORDS_AT_ONCE, TAKE_AT_ONCE,
    UNPACK_SLICE_BYTES,
};
use super::live_sources::LiveSources;
use super::record::{groups_key, Record, Step};
use super::remote_specs::fetch_remote_specs;
use super::step_error::{StepError, StepResult};
use super::store::{delete_prefix, yield_now, MediaWrites, Store, Unpacked, Writes};
use crate::builder::publish_job::concat::Piece;
use crate::builder::publish_job::reuse::LiveParsed;
use crate::shared::config::JobSettings;
use crate::shared::error::ApiError;
use crate::shared::join::try_join_all;
use crate::shared::memory::InMemoryBuild;
use crate::shared::sites::{self, SiteVersion};
use crate::shared::storage::{
    self, build_object, site_file_key, version_key, LLMS_FULL_TXT, SEARCH_TERMS, SEARCH_TEXT,
    SOURCE_DIGESTS, SOURCE_FILE_TABLE, SOURCE_OBJECT,
};
use docs_edge_core::docs::archive::ArchiveLimits;
use docs_edge_core::docs::file_kind::is_source;
use docs_edge_core::docs::outline::SitePlan;
use docs_edge_core::docs::packed::{FileTable, PackWriter, Stored};
use docs_edge_core::docs::site::check_yaml_file;
use docs_edge_core::publish::kept::{
    batch_digest, batch_stem, BatchPart, KeptBatches, KEPT_BATCHES_OBJECT,
};
use docs_edge_core::publish::manifest::{Manifest, ManifestFile, MANIFEST_OBJECT};
use docs_edge_core::publish::parsed::{
    page_keys, page_keys_from_digests, parsed_object, FileDigests,
};
use docs_edge_core::publish::pieced::{Piece as BatchPieces, Pieces, PIECES_OBJECT};
use docs_edge_core::publish::{
    self, BatchInput, BatchRecord, BatchState, Finished, Finisher, Planned, PublishError,
    SourceWriter,
};
use docs_edge_core::search::shard::batched::{merge_group, ShardLayout};
use docs_edge_core::wire::PublishState;
use futures_util::future::try_join;
use futures_util::StreamExt;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

impl PublishJob {
    pub(super) async fn run_step(&self, store: &Store<'_>, record: &mut Record) -> StepResult<()> {
        let bucket = store.bucket;
        record.step = match record.step {
            Step::Upload | Step::Done => return Ok(()),
            // Begun by an older build (its batches' text beside its version): planned again, unless
            // its concatenations are done (then it finishes as a version stored whole).
            Step::Batch(_) | Step::Merge(_) | Step::Concat if !record.pieced => Step::Plan,
            Step::Unpack => match self.unpack(store, &record.settings, &record.org_id).await? {
                Unpacked::Staged => Step::Plan,
                Unpacked::Small(packs, table, writes, _slot) => {
                    record.version = Some(
                        self.build_small(store, record, &packs, &table, writes)
                            .await?,
                    );
                    Step::Switch
                }
            },
            Step::Plan => {
                let planned = self.plan(store).await?;
                record.page_count = planned.plan.pages().len() as u32;
                record.batches = planned.batches.iter().map(|r| (r.start, r.end)).collect();
                record.layout = Some(planned.layout);
                record.batch_state = BatchState::default();
                record.text_lens.clear();
                record.llms_lens.clear();
                record.batch_stems.clear();
                record.pieced = true;
                Step::Batch(0)
            }
            Step::Batch(b) => {
                let done = self.batch(store, record, b).await?;
                if b + done < record.batches.len() as u32 {
                    Step::Batch(b + done)
                } else {
                    Step::Merge(0)
                }
            }
            Step::Merge(g) => {
                let layout = record
                    .layout
                    .ok_or_else(|| ApiError::Internal("publish has no layout".into()))?;
                if g == 0 {
                    record.group_lens.clear();
                    record.shard_lens.clear();
                }
                self.merge(store, record, layout, g).await?;
                if g + 1 < layout.group_count() {
                    Step::Merge(g + 1)
                } else {
                    Step::Concat
                }
            }
            Step::Concat => {
                // The term groups, merged here, are concatenated; the text pack and `llms-full.txt`
                // are the batches' pieces in the site's store, which the table lists (nothing copied).
                let terms = record.group_lens.iter().enumerate().map(|(g, len)| Piece {
                    key: store.key(&build_object(&format!("terms-{g:05}.bin"))),
                    offset: 0,
                    len: *len,
                });
                let pieces = record
                    .batch_stems
                    .iter()
                    .zip(record.text_lens.iter().zip(&record.llms_lens));
                let table = Pieces::new(
                    pieces
                        .map(|(stem, (text, llms))| BatchPieces {
                            stem: stem.clone(),
                            text: *text,
                            llms: *llms,
                        })
                        .collect(),
                );
                try_join(
                    store.concat(SEARCH_TERMS, terms),
                    store.put(PIECES_OBJECT, table.to_bytes()),
                )
                .await?;
                Step::Finish
            }
            Step::Finish => {
                record.version = Some(self.finish(store, record).await?);
                Step::Switch
            }
            Step::Switch => {
                let version = record
                    .version
                    .clone()
                    .ok_or_else(|| ApiError::Internal("publish has no version".into()))?;
                // A preview's version is built but never switched: search, the assistant and the
                // hosted site keep the live one; its own export serves it at its hostname.
                if record.preview_host.is_none() {
                    sites::switch_to(bucket, &record.domain, &version).await?;
                }
                record.status = PublishState::Live;
                crate::shared::log_line::info(
                    &serde_json::json!({"event": "publish_live", "publishId": record.publish_id, "domain": record.domain, "pageCount": version.page_count}),
                );
                // In this step, so a hosted site follows every publish that goes live, read or not.
                super::site_export::start_after_publish(&self.env, record).await;
                Step::Cleanup
            }
            Step::Cleanup => {
                // Best effort: the retention sweep leaves the live version alone, build/ included.
                if let Err(err) = delete_prefix(
                    bucket,
                    &version_key(&record.domain, &record.publish_id, &build_object("")),
                )
                .await
                {
                    crate::shared::log_line::error(
                        &serde_json::json!({"event": "publish_cleanup_failed", "publishId": record.publish_id, "error": err.public_message()}),
                    );
                }
                *self.loaded.borrow_mut() = None;
                Step::Done
            }
        };
        Ok(())
    }

    /// Inflates the stored upload into source packs and the file table as it streams in; a small
    /// site's packs are also kept, to build it in this step, unless another publish in this isolate
    /// is building one ([`InMemoryBuild`]).
    pub(super) async fn unpack(
        &self,
        store: &Store<'_>,
        settings: &JobSettings,
        org_id: &str,
    ) -> StepResult<Unpacked> {
        let slot = InMemoryBuild::try_take();
        crate::shared::log_line::info(
            &serde_json::json!({"event": "publish_unpack", "publishId": store.publish_id, "inMemorySlot": slot.is_some()}),
        );
        let mut small = slot.as_ref().map(|_| BTreeMap::new());
        let mut writes = Writes::default();
        let unpacked = async {
            let (mut table, digests) = self
                .unpack_into(
                    store,
                    &settings.archive_limits(),
                    org_id,
                    &mut small,
                    &mut writes,
                )
                .await?;
            fetch_remote_specs(store, settings, &mut table, &mut small).await?;
            Ok::<_, StepError>((table, digests))
        };
        let (table, digests) = match unpacked.await {
            Ok(table) => table,
            Err(err) => {
                // Nothing may land after the failure's cleanup.
                let _ = writes.finish().await;
                return Err(err);
            }
        };
        match small {
            None => {
                // The digests stay with the version: batch keys without reading the batch's files,
                // and the next re-publish's for the files it shares.
                store
                    .put_all(vec![
                        (store.key(SOURCE_FILE_TABLE), table.to_bytes()),
                        (store.key(SOURCE_DIGESTS), digests.to_bytes()),
                    ])
                    .await?;
                Ok(Unpacked::Staged)
            }
            Some(packs) => {
                let slot = slot.ok_or_else(|| {
                    ApiError::Internal("small site without the in-memory slot".into())
                })?;
                for (index, bytes) in &packs {
                    writes.start_at(store, store.pack_key(&table, *index), bytes.clone());
                }
                writes.start(store, SOURCE_FILE_TABLE, table.to_bytes());
                yield_now().await;
                Ok(Unpacked::Small(packs, table, writes, slot))
            }
        }
    }

    pub(super) async fn unpack_into(
        &self,
        store: &Store<'_>,
        limits: &ArchiveLimits,
        record_org: &str,
        small: &mut Option<BTreeMap<u32, Vec<u8>>>,
        writes: &mut Writes,
    ) -> StepResult<(FileTable, FileDigests)> {
        if let Some(manifest) = store
            .bucket
            .get(store.key(MANIFEST_OBJECT))
            .execute()
            .await?
        {
            let bytes = manifest
                .body()
                .ok_or_else(|| ApiError::Internal("the manifest has no body".into()))?
                .bytes()
                .await?;
            store.traffic.read(bytes.len());
            let manifest = Manifest::from_bytes(&bytes)
                .map_err(|e| ApiError::Internal(format!("stored manifest: {e}")))?;
            return self
                .gather(store, limits, &manifest, record_org, small, writes)
                .await;
        }
        let mut writer = SourceWriter::new(limits);
        let mut media = MediaWrites::default();
        // One read, streamed: a chunk at a time is held, and its inflating overlaps the transfer.
        let object = store
            .bucket
            .get(store.key(SOURCE_OBJECT))
            .execute()
            .await?
            .ok_or_else(|| ApiError::Internal("the upload is missing".into()))?;
        let body = object
            .body()
            .ok_or_else(|| ApiError::Internal("the upload has no body".into()))?;
        let mut stream = body.stream()?;
        let mut read = 0;
        let outcome: StepResult<(FileTable, FileDigests)> = async {
            while let Some(chunk) = stream.next().await {
                let chunk = chunk?;
                read += chunk.len();
                // Small slices: a media file passes through as large as its slice inflates to.
                for slice in chunk.chunks(UNPACK_SLICE_BYTES) {
                    let stored = writer.push(slice)?;
                    store.put_stored(stored, small, writes, &mut media).await?;
                }
            }
            store.traffic.read(read);
            let (stored, table, digests) = writer.finish()?;
            store.put_stored(stored, small, writes, &mut media).await?;
            Ok((table, digests))
        }
        .await;
        if outcome.is_err() {
            media.abort().await;
        }
        outcome
    }

    /// A manifest's source files, read from the site's store a group at a time, into source packs;
    /// its media stay where they are, referred to by hash.
    /// Source files the live version (of this organization, published file by file) already holds
    /// under the same hash are not read one by one: a live pack in the site's store whose bytes the
    /// new version mostly uses is shared (the new table points into it, nothing is read or
    /// written, [`LiveSources::shared`]); the rest are copied from the live packs, a pack at a time.
    pub(super) async fn gather(
        &self,
        store: &Store<'_>,
        limits: &ArchiveLimits,
        manifest: &Manifest,
        org_id: &str,
        small: &mut Option<BTreeMap<u32, Vec<u8>>>,
        writes: &mut Writes,
    ) -> StepResult<(FileTable, FileDigests)> {
        manifest.check_limits(limits).map_err(PublishError::from)?;
        let mut writer = PackWriter::new();
        let mut digests = FileDigests::default();
        let (sources, media): (Vec<&ManifestFile>, Vec<&ManifestFile>) =
            manifest.files.iter().partition(|f| is_source(&f.path));
        for file in media {
            writer.add_stored(
                file.path.clone(),
                file.size,
                Stored::SiteFile(file.hash.clone()),
            );
        }
        // A site too large to build in memory writes its packs as they fill, so it may share live ones.
        if sources.iter().map(|f| f.size).sum::<u64>() > publish::SMALL_SITE_BYTES {
            *small = None;
        }
        let live = LiveSources::open(store, org_id).await?;
        let (mut reused, sources): (Vec<&ManifestFile>, Vec<&ManifestFile>) = sources
            .into_iter()
            .partition(|f| live.as_ref().is_some_and(|l| l.holds(&f.hash)));
        if let (Some(live), None) = (&live, &small) {
            reused = live
                .shared(store, reused, &mut writer, &mut digests)
                .await?;
        }
        store.phase("shared");
        if let Some(live) = &live {
            // Old path -> the new paths with its bytes; a few old packs' files held at a time.
            let mut wanted: BTreeMap<String, Vec<&str>> = BTreeMap::new();
            for file in &reused {
                if let Some(old) = live.by_hash.get(&file.hash) {
                    wanted.entry(old.clone()).or_default().push(&file.path);
                }
            }
            let old_paths: BTreeSet<String> = wanted.keys().cloned().collect();
            // A few live packs' reads at once (each about a megabyte), their files added in order.
            for group in live.table.reads_for(&old_paths).chunks(LIVE_READS_AT_ONCE) {
                let trees = try_join_all(
                    group
                        .iter()
                        .map(|read| live.pack_files(store, *read, &old_paths)),
                )
                .await?;
                for (old, bytes) in trees.iter().flatten() {
                    for path in wanted.get(old).into_iter().flatten() {
                        digests.add(path, bytes);
                        // Stored as each fills: one old file may stand at many new paths.
                        if let Some(pack) = writer.add((*path).to_owned(), bytes) {
                            store.put_packs(vec![pack], small, writes).await?;
                        }
                    }
                }
            }
        }
        for group in sources.chunks(GATHER_READS) {
            let reads = group.iter().map(|file| async move {
                let key = site_file_key(&store.domain, &file.hash);
                storage::read(store.bucket, &key, None)
                    .await?
                    .ok_or_else(|| {
                        ApiError::Internal(format!(
                            "{} ({}) left the site's store",
                            file.path, file.hash
                        ))
                    })
            });
            let fetched = try_join_all(reads).await?;
            let mut packs = Vec::new();
            for (file, bytes) in group.iter().zip(fetched) {
                store.traffic.read(bytes.len());
                check_yaml_file(&file.path, &bytes).map_err(PublishError::from)?;
                digests.add(&file.path, &bytes);
                packs.extend(writer.add(file.path.clone(), &bytes));
            }
            store.put_packs(packs, small, writes).await?;
        }
        let (last, table) = writer.finish().map_err(PublishError::from)?;
        store.put_packs(last, small, writes).await?;
        Ok((table, digests))
    }

    /// Every step after the unpack of a small site, in memory; only the final objects are written,
    /// each started as soon as it is made. `writes`: the packs' and the table's, still going.
    pub(super) async fn build_small(
        &self,
        store: &Store<'_>,
        record: &mut Record,
        packs: &BTreeMap<u32, Vec<u8>>,
        table: &FileTable,
        mut writes: Writes,
    ) -> StepResult<SiteVersion> {
        store.phase("unpack");
        let (finished, index_bytes) = match self
            .build_small_writing(store, record, packs, table, &mut writes)
            .await
        {
            Ok(built) => built,
            Err(err) => {
                // Every write started lands before the step ends (the failed publish then deletes them all).
                let _ = writes.finish().await;
                return Err(err);
            }
        };
        // Its batches stay beside it (none for a re-publish to take); its packs are in the store.
        writes.start(
            store,
            KEPT_BATCHES_OBJECT,
            KeptBatches::new(Vec::new())
                .with_packs(table.pack_objects().to_vec())
                .to_bytes(),
        );
        let site = store.put_finished(finished, writes).await?;
        store.phase("written");
        Ok(record.version_of(site, index_bytes, false))
    }

    /// [`Self::build_small`]'s build: starts the writes of the final objects but the finish step's;
    /// returns those and the index bytes.
    pub(super) async fn build_small_writing(
        &self,
        store: &Store<'_>,
        record: &mut Record,
        packs: &BTreeMap<u32, Vec<u8>>,
        table: &FileTable,
        writes: &mut Writes,
    ) -> StepResult<(Finished, u64)> {
        let small = publish::plan_small_site(packs, table, &record.domain)?;
        let live = LiveParsed::open(store.bucket, &store.domain, &record.org_id).await;
        let reused = store.reused(live.as_ref(), small.keys()).await;
        drop(live);
        store.phase("read");
        let model = crate::shared::semantic_model::load(&self.env).await;
        let parsed =
            publish::parse_small_site(small, packs, table, &record.domain, &reused, model)?;
        drop(reused);
        store.traffic.reused_pages.set(parsed.reused_pages);
        store.phase("parse");
        for (b, bytes) in parsed.parsed.into_iter().enumerate() {
            writes.start(store, &parsed_object(b as u32), bytes);
        }
        self.injected_fault(record)?;
        let text_bytes = parsed.text.len() as u64;
        writes.start(store, SEARCH_TEXT, parsed.text);
        writes.start(store, LLMS_FULL_TXT, parsed.llms_full);
        yield_now().await;
        let built = parsed.rest.finish(&record.domain)?;
        store.phase("merge");
        record.page_count = built.finished.site.pages.len() as u32;
        record.layout = Some(built.layout);
        let index_bytes = (built.finished.meta.len() + built.terms.len()) as u64 + text_bytes;
        writes.start(store, SEARCH_TERMS, built.terms);
        Ok((built.finished, index_bytes))
    }

    pub(super) async fn plan(&self, store: &Store<'_>) -> StepResult<Planned> {
        let table = FileTable::from_bytes(&store.get(SOURCE_FILE_TABLE).await?)
            .map_err(PublishError::from)?;
        let config: BTreeSet<String> = publish::config_files(&table).into_iter().collect();
        let tree = store.files(&table, &config).await?;
        let planned = publish::plan(&tree, &table)?;
        store
            .put(&build_object(PLAN_OBJECT), planned.plan.to_bytes())
            .await?;
        *self.loaded.borrow_mut() = None;
        Ok(planned)
    }

    pub(super) async fn load(&self, store: &Store<'_>, org_id: &str) -> StepResult<Rc<Loaded>> {
        if let Some(loaded) = self.loaded.borrow().as_ref() {
            if loaded.publish_id == store.publish_id.as_str() {
                return Ok(loaded.clone());
            }
        }
        let table = FileTable::from_bytes(&store.get(SOURCE_FILE_TABLE).await?)
            .map_err(PublishError::from)?;
        let plan = SitePlan::from_bytes(&store.get(&build_object(PLAN_OBJECT)).await?)
            .map_err(PublishError::from)?;
        let live_parsed = LiveParsed::open(store.bucket, &store.domain, org_id).await;
        // Absent (a publish begun by an older build): batches read their files for their keys.
        let digests = match storage::read(store.bucket, &store.key(SOURCE_DIGESTS), None).await? {
            Some(bytes) => FileDigests::from_bytes(&bytes).ok(),
            None => None,
        };
        let loaded = Rc::new(Loaded {
            publish_id: store.publish_id.clone(),
            plan,
            table,
            digests,
            live_parsed,
        });
        *self.loaded.borrow_mut() = Some(loaded.clone());
        Ok(loaded)
    }

    /// Batch `b`, built or taken whole from the live version; with it, as many of the next batches
    /// (up to [`TAKE_AT_ONCE`]) as are taken whole too. Returns how many batches it did.
    pub(super) async fn batch(
        &self,
        store: &Store<'_>,
        record: &mut Record,
        b: u32,
    ) -> StepResult<u32> {
        self.injected_fault(record)?;
        let loaded = self.load(store, &record.org_id).await?;
        let layout = record
            .layout
            .ok_or_else(|| ApiError::Internal("publish has no layout".into()))?;
        let &(start, end) = record
            .batches
            .get(b as usize)
            .ok_or_else(|| ApiError::Internal(format!("no batch {b}")))?;
        let range = start..end;
        let model = crate::shared::semantic_model::load(&self.env).await;
        let fingerprint = model.map(|m| m.fingerprint());
        let files = publish::batch_files(&loaded.plan, &range, &loaded.table);
        let from_digests = loaded.digests.as_ref().and_then(|d| {
            page_keys_from_digests(&loaded.plan, &range, &loaded.table, d, &record.domain)
        });
        let keys = match from_digests {
            Some(keys) => keys,
            None => page_keys(
                &loaded.plan,
                &range,
                &loaded.table,
                &store.files(&loaded.table, &files).await?,
                &record.domain,
            ),
        };
        let mut state = record.batch_state.clone();
        record.text_lens.truncate(b as usize);
        record.llms_lens.truncate(b as usize);
        record.batch_stems.truncate(b as usize);
        if let Some(live) = loaded.live_parsed.as_ref() {
            // The run of batches from `b` the live version kept, each found at the cursor where the
            // one before it ends.
            let (mut run, mut cursor) = (Vec::new(), state.search);
            for i in b..(b + TAKE_AT_ONCE).min(record.batches.len() as u32) {
                let (first, end) = record.batches[i as usize];
                let range_i = first..end;
                let keys_i = match i == b {
                    true => Some(keys.clone()),
                    false => loaded.digests.as_ref().and_then(|d| {
                        page_keys_from_digests(
                            &loaded.plan,
                            &range_i,
                            &loaded.table,
                            d,
                            &record.domain,
                        )
                    }),
                };
                let Some(found) = keys_i.and_then(|k| {
                    live.find(
                        &batch_digest(&loaded.plan, &range_i, &k, &layout, fingerprint),
                        &cursor,
                    )
                }) else {
                    break;
                };
                cursor = found.1.end;
                run.push((i, found, range_i.len() as u32));
            }
            // The new version refers to the run's objects where they are (nothing is copied): only
            // the run's unbroken start whose objects the store still holds is taken.
            let present = run.iter().map(|(_, (_, kept), _)| async move {
                Ok::<_, ApiError>(live.present(store.bucket, &store.domain, kept).await)
            });
            let taken = try_join_all(present)
                .await?
                .into_iter()
                .take_while(|p| *p)
                .count();
            if taken > 0 {
                let run = &run[..taken];
                if !live.pieced {
                    // The live version keeps them whole: this publish's batches refer to pieces.
                    for (_, (_, kept), _) in run {
                        store.copy_pieces(&live.publish_id, kept).await?;
                    }
                }
                store.phase("read");
                for (i, (_, kept), pages) in run.iter().cloned() {
                    store
                        .traffic
                        .reused_pages
                        .set(store.traffic.reused_pages.get() + pages);
                    state.search = kept.end;
                    self.state
                        .storage()
                        .put(&groups_key(i), &kept.group_ends)
                        .await?;
                    record.text_lens.push(kept.text.1);
                    record.llms_lens.push(kept.llms.1);
                    record.batch_stems.push(kept.stem());
                }
                store.traffic.taken_batches.set(taken as u32);
                record.batch_state = state;
                return Ok(taken as u32);
            }
        }
        let tree = store.files(&loaded.table, &files).await?;
        let reused = store.reused(loaded.live_parsed.as_ref(), &keys).await;
        store.phase("read");
        let input = BatchInput {
            batch: b,
            range,
            tree: &tree,
            keys: &keys,
            model,
        };
        let result = publish::run_batch(
            &loaded.plan,
            input,
            &layout,
            &reused,
            &mut state,
            &record.domain,
        )?;
        drop((tree, reused));
        store.phase("build");
        store.traffic.reused_pages.set(result.reused_pages);
        let stem = batch_stem(&result.record.digest, &result.record.start);
        let (text_len, llms_len) = (result.text.len() as u64, result.llms.len() as u64);
        let record_bytes = result.record.to_bytes();
        let parts = [
            (BatchPart::Parsed, result.parsed),
            (BatchPart::Postings, result.postings),
            (BatchPart::Record, record_bytes),
            (BatchPart::Text, result.text),
            (BatchPart::Llms, result.llms),
        ];
        store
            .put_all(
                parts
                    .map(|(part, bytes)| (store.batch_key(&stem, part), bytes))
                    .into_iter()
                    .collect(),
            )
            .await?;
        self.state
            .storage()
            .put(&groups_key(b), &result.group_ends)
            .await?;
        record.text_lens.push(text_len);
        record.llms_lens.push(llms_len);
        record.batch_stems.push(stem);
        record.batch_state = state;
        Ok(1)
    }

    pub(super) async fn merge(
        &self,
        store: &Store<'_>,
        record: &mut Record,
        layout: ShardLayout,
        g: u32,
    ) -> StepResult<()> {
        self.injected_fault(record)?;
        let storage = self.state.storage();
        let mut ranges = Vec::with_capacity(record.batches.len());
        for b in 0..record.batches.len() as u32 {
            let ends: Vec<u64> = storage
                .get(&groups_key(b))
                .await?
                .ok_or_else(|| ApiError::Internal(format!("batch {b} has no group ends")))?;
            let start = if g == 0 {
                0
            } else {
                ends.get(g as usize - 1).copied().unwrap_or(0)
            };
            let end = ends
                .get(g as usize)
                .copied()
                .ok_or_else(|| ApiError::Internal(format!("batch {b} has no group {g}")))?;
            let stem = record
                .batch_stems
                .get(b as usize)
                .ok_or_else(|| ApiError::Internal(format!("batch {b} has no objects")))?;
            ranges.push((
                store.batch_key(stem, BatchPart::Postings),
                start,
                end - start,
            ));
        }
        // Every batch's range is held for the merge anyway: read them at once.
        let parts = try_join_all(
            ranges
                .iter()
                .map(|(key, start, len)| store.read_range(key, *start, *len)),
        )
        .await?;
        let chunk_count = record.batch_state.search.chunks as usize;
        let merged = merge_group(&layout, g, &parts, chunk_count).map_err(PublishError::from)?;
        drop(parts);
        let len = merged.bytes.len() as u64;
        store
            .put(&build_object(&format!("terms-{g:05}.bin")), merged.bytes)
            .await?;
        let shards_before = layout.group(0).len() * g as usize;
        record.shard_lens.truncate(shards_before);
        record.shard_lens.extend(merged.shard_lens);
        record.group_lens.truncate(g as usize);
        record.group_lens.push(len);
        Ok(())
    }

    pub(super) async fn finish(
        &self,
        store: &Store<'_>,
        record: &Record,
    ) -> StepResult<SiteVersion> {
        let loaded = self.load(store, &record.org_id).await?;
        let mut finisher = Finisher::default();
        finisher.refer_packs(loaded.table.pack_objects());
        // A few records read ahead, folded in order: the reads overlap, a few records are held.
        let mut records = futures_util::stream::iter(
            record
                .batch_stems
                .iter()
                .map(|stem| store.get_at_owned(store.batch_key(stem, BatchPart::Record))),
        )
        .buffered(RECORDS_AT_ONCE);
        let mut b = 0;
        while let Some(bytes) = records.next().await {
            finisher.add(
                BatchRecord::from_bytes(&bytes?)
                    .map_err(PublishError::from)?
                    .kept_as(b),
            );
            b += 1;
        }
        drop(records);
        let mut finished =
            finisher.finish(loaded.plan.clone(), &record.shard_lens, &record.domain)?;
        let index_bytes = finished.meta.len() as u64
            + record.group_lens.iter().sum::<u64>()
            + record.text_lens.iter().sum::<u64>();
        // Only a staged publish keeps its batches for the next to take: the index lists the batch
        // objects this version refers to in the site's store (the storage sweep counts it).
        let mut writes = Writes::default();
        writes.start(
            store,
            KEPT_BATCHES_OBJECT,
            std::mem::take(&mut finished.kept_batches),
        );
        let site = store.put_finished(finished, writes).await?;
        Ok(record.version_of(site, index_bytes, record.pieced))
    }
}
