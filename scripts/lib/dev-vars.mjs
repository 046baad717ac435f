// `.dev.vars`: the local secrets, created once with fresh random values and kept afterwards.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const REQUIRED_SECRETS = ['ROOT_TOKEN', 'LINK_SIGNING_KEY', 'ANALYTICS_SALT'];

export function parseDevVars(text) {
  const vars = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (!match) continue;
    let value = match[2];
    if (/^".*"$/.test(value) || /^'.*'$/.test(value)) value = value.slice(1, -1);
    vars[match[1]] = value;
  }
  return vars;
}

/** Creates the file when missing; adds a required secret that an older file lacks; never rewrites values. */
export function ensureDevVars(path) {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const vars = parseDevVars(existing);
  const missing = REQUIRED_SECRETS.filter((name) => !vars[name]);
  if (missing.length === 0) return { vars, created: false };
  let text = existing;
  if (!existing) text = '# Local secrets for wrangler dev. Generated once; git-ignored. Keep private.\n';
  if (text && !text.endsWith('\n')) text += '\n';
  for (const name of missing) {
    vars[name] = randomBytes(32).toString('hex');
    text += `${name}=${vars[name]}\n`;
  }
  writeFileSync(path, text, { mode: 0o600 });
  return { vars, created: !existing };
}
