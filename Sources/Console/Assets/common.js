// Herald's web console: what the gateway's and the emulator's pages share. No library: DOM built with
// createElement (text is never parsed as HTML), fetch for the APIs, charts drawn as SVG here.
"use strict";

const Herald = (() => {
  const svgNS = "http://www.w3.org/2000/svg";

  /** An element: el("td", {class: "mono", "data-status": "failed"}, "text", child, ...). */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    append(node, children);
    return node;
  }

  function append(node, children) {
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }

  function svg(tag, attributes, ...children) {
    const node = document.createElementNS(svgNS, tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }

  function clear(node, ...children) {
    node.replaceChildren();
    append(node, children);
    return node;
  }

  /** A session-scoped secret (the API key or control token): sessionStorage, gone when the tab closes. */
  function secretStore(name) {
    return {
      get: () => sessionStorage.getItem(name),
      set: (value) => sessionStorage.setItem(name, value),
      clear: () => sessionStorage.removeItem(name),
    };
  }

  /** Calls an API with `authorization: Bearer SECRET`; resolves to {status, body, text} (body: parsed JSON or null). */
  async function request(secret, method, path, body) {
    const headers = {};
    if (secret) headers.authorization = "Bearer " + secret;
    const init = { method, headers };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      return { status: 0, body: null, text: "the server did not answer: " + error.message };
    }
    const text = await response.text();
    let parsed = null;
    if ((response.headers.get("content-type") || "").includes("json") && text) {
      try { parsed = JSON.parse(text); } catch (error) { parsed = null; }
    }
    return { status: response.status, body: parsed, text };
  }

  /** What an error answer says, for a person (the gateway's {"error":{...}}, the emulator's {"reason","error"}). */
  function errorText(answer) {
    if (answer.status === 0) return answer.text;
    const body = answer.body || {};
    if (body.error && typeof body.error === "object") {
      return `${answer.status} ${body.error.code}: ${body.error.message}` + (body.error.field ? ` (${body.error.field})` : "");
    }
    if (body.reason) return `${answer.status} ${body.reason}` + (body.error ? `: ${body.error}` : "") + (body.field ? ` (${body.field})` : "");
    return `${answer.status}: ${answer.text.slice(0, 200)}`;
  }

  function debounce(fn, milliseconds) {
    let timer = null;
    return (...args) => {
      clearTimeout(timer);
      timer = setTimeout(() => fn(...args), milliseconds);
    };
  }

  /** For a list that a click can reload while an earlier load still waits: `await newest(promise)` answers
   *  null when a later call started meanwhile, so a slow, older answer never replaces a newer list. */
  function newestOnly() {
    let latest = 0;
    return async (promise) => {
      const mine = ++latest;
      const value = await promise;
      return mine === latest ? value : null;
    };
  }

  function time(milliseconds) {
    if (milliseconds === null || milliseconds === undefined) return "";
    const date = new Date(milliseconds);
    return date.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  }

  /** A message in `node` (role=status or alert is on the node itself). */
  function say(node, text, kind) {
    clear(node);
    if (!text) { node.hidden = true; return; }
    node.hidden = false;
    node.className = "message " + (kind || "ok");
    node.textContent = text;
  }

  /** The hash route: "#/notifications/ID" -> ["notifications", "ID"]. */
  function route() {
    return location.hash.replace(/^#\/?/, "").split("/").filter((part) => part).map(decodeURIComponent);
  }

  /** Marks the nav link of the current page with aria-current. */
  function markNav(page) {
    for (const link of document.querySelectorAll("nav a[data-page]")) {
      if (link.dataset.page === page) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }

  const palette = ["#1d4ed8", "#dc2626", "#059669", "#d97706", "#7c3aed", "#0891b2", "#be185d", "#4b5563"];

  /**
   * A line chart: series [{name, points: [[x, y], ...]}] with x in milliseconds. Draws axes, a grid, the
   * lines and a legend into `container`, and sets data-points on it (how many points were drawn).
   */
  function lineChart(container, series, options) {
    const width = 640, height = 180, left = 48, right = 8, top = 10, bottom = 22;
    const all = series.flatMap((s) => s.points);
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
      "aria-label": options.label });
    chart.append(svg("title", {}, options.label));
    container.dataset.points = String(all.length);
    container.dataset.hasData = String(all.some((p) => p[1] > 0));
    if (all.length === 0) {
      chart.append(svg("text", { x: width / 2, y: height / 2, "text-anchor": "middle" }, "no samples yet"));
      clear(container, chart);
      return;
    }
    const xs = all.map((p) => p[0]), ys = all.map((p) => p[1]);
    const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
    const y1 = Math.max(...ys, options.minimumMax || 1) * 1.1;
    const sx = (x) => left + ((x - x0) / (x1 - x0)) * (width - left - right);
    const sy = (y) => top + (1 - y / y1) * (height - top - bottom);
    for (let i = 0; i <= 4; i++) {
      const y = (y1 * i) / 4;
      chart.append(svg("line", { x1: left, x2: width - right, y1: sy(y), y2: sy(y), class: "grid" }));
      chart.append(svg("text", { x: left - 4, y: sy(y) + 3, "text-anchor": "end" }, formatNumber(y)));
    }
    chart.append(svg("line", { x1: left, x2: left, y1: top, y2: height - bottom, class: "axis" }));
    chart.append(svg("line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom, class: "axis" }));
    chart.append(svg("text", { x: left, y: height - 6 }, new Date(x0).toISOString().slice(11, 19)));
    chart.append(svg("text", { x: width - right, y: height - 6, "text-anchor": "end" },
      new Date(x1).toISOString().slice(11, 19) + " UTC"));
    series.forEach((s, index) => {
      if (s.points.length === 0) return;
      const color = palette[index % palette.length];
      const d = s.points.map((p, i) => `${i ? "L" : "M"}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join(" ");
      chart.append(svg("path", { d, class: "line", stroke: color }));
      if (s.points.length === 1) {
        chart.append(svg("circle", { cx: sx(s.points[0][0]), cy: sy(s.points[0][1]), r: 3, fill: color }));
      }
    });
    clear(container, chart, legend(series.map((s) => s.name)));
  }

  /** A horizontal bar chart of [{name, value}] (failures by reason). */
  function barChart(container, bars, options) {
    const width = 640, rowHeight = 22, left = 190;
    const height = Math.max(1, bars.length) * rowHeight + 8;
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
      "aria-label": options.label });
    chart.append(svg("title", {}, options.label));
    container.dataset.points = String(bars.length);
    if (bars.length === 0) {
      chart.append(svg("text", { x: 8, y: 16 }, options.empty || "none"));
    }
    const max = Math.max(1, ...bars.map((b) => b.value));
    bars.forEach((bar, index) => {
      const y = 4 + index * rowHeight;
      const w = ((width - left - 60) * bar.value) / max;
      chart.append(svg("text", { x: left - 6, y: y + 14, "text-anchor": "end" }, bar.name));
      chart.append(svg("rect", { x: left, y: y + 2, width: Math.max(1, w), height: rowHeight - 6,
        fill: palette[(index + 1) % palette.length] }));
      chart.append(svg("text", { x: left + w + 6, y: y + 14 }, formatNumber(bar.value)));
    });
    clear(container, chart);
  }

  function legend(names) {
    return el("div", { class: "legend" }, names.map((name, index) => {
      const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.background = palette[index % palette.length];
      return el("span", {}, swatch, name);
    }));
  }

  function formatNumber(value) {
    if (!isFinite(value)) return String(value);
    if (value === 0) return "0";
    if (Math.abs(value) >= 100) return Math.round(value).toString();
    if (Math.abs(value) >= 1) return value.toFixed(1).replace(/\.0$/, "");
    return value.toPrecision(2);
  }

  /** Prometheus's text format (0.0.4) -> [{name, labels: {...}, value}]. */
  function parsePrometheus(text) {
    const samples = [];
    for (const line of text.split("\n")) {
      if (!line || line.startsWith("#")) continue;
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
      if (!match) continue;
      const labels = {};
      const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
      let label;
      while ((label = labelPattern.exec(match[3] || "")) !== null) {
        labels[label[1]] = label[2].replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
      }
      samples.push({ name: match[1], labels, value: Number(match[4]) });
    }
    return samples;
  }

  return { el, svg, clear, secretStore, request, errorText, debounce, newestOnly, time, say, route, markNav, lineChart, barChart,
    formatNumber, parsePrometheus };
})();
