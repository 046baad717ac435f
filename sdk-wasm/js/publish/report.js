// What the publish command prints for people: progress lines and the warnings grouped by kind.
// Warnings read `path:line: message` or `path: message`; two are of one kind when their messages
// differ only in quoted names, addresses and numbers.

const LOCATION = /^([^\s:][^:]*?(?::\d+)?): (.*)$/s;
const VARIABLE = /https?:\/\/\S+|"[^"]*"|'[^']*'|`[^`]*`|\b\d+(?:\.\d+)?\b/g;

/** `[{kind, count, items: [{location, detail}]}]`, largest group first. */
export function groupWarnings(warnings) {
  const groups = new Map();
  for (const warning of warnings) {
    const [, location = '', message = warning] = LOCATION.exec(warning) ?? [];
    const values = message.match(VARIABLE) ?? [];
    const kind = message.replace(VARIABLE, (m) => (/^\d/.test(m) ? 'N' : /^["'`]/.test(m) ? `${m[0]}…${m[0]}` : '…'));
    if (!groups.has(kind)) groups.set(kind, { kind, count: 0, items: [] });
    const group = groups.get(kind);
    group.count++;
    group.items.push({ location, detail: values.filter((v) => !/^\d/.test(v)).join(' ') });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || (a.kind < b.kind ? -1 : 1));
}

/** The grouped warnings as text, at most `perGroup` locations each. */
export function formatWarnings(warnings, { perGroup = 8 } = {}) {
  if (warnings.length === 0) return 'no warnings';
  const lines = [`${warnings.length} warning${warnings.length === 1 ? '' : 's'}:`];
  for (const group of groupWarnings(warnings)) {
    lines.push(`  ${group.count} × ${group.kind}`);
    for (const item of group.items.slice(0, perGroup)) {
      lines.push(`      ${[item.location, item.detail].filter(Boolean).join('  ')}`);
    }
    if (group.items.length > perGroup) lines.push(`      … and ${group.items.length - perGroup} more`);
  }
  return lines.join('\n');
}

export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** One progress line per event, or null when the event says nothing new. */
export function progressLine(event) {
  switch (event.phase) {
    case 'hash':
      return `hashed ${event.done}/${event.total} files`;
    case 'upload':
      return `uploaded ${event.files}/${event.totalFiles} files, ${formatBytes(event.bytes)} of ${formatBytes(event.totalBytes)}`;
    case 'publish': {
      const { status, progress = 0, pageCount, pagesParsed } = event.status;
      // A service from before `pagesParsed` gives the planned total alone.
      const pages = !pageCount ? '' : pagesParsed === undefined ? `, ${pageCount} pages` : `, parsed ${pagesParsed} of ${pageCount} pages`;
      return `publish ${status} ${Math.round(progress * 100)}%${pages}`;
    }
    default:
      return null;
  }
}
