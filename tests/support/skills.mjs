// The skills' discovery files of tests/fixtures/agent-skills-docs, for the tests of the servers of a
// site's root (docs-edge-serve, a hosted domain): each must answer as the discovery API does.
import assert from 'node:assert/strict';

/** Both indexes, skills of each, and the root skill.md, by their path from the site's root. */
export const DISCOVERY_FILES = [
  '.well-known/agent-skills/index.json',
  '.well-known/skills/index.json',
  '.well-known/agent-skills/quay-cli/SKILL.md',
  '.well-known/agent-skills/payments/SKILL.md',
  '.well-known/skills/analytics/SKILL.md',
  'skill.md',
];

/** `served` ({status, contentType, text}) answers `path` with the bytes and content type of the
 * API's answer (`apiGet(path)`: `/discovery/v1/llms/{domain}/{path}`). */
export async function assertServedAsTheApi(served, path, apiGet) {
  const api = await apiGet(path);
  assert.equal(api.status, 200, `${path}: ${api.text}`);
  assert.equal(served.status, 200, `${path}: ${served.text.slice(0, 300)}`);
  const type = path.endsWith('.json') ? /^application\/json/ : /^text\/markdown/;
  assert.match(api.headers.get('content-type'), type, path);
  assert.match(served.contentType ?? '', type, path);
  assert.equal(served.text, api.text, `${path}: the API's bytes`);
}
