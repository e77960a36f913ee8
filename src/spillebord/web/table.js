// The table page: one websocket per seat (or spectator). The page never knows a rule: it draws
// the seat's view with the game's renderer and composes actions from the legal list the server
// sent, by matching the ids of clicked things against each action's JSON form.
import { h, clear } from "./dom.js";
import { t, applyTexts } from "./i18n.js";
import { renderer } from "./render/index.js";
import { displayName } from "./people.js";
import { loadTexts, setNamer, actionLabel } from "./gametext.js";
import { createLog } from "./log.js";
import { fetchSummary, summaryTable } from "./summary.js";
import { setBaseTitle, turnChanged, soundOn, setSound } from "./notify.js";
import { keepFocus, lastMoveBar, endExtras, labelBoard, addZoom, markLast } from "./tablekit.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const tokenKey = `sb:token:${tableId}`;
const $ = (id) => document.getElementById(id);

let ws = null;
let msg = null;          // the last "state" message
let info = null;         // GET /api/tables/{id}
let selection = [];      // ids clicked so far
let logSeq = 0;
let inbox = Promise.resolve();
let retry = 0;
let render = null;
let log = null;          // the game log (log.js)
let summary = null;      // the game's end summary, fetched once it is over

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

let revealed = false;    // the seed and salt were fetched (after the end)
let pending = null;      // the act waiting for its answer: sent again on a retryable error
let retries = 0;

function act(text) {
  if (!msg) return;
  $("error").textContent = "";
  selection = [];
  document.body.dataset.pending = "true"; // until the server answers (tests wait on it)
  // seq (and undone, the count of actions taken back): the state this act was made on. The
  // server applies it at most once, so sending it again after a passing failure (or a
  // reconnect) is safe, also after an undo brought the table back to the same seq.
  pending = { type: "act", action: text, seq: msg.seq };
  if (typeof msg.undone === "number") pending.undone = msg.undone;
  retries = 0;
  send(pending);
}

// Undo: take back this seat's last action of its turn where the rules allow it (the state says
// how many, msg.undo: no chance drawn, nothing hidden revealed). The new state comes by the socket.
async function undo() {
  if (!msg || !(msg.undo > 0) || document.body.dataset.pending) return;
  $("error").textContent = "";
  selection = [];
  document.body.dataset.pending = "true";
  const tok = stored();
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/undo`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-seat-token": (tok && tok.token) || "" },
    body: JSON.stringify(typeof msg.undone === "number" ? { seq: msg.seq, undone: msg.undone } : { seq: msg.seq }),
  }).catch(() => null);
  if (!r || !r.ok) {
    delete document.body.dataset.pending;
    $("error").textContent = r ? (await r.json().catch(() => ({}))).detail || r.statusText : t("reconnecting");
  }
}

function undoButton() {
  let btn = $("undo");
  if (!btn) {
    btn = h("button", { type: "button", id: "undo", class: "undo", "aria-keyshortcuts": "Control+Z Meta+Z", onclick: undo });
    $("actions").before(btn);
  }
  btn.textContent = t("undo");
  btn.title = t("undo_hint");
  btn.hidden = !(msg && msg.undo > 0 && msg.outcome == null);
  btn.style.display = btn.hidden ? "none" : ""; // (buttons are display: inline-block)
}

// Ctrl+Z (⌘Z): undo, unless the typing goes to a text box.
document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "z") {
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || (e.target && e.target.isContentEditable)) return;
    if (msg && msg.undo > 0) { e.preventDefault(); undo(); }
  }
});

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
    name: (i) => displayName(msg.players || [], i, null), // renderers add "(you)" themselves
    toAct: msg.to_act,
    legal: msg.legal || [],
    selected: (id) => selection.includes(id),
    clickable: (id) => reachable.has(id) && (msg.legal || []).length > 0,
    pick: onPick,
    act,
  };
}

function playerName(p, i) {
  const players = [];
  players[i] = p;
  return displayName(players, i, msg ? msg.seat : null);
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
    summaryTable(summary, (i) => playerName(players[i], i)),
    endExtras(tableId, info ? info.game : null),
    h("p", {}, h("a", { href: "/" }, t("play_new"))),
  ];
}

function draw() {
  if (!msg) return;
  const board = $("board");
  const refocus = keepFocus();
  clear(board);
  try {
    board.append(render(msg.view, ctx()));
  } catch (e) {
    console.error(e);
    board.append(h("pre", { class: "raw" }, JSON.stringify(msg.view, null, 2)));
  }
  labelBoard(board, info ? info.title : "");
  markLast(board, msg.events);
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
      title: a.text, onclick: () => act(a.text) }, actionLabel(a)));
  }
  $("typed").hidden = !(msg.legal && msg.legal.length);
  undoButton();
  lastMoveBar($("last-move"), log ? log.lastLine() : "");
  turnChanged(!over && msg.to_act === msg.seat && msg.seat != null, t("your_turn"));
  refocus();
}

// The log never holds up the table: if it cannot be fetched now, the next message tries again.
async function addLog(m) {
  try { await log.update(m); } catch (e) { console.warn("log", e); }
}

function connect() {
  const tok = stored();
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // The seat's token travels as a subprotocol, never in the URL (URLs end up in logs).
  const protocols = ["spillebord"];
  if (tok && tok.token) protocols.push(`token.${tok.token}`);
  ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`, protocols);
  ws.onopen = () => { retry = 0; $("status").textContent = t("connected_ok"); };
  // Messages are handled one after another (a handler awaits the log and the summary).
  ws.onmessage = (ev) => { inbox = inbox.then(() => onMessage(ev)).catch((e) => console.error(e)); };
  async function onMessage(ev) {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    window.dispatchEvent(new CustomEvent("sb:message", { detail: m })); // clocks, chat, notifications
    if (m.type === "state") {
      for (const a of m.legal || []) a.ids = idsOf(a.json);
      const fresh = !msg || m.seq !== msg.seq;
      if (msg && m.seq < msg.seq && log) {
        // An action was taken back (undo): the log is fetched whole again.
        log = createLog($("log"), tableId, { token: (stored() || {}).token, name: (i) => displayName(msg.players || [], i, null) });
      }
      msg = m;
      if (fresh) { await addLog(m); logSeq = m.seq; }
      if (m.outcome != null && !summary) summary = await fetchSummary(tableId);
      window.sbLast = m; // read by the browser tests
      if (pending && m.seq > pending.seq) pending = null;
      delete document.body.dataset.pending;
      if (fresh) selection = [];
      document.body.dataset.seq = String(m.seq);
      document.body.dataset.over = String(m.outcome != null);
      document.body.dataset.myturn = String(m.to_act === m.seat && m.seat != null && (m.legal || []).length > 0);
      draw();
      if (m.outcome != null || m.status === "closed") revealAtEnd();
    } else if (m.type === "players") {
      // Someone came or went: only the players changed.
      if (msg && m.seq === msg.seq) { msg.players = m.players; draw(); }
    } else if (m.type === "error") {
      if (m.retry && pending && msg && pending.seq === msg.seq && pending.undone === msg.undone && retries < 8) {
        // The database was busy for a moment; nothing changed: send the same act again.
        retries += 1;
        $("error").textContent = t("retrying");
        setTimeout(() => { if (pending) send(pending); }, 500 * retries);
        return;
      }
      pending = null;
      delete document.body.dataset.pending;
      $("error").textContent = m.message;
    }
  }
  ws.onclose = () => {
    $("status").textContent = t("reconnecting");
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * 2 ** retry);
  };
}

