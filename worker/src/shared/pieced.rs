//! Reading a version's text pack or `llms-full.txt`, stored whole beside the version or, for a
//! version staged since the pieces (`docs_edge_core::publish::pieced`), as its batches' pieces in
//! the site's store listed by its piece table. Readers ask for byte ranges of the logical object and
//! never learn which.

use std::ops::Range;
use std::rc::Rc;

use docs_edge_core::publish::pieced::{Pieced, Pieces, PIECES_OBJECT};
use futures_util::{StreamExt, TryStreamExt};
use worker::Bucket;

use crate::shared::error::{ApiError, ApiResult};
use crate::shared::join::try_join_all;
use crate::shared::storage::{self, site_file_key, version_key, LLMS_FULL_TXT, SEARCH_TEXT};

/// One of a version's pieced objects.
#[derive(Clone)]
pub enum Stored {
    /// Stored whole under this key.
    Whole(String),
    /// As pieces of `domain`'s store.
    Pieces {
        domain: String,
        table: Rc<Pieces>,
        kind: Pieced,
    },
}

/// The name beside a version of `kind`'s whole object.
fn whole_name(kind: Pieced) -> &'static str {
    match kind {
        Pieced::Text => SEARCH_TEXT,
        Pieced::Llms => LLMS_FULL_TXT,
    }
}

/// Version `publish_id`'s piece table, if it has one.
pub async fn table(bucket: &Bucket, domain: &str, publish_id: &str) -> ApiResult<Option<Pieces>> {
    let Some(bytes) = storage::read(
        bucket,
        &version_key(domain, publish_id, PIECES_OBJECT),
        None,
    )
    .await?
    else {
        return Ok(None);
    };
    Pieces::from_bytes(&bytes)
        .map(Some)
        .map_err(|e| ApiError::Internal(format!("piece table of {domain} {publish_id}: {e}")))
}

/// The piece table of version `publish_id`, which its pointer says it has (`SiteVersion::pieces`).
pub async fn required_table(bucket: &Bucket, domain: &str, publish_id: &str) -> ApiResult<Pieces> {
    table(bucket, domain, publish_id).await?.ok_or_else(|| {
        ApiError::Internal(format!("piece table of {domain} {publish_id} is missing"))
    })
}

impl Stored {
    /// `kind` of version `publish_id`: its pieces when `table` is its piece table, else whole.
    pub fn of(domain: &str, publish_id: &str, table: Option<Rc<Pieces>>, kind: Pieced) -> Stored {
        match table {
            Some(table) => Stored::Pieces {
                domain: domain.to_owned(),
                table,
                kind,
            },
            None => Stored::Whole(version_key(domain, publish_id, whole_name(kind))),
        }
    }

    /// What error messages call it.
    fn name(&self) -> &str {
        match self {
            Stored::Whole(key) => key,
            Stored::Pieces { kind, .. } => whole_name(*kind),
        }
    }

    /// Its size; `None` when a whole object is missing.
    pub async fn size(&self, bucket: &Bucket) -> ApiResult<Option<u64>> {
        Ok(match self {
            Stored::Whole(key) => bucket.head(key).await?.map(|o| o.size()),
            Stored::Pieces { table, kind, .. } => Some(table.size(*kind)),
        })
    }

    /// Bytes `range`; `None` when a whole object is missing. Pieces are read at once.
    pub async fn read(&self, bucket: &Bucket, range: Range<u64>) -> ApiResult<Option<Vec<u8>>> {
        let want = range.end - range.start;
        let bytes = match self {
            Stored::Whole(key) => match storage::read(bucket, key, Some(range)).await? {
                Some(bytes) => bytes,
                None => return Ok(None),
            },
            Stored::Pieces {
                domain,
                table,
                kind,
            } => {
                let reads = table.reads(*kind, range.clone()).ok_or_else(|| {
                    ApiError::Internal(format!(
                        "{} of {domain}: range {range:?} past its end",
                        self.name()
                    ))
                })?;
                let parts = try_join_all(reads.into_iter().map(|(name, r)| async move {
                    let key = site_file_key(domain, &name);
                    storage::read(bucket, &key, Some(r))
                        .await?
                        .ok_or_else(|| ApiError::Internal(format!("{key} is missing")))
                }))
                .await?;
                parts.concat()
            }
        };
        if bytes.len() as u64 != want {
            return Err(ApiError::Internal(format!("{}: short read", self.name())));
        }
        Ok(Some(bytes))
    }

    /// The pieces as one stream of chunks, a piece read at a time; `None` for a whole object
    /// (whose body streams as it is).
    pub fn stream(
        &self,
        bucket: &Bucket,
    ) -> Option<impl futures_util::Stream<Item = worker::Result<Vec<u8>>> + 'static> {
        let Stored::Pieces {
            domain,
            table,
            kind,
        } = self
        else {
            return None;
        };
        let keys: Vec<String> = table
            .objects(*kind)
            .map(|name| site_file_key(domain, &name))
            .collect();
        let bucket = bucket.clone();
        let bodies = futures_util::stream::iter(keys).then(move |key| {
            let bucket = bucket.clone();
            async move {
                let object = bucket
                    .get(&key)
                    .execute()
                    .await?
                    .ok_or_else(|| worker::Error::RustError(format!("{key} is missing")))?;
                object
                    .body()
                    .ok_or_else(|| worker::Error::RustError(format!("{key} has no body")))?
                    .stream()
            }
        });
        Some(bodies.try_flatten())
    }
}
