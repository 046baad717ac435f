// Runs `fn` over `items` with at most `limit` calls in flight; resolves with the results in order,
// or rejects with the first failure once the calls already started have settled.
export async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  let failed = null;
  const worker = async () => {
    while (failed === null && next < items.length) {
      const at = next++;
      try {
        results[at] = await fn(items[at], at);
      } catch (err) {
        failed ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failed) throw failed.err;
  return results;
}
