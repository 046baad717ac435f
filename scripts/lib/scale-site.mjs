// A large docs site made from a real one: the English pages of `source` copied `copies` times under
// `part0/` … `part{N-1}/`, listed in one tab as groups of 50 pages (the site the scale issues measure:
// 40 copies of the fixture's 254 English pages = 10,160 pages). Everything that is not an English
// page (images, OpenAPI files, snippets, docs.json settings) stays once at the root, so imports,
// images and `openapi:` references still resolve.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { scratchDir } from './scratch.mjs';

export const GROUP_PAGES = 50;

function walk(dir, root = dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, root, out);
    else out.push(relative(root, full));
  }
  return out;
}

/** Writes the site into a new temporary folder and returns it with its page count; `groupPages`
 * pages make a sidebar section. */
export function writeScaleSite(source, copies, { groupPages = GROUP_PAGES } = {}) {
  const config = JSON.parse(readFileSync(join(source, 'docs.json'), 'utf8'));
  // Languages may be inline or `$ref`ed files (`./fr.json`); either way their pages sit under `<code>/`.
  const languages = (config.navigation?.languages ?? [])
    .map((l) => l.language ?? (l.$ref ? JSON.parse(readFileSync(join(source, l.$ref), 'utf8')).language : undefined))
    .filter((l) => l && l !== 'en');
  const otherLanguage = (path) => languages.some((l) => path.startsWith(`${l}/`));
  const files = walk(source);
  const pages = files.filter(
    (f) => /\.mdx?$/.test(f) && !otherLanguage(f) && !f.startsWith('snippets/') && !/^[A-Z]/.test(f) && !f.includes('/SKILL'),
  );
  const out = scratchDir(`docs-edge-scale-${copies}x-`);
  for (const file of files) {
    if (pages.includes(file) || file === 'docs.json' || otherLanguage(file)) continue;
    mkdirSync(dirname(join(out, file)), { recursive: true });
    cpSync(join(source, file), join(out, file));
  }
  const paths = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const file of pages) {
      const target = `part${copy}/${file}`;
      mkdirSync(dirname(join(out, target)), { recursive: true });
      cpSync(join(source, file), join(out, target));
      paths.push(target.replace(/\.mdx?$/, ''));
    }
  }
  const groups = [];
  for (let i = 0; i < paths.length; i += groupPages) {
    groups.push({ group: `Part ${groups.length + 1}`, pages: paths.slice(i, i + groupPages) });
  }
  const { navigation: _, redirects: __, ...settings } = config;
  writeFileSync(join(out, 'docs.json'), JSON.stringify({ ...settings, navigation: { tabs: [{ tab: 'Documentation', groups }] } }));
  return { dir: out, pages: paths.length };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const [source, copies] = process.argv.slice(2);
  console.log(JSON.stringify(writeScaleSite(source, Number(copies ?? 40))));
}
