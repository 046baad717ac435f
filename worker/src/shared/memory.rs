//! The isolate's memory in every log line. A Worker isolate and a Durable Object get 128 MB, which
//! `wrangler dev` does not enforce; wasm linear memory only grows, so the last `wasmMemoryBytes` an
//! isolate logs is its high-water mark, and tests and benchmarks budget it from the log.

use crate::shared::clock::now_ms;

/// Size of this instance's wasm linear memory, in bytes.
pub fn wasm_memory_bytes() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        core::arch::wasm32::memory_size(0) as u64 * 65_536
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}

/// One log line when a Durable Object's request or alarm ends, however it ends (a guard, so that an
/// early return or `?` is logged too).
pub struct DurableSpan {
    class: &'static str,
    operation: String,
    started_ms: u64,
}

impl DurableSpan {
    pub fn start(class: &'static str, operation: impl Into<String>) -> Self {
        DurableSpan {
            class,
            operation: operation.into(),
            started_ms: now_ms(),
        }
    }
}

impl Drop for DurableSpan {
    fn drop(&mut self) {
        let line = serde_json::json!({
            "event": "durable",
            "class": self.class,
            "operation": self.operation,
            "durationMs": now_ms().saturating_sub(self.started_ms),
            "wasmMemoryBytes": wasm_memory_bytes(),
        });
        crate::shared::log_line::info(&line);
    }
}

thread_local! {
    static IN_MEMORY_BUILD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The isolate's one slot for building a small site in memory (`docs_edge_core::publish::SMALL_SITE_BYTES`).
/// Durable Objects of different domains can share an isolate, and such a build holds about 5.5 times
/// its source packs (53 MiB for the 1,057-page fixture): two at once would near the isolate's 128 MB.
/// A publish that finds the slot taken goes the staged way, whose batches are bounded. Released when
/// dropped, however the build ends.
pub struct InMemoryBuild(());

impl InMemoryBuild {
    pub fn try_take() -> Option<InMemoryBuild> {
        // `then`, not `then_some`: a guard made eagerly and dropped when the slot is taken would free it.
        IN_MEMORY_BUILD.with(|busy| (!busy.replace(true)).then(|| InMemoryBuild(())))
    }
}

impl Drop for InMemoryBuild {
    fn drop(&mut self) {
        IN_MEMORY_BUILD.with(|busy| busy.set(false));
    }
}
