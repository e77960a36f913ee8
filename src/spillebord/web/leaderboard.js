// A game's leaderboard: people and bots on one OpenSkill scale (the arena's), ranked by the
// conservative estimate mu − 3σ.
import { h, clear } from "./dom.js";
import { applyTexts } from "./i18n.js";
import { pt } from "./people-texts.js";

const sel = document.getElementById("game");
const main = document.getElementById("board");

async function show() {
  const game = sel.value;
  history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(game)}`);
  const rows = await fetch(`/api/ratings/${encodeURIComponent(game)}`).then((r) => (r.ok ? r.json() : []));
  clear(main).append(h("h2", {}, `${pt("leaderboard")}: ${sel.selectedOptions[0].textContent}`),
    h("table", { class: "list", id: "ratings" },
      h("thead", {}, h("tr", {}, h("th", {}, pt("rank")), h("th", {}, pt("account_name")), h("th", {}, pt("rating")),
        h("th", {}, "μ ± σ"), h("th", {}, pt("games_played")))),
      h("tbody", {}, rows.map((r) => h("tr", { class: r.kind },
        h("td", {}, r.rank), h("td", {}, r.name, r.kind === "bot" ? h("span", { class: "muted" }, ` (${pt("kind_bot")})`) : ""),
        h("td", {}, r.ordinal.toFixed(1)), h("td", {}, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`), h("td", {}, r.games))))));
}

async function main_() {
  applyTexts();
  const games = await fetch("/api/games").then((r) => r.json());
  for (const g of games) sel.append(h("option", { value: g.id }, g.title));
  const want = new URLSearchParams(location.search).get("game");
  if (want && games.some((g) => g.id === want)) sel.value = want;
  sel.onchange = show;
  show();
}

main_();
