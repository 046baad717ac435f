// The API reference (docs/openapi.json) as the tests read it: its operations, matched by method and
// concrete path the way the worker's router matches them, and JSON Schema validators for its bodies.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const DOCUMENT_PATH = new URL('../../docs/openapi.json', import.meta.url);
export const DOCUMENT_TEXT = readFileSync(DOCUMENT_PATH, 'utf8');
export const document = JSON.parse(DOCUMENT_TEXT);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DOC_ID = 'openapi.json';

const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
addFormats(ajv);
// OpenAPI's own format names for bodies that are not JSON; nothing to check in them.
ajv.addFormat('binary', true);
ajv.addSchema(document, DOC_ID);

/** Every documented operation: `{method, path, operationId, operation}`. */
export function operations() {
  const list = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      if (item[method]) list.push({ method: method.toUpperCase(), path, operationId: item[method].operationId, operation: item[method] });
    }
  }
  return list;
}

/** The documented path template a concrete path falls under; `{name}` matches one non-empty segment. */
export function matchPath(concretePath) {
  const segments = concretePath.split('/');
  for (const template of Object.keys(document.paths)) {
    const parts = template.split('/');
    if (parts.length !== segments.length) continue;
    if (parts.every((part, i) => (part.startsWith('{') ? segments[i] !== '' : part === segments[i]))) return template;
  }
  return undefined;
}

const escapePointer = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function pointerGet(pointer) {
  return pointer
    .split('/')
    .slice(1)
    .reduce((node, token) => node?.[token.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** A response object with its location in the document (after following a `$ref` to components). */
export function responseFor(template, method, status) {
  const operation = document.paths[template]?.[method.toLowerCase()];
  if (!operation) return undefined;
  const key = operation.responses[String(status)] ? String(status) : operation.responses.default ? 'default' : undefined;
  if (!key) return undefined;
  let pointer = `/paths/${escapePointer(template)}/${method.toLowerCase()}/responses/${key}`;
  let response = pointerGet(pointer);
  if (response.$ref) {
    pointer = response.$ref.slice(1);
    response = pointerGet(pointer);
  }
  return { response, pointer };
}

/** The JSON pointer of an operation's request body schema for `media`. */
export function requestSchemaPointer(template, method, media = 'application/json') {
  return `/paths/${escapePointer(template)}/${method.toLowerCase()}/requestBody/${mediaTypeKey(media)}`;
}

const validators = new Map();

/** A validator for the schema at a JSON pointer of the document, compiled once. */
export function validatorAt(pointer) {
  if (!validators.has(pointer)) validators.set(pointer, ajv.compile({ $ref: `${DOC_ID}#${pointer}` }));
  return validators.get(pointer);
}

export const mediaTypeKey = (media) => `content/${escapePointer(media)}/schema`;

export function describeErrors(validate) {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`).join('; ');
}
