//! Durable Object records stored as JSON text through serde_json, which the worker links anyway,
//! instead of as structured values through workers-rs's `Storage::get`/`put` (serde-wasm-bindgen):
//! its (de)serializer is compiled once more for every record type, the largest ones tens of KB of
//! the worker's wasm (docs/engineering/decisions.mdx, "The worker's size").

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;
use worker::durable::Storage;
use worker::Result;

pub(crate) trait JsonStorage {
    /// The record under `key`; `None` when there is none.
    async fn get_json<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>>;
    /// Stores `value` under `key` as JSON text.
    async fn put_json<T: Serialize>(&self, key: &str, value: &T) -> Result<()>;
}

impl JsonStorage for Storage {
    async fn get_json<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>> {
        let found = self
            .get_multiple(vec![key])
            .await?
            .get(&JsValue::from_str(key));
        if found.is_undefined() {
            return Ok(None);
        }
        // A record written by an earlier release is a structured value of the same fields: its JSON
        // text reads the same way.
        let text = match found.as_string() {
            Some(text) => text,
            None => js_sys::JSON::stringify(&found)?.into(),
        };
        // from_slice, as `crate::shared::durable_client` reads replies: one compiled deserializer per record.
        Ok(Some(serde_json::from_slice(text.as_bytes())?))
    }

    async fn put_json<T: Serialize>(&self, key: &str, value: &T) -> Result<()> {
        self.put_raw(key, JsValue::from_str(&serde_json::to_string(value)?))
            .await
    }
}
