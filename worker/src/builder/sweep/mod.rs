//! The daily storage sweep, run in the builder script when the edge's cron asks
//! (`crate::shared::builder_orders::SweepOrder`): published versions and export objects past their
//! retention (`docs_edge_core::platform::retention`), files of sites' stores no kept version
//! refers to (`crate::builder::sweep::file_stores`), expired previews' pointers, and hosted sites' exports their
//! pointers no longer keep (`docs_edge_core::export::hosting::hosted_file_swept`), at most the order's list pages per run, from the key after the
//! one the last run stopped at. The edge keeps that cursor and logs the outcome.

use docs_edge_core::export::hosting::{
    hosted_export_of, hosted_file_swept, hosted_pointer_of, LiveSite, KEEP_RETIRED_MS,
};
use docs_edge_core::platform::retention::{
    export_job_of, site_domain, sweep_decision, Decision, Live, Retention,
};
use worker::{Bucket, Env, Request, Response};

use crate::builder::hosted_pointer::{read_live, serves_export};
use crate::builder::sweep::file_stores::StoreSweep;
use crate::shared::builder_orders::{SweepOrder, Swept};
use crate::shared::clock::now_ms;
use crate::shared::error::ApiResult;
use crate::shared::http::json_response;
use crate::shared::sites;
use crate::shared::storage;

/// `POST /sweep` with a [`SweepOrder`]: answers [`Swept`].
pub async fn serve(req: &mut Request, env: &Env) -> ApiResult<Response> {
    let order: SweepOrder = serde_json::from_slice(&req.bytes().await?)?;
    json_response(200, &run(env, order).await?)
}

async fn run(env: &Env, order: SweepOrder) -> ApiResult<Swept> {
    let bucket = storage::bucket(env)?;
    let retention = Retention {
        publish_days: order.publish_retention_days,
        export_days: order.export_retention_days,
    };
    let now = now_ms();
    let mut after = order.after;
    let mut store = StoreSweep::new(&bucket, order.run, now, retention, order.file_in_flight_ms);
    match sweep_pages(
        &bucket,
        &mut store,
        &mut after,
        now,
        retention,
        (order.page_keys, order.pages, order.hosted_keep_retired_ms),
    )
    .await
    {
        Ok(deleted) => Ok(Swept {
            deleted: deleted + store.finish().await?,
            after,
        }),
        Err(err) => {
            store.abandon().await;
            Err(err)
        }
    }
}

/// The pages of one run, from the key after `after`, which it leaves at the last key looked at
/// (`None` once the listing reached the end).
async fn sweep_pages(
    bucket: &Bucket,
    store: &mut StoreSweep<'_>,
    after: &mut Option<String>,
    now: u64,
    retention: Retention,
    (page_keys, pages, keep_retired_ms): (u32, usize, Option<u64>),
) -> ApiResult<u64> {
    let mut deleted = 0u64;
    // The live version of the domain whose keys are being listed (keys come in order).
    let mut live: Option<(String, Option<(String, u64)>)> = None;
    // Likewise the live pointer of the hosted domain whose exports' files are being listed.
    let mut hosted: Option<(String, Option<LiveSite>)> = None;
    // Likewise whether the export whose own files are being listed is one a hosted site serves.
    let mut served: Option<(String, bool)> = None;
    let keep_retired_ms = keep_retired_ms.unwrap_or(KEEP_RETIRED_MS);
    for _ in 0..pages {
        let mut list = bucket.list().limit(page_keys);
        if let Some(key) = after.as_ref() {
            list = list.start_after(key.clone());
        }
        let page = list.execute().await?;
        let mut doomed = Vec::new();
        let mut budget_spent = false;
        for object in page.objects() {
            let key = object.key();
            let uploaded_ms = object.uploaded().as_millis();
            if StoreSweep::owns(&key) {
                if !store.judge(&key, uploaded_ms).await? {
                    budget_spent = true;
                    break;
                }
            } else if let Some(host) = hosted_pointer_of(&key) {
                // A pointer comes before its exports' files: an expired preview's is deleted, and
                // its files are then judged as a site's with no pointer.
                let pointer = read_live(bucket, host).await?;
                if pointer.as_ref().is_some_and(|live| live.expired(now)) {
                    doomed.push(key.clone());
                }
                hosted = Some((host.to_string(), pointer));
            } else if let Some((domain, export_id)) = hosted_export_of(&key) {
                if hosted.as_ref().is_none_or(|(seen, _)| seen != domain) {
                    hosted = Some((domain.to_string(), read_live(bucket, domain).await?));
                }
                let pointer = hosted.as_ref().and_then(|(_, live)| live.as_ref());
                if hosted_file_swept(export_id, uploaded_ms, now, pointer, keep_retired_ms) {
                    doomed.push(key.clone());
                }
            } else if let Some(job) = export_job_of(&key) {
                if served.as_ref().is_none_or(|(seen, _)| seen != job) {
                    served = Some((job.to_string(), serves_export(bucket, job).await?));
                }
                let kept = served.as_ref().is_some_and(|(_, kept)| *kept);
                if !kept
                    && sweep_decision(&key, uploaded_ms, now, None, retention) == Decision::Delete
                {
                    doomed.push(key.clone());
                }
            } else {
                let live_id = match site_domain(&key) {
                    Some(domain) => {
                        if live.as_ref().is_none_or(|(seen, _)| seen != domain) {
                            live = Some((
                                domain.to_string(),
                                sites::live_pointer(bucket, domain).await?,
                            ));
                        }
                        live.as_ref().and_then(|(_, pointer)| pointer.as_ref())
                    }
                    None => None,
                };
                let live_version = live_id.map(|(publish_id, since_ms)| Live {
                    publish_id,
                    since_ms: *since_ms,
                });
                if sweep_decision(&key, uploaded_ms, now, live_version, retention)
                    == Decision::Delete
                {
                    doomed.push(key.clone());
                }
            }
            *after = Some(key);
        }
        deleted += store.flush().await?;
        if !doomed.is_empty() {
            deleted += doomed.len() as u64;
            bucket.delete_multiple(doomed).await?;
        }
        if budget_spent {
            // The next run starts at the store this one could not read.
            break;
        }
        if !page.truncated() {
            *after = None;
            break;
        }
    }
    Ok(deleted)
}

pub mod file_stores;
