// The Learn section's drills: answered and scored here, in the browser. Each drill page
// carries its position and its answers (from the engine and the bot, for cards this seat could
// see anyway); progress is kept in localStorage only and never sent anywhere.
(() => {
  "use strict";

  const STORE = "hearts-learn-progress";
  const KINDS = ["legal", "pass", "moon"];

  function load() {
    try {
      const data = JSON.parse(window.localStorage.getItem(STORE) || "{}");
      return data && typeof data === "object" && data.drills ? data : { drills: {} };
    } catch (error) {
      return { drills: {} };
    }
  }

  function save(progress) {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(progress));
    } catch (error) {
      // A browser that refuses storage still lets the drill be answered.
    }
  }

  function record(kind, seed, score, max) {
    const progress = load();
    progress.drills[`${kind}:${seed}`] = { score, max };
    save(progress);
  }

  function summary(progress, kind) {
    let answered = 0;
    let score = 0;
    let max = 0;
    let last = 0;
    for (const [key, value] of Object.entries(progress.drills)) {
      const [k, seed] = key.split(":");
      if (k !== kind) continue;
      answered += 1;
      score += value.score;
      max += value.max;
      last = Math.max(last, Number(seed));
    }
    return { answered, score, max, last };
  }

  // The words come from Django's JavaScript catalog (gettext, ngettext, interpolate).
  function words(format, values) {
    return interpolate(format, values, true);
  }

  function pointsText(score, max) {
    return words(ngettext("%(score)s of %(max)s point", "%(score)s of %(max)s points", max), { score, max });
  }

  // The drills' index: progress per kind, and "Start" goes on after the last drill answered.
  function showIndex() {
    const progress = load();
    let any = false;
    for (const kind of KINDS) {
      const line = document.getElementById(`progress-${kind}`);
      const start = document.getElementById(`start-${kind}`);
      if (!line || !start) continue;
      const done = summary(progress, kind);
      if (!done.answered) continue;
      any = true;
      line.textContent = words(
        ngettext(
          "%(count)s drill answered in this browser: %(points)s.",
          "%(count)s drills answered in this browser: %(points)s.",
          done.answered,
        ),
        { count: done.answered, points: pointsText(done.score, done.max) },
      );
      start.textContent = gettext("Carry on");
      start.setAttribute("href", start.getAttribute("href").replace(/\/\d+\/$/, `/${done.last + 1}/`));
    }
    const clear = document.getElementById("clear-progress");
    if (!clear) return;
    clear.hidden = !any;
    clear.addEventListener("click", () => {
      window.localStorage.removeItem(STORE);
      document.getElementById("clear-status").textContent = gettext("Your progress is forgotten.");
      clear.hidden = true;
      for (const kind of KINDS) {
        const line = document.getElementById(`progress-${kind}`);
        if (line) line.textContent = gettext("No drills of this kind answered in this browser yet.");
        const start = document.getElementById(`start-${kind}`);
        if (start) {
          start.textContent = gettext("Start");
          start.setAttribute("href", start.getAttribute("href").replace(/\/\d+\/$/, "/1/"));
        }
      }
    });
  }

  // One drill page.
  function showDrill(root) {
    const data = JSON.parse(document.getElementById("drill-data").textContent);
    const kind = root.dataset.kind;
    const seed = Number(root.dataset.seed);
    const cards = Array.from(root.querySelectorAll(".drill-card"));
    const check = document.getElementById("check-answer");
    const feedback = document.getElementById("feedback");
    const limit = { legal: cards.length, pass: 3, moon: 1 }[kind];
    const names = Object.fromEntries(data.hand.map((card) => [card.code, card]));
    let checked = false;

    const chosen = () => cards.filter((el) => el.getAttribute("aria-pressed") === "true");
    const reason = () => root.querySelector('input[name="reason"]:checked');

    function ready() {
      const n = chosen().length;
      if (kind === "legal") return n > 0 && reason() !== null;
      return n === limit;
    }

    function refresh() {
      check.disabled = checked || !ready();
    }

    function toggle(el) {
      if (checked) return;
      const on = el.getAttribute("aria-pressed") === "true";
      if (!on && kind === "moon") {
        for (const other of cards) other.setAttribute("aria-pressed", "false");
      } else if (!on && chosen().length >= limit) {
        feedback.textContent = words(
          ngettext(
            "You have chosen %(count)s card: put it back first.",
            "You have chosen %(count)s cards: put one back first.",
            limit,
          ),
          { count: limit },
        );
        return;
      }
      el.setAttribute("aria-pressed", on ? "false" : "true");
      refresh();
    }

    for (const el of cards) el.addEventListener("click", () => toggle(el));
    for (const input of root.querySelectorAll('input[name="reason"]')) {
      input.addEventListener("change", refresh);
    }
    check.addEventListener("click", () => {
      if (checked || !ready()) return;
      checked = true;
      const result = { legal: judgeLegal, pass: judgePass, moon: judgeMoon }[kind]();
      record(kind, seed, result.score, result.max);
      for (const el of cards) el.setAttribute("aria-disabled", "true");
      for (const input of root.querySelectorAll('input[name="reason"]')) input.disabled = true;
      show(result);
      refresh();
      document.getElementById("next-drill").focus();
    });

    function show(result) {
      feedback.replaceChildren();
      const head = document.createElement("p");
      head.className = "drill-score";
      head.textContent = `${result.verdict} ${words(gettext("You scored %(points)s."), { points: pointsText(result.score, result.max) })}`;
      feedback.appendChild(head);
      const list = document.createElement("ul");
      for (const item of result.lines) {
        const li = document.createElement("li");
        li.textContent = item.text;
        if (item.anchor) {
          li.append(" ");
          const link = document.createElement("a");
          link.href = `${document.querySelector(".drill-table a").getAttribute("href")}#${item.anchor}`;
          link.textContent = gettext("The rule");
          li.appendChild(link);
        }
        list.appendChild(li);
      }
      feedback.appendChild(list);
    }

    // A tick for the cards of the answer, a cross for the others shown; a red outline where
    // the choice made was wrong.
    function mark(el, good, note, wrong) {
      el.classList.add(good ? "answer-good" : "answer-bad");
      if (wrong) {
        el.classList.add("answer-wrong");
        note = words(gettext("%(note)s, not your choice"), { note });
      }
      // Translators: what the drill says of a card, after its name (read by screen readers).
      el.querySelector(".card-note").textContent = words(gettext(": %(note)s"), { note });
    }

    function judgeLegal() {
      const picked = new Set(chosen().map((el) => el.dataset.card));
      const legal = new Set(data.legal);
      const sameSet = picked.size === legal.size && data.legal.every((c) => picked.has(c));
      const rightReason = reason().value === data.answer;
      const lines = [];
      for (const el of cards) {
        const code = el.dataset.card;
        const refused = data.reasons[code];
        const note = refused ? refused.text : gettext("may be played");
        mark(el, legal.has(code), note, picked.has(code) !== legal.has(code));
        if (refused && picked.has(code)) {
          lines.push({
            text: words(gettext("%(card)s may not be played: %(reason)s."), { card: names[code].display, reason: refused.text }),
            anchor: refused.anchor,
          });
        } else if (!refused && !picked.has(code)) {
          lines.push({ text: words(gettext("%(card)s may be played too."), { card: names[code].display }) });
        }
      }
      const asked = data.reasons[data.asked.code];
      const because = rightReason
        ? gettext("%(card)s: %(reason)s.")
        : gettext("%(card)s: %(reason)s. That is the reason, not the one you chose.");
      lines.push({
        text: words(because, { card: data.asked.display, reason: data.answer }),
        anchor: asked.anchor,
      });
      const score = Number(sameSet) + Number(rightReason);
      const verdict =
        score === 2
          ? gettext("Right on both counts.")
          : sameSet
            ? gettext("The right cards, but not the right reason.")
            : rightReason
              ? gettext("The right reason, but not the right cards.")
              : gettext("Not this time.");
      return { score, max: 2, verdict, lines };
    }

    function judgePass() {
      const picked = chosen().map((el) => el.dataset.card);
      const score = picked.reduce((sum, code) => sum + (data.credit[code] || 0), 0);
      const best = new Set(data.best);
      for (const el of cards) {
        const code = el.dataset.card;
        const rank = data.ranked.indexOf(code) + 1;
        if (best.has(code) || picked.includes(code)) {
          const note = best.has(code)
            ? gettext("the bot passes it")
            : words(gettext("the bot ranks it %(rank)s of %(count)s"), { rank, count: data.ranked.length });
          mark(el, best.has(code), note, best.has(code) !== picked.includes(code));
        }
      }
      const lines = [
        { text: words(gettext("The bot passes %(cards)s."), { cards: data.best.map((c) => names[c].display).join(", ") }) },
        {
          text: words(gettext("Its order, most dangerous first: %(cards)s."), {
            cards: data.ranked.map((c) => names[c].display).join(" "),
          }),
        },
      ];
      const verdict =
        score === 6
          ? gettext("Exactly the bot's pass.")
          : score >= 4
            ? gettext("Close to the bot's pass.")
            : gettext("The bot would pass differently.");
      return { score, max: 6, verdict, lines };
    }

    function judgeMoon() {
      const code = chosen()[0].dataset.card;
      const refused = data.reasons[code];
      const outcome = data.outcomes[code] || {
        stops: false,
        text: words(gettext("it may not be played (%(reason)s)"), { reason: refused.text }),
        anchor: refused.anchor,
      };
      for (const el of cards) {
        const o = data.outcomes[el.dataset.card];
        const mine = el.dataset.card === code;
        if (o && (o.stops || mine)) mark(el, o.stops, o.text, mine && !o.stops);
        else if (mine) mark(el, false, data.reasons[code].text, true);
      }
      const stoppers = data.stops.map((c) => names[c].display).join(", ");
      const lines = [
        { text: words(gettext("%(card)s: %(outcome)s."), { card: names[code].display, outcome: outcome.text }), anchor: outcome.anchor },
        { text: words(gettext("Cards that stop it: %(cards)s."), { cards: stoppers }) },
      ];
      const verdict = outcome.stops ? gettext("The moon is stopped.") : gettext("The moon is still on.");
      return { score: Number(outcome.stops), max: 1, verdict, lines };
    }

    const before = load().drills[`${kind}:${seed}`];
    if (before) {
      document.getElementById("earlier-score").textContent = words(
        gettext("You answered this drill before in this browser: %(points)s."),
        { points: pointsText(before.score, before.max) },
      );
    }
    refresh();
  }

  function start() {
    const root = document.getElementById("drill");
    if (root) showDrill(root);
    if (document.getElementById("clear-progress")) showIndex();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
