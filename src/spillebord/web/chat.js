// The table's chat: seated players write, spectators read (or not, as the table chose).
// Lines are text: they are put in the page with textContent (dom.js's h), never as HTML.
import { h, clear } from "./dom.js";
import { pt } from "./people-texts.js";

export async function mountChat(box, tableId) {
  const api = `/api/tables/${encodeURIComponent(tableId)}`;
  const seatToken = () => { try { return (JSON.parse(localStorage.getItem(`sb:token:${tableId}`) || "null") || {}).token || null; } catch { return null; } };
  const settings = await fetch(`${api}/settings`).then((r) => (r.ok ? r.json() : { chat: "players" })).catch(() => ({ chat: "players" }));
  clear(box).append(h("h3", {}, pt("chat")));
  if (settings.chat === "off") { box.append(h("p", { class: "muted" }, pt("chat_off"))); return; }
  const list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
  const err = h("div", { class: "error", id: "chat-error", role: "alert" });
  box.append(list);
  let lastId = 0;
  const add = (lines) => {
    for (const l of lines) {
      if (l.id <= lastId) continue;
      lastId = l.id;
      list.append(h("li", { "data-id": l.id }, h("b", {}, `${l.name}: `), h("span", { class: "text" }, l.text)));
    }
    while (list.children.length > 200) list.firstChild.remove();
    list.scrollTop = list.scrollHeight;
  };
  window.addEventListener("sb:message", (e) => { if (e.detail && e.detail.type === "chat") add(e.detail.lines || []); });
  const read = await fetch(`${api}/chat/read`, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ since: 0, token: seatToken() }) });
  if (read.ok) add(await read.json());
  if (!seatToken()) { box.append(h("p", { class: "muted" }, pt("chat_readonly"))); return; }
  const input = h("input", { id: "chat-text", maxlength: 500, placeholder: pt("chat_placeholder"), "aria-label": pt("chat"), autocomplete: "off" });
  const form = h("form", { class: "chat-form", id: "chat-form" }, input, h("button", { type: "submit" }, pt("say")));
  form.onsubmit = async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    err.textContent = "";
    const r = await fetch(`${api}/chat`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ text, token: seatToken() }) });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { err.textContent = body.detail || r.statusText; return; }
    // Clear only what was sent: a line typed while this one was on its way stays.
    if (input.value.trim() === text) input.value = "";
    add([body]);
  };
  box.append(form, err);
}
