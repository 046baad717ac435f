//! One batch of pages per step: rendered into the job's next part, with what the finishing step
//! takes from its pages beside it, or, for a hosted site's export, both taken from the live export
//! where its inputs are the same (`super::batch_reuse`), many batches a step, several at once.

use docs_edge_core::docs::SourceTree;
use docs_edge_core::export::api::pages_progress;
use docs_edge_core::export::{embeds, tar_gz_member};

use super::batch_reuse::{self, BatchDone, ReuseFrom};
use super::{ExportJob, JobRecord, Loaded};
use crate::builder::highlight::HighlightJs;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::join::try_join_all;
use crate::shared::storage::{part_key, products_key};

/// Batches taken from the live export in one step at most: taking one costs a few reads and
/// writes, not a step of its own, so an export that renders little is not a hundred steps.
const TAKEN_PER_STEP: u32 = 128;
/// Batches keyed (their files read and hashed), then taken, side by side: each is a few R2 reads
/// and writes, and what they hold at once is this many batches' files.
const TAKEN_AT_ONCE: u32 = 8;

impl ExportJob {
    /// The next batch of pages, `record.next_page` on: the batches from there that the live export
    /// has (up to [`TAKEN_PER_STEP`], [`TAKEN_AT_ONCE`] keyed and taken at a time), then the first
    /// it lacks, rendered, and the batches keyed with it that the live export has, taken; a rendered
    /// batch ends the step.
    pub(super) async fn pages_step(
        &self,
        record: &mut JobRecord,
        bucket: &worker::Bucket,
    ) -> ApiResult<()> {
        if record.next_page == 0
            && record.reuse_from.is_none()
            && self.load(record).await?.inputs.is_some()
        {
            record.reuse_from = self.live_batches(record, bucket).await?;
        }
        let mut taken = 0;
        let mut keyed = Vec::new();
        while taken < TAKEN_PER_STEP && record.next_page < record.total_pages {
            keyed = self.key_ahead(record, bucket).await?;
            let ahead = keyed.len() as u32;
            let run = self.take_known(record, bucket, &mut keyed).await?;
            taken += run;
            if ahead == 0 || run < ahead {
                break;
            }
        }
        if taken < TAKEN_PER_STEP && record.next_page < record.total_pages {
            let next = (!keyed.is_empty()).then(|| keyed.remove(0));
            self.one_batch(record, bucket, next).await?;
            // Keyed already: taken now rather than keyed again by the next step.
            self.take_known(record, bucket, &mut keyed).await?;
        }
        Ok(())
    }

    /// The batches from `record.next_page` on, up to [`TAKEN_AT_ONCE`] of them, keyed side by side
    /// (none when the export takes nothing from a live one); the first whose key the live export
    /// lacks keeps its own files, which [`Self::one_batch`] renders it from.
    async fn key_ahead(
        &self,
        record: &mut JobRecord,
        bucket: &worker::Bucket,
    ) -> ApiResult<Vec<Keyed>> {
        let loaded = self.load(record).await?;
        let (Some(inputs), Some(from)) = (loaded.inputs.as_deref(), record.reuse_from.as_ref())
        else {
            return Ok(Vec::new());
        };
        let (total, size) = (record.total_pages, record.batch_pages.max(1));
        let ranges: Vec<(u32, u32)> = (0..TAKEN_AT_ONCE)
            .map(|i| record.next_page.saturating_add(i.saturating_mul(size)))
            .take_while(|&start| start < total)
            .map(|start| (start, start.saturating_add(size).min(total)))
            .collect();
        let mut keyed = try_join_all(ranges.iter().map(|&(start, end)| {
            let loaded = &loaded;
            async move {
                let range = start as usize..end as usize;
                let own = self.batch_own_files(bucket, loaded, range).await?;
                let key = batch_reuse::batch_key(inputs, start, end, &own).await?;
                let known = from.has(&key);
                Ok::<_, ApiError>(Keyed {
                    start,
                    end,
                    key,
                    known,
                    own: (!known).then_some(own),
                })
            }
        }))
        .await?;
        record.batches_read += keyed.len() as u32;
        // Only the first batch to render keeps its files: the others are read again when rendered.
        let first = keyed.iter().position(|k| !k.known);
        for (i, k) in keyed.iter_mut().enumerate() {
            if Some(i) != first {
                k.own = None;
            }
        }
        Ok(keyed)
    }

