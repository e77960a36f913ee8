// Hints at the table: a "Hint" button beside the seat's moves asks the server for the strongest
// bot's choice and its next two, with their estimated chances of winning, computed from this
// seat's view only. The suggested move is highlighted in the list of moves. Nothing here is
// shown when the table's creator switched hints off (the page says so instead).
import { h, clear } from "./dom.js";
import { actionLabel } from "./gametext.js";
import { ht, pct } from "./hint-texts.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);
let enabled = null;      // the table's setting (null: not known yet)
let last = null;         // the last state message
let shown = null;        // { seq, hints } on screen
let asking = false;

function token() {
  try { return (JSON.parse(localStorage.getItem(`sb:token:${tableId}`) || "null") || {}).token || null; }
  catch { return null; }
}

function myTurn() {
  return !!last && last.outcome == null && last.seat != null && last.to_act === last.seat && (last.legal || []).length > 0;
}

function label(text) {
  const a = ((last && last.legal) || []).find((x) => x.text === text);
  return a ? actionLabel(a) : text;
}

// The suggested move is marked in the list of moves (which table.js redraws at will).
function mark() {
  const best = shown && last && shown.seq === last.seq && shown.hints.length ? shown.hints[0].action : null;
  for (const b of document.querySelectorAll("#actions .action")) {
    const on = best !== null && b.dataset.action === best;
    b.classList.toggle("hinted", on);
    if (on) b.setAttribute("aria-describedby", "hint-box"); else if (b.getAttribute("aria-describedby") === "hint-box") b.removeAttribute("aria-describedby");
  }
}

function box() {
  let el = $("hint-box");
  if (!el) {
    const btn = h("button", { type: "button", id: "hint-btn", class: "hint-btn", title: ht("hint_title"), "aria-controls": "hint-box", onclick: ask }, ht("hint"));
    el = h("div", { id: "hint-box", class: "hint-box", "aria-live": "polite" });
    const wrap = h("div", { id: "hint", class: "hint" }, btn, el);
    const anchor = $("actions");
    if (anchor) anchor.before(wrap); else document.body.append(wrap);
  }
  return el;
}

function draw() {
  if (enabled === false) {
    let note = $("hints-off");
    if (!note && $("actions")) {
      note = h("p", { id: "hints-off", class: "muted hints-off" }, ht("hints_off"));
      $("actions").before(note);
    }
    return;
  }
  if (enabled !== true || !token()) return;
  const el = box();
  const btn = $("hint-btn");
  const turn = myTurn();
  $("hint").hidden = !turn;
  btn.disabled = asking || !turn;
  // A hint belongs to its state: once the table moves on it is gone, also from the marks
  // (an undo back to the same seq would otherwise mark a move with no list beside it).
  if (!shown || !last || shown.seq !== last.seq) { shown = null; if (!asking) clear(el); }
  mark();
}

async function ask() {
  if (asking || !myTurn()) return;
  asking = true;
  const seq = last.seq;
  const el = box();
  clear(el).append(h("p", { class: "muted", id: "hint-thinking" }, ht("hint_thinking")));
  document.body.dataset.hinting = "true";
  draw();
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hint`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: token() }),
    });
    const body = await r.json().catch(() => ({}));
    clear(el);
    if (!r.ok) { el.append(h("p", { class: "error", id: "hint-error" }, body.detail || r.statusText)); return; }
    if (!last || last.seq !== seq) return; // the table moved on meanwhile
    shown = { seq: body.seq, hints: body.hints || [] };
    el.append(h("ol", { id: "hint-list", class: "hint-list", "aria-label": ht("hint_title") },
      ...shown.hints.map((x, i) => h("li", { class: i === 0 ? "best" : "", "data-action": x.action },
        h("button", { type: "button", class: "link hint-pick", title: x.action,
          onclick: () => { const b = document.querySelector(`#actions .action[data-action="${CSS.escape(x.action)}"]`); if (b) b.focus(); } },
          label(x.action)),
        " ", h("span", { class: "hint-chance", "aria-label": `${pct(x.chance)} ${ht("chance")}` }, pct(x.chance)),
        i === 0 ? h("span", { class: "muted" }, ` · ${ht("hint_suggested")}`) : ""))));
  } catch (e) {
    clear(el).append(h("p", { class: "error", id: "hint-error" }, String(e)));
  } finally {
    asking = false;
    delete document.body.dataset.hinting;
    draw();
  }
}

window.addEventListener("sb:message", (ev) => {
  const m = ev.detail;
  if (!m || m.type !== "state") return;
  last = m;
  // table.js draws after this event: look again once it has.
  setTimeout(draw, 0);
});

async function main() {
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hints`);
    if (!r.ok) return;
    enabled = !!(await r.json()).hints;
  } catch { return; }
  document.body.dataset.hints = String(enabled);
  const list = $("actions");
  if (list) new MutationObserver(mark).observe(list, { childList: true });
  document.addEventListener("keydown", (e) => {
    // "?" asks for a hint, as at the terminal (not while typing an action).
    if (e.key !== "?" || (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName))) return;
    if (enabled && token() && myTurn()) { e.preventDefault(); ask(); }
  });
  draw();
}

main();
