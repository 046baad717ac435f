// Local stand-ins for LLM providers, speaking their documented streaming wire formats event for event:
// OpenAI Chat Completions (`data: {chunk}` ... `data: [DONE]`), Anthropic Messages (`event:` +
// `data:` pairs from message_start to message_stop) and Workers AI (`data: {"response"}` ... `[DONE]`). Tokens are spaced in time so a test can see the
// answer arrive piece by piece. A question containing FAIL_MIDSTREAM makes the provider fail after two
// tokens, in that provider's own error shape; one containing SLOW_START makes the OpenAI stand-in wait
// SLOW_START_MS before its first token. SLOW_TOKENS spaces the OpenAI stand-in's tokens SLOW_GAP_MS apart;
// STALL_AFTER_FIRST makes it send one token and then nothing until the caller hangs up (at most 30 s).
// MARKDOWN makes the OpenAI stand-in answer MARKDOWN_TOKENS (a heading, a list, a table, a code line wider than the panel, citations).
// REFUSE makes it refuse: REFUSAL_TOKENS as `delta.refusal` chunks with `content` null, then `stop`.
// UNCOVERED makes it follow the system prompt's rule for a question the passages do not answer: it
// opens with the sentence that rule quotes, then names the closest passage.
import { createServer } from 'node:http';

export const MOCK_TOKENS = ['According ', 'to the docs [1], ', 'a static export ', 'is one bundle.'];
/** An answer using every block the assistant widget renders; split mid-line, as models stream. */
export const MARKDOWN_TOKENS = [
  '## Static exports\n\nStart a job with ', 'the admin key [1]:\n\n', '1. Call **POST** `/v1/exports`\n', '2. Poll the job [1, 2]\n\n',
  '| Field | Meaning |\n|---|---|\n', '| `status` | the job state |\n\n', '```bash\ncurl -X POST https://api.example/v1/exports', ' -H "Authorization: Bearer $ADMIN_KEY" -H "Content-Type: application/json" -d \'{"domain":"docs.example.com","options":{"markdown":true}}\'\n', '```\n\n',
  'A [link](javascript:alert(1)) stays text; <b>tags</b> stay text too.',
];
export const REFUSAL_TOKENS = ["I'm sorry, ", 'I can’t help with that.'];
const GAP_MS = 120;
export const SLOW_START_MS = 2500;
export const SLOW_GAP_MS = 400;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The sentence the system prompt tells the model to open with when the docs do not cover it. */
function notCoveredTokens(body) {
  const system = body.messages?.find((m) => m.role === 'system')?.content ?? '';
  const sentence = system.match(/open your answer with exactly this sentence: "([^"]+)"/)?.[1];
  return sentence ? [sentence.slice(0, 18), sentence.slice(18), ' The closest is [1].'] : ['(no rule in the system prompt)'];
}

function lastUserText(body) {
  const messages = body.messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  return typeof last.content === 'string' ? last.content : last.content.map((c) => c.text ?? '').join('');
}

async function openai(req, res, body) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1700000000, model: body.model };
  const send = (obj) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  const fail = lastUserText(body).includes('FAIL_MIDSTREAM');
  // A model that thinks before its first token: long enough for the worker's keep-alive to fire.
  if (lastUserText(body).includes('SLOW_START')) await sleep(SLOW_START_MS);
  const gap = lastUserText(body).includes('SLOW_TOKENS') ? SLOW_GAP_MS : GAP_MS;
  const stall = lastUserText(body).includes('STALL_AFTER_FIRST');
  const refuse = lastUserText(body).includes('REFUSE');
  const tokens = refuse ? REFUSAL_TOKENS
    : lastUserText(body).includes('UNCOVERED') ? notCoveredTokens(body)
      : lastUserText(body).includes('MARKDOWN') ? MARKDOWN_TOKENS : MOCK_TOKENS;
  for (const [i, token] of tokens.entries()) {
    if (fail && i === 2) {
      send({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } });
      return res.end();
    }
    if (stall && i === 1) {
      await new Promise((resolve) => { res.on('close', resolve); setTimeout(resolve, 30_000); });
      return res.end();
    }
    await sleep(gap);
    send({ ...base, choices: [{ index: 0, delta: refuse ? { content: null, refusal: token } : { content: token }, finish_reason: null }] });
  }
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  send({ ...base, choices: [], usage: { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 } });
  res.write('data: [DONE]\n\n');
  res.end();
}

async function anthropic(req, res, body) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event, obj) => res.write(`event: ${event}\ndata: ${JSON.stringify(obj)}\n\n`);
  send('message_start', {
    type: 'message_start',
    message: { id: 'msg_mock', type: 'message', role: 'assistant', content: [], model: body.model, stop_reason: null, stop_sequence: null, usage: { input_tokens: 321, output_tokens: 1 } },
  });
  send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  send('ping', { type: 'ping' });
  const fail = lastUserText(body).includes('FAIL_MIDSTREAM');
  for (const [i, token] of MOCK_TOKENS.entries()) {
    if (fail && i === 2) {
      send('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
      return res.end();
    }
    await sleep(GAP_MS);
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: token } });
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 12 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

/** Workers AI: what `env.AI.run(model, {stream: true})` resolves to, the same SSE as its REST API
 * (`data: {"response": token}` ... `data: [DONE]`). On failure the stream just breaks, as the
 * binding's ReadableStream does. */
async function workersAi(req, res, body) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (obj) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
  const fail = lastUserText(body).includes('FAIL_MIDSTREAM');
  for (const [i, token] of MOCK_TOKENS.entries()) {
    if (fail && i === 2) {
      await sleep(GAP_MS); // let the tokens already written reach the worker before the break
      return res.destroy();
    }
    await sleep(GAP_MS);
    send({ response: token, p: 'abcdefghij'.slice(0, i + 1) });
  }
  send({ response: '', usage: { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 } });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** Starts the mock on a free loopback port; `requests` records what the worker sent, `open()` how many
 * answers are still being written (a caller that hung up closes its answer). */
export async function startLlmMock() {
  const requests = [];
  let open = 0;
  const server = createServer((req, res) => {
    open += 1;
    res.on('close', () => { open -= 1; });
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400).end('{"error":{"message":"bad json"}}');
        return;
      }
      requests.push({ path: req.url, headers: req.headers, body });
      if (req.url === '/v1/chat/completions') return openai(req, res, body);
      if (req.url === '/v1/messages') return anthropic(req, res, body);
      if (req.url.startsWith('/v1/workers-ai/run/')) return workersAi(req, res, body);
      res.writeHead(404).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, open: () => open, close: () => new Promise((r) => server.close(r)) };
}
