// The gateway's console: the metrics page. The charts are the gateway's own last hour
// (GET /v1/metrics/history: one sample per 10 s, the running interval last), so they hold the hour
// before the page opened too; the totals are /metrics (Prometheus text). Both need an admin key for
// every app; read every 5 s while the page is open.
"use strict";

(() => {
  const { el, clear, errorText, say } = Herald;
  const { $, api } = Gateway;

  function startMetrics() {
    let timer = null, stopped = false;
    const poll = async () => {
      const [history, totals] = await Promise.all([api("GET", "/v1/metrics/history"), api("GET", "/metrics")]);
      if (stopped) return;
      const failed = [history, totals].find((answer) => answer.status !== 200);
      if (failed) {
        say($("metrics-message"), errorText(failed) + (failed.status === 403 ? " (metrics need an admin key for every app)" : ""), "error");
      } else {
        say($("metrics-message"), "");
        drawTotals(Herald.parsePrometheus(totals.text));
        drawHistory(history.body);
      }
      timer = setTimeout(poll, 5000);
    };
    poll();
    return () => { stopped = true; clearTimeout(timer); };
  }

  function drawTotals(metrics) {
    let sends = 0, inFlight = 0, queue = NaN, pruned = 0;
    const byStatus = {};
    for (const m of metrics) {
      if (m.name === "herald_gateway_sends_total") {
        sends += m.value;
        byStatus[m.labels.status] = (byStatus[m.labels.status] || 0) + m.value;
      } else if (m.name === "herald_gateway_sends_in_flight") inFlight = m.value;
      else if (m.name === "herald_gateway_queue_depth") queue = m.value;
      else if (m.name === "herald_gateway_pruned_tokens_total") pruned = m.value;
    }
    clear($("metrics-totals"),
      el("span", { "data-metric": "sends" }, `sends: ${sends}`),
      Object.entries(byStatus).map(([status, n]) => el("span", { "data-metric": status }, `${status}: ${n}`)),
      el("span", {}, `in flight: ${inFlight}`), el("span", {}, `queue: ${isNaN(queue) ? "not counted yet" : queue}`),
      el("span", {}, `pruned tokens: ${pruned}`));
  }

  function drawHistory(history) {
    const samples = history.samples;
    Herald.lineChart($("metrics-chart"), [
      { name: "sends per second", points: samples.map((s) => [s.at, s["sends-per-second"]]) },
      { name: "failed or retried per second", points: samples.map((s) => [s.at,
        s.seconds > 0 ? (s.sends.failed + s.sends.retryable) / s.seconds : 0]) },
    ], { label: `Sends per second over the last hour (one point per ${history["interval-seconds"]} s)` });
    const latency = ["p50", "p90", "p99"].map((p) => ({ name: p,
      points: samples.filter((s) => s["latency-seconds"][p] !== null).map((s) => [s.at, s["latency-seconds"][p]]) }));
    Herald.lineChart($("metrics-latency"), latency, { label: "Send latency percentiles over the last hour", minimumMax: 0.001 });
    const failures = {};
    for (const s of samples) for (const [reason, n] of Object.entries(s.failures)) failures[reason || "(none)"] = (failures[reason || "(none)"] || 0) + n;
    Herald.barChart($("metrics-failures"), Object.entries(failures).map(([name, value]) => ({ name, value })),
      { label: "Failed and retried sends by reason over the last hour", empty: "No failures in the last hour." });
  }

  Gateway.page("metrics", startMetrics);
})();
