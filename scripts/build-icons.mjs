#!/usr/bin/env node
// Turns the icon sets the docs format names (Font Awesome Free, Lucide, Tabler; npm packages pinned
// in package.json) into the builder's icon assets: worker/public/export-icons/<set>/<shard>.txt.
// The export asks for the few shards that hold the icons a batch of pages uses
// (core/src/export/page/icons.rs), so no whole set is ever in the builder's memory or in its wasm.
//
// A shard is lines `name\tviewBox\telements`; elements are `tag|attr=value|…` joined by `;`, only
// shape elements and geometry attributes (core checks them again and writes the markup itself).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from './lib/env.mjs';

/** Shards per set; core/src/export/page/icons.rs `SHARDS` says the same. */
export const SHARDS = 16;

const modules = join(root, 'node_modules');
const out = join(root, 'worker', 'public', 'export-icons');

const TAGS = new Set(['path', 'circle', 'rect', 'line', 'ellipse', 'polyline', 'polygon']);
const ATTRS = new Set(['d', 'cx', 'cy', 'r', 'rx', 'ry', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'width', 'height',
  'points', 'fill-rule', 'clip-rule', 'opacity', 'fill']);

/** FNV-1a (32 bits) of the name's UTF-8 bytes, modulo SHARDS: core's `shard_of`. */
export function shardOf(name) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(name, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % SHARDS;
}

/** `[viewBox, elements]` of one SVG file, or null when it holds nothing but shapes we keep. */
function compact(svg, filled) {
  const viewBox = /viewBox="([0-9. -]+)"/.exec(svg)?.[1];
  if (!viewBox) return null;
  const elements = [];
  for (const [, tag, attrs] of svg.matchAll(/<([a-z]+)\b([^>]*?)\/?>/g)) {
    if (tag === 'svg') continue;
    if (!TAGS.has(tag)) return null;
    const kept = [];
    let invisible = false;
    for (const [, name, value] of attrs.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)) {
      // Tabler draws an invisible bounding square first (`stroke="none"`).
      if (name === 'stroke' && value === 'none') invisible = true;
      if (!ATTRS.has(name)) continue;
      // A filled set's root paints in currentColor already.
      if (name === 'fill' && (filled ? value !== 'none' : value !== 'none' && value !== 'currentColor')) continue;
      if (!/^[0-9A-Za-z.,+ #-]*$/.test(value)) return null;
      kept.push(`${name}=${value.replace(/\s+/g, ' ').trim()}`);
    }
    if (!invisible) elements.push([tag, ...kept].join('|'));
  }
  return elements.length ? [viewBox, elements.join(';')] : null;
}

/** Font Awesome's aliases (`check-circle` for `circle-check`) from its metadata: name -> aliases. */
function fontAwesomeAliases(dir) {
  const aliases = new Map();
  let icon = null;
  let inNames = false;
  for (const line of readFileSync(join(dir, 'metadata', 'icons.yml'), 'utf8').split('\n')) {
    const top = /^([a-z0-9-]+):$/.exec(line);
    if (top) {
      icon = top[1];
      inNames = false;
    } else if (/^ {4}names:$/.test(line)) {
      inNames = true;
    } else if (inNames && /^ {6}- /.test(line)) {
      const alias = line.slice(8).trim().replace(/^['"]|['"]$/g, '');
      if (!aliases.has(icon)) aliases.set(icon, []);
      aliases.get(icon).push(alias);
    } else if (!/^ {6}/.test(line)) {
      inNames = false;
    }
  }
  return aliases;
}

/** The sets: id (as core names them), folder of SVG files, aliases, licence files. */
function sets() {
  const fa = join(modules, '@fortawesome', 'fontawesome-free');
  const faAliases = fontAwesomeAliases(fa);
  return [
    ...['solid', 'regular', 'brands'].map((style) => ({
      id: `fa-${style}`, dir: join(fa, 'svgs', style), aliases: faAliases, filled: true,
    })),
    { id: 'lucide', dir: join(modules, 'lucide-static', 'icons'), aliases: new Map(), filled: false },
    { id: 'tabler', dir: join(modules, '@tabler', 'icons', 'icons', 'outline'), aliases: new Map(), filled: false },
  ];
}

const LICENCES = [
  ['LICENSE-fontawesome.txt', join('@fortawesome', 'fontawesome-free', 'LICENSE.txt')],
  ['LICENSE-lucide.txt', join('lucide-static', 'LICENSE')],
  ['LICENSE-tabler.txt', join('@tabler', 'icons', 'LICENSE')],
];

/** What the shards are made from: the pinned packages and this script. */
function inputsKey() {
  return createHash('sha256').update(readFileSync(join(root, 'package-lock.json')))
    .update(readFileSync(fileURLToPath(import.meta.url))).digest('hex');
}

/**
 * Writes the shards and licence files unless the same inputs wrote them (a worker under `wrangler
 * dev` may be reading them: an unchanged set is never rewritten); returns `{ icons, bytes }` for the
 * build's log, or null when nothing was written.
 */
export function buildIcons() {
  const key = inputsKey();
  const keyFile = join(out, '.build-key');
  if (existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key) return null;
  rmSync(out, { recursive: true, force: true });
  let icons = 0;
  let bytes = 0;
  for (const set of sets()) {
    if (!existsSync(set.dir)) throw new Error(`${set.dir} is missing: run npm install`);
    const shards = Array.from({ length: SHARDS }, () => []);
    const seen = new Set();
    for (const file of readdirSync(set.dir).filter((f) => f.endsWith('.svg')).sort()) {
      const name = file.slice(0, -4);
      const icon = compact(readFileSync(join(set.dir, file), 'utf8'), set.filled);
      if (!icon) continue;
      for (const n of [name, ...(set.aliases.get(name) ?? [])]) {
        if (seen.has(n)) continue;
        seen.add(n);
        shards[shardOf(n)].push(`${n}\t${icon[0]}\t${icon[1]}\n`);
        icons += 1;
      }
    }
    mkdirSync(join(out, set.id), { recursive: true });
    shards.forEach((lines, i) => {
      const text = lines.join('');
      bytes += text.length;
      writeFileSync(join(out, set.id, `${i}.txt`), text);
    });
  }
  for (const [name, from] of LICENCES) writeFileSync(join(out, name), readFileSync(join(modules, from)));
  writeFileSync(keyFile, key);
  return { icons, bytes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const built = buildIcons();
  console.log(built ? `export icons: ${built.icons} names, ${(built.bytes / 1024).toFixed(0)} KiB in ${out}` : `export icons: up to date in ${out}`);
}
