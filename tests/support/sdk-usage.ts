// Compiled by tests/sdk.test.mjs with tsc --strict against the packed package: index.d.ts must type
// every client, event union, error and result the way callers use them (narrowing on `type`).
import {
  AssistantClient, StaticExportClient, AnalyticsClient, DataStreamParser, UiStreamParser, readEvents, readEventBatches, DocsEdgeError,
  type ChatEvent, type ChatResult, type ExportJob, type BundleLink, type DataStreamEvent, type UiStreamEvent, type SearchResult,
  type AnalyticsReport, type FeedbackReceipt,
} from 'docs-edge-sdk';

async function main(): Promise<void> {
  const client = new AssistantClient({ baseUrl: 'http://x', domain: 'd', apiKey: 'svc_dsc_x', protocol: 'v2', retry: { retries: 1 } });
  const turn = client.sendMessage({ text: 'q', retrievalPageSize: 3, filter: { language: 'en' }, context: [{ type: 'code', value: 'x' }] });
  for await (const e of turn) {
    const ev: ChatEvent = e;
    if (ev.type === 'text') ev.delta.toUpperCase();
    else if (ev.type === 'source') ev.source.url.toString();
    else if (ev.type === 'parse-error') ev.line.toFixed();
    else if (ev.type === 'finish') ev.usage?.promptTokens;
  }
  const result: ChatResult = await turn.result;
  result.sources.map((s) => s.title);
  const hits: SearchResult[] = await client.search('q', { pageSize: 2 });
  hits[0].metadata.score.toFixed();
  (await client.page('a')).content.length;
  const receipt: FeedbackReceipt = await client.feedback({ rating: 'up', comment: 'thanks', messageId: result.messageId });
  receipt.createdAt.length;
  const report: AnalyticsReport = await new AnalyticsClient({ baseUrl: 'http://x', adminKey: 'svc_x' }).report('d', { from: '2026-01-01' });
  report.days[0].feedbackUp.toFixed();
  report.firstByteMs.p95?.toFixed();
  const exporter = new StaticExportClient({ baseUrl: 'http://x', adminKey: 'svc_x' });
  const job: ExportJob = await exporter.waitForCompletion((await exporter.start('d', { paths: ['/a'] })).jobId, { onProgress: (j) => j.progress });
  const link: BundleLink = await exporter.bundle(job.jobId);
  link.expiresAt.length;
  const parser = new DataStreamParser();
  for (const e of parser.push(new Uint8Array([1]))) {
    const ev: DataStreamEvent = e;
    if (ev.type === 'tool_call') ev.value.toolName.length;
    if (ev.type === 'finish_message') ev.value.threadId?.length;
  }
  const ui: UiStreamEvent[] = new UiStreamParser().finish();
  for await (const e of readEvents(new Response(''), { protocol: 'v4' })) e.type;
  for await (const batch of readEventBatches(new Response(''))) batch.length;
  try { client.reset(); } catch (err) { if (err instanceof DocsEdgeError) err.status + err.code + (err.retryAfter ?? 0); }
  void ui;
}
void main;
