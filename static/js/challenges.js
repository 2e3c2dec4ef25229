// A signed-in person's invitations to a game (templates/accounts/_challenges.html), on every
// page: the page's socket pushes them again as they come and end. An invitation that comes
// while the tab is in the background is also told by a browser notification, where the person
// has allowed them (the table's "Tell me when it's my turn" asks); a click on it comes back to
// this tab, where the notice's Accept is. Once the person's own invitation is accepted, the page
// goes to the new table.
(function () {
  "use strict";

  const TAG = "hearts-invitation";
  let known = null; // the invitations to this person the page has shown

  function received() {
    return Array.from(document.querySelectorAll("#challenge-notices [data-from]"));
  }

  function tell(notice) {
    const notify = window.siteNotify;
    if (!notify || !notify.allowed()) return;
    const heading = gettext("An invitation to a game of Hearts");
    const body = notice.querySelector("p").textContent.replace(/\s+/g, " ").trim();
    const options = { body, tag: TAG, data: { url: window.location.href } };
    notify
      .worker()
      .then((registration) => notify.show(registration, heading, options))
      .catch(() => undefined);
  }

  function update() {
    const shown = received();
    if (known !== null && document.hidden) {
      for (const notice of shown) {
        if (!known.has(notice.dataset.challenge)) tell(notice);
      }
    }
    known = new Set(shown.map((notice) => notice.dataset.challenge));
  }

  document.addEventListener("DOMContentLoaded", update);
  if (window.liveSocket) {
    window.liveSocket.updated(update);
    window.liveSocket.follow("challenge-table");
  }
})();
