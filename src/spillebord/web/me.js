// "My tables": log in or register; the account's tables (where it is your turn first) and
// finished games with their replay record; log out, here or everywhere.
import { h, clear } from "./dom.js";
import { applyTexts } from "./i18n.js";
import { pt } from "./people-texts.js";
import { watchTurns, askPermission } from "./notify-turns.js";

const main = document.getElementById("me");
const post = (url, body) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body || {}) });

function loginForm() {
  const name = h("input", { id: "acc-name", autocomplete: "username", maxlength: 40, required: true });
  const pw = h("input", { id: "acc-password", type: "password", autocomplete: "current-password", minlength: 8, required: true });
  const err = h("div", { class: "error", id: "acc-error", role: "alert" });
  const go = (path) => async (e) => {
    e.preventDefault();
    err.textContent = "";
    const r = await post(`/api/account/${path}`, { name: name.value.trim(), password: pw.value });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { err.textContent = body.detail || r.statusText; return; }
    location.reload(); // logged in: the page (and its turn notifications) start over
  };
  const form = h("form", { class: "create", id: "login-form" },
    h("p", { class: "muted" }, pt("anonymous")),
    h("label", {}, `${pt("account_name")} `, name), h("label", {}, `${pt("password")} `, pw),
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary", id: "login-btn" }, pt("login")),
      h("button", { type: "button", id: "register-btn", onclick: go("register") }, pt("register"))), err);
  form.onsubmit = go("login");
  return form;
}

function row(m) {
  // Keep the seat's token where the table page looks for it: this browser plays the seat.
  localStorage.setItem(`sb:token:${m.table}`, JSON.stringify({ seat: m.seat, token: m.token }));
  return h("tr", { class: m.your_turn ? "your-turn" : "", "data-table": m.table },
    h("td", {}, h("a", { href: m.url }, `${m.title} · ${m.table}`)),
    h("td", {}, m.your_turn ? h("b", {}, pt("your_turn_in")) : m.status === "over" ? "" : pt("waiting")),
    h("td", {}, m.record ? h("a", { href: m.record }, pt("replay")) : ""));
}

async function show() {
  applyTexts();
  const me = await fetch("/api/account/me").then((r) => r.json());
  clear(main);
  document.getElementById("who").textContent = me.logged_in ? `${pt("logged_in_as")} ${me.name}` : "";
  if (!me.logged_in) { main.append(h("h2", {}, pt("login")), loginForm()); return; }
  const mine = await fetch("/api/me/tables").then((r) => (r.ok ? r.json() : []));
  const live = mine.filter((m) => m.status !== "over");
  const done = mine.filter((m) => m.status === "over");
  main.append(h("h2", {}, pt("me")),
    live.length ? h("table", { class: "list", id: "my-tables" }, h("tbody", {}, live.map(row))) : h("p", { class: "muted" }, pt("no_my_tables")),
    h("h2", {}, pt("finished")),
    h("table", { class: "list", id: "my-finished" }, h("tbody", {}, done.map(row))),
    h("div", { class: "row" },
      h("button", { type: "button", onclick: askPermission }, pt("notify")), " ",
      h("button", { type: "button", id: "logout", onclick: async () => { await post("/api/account/logout"); location.reload(); } }, pt("logout")), " ",
      h("button", { type: "button", id: "logout-all", onclick: async () => { await post("/api/account/logout-everywhere"); location.reload(); } }, pt("logout_all"))));
}

show();
watchTurns(null);
