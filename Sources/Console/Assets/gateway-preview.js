// The gateway's console: the compose page's preview of what the user will see. At once from the payload's
// own alert text; then as the device model renders it (POST /v1/preview: the lines a banner has, cut
// with "…"), or why the device would drop the payload.
"use strict";

const GatewayPreview = (() => {
  const { el, clear } = Herald;
  const { $, api, app } = Gateway;

  /** What a device shows of the payload's alert (string or dictionary; localized keys shown as keys). */
  function alertText(value) {
    const aps = value && typeof value === "object" ? value.aps : null;
    if (!aps || typeof aps !== "object") return null;
    const alert = aps.alert;
    const text = (v, locKey) => (typeof v === "string" ? v : alert && typeof alert[locKey] === "string" ? `[${alert[locKey]}]` : "");
    if (typeof alert === "string") return { title: "", subtitle: "", body: alert, thread: aps["thread-id"] };
    if (!alert || typeof alert !== "object") return null;
    return { title: text(alert.title, "title-loc-key"), subtitle: text(alert.subtitle, "subtitle-loc-key"),
      body: text(alert.body, "loc-key"), thread: aps["thread-id"] };
  }

  function appName() {
    const bundle = $("compose-topic").value.trim() || app() || "App";
    const last = bundle.split(".").pop() || bundle;
    return last.charAt(0).toUpperCase() + last.slice(1);
  }

  function notice(alert, when) {
    return el("div", { class: "notice" },
      el("div", { class: "top" }, el("span", { class: "app" }, appName()), el("span", {}, when)),
      alert.title ? el("div", { class: "title", "data-testid": "preview-title" }, alert.title) : null,
      alert.subtitle ? el("div", { class: "subtitle", "data-testid": "preview-subtitle" }, alert.subtitle) : null,
      alert.body ? el("div", { class: "body", "data-testid": "preview-body" }, alert.body) : null,
      alert.thread ? el("div", { class: "thread" }, "grouped in thread " + alert.thread) : null);
  }

  /**
   * Shows `parsed` ({value} or {error}, the payload editor's JSON): the device model's rendering when
   * given, else the payload's alert text; `problem` instead says why nothing would show.
   */
  function show(parsed, rendered, problem) {
    const preview = $("preview");
    const alert = rendered || (parsed.error === undefined ? alertText(parsed.value) : null);
    if (problem) {
      clear(preview, el("p", { class: "error-text", "data-testid": "preview-problem" }, problem));
      return;
    }
    const pushType = $("compose-push-type").value;
    if (!alert || !(alert.title || alert.subtitle || alert.body)) {
      clear(preview, el("p", { class: "muted" }, pushType === "alert"
        ? "Nothing to show: the payload has no aps.alert text."
        : `A ${pushType} push shows no banner: the app (or the system) handles it.`));
      return;
    }
    const now = new Date();
    clear(preview,
      el("p", { class: "muted" }, alert.rendered
        ? "As the device model renders it (40 characters a line; one line of title and subtitle, four of body)" +
          (alert.truncated ? ": cut where it ends in …" : "")
        : "From the payload's alert text"),
      el("div", { "aria-label": "Banner" }, el("p", { class: "muted" }, "Banner"),
        el("div", { class: "banner" }, notice(alert, "now"))),
      el("div", { "aria-label": "Lock screen" }, el("p", { class: "muted" }, "Lock screen"),
        el("div", { class: "phone lock" }, el("div", { class: "clock" }, now.toTimeString().slice(0, 5)),
          notice(alert, "now"), alert.thread ? el("div", { class: "stack", "aria-hidden": "true" }) : null)));
  }

  /** The device model's rendering replaces the quick local one when it answers, unless `isCurrent()` says an edit came since. */
  async function render(parsed, isCurrent) {
    if (parsed.error !== undefined) return;
    const answer = await api("POST", "/v1/preview", { payload: parsed.value });
    if (!isCurrent() || answer.status !== 200) return;
    const r = answer.body;
    if (r.dropped) {
      show(parsed, null, `The device would drop this payload: ${r.dropped.field}: ${r.dropped.message}`);
    } else {
      show(parsed, { title: r.title, subtitle: r.subtitle, body: r.body, thread: r["thread-id"], rendered: true,
        truncated: r.truncated });
    }
  }

  return { show, render };
})();
