// The assistant panel, loaded when the reader first opens the widget: the conversation (kept in
// localStorage with its thread id, so it survives page loads), answers streamed through the SDK's
// AssistantClient and rendered as safe Markdown, sources, stop, regenerate, copy and feedback.
//
// Screen readers: the transcript is a role="log" live region that is aria-busy while an answer streams,
// so the finished answer is announced once rather than token by token.
import { AssistantClient } from 'docs-edge-sdk';
import { bundleLink, siteSupport } from './config.js';
import { labelLanguage, labelsFor } from './labels.js';
import { icon } from './icons.js';
import { el, renderMarkdown } from './markdown.js';

// The answer renderer, for pages that show the assistant's answers in a UI of their own (the web demo).
export { renderMarkdown };
import { PANEL_CSS } from './panel-css.js';
import { sheet } from './sheet.js';
import { turnstileFetch } from './turnstile.js';

function iconButton(name, label, onClick, className = 'icon') {
  const b = el('button', className, icon(name));
  b.type = 'button';
  b.setAttribute('aria-label', label);
  b.title = label;
  b.addEventListener('click', onClick);
  return b;
}

/**
 * An answer's closing list of its own sources ("Sources:" then `1. [title](url)` lines), which the
 * extractive backend writes into the text: the panel shows the sources once, as its own list.
 */
export function withoutSourceList(text, sources) {
  const lines = text.trimEnd().split('\n');
  let i = lines.length;
  while (i > 0 && /^\s*(\d+\.|[-*])\s+\[[^\]]*\]\([^)]*\)\s*$/.test(lines[i - 1])) i--;
  if (i === lines.length || i === 0 || !/:\s*$/.test(lines[i - 1])) return text;
  const urls = new Set(sources.map((s) => s.url));
  const listed = lines.slice(i).map((l) => /\]\(([^)]*)\)/.exec(l)[1]);
  return listed.every((u) => urls.has(u)) ? lines.slice(0, i - 1).join('\n').trimEnd() : text;
}

/**
 * Starter questions from the page's own headings (`data-page-starters`, when the owner gave no
 * `data-questions`): its first three distinct section headings, each asked about with `about`.
 */
