/* API playground (only in exports made with it on): a "Try it" form under each endpoint, built from
   the operation's JSON in the page. Nothing is requested until Send; the credential lives in this
   page's memory only (no storage, no cookies). */
(function () {
  var d = document;
  function el(tag, attrs, text) {
    var e = d.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function field(box, label, input) {
    var row = el("label", { class: "try-row" });
    row.appendChild(el("span", { class: "try-label" }, label));
    row.appendChild(input);
    box.appendChild(row);
    return input;
  }
  function pretty(text, type) {
    if (/json/i.test(type || "")) {
      try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* shown as sent */ }
    }
    return text;
  }
  d.querySelectorAll(".try-it-spec").forEach(function (script, n) {
    var spec;
    try { spec = JSON.parse(script.textContent); } catch (e) { return; }
    var panel = el("details", { class: "try-it-panel" });
    panel.appendChild(el("summary", {}, "Try it"));
    var form = el("form", { class: "try-form" });
    panel.appendChild(form);
    var server = field(form, "Server", el("input", { type: "url", name: "server", list: "try-servers-" + n, value: spec.servers[0] || "" }));
    var options = el("datalist", { id: "try-servers-" + n });
    spec.servers.forEach(function (url) { options.appendChild(el("option", { value: url })); });
    form.appendChild(options);
    var secrets = spec.auth.map(function (a) {
      var input = field(form, a.label + " (" + (a.kind === "bearer" ? "Bearer token" : a.kind === "basic" ? "user:password" : a.name) + ")",
        el("input", { type: "password", name: "auth-" + a.name, autocomplete: "off", spellcheck: "false" }));
      return { auth: a, input: input };
    });
    var params = spec.parameters.map(function (p) {
      var input;
      if (p.enum && p.enum.length) {
        input = el("select", { name: p["in"] + "-" + p.name });
        if (!p.required) input.appendChild(el("option", { value: "" }, ""));
        p.enum.forEach(function (v) { input.appendChild(el("option", { value: String(v) }, String(v))); });
        if (p.example) input.value = p.example;
      } else {
        input = el("input", { type: p.type === "integer" || p.type === "number" ? "number" : "text", name: p["in"] + "-" + p.name, value: p.example || "" });
      }
      if (p.required) input.required = true;
      field(form, p.name + " (" + p["in"] + (p.required ? ", required" : "") + ")", input);
      return { param: p, input: input };
    });
    var body = null;
    if (spec.body) {
      body = field(form, "Body (" + spec.body.mediaType + ")", el("textarea", { name: "body", rows: "8", spellcheck: "false" }));
      body.value = spec.body.example;
    }
    var send = el("button", { type: "submit", class: "try-send" }, "Send " + spec.method);
    form.appendChild(send);
    var result = el("div", { class: "try-result", "aria-live": "polite" });
    form.appendChild(result);

    form.addEventListener("submit", function (e) {
      e.preventDefault();
      result.textContent = "";
      var path = spec.path, query = new URLSearchParams(), headers = {};
      params.forEach(function (x) {
        var v = x.input.value;
        if (v === "") return;
        if (x.param["in"] === "path") path = path.split("{" + x.param.name + "}").join(encodeURIComponent(v));
        else if (x.param["in"] === "query") query.append(x.param.name, v);
        else headers[x.param.name] = v;
      });
      secrets.forEach(function (s) {
        var v = s.input.value;
        if (!v) return;
        if (s.auth.kind === "bearer") headers.Authorization = "Bearer " + v;
        else if (s.auth.kind === "basic") headers.Authorization = "Basic " + btoa(v);
        else if (s.auth.kind === "query") query.append(s.auth.name, v);
        else headers[s.auth.name] = v;
      });
      var init = { method: spec.method, headers: headers, credentials: "omit", mode: "cors" };
      if (body && body.value.trim() && spec.method !== "GET" && spec.method !== "HEAD") {
        init.body = body.value;
        headers["Content-Type"] = spec.body.mediaType;
      }
      var qs = query.toString();
      var url = server.value.replace(/\/+$/, "") + path + (qs ? "?" + qs : "");
      send.disabled = true;
      var started = performance.now();
      fetch(url, init).then(function (res) {
        return res.text().then(function (text) {
          var status = el("p", { class: "try-status try-status-" + String(res.status).charAt(0) },
            res.status + " " + res.statusText + " \u00b7 " + Math.round(performance.now() - started) + " ms");
          var lines = [];
          res.headers.forEach(function (value, name) { lines.push(name + ": " + value); });
          result.appendChild(status);
          result.appendChild(el("pre", { class: "try-headers" }, lines.join("\n")));
          result.appendChild(el("pre", { class: "try-body" }, pretty(text, res.headers.get("content-type"))));
        });
      }).catch(function (err) {
        result.appendChild(el("p", { class: "try-error", role: "alert" },
          "The browser could not complete the request to " + url + ". Most often the API does not allow " +
          "calls from this page's origin (" + location.origin + "): its CORS headers must allow it. The " +
          "server may also be unreachable or the URL wrong. (" + err.message + ")"));
      }).then(function () { send.disabled = false; });
    });
    script.parentNode.appendChild(panel);
  });
})();
