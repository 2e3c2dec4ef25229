// The table's chat (templates/chat/_chat.html). Messages come over the table's socket: each new
// one is added to its room's list by htmx (chat/hub.py), and this file keeps the lists in the
// order they were written, scrolls them, counts what arrives while the box is folded (on a
// phone it starts folded, to one line), says each new message to a screen reader (politely, in
// #chat-said), and writes the times in the reader's own clock. Sending goes through the htmx
// websocket forms (#chat-form, and #chat-phrase-form for the one-tap phrases); what was typed
// stays in the box until the message comes back, so a refused one can be sent again. Mute,
// Unmute and "Turn chat off" are POSTs made from here; the server then sends this person's
// sockets the box as it now is, which names whom they muted (with Unmute): that is said to a
// screen reader and focus goes there, since the button pressed has gone with its message. C goes
// to the box to write, Escape back to the table.
(function () {
  "use strict";

  const chat = () => document.getElementById("chat");
  const fold = () => document.getElementById("chat-fold");
  const input = () => document.getElementById("chat-input");
  const wide = window.matchMedia("(min-width: 78rem)"); // beside the table: chat.css
  let foldOpen = wide.matches;
  let unread = 0;
  let pending = null; // the text sent and not yet seen back
  const seen = new Set(); // the messages already counted and told
  let changed = null; // {name, muted}: a mute or unmute pressed here, until the box shows it

  const newest = () =>
    Math.max(0, ...Array.from(document.querySelectorAll(".chat-message"), (el) => Number(el.dataset.id)));

  // A socket that reconnects says the last message the page shows, and is sent those after it.
  window.liveSocket.says("chat", () => (chat() ? String(newest()) : null));

  function localTimes(root) {
    for (const el of root.querySelectorAll("time.chat-time:not([data-local])")) {
      const at = new Date(el.getAttribute("datetime"));
      if (!Number.isNaN(at.getTime())) {
        // The page's language and its 24-hour "18:48" (hearts_site/formats/), in the browser's
        // time zone: as the server writes the times of the pages it sends.
        el.textContent = at.toLocaleTimeString(document.documentElement.lang || [], {
          hour: "2-digit",
          minute: "2-digit",
          hourCycle: "h23",
        });
      }
      el.dataset.local = "1";
    }
  }

  function showFold() {
    const details = fold();
    if (!details) return;
    if (details.open !== foldOpen) details.open = foldOpen;
    const badge = document.getElementById("chat-unread");
    if (badge) {
      badge.hidden = foldOpen || unread === 0;
      const fresh = ngettext("%(count)s new", "%(count)s new", unread);
      badge.textContent = interpolate(fresh, { count: unread }, true);
    }
  }

  // Each list in the order the messages were written (two processes may deliver two messages
  // said at once in either order), scrolled to the newest if it was there already.
  function settle() {
    const fresh = [];
    for (const list of document.querySelectorAll(".chat-log")) {
      const items = Array.from(list.children);
      const sorted = [...items].sort((a, b) => Number(a.dataset.id) - Number(b.dataset.id));
      const near = list.scrollHeight - list.scrollTop - list.clientHeight < 48;
      if (sorted.some((el, i) => el !== items[i])) sorted.forEach((el) => list.appendChild(el));
      for (const el of sorted) {
        if (!seen.has(el.dataset.id)) {
          seen.add(el.dataset.id);
          fresh.push(el);
        }
      }
      if (near || fresh.length) list.scrollTop = list.scrollHeight;
    }
    return fresh;
  }

  function tell(messages) {
    const region = document.getElementById("chat-said");
    if (!region) return;
    for (const el of messages) {
      if (el.classList.contains("mine")) continue;
      const line = document.createElement("p");
      const name = el.querySelector(".chat-name").textContent;
      const text = el.querySelector(".chat-text").textContent;
      line.textContent = interpolate(gettext("%(name)s says: %(text)s"), { name, text }, true);
      region.appendChild(line);
    }
    while (region.childElementCount > 10) region.firstElementChild.remove();
  }

  function say(words) {
    const region = document.getElementById("chat-said");
    if (!region) return;
    const line = document.createElement("p");
    line.textContent = words;
    region.appendChild(line);
  }

  // The box came back after a mute (it names the person now, with Unmute) or an unmute (it
  // names them no more, and shows their messages): say so, and bring focus back from the
  // button that went away, unless the person has gone on to something else meanwhile.
  function showChanged() {
    if (!changed) return;
    const note = Array.from(document.querySelectorAll(".chat-muted"))
      .find((el) => el.dataset.name === changed.name);
    if (changed.muted !== Boolean(note)) return;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (note) {
      say(note.querySelector(".chat-muted-said").textContent);
      if (lost) note.querySelector(".chat-unmute").focus();
    } else {
      say(interpolate(gettext("You unmuted %(name)s"), { name: changed.name }, true));
      const back = input() || document.querySelector("#chat-fold > summary");
      if (lost && back) back.focus();
    }
    changed = null;
  }

  function update(first) {
    const box = chat();
    if (!box) return;
    localTimes(box);
    const fresh = settle();
    if (first) return;
    showChanged();
    for (const el of fresh) {
      if (el.classList.contains("mine")) {
        const text = el.querySelector(".chat-text").textContent;
        if (input() && pending !== null && input().value.trim() === pending) input().value = "";
        if (text === pending) pending = null;
      } else if (!foldOpen) {
        unread += 1;
      }
    }
    tell(fresh);
    showFold();
  }

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "X-CSRFToken": csrf(), "X-Requested-With": "fetch" },
      body: new URLSearchParams(body),
      credentials: "same-origin",
    });
  }

  function changeMute(url, change) {
    changed = change;
    post(url, {}).then((answer) => {
      if (answer.ok) return;
      changed = null;
      answer.text().then(showError);
    });
  }

  function showError(text) {
    const error = document.getElementById("chat-error");
    if (!error) return;
    error.textContent = text;
    error.hidden = !text;
  }

  function backToTable() {
    const target = document.querySelector("#hand .card[tabindex='0']") || document.getElementById("content");
    if (input()) input().blur();
    if (target) target.focus();
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.id !== "chat-form") return;
    const text = input() ? input().value.trim() : "";
    if (!text) {
      event.preventDefault();
      event.stopImmediatePropagation();
      showError(gettext("Write something first"));
      return;
    }
    pending = text;
  }, true);

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const phrase = target.closest(".chat-phrase");
    const mute = target.closest(".chat-mute");
    const unmute = target.closest(".chat-unmute");
    const turn = target.closest("[data-chat-turn]");
    if (phrase) {
      const form = document.getElementById("chat-phrase-form");
      if (!form) return;
      form.elements.chat.value = phrase.dataset.phrase;
      window.htmx.trigger(form, "submit");
    } else if (mute) {
      // Hidden here at once; the server then sends every socket of this person the box without them.
      const name = mute.closest(".chat-message").querySelector(".chat-name").textContent;
      for (const el of document.querySelectorAll(`.chat-message[data-author="${mute.dataset.author}"]`)) el.remove();
      changeMute(mute.dataset.mute, { name, muted: true });
    } else if (unmute) {
      changeMute(unmute.dataset.unmute, { name: unmute.dataset.name, muted: false });
    } else if (turn) {
      post(turn.dataset.url, { on: turn.dataset.chatTurn });
    }
  });

  document.addEventListener("toggle", (event) => {
    if (event.target !== fold()) return;
    foldOpen = fold().open;
    if (foldOpen) unread = 0;
    showFold();
  }, true);

  document.addEventListener("keydown", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target && target.id === "chat-input" && event.key === "Escape") {
      event.preventDefault();
      backToTable();
      return;
    }
    const typing = target && target.closest("input, textarea, select, dialog");
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "c" || event.key === "C") {
      if (!input()) return;
      event.preventDefault();
      foldOpen = true;
      unread = 0;
      showFold();
      input().focus();
    }
  });

  window.liveSocket.updated(() => update(false));
  document.addEventListener("DOMContentLoaded", () => {
    update(true);
    showFold();
  });
})();
