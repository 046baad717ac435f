// The evaluation's reports: a plain-text table for the terminal and a self-contained HTML page (inline
// CSS and SVG, no script, no external request) with a bar chart of the totals.

export const METRICS = [
  ['hit1', 'hit@1'],
  ['hit5', 'hit@5'],
  ['mrr', 'MRR'],
  ['citationPrecision', 'citation P'],
  ['citationRecall', 'citation R'],
  ['fact', 'fact'],
  ['refusal', 'refusal'],
];

const rate = (v) => (v === null || v === undefined ? '–' : v.toFixed(2));
const millis = (v) => (v === null || v === undefined ? '–' : `${Math.round(v)}`);
const mark = (v) => (v === null || v === undefined ? ' ' : v ? '✓' : '·');

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

/** One line a question: its marks, reciprocal rank, latencies, the first retrieved pages. */
export function formatQuestions(report) {
  const rows = [['h1', 'h5', 'RR', 'P', 'R', 'fact', 'refused', 'first ms', 'total ms', 'question', 'retrieved']];
  for (const r of report.results) {
    const s = r.scores;
    const top = [...new Set(r.retrieved)].slice(0, 3).join(' ');
    const q = r.question.question.length > 60 ? `${r.question.question.slice(0, 59)}…` : r.question.question;
    if (r.question.unanswerable) rows.push(['', '', '', '', '', '', s.refused ? '✓ (right)' : '✗ (answered)', millis(r.firstTokenMs), millis(r.totalMs), q, top]);
    else rows.push([mark(s.hit1), mark(s.hit5), s.rr.toFixed(2), s.precision.toFixed(2), mark(s.recall), mark(s.fact), s.refused ? '✗ (wrong)' : '', millis(r.firstTokenMs), millis(r.totalMs), q, top]);
  }
  return table(rows);
}

/** The totals of every set, one row each. */
export function formatTable(reports) {
  const rows = [['set', 'questions', ...METRICS.map(([, label]) => label), 'false refusal', 'first ms p50/p95', 'total ms p50/p95']];
  for (const { name, totals: t } of reports) {
    rows.push([
      name, `${t.questions} (${t.unanswerable} unanswerable)`, ...METRICS.map(([key]) => rate(t[key])), rate(t.falseRefusal),
      `${millis(t.firstTokenMs.p50)}/${millis(t.firstTokenMs.p95)}`, `${millis(t.totalMs.p50)}/${millis(t.totalMs.p95)}`,
    ]);
  }
  return table(rows);
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const COLORS = ['#2563eb', '#d97706', '#059669', '#9333ea', '#dc2626', '#0891b2'];

/** Grouped bars: one group a metric, one bar a set, 0–1 on the y axis. */
function barChart(reports) {
  const groupWidth = 24 + reports.length * 22;
  const left = 36;
  const top = 16;
  const height = 180;
  const width = left + METRICS.length * groupWidth + 8;
  const y = (v) => top + height - v * height;
  const parts = [];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${left}" x2="${width - 4}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${left - 6}" y="${y(tick) + 4}" text-anchor="end" font-size="10" fill="#6b7280">${tick.toFixed(2)}</text>`);
  }
  METRICS.forEach(([key, label], m) => {
    const x0 = left + m * groupWidth + 12;
    reports.forEach((report, s) => {
      const v = report.totals[key];
      if (v === null || v === undefined) return;
      const x = x0 + s * 22;
      parts.push(`<rect x="${x}" y="${y(v)}" width="18" height="${Math.max(0, (v * height).toFixed(1))}" fill="${COLORS[s % COLORS.length]}"><title>${escapeHtml(report.name)} ${label}: ${v.toFixed(3)}</title></rect>`);
      parts.push(`<text x="${x + 9}" y="${y(v) - 3}" text-anchor="middle" font-size="9" fill="#374151">${v.toFixed(2)}</text>`);
    });
    parts.push(`<text x="${x0 + (reports.length * 22) / 2 - 2}" y="${top + height + 16}" text-anchor="middle" font-size="11" fill="#111827">${label}</text>`);
  });
  const legend = reports.map((r, s) => `<span class="key"><i style="background:${COLORS[s % COLORS.length]}"></i>${escapeHtml(r.name)}</span>`).join(' ');
  return `<svg role="img" aria-label="Totals per set" width="${width}" height="${top + height + 28}" viewBox="0 0 ${width} ${top + height + 28}" xmlns="http://www.w3.org/2000/svg">${parts.join('')}</svg><p>${legend}</p>`;
}

