//! SHA-256 by the runtime (`crypto.DigestStream`, `crypto.subtle.digest`) rather than in wasm: a
//! hosted export hashes every byte of its large files twice (the file whole, for its listing entry,
//! and each chunk it is cut into), about 120 MB at 10×, and the runtime's hashing runs several times
//! faster than the wasm build of `sha2`, with no wasm memory held.

use docs_edge_core::security::signing::to_hex;
use js_sys::{Promise, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::WritableStreamDefaultWriter;
use worker::worker_sys::DigestStream;

use crate::shared::error::{ApiError, ApiResult};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["crypto", "subtle"], js_name = digest)]
    fn subtle_digest(algorithm: &str, data: &Uint8Array) -> Promise;
}

fn failed(err: JsValue) -> ApiError {
    ApiError::Internal(format!("hashing: {err:?}"))
}

async fn hex_of(promise: Promise) -> ApiResult<String> {
    let buffer = JsFuture::from(promise).await.map_err(failed)?;
    Ok(to_hex(&Uint8Array::new(&buffer).to_vec()))
}

/// The SHA-256 of `data`, hex.
pub async fn sha256_hex(data: &[u8]) -> ApiResult<String> {
    hex_of(subtle_digest("SHA-256", &Uint8Array::from(data))).await
}

/// A SHA-256 taken as a file's bytes arrive.
pub struct StreamingSha256 {
    stream: DigestStream,
    writer: WritableStreamDefaultWriter,
}

impl StreamingSha256 {
    pub fn new() -> ApiResult<Self> {
        let stream = DigestStream::new("SHA-256");
        let writer = stream.get_writer().map_err(failed)?;
        Ok(StreamingSha256 { stream, writer })
    }

    pub async fn update(&self, data: &[u8]) -> ApiResult<()> {
        let chunk = Uint8Array::from(data);
        JsFuture::from(self.writer.write_with_chunk(&chunk))
            .await
            .map_err(failed)?;
        Ok(())
    }

    /// The hash of every byte given, hex.
    pub async fn finish(self) -> ApiResult<String> {
        JsFuture::from(self.writer.close()).await.map_err(failed)?;
        hex_of(self.stream.digest()).await
    }
}
