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
