// The table page's people parts: live clocks, the chat, and turn notifications. table.js
// hands every websocket message to them as a "sb:message" event.
import { h } from "./dom.js";
import { mountClocks } from "./clock.js";
import { mountChat } from "./chat.js";
import { watchTurns } from "./notify-turns.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const side = document.querySelector(".side") || document.body;
const clocks = h("div", { id: "clocks", class: "clocks", hidden: true });
const chat = h("div", { id: "chat", class: "chat" });
const turn = document.getElementById("turn");
if (turn) turn.after(clocks); else side.prepend(clocks);
side.append(chat);
mountClocks(clocks);
mountChat(chat, tableId);
watchTurns(tableId);
