// A socket that the server closes because this account was suspended or banned (code 4401,
// games/consumers.py) reloads the page, which then says why and until when.
(function () {
  "use strict";
  document.addEventListener("htmx:wsClose", (event) => {
    const closed = event.detail && event.detail.event;
    if (closed && closed.code === 4401) window.location.reload();
  });
})();
