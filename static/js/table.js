// The live table: lift, play and pass cards by mouse, touch or keyboard. The server renders
// the table and pushes only the fragments each move changed (#board-state says which game and
// version the screen shows); this file only keeps the lifted cards across its updates and sends
// moves through the htmx websocket form (#move-form), stamped with that version. Keys: arrows move along the hand, Enter or Space lifts
// and plays, P passes the three chosen cards, L shows the last trick again (Escape puts it
// away), M turns the sound off and on.
(function () {
  "use strict";

  const lifted = new Set();
  let focusedCard = null;
  let usingKeyboard = false; // focus follows a card across updates only for keyboard players
  let muted = localStorage.getItem("hearts-muted") === "1";

  const board = () => document.getElementById("board-state");
  const phase = () => (board() ? board().dataset.phase : "");
  const myTurn = () => board() !== null && board().dataset.myTurn === "1";

  // A socket that reconnects says which game and version the screen shows, so the server sends
  // what it missed (the whole table), or nothing if it missed nothing.
  if (window.htmx) {
    const open = window.htmx.createWebSocket || ((url) => new WebSocket(url, []));
    window.htmx.createWebSocket = (url) => {
      const state = board();
      if (!state) return open(url);
      const shown = `shown=${state.dataset.game}.${state.dataset.version}`;
      return open(url + (url.includes("?") ? "&" : "?") + shown);
    };
  }
  const handCards = () => Array.from(document.querySelectorAll("#hand .card"));

  function announcer() {
    let region = document.getElementById("announcer");
    if (!region) {
      region = document.createElement("div");
      region.id = "announcer";
      region.className = "visually-hidden";
      region.setAttribute("aria-live", "assertive");
      document.body.appendChild(region);
    }
    return region;
  }

  function announce(message) {
    announcer().textContent = "";
    window.setTimeout(() => { announcer().textContent = message; }, 50);
  }

  // The last trick, looked at again ("Last trick" or L) while the next is under way. It stays
  // open across the server's updates as long as it is the same trick (its data-trick).
  let lastTrickOpen = null;
  let lastTrickFocused = false;
  let trickTaken = null; // the completed trick last said aloud, so each is said once

  // A trick just completed is said aloud once: "Bob takes the trick: 2 points".
  function sayTrickTaken(quietly) {
    const trick = document.querySelector("#trick.complete");
    const key = trick ? trick.dataset.trick : null;
    if (key && key !== trickTaken && !quietly) {
      const taker = trick.querySelector(".trick-taker");
      if (taker) announce(taker.textContent.trim());
    }
    if (key) trickTaken = key;
  }

  function showLastTrick() {
    const panel = document.getElementById("last-trick");
    const open = panel !== null && lastTrickOpen === panel.dataset.trick;
    if (!open) lastTrickOpen = null;
    if (panel) panel.hidden = !open;
    const button = document.getElementById("last-trick-button");
    if (button) button.setAttribute("aria-expanded", open ? "true" : "false");
  }

  function spoken(region) {
    const words = Array.from(region.querySelectorAll(".visually-hidden"), (el) => el.textContent);
    const taker = region.querySelector(".trick-taker");
    return [...words, taker ? taker.textContent : ""].join(", ").replace(/\s+/g, " ").trim();
  }

  function toggleLastTrick() {
    const panel = document.getElementById("last-trick");
    if (!panel) {
      const table = document.querySelector("#trick.complete");
      announce(table ? spoken(table) : "No trick has been taken yet.");
      return;
    }
    lastTrickOpen = lastTrickOpen === panel.dataset.trick ? null : panel.dataset.trick;
    showLastTrick();
    if (lastTrickOpen) announce(spoken(panel));
  }

  function send(action, cards, choice) {
    const form = document.getElementById("move-form");
    if (!form) return;
    form.elements.action.value = action;
    form.elements.cards.value = cards.join(" ");
    form.elements.choice.value = choice || "";
    if (board()) form.elements.version.value = board().dataset.version;
    window.htmx.trigger(form, "submit");
  }

  function refresh() {
    const present = new Set(handCards().map((el) => el.dataset.card));
    for (const card of Array.from(lifted)) if (!present.has(card)) lifted.delete(card);
    const passing = phase() === "passing" && document.getElementById("pass-button");
    if (!passing && !(phase() === "playing" && myTurn())) lifted.clear();
    if (!passing && lifted.size > 1) lifted.clear();
    for (const el of handCards()) {
      const on = lifted.has(el.dataset.card);
      el.classList.toggle("lifted", on);
      el.setAttribute("aria-pressed", on ? "true" : "false");
    }
    const pass = document.getElementById("pass-button");
    if (pass) pass.disabled = lifted.size !== 3;
    const play = document.getElementById("play-button");
    if (play) play.disabled = lifted.size !== 1;
  }

  function activate(el) {
    const card = el.dataset.card;
    if (phase() === "passing") {
      if (!document.getElementById("pass-button")) return;
      if (lifted.has(card)) lifted.delete(card);
      else if (lifted.size < 3) lifted.add(card);
      else announce("You have chosen three cards: put one back first.");
    } else if (phase() === "playing" && myTurn()) {
      if (el.getAttribute("aria-disabled") === "true") {
        announce(el.title);
        showTip(el);
        return;
      }
      if (lifted.has(card)) {
        playCard(card);
        return;
      }
      lifted.clear();
      lifted.add(card);
    }
    refresh();
  }

  function playCard(card) {
    lifted.clear();
    refresh();
    click();
    send("play", [card]);
  }

  function passCards() {
    if (lifted.size !== 3 || !document.getElementById("pass-button")) return;
    const cards = Array.from(lifted);
    lifted.clear();
    click();
    send("pass", cards);
  }

  // A short click for each card sent; M turns it off.
  function click() {
    if (muted || !window.AudioContext) return;
    const audio = new window.AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 440;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.08);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.08);
  }

  // The name of a card and why it cannot be played: on hover, focus or a long press.
  function tip() {
    let el = document.getElementById("card-tip");
    if (!el) {
      el = document.createElement("div");
      el.id = "card-tip";
      el.className = "card-tip";
      el.setAttribute("role", "tooltip");
      el.hidden = true;
      document.body.appendChild(el);
    }
    return el;
  }

  function showTip(card) {
    const box = card.getBoundingClientRect();
    const el = tip();
    el.textContent = card.title;
    el.hidden = false;
    el.style.left = `${window.scrollX + box.left}px`;
    el.style.top = `${window.scrollY + box.top - 36}px`;
  }

  function hideTip() {
    tip().hidden = true;
  }

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const card = target.closest("#hand .card");
    if (card) activate(card);
    else if (target.closest("#pass-button")) passCards();
    else if (target.closest("#play-button")) {
      const [card] = Array.from(lifted);
      if (card) playCard(card);
    } else if (target.closest(".moon-choice")) {
      send("moon", [], target.closest(".moon-choice").dataset.choice);
    } else if (target.closest("#last-trick-button")) {
      toggleLastTrick();
    } else if (target.closest("#resign-button")) {
      if (window.confirm("Resign this game? It ends at once and you are placed last.")) {
        send("resign", []);
      }
    }
  });

  document.addEventListener("keydown", (event) => {
    usingKeyboard = true;
    const target = event.target instanceof Element ? event.target : null;
    const card = target ? target.closest("#hand .card") : null;
    const cards = handCards();
    if (card) {
      const index = cards.indexOf(card);
      let next = null;
      if (event.key === "ArrowRight" || event.key === "ArrowDown") next = cards[index + 1];
      if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = cards[index - 1];
      if (event.key === "Home") next = cards[0];
      if (event.key === "End") next = cards[cards.length - 1];
      if (next) {
        event.preventDefault();
        card.tabIndex = -1;
        next.tabIndex = 0;
        next.focus();
        return;
      }
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        activate(card);
        return;
      }
    }
    const typing = target && target.closest("input, textarea, select");
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "p" || event.key === "P") passCards();
    if (event.key === "l" || event.key === "L") toggleLastTrick();
    if (event.key === "Escape" && lastTrickOpen) {
      lastTrickOpen = null;
      showLastTrick();
    }
    if (event.key === "m" || event.key === "M") {
      muted = !muted;
      localStorage.setItem("hearts-muted", muted ? "1" : "0");
      announce(muted ? "Sound off" : "Sound on");
    }
  });

  document.addEventListener("focusin", (event) => {
    const card = event.target instanceof Element ? event.target.closest("#hand .card") : null;
    focusedCard = card ? card.dataset.card : null;
    if (card && usingKeyboard) showTip(card);
    else hideTip();
  });
  document.addEventListener("mouseover", (event) => {
    const card = event.target instanceof Element ? event.target.closest("#hand .card") : null;
    if (card) showTip(card);
    else if (!(document.activeElement && document.activeElement.closest("#hand"))) hideTip();
  });

  let pressTimer = null;
  document.addEventListener("pointerdown", (event) => {
    usingKeyboard = false;
    const card = event.target instanceof Element ? event.target.closest("#hand .card") : null;
    if (card && event.pointerType === "touch") {
      pressTimer = window.setTimeout(() => showTip(card), 450);
    }
  });
  document.addEventListener("pointerup", () => window.clearTimeout(pressTimer));

  // After every update from the server: lifted cards stay lifted, focus stays on its card.
  document.addEventListener("htmx:wsBeforeMessage", () => {
    const focused = document.activeElement;
    lastTrickFocused = focused !== null && focused.id === "last-trick-button";
  });
  document.addEventListener("htmx:wsAfterMessage", () => {
    refresh();
    hideTip();
    showLastTrick();
    sayTrickTaken(false);
    const button = document.getElementById("last-trick-button");
    if (lastTrickFocused && button && document.activeElement === document.body) button.focus();
    const cards = handCards();
    if (usingKeyboard && focusedCard && cards.length) {
      const same = cards.find((el) => el.dataset.card === focusedCard) || cards[0];
      cards.forEach((el) => { el.tabIndex = el === same ? 0 : -1; });
      if (document.activeElement === document.body) same.focus();
    }
  });
  document.addEventListener("DOMContentLoaded", () => {
    refresh();
    sayTrickTaken(true);
  });

  // The clocks count down from the seconds the server rendered (so the computer's own clock,
  // right or wrong, does not matter). Your own clock warns once at ten seconds.
  let warned = null;
  function tick() {
    for (const el of document.querySelectorAll(".clock")) {
      const shown = el.querySelector(".clock-seconds");
      if (!shown) continue;
      if (!el.dataset.end) el.dataset.end = String(Date.now() + Number(shown.textContent) * 1000);
      const left = Math.max(0, Math.ceil((Number(el.dataset.end) - Date.now()) / 1000));
      if (shown.textContent !== String(left)) shown.textContent = String(left);
      el.classList.toggle("low", left <= 10);
      const mine = el.closest(".seat.me");
      const key = board() ? board().dataset.version : "";
      if (mine && left <= 10 && left > 0 && warned !== key) {
        warned = key;
        announce(`${left} seconds left`);
      }
    }
  }
  window.setInterval(tick, 250);
})();
