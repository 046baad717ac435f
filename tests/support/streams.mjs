// Sample streams for the SDK parser tests (Node and Chromium): one line of every AI SDK v4 part type
// in reference/README.md, and a v5+ UI message stream, with text that exercises UTF-8 splits.

/** `CODE:JSON` lines, one per v4 part code (0 2 3 8 9 a b c d e f g h i j k). */
export const V4_LINES = [
  'f:{"messageId":"msg_1"}',
  'g:"think é"',
  'i:{"data":"zz"}',
  'j:{"signature":"sig"}',
  '0:"Hello é 中文 🦀\\n\\"quoted\\""',
  '0:"plain token "',
  '2:[{"type":"finish","threadId":"thr_1"}]',
  '8:[{"a":1},"b"]',
  'b:{"toolCallId":"c1","toolName":"search"}',
  'c:{"toolCallId":"c1","argsTextDelta":"{\\"q\\":"}',
  '9:{"toolCallId":"c1","toolName":"search","args":{"q":"x"}}',
  'a:{"toolCallId":"c1","result":[1,2]}',
  'h:{"sourceType":"url","id":"s1","url":"https://docs.example.com/a","title":"A"}',
  'k:{"data":"AAAA","mimeType":"image/png"}',
  '3:"boom"',
  'e:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2},"isContinued":false}',
  'd:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2},"threadId":"thr_1"}',
];

/** The same lines with CRLF ends and blank lines between them. */
export const V4_STREAM = `${V4_LINES.join('\r\n\r\n')}\r\n`;

export const V5_CHUNKS = [
  { type: 'start', messageId: 'msg_1' },
  { type: 'start-step' },
  { type: 'source-url', sourceId: 's1', url: 'https://docs.example.com/a', title: 'A' },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'hmm é' },
  { type: 'reasoning-end', id: 'r' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hello é 中文 🦀\n' },
  { type: 'text-end', id: 't' },
  { type: 'data-thread', data: { threadId: 'thr_1' } },
  { type: 'tool-input-start', toolCallId: 'c', toolName: 'n' },
  { type: 'error', errorText: 'partial failure' },
  { type: 'finish-step' },
  { type: 'finish', finishReason: 'stop', messageMetadata: { threadId: 'thr_1' }, threadId: 'thr_1' },
];

export const V5_STREAM = `: keep-alive\n\n${V5_CHUNKS.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('')}data: [DONE]\n\n`;
export const V5_EVENTS = [...V5_CHUNKS, { type: 'done' }];

/**
 * What the SDK gives for V4_LINES: ai@4's `parseDataStreamPart` output, except that the finish
 * message keeps the fields ai@4 drops (our `threadId`).
 */
export function v4Expected(parseDataStreamPart) {
  const events = V4_LINES.map(parseDataStreamPart);
  events.find((e) => e.type === 'finish_message').value.threadId = 'thr_1';
  return events;
}

/** A stream with bad lines among good ones: [text, expected line numbers of the errors]. */
export const V4_BROKEN = ['0:"one"\n0:{not json\n\nz:"x"\n9:{"toolCallId":"c"}\nno separator\n0:"two"\n', [2, 4, 5, 6]];

/**
 * Decodes `bytes` split once at every offset and checks each split gives `expected`.
 * Written without imports so that the browser test can run the very same function in the page.
 * @returns {string | null} the first disagreement, or null
 */
export function splitEverywhere(Parser, bytes, expected) {
  // Key order is not part of the comparison (raw chunks come back with sorted keys).
  const canonical = (value) => JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v);
  const want = canonical(expected);
  for (let at = 0; at <= bytes.length; at++) {
    const parser = new Parser();
    const events = [...parser.push(bytes.subarray(0, at)), ...parser.push(bytes.subarray(at)), ...parser.finish()];
    parser.free();
    const got = canonical(events);
    if (got !== want) return `split at ${at}: ${got}`;
  }
  return null;
}
