// Tell a person when it becomes their turn: in the tab's title ("● " at a table where it is
// their turn, "(n) " for their other tables) and, when they allowed it, with a notification.
// Their other tables are those of their account ("my tables"), looked at every 15 seconds.
import { pt } from "./people-texts.js";

const PREFIX = /^(\(\d+\) |● )+/;
let here = false;
let others = 0;
let known = null;

function title() {
  const base = document.title.replace(PREFIX, "");
  document.title = `${others ? `(${others}) ` : ""}${here ? "● " : ""}${base}`;
  document.body && (document.body.dataset.turns = String(others + (here ? 1 : 0)));
}

function notify(text, url) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const n = new Notification("Spillebord", { body: text, tag: url || "spillebord" });
    n.onclick = () => { window.focus(); if (url) location.href = url; };
  } catch { /* some browsers only notify from a service worker */ }
}

export function askPermission() {
  if ("Notification" in window && Notification.permission === "default") Notification.requestPermission();
}

async function poll(currentTable) {
  try {
    const r = await fetch("/api/me/tables");
    if (!r.ok) return;
    const mine = (await r.json()).filter((m) => m.your_turn && m.table !== currentTable);
    others = mine.length;
    const ids = new Set(mine.map((m) => m.table));
    if (known) for (const m of mine) if (!known.has(m.table)) notify(`${m.title}: ${pt("your_turn_in")}`, m.url);
    known = ids;
    title();
  } catch { /* offline: next time */ }
}

export function watchTurns(currentTable = null, every = window.sbTurnPoll || 15000) {
  window.addEventListener("sb:message", (e) => {
    const m = e.detail;
    if (!m || m.type !== "state") return;
    const mine = m.seat != null && m.to_act === m.seat && (m.legal || []).length > 0;
    if (mine && !here && document.hidden) notify(`${pt("your_turn_in")}`, location.href);
    here = mine;
    title();
  });
  // Other tables: only for a person logged in (anonymous seats live in this browser alone).
  fetch("/api/account/me").then((r) => r.json()).then((me) => {
    if (!me.logged_in) return;
    poll(currentTable);
    setInterval(() => poll(currentTable), every);
  }).catch(() => {});
}
