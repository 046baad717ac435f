//! The last steps of a hosted site's export: its files written (`super::site_copy`), layered on the
//! live export's base when it can be (`super::site_base`), then its delta listing, then the live
//! pointer, which switches the site; then the parts it took from the live export are copied into
//! its own (`super::batch_reuse`), and the job is complete.

use docs_edge_core::export::content_security_policy_remote;
use docs_edge_core::export::hosting::LiveSite;
use docs_edge_core::export::layers::LayeredOn;
use docs_edge_core::platform::retention::DAY_MS;
use docs_edge_core::publish::preview::PREVIEW_DAYS;
use docs_edge_core::wire::JobStatus;

use super::batch_reuse::copy_taken;
use super::delta_listing::{write_listing, Listing};
use super::site_base::Previous;
use super::site_copy::{copy_step, CopyJob};
use super::{ExportJob, JobRecord};
use crate::builder::hosted_pointer::{go_live, read_live};
use crate::shared::clock::now_ms;
use crate::shared::error::ApiResult;
use crate::shared::storage::export_host_key;

impl ExportJob {
    /// A step of writing a hosted site's files; after the last, the site is switched to this export
    /// and the job is complete.
    pub(super) async fn copy_site(
        &self,
        record: &mut JobRecord,
        bucket: &worker::Bucket,
    ) -> ApiResult<bool> {
        let mut site = record.site.clone().unwrap_or_default();
        if site.live {
            self.injected_delay(record).await;
            if self.write_search_parts(record, bucket).await? {
                return Ok(false);
            }
            return self.copy_taken(record, bucket).await;
        }
        // A preview's files and pointer are under its own hostname.
        let host = site.preview_host.clone();
        let host = host.as_deref().unwrap_or(&record.domain);
        let job = CopyJob {
            job_id: &record.job_id,
            domain: host,
            parts: record.parts,
            taken: record.taken.as_ref(),
            search: record.search_parts.clone(),
            version: (&record.domain, &record.publish_id),
        };
        if !site.chosen {
            // Layered on the live export's base, when that export has a listing to compare with.
            site.layered_on = read_live(bucket, host)
                .await?
                .filter(|live| live.export_id != record.job_id)
                .and_then(|live| {
                    LayeredOn::new(&live.export_id, live.base.as_deref(), &live.changed)
                });
            if let Some(layer) = &site.layered_on {
                if Previous::load(bucket, host, &record.job_id, layer)
                    .await?
                    .is_none()
                {
                    site.layered_on = None;
                }
            }
            site.chosen = true;
        }
        let previous = match &site.layered_on {
            Some(layer) => Previous::load(bucket, host, &record.job_id, layer).await?,
            None => None,
        };
        let done = copy_step(bucket, &job, &mut site, previous.as_deref()).await?;
        if done {
            let mut listing = Listing::new(bucket, host, &record.job_id);
            if let Some(previous) = &previous {
                listing.skip.extend(previous.base_parts.iter().cloned());
                listing.written = Some(Vec::new());
            }
            let listed = write_listing(&mut listing, &record.publish_id, &site.steps).await?;
            site.objects += listing.objects;
            let (base, changed) = match &previous {
                Some(previous) => {
                    site.written
                        .extend(listing.written.take().unwrap_or_default());
                    let changed = previous.layer.changed(
                        &site.written,
                        previous.files.keys().cloned(),
                        |path| listed.contains(path),
                    );
                    (Some(previous.layer.base.clone()), changed)
                }
                None => (None, Vec::new()),
            };
            site.written = Vec::new();
            let frame_origins: Vec<String> = record.frame_origins.iter().cloned().collect();
            let image_origins: Vec<String> = record.image_origins.iter().cloned().collect();
            let live = LiveSite {
                export_id: record.job_id.clone(),
                publish_id: record.publish_id.clone(),
                created_at: record.created_at.clone(),
                path_prefix: site.path_prefix.clone(),
                content_security_policy: content_security_policy_remote(
                    &record.extras,
                    &frame_origins,
                    &image_origins,
                ),
                base,
                changed,
                previous: None,
                retired: Vec::new(),
                since_ms: 0,
                preview_of: site.preview_host.as_ref().map(|_| record.domain.clone()),
                expires_ms: match site.preview_host {
                    Some(_) => now_ms() + PREVIEW_DAYS * DAY_MS,
                    None => 0,
                },
            };
            bucket
                .put(export_host_key(&record.job_id), host.as_bytes().to_vec())
                .execute()
                .await?;
            go_live(bucket, host, live).await?;
            crate::shared::log_line::info(
                &serde_json::json!({"event": "site_live", "jobId": record.job_id, "domain": record.domain, "files": site.files, "objectsWritten": site.objects + 1, "partsUnread": site.parts_unread, "partsTakenUncopied": record.taken.as_ref().map_or(0, |t| t.parts.len())}),
            );
            // The parts taken from the live export are copied next, the site already switched.
            site.live = true;
        }
        record.site = Some(site);
        Ok(false)
    }

    /// Writes a step's share of the search packs' pieces into the parts reserved for them, once
    /// the site serves the export (the bundle needs them, the site does not); `Ok(true)` while
    /// some were written.
    async fn write_search_parts(
        &self,
        record: &mut JobRecord,
        bucket: &worker::Bucket,
    ) -> ApiResult<bool> {
        let Some(parts) = &record.search_parts else {
            return Ok(false);
        };
        let packs =
            crate::builder::export_search::Packs::of(bucket, &record.domain, &record.publish_id)
                .await?;
        // The next piece's part follows from the cursor, which a failed attempt leaves where its
        // last written piece put it.
        let at = parts.start + packs.pieces_before(record.search_copied);
        let written = Self::search_pieces(record, bucket, &packs, at).await?;
        if written == 0 {
            record.search_parts = None;
        }
        Ok(written > 0)
    }

    /// Copies the parts the export took from the live export (`batch_reuse::copy_taken`), a step's
    /// share at a time, once the site serves it; then the job is complete.
    async fn copy_taken(&self, record: &mut JobRecord, bucket: &worker::Bucket) -> ApiResult<bool> {
        if let Some(taken) = record.taken.as_mut() {
            if copy_taken(bucket, taken, &record.job_id, TAKEN_COPIED_PER_STEP).await? {
                return Ok(false);
            }
        }
        record.taken = None;
        record.status = JobStatus::Completed;
        record.progress = 100.0;
        Ok(true)
    }
}

/// Taken parts copied in one step after the switch.
const TAKEN_COPIED_PER_STEP: usize = 64;
