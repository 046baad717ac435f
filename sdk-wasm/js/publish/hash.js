// The content address of a file, as the server computes it on upload: the first 32 hex characters of
// the SHA-256 of its bytes. Files are streamed, so hashing a 25 MiB video holds one chunk at a time.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export const HASH_CHARS = 32;

export function hashBytes(bytes) {
  return createHash('sha256').update(bytes).digest('hex').slice(0, HASH_CHARS);
}

export async function hashFile(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex').slice(0, HASH_CHARS);
}
