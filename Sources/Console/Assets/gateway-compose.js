// The gateway's console: the compose page. Push type, headers, recipients and the payload with a template
// per push type; findings from POST /v1/lint as the payload changes (debounced, stale answers dropped);
// Send, which goes to the new notification's page. The preview is gateway-preview.js.
"use strict";

(() => {
  const { el, clear, errorText, debounce, say } = Herald;
  const { $, api, app } = Gateway;

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
    $(id).addEventListener("input", () => { GatewayPreview.show(payload()); lintSoon(); });
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
    const parsed = payload();
    GatewayPreview.show(parsed);
    const run = ++lintRun;
    GatewayPreview.render(parsed, () => run === lintRun);
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

  Gateway.page("compose", () => { lintSoon(); });
})();
