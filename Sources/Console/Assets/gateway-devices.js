// The gateway's console: the devices page. Search by token (that device's page, #/devices/{token}) or by
// user (their devices, each linked to its page). A device's page: its registration and status, why and
// when it was pruned, and its history (the deliveries to it across notifications, newest first, page by
// page: GET /v1/apps/{bundle-id}/devices/{token}/deliveries).
"use strict";

(() => {
  const { el, clear, errorText, newestOnly, time, say } = Herald;
  const { $, api, appPath } = Gateway;

  const newestSearch = newestOnly();
  $("devices-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const query = $("devices-query").value.trim();
    if ($("devices-by").value === "token") {
      const target = "#/devices/" + encodeURIComponent(query.toLowerCase());
      if (location.hash === target) openDevices(query.toLowerCase()); else location.hash = target;
      return;
    }
    $("device").hidden = true;
    const answer = await newestSearch(api("GET", appPath(`/users/${encodeURIComponent(query)}/devices`)));
    if (!answer) return;
    const body = clear($("devices-body"));
    if (answer.status !== 200) { say($("devices-message"), errorText(answer), "error"); return; }
    say($("devices-message"), `${answer.body.devices.length} device(s)`, "ok");
    for (const d of answer.body.devices) body.append(deviceRow(d));
  });

  function deviceRow(d) {
    const forget = el("button", { type: "button", class: "danger", "aria-label": "Forget device " + d.token }, "Forget");
    forget.addEventListener("click", async () => {
      const gone = await api("DELETE", appPath(`/devices/${d.token}`));
      say($("devices-message"), gone.status === 204 ? "Forgotten." : errorText(gone), gone.status === 204 ? "ok" : "error");
    });
    return el("tr", { "data-status": d.status },
      el("td", { class: "mono" }, el("a", { href: "#/devices/" + d.token, "aria-label": "History of device " + d.token }, d.token)),
      el("td", {}, d.environment), el("td", {}, d.user || ""),
      el("td", {}, d.tags.join(", ")), el("td", {}, time(d["registered-at"])),
      el("td", {}, el("span", { class: "badge " + d.status }, d.status),
        d["status-reason"] ? el("div", { class: "muted" }, d["status-reason"]) : null),
      el("td", {}, forget));
  }

  /** The device page for `token` (nil: the search alone); returns what stops it loading pages into a gone page. */
  function openDevices(token) {
    let stopped = false, cursor = null;
    $("device").hidden = !token;
    clear($("devices-body"));
    say($("devices-message"), "");
    if (!token) return null;
    $("devices-by").value = "token";
    $("devices-query").value = token;
    $("device-token").textContent = token;
    clear($("device-status"));
    clear($("device-history"));

    const loadHistory = async (more) => {
      const query = "?limit=50" + (more && cursor ? "&cursor=" + encodeURIComponent(cursor) : "");
      const answer = await api("GET", appPath(`/devices/${encodeURIComponent(token)}/deliveries${query}`));
      if (stopped) return [];
      if (answer.status !== 200) { say($("devices-message"), errorText(answer), "error"); return []; }
      const deliveries = answer.body.deliveries;
      const rows = deliveries.map((d) => GatewayDeliveries.row(d, GatewayDeliveries.notificationCell(d)));
      if (more) $("device-history").append(...rows); else clear($("device-history"), rows);
      if (!more && !rows.length) $("device-history").append(el("tr", {}, el("td", { colspan: 8, class: "muted" }, "No deliveries to this device.")));
      cursor = answer.body["next-cursor"];
      $("device-history-more").hidden = !cursor;
      return deliveries;
    };
    $("device-history-more").onclick = () => loadHistory(true);

    (async () => {
      const [answer, deliveries] = await Promise.all([api("GET", appPath(`/devices/${encodeURIComponent(token)}`)),
        loadHistory(false)]);
      if (stopped) return;
      if (answer.status === 200) {
        $("devices-body").append(deviceRow(answer.body));
        clear($("device-status"), status(answer.body, deliveries));
      } else {
        clear($("device-status"), el("p", { class: "muted" }, answer.status === 404
          ? "The gateway does not store this token (never registered, or forgotten); its deliveries, if any, are below."
          : errorText(answer)));
      }
    })();
    return () => { stopped = true; };
  }

  /** The device's status; for a pruned one, why, and the delivery whose answer pruned it (when it is on the first page). */
  function status(d, deliveries) {
    const parts = [el("span", { class: "badge " + d.status, "data-testid": "device-status" }, d.status)];
    if (d.status === "active") {
      parts.push(" ", el("span", { class: "muted" }, "sent to; registered " + time(d["registered-at"])));
      return el("p", {}, parts);
    }
    const reason = (d["status-reason"] || "").split(/[\s:]/)[0];
    const pruning = deliveries.find((x) => x.status === "failed" && x.reason === reason);
    const info = Gateway.reason(reason);
    return el("div", { "data-testid": "device-pruned" },
      el("p", {}, parts, " ", "not sent to: pruned by the gateway"),
      el("p", {}, el("strong", {}, "Why: "), d["status-reason"] || "(no reason recorded)"),
      pruning ? el("p", { "data-testid": "device-pruned-at" }, el("strong", {}, "When: "), time(pruning["last-attempt-at"]),
        ", answering notification ", el("a", { href: "#/notifications/" + encodeURIComponent(pruning["notification-id"]) },
          pruning["notification-id"])) : null,
      info ? el("p", { class: "fix" }, "What to do: " + info.fix) : null,
      el("p", { class: "muted" }, "The app uploading the token again makes it active."));
  }

  Gateway.page("devices", (token) => openDevices(token || null));
})();
