// The replay on a finished game's page: arrow keys, Home and End step through it, and when
// htmx swaps in the next step, focus returns to the control that was used.
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
  var refocus = null; // a selector for the control to focus after the swap

  function typing(target) {
    return target.closest && target.closest("input, select, textarea, [contenteditable]");
  }

  document.addEventListener("keydown", function (event) {
    var nav = KEYS[event.key];
    if (!nav || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (typing(event.target)) return;
    var replay = document.getElementById("replay-step");
    if (!replay) return;
    event.preventDefault(); // at either end there is no link, and the page should not jump
    var link = replay.querySelector('[data-nav="' + nav + '"]');
    if (link) link.click();
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var active = document.activeElement;
    if (!target || target.id !== "replay-step" || !active || !target.contains(active)) return;
    if (active.id) refocus = "#" + active.id;
    else if (active.dataset.nav) refocus = '[data-nav="' + active.dataset.nav + '"]';
    else refocus = "[data-nav]";
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!refocus) return;
    var replay = document.getElementById("replay-step");
    // At the first or last step the link used is gone: stay inside the replay.
    var control = replay && (replay.querySelector(refocus) || replay.querySelector("[data-nav]"));
    if (control) control.focus();
    refocus = null;
  });
})();
