// The table page: one websocket per seat (or spectator). The page never knows a rule: it draws
// the seat's view with the game's renderer and composes actions from the legal list the server
// sent, by matching the ids of clicked things against each action's JSON form.
import { h, clear } from "./dom.js";
import { t, applyTexts } from "./i18n.js";
import { renderer } from "./render/index.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const tokenKey = `sb:token:${tableId}`;
const $ = (id) => document.getElementById(id);

let ws = null;
let msg = null;          // the last "state" message
let info = null;         // GET /api/tables/{id}
let selection = [];      // ids clicked so far
let logSeq = 0;
let retry = 0;
let render = null;

function stored() {
  try { return JSON.parse(localStorage.getItem(tokenKey) || "null"); } catch { return null; }
}

// Every string in an action's JSON form, except its kind and text, names a thing on the table.
function idsOf(json) {
  const out = new Set();
  (function walk(x, key) {
    if (typeof x === "string") { if (key !== "kind" && key !== "text" && key !== "label") out.add(x); }
    else if (Array.isArray(x)) x.forEach((y) => walk(y, key));
    else if (x && typeof x === "object") for (const [k, v] of Object.entries(x)) walk(v, k);
  })(json, null);
  return out;
}

function candidates() {
  const legal = (msg && msg.legal) || [];
  return legal.filter((a) => selection.every((id) => a.ids.has(id)));
}

function send(obj) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
}

function act(text) {
  $("error").textContent = "";
  selection = [];
  document.body.dataset.pending = "true"; // until the server answers (tests wait on it)
  send({ type: "act", action: text, seq: msg ? msg.seq : undefined });
}

function onPick(id) {
  if (!msg || !msg.legal || !msg.legal.length) return;
  if (selection.includes(id)) selection = selection.filter((x) => x !== id);
  else selection = [...selection, id];
  let cands = candidates();
  if (!cands.length) { selection = [id]; cands = candidates(); }
  if (!cands.length) { selection = []; }
  if (cands.length === 1 && selection.length) { act(cands[0].text); return; }
  draw();
}

function ctx() {
  const cands = candidates();
  const reachable = new Set();
  for (const a of cands) for (const id of a.ids) reachable.add(id);
  return {
    seat: msg.seat,
    players: msg.players || [],
    toAct: msg.to_act,
    legal: msg.legal || [],
    selected: (id) => selection.includes(id),
    clickable: (id) => reachable.has(id) && (msg.legal || []).length > 0,
    pick: onPick,
    act,
  };
}

function playerName(p, i) {
  if (!p) return `${t("seat")} ${i}`;
  const who = p.name || (p.bot ? `${p.bot} ${t("bot")}` : `${t("seat")} ${i}`);
  return msg && msg.seat === i ? `${who} (${t("you")})` : who;
}

// A game's own numbers as it counts them: whole numbers plainly, others to two places.
function fmt(x) {
  if (typeof x !== "number") return "";
  return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
}

// The end screen: the game's own scores (points, wealth, pegs) and who won, from the
// normalized outcome (1 a win, a share of it for a draw; partners share their side's).
function resultBox(outcome, scores, truncated, players) {
  const best = Math.max(...outcome);
  const winners = outcome.map((o, i) => (o > 0 && o === best ? i : -1)).filter((i) => i >= 0);
  const shared = winners.length > 0 && best < 1;
  const who = winners.map((i) => playerName(players[i], i)).join(", ");
  const mark = (i) => (winners.includes(i) ? `★ ${t(shared ? "shared_win" : "winner")}` : "");
  return [
    h("h3", {}, t("game_over")),
    h("p", { class: "verdict", id: "verdict" }, winners.length ? `${t(shared ? "draw_between" : "won_by")}: ${who}` : ""),
    h("table", { class: "scores", id: "final-result" },
      h("tr", {}, h("th", {}, t("players")), h("th", { class: "num" }, t("score")), h("th", {}, "")),
      ...outcome.map((o, i) => h("tr", { class: winners.includes(i) ? "winner" : "", "data-seat": i, "data-outcome": String(o) },
        h("td", {}, playerName(players[i], i)),
        h("td", { class: "num" }, scores ? fmt(scores[i]) : ""),
        h("td", { class: "winner-mark" }, mark(i))))),
    truncated ? h("p", { class: "truncated", id: "truncated" }, t("truncated")) : "",
    h("p", {}, h("a", { href: "/" }, t("play_new"))),
  ];
}

