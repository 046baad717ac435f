// The analytics view: the demo site's report (through the demo server, which holds the admin key) as
// SVG charts drawn here: questions per day, the up/down ratio of the ratings, the most cited pages,
// and the coverage gaps (questions answered without a source).
const $ = (selector) => document.querySelector(selector);
const SVG = 'http://www.w3.org/2000/svg';

function svgElement(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(width, height, label) {
  return svgElement('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label });
}

/** One vertical bar per day; the first and last days are labelled, and the largest value. */
function dailyBars(days, value, label) {
  const width = 600;
  const height = 140;
  const plot = height - 20;
  const max = Math.max(1, ...days.map(value));
  const step = width / Math.max(1, days.length);
  const chart = svg(width, height, label);
  days.forEach((day, i) => {
    const h = (value(day) / max) * (plot - 12);
    const bar = svgElement('rect', { class: 'bar', x: i * step + 1, y: plot - h, width: Math.max(1, step - 2), height: h });
    bar.append(svgElement('title', {}, `${day.day}: ${value(day)}`));
    chart.append(bar);
  });
  if (days.length) {
    chart.append(svgElement('text', { x: 0, y: height - 4 }, days[0].day));
    chart.append(svgElement('text', { x: width, y: height - 4, 'text-anchor': 'end' }, days.at(-1).day));
  }
  chart.append(svgElement('text', { x: 0, y: 10 }, `max ${max}`));
  return chart;
}

/** Up and down ratings as one bar split in two. */
function ratio(up, down) {
  const width = 600;
  const chart = svg(width, 40, `${up} helpful, ${down} not helpful`);
  const total = up + down;
  const upWidth = total ? (up / total) * width : 0;
  chart.append(svgElement('rect', { class: 'bar', x: 0, y: 0, width: upWidth, height: 22 }));
  chart.append(svgElement('rect', { class: 'bar bar-down', x: upWidth, y: 0, width: total ? width - upWidth : 0, height: 22 }));
  const text = total ? `${up} up (${Math.round((up / total) * 100)}%) · ${down} down` : 'no ratings yet';
  chart.append(svgElement('text', { x: 0, y: 36 }, text));
  return chart;
}

/** Horizontal bars with their labels, largest first. */
function rankedBars(items, label) {
  const width = 600;
  const row = 20;
  const chart = svg(width, Math.max(row, items.length * row), label);
  const max = Math.max(1, ...items.map((i) => i.count));
  items.forEach((item, i) => {
    chart.append(svgElement('rect', { class: 'bar', x: 200, y: i * row + 3, width: ((width - 240) * item.count) / max, height: row - 6 }));
    chart.append(svgElement('text', { x: 195, y: i * row + 14, 'text-anchor': 'end' }, item.path.slice(0, 40)));
    chart.append(svgElement('text', { x: 205 + ((width - 240) * item.count) / max, y: i * row + 14 }, item.count));
  });
  if (!items.length) chart.append(svgElement('text', { x: 0, y: 14 }, 'no citations yet'));
  return chart;
}

export function render(report) {
  const { totals } = report;
  $('#analytics-totals').textContent =
    `${report.from} to ${report.to}: ${totals.conversations} conversations, ${totals.questions} questions ` +
    `(${totals.unanswered} without a source, ${totals.uncertain ?? 0} with only the closest passage), answer first byte p50 ${report.firstByteMs.p50 ?? '–'} ms, ` +
    `p95 ${report.firstByteMs.p95 ?? '–'} ms, ${totals.pageViews} page views, ${totals.searches} searches.`;
  $('#chart-questions').replaceChildren(dailyBars(report.days, (d) => d.questions, 'Questions per day'));
  $('#chart-feedback').replaceChildren(ratio(totals.feedbackUp, totals.feedbackDown));
  $('#chart-pages').replaceChildren(rankedBars(report.topCitedPages.slice(0, 8), 'Top cited pages'));
  const gaps = report.coverageGaps.map((g) => {
    const item = document.createElement('li');
    item.textContent = `${g.question} (${g.count})`;
    return item;
  });
  if (!gaps.length) gaps.push(Object.assign(document.createElement('li'), { textContent: 'none: every question found a source' }));
  $('#analytics-gaps').replaceChildren(...gaps);
}

export function setupAnalytics() {
  const refresh = async () => {
    $('#analytics-error').hidden = true;
    try {
      const response = await fetch('/demo-api/analytics');
      const body = await response.json();
      if (!response.ok) throw new Error(`${body.error ?? 'the report failed'} (${response.status} ${body.code ?? ''})`);
      render(body);
    } catch (err) {
      $('#analytics-error').textContent = err.message;
      $('#analytics-error').hidden = false;
    }
  };
  $('#analytics-refresh').addEventListener('click', refresh);
  refresh();
}
