//! A request body streamed into one R2 object without holding it: parts of [`PART_BYTES`] go up as
//! they fill (a body smaller than one part is one plain put), and the size limit is enforced as
//! the bytes arrive, so an oversized body is refused (413) before it is ever whole, and nothing of
//! it is left in R2.

use futures_util::StreamExt;
use worker::{Bucket, Request};

use crate::storage::PART_BYTES;
use crate::error::{ApiError, ApiResult};
use crate::http::{header, too_large};

/// Stores the body of `req` at `key`; returns its size. 413 past `max_bytes` (declared or counted).
pub async fn store_body(req: &mut Request, bucket: &Bucket, key: &str, max_bytes: usize) -> ApiResult<u64> {
    if header(req, "content-length").and_then(|v| v.parse::<u64>().ok()).is_some_and(|declared| declared > max_bytes as u64) {
        return Err(too_large(max_bytes));
    }
    let mut stream = match req.stream() {
        Ok(stream) => stream,
        Err(worker::Error::BodyUsed) => return Err(ApiError::Internal("reading body: already read".into())),
        // No body at all.
        Err(_) => {
            bucket.put(key, Vec::<u8>::new()).execute().await?;
            return Ok(0);
        }
    };
    let mut buffer: Vec<u8> = Vec::new();
    let mut total = 0usize;
    let mut upload: Option<worker::MultipartUpload> = None;
    let mut parts = Vec::new();
    let outcome: ApiResult<()> = async {
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| ApiError::Invalid(format!("body: could not be read: {e}")))?;
            total += chunk.len();
            if total > max_bytes {
                return Err(too_large(max_bytes));
            }
            buffer.extend_from_slice(&chunk);
            while buffer.len() >= PART_BYTES {
                let rest = buffer.split_off(PART_BYTES);
                let part = std::mem::replace(&mut buffer, rest);
                if upload.is_none() {
                    upload = Some(bucket.create_multipart_upload(key).execute().await?);
                }
                if let Some(upload) = &upload {
                    parts.push(upload.upload_part(parts.len() as u16 + 1, part).await?);
                }
            }
        }
        Ok(())
    }
    .await;
    match (outcome, upload) {
        (Ok(()), None) => {
            bucket.put(key, buffer).execute().await?;
        }
        (Ok(()), Some(upload)) => {
            if !buffer.is_empty() {
                parts.push(upload.upload_part(parts.len() as u16 + 1, buffer).await?);
            }
            upload.complete(parts).await?;
        }
        (Err(err), upload) => {
            if let Some(upload) = upload {
                // Best effort: R2 drops unfinished uploads on its own after a while.
                if let Err(abort) = upload.abort().await {
                    crate::log_line::error(&serde_json::json!({"event": "upload_abort_failed", "error": abort.to_string()}));
                }
            }
            return Err(err);
        }
    }
    Ok(total as u64)
}
