// The site's service worker. hearts_site/views.py serves it from /service-worker.js, so that its
// scope is the whole site. static/js/table_turn.js shows a turn's notification through it
// (registration.showNotification), since Chrome on Android refuses `new Notification()`, and
// closes it again when the tab is looked at or the turn passes; this worker takes a click on
// one back to its table.
//
// There is no fetch handler, on purpose: the table's fragments are live, and every page is drawn
// for the account signed in, so an answer kept here would show a table that has moved on, or one
// person's page to the next person signed in on the same device. Without a fetch handler the
// browser sends every request to the network as if there were no worker at all.
(function () {
  "use strict";

  // A new version takes over at once: it holds nothing for the old one to hand over.
  self.addEventListener("install", () => self.skipWaiting());

  // The table's tab if one is open, else the table in a new window. The page may not be one this
  // worker controls (it was loaded before the worker was installed): those count too.
  self.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const data = event.notification.data || {};
    const url = new URL(data.url || "/", self.location.origin).href;
    event.waitUntil(
      self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
        const open = windows.find((client) => client.url === url);
        return open ? open.focus() : self.clients.openWindow(url);
      }),
    );
  });
})();
