// Turn notification: the tab title says when it is your turn (with a dot while the tab is
// hidden), and an optional short sound (off by default, remembered).
const KEY = "sb:sound";
let base = document.title;
let wasMine = false;
let audio = null;

export function setBaseTitle(title) { base = title; document.title = title; }
export function soundOn() { return localStorage.getItem(KEY) === "1"; }
export function setSound(on) { localStorage.setItem(KEY, on ? "1" : "0"); }

function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.08, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.25);
  } catch { /* no audio here */ }
}

export function turnChanged(mine, yourTurnText) {
  document.title = mine ? `● ${yourTurnText} — ${base}` : base;
  if (mine && !wasMine && soundOn()) beep();
  wasMine = mine;
}
