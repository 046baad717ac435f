/* Static export: theme toggle, tabs, copy buttons, menu and offline search. No network access
   beyond files of this bundle, fetched by relative URL. */
(function () {
  "use strict";
  var d = document, body = d.body, root = d.documentElement;

  function isDark() {
    var t = root.getAttribute("data-theme");
    return t ? t === "dark" : !!(window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches);
  }
  var themeButton = d.querySelector(".theme-toggle");
  if (themeButton) themeButton.addEventListener("click", function () {
    var next = isDark() ? "light" : "dark";
    root.setAttribute("data-theme", next);
    try { localStorage.setItem("theme", next); } catch (e) { /* storage may be disabled */ }
  });

  var menu = d.querySelector(".menu-toggle");
  if (menu) menu.addEventListener("click", function () { body.classList.toggle("nav-open"); });

  // Remote embeds and images (export/render/embeds.rs): nothing loads from their host until the reader
  // presses the placeholder's button, which swaps in the frame or image; without JS the
  // placeholder is a link.
  function clickToLoad(selector, swap) {
    [].slice.call(d.querySelectorAll(selector)).forEach(function (box) {
      var button = box.querySelector(".embed-load");
      if (!button) return;
      button.hidden = false;
      button.addEventListener("click", function () { swap(box, button).focus(); });
    });
  }
  clickToLoad(".embed-placeholder", function (box, button) {
    var frame = d.createElement("iframe");
    frame.src = box.getAttribute("data-embed-src");
    frame.title = box.getAttribute("data-embed-title") || button.textContent;
    frame.className = "embed-frame";
    frame.setAttribute("allow", "fullscreen; picture-in-picture; encrypted-media");
    frame.setAttribute("allowfullscreen", "");
    frame.setAttribute("referrerpolicy", "strict-origin-when-cross-origin");
    frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-popups allow-presentation");
    box.replaceChild(frame, button);
    box.classList.add("embed-loaded");
    return frame;
  });
  clickToLoad(".image-placeholder", function (box) {
    var img = d.createElement("img");
    ["src", "alt", "width", "height"].forEach(function (key) {
      var value = box.getAttribute("data-image-" + key);
      if (value !== null) img.setAttribute(key, value);
    });
    box.classList.remove("image-placeholder");
    img.className = box.className; // the author's classes
    img.tabIndex = -1; // focus stays where the button was
    box.parentNode.replaceChild(img, box);
    return img;
  });

  // Views (<View title>): a select before the first view shows one view at a time; without JS
  // every view shows under its title.
  var views = [].slice.call(d.querySelectorAll(".view-panel"));
  if (views.length > 1) {
    var viewTitles = [];
    views.forEach(function (v) {
      var t = v.getAttribute("data-title");
      if (viewTitles.indexOf(t) < 0) viewTitles.push(t);
    });
    var viewLabel = d.createElement("label"), viewSelect = d.createElement("select");
    viewLabel.className = "view-select";
    viewLabel.appendChild(d.createTextNode("View "));
    viewTitles.forEach(function (t) {
      var o = d.createElement("option");
      o.textContent = t;
      viewSelect.appendChild(o);
    });
    viewLabel.appendChild(viewSelect);
    views[0].parentNode.insertBefore(viewLabel, views[0]);
    var showView = function () {
      views.forEach(function (v) { v.hidden = v.getAttribute("data-title") !== viewSelect.value; });
    };
    viewSelect.addEventListener("change", showView);
    body.classList.add("js-views");
    showView();
  }

  // Tabs and code groups: without JS every panel shows under its title; with it, one at a time.
  // A choice is followed by every other group of the page with a panel of the same label (the
  // format's sync; a group marked data-nosync neither leads nor follows). `data-dropdown`: a
  // select in place of the tab buttons.
  var groups = [];
  function follow(leader, label) {
    groups.forEach(function (g) {
      if (g === leader || g.box.hasAttribute("data-nosync")) return;
      for (var i = 0; i < g.panels.length; i++) {
        if (g.panels[i].getAttribute("data-title") === label) { g.show(i); return; }
      }
    });
  }
  d.querySelectorAll("[data-tabs]").forEach(function (box) {
    var panels = [].filter.call(box.children, function (c) { return c.classList.contains("tab-panel"); });
    if (!panels.length) return;
    var bar = d.createElement("div"), select = null, group = { box: box, panels: panels };
    bar.className = "tab-list";
    var labels = panels.map(function (p, i) { return p.getAttribute("data-title") || "Tab " + (i + 1); });
    group.show = function (n) {
      panels.forEach(function (p, i) { p.classList.toggle("active", i === n); });
      if (select) { select.selectedIndex = n; return; }
      [].forEach.call(bar.children, function (b, i) {
        b.classList.toggle("active", i === n);
        b.setAttribute("aria-selected", i === n ? "true" : "false");
      });
    };
    function choose(n) {
      group.show(n);
      if (!box.hasAttribute("data-nosync")) follow(group, labels[n]);
    }
    if (box.hasAttribute("data-dropdown")) {
      select = d.createElement("select");
      select.className = "tab-select";
      select.setAttribute("aria-label", "Example");
      labels.forEach(function (label) {
        var o = d.createElement("option");
        o.textContent = label;
        select.appendChild(o);
      });
      select.addEventListener("change", function () { choose(select.selectedIndex); });
      bar.appendChild(select);
    } else {
      bar.setAttribute("role", "tablist");
      labels.forEach(function (label, i) {
        var b = d.createElement("button");
        b.type = "button";
        b.className = "tab-button";
        b.setAttribute("role", "tab");
        b.textContent = label;
        b.addEventListener("click", function () { choose(i); });
        bar.appendChild(b);
      });
    }
    box.insertBefore(bar, panels[0]);
    box.classList.add("js-tabs");
    groups.push(group);
    group.show(0);
  });

  d.querySelectorAll(".code-block pre").forEach(function (pre) {
    var block = pre.parentNode;
    if (block.classList.contains("expandable") && pre.scrollHeight > 330) {
      var more = d.createElement("button");
      more.type = "button";
      more.className = "expand";
      function set(open) {
        block.classList.toggle("collapsed", !open);
        more.textContent = open ? "Collapse" : "Expand";
        more.setAttribute("aria-expanded", open ? "true" : "false");
      }
      more.addEventListener("click", function () { set(block.classList.contains("collapsed")); });
      block.appendChild(more);
      set(false);
    }
    if (block.classList.contains("nocopy")) return;
    var b = d.createElement("button");
    b.type = "button";
    b.className = "copy";
    b.textContent = "Copy";
    b.addEventListener("click", function () {
      if (!navigator.clipboard) return;
      navigator.clipboard.writeText(pre.innerText).then(function () {
        b.textContent = "Copied";
        setTimeout(function () { b.textContent = "Copy"; }, 1500);
      });
    });
    block.insertBefore(b, pre);
  });

  // Search: the same tokenizer and ranking as search_index.rs (see its module docs for the files).
  var input = d.querySelector(".search-input"), box = d.querySelector(".search-results");
  var base = body.getAttribute("data-search"), rootUrl = body.getAttribute("data-root") || "";
  if (!input || !box || !base) return;
  input.disabled = false;
  var cache = {}, seq = 0, timer = 0;

  // analyzer:begin. The OfflineShard analyzer of core/src/text/ (its stop list is the table in
  // analyzers.rs, its CJK ranges are is_cjk): tests/analyzer-vectors.test.mjs runs this block
  // against core/src/text/vectors.json, as the crate's tests run the Rust side.
  var STOP = new Set(["a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "has", "have",
    "how", "i", "if", "in", "is", "it", "its", "of", "on", "or", "that", "the", "this", "to", "was", "we", "were",
    "what", "will", "with", "you", "your"]);
  // Rust's char::is_alphanumeric: the Alphabetic property (which includes vowel signs) or a number.
  var WORD = /[\p{Alphabetic}\p{N}]/u;
  function cjk(n) {
    return (n >= 0x3040 && n <= 0x30ff) || (n >= 0x31f0 && n <= 0x31ff) || (n >= 0x3400 && n <= 0x4dbf) ||
      (n >= 0x4e00 && n <= 0x9fff) || (n >= 0xf900 && n <= 0xfaff) || (n >= 0xff66 && n <= 0xff9f) ||
      (n >= 0x20000 && n <= 0x2fa1f) || (n >= 0x30000 && n <= 0x323af);
  }
  // Lowercase words (at most 40 characters of the text) minus stop words; each Han or kana
  // character a term of its own.
  function tokens(s) {
    var out = [], cur = "", len = 0;
    function push() { if (cur && len <= 40 && !STOP.has(cur)) out.push(cur); cur = ""; len = 0; }
    for (var ch of s) {
      if (cjk(ch.codePointAt(0))) { push(); out.push(ch); }
      else if (WORD.test(ch)) { cur += ch.toLowerCase(); len++; }
      else push();
    }
    push();
    return out;
  }
  // analyzer:end

  // A term's file: its first two characters, one more while that prefix was split (meta.split).
  function key(t, split) {
    var c = Array.from(t), n = Math.min(2, c.length);
    while (n < c.length && split.has(c.slice(0, n).join(""))) n++;
    return c.slice(0, n).join("");
  }
  function file(k) {
    if (/^[a-z0-9]+$/.test(k)) return k;
    var h = "_";
    new TextEncoder().encode(k).forEach(function (b) { h += (b < 16 ? "0" : "") + b.toString(16); });
    return h;
  }
  function get(path) {
    if (!cache[path]) cache[path] = fetch(base + path).then(function (r) { return r.ok ? r.json() : null; })
      .catch(function () { return null; });
    return cache[path];
  }
  function hide() { box.hidden = true; box.textContent = ""; }
  function message(text) {
    box.textContent = "";
    var p = d.createElement("p");
    p.className = "search-empty";
    p.textContent = text;
    box.appendChild(p);
    box.hidden = false;
  }
  function show(docs) {
    if (!docs.length) return message("No results");
    box.textContent = "";
    docs.forEach(function (doc) {
      var a = d.createElement("a"), t = d.createElement("span"), s = d.createElement("span");
      a.href = rootUrl + doc[2];
      t.className = "search-title";
      t.textContent = doc[1] ? doc[0] + " \u203a " + doc[1] : doc[0];
      s.className = "search-snippet";
      s.textContent = doc[3];
      a.appendChild(t);
      a.appendChild(s);
      box.appendChild(a);
    });
    box.hidden = false;
  }
  function run(q) {
    var my = ++seq, words = tokens(q);
    if (!words.length) return hide();
    get("meta.json").then(function (meta) {
      if (!meta) return [null];
      var split = new Set(meta.split || []);
      var keys = words.map(function (w) { return key(w, split); });
      return Promise.all([meta, split, keys].concat(keys.map(function (k) { return get("t/" + file(k) + ".json"); })));
    }).then(function (res) {
        if (my !== seq) return;
        var meta = res[0], split = res[1], keys = res[2];
        if (!meta) return message("Search needs the site to be served over HTTP.");
        // A document is a page's section: page * 2^20 + section, in page order.
        var total = meta.docs, per = meta.pages, P = 1048576, scores = new Map();
        words.forEach(function (w, i) {
          var shard = res[i + 3];
          if (!shard) return;
          var matched = [], n = 0;
          if (shard[w]) matched.push([shard[w], 1]);
          // Prefix matches are in the word's file unless the file was split at the word itself.
          if (i === words.length - 1 && !split.has(keys[i])) {
            for (var t in shard) {
              if (n >= 30) break;
              if (t !== w && t.indexOf(w) === 0) { matched.push([shard[t], 0.6]); n++; }
            }
          }
          var best = new Map();
          matched.forEach(function (m) {
            // [df, page, section, weight, page-delta, section, weight, ...]: the best-weighted kept.
            var flat = m[0], idf = Math.log(1 + total / Math.max(1, flat[0])), page = 0;
            for (var j = 1; j < flat.length; j += 3) {
              page += flat[j];
              var doc = page * P + flat[j + 1], s = idf * flat[j + 2] * m[1];
              if (!(best.get(doc) >= s)) best.set(doc, s);
            }
          });
          best.forEach(function (s, doc) {
            var e = scores.get(doc) || [0, 0];
            e[0]++;
            e[1] += s;
            scores.set(doc, e);
          });
        });
        var found = scores.size;
        var ranked = Array.from(scores).sort(function (a, b) {
          return b[1][0] - a[1][0] || b[1][1] - a[1][1] || a[0] - b[0];
        }).slice(0, 10);
        var fileOf = function (doc) { return Math.floor(doc / P / per); };
        var chunks = Array.from(new Set(ranked.map(function (r) { return fileOf(r[0]); })));
        return Promise.all(chunks.map(function (c) { return get("d/" + c + ".json"); })).then(function (loaded) {
          if (my !== seq) return;
          var byChunk = {};
          chunks.forEach(function (c, i) { byChunk[c] = loaded[i]; });
          show(ranked.map(function (r) {
            var file = byChunk[fileOf(r[0])], docs = file && file[Math.floor(r[0] / P) % per];
            return docs && docs[r[0] % P];
          }).filter(Boolean));
          // For listeners such as the analytics beacon, when the export has one.
          d.dispatchEvent(new CustomEvent("docs-edge:search", { detail: { query: q, resultCount: found } }));
        });
      });
  }
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { run(input.value); }, 120);
  });
  input.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { input.value = ""; hide(); }
    if (e.key === "ArrowDown" && box.firstElementChild && box.firstElementChild.focus) {
      e.preventDefault();
      box.firstElementChild.focus();
    }
  });
  d.addEventListener("keydown", function (e) {
    if (e.key === "/" && d.activeElement !== input && !/INPUT|TEXTAREA/.test(d.activeElement.tagName)) {
      e.preventDefault();
      input.focus();
    }
  });
  d.addEventListener("click", function (e) { if (!box.contains(e.target) && e.target !== input) box.hidden = true; });
})();
