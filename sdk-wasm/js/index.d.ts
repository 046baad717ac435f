// Types of everything docs-edge-sdk exports. Wire shapes mirror docs-edge-core's `wire` and `stream`
// modules (camelCase JSON), which the wasm module uses at run time.

// ---------------------------------------------------------------------------------------------------
// Errors

/** Client-side codes; server errors carry the server's `code` (`unauthorized`, `rate_limited`, …). */
export type ClientErrorCode =
  | 'wrong_key_kind'
  | 'browser_not_allowed'
  | 'invalid_options'
  | 'invalid_request'
  | 'invalid_response'
  | 'network_error'
  | 'aborted'
  | 'stream_error'
  | 'export_failed'
  | 'http_error';

export class DocsEdgeError extends Error {
  readonly name: 'DocsEdgeError';
  /** HTTP status; 0 when the error did not come from a response. */
  readonly status: number;
  readonly code: ClientErrorCode | (string & {});
  /** Seconds, from `Retry-After` (429 responses). */
  readonly retryAfter?: number;
  /** The server's `x-request-id`, for its logs. */
  readonly requestId?: string;
  /** The other fields of the server's error body, when it has any (`missing` of a `missing_files`). */
  readonly details?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------
// Stream parsers

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'unknown';
export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

/** A line that could not be decoded; parsing goes on with the next line. */
export interface ParseErrorEvent {
  type: 'parse-error';
  /** 1-based line number in the stream. */
  line: number;
  message: string;
}

/**
 * AI SDK v4 data stream parts, named as `ai@4`'s `parseDataStreamPart` names them. Values are the JSON
 * as sent, checked against the shapes of the core types (so fields `ai@4` drops, such as `threadId`, are kept).
 */
export type DataStreamPart =
  | { type: 'text'; value: string }
  | { type: 'data'; value: unknown[] }
  | { type: 'error'; value: string }
  | { type: 'message_annotations'; value: unknown[] }
  | { type: 'tool_call'; value: { toolCallId: string; toolName: string; args: unknown } }
  | { type: 'tool_result'; value: { toolCallId: string; result: unknown } }
  | { type: 'tool_call_streaming_start'; value: { toolCallId: string; toolName: string } }
  | { type: 'tool_call_delta'; value: { toolCallId: string; argsTextDelta: string } }
  | {
      type: 'finish_message';
      value: { finishReason: FinishReason | (string & {}); usage?: Usage; threadId?: string; [extra: string]: unknown };
    }
  | { type: 'finish_step'; value: { finishReason: FinishReason | (string & {}); usage?: Usage; isContinued?: boolean } }
  | { type: 'start_step'; value: { messageId: string } }
  | { type: 'reasoning'; value: string }
  | {
      type: 'source';
      value: { sourceType: 'url'; id: string; url: string; title?: string; providerMetadata?: unknown };
    }
  | { type: 'redacted_reasoning'; value: { data: string } }
  | { type: 'reasoning_signature'; value: { signature: string } }
  | { type: 'file'; value: { data: string; mimeType: string } };

export type DataStreamEvent = DataStreamPart | ParseErrorEvent;

/** AI SDK v5+ UI message stream chunks (`uiMessageChunkSchema` of `ai@5`). */
export type UiMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'source-url'; sourceId: string; url: string; title?: string }
  | { type: 'source-document'; sourceId: string; mediaType: string; title: string; filename?: string }
  | { type: 'file'; url: string; mediaType: string }
  | { type: 'error'; errorText: string }
  | { type: 'finish'; finishReason?: FinishReason; messageMetadata?: unknown; threadId?: string }
  | { type: 'message-metadata'; messageMetadata: unknown }
  /** `data-<name>` chunks and chunk types this SDK does not know, as received. */
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean }
  | { type: string & {}; [field: string]: unknown };

/** `data: [DONE]`, the end of a UI message stream. */
export interface DoneEvent {
  type: 'done';
}

export type UiStreamEvent = UiMessageChunk | DoneEvent | ParseErrorEvent;

/** Bytes split anywhere (inside a UTF-8 character too), or text. */
export type StreamChunk = Uint8Array | ArrayBuffer | string;

