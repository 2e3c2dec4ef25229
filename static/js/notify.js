// The site's browser notifications, for the scripts that show them (a turn at the table:
// table_turn.js; an invitation to a game: challenges.js). They are shown through the site's
// service worker (static/js/service_worker.js) wherever there is one: Chrome on Android shows
// notifications no other way, and throws on `new Notification()`. Only a browser without service
// workers (Firefox's private windows) gets one made by the page itself.
(function () {
  "use strict";

  const supported = () => "Notification" in window;

  // The service worker's registration once it is active, or null where there is none (service
  // workers need a secure context, and a browser may refuse to install one). Registered on the
  // first call: a page that shows no notification installs nothing.
  let registered = null;
  function worker() {
    if (registered === null) {
      registered =
        supported() && "serviceWorker" in navigator
          ? navigator.serviceWorker.register("/service-worker.js").then(
              () => navigator.serviceWorker.ready,
              () => null,
            )
          : Promise.resolve(null);
    }
    return registered;
  }

  // Whether a notification can be shown here at all: through a service worker, or by the page
  // where the constructor works (Chrome on Android's throws). Only asked while the permission
  // is "default", when even a working constructor shows nothing.
  function canNotify() {
    if (!window.isSecureContext) return false;
    if ("serviceWorker" in navigator) return true;
    try {
      new Notification("").close();
      return true;
    } catch (error) {
      return false;
    }
  }

  const allowed = () => supported() && Notification.permission === "granted";

  // Shows a notification through the worker's registration if there is one, else by the page
  // (returned, for the caller to close); `options.data.url` is where a click on it leads.
  function show(registration, heading, options) {
    if (registration) return registration.showNotification(heading, options).then(() => null);
    const notice = new Notification(heading, options);
    notice.addEventListener("click", () => window.focus());
    return Promise.resolve(notice);
  }

  window.siteNotify = { supported, worker, canNotify, allowed, show };
})();
