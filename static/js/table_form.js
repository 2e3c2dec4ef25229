// The create-table form: offer only what the chosen rule set allows. Each choice of the rule-set
// menu carries, from the engine's presets, the table sizes it is played at (data-players), the
// options a host may change (data-options), its targets and a summary line; this file holds no
// rules of its own. Options a set does not offer are hidden and disabled, so they are not sent;
// without JavaScript every option shows and the server refuses what the set does not offer.
(function () {
  "use strict";

  const form = document.getElementById("table-form");
  if (!form) return;
  const presetMenu = form.elements.namedItem("preset");
  const playersMenu = form.elements.namedItem("players");
  const summary = document.getElementById("preset-summary");
  const note = document.getElementById("options-note");
  const targetHint = document.getElementById("target-hint");
  const customHint = targetHint ? targetHint.textContent : "";

  function words(value) {
    return value ? value.split(" ") : [];
  }

  function showSizes(sizes) {
    for (const option of playersMenu.options) {
      option.disabled = !sizes.includes(option.value);
    }
    if (playersMenu.selectedOptions[0].disabled) {
      playersMenu.value = sizes.includes("4") ? "4" : sizes[0];
    }
  }

  function showOptions(offered, title) {
    for (const row of form.querySelectorAll("[data-option]")) {
      const on = offered.includes(row.dataset.option);
      row.hidden = !on;
      for (const control of row.querySelectorAll("input, select")) control.disabled = !on;
    }
    if (note) {
      note.textContent = interpolate(
        offered.length
          ? gettext(
            "%(title)s lets you change the options below; anything left alone follows the rule set.",
          )
          : gettext("%(title)s has no options to change."),
        { title },
        true,
      );
    }
  }

  function update() {
    const choice = presetMenu.selectedOptions[0];
    const data = choice.dataset;
    showSizes(words(data.players));
    showOptions(words(data.options), choice.textContent);
    if (summary) {
      summary.textContent = data.summary
        ? interpolate(
          gettext("%(title)s: %(summary)s"),
          { title: choice.textContent, summary: data.summary },
          true,
        )
        : "";
      summary.hidden = !data.summary;
    }
    if (targetHint) {
      targetHint.textContent = data.targets
        ? interpolate(
          gettext("%(title)s plays to %(targets)s points"),
          { title: choice.textContent, targets: data.targets },
          true,
        )
        : customHint;
    }
  }

  presetMenu.addEventListener("change", update);
  update();
})();
