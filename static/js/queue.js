// The rated queue's page: the time waited, counted on the page; and the moment the socket
// says the table is ready (pairing/consumers.py), the page goes there.
(function () {
  "use strict";

  function waited(since) {
    const seconds = Math.max(0, Math.floor((Date.now() - since) / 1000));
    const minutes = Math.floor(seconds / 60);
    const rest = String(seconds % 60).padStart(2, "0");
    if (minutes < 60) return `${minutes}:${rest}`;
    const hours = { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
    return interpolate(gettext("%(hours)s h %(minutes)s min"), hours, true);
  }

  function tick() {
    const clock = document.getElementById("queue-waited");
    if (!clock) return;
    const since = Date.parse(clock.dataset.since);
    if (!Number.isNaN(since)) clock.textContent = waited(since);
  }

  function goIfSeated() {
    const link = document.getElementById("queue-table");
    if (link) window.location.assign(link.href);
  }

  document.addEventListener("DOMContentLoaded", () => {
    tick();
    window.setInterval(tick, 1000);
    goIfSeated();
  });
  document.addEventListener("htmx:wsAfterMessage", goIfSeated);
})();
