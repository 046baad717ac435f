//! The export job's finishing step: the files after the pages (offline search index, `llms.txt`,
//! `llms-full.txt`, the sitemap, the 404 and contents pages, the assets and media the pages
//! reference, the manifest), assembled from the outline and each batch's stored products
//! (`docs_edge_core::export::BatchProducts`) without reading a page again, as gzip members of the
//! job's last parts.

use std::rc::Rc;

use docs_edge_core::docs::Site;
use docs_edge_core::export::{
    batch_files, content_security_policy_remote, tar_gz_member, tar_gz_trailer, BatchProducts,
    BundleManifest, ExportFile, ExportPlan, FinishingMembers, SearchIndexFormat, StaticFiles,
    MANIFEST_FORMAT,
};

use super::batch_reuse::Taken;
use super::{ExportJob, JobRecord, Loaded};
use crate::builder::export_source::ExportSource;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::storage::{self, part_key, products_key};

/// The finishing step stores `llms-full.txt`'s gzip members in parts of about this size as they come.
const LLMS_FULL_PIECE_BYTES: usize = 1 << 20;
/// Media members gathered into one part before it is written (one part per file would be
/// thousands of objects for an image-heavy site).
const MEDIA_PART_BYTES: usize = 4 << 20;

impl ExportJob {
    /// Writes the finishing files from part `record.parts` on; returns how many parts they took. The
    /// pages come from the outline and a batch of pages' products at a time (what the offline search
    /// index, `llms-full.txt` and the asset list take from each page, stored beside each batch),
    /// then the assets they reference: never the whole source, no page read again. `llms-full.txt` is stored as it is compressed, in parts
    /// after the one that gets the files before it (written last, when the search index is whole).
    pub(super) async fn write_finishing(
        &self,
        record: &JobRecord,
        bucket: &worker::Bucket,
    ) -> ApiResult<u32> {
        let loaded = self.load(record).await?;
        // The job's last step takes the loaded version, so its outline is not held twice (another
        // attempt loads it again). What is known of icons stays: the 404 and contents pages name
        // the sidebar's icons, which the pages met, so no shard is read in the finishing's peak.
        *self.loaded.borrow_mut() = None;
        match Rc::try_unwrap(loaded) {
            Ok(Loaded {
                plan, mut source, ..
            }) => {
                let outline = std::mem::take(&mut source.outline);
                self.write_finishing_from(record, bucket, &plan, &source, outline)
                    .await
            }
            Err(shared) => {
                self.write_finishing_from(
                    record,
                    bucket,
                    &shared.plan,
                    &shared.source,
                    shared.source.outline.clone(),
                )
                .await
            }
        }
    }

    /// [`ExportJob::write_finishing`] with the version's outline in hand, its pages' first lines to be set.
    async fn write_finishing_from(
        &self,
        record: &JobRecord,
        bucket: &worker::Bucket,
        plan: &ExportPlan,
        source: &ExportSource,
        mut outline: Site,
    ) -> ApiResult<u32> {
        let head_part = record.parts;
        let mut next_part = head_part + 1;
        let mut members = FinishingMembers::new(plan);
        let batch = record.batch_pages.max(1) as usize;
        let mut pages_read = 0;
        let folding = crate::shared::clock::now_ms();
        let batches = plan.page_count().div_ceil(batch);
        let stored = |index: usize| async move {
            match index < batches {
                true => Self::stored_products(bucket, record, index).await,
                false => Ok(None),
            }
        };
        let mut ahead = stored(0).await?;
        for (index, start) in (0..plan.page_count()).step_by(batch).enumerate() {
            let range = start..start.saturating_add(batch);
            let current = ahead.take();
            // The next batch's products are read while this one's are folded in: a read each,
            // one after the other, was a wait per batch.
            let fold = async {
                let (products, read) =
                    Self::batch_products(bucket, plan, source, &outline, current, range.clone())
                        .await?;
                pages_read += read;
                members.add_products(plan, &mut outline, range, products);
                if let Some(piece) = members.take_llms_full(LLMS_FULL_PIECE_BYTES) {
                    bucket
                        .put(part_key(&record.job_id, next_part), piece)
                        .execute()
                        .await?;
                    next_part += 1;
                }
                Ok::<_, ApiError>(())
            };
            let (next, folded) = futures_util::future::join(stored(index + 1), fold).await;
            folded?;
            ahead = next?;
        }
        // How the finishing step came by its pages' text: tests count the pages read again.
        crate::shared::log_line::info(
            &serde_json::json!({"event": "export_finishing", "jobId": record.job_id, "batches": batches, "batchesRead": record.batches_read, "pagesRead": pages_read, "foldMs": crate::shared::clock::now_ms().saturating_sub(folding)}),
        );
        // The rest of the finishing entries (the end of `llms-full.txt`, whose body the pieces above
        // carry, and what sorts after it) come next; media follow them, one at a time in members
        // of their own (never all held at once), then the archive's trailer.
        let rest_part = next_part;
        next_part += 1;
        let (assets, media) = members.split_assets(plan, &source.table);
        // The 404 and contents pages get their icons as the pages did, before the licences of the
        // sets used are written.
        let tree = source.tree(bucket, &assets).await?;
        let mut chrome = plan.chrome_pages(&outline, &tree);
        let mut icon_sets = record.icon_sets.clone();
        icon_sets.extend(
            crate::builder::export_icons::fill(
                &self.env,
                &mut chrome,
                &outline.config,
                &tree,
                &self.icons,
            )
            .await?,
        );
        let mut pending = Vec::new();
        for path in media {
            let Some(bytes) = source.media(bucket, &path).await? else {
                continue;
            };
            let path = docs_edge_core::export::bundle_path(&path).into_owned();
            pending.extend(tar_gz_member(
                &[ExportFile { path, bytes }],
                record.created_unix,
            ));
            if pending.len() >= MEDIA_PART_BYTES {
                bucket
                    .put(
                        part_key(&record.job_id, next_part),
                        std::mem::take(&mut pending),
                    )
                    .execute()
                    .await?;
                next_part += 1;
            }
        }
        if !icon_sets.is_empty() {
            pending.extend(tar_gz_member(
                &crate::builder::export_icons::licence_files(&self.env, &icon_sets).await?,
                record.created_unix,
            ));
        }
        if record.extras.assistant.is_some() {
            // The widget's files, as the worker serves them at /widget.js, in a member of their own.
            pending.extend(tar_gz_member(
                &crate::shared::assets::widget_files(&self.env).await?,
                record.created_unix,
            ));
        }
        pending.extend_from_slice(&tar_gz_trailer());
        bucket
            .put(part_key(&record.job_id, next_part), pending)
            .execute()
            .await?;
        let statics = crate::shared::assets::export_static(&self.env).await?;
        let finished = members.finish(
            plan,
            &outline,
            &tree,
            &StaticFiles::from_texts(&statics),
            chrome,
            record.created_unix,
        );
        drop((tree, outline));
        bucket
            .put(part_key(&record.job_id, head_part), finished.head)
            .execute()
            .await?;
        let manifest = self.manifest(
            record,
            plan.versions().into_iter().map(str::to_string).collect(),
            plan.support(),
        );
        let mut rest = finished.rest;
        rest.extend(tar_gz_member(&[manifest], record.created_unix));
        bucket
            .put(part_key(&record.job_id, rest_part), rest)
            .execute()
            .await?;
        Ok(next_part + 1 - head_part)
    }

