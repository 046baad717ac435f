// Syntax highlighting for the builder script's static export (worker/src/builder/highlight.rs calls it):
// highlight.js's core with the grammars real documentation repositories use, registered one by one
// so the script carries these and not the whole 190-language build. The HTML it returns is parsed
// strictly by core (core/src/export/render/code/highlight.rs), which keeps only highlight.js's own spans.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import django from 'highlight.js/lib/languages/django';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import graphql from 'highlight.js/lib/languages/graphql';
import http from 'highlight.js/lib/languages/http';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import nginx from 'highlight.js/lib/languages/nginx';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import powershell from 'highlight.js/lib/languages/powershell';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/** Words of a grammar's keyword lists, as a regex alternation: what a rule added below must leave
 * to the grammar's own keyword pass. */
function words(grammar, ...lists) {
  return lists.flatMap((list) => grammar.keywords[list] ?? []).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/** Bash as highlight.js has it colours keywords, built-ins, strings, variables and comments, so the
 * commonest block of all, `npm install x` or `docker run -v a:b image`, shows no colour. As TextMate's
 * shell grammar (the one the format's own site shows) does, a command's name and its options get
 * scopes too: the first word of a command (at a line's start, after `sudo`, or after `|`, `;`, `&`
 * and `(`) unless the grammar already knows it, and `-x`/`--long` options after a space. */
function bashWithCommands(hljs) {
  const grammar = bash(hljs);
  const known = words(grammar, 'keyword', 'built_in', 'literal');
  grammar.contains = [
    ...grammar.contains,
    { scope: 'title.function', match: new RegExp(`(?<=^[ \\t]*(?:sudo[ \\t]+)?|[|;&(][ \\t]*)(?!(?:${known})(?![\\w./+-]))[A-Za-z_.~/][\\w./+-]*(?=[ \\t;|&)]|$)`) },
    { scope: 'attr', match: /(?<=[ \t])--?[A-Za-z0-9][\w-]*/ },
  ];
  return grammar;
}

/** Python as highlight.js has it leaves calls uncoloured (`client.chat.completions.create(...)`):
 * a name before `(` is a call, as it is in highlight.js's own JavaScript grammar, unless the grammar
 * already knows the word; an IPython magic (`%pip install x`) at a line's start is meta. */
function pythonWithCalls(hljs) {
  const grammar = python(hljs);
  const known = words(grammar, 'keyword', 'built_in', 'literal', 'type');
  grammar.contains = [
    ...grammar.contains,
    { scope: 'title.function.invoke', match: new RegExp(`\\b(?!(?:${known})\\b)[A-Za-z_]\\w*(?=\\()`) },
    { scope: 'meta', match: /^[ \t]*%%?[A-Za-z]\w*/ },
  ];
  return grammar;
}

const languages = {
  bash: bashWithCommands, c, console: shell, cpp, csharp, css, diff, django, dockerfile, go, graphql, http, ini, java,
  javascript, json, kotlin, markdown, nginx, php, plaintext, powershell, python: pythonWithCalls, ruby, rust, scss, sql,
  swift, typescript, xml, yaml,
};
for (const [name, grammar] of Object.entries(languages)) hljs.registerLanguage(name, grammar);

// Fence names authors write that no grammar lists among its own aliases. `shell` is a script, as
// the format's own site reads it (highlight.js's `shell` is a session of prompts and output, here
// `console`).
hljs.registerAliases(['shell', 'shellscript', 'curl', 'terminal'], { languageName: 'bash' });
hljs.registerAliases(['env', 'dotenv', 'properties'], { languageName: 'ini' });
hljs.registerAliases(['typescriptreact'], { languageName: 'typescript' });
hljs.registerAliases(['javascriptreact', 'node'], { languageName: 'javascript' });
hljs.registerAliases(['mdx'], { languageName: 'markdown' });
hljs.registerAliases(['jsonl', 'geojson'], { languageName: 'json' });
hljs.registerAliases(['vue', 'svelte', 'astro'], { languageName: 'xml' });
hljs.registerAliases(['python3', 'py3'], { languageName: 'python' });

/** highlight.js's HTML for `code` in `lang`, or undefined when no grammar knows `lang` (or one throws). */
export function highlight(lang, code) {
  if (!hljs.getLanguage(lang)) return undefined;
  try {
    return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
}
