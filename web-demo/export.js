// The export panel: starts an export of the demo site through the demo server's proxy (which holds the
// admin key), shows its progress and page count as it runs, then the bundle's download link and expiry.
const $ = (selector) => document.querySelector(selector);
const POLL_MS = 500;

async function call(method, path) {
  const response = await fetch(`/demo-api/export${path}`, { method });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body.error ?? `HTTP ${response.status}`);
    Object.assign(error, { status: response.status, code: body.code });
    throw error;
  }
  return body;
}

function describe(err) {
  if (err.status === 501) return 'Static export is not available on this service yet (501 not implemented).';
  if (err instanceof TypeError) return 'Cannot reach the demo server.';
  return `${err.message}${err.status ? ` (${err.status} ${err.code ?? ''})` : ''}`;
}

function show(job) {
  $('#export-progress').hidden = false;
  $('#export-progress').value = job.progress;
  $('#export-status').textContent = `${job.status} · ${Math.round(job.progress)}% · ${job.pageCount} pages`;
}

export function setupExport() {
  const start = $('#export-start');
  start.disabled = false;
  start.addEventListener('click', async () => {
    start.disabled = true;
    $('#export-error').hidden = true;
    $('#export-result').hidden = true;
    try {
      let job = await call('POST', '/jobs');
      show(job);
      while (job.status === 'queued' || job.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        job = await call('GET', `/jobs/${job.jobId}`);
        show(job);
      }
      if (job.status === 'failed' || job.status === 'cancelled') throw new Error(`The export failed: ${job.error ?? 'no reason given'}`);
      const link = await call('POST', `/jobs/${job.jobId}/bundle`);
      $('#export-link').href = link.bundleUrl;
      $('#export-link').textContent = `Download the bundle (${(link.sizeBytes / 1024).toFixed(1)} KiB)`;
      $('#export-expiry').textContent = `link expires ${new Date(link.expiresAt).toLocaleString()}`;
      $('#export-expiry').dataset.expiresAt = link.expiresAt;
      $('#export-result').hidden = false;
    } catch (err) {
      $('#export-error').textContent = describe(err);
      $('#export-error').hidden = false;
    } finally {
      start.disabled = false;
    }
  });
}
