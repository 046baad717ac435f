// The worker's JSON log lines as tests and benchmarks read them: wrangler prints each console.log line
// as it is, sometimes after a prefix, so a line counts from its first `{`; lines that are not JSON are
// skipped.
import { existsSync, readFileSync } from 'node:fs';

/** Every JSON log line in `file`, parsed, in order; none while the file does not exist yet. */
export function logLines(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.slice(line.indexOf('{')))
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return null;
      }
    })
    .filter(Boolean);
}

/** The log lines once every request id in `requestIds` has its `request` line (or after `waitMs`):
 * wrangler writes a request's line after its response, so a reader right after the last response
 * could miss it. */
export async function settledLog(file, requestIds, waitMs = 10_000) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const lines = logLines(file);
    const seen = new Set(lines.filter((l) => l.event === 'request').map((l) => l.requestId));
    if (requestIds.every((id) => seen.has(id)) || Date.now() > deadline) return lines;
    await new Promise((r) => setTimeout(r, 100));
  }
}
