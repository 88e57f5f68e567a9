// The gateway's console, its shell: sign in with an API key, the app chosen, the pages and which one the
// address shows. Each page is a file of its own (gateway-compose.js, gateway-preview.js,
// gateway-notifications.js, gateway-devices.js, gateway-activities.js, gateway-metrics.js) that
// registers itself with `Gateway.page`; the shell opens it when the address names it.
"use strict";

const Gateway = (() => {
  const { el, clear, request, errorText, say, route, markNav } = Herald;
  const $ = (id) => document.getElementById(id);
  const key = Herald.secretStore("herald.gateway.apiKey");
  let apps = [];
  let reasons = {};

  const api = (method, path, body) => request(key.get(), method, path, body);
  const app = () => $("app").value;
  const appPath = (rest) => `/v1/apps/${encodeURIComponent(app())}${rest}`;

  // Page name -> open(id): shows its data; may return what stops its polling when another page opens.
  const opens = {};
  const page = (name, open) => { opens[name] = open; };
  const pages = ["signin", "compose", "notifications", "notification", "devices", "activities", "metrics"];
  let stopPage = null;

  function show(name) {
    for (const each of pages) $("page-" + each).hidden = each !== name;
    const signedIn = name !== "signin";
    $("nav").hidden = !signedIn;
    $("who").hidden = !signedIn;
    markNav(name === "notification" ? "notifications" : name);
  }

  async function render() {
    if (stopPage) { stopPage(); stopPage = null; }
    say($("page-message"), "");
    if (!key.get()) { show("signin"); $("api-key").focus(); return; }
    if (apps.length === 0 && !(await loadApps())) return;
    const [name, id] = route();
    // One notification has a page of its own; the others take the id (a device's token) themselves.
    const shown = name === "notifications" && id ? "notification" : opens[name] ? name : "compose";
    show(shown);
    stopPage = opens[shown](id) || null;
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
  // Deferred scripts run in order before DOMContentLoaded: every page has registered by then.
  document.addEventListener("DOMContentLoaded", render);

  return { $, api, app, appPath, page, reason: (name) => (name ? reasons[name] : null) };
})();