function questionRows(report) {
  return report.results.map((r) => {
    const s = r.scores;
    const q = r.question;
    const expected = q.unanswerable ? '<em>unanswerable</em>' : q.pages.map(escapeHtml).join('<br>');
    const retrieved = [...new Set(r.retrieved)].slice(0, 5).map((p) => (q.pages.includes(p) ? `<b>${escapeHtml(p)}</b>` : escapeHtml(p))).join('<br>');
    const outcome = q.unanswerable
      ? (s.refused ? '<span class="ok">refused</span>' : '<span class="bad">answered</span>')
      : `${s.hit1 ? '<span class="ok">h1</span> ' : ''}${s.hit5 ? '<span class="ok">h5</span>' : '<span class="bad">miss</span>'} RR ${s.rr.toFixed(2)} · P ${s.precision.toFixed(2)} R ${s.recall} · fact ${s.fact === null ? '–' : s.fact ? '<span class="ok">yes</span>' : '<span class="bad">no</span>'}${s.refused ? ' · <span class="bad">refused</span>' : ''}`;
    return `<tr><td>${escapeHtml(q.question)}</td><td>${expected}</td><td>${retrieved}</td><td>${[...new Set(r.cited)].map(escapeHtml).join('<br>')}</td><td>${outcome}</td><td>${millis(r.firstTokenMs)} / ${millis(r.totalMs)}</td></tr>`;
  }).join('\n');
}

/** The whole report as one HTML page; `meta` (`{date, commit, command}`) is printed at the top. */
export function renderHtml(reports, meta = {}) {
  const totals = reports.map(({ name, totals: t }) => `<tr><td>${escapeHtml(name)}</td><td>${t.questions} (${t.unanswerable})</td>${METRICS.map(([key]) => `<td>${rate(t[key])}</td>`).join('')}<td>${rate(t.falseRefusal)}</td><td>${millis(t.firstTokenMs.p50)} / ${millis(t.firstTokenMs.p95)}</td><td>${millis(t.totalMs.p50)} / ${millis(t.totalMs.p95)}</td></tr>`).join('\n');
  const sets = reports.map((r) => `<details><summary>${escapeHtml(r.name)}: ${r.results.length} questions</summary>
<table><thead><tr><th>question</th><th>expected</th><th>retrieved (top 5)</th><th>cited</th><th>outcome</th><th>first / total ms</th></tr></thead><tbody>
${questionRows(r)}
</tbody></table></details>`).join('\n');
  const info = [meta.date && `date ${escapeHtml(meta.date)}`, meta.commit && `commit ${escapeHtml(meta.commit)}`, meta.command && `<code>${escapeHtml(meta.command)}</code>`].filter(Boolean).join(' · ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Answer quality</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;color:#111827;margin:24px;max-width:1200px}
table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #e5e7eb;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f9fafb}.ok{color:#047857}.bad{color:#b91c1c}.key{margin-right:16px}.key i{display:inline-block;width:10px;height:10px;margin-right:4px}
summary{cursor:pointer;font-weight:600;margin:12px 0}code{background:#f3f4f6;padding:1px 4px}
</style></head><body>
<h1>Answer quality</h1>
<p>${info}</p>
${barChart(reports)}
<table><thead><tr><th>set</th><th>questions (unanswerable)</th>${METRICS.map(([, l]) => `<th>${l}</th>`).join('')}<th>false refusal</th><th>first-token ms p50 / p95</th><th>total ms p50 / p95</th></tr></thead><tbody>
${totals}
</tbody></table>
<p>hit@k, MRR: the first expected page among the search's distinct pages. Citation P: share of cited pages that are expected; R: an expected page is cited. Fact: the answer contains the question's fact (case, accents, punctuation and spacing folded). Refusal: unanswerable questions refused; false refusal: answerable ones refused. Latencies are reported, never asserted.</p>
${sets}
</body></html>
`;
}

/**
 * The totals of every set and of the phrasings and kinds of its questions (`style`, `kind`, when the
 * set has them): false refusals and key facts as counts, the rest as rates.
 */
export function formatBreakdown(reports, summarizeBy) {
  const rows = [['set', 'group', 'questions', 'false refusal', 'unans. refused', '(outright)', 'hit@1', 'hit@5', 'key fact', 'fact', 'uncertain', 'mean chars']];
  const count = (share, n) => (share === null ? '–' : `${Math.round(share * n)}/${n}`);
  const row = (name, group, t) => [
    name, group, `${t.questions}`, count(t.falseRefusal, t.answerable), count(t.refusal, t.unanswerable), count(t.refusalOutright, t.unanswerable), rate(t.hit1), rate(t.hit5),
    count(t.keyFact, t.keyFacts), rate(t.fact), rate(t.uncertain), millis(t.answerChars),
  ];
  for (const { name, totals, results } of reports) {
    rows.push(row(name, 'all', totals));
    for (const field of ['style', 'kind']) {
      for (const { value, totals: t } of summarizeBy(results, field)) rows.push(row(name, `${field} ${value}`, t));
    }
  }
  return table(rows);
}
