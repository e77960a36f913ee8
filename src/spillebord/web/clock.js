// Live clocks of a timed table. The server's clock decides: every state message carries the
// clocks ("clock": mode, running seat, seconds left per seat, deadline, the server's now);
// between messages the running one is counted down here, from when the message arrived.
import { h, clear } from "./dom.js";
import { pt } from "./people-texts.js";

const pad = (n) => String(Math.floor(n)).padStart(2, "0");

// 75 → "1:15", 3725 → "1:02:05"; turn-based limits of hours and days: "2d 03h", "5h 07m".
export function formatClock(seconds, mode) {
  const s = Math.max(0, seconds);
  if (mode === "turn" && s >= 86400) return `${Math.floor(s / 86400)}d ${pad((s % 86400) / 3600)}h`;
  if (mode === "turn" && s >= 3600) return `${Math.floor(s / 3600)}h ${pad((s % 3600) / 60)}m`;
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad((s % 3600) / 60)}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

export function mountClocks(box) {
  let clock = null;
  let players = [];
  let seat = null;
  let at = 0;
  const left = (i) => {
    const base = clock.remaining[i];
    return clock.running === i ? base - (performance.now() - at) / 1000 : base;
  };
  function draw() {
    box.hidden = !clock;
    if (!clock) return;
    clear(box).append(h("h3", {}, `${pt("clock")}${clock.mode === "turn" ? ` (${pt("turn_based")})` : ""}`));
    clock.remaining.forEach((_, i) => {
      const p = players[i];
      if (p && p.bot && !p.takeover) return; // a bot's seat has no clock
      const secs = left(i);
      const cls = ["clock"];
      if (clock.running === i) cls.push("running");
      if (clock.running === i && secs < 30) cls.push("low");
      const name = (players[i] && players[i].name) || `#${i}`;
      box.append(h("div", { class: cls.join(" "), "data-seat": i, "data-left": Math.max(0, Math.round(secs)) },
        h("span", { class: "who" }, name + (i === seat ? " ★" : "")),
        h("span", { class: "time" }, formatClock(secs, clock.mode))));
    });
  }
  window.addEventListener("sb:message", (e) => {
    const m = e.detail;
    if (!m || m.type !== "state") return;
    clock = m.clock || null;
    players = m.players || [];
    seat = m.seat;
    at = performance.now();
    draw();
  });
  setInterval(() => { if (clock && clock.running != null) draw(); }, 250);
  draw();
}
