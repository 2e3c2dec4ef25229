// A button that copies a link shown on the page: <button data-copy="ID"> copies the text of the
// element #ID (the private table's invite link). It says what happened, in words, in the
// polite status region beside it (.copy-state). Without the clipboard (an old browser, a page
// not allowed to write to it) it selects the link instead, for the person to copy themselves.
// Listened for on the document: the table's pushes redraw the button.
(function () {
  "use strict";

  function say(button, words) {
    const state = button.parentElement && button.parentElement.querySelector(".copy-state");
    if (!state) return;
    // Emptied first, so that the same words said again are heard again.
    state.textContent = "";
    window.requestAnimationFrame(() => { state.textContent = words; });
  }

  function select(element) {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
    const shown = button && document.getElementById(button.dataset.copy);
    if (!shown) return;
    const link = shown.textContent.trim();
    const selectIt = () => {
      select(shown);
      say(button, gettext("The link is selected: copy it with Ctrl+C (⌘C on a Mac)."));
    };
    if (!navigator.clipboard || !navigator.clipboard.writeText) {
      selectIt();
      return;
    }
    navigator.clipboard.writeText(link).then(() => say(button, gettext("Link copied")), selectIt);
  });
})();