    /// Takes the batches at the front of `keyed` that the live export has, side by side, from
    /// `record.next_page` on, and removes them; how many it took (it stops at one it lacks, or
    /// whose part is gone).
    async fn take_known(
        &self,
        record: &mut JobRecord,
        bucket: &worker::Bucket,
        keyed: &mut Vec<Keyed>,
    ) -> ApiResult<u32> {
        let Some(from) = record.reuse_from.clone() else {
            return Ok(0);
        };
        if keyed.first().is_none_or(|k| k.start != record.next_page) {
            keyed.clear();
            return Ok(0);
        }
        let known = keyed.iter().take_while(|k| k.known).count();
        let taken = try_join_all(
            keyed[..known]
                .iter()
                .map(|k| batch_reuse::take(bucket, &from, &k.key)),
        )
        .await?;
        let mut count = 0;
        for done in taken {
            let Some((index, done)) = done else {
                break;
            };
            let Keyed { key, end, .. } = keyed.remove(0);
            self.batch_done(record, bucket, done, Some(key), end, Some(index))
                .await?;
            count += 1;
        }
        Ok(count)
    }

    /// The batch of pages at `record.next_page`, taken from the live export or rendered; `keyed`:
    /// what [`Self::key_ahead`] read and hashed of it, if it did.
    async fn one_batch(
        &self,
        record: &mut JobRecord,
        bucket: &worker::Bucket,
        keyed: Option<Keyed>,
    ) -> ApiResult<()> {
        let total = record.total_pages;
        let loaded = self.load(record).await?;
        let end = record
            .next_page
            .saturating_add(record.batch_pages)
            .min(total);
        let range = record.next_page as usize..end as usize;
        let (own, key) = match keyed.filter(|k| k.start == record.next_page) {
            Some(Keyed {
                key,
                own: Some(own),
                ..
            }) => (own, Some(key)),
            _ => {
                record.batches_read += 1;
                let own = self.batch_own_files(bucket, &loaded, range.clone()).await?;
                let key = match loaded.inputs.as_deref() {
                    Some(inputs) => {
                        Some(batch_reuse::batch_key(inputs, record.next_page, end, &own).await?)
                    }
                    None => None,
                };
                (own, key)
            }
        };
        let taken = match (&record.reuse_from, &key) {
            (Some(from), Some(key)) => batch_reuse::take(bucket, from, key).await?,
            _ => None,
        };
        let taken_index = taken.as_ref().map(|(index, _)| *index);
        let done = match taken {
            Some((_, done)) => {
                drop(own);
                done
            }
            None => {
                record.pages_rendered += end - record.next_page;
                let tree = loaded.source.complete(own);
                self.render_batch(record, bucket, &loaded, range, tree)
                    .await?
            }
        };
        self.batch_done(record, bucket, done, key, end, taken_index)
            .await
    }

