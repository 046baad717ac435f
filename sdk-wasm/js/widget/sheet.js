// Styles for a shadow root that a strict Content-Security-Policy allows: a constructable stylesheet
// (not subject to style-src), or, where those are missing, a <style> carrying the page's nonce.

export function sheet(root, css, nonce) {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
    const s = new CSSStyleSheet();
    s.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, s];
    return;
  }
  const style = document.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  root.prepend(style);
}