function draw() {
  if (!msg) return;
  const board = $("board");
  clear(board);
  try {
    board.append(render(msg.view, ctx()));
  } catch (e) {
    console.error(e);
    board.append(h("pre", { class: "raw" }, JSON.stringify(msg.view, null, 2)));
  }
  for (const el of board.querySelectorAll("[data-id]")) {
    if (el.classList.contains("clickable")) {
      el.addEventListener("click", () => onPick(el.dataset.id));
      el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(el.dataset.id); } });
    }
  }
  // Whose turn, result.
  const players = msg.players || [];
  const over = msg.outcome != null;
  $("turn").textContent = over ? t("game_over")
    : msg.to_act === msg.seat && msg.seat != null ? t("your_turn")
    : `${t("waiting_for")} ${playerName(players[msg.to_act], msg.to_act)}`;
  $("turn").className = "turn" + (msg.to_act === msg.seat && !over ? " mine" : "");
  const res = $("result");
  res.hidden = !over;
  if (over) clear(res).append(...resultBox(msg.outcome, msg.scores, msg.truncated, players));
  clear($("players")).append(...players.map((p, i) => h("div", {
    class: `player${i === msg.to_act ? " to-act" : ""}${i === msg.seat ? " me" : ""}`,
  }, h("span", { class: `dot ${p && (p.connected || p.bot) ? "on" : "off"}` }), playerName(p, i),
    p && p.bot ? h("span", { class: "muted" }, ` · ${t("bot")}`) : "")));
  // Legal actions as a list: always there for keyboard users; narrowed by clicks.
  const cands = candidates();
  const list = clear($("actions"));
  clear($("selection"));
  if (selection.length) {
    $("selection").append(h("span", {}, selection.join(" + ")), " ",
      h("button", { type: "button", class: "link", onclick: () => { selection = []; draw(); } }, t("clear")));
  }
  for (const a of cands) {
    list.append(h("button", { type: "button", class: "action", role: "listitem", "data-action": a.text,
      title: a.text, onclick: () => act(a.text) }, a.label || a.text));
  }
  $("typed").hidden = !(msg.legal && msg.legal.length);
}

function addLog(events, last) {
  const log = $("log");
  for (const e of events || []) {
    const text = e.text || (e.kind ? `${e.kind}${e.seat != null ? ` (${t("seat_of")} ${e.seat})` : ""}` : null);
    if (!text) continue;
    log.prepend(h("li", {}, text));
  }
  if (!(events && events.length) && last && last.action) log.prepend(h("li", {}, `${t("seat")} ${last.seat}: ${last.action}`));
  while (log.children.length > 300) log.lastChild.remove();
}

function connect() {
  const tok = stored();
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = tok && tok.token ? `?token=${encodeURIComponent(tok.token)}` : "";
  ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${q}`);
  ws.onopen = () => { retry = 0; $("status").textContent = t("connected_ok"); };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    window.dispatchEvent(new CustomEvent("sb:message", { detail: m })); // clocks, chat, notifications
    if (m.type === "state") {
      for (const a of m.legal || []) a.ids = idsOf(a.json);
      const fresh = !msg || m.seq !== msg.seq;
      if (fresh && (!msg || m.seq > msg.seq)) { addLog(m.events, m.last); logSeq = m.seq; }
      msg = m;
      window.sbLast = m; // read by the browser tests
      delete document.body.dataset.pending;
      if (fresh) selection = [];
      document.body.dataset.seq = String(m.seq);
      document.body.dataset.over = String(m.outcome != null);
      document.body.dataset.myturn = String(m.to_act === m.seat && m.seat != null && (m.legal || []).length > 0);
      draw();
    } else if (m.type === "error") {
      delete document.body.dataset.pending;
      $("error").textContent = m.message;
    }
  };
  ws.onclose = () => {
    $("status").textContent = t("reconnecting");
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * 2 ** retry);
  };
}

async function showJoin() {
  const box = $("join");
  clear(box);
  const free = (info && info.free_seats) || [];
  if (stored() || !free.length) { box.hidden = true; return; }
  box.hidden = false;
  box.append(h("span", {}, t("take_seat") + ": "));
  for (const seat of free) {
    box.append(h("button", { type: "button", class: "primary", "data-seat": seat, onclick: async () => {
      const name = localStorage.getItem("sb:name") || "";
      const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/join`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seat, name }),
      });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) { $("error").textContent = body.detail || r.statusText; return; }
      localStorage.setItem(tokenKey, JSON.stringify(body));
      location.reload();
    } }, `${t("join")} ${seat}`));
  }
  box.append(h("span", { class: "muted" }, ` — ${t("spectating")}`));
}

async function main() {
  applyTexts();
  $("share").value = location.href;
  $("share").onclick = (e) => e.target.select();
  $("typed").onsubmit = (e) => { e.preventDefault(); const v = $("typed-text").value.trim(); if (v) act(v); $("typed-text").value = ""; };
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!r.ok) { $("board").append(h("p", { class: "error" }, (await r.json().catch(() => ({}))).detail || "no such table")); return; }
  info = await r.json();
  document.title = `Spillebord — ${info.title}`;
  $("title").textContent = `${info.title} · ${tableId}`;
  document.body.dataset.game = info.game;
  if (info.note) {
    // Stored, but not playable here (another engine version of the game): say why, and show
    // the result of a finished one.
    document.body.dataset.unavailable = "true";
    $("board").append(h("p", { class: "error", id: "unavailable" }, info.note));
    $("turn").textContent = info.status === "over" ? t("game_over") : t("unavailable");
    if (info.outcome) {
      $("result").hidden = false;
      clear($("result")).append(...resultBox(info.outcome, info.scores, info.truncated, info.players || []));
    }
    return;
  }
  render = await renderer(info.game);
  await showJoin();
  connect();
}

main();