export function pageStarters(about, doc = document) {
  const main = doc.querySelector('main, [role="main"], article') ?? doc.body;
  const topics = [];
  for (const h of main?.querySelectorAll('h2, h3') ?? []) {
    const topic = h.textContent.replace(/\s+/g, ' ').replace(/[#¶]\s*$/, '').trim();
    if (topic && topic.length <= 80 && !topics.includes(topic)) topics.push(topic);
    if (topics.length === 3) break;
  }
  return topics.map((topic) => about.replace('{topic}', topic));
}

export function mountPanel(host, root) {
  return new Panel(host, root);
}

class Panel {
  #host;
  #config;
  #labels;
  #client;
  #ratings = {};
  #running;
  #selection = '';
  #els = {};
  #docsBase;

  constructor(host, root) {
    this.#host = host;
    this.#config = host.config;
    this.#labels = labelsFor(this.#config.lang, this.#config.labels);
    this.#docsBase = `https://${this.#config.domain}/`;
    sheet(root, PANEL_CSS, this.#config.nonce);
    const backdrop = el('div', 'backdrop');
    backdrop.hidden = true;
    backdrop.addEventListener('click', () => this.#host.close());
    this.#els.backdrop = backdrop;
    root.append(backdrop, this.#build());
    this.#restore();
    this.#narrow.addEventListener('change', this.#layout);
  }

  // ---- surfaces: a side panel over the page (`panel`) or beside it (`push`), a centred `modal`;
  // full screen on narrow screens whatever the surface.

  #narrow = matchMedia('(max-width: 640px)');
  /** The page's own `margin-inline-end` on <html> while the panel pushes it aside. */
  #pushed;

  /** A modal dialog (the modal surface, or any surface full screen): focus stays inside. */
  #modal() {
    return this.#config.surface === 'modal' || this.#narrow.matches;
  }

  #layout = () => {
    const { panel, backdrop } = this.#els;
    const open = !panel.hidden;
    panel.setAttribute('aria-modal', String(open && this.#modal()));
    backdrop.hidden = !(open && this.#config.surface === 'modal' && !this.#narrow.matches);
    const push = open && this.#config.surface === 'push' && !this.#narrow.matches;
    // The page's content narrows by the panel's width: one property of <html> set through the CSSOM
    // (no stylesheet added to the page) and given back as it was when the panel closes.
    const style = document.documentElement.style;
    if (push && !this.#pushed) {
      this.#pushed = [style.getPropertyValue('margin-inline-end'), style.getPropertyPriority('margin-inline-end')];
      style.setProperty('margin-inline-end', `${panel.offsetWidth}px`, 'important');
    } else if (!push && this.#pushed) {
      const [value, priority] = this.#pushed;
      this.#pushed = undefined;
      if (value) style.setProperty('margin-inline-end', value, priority);
      else style.removeProperty('margin-inline-end');
      if (!style.length) document.documentElement.removeAttribute('style');
    }
  };

  /** Tab and Shift+Tab cycle through the panel's controls while it is modal. */
  #trap(e) {
    if (e.key !== 'Tab' || !this.#modal()) return;
    const items = [...this.#els.panel.querySelectorAll('button,textarea,input,a[href],[tabindex="0"]')].filter(
      (item) => !item.disabled && item.getClientRects().length,
    );
    const active = this.#host.shadowRoot.activeElement;
    const edge = e.shiftKey ? items[0] : items.at(-1);
    if (active === edge || !items.includes(active)) {
      e.preventDefault();
      (e.shiftKey ? items.at(-1) : items[0])?.focus();
    }
  }

  #build() {
    const L = this.#labels;
    const title = el('h2', '', L.title);
    title.id = 'da-title';
    // Not a <header>: inside the dialog it would count as a second banner landmark beside the page's.
    const header = el('div', 'head', title, iconButton('plus', L.newChat, () => this.reset()), iconButton('close', L.close, () => this.#host.close()));
    const log = el('div', 'log');
    log.setAttribute('role', 'log');
    log.setAttribute('aria-label', L.transcript);
    log.setAttribute('aria-busy', 'false');
    log.tabIndex = 0;

    const textarea = el('textarea');
    textarea.rows = 1;
    textarea.dir = 'auto';
    textarea.placeholder = L.placeholder;
    textarea.setAttribute('aria-label', L.question);
    textarea.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        form.requestSubmit();
      }
    });
    textarea.addEventListener('input', () => this.#fit());
    const send = iconButton('send', L.send, () => {}, 'icon send');
    send.type = 'submit';
    const stop = iconButton('stop', L.stop, () => this.stop(), 'icon send');
    stop.hidden = true;

    const pageBox = el('input');
    pageBox.type = 'checkbox';
    const pageLabel = el('label', '', pageBox, L.thisPage);
    const chips = el('div', 'chips', el('span', 'chip', pageLabel));
    const form = el('form', 'composer', chips, el('div', 'row', textarea, send, stop));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.ask(textarea.value);
    });

    const panel = el('div', 'panel', header, log, form);
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-labelledby', 'da-title');
    panel.hidden = true;
    panel.lang = labelLanguage(this.#config.lang);
    panel.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        this.#host.close();
      }
      this.#trap(e);
    });
    Object.assign(this.#els, { panel, log, textarea, send, stop, chips, pageBox });
    return panel;
  }

  #fit() {
    const t = this.#els.textarea;
    t.style.height = 'auto';
    t.style.height = `${Math.min(t.scrollHeight + 2, 160)}px`;
  }

  // ---- the conversation kept across page loads

  #restore() {
    let kept = {};
    try {
      kept = JSON.parse(localStorage.getItem(this.#config.storageKey) ?? '{}') ?? {};
    } catch {
      // a damaged entry: start afresh
    }
    this.#ratings = kept.ratings ?? {};
    this.#client = this.#newClient(kept.messages, kept.threadId);
    this.#renderAll();
  }

  #newClient(messages, threadId) {
    const { api, domain, key, turnstile } = this.#config;
    const fetch = turnstile ? turnstileFetch(this.#config, () => Boolean(this.#client?.threadId)) : undefined;
    return new AssistantClient({ baseUrl: api, domain, apiKey: key, messages, threadId, fetch });
  }

  #save() {
    const messages = this.#client.messages;
    const data = { threadId: this.#client.threadId, messages, ratings: this.#ratings };
    try {
      if (messages.length) localStorage.setItem(this.#config.storageKey, JSON.stringify(data));
      else localStorage.removeItem(this.#config.storageKey);
    } catch {
      // storage full or blocked (private mode): the conversation lasts this page only
    }
  }

  #renderAll(messages = this.#client.messages) {
    const { log } = this.#els;
    log.replaceChildren();
    if (!messages.length) log.append(this.#intro());
    messages.forEach((m, n) => {
      if (m.role === 'user') log.append(this.#userNode(m.content, m.context));
      else if (m.role === 'assistant') log.append(this.#answerNode(m, n === messages.length - 1).node);
    });
  }

  #intro() {
    const L = this.#labels;
    const box = el('div', 'intro-box', el('p', 'intro', L.intro));
    const { questions, pageStarters: fromPage } = this.#config;
    const starters = questions.length || !fromPage ? questions : pageStarters(L.about);
    if (starters.length) box.append(this.#questionList(starters, L.starters, 'starters'));
    return box;
  }

  /** Questions as buttons that ask them: the starters, and an answer's follow-ups. */
  #questionList(questions, label, className) {
    const list = el('ul', className);
    list.setAttribute('aria-label', label);
    for (const q of questions) {
      const b = el('button', 'starter', q);
      b.type = 'button';
      b.addEventListener('click', () => this.ask(q));
      list.append(el('li', '', b));
    }
    return list;
  }

  /**
   * Under the last answer, its follow-up questions; under an answer the docs do not cover or only
   * come close to, and after a thumbs-down, the support link (`count`: a fresh showing, reported).
   */
  #after(view, last, count) {
    const { message, after } = view;
    after.replaceChildren();
    if (last && message.suggestions?.length) after.append(this.#questionList(message.suggestions, this.#labels.followUps, 'starters follow-ups'));
    if (message.uncertain || message.unanswered || this.#ratings[message.id] === 'down') this.#offerSupport(view, count);
  }

  /** The page's own support link, else the one the site's docs.json sent with the answer. */
  #offerSupport(view, count) {
    const href = this.#config.support ?? siteSupport(view.message.support);
    if (!href || view.after.querySelector('.support')) return;
    const L = this.#labels;
    const a = el('a', '', L.contactSupport);
    a.href = href;
    if (!href.startsWith('mailto:')) {
      a.target = '_blank';
      a.rel = 'noopener';
    }
    a.addEventListener('click', () => this.#report('support_followed'));
    view.after.append(el('p', 'support', `${L.needHelp} `, a));
    if (count) this.#report('support_shown');
  }

  /** One analytics event, as exported pages send theirs (a beacon; none when the reader opts out). */
  #report(type) {
    if (navigator.doNotTrack === '1' || navigator.globalPrivacyControl) return;
    const { api, domain } = this.#config;
    const body = JSON.stringify({ events: [{ type, path: location.pathname }] });
    try {
      navigator.sendBeacon?.(`${api}/discovery/v1/analytics/${encodeURIComponent(domain)}/events`, body);
    } catch {
      // a refused beacon (policy, size) costs the reader nothing
    }
  }

  #userNode(text, context) {
    const node = el('div', 'user', el('span', 'sr', `${this.#labels.you}: `));
    // The reader's and the model's text take their own direction (an English answer on an Arabic page).
    node.dir = 'auto';
    if (context) node.append(el('span', 'context', context));
    node.append(text);
    return node;
  }

  /** An answer's article: Markdown body, sources, actions. `update(text, sources)` re-renders it. */
  #answerNode(message, last) {
    const L = this.#labels;
    const body = el('div', 'md');
    body.dir = 'auto';
    const sourcesBox = el('div', 'sources');
    const actions = el('div', 'actions');
    const after = el('div', 'after');
    const node = el('article', 'answer', el('span', 'sr', `${L.assistant}: `), body, sourcesBox, actions, after);
    const view = {
      node,
      body,
      after,
      message,
      update: (text, sources) => {
        body.replaceChildren(renderMarkdown(withoutSourceList(text, sources), this.#mdContext(sources)));
        sourcesBox.replaceChildren();
        if (sources.length) {
          const heading = el('h3', '', L.sources);
          const list = el('ol');
          sources.forEach((s, n) => {
            const a = el('a', '', s.title || s.url);
            a.href = s.url;
            this.#linkSource(a, s, n + 1);
            list.append(el('li', '', a));
          });
          sourcesBox.append(heading, list);
        }
      },
      finish: (isLast, fresh = false) => {
        this.#actions(view, actions, isLast);
        this.#after(view, isLast, fresh);
      },
    };
    if (message) {
      view.update(message.content, message.sources ?? []);
      view.finish(last);
    }
    return view;
  }

  #mdContext(sources) {
    return {
      base: this.#docsBase,
      sources,
      citationLabel: (n, s) => `${this.#labels.sources} ${n}: ${s.title || s.url}`,
      link: (a, source, n) => this.#linkSource(a, source, n),
      codeBlock: (pre, lang) => {
        const copy = iconButton('copy', this.#labels.copyCode, () => this.#copy(pre.textContent, copy));
        return el('div', 'code', el('div', 'code-bar', el('span', '', lang || ''), copy), pre);
      },
    };
  }

  /**
   * Source links leave through the page's own navigation, after a cancelable `source-click`; on an
   * exported page, a link to the docs' site goes to the bundle's copy of the page.
   */
  #linkSource(a, source, n) {
    a.href = bundleLink(a.href, this.#config);
    a.addEventListener('click', (e) => {
      const event = new CustomEvent('source-click', { detail: { url: a.href, title: source?.title, index: n }, cancelable: true });
      this.#host.dispatchEvent(event);
      if (event.defaultPrevented) e.preventDefault();
    });
  }

  async #copy(text, button) {
    try {
      await navigator.clipboard.writeText(text);
      button.replaceChildren(icon('check'));
      button.setAttribute('aria-label', this.#labels.copied);
      setTimeout(() => {
        button.replaceChildren(icon('copy'));
        button.setAttribute('aria-label', button.title);
      }, 1500);
    } catch {
      // no clipboard permission: nothing to do
    }
  }

  #actions(view, box, last) {
    const L = this.#labels;
    const id = view.message.id;
    box.replaceChildren();
    box.append(iconButton('copy', L.copy, (e) => this.#copy(view.message.content, e.currentTarget)));
    if (last) box.append(iconButton('redo', L.regenerate, () => this.regenerate()));
    const rate = (rating) => async () => {
      this.#ratings[id] = rating;
      this.#save();
      up.setAttribute('aria-pressed', String(rating === 'up'));
      down.setAttribute('aria-pressed', String(rating === 'down'));
      await this.#feedback(id, rating);
      box.querySelector('.reason')?.remove();
      if (rating === 'down') box.append(this.#reasonForm(id));
      if (rating === 'down') this.#offerSupport(view, true);
    };
    const up = iconButton('up', L.helpful, rate('up'));
    const down = iconButton('up', L.notHelpful, rate('down'), 'icon down');
    up.setAttribute('aria-pressed', String(this.#ratings[id] === 'up'));
    down.setAttribute('aria-pressed', String(this.#ratings[id] === 'down'));
    box.append(up, down);
  }

  #reasonForm(id) {
    const L = this.#labels;
    const input = el('input');
    input.setAttribute('aria-label', L.reason);
    input.placeholder = L.reason;
    input.maxLength = 1000;
    const submit = el('button', 'text-button', L.sendFeedback);
    const form = el('form', 'reason', input, submit);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      await this.#feedback(id, 'down', input.value.trim() || undefined);
      form.replaceChildren(el('p', 'status', L.thanks));
    });
    queueMicrotask(() => input.focus());
    return form;
  }

  async #feedback(messageId, rating, comment) {
    try {
      await this.#client.feedback({ messageId, rating, comment });
      this.#host.emit('feedback', { messageId, rating, comment });
    } catch (err) {
      this.#host.emit('error', { message: err.message, code: err.code });
    }
  }

  // ---- asking

  #setSelection(text) {
    this.#selection = text ?? '';
    this.#els.chips.querySelector('.selection')?.remove();
    if (!this.#selection) return;
    const L = this.#labels;
    const chip = el('span', 'chip selection', icon('quote'), el('span', 'text', `${L.selection}: “${this.#selection}”`));
    chip.append(iconButton('close', L.removeSelection, () => {
      this.#setSelection('');
      this.#els.textarea.focus();
    }));
    this.#els.chips.append(chip);
  }

  #busy(on) {
    const { log, send, stop } = this.#els;
    log.setAttribute('aria-busy', String(on));
    send.hidden = on;
    stop.hidden = !on;
    // The button under the keyboard focus changes: keep the focus on its replacement.
    const root = this.#host.shadowRoot;
    if (on && root.activeElement === send) stop.focus();
    if (!on && root.activeElement === stop) send.focus();
  }

  /**
   * Asks `text`. Regenerating passes `messages`, the conversation up to and with the question (its
   * id unchanged, so the server replaces that question's answer in its thread rather than adding a
   * second copy).
   */
  async ask(text, { messages } = {}) {
    const question = String(text ?? '').trim();
    if (!question || this.#running) return;
    const { log, textarea, pageBox } = this.#els;
    textarea.value = '';
    this.#fit();
    log.querySelector('.intro-box')?.remove();
    for (const list of log.querySelectorAll('.follow-ups')) list.remove();
    for (const b of log.querySelectorAll('.actions [aria-label="' + this.#labels.regenerate + '"]')) b.remove();
    const context = this.#selection ? [{ type: 'textSelection', value: this.#selection, path: location.pathname }] : undefined;
    log.append(this.#userNode(question, this.#selection || undefined));
    this.#setSelection('');
    const view = this.#answerNode(null, true);
    const status = el('p', 'status', this.#labels.answering);
    view.body.append(status);
    log.append(view.node);
    view.node.scrollIntoView({ block: 'nearest' });
    const controller = new AbortController();
    this.#running = controller;
    this.#busy(true);
    let text_ = '';
    const sources = [];
    let frame = 0;
    const paint = () => {
      frame = 0;
      view.update(text_, sources);
      log.scrollTop = log.scrollHeight;
    };
    try {
      const turn = this.#client.sendMessage(
        { text: messages ? undefined : question, messages, context, currentPath: pageBox.checked ? location.pathname : undefined },
        { signal: controller.signal },
      );
      for await (const event of turn) {
        if (event.type === 'text') text_ += event.delta;
        else if (event.type === 'source') sources.push(event.source);
        else continue;
        frame ||= requestAnimationFrame(paint);
      }
      const result = await turn.result;
      cancelAnimationFrame(frame);
      view.message = this.#client.messages.at(-1);
      view.update(result.text, result.sources);
      view.finish(true, true);
      this.#host.emit('answer', { question, ...result });
    } catch (err) {
      cancelAnimationFrame(frame);
      const stopped = err.code === 'aborted';
      view.update(text_, sources);
      const last = this.#client.messages.at(-1);
      if (stopped && last?.role === 'assistant') {
        view.message = last;
        view.finish(true);
      }
      view.body.append(el('p', stopped ? 'status' : 'status error', stopped ? this.#labels.stopped : this.#failure(err)));
      if (!stopped) this.#host.emit('error', { message: err.message, code: err.code });
    } finally {
      this.#running = undefined;
      this.#busy(false);
      this.#save();
    }
  }

  /** What the reader is told: a key locked to other sites says so (the server's message names the origin). */
  #failure(err) {
    const L = this.#labels;
    return err.code === 'origin_not_allowed' ? `${L.notAllowed} (${err.message})` : L.error + err.message;
  }

  stop() {
    this.#running?.abort();
  }

  /** Asks the last question again, in place of its answer. */
  regenerate() {
    const messages = this.#client.messages;
    const at = messages.findLastIndex((m) => m.role === 'user');
    if (at < 0 || this.#running) return;
    // The question and its answer leave the view; ask() shows them anew.
    this.#renderAll(messages.slice(0, at));
    return this.ask(messages[at].content, { messages: messages.slice(0, at + 1) });
  }

  /** A new conversation: the kept one is forgotten. */
  reset() {
    this.stop();
    this.#client = this.#newClient();
    this.#ratings = {};
    this.#save();
    this.#renderAll();
    this.#els.textarea.focus();
    this.#host.emit('reset', {});
  }

  show({ query, submit, selection } = {}) {
    const { panel, textarea } = this.#els;
    panel.hidden = false;
    this.#layout();
    if (selection) this.#setSelection(selection);
    if (query) textarea.value = query;
    this.#fit();
    textarea.focus();
    if (query && submit) this.ask(query);
  }

  hide() {
    this.#els.panel.hidden = true;
    this.#layout();
  }

  destroy() {
    this.stop();
    this.hide();
    this.#narrow.removeEventListener('change', this.#layout);
    this.#els.panel.remove();
    this.#els.backdrop.remove();
  }
}