declare class StreamParser<Event> {
  /** Decodes a chunk; returns the events it completed (one wasm call for all of them). */
  push(chunk: StreamChunk): Event[];
  /** Ends the stream: the events of a last line without line end. The parser can go on after. */
  finish(): Event[];
  /** Releases the wasm memory now rather than at garbage collection. */
  free(): void;
  [Symbol.dispose](): void;
}

/** AI SDK v4 data stream parser (`CODE:JSON` lines; LF, CRLF or CR; blank lines skipped). */
export class DataStreamParser extends StreamParser<DataStreamEvent> {
  constructor();
}

/** AI SDK v5+ UI message stream parser (server-sent events ending in `data: [DONE]`). */
export class UiStreamParser extends StreamParser<UiStreamEvent> {
  constructor();
}

export type StreamSource = Response | ReadableStream<Uint8Array> | AsyncIterable<StreamChunk>;

export interface ReadOptions<P extends 'v4' | 'v5' | 'auto' = 'auto'> {
  /** `auto` (default): from a Response's headers, `v4` for other sources. */
  protocol?: P;
}

type EventOf<P> = P extends 'v4' ? DataStreamEvent : P extends 'v5' ? UiStreamEvent : DataStreamEvent | UiStreamEvent;

/** The events of a stream, one at a time. */
export function readEvents<P extends 'v4' | 'v5' | 'auto' = 'auto'>(
  source: StreamSource,
  options?: ReadOptions<P>,
): AsyncIterableIterator<EventOf<P>>;

/** The events of a stream, one array per chunk received: the cheapest way through a long stream. */
export function readEventBatches<P extends 'v4' | 'v5' | 'auto' = 'auto'>(
  source: StreamSource,
  options?: ReadOptions<P>,
): AsyncGenerator<EventOf<P>[], void, undefined>;

/** `v5` for a UI message stream response, `v4` otherwise. */
export function protocolOf(response: Response): 'v4' | 'v5';

// ---------------------------------------------------------------------------------------------------
// Wire shapes (docs-edge-core `wire`)

export interface SearchFilter {
  version?: string;
  language?: string;
  tag?: string;
  groups?: string[];
}

export interface SearchResult {
  content: string;
  path: string;
  metadata: {
    title: string;
    heading?: string;
    anchor?: string;
    language: string;
    version?: string;
    groups: string[];
    /** 0–1, comparable with `scoreThreshold`. */
    score: number;
  };
}

export interface PageContent {
  path: string;
  content: string;
}

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface ExportJob {
  /** `se_<16 hex>` */
  jobId: string;
  status: JobStatus;
  /** 0–100 */
  progress: number;
  pageCount: number;
  createdAt: string;
  updatedAt: string;
  error?: string;
}

export interface BundleLink {
  jobId: string;
  bundleUrl: string;
  sizeBytes: number;
  /** SHA-256 of the archive, lowercase hex. */
  sha256: string;
  expiresAt: string;
}

// ---------------------------------------------------------------------------------------------------
// AssistantClient

/** `true`: up to 2 retries of a 429 after its `Retry-After`, if that is at most 60 s. Off by default. */
export type RetryOption = boolean | { retries?: number; maxDelayMs?: number };

export interface AssistantClientOptions {
  baseUrl: string;
  domain: string;
  /** A public assistant key (`svc_dsc_…`); an admin key is refused. */
  apiKey: string;
  /** The end user's fingerprint; `anonymous` by default. */
  fp?: string;
  /** `v1` (default): AI SDK v4 data stream; `v2`: AI SDK v5+ UI message stream. */
  protocol?: 'v1' | 'v2';
  retry?: RetryOption;
  fetch?: typeof fetch;
  /**
   * v2 only: answers are resumable (generated by the server's chat object, not the request), so
   * `resume()` can pick one up after a reload or a cut connection and `stop()` ends it for every reader.
   */
  resumable?: boolean;
  /** The chat id resumable answers run under; a random one by default (keep it to resume later). */
  chatId?: string;
  /** A conversation restored from storage, to resume or continue. */
  messages?: ChatMessage[];
  /** The thread of a restored conversation. */
  threadId?: string;
}

export interface ChatMessage {
  id?: string;
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** On answers the client kept. */
  sources?: Source[];
  /** On kept answers: the finish's marks (see `ChatResult`). */
  uncertain?: boolean;
  unanswered?: boolean;
  /** On kept answers: the site's support link (see `ChatResult`). */
  support?: string;
  /** On kept answers: the follow-up questions the server offered. */
  suggestions?: string[];
}

