// The lobby: the games with a picture each, a form to create a table (seats, bots, rule options
// with their explanations), and the list of open and running tables.
import { h, clear } from "./dom.js";
import { t, applyTexts } from "./i18n.js";
import { personName, botName, botWord } from "./people.js";
import { loadTexts, optionLabel, optionHelp } from "./gametext.js";
import { ht } from "./hint-texts.js";

const $ = (id) => document.getElementById(id);
let games = [];
let chosen = null;

function gameCard(g) {
  return h("div", { class: "game-wrap" }, h("button", { type: "button", class: "game", "data-game": g.id, onclick: () => choose(g) },
    h("img", { src: `/static/img/${g.id}.svg`, alt: "", loading: "lazy", onerror: (e) => { e.target.remove(); } }),
    h("strong", {}, g.title),
    h("span", { class: "muted" }, `${g.seats[0]}–${g.seats[1]} ${t("players_range")}`),
    h("span", { class: "summary" }, g.summary || "")),
    h("a", { href: `/rules/${encodeURIComponent(g.id)}`, class: "rules-of", "data-rules": g.id }, `${t("rules")}: ${g.title}`));
}

function optionField(o, quick) {
  const value = quick && o.name in quick ? quick[o.name] : o.default;
  let input;
  if (o.kind === "bool") {
    input = h("input", { type: "checkbox", name: o.name, checked: !!value });
  } else if (o.kind === "choice") {
    input = h("select", { name: o.name }, ...o.choices.map((c) => h("option", { value: String(c), selected: String(c) === String(value) }, String(c).replace(/_/g, " "))));
  } else {
    input = h("input", { name: o.name, type: o.kind === "int" || o.kind === "float" ? "number" : "text",
      value: value ?? "", placeholder: o.optional ? "—" : null, min: o.min, max: o.max,
      step: o.kind === "float" ? "any" : null });
  }
  return h("label", { class: "option", title: o.name }, h("span", { class: "opt-name" }, optionLabel(o.name)), input,
    h("small", { class: "help" }, optionHelp(o.name, o.help)));
}

function seatKinds(n) {
  const box = clear($("seat-kinds"));
  const bots = chosen.bots || ["random", "greedy"];
  for (let i = 0; i < n; i++) {
    const sel = h("select", { name: `seat-${i}`, "data-seat": i },
      h("option", { value: "" }, i === 0 ? t("you") : t("human")),
      ...bots.map((b) => h("option", { value: b, selected: i > 0 && b === (chosen.best_bot || bots[bots.length - 1]) }, botName(b, i))));
    box.append(h("label", {}, `${t("seat")} ${i + 1} `, sel));
  }
}

// What each level plays at the chosen game ("Expert (Gatherer) · Master (search, 100 iterations a
// move)"), so a player sees that two levels may be the same bot with and without mistakes.
function levelsLine() {
  const parts = (chosen.levels || []).map((l) => {
    const called = t(`level_${l.agent}`);
    if (l.plays === "search") return `${called} (${t("level_search").replace("{n}", l.iterations)})`;
    return l.plays === "softmax" ? called : `${called} (${botWord(l.plays)})`;
  });
  $("levels-line").textContent = parts.length ? t("levels_line").replace("{levels}", parts.join(" · ")) : "";
}

function choose(g) {
  chosen = g;
  // The options show at once; their labels turn into the reader's language when the game's texts arrive.
  loadTexts(g.id).then(() => {
    if (chosen !== g) return;
    for (const el of $("options").querySelectorAll(".option")) {
      el.querySelector(".opt-name").textContent = optionLabel(el.title);
      const o = chosen.options.find((x) => x.name === el.title);
      el.querySelector(".help").textContent = optionHelp(el.title, o ? o.help : "");
    }
  });
  for (const el of document.querySelectorAll(".game")) el.classList.toggle("chosen", el.dataset.game === g.id);
  $("create-section").hidden = false;
  $("create-title").textContent = g.title;
  const seats = clear($("seats"));
  for (let n = g.seats[0]; n <= g.seats[1]; n++) seats.append(h("option", { value: n }, String(n)));
  seats.onchange = () => seatKinds(+seats.value);
  seatKinds(g.seats[0]);
  levelsLine();
  renderOptions();
  $("quick").onchange = renderOptions;
  $("create-section").scrollIntoView({ behavior: "smooth", block: "start" });
}

