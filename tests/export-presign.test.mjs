// With R2's S3 credentials configured, a bundle link is an R2 presigned URL (AWS Signature V4, query
// form) for the bundle object, checked here against an independent SigV4 computation.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { startExport, waitForJob, requestBundle } from './support/export.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const R2 = { R2_ACCESS_KEY_ID: 'AKIDEXAMPLE0123', R2_SECRET_ACCESS_KEY: 'r2-secret-for-tests', R2_ACCOUNT_ID: 'acct123', R2_BUCKET_NAME: 'docs-edge' };
const state = scratchDir('docs-edge-presign-');
let worker;

after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

const hmac = (key, text) => createHmac('sha256', key).update(text).digest();
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const encode = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

test('bundle links are SigV4 presigned R2 URLs when R2 credentials are set', async () => {
  worker = await startWorker({ persistTo: state, vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here', ...R2 } });
  const base = worker.baseUrl;
  const t = await tenant({ base });
  assert.equal((await publishFolder(t.domain, t.adminKey, undefined, { base })).status, 200);
  const start = await startExport(t.adminKey, { domain: t.domain }, base);
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId, { base });
  assert.equal(job.status, 'completed', job.error);
  const bundle = await requestBundle(t.adminKey, job.jobId, base);
  assert.equal(bundle.status, 200, bundle.text);

  const url = new URL(bundle.body.bundleUrl);
  assert.equal(url.host, `${R2.R2_ACCOUNT_ID}.r2.cloudflarestorage.com`);
  assert.equal(url.pathname, `/${R2.R2_BUCKET_NAME}/exports/${job.jobId}/bundle.tar.gz`);
  const q = url.searchParams;
  assert.equal(q.get('X-Amz-Algorithm'), 'AWS4-HMAC-SHA256');
  assert.equal(q.get('X-Amz-SignedHeaders'), 'host');
  const stamp = q.get('X-Amz-Date');
  const date = stamp.slice(0, 8);
  assert.equal(q.get('X-Amz-Credential'), `${R2.R2_ACCESS_KEY_ID}/${date}/auto/s3/aws4_request`);
  const expiresAt = Date.parse(bundle.body.expiresAt);
  const signedAt = Date.parse(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`);
  assert.equal(Number(q.get('X-Amz-Expires')), (expiresAt - signedAt) / 1000, 'the link expires when expiresAt says');
  assert.match(q.get('response-content-disposition'), new RegExp(`^attachment; filename="${t.domain.replaceAll('.', '\\.')}-export-\\d{4}-\\d{2}-\\d{2}\\.tar\\.gz"$`));

  const canonicalQuery = [...q.entries()].filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [encode(k), encode(v)]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`).join('&');
  const canonicalRequest = `GET\n${url.pathname}\n${canonicalQuery}\nhost:${url.host}\n\nhost\nUNSIGNED-PAYLOAD`;
  const scope = `${date}/auto/s3/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${stamp}\n${scope}\n${sha256(canonicalRequest)}`;
  let key = hmac(`AWS4${R2.R2_SECRET_ACCESS_KEY}`, date);
  for (const part of ['auto', 's3', 'aws4_request']) key = hmac(key, part);
  assert.equal(q.get('X-Amz-Signature'), createHmac('sha256', key).update(toSign).digest('hex'));
});
