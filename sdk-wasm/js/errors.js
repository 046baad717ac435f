// The one error type of the SDK: every failure, from the server or from the client itself, carries
// an HTTP `status` (0 when no response was involved), a machine `code` and a readable `message`.

export class DocsEdgeError extends Error {
  /**
   * @param {string} message
   * @param {{status?: number, code?: string, retryAfter?: number, requestId?: string, details?: object, cause?: unknown}} [options]
   */
  constructor(message, { status = 0, code = 'error', retryAfter, requestId, details, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'DocsEdgeError';
    this.status = status;
    this.code = code;
    if (retryAfter !== undefined) this.retryAfter = retryAfter;
    if (requestId) this.requestId = requestId;
    if (details) this.details = details;
  }
}

/** Maps what `fetch` or a body read throws to a typed error: aborts stay recognisable as aborts. */
export function transportError(err, signal) {
  if (err instanceof DocsEdgeError) return err;
  if (signal?.aborted || err?.name === 'AbortError') {
    return new DocsEdgeError('the request was aborted', { code: 'aborted', cause: err });
  }
  return new DocsEdgeError(`network error: ${err?.message ?? err}`, { code: 'network_error', cause: err });
}
