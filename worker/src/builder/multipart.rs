//! An R2 object written as its bytes arrive, holding at most one part: every part but the last is
//! [`PART_BYTES`] (R2 wants them equal, and at least 5 MiB). The multipart upload begins with the
//! first full part, so an object smaller than one part is one plain put. The upload body, the
//! publish's concatenated packs and the export bundle are all written this way.

use std::collections::HashMap;

use worker::{Bucket, HttpMetadata, MultipartUpload, UploadedPart};

use crate::shared::storage::PART_BYTES;

pub struct PartWriter<'a> {
    bucket: &'a Bucket,
    key: String,
    http_metadata: Option<HttpMetadata>,
    custom_metadata: Option<HashMap<String, String>>,
    upload: Option<MultipartUpload>,
    parts: Vec<UploadedPart>,
    buffer: Vec<u8>,
    written: u64,
}

impl<'a> PartWriter<'a> {
    pub fn new(bucket: &'a Bucket, key: impl Into<String>) -> Self {
        PartWriter {
            bucket,
            key: key.into(),
            http_metadata: None,
            custom_metadata: None,
            upload: None,
            parts: Vec::new(),
            buffer: Vec::new(),
            written: 0,
        }
    }

    /// The object's HTTP and custom metadata, as a put or a multipart upload stores them.
    pub fn with_metadata(mut self, http: HttpMetadata, custom: HashMap<String, String>) -> Self {
        self.http_metadata = Some(http);
        self.custom_metadata = Some(custom);
        self
    }

    /// The object's custom metadata alone.
    pub fn with_custom_metadata(mut self, custom: HashMap<String, String>) -> Self {
        self.custom_metadata = Some(custom);
        self
    }

    /// Appends `bytes`, uploading each part as it fills. The buffer never holds more than one part,
    /// and grows only as far as one part, so a large write costs no more memory than a small one.
    pub async fn write(&mut self, mut bytes: &[u8]) -> worker::Result<()> {
        self.written += bytes.len() as u64;
        while !bytes.is_empty() {
            let take = (PART_BYTES - self.buffer.len()).min(bytes.len());
            let needed = self.buffer.len() + take;
            if needed > self.buffer.capacity() {
                let target = (self.buffer.capacity() * 2).max(needed).min(PART_BYTES);
                self.buffer.reserve_exact(target - self.buffer.len());
            }
            self.buffer.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.buffer.len() == PART_BYTES {
                let part = std::mem::take(&mut self.buffer);
                self.upload_part(part).await?;
            }
        }
        Ok(())
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    async fn upload_part(&mut self, part: Vec<u8>) -> worker::Result<()> {
        if self.upload.is_none() {
            let mut create = self.bucket.create_multipart_upload(&self.key);
            if let Some(http) = self.http_metadata.clone() {
                create = create.http_metadata(http);
            }
            if let Some(custom) = self.custom_metadata.clone() {
                create = create.custom_metadata(custom);
            }
            self.upload = Some(create.execute().await?);
        }
        if let Some(upload) = &self.upload {
            self.parts.push(
                upload
                    .upload_part(self.parts.len() as u16 + 1, part)
                    .await?,
            );
        }
        Ok(())
    }

    /// Stores what is left and makes the object; returns its size.
    pub async fn finish(mut self) -> worker::Result<u64> {
        let Some(upload) = self.upload.take() else {
            let mut put = self.bucket.put(&self.key, std::mem::take(&mut self.buffer));
            if let Some(http) = self.http_metadata.take() {
                put = put.http_metadata(http);
            }
            if let Some(custom) = self.custom_metadata.take() {
                put = put.custom_metadata(custom);
            }
            put.execute().await?;
            return Ok(self.written);
        };
        if !self.buffer.is_empty() {
            let last = std::mem::take(&mut self.buffer);
            self.parts.push(
                upload
                    .upload_part(self.parts.len() as u16 + 1, last)
                    .await?,
            );
        }
        upload.complete(std::mem::take(&mut self.parts)).await?;
        Ok(self.written)
    }

    /// Gives up the object: a multipart upload begun is aborted (best effort: R2 drops unfinished
    /// uploads on its own after a while, holding their parts until then).
    pub async fn abort(self, context: &str) {
        if let Some(upload) = self.upload {
            if let Err(err) = upload.abort().await {
                crate::shared::log_line::error(
                    &serde_json::json!({"event": "multipart_abort_failed", "key": self.key, "context": context, "error": err.to_string()}),
                );
            }
        }
    }
}
