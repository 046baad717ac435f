// AssistantClient: the browser-safe client of the discovery endpoints (assistant, search, page), with a
// public `svc_dsc_` key. Keeps the conversation and its thread across turns, as useChat does.
import { keyKind } from './docs_edge_sdk.js';
import { DocsEdgeError, transportError } from './errors.js';
import { Http, body, json } from './http.js';
import { readEvents } from './parser.js';

function randomId(prefix) {
  // getRandomValues exists in insecure contexts too, unlike crypto.randomUUID.
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One protocol's events reduced to the events a chat shows, and the answer they add up to. */
class Answer {
  text = '';
  sources = [];
  threadId;
  /** The server's id of the answer (v2 `start.messageId`, v1 `f:`), the id its thread stores and `feedback()` names. */
  messageId;
  usage = null;
  /** Follow-up questions the server offers with the finish (v1 `2:` suggestions, v2 `data-suggestions`). */
  suggestions = [];
  /** The finish's marks: only the closest passage quoted (`uncertain`), the docs do not cover it (`unanswered`). */
  uncertain = false;
  unanswered = false;
  /** The site's support link (docs.json's), sent with the finish. */
  support;
  #searchCalls = new Set();

  #mark(meta) {
    if (meta?.uncertain === true) this.uncertain = true;
    if (meta?.unanswered === true) this.unanswered = true;
    if (typeof meta?.support === 'string') this.support = meta.support;
  }

  #suggest(questions) {
    this.suggestions = Array.isArray(questions) ? questions.filter((q) => typeof q === 'string' && q).slice(0, 3) : [];
    return { type: 'suggestions', questions: this.suggestions };
  }

  #addSource(s) {
    const source = { id: s.id, url: s.url, ...(s.title === undefined ? {} : { title: s.title }) };
    this.sources.push(source);
    return { type: 'source', source };
  }

  /** The chat event(s) for a stream event; throws for an error part (the answer is incomplete). */
  take(event) {
    switch (event.type) {
      case 'start':
        this.messageId = event.messageId ?? this.messageId;
        this.threadId = event.messageMetadata?.threadId ?? this.threadId;
        return { type: 'other', event };
      case 'start_step':
        this.messageId = event.value?.messageId ?? this.messageId;
        return { type: 'other', event };
      // v1 sources: the result of the server's `search` tool call (every ai@4 client parses 9:/a:).
      case 'tool_call':
        if (event.value?.toolName === 'search') this.#searchCalls.add(event.value.toolCallId);
        return { type: 'other', event };
      case 'tool_result':
        if (this.#searchCalls.has(event.value?.toolCallId) && Array.isArray(event.value.result)) {
          return event.value.result.map((s) => this.#addSource(s));
        }
        return { type: 'other', event };
      case 'message-metadata':
        this.threadId = event.messageMetadata?.threadId ?? this.threadId;
        this.#mark(event.messageMetadata);
        return { type: 'other', event };
      // v1: the finish's marks and the suggestions travel in `2:` data parts.
      case 'data': {
        const items = Array.isArray(event.value) ? event.value : [];
        for (const item of items) if (item?.type === 'finish') this.#mark(item);
        const offered = items.find((item) => item?.type === 'suggestions');
        return offered ? this.#suggest(offered.questions) : { type: 'other', event };
      }
      case 'data-suggestions':
        return this.#suggest(event.data?.questions);
      case 'text':
      case 'text-delta': {
        const delta = event.type === 'text' ? event.value : event.delta;
        this.text += delta;
        return { type: 'text', delta };
      }
      case 'source':
      case 'source-url': {
        return this.#addSource(event.type === 'source' ? event.value : { id: event.sourceId, url: event.url, title: event.title });
      }
      case 'error':
        // The server failed after the stream started: the answer is incomplete.
        throw new DocsEdgeError('value' in event ? event.value : event.errorText, {
          status: 200,
          code: 'stream_error',
        });
      case 'parse-error':
        return event;
      case 'finish_message':
      case 'finish': {
        const value = event.type === 'finish' ? event : event.value;
        this.threadId = value.threadId ?? value.messageMetadata?.threadId ?? this.threadId;
        this.usage = value.usage ?? this.usage;
        this.#mark(value.messageMetadata);
        return { type: 'finish', finishReason: value.finishReason, usage: this.usage, threadId: this.threadId };
      }
      default:
        return { type: 'other', event };
    }
  }
}

/** A turn: async-iterable once for its events; `result` resolves to the whole answer either way. */
export class ChatTurn {
  #events;
  #claimed = false;
  #result;

