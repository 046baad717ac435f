#!/usr/bin/env node
// Import circles between a crate's modules may only shrink. Each crate's module tree is read from its
// root (src/lib.rs, src/main.rs) through its `mod` declarations; a module's imports are the paths in
// its code outside `#[cfg(test)]` and comments: `use crate::…`, `use super::…`, `use self::…`, `use
// child::…`, and the same paths written in expressions and types (`crate::a::b::f()`, a parent's
// `child::f()`). A path is followed to the module that defines the item it names, through named and
// glob re-exports (`pub use`, and the private `use`s a child reaches with `super::`), so importing a
// type by its folder's re-export is an import of the file that defines it; a `pub use` is a name,
// not an import of the module that writes it. A file module is a node (an inline `mod x { … }`
// belongs to its file); a circle is a strongly connected component of two or more of them.
//
// The check fails on a circle that KNOWN does not list, and on a listed one that no longer exists as
// listed: a circle that gained a module is a new one, and one broken or shrunk is taken off the list,
// so the list stays true and can only get shorter.
//
// A reader of text, not of Rust: macro expansions, `#[macro_use]` scoping and paths built by macros
// are not seen, nor names brought in by a local `use` inside a function other than as the module's.
// Reads files only. `npm test` runs it (tests/import-cycles.test.mjs); `node
// scripts/check-import-cycles.mjs --list` prints every circle with one line of source for each of its
// imports.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The circles there are today, per crate, each as the sorted file modules of its component. Remove
 * an entry when its circle is broken; never add one. None are left: a new circle fails the check. */
export const KNOWN = {};

// ---------------------------------------------------------------------------------------------
// Lexing: identifiers, `::`, punctuation and literals; comments dropped.

const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_]/;

