// Playing cards drawn as cards: rank and suit in the corners, a big pip in the middle;
// backs for hidden cards. Ids are the engines' ids: "9H", "10D", "AS", "KC"; jokers "JK…".
import { s } from "./dom.js";

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
export const CARD_W = 50;
export const CARD_H = 72;

export function parseCard(id) {
  if (typeof id !== "string") return null;
  const m = /^(10|[2-9AJQKT1]|[0-9]{1,2})([SHDC])(?:[a-z]|[#:.-].*)?$/.exec(id);
  if (m) return { rank: m[1].toUpperCase() === "T" ? "10" : m[1].toUpperCase(), suit: m[2].toUpperCase() };
  if (/^(JK|JOKER|X|\*)/i.test(id)) return { rank: "★", suit: null, joker: true };
  return null;
}

export function isCardId(x) {
  return parseCard(x) !== null;
}

export function cardLabel(id) {
  const c = parseCard(id);
  if (!c) return String(id);
  return c.joker ? "★" : `${c.rank}${SUITS[c.suit]}`;
}

// One card at (x, y). opts: {id, faceDown, selected, clickable, small, label}
export function card(x, y, id, opts = {}) {
  const w = opts.small ? CARD_W * 0.72 : CARD_W;
  const hgt = opts.small ? CARD_H * 0.72 : CARD_H;
  const g = s("g", {
    transform: `translate(${x},${y})`,
    class: ["card", opts.clickable ? "clickable" : "", opts.selected ? "selected" : ""].join(" ").trim(),
    "data-id": opts.clickable || opts.dataId ? (opts.dataId ?? id) : null, "data-ref": id,
    tabindex: opts.clickable ? 0 : null,
    role: opts.clickable ? "button" : null,
    "aria-label": opts.faceDown ? "hidden card" : cardLabel(id),
  });
  if (opts.faceDown || id == null) {
    g.append(s("rect", { width: w, height: hgt, rx: 5, class: "card-back" }));
    g.append(s("rect", { x: 4, y: 4, width: w - 8, height: hgt - 8, rx: 3, class: "card-back-inner" }));
    return g;
  }
  const c = parseCard(id) || { rank: String(id), suit: null };
  const colour = c.joker ? "joker" : RED.has(c.suit) ? "red" : "black";
  const pip = c.joker ? "★" : SUITS[c.suit] || "";
  g.append(s("rect", { width: w, height: hgt, rx: 5, class: "card-face" }));
  g.append(s("text", { x: 5, y: 15, class: `card-rank ${colour}`, "font-size": opts.small ? 11 : 14 }, opts.label ?? c.rank));
  g.append(s("text", { x: 5, y: opts.small ? 26 : 29, class: `card-suit ${colour}`, "font-size": opts.small ? 10 : 13 }, pip));
  g.append(s("text", { x: w / 2, y: hgt / 2 + (opts.small ? 7 : 10), "text-anchor": "middle",
    class: `card-pip ${colour}`, "font-size": opts.small ? 20 : 28 }, pip));
  return g;
}

// A row of cards; returns {g, width}.
export function cardRow(x, y, ids, opts = {}) {
  const gap = opts.gap ?? (opts.small ? 40 : 56);
  const g = s("g", {});
  ids.forEach((id, i) => {
    g.append(card(x + i * gap, y, id, {
      ...opts,
      clickable: opts.isClickable ? opts.isClickable(id) : opts.clickable,
      selected: opts.isSelected ? opts.isSelected(id) : false,
    }));
  });
  return { g, width: ids.length ? (ids.length - 1) * gap + CARD_W : 0 };
}

export function backs(x, y, n, opts = {}) {
  const g = s("g", {});
  const shown = Math.min(n, opts.max ?? 8);
  for (let i = 0; i < shown; i++) g.append(card(x + i * (opts.gap ?? 10), y, null, { faceDown: true, small: opts.small }));
  if (n > 0) g.append(s("text", { x: x + shown * (opts.gap ?? 10) + (opts.small ? 40 : 56), y: y + 30, class: "count" }, `×${n}`));
  return g;
}
