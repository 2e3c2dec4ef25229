// A turn that comes while the table's tab is in the background: the tab's title says so
// ("Your turn · …") until the tab is looked at again, and, where the person has allowed it with
// the "Tell me when it's my turn" button, a browser notification says it too.
//
// The table waits on this screen's player when its controls ask them to act: the Play or Pass
// button, or the moon's choice (#controls). A turn is known by its game, hand, phase and the
// cards left in the hand, so each is told once; one the page showed when it was loaded, or
// while it was in view, is not told at all.
(function () {
  "use strict";

  const title = document.title;
  const turnTitle = () => interpolate(gettext("Your turn · %(title)s"), { title }, true);
  let seen = null; // the turn last shown or told
  let notice = null; // the notification on show

  const supported = () => "Notification" in window;

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

  function tellTurn() {
    document.title = turnTitle();
    if (!supported() || Notification.permission !== "granted") return;
    try {
      const body = statusWords();
      notice = new Notification(gettext("Your turn at Hearts"), { body, tag: "hearts-turn" });
      notice.addEventListener("click", () => {
        window.focus();
        clear();
      });
    } catch (error) {
      notice = null; // some browsers (Chrome on Android) show them only from a service worker
    }
  }

  function clear() {
    document.title = title;
    if (notice) notice.close();
    notice = null;
  }

  function update() {
    const turn = currentTurn();
    if (turn === null) {
      clear(); // the table no longer waits on this player (the clock moved for them, say)
    } else if (turn !== seen) {
      seen = turn;
      if (document.hidden) tellTurn();
    }
  }

  // The button that asks for the browser's permission: offered only while there is one to ask.
  function offer() {
    const button = document.getElementById("notify-button");
    if (button) button.hidden = !(supported() && Notification.permission === "default");
  }

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !target.closest("#notify-button") || !supported()) return;
    Notification.requestPermission().then(offer, offer);
  });

  document.addEventListener("htmx:wsAfterMessage", update);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) clear();
  });
  document.addEventListener("DOMContentLoaded", () => {
    seen = currentTurn();
    offer();
  });
})();