/** Rust source → tokens `{ t: 'id' | 'p' | 'lit', v, line }` (`p` is punctuation, `::` one token). */
export function lex(src) {
  const out = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  const count = (from, to) => {
    for (let k = from; k < to; k++) if (src[k] === '\n') line++;
  };
  const skipString = (start) => {
    // src[start] is the opening quote; returns the index after the closing one.
    let k = start + 1;
    while (k < n && src[k] !== '"') k += src[k] === '\\' ? 2 : 1;
    return k + 1;
  };
  const skipRaw = (start) => {
    // src[start] is 'r'; r#*"…"#*
    let k = start + 1;
    let hashes = 0;
    while (src[k] === '#') { hashes++; k++; }
    const close = '"' + '#'.repeat(hashes);
    const end = src.indexOf(close, k + 1);
    return end < 0 ? n : end + close.length;
  };
  while (i < n) {
    const c = src[i];
    if (c === '\n') { line++; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      let depth = 1;
      let k = i + 2;
      while (k < n && depth > 0) {
        if (src[k] === '/' && src[k + 1] === '*') { depth++; k += 2; } else if (src[k] === '*' && src[k + 1] === '/') { depth--; k += 2; } else k++;
      }
      count(i, k);
      i = k;
      continue;
    }
    // String-like literals, with their prefixes (b, c, r, br, cr).
    const pre = /^(?:br|cr|b|c|r)?(?=["#])/.exec(src.slice(i, i + 3));
    if (pre && (!out.length || !(i > 0 && IDENT.test(src[i - 1])))) {
      const p = pre[0];
      const at = i + p.length;
      if (p.endsWith('r') && (src[at] === '"' || (src[at] === '#' && /^#+"/.test(src.slice(at, at + 64))))) {
        const end = skipRaw(at - 1);
        const hashes = /^#*/.exec(src.slice(at))[0].length;
        out.push({ t: 'lit', v: src.slice(at + hashes + 1, end - hashes - 1), line });
        count(i, end);
        i = end;
        continue;
      }
      if (src[at] === '"') {
        const end = skipString(at);
        out.push({ t: 'lit', v: src.slice(at + 1, end - 1), line });
        count(i, end);
        i = end;
        continue;
      }
    }
    if (c === '\'' || (c === 'b' && src[i + 1] === '\'')) {
      const q = c === 'b' ? i + 1 : i;
      if (src[q + 1] === '\\') {
        const end = src.indexOf('\'', q + 3);
        out.push({ t: 'lit', v: '', line });
        i = end + 1;
        continue;
      }
      const cp = src.codePointAt(q + 1);
      const width = cp > 0xffff ? 2 : 1;
      if (src[q + 1 + width] === '\'') {
        out.push({ t: 'lit', v: '', line });
        i = q + 2 + width;
        continue;
      }
      // A lifetime or label: 'a, 'static.
      let k = q + 1;
      while (k < n && IDENT.test(src[k])) k++;
      i = k;
      continue;
    }
    if (c === 'r' && src[i + 1] === '#' && IDENT_START.test(src[i + 2] ?? '')) {
      let k = i + 2;
      while (k < n && IDENT.test(src[k])) k++;
      out.push({ t: 'id', v: src.slice(i + 2, k), line });
      i = k;
      continue;
    }
    if (IDENT_START.test(c)) {
      let k = i;
      while (k < n && IDENT.test(src[k])) k++;
      out.push({ t: 'id', v: src.slice(i, k), line });
      i = k;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let k = i;
      while (k < n && /[0-9A-Za-z_.]/.test(src[k]) && !(src[k] === '.' && src[k + 1] === '.')) k++;
      out.push({ t: 'lit', v: '', line });
      i = k;
      continue;
    }
    if (c === ':' && src[i + 1] === ':') {
      out.push({ t: 'p', v: '::', line });
      i += 2;
      continue;
    }
    out.push({ t: 'p', v: c, line });
    i++;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// `#[cfg(…)]` that holds only under test: the item it stands on is dropped.

/** The value of a cfg predicate with `test` false and every other option unknown: true, false or
 * null (unknown). `toks` is the predicate's tokens. */
function cfgValue(toks) {
  let k = 0;
  const pred = () => {
    const head = toks[k++];
    if (!head) return null;
    if (toks[k]?.v === '(' && ['all', 'any', 'not'].includes(head.v)) {
      k++;
      const args = [];
      while (k < toks.length && toks[k].v !== ')') {
        args.push(pred());
        if (toks[k]?.v === ',') k++;
      }
      k++;
      if (head.v === 'not') return args[0] === null ? null : !args[0];
      if (head.v === 'all') return args.includes(false) ? false : args.every((a) => a === true) ? true : null;
      return args.includes(true) ? true : args.every((a) => a === false) ? false : null;
    }
    if (toks[k]?.v === '=') k += 2;
    return head.v === 'test' ? false : null;
  };
  return pred();
}

/** Index just past the attribute opening at `k` (`#`), or -1 if tokens at `k` are not one. */
function attrEnd(toks, k) {
  let j = k + 1;
  if (toks[j]?.v === '!') j++;
  if (toks[j]?.v !== '[') return -1;
  let depth = 0;
  for (; j < toks.length; j++) {
    if (toks[j].v === '[') depth++;
    else if (toks[j].v === ']' && --depth === 0) return j + 1;
  }
  return toks.length;
}

/** Whether the attribute at tokens[k..end] is a cfg that is false outside tests. */
function isTestOnlyCfg(toks, k, end) {
  const inner = toks[k + 1].v === '!' ? k + 3 : k + 2;
  if (toks[inner]?.v !== 'cfg' || toks[inner + 1]?.v !== '(') return false;
  return cfgValue(toks.slice(inner + 2, end - 2)) === false;
}

/** Index just past the item (or field, statement, expression) that starts at `k`. */
function itemEnd(toks, k) {
  let depth = 0;
  let fnLike = false;
  for (let j = k; j < toks.length; j++) {
    const v = toks[j].v;
    if (toks[j].t === 'id' && ['fn', 'impl', 'trait', 'where', 'struct', 'enum', 'mod'].includes(v)) fnLike = true;
    if (v === '<' && depth === 0) fnLike = true;
    if (v === '(' || v === '[' || v === '{') depth++;
    else if (v === ')' || v === ']' || v === '}') {
      if (depth === 0) return j; // the end of what holds it
      depth--;
      if (depth === 0 && v === '}') return toks[j + 1]?.v === ';' ? j + 2 : j + 1;
    } else if (depth === 0 && (v === ';' || (v === ',' && !fnLike))) return j + 1;
  }
  return toks.length;
}

/** Tokens without the items under a test-only cfg; null when the whole file is test-only. */
export function dropTestCode(toks) {
  const out = [];
  for (let k = 0; k < toks.length;) {
    if (toks[k].v === '#') {
      const end = attrEnd(toks, k);
      if (end > 0 && isTestOnlyCfg(toks, k, end)) {
        if (toks[k + 1].v === '!') return null;
        // Its item, with any attributes after this one.
        let j = end;
        while (toks[j]?.v === '#') {
          const e = attrEnd(toks, j);
          if (e < 0) break;
          j = e;
        }
        k = itemEnd(toks, j);
        continue;
      }
    }
    out.push(toks[k++]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Modules: their items, children, `use` bindings and the paths their code names.

const ITEM_KEYWORDS = new Set(['fn', 'struct', 'enum', 'trait', 'type', 'const', 'static', 'union']);

/** Parses a use tree at tokens[k]; pushes `{ path, alias, glob }` leaves to `out`; returns the index
 * after it. */
function parseUseTree(toks, k, prefix, out) {
  const path = [...prefix];
  if (toks[k]?.v === '::') k++;
  for (;;) {
    const tok = toks[k];
    if (!tok) return k;
    if (tok.v === '{') {
      k++;
      while (toks[k] && toks[k].v !== '}') {
        k = parseUseTree(toks, k, path, out);
        if (toks[k]?.v === ',') k++;
      }
      return k + 1;
    }
    if (tok.v === '*') {
      out.push({ path, glob: true, line: tok.line });
      return k + 1;
    }
    if (tok.v === '$' && toks[k + 1]?.v === 'crate') {
      path.push('$crate');
      k += 2;
    } else if (tok.t === 'id') {
      path.push(tok.v);
      k++;
    } else return k;
    if (toks[k]?.v === '::') {
      k++;
      continue;
    }
    let alias = path[path.length - 1];
    if (toks[k]?.v === 'as') {
      alias = toks[k + 1].v;
      k += 2;
    }
    if (alias === 'self') alias = path[path.length - 2];
    out.push({ path: path.at(-1) === 'self' ? path.slice(0, -1) : path, alias, line: tok.line });
    return k;
  }
}

class Module {
  constructor(name, file, parent, inline) {
    this.name = name; // path from the crate root, '/'-joined ('' for the root)
    this.file = file; // the file that holds it
    this.parent = parent;
    this.inline = inline;
    this.children = new Map();
    this.items = new Set();
    this.uses = []; // { path, alias?, glob?, line }
    this.refs = []; // { path, line }
  }
  get node() {
    let m = this;
    while (m.inline) m = m.parent;
    return m.name;
  }
}

/** Reads a crate's module tree from its root file. */
export function readCrate(rootFile) {
  const modules = [];
  const visit = (file, name, parent, dir) => {
    const mod = new Module(name, file, parent, false);
    modules.push(mod);
    const toks = dropTestCode(lex(readFileSync(file, 'utf8')));
    if (toks) parseBody(toks, 0, toks.length, mod, dir, modules, visit);
    return mod;
  };
  const rootDir = dirname(rootFile);
  return { root: visit(rootFile, '', null, rootDir), modules };
}

function parseBody(toks, start, end, mod, dir, modules, visit) {
  let depth = 0;
  let pathAttr = null;
  for (let k = start; k < end; k++) {
    const tok = toks[k];
    const prev = toks[k - 1];
    if (tok.v === '{' || tok.v === '(' || tok.v === '[') { depth++; continue; }
    if (tok.v === '}' || tok.v === ')' || tok.v === ']') { depth--; continue; }
    if (tok.v === '#' && toks[k + 1]?.v === '[' && toks[k + 2]?.v === 'path' && toks[k + 3]?.v === '=') {
      pathAttr = toks[k + 4].v;
      continue;
    }
    if (tok.t !== 'id') continue;
    if (tok.v === 'mod' && toks[k + 1]?.t === 'id' && depth === 0) {
      const name = toks[k + 1].v;
      const childName = mod.name ? `${mod.name}/${name}` : name;
      if (toks[k + 2]?.v === ';') {
        const candidates = pathAttr ? [join(dir, pathAttr)] : [join(dir, `${name}.rs`), join(dir, name, 'mod.rs')];
        const file = candidates.find((f) => existsSync(f));
        pathAttr = null;
        if (!file) continue;
        const childDir = file.endsWith('mod.rs') ? dirname(file) : join(dirname(file), name);
        const child = visit(file, childName, mod, childDir);
        mod.children.set(name, child);
        mod.items.add(name);
        k += 2;
        continue;
      }
      if (toks[k + 2]?.v === '{') {
        let close = k + 3;
        for (let d = 1; close < end; close++) {
          if (toks[close].v === '{') d++;
          else if (toks[close].v === '}' && --d === 0) break;
        }
        const child = new Module(childName, mod.file, mod, true);
        modules.push(child);
        mod.children.set(name, child);
        mod.items.add(name);
        parseBody(toks, k + 3, close, child, join(dir, name), modules, visit);
        k = close;
        continue;
      }
    }
    pathAttr = null;
    if (depth === 0 && ITEM_KEYWORDS.has(tok.v) && toks[k + 1]?.t === 'id') mod.items.add(toks[k + 1].v);
    if (depth === 0 && tok.v === 'macro_rules' && toks[k + 1]?.v === '!') mod.items.add(toks[k + 2]?.v);
    if (tok.v === 'use' && prev?.v !== '::') {
      // A re-export (`pub use`, `pub(crate) use`) is a name, not an import of this module's code:
      // paths through it are followed to where the item is defined.
      const reexport = prev?.v === 'pub' || (prev?.v === ')' && toks.slice(Math.max(0, k - 6), k).some((t) => t.v === 'pub'));
      const leaves = [];
      k = parseUseTree(toks, k + 1, [], leaves) - 1;
      for (const leaf of leaves) {
        mod.uses.push(leaf);
        if (!reexport) mod.refs.push({ path: leaf.path, line: leaf.line });
      }
      continue;
    }
    // A path in code: its head, then `::` and a name at a time (a turbofish ends it).
    if (prev?.v === '::' || toks[k + 1]?.v !== '::') continue;
    const path = [tok.v];
    if (prev?.v === '$' && tok.v === 'crate') path[0] = '$crate';
    let j = k + 1;
    while (toks[j]?.v === '::' && toks[j + 1]?.t === 'id') {
      path.push(toks[j + 1].v);
      j += 2;
    }
    mod.refs.push({ path, line: tok.line });
    k = j - 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Resolution: a path → the module that defines what it names.

/** The module a path's head names from `mod`, or null (an external crate, a type, a local). */
function head(mod, name, root) {
  if (name === 'crate' || name === '$crate') return root;
  if (name === 'self') return mod;
  if (name === 'super') return mod.parent;
  return mod.children.get(name) ?? null;
}

/** The module defining `path` (already past its head) inside `mod`. */
function resolveIn(mod, rest, root, seen) {
  let m = mod;
  let k = 0;
  while (k < rest.length) {
    const seg = rest[k];
    if (seg === 'super' && m.parent) { m = m.parent; k++; continue; }
    if (seg === 'self') { k++; continue; }
    const child = m.children.get(seg);
    if (child) { m = child; k++; continue; }
    return defining(m, seg, root, seen);
  }
  return m;
}

/** Where the item `name`, reached through module `m`, is defined: `m` itself or what one of its
 * `use`s brings in under that name. */
function defining(m, name, root, seen) {
  if (m.items.has(name)) return m;
  const key = `${m.name}#${name}`;
  if (seen.has(key)) return m;
  seen.add(key);
  for (const use of m.uses) {
    if (use.glob || use.alias !== name) continue;
    const target = resolvePath(m, use.path, root, seen);
    if (target) return target;
  }
  for (const use of m.uses) {
    if (!use.glob) continue;
    const g = resolvePath(m, use.path, root, seen);
    if (!g || g === m) continue;
    const found = defining(g, name, root, seen);
    if (found !== g || g.items.has(name) || g.uses.some((u) => !u.glob && u.alias === name)) return found;
  }
  return m;
}

/** The module a path names from within `mod` (null when it leaves the crate). */
function resolvePath(mod, path, root, seen = new Set()) {
  const start = head(mod, path[0], root);
  if (!start) return null;
  return resolveIn(start, path.slice(1), root, seen);
}

/** The crate's import graph: Map(node → Map(node → 'file:line' of the first import seen)). */
export function importGraph(rootFile, base = ROOT) {
  const { root, modules } = readCrate(rootFile);
  const graph = new Map();
  for (const mod of modules) if (!mod.inline) graph.set(mod.node || 'crate', new Map());
  for (const mod of modules) {
    const from = mod.node || 'crate';
    for (const ref of mod.refs) {
      const target = resolvePath(mod, ref.path, root);
      if (!target) continue;
      const to = target.node || 'crate';
      if (to === from) continue;
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, `${relative(base, mod.file)}:${ref.line}`);
    }
  }
  return graph;
}

/** The strongly connected components of two or more nodes (Tarjan's), each sorted, sorted. */
export function circles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const strong = (v) => {
    info.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!info.has(w)) {
        strong(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!info.has(v)) strong(v);
  return found.sort((a, b) => a.join().localeCompare(b.join()));
}

/** Each workspace member: its package name and root files. */
export function crates(base = ROOT) {
  const manifest = readFileSync(join(base, 'Cargo.toml'), 'utf8');
  const members = /members\s*=\s*\[([^\]]*)\]/.exec(manifest)?.[1].match(/"[^"]+"/g).map((s) => s.slice(1, -1)) ?? ['.'];
  return members.map((dir) => {
    const name = /^\s*name\s*=\s*"([^"]+)"/m.exec(readFileSync(join(base, dir, 'Cargo.toml'), 'utf8'))[1];
    const roots = ['src/lib.rs', 'src/main.rs'].map((f) => join(base, dir, f)).filter((f) => existsSync(f));
    return { name, dir, roots };
  });
}

/** Every circle in the workspace at `base` against `known`: `{ circles, problems }`, each circle
 * `{ crate, modules, edges }` (edges: the import lines that close it). */
export function check(base = ROOT, known = KNOWN) {
  const found = [];
  for (const crate of crates(base)) {
    for (const rootFile of crate.roots) {
      const graph = importGraph(rootFile, base);
      for (const modules of circles(graph)) {
        const members = new Set(modules);
        const edges = modules.flatMap((m) => [...graph.get(m)].filter(([to]) => members.has(to)).map(([to, at]) => `${m} -> ${to} (${at})`));
        found.push({ crate: crate.name, root: relative(base, rootFile), modules, edges });
      }
    }
  }
  const key = (crate, modules) => `${crate}: ${modules.join(', ')}`;
  const listed = new Set(Object.entries(known).flatMap(([crate, list]) => list.map((m) => key(crate, [...m].sort()))));
  const present = new Set(found.map((c) => key(c.crate, c.modules)));
  const problems = [
    ...found.filter((c) => !listed.has(key(c.crate, c.modules))).map((c) => `a new import circle in ${c.crate} (${c.root}): ${c.modules.join(', ')}\n    ${c.edges.join('\n    ')}`),
    ...[...listed].filter((k) => !present.has(k)).map((k) => `a listed circle no longer exists as listed (take it off KNOWN in scripts/check-import-cycles.mjs, or list what it is now): ${k}`),
  ];
  return { circles: found, problems };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { circles: found, problems } = check();
  if (process.argv.includes('--list')) {
    for (const c of found) console.log(`${c.crate}: ${c.modules.join(', ')}\n  ${c.edges.join('\n  ')}`);
  }
  for (const p of problems) console.error(p);
  console.log(`import circles: ${found.length} (${problems.length === 0 ? 'all of them known' : `${problems.length} problems`})`);
  process.exit(problems.length === 0 ? 0 : 1);
}
