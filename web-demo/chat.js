// The chat panel: streams each answer into the page as it arrives, lists its sources as links, keeps the
// thread across follow-ups (the SDK client does), stops on request, and says plainly what went wrong.
// Each finished answer gets thumbs up/down (AssistantClient.feedback; a later click replaces the rating).
// Answers are Markdown, rendered as the widget renders them (DOM nodes, never parsed as HTML); the
// extractive answer's closing "Sources:" list is shown once, as the links under it.
import { renderMarkdown, withoutSourceList } from '/sdk/widget-panel.js';

const $ = (selector) => document.querySelector(selector);

/** What a reader should be told about a failed turn. */
export function describeError(err, baseUrl) {
  if (err.code === 'network_error') return `Cannot reach the service at ${baseUrl}. Is it running? (${err.message})`;
  if (err.code === 'wrong_key_kind') return `${err.message}.`;
  if (err.status === 401) return 'The assistant key was refused (401 unauthorized). Check the key below.';
  if (err.status === 403) return `This key may not use the assistant (403 ${err.code}).`;
  if (err.status === 429) return `Rate limited: too many questions. Try again in ${err.retryAfter ?? 'a few'} s.`;
  if (err.code === 'stream_error') return `The answer failed midway: ${err.message}`;
  return `${err.message}${err.status ? ` (${err.status} ${err.code})` : ''}`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** Thumbs up/down under a finished answer; the pressed one shows the stored rating. */
function thumbs(client, answer, showError, config) {
  const box = element('div', 'thumbs');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', 'Was this answer helpful?');
  for (const [rating, label, symbol] of [['up', 'Helpful', '\u{1F44D}'], ['down', 'Not helpful', '\u{1F44E}']]) {
    const button = element('button', `thumb thumb-${rating}`, symbol);
    button.type = 'button';
    button.title = label;
    button.setAttribute('aria-label', label);
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', async () => {
      try {
        await client.feedback({ rating, messageId: answer.messageId, threadId: answer.threadId });
        for (const other of box.children) other.setAttribute('aria-pressed', String(other === button));
      } catch (err) {
        showError(describeError(err, config.baseUrl));
      }
    });
    box.append(button);
  }
  return box;
}

export function setupChat(config, makeClient) {
  const keyInput = $('#api-key');
  keyInput.value = config.assistantKey;
  let client;
  let controller;
  const showError = (message) => {
    $('#chat-error').textContent = message;
    $('#chat-error').hidden = !message;
  };
  const renew = () => {
    try {
      client = makeClient(keyInput.value.trim());
      showError('');
    } catch (err) {
      client = undefined;
      showError(describeError(err, config.baseUrl));
    }
    $('#thread-id').textContent = 'none yet';
    $('#messages').replaceChildren();
  };
  keyInput.addEventListener('change', renew);
  $('#new-thread').addEventListener('click', renew);
  renew();

  const setBusy = (busy) => {
    $('#send').disabled = busy;
    $('#stop').disabled = !busy;
  };
  $('#stop').addEventListener('click', () => controller?.abort());
  $('#ask').addEventListener('submit', async (event) => {
    event.preventDefault();
    const question = $('#question').value.trim();
    if (!question || !client) return;
    $('#question').value = '';
    showError('');
    $('#messages').append(element('li', 'user', question));
    const item = element('li', 'assistant streaming');
    const answer = element('div', 'answer');
    const sources = element('ul', 'sources');
    item.append(answer, sources);
    $('#messages').append(item);
    controller = new AbortController();
    setBusy(true);
    const turn = client.sendMessage(question, { signal: controller.signal });
    let text = '';
    const found = [];
    const render = () => answer.replaceChildren(renderMarkdown(withoutSourceList(text, found), { base: `https://${config.domain}/`, sources: found }));
    try {
      for await (const e of turn) {
        if (e.type === 'text') {
          text += e.delta;
          render();
        } else if (e.type === 'source') {
          found.push(e.source);
          render();
          const link = element('a', null, e.source.title || e.source.url);
          link.href = e.source.url;
          link.target = '_blank';
          link.rel = 'noopener';
          sources.append(element('li'));
          sources.lastChild.append(link);
        } else if (e.type === 'finish' && e.threadId) $('#thread-id').textContent = e.threadId;
      }
      const result = await turn.result;
      if (result.messageId && result.threadId) item.append(thumbs(client, result, showError, config));
    } catch (err) {
      if (err.code === 'aborted') item.append(element('p', 'note', 'Stopped.'));
      else {
        showError(describeError(err, config.baseUrl));
        if (!answer.textContent) item.remove();
      }
    } finally {
      item.classList.remove('streaming');
      if (client.threadId) $('#thread-id').textContent = client.threadId;
      setBusy(false);
    }
  });
  setBusy(false);
}
