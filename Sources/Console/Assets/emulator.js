// The emulator's console: the delivery log with filters, faults (inject, clear), simulated devices and
// what each received, the stats. Talks to /control/v1/ on the console's own listener.
"use strict";

(() => {
  const { el, clear, request, errorText, newestOnly, time, say, route, markNav } = Herald;
  const $ = (id) => document.getElementById(id);
  const token = Herald.secretStore("herald.emulator.controlToken");
  const api = (method, path, body) => request(token.get(), method, "/control/v1/" + path, body);
  const pages = ["deliveries", "faults", "devices", "stats"];

  function fail(answer) {
    say($("page-message"), errorText(answer) + (answer.status === 401 ? " (enter the control token above)" : ""), "error");
  }

  function render() {
    say($("page-message"), "");
    const [page, detail] = route();
    const current = pages.includes(page) ? page : "deliveries";
    for (const name of pages) $("page-" + name).hidden = name !== current;
    markNav(current);
    if (current === "deliveries") {
      if (detail) $("filter-token").value = detail;
      loadLog(false);
    } else if (current === "faults") loadFaults();
    else if (current === "devices") loadDevices(false);
    else loadStats();
  }
  window.addEventListener("hashchange", render);
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const value = $("control-token").value.trim();
    if (value) token.set(value); else token.clear();
    $("control-token").value = "";
    render();
  });

  // ---- The delivery log ---------------------------------------------------------------------------------
  let logCursor = null;
  const newestLog = newestOnly();
  function filters() {
    const query = new URLSearchParams();
    for (const [id, name] of [["filter-token", "token"], ["filter-topic", "topic"], ["filter-status", "status"],
      ["filter-reason", "reason"], ["filter-apns-id", "apns-id"]]) {
      const value = $(id).value.trim();
      if (value) query.set(name, value);
    }
    return query;
  }
  async function loadLog(more) {
    const query = filters();
    query.set("limit", "100");
    if (more && logCursor) query.set("cursor", logCursor);
    const answer = await newestLog(api("GET", "deliveries?" + query));
    if (!answer) return;
    if (answer.status !== 200) { fail(answer); return; }
    const rows = answer.body.deliveries.map((d) => el("tr", { "data-status": d.status, "data-apns-id": d["apns-id"] || "" },
      el("td", {}, time(d["received-at"])),
      el("td", {}, el("span", { class: "badge " + (d.status === 200 ? "s200" : "failed") }, d.status)),
      el("td", {}, d.reason || "", d.fault ? el("div", { class: "muted" }, "fault: " + d.fault) : null),
      el("td", { class: "mono" }, d.token || d.channel || ""), el("td", {}, d.topic || ""), el("td", {}, d["push-type"] || ""),
      el("td", { class: "mono" }, d["apns-id"] || ""),
      el("td", { class: "mono" }, typeof d.payload === "string" ? d.payload : JSON.stringify(d.payload))));
    if (more) $("log-body").append(...rows); else clear($("log-body"), rows);
    if (!$("log-body").children.length) $("log-body").append(el("tr", {}, el("td", { colspan: 8, class: "muted" }, "Nothing logged matches.")));
    $("log-total").textContent = `${answer.body.total} requests logged in all`;
    logCursor = answer.body["next-cursor"] || null;
    $("log-more").hidden = !logCursor;
  }
  $("filter-form").addEventListener("submit", (event) => { event.preventDefault(); loadLog(false); });
  $("log-more").addEventListener("click", () => loadLog(true));
  $("log-clear").addEventListener("click", async () => {
    const answer = await api("DELETE", "deliveries");
    if (answer.status !== 204) fail(answer);
    loadLog(false);
  });

  // ---- Faults -------------------------------------------------------------------------------------------
  async function loadFaults() {
    const answer = await api("GET", "faults");
    if (answer.status !== 200) { fail(answer); return; }
    clear($("faults-body"), answer.body.faults.map((f) => {
      const remove = el("button", { type: "button", class: "danger", "aria-label": "Remove fault " + f.id }, "Remove");
      remove.addEventListener("click", async () => {
        const gone = await api("DELETE", "faults/" + f.id);
        if (gone.status !== 204) fail(gone);
        loadFaults();
      });
      const shown = Object.assign({}, f);
      delete shown.id; delete shown.applied;
      return el("tr", { "data-fault-id": f.id }, el("td", {}, f.id), el("td", { class: "mono" }, JSON.stringify(shown)),
        el("td", {}, f.applied), el("td", {}, remove));
    }));
    if (!answer.body.faults.length) $("faults-body").append(el("tr", {}, el("td", { colspan: 4, class: "muted" }, "No faults in force.")));
  }
  $("fault-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const fault = { action: $("fault-action").value };
    const number = (id) => ($(id).value.trim() ? Number($(id).value.trim()) : undefined);
    const text = (id) => $(id).value.trim() || undefined;
    Object.assign(fault, { status: number("fault-status"), reason: text("fault-reason"), count: number("fault-count"),
      "latency-ms": number("fault-latency"), token: text("fault-token"), topic: text("fault-topic") });
    for (const name of Object.keys(fault)) if (fault[name] === undefined) delete fault[name];
    const answer = await api("POST", "faults", fault);
    if (answer.status !== 201) fail(answer); else say($("page-message"), "");
    loadFaults();
  });
  $("faults-clear").addEventListener("click", async () => {
    const answer = await api("DELETE", "faults");
    if (answer.status !== 204) fail(answer);
    loadFaults();
  });

  // ---- Simulated devices --------------------------------------------------------------------------------
  let devicesCursor = null;
  const newestDevices = newestOnly();
  async function loadDevices(more) {
    const query = new URLSearchParams({ limit: "100" });
    if ($("devices-topic").value.trim()) query.set("topic", $("devices-topic").value.trim());
    if (more && devicesCursor) query.set("cursor", devicesCursor);
    const answer = await newestDevices(api("GET", "devices?" + query));
    if (!answer) return;
    if (answer.status !== 200) { fail(answer); return; }
    const rows = answer.body.devices.map((d) => el("tr", { "data-online": String(!!d.online) },
      el("td", { class: "mono" }, d.token), el("td", {}, d.topic), el("td", {}, d.environment),
      el("td", {}, d.online ? "online" : "offline"),
      el("td", {}, JSON.stringify(Object.fromEntries(Object.entries(d).filter(([k]) => /waiting|stored|pending/.test(k))))),
      el("td", {}, el("a", { href: "#/deliveries/" + encodeURIComponent(d.token) }, "what it received"))));
    if (more) $("devices-body").append(...rows); else clear($("devices-body"), rows);
    if (!$("devices-body").children.length) $("devices-body").append(el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No simulated devices.")));
    devicesCursor = answer.body["next-cursor"] || null;
    $("devices-more").hidden = !devicesCursor;
  }
  $("devices-form").addEventListener("submit", (event) => { event.preventDefault(); loadDevices(false); });
  $("devices-more").addEventListener("click", () => loadDevices(true));

  // ---- Stats --------------------------------------------------------------------------------------------
  async function loadStats() {
    const answer = await api("GET", "stats");
    if (answer.status !== 200) { fail(answer); return; }
    $("stats-body").textContent = JSON.stringify(answer.body, null, 2);
    const byStatus = answer.body["by-status"] || answer.body.statuses || {};
    Herald.barChart($("stats-chart"), Object.entries(byStatus).map(([name, value]) => ({ name, value: Number(value) })),
      { label: "Answers by status", empty: "No answers yet." });
  }

  render();
})();