  constructor(run) {
    let resolve;
    let reject;
    this.#result = new Promise((a, b) => {
      resolve = a;
      reject = b;
    });
    // Rejections are delivered to whoever awaits `result` or iterates; never "unhandled" otherwise.
    this.#result.catch(() => {});
    this.#events = (async function* () {
      let settled = false;
      try {
        const result = yield* run();
        settled = true;
        resolve(result);
      } catch (err) {
        settled = true;
        reject(err);
        throw err;
      } finally {
        if (!settled) reject(new DocsEdgeError('the turn was stopped before its end', { code: 'aborted' }));
      }
    })();
  }

  [Symbol.asyncIterator]() {
    if (this.#claimed) throw new TypeError('a turn can be iterated once');
    this.#claimed = true;
    return this.#events;
  }

  /** `{text, sources, threadId, usage}` once the stream ends; reads the stream itself if nobody iterates. */
  get result() {
    if (!this.#claimed) {
      this.#claimed = true;
      (async () => {
        for await (const _ of this.#events);
      })().catch(() => {});
    }
    return this.#result;
  }
}

export class AssistantClient {
  #http;
  #domain;
  #fp;
  #protocol;
  #messages = [];
  #threadId;
  #chatId;
  #resumable;

  /**
   * @param {{baseUrl: string, domain: string, apiKey: string, fp?: string, protocol?: 'v1'|'v2',
   *   retry?: boolean | {retries?: number, maxDelayMs?: number}, fetch?: typeof fetch,
   *   resumable?: boolean, chatId?: string, messages?: Array<{id?: string, role: string, content: string}>,
   *   threadId?: string}} options
   */
  constructor({ baseUrl, domain, apiKey, fp = 'anonymous', protocol = 'v1', retry, fetch, resumable = false, chatId, messages, threadId } = {}) {
    if (typeof apiKey !== 'string' || !apiKey) {
      throw new DocsEdgeError('apiKey is required (a public svc_dsc_ key)', { code: 'invalid_options' });
    }
    if (keyKind(apiKey) === 'admin') {
      throw new DocsEdgeError(
        'AssistantClient takes a public assistant key (svc_dsc_…), not an admin key: admin keys are secrets',
        { code: 'wrong_key_kind' },
      );
    }
    if (typeof domain !== 'string' || !domain) throw new DocsEdgeError('domain is required', { code: 'invalid_options' });
    if (protocol !== 'v1' && protocol !== 'v2') {
      throw new DocsEdgeError("protocol must be 'v1' or 'v2'", { code: 'invalid_options' });
    }
    this.#http = new Http({ baseUrl, token: apiKey, fetch, retry });
    this.#domain = encodeURIComponent(domain);
    this.#fp = fp;
    this.#protocol = protocol;
    if (resumable && protocol !== 'v2') {
      throw new DocsEdgeError("resumable answers need protocol 'v2'", { code: 'invalid_options' });
    }
    this.#resumable = Boolean(resumable);
    this.#chatId = chatId ?? randomId('chat_');
    // A conversation restored from storage (a reloaded page), to resume() or continue.
    if (messages) this.#messages = messages.map((m) => ({ ...m }));
    this.#threadId = threadId;
  }

  /** The chat id: what resumable answers run under (`id` in v2 requests). */
  get chatId() {
    return this.#chatId;
  }

  /** The conversation so far, oldest first (copies). */
  get messages() {
    return this.#messages.map((m) => ({ ...m, ...(m.sources ? { sources: [...m.sources] } : {}) }));
  }

  get threadId() {
    return this.#threadId;
  }

  /** Forgets the conversation: the next message starts a new thread. */
  reset() {
    this.#messages = [];
    this.#threadId = undefined;
    this.#chatId = randomId('chat_');
  }

  /**
   * Asks a question. `input` is the text, or `{text?, messages?, threadId?, context?, currentPath?,
   * filter?, retrievalPageSize?}` where `messages` replaces the kept conversation.
   */
  sendMessage(input, { signal } = {}) {
    const options = typeof input === 'string' ? { text: input } : { ...input };
    const history = (options.messages ?? this.#messages).map((m) => ({
      id: m.id ?? randomId('msg_'),
      role: m.role,
      content: m.content,
    }));
    const added = [];
    if (options.text !== undefined) {
      added.push({ id: randomId('msg_'), role: 'user', content: options.text });
    }
    const messages = [...history, ...added];
    const threadId = 'threadId' in options ? options.threadId ?? undefined : this.#threadId;
    const payload = body(this.#protocol === 'v2' ? 'message-v2' : 'message-v1', {
      fp: this.#fp,
      messages,
      threadId,
      context: options.context,
      currentPath: options.currentPath,
      filter: options.filter,
      retrievalPageSize: options.retrievalPageSize,
      ...(this.#resumable ? { id: this.#chatId, resumable: true } : {}),
    });
    const path = `/discovery/${this.#protocol}/assistant/${this.#domain}/message`;
    return this.#turn(() => this.#http.send('POST', path, { body: payload, signal }), messages, threadId, signal);
  }

  /**
   * Resumes the chat's resumable answer (`GET …/message/{chatId}/stream`, what `useChat({ resume:
   * true })` sends): replayed from its start, then live. `null` when there is nothing to resume (204).
   * The answer joins `messages` after the kept conversation (replacing a kept partial copy of it).
   */
  async resume({ signal } = {}) {
    const response = await this.#http.send('GET', this.#chatPath('stream'), { signal });
    if (response.status === 204) return null;
    const kept = this.#messages;
    return this.#turn(async () => response, kept, this.#threadId, signal, true);
  }

  /**
   * Ends the chat's running resumable answer for every reader (`POST …/message/{chatId}/stop`); the
   * partial answer is kept in the thread. `{stopped: false}` when nothing was running.
   */
  async stop({ signal } = {}) {
    const response = await this.#http.send('POST', this.#chatPath('stop'), { signal });
    const reply = await response.json();
    return { stopped: reply.stopped === true };
  }

  #chatPath(action) {
    if (this.#protocol !== 'v2') {
      throw new DocsEdgeError("resume and stop need protocol 'v2'", { code: 'invalid_options' });
    }
    return `/discovery/v2/assistant/${this.#domain}/message/${encodeURIComponent(this.#chatId)}/${action}`;
  }

  /** A turn reading `respond()`'s stream; the answer joins `messages` (after `before`) when it ends. */
  #turn(respond, before, threadId, signal, resumed = false) {
    const protocol = this.#protocol === 'v2' ? 'v5' : 'v4';
    // `recorded`: whether the server keeps this answer in its thread. A request the client stops is
    // not recorded (unless a resumable answer's chat object goes on with it): its thread id, new for
    // a first question, names no thread, and the next question must not send it.
    const commit = (answer, recorded = true) => {
      const id = answer.messageId ?? randomId('msg_');
      const earlier = resumed ? before.filter((m) => m.id !== id) : before;
      const marks = { ...(answer.uncertain && { uncertain: true }), ...(answer.unanswered && { unanswered: true }), ...(answer.support && { support: answer.support }) };
      const offered = answer.suggestions.length ? { suggestions: answer.suggestions } : {};
      this.#messages = [...earlier, { id, role: 'assistant', content: answer.text, sources: answer.sources, ...marks, ...offered }];
      if (answer.threadId && recorded) this.#threadId = answer.threadId;
    };
    const resumable = this.#resumable;
    return new ChatTurn(async function* () {
      const answer = new Answer();
      try {
        const response = await respond();
        answer.threadId = response.headers.get('x-thread-id') ?? threadId;
        for await (const event of readEvents(response, { protocol })) {
          const taken = answer.take(event);
          for (const item of Array.isArray(taken) ? taken : [taken]) {
            yield item;
            // Aborted while the consumer held the event: stop here rather than wait for the body
            // to report the abort (an already-received body never does).
            if (signal?.aborted) throw signal.reason ?? new DOMException('aborted', 'AbortError');
          }
        }
      } catch (err) {
        const error = transportError(err, signal);
        // Stopped by the user: keep the question and what had arrived, as useChat's stop() does.
        if (error.code === 'aborted' && answer.text) commit(answer, resumable);
        throw error;
      }
      commit(answer);
      const { text, sources, threadId: thread, messageId, usage, suggestions, uncertain, unanswered, support } = answer;
      return { text, sources, threadId: thread, messageId, usage, suggestions, uncertain, unanswered, ...(support && { support }) };
    });
  }

  /**
   * `POST /discovery/v1/assistant/{domain}/feedback`: rates an answer `up` or `down` (a later rating
   * replaces it). `messageId` and `threadId` default to the last answer of this conversation.
   */
  async feedback({ rating, comment, messageId, threadId, signal } = {}) {
    const lastAnswer = this.#messages.findLast((m) => m.role === 'assistant');
    const payload = body('feedback', {
      threadId: threadId ?? this.#threadId,
      messageId: messageId ?? lastAnswer?.id,
      rating,
      comment,
    });
    const path = `/discovery/v1/assistant/${this.#domain}/feedback`;
    return json(await this.#http.send('POST', path, { body: payload, signal }), 'feedback');
  }

  /** `POST /discovery/v1/search/{domain}`: `options` are `{pageSize, scoreThreshold, filter, signal}`. */
  async search(query, { signal, ...options } = {}) {
    const payload = body('search', { query, ...options });
    const response = await this.#http.send('POST', `/discovery/v1/search/${this.#domain}`, { body: payload, signal });
    return json(response, 'search');
  }

  /** `POST /discovery/v1/page/{domain}`: the page's text. */
  async page(path, { signal } = {}) {
    const payload = body('page', { path });
    const response = await this.#http.send('POST', `/discovery/v1/page/${this.#domain}`, { body: payload, signal });
    return json(response, 'page');
  }
}