function renderOptions() {
  const quick = $("quick").checked ? chosen.quick_options || {} : {};
  clear($("options")).append(...chosen.options.map((o) => optionField(o, quick)));
}

function collectOptions() {
  const out = {};
  for (const o of chosen.options) {
    const el = $("options").querySelector(`[name="${o.name}"]`);
    if (!el) continue;
    let v = o.kind === "bool" ? el.checked : el.value;
    if ((o.kind === "int" || o.kind === "float") && v === "") v = o.optional ? null : o.default;
    if (String(v) !== String(o.default ?? "")) out[o.name] = v;
  }
  return out;
}

async function create(e) {
  e.preventDefault();
  $("create-error").textContent = "";
  const n = +$("seats").value;
  const bots = [...$("seat-kinds").querySelectorAll("select")].map((s) => s.value || null);
  const name = $("name").value.trim();
  localStorage.setItem("sb:name", name);
  const body = { game: chosen.id, seats: n, options: collectOptions(), bots, public: $("public").checked, name,
    ...(window.sbCreateExtras ? window.sbCreateExtras() : {}) }; // time control, rated, chat
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const res = await r.json().catch(() => ({}));
  if (!r.ok) {
    const d = res.detail;
    $("create-error").textContent = typeof d === "string" ? d : Array.isArray(d) ? d.map((x) => x.msg).join("; ") : r.statusText;
    return;
  }
  if (res.token) localStorage.setItem(`sb:token:${res.table}`, JSON.stringify({ seat: res.seat, token: res.token }));
  location.href = `/table/${encodeURIComponent(res.table)}`;
}

async function refreshTables() {
  try {
    const r = await fetch("/api/tables");
    const list = await r.json();
    const box = clear($("tables"));
    if (!list.length) { box.append(h("p", { class: "muted" }, t("no_tables"))); refreshRecent(); return; }
    const tbl = h("table", { class: "list" });
    for (const x of list) {
      const mine = localStorage.getItem(`sb:token:${x.table}`);
      tbl.append(h("tr", { "data-table": x.table, title: x.note || null },
        h("td", {}, h("strong", {}, x.title)),
        h("td", {}, t(x.status) || x.status),
        h("td", {}, (x.players || []).map((p, i) => personName(p, i)).join(", ")),
        h("td", {}, mine ? h("a", { href: `/table/${x.table}`, class: "button primary" }, t("play"))
          : (x.free_seats || []).length ? h("a", { href: `/table/${x.table}`, class: "button primary" }, t("join")) : "",
          " ", h("a", { href: `/table/${x.table}`, class: "button" }, t("watch")))));
    }
    box.append(tbl);
  } catch { /* the next refresh will try again */ }
  refreshRecent();
}

// Finished public games: their result, a replay and a rematch to watch.
async function refreshRecent() {
  const box = $("recent");
  if (!box) return;
  try {
    const list = await (await fetch("/api/recent")).json();
    clear(box);
    if (!list.length) { box.append(h("p", { class: "muted" }, "—")); return; }
    const tbl = h("table", { class: "list" });
    for (const x of list) {
      const best = x.outcome ? Math.max(...x.outcome) : null;
      tbl.append(h("tr", { "data-table": x.table },
        h("td", {}, h("strong", {}, x.title)),
        h("td", {}, (x.players || []).map((p, i) => (x.outcome && x.outcome[i] === best ? "★ " : "") + personName(p, i)).join(", ")),
        h("td", {}, h("a", { href: `/replay/${x.table}`, class: "button" }, t("replay")), " ",
          h("a", { href: `/table/${x.table}`, class: "button" }, t("watch")), " ",
          h("a", { href: `/review/${x.table}?seat=${(JSON.parse(localStorage.getItem(`sb:token:${x.table}`) || "null") || {}).seat ?? 0}`, class: "button review-link" }, ht("review")))));
    }
    box.append(tbl);
  } catch { /* next time */ }
}

async function main() {
  applyTexts();
  $("name").value = localStorage.getItem("sb:name") || "";
  $("create").onsubmit = create;
  const r = await fetch("/api/games");
  games = await r.json();
  clear($("games")).append(...games.map(gameCard));
  const want = new URLSearchParams(location.search).get("game");
  if (want) { const g = games.find((x) => x.id === want); if (g) choose(g); }
  refreshTables();
  setInterval(refreshTables, 3000);
}

main();
