//! The publish's concatenations (the text pack, `llms-full.txt`, the term pack): an object written
//! as the concatenation of pieces (whole objects, or ranges of the live version's packs for the
//! batches a re-publish took), whose lengths are known beforehand, so the parts of its multipart
//! upload are planned up front (`docs_edge_core::publish::concat`). Each part is assembled from
//! ranged reads (a part inside one piece is one read, not copied) and uploaded, a few at once.
//! Parts streamed from the read into the upload instead (never in the builder's memory) were
//! measured slower under `wrangler dev` (docs/publish/republish.mdx).

use docs_edge_core::publish::concat::{parts, Part};
use futures_util::{StreamExt, TryStreamExt};
use worker::{Bucket, MultipartUpload, UploadedPart};

use crate::shared::error::{ApiError, ApiResult};
use crate::shared::storage::PART_BYTES;

/// Parts assembled and uploaded at once, per object. Each holds its part (5 MiB) in the builder's
/// memory and the publish runs its three concatenations together: at most six parts, 30 MiB.
const PARTS_AT_ONCE: usize = 2;

/// A byte range of an object that a concatenation reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Piece {
    pub(super) key: String,
    pub(super) offset: u64,
    pub(super) len: u64,
}

impl Piece {
    /// `pieces` without empty ones, each run of adjacent ranges of one object read as one range
    /// (consecutive batches taken from the live version sit one after another in its packs).
    pub(super) fn joined(pieces: impl Iterator<Item = Piece>) -> Vec<Piece> {
        let mut out: Vec<Piece> = Vec::new();
        for piece in pieces.filter(|p| p.len > 0) {
            if let Some(last) = out
                .last_mut()
                .filter(|l| l.key == piece.key && l.offset + l.len == piece.offset)
            {
                last.len += piece.len;
                continue;
            }
            out.push(piece);
        }
        out
    }
}

/// Writes `key` as the concatenation of `pieces`; returns its size.
pub(super) async fn concat(bucket: &Bucket, key: &str, pieces: &[Piece]) -> ApiResult<u64> {
    let lens: Vec<u64> = pieces.iter().map(|p| p.len).collect();
    let total = lens.iter().sum();
    let cut = parts(&lens, PART_BYTES as u64);
    if cut.len() <= 1 {
        let bytes = match cut.first() {
            Some(part) => assemble(bucket, pieces, part).await?,
            None => Vec::new(),
        };
        bucket.put(key, bytes).execute().await?;
        return Ok(total);
    }
    let upload = bucket.create_multipart_upload(key).execute().await?;
    match upload_parts(bucket, &upload, pieces, &cut).await {
        Ok(uploaded) => {
            upload.complete(uploaded).await?;
            Ok(total)
        }
        Err(err) => {
            if let Err(abort) = upload.abort().await {
                crate::shared::log_line::error(
                    &serde_json::json!({"event": "multipart_abort_failed", "key": key, "context": "publish_concat", "error": abort.to_string()}),
                );
            }
            Err(err)
        }
    }
}

/// Every part of `cut`, in part order: a few assembled and uploaded at once.
async fn upload_parts(
    bucket: &Bucket,
    upload: &MultipartUpload,
    pieces: &[Piece],
    cut: &[Part],
) -> ApiResult<Vec<UploadedPart>> {
    let mut uploaded =
        futures_util::stream::iter(cut.iter().enumerate().map(|(i, part)| async move {
            let bytes = assemble(bucket, pieces, part).await?;
            Ok::<_, ApiError>((i, upload.upload_part(part_number(i)?, bytes).await?))
        }))
        .buffer_unordered(PARTS_AT_ONCE)
        .try_collect::<Vec<_>>()
        .await?;
    docs_edge_core::sort::sort_by_key(&mut uploaded, |(i, _)| *i);
    Ok(uploaded.into_iter().map(|(_, part)| part).collect())
}

fn part_number(i: usize) -> ApiResult<u16> {
    u16::try_from(i + 1)
        .map_err(|_| ApiError::Internal("a concatenation of more than 65,535 parts".into()))
}

/// The bytes of a part, read piece range by piece range (a part inside one piece is its one read).
async fn assemble(bucket: &Bucket, pieces: &[Piece], part: &Part) -> ApiResult<Vec<u8>> {
    if let [(piece, range)] = part.as_slice() {
        return read(bucket, &pieces[*piece], range).await;
    }
    let mut bytes = Vec::with_capacity(part.iter().map(|(_, r)| (r.end - r.start) as usize).sum());
    for (piece, range) in part {
        bytes.extend_from_slice(&read(bucket, &pieces[*piece], range).await?);
    }
    Ok(bytes)
}

/// Bytes `range` of `piece`.
async fn read(bucket: &Bucket, piece: &Piece, range: &std::ops::Range<u64>) -> ApiResult<Vec<u8>> {
    let read = crate::shared::storage::read(
        bucket,
        &piece.key,
        Some(piece.offset + range.start..piece.offset + range.end),
    )
    .await?
    .ok_or_else(|| ApiError::Internal(format!("{} is missing", piece.key)))?;
    if read.len() as u64 != range.end - range.start {
        return Err(ApiError::Internal(format!("{}: short read", piece.key)));
    }
    Ok(read)
}
