//! A request body streamed into one R2 object without holding it: parts go up as they fill
//! ([`PartWriter`]; a body smaller than one part is one plain put), and the size limit is enforced as
//! the bytes arrive, so an oversized body is refused (413) before it is ever whole, and nothing of
//! it is left in R2.

use futures_util::StreamExt;
use worker::{Bucket, Request};

use crate::multipart::PartWriter;
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
    let mut writer = PartWriter::new(bucket, key);
    let outcome: ApiResult<()> = async {
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| ApiError::Invalid(format!("body: could not be read: {e}")))?;
            if writer.written() + chunk.len() as u64 > max_bytes as u64 {
                return Err(too_large(max_bytes));
            }
            writer.write(&chunk).await?;
        }
        Ok(())
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
