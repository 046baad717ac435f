// Holds every response the integration tests see to the API reference: the status must be documented
// for the operation, the media type must be one it documents, and JSON bodies must match its schema.
// Streams (text/plain, text/event-stream, application/gzip) are checked by media type only.
import assert from 'node:assert/strict';
import { matchPath, responseFor, validatorAt, mediaTypeKey, describeErrors, document } from './document.mjs';

const isJson = (media) => media === 'application/json' || media.endsWith('+json');
const mediaOf = (contentType) => (contentType ?? '').split(';')[0].trim().toLowerCase();

/** Answers the router gives for any path, outside any one operation (see the document's description). */
function genericProblem(method, path, template, status, media, text) {
  if (method === 'OPTIONS' && path.startsWith('/discovery/') && status === 204) return undefined;
  const expected = template ? { status: 405, code: 'method_not_allowed' } : { status: 404, code: 'route_not_found' };
  if (status !== expected.status) {
    return template
      ? `${method} ${template} is not documented, yet the worker answered ${status}`
      : `${method} ${path} matches no documented path, yet the worker answered ${status}`;
  }
  return jsonProblem('/components/schemas/Error', media, text) ?? codeProblem(text, [expected.code]);
}

function codeProblem(text, codes) {
  const code = JSON.parse(text).code;
  return codes.includes(code) ? undefined : `code ${code} is not one of ${codes.join(', ')}`;
}

function jsonProblem(schemaPointer, media, text) {
  if (!isJson(media)) return `expected JSON, got Content-Type ${media || 'none'}`;
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return `the body is not JSON: ${text.slice(0, 200)}`;
  }
  const validate = validatorAt(schemaPointer);
  return validate(body) ? undefined : `the body does not match the schema: ${describeErrors(validate)}; body ${text.slice(0, 500)}`;
}

/**
 * What is wrong with a response by the document, or `undefined` when it conforms.
 * `text` is the body, or `undefined` for a stream the caller has not read (then only the media type counts).
 */
export function conformanceProblem({ method, url, status, contentType, text }) {
  const path = new URL(url, 'http://x').pathname;
  const template = matchPath(path);
  const media = mediaOf(contentType);
  const operationMethod = method === 'HEAD' ? 'GET' : method;
  const operation = template && document.paths[template][operationMethod.toLowerCase()];
  if (!operation) return genericProblem(method, path, template, status, media, text);

  const where = `${method} ${template} → ${status}`;
  const found = responseFor(template, operationMethod, status);
  if (!found) return `${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`;
  const { response, pointer } = found;
  const content = response.content ?? {};
  if (Object.keys(content).length === 0 || method === 'HEAD') {
    return text && method !== 'HEAD' ? `${where}: documented without a body, got ${text.slice(0, 200)}` : undefined;
  }
  if (!content[media]) return `${where}: Content-Type ${media || 'none'} is not documented (${Object.keys(content).join(', ')})`;
  if (!isJson(media) || text === undefined) return undefined;
  const problem = jsonProblem(`${pointer}/${mediaTypeKey(media)}`, media, text);
  return problem && `${where}: ${problem}`;
}

export function assertConforms(exchange) {
  const problem = conformanceProblem(exchange);
  assert.equal(problem, undefined, `response breaks the API reference: ${problem}`);
}

/** `fetch` for clients the tests do not drive through `call` (the AI SDK): checks each response it returns. */
export async function contractFetch(input, init = {}) {
  const url = typeof input === 'string' ? input : input.url;
  const method = (init.method ?? 'GET').toUpperCase();
  const res = await fetch(input, init);
  const contentType = res.headers.get('content-type');
  // A stream is handed to the client unread; a JSON body is read from a copy.
  const text = isJson(mediaOf(contentType)) ? await res.clone().text() : undefined;
  assertConforms({ method, url, status: res.status, contentType, text });
  return res;
}