export interface ContextItem {
  type: 'code' | 'textSelection';
  value: string;
  path?: string;
  elementId?: string;
}

export interface SendMessageInput {
  /** The question, added to the conversation as a user message. */
  text?: string;
  /** Replaces the conversation the client kept (its last message is the question when `text` is absent). */
  messages?: ChatMessage[];
  /** Defaults to the thread of the previous answer; `null` starts a new one. */
  threadId?: string | null;
  context?: ContextItem[];
  currentPath?: string;
  filter?: Pick<SearchFilter, 'version' | 'language' | 'groups'>;
  /** 1–20, 5 by default. */
  retrievalPageSize?: number;
}

export interface Source {
  id: string;
  url: string;
  title?: string;
}

/** The events of an answer, the same for both protocols. */
export type ChatEvent =
  | { type: 'text'; delta: string }
  | { type: 'source'; source: Source }
  | ParseErrorEvent
  | { type: 'finish'; finishReason?: FinishReason; usage: Usage | null; threadId?: string }
  /** Up to three follow-up questions built from what was retrieved, sent with the finish. */
  | { type: 'suggestions'; questions: string[] }
  /** Everything else the stream carried (reasoning, tool calls, data, …), as parsed. */
  | { type: 'other'; event: DataStreamEvent | UiStreamEvent };

export interface ChatResult {
  text: string;
  sources: Source[];
  threadId?: string;
  /** The server's id of the answer, the id its stored thread gives it; `feedback()` names it. */
  messageId?: string;
  /** `null` when the stream reports none (v2). */
  usage: Usage | null;
  /** Follow-up questions (at most three; empty when none). */
  suggestions: string[];
  /** Only the closest passage was quoted: the docs do not state this directly. */
  uncertain: boolean;
  /** The docs do not cover the question. */
  unanswered: boolean;
  /** The site's support link (docs.json `x-docs-edge.support`: `https:` or `mailto:`), when it has one. */
  support?: string;
}

/** One answer: iterate it (once) for its events; `result` resolves once it is complete. */
export class ChatTurn implements AsyncIterable<ChatEvent> {
  [Symbol.asyncIterator](): AsyncIterator<ChatEvent>;
  /** Reads the stream itself when nobody iterates. Rejects with a DocsEdgeError. */
  readonly result: Promise<ChatResult>;
}

export class AssistantClient {
  /** @throws DocsEdgeError `wrong_key_kind` for an admin key, `invalid_options`. */
  constructor(options: AssistantClientOptions);
  /** The conversation so far (copies), as useChat keeps it. */
  readonly messages: ChatMessage[];
  /** The thread of the conversation, once the first answer named it. */
  readonly threadId: string | undefined;
  /** The chat id resumable answers run under. */
  readonly chatId: string;
  /** Forgets the conversation and its thread, and takes a new chat id. */
  reset(): void;
  /**
   * Resumes the chat's resumable answer (v2): replayed from its start, then followed live; it joins
   * `messages` when it ends. `null` when there is nothing to resume (the server answered 204).
   * @throws DocsEdgeError 404 `not_found` for a chat that never ran a resumable answer;
   *   `invalid_options` on protocol v1.
   */
  resume(options?: { signal?: AbortSignal }): Promise<ChatTurn | null>;
  /**
   * Ends the chat's running resumable answer for every reader; the partial answer stays in the
   * thread. `stopped` is false when nothing was running.
   * @throws DocsEdgeError 404 `not_found` for a chat that never ran a resumable answer.
   */
  stop(options?: { signal?: AbortSignal }): Promise<{ stopped: boolean }>;
  /**
   * Asks a question. On success the question and the answer join `messages`; when aborted, the
   * question and the partial answer do (as useChat's stop); on an error, nothing does.
   * @throws DocsEdgeError `invalid_request` synchronously for options of the wrong shape.
   */
  sendMessage(input: string | SendMessageInput, options?: { signal?: AbortSignal }): ChatTurn;
  search(
    query: string,
    options?: { pageSize?: number; scoreThreshold?: number; filter?: SearchFilter; signal?: AbortSignal },
  ): Promise<SearchResult[]>;
  page(path: string, options?: { signal?: AbortSignal }): Promise<PageContent>;
  /**
   * Rates an answer; a later rating of the same answer replaces it. `messageId` and `threadId`
   * default to the last answer of this conversation.
   * @throws DocsEdgeError `invalid_request` (before sending) for an unknown rating; 404 `not_found`
   *   for an answer that is not in this organization's thread.
   */
  feedback(input: FeedbackInput): Promise<FeedbackReceipt>;
}

