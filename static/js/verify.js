// The deal "hearts-deal-v1" (docs/fairness.md), re-implemented in the browser with Web Crypto,
// and the check of a finished game's record against its seed. Shares no code with the site:
// a reader can compare it line by line with the document.
//
// window.HeartsVerify.dealHand({players, shortPack, seed, added, hand}) resolves to
//   {dealer, shuffled, hands: [[card, ...] per seat, in the order dealt], kitty: [...]}
// window.HeartsVerify.checkRecord(record, shownFingerprint) resolves to
//   {ok, fingerprintOk, hands: [{number, ok, problems: [...]}], problems: [...], summary}
(() => {
  "use strict";

  const ALGORITHM = "hearts-deal-v1";
  const CANONICAL = [];
  for (const suit of "CDHS") for (const rank of "23456789TJQKA") CANONICAL.push(rank + suit);
  // The cards taken out and the pass cycles copy the engine's tables (games/engine/rules.py) on
  // purpose: this checker is independent of the site's code, so that a player's browser checks
  // a record without trusting the server. Change them only with the engine and docs/fairness.md.
  const REMOVED = { 3: ["2D"], 4: [], 5: ["2C", "2D"], 6: ["2C", "2D", "3C", "2S"] };
  // Pass offsets (to seat + offset) by hand, cycling; 0 is a hand without a pass.
  const PASS_CYCLES = { 3: [1, 2, 0], 4: [1, 3, 2, 0], 5: [1, 4, 2, 3, 0], 6: [1, 5, 2, 4, 3, 0] };
  const encoder = new TextEncoder();
  // Words in the page's language (Django's JavaScript catalog) with their named values filled in.
  const fill = (format, values) => interpolate(format, values, true);

  function hexToBytes(hex) {
    if (typeof hex !== "string" || !/^([0-9a-fA-F]{2})*$/.test(hex)) {
      throw new Error(fill(gettext("not hexadecimal: %(text)s"), { text: hex }));
    }
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return bytes;
  }

  function bytesToHex(bytes) {
    return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function sha256Hex(bytes) {
    return bytesToHex(await crypto.subtle.digest("SHA-256", bytes));
  }

  function pack(players, shortPack) {
    const removed = shortPack === "kitty" ? [] : REMOVED[players];
    if (!removed) {
      throw new Error(
        fill(gettext("Hearts is played by 3 to 6 players, not %(players)s"), { players }),
      );
    }
    return CANONICAL.filter((card) => !removed.includes(card));
  }

  async function message(hand, cards, added) {
    const lines = [ALGORITHM, "hand " + hand, "cards " + cards.join(" ")];
    for (const text of added) lines.push("added " + (await sha256Hex(encoder.encode(text))));
    return encoder.encode(lines.map((line) => line + "\n").join(""));
  }

  // HMAC-SHA256(key = seed, data = message || block number as 4 bytes big-endian), block 0, 1, ...
  class ByteStream {
    constructor(key, msg) {
      this.key = key;
      this.msg = msg;
      this.bytes = new Uint8Array(0);
      this.position = 0;
    }

    async nextByte() {
      if (this.position === this.bytes.length) {
        const data = new Uint8Array(this.msg.length + 4);
        data.set(this.msg);
        new DataView(data.buffer).setUint32(this.msg.length, this.bytes.length / 32, false);
        const block = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, data));
        const longer = new Uint8Array(this.bytes.length + block.length);
        longer.set(this.bytes);
        longer.set(block, this.bytes.length);
        this.bytes = longer;
      }
      return this.bytes[this.position++];
    }

    // A number below bound, without favouring any: bytes at or above the limit are discarded.
    async below(bound) {
      const limit = 256 - (256 % bound);
      for (;;) {
        const byte = await this.nextByte();
        if (byte < limit) return byte % bound;
      }
    }
  }

  function hmacKey(seed) {
    return crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
  }

  async function dealWithKey(key, players, shortPack, hand, added) {
    const cards = pack(players, shortPack);
    const stream = new ByteStream(key, await message(hand, cards, added));
    for (let i = cards.length - 1; i > 0; i--) {
      const j = await stream.below(i + 1);
      [cards[i], cards[j]] = [cards[j], cards[i]];
    }
    const dealt = players * Math.floor(cards.length / players);
    const dealer = (hand - 1) % players;
    const hands = Array.from({ length: players }, () => []);
    for (let k = 0; k < dealt; k++) hands[(dealer + 1 + k) % players].push(cards[k]);
    return { dealer, shuffled: cards.slice(), hands, kitty: cards.slice(dealt) };
  }

  async function dealHand({ players, shortPack = "remove", seed, added = [], hand = 1 }) {
    const bytes = hexToBytes(seed);
    if (bytes.length !== 32) throw new Error(gettext("a seed is 32 bytes (64 hexadecimal digits)"));
    return dealWithKey(await hmacKey(bytes), players, shortPack, hand, added);
  }

  // Checking a record ------------------------------------------------------------------------

  function cardList(text) {
    if (typeof text !== "string") throw new Error(gettext("a list of cards is not a string"));
    const cards = text.split(/\s+/).filter(Boolean);
    for (const card of cards) {
      if (!CANONICAL.includes(card)) {
        throw new Error(fill(gettext("%(card)s is not a card"), { card }));
      }
    }
    return cards;
  }

  function inPackOrder(cards) {
    return [...cards].sort((a, b) => CANONICAL.indexOf(a) - CANONICAL.indexOf(b)).join(" ");
  }

  // A hand ends with its last card (or a moon choice after it); the next pass or play is the
  // next hand's.
  function movesByHand(moves, playsPerHand) {
    const hands = [[]];
    let plays = 0;
    for (const move of moves) {
      if (plays === playsPerHand && (move.kind === "pass" || move.kind === "play")) {
        hands.push([]);
        plays = 0;
      }
      if (move.kind === "play") plays++;
      hands[hands.length - 1].push(move);
    }
    return hands;
  }

  function checkPlay(ctx, number, hand, dealt, moves) {
    const { players: n, seatName } = ctx;
    const problems = [];
    const cycle = PASS_CYCLES[n];
    const offset = cycle[(number - 1) % cycle.length];
    const listed = hand.passes || [];
    const logged = {};
    for (const move of moves) if (move.kind === "pass") logged[move.seat] = move.cards || "";
    const passes = [];
    for (let seat = 0; seat < n; seat++) {
      const cards = cardList(listed[seat] || "");
      const who = { seat: seatName(seat) };
      if (inPackOrder(cards) !== inPackOrder(cardList(logged[seat] || ""))) {
        problems.push(fill(gettext("%(seat)s's pass differs from the move log"), who));
      }
      if (cards.length && offset === 0) {
        problems.push(fill(gettext("%(seat)s passed on a hand without a pass"), who));
      }
      if (cards.length && (cards.length !== 3 || new Set(cards).size !== 3)) {
        const words = ngettext(
          "%(seat)s passed %(count)s card, not 3",
          "%(seat)s passed %(count)s cards, not 3",
          cards.length,
        );
        problems.push(fill(words, { ...who, count: cards.length }));
      }
      const notHeld = cards.filter((card) => !dealt[seat].includes(card));
      if (notHeld.length) {
        problems.push(
          fill(
            gettext("%(seat)s passed %(cards)s, not dealt to them"),
            { ...who, cards: inPackOrder(notHeld) },
          ),
        );
      }
      passes.push(cards);
    }
    const held = dealt.map((cards) => new Set(cards));
    if (offset && passes.every((cards) => cards.length)) {
      for (let seat = 0; seat < n; seat++) {
        for (const card of passes[seat]) held[seat].delete(card);
        for (const card of passes[(seat - offset + n) % n]) held[seat].add(card);
      }
    }
    for (const move of moves) {
      if (move.kind !== "play") continue;
      const card = cardList(move.cards || "")[0];
      if (!Number.isInteger(move.seat) || move.seat < 0 || move.seat >= n) {
        problems.push(
          fill(
            gettext("a card is played by seat %(seat)s, who is not at the table"),
            { seat: move.seat },
          ),
        );
      } else if (!held[move.seat].has(card)) {
        problems.push(
          fill(
            gettext("%(seat)s played %(card)s, not in their hand then"),
            { seat: seatName(move.seat), card },
          ),
        );
      } else {
        held[move.seat].delete(card);
      }
    }
    return problems;
  }

  async function checkHand(ctx, index, hand, moves) {
    const number = index + 1;
    const problems = [];
    if (hand.number !== number) {
      problems.push(
        fill(
          gettext("is numbered %(number)s, expected %(expected)s"),
          { number: hand.number, expected: number },
        ),
      );
    }
    const deal = await dealWithKey(ctx.key, ctx.players, ctx.shortPack, number, ctx.added);
    if (hand.dealer !== undefined && hand.dealer !== deal.dealer) {
      problems.push(
        fill(
          gettext("names %(named)s as dealer; the seed deals from %(dealer)s"),
          { named: ctx.seatName(hand.dealer), dealer: ctx.seatName(deal.dealer) },
        ),
      );
    }
    const recorded = hand.dealt || [];
    if (recorded.length !== ctx.players) {
      const words = ngettext(
        "lists %(count)s seat's cards, not %(players)s",
        "lists %(count)s seats' cards, not %(players)s",
        recorded.length,
      );
      return problems.concat([fill(words, { count: recorded.length, players: ctx.players })]);
    }
    for (let seat = 0; seat < ctx.players; seat++) {
      const cards = cardList(recorded[seat]);
      const dealt = deal.hands[seat];
      if (inPackOrder(cards) !== inPackOrder(dealt)) {
        const nothing = pgettext("no cards", "nothing");
        const wrong = inPackOrder(cards.filter((c) => !dealt.includes(c))) || nothing;
        const missing = inPackOrder(dealt.filter((c) => !cards.includes(c))) || nothing;
        problems.push(
          fill(
            gettext(
              "%(seat)s was dealt %(missing)s by the seed, but the record shows %(wrong)s instead",
            ),
            { seat: ctx.seatName(seat), missing, wrong },
          ),
        );
      }
    }
    const kitty = cardList(hand.kitty || "");
    if (inPackOrder(kitty) !== inPackOrder(deal.kitty)) {
      const empty = pgettext("no cards in the kitty", "empty");
      problems.push(
        fill(
          gettext("the kitty is %(recorded)s in the record, %(dealt)s by the seed"),
          { recorded: inPackOrder(kitty) || empty, dealt: inPackOrder(deal.kitty) || empty },
        ),
      );
    }
    return problems.concat(checkPlay(ctx, number, hand, deal.hands, moves));
  }

  async function checkRecord(record, shownFingerprint) {
    const result = { ok: false, fingerprintOk: false, hands: [], problems: [], summary: "" };
    let ctx;
    try {
      const seed = hexToBytes(record.seed);
      if (seed.length !== 32) throw new Error(gettext("the seed is not 32 bytes"));
      const players = record.rules.players;
      if (!PASS_CYCLES[players]) {
        throw new Error(fill(gettext("a table of %(players)s is not Hearts"), { players }));
      }
      const added = record.added_seeds || [];
      if (added.length && added.length !== players) {
        throw new Error(gettext("added seeds are one per seat"));
      }
      const names = {};
      for (const p of record.players || []) names[p.seat] = p.name;
      ctx = {
        players,
        shortPack: record.rules.short_pack === "kitty" ? "kitty" : "remove",
        added,
        key: await hmacKey(seed),
        // Seats are numbered from 1 in words, as on the site (seat 0 of the record is seat 1).
        seatName: (seat) =>
          names[seat]
            ? fill(gettext("seat %(number)s (%(name)s)"), { number: seat + 1, name: names[seat] })
            : fill(gettext("seat %(number)s"), { number: seat + 1 }),
      };
      const actual = await sha256Hex(seed);
      const expected = [record.fingerprint, shownFingerprint].filter(Boolean);
      result.fingerprintOk = expected.length > 0 && expected.every((f) => f.toLowerCase() === actual);
      if (!result.fingerprintOk) {
        result.problems.push(
          fill(
            gettext("The seed's SHA-256 is %(digest)s, not the fingerprint shown before the game"),
            { digest: actual },
          ),
        );
      }
    } catch (error) {
      result.problems.push(
        fill(gettext("This record cannot be checked: %(reason)s"), { reason: error.message }),
      );
      result.summary = fill(gettext("Mismatch: %(problem)s"), { problem: result.problems[0] });
      return result;
    }
    const size = Math.floor(pack(ctx.players, ctx.shortPack).length / ctx.players);
    const segments = movesByHand(record.moves || [], ctx.players * size);
    const hands = record.hands || [];
    if (segments.length > hands.length) {
      result.problems.push(
        fill(gettext("The move log runs into %(logged)s hands; the record lists %(count)s"), {
          logged: segments.length,
          count: hands.length,
        }),
      );
    }
    for (let index = 0; index < hands.length; index++) {
      let problems;
      try {
        problems = await checkHand(ctx, index, hands[index], segments[index] || []);
      } catch (error) {
        problems = [error.message];
      }
      result.hands.push({ number: index + 1, ok: problems.length === 0, problems });
    }
    const bad = result.hands.filter((hand) => !hand.ok);
    result.ok = result.problems.length === 0 && bad.length === 0 && hands.length > 0;
    const count = hands.length;
    if (result.ok) {
      result.summary = count === 1
        ? gettext(
          "The one hand matches the seed, and the seed's SHA-256 is the fingerprint shown before " +
            "the game.",
        )
        : fill(
          ngettext(
            "All %(count)s hand match the seed, and the seed's SHA-256 is the fingerprint shown " +
              "before the game.",
            "All %(count)s hands match the seed, and the seed's SHA-256 is the fingerprint shown " +
              "before the game.",
            count,
          ),
          { count },
        );
    } else if (result.problems.length) {
      result.summary = fill(gettext("Mismatch: %(problem)s."), { problem: result.problems[0] });
    } else if (!count) {
      result.summary = gettext("Mismatch: the record lists no hands.");
    } else {
      const first = bad[0];
      const words = count === 1
        ? gettext("Mismatch: hand 1, %(problem)s.")
        : ngettext(
          "Mismatch in %(bad)s of %(count)s hand: hand %(hand)s, %(problem)s.",
          "Mismatch in %(bad)s of %(count)s hands: hand %(hand)s, %(problem)s.",
          count,
        );
      const problem = first.problems[0];
      result.summary = fill(words, { bad: bad.length, count, hand: first.number, problem });
    }
    return result;
  }

  // The page ---------------------------------------------------------------------------------

  function render(result) {
    const verdict = document.getElementById("verify-verdict");
    verdict.textContent = result.summary;
    verdict.classList.toggle("is-match", result.ok);
    verdict.classList.toggle("is-mismatch", !result.ok);
    const list = document.getElementById("verify-hands");
    list.replaceChildren();
    for (const hand of result.hands) {
      const item = document.createElement("li");
      item.className = hand.ok ? "hand-ok" : "hand-bad";
      item.dataset.hand = String(hand.number);
      item.textContent = fill(
        hand.ok
          ? gettext("Hand %(number)s: dealt cards, kitty, passes and plays match")
          : gettext("Hand %(number)s: mismatch"),
        { number: hand.number },
      );
      if (!hand.ok) {
        const details = document.createElement("ul");
        for (const problem of hand.problems) {
          const line = document.createElement("li");
          line.textContent = problem;
          details.append(line);
        }
        item.append(details);
      }
      list.append(item);
    }
    document.getElementById("verify-report").hidden = result.hands.length === 0;
  }

  async function checkPage() {
    const data = document.getElementById("game-record");
    const verdict = document.getElementById("verify-verdict");
    if (!data || !verdict) return;
    if (!window.crypto || !crypto.subtle) {
      verdict.textContent = gettext(
        "This browser cannot check here (Web Crypto needs a secure connection): " +
          "download the record and the checker below.",
      );
      return;
    }
    verdict.textContent = gettext("Checking…");
    const shown = document.getElementById("shown-fingerprint");
    const result = await checkRecord(JSON.parse(data.textContent), shown && shown.dataset.fingerprint);
    render(result);
    document.documentElement.dataset.verified = result.ok ? "match" : "mismatch";
  }

  // The paste-a-seed form: the server dealt the seed; the browser deals it again and compares.
  async function compareFormDeals() {
    const data = document.getElementById("deal-inputs");
    const status = document.getElementById("browser-deal");
    if (!data || !status) return;
    if (!window.crypto || !crypto.subtle) {
      status.textContent = gettext(
        "This browser cannot deal here (Web Crypto needs a secure connection).",
      );
      return;
    }
    const inputs = JSON.parse(data.textContent);
    const differ = [];
    for (let hand = 1; hand <= inputs.hands; hand++) {
      const deal = await dealHand({ ...inputs, hand });
      const table = document.querySelector('.deal-table[data-hand="' + hand + '"]');
      const shown = Array.from(table.querySelectorAll("td.cards"), (cell) => cell.textContent.trim());
      const dealt = deal.hands.map(inPackOrder);
      if (deal.kitty.length) dealt.push(inPackOrder(deal.kitty));
      if (shown.join("|") !== dealt.join("|")) differ.push(hand);
    }
    status.classList.toggle("is-match", differ.length === 0);
    status.classList.toggle("is-mismatch", differ.length > 0);
    status.textContent = differ.length
      ? fill(
        ngettext(
          "Your browser dealt other cards in hand %(hands)s.",
          "Your browser dealt other cards in hands %(hands)s.",
          differ.length,
        ),
        { hands: differ.join(", ") },
      )
      : gettext("Your browser dealt this seed itself and got the same cards.");
  }

  function start() {
    checkPage();
    compareFormDeals();
  }

  window.HeartsVerify = { dealHand, checkRecord, pack, sha256Hex, render };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
