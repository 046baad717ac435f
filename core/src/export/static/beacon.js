/* Web analytics beacon (only in exports made with analytics on): one page view per page load and
   searches (query, result count) to the docs-edge service, by navigator.sendBeacon. No cookies of its
   own, no third party, nothing when the browser asks not to be tracked (DNT, Global Privacy Control). */
(function (endpoint) {
  var n = navigator;
  if (n.doNotTrack === "1" || window.doNotTrack === "1" || n.globalPrivacyControl === true) return;
  if (typeof n.sendBeacon !== "function") return;
  function send(events) {
    try { n.sendBeacon(endpoint, JSON.stringify({ events: events })); } catch (e) { /* never break the page */ }
  }
  var path = location.pathname.slice(0, 512);
  send([{ type: "pageview", path: path }]);
  // A search is counted once the reader pauses, not per keystroke, and at most 10 per page view.
  var timer, last, sent = 0;
  document.addEventListener("docs-edge:search", function (e) {
    var detail = e.detail || {};
    var query = String(detail.query || "").trim().slice(0, 200);
    clearTimeout(timer);
    if (!query) return;
    timer = setTimeout(function () {
      if (query === last || sent >= 10) return;
      last = query;
      sent++;
      send([{ type: "search", path: path, query: query, resultCount: detail.resultCount | 0 }]);
    }, 1500);
  });
})(DOCS_EDGE_BEACON_ENDPOINT);
