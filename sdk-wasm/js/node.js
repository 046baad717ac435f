// Node entry: Node's fetch cannot read file: URLs, so the wasm module is read from disk instead.
import { readFile } from 'node:fs/promises';
import { initSync } from './docs_edge_sdk.js';

initSync({ module: await readFile(new URL('./docs_edge_sdk_bg.wasm', import.meta.url)) });

export * from './sdk.js';
