// The gateway's console: the Live Activities and channels page. The app's activities (update tokens, by
// activity id) and push-to-start tokens (in registration order), page by page, or one activity by id and
// one user's push-to-start tokens; the app's broadcast channels as APNs lists them, create and delete.
"use strict";

(() => {
  const { el, clear, errorText, newestOnly, say } = Herald;
  const { $, api, appPath } = Gateway;

  function tokenRow(label, t) {
    return el("tr", { "data-status": t.status }, el("td", {}, label), el("td", { class: "mono" }, t.token),
      el("td", {}, t.environment), el("td", {}, t.user || ""),
      el("td", {}, el("span", { class: "badge " + t.status }, t.status),
        t["status-reason"] ? el("div", { class: "muted" }, t["status-reason"]) : null));
  }
  /** A paged list: `path` answers `{[field]: [...], "next-cursor"}`; rows go to `body`, `more` fetches the next page. */
  function pagedList(path, field, body, more, message, row, empty) {
    let cursor = null;
    const load = async (next) => {
      const query = "?limit=50" + (next && cursor ? "&cursor=" + encodeURIComponent(cursor) : "");
      const answer = await api("GET", appPath(path) + query);
      if (!next) clear($(body));
      if (answer.status !== 200) { say($(message), errorText(answer), "error"); return; }
      say($(message), "");
      $(body).append(...answer.body[field].map(row));
      if (!$(body).children.length) $(body).append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, empty)));
      cursor = answer.body["next-cursor"];
      $(more).hidden = !cursor;
    };
    $(more).addEventListener("click", () => load(true));
    return () => load(false);
  }
  const loadActivities = pagedList("/live-activities", "activities", "activities-body", "activities-more",
    "activities-message", (t) => tokenRow(t["activity-id"], t), "No Live Activities.");
  const loadPushToStart = pagedList("/push-to-start", "push-to-start-tokens", "pts-body", "pts-more", "pts-message",
    (t) => tokenRow(t["attributes-type"], t), "No push-to-start tokens.");
  $("activities-all").addEventListener("click", loadActivities);
  $("pts-all").addEventListener("click", loadPushToStart);

  $("activity-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await api("GET", appPath(`/live-activities/${encodeURIComponent($("activity-id").value.trim())}`));
    clear($("activities-body"));
    $("activities-more").hidden = true;
    if (answer.status !== 200) { say($("activities-message"), errorText(answer), "error"); return; }
    say($("activities-message"), "");
    $("activities-body").append(tokenRow(answer.body["activity-id"], answer.body));
  });
  $("pts-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await api("GET", appPath(`/users/${encodeURIComponent($("pts-user").value.trim())}/push-to-start`));
    clear($("pts-body"));
    $("pts-more").hidden = true;
    if (answer.status !== 200) { say($("pts-message"), errorText(answer), "error"); return; }
    const tokens = answer.body["push-to-start-tokens"];
    say($("pts-message"), `${tokens.length} push-to-start token(s)`, "ok");
    for (const t of tokens) $("pts-body").append(tokenRow(t["attributes-type"], t));
  });
  const newestChannels = newestOnly();
  async function loadChannels() {
    const answer = await newestChannels(api("GET", appPath("/channels")));
    if (!answer) return;
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


  Gateway.page("activities", () => { loadActivities(); loadPushToStart(); loadChannels(); });
})();
