// How the table looks and moves: the four-colour deck (a choice remembered on this device), a
// card played sliding in from its player's seat, and a trick gathered sliding to its taker's.
// The motion is left out when the system asks for reduced motion.
(function () {
  "use strict";

  const FOUR_COLOUR = "hearts-four-colour";
  const PLAY_MS = 220;
  const GATHER_MS = 380;

  function showDeck() {
    const on = localStorage.getItem(FOUR_COLOUR) === "1";
    document.documentElement.classList.toggle("four-colour", on);
    const button = document.getElementById("four-colour-button");
    if (button) {
      button.hidden = false;
      button.setAttribute("aria-pressed", on ? "true" : "false");
    }
  }

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !target.closest("#four-colour-button")) return;
    const on = localStorage.getItem(FOUR_COLOUR) !== "1";
    localStorage.setItem(FOUR_COLOUR, on ? "1" : "0");
    showDeck();
  });

  const still = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  const centre = (box) => ({ x: box.left + box.width / 2, y: box.top + box.height / 2 });

  // Where a seat sits on screen (the page's CSS turns the table): a player's own cards come
  // from their hand, everyone else's from their seat.
  function seatBox(seat) {
    const mine = document.getElementById("my-hand");
    const own = mine && mine.dataset.seated === "1" && mine.dataset.seat === seat;
    const place = own ? document.getElementById("hand") : null;
    const box = place || document.querySelector(`#seats .seat[data-seat="${seat}"]`);
    return box ? box.getBoundingClientRect() : null;
  }

  // The seat a card on the table came from, by its class (from-at-2).
  const seatOf = (card) => ((card && card.className.match(/\bfrom-at-(\d+)\b/)) || [])[1] ?? null;

  const trickCards = () => Array.from(document.querySelectorAll("#trick > .played"));

  // What the table showed before an update: the cards in the trick, and a completed trick's
  // cards where they lay (to gather them once the next lead takes their place).
  let shown = null;

  function remember() {
    const trick = document.getElementById("trick");
    const complete = trick && trick.classList.contains("complete") ? trick : null;
    shown = {
      cards: new Set(trickCards().map((el) => el.dataset.card)),
      completeKey: complete ? complete.dataset.trick : null,
      completeCards: complete
        ? trickCards().map((el) => ({ el: el.cloneNode(true), box: el.getBoundingClientRect() }))
        : [],
      taker: complete ? seatOf(complete.querySelector(".played.took")) : null,
    };
  }

  function slideIn(card) {
    const from = seatBox(seatOf(card));
    if (!from) return;
    const start = centre(from);
    const end = centre(card.getBoundingClientRect());
    card.animate(
      [
        { transform: `translate(${start.x - end.x}px, ${start.y - end.y}px) scale(0.7)`, opacity: 0.4 },
        { transform: "none", opacity: 1 },
      ],
      { duration: PLAY_MS, easing: "ease-out" },
    );
  }

  // The gathered cards are copies, shown over the board (outside #trick, and silent) for the
  // length of the slide: the server's trick fragment has already moved on to the next one.
  function gather(cards, taker) {
    const to = seatBox(taker);
    const board = document.getElementById("board");
    if (!to || !board) return;
    const end = centre(to);
    for (const { el, box } of cards) {
      el.removeAttribute("title");
      el.setAttribute("aria-hidden", "true");
      el.className = el.className.replace(/\b(played|took|from-\S+)\b/g, "").trim();
      el.classList.add("gathering");
      el.style.left = `${box.left}px`;
      el.style.top = `${box.top}px`;
      board.appendChild(el);
      const start = centre(box);
      const flight = el.animate(
        [
          { transform: "none", opacity: 1 },
          { transform: `translate(${end.x - start.x}px, ${end.y - start.y}px) scale(0.4)`, opacity: 0 },
        ],
        { duration: GATHER_MS, easing: "ease-in", fill: "forwards" },
      );
      flight.onfinish = () => el.remove();
    }
  }

  function move() {
    const before = shown;
    remember();
    if (!before || still()) return;
    const trick = document.getElementById("trick");
    const sameComplete = trick && trick.dataset.trick && trick.dataset.trick === before.completeKey;
    if (before.completeKey && !sameComplete && before.taker) {
      gather(before.completeCards, before.taker);
    }
    if (sameComplete) return;
    for (const card of trickCards()) {
      if (!before.cards.has(card.dataset.card)) slideIn(card);
    }
  }

  window.liveSocket.updating(remember);
  window.liveSocket.updated(move);
  document.addEventListener("DOMContentLoaded", () => {
    showDeck();
    remember();
  });
})();
