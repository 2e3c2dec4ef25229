// A turn that comes while the table's tab is in the background: the tab's title says so
// ("Your turn · …") until the tab is looked at again, and, where the person has allowed it with
// the "Tell me when it's my turn" button, a browser notification says it too.
//
// The notification is shown as static/js/notify.js shows the site's: through its service worker
// wherever there is one.
//
// The table waits on this screen's player when its controls ask them to act: the Play or Pass
// button, or the moon's choice (#controls). A turn is known by its game, hand, phase and the
// cards left in the hand, so each is told once; one the page showed when it was loaded, or
// while it was in view, is not told at all.
(function () {
  "use strict";

  const TAG = "hearts-turn"; // one turn's notification at a time: a newer one replaces it
  const title = document.title;
  const turnTitle = () => interpolate(gettext("Your turn · %(title)s"), { title }, true);
  let seen = null; // the turn last shown or told
  let notice = null; // a notification the page made itself, on show
  let told = true; // one may be on show: told by this page, or by an earlier page of the table
  let queue = Promise.resolve(); // the shows and closes, each done after those asked before it

  const { supported, canNotify } = window.siteNotify;
  // The service worker's registration (or null), registered as the table's page opens, so that
  // it is ready by the first turn told.
  const worker = window.siteNotify.worker();

  // Runs the task with the worker's registration (or null) once the tasks asked for before it
  // are done, so that a close is never done before the show it follows. A notification that
  // cannot be shown fails quietly: the tab's title says the turn all the same.
  function later(task) {
    queue = queue
      .then(() => worker)
      .then(task)
      .catch(() => undefined);
  }

  function currentTurn() {
    const state = document.getElementById("board-state");
    if (!state || !document.querySelector("#play-button, #pass-button, .moon-choice")) return null;
    const cards = document.querySelectorAll("#hand .card").length;
    return `${state.dataset.game}-${state.dataset.hand}-${state.dataset.phase}-${cards}`;
  }

  // The status line as this screen shows it ("Hand 2: your lead."): it holds the words for
  // every viewer, and the page's CSS hides those meant for others.
  function statusWords() {
    const status = document.getElementById("status");
    if (!status) return "";
    const shown = window.tableShownText ? window.tableShownText(status) : status.textContent;
    return shown.replace(/\s+/g, " ").trim();
  }

  function tellTurn(turn) {
    document.title = turnTitle();
    if (!supported() || Notification.permission !== "granted") return;
    const body = statusWords();
    told = true;
    later((registration) => {
      // The tab may have been looked at, or the turn gone, while the worker got ready.
      if (!document.hidden || currentTurn() !== turn) return undefined;
      return show(registration, body);
    });
  }

  function show(registration, body) {
    const heading = gettext("Your turn at Hearts");
    // The table's address, for the worker to come back to on a click (with a private table's
    // invite code, if the page has one).
    const options = { body, tag: TAG, data: { url: window.location.href } };
    return window.siteNotify.show(registration, heading, options).then((made) => {
      notice = made;
      if (made) made.addEventListener("click", clear);
    });
  }

  function clear() {
    document.title = title;
    if (!told) return;
    told = false;
    later((registration) => {
      if (notice) notice.close();
      notice = null;
      return registration && closeShown(registration);
    });
  }

  // This table's notifications only: another table's turn (the same tag) may have replaced it.
  function closeShown(registration) {
    return registration.getNotifications({ tag: TAG }).then((shown) => {
      for (const notification of shown) {
        const url = notification.data && notification.data.url;
        if (url && new URL(url).pathname === window.location.pathname) notification.close();
      }
    });
  }

  function update() {
    const turn = currentTurn();
    if (turn === null) {
      clear(); // the table no longer waits on this player (the clock moved for them, say)
    } else if (turn !== seen) {
      seen = turn;
      if (document.hidden) tellTurn(turn);
    }
  }

  // The button that asks for the browser's permission: offered only while there is one to ask,
  // and where a notification could then be shown.
  function offer() {
    const button = document.getElementById("notify-button");
    if (!button) return;
    button.hidden = !(supported() && Notification.permission === "default" && canNotify());
  }

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !target.closest("#notify-button") || !supported()) return;
    Notification.requestPermission().then(offer, offer);
  });

  window.liveSocket.updated(update);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) clear();
  });
  document.addEventListener("DOMContentLoaded", () => {
    seen = currentTurn();
    offer();
  });
})();
