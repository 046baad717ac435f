//! The export a hosted export is layered on (`docs_edge_core::export::layers`), as its copy steps
//! read it: the previous export's delta listing (every file's SHA-256, `super::delta_listing`),
//! read once per job and isolate (its index and parts, a few at a time), so a file whose bytes the
//! base already holds is not written again.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use docs_edge_core::export::delta::{object_path, read_entries, FileEntry, INDEX_PATH};
use docs_edge_core::export::layers::LayeredOn;
use docs_edge_core::export::segments::{segment_path, SEGMENTS_METADATA};
use futures_util::future::try_join_all;
use worker::Bucket;

use crate::shared::error::{ApiError, ApiResult};
use crate::shared::storage::{self, hosted_file_key};

/// Objects of a listing read at once.
const READS_AT_ONCE: usize = 16;

/// The previous export's files, by path, and which of its listing's objects the base holds.
pub struct Previous {
    pub layer: LayeredOn,
    pub files: HashMap<String, FileEntry>,
    /// The previous listing's parts that the base holds: a part the new listing has too is not
    /// written again.
    pub base_parts: HashSet<String>,
}

thread_local! {
    /// The last job's [`Previous`], kept between its steps as the job's loaded version is.
    static LOADED: RefCell<Option<(String, Rc<Previous>)>> = const { RefCell::new(None) };
}

impl Previous {
    /// The previous export of `host` the job `job_id` is layered on; `None` when its listing is
    /// missing (an export older than the listing): the job then writes its export whole.
    pub async fn load(
        bucket: &Bucket,
        host: &str,
        job_id: &str,
        layer: &LayeredOn,
    ) -> ApiResult<Option<Rc<Previous>>> {
        let kept = LOADED.with(|loaded| {
            loaded
                .borrow()
                .as_ref()
                .filter(|(job, previous)| job == job_id && previous.layer == *layer)
                .map(|(_, previous)| previous.clone())
        });
        if kept.is_some() {
            return Ok(kept);
        }
        let read = |path: String| async move {
            let key = hosted_file_key(host, layer.previous_holding(&path), &path);
            storage::read(bucket, &key, None).await
        };
        let Some(index) = read(INDEX_PATH.to_string()).await? else {
            return Ok(None);
        };
        let index = String::from_utf8_lossy(&index);
        let parts: Vec<String> = index
            .lines()
            .skip(1)
            .filter_map(|line| line.split(' ').next())
            .map(str::to_string)
            .collect();
        let mut files = HashMap::new();
        for batch in parts.chunks(READS_AT_ONCE) {
            let bodies = try_join_all(batch.iter().map(|sha| read(object_path(sha)))).await?;
            for (sha, body) in batch.iter().zip(bodies) {
                let body =
                    body.ok_or_else(|| ApiError::Internal(format!("delta part {sha} is missing")))?;
                for entry in read_entries(&body).map_err(ApiError::Internal)? {
                    files.insert(entry.path.clone(), entry);
                }
            }
        }
        let base_parts = parts
            .into_iter()
            .filter(|sha| layer.in_base(&object_path(sha)))
            .collect();
        let previous = Rc::new(Previous {
            layer: layer.clone(),
            files,
            base_parts,
        });
        LOADED.with(|loaded| {
            *loaded.borrow_mut() = Some((job_id.to_string(), previous.clone()));
        });
        Ok(Some(previous))
    }

    /// The listing objects of the previous export's file `path` (its chunk list, the list's groups
    /// and their chunks) that the base holds, and the segments it holds of the file: a new version
    /// of the file, cut into chunks, writes only the chunks and segments that changed. A file the
    /// base stored whole (an export before segments) has no segments held.
    pub async fn base_objects(
        &self,
        bucket: &Bucket,
        host: &str,
        path: &str,
    ) -> ApiResult<(HashSet<String>, HashSet<String>)> {
        let mut known = HashSet::new();
        let Some(list) = self.files.get(path).and_then(|f| f.chunks.clone()) else {
            return Ok((known, HashSet::new()));
        };
        let file = hosted_file_key(host, self.layer.previous_holding(path), path);
        let segmented = bucket
            .head(file)
            .await?
            .and_then(|object| object.custom_metadata().ok())
            .is_some_and(|custom| custom.contains_key(SEGMENTS_METADATA));
        let read = |sha: String| async move {
            let path = object_path(&sha);
            let key = hosted_file_key(host, self.layer.previous_holding(&path), &path);
            storage::read(bucket, &key, None).await
        };
        let pairs = |bytes: Option<Vec<u8>>| -> Vec<String> {
            bytes
                .map(|b| {
                    String::from_utf8_lossy(&b)
                        .lines()
                        .filter_map(|line| line.split(' ').next().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        let groups = pairs(read(list.clone()).await?);
        known.insert(list);
        for batch in groups.chunks(READS_AT_ONCE) {
            let bodies = try_join_all(batch.iter().cloned().map(read)).await?;
            for body in bodies {
                known.extend(pairs(body));
            }
        }
        let segments = match segmented {
            true => groups
                .iter()
                .filter(|name| self.layer.in_base(&segment_path(name)))
                .cloned()
                .collect(),
            false => HashSet::new(),
        };
        known.extend(groups);
        known.retain(|sha| self.layer.in_base(&object_path(sha)));
        Ok((known, segments))
    }
}
