// The gateway's console: the notifications page (the app's, newest first, page by page) and one
// notification's page (state, counts, cancel, its deliveries), polled every second until it is done.
"use strict";

(() => {
  const { el, clear, errorText, newestOnly, time, say } = Herald;
  const { $, api, appPath } = Gateway;

  let notificationsCursor = null;
  const newestNotifications = newestOnly();
  async function loadNotifications(more) {
    const body = $("notifications-body");
    if (!more) { clear(body); notificationsCursor = null; }
    const query = "?limit=50" + (more && notificationsCursor ? "&cursor=" + encodeURIComponent(notificationsCursor) : "");
    const answer = await newestNotifications(api("GET", appPath("/notifications") + query));
    if (!answer) return;
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
      const rows = answer.body.deliveries.map((d) => GatewayDeliveries.row(d, GatewayDeliveries.recipientCell(d)));
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

  Gateway.page("notifications", () => { loadNotifications(false); });
  Gateway.page("notification", showNotification);
})();