    /// Records the batch `record.next_page..end` as part `record.parts`, `done` (`taken` from the
    /// live export's part of that index, or rendered), under `key` when the export is a hosted
    /// site's.
    async fn batch_done(
        &self,
        record: &mut JobRecord,
        bucket: &worker::Bucket,
        mut done: BatchDone,
        key: Option<String>,
        end: u32,
        taken: Option<u32>,
    ) -> ApiResult<()> {
        if let Some(site) = record.site.as_mut() {
            // A step redone after a failure decides its own part again.
            site.unchanged_parts.retain(|part| *part < record.parts);
            if taken.is_some() {
                site.unchanged_parts.push(record.parts);
            }
        }
        let parts = record.parts;
        match (taken, record.reuse_from.as_ref()) {
            (Some(index), Some(from)) => {
                record
                    .taken
                    .get_or_insert_with(Default::default)
                    .add(&from.job_id, parts, index)
            }
            _ => {
                if let Some(taken) = record.taken.as_mut() {
                    taken.parts.retain(|(p, _)| *p < parts);
                }
            }
        }
        record.icon_sets.extend(done.icon_sets.iter().copied());
        record
            .frame_origins
            .extend(done.frame_origins.iter().cloned());
        record
            .image_origins
            .extend(done.image_origins.iter().cloned());
        if let Some(key) = key {
            (done.start, done.end, done.key) = (record.next_page, end, key);
            // Batch `i` is part `i`: a step redone after a failure replaces its own entry.
            record.batches.truncate(record.parts as usize);
            record.batches.push(done);
            if end == record.total_pages {
                batch_reuse::write_batches(bucket, &record.job_id, &record.batches).await?;
                record.reuse_from = None;
            }
        }
        self.injected_delay(record).await;
        record.parts += 1;
        record.next_page = end;
        record.page_count = end;
        record.progress = pages_progress(end, record.total_pages);
        Ok(())
    }

    /// Renders the pages at `range` from `tree` into the job's next part, and their products
    /// (`docs_edge_core::export::BatchProducts`) beside it: what they add to the bundle's licences
    /// and policy.
    async fn render_batch(
        &self,
        record: &JobRecord,
        bucket: &worker::Bucket,
        loaded: &Loaded,
        range: std::ops::Range<usize>,
        tree: SourceTree,
    ) -> ApiResult<BatchDone> {
        // What the finishing step takes from these pages, read from the same files and stored
        // beside the part, so the finishing step never reads the pages again.
        let mut products = loaded
            .plan
            .batch_products(&loaded.source.outline, &tree, range.clone());
        let (mut files, warnings) =
            loaded
                .plan
                .render_pages_warned(&loaded.source.outline, &tree, range, &HighlightJs);
        for warning in &warnings {
            worker::console_warn!("export: {warning}");
        }
        let icon_sets = crate::builder::export_icons::fill(
            &self.env,
            &mut files,
            &loaded.source.outline.config,
            &tree,
            &self.icons,
        )
        .await?;
        let mut done = BatchDone {
            icon_sets,
            ..BatchDone::default()
        };
        for file in files.iter().filter(|f| f.path.ends_with(".html")) {
            let html = String::from_utf8_lossy(&file.bytes);
            embeds::frame_origins(&html, &mut done.frame_origins);
            embeds::image_origins(&html, &mut done.image_origins);
        }
        drop(tree);
        let member = tar_gz_member(&files, record.created_unix);
        products.files = files.into_iter().map(|file| file.path).collect();
        bucket
            .put(
                products_key(&record.job_id, record.parts),
                products.to_bytes(),
            )
            .execute()
            .await?;
        drop(products);
        bucket
            .put(part_key(&record.job_id, record.parts), member)
            .execute()
            .await?;
        Ok(done)
    }

    /// The batches of the export a hosted site serves now, which this one may take.
    async fn live_batches(
        &self,
        record: &JobRecord,
        bucket: &worker::Bucket,
    ) -> ApiResult<Option<ReuseFrom>> {
        let site = record.site.as_ref();
        let host = site
            .and_then(|s| s.preview_host.as_deref())
            .unwrap_or(&record.domain);
        match crate::builder::hosted_pointer::read_live(bucket, host).await? {
            Some(live) if live.export_id != record.job_id => {
                batch_reuse::read_batches(bucket, &live.export_id).await
            }
            _ => Ok(None),
        }
    }
}

/// A batch keyed by [`ExportJob::key_ahead`]: its pages, its key, whether the live export has it,
/// and the own files of the first one to render.
struct Keyed {
    start: u32,
    end: u32,
    key: String,
    known: bool,
    own: Option<SourceTree>,
}
