// The worker's JSON log lines as tests read them: wrangler prints each console.log line as it is,
// sometimes after a prefix, so a line counts from its first `{`; lines that are not JSON are skipped.
import { readFileSync } from 'node:fs';

/** Every JSON log line in `file`, parsed, in order. */
export function logLines(file) {
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
