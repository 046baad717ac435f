// Browser (and bundler) entry: fetches and compiles the wasm module next to this file, then exports
// the SDK. Top-level await: importers get a ready SDK, with no init call to forget.
import init from './docs_edge_sdk.js';

await init({ module_or_path: new URL('./docs_edge_sdk_bg.wasm', import.meta.url) });

export * from './sdk.js';
