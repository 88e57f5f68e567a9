// The gateway's console: one delivery as a table row, with its HTTP status and the reason explained from
// the reason table (assets/reasons.json): Apple's meaning and what to do. A notification's page and a
// device's history both list deliveries this way.
"use strict";

const GatewayDeliveries = (() => {
  const { el, time } = Herald;

  /** A `tr` for a delivery of `gateway-deliveries`; `first` is the row's first cell (the token, or the notification). */
  function row(d, first) {
    const info = Gateway.reason(d.reason);
    const http = d.status === "succeeded" ? 200 : info && info.status ? info.status : "";
    return el("tr", { "data-status": d.status, "data-http-status": http, "data-reason": d.reason || "" },
      first,
      el("td", {}, el("span", { class: "badge " + d.status }, d.status)),
      el("td", { "data-testid": "delivery-http-status" }, String(http)),
      el("td", {}, d.reason ? el("strong", {}, d.reason) : "",
        info ? el("div", { "data-testid": "reason-summary" }, info.summary) : null,
        info ? el("div", { class: "fix", "data-testid": "reason-fix" }, "What to do: " + info.fix) : null),
      el("td", {}, d.attempts), el("td", {}, time(d["last-attempt-at"])),
      el("td", { class: "mono" }, d["apns-id"]), el("td", { class: "mono" }, d["apns-unique-id"] || ""));
  }

  /** The first cell of a notification's delivery: the recipient. */
  const recipientCell = (d) =>
    el("td", { class: "mono" }, d.token, el("div", { class: "muted" }, `${d.kind}, ${d.environment}`));

  /** The first cell of a device's delivery: the notification, linked to its page. */
  const notificationCell = (d) =>
    el("td", { class: "mono" },
      el("a", { href: "#/notifications/" + encodeURIComponent(d["notification-id"]) }, d["notification-id"]),
      el("div", { class: "muted" }, d.environment));

  return { row, recipientCell, notificationCell };
})();
