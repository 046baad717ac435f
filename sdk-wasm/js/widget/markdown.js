// An answer's Markdown as DOM nodes, built with createElement and text nodes only: the model's text is
// never parsed as HTML, so nothing it says can run or restyle the page. The subset answers use:
// headings, paragraphs, lists (nested by indentation), block quotes, tables, fenced code, rules, and
// inline code, emphasis, links and `[n]` citations. It renders a prefix as well (an answer mid-stream):
// an open code fence is a code block so far.

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const INLINE =
  /`([^`]+)`|\[([^\]]+)\]\(\s*<?((?:[^()\s>]|\([^()\s]*\))+)>?(?:\s+"[^"]*")?\s*\)|\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s](?:[^*]*[^*\s])?)\*|(?<![\w])_([^_\s](?:[^_]*[^_\s])?)_(?![\w])|<(https?:\/\/[^>\s]+)>/g;

/** An element with a class and children (nodes or text). */
export function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children);
  return node;
}

/** A link target the widget lets through: http(s) or mailto, relative ones resolved on the docs site. */
export function safeUrl(url, base) {
  try {
    const u = new URL(url, base);
    return /^(https?|mailto):$/.test(u.protocol) ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * Renders `text`. `ctx`: `{base, sources, citationLabel(n, source), link(a, source?, n?), codeBlock(pre, lang)}`:
 * `base` resolves relative links, `[n]` links to `sources[n-1]`, `link` decorates every link made.
 */
export function renderMarkdown(text, ctx) {
  const out = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  blocks(lines, out, { ...ctx, levels: headingLevels(lines) });
  return out;
}

/**
 * The heading levels an answer uses, ranked: under the panel's title (an h2) its first rank is an h3,
 * the next an h4, and so on, whatever the model wrote (`##` then `####` would skip a level, which
 * screen reader users navigate by).
 */
function headingLevels(lines) {
  const used = new Set();
  let fenced = false;
  for (const line of lines) {
    if (FENCE.test(line)) fenced = !fenced;
    else if (!fenced && HEADING.test(line)) used.add(HEADING.exec(line)[1].length);
  }
  return [...used].sort((a, b) => a - b);
}

function blocks(lines, parent, ctx) {
  let i = 0;
  let para = [];
  const flush = () => {
    if (para.length) parent.append(el('p', '', ...inline(para.join('\n').trim(), ctx)));
    para = [];
  };
  while (i < lines.length) {
    const line = lines[i];
    let m;
    if ((m = FENCE.exec(line))) {
      flush();
      const close = new RegExp(`^\\s{0,3}${m[1][0]}{${m[1].length},}\\s*$`);
      const code = [];
      for (i++; i < lines.length && !close.test(lines[i]); i++) code.push(lines[i]);
      i++;
      const pre = el('pre', '', el('code', '', code.join('\n')));
      // A line wider than the panel scrolls sideways, and a region that scrolls must take the focus
      // for keyboard readers to scroll it (axe-core's scrollable-region-focusable).
      pre.tabIndex = 0;
      parent.append(ctx.codeBlock ? ctx.codeBlock(pre, m[2]) : pre);
    } else if ((m = HEADING.exec(line))) {
      flush();
      parent.append(el(`h${Math.min(6, 3 + Math.max(0, ctx.levels.indexOf(m[1].length)))}`, '', ...inline(m[2], ctx)));
      i++;
    } else if (RULE.test(line)) {
      flush();
      parent.append(el('hr'));
      i++;
    } else if (QUOTE.test(line)) {
      flush();
      const quoted = [];
      for (; i < lines.length && (m = QUOTE.exec(lines[i])); i++) quoted.push(m[1]);
      const bq = el('blockquote');
      blocks(quoted, bq, ctx);
      parent.append(bq);
    } else if (ITEM.test(line)) {
      flush();
      i = list(lines, i, parent, ctx);
    } else if (line.includes('|') && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      flush();
      i = table(lines, i, parent, ctx);
    } else if (!line.trim()) {
      flush();
      i++;
    } else {
      para.push(line);
      i++;
    }
  }
  flush();
}

