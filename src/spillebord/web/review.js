// The review of a finished game: for each decision of one seat, the move played, the search's
// best move, the estimated loss in chance of winning, and a verdict (inaccuracy, mistake and
// blunder marked). The server computes it in the background; the page shows its progress and
// then the table (kept on the server: the next visit shows it at once).
import { h, clear } from "./dom.js";
import { t, applyTexts } from "./i18n.js";
import { displayName } from "./people.js";
import { loadTexts, actionLabel } from "./gametext.js";
import { ht, pct } from "./hint-texts.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);
const MARKS = { blunder: "??", mistake: "?", inaccuracy: "?!" };
let info = null;
let seat = 0;
let timer = null;
window.sbReviewProgress = []; // every progress shown (read by the browser tests)

const name = (i) => displayName(info ? info.players : [], i, null);
const api = `/api/tables/${encodeURIComponent(tableId)}/review`;

function verdictText(v) { return ht(v === "best" ? "best_move" : v); }

function label(text, json) { return json ? actionLabel({ json, text }) : text; }

function progress(done, total) {
  $("progress-box").hidden = false;
  $("progress").max = Math.max(1, total || 1);
  $("progress").value = done || 0;
  $("progress-text").textContent = total == null ? "…" : `${done} / ${total}`;
  window.sbReviewProgress.push([done, total]);
  document.body.dataset.review = "running";
}

function table(decisions) {
  $("progress-box").hidden = true;
  const counts = { blunder: 0, mistake: 0, inaccuracy: 0 };
  for (const d of decisions) if (d.verdict in counts) counts[d.verdict] += 1;
  const decided = decisions.filter((d) => d.verdict !== "forced").length;
  $("review-summary").textContent = ht("review_summary").replace("{b}", counts.blunder)
    .replace("{m}", counts.mistake).replace("{i}", counts.inaccuracy).replace("{n}", decided);
  const rows = decisions.map((d) => {
    const bad = d.verdict in MARKS;
    const same = d.verdict === "best" || d.verdict === "forced";
    return h("tr", { class: `verdict-${d.verdict}`, "data-verdict": d.verdict, "data-index": String(d.index) },
      h("td", { class: "num" }, String(d.index + 1)),
      h("td", {}, label(d.played, d.played_json), bad ? h("strong", { class: "mark", "aria-hidden": "true" }, ` ${MARKS[d.verdict]}`) : ""),
      h("td", {}, same ? "" : label(d.best, d.best_json)),
      h("td", { class: "num" }, d.verdict === "forced" ? "" : same ? pct(d.chance_played) : `${pct(d.chance_played)} → ${pct(d.chance_best)}`),
      h("td", { class: "num" }, same ? "" : pct(d.loss)),
      h("td", {}, h("span", { class: `verdict-tag ${d.verdict}` }, verdictText(d.verdict))));
  });
  clear($("review-table-box")).append(h("table", { id: "review-table", class: "scores review-table" },
    h("caption", { class: "sr-only" }, `${ht("review_title")}: ${name(seat)}`),
    h("thead", {}, h("tr", {}, ...[ht("move_no"), ht("played"), ht("best"), ht("chance_h"), ht("loss"), ht("verdict")]
      .map((x, i) => h("th", { scope: "col", class: i === 0 || i === 3 || i === 4 ? "num" : "" }, x)))),
    h("tbody", {}, ...rows)));
  document.body.dataset.review = "done";
}

function answer(body) {
  if (body.status === "done") { table(body.decisions || []); return true; }
  if (body.status === "failed") {
    $("progress-box").hidden = true;
    $("error").textContent = `${ht("review_failed")}: ${body.error || ""}`;
    document.body.dataset.review = "failed";
    return true;
  }
  progress(body.done, body.total);
  return false;
}

async function poll() {
  try {
    const r = await fetch(`${api}?seat=${seat}`);
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { $("error").textContent = body.detail || r.statusText; return; }
    if (body.status === "none") { start(); return; }
    if (!answer(body)) timer = setTimeout(poll, 400);
  } catch { timer = setTimeout(poll, 1500); }
}

async function start() {
  clearTimeout(timer);
  $("error").textContent = "";
  $("review-summary").textContent = "";
  clear($("review-table-box"));
  const r = await fetch(api, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seat }) });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { $("error").textContent = body.detail || r.statusText; document.body.dataset.review = "refused"; return; }
  if (!answer(body)) timer = setTimeout(poll, 300);
}

async function main() {
  applyTexts();
  $("review-heading").textContent = ht("review_title");
  $("review-explain").textContent = ht("review_explain");
  $("seat-label").textContent = ht("review_seat");
  $("progress-label").textContent = ht("reviewing");
  $("replay-link").textContent = ht("replay");
  $("table-link").textContent = ht("back_to_table");
  const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!r.ok) { $("error").textContent = (await r.json().catch(() => ({}))).detail || "no such table"; return; }
  info = await r.json();
  document.title = `${ht("review_title")} — ${info.title} — Spillebord`;
  $("title").textContent = `${info.title} · ${tableId}`;
  $("rules-link").href = `/rules/${encodeURIComponent(info.game)}`;
  $("replay-link").href = `/replay/${encodeURIComponent(tableId)}?end`;
  $("table-link").href = `/table/${encodeURIComponent(tableId)}`;
  await loadTexts(info.game);
  const want = Number(new URLSearchParams(location.search).get("seat") || 0);
  seat = Number.isInteger(want) && want >= 0 && want < info.seats ? want : 0;
  const sel = $("seat");
  for (let i = 0; i < info.seats; i++) sel.append(h("option", { value: String(i), selected: i === seat }, name(i)));
  sel.onchange = () => {
    seat = Number(sel.value);
    history.replaceState(null, "", `?seat=${seat}`);
    start();
  };
  if (info.status !== "over") { $("error").textContent = ht("not_over"); document.body.dataset.review = "refused"; return; }
  start();
}

main();
