//! The publish's concatenations (the text pack, `llms-full.txt`, the term pack): an object written
//! as the concatenation of pieces (whole objects, or ranges of the live version's packs for the
//! batches a re-publish took), whose lengths are known beforehand, so the parts of its multipart
//! upload are planned up front (`docs_edge_core::publish::concat`). A part inside one piece is one
//! ranged read whose body the runtime pipes into the upload: the bytes never enter the builder's
//! memory, so several such parts go at once (a re-publish's parts are almost all of this kind). A
//! part spanning pieces is assembled, one at a time per object (one part held, as before).

use docs_edge_core::publish::concat::{parts, Part};
use futures_util::future::try_join;
use futures_util::{StreamExt, TryStreamExt};
use worker::worker_sys::FixedLengthStream;
use worker::{Bucket, Data, MultipartUpload, Range, ResponseBody, UploadedPart};

use crate::error::{ApiError, ApiResult};
use crate::storage::PART_BYTES;

/// Parts streamed from one piece to the upload at once, per object.
const STREAMED_PARTS_AT_ONCE: usize = 4;

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
            if let Some(last) = out.last_mut().filter(|l| l.key == piece.key && l.offset + l.len == piece.offset) {
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
                crate::log_line::error(&serde_json::json!({"event": "multipart_abort_failed", "key": key, "context": "publish_concat", "error": abort.to_string()}));
            }
            Err(err)
        }
    }
}

/// Every part of `cut`, in part order.
async fn upload_parts(bucket: &Bucket, upload: &MultipartUpload, pieces: &[Piece], cut: &[Part]) -> ApiResult<Vec<UploadedPart>> {
    let (within, spanning): (Vec<(usize, &Part)>, Vec<(usize, &Part)>) = cut.iter().enumerate().partition(|(_, part)| part.len() == 1);
    let streamed = futures_util::stream::iter(within.into_iter().map(|(i, part)| async move {
        let (piece, range) = &part[0];
        Ok::<_, ApiError>((i, upload.upload_part(part_number(i)?, stream_of(bucket, &pieces[*piece], range).await?).await?))
    }))
    .buffer_unordered(STREAMED_PARTS_AT_ONCE)
    .try_collect::<Vec<_>>();
    let assembled = async {
        let mut done = Vec::new();
        for (i, part) in spanning {
            let bytes = assemble(bucket, pieces, part).await?;
            done.push((i, upload.upload_part(part_number(i)?, bytes).await?));
        }
        Ok(done)
    };
    let (mut uploaded, assembled) = try_join(streamed, assembled).await?;
    uploaded.extend(assembled);
    uploaded.sort_by_key(|(i, _)| *i);
    Ok(uploaded.into_iter().map(|(_, part)| part).collect())
}

fn part_number(i: usize) -> ApiResult<u16> {
    u16::try_from(i + 1).map_err(|_| ApiError::Internal("a concatenation of more than 65,535 parts".into()))
}

/// Bytes `range` of `piece`, as a stream of known length: the body of one ranged read, piped by the
/// runtime (not through the builder) into a `FixedLengthStream`, since R2 takes a part's stream
/// only with its length known.
async fn stream_of(bucket: &Bucket, piece: &Piece, range: &std::ops::Range<u64>) -> ApiResult<Data> {
    let length = range.end - range.start;
    let object = bucket
        .get(&piece.key)
        .range(Range::OffsetWithLength { offset: piece.offset + range.start, length })
        .execute()
        .await?
        .ok_or_else(|| ApiError::Internal(format!("{} is missing", piece.key)))?;
    let body = object.body().ok_or_else(|| ApiError::Internal(format!("{} has no body", piece.key)))?;
    let stream = match body.response_body()? {
        ResponseBody::Stream(stream) => stream,
        ResponseBody::Body(bytes) => return Ok(Data::Bytes(bytes)),
        ResponseBody::Empty => return Ok(Data::Empty),
    };
    let fixed = FixedLengthStream::new_big_int(js_sys::BigInt::from(length)).map_err(|e| ApiError::Internal(format!("FixedLengthStream: {e:?}")))?;
    let piped = stream.pipe_to(&fixed.writable());
    // The pipe runs on its own; a failure of it fails the part's upload, which reports it.
    wasm_bindgen_futures::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(piped).await;
    });
    Ok(Data::ReadableStream(fixed.readable()))
}

/// The bytes of a part, read piece range by piece range.
async fn assemble(bucket: &Bucket, pieces: &[Piece], part: &Part) -> ApiResult<Vec<u8>> {
    let mut bytes = Vec::with_capacity(part.iter().map(|(_, r)| (r.end - r.start) as usize).sum());
    for (piece, range) in part {
        let piece = &pieces[*piece];
        let read = crate::storage::read(bucket, &piece.key, Some(piece.offset + range.start..piece.offset + range.end))
            .await?
            .ok_or_else(|| ApiError::Internal(format!("{} is missing", piece.key)))?;
        if read.len() as u64 != range.end - range.start {
            return Err(ApiError::Internal(format!("{}: short read", piece.key)));
        }
        bytes.extend_from_slice(&read);
    }
    Ok(bytes)
}
