// Everything the package exports, whatever loaded the wasm module (index.js in browsers, node.js in Node).
export { DocsEdgeError } from './errors.js';
export { DataStreamParser, UiStreamParser, readEvents, readEventBatches, protocolOf } from './parser.js';
export { AssistantClient, ChatTurn } from './assistant.js';
export { StaticExportClient } from './export.js';
export { AnalyticsClient } from './analytics.js';
