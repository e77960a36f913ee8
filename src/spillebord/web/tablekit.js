// Small pieces of the table page: focus kept across redraws, the last-move bar, the board's
// label for screen readers, and the end screen's rematch / replay / rules links.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { ht } from "./hint-texts.js";

// Remember what has the keyboard focus (a board item by data-id, an action by data-action)
// and give it back after the page is drawn again.
export function keepFocus() {
  const el = document.activeElement;
  if (!el || el === document.body) return () => {};
  const id = el.getAttribute && el.getAttribute("data-id");
  const action = el.getAttribute && el.getAttribute("data-action");
  const elId = el.id;
  return () => {
    if (document.activeElement && document.activeElement !== document.body && document.contains(el)) return;
    let again = null;
    if (id) again = document.querySelector(`#board [data-id="${CSS.escape(id)}"]`);
    else if (action) again = document.querySelector(`#actions [data-action="${CSS.escape(action)}"]`);
    else if (elId) again = document.getElementById(elId);
    // The item is gone: the next thing to play with, else the turn line (parked there until
    // there is something to play again).
    if (!again && (id || action || elId === "turn")) again = document.querySelector("#actions .action, #board .clickable");
    if (!again && (id || action)) again = document.getElementById("turn");
    if (again) again.focus({ preventScroll: true });
  };
}

// The last move in words above the board; it flashes briefly when it changes (not under
// prefers-reduced-motion: see app.css).
export function lastMoveBar(el, text) {
  if (!el) return;
  if (el.dataset.text === text) return;
  el.dataset.text = text;
  el.textContent = text ? `${t("last_move")}: ${text}` : "";
  el.hidden = !text;
  el.classList.remove("flash");
  void el.offsetWidth; // restart the animation
  el.classList.add("flash");
}

// The board for screen readers: a labelled region; a picture with things to click in it is a
// group (an "img" would hide them), one without is an image with a name; a labelled item is a
// button when it can be clicked, else an image.
export function labelBoard(board, title) {
  const label = `${title} — ${t("board")}`;
  board.setAttribute("role", "region");
  board.setAttribute("aria-label", label);
  for (const s of board.querySelectorAll("svg")) {
    const interactive = s.querySelector("[tabindex], .clickable");
    if (s.parentElement && s.parentElement.closest("svg")) continue;
    s.setAttribute("role", interactive ? "group" : "img");
    if (!s.getAttribute("aria-label")) s.setAttribute("aria-label", label);
  }
  for (const el of board.querySelectorAll("svg [aria-label]:not([role])")) {
    el.setAttribute("role", el.hasAttribute("tabindex") || el.classList.contains("clickable") ? "button" : "img");
  }
  // A button that shows words is named by them (what a voice-control user says to click it);
  // the renderer's label becomes its description.
  for (const el of board.querySelectorAll("svg [role=button][aria-label]")) {
    if (!(el.textContent || "").trim()) continue;
    el.setAttribute("aria-description", el.getAttribute("aria-label"));
    el.removeAttribute("aria-label");
  }
  for (const el of board.querySelectorAll("svg .clickable[tabindex]:not([role])")) el.setAttribute("role", "button");
}

function stored(tableId) {
  try { return JSON.parse(localStorage.getItem(`sb:token:${tableId}`) || "null"); } catch { return null; }
}

async function rematch(tableId, box) {
  const tok = stored(tableId);
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/rematch`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: tok ? tok.token : "" }),
  });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { clear(box).append(h("span", { class: "error" }, body.detail || r.statusText)); return; }
  if (body.token) localStorage.setItem(`sb:token:${body.table}`, JSON.stringify({ seat: body.seat, token: body.token }));
  location.href = `/table/${encodeURIComponent(body.table)}`;
}

// Rematch (seated people), the rematch to watch (spectators, once someone started it), the
// replay of this game and its rules.
export function endExtras(tableId, gameId) {
  const box = h("p", { class: "end-extras" });
  if (stored(tableId)) {
    box.append(h("button", { type: "button", class: "primary", id: "rematch", onclick: () => rematch(tableId, box) }, t("rematch")), " ");
  } else {
    fetch(`/api/tables/${encodeURIComponent(tableId)}/rematch`).then((r) => (r.ok ? r.json() : null)).then((x) => {
      if (x && x.table) box.prepend(h("a", { class: "button", id: "watch-rematch", href: `/table/${encodeURIComponent(x.table)}` }, t("watch_rematch")), " ");
    }).catch(() => {});
  }
  box.append(h("a", { class: "button", id: "replay-link", href: `/replay/${encodeURIComponent(tableId)}` }, t("replay")));
  box.append(" ", h("a", { class: "button", id: "review-link", href: `/review/${encodeURIComponent(tableId)}?seat=${(stored(tableId) || {}).seat ?? 0}` }, ht("review")));
  if (gameId) box.append(" ", h("a", { href: `/rules/${encodeURIComponent(gameId)}` }, t("rules")));
  return box;
}

// Zoom buttons for the board (shown on narrow screens by app.css): the picture grows and the
// board scrolls, so a map can be read and clicked on a phone.
export function addZoom(board) {
  const levels = [1, 1.6, 2.4];
  let k = 0;
  const set = (i) => {
    k = Math.max(0, Math.min(levels.length - 1, i));
    board.style.setProperty("--zoom", String(levels[k]));
    board.classList.toggle("zoomed", k > 0);
  };
  const bar = h("div", { class: "zoom", role: "group", "aria-label": t("zoom") },
    h("button", { type: "button", id: "zoom-in", "aria-label": t("zoom_in"), onclick: () => set(k + 1) }, "+"),
    h("button", { type: "button", id: "zoom-out", "aria-label": t("zoom_out"), onclick: () => set(k - 1) }, "−"));
  board.before(bar);
  return set;
}

// The last move on the board: the squares, cells and cards its events name get a mark (and a
// short pop, off under prefers-reduced-motion). Renderers tag such items with data-ref.
const REF_FIELDS = ["square", "to", "cell", "card", "city", "ship", "territory", "squares", "cells", "piece"];

export function markLast(board, events) {
  const ids = new Set();
  for (const e of events || []) {
    for (const f of REF_FIELDS) {
      const v = e[f];
      for (const x of Array.isArray(v) ? v : [v]) if (typeof x === "string" && x) ids.add(x);
    }
  }
  let n = 0;
  for (const id of ids) {
    for (const el of board.querySelectorAll(`[data-ref="${CSS.escape(id)}"]`)) { el.classList.add("last-mark"); n++; }
  }
  board.dataset.lastMarks = String(n);
}
