// Incremental stream parsers over the wasm decoder. One wasm call per pushed chunk returns all of its
// events at once (records + one string, see sdk-wasm/src/batch.rs); here they become plain objects.
import { StreamDecoder, v4PartNames, v4StringParts } from './docs_edge_sdk.js';

// Record kinds (sdk-wasm/src/batch.rs): first the v4 part types of the core crate's table, named as
// ai@4's parseDataStreamPart names them, then the three below. Read from wasm on first use: the
// module is not instantiated yet while this file is evaluated.
let V4_TYPES;
let STRING_VALUED;
let PARSE_ERROR;
let UI_CHUNK;
let UI_DONE;

function readKinds() {
  V4_TYPES = v4PartNames().split(',');
  STRING_VALUED = V4_TYPES.map(() => false);
  for (const kind of v4StringParts()) STRING_VALUED[kind] = true;
  PARSE_ERROR = V4_TYPES.length;
  UI_CHUNK = PARSE_ERROR + 1;
  UI_DONE = PARSE_ERROR + 2;
}

const utf8 = new TextDecoder();

function readBatch(records, decoder) {
  const n = records.length;
  if (n === 0) return [];
  const heap = utf8.decode(decoder.heap());
  const events = [];
  for (let i = 0; i < n; i += 4) {
    const kind = records[i];
    const text = heap.slice(records[i + 1], records[i + 2]);
    if (kind < PARSE_ERROR && STRING_VALUED[kind]) events.push({ type: V4_TYPES[kind], value: text });
    else if (kind < PARSE_ERROR) events.push({ type: V4_TYPES[kind], value: JSON.parse(text) });
    else if (kind === UI_CHUNK) events.push(JSON.parse(text));
    else if (kind === PARSE_ERROR) events.push({ type: 'parse-error', line: records[i + 3], message: text });
    else if (kind === UI_DONE) events.push({ type: 'done' });
  }
  return events;
}

class Parser {
  #decoder;

  constructor(ui) {
    if (!V4_TYPES) readKinds();
    this.#decoder = new StreamDecoder(ui);
  }

  /** Decodes a chunk (bytes split anywhere, or text) and returns the events it completed. */
  push(chunk) {
    const decoder = this.#live();
    let records;
    if (typeof chunk === 'string') records = decoder.pushString(chunk);
    else if (chunk instanceof Uint8Array) records = decoder.pushBytes(chunk);
    else if (chunk instanceof ArrayBuffer) records = decoder.pushBytes(new Uint8Array(chunk));
    else throw new TypeError('push() takes a Uint8Array, an ArrayBuffer or a string');
    return readBatch(records, decoder);
  }

  /** Ends the stream: returns the events of a last line without line end. The parser can go on after. */
  finish() {
    const decoder = this.#live();
    return readBatch(decoder.finish(), decoder);
  }

  /** Releases the wasm memory now rather than when the garbage collector gets to it. */
  free() {
    this.#decoder?.free();
    this.#decoder = undefined;
  }

  [Symbol.dispose]() {
    this.free();
  }

  #live() {
    if (!this.#decoder) throw new TypeError('the parser was freed');
    return this.#decoder;
  }
}

/** AI SDK v4 data stream (`CODE:JSON` lines) parser. */
export class DataStreamParser extends Parser {
  constructor() {
    super(false);
  }
}

/** AI SDK v5+ UI message stream (server-sent events, `data: {json}`, `[DONE]`) parser. */
export class UiStreamParser extends Parser {
  constructor() {
    super(true);
  }
}

/** `v5` for a UI message stream response, `v4` otherwise. */
export function protocolOf(response) {
  const type = response.headers.get('content-type') ?? '';
  return response.headers.has('x-vercel-ai-ui-message-stream') || type.startsWith('text/event-stream') ? 'v5' : 'v4';
}

async function* chunksOf(source) {
  if (source && typeof source.getReader === 'function') {
    const reader = source.getReader();
    let done = false;
    try {
      while (true) {
        const next = await reader.read();
        if (next.done) break;
        yield next.value;
      }
      done = true;
    } finally {
      // Stopped early (break, error): tell the producer, so a fetch body stops downloading. Not
      // awaited: a body whose fetch was aborted may never settle its cancel, and the consumer has
      // already stopped.
      if (done) reader.releaseLock();
      else reader.cancel().catch(() => {});
    }
  } else if (source && typeof source[Symbol.asyncIterator] === 'function') {
    yield* source;
  } else {
    throw new TypeError('expected a Response, a ReadableStream or an async iterable of chunks');
  }
}

/**
 * Events of a stream, batch by batch: one array per chunk received (empty batches skipped). The
 * cheapest way to consume a long stream; `readEvents` yields the same events one at a time.
 */
export async function* readEventBatches(source, { protocol = 'auto' } = {}) {
  let body = source;
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (protocol === 'auto') protocol = protocolOf(source);
    body = source.body;
    if (!body) return;
  }
  const parser = protocol === 'v5' ? new UiStreamParser() : new DataStreamParser();
  try {
    for await (const chunk of chunksOf(body)) {
      const events = parser.push(chunk);
      if (events.length) yield events;
    }
    const last = parser.finish();
    if (last.length) yield last;
  } finally {
    parser.free();
  }
}

/**
 * A `Response`, `ReadableStream` or async iterable of chunks as an async iterator of events.
 * Hand-written rather than an async generator: `yield` per event costs several promise turns each,
 * which measured slower than the parsing itself (bench/sdk-parser.mjs).
 */
export function readEvents(source, options) {
  const batches = readEventBatches(source, options);
  let batch = [];
  let index = 0;
  async function refill() {
    while (index >= batch.length) {
      const step = await batches.next();
      if (step.done) return step;
      batch = step.value;
      index = 0;
    }
    return { value: batch[index++], done: false };
  }
  return {
    next() {
      // Not an async function: an event already decoded costs one resolved promise, nothing more.
      return index < batch.length ? Promise.resolve({ value: batch[index++], done: false }) : refill();
    },
    return(value) {
      batch = [];
      return batches.return(value);
    },
    throw(err) {
      return batches.throw(err);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