    /// The products batch `index` stored, as stored; `None` for a job whose batches were written
    /// before products were stored.
    async fn stored_products(
        bucket: &worker::Bucket,
        record: &JobRecord,
        index: usize,
    ) -> ApiResult<Option<Vec<u8>>> {
        // A batch taken from the live export is read where that export stored it.
        let key = Taken::key(
            record.taken.as_ref(),
            products_key,
            &record.job_id,
            index as u32,
        );
        storage::read(bucket, &key, None).await
    }

    /// What the finishing files take from the pages at `range` (`stored`: their batch's
    /// [`Self::stored_products`]), and how many pages were read for it: none, but for a job whose
    /// batches were written before products were stored, or stored in another layout, which
    /// reads them again.
    async fn batch_products(
        bucket: &worker::Bucket,
        plan: &ExportPlan,
        source: &ExportSource,
        outline: &Site,
        stored: Option<Vec<u8>>,
        range: std::ops::Range<usize>,
    ) -> ApiResult<(BatchProducts, usize)> {
        // Products stored in another layout (by the code before, mid-way through this job) are
        // made again from the pages.
        if let Some(Ok(products)) = stored.map(|bytes| BatchProducts::from_bytes(&bytes)) {
            return Ok((products, 0));
        }
        let tree = source
            .tree(
                bucket,
                &batch_files(plan, outline, &source.table, range.clone()),
            )
            .await?;
        let pages = range.end.min(plan.page_count()) - range.start;
        Ok((plan.batch_products(outline, &tree, range), pages))
    }

    /// `versions`: those the bundle holds, the one at the site's own paths first; `support`:
    /// docs.json's support link.
    fn manifest(
        &self,
        record: &JobRecord,
        versions: Vec<String>,
        support: Option<&str>,
    ) -> ExportFile {
        let frame_origins: Vec<String> = record.frame_origins.iter().cloned().collect();
        let image_origins: Vec<String> = record.image_origins.iter().cloned().collect();
        BundleManifest {
            format: MANIFEST_FORMAT,
            domain: record.domain.clone(),
            job_id: record.job_id.clone(),
            version: versions.first().cloned(),
            versions,
            publish_id: record.publish_id.clone(),
            created_at: record.created_at.clone(),
            page_count: record.total_pages,
            features: record.features,
            content_security_policy: content_security_policy_remote(
                &record.extras,
                &frame_origins,
                &image_origins,
            ),
            beacon_endpoint: record.extras.beacon_endpoint.clone(),
            assistant: record.extras.assistant.clone(),
            search_index: record
                .ships_search_index()
                .then_some(SearchIndexFormat::Packs),
            frame_origins,
            image_origins,
            support: support.map(str::to_string),
        }
        .to_file()
    }
}
