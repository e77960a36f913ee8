// The replay viewer: a table step by step (back and forth, the slider, the arrow keys), as a
// spectator, or as any seat once the game is over. Views come from the server
// (/api/tables/{id}/step/{k}?seat=…), which replays the record and shows only what that seat saw.
import { h, clear } from "./dom.js";
import { t, applyTexts } from "./i18n.js";
import { renderer } from "./render/index.js";
import { displayName } from "./people.js";
import { loadTexts, setNamer, eventLine } from "./gametext.js";
import { labelBoard, markLast } from "./tablekit.js";
import { ht } from "./hint-texts.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);
let info = null;
let render = null;
let steps = 0;
let step = 0;
let seat = null;
let busy = Promise.resolve();

const name = (i) => displayName(info ? info.players : [], i, null);

function ctx(v) {
  return {
    seat, players: info.players || [], name, toAct: v.to_act, legal: [],
    selected: () => false, clickable: () => false, pick: () => {}, act: () => {},
  };
}

async function show(k) {
  step = Math.max(0, Math.min(steps, k));
  const q = seat === null ? "" : `?seat=${seat}`;
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/step/${step}${q}`);
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { $("error").textContent = body.detail || r.statusText; return; }
  $("error").textContent = "";
  steps = body.steps;
  $("step").max = String(steps);
  $("step").value = String(step);
  $("step-no").textContent = `${step} / ${steps}`;
  const board = clear($("board"));
  try { board.append(render(body.view, ctx(body))); } catch (e) { console.error(e); }
  labelBoard(board, info.title);
  markLast(board, body.events);
  const lines = (body.events || []).map(eventLine).filter(Boolean);
  if (!lines.length && body.last && body.last.action) lines.push(`${name(body.last.seat)}: ${body.last.action}`);
  $("last-move").hidden = !lines.length;
  $("last-move").textContent = lines.join(" · ");
  clear($("players")).append(...(info.players || []).map((p, i) => h("div", { class: `player${i === body.to_act ? " to-act" : ""}` }, name(i))));
  document.body.dataset.step = String(step);
}

function go(k) { busy = busy.then(() => show(k)); }

async function main() {
  applyTexts();
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!r.ok) { $("error").textContent = (await r.json().catch(() => ({}))).detail || "no such table"; return; }
  info = await r.json();
  document.title = `${t("replay_of")} — ${info.title} — Spillebord`;
  $("title").textContent = `${info.title} · ${tableId}`;
  $("rules-link").href = `/rules/${encodeURIComponent(info.game)}`;
  $("back-to-table").href = `/table/${encodeURIComponent(tableId)}`;
  reviewLink(info);
  document.body.dataset.game = info.game;
  render = await renderer(info.game);
  await loadTexts(info.game);
  setNamer(name);
  const sel = $("seat");
  sel.append(h("option", { value: "" }, t("spectator")));
  if (info.status === "over") {
    for (let i = 0; i < info.seats; i++) sel.append(h("option", { value: String(i) }, name(i)));
  }
  sel.onchange = () => { seat = sel.value === "" ? null : Number(sel.value); go(step); };
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(step - 1);
  $("next").onclick = () => go(step + 1);
  $("last").onclick = () => go(steps);
  $("step").oninput = (e) => go(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") go(step - 1);
    if (e.key === "ArrowRight") go(step + 1);
  });
  steps = info.seq || 0;
  go(new URLSearchParams(location.search).has("end") ? steps : 0);
}

// A finished game's review, of the seat viewed (the first seat when watching as a spectator).
function reviewLink(x) {
  const a = $("review-link");
  if (!a || x.status !== "over") return;
  const update = () => { a.href = `/review/${encodeURIComponent(tableId)}?seat=${seat ?? 0}`; };
  a.textContent = ht("review");
  a.hidden = false;
  update();
  $("seat").addEventListener("change", () => setTimeout(update, 0));
}

main();
