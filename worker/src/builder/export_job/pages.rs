//! One batch of pages per step: rendered into the job's next part, with what the finishing step
//! takes from its pages beside it, or, for a hosted site's export, both taken from the live export
//! where its inputs are the same (`super::batch_reuse`).

use docs_edge_core::docs::SourceTree;
use docs_edge_core::export::api::pages_progress;
use docs_edge_core::export::{embeds, tar_gz_member};

use super::batch_reuse::{self, BatchDone, ReuseFrom};
use super::{ExportJob, JobRecord, Loaded};
use crate::builder::highlight::HighlightJs;
use crate::shared::error::ApiResult;
use crate::shared::storage::{part_key, products_key};

/// Batches taken from the live export in one step at most: taking one costs a few reads and
/// writes, not a step of its own, so an export that renders little is not a hundred steps.
const TAKEN_PER_STEP: u32 = 16;

impl ExportJob {
    /// The next batch of pages, `record.next_page` on, and the batches after it while they are
    /// taken from the live export (up to [`TAKEN_PER_STEP`]); a rendered batch ends the step.
    pub(super) async fn pages_step(
        &self,
        record: &mut JobRecord,
        bucket: &worker::Bucket,
    ) -> ApiResult<()> {
        for _ in 0..TAKEN_PER_STEP {
            let taken = self.one_batch(record, bucket).await?;
            if !taken || record.next_page >= record.total_pages {
                break;
            }
        }
        Ok(())
    }

    /// The batch of pages at `record.next_page`; `Ok(true)` when it was taken from the live export.
    async fn one_batch(&self, record: &mut JobRecord, bucket: &worker::Bucket) -> ApiResult<bool> {
        let total = record.total_pages;
        let loaded = self.load(record).await?;
        let end = record
            .next_page
            .saturating_add(record.batch_pages)
            .min(total);
        let range = record.next_page as usize..end as usize;
        let tree = self.batch_tree(bucket, &loaded, range.clone()).await?;
        let key = match &loaded.inputs {
            Some(inputs) => {
                if record.next_page == 0 {
                    record.reuse_from = self.live_batches(record, bucket).await?;
                }
                Some(batch_reuse::batch_key(inputs, record.next_page, end, &tree))
            }
            None => None,
        };
        let taken = match (&record.reuse_from, &key) {
            (Some(from), Some(key)) => {
                batch_reuse::take(bucket, from, &record.job_id, record.parts, key).await?
            }
            _ => None,
        };
        if let Some(site) = record.site.as_mut() {
            // A step redone after a failure decides its own part again.
            site.unchanged_parts.retain(|part| *part < record.parts);
            if taken.is_some() {
                site.unchanged_parts.push(record.parts);
            }
        }
        let was_taken = taken.is_some();
        let mut done = match taken {
            Some(done) => {
                drop(tree);
                done
            }
            None => {
                record.pages_rendered += end - record.next_page;
                self.render_batch(record, bucket, &loaded, range, tree)
                    .await?
            }
        };
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
            if end == total {
                batch_reuse::write_batches(bucket, &record.job_id, &record.batches).await?;
                record.reuse_from = None;
            }
        }
        self.injected_delay(record).await;
        record.parts += 1;
        record.next_page = end;
        record.page_count = end;
        record.progress = pages_progress(end, total);
        Ok(was_taken)
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
