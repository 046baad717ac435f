// Syntax highlighting for the builder script's static export (worker/src/highlight.rs calls it):
// highlight.js's core with the grammars real documentation repositories use, registered one by one
// so the script carries these and not the whole 190-language build. The HTML it returns is parsed
// strictly by core (core/src/export/code/highlight.rs), which keeps only highlight.js's own spans.
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

const languages = {
  bash, c, cpp, csharp, css, diff, django, dockerfile, go, graphql, http, ini, java, javascript, json, kotlin,
  markdown, nginx, php, plaintext, powershell, python, ruby, rust, scss, shell, sql, swift, typescript, xml, yaml,
};
for (const [name, grammar] of Object.entries(languages)) hljs.registerLanguage(name, grammar);

// Fence names authors write that no grammar lists among its own aliases.
hljs.registerAliases(['shellscript', 'curl', 'terminal'], { languageName: 'bash' });
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
