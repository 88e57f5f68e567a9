// The gateway's console: sign in with an API key, compose with lint and a preview, follow notifications
// and their deliveries, find devices, Live Activities and channels, watch the metrics.
"use strict";

(() => {
  const { el, clear, request, errorText, debounce, time, say, route, markNav } = Herald;
  const $ = (id) => document.getElementById(id);
  const key = Herald.secretStore("herald.gateway.apiKey");
  let apps = [];
  let reasons = {};

  const api = (method, path, body) => request(key.get(), method, path, body);
  const app = () => $("app").value;
  const appPath = (rest) => `/v1/apps/${encodeURIComponent(app())}${rest}`;

  // ---- Pages and sign-in ------------------------------------------------------------------------------
  const pages = ["signin", "compose", "notifications", "notification", "devices", "activities", "metrics"];
  let stopPage = null;

  function show(page) {
    for (const name of pages) $("page-" + name).hidden = name !== page;
    const signedIn = page !== "signin";
    $("nav").hidden = !signedIn;
    $("who").hidden = !signedIn;
    markNav(page === "notification" ? "notifications" : page);
  }

  async function render() {
    if (stopPage) { stopPage(); stopPage = null; }
    say($("page-message"), "");
    if (!key.get()) { show("signin"); $("api-key").focus(); return; }
    if (apps.length === 0 && !(await loadApps())) return;
    const [page, id] = route();
    switch (page) {
      case "notifications":
        if (id) { show("notification"); stopPage = showNotification(id); } else { show("notifications"); loadNotifications(); }
        break;
      case "devices": show("devices"); break;
      case "activities": show("activities"); loadChannels(); break;
      case "metrics": show("metrics"); stopPage = startMetrics(); break;
      default: show("compose"); lintSoon(); break;
    }
  }

  async function loadApps() {
    const answer = await api("GET", "/v1/apps");
    if (answer.status !== 200) {
      if (answer.status === 401) key.clear();
      show("signin");
      say($("signin-message"), "Cannot sign in: " + errorText(answer), "error");
      return false;
    }
    apps = answer.body.apps;
    const chosen = sessionStorage.getItem("herald.gateway.app");
    clear($("app"), apps.map((a) => el("option", { value: a["bundle-id"] }, a["bundle-id"])));
    clear($("apps-list"), apps.map((a) => el("option", { value: a["bundle-id"] })));
    if (chosen && apps.some((a) => a["bundle-id"] === chosen)) $("app").value = chosen;
    if (!$("compose-topic").value) $("compose-topic").value = app();
    const reasonAnswer = await request(null, "GET", "/assets/reasons.json");
    reasons = reasonAnswer.status === 200 ? reasonAnswer.body.reasons : {};
    return true;
  }

  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = $("api-key").value.trim();
    if (!value) return;
    key.set(value);
    apps = [];
    say($("signin-message"), "");
    if (await loadApps()) {
      $("api-key").value = "";
      if (!location.hash || location.hash === "#/") location.hash = "#/compose"; else render();
    }
  });
  $("sign-out").addEventListener("click", () => {
    key.clear();
    apps = [];
    location.hash = "";
    render();
  });
  $("app").addEventListener("change", () => {
    sessionStorage.setItem("herald.gateway.app", app());
    $("compose-topic").value = app();
    render();
  });
  window.addEventListener("hashchange", render);

  // ---- Compose ----------------------------------------------------------------------------------------
  const templates = {
    alert: { aps: { alert: { title: "Order shipped", subtitle: "Arrives Thursday",
      body: "Your order #1234 is on its way. Track it in the app." }, sound: "default", "thread-id": "orders" } },
    background: { aps: { "content-available": 1 }, "sync-reason": "new-messages" },
    voip: { caller: "Ada", "call-id": "7d1c4a5e" },
    liveactivity: { aps: { timestamp: 0, event: "update", "content-state": { progress: 0.5 },
      "stale-date": 0 } },
    complication: { aps: { "content-available": 1 }, temperature: 21 },
    fileprovider: { "container-identifier": "NSFileProviderRootContainerItemIdentifier" },
    mdm: { mdm: "00000000-0000-0000-0000-000000000000" },
    location: { aps: {} },
    pushtotalk: { channel: "team", speaker: "Ada" },
    widgets: { aps: { "content-changed": true } },
    controls: { aps: { "content-changed": true } },
  };
  const suffixes = { alert: "", background: "", location: ".location-query", voip: ".voip",
    complication: ".complication", fileprovider: ".pushkit.fileprovider", mdm: "", liveactivity: ".push-type.liveactivity",
    pushtotalk: ".voip-ptt", widgets: ".push-type.widgets", controls: ".push-type.controls" };
  const liveKinds = ["activity", "push-to-start", "channel"];

  let lintRun = 0;
  const lintSoon = debounce(lint, 300);
  clear($("compose-push-type"), Object.keys(templates).map((t) => el("option", { value: t }, t)));

  function template(pushType) {
    const payload = JSON.parse(JSON.stringify(templates[pushType] || { aps: {} }));
    if (pushType === "liveactivity") {
      payload.aps.timestamp = Math.floor(Date.now() / 1000);
      payload.aps["stale-date"] = payload.aps.timestamp + 3600;
    }
    return JSON.stringify(payload, null, 2);
  }
  let lastTemplate = template("alert");
  $("compose-payload").value = lastTemplate;

  $("compose-push-type").addEventListener("change", () => {
    // A payload still as the last template left it follows the push type; an edited one stays.
    if ($("compose-payload").value === lastTemplate) useTemplate();
    lintSoon();
  });
  $("compose-template").addEventListener("click", useTemplate);
  function useTemplate() {
    lastTemplate = template($("compose-push-type").value);
    $("compose-payload").value = lastTemplate;
    lintSoon();
  }
  $("compose-to-kind").addEventListener("change", () => {
    $("attributes-field").hidden = $("compose-to-kind").value !== "push-to-start";
    if (liveKinds.includes($("compose-to-kind").value) && $("compose-push-type").value !== "liveactivity") {
      $("compose-push-type").value = "liveactivity";
      $("compose-push-type").dispatchEvent(new Event("change"));
    }
    lintSoon();
  });
  for (const id of ["compose-topic", "compose-priority", "compose-expiration", "compose-collapse-id", "compose-payload"]) {
    $(id).addEventListener("input", () => { updatePreview(); lintSoon(); });
    $(id).addEventListener("change", lintSoon);
  }

  /** The payload as parsed JSON, or {error} saying where it is not JSON. */
  function payload() {
    try {
      return { value: JSON.parse($("compose-payload").value) };
    } catch (error) {
      return { error: error.message };
    }
  }

  function headerFields() {
    const fields = { "push-type": $("compose-push-type").value };
    if ($("compose-priority").value) fields.priority = Number($("compose-priority").value);
    const expiration = $("compose-expiration").value.trim();
    if (expiration) fields.expiration = /^\d+$/.test(expiration) ? Number(expiration) : expiration;
    const collapse = $("compose-collapse-id").value;
    if (collapse) fields["collapse-id"] = collapse;
    return fields;
  }

  async function lint() {
    updatePreview();
    const run = ++lintRun;
    renderPreview(run);
    const parsed = payload();
    const list = $("lint-findings");
    $("lint-none").hidden = true;
    if (parsed.error !== undefined) {
      clear(list, finding({ rule: "JSON", severity: "error", path: "payload", message: "not JSON: " + parsed.error,
        fix: "Mend the JSON (quotes around keys and strings, no trailing comma)." }));
      return;
    }
    const body = Object.assign({ payload: parsed.value }, headerFields());
    const pushType = body["push-type"];
    const bundle = $("compose-topic").value.trim();
    const broadcast = $("compose-to-kind").value === "channel";
    if (bundle) body.topic = broadcast ? bundle : bundle + (suffixes[pushType] || "");
    if (broadcast) body.destination = "broadcast";
    const answer = await api("POST", "/v1/lint", body);
    if (run !== lintRun) return; // a newer edit is being linted
    if (answer.status !== 200) {
      clear(list);
      say($("page-message"), "Lint failed: " + errorText(answer), "error");
      return;
    }
    clear(list, answer.body.findings.map(finding));
    if ($("page-message").textContent.startsWith("Lint failed")) say($("page-message"), "");
    $("payload-size").textContent = `${answer.body["payload-size"]} of ${answer.body["payload-limit"]} bytes` +
      (answer.body["push-type-inferred"] ? ` (push type inferred: ${answer.body["push-type"]})` : "");
    $("lint-none").hidden = answer.body.findings.length !== 0;
  }

  function finding(f) {
    return el("li", { class: f.severity, "data-rule": f.rule, "data-severity": f.severity },
      el("span", { class: "rule" }, f.rule), el("span", { class: "badge" }, f.severity), " ",
      el("span", { class: "mono" }, f.path), ": ", f.message,
      f["apns-reason"] ? el("span", { class: "muted" }, ` (APNs answers ${f["apns-reason"]})`) : null,
      el("span", { class: "fix" }, f.fix ? "Fix: " + f.fix : `Fix: see ${f.rule} in docs/LINT-RULES.md.`));
  }

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

  /** The device model's rendering (POST /v1/preview) replaces the quick local one when it answers. */
  async function renderPreview(run) {
    const parsed = payload();
    if (parsed.error !== undefined) return;
    const answer = await api("POST", "/v1/preview", { payload: parsed.value });
    if (run !== lintRun) return;
    if (answer.status !== 200) return;
    const r = answer.body;
    if (r.dropped) {
      updatePreview(null, `The device would drop this payload: ${r.dropped.field}: ${r.dropped.message}`);
    } else {
      updatePreview({ title: r.title, subtitle: r.subtitle, body: r.body, thread: r["thread-id"], rendered: true,
        truncated: r.truncated });
    }
  }

  function updatePreview(rendered, problem) {
    const preview = $("preview");
    const parsed = payload();
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

  function recipients() {
    const kind = $("compose-to-kind").value;
    const values = $("compose-to").value.split(/[\s,]+/).filter((v) => v);
    switch (kind) {
      case "activity": return { activity: values[0] || "" };
      case "channel": return { channel: values[0] || "" };
      case "push-to-start": return { "push-to-start": { users: values, "attributes-type": $("compose-attributes-type").value } };
      default: return { [kind]: values };
    }
  }

  $("compose-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = $("send-result");
    const parsed = payload();
    if (parsed.error !== undefined) { result.textContent = "The payload is not JSON: " + parsed.error; return; }
    const body = Object.assign({ to: recipients(), payload: parsed.value }, headerFields());
    if ($("compose-environment").value) body.environment = $("compose-environment").value;
    const bundle = $("compose-topic").value.trim() || app();
    $("send").disabled = true;
    result.textContent = "Sending...";
    const answer = await api("POST", `/v1/apps/${encodeURIComponent(bundle)}/notifications`, body);
    $("send").disabled = false;
    if (answer.status === 202) {
      clear(result, "Sent: ", el("span", { class: "mono", "data-testid": "sent-id" }, answer.body.id),
        ` to ${answer.body.recipients} recipient(s).`);
      location.hash = "#/notifications/" + encodeURIComponent(answer.body.id);
    } else if (answer.status === 422) {
      result.textContent = "Refused: " + answer.body.error.message;
      clear($("lint-findings"), answer.body.findings.map(finding));
    } else {
      result.textContent = "Refused: " + errorText(answer);
    }
  });

  // ---- Notifications ----------------------------------------------------------------------------------
  let notificationsCursor = null;
  async function loadNotifications(more) {
    const body = $("notifications-body");
    if (!more) { clear(body); notificationsCursor = null; }
    const query = "?limit=50" + (more && notificationsCursor ? "&cursor=" + encodeURIComponent(notificationsCursor) : "");
    const answer = await api("GET", appPath("/notifications") + query);
    if (answer.status !== 200) { say($("page-message"), errorText(answer), "error"); return; }
    for (const n of answer.body.notifications) {
      body.append(el("tr", { "data-state": n.state },
        el("td", { class: "mono" }, el("a", { href: "#/notifications/" + encodeURIComponent(n.id) }, n.id)),
        el("td", {}, time(n["created-at"])), el("td", {}, el("span", { class: "badge " + n.state }, n.state)),
        el("td", {}, n.recipients), el("td", {}, n.counts.succeeded), el("td", {}, n.counts.failed),
        el("td", {}, n.counts.pending), el("td", {}, n.counts.cancelled)));
    }
    if (!body.children.length) body.append(el("tr", {}, el("td", { colspan: 8, class: "muted" }, "No notifications yet.")));
    notificationsCursor = answer.body["next-cursor"];
    $("notifications-more").hidden = !notificationsCursor;
  }
  $("notifications-refresh").addEventListener("click", () => loadNotifications(false));
  $("notifications-more").addEventListener("click", () => loadNotifications(true));

  /** Shows one notification and polls it while it is not finished; returns what stops the polling. */
  function showNotification(id) {
    let timer = null, stopped = false, deliveriesCursor = null;
    $("notification-id").textContent = id;
    clear($("deliveries"));
    const refresh = async () => {
      const answer = await api("GET", `/v1/notifications/${encodeURIComponent(id)}`);
      if (stopped) return;
      if (answer.status !== 200) { say($("page-message"), errorText(answer), "error"); return; }
      const n = answer.body;
      const state = $("notification-state");
      state.textContent = n.state;
      state.className = "badge " + n.state;
      $("notification-created").textContent = "created " + time(n["created-at"]) + (n["send-at"] ? ", send at " + time(n["send-at"]) : "");
      const counts = [["recipients", n.recipients], ["succeeded", n.counts.succeeded], ["failed", n.counts.failed],
        ["pending", n.counts.pending], ["cancelled", n.counts.cancelled]];
      clear($("notification-counts"), counts.map(([name, value]) => el("span", { "data-count": name }, `${name}: ${value}`)),
        Object.entries(n.counts["by-reason"]).map(([reason, count]) => el("span", { class: "badge failed" }, `${reason}: ${count}`)));
      $("notification-cancel").hidden = !(n.state === "scheduled" || n.state === "sending");
      await loadDeliveries(false);
      if (!stopped && (n.state === "scheduled" || n.state === "sending")) timer = setTimeout(refresh, 1000);
    };
    const loadDeliveries = async (more) => {
      const query = "?limit=100" + (more && deliveriesCursor ? "&cursor=" + encodeURIComponent(deliveriesCursor) : "");
      const answer = await api("GET", `/v1/notifications/${encodeURIComponent(id)}/deliveries${query}`);
      if (stopped || answer.status !== 200) return;
      const rows = answer.body.deliveries.map(deliveryRow);
      if (more) $("deliveries").append(...rows); else clear($("deliveries"), rows);
      deliveriesCursor = answer.body["next-cursor"];
      $("deliveries-more").hidden = !deliveriesCursor;
    };
    $("notification-cancel").onclick = async () => {
      const answer = await api("DELETE", `/v1/notifications/${encodeURIComponent(id)}`);
      if (answer.status !== 200) say($("page-message"), errorText(answer), "error");
      refresh();
    };
    $("notification-refresh").onclick = refresh;
    $("deliveries-more").onclick = () => loadDeliveries(true);
    refresh();
    return () => { stopped = true; clearTimeout(timer); };
  }

  function deliveryRow(d) {
    const info = d.reason ? reasons[d.reason] : null;
    const http = d.status === "succeeded" ? 200 : info && info.status ? info.status : "";
    return el("tr", { "data-status": d.status, "data-http-status": http, "data-reason": d.reason || "" },
      el("td", { class: "mono" }, d.token, el("div", { class: "muted" }, `${d.kind}, ${d.environment}`)),
      el("td", {}, el("span", { class: "badge " + d.status }, d.status)),
      el("td", { "data-testid": "delivery-http-status" }, String(http)),
      el("td", {}, d.reason ? el("strong", {}, d.reason) : "",
        info ? el("div", { "data-testid": "reason-summary" }, info.summary) : null,
        info ? el("div", { class: "fix", "data-testid": "reason-fix" }, "What to do: " + info.fix) : null),
      el("td", {}, d.attempts), el("td", {}, time(d["last-attempt-at"])),
      el("td", { class: "mono" }, d["apns-id"]), el("td", { class: "mono" }, d["apns-unique-id"] || ""));
  }

  // ---- Devices ----------------------------------------------------------------------------------------
  $("devices-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const query = $("devices-query").value.trim();
    const byUser = $("devices-by").value === "user";
    const path = byUser ? appPath(`/users/${encodeURIComponent(query)}/devices`)
      : appPath(`/devices/${encodeURIComponent(query.toLowerCase())}`);
    const answer = await api("GET", path);
    const body = clear($("devices-body"));
    if (answer.status !== 200) { say($("devices-message"), errorText(answer), "error"); return; }
    const devices = byUser ? answer.body.devices : [answer.body];
    say($("devices-message"), `${devices.length} device(s)`, "ok");
    for (const d of devices) {
      const forget = el("button", { type: "button", class: "danger", "aria-label": "Forget device " + d.token }, "Forget");
      forget.addEventListener("click", async () => {
        const gone = await api("DELETE", appPath(`/devices/${d.token}`));
        say($("devices-message"), gone.status === 204 ? "Forgotten." : errorText(gone), gone.status === 204 ? "ok" : "error");
      });
      body.append(el("tr", { "data-status": d.status },
        el("td", { class: "mono" }, d.token), el("td", {}, d.environment), el("td", {}, d.user || ""),
        el("td", {}, d.tags.join(", ")), el("td", {}, time(d["registered-at"])),
        el("td", {}, el("span", { class: "badge " + d.status }, d.status),
          d["status-reason"] ? el("div", { class: "muted" }, d["status-reason"]) : null),
        el("td", {}, forget)));
    }
  });

  // ---- Live Activities and channels ---------------------------------------------------------------------
  function tokenRow(label, t) {
    return el("tr", { "data-status": t.status }, el("td", {}, label), el("td", { class: "mono" }, t.token),
      el("td", {}, t.environment), el("td", {}, t.user || ""),
      el("td", {}, el("span", { class: "badge " + t.status }, t.status),
        t["status-reason"] ? el("div", { class: "muted" }, t["status-reason"]) : null));
  }
  $("activity-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await api("GET", appPath(`/live-activities/${encodeURIComponent($("activity-id").value.trim())}`));
    clear($("activities-body"));
    if (answer.status !== 200) { say($("activities-message"), errorText(answer), "error"); return; }
    say($("activities-message"), "");
    $("activities-body").append(tokenRow(answer.body["activity-id"], answer.body));
  });
  $("pts-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await api("GET", appPath(`/users/${encodeURIComponent($("pts-user").value.trim())}/push-to-start`));
    clear($("activities-body"));
    if (answer.status !== 200) { say($("activities-message"), errorText(answer), "error"); return; }
    const tokens = answer.body["push-to-start-tokens"];
    say($("activities-message"), `${tokens.length} push-to-start token(s)`, "ok");
    for (const t of tokens) $("activities-body").append(tokenRow(t["attributes-type"], t));
  });
  async function loadChannels() {
    const answer = await api("GET", appPath("/channels"));
    const body = clear($("channels-body"));
    if (answer.status !== 200) { say($("channels-message"), errorText(answer), "error"); return; }
    for (const c of answer.body.channels) {
      const remove = el("button", { type: "button", class: "danger", "aria-label": "Delete channel " + c["channel-id"] }, "Delete");
      remove.addEventListener("click", async () => {
        const gone = await api("DELETE", appPath(`/channels/${encodeURIComponent(c["channel-id"])}?environment=${c.environment}`));
        say($("channels-message"), gone.status === 204 ? "Deleted." : errorText(gone), gone.status === 204 ? "ok" : "error");
        loadChannels();
      });
      body.append(el("tr", {}, el("td", { class: "mono" }, c["channel-id"]), el("td", {}, c.environment), el("td", {}, remove)));
    }
    if (!answer.body.channels.length) body.append(el("tr", {}, el("td", { colspan: 3, class: "muted" }, "No channels.")));
  }
  $("channels-refresh").addEventListener("click", loadChannels);
  $("channel-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { "message-storage-policy": Number($("channel-policy").value) };
    if ($("channel-environment").value) body.environment = $("channel-environment").value;
    const answer = await api("POST", appPath("/channels"), body);
    say($("channels-message"), answer.status === 201 ? "Created " + answer.body["channel-id"] : errorText(answer),
      answer.status === 201 ? "ok" : "error");
    loadChannels();
  });

  // ---- Metrics ----------------------------------------------------------------------------------------
  const samples = []; // {at, sends, byStatus, failures: {reason: n}, buckets: [[le, count]]}, the last hour
  function startMetrics() {
    let timer = null, stopped = false;
    const poll = async () => {
      const answer = await api("GET", "/metrics");
      if (stopped) return;
      if (answer.status !== 200) {
        say($("metrics-message"), errorText(answer) + (answer.status === 403 ? " (metrics need an admin key for every app)" : ""), "error");
      } else {
        say($("metrics-message"), "");
        samples.push(sample(Herald.parsePrometheus(answer.text)));
        while (samples.length && samples[0].at < Date.now() - 3600e3) samples.shift();
        drawMetrics();
      }
      timer = setTimeout(poll, 5000);
    };
    poll();
    return () => { stopped = true; clearTimeout(timer); };
  }

  function sample(metrics) {
    const s = { at: Date.now(), sends: 0, byStatus: {}, failures: {}, buckets: [], inFlight: 0, queue: 0, pruned: 0 };
    for (const m of metrics) {
      if (m.name === "herald_gateway_sends_total") {
        s.sends += m.value;
        s.byStatus[m.labels.status] = (s.byStatus[m.labels.status] || 0) + m.value;
        if (m.labels.status !== "succeeded") {
          const name = `${m.labels.reason || "(none)"} (${m.labels.status})`;
          s.failures[name] = (s.failures[name] || 0) + m.value;
        }
      } else if (m.name === "herald_gateway_send_duration_seconds_bucket") {
        s.buckets.push([m.labels.le === "+Inf" ? Infinity : Number(m.labels.le), m.value]);
      } else if (m.name === "herald_gateway_sends_in_flight") s.inFlight = m.value;
      else if (m.name === "herald_gateway_queue_depth") s.queue = m.value;
      else if (m.name === "herald_gateway_pruned_tokens_total") s.pruned = m.value;
    }
    s.buckets.sort((a, b) => a[0] - b[0]);
    return s;
  }

  /** The q-quantile of a cumulative histogram's counts (linear within the bucket, as Prometheus does). */
  function quantile(q, buckets) {
    const total = buckets.length ? buckets[buckets.length - 1][1] : 0;
    if (!total) return null;
    const rank = q * total;
    let lower = 0, below = 0;
    for (const [le, count] of buckets) {
      if (count >= rank) {
        if (le === Infinity) return lower;
        return lower + ((le - lower) * (rank - below)) / Math.max(1, count - below);
      }
      lower = le; below = count;
    }
    return lower;
  }

  function drawMetrics() {
    const last = samples[samples.length - 1];
    clear($("metrics-totals"),
      el("span", { "data-metric": "sends" }, `sends: ${last.sends}`),
      Object.entries(last.byStatus).map(([status, n]) => el("span", { "data-metric": status }, `${status}: ${n}`)),
      el("span", {}, `in flight: ${last.inFlight}`), el("span", {}, `queue: ${isNaN(last.queue) ? "not counted yet" : last.queue}`),
      el("span", {}, `pruned tokens: ${last.pruned}`));
    const rate = [], cumulative = [];
    for (let i = 0; i < samples.length; i++) {
      cumulative.push([samples[i].at, samples[i].sends]);
      if (i > 0) rate.push([samples[i].at, Math.max(0, (samples[i].sends - samples[i - 1].sends) / ((samples[i].at - samples[i - 1].at) / 1000))]);
    }
    Herald.lineChart($("metrics-chart"), [{ name: "sends per second", points: rate }, { name: "sends in all", points: cumulative }],
      { label: "Sends per second and in all, over the last hour" });
    const first = samples[0];
    const latency = ["0.5", "0.9", "0.99"].map((q) => ({ name: "p" + Math.round(Number(q) * 100), points: samples.map((s) => {
      // Over the hour: this sample's buckets less the oldest sample's (all since start when it is the only one).
      const window = s.buckets.map(([le, count], i) => [le, count - (s === first ? 0 : (first.buckets[i] || [0, 0])[1])]);
      const value = quantile(Number(q), window);
      return value === null ? null : [s.at, value];
    }).filter((p) => p) }));
    Herald.lineChart($("metrics-latency"), latency, { label: "Send latency percentiles over the last hour", minimumMax: 0.001 });
    Herald.barChart($("metrics-failures"), Object.entries(last.failures).map(([name, value]) => ({ name, value })),
      { label: "Failed and retried sends by reason", empty: "No failures." });
  }

  render();
})();
