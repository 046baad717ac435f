
// The announcement banner (export/page/chrome.rs): a dismissed one stays hidden until its text changes.
(function () {
  var banner = document.querySelector(".site-banner[data-banner]");
  if (!banner) return;
  var key = "banner-dismissed";
  var id = banner.getAttribute("data-banner");
  try { if (localStorage.getItem(key) === id) banner.hidden = true; } catch (e) {}
  var close = banner.querySelector(".site-banner-close");
  if (close) close.addEventListener("click", function () {
    banner.hidden = true;
    try { localStorage.setItem(key, id); } catch (e) {}
  });
})();
