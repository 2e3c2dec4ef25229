// The live table: lift, play and pass cards by mouse, touch or keyboard. The server renders
// the table and pushes only the fragments each move changed (#board-state says which game and
// version the screen shows); this file keeps the lifted cards across its updates and sends
// moves through the htmx websocket form (#move-form), stamped with that version. Keys (listed
// in the #key-help dialog, opened by ? or the Keys button): arrows move along the hand, Enter or
// Space lifts and plays, P passes the three chosen cards, L shows the last trick again, S the
// score sheet, Escape puts either away, M turns the sound off and on.
//
// What changed on screen is told to a screen reader (a polite log, #table-log, the table's one
// live region for its news) and by a sound (table_sound.js): each is worked out here by
// comparing what the pushed fragments show with what was shown before (the cards on the table,
// the trick's taker, whose turn it is, what the table waits for), so it says nothing the screen
// does not show, and says each thing once, even after a reconnect.
(function () {
  "use strict";

  const lifted = new Set();
  let focusedCard = null;
  let usingKeyboard = false; // focus follows a card across updates only for keyboard players
  const sound = window.tableSound || { play() {}, toggle: () => false };

  // What every screen shows alike is in #board-state (game, version, phase, whose turn); what
  // is this screen's own is on #my-hand: whether it is a player's (data-seated), their seat
  // (data-seat) and whether it is their turn (data-my-turn).
  const board = () => document.getElementById("board-state");
  const phase = () => (board() ? board().dataset.phase : "");
  const mine = () => document.getElementById("my-hand");
  const myTurn = () => mine() !== null && mine().dataset.myTurn === "1";
  const seated = () => mine() !== null && mine().dataset.seated === "1";
  const mySeat = () => (seated() ? mine().dataset.seat : null);
  const isMine = (el) => el !== null && mySeat() !== null && el.dataset.seat === mySeat();
  // The seat a card on the table came from, by its class (from-at-2): cards go out often, so
  // their markup says it once.
  const playedBy = (card) => ((card.className.match(/\bfrom-at-(\d+)\b/) || [])[1] ?? null);

  // The words an element shows this screen: the table's HTML holds the words for every viewer
  // (data-for, data-not-for), and its CSS hides those meant for others.
  function shownText(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (node) =>
        node.nodeType === Node.ELEMENT_NODE && getComputedStyle(node).display === "none"
          ? NodeFilter.FILTER_REJECT
          : NodeFilter.FILTER_ACCEPT,
    });
    let text = "";
    while (walker.nextNode()) {
      if (walker.currentNode.nodeType === Node.TEXT_NODE) text += walker.currentNode.nodeValue;
    }
    return text;
  }
  window.tableShownText = shownText; // for table_turn.js

  // A socket that reconnects says which game and version the screen shows, so the server sends
  // what it missed (the whole table), or nothing if it missed nothing.
  window.liveSocket.says("shown", () => {
    const state = board();
    return state ? `${state.dataset.game}.${state.dataset.version}` : null;
  });
  const handCards = () => Array.from(document.querySelectorAll("#hand .card"));

  // A region only screen readers hear, made the first time it is asked for.
  function liveRegion(id, attributes, parent) {
    let region = document.getElementById(id);
    if (!region) {
      region = document.createElement("div");
      region.id = id;
      region.className = "visually-hidden";
      for (const [name, value] of Object.entries(attributes)) region.setAttribute(name, value);
      parent.appendChild(region);
    }
    return region;
  }

  function announcer() {
    return liveRegion("announcer", { "aria-live": "assertive" }, document.body);
  }

  function announce(message) {
    announcer().textContent = "";
    window.setTimeout(() => { announcer().textContent = message; }, 50);
  }

  // The table's news, one line each, read out politely in order ("Bob plays the queen of
  // spades"). Old lines are dropped; a screen reader reads only the lines added.
  const LOG_LINES = 30;
  function tableLog() {
    return liveRegion(
      "table-log",
      { role: "log", "aria-live": "polite", "aria-label": gettext("What happens at the table") },
      document.querySelector("main") || document.body,
    );
  }

  function tell(lines) {
    if (!lines.length) return;
    const log = tableLog();
    for (const line of lines) {
      const entry = document.createElement("p");
      entry.textContent = line;
      log.appendChild(entry);
    }
    while (log.childElementCount > LOG_LINES) log.firstElementChild.remove();
  }

  // The last trick, looked at again ("Last trick" or L) while the next is under way. It stays
  // open across the server's updates as long as it is the same trick (its data-trick).
  let lastTrickOpen = null;
  let lastTrickFocused = false;
  let scoresOpen = null; // the score sheet opened or closed by S (null: as the server shows it)

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
    return [...words, taker ? shownText(taker) : ""].join(", ").replace(/\s+/g, " ").trim();
  }

  function toggleLastTrick() {
    const panel = document.getElementById("last-trick");
    if (!panel) {
      const table = document.querySelector("#trick.complete");
      announce(table ? spoken(table) : gettext("No trick has been taken yet."));
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
    const hint = document.getElementById("pass-hint");
    if (hint && hint.classList.contains("warning") && lifted.size === 3) {
      hint.textContent = hint.dataset.text;
      hint.classList.remove("warning");
    }
    const play = document.getElementById("play-button");
    if (play) play.disabled = lifted.size !== 1;
  }

  function activate(el) {
    const card = el.dataset.card;
    if (phase() === "passing") {
      if (!document.getElementById("pass-button")) return;
      if (lifted.has(card)) lifted.delete(card);
      else if (lifted.size < 3) lifted.add(card);
      else announce(gettext("You have chosen three cards: put one back first."));
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
    send("play", [card]);
  }

  function passCards() {
    if (phase() !== "passing") return;
    if (!document.getElementById("pass-button")) {
      if (seated()) {
        announce(gettext("You have passed; waiting for the others."));
      }
      return;
    }
    if (lifted.size !== 3) {
      // The English says "1 chosen so far" and "2 chosen so far" alike.
      const message = lifted.size === 0
        ? gettext("Choose three cards to pass first: none chosen yet.")
        : interpolate(
          ngettext(
            "Choose three cards to pass first: %(count)s chosen so far.",
            "Choose three cards to pass first: %(count)s chosen so far.",
            lifted.size,
          ),
          { count: lifted.size },
          true,
        );
      const hint = document.getElementById("pass-hint");
      if (hint) {
        if (!hint.classList.contains("warning")) hint.dataset.text = hint.textContent;
        hint.textContent = message;
        hint.classList.add("warning");
        hint.scrollIntoView({ block: "nearest" });
      }
      announce(message);
      return;
    }
    const cards = Array.from(lifted);
    lifted.clear();
    send("pass", cards);
  }

  // What the screen showed last, so that each piece of news is told once. Cards are known by
  // game, hand and card (a card is played once a hand), tricks by their data-trick.
  const told = new Set();
  let heartsBroken = null; // the hand #board-state last showed, and whether hearts were broken

  function once(key) {
    if (told.has(key)) return false;
    told.add(key);
    return true;
  }

  const listed = (names) =>
    names.length < 2
      ? names.join("")
      : interpolate(
        gettext("%(items)s and %(last)s"),
        { items: names.slice(0, -1).join(", "), last: names.at(-1) },
        true,
      );

  function cardsPlayed(game, news, sounds) {
    const trick = document.getElementById("trick");
    if (!trick) return;
    const hand = trick.dataset.trick ? trick.dataset.trick.split("-")[0] : trick.dataset.hand;
    for (const el of trick.querySelectorAll(".played[data-card]")) {
      if (el.closest("#last-trick") || !once(`card ${game}-${hand}-${el.dataset.card}`)) continue;
      // data-name: the card as a sentence names it, "the queen of spades".
      const card = el.dataset.name;
      news.push(
        seated() && playedBy(el) === mySeat()
          ? interpolate(gettext("You play %(card)s."), { card }, true)
          : interpolate(gettext("%(name)s plays %(card)s."), { name: el.dataset.player, card }, true),
      );
      sounds.add(el.dataset.card === "QS" ? "queen" : "card");
    }
    const taker = trick.classList.contains("complete") ? trick.querySelector(".trick-taker") : null;
    if (taker && once(`trick ${game}-${trick.dataset.trick}`)) {
      news.push(`${shownText(taker).trim()}.`);
      sounds.add("trick");
    }
  }

  // Hearts broken in the hand on screen (not in one that was broken when the page came).
  function heartsNews(game, news, sounds) {
    const state = board();
    const hand = `${game}-${state.dataset.hand}`;
    const broken = state.dataset.heartsBroken === "1";
    if (heartsBroken && heartsBroken.hand === hand && !heartsBroken.broken && broken) {
      news.push(gettext("Hearts are broken."));
      sounds.add("hearts");
    }
    heartsBroken = { hand, broken };
  }

  function handNews(game, news) {
    const scored = document.querySelector("#hand-end .last-hand");
    if (scored && once(`scored ${game}: ${scored.textContent.trim()}`)) {
      news.push(scored.textContent.trim());
    }
    const hand = document.getElementById("hand");
    const received = Array.from(document.querySelectorAll("#hand .card.received"));
    if (hand && received.length && once(`received ${game}-${board().dataset.hand}`)) {
      const seats = Array.from(document.querySelectorAll("#seats .seat[data-seat]"));
      const me = seats.find(isMine);
      const target = Number(hand.dataset.passTarget);
      if (me && seats.length && !Number.isNaN(target)) {
        const from = (2 * Number(me.dataset.seat) - target + 2 * seats.length) % seats.length;
        const passer = seats.find((el) => Number(el.dataset.seat) === from);
        const cards = listed(received.map((el) => el.dataset.name)); // "the queen of spades"...
        news.push(
          passer
            ? interpolate(
              gettext("%(name)s passed you %(cards)s."),
              { name: passer.dataset.name, cards },
              true,
            )
            : interpolate(gettext("Your neighbour passed you %(cards)s."), { cards }, true),
        );
      }
    }
  }

  // What the table waits for, as the status line shows it, between the plays: the passes, a
  // moon to score, the game's end. The status line itself is not a live region: during play
  // it names whose turn it is, which the log says once already (your turn, below) or by the
  // cards played.
  function statusNews(game, news) {
    const status = document.getElementById("status");
    const turnInPlay = phase() === "playing" && board().dataset.turn !== "";
    if (!status || turnInPlay) return;
    const text = shownText(status).replace(/\s+/g, " ").trim();
    if (text && once(`status ${game}-${board().dataset.hand}: ${text}`)) news.push(text);
  }

  function turnNews(game, news, sounds) {
    const state = board();
    if (phase() !== "playing" || !myTurn()) return;
    const key = `turn ${game}-${state.dataset.hand}-${handCards().length}`;
    if (!once(key)) return;
    const legal = document.querySelectorAll("#hand .card.legal").length;
    news.push(
      interpolate(
        ngettext(
          "Your turn: %(count)s card you may play.",
          "Your turn: %(count)s cards you may play.",
          legal,
        ),
        { count: legal },
        true,
      ),
    );
    sounds.add("turn");
  }

  // After each update (or quietly, for what the page showed when it was loaded).
  function tellNews(quietly) {
    const state = board();
    if (!state) return;
    const game = state.dataset.game;
    const news = [];
    const sounds = new Set();
    cardsPlayed(game, news, sounds);
    heartsNews(game, news, sounds);
    handNews(game, news);
    statusNews(game, news);
    turnNews(game, news, sounds);
    if (quietly) return;
    tell(news);
    // One sound for one update: the one that matters most.
    const loudest = ["queen", "hearts", "turn", "trick", "card"].find((name) => sounds.has(name));
    if (loudest) sound.play(loudest);
  }

  // The keys, listed in a dialog: focus moves into it and back to where it was on closing.
  let helpOpener = null;
  function openHelp() {
    const dialog = document.getElementById("key-help");
    if (!dialog || dialog.open) return;
    helpOpener = document.activeElement;
    dialog.showModal();
    const close = document.getElementById("key-help-close");
    if (close) close.focus();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const dialog = document.getElementById("key-help");
    if (!dialog) return;
    dialog.addEventListener("close", () => {
      // A card of the hand may have been drawn afresh by an update meanwhile: the same card.
      const card = helpOpener && helpOpener.closest ? helpOpener.closest("#hand .card") : null;
      const again = card && handCards().find((el) => el.dataset.card === card.dataset.card);
      const kept = helpOpener && helpOpener.isConnected && helpOpener !== document.body;
      const back = again || (kept ? helpOpener : document.getElementById("keys-button"));
      helpOpener = null;
      if (again) handCards().forEach((el) => { el.tabIndex = el === again ? 0 : -1; });
      if (back) back.focus();
    });
  });

  function toggleMute() {
    announce(sound.toggle() ? gettext("Sound off") : gettext("Sound on"));
  }

  // The score sheet (S), kept open or closed across the server's updates.
  function showScores() {
    const sheet = document.getElementById("scores");
    if (sheet && scoresOpen !== null) sheet.open = scoresOpen;
  }

  function toggleScores() {
    const sheet = document.getElementById("scores");
    if (!sheet) return;
    scoresOpen = !sheet.open;
    showScores();
    const summary = sheet.querySelector("summary");
    if (scoresOpen && summary) summary.focus();
    announce(scoresOpen ? gettext("Score sheet open") : gettext("Score sheet closed"));
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

  // The tip is as wide as its words (up to what the screen holds) and sits over the card,
  // moved in from the screen's edges; under the card instead where above it there is no room
  // or it would cover a seat's plate (your own name bar lies just over your hand) or a clock.
  // It never covers the card itself.
  const TIP_GAP = 6;

  function covers(box, el) {
    const other = el.getBoundingClientRect();
    return other.width > 0 && box.left < other.right && other.left < box.right
      && box.top < other.bottom && other.top < box.bottom;
  }

  function showTip(card) {
    const el = tip();
    el.textContent = card.title;
    el.hidden = false;
    const box = card.getBoundingClientRect();
    const { width, height } = el.getBoundingClientRect();
    const screenWidth = document.documentElement.clientWidth;
    const centred = box.left + box.width / 2 - width / 2;
    const left = Math.max(TIP_GAP, Math.min(centred, screenWidth - width - TIP_GAP));
    const at = (top) => ({ left, right: left + width, top, bottom: top + height });
    const kept = Array.from(document.querySelectorAll("#seats .seat, .clock"));
    const above = box.top - height - TIP_GAP;
    const fits = above >= 0 && !kept.some((part) => covers(at(above), part));
    const top = fits ? above : box.bottom + TIP_GAP;
    el.style.left = `${window.scrollX + left}px`;
    el.style.top = `${window.scrollY + top}px`;
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
    } else if (target.closest("#mute-button")) {
      toggleMute();
    } else if (target.closest("#keys-button")) {
      openHelp();
    } else if (target.closest("#scores > summary")) {
      scoresOpen = !document.getElementById("scores").open;
    } else if (target.closest("#resign-button")) {
      if (window.confirm(gettext("Resign this game? It ends at once and you are placed last."))) {
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
    const typing = target && target.closest("input, textarea, select, dialog");
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === "p") passCards();
    if (key === "l") toggleLastTrick();
    if (key === "s") toggleScores();
    if (key === "m") toggleMute();
    if (key === "?") {
      event.preventDefault();
      openHelp();
    }
    if (key === "Escape" && lastTrickOpen) {
      lastTrickOpen = null;
      showLastTrick();
    } else if (key === "Escape" && document.getElementById("scores")?.open) {
      scoresOpen = false;
      showScores();
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
  window.liveSocket.updating(() => {
    const focused = document.activeElement;
    lastTrickFocused = focused !== null && focused.id === "last-trick-button";
  });
  window.liveSocket.updated(() => {
    refresh();
    hideTip();
    showLastTrick();
    showScores();
    tellNews(false);
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
    tableLog(); // there before its first line, so that screen readers follow it
    refresh();
    tellNews(true);
  });

  // The clocks count down from the seconds the server rendered (so the computer's own clock,
  // right or wrong, does not matter). Your own clock warns once at ten seconds.
  let warned = null;
  let ticked = null; // the second last ticked, a tick each second under ten
  function tick() {
    for (const el of document.querySelectorAll(".clock")) {
      const shown = el.querySelector(".clock-seconds");
      if (!shown) continue;
      if (!el.dataset.end) el.dataset.end = String(Date.now() + Number(shown.textContent) * 1000);
      const left = Math.max(0, Math.ceil((Number(el.dataset.end) - Date.now()) / 1000));
      if (shown.textContent !== String(left)) shown.textContent = String(left);
      el.classList.toggle("low", left <= 10);
      const own = isMine(el.closest(".seat"));
      const key = board() ? board().dataset.version : "";
      if (own && left <= 10 && left > 0 && warned !== key) {
        warned = key;
        const words = ngettext("%(count)s second left", "%(count)s seconds left", left);
        announce(interpolate(words, { count: left }, true));
      }
      if (own && left <= 10 && left > 0 && ticked !== `${key}:${left}`) {
        ticked = `${key}:${left}`;
        sound.play("clock");
      }
    }
  }
  window.setInterval(tick, 250);

  // An arena's table, its game over: back to the arena after a moment, to be seated again
  // (the link is there to follow at once, templates/arenas/_return.html).
  const ARENA_RETURN_MS = 5000;
  let returning = false;
  function backToArena() {
    const link = document.querySelector("#arena-return[data-go]");
    if (!link || returning) return;
    returning = true;
    window.setTimeout(() => window.location.assign(link.href), ARENA_RETURN_MS);
  }
  window.liveSocket.updated(backToArena);
  document.addEventListener("DOMContentLoaded", backToArena);
})();
