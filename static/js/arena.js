// An arena's page: the countdown to its start or end, counted on the page; and the moment the
// socket says this person's table is ready (arenas/consumers.py), the page goes there.
(function () {
  "use strict";

  function left(until) {
    const seconds = Math.max(0, Math.floor((until - Date.now()) / 1000));
    const minutes = Math.floor(seconds / 60);
    const rest = String(seconds % 60).padStart(2, "0");
    if (minutes < 60) return `${minutes}:${rest}`;
    const hours = { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
    return interpolate(gettext("%(hours)s h %(minutes)s min"), hours, true);
  }

  function tick() {
    for (const clock of document.querySelectorAll("time.countdown")) {
      const until = Date.parse(clock.dataset.until);
      if (!Number.isNaN(until)) clock.textContent = left(until);
    }
  }

  function goIfSeated() {
    const link = document.getElementById("arena-table");
    if (link) window.location.assign(link.href);
  }

  document.addEventListener("DOMContentLoaded", () => {
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:wsAfterMessage", () => {
    tick();
    goIfSeated();
  });
})();