export type FeedbackRating = 'up' | 'down';

export interface FeedbackInput {
  rating: FeedbackRating;
  /** At most 2000 characters. */
  comment?: string;
  messageId?: string;
  threadId?: string;
  signal?: AbortSignal;
}

export interface FeedbackReceipt {
  threadId: string;
  messageId: string;
  rating: FeedbackRating;
  createdAt: string;
}

// ---------------------------------------------------------------------------------------------------
// AnalyticsClient

export interface DayCounts {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  conversations: number;
  questions: number;
  feedbackUp: number;
  feedbackDown: number;
  searches: number;
  pageViews: number;
  /** The widget's support link: times shown, and times a reader followed it. */
  supportShown: number;
  supportFollowed: number;
}

export interface AnalyticsReport {
  domain: string;
  from: string;
  to: string;
  /** `unanswered`: answers without a source; `uncertain`: answers with only the closest passage. */
  totals: Omit<DayCounts, 'day'> & { unanswered: number; uncertain: number };
  /** Every day of the range, oldest first. */
  days: DayCounts[];
  /** Time to the answer's first text, in milliseconds; `null` without answers. */
  firstByteMs: { p50: number | null; p95: number | null };
  /** Questions grouped by their normalised text, most asked first (each with its latest wording). */
  topQuestions: { question: string; count: number }[];
  /** Questions answered without a source: what the docs do not cover. */
  coverageGaps: { question: string; count: number }[];
  topCitedPages: { path: string; count: number }[];
  zeroResultSearches: { query: string; count: number }[];
  pageViews: { path: string; count: number }[];
}

export interface AnalyticsRange {
  /** First UTC day, `YYYY-MM-DD`. */
  from?: string;
  /** Last UTC day, `YYYY-MM-DD` (at most 366 days after `from`). */
  to?: string;
  signal?: AbortSignal;
}

/** The analytics API; takes a secret admin key, so it refuses to run in a browser page by default. */
export class AnalyticsClient {
  /** @throws DocsEdgeError `browser_not_allowed` in a browser page without `allowBrowser`. */
  constructor(options: StaticExportClientOptions);
  report(domain: string, range?: AnalyticsRange): Promise<AnalyticsReport>;
  /** `conversation_id,time,question,answer,sources,rating` rows (RFC 4180). */
  conversationsCsv(domain: string, range?: AnalyticsRange): Promise<string>;
}

// ---------------------------------------------------------------------------------------------------
// StaticExportClient

export interface StaticExportClientOptions {
  baseUrl: string;
  /** A secret admin key (`svc_…`). */
  adminKey: string;
  /** Run in a browser page anyway (only for pages that are not public). */
  allowBrowser?: boolean;
  retry?: RetryOption;
  fetch?: typeof fetch;
}

export class StaticExportClient {
  /** @throws DocsEdgeError `browser_not_allowed` in a browser page without `allowBrowser`. */
  constructor(options: StaticExportClientOptions);
  /**
   * `analytics`: the web analytics beacon in the pages (none by default). `assistant`: the assistant
   * widget on every page, asking `apiBase` (`"same-origin"` or the service's URL) with a public key.
   */
  start(
    domain: string,
    options?: {
      version?: string;
      paths?: string[];
      markdown?: 'pages' | 'llms-full';
      analytics?: boolean;
      assistant?: { apiBase: string; key: string };
      signal?: AbortSignal;
    },
  ): Promise<ExportJob>;
  status(jobId: string, options?: { signal?: AbortSignal }): Promise<ExportJob>;
  /** Polls every `intervalMs` (1000) until `completed`; rejects with `export_failed` if the job fails or is cancelled. */
  waitForCompletion(
    jobId: string,
    options?: { onProgress?: (job: ExportJob) => void; intervalMs?: number; signal?: AbortSignal },
  ): Promise<ExportJob>;
  /** A fresh link to the archive of a completed job (409 `job_not_completed` before). */
  bundle(jobId: string, options?: { signal?: AbortSignal }): Promise<BundleLink>;
}
