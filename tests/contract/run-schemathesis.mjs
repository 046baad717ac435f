// Runs schemathesis against a running worker with real credentials for every endpoint: seeds a tenant
// with a published site and a thread, and a separate organization for the operator API to change and
// delete things in, then fuzzes every documented operation.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../scripts/lib/env.mjs';
import { st } from '../../scripts/lib/schemathesis.mjs';
import { OperatorClient } from '../../scripts/lib/operator.mjs';

const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'];
// Cases per operation and phase: enough to reach every validator rule, small enough that the whole run
// stays within a few minutes on two cores. SCHEMATHESIS_MAX_EXAMPLES raises it for a deeper local run.
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 100);
// A fixed seed keeps CI reproducible; SCHEMATHESIS_SEED explores elsewhere.
const SEED = process.env.SCHEMATHESIS_SEED ?? '20251122';

const unique = () => Math.random().toString(36).slice(2, 10);

/** A thread to read back: one short answer from the extractive backend. */
async function startThread(baseUrl, domain, assistantKey) {
  const text = 'How do I publish?';
  const res = await fetch(`${baseUrl}/discovery/v1/assistant/${domain}/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${assistantKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'anonymous', messages: [{ id: 'm1', role: 'user', content: text, parts: [{ type: 'text', text }] }] }),
  });
  await res.text();
  const threadId = res.headers.get('x-thread-id');
  if (res.status !== 200 || !threadId) throw new Error(`seeding a thread failed: ${res.status}`);
  return threadId;
}

/** A completed export of the published site, and a signed link to its bundle. */
async function exportBundle(baseUrl, adminKey, domain) {
  const api = async (method, path, json) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    });
    const body = await res.json();
    if (!res.ok) throw new Error(`seeding an export: ${method} ${path} answered ${res.status}`);
    return body;
  };
  let job = await api('POST', '/v1/static-export/jobs', { domain });
  for (let i = 0; i < 600 && ['queued', 'running'].includes(job.status); i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = await api('GET', `/v1/static-export/jobs/${job.jobId}`);
  }
  if (job.status !== 'completed') throw new Error(`seeding an export: the job ended ${job.status}`);
  const link = new URL((await api('POST', `/v1/static-export/jobs/${job.jobId}/bundle`)).bundleUrl);
  return { jobId: job.jobId, expires: link.searchParams.get('expires'), sig: link.searchParams.get('sig') };
}

/** The resources the configuration's `${ST_*}` placeholders name. */
async function seed(baseUrl, rootToken) {
  const operator = new OperatorClient(baseUrl, rootToken);
  const tenant = await operator.createOrg('schemathesis tenant', 'enterprise');
  const domain = `fuzz-${unique()}.docs-edge.test`;
  await operator.addDomain(tenant.orgId, domain);
  const assistant = await operator.createKey(tenant.orgId, 'assistant', 'schemathesis');
  const admin = await operator.createKey(tenant.orgId, 'admin', 'schemathesis');
  // Imported here, not at the top: its npm dependencies are installed by the bootstrap that runs first.
  const { publishDocs } = await import('../../scripts/publish-docs.mjs');
  await publishDocs({ baseUrl, adminKey: admin.key, domain, folder: join(root, 'tests', 'fixtures', 'demo-docs') });
  const threadId = await startThread(baseUrl, domain, assistant.key);
  const bundle = await exportBundle(baseUrl, admin.key, domain);

  const ops = await operator.createOrg('schemathesis operator playground', 'free');
  const opsDomain = `ops-${unique()}.docs-edge.test`;
  await operator.addDomain(ops.orgId, opsDomain);
  const doomedKey = await operator.createKey(ops.orgId, 'admin', 'revoked by schemathesis');
  return {
    ST_ROOT_TOKEN: rootToken,
    ST_ASSISTANT_KEY: assistant.key,
    ST_ADMIN_KEY: admin.key,
    ST_DOMAIN: domain,
    ST_THREAD_ID: threadId,
    ST_JOB_ID: bundle.jobId,
    ST_BUNDLE_EXPIRES: bundle.expires,
    ST_BUNDLE_SIG: bundle.sig,
    ST_OPS_ORG_ID: ops.orgId,
    ST_OPS_DOMAIN: opsDomain,
    ST_OPS_KEY_ID: doomedKey.keyId,
  };
}

/**
 * Two passes: one with path parameters pinned to the seeded resources (so bodies reach the validators
 * and handlers), one with them generated (so identifiers of every shape reach the lookups).
 */
const PASSES = [
  { name: 'seeded resources', config: 'schemathesis.toml', maxExamples: MAX_EXAMPLES },
  { name: 'generated identifiers', config: 'schemathesis-free-ids.toml', maxExamples: Math.ceil(MAX_EXAMPLES / 2) },
];

const junitPath = (reportDir, pass) => join(reportDir, pass.config.replace('.toml', '.xml'));

/** Operations tested and failed (failures and errors), from a pass's JUnit report. */
function counts(path) {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const totals = /<testsuites[^>]*>/.exec(text)?.[0] ?? '';
  const attr = (name) => Number(new RegExp(`${name}="(\\d+)"`).exec(totals)?.[1] ?? 0);
  return { tests: attr('tests'), failed: attr('failures') + attr('errors') };
}

function runPass(pass, { baseUrl, reportDir, vars }) {
  const args = [
    '--config-file', join(root, 'tests', 'contract', pass.config),
    'run', join(root, 'docs', 'openapi.json'),
    '--url', baseUrl,
    '--checks', CHECKS.join(','),
    '--phases', 'examples,coverage,fuzzing',
    '--max-examples', String(pass.maxExamples),
    '--seed', SEED,
    '--workers', '2',
    '--request-timeout', '30',
    '--generation-database', 'none',
    '--report', 'junit',
    '--report-junit-path', junitPath(reportDir, pass),
    '--no-color',
  ];
  console.log(`\n--- schemathesis: ${pass.name}, ${pass.maxExamples} cases per operation and phase`);
  return new Promise((resolve) => {
    const child = spawn(st, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...vars } });
    child.on('exit', (code) => resolve(code === 0));
    child.on('error', () => resolve(false));
  });
}

/** Resolves to true when schemathesis found nothing. JUnit reports go to `reportDir`. */
export async function runSchemathesis({ baseUrl, rootToken, reportDir }) {
  const vars = await seed(baseUrl, rootToken);
  rmSync(reportDir, { recursive: true, force: true });
  const started = Date.now();
  let ok = true;
  let passed = 0;
  let failed = 0;
  for (const pass of PASSES) {
    const passOk = await runPass(pass, { baseUrl, reportDir, vars });
    const { tests, failed: failedHere } = counts(junitPath(reportDir, pass));
    // A run that died before its report counts as one failure, so the line below never reads clean.
    const failures = passOk ? failedHere : Math.max(failedHere, 1);
    passed += tests - failedHere;
    failed += failures;
    ok = ok && passOk;
  }
  console.log(`schemathesis ran for ${((Date.now() - started) / 1000).toFixed(1)} s; below, operations tested in both passes`);
  console.log(`schemathesis: ${passed} passed, ${failed} failed`);
  return ok;
}
