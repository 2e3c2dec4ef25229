// The table's sounds, made with the Web Audio API from short tones (no sound files). Browsers
// let a page make sound only after the player has pressed a key or touched it, so the audio
// starts at the first such gesture; until then nothing plays. The choice to mute is kept in
// localStorage ("hearts-muted") and shown by the Mute button (aria-pressed).
(function () {
  "use strict";

  const STORE = "hearts-muted";
  let audio = null;
  let muted = localStorage.getItem(STORE) === "1";

  // Each sound: notes of [frequency in Hz, start, length in seconds], a wave and a loudness.
  const SOUNDS = {
    turn: { wave: "sine", gain: 0.12, notes: [[523, 0, 0.12], [784, 0.1, 0.18]] },
    card: { wave: "triangle", gain: 0.1, notes: [[660, 0, 0.05]] },
    trick: { wave: "sine", gain: 0.1, notes: [[392, 0, 0.08], [262, 0.07, 0.14]] },
    queen: { wave: "square", gain: 0.05, notes: [[392, 0, 0.16], [311, 0.14, 0.16], [233, 0.28, 0.3]] },
    hearts: { wave: "sine", gain: 0.09, notes: [[880, 0, 0.1], [1175, 0.08, 0.1], [1568, 0.16, 0.16]] },
    clock: { wave: "square", gain: 0.04, notes: [[1000, 0, 0.03]] },
  };

  function start() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
  }

  function play(name) {
    const sound = SOUNDS[name];
    if (muted || !audio || audio.state !== "running" || !sound) return;
    const now = audio.currentTime;
    for (const [frequency, at, length] of sound.notes) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = sound.wave;
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(sound.gain, now + at);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + at);
      tone.stop(now + at + length);
    }
  }

  // The state in words on the button (a screen reader hears it as the button's pressed
  // state, so the words are for the eye only and its name stays "Mute").
  function show() {
    const button = document.getElementById("mute-button");
    if (!button) return;
    button.setAttribute("aria-pressed", muted ? "true" : "false");
    const state = button.querySelector(".mute-state");
    if (state) state.textContent = muted ? gettext("(sounds off)") : gettext("(sounds on)");
  }

  function toggle() {
    muted = !muted;
    localStorage.setItem(STORE, muted ? "1" : "0");
    show();
    return muted;
  }

  for (const gesture of ["keydown", "pointerdown"]) {
    document.addEventListener(gesture, start, { capture: true });
  }
  document.addEventListener("DOMContentLoaded", show);

  window.tableSound = { play, toggle, isMuted: () => muted };
})();
