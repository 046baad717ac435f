#!/usr/bin/env node
// The SDK's stream parser against ai@4's `processDataStream` (@ai-sdk/ui-utils@1.2.11) on the same
// 10 MB v4 data stream, in one Node run: same bytes, same 64 KiB chunks (not aligned to lines), every
// part delivered to the consumer. Prints MB/s, the ratio, and the package size. `node bench/sdk-parser.mjs`.
import { processDataStream } from '@ai-sdk/ui-utils';
import { buildSdk } from '../scripts/build-sdk.mjs';

const size = await buildSdk();
const { DataStreamParser, readEvents, readEventBatches } = await import('../sdk-wasm/pkg/node.js');

const TARGET_BYTES = 10 * 1024 * 1024;
const CHUNK = 64 * 1024;
const RUNS = 7;

/** An answer like the worker streams, over and over: start, sources, token-sized text, finish. */
function makeStream() {
  const words = ['The ', 'export ', 'bundle ', 'link ', 'is ', 'valid ', 'for ', '24 ', 'hours. ', 'é ', '中文 ',
    '"quoted" ', 'line\n', 'rate-limits ', '🦀 '];
  const lines = [];
  let bytes = 0;
  for (let n = 0; bytes < TARGET_BYTES; n++) {
    const answer = [`f:${JSON.stringify({ messageId: `msg_${n}` })}`];
    for (let s = 0; s < 3; s++) {
      answer.push(`h:${JSON.stringify({ sourceType: 'url', id: `source-${s}`, url: `https://docs.example.com/p/${n}/${s}`, title: `Page ${s}` })}`);
    }
    if (n % 10 === 0) {
      answer.push(`g:${JSON.stringify('Looking at the export pages first.')}`);
      answer.push(`9:${JSON.stringify({ toolCallId: `c${n}`, toolName: 'search', args: { query: 'export', pageSize: 5 } })}`);
      answer.push(`a:${JSON.stringify({ toolCallId: `c${n}`, result: [{ path: 'export/overview', score: 0.9 }] })}`);
    }
    for (let w = 0; w < 200; w++) answer.push(`0:${JSON.stringify(words[(n * 7 + w) % words.length])}`);
    const usage = { promptTokens: 812, completionTokens: 200 };
    answer.push(`e:${JSON.stringify({ finishReason: 'stop', usage, isContinued: false })}`);
    answer.push(`2:${JSON.stringify([{ type: 'finish', threadId: 'thr_0123456789abcdef' }])}`);
    answer.push(`d:${JSON.stringify({ finishReason: 'stop', usage, threadId: 'thr_0123456789abcdef' })}`);
    const text = `${answer.join('\n')}\n`;
    lines.push(text);
    bytes += Buffer.byteLength(text);
  }
  return new TextEncoder().encode(lines.join(''));
}

const bytes = makeStream();
const chunks = [];
for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));

function stream() {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

/** ai@4: every callback counts its part and keeps the text, as a chat UI would. */
async function aiSdk() {
  let parts = 0;
  let text = '';
  const count = () => {
    parts++;
  };
  await processDataStream({
    stream: stream(),
    onTextPart(value) {
      parts++;
      text += value;
    },
    onReasoningPart: count, onReasoningSignaturePart: count, onRedactedReasoningPart: count, onSourcePart: count,
    onFilePart: count, onDataPart: count, onErrorPart: count, onToolCallStreamingStartPart: count,
    onToolCallDeltaPart: count, onToolCallPart: count, onToolResultPart: count, onMessageAnnotationsPart: count,
    onFinishMessagePart: count, onFinishStepPart: count, onStartStepPart: count,
  });
  return { parts, text };
}

function consume(acc, event) {
  acc.parts++;
  if (event.type === 'text') acc.text += event.value;
  else if (event.type === 'parse-error') throw new Error(`unexpected parse error: ${event.message}`);
}

/** The SDK as most callers use it: `for await` over the events of a stream. */
async function sdkEvents() {
  const acc = { parts: 0, text: '' };
  for await (const event of readEvents(stream())) consume(acc, event);
  return acc;
}

/** The SDK one batch per chunk. */
async function sdkBatches() {
  const acc = { parts: 0, text: '' };
  for await (const batch of readEventBatches(stream())) for (const event of batch) consume(acc, event);
  return acc;
}

/** The SDK's push API on the chunks directly (no stream machinery): the parser alone. */
async function sdkPush() {
  const acc = { parts: 0, text: '' };
  const parser = new DataStreamParser();
  for (const chunk of chunks) for (const event of parser.push(chunk)) consume(acc, event);
  for (const event of parser.finish()) consume(acc, event);
  parser.free();
  return acc;
}

const contenders = { 'ai@4 processDataStream': aiSdk, 'sdk readEvents': sdkEvents, 'sdk readEventBatches': sdkBatches, 'sdk push': sdkPush };
const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
let reference;
for (let run = 0; run < RUNS; run++) {
  for (const [name, fn] of Object.entries(contenders)) {
    const start = performance.now();
    const result = await fn();
    times[name].push(performance.now() - start);
    reference ??= result;
    if (result.parts !== reference.parts || result.text !== reference.text) {
      throw new Error(`${name} disagrees with ai@4: ${result.parts} parts vs ${reference.parts}`);
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mbps = (ms) => bytes.length / 1e6 / (ms / 1000);
const base = mbps(median(times['ai@4 processDataStream']));
console.log(`stream: ${(bytes.length / 1e6).toFixed(2)} MB, ${reference.parts} parts, ${chunks.length} chunks of 64 KiB; median of ${RUNS} runs`);
for (const [name, xs] of Object.entries(times)) {
  const rate = mbps(median(xs));
  console.log(`  ${name.padEnd(24)} ${median(xs).toFixed(0).padStart(5)} ms  ${rate.toFixed(1).padStart(6)} MB/s  ${(rate / base).toFixed(2)}x`);
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`package: ${kib(size.total)} gzipped (wasm ${kib(size.wasm)} + JS ${kib(size.js)})`);
