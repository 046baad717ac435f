// The demo page: loads the SDK package (served by the demo server under /sdk/), asks the demo server
// where the service is, then wires the chat, the analytics view and the export panel.
import { AssistantClient } from '/sdk/index.js';
import { setupChat } from './chat.js';
import { setupExport } from './export.js';
import { setupAnalytics } from './analytics.js';

const response = await fetch('/demo-api/config');
const config = await response.json();
document.querySelector('#service').textContent = `Service ${config.baseUrl} · docs site ${config.domain}`;
setupChat(config, (apiKey) => new AssistantClient({ baseUrl: config.baseUrl, domain: config.domain, apiKey }));
setupExport();
setupAnalytics();