/** A list starting at `lines[start]`; deeper-indented items and lines belong to the item above them. */
function list(lines, start, parent, ctx) {
  const first = ITEM.exec(lines[start]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const node = el(ordered ? 'ol' : 'ul');
  if (ordered && parseInt(first[2], 10) !== 1) node.start = parseInt(first[2], 10);
  let i = start;
  while (i < lines.length) {
    const m = ITEM.exec(lines[i]);
    if (!m || m[1].length !== indent || /\d/.test(m[2]) !== ordered) break;
    const body = [m[3]];
    for (i++; i < lines.length; i++) {
      const next = lines[i];
      const nested = ITEM.exec(next);
      if (nested && nested[1].length <= indent) break;
      if (!next.trim()) {
        // A blank line ends the list unless the next line is indented under the item.
        if (i + 1 < lines.length && /^\s+\S/.test(lines[i + 1]) && (lines[i + 1].match(/^\s*/)[0].length > indent)) {
          body.push('');
          continue;
        }
        break;
      }
      if (!nested && !/^\s/.test(next)) break;
      body.push(next.slice(Math.min(next.match(/^\s*/)[0].length, indent + 2)));
    }
    const li = el('li');
    if (body.length === 1) li.append(...inline(body[0], ctx));
    else blocks(body, li, ctx);
    node.append(li);
    if (i < lines.length && !lines[i].trim()) i++;
  }
  parent.append(node);
  return i;
}

function cells(line) {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

function table(lines, start, parent, ctx) {
  const head = cells(lines[start]);
  const align = cells(lines[start + 1]).map((c) => (c.endsWith(':') ? (c.startsWith(':') ? 'center' : 'end') : ''));
  const row = (values, tag) => {
    const tr = el('tr');
    head.forEach((_, n) => {
      const cell = el(tag, align[n] ? `align-${align[n]}` : '', ...inline(values[n] ?? '', ctx));
      if (tag === 'th') cell.scope = 'col';
      tr.append(cell);
    });
    return tr;
  };
  const tbody = el('tbody');
  let i = start + 2;
  for (; i < lines.length && lines[i].includes('|') && lines[i].trim(); i++) tbody.append(row(cells(lines[i]), 'td'));
  // Wide tables scroll inside the answer instead of widening the panel.
  parent.append(el('div', 'table', el('table', '', el('thead', '', row(head, 'th')), tbody)));
  return i;
}

function inline(text, ctx) {
  const nodes = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) nodes.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    const [whole, code, label, url, cites, strong1, strong2, em1, em2, auto] = m;
    if (code !== undefined) nodes.push(el('code', '', code));
    else if (label !== undefined) nodes.push(link(url, inline(label, ctx), ctx) ?? label);
    else if (cites !== undefined) nodes.push(...citations(cites, whole, ctx));
    else if (strong1 ?? strong2) nodes.push(el('strong', '', ...inline(strong1 ?? strong2, ctx)));
    else if (em1 ?? em2) nodes.push(el('em', '', ...inline(em1 ?? em2, ctx)));
    else nodes.push(link(auto, [auto], ctx) ?? auto);
  }
  if (last < text.length) nodes.push(text.slice(last));
  // Line breaks inside a paragraph stay line breaks (answers use them for short lists of lines).
  return nodes.flatMap((n) => (typeof n === 'string' ? n.split('\n').flatMap((part, k) => (k ? [el('br'), part] : [part])) : [n]));
}

function link(url, children, ctx, source, n) {
  const href = safeUrl(url, ctx.base);
  if (!href) return null;
  const a = el('a', '', ...children);
  a.href = href;
  ctx.link?.(a, source, n);
  return a;
}

/** `[1]` or `[1, 2]`: each number a link to its source; a number with no source stays text. */
function citations(list, whole, ctx) {
  const numbers = list.split(',').map((s) => parseInt(s, 10));
  if (!numbers.every((n) => ctx.sources?.[n - 1])) return [whole];
  const out = [];
  for (const n of numbers) {
    const source = ctx.sources[n - 1];
    const a = link(source.url, [String(n)], ctx, source, n);
    if (!a) return [whole];
    a.className = 'cite';
    a.setAttribute('aria-label', ctx.citationLabel ? ctx.citationLabel(n, source) : `[${n}]`);
    out.push(a);
  }
  return out;
}