// The deal's commitment, published when the table was created (sha256 of "seed:salt"); once
// the game is over the seed and salt are revealed, and anyone can check them.
function showFairness(x) {
  if (!x || !x.commitment) return;
  let box = $("fairness");
  if (!box) {
    box = h("div", { id: "fairness", class: "share fairness" });
    document.querySelector(".share").after(box);
  }
  clear(box).append(h("span", {}, `${t("commitment")}: `),
    h("code", { id: "commitment", title: "sha256(seed:salt)" }, x.commitment));
  if (x.seed != null && x.salt) {
    box.append(h("br"), h("span", {}, `${t("revealed")}: `),
      h("code", { id: "revealed" }, `${x.seed}:${x.salt}`));
  }
}

async function revealAtEnd() {
  if (revealed) return;
  revealed = true;
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (r.ok) showFairness(await r.json());
}

async function showJoin() {
  const box = $("join");
  clear(box);
  const free = (info && info.free_seats) || [];
  if (stored() || !free.length) { box.hidden = true; return; }
  box.hidden = false;
  box.append(h("label", {}, t("name") + " ", h("input", { id: "join-name", maxlength: 40, autocomplete: "nickname",
    value: localStorage.getItem("sb:name") || "" })), " ");
  box.append(h("span", {}, t("take_seat") + ": "));
  for (const seat of free) {
    box.append(h("button", { type: "button", class: "primary", "data-seat": seat, onclick: async () => {
      const name = ($("join-name").value || "").trim();
      localStorage.setItem("sb:name", name);
      const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/join`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seat, name }),
      });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) { $("error").textContent = body.detail || r.statusText; return; }
      localStorage.setItem(tokenKey, JSON.stringify(body));
      location.reload();
    } }, `${t("join")} ${seat + 1}`));
  }
  box.append(h("span", { class: "muted" }, ` — ${t("spectating")}`));
}

async function main() {
  applyTexts();
  $("share").value = location.href;
  $("share").onclick = (e) => e.target.select();
  $("copy-link").onclick = async () => {
    try { await navigator.clipboard.writeText(location.href); $("copy-link").textContent = t("copied"); }
    catch { $("share").select(); document.execCommand("copy"); $("copy-link").textContent = t("copied"); }
  };
  $("typed").onsubmit = (e) => { e.preventDefault(); const v = $("typed-text").value.trim(); if (v) act(v); $("typed-text").value = ""; };
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!r.ok) { $("board").append(h("p", { class: "error" }, (await r.json().catch(() => ({}))).detail || "no such table")); return; }
  info = await r.json();
  setBaseTitle(`${info.title} — Spillebord`);
  $("rules-link").href = `/rules/${encodeURIComponent(info.game)}`;
  addZoom($("board"));
  $("sound").checked = soundOn();
  $("sound").onchange = (e) => setSound(e.target.checked);
  $("title").textContent = `${info.title} · ${tableId}`;
  document.body.dataset.game = info.game;
  showFairness(info);
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
  await loadTexts(info.game);
  const plain = (i) => displayName(msg ? msg.players : [], i, null); // names in the log, without "(you)"
  setNamer(plain);
  log = createLog($("log"), tableId, { token: (stored() || {}).token, name: plain });
  await showJoin();
  connect();
}

main();
