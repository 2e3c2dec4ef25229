// A live page's socket: how every live page here (the table and its chat, the lobby, an arena,
// the rated queue) stays up to date. The page's element with hx-ext="ws" and ws-connect is its
// socket; htmx's websocket extension connects it, swaps each pushed fragment into the element of
// its id (hx-swap-oob), and after a drop (an abnormal close, a server restarting) connects again,
// waiting a random time of up to 1, 2, 4 … 64 seconds, longer after each failed try (its
// "full-jitter" backoff), so that a restarted server is not met by every page at once.
//
// What this file adds is the resync, so that a page that missed something while its socket was
// down shows the whole state again (and, where the server can tell, one that missed nothing is
// sent nothing):
// - A page whose server knows versions says on every connect what its screen shows, as
//   parameters of the socket's address (liveSocket.says("shown", () => "12.40")): the table's
//   relay then sends the whole table if the screen is behind, else nothing; the chat sends the
//   messages after the last one shown.
// - A page whose server keeps no version (the lobby, an arena, the queue) names in the socket
//   element's data-resync the ids of the parts that the socket keeps up to date: after a
//   reconnect those are loaded again from the page's own address and swapped in by id.
// A page waiting for its person's table goes there once the socket shows its link
// (liveSocket.follow). A socket closed for good because its person's account was closed
// reloads the page.
// Pages run their own work after each update through liveSocket.updated (and, to remember what
// an update may take away, such as focus, liveSocket.updating), whether pushed or loaded again.
(function () {
  "use strict";

  const said = []; // [name, value()]: what the screen shows, said on each connect
  const before = [];
  const after = [];
  const opened = new WeakSet(); // the sockets' elements that have connected once already

  function says(name, value) {
    said.push([name, value]);
  }

  function withSaid(url) {
    const parts = [];
    for (const [name, value] of said) {
      const shown = value();
      if (shown !== null && shown !== undefined) parts.push(`${name}=${encodeURIComponent(shown)}`);
    }
    if (!parts.length) return url;
    return url + (url.includes("?") ? "&" : "?") + parts.join("&");
  }

  if (window.htmx) {
    const open = window.htmx.createWebSocket || ((url) => new WebSocket(url, []));
    window.htmx.createWebSocket = (url) => open(withSaid(url));
  }

  const run = (hooks, detail) => hooks.forEach((hook) => hook(detail));
  document.addEventListener("htmx:wsBeforeMessage", (event) => run(before, event.detail));
  document.addEventListener("htmx:wsAfterMessage", (event) => run(after, event.detail));

  // The parts named in data-resync, as the page's address shows them now. A part that a pushed
  // update replaced meanwhile is newer than this answer may be, and is kept.
  function resync(socket) {
    const ids = (socket.dataset.resync || "").split(/\s+/).filter(Boolean);
    const shown = new Map(ids.map((id) => [id, document.getElementById(id)]));
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then((answer) => (answer.ok && !answer.redirected ? answer.text() : null))
      .then((html) => {
        if (html === null) return;
        const page = new DOMParser().parseFromString(html, "text/html");
        const parts = ids.map((id) => [shown.get(id), page.getElementById(id)])
          .filter(([old, fresh]) => old && fresh && old.isConnected && old === document.getElementById(old.id));
        if (!parts.length) return;
        run(before, { resynced: true });
        for (const [old, fresh] of parts) {
          const part = document.importNode(fresh, true);
          old.replaceWith(part);
          if (window.htmx) window.htmx.process(part);
        }
        run(after, { resynced: true });
      })
      .catch(() => {}); // the socket's next news, or the next reconnect, brings it instead
  }

  document.addEventListener("htmx:wsOpen", (event) => {
    const socket = event.target;
    if (!(socket instanceof HTMLElement)) return;
    const again = opened.has(socket);
    opened.add(socket);
    if (again && socket.dataset.resync) resync(socket);
  });

  // A socket that the server closes because this account was suspended or banned, or because
  // its session was ended from elsewhere (code 4401, live/sockets.py), reloads the page, which
  // then says why and until when, or shows it signed out.
  document.addEventListener("htmx:wsClose", (event) => {
    const closed = event.detail && event.detail.event;
    if (closed && closed.code === 4401) window.location.reload();
  });

  // A page that waits for its person's table (an arena's, the queue's): once the link of this
  // id is shown, by an update or in the page as it came, the page goes there.
  function follow(id) {
    const go = () => {
      const link = document.getElementById(id);
      if (link) window.location.assign(link.href);
    };
    document.addEventListener("DOMContentLoaded", go);
    after.push(go);
  }

  window.liveSocket = {
    says,
    updating: (hook) => before.push(hook),
    updated: (hook) => after.push(hook),
    follow,
  };
})();
