// The panel's icons as SVG built in place (no icon font, no emoji: both render as empty boxes on
// systems without the font). Stroke paths on a 24-unit grid; colour and width come from the stylesheet.
const PATHS = {
  close: 'M6 6l12 12M18 6L6 18',
  plus: 'M12 5v14M5 12h14',
  send: 'M12 19V5M5 12l7-7 7 7',
  stop: 'M7 7h10v10H7z',
  copy: 'M9 9h10v10H9zM5 15V5h10',
  check: 'M5 12l5 5 9-10',
  redo: 'M19 12a7 7 0 1 1-2-4.9M19 4v4h-4',
  up: 'M7 11v9H4v-9zM7 11l4-8c1.5 0 2.5 1 2.5 2.5L13 10h6a2 2 0 0 1 2 2.3l-1.2 6A2 2 0 0 1 17.8 20H7',
  page: 'M6 3h9l4 4v14H6zM14 3v5h5',
  quote: 'M4 7h16M4 12h10M4 17h13',
};

export function icon(name, className = '') {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  if (className) svg.setAttribute('class', className);
  const path = document.createElementNS(svg.namespaceURI, 'path');
  path.setAttribute('d', PATHS[name]);
  svg.append(path);
  return svg;
}
