// Times counted on the page, each second and after each live update (static/js/live_socket.js):
// down to a moment (data-until: an arena's start or end) or up from one (data-since: how long
// its person has waited in the rated queue). Under an hour as minutes and seconds ("4:07"),
// past it as hours and minutes.
(function () {
  "use strict";

  function words(seconds) {
    const minutes = Math.floor(seconds / 60);
    const rest = String(seconds % 60).padStart(2, "0");
    if (minutes < 60) return `${minutes}:${rest}`;
    const hours = { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
    return interpolate(gettext("%(hours)s h %(minutes)s min"), hours, true);
  }

  function tick() {
    for (const clock of document.querySelectorAll("time[data-until], time[data-since]")) {
      const until = Date.parse(clock.dataset.until);
      const since = Date.parse(clock.dataset.since);
      const left = clock.dataset.until !== undefined ? until - Date.now() : Date.now() - since;
      if (!Number.isNaN(left)) clock.textContent = words(Math.max(0, Math.floor(left / 1000)));
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    tick();
    window.setInterval(tick, 1000);
  });
  window.liveSocket.updated(tick);
})();
