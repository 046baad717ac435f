//! A request body streamed into one R2 object without holding it: parts go up as they fill
//! ([`PartWriter`]; a body smaller than one part is one plain put), and the size limit is enforced as
//! the bytes arrive, so an oversized body is refused (413) before it is ever whole, and nothing of
//! it is left in R2.

use std::collections::HashMap;

use futures_util::StreamExt;
use worker::{Bucket, Request};

use docs_edge_core::publish::manifest::hex_prefix;
use sha2::{Digest, Sha256};

use crate::builder::multipart::PartWriter;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::http::{refuse_declared_over, too_large};

/// Stores the body of `req` at `key`; returns its size. 413 past `max_bytes` (declared or counted).
pub async fn store_body(
    req: &mut Request,
    bucket: &Bucket,
    key: &str,
    max_bytes: usize,
) -> ApiResult<u64> {
    store_checked(req, bucket, key, max_bytes, None, HashMap::new()).await
}

/// [`store_body`] for a file of a site's content-addressed store: the bytes are hashed as they pass
/// and the object is made only if they have `hash` (else 400 `hash_mismatch`, nothing stored), with
/// `custom` as its custom metadata.
pub async fn store_file(
    req: &mut Request,
    bucket: &Bucket,
    key: &str,
    max_bytes: usize,
    hash: &str,
    custom: HashMap<String, String>,
) -> ApiResult<u64> {
    store_checked(req, bucket, key, max_bytes, Some(hash), custom).await
}

async fn store_checked(
    req: &mut Request,
    bucket: &Bucket,
    key: &str,
    max_bytes: usize,
    hash: Option<&str>,
    custom: HashMap<String, String>,
) -> ApiResult<u64> {
    refuse_declared_over(req, max_bytes)?;
    let mut stream = match req.stream() {
        Ok(stream) => stream,
        Err(worker::Error::BodyUsed) => {
            return Err(ApiError::Internal("reading body: already read".into()))
        }
        // No body at all.
        Err(_) => {
            check_hash(hash, &Sha256::new())?;
            bucket
                .put(key, Vec::<u8>::new())
                .custom_metadata(custom)
                .execute()
                .await?;
            return Ok(0);
        }
    };
    let mut writer = PartWriter::new(bucket, key).with_custom_metadata(custom);
    let mut hasher = Sha256::new();
    let outcome: ApiResult<()> = async {
        while let Some(chunk) = stream.next().await {
            let chunk =
                chunk.map_err(|e| ApiError::Invalid(format!("body: could not be read: {e}")))?;
            if writer.written() + chunk.len() as u64 > max_bytes as u64 {
                return Err(too_large(max_bytes));
            }
            if hash.is_some() {
                hasher.update(&chunk);
            }
            writer.write(&chunk).await?;
        }
        check_hash(hash, &hasher)
    }
    .await;
    match outcome {
        Ok(()) => Ok(writer.finish().await?),
        Err(err) => {
            writer.abort("upload").await;
            Err(err)
        }
    }
}

fn check_hash(expected: Option<&str>, hasher: &Sha256) -> ApiResult<()> {
    let Some(expected) = expected else {
        return Ok(());
    };
    let got = hex_prefix(&hasher.clone().finalize());
    if got == expected {
        Ok(())
    } else {
        Err(ApiError::HashMismatch(format!(
            "the body's hash is {got}, not {expected} (the first 32 hex digits of its SHA-256)"
        )))
    }
}
