// A stand-in for the parts of the service the running worker cannot show on demand: the static export
// API as its contract describes it (until it lands in this worktree), and a 429 with Retry-After.
import { createServer } from 'node:http';

const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** Starts the server; `requests` records `METHOD path` of every request. */
export async function startContractServer() {
  const jobs = new Map();
  const requests = [];
  const bodies = [];
  const searched = new Set();
  const server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    let body = '';
    for await (const chunk of req) body += chunk;
    const auth = req.headers.authorization ?? '';
    const now = new Date().toISOString();
    if (req.url.startsWith('/discovery/v1/search/')) {
      // The first search of each domain is refused, later ones answered.
      if (!searched.has(req.url)) {
        searched.add(req.url);
        return json(res, 429, { error: 'slow down', code: 'rate_limited' }, { 'retry-after': '1' });
      }
      return json(res, 200, []);
    }
    if (req.url === '/discovery/v2/assistant/metadata-only.example.com/message') {
      // A v2 answer whose thread id travels only in message metadata (no x-thread-id header, as
      // behind a proxy that drops unknown headers); the follow-up names it in its body.
      const { threadId } = JSON.parse(body);
      bodies.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunks = [
        { type: 'start', messageId: 'msg_meta', messageMetadata: { threadId: threadId ?? 'thr_from_metadata' } },
        { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Hello.' }, { type: 'text-end', id: 't' },
        { type: 'finish', messageMetadata: { threadId: threadId ?? 'thr_from_metadata' } },
      ];
      res.end(`${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}: keep-alive\n\ndata: [DONE]\n\n`);
      return;
    }
    if (!auth.startsWith('Bearer svc_') || auth.startsWith('Bearer svc_dsc_')) {
      return json(res, 401, { error: 'admin key required', code: 'unauthorized' });
    }
    if (req.method === 'POST' && req.url === '/v1/static-export/jobs') {
      const { domain } = JSON.parse(body);
      const job = { jobId: `se_${(jobs.size + 1).toString(16).padStart(16, '0')}`, status: 'queued', progress: 0, pageCount: 0, createdAt: now, updatedAt: now };
      jobs.set(job.jobId, { job, fail: domain === 'fails.example.com', reads: 0 });
      return json(res, 202, job);
    }
    const match = req.url.match(/^\/v1\/static-export\/jobs\/([^/]+)(\/bundle)?$/);
    const entry = match && jobs.get(match[1]);
    if (!entry) return json(res, 404, { error: 'job not found', code: 'not_found' });
    const { job } = entry;
    if (req.method === 'GET' && !match[2]) {
      // Each read moves the job on: queued, running 50 %, then completed or failed.
      entry.reads++;
      Object.assign(job, { updatedAt: now, pageCount: 6 });
      if (entry.reads === 1) Object.assign(job, { status: 'running', progress: 50 });
      else if (entry.fail) Object.assign(job, { status: 'failed', error: 'page export/overview could not be rendered' });
      else Object.assign(job, { status: 'completed', progress: 100 });
      return json(res, 200, job);
    }
    if (req.method === 'POST' && match[2]) {
      if (job.status !== 'completed') return json(res, 409, { error: 'job is not completed', code: 'job_not_completed' });
      return json(res, 200, { jobId: job.jobId, bundleUrl: `http://${req.headers.host}/b/${job.jobId}.tar.gz`, sizeBytes: 1234, sha256: '0'.repeat(64), expiresAt: now });
    }
    json(res, 405, { error: 'method not allowed', code: 'method_not_allowed' });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  return { baseUrl, requests, bodies, close: () => new Promise((resolve) => server.close(resolve)) };
}
