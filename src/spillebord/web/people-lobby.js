// The lobby's people parts: links to "my tables" and the leaderboards, turn notifications,
// and the new table's time control, rating and chat (lobby.js adds window.sbCreateExtras()
// to the table it creates).
import { h } from "./dom.js";
import { pt } from "./people-texts.js";
import { watchTurns } from "./notify-turns.js";

const bar = document.querySelector(".bar");
if (bar) {
  const lang = bar.querySelector(".lang");
  const links = h("nav", { class: "people-links" },
    h("a", { href: "/me", id: "me-link" }, pt("me")), " · ", h("a", { href: "/leaderboard" }, pt("leaderboard")));
  if (lang) lang.before(links); else bar.append(links);
}

const num = (id, value, min, max, step = 1) => h("input", { id, type: "number", value, min, max, step, style: "width:5em" });
const mode = h("select", { id: "tc-mode" },
  h("option", { value: "" }, pt("tc_none")), h("option", { value: "realtime" }, pt("tc_realtime")),
  h("option", { value: "turn" }, pt("tc_turn")));
const bank = num("tc-bank", 10, 1, 1440);
const inc = num("tc-inc", 5, 0, 3600);
const hours = num("tc-hours", 24, 1, 720);
const onTimeout = h("select", { id: "tc-timeout" },
  h("option", { value: "bot" }, pt("timeout_bot")), h("option", { value: "lose" }, pt("timeout_lose")));
const timeoutBot = h("select", { id: "tc-bot", "aria-label": pt("timeout_bot") });
const rated = h("input", { id: "rated", type: "checkbox", checked: true });
const chat = h("select", { id: "chat-policy" },
  h("option", { value: "players" }, pt("chat_players")), h("option", { value: "seated" }, pt("chat_seated")),
  h("option", { value: "off" }, pt("chat_none")));
const rt = h("span", { class: "tc-rt", hidden: true }, bank, ` ${pt("bank_min")} + `, inc, ` ${pt("increment_s")}`);
const tb = h("span", { class: "tc-tb", hidden: true }, hours, ` ${pt("per_move_h")}`);
const when = h("label", { hidden: true }, `${pt("on_timeout")}: `, onTimeout, " ", timeoutBot);
onTimeout.onchange = () => { timeoutBot.hidden = onTimeout.value !== "bot"; };
mode.onchange = () => { rt.hidden = mode.value !== "realtime"; tb.hidden = mode.value !== "turn"; when.hidden = !mode.value; };
const box = h("fieldset", { class: "people-create" }, h("legend", {}, pt("time_control")),
  h("div", { class: "row" }, mode, rt, tb, when),
  h("div", { class: "row" }, h("label", { class: "check" }, rated, ` ${pt("rated")}`),
    h("label", {}, `${pt("chat_policy")}: `, chat)));
const form = document.getElementById("create");
if (form) {
  const details = form.querySelector("details");
  if (details) details.after(box); else form.prepend(box);
}

// The bot that takes a timed-out seat: one of the chosen game's, its best by default.
let games = [];
fetch("/api/games").then((r) => r.json()).then((g) => { games = g; }).catch(() => {});
document.addEventListener("click", (e) => {
  const card = e.target.closest && e.target.closest(".game[data-game]");
  const g = card && games.find((x) => x.id === card.dataset.game);
  if (!g) return;
  timeoutBot.replaceChildren(...g.bots.map((b) => h("option", { value: b, selected: b === g.best_bot }, `${b} (${pt("kind_bot")})`)));
});

window.sbCreateExtras = () => {
  const out = { rated: rated.checked, chat: chat.value };
  const rule = { on_timeout: onTimeout.value, ...(onTimeout.value === "bot" && timeoutBot.value ? { bot: timeoutBot.value } : {}) };
  if (mode.value === "realtime") out.clock = { mode: "realtime", bank: +bank.value * 60, increment: +inc.value, ...rule };
  if (mode.value === "turn") out.clock = { mode: "turn", per_decision: +hours.value * 3600, ...rule };
  return out;
};

watchTurns(null);
